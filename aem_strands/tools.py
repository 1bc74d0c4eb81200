"""Tool definitions as input: which tools are read-only, and what kind each argument is.

Three common forms are read, as a JSON list or ``{"tools": [...]}`` (also MCP's ``tools/list``
result):

- MCP: ``{"name", "description", "inputSchema", "annotations": {"readOnlyHint", "destructiveHint"}}``;
- OpenAI functions: ``{"type": "function", "function": {"name", "description", "parameters"}}``;
- Strands tool specs: ``{"name", "description", "inputSchema": {"json": {...}}}``.

A definition named N applies to a call whose ``action`` is N or, failing that, whose ``tool_id``
is N (tool names often live in ``action``; ``tool_id`` is then a server or ``api``).

From a definition come: whether the tool is read-only (an extra call to it is tolerated under
``allow_extra="read_only"``) or idempotent (``idempotentHint``: an extra call repeating an earlier
identical call has no further effect and is tolerated too), and each declared argument's
``ArgKind`` from its JSON schema: ``enum`` values, ``format`` date / date-time / email / uri,
``type`` number / integer / boolean are strict (only exact match and typed normalisation decide;
similarity never passes them); a string argument described as free text (or named like one:
summary, note, reason, ...) is judged like a reply; any other string follows the value chain
(where identifiers are strict anyway). The OpenAI form has no hints of its own: MCP-style
``annotations`` beside ``"function"`` are read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from aem_strands.decode import json_document
from aem_strands.errors import ConfigError, InputError
from aem_strands.types import ActionCall


class ArgKind(str, Enum):
    """How a declared argument is compared."""

    ENUM = "enum"
    DATE = "date"
    EMAIL = "email"
    URI = "uri"
    NUMBER = "number"
    BOOLEAN = "boolean"
    FREE_TEXT = "free_text"
    VALUE = "value"

    @property
    def strict(self) -> bool:
        """Only exact match and typed normalisation may pass it (never similarity)."""
        return self not in (ArgKind.FREE_TEXT, ArgKind.VALUE)


FREE_TEXT_NAMES = frozenset(
    {"summary", "note", "notes", "reason", "description", "comment", "comments", "message", "body", "text", "content",
     "explanation", "feedback", "details", "instructions"}
)  # fmt: skip
"""Argument names that hold free text when no schema says otherwise."""

_FREE_TEXT_WORDS = re.compile(r"\b(free[- ]?text|summary|summari[sz]e|describ|explanation|message|note|reason)", re.I)
_FORMATS = {"date": ArgKind.DATE, "date-time": ArgKind.DATE, "email": ArgKind.EMAIL, "uri": ArgKind.URI}
_TYPES = {"number": ArgKind.NUMBER, "integer": ArgKind.NUMBER, "boolean": ArgKind.BOOLEAN}


def arg_kind(name: str, schema: Mapping[str, Any]) -> ArgKind:
    """The kind of an argument from its JSON schema (see the module docstring)."""
    if "enum" in schema:
        return ArgKind.ENUM
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in _FORMATS:
        return _FORMATS[fmt]
    kind = schema.get("type")
    if isinstance(kind, str) and kind in _TYPES:
        return _TYPES[kind]
    if kind == "string" or kind is None:
        description = schema.get("description")
        if name.lower() in FREE_TEXT_NAMES or (isinstance(description, str) and _FREE_TEXT_WORDS.search(description)):
            return ArgKind.FREE_TEXT
    return ArgKind.VALUE


@dataclass(frozen=True)
class ToolDefinition:
    """One tool: its name, whether it is read-only or destructive, and its declared arguments."""

    name: str
    description: str = ""
    read_only: bool = False
    destructive: bool | None = None
    idempotent: bool = False
    properties: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    required: tuple[str, ...] = ()

    def arg_kind(self, name: str) -> ArgKind | None:
        """The declared kind of argument ``name`` (``None`` when the schema does not declare it)."""
        schema = self.properties.get(name)
        return None if schema is None else arg_kind(name, schema)

    def to_dict(self) -> dict[str, Any]:
        """MCP form (what ``load_tools`` reads back)."""
        schema: dict[str, Any] = {"type": "object", "properties": {k: dict(v) for k, v in self.properties.items()}}
        if self.required:
            schema["required"] = list(self.required)
        annotations: dict[str, Any] = {"readOnlyHint": self.read_only, "idempotentHint": self.idempotent}
        if self.destructive is not None:
            annotations["destructiveHint"] = self.destructive
        return {"name": self.name, "description": self.description, "inputSchema": schema, "annotations": annotations}


def _definition(raw: object, where: str) -> ToolDefinition:
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: a tool definition must be an object, got {type(raw).__name__}")
    if raw.get("type") == "function" and isinstance(raw.get("function"), Mapping):
        body: Mapping[str, Any] = raw["function"]
        schema = body.get("parameters") or {}
        # The OpenAI form has no hints of its own; MCP-style "annotations" beside "function" are read.
        annotations: Mapping[str, Any] = raw.get("annotations") or {}
    else:
        body = raw
        schema = raw.get("inputSchema") or raw.get("input_schema") or raw.get("parameters") or {}
        if isinstance(schema, Mapping) and isinstance(schema.get("json"), Mapping):  # Strands: {"json": {...}}
            schema = schema["json"]
        annotations = raw.get("annotations") or {}
    name = body.get("name")
    if not isinstance(name, str) or not name:
        raise ConfigError(f"{where}: a tool definition needs a non-empty 'name'")
    if not isinstance(schema, Mapping) or not isinstance(annotations, Mapping):
        raise ConfigError(f"{where} ({name}): the input schema and annotations must be objects")
    properties = schema.get("properties") or {}
    if not isinstance(properties, Mapping) or not all(isinstance(v, Mapping) for v in properties.values()):
        raise ConfigError(f"{where} ({name}): inputSchema.properties must map names to schemas")
    required = schema.get("required") or []
    read_only = annotations.get("readOnlyHint", False)
    destructive = annotations.get("destructiveHint")
    idempotent = annotations.get("idempotentHint", False)
    if not all(isinstance(v, bool) for v in (read_only, idempotent)) or not (
        destructive is None or isinstance(destructive, bool)
    ):
        raise ConfigError(f"{where} ({name}): readOnlyHint, destructiveHint and idempotentHint must be true or false")
    description = body.get("description") or ""
    return ToolDefinition(
        name, str(description), read_only, destructive, idempotent, {k: dict(v) for k, v in properties.items()},
        tuple(str(r) for r in required),
    )  # fmt: skip


@dataclass(frozen=True)
class ToolCatalog:
    """Tool definitions by name; ``find`` applies a definition to a call (by ``action``, then ``tool_id``)."""

    definitions: tuple[ToolDefinition, ...] = ()

    def __post_init__(self) -> None:
        names = [d.name for d in self.definitions]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ConfigError(f"tool {repeated[0]!r} is defined more than once")

    def __bool__(self) -> bool:
        return bool(self.definitions)

    def find(self, call: ActionCall) -> ToolDefinition | None:
        by_name = {d.name: d for d in self.definitions}
        return by_name.get(call.action) or by_name.get(call.tool_id)

    def is_read_only(self, call: ActionCall, names: frozenset[str] = frozenset()) -> bool:
        """Whether ``call`` goes to a read-only tool: one named in ``names`` (by ``action`` or ``tool_id``) or
        one whose definition says ``readOnlyHint``."""
        if call.action in names or call.tool_id in names:
            return True
        definition = self.find(call)
        return definition is not None and definition.read_only

    def read_only_names(self) -> frozenset[str]:
        return frozenset(d.name for d in self.definitions if d.read_only)

    def to_list(self) -> list[dict[str, Any]]:
        return [d.to_dict() for d in self.definitions]


def tools_from_json(data: object, source: str = "tools") -> ToolCatalog:
    """A catalog from decoded JSON: a list of definitions or an object with a ``tools`` list."""
    items = data.get("tools") if isinstance(data, Mapping) else data
    if not isinstance(items, list):
        raise ConfigError(f"{source}: expected a JSON list of tool definitions or an object with a 'tools' list")
    definitions = tuple(_definition(item, f"{source}: tool {i}") for i, item in enumerate(items))
    try:
        return ToolCatalog(definitions)
    except ConfigError as error:  # a name given twice: say in which file
        raise ConfigError(f"{source}: {error}") from None


def load_tools(path: str | Path) -> ToolCatalog:
    """Read a tools file (see the module docstring for the forms)."""
    try:
        data = json_document(Path(path).read_text(encoding="utf-8"), str(path))  # within the input limits
    except OSError as error:
        raise ConfigError(f"tools file {path}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"tools file {path}: not JSON: {error}") from None
    except InputError as error:
        raise ConfigError(f"tools {error}") from None
    return tools_from_json(data, f"tools file {path}")


def as_catalog(value: ToolCatalog | str | Path | Sequence[Any] | Mapping[str, Any] | None) -> ToolCatalog:
    """A catalog from a catalog, a tools file path, or decoded JSON (``None``: empty)."""
    if value is None:
        return ToolCatalog()
    if isinstance(value, ToolCatalog):
        return value
    if isinstance(value, (str, Path)):
        return load_tools(value)
    return tools_from_json(list(value) if not isinstance(value, Mapping) else value)


def tools_from_specs(specs: Iterable[Mapping[str, Any]]) -> ToolCatalog:
    """A catalog from Strands tool specs (e.g. ``agent.tool_registry.get_all_tool_specs()``)."""
    return tools_from_json(list(specs), "agent tool registry")
