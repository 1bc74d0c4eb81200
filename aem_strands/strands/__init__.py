"""AEM as a Strands Evals plugin: evaluators, provided tasks, the Session adapter, caching and reports.

Importing this package imports ``strands_evals`` (which sets the root logger to INFO); the core
``aem_strands`` package does not, until one of these names is used.
"""

from aem_strands.strands.cases import AEM_KEY, case_dialog, live_case, offline_case
from aem_strands.strands.counterfactual import Counterfactual, Outcome, counterfactual_replay, with_counterfactuals
from aem_strands.strands.detectors import DetectorAgreement, detector_agreement
from aem_strands.strands.evaluators import (
    AemSessionEvaluator,
    AemTurnEvaluator,
    CorrectnessCustomEvaluator,
    compose_turn_rows,
)
from aem_strands.strands.report import AemReport
from aem_strands.strands.session import PredictedTurn, offline_session, session_to_turns
from aem_strands.strands.store import GoldRefreshingStore
from aem_strands.strands.tasks import live_task, make_live_task, offline_task, run_live
from aem_strands.strands.trace_adapter import session_to_trace, traces_from_spans
from aem_strands.strands.trace_evaluator import AemTraceEvaluator
from aem_strands.strands.trials import trial_cases

__all__ = [
    "AEM_KEY",
    "AemReport",
    "AemSessionEvaluator",
    "AemTraceEvaluator",
    "AemTurnEvaluator",
    "CorrectnessCustomEvaluator",
    "Counterfactual",
    "DetectorAgreement",
    "GoldRefreshingStore",
    "Outcome",
    "PredictedTurn",
    "case_dialog",
    "compose_turn_rows",
    "counterfactual_replay",
    "detector_agreement",
    "live_case",
    "live_task",
    "make_live_task",
    "offline_case",
    "offline_session",
    "offline_task",
    "run_live",
    "session_to_trace",
    "session_to_turns",
    "traces_from_spans",
    "trial_cases",
    "with_counterfactuals",
]
