"""The object a call acts on, as planning's rules compare it: the identifying arguments (``order_id``, ``number``,
``code``, ``ref``: ``IDENTIFYING_NAME``), or the rule's ``per`` argument; where an earlier call's arguments lack one,
the identifying member of the object its observation answers about (``{"order_id": "O-2", "eligible": true}`` is
about ``O-2``). Values compare by their identifier key (``compare.identifiers``); what cannot be told counts as the
same object.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from aem_strands.compare.identifiers import identifier_key
from aem_strands.trace.names import canonical_tool_name
from aem_strands.trace.types import Step
from aem_strands.types import JsonValue

IDENTIFYING_NAME = re.compile(r"(?:^|_)(?:id|number|no|code|ref|reference)$")
"""Argument and member names that identify an object."""


def argument_of(step: Step, name: str) -> JsonValue:
    wanted = canonical_tool_name(name)
    return next((v for k, v in step.arguments.items() if canonical_tool_name(k) == wanted), None)


def same_value(a: JsonValue, b: JsonValue) -> bool:
    return identifier_key(str(a)) == identifier_key(str(b))


def identifying(step: Step) -> dict[str, JsonValue]:
    return {
        canonical_tool_name(k): v
        for k, v in step.arguments.items()
        if IDENTIFYING_NAME.search(canonical_tool_name(k)) and isinstance(v, (str, int)) and not isinstance(v, bool)
    }


def _answered_about(earlier: Step) -> dict[str, JsonValue]:
    """The identifying members of the object the earlier call's observation answers about (its top level:
    ``{"order_id": "O-2", "eligible": true}``), for the keys its arguments do not give."""
    observation = earlier.observation
    if not isinstance(observation, Mapping):
        return {}
    return {
        canonical_tool_name(k): v
        for k, v in observation.items()
        if IDENTIFYING_NAME.search(canonical_tool_name(k)) and isinstance(v, (str, int)) and not isinstance(v, bool)
    }


def same_object(earlier: Step, call: Step, per: str | None) -> bool:
    """Whether ``earlier`` was about the object ``call`` acts on: its arguments, else the object its observation
    answers about, name the same one; what cannot be told counts as the same."""
    theirs = {**_answered_about(earlier), **identifying(earlier)}
    if per is not None:
        a, b = argument_of(earlier, per), argument_of(call, per)
        a = theirs.get(canonical_tool_name(per)) if a is None else a
        return a is None or b is None or same_value(a, b)
    mine = identifying(call)
    return all(same_value(mine[k], theirs[k]) for k in mine.keys() & theirs.keys())


def object_of(call: Step, per: str | None) -> tuple[str, JsonValue] | None:
    if per is not None:
        value = argument_of(call, per)
        return None if value is None else (canonical_tool_name(per), value)
    return next(iter(identifying(call).items()), None)


__all__ = ["IDENTIFYING_NAME", "argument_of", "identifying", "object_of", "same_object", "same_value"]
