"""Which sentences of a reply claim that an action went through, read by the reply fact reading.

``success_claims(text)`` reads each clause of a reply's sentences that states something (no question, no request, no
condition or promise: ``if``, ``once``, ``will``, ``would`` ...) and does not deny (``compare.reply_signals``'s
``negates``: a negation cue that governs a word, or a denying word such as ``unable``, ``failed``; the dialog
act reading's ``notify_failure``). Such a sentence claims success when:

- **strong**: the dialog act reading (``compare.acts.dialog_act``, the SGD system acts) sorts it as
  ``notify_success`` (``Your reservation is confirmed.``, ``You're all set.``, ``Your ride is on its way.``), or
  it reports an action done in the perfect (``I've issued the refund``, ``Your refund has been issued``, not
  ``I've found 3 flights``), or it says the action *went through* or *is complete* (``the money went through``);
- **weak**: it states an outcome in the passive (``Your order is cancelled.``, ``The address was updated.``), or
  opens with the agent's past action, its subject left out (``Marked reminder as complete.``): a claim only about
  the action it names (``is located``, ``is rated`` are passives too);
- **ongoing**: it states a state an action brings about, going on (``The movie is playing``): a claim only about
  the action its verb names (``Claim.ongoing``).

``I was able to book it`` reports the action done, as the perfect does; a headline passive (``Refund issued.``) is a
passive. The speaker's report frame (``I can confirm that ...``, ``I'm happy to confirm ...``, ``Let me confirm that
...``, ``I can see that ...``) states its complement, read by the spaCy parse (``_reported``); a condition, question
or promise on it (``I can confirm if ...``, ``... once it is issued``, ``I will confirm ...``) claims nothing. A
sentence that opens by asking to check a complement (``Kindly ensure that, ...``) claims nothing; a clause that
denies governs the clauses after it (its reasons: ``I couldn't cancel it — it has already shipped``), up to a turn
(``Something went wrong, but your refund has been issued``).

A strong claim by its grammar alone (the perfect, *went through*) is ``done``. Each claim carries the words it
stands on (``cancelled``, ``issued``, ``went through``), so a caller can ask which action it is about
(``steps.names_action``) or compare it with an observed status.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aem_strands.compare.acts import ActKind, dialog_act
from aem_strands.compare.reply_signals import negates
from aem_strands.trace.checks.steps import sentences

if TYPE_CHECKING:
    from spacy.tokens import Token

_CONDITION = re.compile(
    r"\b(?:if|once|when|whenever|unless|until|after|will|would|should|could|might|may|can|shall|going to|want|"
    r"wants|like to|hope|hoping|whether|need|needs|try|trying|about to|soon|yet|pending|please|kindly|ensure|"
    r"confirm)\b|'ll\b|'d\b"
)
"""Words that make a sentence a condition, a promise, a wish or a request, not a claim (``once it is processed``,
``I will confirm``, ``would you like it booked``)."""

_PARTICIPLE = r"(?:[a-z]+ed|made|sent|done|paid|set|put|given|taken|withdrawn|written|sold|bought|shipped|through)"
_PERFECT = re.compile(
    r"\b(?:(?:i|we)(?:'ve| have)|(?:it|that|this|everything) has"
    r"|(?:has|have) (?:(?:just|now|already|also|successfully) )?been|'s been)"
    r" (?:just |now |already |also |successfully |been )?"
    r"(?!(?:found|checked|looked|searched|tried|noticed|asked|needed|wanted|received|located|identified|listed"
    r"|pulled|compiled|heard|seen|been|had|got|reviewed|considered|used|discovered|selected|narrowed|scanned"
    r"|shortlisted|short|managed|enjoyed|gathered|filtered|sorted|picked|noted|rated|done|called|named)\b)"
    rf"(?P<verb>{_PARTICIPLE})\b"
)
"""An action reported done in the perfect: first person (``I've cancelled it``; finding or checking something
reports what was found, not an action) or passive (``It has been sent``)."""
_THROUGH = re.compile(
    r"\b(?P<verb>(?:went|gone|go(?:ne)?|got|is|are|was|were) through|went (?:smoothly|well|fine)|is complete"
    r"|are complete|succeeded|(?:is|are|was|were) (?:now )?(?:complete|completed|finali[sz]ed|done))\b"
)
_PASSIVE = re.compile(
    rf"\b(?:is|are|was|were|got|now|been|being)\s+(?:(?:now|already|successfully|all)\s+)?(?P<verb>{_PARTICIPLE})\b"
)
_OPENING = re.compile(
    r"^\W*(?:(?:ok|okay|sure|done|alright|all right)\W+)?(?:just |now )?(?!(?:based|located|situated|listed|rated"
    rf"|named|called|used|found|checked|looked|searched|sorted|filtered|compared|priced|given|set|done)\b)(?P<verb>{_PARTICIPLE})\b"
)
"""A clause that opens with the agent's past action, its subject left out (``Marked reminder as complete.``): an
outcome only of the action it names, as a passive is."""
_HEADLINE = re.compile(
    rf"^\W*(?:(?:your|the|my|our)\s+)?(?!(?:i|we|you|they|he|she|it)\b)[a-z]+(?:\s+[a-z]+)?\s+(?P<verb>{_PARTICIPLE})\W*$"
)
"""A headline passive, its auxiliary left out (``Refund issued.``, ``Order cancelled!``): an outcome only of the
action it names, as a passive is."""
_ABLE = re.compile(
    r"\b(?:i|we) (?:was|were) able to (?!(?:find|locate|check|look|search|see|get|pull|list|identify|narrow|hear"
    r"|compile|review|consider|use|discover|select|gather|filter|sort|pick|note|reach|contact)\b)(?P<verb>[a-z]+)\b"
)
"""An action reported achieved (``I was able to book the home``): done, as the perfect is; finding or checking
something reports what was found (``I was able to locate one train``)."""
_ONGOING = re.compile(r"\b(?:is|are|'s)\s+(?:(?:now|currently|already)\s+)?(?P<verb>[a-z]{3,}ing)\b")
"""A state an action brings about, going on (``The movie is playing``): an outcome only of the action its verb
names (``Claim.ongoing``); the first person (``I'm checking``) is an attempt, not read."""


_CLAUSE = re.compile(r"\s*(?:[,;:\u2014\u2013]\s*(?:and|but|so)?|\s-|\s(?:and|but|so|while|whereas))\s+")
"""Where a sentence splits into clauses, each read on its own: ``Your ride is confirmed and the cab will reach in 5
minutes`` claims in its first clause and promises in its second; ``W2291 is cancelled — you won't be charged``
claims in its first and denies only in its second."""
_CONTRAST = re.compile(r"[,;]?\s+(?:but|however)\b,?\s*", re.I)
"""Where a sentence turns (``Something went wrong, but your refund has been issued``): a denial before it does not
govern what comes after."""
_RUN_ON = re.compile(r"(?<=[a-z][.!?])(?=[A-Z][a-z])")
"""Sentences run together with no space (``The reservation was made.Outdoor seating is not available.``)."""
_GOVERNED = re.compile(r"(?P<head>[^.!?]*?\bthat)\s*,")
"""A sentence that opens with a request or a condition on a complement (``Kindly ensure that, on March 1st, 4 tickets
have been booked``): the complement is what is asked, in every clause of it, no claim."""


_CLAIMING = re.compile(r"\b(?:been|is|are|was|were|went|gone|through|complete|completed|done|succeeded)\b")
"""What a stated complement claims by (the perfect, a passive, *went through*): the frames worth a parse."""


@dataclass(frozen=True)
class Claim:
    """A sentence that claims an action went through: ``strong`` for a report of success as such, weak for a
    passive outcome that counts only for the action it names; ``verbs`` are the words it stands on."""

    sentence: str
    strong: bool
    verbs: tuple[str, ...]
    done: bool = False
    """Whether the sentence reports the action done in the perfect or as gone through (``I've booked it``,
    ``It has been sent``, ``the money went through``): a claim by its grammar alone."""
    whole: str = ""
    """The sentence the claim's clause is of (``Done — you're now in seat 14C``: the clause is ``Done``)."""
    ongoing: bool = False
    """Whether it states a state going on (``The movie is playing``): a claim only about the action its verbs
    name, not its objects."""
    reported: bool = False
    """Whether the claim is the complement of the speaker's report frame (``I can confirm that it has been
    issued``): a statement, though the dialog act reading sorts the frame as ``confirm``."""


_WITHOUT_TROUBLE = re.compile(r"\bwithout (?:any |a |an )?(?:problems?|issues?|trouble|hitch|hiccups?|errors?)\b", re.I)
"""``without any problems``: a way to say it went well, not a denial (``negates`` reads ``without`` as one)."""


def denies(sentence: str) -> bool:
    """Whether a sentence denies (a negation governing a word, a denying word, the act ``notify_failure``)."""
    return negates(_WITHOUT_TROUBLE.sub("", sentence)) or ActKind.NOTIFY_FAILURE in dialog_act(sentence).kinds


def _stating(sentence: str, folded: str) -> bool:
    return "?" not in sentence and not _CONDITION.search(folded)


_REPORTING = frozenset(["confirm", "see", "tell", "assure", "inform", "notify", "report", "say", "guarantee", "show"])
"""Verbs by which the speaker states what its complement says (``I can confirm that ...``, ``I can see that ...``),
unlike a check (``let me verify that ...``, ``make sure that ...``) or a hope: what the parse cannot say."""
_SPEAKER = frozenset(["i", "we", "me", "us"])
_ABILITY = frozenset(["can", "could", "ca"])
"""Modals of a report frame that state (``I can confirm``); a promise (``I will confirm``) states nothing yet."""
_WISH = frozenset(["like", "love"])
"""``I'd like to confirm that ...``: the speaker's way to state, not a wish for the complement."""


def _frames(verb: Token) -> bool:
    """Whether ``verb`` and the words it hangs from are the speaker's plain report: a reporting verb, the speaker
    its subject (or left out after an adjective: ``Glad to confirm``), no negation, condition or promise."""
    if verb.lemma_.casefold() not in _REPORTING:
        return False
    chain = [verb]
    while chain[-1].head is not chain[-1] and len(chain) < 8:
        chain.append(chain[-1].head)
    subject = next((c for t in chain for c in t.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subject is None and chain[-1].pos_ != "ADJ":
        return False  # an imperative ("Confirm that ...", "Please confirm that ...") asks the user
    if subject is not None and subject.lower_ not in _SPEAKER:
        return False
    for token in chain:
        for child in token.children:
            if child.dep_ in ("neg", "advcl", "mark", "intj") or child.tag_ in ("WRB", "WP"):
                return False
            if child.tag_ == "MD" and child.lower_ not in _ABILITY and token.lemma_ not in _WISH:
                return False
    return True


@functools.lru_cache(maxsize=1 << 10)
def _reported(sentence: str) -> str | None:
    """The complement a speaker states in a report frame (``I can confirm that your refund has been issued``,
    ``I'm happy to confirm ...``, ``Let me confirm that ...``, ``I can see that ...``): a ``that`` (or unmarked)
    clause of a reporting verb (``_frames``), read by the spaCy parse; ``None`` for a condition (``I can confirm if
    it has been issued``, ``... once it is issued``), a question or a request."""
    from aem_strands.compare.roles import english_parser  # the parser is loaded only when a report frame needs reading

    for token in english_parser()(sentence):
        if token.dep_ != "ccomp" or not _frames(token.head):
            continue
        marks = [c for c in token.children if c.dep_ == "mark"]
        if any(m.lower_ != "that" for m in marks):
            continue  # "if" / "whether": what is asked, not stated
        doc = token.doc
        start = max([token.left_edge.i, *(m.i + 1 for m in marks)])
        return doc[start : token.right_edge.i + 1].text
    return None


def _clauses(whole: str) -> Iterator[str | None]:
    """The clauses of a sentence, each ``None`` once a denial before it in the same turn of the sentence governs it
    (``I couldn't cancel it — it has shipped``; not after ``but``)."""
    for turn in _CONTRAST.split(whole):
        denied = False
        for clause in (c for c in _CLAUSE.split(turn) if c and c.strip()):
            denied = denied or denies(clause)
            yield None if denied else clause


@functools.lru_cache(maxsize=1 << 12)
def success_claims(text: str) -> tuple[Claim, ...]:
    """The sentences of ``text`` that claim success, in order (see the module docstring)."""
    found = []
    for whole in (p for s in sentences(text) for p in _RUN_ON.split(s)):
        head = _GOVERNED.match(whole)
        if head and _CONDITION.search(head["head"].casefold()):
            continue
        for sentence in _clauses(whole):
            if sentence is None:
                continue  # a denial governs the clauses after it: its reasons (``I couldn't cancel it — it shipped``)
            said = sentence
            folded = said.casefold().replace("\u2019", "'")
            if not _stating(said, _ABLE.sub(" ", folded)):  # "I was able to confirm it": done, no request
                framed = "?" not in whole and _CLAIMING.search(folded) and _reported(whole) is not None
                said = (_reported(sentence) if framed else None) or ""  # the whole: "If you want, I can confirm"
                folded = said.casefold().replace("\u2019", "'")
                if not said or not _stating(said, _ABLE.sub(" ", folded)):
                    continue
            able = tuple(m.group("verb") for m in _ABLE.finditer(folded))
            verbs = tuple(m.group("verb") for pattern in (_PERFECT, _THROUGH) for m in pattern.finditer(folded))
            verbs += able
            passive = tuple(m.group("verb") for m in _PASSIVE.finditer(folded))
            passive += tuple(m.group("verb") for p in (_OPENING, _HEADLINE) for m in p.finditer(folded))
            strong = bool(verbs) or ActKind.NOTIFY_SUCCESS in dialog_act(said).kinds
            reported = said is not sentence
            if strong or passive:
                words = tuple(dict.fromkeys([*verbs, *passive]))
                found.append(Claim(sentence, strong, words, bool(verbs), whole, reported=reported))
            elif ongoing := tuple(m.group("verb") for m in _ONGOING.finditer(folded)):
                found.append(Claim(sentence, False, ongoing, False, whole, ongoing=True, reported=reported))
    return tuple(found)


__all__ = ["Claim", "denies", "success_claims"]
