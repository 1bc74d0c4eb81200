"""Repeated trials (pass^k, flaky vs never passing) and regression sets (export-regression), end to end.

Real ``Agent``s with the package's ``ScriptedModel`` and the real ``@tool``s of ``experiments.sales_agent``:
``flaky`` calls ``filter_data(metric="revenue")`` (gold) in trials 1 and 3 and ``metric="profit"`` in
trials 2 and 4; ``broken`` calls ``metric="units"`` in every trial. The report then reads the Strands
Evals report file the experiment wrote, and the exported regression set runs under ``strands-evals run``.
"""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strands import Agent
from strands_evals import Case, Experiment
from strands_evals.cli.main import main as strands_evals

from aem_strands.cli import main as aem
from aem_strands.errors import ConfigError
from aem_strands.report.html import dialog_row
from aem_strands.report.passk import pass_hat_k
from aem_strands.strands import AemReport, AemSessionEvaluator, live_case, make_live_task
from aem_strands.strands.counterfactual import with_counterfactuals
from aem_strands.strands.trials import trial_cases
from aem_strands.testing import PolicyModel, ScriptedModel, ToolUse
from experiments.sales_agent import DATASETS, chart_gold, create_chart, export_report, filter_data
from tests.conftest import ROOT

PROMPT = "EU revenue for 2024 as a bar chart, please."
WRONG_IN_TRIAL = {"flaky": {2: "profit", 4: "profit"}, "broken": dict.fromkeys(range(1, 5), "units")}


def flaky_agent(case: Case[Any, Any]) -> Agent:
    """The agent of one trial: the right metric unless ``WRONG_IN_TRIAL`` names a wrong one for this trial."""
    metadata = case.metadata or {}
    metric = WRONG_IN_TRIAL[metadata["trial_of"]].get(metadata["trial"], "revenue")
    dataset = DATASETS[(metric, "EU", 2024)]["dataset_id"]
    script = [
        ToolUse("filter_data", {"metric": metric, "region": "EU", "year": 2024}),
        ToolUse("create_chart", {"dataset_id": dataset, "chart_type": "bar"}),
        "Your chart is ready.",
    ]
    return Agent(model=ScriptedModel(script), tools=[filter_data, create_chart, export_report], callback_handler=None)


def run_trials(path: Path, trials: int = 4) -> AemReport:
    cases = [
        live_case(chart_gold(), [PROMPT], name="flaky", metadata={"version": "v2"}),
        live_case(chart_gold(), [PROMPT], name="broken", metadata={"version": "v1"}),
    ]
    experiment = Experiment(
        cases=trial_cases(cases, trials), evaluators=[AemSessionEvaluator(scorer="exact")], report_cls=AemReport
    )
    report = experiment.run_evaluations(make_live_task(flaky_agent))
    assert isinstance(report, AemReport)
    report.to_file(str(path))
    return report


@pytest.fixture(scope="module")
def trial_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("trials") / "trials.json"
    run_trials(path)
    return path


def cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = aem(args, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_pass_hat_k_is_the_tau_bench_estimator() -> None:
    # 2 passes in 4 trials: k=1 2/4; k=2 C(2,2)/C(4,2) = 1/6; k=3 and k=4 need more passes than there are
    assert [pass_hat_k(2, 4, k) for k in (1, 2, 3, 4)] == [0.5, pytest.approx(1 / 6), 0.0, 0.0]
    assert pass_hat_k(4, 4, 4) == 1.0
    with pytest.raises(ValueError, match="1 <= k <= trials"):
        pass_hat_k(2, 4, 5)


@given(st.integers(1, 12).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_pass_hat_k_falls_with_k_from_the_pass_rate(counts: tuple[int, int]) -> None:
    passed, trials = counts
    values = [pass_hat_k(passed, trials, k) for k in range(1, trials + 1)]
    assert values[0] == pytest.approx(passed / trials)
    assert all(later <= earlier for earlier, later in itertools.pairwise(values))
    assert all(0.0 <= v <= 1.0 for v in values)


def test_trial_cases_names_and_marks_each_trial() -> None:
    case = live_case(chart_gold(), [PROMPT], name="c", metadata={"version": "v1"})
    trials = trial_cases([case], 3)
    assert [t.name for t in trials] == ["c#trial1", "c#trial2", "c#trial3"]
    assert [(t.metadata or {})["trial"] for t in trials] == [1, 2, 3]
    assert {(t.metadata or {})["trial_of"] for t in trials} == {"c"}
    assert len({t.session_id for t in trials}) == 3  # each trial its own session
    assert case.metadata == {"version": "v1", "aem": case.metadata["aem"]}  # the original is left alone
    with pytest.raises(ConfigError, match="already trial 1 of 'c'"):
        trial_cases(trials, 2)
    with pytest.raises(ConfigError, match="trials must be an integer >= 1, got 0"):
        trial_cases([case], 0)
    with pytest.raises(ConfigError, match="every case named"):
        trial_cases([Case(input="x")], 2)


def test_a_flaky_agent_gives_pass1_half_and_pass4_zero_and_is_flagged_apart_from_a_broken_one(
    trial_report: Path, tmp_path: Path
) -> None:
    report = AemReport.from_file(str(trial_report))
    # the trials ran as scripted: flaky passes in trials 1 and 3 only, broken never
    passes = {case["name"]: ok for case, ok in zip(report.cases, report.test_passes, strict=True)}
    assert passes == {"flaky#trial1": True, "flaky#trial2": False, "flaky#trial3": True, "flaky#trial4": False,
                      **{f"broken#trial{i}": False for i in range(1, 5)}}  # fmt: skip

    html = tmp_path / "report.html"
    code, out, err = cli(["report", str(trial_report), "--by", "version", "--json", "-", "--html", str(html)])
    assert code == 0, err  # v2 (flaky) passes more than v1 (broken): no regression
    summary = json.loads(out)
    trials = summary["trials"]
    assert trials["per_case"] == {"broken": {"passed": 0, "trials": 4}, "flaky": {"passed": 2, "trials": 4}}
    assert trials["flaky"] == ["flaky"]
    assert trials["never_passed"] == ["broken"]
    # over both cases: pass^1 = (2/4 + 0) / 2 = 0.25; pass^2 = (1/6 + 0) / 2 = 0.0833; pass^4 = 0
    assert [r["estimate"] for r in trials["pass_hat_k"]] == [0.25, 0.0833, 0.0, 0.0]
    groups = {g["value"]: g["trials"] for g in summary["groups"]}
    flaky_k = {r["k"]: r["estimate"] for r in groups["v2"]["pass_hat_k"]}
    assert (flaky_k[1], flaky_k[4]) == (0.5, 0.0)  # the flaky case alone: 2 passes of 4
    assert [r["estimate"] for r in groups["v1"]["pass_hat_k"]] == [0.0] * 4

    code, text, _ = cli(["report", str(trial_report), "--by", "version"])
    assert "trials: 2 cases, 8 trials: pass^1 0.250 [0.000, 0.500], pass^2 0.083" in text
    assert "trials: flaky (passed sometimes): 1 case: flaky" in text
    assert "trials: never passed: 1 case: broken" in text
    assert "trials version=v2: 1 case, 4 trials: pass^1 0.500, pass^2 0.167, pass^3 0.000, pass^4 0.000" in text

    page = html.read_text()
    assert "<h2>Repeated trials: pass^k</h2>" in page
    # one row per version: value, cases, trials, pass^1..pass^4, flaky, never passed
    assert "<td>v2</td><td>1</td><td>4</td><td>50.0%</td><td>16.7%</td><td>0.0%</td><td>0.0%</td>" in page
    assert "<td>1: flaky</td><td>0: -</td>" in page
    assert "<td>v1</td><td>1</td><td>4</td><td>0.0%</td>" in page
    assert "<title>v2 pass^4</title>" not in page
    assert "v2 pass^4" in page


@pytest.mark.usefixtures("in_repo")
def test_exported_failures_run_under_strands_evals_and_fail_again(trial_report: Path, tmp_path: Path) -> None:
    cases_file = tmp_path / "cases.json"
    code, _, err = cli(["export-regression", str(trial_report), "--out", str(cases_file), "--scorer", "exact"])
    assert code == 0, err
    assert "2 failing cases, 0 confirmed" in err
    data = json.loads(cases_file.read_text())
    assert data["evaluators"] == [{"evaluator_type": "AemSessionEvaluator", "scorer": "exact"}]
    cases = {c["name"]: c for c in data["cases"]}
    assert set(cases) == {"flaky", "broken"}  # the trials of one case become one case
    flaky = cases["flaky"]["metadata"]
    assert flaky["regression"]["trials"] == {"passed": 2, "runs": 4}
    assert flaky["regression"]["root_cause"]["turn_no"] == 1
    assert flaky["regression"]["root_cause"]["failure_reason"] == "inconsistent_parameter_values"
    assert flaky["confirmed"] is False
    assert flaky["regression"]["counterfactual"] is None
    assert "trial" not in flaky
    assert "trial_of" not in flaky
    # gold and inputs as they were, and the predicted turns that failed (trial 2: metric 'profit')
    assert flaky["aem"]["gold"] == chart_gold()
    assert flaky["aem"]["user_messages"] == [PROMPT]
    assert flaky["aem"]["predicted"][0]["args"] == {"metric": "profit", "region": "EU", "year": 2024}
    assert cases["flaky"]["input"] == PROMPT

    rerun = tmp_path / "rerun.json"
    code = strands_evals(["run", str(cases_file), "--task", "aem_strands:offline_task",
                          "--custom-evaluator", "aem_strands:AemSessionEvaluator", "-o", str(rerun)])  # fmt: skip
    assert code == 1  # the failures are reproduced
    report = json.loads(rerun.read_text())
    assert report["test_passes"] == [False, False]
    original = AemReport.from_file(str(trial_report))
    first_failure = {}
    for case, outputs, ok in zip(original.cases, original.detailed_results, original.test_passes, strict=True):
        if not ok:
            first_failure.setdefault(case["metadata"]["trial_of"], outputs[0])
    for case, outputs, score in zip(report["cases"], report["detailed_results"], report["scores"], strict=True):
        before = first_failure[case["name"]]
        assert outputs[0]["label"] == before.label == "inconsistent_parameter_values"
        assert score == pytest.approx(before.score) == pytest.approx(1 / 3)  # 1 of 3 turns passes: the reply
        assert [t["role"] for t in outputs[0]["metadata"]["turns"]] == [t["role"] for t in before.metadata["turns"]]

    # the same cases also run live: the live task ignores the recording and runs the agent again
    live = Experiment.from_file(str(cases_file), custom_evaluators=[AemSessionEvaluator])

    def first_trial(case: Case[Any, Any]) -> Agent:  # flaky_agent reads the trial: in trial 1 flaky is right
        return flaky_agent(case.model_copy(update={"metadata": {**(case.metadata or {}), "trial": 1,
                                                                "trial_of": case.name}}))  # fmt: skip

    rows = live.run_evaluations(make_live_task(first_trial))
    assert dict(zip([c["name"] for c in rows.cases], rows.test_passes, strict=True)) == {"flaky": True, "broken": False}


@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_a_fixed_counterfactual_is_shown_beside_the_root_cause_and_marks_the_case_confirmed(
    trial_report: Path, tmp_path: Path
) -> None:
    data = json.loads(trial_report.read_text())
    replay = {"step": 1, "replaced_with": "gold", "outcome": "fixed", "later_failures_before": 1,
              "later_failures_after": 0, "runs": 1}  # fmt: skip  # hand-written, as the replay would record it
    broken = next(i for i, c in enumerate(data["cases"]) if c["name"] == "broken#trial1")
    data["detailed_results"][broken][0]["metadata"]["counterfactual"] = replay
    with_replay = tmp_path / "with_replay.json"
    with_replay.write_text(json.dumps(data))

    cases_file = tmp_path / "cases.json"
    code, _, err = cli(["export-regression", str(with_replay), "--out", str(cases_file)])
    assert code == 0, err
    cases = {c["name"]: c["metadata"] for c in json.loads(cases_file.read_text())["cases"]}
    assert cases["broken"]["confirmed"] is True
    assert cases["broken"]["regression"]["counterfactual"] == "fixed"
    assert cases["flaky"]["confirmed"] is False

    record = {**data["detailed_results"][broken][0]["metadata"], "dialog_id": "broken#trial1"}
    (words,) = dialog_row(record, None)["words"]
    assert words.startswith("turn 1: ")
    assert words.endswith("; counterfactual replay: fixed")
    page = tmp_path / "page.html"
    assert cli(["report", str(with_replay), "--html", str(page)])[0] == 0
    assert page.read_text().count("counterfactual replay: fixed") == 1


def continuing_agent(case: Case[Any, Any]) -> Agent:
    """Asks for the wrong metric, charts whatever data set the last result names, then confirms: with gold's
    words for ``broken``, with ``Done.`` (not gold's reply) for ``flaky``."""
    done = "Your chart is ready." if (case.metadata or {}).get("trial_of") == "broken" else "Done."

    def policy(messages: list[dict[str, Any]]) -> str | ToolUse:
        result = next((b["toolResult"] for b in messages[-1]["content"] if "toolResult" in b), None)
        if result is None:
            return ToolUse("filter_data", {"metric": "units", "region": "EU", "year": 2024})
        seen = json.loads(result["content"][0]["text"])
        if "chart_id" in seen:
            return done
        return ToolUse("create_chart", {"dataset_id": seen["dataset_id"], "chart_type": "bar"})

    return Agent(model=PolicyModel(policy), tools=[filter_data, create_chart, export_report], callback_handler=None)


def test_counterfactual_replays_mark_fixed_cases_confirmed_in_the_regression_set_and_the_page(
    trial_report: Path, tmp_path: Path
) -> None:
    report = AemReport.from_file(str(trial_report))
    # sandboxed: the example's in-memory tools run (the corrected filter_data returns the revenue data set)
    marked = with_counterfactuals(report, continuing_agent, evaluator=AemSessionEvaluator(scorer="exact"),
                                  tools="sandboxed")  # fmt: skip
    rows = zip(marked.cases, marked.detailed_results, marked.test_passes, strict=True)
    replays = {case["name"]: out[0].metadata["counterfactual"]["outcome"] for case, out, ok in rows if not ok}
    # broken: turn 1 corrected, the chart and gold's reply follow: fixed; flaky: the reply now fails instead
    assert replays == {**{f"broken#trial{i}": "fixed" for i in range(1, 5)},
                       "flaky#trial2": "other_failure", "flaky#trial4": "other_failure"}  # fmt: skip
    replayed = tmp_path / "replayed.json"
    marked.to_file(str(replayed))

    cases_file = tmp_path / "cases.json"
    code, _, err = cli(["export-regression", str(replayed), "--out", str(cases_file), "--scorer", "exact"])
    assert code == 0, err
    assert "2 failing cases, 1 confirmed by counterfactual replay" in err
    cases = {c["name"]: c["metadata"] for c in json.loads(cases_file.read_text())["cases"]}
    assert (cases["broken"]["confirmed"], cases["broken"]["regression"]["counterfactual"]) == (True, "fixed")
    assert (cases["flaky"]["confirmed"], cases["flaky"]["regression"]["counterfactual"]) == (False, "other_failure")

    page = tmp_path / "page.html"
    assert cli(["report", str(replayed), "--html", str(page)])[0] == 0
    text = page.read_text()
    assert text.count("; counterfactual replay: fixed") == 4
    assert text.count("; counterfactual replay: other_failure") == 2


def test_a_case_with_host_gold_and_a_tool_name_trajectory_is_exported_and_fails_again(tmp_path: Path) -> None:
    case = Case(name="host", input="EU revenue chart", expected_trajectory=["filter_data", "create_chart"],
                expected_output="Your chart is ready.")  # fmt: skip

    def task(case: Case[Any, Any]) -> dict[str, Any]:  # the host's own shape: tool names and the reply
        return {"output": "Here you go.", "trajectory": ["filter_data"]}

    report = Experiment(cases=[case], evaluators=[AemSessionEvaluator(scorer="exact")]).run_evaluations(task)
    assert report.test_passes == [False]
    source = tmp_path / "host.json"
    report.to_file(str(source))
    cases_file = tmp_path / "cases.json"
    assert cli(["export-regression", str(source), "--out", str(cases_file), "--scorer", "exact"])[0] == 0
    (exported,) = json.loads(cases_file.read_text())["cases"]
    aem_entry = exported["metadata"]["aem"]
    assert [g.get("tool_id") or g.get("response") for g in aem_entry["gold"]] == [
        "filter_data", "create_chart", "Your chart is ready."
    ]  # fmt: skip
    # the recorded run: the one call, then the task's output as the final reply
    assert [p.get("tool_id") or p.get("response") for p in aem_entry["predicted"]] == ["filter_data", "Here you go."]
    assert exported["expected_trajectory"] == ["filter_data", "create_chart"]
    rerun = tmp_path / "rerun.json"
    code = strands_evals(["run", str(cases_file), "--task", "aem_strands:offline_task",
                          "--custom-evaluator", "aem_strands:AemSessionEvaluator", "-o", str(rerun)])  # fmt: skip
    assert code == 1
    again = json.loads(rerun.read_text())
    assert again["scores"] == [pytest.approx(report.scores[0])]
    assert again["detailed_results"][0][0]["label"] == report.detailed_results[0][0].label


def test_an_output_that_is_an_input_is_refused(trial_report: Path, tmp_path: Path) -> None:
    before = trial_report.read_bytes()
    code, _, err = cli(["export-regression", str(trial_report), "--out", str(trial_report)])
    assert code == 2
    assert "is also an input" in err
    assert "--out" in err
    assert trial_report.read_bytes() == before
    experiment = ROOT / "experiments" / "sales_report_live.json"
    code, _, err = cli(["trials", str(experiment), "--trials", "2", "--out", str(experiment)])
    assert code == 2
    assert "is also an input" in err


def test_score_output_is_not_a_regression_source(tmp_path: Path) -> None:
    scored = tmp_path / "scored.jsonl"
    scored.write_text(json.dumps({"dialog_id": "d", "turns": [], "test_pass": False}) + "\n")
    code, _, err = cli(["export-regression", str(scored), "--out", str(tmp_path / "cases.json")])
    assert code == 2
    assert f"file {scored}" in err
    assert "not a Strands Evals report" in err


@pytest.mark.usefixtures("in_repo")
def test_trials_command_expands_an_experiment_file_that_strands_evals_runs(tmp_path: Path) -> None:
    expanded = tmp_path / "trials.json"
    code, _, err = cli(["trials", "experiments/sales_report_live.json", "--trials", "2", "--out", str(expanded)])
    assert code == 0, err
    data = json.loads(expanded.read_text())
    assert [c["name"] for c in data["cases"]] == ["sales_report_live#trial1", "sales_report_live#trial2"]
    assert data["evaluators"] == json.loads((ROOT / "experiments" / "sales_report_live.json").read_text())["evaluators"]
    out = tmp_path / "out.json"
    code = strands_evals(["run", str(expanded), "--task", "experiments.sales_agent:cases_task",
                          "--custom-evaluator", "aem_strands:AemSessionEvaluator",
                          "--custom-evaluator", "aem_strands:AemTurnEvaluator",
                          "--custom-evaluator", "experiments.sales_agent:ScriptedHarmfulnessEvaluator",
                          "-o", str(out)])  # fmt: skip
    assert code == 1  # the scripted agent fails the same way in both trials
    code, text, _ = cli(["report", str(out), "--json", "-"])
    trials = json.loads(text)["trials"]
    assert trials["per_case"] == {"sales_report_live": {"passed": 0, "trials": 2}}
    assert trials["never_passed"] == ["sales_report_live"]
    assert trials["flaky"] == []
