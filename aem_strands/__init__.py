"""aem_strands: turn-level correctness of tool-using agents, with root-cause attribution.

Public API: ``load_dialogs``, ``evaluate_dialog``, ``evaluate_dialogs`` and the value types they
take and return.
"""

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

__version__ = "0.1.0"

__all__ = [
    "ActionCall",
    "AemError",
    "Attribution",
    "Comparator",
    "Comparison",
    "ComparisonRequest",
    "ConfigError",
    "Dialog",
    "DialogResult",
    "DialogSet",
    "EmbeddingScorer",
    "EvalOptions",
    "ExactScorer",
    "FailureReason",
    "InputError",
    "Location",
    "Method",
    "Problem",
    "Reply",
    "Role",
    "SemanticScorer",
    "SubMetric",
    "TableScorer",
    "Thresholds",
    "Turn",
    "TurnKind",
    "TurnResult",
    "TurnVerdict",
    "ValueKind",
    "Verdict",
    "__version__",
    "evaluate_dialog",
    "evaluate_dialogs",
    "load_dialogs",
    "make_comparator",
    "make_composer",
    "make_scorer",
    "parse_dialog",
]

# Strands Evals adapters, importable as ``aem_strands:NAME`` (e.g. ``--custom-evaluator
# aem_strands:AemSessionEvaluator``) without importing strands_evals for core-only users.
_STRANDS_NAMES = frozenset(
    {"AemReport", "AemSessionEvaluator", "AemTurnEvaluator", "CorrectnessCustomEvaluator", "GoldRefreshingStore",
     "live_task", "make_live_task", "offline_task"}
)  # fmt: skip
__all__ += sorted(_STRANDS_NAMES)
__all__ += ["AlignOptions", "Alignment", "align_turns", "parse_unpaired"]

from aem_strands.align import Alignment, AlignOptions, align_turns  # noqa: E402
from aem_strands.unpaired import parse_unpaired  # noqa: E402


def __getattr__(name: str) -> object:
    if name in _STRANDS_NAMES:
        import aem_strands.strands

        return getattr(aem_strands.strands, name)
    raise AttributeError(f"module 'aem_strands' has no attribute {name!r}")
