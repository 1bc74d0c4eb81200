"""The dialog act of a reply: does it ask the user something, and for which information?

``dialog_act(text)`` reads each question (a sentence ending in ``?``) and each request phrased as a
statement (``please tell me``, ``let me know``) and sorts it into:

- an **information request**, with the information it asks for as *topics* (``date``, ``time``,
  ``destination``, ``count`` ...; a date or time carries its role when one is named:
  ``date:departure``, ``date:return``, ``time:pickup``); ``What date would you like to leave?`` and
  ``Could you tell me your departure date?`` both ask for ``date:departure``;
- a **confirmation request** (``Is that correct?``, ``Please confirm``);
- an **offer** (``How about Delta?``, ``Would you like me to book it?``);
- **anything else** (``Anything else I can help you with?``), a goodbye.

Topics come from a table of cue words (``TOPICS``); a request none of whose words is a cue has the
topic ``?`` (unknown), and comparisons involving it are left to the semantic stage.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from aem_strands.compare.reply_signals import facts_in

TOPICS: tuple[tuple[str, str], ...] = (
    # (regular expression on the folded sentence, topic), every match counts; "root:role" topics
    # agree with their bare root ("date:departure" with "date")
    (
        r"\b(what|which) (date|day)s?\b|\bdates?\b|\bdays?\b|\bwhich day\b|\buntil when\b|\btill when\b"
        r"|\bwhen\b(?!.*\btime\b)",
        "date",
    ),
    (r"\btimes?\b|\bwhat hour\b|\bhow early\b|\bhow late\b", "time"),
    (r"\bhow long\b|\bhow many (days|nights|weeks)\b|\bduration\b", "duration"),
    (
        r"\bhow many\b(?! (days|nights|weeks))|\bnumber of\b|\bparty size\b|\bhow big\b|\bhow large\b|\bgroup\b"
        r"|\bseats\b|\bpeople\b|\btickets\b|\bpassengers\b",
        "count",
    ),
    (
        r"\bwhere\b.*\b(to|going|headed|heading|go)\b|\bdestination\b|\b(going|flying|traveling|travelling|headed|"
        r"heading|go|travel|fly) to\b|\bwhere to\b|\barrival (city|airport)\b|\bvisit\b",
        "place:destination",
    ),
    (
        r"\b(leaving|departing|flying|traveling|travelling|starting|coming|depart|leave|start) from\b|\borigin\b|"
        r"\bwhere\b.*\bfrom\b|\bfrom (where|which)\b|\bdeparture (city|airport|location|station)\b",
        "place:origin",
    ),
    (r"\bcity\b|\bwhere\b|\blocation\b|\barea\b|\bplace\b|\bneighbou?rhood\b|\baddress\b|\bmetropolis\b", "place"),
    (r"\bhow much\b|\bprice\b|\bbudget\b|\bcost\b|\bamount\b|\bfare\b|\bfunds\b", "amount"),
    (r"\bcuisine\b|\bfood\b|\bkind of (food|restaurant)\b|\btype of (food|restaurant)\b", "kind:cuisine"),
    (
        r"\bgenre\b|\bkind of (music|movie|film|show|event)s?\b|\btype of (music|movie|film|show|event)s?\b",
        "kind:genre",
    ),
    (r"\b(seat|seating|cabin)\b|\bclass\b", "kind:class"),
    (r"\b(kind|type|category|sort|style)\b", "kind"),
    (r"\b(name|called|title)\b", "name"),
    (r"\bmovies?\b|\bfilms?\b|\bshows?\b", "movie"),
    (r"\bsongs?\b|\bartists?\b|\bsingers?\b|\bband\b|\balbum\b|\btrack\b|\bmusic\b", "music"),
    (r"\brestaurants?\b", "restaurant"),
    (r"\bhotels?\b", "hotel"),
    (r"\bairlines?\b|\bcarrier\b", "airline"),
    (r"\b(car|vehicle|ride)s?\b", "car"),
    (r"\b(doctor|dentist|stylist|salon|therapist|physician)s?\b", "provider"),
    (r"\baccounts?\b|\bchecking account\b|\bsavings\b", "account"),
    (r"\b(recipient|receiver|send (it|the money) to|to whom|who)\b", "recipient"),
    (r"\bpayment method\b|\bpay with\b|\bcard\b|\bcredit\b|\bdebit\b", "payment"),
    (r"\b(bedrooms?|bed rooms?|beds?|bathrooms?|baths?)\b", "rooms"),
    (r"\b(device|speaker|tv|television|room)\b", "device"),
    (r"\bevents?\b|\bconcerts?\b|\bgames?\b|\bmatch\b", "event"),
    (r"\battractions?\b|\bsights?\b|\bplaces to (see|visit)\b", "attraction"),
    (r"\brating\b|\bstars?\b", "rating"),
    (r"\b(e-?mail|phone|contact)\b", "contact"),
    (r"\breason\b|\bwhy\b", "reason"),
)
OBJECTS = frozenset(["movie", "music", "restaurant", "hotel", "car", "provider", "event", "attraction", "account"])
"""Topics that name what a request is about rather than what it asks for: they count only alone."""

_ROLES: tuple[tuple[str, str], ...] = (
    (r"\b(return|returning|come back|coming back|get back|back|until when|till when|until which)\b", "return"),
    (r"\bcheck[- ]?out\b|\bleave the hotel\b", "checkout"),
    (r"\bcheck[- ]?in\b", "checkin"),
    (r"\bpick[- ]?(it |the car |the vehicle )?up\b|\bcollect\b", "pickup"),
    (r"\bdrop[- ]?off\b|\breturn the car\b", "dropoff"),
    (r"\b(leave|leaving|depart|departure|departing|outbound|go|going|travel|fly|flying|onward)\b", "departure"),
)
_TOPICS = tuple((re.compile(pattern), topic) for pattern, topic in TOPICS)
_ROLE_PATTERNS = tuple((re.compile(pattern), role) for pattern, role in _ROLES)
_SENTENCE = re.compile(r"[^.!?]*[.!?]?")
_STATED_REQUEST = re.compile(
    r"\b(please (tell|let|provide|specify|give|choose|select|say|enter|share|send|confirm)|let me know|tell me|"
    r"can you confirm|confirm (that|this|the|your))\b"
)
_WH = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|sure|great|alright|and|so|also|well|then|of course|certainly|no problem|perfect)[,!.]?\s+)*"
    r"(what|which|where|when|who|whom|whose|how|why|until|till|from where|for how|for when|in what|in which|at what|"
    r"on which|on what)\b"
)
_WH_ANYWHERE = re.compile(r"\b(what|which|where|when|who|whom|whose|how (many|much|long|big|large|early|late))\b")
_PREFERENCE = re.compile(r"\b(prefer|preference|preferred|particular|in mind|specific|any idea)\b")
_CONFIRM = re.compile(
    r"\b(confirm|is (that|this|it|everything) (correct|right|ok|okay|fine|accurate)|correct\?|right\?|"
    r"does (that|this|it|everything) (sound|look) (good|right|correct|ok|okay|fine)|sounds? good\?|"
    r"are (these|those) (details )?(correct|right)|shall i (go ahead|proceed))"
)
_OFFER = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|sure|great|alright|and|so|also|well|then)[,!]?\s+)*"
    r"(how about|what about|would you like|do you want|would you prefer|shall i|should i|can i|may i|"
    r"do you wish|are you interested|would you be interested|is there|there is)\b"
)
_MORE = re.compile(
    r"\b(anything else|something else|any other|anything more|anything i can|else i can|help you with anything|"
    r"further (help|assistance)|other (help|request|questions?)|what else|help (you )?further|"
    r"some other way|more help|help with anything|anything further)\b"
)
_GOODBYE = re.compile(
    r"\b(good ?bye|bye|have a (good|nice|great|wonderful|pleasant|lovely)|enjoy|take care|see you|you'?re welcome|"
    r"welcome|glad (to|i could)|happy to help|my pleasure|anytime|thanks?|thank you)\b"
)


@dataclass(frozen=True)
class DialogAct:
    """What a reply does: the topics it asks for, and whether it asks, confirms, offers, or closes."""

    requests: frozenset[str]
    asks: bool
    confirms: bool
    offers: bool
    more: bool
    goodbye: bool

    @property
    def requests_information(self) -> bool:
        return bool(self.requests)


def _topics(sentence: str) -> set[str]:
    found = {topic for pattern, topic in _TOPICS if pattern.search(sentence)}
    if found & {"place:destination", "place:origin"}:
        found.discard("place")
    if {"place:destination", "place:origin"} <= found and not re.search(r"\bto\b|destination", sentence):
        found.discard("place:destination")
    if "recipient" in found and "name" in found:
        found.discard("name")
    if "kind" in found and any(t.startswith("kind:") for t in found):
        found.discard("kind")
    roles = [role for pattern, role in _ROLE_PATTERNS if pattern.search(sentence)]
    for base in ("date", "time"):
        if base in found and roles:
            found.discard(base)
            found.add(f"{base}:{roles[0]}")
    if found - OBJECTS:
        found -= OBJECTS
    return found or {"?"}


@functools.lru_cache(maxsize=1 << 14)
def dialog_act(text: str) -> DialogAct:
    """The dialog act of ``text`` (see the module docstring)."""
    original = text.replace("\u2019", "'")
    folded = original.casefold()
    requests: set[str] = set()
    asks = confirms = offers = False
    for match in _SENTENCE.finditer(folded):
        sentence = match.group()
        ending = sentence.rstrip()[-1:]
        # a wh-sentence is a question even without "?" (typed in haste), unless it ends as a statement
        question = ending == "?" or (ending not in (".", "!") and bool(_WH.search(sentence)))
        wh = question and bool(_WH_ANYWHERE.search(sentence))
        stated = bool(_STATED_REQUEST.search(sentence))
        if not question and not stated:
            continue
        asks = True
        if _CONFIRM.search(sentence):
            confirms = True
        elif _MORE.search(sentence):
            continue
        elif (_OFFER.search(sentence) and not stated) or (not wh and not stated and not _PREFERENCE.search(sentence)):
            offers = True  # a yes/no question that names no preference offers or checks something
        elif _states_something(original[match.start() : match.end()]):
            offers = True  # "What about Delta at 7 pm?": it proposes facts rather than asking for them
        else:
            requests |= _topics(sentence)
    return DialogAct(
        frozenset(requests), asks, confirms, offers, bool(_MORE.search(folded)), bool(_GOODBYE.search(folded))
    )


def closing(text: str) -> str | None:
    """``more`` for a reply that only asks whether the user needs anything else, ``goodbye`` for one
    that only closes (thanks, goodbye); ``None`` for anything that states or asks something else."""
    act = dialog_act(text)
    if act.requests or act.confirms or act.offers:
        return None
    if any(not f.group.startswith(("state:", "negation")) for f in facts_in(text)):
        return None
    if act.more:
        return "more"
    return "goodbye" if act.goodbye and not act.asks else None


def _states_something(sentence: str) -> bool:
    return any(not f.group.startswith(("state:", "negation")) for f in facts_in(sentence))


def same_topics(gold: frozenset[str], predicted: frozenset[str]) -> bool | None:
    """Whether two requests ask for the same information: ``True`` when every topic of each has an
    agreeing topic in the other, ``False`` when they share no topic root (``date`` / ``time``),
    ``None`` when they overlap in part, differ only in roles, or a topic is unknown (the semantic
    stage decides). A topic without a role agrees with the same
    root with one (``date`` / ``date:departure``).
    """
    if "?" in gold or "?" in predicted:
        return None
    if _covers(gold, predicted) and _covers(predicted, gold):
        return True
    roots = {t.split(":")[0] for t in gold}
    if not roots & {t.split(":")[0] for t in predicted} or _opposed_roles(gold, predicted):
        return False
    return None  # the same kinds of information, in part or with other roles: too close to call here


_OPPOSED_ROLES = (
    frozenset({"origin", "destination"}),
    frozenset({"checkin", "checkout"}),
    frozenset({"pickup", "dropoff"}),
    frozenset({"departure", "return"}),
)


def _opposed_roles(gold: frozenset[str], predicted: frozenset[str]) -> bool:
    """One side asks only for one role of a pair, the other only for the other (``from`` / ``to``)."""
    mine = {tuple(t.split(":")) for t in gold if ":" in t}
    theirs = {tuple(t.split(":")) for t in predicted if ":" in t}
    return bool(mine and theirs) and all(
        any(r[0] == t[0] and frozenset({r[1], t[1]}) in _OPPOSED_ROLES for t in theirs) for r in mine
    )


def _agrees(a: str, b: str) -> bool:
    root_a, root_b = a.split(":")[0], b.split(":")[0]
    return a == b or (root_a == root_b and (":" not in a or ":" not in b))


def _covers(a: frozenset[str], b: frozenset[str]) -> bool:
    return all(any(_agrees(x, y) for y in b) for x in a)
