"""Arguments: every value the agent passes to a tool is grounded in what came before it.

A tool call's argument values (each scalar leaf, nested ones included) must appear earlier in the trace: in the
user's messages, the goal, the initial state, an earlier step's state, an earlier observation, or an earlier
call's arguments (the agent's own replies do not count: a value it made up and then said is still made up).
"Appear" is the product's typed equivalence (``trace.values.GroundingIndex``): ``order 123`` grounds
``ORDER_123``, ``five days`` grounds ``5 days``, ``$40`` grounds ``40``; a number grounds only the same number.

Exempt: booleans, null, the integers 0 and 1, empty strings, and values of arguments whose schema lists the
allowed values (``enum``/``const``: the tool, not the conversation, says what they may be). A free-text
argument (``ArgKind.FREE_TEXT``: a ``message``, ``reason``, ``body``...) is the agent's own wording; only the
identifiers and numbers inside it must be grounded.

A value found nowhere earlier gives ``arguments.ungrounded`` with the argument's path and value. Not applicable
when no tool call has an argument.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from aem_strands.compare.identifiers import is_identifier
from aem_strands.tools import ArgKind, ToolDefinition, arg_kind
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.steps import step_fragment
from aem_strands.trace.types import (
    ActionType,
    Dimension,
    DimensionVerdict,
    Environment,
    Finding,
    Step,
    Trace,
    not_applicable,
    verdict_from,
)
from aem_strands.trace.values import GroundingIndex
from aem_strands.types import JsonValue

_EDGE = "\"'.,;:!?()[]{}<>"


def _leaf_schema(schema: Mapping[str, Any] | None, path: list[str | int]) -> Mapping[str, Any] | None:
    """The schema of the leaf at ``path`` under an argument's schema (object ``properties``, array ``items``)."""
    for part in path:
        if schema is None:
            return None
        if isinstance(part, int):
            items = schema.get("items")
            schema = items if isinstance(items, Mapping) else None
        else:
            properties = schema.get("properties")
            found = properties.get(part) if isinstance(properties, Mapping) else None
            schema = found if isinstance(found, Mapping) else None
    return schema


def _parts(value: JsonValue, prefix: list[str | int]) -> Iterator[tuple[list[str | int], JsonValue]]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _parts(item, [*prefix, str(key)])
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _parts(item, [*prefix, i])
    else:
        yield prefix, value


def _path_text(parts: list[str | int]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def exempt(value: JsonValue) -> bool:
    """Values no argument needs to ground: booleans, null, 0 and 1, empty strings."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, (int, float)) and value in (0, 1):
        return True
    return isinstance(value, str) and not value.strip()


def _free_text_tokens(text: str) -> list[str]:
    """The identifiers and numbers inside free text: what must be grounded in it."""
    tokens = [w.strip(_EDGE) for w in text.split()]
    return [t for t in tokens if t and (any(ch.isdigit() for ch in t) or is_identifier(t))]


def _values_to_ground(step: Step, definition: ToolDefinition | None) -> Iterator[tuple[str, JsonValue, JsonValue]]:
    """(path, value to find, the argument's value) for each leaf that must be grounded."""
    for parts, value in _parts(dict(step.arguments), []):
        if exempt(value):
            continue
        top = str(parts[0])
        top_schema = definition.properties.get(top) if definition is not None else None
        schema = _leaf_schema(top_schema, parts[1:]) if top_schema is not None else None
        if schema is not None and ("enum" in schema or "const" in schema):
            continue
        name = str(parts[-1]) if not isinstance(parts[-1], int) else top
        kind = arg_kind(name, schema if schema is not None else {})
        path = _path_text(parts)
        if kind is ArgKind.FREE_TEXT and isinstance(value, str):
            for token in _free_text_tokens(value):
                yield path, token, value
        else:
            yield path, value, value


def _index_step(index: GroundingIndex, step: Step) -> None:
    """What a step adds to the trace's known values once it has happened."""
    where = f"step {step.step_id}"
    if step.action_type is ActionType.USER and step.content:
        index.add_text(step.content, f"user message ({where})")
    if step.action_type is ActionType.TOOL_CALL:
        index.add_json(dict(step.arguments), f"arguments of {where}")
        if isinstance(step.observation, str):
            index.add_text(step.observation, f"observation of {where}")
        elif step.observation is not None:
            index.add_json(step.observation, f"observation of {where}")
    if step.state_after:
        index.add_json(dict(step.state_after), f"state after {where}")


def check_arguments(trace: Trace, env: Environment, ctx: TraceContext) -> DimensionVerdict:
    """Every argument value of every tool call grounded in what came before (see the module docstring)."""
    calls = [s for s in trace.tool_calls() if s.arguments]
    if not calls:
        return not_applicable(Dimension.ARGUMENTS, "no tool call has arguments")
    definitions = {d.name: d for d in env.tools.definitions}
    index = GroundingIndex(ctx.values.same)
    if trace.goal:
        index.add_text(trace.goal, "goal")
    if trace.initial_state:
        index.add_json(dict(trace.initial_state), "initial state")
    findings: list[Finding] = []
    checked = 0
    for step in trace.steps:
        if step.state_before:
            index.add_json(dict(step.state_before), f"state before step {step.step_id}")
        if step.action_type is ActionType.TOOL_CALL and step.arguments:
            definition = definitions.get(step.tool_name or "")
            for path, value, whole in _values_to_ground(step, definition):
                checked += 1
                if index.find(value, path) is not None:
                    continue
                inside = f" (in {whole!r})" if whole != value else ""
                findings.append(
                    Finding(
                        Dimension.ARGUMENTS,
                        "arguments.ungrounded",
                        f"step {step.step_id}: argument {path!r} of {step.tool_name} is {value!r}{inside}, which "
                        "appears nowhere before the call (user messages, goal, initial state, earlier states, "
                        "observations and arguments): the agent may have invented it",
                        step.step_id,
                        step.index,
                        {"step": step_fragment(step), "argument": path, "value": value},
                    )
                )
        _index_step(index, step)
    return verdict_from(
        Dimension.ARGUMENTS,
        findings,
        f"{checked} argument value(s) of {len(calls)} tool call(s) looked up in what came before them",
    )


__all__ = ["check_arguments", "exempt"]
