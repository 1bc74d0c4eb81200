"""Which way a named place or party faces in a reply: the start of a move or its end, read from the words next to it.

``direction_findings(gold, predicted)`` reads, for each named entity both replies state (``fact_match.agree``),
the words just before it and just after it, without a parse:

- a **source** (where something starts): ``from X``, ``out of X``, ``departs X``, ``leaving X``, ``the origin
  is X``, ``X is the station of origin``;
- a **target** (where it ends): ``to X``, ``into X``, ``towards X``, ``bound for X``, ``reaching X``, ``arrives
  at X``, ``the destination is X``, ``X is your destination``.

A compass point both replies name (``north``, ``south-east`` ...) is read the same way (``winds out of the
northwest`` / ``blowing toward the northwest``).

An entity read as a source on one side and as a target on the other, and as nothing else on either, is a
finding (``'Union Station' is the source in gold, the target in the prediction``): ``This bus leaves from
Union Station`` and ``You'll be travelling to Union Station`` name one station for two ends of the trip.
The actions may differ (``leaves`` / ``travelling``), which is where the parsed roles (``roles``), which
compare one action with itself, say nothing. An entity with both readings on one side, or none, is no
finding; ``to`` after ``next``, ``close``, ``due``, ``listen`` and the like points nowhere.
"""

from __future__ import annotations

import functools
import re
from enum import Enum

from aem_strands.compare.fact_match import agree
from aem_strands.compare.reply_signals import facts_in
from aem_strands.compare.roles import RoleFinding


class Direction(str, Enum):
    SOURCE = "source"
    TARGET = "target"


_NOT_A_MOVE = (
    r"(?<!next )(?<!close )(?<!near )(?<!due )(?<!according )(?<!thanks )(?<!compared )(?<!similar )(?<!listen )"
    r"(?<!listened )(?<!listening )(?<!welcome )(?<!talk )(?<!speak )(?<!belongs )(?<!up )"
)
_ROLE_NOUN = r"(?:station |city |airport |point |place |terminal )?"
_BEFORE = (
    (re.compile(rf"\b(?:from|out of|origin {_ROLE_NOUN}?(?:is|will be)|departs|departing|leaving)$"), Direction.SOURCE),
    (
        re.compile(
            rf"{_NOT_A_MOVE}\bto$|\b(?:into|towards?|bound for|headed for|heading for|reach|reaches|reaching"
            rf"|arrives? (?:at|in)|arriving (?:at|in)|destination {_ROLE_NOUN}?(?:is|will be))$"
        ),
        Direction.TARGET,
    ),
)
"""What the words before an entity (determiners left out) end with, and the direction they give it."""
_AFTER = (
    (
        re.compile(rf"^(?:is|will be|as) (?:the |your )?{_ROLE_NOUN}(?:of )?(?:origin|departure|starting point)\b"),
        Direction.SOURCE,
    ),
    (re.compile(r"^(?:is|will be|as) (?:the |your )?(?:final )?destination\b"), Direction.TARGET),
)
"""What the words after an entity start with, and the direction they give it."""
_DETERMINERS = frozenset(["the", "a", "an", "your", "my", "our", "their", "this", "that", "its", "his", "her"])


@functools.lru_cache(maxsize=1 << 14)
def directions_of(text: str, entity: str) -> frozenset[Direction]:
    """The directions the words around each mention of ``entity`` (as written in ``text``) give it."""
    folded = text.replace("\u2019", "'").casefold()
    found: set[Direction] = set()
    for mention in re.finditer(rf"\b{re.escape(entity.casefold())}\b", folded):
        words = folded[: mention.start()].split()
        while words and words[-1] in _DETERMINERS:
            words.pop()
        before = " ".join(words[-4:])
        found |= {direction for pattern, direction in _BEFORE if pattern.search(before)}
        after = " ".join(folded[mention.end() :].split()[:7])
        found |= {direction for pattern, direction in _AFTER if pattern.search(after)}
    return frozenset(found)


def direction_findings(gold: str, predicted: str) -> list[RoleFinding]:
    """The entities both replies state, and the compass points both name, that face one way in gold and the
    other in the prediction."""
    mine = [f for f in facts_in(gold) if f.group == "entity"]
    theirs = [f for f in facts_in(predicted) if f.group == "entity"]
    named = [
        (one.text, next(f.text for f in theirs if agree(one, f))) for one in mine if any(agree(one, f) for f in theirs)
    ]
    both = _COMPASS.findall(gold.casefold()), _COMPASS.findall(predicted.casefold())
    named += [(point, point) for point in dict.fromkeys(both[0]) if point in both[1]]
    findings = []
    for one, other in named:
        if _opposed(directions_of(gold, one), directions_of(predicted, other)):
            (way,), (other_way,) = directions_of(gold, one), directions_of(predicted, other)
            detail = f"'{one}' is the {way.value} in gold, the {other_way.value} in the prediction"
            findings.append(RoleFinding(f"{way.value}: {one}", f"{other_way.value}: {other}", detail))
    return findings


_COMPASS = re.compile(r"\b(?:north|south)(?:-?(?:east|west))?\b|\b(?:east|west)\b")
"""Compass points, which a weather or traffic reply names as the place a wind or a storm comes from or goes to."""


def _opposed(mine: frozenset[Direction], theirs: frozenset[Direction]) -> bool:
    return len(mine) == len(theirs) == 1 and mine != theirs
