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

Topics come from a table of cue words (``TOPICS``, extended from the phrasings the SGD system
turns use for each ``REQUEST`` slot); a request none of whose words is a cue has the topic ``?``
(unknown), and comparisons involving it are left to the semantic stage. A bare topic asked
(``Pick up location?``) and a choice between options (``a regular or a pool ride?``:
``kind:choice``) are requests too; a question that proposes a value (``Will you leave on March
5th?``) records the topics it is about as ``proposals``.

Each sentence also gets one act *kind* (``ActKind``), named as the SGD corpus annotates system
turns: a question or request is ``request``, ``confirm``, ``offer``, ``offer_intent`` (``Shall I book
it?``, with the action it offers) or ``req_more``; a statement is ``notify_success`` (``It's
reserved for you.``), ``notify_failure`` (``I couldn't book it.``), ``inform_count`` (``I found 5
restaurants.``), ``goodbye`` or ``req_more`` by the first row of ``STATEMENT_CUES`` whose cue it
contains, and ``inform`` otherwise; a sentence of fillers only (``Sure.``) has no kind.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import Enum

from aem_strands.compare.reply_signals import Fact, facts_in

_NOT_INFINITIVE = r"(?<!want )(?<!like )(?<!need )(?<!wish )(?<!plan )(?<!have )"
"""What a ``to`` (or ``go``) after it is not preceded by when it points to a place: a verb taking an infinitive
(``Where do you want to depart from?``)."""

TOPICS: tuple[tuple[str, str], ...] = (
    # (regular expression on the folded sentence, topic), every match counts; "root:role" topics
    # agree with their bare root ("date:departure" with "date")
    (
        r"\b(what|which) (date|day)s?\b|\bdates?\b|(?<!time of )(?<!of the )\bdays?\b|\bwhich day\b|\buntil when\b"
        r"|\btill when\b",
        "date",
    ),
    # a bare "when" asks for a date, a time or both: it agrees only with another "when"
    (r"(?<!until )(?<!till )\bwhen\b(?!.*\btime\b)", "when"),
    (r"\btimes?\b|\bwhat hour\b|\bhow early\b|\bhow late\b|\bshow ?times?\b|\bwhat showing\b", "time"),
    (r"\bhow long\b|\bhow many (days|nights|weeks)\b|\bduration\b|\blength of (your |the )?stay\b", "duration"),
    (
        r"\bhow many\b(?! (days|nights|weeks))|\bnumber (of )?(tickets|seats|people|persons|guests|passengers)\b"
        r"|\bnumber of\b|\bparty size\b|\bhow big\b|\bhow large\b|\bgroup\b|\bfor how many\b|\bhow may\b"
        r"|\bseats in total\b|\b(amount|number) of (seats|tickets|bed ?rooms|bath ?rooms|beds|baths|people)\b"
        r"|\boccupancy\b|\bin your party\b",
        "count",
    ),
    (
        rf"\bwhere\b.*{_NOT_INFINITIVE}\b(to|going|headed|heading|go|reach)\b"
        r"|\bdestination\b|\b(going|flying|traveling|travelling|headed|"
        r"heading|go|travel|fly) to\b|\bwhere to\b|\barrival (city|airport)\b|\bvisit\b",
        "place:destination",
    ),
    (
        r"\b(leaving|departing|flying|traveling|travelling|starting|coming|depart|leave|start) from\b|\borigin\b|"
        r"\bwhere\b.*\bfrom\b|\bfrom (where|which)\b|\bdeparture (city|airport|location|station)\b"
        r"|\bwhere\b.*\b(start|starting|begin|beginning|set(ting)? off|setting out)\b|\bstarting point\b",
        "place:origin",
    ),
    (r"\bcity\b|\bwhere\b|\blocation\b|\barea\b|\bplace\b|\bneighbou?rhood\b|\baddress\b|\bmetropolis\b", "place"),
    (r"\bhow much\b|\bprice\b|\bbudget\b|\bcost\b|\bamount\b|\bfare\b|\bfunds\b|\bthe total\b", "amount"),
    (r"\binsurance\b|\b(trip|travel) protection\b", "insurance"),
    (r"\b(imax|3d|3-d)\b|\b(regular|special|normal) show(ing)?\b|\btype of show(ing)?\b", "kind:show"),
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
    (r"\bpropert(y|ies)\b", "property"),
    (r"\bhotels?\b", "hotel"),
    (r"\bairlines?\b|\bcarrier\b", "airline"),
    (r"\b(car|vehicle|ride)s?\b", "car"),
    (r"\b(doctor|dentist|stylist|salon|therapist|physician)s?\b", "provider"),
    (r"\baccounts?\b|\bchecking account\b|\bsavings\b", "account"),
    (
        r"\b(recipient|receiver|receiving|send (it|the money) to|to whom|whom|who)\b|\bcontact'?s? name\b"
        r"|\bname of the (contact|person|other party|recipient)\b|\bthe other party\b",
        "recipient",
    ),
    (
        r"\bpayment method\b|\bpay with\b|\bcard\b|\bcredit\b|\bdebit\b|\bapp balance\b"
        r"|\bfrom (which|what) (of your )?accounts?\b|\baccounts? .*\b(transfer|pay)\b.*\bfrom\b",
        "payment",
    ),
    (r"\b(bedrooms?|bed rooms?|beds?)\b", "rooms:bed"),
    (r"\b(bathrooms?|bath rooms?|baths?|restrooms?)\b", "rooms:bath"),
    (r"\b(device|speaker|tv|television)\b|\b(which|what|living|dining|guest) room\b|\bin (the|your) room\b", "device"),
    (r"\bevents?\b|\bconcerts?\b|\bgames?\b|\bmatch\b", "event"),
    (r"\battractions?\b|\bsights?\b|\bplaces to (see|visit)\b", "attraction"),
    (r"\brating\b|\bstars?\b", "rating"),
    (r"\b(e-?mail|phone|contact)\b", "contact"),
    (r"\breason\b|\bwhy\b", "reason"),
)
OBJECTS = frozenset(
    ["movie", "music", "restaurant", "hotel", "car", "provider", "event", "attraction", "account", "property"]
)
"""Topics that name what a request is about rather than what it asks for: they count only alone."""

