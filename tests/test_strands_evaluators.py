"""The AEM evaluators: rows, labels, threshold mapping, not-applicable cases, the LLM judge, and a
save/load round trip of every evaluator with identical results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from strands_evals import Case, Experiment
from strands_evals.types import EvaluationData

from aem_strands import ConfigError, TableScorer
from aem_strands.strands import (
    AemSessionEvaluator,
    AemTurnEvaluator,
    CorrectnessCustomEvaluator,
    offline_case,
    offline_task,
)
from aem_strands.testing import ScriptedModel
from tests.conftest import action, paired, reply

# T1 reply passes; T2 wrong metric (critical, weight 2) is the root cause; T3 and T4 pass.
DIALOG = [
    paired(1, reply("Which region?"), reply("Which region?")),
    paired(2, action("reports", "FilterData", metric="revenue", region="EU"),
           action("reports", "FilterData", metric="profit", region="EU"), critical=True, weight=2.0),
    paired(3, action("reports", "CreateChart", dataset_id="ds-1"), action("reports", "CreateChart", dataset_id="ds-1")),
    paired(4, reply("The chart is ready."), reply("The chart is ready.")),
]  # fmt: skip


def data_for(case: Case[Any, Any]) -> EvaluationData[Any, Any]:
    out = offline_task(case)
    return EvaluationData(name=case.name, input=case.input, metadata=case.metadata, actual_trajectory=out["trajectory"])


CASE = offline_case(DIALOG, name="d1", metadata={"version": "v2"})


def test_session_row_carries_score_label_reason_and_breakdown() -> None:
    (row,) = AemSessionEvaluator(scorer="exact").evaluate(data_for(CASE))
    assert row.score == 0.75  # 3 of 4 turns pass
    assert row.test_pass is False
    assert row.label == "inconsistent_parameter_values"
    assert row.reason.splitlines() == [
        "root cause turn 2: inconsistent_parameter_values (args.metric 'profit' vs 'revenue'); 0 cascading",
        "turn 2: args.metric 'profit' vs 'revenue' normalised 0.00 → inconsistent_parameter_values (root cause)",
    ]
    assert row.metadata is not None
    assert row.metadata["root_cause_turn"] == 2
    assert row.metadata["mode"] == "offline"
    assert len(row.metadata["turns"]) == 4


@pytest.mark.parametrize(
    ("composer", "cap", "expected"),
    [("mean", None, 0.75), ("weighted", None, 0.6), ("gated", 0.3, 0.3)],
    # weighted: passed weights 1+1+1 of 1+2+1+1 = 3/5; gated: critical turn 2 failed, min(0.75, 0.3)
)
def test_composer_is_selected_by_name(composer: str, cap: float | None, expected: float) -> None:
    (row,) = AemSessionEvaluator(scorer="exact", composer=composer, cap=cap).evaluate(data_for(CASE))
    assert row.score == pytest.approx(expected)


def test_turn_rows_label_each_turn_and_aggregate_to_the_session_score() -> None:
    evaluator = AemTurnEvaluator(scorer="exact", composer="weighted")
    rows = evaluator.evaluate(data_for(CASE))
    assert [r.label for r in rows] == ["pass", "inconsistent_parameter_values", "pass", "pass"]
    assert [r.score for r in rows] == [1.0, 0.0, 1.0, 1.0]
    assert (
        rows[1].reason
        == "turn 2: args.metric 'profit' vs 'revenue' normalised 0.00 → inconsistent_parameter_values (root cause)"
    )
    # the aggregator gives the composed (weighted) score, not the plain row mean 0.75
    assert evaluator.aggregator(rows) == (pytest.approx(0.6), False, rows[0].metadata["dialog"]["reason"])  # type: ignore[index]


def test_correctness_custom_evaluator_threshold_is_the_pass_mark_on_the_score() -> None:
    evaluator = CorrectnessCustomEvaluator(scorer="exact")
    assert (evaluator.threshold, evaluator.get_name()) == (0.5, "aem_correctness")  # not the CLI short name
    (row,) = evaluator.evaluate(data_for(CASE))
    assert (row.score, row.test_pass) == (0.75, True)  # 0.75 >= 0.5 although turn 2 fails
    (row,) = CorrectnessCustomEvaluator(threshold=0.8, scorer="exact").evaluate(data_for(CASE))
    assert (row.score, row.test_pass) == (0.75, False)


# A multi-word value that no normalisation settles: the semantic stage decides it.
GOLD_METRIC, PREDICTED_METRIC = "quarterly revenue by region", "regional sales per quarter"
PHRASE_CASE = offline_case(
    [
        paired(
            1,
            action("reports", "FilterData", metric=GOLD_METRIC),
            action("reports", "FilterData", metric=PREDICTED_METRIC),
        )
    ],
    name="phrase",
)


def test_injected_scorer_decides_semantic_comparisons() -> None:
    # the table's 0.9 >= 0.75 passes the metric: every turn passes
    evaluator = AemSessionEvaluator(semantic_scorer=TableScorer({(GOLD_METRIC, PREDICTED_METRIC): 0.9}))
    (row,) = evaluator.evaluate(data_for(PHRASE_CASE))
    assert (row.score, row.test_pass, row.label) == (1.0, True, "pass")
    # a single-word difference ('profit' vs 'revenue') is never passed by similarity alone, even at 0.9
    (row,) = AemSessionEvaluator(semantic_scorer=TableScorer({("revenue", "profit"): 0.9})).evaluate(data_for(CASE))
    assert row.metadata["turns"][1]["problems"][0]["method"] == "test"  # type: ignore[index]  # the injected scorer
    assert row.score == 0.75


def test_llm_judge_scorer_takes_a_model_like_the_host_judges() -> None:
    verdict = {"index": 0, "equivalent": False, "reason": "different metric"}
    judge = ScriptedModel(structured={"EquivalenceVerdicts": {"verdicts": [verdict]}})
    (row,) = AemSessionEvaluator(scorer="judge", model=judge).evaluate(data_for(CASE))
    assert row.score == 0.75  # only 'profit' vs 'revenue' reaches the judge, which says not equivalent
    problem = row.metadata["turns"][1]["problems"][0]  # type: ignore[index]
    assert (problem["field"], problem["method"], problem["score"]) == ("args.metric", "judge", 0.0)


def test_case_without_aem_gold_is_not_applicable_with_a_reason() -> None:
    data = EvaluationData(name="bare", input="hi", actual_output="hello")
    (row,) = AemSessionEvaluator(scorer="exact").evaluate(data)
    assert (row.label, row.test_pass, row.score) == ("not_applicable", False, 0.0)
    assert "metadata.aem" in (row.reason or "")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"scorer": "fuzzy"}, "scorer"), ({"composer": "max"}, "composer"), ({"allow_extra": "some"}, "allow_extra"),
     ({"threshold_args": 1.5}, "argument"), ({"allow_extra": "read_only"}, "read_only_tools")],
)  # fmt: skip
def test_invalid_options_fail_at_construction(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        AemSessionEvaluator(**kwargs)
    with pytest.raises(ConfigError, match="threshold"):
        CorrectnessCustomEvaluator(threshold=2.0)


def _summary(report: Any) -> list[tuple[Any, ...]]:
    return [
        (case["evaluator"], score, passed, reason, [(o.score, o.label, o.metadata) for o in outputs])
        for case, score, passed, reason, outputs in zip(
            report.cases, report.scores, report.test_passes, report.reasons, report.detailed_results, strict=True
        )
    ]


def test_every_evaluator_survives_to_file_from_file_with_identical_results(tmp_path: Path) -> None:
    evaluators = [
        AemSessionEvaluator(scorer="exact", threshold_args=0.9, threshold_response=0.6, composer="gated", cap=0.3,
                            allow_extra="read_only", read_only_tools=["lookup"], name="aem_session"),
        AemTurnEvaluator(scorer="exact", composer="weighted", name="aem_turns"),
        CorrectnessCustomEvaluator(threshold=0.7, scorer="exact"),
    ]  # fmt: skip
    experiment = Experiment(cases=[CASE], evaluators=evaluators)
    before = experiment.run_evaluations(offline_task)
    path = tmp_path / "experiment.json"
    experiment.to_file(str(path))
    loaded = Experiment.from_file(
        str(path), custom_evaluators=[AemSessionEvaluator, AemTurnEvaluator, CorrectnessCustomEvaluator]
    )
    assert [e.to_dict() for e in loaded.evaluators] == [e.to_dict() for e in evaluators]
    reloaded = loaded.evaluators[0]
    assert (reloaded.composer, reloaded.cap, reloaded.read_only_tools) == ("gated", 0.3, ["lookup"])
    after = loaded.run_evaluations(offline_task)
    assert _summary(after) == _summary(before)
    assert before.scores == [pytest.approx(0.3), pytest.approx(0.6), 0.75]  # gated, weighted, mean
    assert before.test_passes == [False, False, True]


def test_undecidable_comparison_gives_a_not_applicable_turn_row() -> None:
    # The judge cannot tell for 'profit' vs 'revenue': turn 2 cannot be judged, so it is not_applicable
    # left out of the score (3 judged turns, all pass), and the dialog is inconclusive.
    verdict = {"index": 0, "equivalent": None, "reason": "ambiguous"}
    judge = ScriptedModel(structured={"EquivalenceVerdicts": {"verdicts": [verdict]}})
    evaluator = AemTurnEvaluator(scorer="judge", model=judge)
    rows = evaluator.evaluate(data_for(CASE))
    assert [r.label for r in rows] == ["pass", "not_applicable", "pass", "pass"]
    assert (
        rows[1].reason
        == "turn 2: not judged (args.metric: judge@v1 could not score the pair: judge could not tell: ambiguous)"
    )
    # Fail closed: a turn that could not be judged keeps the dialog from passing (score of the judged turns: 3/3).
    expected = "3/3 turns pass; inconclusive: 1 turn could not be judged (2)"
    assert evaluator.aggregator(rows) == (1.0, False, expected)


def test_thresholds_file_and_judge_escalation_reach_the_comparison(tmp_path: Path) -> None:
    # The metric pair scores 0.73 in this table: inside the default uncertain band [0.49, 0.75), so without
    # escalation it is decided conservatively: not equivalent.
    table = TableScorer({(GOLD_METRIC, PREDICTED_METRIC): 0.73})
    plain = AemSessionEvaluator(scorer="exact", semantic_scorer=table)
    assert plain.evaluate(data_for(PHRASE_CASE))[0].score == 0.0  # its one turn fails
    # A config with argument threshold 0.70 makes 0.73 equivalent: the turn passes.
    config = tmp_path / "thresholds.json"
    config.write_text(json.dumps({"thresholds": {"argument": 0.70, "argument_floor": 0.5}}), encoding="utf-8")
    lenient = AemSessionEvaluator(scorer="exact", semantic_scorer=table, thresholds_file=str(config))
    assert lenient.evaluate(data_for(PHRASE_CASE))[0].score == 1.0
    # With escalation the judge (scripted) decides the band pair: here, equivalent.
    judge = ScriptedModel(
        structured={"EquivalenceVerdicts": {"verdicts": [{"index": 0, "equivalent": True, "reason": "ok"}]}}
    )
    escalated = AemSessionEvaluator(scorer="exact", semantic_scorer=table, escalate="judge", model=judge)
    (row,) = escalated.evaluate(data_for(PHRASE_CASE))
    assert row.score == 1.0
    assert row.metadata["judge"] == {"judge": "judge@v1", "prompt_version": "v1", "model_id": "scripted"}  # type: ignore[index]
    assert escalated.to_dict()["escalate"] == "judge"
    with pytest.raises(ConfigError, match="escalate must be None or one of judge"):
        AemSessionEvaluator(escalate="human")
