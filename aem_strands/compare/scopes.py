"""Scope and quantity words of a reply: how much of something a fact is said of.

``scopes_in(text)`` reads the scope classes of a reply from its words, without a parse (``SCOPES``:
all/every/each/both/whole, most, some/a few/part of/half of/one of the N, only, none/neither,
either/whichever, at least, at most, except, also). ``scope_findings(gold, predicted)`` compares two
replies:

- each reply has a class the other lacks: ``some vs gold all``, ``either vs gold all``;
- ``also`` (``Members can also book the spa``, ``along with the grey scarf``, ``..., as do the later trains``)
  opposes ``only`` and nothing else: it adds to what the other reply says, where ``only`` rules the rest out;
- a denied universal (``not all``, ``not everywhere``) is ``some``; ``within 14 days`` is ``at most``.

A bound on one side only (``at least 10 options`` / ``10 options``) is no finding: replies use one loosely.

``none`` on one side and ``all`` on the other is no finding: they may say one thing (``None of the
flights have seats left`` / ``The flights are all fully booked``); so are ``only`` and ``all ... except``
(``Only the kitchen blinds stayed open`` / ``All the blinds closed except the kitchen's``), where their other
words differ (with the same words, ``Only the red dress is on sale`` / ``Everything but the red dress is on sale``,
they oppose).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from aem_strands.compare.reply_words import stem

_COUNT_WORDS = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|sixty|ninety)\b"
_PLURAL_OF = r"(?:the|your|our|my|these|those|them|its|their|tonight's|today's|this week's)"
SCOPES: tuple[tuple[str, str], ...] = (
    # (class, regular expression on the folded text); idioms that quantify nothing are left out
    ("except", r"\ball but\b|\bexcept\b|\bother than\b|\bapart from\b|\bbut one\b"),
    (
        "all",
        r"\b(?<!at )(?<!that's )(?<!that is )(?<!is that )all\b(?! set\b| right\b| for (?:now|today)\b| the best\b)"
        r"|\bevery\b|\beach\b|\bboth\b|\beveryone\b|\beverybody\b|\beverything\b|\beverywhere\b"
        r"|\bentire\b|\bwhole\b|\bin full\b"
        r"|\bfull (?:fare|price|amount|refund|cost|balance|payment)\b",
    ),
    ("most", r"\bmost\b(?! (?:popular|recent|likely|expensive|affordable|convenient)\b)"),
    (
        "some",
        r"\bsome\b(?! other\b| time\b| reason\b)|\ba few\b|\bseveral\b|\ba couple of\b"
        rf"|\b(?:one|two|three|four|five|\d+) of {_PLURAL_OF} (?:two|three|four|five|six|\d+)\b"
        # "one of the hotels", "one of tonight's 6 pm showings"
        rf"|\bone of {_PLURAL_OF} (?:[a-z0-9-]+ ){{0,3}}[a-z]+s\b"
        r"|\bpart of\b|\bpartial(?:ly)?\b|\bhalf (?:of )?(?:the|your|our|my|their|it|them)\b",
    ),
    ("only", r"\bonly\b(?<!not only)(?! \d)|\bjust one\b|\bsolely\b"),  # "only 60 percent" stresses a value
    ("none", r"\bnone\b|\bneither\b|\bnobody\b|\bno one\b"),
    ("either", r"\beither\b|\bwhichever\b|\bone or the other\b"),
    ("at least", r"\bat least\b|\bminimum of\b|\bor more\b"),
    (
        "at most",
        r"\bat most\b|\bno more than\b|\bup to\b|\bmaximum of\b|\bat the most\b|\bor fewer\b|\bor less\b"
        rf"|\bwithin (?:the next )?(?:\d|an?\b|{_COUNT_WORDS})",  # "within 14 days": no later than
    ),
    (
        "also",
        r"\balso\b|\bas well\b|\balong with\b|\bin addition to\b|\btoo\s*(?:[.!?]|$)"
        r"|, as (?:do|does|did|is|are|was|were|will|can|has|have)\b",  # "..., as do the later trains"
    ),
)
"""Scope and quantity words by class; two replies each with a class the other lacks fail."""
_SCOPES = tuple((name, re.compile(pattern)) for name, pattern in SCOPES)
_ANY_SCOPE = re.compile("|".join(f"(?:{pattern})" for _, pattern in SCOPES))
"""Every class in one pattern: most replies have no scope word, which one search tells; each class is searched
alone only in a reply that has one."""

_DUALS = (
    {frozenset(["none"]), frozenset(["all"])},
    {frozenset(["only"]), frozenset(["all", "except"])},
)
"""Classes that may say one thing with the predicate denied: ``none`` and ``all`` (``None of the flights have
seats`` / ``The flights are all full``), ``only`` and ``all ... except`` (``Only the 8:02 has seats`` / ``Every
train but the 8:02 is full``): no finding, the pair stays open; ``only`` and ``all ... except`` only where the
rest of the words differ (the predicate denied or reworded: with the same words they oppose)."""
_OPPOSES_ONLY = frozenset(["also"])
"""Classes that count only against ``only`` (``also`` adds; it contradicts nothing else)."""
_NEGATED = re.compile(r"\b(?:not|no|never)\b|n't\b")
_NOT_ALL = re.compile(r"(?:\bnot|n't) (?:all|every|everyone|everybody|everything|everywhere|each)\b(?! right\b| set\b)")
"""A denied universal says *some* (``not everywhere``, ``not all of it``, ``aren't all booked``)."""


@dataclass(frozen=True)
class ScopeFinding:
    """Scope words of other classes on the two sides: what gold says, what the prediction says, and why."""

    gold: str
    predicted: str
    detail: str


@functools.lru_cache(maxsize=1 << 14)
def scopes_in(text: str) -> frozenset[str]:
    """The scope classes a text uses (``SCOPES``), read together where two say one thing: ``no one
    except`` is ``only``; ``either`` under a negation is ``none`` (``not allowed at either hotel``); a denied
    universal is ``some`` (``not everywhere``)."""
    folded = _NOT_ALL.sub(" some ", text.casefold().replace("\u2019", "'"))
    if not _ANY_SCOPE.search(folded):
        return frozenset()
    found = {name for name, pattern in _SCOPES if pattern.search(folded)}
    if {"none", "except"} <= found:
        found = found - {"none", "except"} | {"only"}
    if "either" in found and _NEGATED.search(folded):
        found = found - {"either"} | {"none"}
    return frozenset(found)


def scope_findings(gold: str, predicted: str) -> list[ScopeFinding]:
    """What the two replies' scope words say differently (see the module docstring); empty otherwise."""
    mine, theirs = scopes_in(gold), scopes_in(predicted)
    only_mine, only_theirs = _compared(mine - theirs, theirs), _compared(theirs - mine, mine)
    dual = {only_mine, only_theirs} in _DUALS and (
        {only_mine, only_theirs} == _DUALS[0] or _predicate_words(gold) != _predicate_words(predicted)
    )
    if only_mine and only_theirs and not dual:
        said, gold_said = ", ".join(sorted(only_theirs)), ", ".join(sorted(only_mine))
        return [ScopeFinding(gold_said, said, f"{said} vs gold {gold_said}")]
    return []


def _predicate_words(text: str) -> frozenset[str]:
    """The word stems of ``text`` but for its scope words and ``_FRAME_WORDS``: what ``only`` or ``all ... except``
    is said of."""
    folded = _ANY_SCOPE.sub(" ", text.casefold().replace("\u2019", "'"))
    # a plural's "s" comes off before the stem, which reads "gate" and "gates" apart
    return frozenset(stem(w.removesuffix("s")) for w in _WORD.findall(folded) if w not in _FRAME_WORDS)


_WORD = re.compile(r"[a-z0-9:]+(?:'[a-z]+)?")
_FRAME_WORDS = frozenset(
    ["the", "a", "an", "of", "one", "ones", "that", "those", "which", "who", "in", "on", "at", "from", "to", "for",
     "with", "by", "and", "is", "are", "was", "were", "be", "been", "has", "have", "had", "still", "its", "their"]
)  # fmt: skip
"""Articles, prepositions and auxiliaries: which of them a reply uses does not deny its predicate."""


_NO_QUANTIFIER = re.compile(
    r"(?:^\s*|, |\bthere(?:'s| is| are) |\bthat )no [a-z-]+|\bnone of (?:the|your|our|my|its|their|these|those)\b"
)
_FLIP_MARKERS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("free", r"[a-z]-free\b"),  # "peanut-free": without peanuts
        ("without", r"\bwithout\b"),
        ("bound", r"\bat least\b|\bat most\b|\bup to\b|\bor more\b|\bor fewer\b|\bor less\b|\bminimum\b|\bmaximum\b"),
        ("beyond", r"\bmore than\b|\bless than\b|\bfewer than\b|\bbelow\b|\babove\b|\bunder\b|\bover\b|\bexceed"),
        (
            "denying state",
            r"\bcancell?ed\b|\bclosed\b|\bshut\b|\bunavailable\b|\bsuspended\b|\bfailed\b|\bbroken\b"
            r"|\bforbidden\b|\bprohibited\b|\bbanned\b|\bexcluded\b|\bsold out\b|\bfully booked\b|\btaken\b"
            r"|\bout of (?:service|order|stock)\b|\bmissing\b|\bempty\b",
        ),
    )
)
"""Words that flip a predicate without a negation cue (``peanut-free``, ``without``, ``cancelled``), and bounds that
flip one under a negation (``up to two`` = ``no more than two``)."""
_CUES = re.compile(r"\b(?:not|no|never|nothing|none|nobody|cannot)\b|n't\b")


