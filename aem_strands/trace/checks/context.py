"""What a check may ask beyond the trace itself: typed value equivalence and, where no rule can decide, the
LLM judge. Both are injected (``TraceContext``), so the checks stay pure and testable with fakes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from aem_strands.types import JsonValue


class ValueJudge(Protocol):
    """Typed equivalence of two values (``order 123`` ~ ``ORDER_123``, ``5 days`` ~ ``five days``)."""

    def same(self, a: JsonValue, b: JsonValue, name: str = "") -> bool | None:
        """Whether ``a`` and ``b`` are the same value (``name`` is the argument or state key, when known);
        ``None`` when it cannot be decided."""
        ...


class TraceJudge(Protocol):
    """The LLM judge, asked one yes/no question about a trace fragment where no rule can decide."""

    def decide(self, question: str, evidence: JsonValue) -> bool | None:
        """The judge's answer, or ``None`` when it could not answer (an unparseable reply, a failed call)."""
        ...


class ExactValues:
    """Equality after JSON decoding, nothing more: the fallback ``ValueJudge`` when no comparator is given."""

    def same(self, a: JsonValue, b: JsonValue, name: str = "") -> bool | None:
        return bool(a == b and type(a) is type(b))


@dataclass(frozen=True)
class TraceContext:
    """The injected helpers of one run: ``values`` for typed equivalence, ``judge`` (``None``: no judge) for
    what rules leave open. A judge never turns a rule's failure into a pass."""

    values: ValueJudge
    judge: TraceJudge | None = None
