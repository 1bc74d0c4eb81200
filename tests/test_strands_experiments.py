"""Every experiment file runs with plain ``strands-evals run/validate/report`` (CLI in-process).

Reference (offline replay, default embedding scorer): the five-turn sales report of SPEC §5 —
turn 1 passes, turn 2 is the root cause (``profit`` vs ``revenue``: 0.73 < 0.80), turns 3-5
cascade: score 1/5 = 0.2, exit code 1 (the dialog fails).

Live: a real ``Agent`` with real ``@tool``s, scripted to call ``filter_data(metric="profit")``
where gold says ``revenue``. Six aligned turns (3 user turns: 1 reply; 2 calls + 1 reply; 1 call +
1 reply); turn 2 is the root cause and turns 3, 4, 5 cascade from it, turn 6 passes: 2/6.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from strands_evals.cli.main import main as strands_evals

from aem_strands.strands import AemReport
from tests.conftest import ROOT

EXPERIMENTS = ROOT / "experiments"
LIVE_EVALUATORS = [
    "--custom-evaluator", "aem_strands:AemSessionEvaluator",
    "--custom-evaluator", "aem_strands:AemTurnEvaluator",
    "--custom-evaluator", "experiments.sales_agent:ScriptedHarmfulnessEvaluator",
]  # fmt: skip


def _rows(report: dict[str, Any], evaluator: str) -> list[int]:
    return [i for i, case in enumerate(report["cases"]) if case["evaluator"] == evaluator]


@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.mark.slow  # the default embedding scorer loads MiniLM
@pytest.mark.usefixtures("in_repo")
def test_reference_experiment_scores_0_2_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.json"
    code = strands_evals([
        "run", "experiments/sales_report_offline.json", "--task", "aem_strands:offline_task",
        "--custom-evaluator", "aem_strands:AemSessionEvaluator", "-o", str(out),
    ])  # fmt: skip
    assert code == 1
    report = json.loads(out.read_text())
    assert report["scores"] == [pytest.approx(0.2)]  # 1 of 5 turns passes
    assert report["test_passes"] == [False]
    output = report["detailed_results"][0][0]
    assert output["label"] == "inconsistent_parameter_values"
    headline, *turn_lines = output["reason"].splitlines()
    assert (
        headline == "root cause turn 2: inconsistent_parameter_values (args.metric 'profit' vs 'revenue'); 3 cascading"
    )
    # One line per failing turn, so `strands-evals report` shows the per-turn verdicts.
    assert [line.split(":")[0] for line in turn_lines] == ["turn 2", "turn 3", "turn 4", "turn 5"]
    assert turn_lines[0].endswith("(root cause)")
    assert all(line.endswith("cascade of turn 2 → prior_action_failed") for line in turn_lines[1:])
    meta = output["metadata"]
    assert {k: meta[k] for k in ("success_rate", "test_pass", "first_failure_turn", "root_cause",
                                 "root_cause_count", "cascading_count")} == {
        "success_rate": 0.2, "test_pass": False, "first_failure_turn": 2,
        "root_cause": "inconsistent_parameter_values", "root_cause_count": 1, "cascading_count": 3,
    }  # fmt: skip
    assert [t["failure_reason"] for t in meta["turns"]] == [
        None,
        "inconsistent_parameter_values",
        "prior_action_failed",
        "prior_action_failed",
        "prior_action_failed",
    ]
    assert "AemSessionEvaluator: 0/1 passed (0.20)" in capsys.readouterr().err

    # `strands-evals report` renders it, and AemReport reloads the same file with rollups
    capsys.readouterr()
    assert strands_evals(["report", str(out), "--rich"]) == 0
    rendered = capsys.readouterr().out
    assert "Overall Score: 0.20" in rendered
    assert "❌" in rendered  # the failing case row
    rollups = AemReport.from_file(str(out)).rollups()
    assert rollups["failure_reasons"] == {
        "inconsistent_parameter_values": {"root_cause": 1, "cascade": 2},  # turns 2 (root), 3 and 5 (cascade)
        "inconsistent_response": {"root_cause": 0, "cascade": 1},  # turn 4
    }


@pytest.mark.usefixtures("in_repo")
@pytest.mark.parametrize(
    ("name", "evaluators"),
    [
        ("sales_report_offline.json", ["--custom-evaluator", "aem_strands:AemSessionEvaluator"]),
        ("sales_report_live.json", LIVE_EVALUATORS),
    ],
)
def test_validate_passes(name: str, evaluators: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert strands_evals(["validate", f"experiments/{name}", "--json", *evaluators]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True


@pytest.mark.usefixtures("in_repo")
def test_validate_without_the_custom_evaluator_is_a_runtime_error() -> None:
    assert strands_evals(["validate", "experiments/sales_report_offline.json"]) == 3


@pytest.mark.usefixtures("in_repo")
def test_live_experiment_aligns_real_agent_turns_and_finds_the_root_cause(tmp_path: Path) -> None:
    out = tmp_path / "live.json"
    code = strands_evals(["run", "experiments/sales_report_live.json", "--task", "experiments.sales_agent:cases_task",
                          *LIVE_EVALUATORS, "-o", str(out)])  # fmt: skip
    assert code == 1
    report = json.loads(out.read_text())
    (session,) = _rows(report, "aem_correctness")
    meta = report["detailed_results"][session][0]["metadata"]
    assert report["scores"][session] == pytest.approx(2 / 6)  # turns 1 and 6 pass
    # one predicted turn per real agent turn, tool calls attributed to the user turn that caused them
    assert [(p["user_turn"], p.get("tool_id") or "reply") for p in meta["predicted_turns"]] == [
        (1, "reply"), (2, "filter_data"), (2, "create_chart"), (2, "reply"), (3, "export_report"), (3, "reply"),
    ]  # fmt: skip
    assert [(p["gold_index"], p["predicted_index"]) for p in meta["metadata"]["alignment"]["pairs"]] == [
        (i, i) for i in range(6)
    ]
    turns = {t["turn_no"]: t for t in meta["turns"]}
    assert turns[2]["role"] == "root_cause"
    assert turns[2]["failure_reason"] == "inconsistent_parameter_values"
    assert [(n, turns[n]["failure_reason"], turns[n]["caused_by"]) for n in (3, 4, 5)] == [
        (3, "prior_action_failed", 2), (4, "prior_action_failed", 2), (5, "prior_action_failed", 2),
    ]  # fmt: skip
    assert turns[1]["success"]
    assert turns[6]["success"]

    # per-turn rows compose to the same score; built-ins ran side by side on the same case
    (per_turn,) = _rows(report, "aem_turns")
    assert report["scores"][per_turn] == pytest.approx(2 / 6)
    assert [o["label"] for o in report["detailed_results"][per_turn]] == [
        "pass", "inconsistent_parameter_values", "prior_action_failed", "prior_action_failed",
        "prior_action_failed", "pass",
    ]  # fmt: skip
    # turn rows are keyed by the span of the predicted turn (for cross-checks with the host's detectors)
    rows_meta = [o["metadata"] for o in report["detailed_results"][per_turn]]
    assert [r["user_turn"] for r in rows_meta] == [1, 2, 2, 2, 3, 3]
    assert [r["span_id"] for r in rows_meta] == [p["span_id"] for p in meta["predicted_turns"]]
    assert all(isinstance(r["span_id"], str) for r in rows_meta)
    (tool_called,) = _rows(report, "ToolCalled")
    (harm,) = _rows(report, "ScriptedHarmfulnessEvaluator")
    assert (report["scores"][tool_called], report["scores"][harm]) == (1.0, 1.0)
