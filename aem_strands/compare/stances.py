"""Whether a reply says something can or will happen, or that it cannot: affirmed and denied by meaning.

``stance(text)`` reads a statement (no question) as:

- ``can``: it says what can or will be done (``We can seat you on the terrace``, ``You'll get your deposit
  back``, ``It's available``) and negates nothing;
- ``cannot``: it denies exactly that (``isn't available``, ``won't be returned``, ``can't be refilled``,
  ``isn't possible``, ``unable to``, ``impossible``) and says nothing else can or will happen (``The terrace
  isn't available, but we can seat you inside`` is both: ``None``);
- ``None`` otherwise, and for a reply that bounds what can be done (``only``, ``until``, ``unless``, ``but``: ``I
  can't hold the room past 6 pm`` / ``The room can only be held until 6 pm`` say one thing).

``opposed_stances(gold, predicted)`` opposes ``can`` and ``cannot`` where the two replies share a content word
(what is possible or not: ``terrace``, ``deposit``), so the same thing is affirmed on one side and denied on the
other (``We can deliver your prescription tomorrow`` / ``Tomorrow's delivery of your prescription isn't
possible``). Anything unclear (a question, both stances on one side, nothing shared) is no finding.
"""

from __future__ import annotations

import functools
import re
from typing import Literal

from aem_strands.compare.reply_signals import words_in
from aem_strands.compare.reply_words import GOVERNED_SKIP, negation_pattern

Stance = Literal["can", "cannot"]

_DENIED = re.compile(
    r"\b(?:can't|cannot|can not|won't|will not|couldn't|could not|isn't|aren't|not|no longer) (?:\w+ ){0,2}?"
    r"(?:be |been )?(?:available|possible|able|feasible|doable|offered|returned|refunded|done|given|allowed)\b"
    r"|\b(?:can't|cannot|can not|won't|will not|unable to|not able to)\b|\bunavailable\b|\bimpossible\b"
)
"""Denials of a possibility or a promise: a negated modal, or a negated word of availability or possibility."""
_AFFIRMED = re.compile(r"\b(?:can|will|able to|available|possible)\b|'ll\b")
"""Words that say something can or will happen (``We can``, ``You'll get``, ``it's available``)."""
_NEGATED = negation_pattern("nobody", "unavailable", "impossible", "too early", "too late", "out of")
"""Anything that denies (``reply_words.negation_pattern``), and a few words of lost possibility beside."""
_RESTRICTED = re.compile(r"\b(?:only|just|until|till|unless|except|past|beyond|but|however|instead)\b")
"""Words that bound what can be done (``can only be held until 6 pm`` = ``can't hold it past 6 pm``): what is
affirmed and what denied may then be one thing, so the reply has no clear stance."""
_SHARED_SKIP = frozenset(["tonight", "today", "tomorrow", "now", "time", "your", "you", "we", "our", "sorry"])


@functools.lru_cache(maxsize=1 << 14)
def stance(text: str) -> Stance | None:
    """``can``, ``cannot`` or ``None`` for a reply (see the module docstring)."""
    folded = text.casefold().replace("\u2019", "'")
    if "?" in folded or _RESTRICTED.search(folded):
        return None
    if not _NEGATED.search(folded):
        return "can" if _AFFIRMED.search(folded) else None
    if not _DENIED.search(folded):
        return None
    rest = _DENIED.sub(" ", folded)
    return None if _AFFIRMED.search(rest) or _NEGATED.search(rest) else "cannot"


def opposed_stances(gold: str, predicted: str) -> tuple[Stance, Stance] | None:
    """``(gold's stance, the prediction's)`` when one affirms and the other denies what both name; ``None``
    otherwise (see the module docstring)."""
    mine, theirs = stance(gold), stance(predicted)
    if mine is None or theirs is None or mine == theirs:
        return None
    shared = {w for w in words_in(gold) & words_in(predicted) if len(w) > 3 and w not in GOVERNED_SKIP | _SHARED_SKIP}
    return (mine, theirs) if shared else None