_ROLES: tuple[tuple[str, str], ...] = (
    (r"\b(return|returning|come back|coming back|get back|back|until|till)\b", "return"),
    (r"\bcheck(ing)?[- ]?out\b|\bleave the hotel\b|\bcheck[- ]?in and out\b", "checkout"),
    (r"\bcheck(ing)?[- ]?in\b", "checkin"),
    (
        r"\bpick(ing|ed)?[- ]?(it |the car |the vehicle )?up\b|\bcollect\b|\b(begin|start) the (car |vehicle )?rental\b"
        r"|\b(need|want|have|get) (it|the car|the vehicle|the rental|a car) (from|starting)\b"
        r"|\bpick(ing|ed)? (the |your |a )?(car|vehicle|rental)\b",
        "pickup",
    ),
    (r"\bdrop[- ]?off\b|\breturn the car\b", "dropoff"),
    (r"\b(leave|leaving|depart|departure|departing|outbound|go|going|travel|fly|flying|onward)\b", "departure"),
)
_TOPICS = tuple((re.compile(pattern), topic) for pattern, topic in TOPICS)
_ROLE_PATTERNS = tuple((re.compile(pattern), role) for pattern, role in _ROLES)
_SENTENCE = re.compile(r"[^.!?]*[.!?]?")
_STATED_REQUEST = re.compile(
    r"\b(please (tell|let|provide|specify|give|choose|select|say|enter|share|send|confirm)|let me know|tell me|"
    r"can you confirm|(?<!able to )(?<!i )(?<!we )confirm (that|this|the|your)|"
    r"(can|could|would) you (give|provide|share|specify) me|"
    r"(?:i|we)(?: just| will|'ll|'d| would| also)? need (the|your|to know)|(would|will) help to know"
    r"|i need more (details|information))\b"
    r"|^\W*(?:(?:ok(?:ay)?|sure|so|alright)[,!]?\s+)?confirm(?:ing)?\b"  # "Confirming playback of Curious."
)
_YES_NO = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|sure|great|alright|and|so|also|well|then)[,!]?\s+)*"
    r"(would|do|does|did|shall|should|can|could|may|will|are|have) (you|i|we)\b|^\W*is there\b"
)
_ALTERNATIVES = re.compile(r"\bor (some |any )?(other|another|something else|anything else|else)\b")
_EXCLAMATION = re.compile(r"^\W*(what|how) (a|an)\b")
_WH = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|sure|great|alright|and|so|also|well|then|of course|certainly|no problem|perfect)[,!.]?\s+)*"
    r"(what|whats|which|where|when|who|whom|whose|how|why|until|till|from where|for how|for when|in what|in which|"
    r"at what|on which|on what)\b"
)
_WH_ANYWHERE = re.compile(r"\b(what|which|where|when|who|whom|whose|how (many|much|long|big|large|early|late))\b")
_PREFERENCE = re.compile(
    r"\b(prefer|preference|preferred|particular|in mind|specific|any idea|certain|favou?rite|choice|convenient"
    r"|desire)\b"
)
_ABOUT_TOPIC = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|alright|also)[,!]?\s+)*(?:what|how) about (?:the|your)\b")
_CHOICE_OF_NAMES = re.compile(r"\b[A-Z][\w'-]*(?: [A-Z][\w'-]*)*,? or (?:a |an |the )?[A-Z]")
_CHOICE = re.compile(r"\b[a-z]+ or (?!not\b|some|any|other\b|another\b|else\b|maybe\b|perhaps\b)(?:a |an |to )?[a-z]+")
_CONFIRM = re.compile(
    r"\b(confirm|is (that|this|it|everything) (correct|right|ok|okay|fine|accurate)|correct\?|right\?|"
    r"does (that|this|it|everything) (sound|look) (good|right|correct|ok|okay|fine)|sounds? good\?|"
    r"are (these|those) (details )?(correct|right)|shall i (go ahead|proceed))"
)
_OFFER = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|sure|great|alright|and|so|also|well|then)[,!]?\s+)*"
    r"(how about|what about|would you like|do you want|would you prefer|shall i|should i|can i|may i|"
    r"do you wish|are you interested|would you be interested|is there|there is|how does (that|this|it) sound|"
    r"what do you think|what is your opinion)\b"
)
_MORE = re.compile(
    r"(?<!or )\b(any ?thing else|something else|any other|anything more|something more|anything i can|else i can|"
    r"help you with anything|further (help|assistance)|other (help|request|questions?)|what else|"
    r"(help|assist) (you )?(any )?further|further assist|some other way|more help|help with anything|"
    r"anything further|(that|this) be all|is that all|that's all|all for (now|today))\b"
)
_GOODBYE = re.compile(
    r"\b(good ?bye|bye|have an? (very |really )?(good|nice|great|wonderful|pleasant|lovely|amazing|fantastic|awesome)|"
    r"enjoy|take care|see you|you'?re welcome|"
    r"welcome|glad (to|i could)|happy to (help|have|be of)|of help|my pleasure|anytime|thanks?|thank you)\b"
)


