"""Delegation: the user hands a choice among options to the agent ("Want me to pick one?" answered "Aisle
please"; "I found three flights." answered "you pick").

Read as dialog acts by the package's SGD-trained act model (``compare.dialog_acts``), not by words: the agent's
turn offers to act for the user (``offer_intent``) or offers options (``offer``), and the user's answer agrees
(``agree``). Agreeing to *one* option is no delegation but a choice the user made: a reply since the options came
that names exactly one of the options an earlier tool returned under some key (``12A`` of the seats; "I found X."
... "Shall I book it?") proposed that option, and the user's yes chose it. Replies that name none or several of
each key's options leave the choice open. (The SGD act model reads "Shall I book it?" and "Want me to pick one?"
alike, as ``offer_intent``: what tells them apart here is whether one option was proposed.)

Options are what an earlier tool returned as a list of records: per key, the distinct values its records hold,
when they hold two or more (``seats[0].seat``, ``seats[1].seat``: the ``seat`` options).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from aem_strands.compare.dialog_acts import Speaker, act_probabilities
from aem_strands.compare.normalise import display
from aem_strands.compare.walk import json_leaves
from aem_strands.trace.grounding import GroundingIndex, SameFn
from aem_strands.types import JsonValue

_LIKELY = 0.5
"""The probability from which an act is read as the turn's."""
_LISTED = re.compile(r"\[\d+\]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_SHORTEST = 2
"""The fewest characters of an option value looked for in a turn (no single letters or digits)."""


def options(observation: JsonValue) -> dict[str, frozenset[str]]:
    """The options a tool's result offers: for each key of records in a list, its distinct values, when two or
    more (see the module docstring)."""
    found: dict[str, set[str]] = {}
    for path, leaf in json_leaves(observation):
        if leaf is None or isinstance(leaf, bool) or not _LISTED.search(path):
            continue
        key = _LISTED.sub("", path).rsplit(".", 1)[-1]
        found.setdefault(key, set()).add(display(leaf))
    return {key: frozenset(values) for key, values in found.items() if len(values) >= 2}


def hands_choice(replies: Sequence[str], user: str, offered: Mapping[str, frozenset[str]], same: SameFn) -> bool:
    """Whether ``user``, answering the last of the agent's ``replies`` since the options ``offered`` were returned,
    hands the choice among them to the agent: the agent offered to act or offered options, the user agreed, and no
    reply named one option of a key alone, under the typed equivalence ``same`` (``7:30 am`` names ``07:30``; see
    the module docstring)."""
    agent = replies[-1] if replies else ""
    if not offered or not agent.strip() or not user.strip():
        return False
    sentences = [act_probabilities(part, Speaker.AGENT) for part in _SENTENCE.split(agent.strip()) if part]
    # each sentence on its own: "There are aisle seats free. Want me to pick one?" offers in its last one
    agent_acts = {act: max(acts[act] for acts in sentences) for act in ("offer_intent", "offer")}
    context = max(("offer_intent", "offer"), key=lambda act: agent_acts[act])
    if agent_acts[context] < _LIKELY or act_probabilities(user, Speaker.USER, context)["agree"] < _LIKELY:
        return False
    for reply in replies:
        index = GroundingIndex(same)
        index.add_text(reply, "reply")
        found: dict[str, bool] = {}  # per value: keys share values (a date under two keys is looked up once)
        for values in offered.values():
            named = [value for value in values if len(value) >= _SHORTEST and _named(index, value, found)]
            if len(named) == 1:
                return False  # one option named: the agent proposed it ("I found X. Shall I book it?")
    return True


def _named(index: GroundingIndex, value: str, found: dict[str, bool]) -> bool:
    """Whether ``index`` finds ``value``, remembered in ``found``."""
    known = found.get(value)
    if known is None:
        known = found[value] = index.find(value) is not None
    return known


__all__ = ["hands_choice", "options"]
