"""Walking two JSON values side by side down to scalar leaves, reporting the failing path.

Dicts are compared key by key (a missing or unexpected key settles its path as different), lists
position by position, or, for a request marked ``unordered``, as multisets: equal items are matched
first, and the remaining items are paired in sorted order for the scalar stage. Every scalar pair
goes through ``settle``; a pair it cannot decide becomes a *pending* leaf for the semantic scorer.
"""

from __future__ import annotations

import json
import json.encoder
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from aem_strands.compare.normalise import display
from aem_strands.compare.settle import settle, typed_value
from aem_strands.compare.values import ParseContext
from aem_strands.types import Comparison, JsonValue, Method, ValueKind

_quoted = json.encoder.encode_basestring
"""``json.dumps(text, ensure_ascii=False)`` for a string: the encoder's own function."""


@dataclass(frozen=True)
class Leaf:
    """One scalar position: settled already, or pending (the strings the scorer must compare).

    ``held`` (pending leaves only) says why similarity may not pass the pair (``settle``): a score at
    or above the threshold then goes to the escalation scorer, or fails without one.
    """

    path: str
    settled: Comparison | None
    pending: tuple[str, str] | None = None
    held: str | None = None


_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})
"""The types of a JSON scalar, exactly (a subclass takes the general way, which reads it as its base type)."""


def json_scalars(value: JsonValue) -> Iterator[JsonValue]:
    """The scalars of a JSON value (``None`` included), depth first; an empty object or list has none."""
    scalars: list[JsonValue] = []
    _collect_scalars(value, scalars)
    return iter(scalars)


def _collect_scalars(value: JsonValue, scalars: list[JsonValue]) -> None:
    """``json_scalars`` in one list, depth first: a scalar item is kept without a further call."""
    items = value.values() if isinstance(value, Mapping) else value if isinstance(value, (list, tuple)) else None
    if items is None:
        scalars.append(value)
        return
    for item in items:
        if type(item) in _SCALAR_TYPES:
            scalars.append(item)
        else:
            _collect_scalars(item, scalars)


def json_leaves(value: JsonValue, path: str = "") -> Iterator[tuple[str, JsonValue]]:
    """The scalar leaves of a JSON value with their paths (``a.b[0].c``); an empty object or list is no leaf."""
    leaves: list[tuple[str, JsonValue]] = []
    _collect_leaves(value, path, leaves)
    return iter(leaves)


def _collect_leaves(value: JsonValue, path: str, leaves: list[tuple[str, JsonValue]]) -> None:
    """``json_leaves`` in one list, depth first: a scalar item is kept without a further call."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            inner = f"{path}.{key}" if path else str(key)
            if type(item) in _SCALAR_TYPES:
                leaves.append((inner, item))
            else:
                _collect_leaves(item, inner, leaves)
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            if type(item) in _SCALAR_TYPES:
                leaves.append((f"{path}[{i}]", item))
            else:
                _collect_leaves(item, f"{path}[{i}]", leaves)
    else:
        leaves.append((path, value))


def json_key(value: JsonValue) -> str:
    """A canonical string for any JSON value (dict keys sorted)."""
    if isinstance(value, str):
        return _quoted(value)  # what json.dumps gives a string, without making an encoder per call
    # What json.dumps gives the other scalars (exactly these types; a subclass takes json.dumps), without an encoder
    kind = type(value)
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        return _float_key(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _float_key(value: float) -> str:
    """What json.dumps writes for a float: its ``repr``, or ``NaN``, ``Infinity``, ``-Infinity``."""
    if value != value:
        return "NaN"
    if value == math.inf:
        return "Infinity"
    if value == -math.inf:
        return "-Infinity"
    return float.__repr__(value)


def _finite(value: JsonValue) -> bool:
    """Whether no number in ``value`` is infinite or NaN (JSON numbers beyond float range load as inf,
    and two of them are not known to be equal: they fail closed)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


def _at(path: str, text: str) -> str:
    return f"{path}: {text}" if path and text else text


def _item_key(value: JsonValue, context: ParseContext) -> str:
    if isinstance(value, (dict, list)):
        return json_key(value)
    return repr(typed_value(value, context))


def _match_unordered(gold: list[JsonValue], predicted: list[JsonValue], context: ParseContext) -> list[int]:
    """For each gold item the index of the predicted item it is compared with."""
    free = list(range(len(predicted)))
    keys = [_item_key(p, context) for p in predicted]
    chosen: list[int | None] = []
    for item in gold:
        key = _item_key(item, context)
        hit = next((i for i in free if keys[i] == key), None)
        if hit is not None:
            free.remove(hit)
        chosen.append(hit)
    rest = iter(sorted(free, key=lambda i: json_key(predicted[i])))
    return [c if c is not None else next(rest) for c in chosen]


def plan_leaves(
    gold: JsonValue, predicted: JsonValue, path: str, kind: ValueKind, context: ParseContext, unordered: bool = False
) -> list[Leaf]:
    """The leaves of comparing ``predicted`` with ``gold`` (see the module docstring)."""
    key = json_key(gold)
    exact = type(gold) is type(predicted) and key == json_key(predicted)
    if exact and (("Infinity" not in key and "NaN" not in key) or _finite(gold)):
        return [Leaf(path, Comparison(True, 1.0, Method.EXACT))]
    if isinstance(gold, dict) and isinstance(predicted, dict):
        out: list[Leaf] = []
        for key in gold:
            sub = f"{path}.{key}" if path else str(key)
            if key not in predicted:
                out.append(Leaf(sub, Comparison(False, 0.0, Method.NORMALISED, _at(sub, "key missing"))))
            else:
                out.extend(plan_leaves(gold[key], predicted[key], sub, kind, context, unordered))
        for key in predicted:
            if key not in gold:
                sub = f"{path}.{key}" if path else str(key)
                out.append(Leaf(sub, Comparison(False, 0.0, Method.NORMALISED, _at(sub, "unexpected key"))))
        return out
    if isinstance(gold, list) and isinstance(predicted, list):
        if len(gold) != len(predicted):
            detail = _at(path, f"{len(predicted)} items where gold has {len(gold)}")
            return [Leaf(path, Comparison(False, 0.0, Method.NORMALISED, detail))]
        order = _match_unordered(gold, predicted, context) if unordered else list(range(len(gold)))
        out = []
        for index, item in enumerate(gold):
            out.extend(plan_leaves(item, predicted[order[index]], f"{path}[{index}]", kind, context, unordered))
        return out
    if isinstance(gold, (dict, list)) or isinstance(predicted, (dict, list)):
        detail = _at(path, f"{type(predicted).__name__} where gold has {type(gold).__name__}")
        return [Leaf(path, Comparison(False, 0.0, Method.NORMALISED, detail))]
    settled = settle(gold, predicted, kind, context)
    if settled is not None and settled.equivalent is None:
        return [Leaf(path, None, (display(gold), display(predicted)), settled.detail)]
    if settled is not None:
        detail = _at(path, settled.detail)
        return [
            Leaf(path, Comparison(settled.equivalent, 1.0 if settled.equivalent else 0.0, Method.NORMALISED, detail))
        ]
    return [Leaf(path, None, (display(gold), display(predicted)))]