class ActKind(str, Enum):
    """What one sentence of a reply does, named as the SGD corpus annotates system turns."""

    REQUEST = "request"
    CONFIRM = "confirm"
    OFFER = "offer"
    OFFER_INTENT = "offer_intent"
    REQ_MORE = "req_more"
    INFORM = "inform"
    INFORM_COUNT = "inform_count"
    NOTIFY_SUCCESS = "notify_success"
    NOTIFY_FAILURE = "notify_failure"
    GOODBYE = "goodbye"


STATEMENT_CUES: tuple[tuple[ActKind, tuple[str, ...]], ...] = (
    # (kind, cue phrases): a statement takes the kind of the first row with a cue in it; a cue is a
    # regular expression matched on whole words of the folded sentence. Failure comes before
    # success ("I couldn't book it" has "book"), both before a count ("I booked 2 tickets"); an
    # apology alone comes after success ("Sorry for the wait, it's booked").
    (
        ActKind.NOTIFY_FAILURE,
        ("unable", "couldn't", "could not", "cannot", "can't", r"(wasn't|weren't|was not|were not|not) able",
         "failed", "unsuccessful", r"(didn't|did not) go through", r"(was|is) not successful", "no luck",
         r"(was|were|has been|have been|got) (declined|rejected|refused|denied|turned down|bounced)",
         "went wrong"),
    ),
    (
        ActKind.NOTIFY_SUCCESS,
        ("success", "successful", "successfully", "all set", r"(you're|you are) set", "done", "booked", "reserved",
         "confirmed", "scheduled", "placed", "completed", "processed", "purchased", "bought", "planned",
         r"(been|is|was|are|were) (made|set|added|shared|sent|transferred|started|arranged|created|ordered)",
         r"(on (its|the|their) way)", r"(now|started) playing", r"(have|'ve) (made|set|added|sent|shared|paid)",
         r"(reservation|booking|appointment|order) is in", "en route", r"(has|have) (started|begun)",
),
    ),
    (ActKind.NOTIFY_FAILURE, ("sorry", "regret", "unfortunately", r"apologi[sz]e")),
    (
        ActKind.INFORM_COUNT,
        (r"(found|got|have|are|were|is|see) (\d+|a total of \d+)", r"\d+ (results|options|matches|choices)",
         "(one|a|an) (result|option|match|suggestion)"),
    ),
    (ActKind.REQ_MORE, (_MORE.pattern,)),
    (ActKind.GOODBYE, (_GOODBYE.pattern,)),
)  # fmt: skip
"""How a statement (not a question) is sorted into a kind; none of the rows: ``inform``."""

INTENT_VERBS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # (action, verb phrases): what an ``offer_intent`` ("Shall I book it now?") offers to do
    ("book", ("book", "reserve", "reservation", "appointment", "schedule", "buy", "purchase", "order", "rent",
              "get (you |the )?tickets?", "visit", "make (it|one)", "get (it|one|this|that)")),
    ("play", ("play", "listen", "hear", "watch", "stream", "cast")),
    ("add", ("add", "set (up )?(an|a|another|the)? ?(alarm|reminder)", "create")),
    ("pay", ("pay", "payment", "transfer", "send (the )?money", "request")),
    ("ride", ("ride", "cab", "taxi")),
    ("search", ("search", "look for", "find")),
)  # fmt: skip
"""Which action an offered intent names; the first row with a verb in the sentence wins."""

