"""The nine dimension checks of a trace. Each is a pure function ``(trace, environment, context) ->
DimensionVerdict``; ``CHECKS`` lists them in report order."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.cost import check_cost
from aem_strands.trace.checks.necessity import check_necessity
from aem_strands.trace.checks.planning import check_planning
from aem_strands.trace.checks.recovery import check_recovery
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.checks.safety import check_safety
from aem_strands.trace.checks.state import check_state
from aem_strands.trace.checks.tool_selection import check_tool_selection
from aem_strands.trace.types import Dimension, DimensionVerdict, Environment, Trace

CheckFn = Callable[[Trace, Environment, TraceContext], DimensionVerdict]
"""A dimension check: the trace, its effective environment and the injected context in, one verdict out."""

CHECKS: Mapping[Dimension, CheckFn] = {
    Dimension.PLANNING: check_planning,
    Dimension.NECESSITY: check_necessity,
    Dimension.TOOL_SELECTION: check_tool_selection,
    Dimension.ARGUMENTS: check_arguments,
    Dimension.RESULT_USE: check_result_use,
    Dimension.STATE: check_state,
    Dimension.RECOVERY: check_recovery,
    Dimension.SAFETY: check_safety,
    Dimension.COST: check_cost,
}
"""The check of each dimension, in report order."""
