"""Argument schema checks: a call's arguments against its tool's declared schema (``enum``, ``const``, ``required``).

Schemas come from the tool definitions of the environment (the trace's own, the policy's, the Strands registry:
``ToolDefinition.properties`` and ``required``). A call to a tool with no definition, or an argument whose schema
declares neither ``enum`` nor ``const``, is not checked. The rule is JSON Schema's own: a value is in an ``enum``
only when it equals one of its members (``"Card"`` is not ``"card"``; ``2`` is not ``"2"``), which the tool
itself would refuse; so a finding here is settled by the schema, never guessed.

Findings: ``arguments.schema``, one per missing required argument and one per value outside its ``enum`` or
other than its ``const``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from aem_strands.tools import ToolDefinition
from aem_strands.trace.checks.steps import step_fragment
from aem_strands.trace.types import Dimension, Finding, Step
from aem_strands.types import JsonValue

RULE = "arguments.schema"
_SHOWN_MEMBERS = 8


def leaf_schema(schema: Mapping[str, Any] | None, path: list[str | int]) -> Mapping[str, Any] | None:
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


def argument_parts(value: JsonValue, prefix: list[str | int]) -> Iterator[tuple[list[str | int], JsonValue]]:
    """Each scalar leaf of an argument value with its path (object keys and list positions)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from argument_parts(item, [*prefix, str(key)])
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from argument_parts(item, [*prefix, i])
    else:
        yield prefix, value


def path_text(parts: list[str | int]) -> str:
    """``a.b[0].c`` for the path ``["a", "b", 0, "c"]``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def _same_json(a: object, b: object) -> bool:
    return (a == b and type(a) is type(b)) or (isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b
                                            and not isinstance(a, bool) and not isinstance(b, bool))  # fmt: skip


def _members(enum: list[Any]) -> str:
    shown = ", ".join(repr(m) for m in enum[:_SHOWN_MEMBERS])
    return shown + (f" and {len(enum) - _SHOWN_MEMBERS} more" if len(enum) > _SHOWN_MEMBERS else "")


def schema_findings(step: Step, definition: ToolDefinition | None) -> list[Finding]:
    """The ``arguments.schema`` findings of one tool call (see the module docstring)."""
    if definition is None:
        return []
    found: list[Finding] = []

    def finding(argument: str, message: str, value: JsonValue) -> Finding:
        evidence: dict[str, JsonValue] = {"step": step_fragment(step), "argument": argument, "value": value}
        return Finding(Dimension.ARGUMENTS, RULE, f"step {step.step_id}: {message}", step.step_id, step.index, evidence)

    for name in definition.required:
        if name not in step.arguments:
            found.append(finding(name, f"{step.tool_name} requires argument {name!r}, and the call does not give it",
                                 None))  # fmt: skip
    for parts, value in argument_parts(dict(step.arguments), []):
        top_schema = definition.properties.get(str(parts[0]))
        schema = leaf_schema(top_schema, parts[1:]) if top_schema is not None else None
        if schema is None:
            continue
        path = path_text(parts)
        enum = schema.get("enum")
        if isinstance(enum, list) and enum and not any(_same_json(value, m) for m in enum):
            message = (
                f"argument {path!r} of {step.tool_name} is {value!r}, which is not one of its schema's values "
                f"({_members(enum)})"
            )
            found.append(finding(path, message, value))
        if "const" in schema and not _same_json(value, schema["const"]):
            message = (
                f"argument {path!r} of {step.tool_name} is {value!r}, where its schema allows only {schema['const']!r}"
            )
            found.append(finding(path, message, value))
    return found


__all__ = ["RULE", "argument_parts", "leaf_schema", "path_text", "schema_findings"]