CONTENT_FREE = frozenset(
    [ActKind.NOTIFY_SUCCESS, ActKind.NOTIFY_FAILURE, ActKind.REQ_MORE, ActKind.GOODBYE, ActKind.OFFER_INTENT]
)
"""Kinds whose sentences carry no slot value of their own: two replies made only of the same ones
say the same thing once their facts agree."""

PLEASANTRIES = frozenset([ActKind.REQ_MORE, ActKind.GOODBYE])
"""Kinds a reply may add to, or leave out of, its main act without changing what it says."""

STATING = frozenset(
    [ActKind.INFORM, ActKind.INFORM_COUNT, ActKind.OFFER, ActKind.OFFER_INTENT, ActKind.CONFIRM, ActKind.NOTIFY_SUCCESS]
)
"""Kinds whose sentences carry slot values (``The humidity is 27 percent.``, ``How about Delta at 7
pm?``): two replies made only of these say the same thing when their values agree both ways and
little else differs (``replies.settle_reply``). An offer and a statement of one item mix freely (SGD
annotates ``There is a 4.6-rated home at ...`` and ``How about ...?`` as the same offer)."""

CLAIMS = (ActKind.CONFIRM, ActKind.NOTIFY_SUCCESS)
"""Stating kinds one reply cannot have without the other: asking to confirm a booking is not
reporting it made, nor stating its details."""

PROPOSALS = frozenset([ActKind.OFFER, ActKind.OFFER_INTENT])
"""An offer to act (``Shall I book a table at 7 pm?``) is no statement of a table at 7 pm: a reply
with one needs an offer on the other side too (``Would you like a table at 7 pm?``)."""


def _cue_pattern(cues: tuple[str, ...], suffix: str = "") -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(f"(?:{c})" for c in cues) + f"){suffix}\\b")


_STATEMENT_KINDS = tuple((kind, _cue_pattern(cues)) for kind, cues in STATEMENT_CUES)
_ANY_STATEMENT_KIND = re.compile("|".join(f"(?:{pattern.pattern})" for _, pattern in _STATEMENT_KINDS))
"""Whether one of ``_STATEMENT_KINDS`` matches (they hold no backreference, so their union matches where one of
them does): one search for the many sentences that state plainly, in place of one per kind."""
_WORD_CHARACTER = re.compile(r"\w")
_INTENTS = tuple((action, _cue_pattern(verbs, "(?:s|es|ed|d|ing)?")) for action, verbs in INTENT_VERBS)
_FILLER = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|sure(?: thing)?|great|alright|all right|of course|no problem|certainly|perfect|got it|"
    r"absolutely|fine|cool|awesome|no worries|i see|understood|wonderful|excellent|good|right|well)\W*)*$"
)


@dataclass(frozen=True)
class DialogAct:
    """What a reply does: the topics it asks for, and whether it asks, confirms, offers, or closes;
    ``kinds`` holds each sentence's ``ActKind``, ``intents`` the actions its ``offer_intent`` names,
    ``proposals`` the topics its offers propose a value for (``Will you leave on March 5th?``: ``date:departure``)."""

    requests: frozenset[str]
    asks: bool
    confirms: bool
    offers: bool
    more: bool
    goodbye: bool
    kinds: frozenset[ActKind] = frozenset()
    intents: frozenset[str] = frozenset()
    proposals: frozenset[str] = frozenset()

    @property
    def requests_information(self) -> bool:
        return bool(self.requests)

    @property
    def core(self) -> frozenset[ActKind]:
        """``kinds`` without pleasantries, unless they are all it has; then a thank-you or goodbye
        beside ``Anything else?`` is not the main act (``Thank you. Anything else today?``)."""
        if self.kinds - PLEASANTRIES:
            return self.kinds - PLEASANTRIES
        return frozenset([ActKind.REQ_MORE]) if ActKind.REQ_MORE in self.kinds else self.kinds


_TO_A_PLACE = re.compile(rf"{_NOT_INFINITIVE}\bto\b|destination|\breach\b")
"""Words pointing to where one goes: ``to`` as a preposition of place, not of an infinitive (``Where do you
want to depart from?``), ``destination``, ``reach``."""