def quantified_sentence(text: str) -> str:
    """The sentence of ``text`` (case-folded) whose subject a quantifier ``no`` denies (``No dish contains
    peanuts``, ``none of the main courses``, ``there's no seat that``); empty when there is none. A negation
    of the predicate (``The ferry is not sailing``) is no such quantifier."""
    folded = text.casefold().replace("\u2019", "'")
    return next((s for s in re.split(r"[.!?;]", folded) if _NO_QUANTIFIER.search(s)), "")


def flipped_predicate(denying: str, universal: str) -> bool:
    """Whether ``no X`` in ``denying`` and ``every X`` in ``universal`` may say one thing, the predicate flipped
    on one side: ``universal`` is read as ``all`` and negates nothing, and a word that flips a predicate
    (``_FLIP_MARKERS``: ``peanut-free``, ``cancelled``, ``up to`` / ``more than``) stands on one side only, or
    ``denying`` denies twice (``no main course that can't be``). ``No room has a balcony`` / ``Every room has
    a balcony`` flips nothing: they oppose."""
    mine, theirs = (text.casefold().replace("\u2019", "'") for text in (denying, universal))
    if "all" not in scopes_in(universal) or _CUES.search(theirs):
        return False
    markers = [{name for name, pattern in _FLIP_MARKERS if pattern.search(text)} for text in (mine, theirs)]
    return markers[0] != markers[1] or len(_CUES.findall(mine)) >= 2


def _compared(classes: frozenset[str], other: frozenset[str]) -> frozenset[str]:
    """``classes`` without those that count only against ``only`` when ``other`` has no ``only``."""
    return classes if "only" in other else classes - _OPPOSES_ONLY
