"""YAML read within the limits of JSON input (``aem_strands.decode``), and with its aliases bounded.

``BoundedLoader`` is PyYAML's ``SafeLoader`` (the same values, the same syntax errors) but for what could
exhaust memory, time or the stack; each such part is read as a ``BadValue`` standing where it was, so the check
of the record that holds it (``find_flaw``) names its field and the other records of the file are still read:

- nesting: a collection deeper than ``MAX_DEPTH`` + 1 levels in its document is not built (the record check
  finds the part beyond ``MAX_DEPTH`` levels of its record, as in JSON, with JSON's message);
- number literals: at most ``MAX_NUMBER_CHARS`` characters; a decimal one with a fraction or exponent must fit a
  float exactly as written, as in JSON (``1_000.5``, ``.5`` and ``+1.5`` are decimal literals too);
- aliases: at most ``MAX_ALIASES`` uses in a document, and what they repeat at most ``MAX_ALIAS_SIZE`` in all
  (the size of a value: one per node, plus the characters of its scalars; an alias within a repeated value
  counts its own value again), so nine levels of anchors (``a1: [*a0, *a0, ...]``) cannot expand to a billion
  nodes; the first alias past a limit, and every later one in its document, is not expanded;
- cycles (``&a [*a]``): an alias inside the value it names is not expanded (JSON has no cycles).

Strings follow JSON's limits through ``find_flaw`` (length, lone surrogates) once the value is built.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from aem_strands.decode import MAX_DEPTH, TOO_DEEP, BadValue, float_literal, long_literal

MAX_ALIASES = 10_000
"""Alias uses (``*name``) a YAML document may hold."""
MAX_ALIAS_SIZE = 1_000_000
"""Nodes plus scalar characters that the aliases of one YAML document may repeat, all uses together."""

_FLAW_TAG = "tag:aem-strands,2026:flaw"
"""The tag of a node that stands for a part not built; it is read as a ``BadValue`` of its text."""
_DECIMAL = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:e[-+]?[0-9]+)?")


class BoundedLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` within the limits of the module docstring (construct it with the text, as a loader)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._reset()

    def _reset(self) -> None:
        self._depth = 0
        self._aliases = 0
        self._repeated = 0
        self._spent: str | None = None
        self._open: set[str] = set()
        self._sizes: dict[int, int] = {}

    def compose_document(self) -> Any:
        self._reset()
        try:
            return super().compose_document()
        finally:
            self._sizes = {}

    # PyYAML's scanner walks every flow level's possible simple key at each token: quadratic in the nesting
    # (3,000 levels of ``[``: 15 s). Keys are saved in the order of their position (a level saved again moves to
    # the end), so the nearest is the first and the stale ones are a prefix: the same answers, in constant time.
    def next_possible_simple_key(self) -> int | None:
        for key in self.possible_simple_keys.values():
            return int(key.token_number)
        return None

    def stale_possible_simple_keys(self) -> None:
        keys = self.possible_simple_keys
        while keys:
            level = next(iter(keys))
            key = keys[level]
            if key.line == self.line and self.index - key.index <= 1024:
                return
            if key.required:
                raise yaml.scanner.ScannerError(
                    "while scanning a simple key", key.mark, "could not find expected ':'", self.get_mark()
                )
            del keys[level]

    def _peek(self) -> Any:
        return self.peek_event()  # type: ignore[no-untyped-call]  # PyYAML's stubs leave its parser untyped

    def _next(self) -> Any:
        return self.get_event()  # type: ignore[no-untyped-call]  # PyYAML's stubs leave its parser untyped

    def _flaw(self, why: str, event: Any) -> yaml.ScalarNode:
        node = yaml.ScalarNode(_FLAW_TAG, why, event.start_mark, event.end_mark)
        self._sizes[id(node)] = 1
        return node

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            return self._alias(parent, index)
        event = self._peek()
        collection = isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent))
        if collection and self._depth > MAX_DEPTH:
            return self._skip_deep()
        anchor = event.anchor
        if collection:
            self._depth += 1
            if anchor is not None:
                self._open.add(anchor)
        try:
            node: Any = super().compose_node(parent, index)
        finally:
            if collection:
                self._depth -= 1
                self._open.discard(anchor)
        if isinstance(node, yaml.ScalarNode):
            size = 1 + len(node.value)
        elif isinstance(node, yaml.SequenceNode):
            size = 1 + sum(self._sizes[id(child)] for child in node.value)
        else:
            size = 1 + sum(self._sizes[id(key)] + self._sizes[id(value)] for key, value in node.value)
        self._sizes[id(node)] = size
        return node

    def _alias(self, parent: Any, index: Any) -> Any:
        event = self._peek()
        anchor = event.anchor
        if anchor not in self.anchors:
            return super().compose_node(parent, index)  # PyYAML's own error: an undefined alias
        self._next()
        line = event.start_mark.line + 1
        if anchor in self._open:
            return self._flaw(f"YAML alias *{anchor} (line {line}) stands inside the value it names (a cycle)", event)
        if self._spent is not None:
            return self._flaw(self._spent, event)
        target = self.anchors[anchor]
        self._aliases += 1
        self._repeated += self._sizes[id(target)]
        if self._aliases > MAX_ALIASES:
            self._spent = f"more than {MAX_ALIASES:,} YAML aliases in one document (the limit)"
        elif self._repeated > MAX_ALIAS_SIZE:
            self._spent = (
                f"YAML aliases repeat more than {MAX_ALIAS_SIZE:,} nodes and characters in one document (the limit)"
            )
        if self._spent is not None:
            self._spent += f"; alias *{anchor} (line {line}) and the later ones are not expanded"
            return self._flaw(self._spent, event)
        return target

    def _skip_deep(self) -> yaml.ScalarNode:
        """Pass over a collection nested too deep, event by event (no recursion); its anchors name the flaw."""
        node = self._flaw(TOO_DEEP, self._peek())
        level = 0
        while True:
            event = self._next()
            if getattr(event, "anchor", None) is not None and not isinstance(event, yaml.AliasEvent):
                self.anchors[event.anchor] = node
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                level += 1
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                level -= 1
                if level == 0:
                    return node


def _int(loader: BoundedLoader, node: yaml.ScalarNode) -> object:
    too_long = long_literal(str(node.value))
    return BadValue(too_long) if too_long else SafeConstructor.construct_yaml_int(loader, node)


def _float(loader: BoundedLoader, node: yaml.ScalarNode) -> object:
    text = str(node.value)
    too_long = long_literal(text)
    if too_long:
        return BadValue(too_long)
    plain = text.replace("_", "").lower()
    if _DECIMAL.fullmatch(plain):
        return float_literal(plain.removeprefix("+"))
    return SafeConstructor.construct_yaml_float(loader, node)  # .inf, .nan, sexagesimal: find_flaw judges them


def _timestamp(loader: BoundedLoader, node: yaml.ScalarNode) -> object:
    try:
        return SafeConstructor.construct_yaml_timestamp(loader, node)
    except ValueError:  # written as a date but none (2024-13-45): its text, as JSON would give it
        return str(node.value)


def _flaw(loader: BoundedLoader, node: yaml.ScalarNode) -> BadValue:
    return BadValue(str(node.value))


BoundedLoader.add_constructor("tag:yaml.org,2002:int", _int)
BoundedLoader.add_constructor("tag:yaml.org,2002:float", _float)
BoundedLoader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
BoundedLoader.add_constructor(_FLAW_TAG, _flaw)


def load_one(text: str) -> Any:
    """The one document of a YAML text (``None`` when empty), as ``yaml.safe_load`` reads it but within the limits."""
    loader = BoundedLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