def _topics(sentence: str, facts: frozenset[str] = frozenset()) -> set[str]:
    """The topics ``sentence`` names, with ``facts`` (topics of the values it proposes) added."""
    found = {topic for pattern, topic in _TOPICS if pattern.search(sentence)} | facts
    if "count" in found and re.search(r"\bamount of\b", sentence):
        found.discard("amount")  # "the amount of bedrooms" is a count
    if "payment" in found:
        found.discard("place:origin")  # "from which account": money comes from an account, not a place
    if found & {"place:destination", "place:origin"}:
        found.discard("place")
    if {"place:destination", "place:origin"} <= found and not re.search(_TO_A_PLACE, sentence):
        found.discard("place:destination")
    if "recipient" in found:
        found -= {"name", "place", "contact"}  # "Who would you like to share the location with?" asks for a person
    if "property" in found:
        found.discard("place:destination")  # "Which property do you want to visit?"
    if "kind" in found and any(t.startswith("kind:") for t in found):
        found.discard("kind")
    if found & {"date", "time"}:
        found.discard("when")  # "When and at what time?": the named ones count
    roles = [role for pattern, role in _ROLE_PATTERNS if pattern.search(sentence)]
    if "departure" in roles and len(roles) > 1:
        roles.remove("departure")  # "leave the hotel", "pick up ... going": the more specific role counts
    for base in ("date", "time", "when"):
        if base in found and roles:
            found.discard(base)
            found |= {f"{base}:{role}" for role in roles}
    places = {t for t in found if t.split(":")[0] == "place"}
    if places and {"pickup", "dropoff"} & set(roles):
        found -= places  # where to pick a car up is neither an origin nor a destination
        found |= {f"place:{role}" for role in roles if role in ("pickup", "dropoff")}
    if found - OBJECTS:
        found -= OBJECTS
    return found or {"?"}


def _statement_kind(sentence: str) -> ActKind | None:
    if not _WORD_CHARACTER.search(sentence) or _FILLER.match(sentence):
        return None
    if not _ANY_STATEMENT_KIND.search(sentence):
        return ActKind.INFORM
    return next((kind for kind, pattern in _STATEMENT_KINDS if pattern.search(sentence)), ActKind.INFORM)


def _intent(sentence: str) -> str | None:
    return next((action for action, pattern in _INTENTS if pattern.search(sentence)), None)


def _question_kind(sentence: str, original: str, wh: bool, stated: bool) -> ActKind:
    """The kind of a question or stated request (``sentence`` folded, ``original`` as written)."""
    proposes = _states_something(original)  # "What about Delta at 7 pm?" proposes facts, asks for none
    preference = bool(_PREFERENCE.search(sentence))
    if _CONFIRM.search(sentence):
        # "Can you confirm me the number of tickets?" asks for the number; "Please confirm: 2 tickets" does not
        return ActKind.REQUEST if not proposes and _topics(sentence) - OBJECTS - {"?"} else ActKind.CONFIRM
    if _MORE.search(sentence):
        return ActKind.REQ_MORE
    if (preference and not proposes) or (_ALTERNATIVES.search(sentence) and not wh and not stated):
        return ActKind.REQUEST  # "Is there a particular day you'd like?", "Luxury, or some other type?"
    if not wh and not stated and not proposes and _CHOICE.search(sentence):
        return ActKind.REQUEST  # "Would you like a regular or a pool ride?": which of the options
    if not proposes and _ABOUT_TOPIC.search(sentence) and _topics(sentence) - OBJECTS - {"?"}:
        return ActKind.REQUEST  # "And what about the date?", "How about the number of bedrooms?": no offer in it
    bare = not wh and not stated and not proposes and not _OFFER.search(sentence) and not _YES_NO.search(sentence)
    if bare and _topics(sentence) - OBJECTS - {"?"}:
        return ActKind.REQUEST  # a bare topic asked for: "Pick up location?", "Number of tickets do you need?"
    if (_OFFER.search(sentence) and not stated) or (not wh and not stated and not preference):
        # a yes/no question that names no preference offers or checks something
        return ActKind.OFFER if _intent(sentence) is None else ActKind.OFFER_INTENT
    return ActKind.OFFER if proposes else ActKind.REQUEST


def _request_topics(sentence: str) -> set[str]:
    found = _topics(sentence)
    if _CHOICE.search(sentence) and not found - OBJECTS - {"?", "place"}:
        return {"kind:choice"}  # options of one kind, whatever it is called: "regular or pool", "rent or buy a place"
    return found


def _fact_topics(original: str) -> frozenset[str]:
    """The topics of the values a sentence proposes (``on March 5th``: date; ``at 7 pm``: time; a
    name after ``in``: place, ``Should I look in San Jose?``)."""
    topics = set()
    for fact in stated_facts(original):
        if fact.group in FACT_TOPICS:
            topics.add(FACT_TOPICS[fact.group])
        elif fact.group == "entity" and re.search(r"\bin " + re.escape(fact.text) + r"\b", original):
            topics.add("place")
    return frozenset(topics)


FACT_TOPICS = {"date": "date", "weekday": "date", "time": "time", "money": "amount", "duration": "duration"}
"""The topic a proposed value of each fact group is about (``Will you leave on March 5th?`` asks
about a date)."""


