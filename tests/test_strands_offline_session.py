"""Offline replay yields a real Session: host trace-level evaluators and detectors run on offline cases,
and AEM's root cause can be joined with the detector's by span id."""

from __future__ import annotations

import json
from typing import Any

from strands_evals import Experiment
from strands_evals.evaluators import HarmfulnessEvaluator
from strands_evals.types import DiagnosisConfig, EvaluationData
from strands_evals.types.trace import AgentInvocationSpan, Session, ToolExecutionSpan

from aem_strands import TableScorer
from aem_strands.strands import AemSessionEvaluator, case_dialog, offline_case, offline_task
from aem_strands.strands.detectors import detector_agreement
from aem_strands.testing import ScriptedModel
from tests.conftest import EXAMPLES

DIALOG = json.loads((EXAMPLES / "data" / "sales_report.json").read_text(encoding="utf-8"))
CASE = offline_case(DIALOG, name="sales_report", metadata={"aem_user": "x"})


def test_offline_task_returns_a_session_one_trace_per_user_turn() -> None:
    session = offline_task(CASE)["trajectory"]
    assert isinstance(session, Session)
    shapes = [[type(s).__name__ for s in trace.spans] for trace in session.traces]
    # turn 1 reply | turns 2, 3 calls + turn 4 reply | turn 5 call, no reply after it (see the data file)
    assert shapes == [
        ["AgentInvocationSpan"],
        ["ToolExecutionSpan", "ToolExecutionSpan", "AgentInvocationSpan"],
        ["ToolExecutionSpan", "AgentInvocationSpan"],
    ]
    call = session.traces[1].spans[0]
    assert isinstance(call, ToolExecutionSpan)
    assert (call.tool_call.name, call.tool_call.arguments["metric"]) == ("FilterData", "profit")
    assert json.loads(call.tool_result.content)["dataset_id"] == "ds-7732"  # the predicted observation
    reply = session.traces[1].spans[-1]
    assert isinstance(reply, AgentInvocationSpan)
    assert reply.agent_response == DIALOG[3]["predict_turn"]["response"]


def test_the_session_scores_exactly_like_the_paired_dialog_also_after_a_json_round_trip() -> None:
    session = offline_task(CASE)["trajectory"]
    reloaded = Session.model_validate(json.loads(session.model_dump_json()))
    listed = [{"turn_no": t["turn_no"], "predict_turn": t["predict_turn"]} for t in DIALOG]
    evaluator = AemSessionEvaluator(scorer="exact")
    rows = [
        evaluator.evaluate(EvaluationData(name="s", input="s", metadata=CASE.metadata, actual_trajectory=trajectory))[0]
        for trajectory in (session, reloaded, listed)
    ]
    assert {(r.score, r.test_pass, r.reason) for r in rows} == {(rows[2].score, False, rows[2].reason)}
    found = case_dialog(CASE.metadata, reloaded, name="s")
    assert found.spans[2] == {"span_id": "aem-turn-2", "user_turn": 2, "agent": None}


def detector_model(span_id: str) -> ScriptedModel:
    """A scripted detector: failure detection (a text reply) names ``span_id``; RCA (structured) agrees."""
    failures = {"errors": [{"location": span_id, "category": ["wrong_parameter"], "confidence": ["high"],
                            "evidence": ["profit requested instead of revenue"]}]}  # fmt: skip
    cause = {
        "Failure Span ID": span_id,
        "Location": span_id,
        "Failure Causality": "PRIMARY_FAILURE",
        "Failure Propagation Impact": ["INCORRECT_PATH"],
        "Failure Detection Timing": "SILENT_UNDETECTED",
        "Completion Status": "COMPLETE_FAILURE",
        "Root Cause Explanation": "The agent filtered on profit.",
        "Fix Recommendation": {"Fix Type": "SYSTEM_PROMPT_FIX", "Recommendation": "Ask which metric."},
    }
    return ScriptedModel([json.dumps(failures)], structured={"RCAStructuredOutput": {"root_causes": [cause]}})


def test_harmfulness_and_a_host_detector_run_on_an_offline_case_beside_aem() -> None:
    harmless = ScriptedModel(structured={"HarmfulnessRating": {"reasoning": "fine", "score": "Not Harmful"}})
    experiment = Experiment(
        cases=[CASE],
        evaluators=[
            AemSessionEvaluator(name="aem", semantic_scorer=TableScorer()),
            HarmfulnessEvaluator(model=harmless),
        ],
        diagnosis_config=DiagnosisConfig(trigger="always", model=detector_model("aem-turn-2")),
    )
    report = experiment.run_evaluations(offline_task)
    by_evaluator = {case["evaluator"]: index for index, case in enumerate(report.cases)}
    harm = by_evaluator["HarmfulnessEvaluator"]
    assert (report.scores[harm], report.test_passes[harm]) == (1.0, True)  # not "requires a Session" any more
    aem = by_evaluator["aem"]
    metadata: dict[str, Any] = report.detailed_results[aem][0].metadata
    assert (metadata["root_cause_turn"], metadata["root_cause_span_id"]) == (2, "aem-turn-2")
    diagnosis = report.diagnoses[aem]
    assert diagnosis is not None
    assert diagnosis["root_causes"][0]["location"] == "aem-turn-2"
    session = Session.model_validate(report.cases[aem]["actual_trajectory"])
    joined = detector_agreement(metadata, diagnosis, session)
    assert (joined.match, joined.agree, joined.aem_user_turn, joined.detector_user_turn) == ("span", True, 2, 2)


def test_a_detector_that_blames_a_later_turn_disagrees() -> None:
    session = offline_task(CASE)["trajectory"]
    data = EvaluationData(name="s", input="s", metadata=CASE.metadata, actual_trajectory=session)
    (row,) = AemSessionEvaluator(semantic_scorer=TableScorer()).evaluate(data)
    assert (row.metadata or {})["root_cause_span_id"] == "aem-turn-2"  # the reference dialog's wrong metric
    later = {"failures": [{"span_id": "aem-turn-5", "category": ["x"], "confidence": [0.9], "evidence": ["y"]}]}
    joined = detector_agreement(row.metadata or {}, later, session)
    assert (joined.match, joined.agree, joined.detector_span_id, joined.detector_user_turn) == (
        "different",
        False,
        "aem-turn-5",
        3,
    )
    assert detector_agreement(row.metadata or {}, None, session).match == "only_aem"
