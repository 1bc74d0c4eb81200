"""AEM gold is checked before a run (the host's `validate` cannot look at it), and stale cached gold is found."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from strands_evals import Experiment
from strands_evals.cli.main import main as strands_evals

from aem_strands.strands import AemSessionEvaluator, GoldRefreshingStore, offline_case, offline_task
from aem_strands.strands.validate import check_experiment, main
from tests.conftest import ROOT, action, paired, reply

REVENUE = action("reports", "FilterData", metric="revenue")
GOOD = [paired(1, reply("Which region?"), reply("Which region?")), paired(2, REVENUE, REVENUE)]


def write(tmp_path: Path, cases: list[Any]) -> Path:
    path = tmp_path / "experiment.json"
    Experiment(cases=cases, evaluators=[AemSessionEvaluator(scorer="exact")]).to_file(str(path))
    return path


def test_malformed_gold_that_the_host_calls_valid_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken_live = offline_case(GOOD, name="fine")
    broken_live.metadata = {"aem": {"gold": [{"turn": "Tool", "action": "FilterData"}]}}  # no tool_id
    no_gold = offline_case(GOOD, name="none")
    no_gold.metadata = {}
    path = write(tmp_path, [offline_case(GOOD, name="good"), broken_live, no_gold])
    assert strands_evals(["validate", str(path), "--custom-evaluator", "aem_strands:AemSessionEvaluator"]) == 0
    capsys.readouterr()
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert "invalid gold: case 'fine': dialog 'fine', turn 1, field 'gold.tool_id'" in err
    assert "invalid gold: case 'none': no gold" in err
    assert "2 cases with invalid gold: 3 cases" in err


@pytest.mark.parametrize("name", ["sales_report_offline.json", "sales_report_live.json"])
def test_the_shipped_experiments_have_valid_gold(name: str) -> None:
    assert check_experiment(ROOT / "experiments" / name).to_dict()["problems"] == []


def test_cached_results_with_stale_gold_are_found_and_refreshed_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store_dir = tmp_path / "cache"
    path = write(tmp_path, [offline_case(GOOD, name="sales")])
    assert strands_evals(["run", str(path), "--task", "aem_strands:offline_task", "--custom-evaluator",
                          "aem_strands:AemSessionEvaluator", "--data-store", str(store_dir)]) == 0  # fmt: skip
    assert check_experiment(path, store_dir).stale == []
    edited = json.loads(json.dumps(GOOD))
    edited[1]["gold_turn"]["args"]["metric"] = "profit"  # the gold is corrected after the run
    path = write(tmp_path, [offline_case(edited, name="sales")])
    (stale,) = check_experiment(path, store_dir).stale
    assert (stale["case"], stale["fields"]) == ("sales", ["metadata"])
    assert main([str(path), "--data-store", str(store_dir)]) == 0  # a warning, not invalid gold
    cases = [offline_case(edited, name="sales")]
    store = GoldRefreshingStore.local(store_dir, cases)
    with caplog.at_level(logging.WARNING, logger="aem_strands.strands.store"):
        report = Experiment(cases=cases, evaluators=[AemSessionEvaluator(scorer="exact")]).run_evaluations(
            offline_task, evaluation_data_store=store
        )
    assert (store.hits, store.refreshed) == (1, 1)
    assert "case 'sales' was stored with other metadata" in caplog.text
    assert report.scores == [0.5]  # scored against the edited gold: the metric turn now fails


def test_an_unreadable_experiment_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main([str(bad)]) == 2
    assert "cannot read the experiment" in capsys.readouterr().err