@functools.lru_cache(maxsize=1 << 14)
def dialog_act(text: str) -> DialogAct:
    """The dialog act of ``text`` (see the module docstring)."""
    original = text.replace("\u2019", "'")
    folded = original.casefold()
    requests: set[str] = set()
    proposals: set[str] = set()
    kinds: set[ActKind] = set()
    intents: set[str] = set()
    asks = False
    for match in _SENTENCE.finditer(folded):
        sentence = match.group()
        ending = sentence.rstrip()[-1:]
        # a sentence opening as a question is one without "?" (typed in haste: "What type of movie.")
        opens_wh = bool(_WH.search(sentence)) and not _EXCLAMATION.search(sentence)
        question = ending == "?" or opens_wh or (ending not in (".", "!") and bool(_YES_NO.search(sentence)))
        stated = bool(_STATED_REQUEST.search(sentence))
        if not question and not stated:
            kind = _statement_kind(sentence)
            kinds |= {kind} if kind else set()
            continue
        asks = True
        wh = question and (opens_wh or bool(_WH_ANYWHERE.search(sentence)))
        kind = _question_kind(sentence, original[match.start() : match.end()], wh, stated)
        kinds.add(kind)
        if kind is ActKind.REQUEST:
            requests |= _request_topics(sentence)
        elif kind in (ActKind.OFFER, ActKind.OFFER_INTENT):
            # what an item is called, or that it is a movie, says nothing of what the offer is about
            written = original[match.start() : match.end()]
            proposals |= _topics(sentence, _fact_topics(written)) - OBJECTS - {"name"}
            if _CHOICE_OF_NAMES.search(written):
                proposals.add("kind:choice")  # "Do you need a Psychiatrist or a Psychologist?": which one
        if kind is ActKind.OFFER_INTENT:
            intents.add(_intent(sentence) or "?")
    if requests - {"?"}:
        requests.discard("?")  # "Any preference? 3d or imax?": the second sentence says what the first asks
    return DialogAct(
        requests=frozenset(requests),
        proposals=frozenset(proposals - {"?"}),
        asks=asks,
        confirms=ActKind.CONFIRM in kinds,
        offers=bool(kinds & {ActKind.OFFER, ActKind.OFFER_INTENT}),
        more=bool(_MORE.search(folded)),
        goodbye=bool(_GOODBYE.search(folded)),
        kinds=frozenset(kinds),
        intents=frozenset(intents),
    )


def agreeing_acts(gold: str, predicted: str) -> frozenset[ActKind] | None:
    """The act kinds two replies share when each is made only of content-free acts (``CONTENT_FREE``)
    and their main acts are the same (``DialogAct.core``; offers of an intent offer the same action);
    ``None`` otherwise. Whether their facts agree is for the caller to check."""
    mine, theirs = dialog_act(gold), dialog_act(predicted)
    if not mine.core or mine.core != theirs.core or not mine.core <= CONTENT_FREE:
        return None
    if ActKind.OFFER_INTENT in mine.core and mine.intents != theirs.intents:
        return None
    return mine.core


def roles_in(text: str) -> frozenset[str]:
    """The roles a text names for a date, time or place (``return``, ``checkin``, ``pickup`` ...)."""
    folded = text.replace("\u2019", "'").casefold()
    return frozenset(role for pattern, role in _ROLE_PATTERNS if pattern.search(folded))


_VERIFY = re.compile(
    r"(?:^|[.!?]\s+)(?:is|are|was|were|does|did|has|have) (?!there\b)(?:the|your|it|this|that|my|our|its)\b[^.!?]*\?"
)
"""A question that checks a fact (``Is the delivery address still 12 Elm Street?``), not one that offers
(``How about X?``, ``Would you like X?``)."""


def _verifies(text: str) -> bool:
    return bool(_VERIFY.search(text.replace("\u2019", "'").casefold()))


def stating_acts(gold: str, predicted: str) -> frozenset[ActKind] | None:
    """The act kinds of two replies when both are made only of ``STATING`` kinds (and pleasantries),
    neither asks for information, a question that checks a fact (``_VERIFY``) faces a question, each
    ``CLAIMS`` kind is on both sides or neither, an offer to act
    faces an offer (``PROPOSALS``), offers of an intent on both sides offer the same action, and the
    roles they name (``roles_in``) overlap when both name one; ``None`` otherwise. Whether their facts
    agree is for the caller."""
    mine, theirs = dialog_act(gold), dialog_act(predicted)
    if mine.requests or theirs.requests or not mine.core or not theirs.core:
        return None
    if (mine.asks != theirs.asks) and (_verifies(gold) or _verifies(predicted)):
        return None  # "Is the address still 12 Elm Street?" seeks confirmation; "The address is ..." reports
    if not (mine.core | theirs.core) <= STATING or any((k in mine.kinds) != (k in theirs.kinds) for k in CLAIMS):
        return None
    for one, other in ((mine, theirs), (theirs, mine)):
        if ActKind.OFFER_INTENT in one.kinds and not other.kinds & PROPOSALS:
            return None
    if ActKind.OFFER_INTENT in mine.kinds & theirs.kinds and mine.intents != theirs.intents:
        return None
    roles, other_roles = roles_in(gold), roles_in(predicted)
    if roles and other_roles and not roles & other_roles:
        return None  # "leave on May 3" / "check in on May 3": one value, said of other things
    return mine.core | theirs.core


