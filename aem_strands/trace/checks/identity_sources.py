"""Where an identity check's values came from, for planning's ``planning.identity_not_from_user``: a tool named
``verify...`` / ``authenticate...`` / ``...identity`` (``IDENTITY_WORDS``) must take its factors (a name, a zip, a date
of birth: every argument not named as an id) from the user (a user step or the goal), not from what a tool returned;
an id (``user_id``) may come from a lookup, but a check with ids only needs one of them from the user.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.names import canonical_tool_name
from aem_strands.trace.types import ActionType, Step, Trace
from aem_strands.trace.values import GroundingIndex, compact
from aem_strands.types import JsonValue

IDENTITY_WORDS = ("verif", "authent", "identi", "login", "logon", "auth")
"""Beginnings of a tool name's words that make it an identity check."""

_ID_NAME = re.compile(r"(?:^|_)id$")


@dataclass
class _Sources:
    """What the user said (user steps, the goal) and what tools returned, indexed once per trace."""

    user: GroundingIndex
    tools: GroundingIndex


def _sources(trace: Trace, ctx: TraceContext, before: int) -> _Sources:
    user, tools = GroundingIndex(ctx.values.same), GroundingIndex(ctx.values.same)
    if trace.goal:
        user.add_text(trace.goal, "goal")
    for step in trace.steps[:before]:
        if step.action_type is ActionType.USER and step.content:
            user.add_text(step.content, step.step_id)
        elif step.action_type is ActionType.TOOL_CALL and step.observation is not None:
            tools.add_json(step.observation, step.step_id)
    return _Sources(user, tools)


def is_identity_check(tool: str) -> bool:
    return any(w.startswith(IDENTITY_WORDS) for w in canonical_tool_name(tool).split("_"))


def _user_said(value: JsonValue, name: str, told: str, sources: _Sources) -> bool:
    key = compact(str(value))
    return (len(key) >= 2 and key in told) or sources.user.find(value, name) is not None


def read_off(trace: Trace, step: Step, ctx: TraceContext) -> str | None:
    """The step an identity check's values were read from, or ``None`` when they came from the user: every factor
    (a value of an argument not named as an id: a name, a zip, a date of birth) the run read from a tool must be
    one the user said too; ids (``user_id``: looked up from what the user gave) may come from a tool, but when
    the check has only ids, one of them must be the user's."""
    values = [(k, v) for k, v in step.arguments.items() if isinstance(v, (str, int)) and not isinstance(v, bool)]
    values = [(k, v) for k, v in values if str(v).strip()]
    if not values:
        return None
    said = [s.content for s in trace.steps[: step.index] if s.action_type is ActionType.USER and s.content]
    told = compact(" ".join([trace.goal or "", *said]))
    sources = _sources(trace, ctx, step.index)
    factors = [(k, v) for k, v in values if not _ID_NAME.search(canonical_tool_name(k))]
    if factors:
        for name, value in factors:
            found = sources.tools.find(value, name)
            if found is not None and not _user_said(value, name, told, sources):
                return found.source
        return None
    if any(_user_said(v, k, told, sources) for k, v in values):
        return None
    found = next((g for k, v in values if (g := sources.tools.find(v, k)) is not None), None)
    return None if found is None else found.source


__all__ = ["IDENTITY_WORDS", "is_identity_check", "read_off"]
