"""aem_strands: turn-level correctness of tool-using agents, with root-cause attribution.

Public API: ``load_dialogs``, ``evaluate_dialog``, ``evaluate_dialogs`` and the value types they
take and return.

Names are imported on first use (PEP 562), so ``import aem_strands`` is cheap: the command starts
quickly and a Ctrl-C while it starts is handled by ``aem_strands.__main__`` like any other.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

# OpenMP threads that wait for work sleep instead of spinning (unless the caller chose otherwise). Two runtimes share
# the process once spaCy's parser and torch (MiniLM) have both run, and their spinning threads starve each other on a
# few cores: a MiniLM encode of one short phrase took 0.5 s of CPU, 15 ms with this. Read when OpenMP is loaded, so
# set before any model is; it changes no thread count, so no result.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from aem_strands.lazy import lazy_attributes

__version__ = "0.1.0"

_HOMES: dict[str, str] = {
    # the core: values, loading, judging, composing
    **dict.fromkeys(
        ["Comparator", "ComparisonRequest", "EmbeddingScorer", "ExactScorer", "SemanticScorer", "TableScorer",
         "Thresholds", "make_scorer"],
        "aem_strands.compare",
    ),
    "make_composer": "aem_strands.compose",
    **dict.fromkeys(["AemError", "ConfigError", "InputError", "Location"], "aem_strands.errors"),
    **dict.fromkeys(["evaluate_dialog", "evaluate_dialogs", "make_comparator"], "aem_strands.evaluate"),
    **dict.fromkeys(["DialogSet", "load_dialogs", "parse_dialog"], "aem_strands.load"),
    "EvalOptions": "aem_strands.options",
    **dict.fromkeys(["DialogResult", "TurnResult"], "aem_strands.result"),
    **dict.fromkeys(
        ["ActionCall", "Attribution", "Comparison", "Dialog", "FailureReason", "Method", "Problem", "Reply", "Role",
         "SubMetric", "Turn", "TurnKind", "TurnVerdict", "ValueKind", "Verdict"],
        "aem_strands.types",
    ),
    **dict.fromkeys(["AlignOptions", "Alignment", "align_turns"], "aem_strands.align"),
    "parse_unpaired": "aem_strands.unpaired",
    # trajectory evaluation (aem_strands.trace)
    **dict.fromkeys(["evaluate_trace", "evaluate_traces"], "aem_strands.trace.evaluate"),
    **dict.fromkeys(["iter_traces", "load_traces"], "aem_strands.trace.load"),
    **dict.fromkeys(["Step", "Trace", "TraceResult"], "aem_strands.trace.types"),
    # Strands Evals adapters, importable as ``aem_strands:NAME`` (e.g. ``--custom-evaluator
    # aem_strands:AemSessionEvaluator``) without importing strands_evals for core-only users.
    **dict.fromkeys(
        ["AemReport", "AemSessionEvaluator", "AemTraceEvaluator", "AemTurnEvaluator", "CorrectnessCustomEvaluator",
         "GoldRefreshingStore", "live_task", "make_live_task", "offline_task"],
        "aem_strands.strands",
    ),
}  # fmt: skip
"""Where each public name lives."""

__all__ = [
    "ActionCall",
    "AemError",
    "AemReport",
    "AemSessionEvaluator",
    "AemTraceEvaluator",
    "AemTurnEvaluator",
    "AlignOptions",
    "Alignment",
    "Attribution",
    "Comparator",
    "Comparison",
    "ComparisonRequest",
    "ConfigError",
    "CorrectnessCustomEvaluator",
    "Dialog",
    "DialogResult",
    "DialogSet",
    "EmbeddingScorer",
    "EvalOptions",
    "ExactScorer",
    "FailureReason",
    "GoldRefreshingStore",
    "InputError",
    "Location",
    "Method",
    "Problem",
    "Reply",
    "Role",
    "SemanticScorer",
    "Step",
    "SubMetric",
    "TableScorer",
    "Thresholds",
    "Trace",
    "TraceResult",
    "Turn",
    "TurnKind",
    "TurnResult",
    "TurnVerdict",
    "ValueKind",
    "Verdict",
    "__version__",
    "align_turns",
    "evaluate_dialog",
    "evaluate_dialogs",
    "evaluate_trace",
    "evaluate_traces",
    "iter_traces",
    "live_task",
    "load_dialogs",
    "load_traces",
    "make_comparator",
    "make_composer",
    "make_live_task",
    "make_scorer",
    "offline_task",
    "parse_dialog",
    "parse_unpaired",
]


__getattr__ = lazy_attributes(__name__, _HOMES, globals())


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


if TYPE_CHECKING:  # what type checkers and editors see; at run time ``__getattr__`` does this lazily
    from aem_strands.align import Alignment, AlignOptions, align_turns
    from aem_strands.compare import (
        Comparator,
        ComparisonRequest,
        EmbeddingScorer,
        ExactScorer,
        SemanticScorer,
        TableScorer,
        Thresholds,
        make_scorer,
    )
    from aem_strands.compose import make_composer
    from aem_strands.errors import AemError, ConfigError, InputError, Location
    from aem_strands.evaluate import evaluate_dialog, evaluate_dialogs, make_comparator
    from aem_strands.load import DialogSet, load_dialogs, parse_dialog
    from aem_strands.options import EvalOptions
    from aem_strands.result import DialogResult, TurnResult
    from aem_strands.strands import (
        AemReport,
        AemSessionEvaluator,
        AemTraceEvaluator,
        AemTurnEvaluator,
        CorrectnessCustomEvaluator,
        GoldRefreshingStore,
        live_task,
        make_live_task,
        offline_task,
    )
    from aem_strands.trace.evaluate import evaluate_trace, evaluate_traces
    from aem_strands.trace.load import iter_traces, load_traces
    from aem_strands.trace.types import Step, Trace, TraceResult
    from aem_strands.types import (
        ActionCall,
        Attribution,
        Comparison,
        Dialog,
        FailureReason,
        Method,
        Problem,
        Reply,
        Role,
        SubMetric,
        Turn,
        TurnKind,
        TurnVerdict,
        ValueKind,
        Verdict,
    )