_DONE = re.compile(
    r"\b(?:(?:i|we)(?:'ve| have) (?:just |now |already |also )?"
    r"(?!(?:found|checked|looked|searched|tried|noticed|asked|needed|wanted|received|located|identified|listed"
    r"|shortlisted|pulled|compiled|heard|seen|been|had|got)\b)"
    r"|(?:has|have) been (?:just |now |successfully )?|(?:is|are) now )"
    r"(?:[a-z]+ed|put|set|made|sent|done|paid|given|taken)\b"
)
"""An action reported carried out: in the first person perfect (``I've put you down for the class``, ``We have
moved it to Friday``; finding, checking or looking something up reports what was found), or a perfect or present
passive (``It has been sent``, ``Your door is now locked``)."""

ASKING_KINDS = frozenset([ActKind.OFFER, ActKind.OFFER_INTENT, ActKind.CONFIRM])
"""Kinds of a yes/no question: whether to do something, whether something holds, whether it is right."""


def asked_against_done(gold: str, predicted: str) -> tuple[str, str] | None:
    """``(gold's act, the prediction's)`` when one reply only asks a yes/no question (``ASKING_KINDS``: ``Shall I
    sign you up?``, ``Do you want the heating on at 7?``, ``Is the garage door still open?``) and the other asks
    nothing and either reports an action done (``notify_success``, or ``_DONE``: ``I've put you down for it.``)
    or, against a question that checks a fact (``_VERIFY``), states it (``The garage door is still open.``);
    ``None`` otherwise. Asking whether to act is no report that it was done, nor is asking whether a fact holds a
    statement of it; an offer of an item (``How about Delta at 7 pm?``) against a statement of it (``There is a
    Delta flight at 7 pm.``) is the one mix SGD annotates as one act, and is left alone."""
    for asking, stating, reverse in ((gold, predicted, False), (predicted, gold, True)):
        question, statement = dialog_act(asking), dialog_act(stating)
        if question.requests or not question.core or not question.core <= ASKING_KINDS or statement.asks:
            continue
        done = _DONE.search(stating.replace("\u2019", "'").casefold()) is not None
        if statement.core == {ActKind.NOTIFY_SUCCESS} or (
            done and statement.core <= {ActKind.INFORM, ActKind.NOTIFY_SUCCESS}
        ):
            acts = ("asks whether to do it", "reports it done")
        elif _verifies(asking) and question.core == {ActKind.OFFER} and statement.core == {ActKind.INFORM}:
            acts = ("asks whether it holds", "states it")
        else:
            continue
        return (acts[1], acts[0]) if reverse else acts
    return None


def opposed_outcomes(gold: str, predicted: str) -> tuple[str, str] | None:
    """``(gold's outcome, the prediction's)`` when one reply only notifies success (or states a transaction went
    through, ``_outcome_kinds``) and the other only failure (``You're all set!`` / ``Sorry, that didn't go
    through.``; ``Your card was charged.`` / ``The charge was declined.``); ``None`` otherwise."""
    outcomes = (ActKind.NOTIFY_SUCCESS, ActKind.NOTIFY_FAILURE)
    mine = [k for k in outcomes if k in _outcome_kinds(gold)]
    theirs = [k for k in outcomes if k in _outcome_kinds(predicted)]
    if len(mine) == len(theirs) == 1 and mine != theirs:
        return _OUTCOME_WORDS[mine[0]], _OUTCOME_WORDS[theirs[0]]
    return None


_TRANSACTED = re.compile(
    r"\b(?:was|were|has been|have been) (?:just |successfully )?"
    r"(?:charged|approved|accepted|paid|refunded|processed|completed|delivered|transferred|debited|credited)\b"
)
"""A plain statement that a transaction went through (``Your card was charged £15``, ``The claim was approved``)."""


def _outcome_kinds(text: str) -> frozenset[ActKind]:
    """``dialog_act(text).kinds``, with a plain statement that a transaction went through (``_TRANSACTED``) read as
    a success: against a failure (``The £15 charge was declined.``) it is the opposite outcome."""
    kinds = dialog_act(text).kinds
    if kinds == {ActKind.INFORM} and _TRANSACTED.search(text.replace("\u2019", "'").casefold()):
        return frozenset([ActKind.NOTIFY_SUCCESS])
    return kinds


_OUTCOME_WORDS = {ActKind.NOTIFY_SUCCESS: "success", ActKind.NOTIFY_FAILURE: "failure"}


def stated_facts(text: str) -> list[Fact]:
    """The facts a reply states beyond state words and negations, leaving out a capitalised closing
    word read as a name (``Anytime. Enjoy!``)."""
    return [
        f
        for f in facts_in(text)
        if not f.group.startswith(("state:", "negation"))
        and not (f.group == "entity" and _statement_kind(f.key) in PLEASANTRIES)
    ]


def _states_something(sentence: str) -> bool:
    # "first tell me ...": an ordinal one proposes nothing; nor does a capitalised word that names
    # what is asked for ("any particular City in mind?")
    return any(
        not (f.group == "number" and f.key == "1") and not (f.group == "entity" and _names_a_topic(f.key))
        for f in stated_facts(sentence)
    )


