"""Fail closed in Strands Evals: a judge outage never passes a case, and every AEM evaluator agrees.

The judge is a real ``BedrockModel`` whose client answers every call with an authentication error
(botocore's ``Stubber``: no network, no credentials), driven through the real ``Agent`` path.
"""

from __future__ import annotations

from typing import Any

import pytest
from strands_evals import Experiment
from strands_evals.types import EvaluationData

from aem_strands import TableScorer
from aem_strands.strands import (
    AemSessionEvaluator,
    AemTurnEvaluator,
    CorrectnessCustomEvaluator,
    offline_case,
    offline_task,
)
from tests.conftest import action, paired, reply

boto3 = pytest.importorskip("boto3")

GOLD_METRIC, PREDICTED_METRIC = "quarterly revenue by region", "regional sales per quarter"
WRONG_METRIC = paired(
    2, action("reports", "FilterData", metric=GOLD_METRIC), action("reports", "FilterData", metric=PREDICTED_METRIC)
)
IN_THE_BAND = TableScorer({(GOLD_METRIC, PREDICTED_METRIC): 0.6})  # inside the uncertain band: escalated
SAME_REPLY = paired(1, reply("Which region?"), reply("Which region?"))


def unreachable_judge() -> Any:
    """A Bedrock judge whose every call is refused (as without valid credentials)."""
    from botocore.stub import Stubber
    from strands.models.bedrock import BedrockModel

    session = boto3.Session(aws_access_key_id="x", aws_secret_access_key="x", region_name="us-east-1")
    model = BedrockModel(model_id="global.anthropic.claude-sonnet-4-6", boto_session=session, streaming=False)
    stub = Stubber(model.client)
    for _ in range(8):
        stub.add_client_error("converse", "UnrecognizedClientException", "The security token is invalid.", 403)
    stub.activate()
    return model


def data_for(turns: list[dict[str, Any]], name: str) -> EvaluationData[Any, Any]:
    case = offline_case(turns, name=name)
    out = offline_task(case)
    return EvaluationData(name=name, input=name, metadata=case.metadata, actual_trajectory=out["trajectory"])


@pytest.mark.parametrize("how", [{"scorer": "judge"}, {"semantic_scorer": IN_THE_BAND, "escalate": "judge"}])
def test_a_judge_outage_makes_the_case_inconclusive_never_a_pass(how: dict[str, Any]) -> None:
    # Turn 1 is settled without the judge (identical replies); turn 2 needs the judge (as the scorer, or
    # to decide its uncertain band), and the judge is unreachable.
    data = data_for([SAME_REPLY, WRONG_METRIC], "outage")
    (session,) = AemSessionEvaluator(model=unreachable_judge(), **how).evaluate(data)
    assert (session.score, session.test_pass, session.label) == (1.0, False, "inconclusive")  # 1/1 judged turns
    assert "inconclusive: 1 turn could not be judged (2)" in (session.reason or "")
    note = session.metadata["turns"][1]["note"]  # type: ignore[index]
    assert "judge@v1 could not" in note
    assert "judge call failed: ClientError" in note
    assert "UnrecognizedClientException" in note
    (correctness,) = CorrectnessCustomEvaluator(threshold=0.5, model=unreachable_judge(), **how).evaluate(data)
    assert (correctness.score, correctness.test_pass) == (1.0, False)  # 1.0 >= 0.5, but inconclusive
    turns = AemTurnEvaluator(model=unreachable_judge(), **how)
    rows = turns.evaluate(data)
    assert [(r.label, r.test_pass) for r in rows] == [("pass", True), ("not_applicable", False)]
    assert turns.aggregator(rows)[:2] == (1.0, False)  # the same verdict as the session row


def test_nothing_judged_fails_in_every_evaluator() -> None:
    data = data_for([WRONG_METRIC], "nothing_judged")
    for evaluator in (
        AemSessionEvaluator(scorer="judge", model=unreachable_judge()),
        CorrectnessCustomEvaluator(threshold=0.0, scorer="judge", model=unreachable_judge()),
    ):
        (row,) = evaluator.evaluate(data)
        assert (row.score, row.test_pass, row.label) == (0.0, False, "not_applicable")
    turns = AemTurnEvaluator(scorer="judge", model=unreachable_judge())
    rows = turns.evaluate(data)
    assert [(r.label, r.test_pass) for r in rows] == [("not_applicable", False)]
    assert turns.aggregator(rows)[:2] == (0.0, False)


def test_in_an_experiment_the_host_counts_an_inconclusive_case_as_failed() -> None:
    cases = [offline_case([SAME_REPLY, WRONG_METRIC], name="outage"), offline_case([SAME_REPLY], name="fine")]
    evaluators = [
        AemSessionEvaluator(name="session", scorer="judge", model=unreachable_judge()),
        AemTurnEvaluator(name="turns", scorer="judge", model=unreachable_judge()),
    ]
    report = Experiment(cases=cases, evaluators=evaluators).run_evaluations(offline_task)
    verdicts = {(c["evaluator"], c["name"]): p for c, p in zip(report.cases, report.test_passes, strict=True)}
    assert verdicts == {
        ("session", "outage"): False,
        ("session", "fine"): True,
        ("turns", "outage"): False,
        ("turns", "fine"): True,
    }


def test_judge_calls_appear_as_agent_spans_with_token_usage_in_telemetry() -> None:
    from aem_strands.strands.tasks import telemetry
    from aem_strands.testing import ScriptedModel

    exporter = telemetry().in_memory_exporter  # set up before the evaluator's judge runs
    exporter.clear()
    verdict = {"index": 0, "equivalent": False, "reason": "different metric"}
    judge = ScriptedModel(structured={"EquivalenceVerdicts": {"verdicts": [verdict]}})
    evaluator = AemSessionEvaluator(scorer="judge", model=judge, judge_prompt_version="v0", judge_timeout=30)
    (row,) = evaluator.evaluate(data_for([SAME_REPLY, WRONG_METRIC], "traced"))
    assert row.metadata["judge"] == {"judge": "judge@v0", "prompt_version": "v0", "model_id": "scripted"}  # type: ignore[index]
    agent_spans = [
        s for s in exporter.get_finished_spans() if (s.attributes or {}).get("gen_ai.agent.name") == "aem_judge"
    ]
    assert agent_spans  # the judge ran as a Strands Agent: traced like the host's own judges
    assert all(
        "gen_ai.usage.input_tokens" in (s.attributes or {}) for s in agent_spans if s.name.startswith("invoke_agent")
    )
    saved = {k: v for k, v in evaluator.to_dict().items() if k not in ("evaluator_type", "model_id")}
    reloaded = type(evaluator)(**saved)
    assert (reloaded.judge_prompt_version, reloaded.judge_timeout) == ("v0", 30)  # saved and reloaded by the host
