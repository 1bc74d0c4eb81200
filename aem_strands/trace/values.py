"""Typed value equivalence for the trace checks, from the product's own comparison; the grounding index.

``ComparatorValues`` is the ``ValueJudge`` of a run: exact match, then the typed normalisation every
comparison of the product goes through (``compare.walk`` / ``compare.settle``: numbers equal only when they are
the same number, ``5 days`` / ``five days``, ``order 123`` / ``ORDER_123``, dates, units, phones, e-mail, state
words such as ``approved`` / ``denied``), and only then, when one is given, the ``Comparator`` with its semantic
scorer. Without a comparator a pair normalisation cannot settle is undecided (``None``), never a guess.

``GroundingIndex`` (``trace.grounding``, re-exported here) answers "does this value appear in what came before"
by keyed lookups, never by comparing every pair.
"""

from __future__ import annotations

from aem_strands.compare.chain import Comparator
from aem_strands.compare.values import ParseContext
from aem_strands.compare.walk import plan_leaves
from aem_strands.trace.grounding import Grounding, GroundingIndex, SameFn, compact
from aem_strands.types import JsonValue, ValueKind


class ComparatorValues:
    """A ``ValueJudge`` backed by the product's comparison chain (see the module docstring).

    ``comparator`` (optional) decides what normalisation leaves open, with its scorer; ``context`` carries the
    reference date and day-first reading for dates."""

    def __init__(self, comparator: Comparator | None = None, context: ParseContext | None = None) -> None:
        self.comparator = comparator
        self.context = context
        self._parse_context = context or ParseContext()

    def same(self, a: JsonValue, b: JsonValue, name: str = "") -> bool | None:
        if a == b and type(a) is type(b):
            return True
        leaves = plan_leaves(a, b, "", ValueKind.ARGUMENT, self._parse_context, False)
        outcomes = [leaf.settled.equivalent if leaf.settled is not None else None for leaf in leaves]
        if any(outcome is False for outcome in outcomes):
            return False
        if all(outcome is True for outcome in outcomes):
            return True
        if self.comparator is None:
            return None
        return self.comparator.compare(a, b).equivalent


__all__ = ["ComparatorValues", "Grounding", "GroundingIndex", "SameFn", "compact"]