def _names_a_topic(words: str) -> bool:
    return " " not in words and _topics(words) != {"?"}


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
    if _ends(gold, predicted) or _ends(predicted, gold):
        return None  # "How long will you keep the car?" / "Until when?": one end, told two ways
    if _opposed_roles(gold, predicted):
        return False
    if _vague(gold, predicted) or _vague(predicted, gold):
        return None  # "When do you leave?" / "What time do you leave?": a date, a time or both
    if not roots & {t.split(":")[0] for t in predicted}:
        return False
    if _unanswered(gold, predicted) and _unanswered(predicted, gold):
        return False  # "Where from, and how many tickets?" / "When, and how many tickets?": one asked for another
    return None  # the same kinds of information, in part or with other roles: too close to call here


_END_DATES = frozenset(["date:return", "date:checkout", "date:dropoff", "when:return", "when:checkout", "when:dropoff"])
_MOMENTS = frozenset(["when", "date", "time"])
"""Roots that ask for a moment; a bare ``when`` asks for any of them."""


_SPECIFIC = frozenset([
    "date", "time", "when", "count", "place", "amount", "duration",
    "recipient", "airline", "rooms", "contact", "rating", "insurance", "reason",
])  # fmt: skip
"""Topic roots that name one piece of information; kinds, names and the objects a request is about do not
(``What event?`` / ``What kind of event?`` / ``What is the event called?`` may all ask for one slot)."""


def _unanswered(asked: frozenset[str], other: frozenset[str]) -> bool:
    """Whether ``asked`` holds a specific topic (``_SPECIFIC``) that no topic of ``other`` may answer: one answers
    another when their roots are the same or both moments (``when``, ``date``, ``time``), or one is a duration and
    the other an end date, and their roles are not a pair's two ends (``place:origin`` / ``place:destination``)."""
    return any(t.split(":")[0] in _SPECIFIC and not any(_may_answer(t, o) for o in other) for t in asked)


def _may_answer(a: str, b: str) -> bool:
    (root_a, _, role_a), (root_b, _, role_b) = a.partition(":"), b.partition(":")
    if role_a and role_b and frozenset({role_a, role_b}) in _OPPOSED_ROLES:
        return False
    return (
        root_a == root_b
        or {root_a, root_b} <= _MOMENTS
        or _ends(frozenset([a]), frozenset([b]))
        or _ends(frozenset([b]), frozenset([a]))
    )


def _vague(gold: frozenset[str], predicted: frozenset[str]) -> bool:
    """``gold`` asks only for a moment or a kind in words that ``predicted``'s own topics may also answer: a bare
    ``when`` against a date or time, a kind of thing against the thing (``What type of movies?`` / ``What
    movies?``)."""
    mine, theirs = {t.split(":")[0] for t in gold}, {t.split(":")[0] for t in predicted}
    if "when" in mine and "when" not in theirs and theirs & _MOMENTS:
        return True
    return mine <= {"kind"} and bool(theirs) and theirs <= OBJECTS | {"kind"} and mine != theirs


def _ends(gold: frozenset[str], predicted: frozenset[str]) -> bool:
    return "duration" in gold and bool(predicted & _END_DATES)


_OPPOSED_ROLES = (
    frozenset({"origin", "destination"}),
    frozenset({"checkin", "checkout"}),
    frozenset({"pickup", "dropoff"}),
    frozenset({"pickup", "return"}),  # a rental's start and its end ("until when do you need the car?")
    frozenset({"departure", "return"}),
    frozenset({"bed", "bath"}),  # "How many bathrooms?" / "How many bedrooms?": two slots of one listing
)


def _opposed_roles(gold: frozenset[str], predicted: frozenset[str]) -> bool:
    """One side asks only for one role of a pair, the other only for the other (``from`` / ``to``); a
    topic both ask for (``Where from and where to?`` / ``Where to and from, and when?``) rules it out."""
    mine = {tuple(t.split(":")) for t in gold if ":" in t}
    theirs = {tuple(t.split(":")) for t in predicted if ":" in t}
    if any(r[1] == t[1] and _same_root(r[0], t[0]) for r in mine for t in theirs):
        return False
    return bool(mine and theirs) and all(
        any(_same_root(r[0], t[0]) and frozenset({r[1], t[1]}) in _OPPOSED_ROLES for t in theirs) for r in mine
    )


def _same_root(a: str, b: str) -> bool:
    return a == b or ({a, b} <= _MOMENTS and "when" in (a, b))


def _agrees(a: str, b: str) -> bool:
    root_a, root_b = a.split(":")[0], b.split(":")[0]
    return a == b or (root_a == root_b and (":" not in a or ":" not in b))


def _covers(a: frozenset[str], b: frozenset[str]) -> bool:
    return all(any(_agrees(x, y) for y in b) for x in a)
