"""Issue 29, host paths: ``export-regression`` turns ``score`` output (with the dialog files it read) into cases that
reproduce the verdicts under ``strands-evals run``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from strands_evals.cli.main import main as strands_evals

from aem_strands.cli import main as aem_strands
from tests.conftest import EXAMPLES

INPUTS = [str(EXAMPLES / "data" / name) for name in ("sales_report.json", "sales_report_two_roots.json",
                                                       "strands_unpaired.json")]  # fmt: skip


def _score(tmp_path: Path) -> tuple[Path, list[dict[str, object]]]:
    out = io.StringIO()
    aem_strands(["score", *INPUTS, "--scorer", "exact", "--format", "jsonl"], stdout=out, stderr=io.StringIO())
    results = tmp_path / "results.jsonl"
    results.write_text(out.getvalue(), encoding="utf-8")
    return results, [json.loads(line) for line in out.getvalue().splitlines()]


def test_failing_score_records_become_cases_that_fail_the_same_way(tmp_path: Path) -> None:
    results, records = _score(tmp_path)
    failing = {r["dialog_id"]: r for r in records if not r["test_pass"]}
    passing = [r["dialog_id"] for r in records if r["test_pass"]]
    assert failing  # the sales reports fail
    cases = tmp_path / "cases.json"
    code = aem_strands(["export-regression", str(results), "--inputs", *INPUTS, "--out", str(cases), "--scorer",
                        "exact"], stdout=io.StringIO(), stderr=io.StringIO())  # fmt: skip
    assert code == 0
    experiment = json.loads(cases.read_text(encoding="utf-8"))
    names = [c["name"] for c in experiment["cases"]]
    assert sorted(names) == sorted(failing)  # before: "not a Strands Evals report"
    assert not set(passing) & set(names)  # a passing dialog is not a regression
    out = tmp_path / "rerun.json"
    code = strands_evals(["run", str(cases), "--task", "aem_strands:offline_task",
                          "--custom-evaluator", "aem_strands:AemSessionEvaluator", "-o", str(out)])  # fmt: skip
    assert code == 1  # the failures are reproduced
    rerun = json.loads(out.read_text(encoding="utf-8"))
    for case, row in zip(rerun["cases"], rerun["detailed_results"], strict=True):
        scored = failing[case["name"]]
        assert row[0]["test_pass"] is False
        assert row[0]["metadata"]["root_cause_turn"] == scored["root_cause_turn"]  # the same root cause
        assert row[0]["score"] == pytest.approx(scored["score"])  # the same composed score


def test_score_output_without_its_inputs_is_still_refused(tmp_path: Path) -> None:
    results, _ = _score(tmp_path)
    err = io.StringIO()
    code = aem_strands(["export-regression", str(results), "--out", str(tmp_path / "c.json")],
                       stdout=io.StringIO(), stderr=err)  # fmt: skip
    assert code == 2
    assert "not a Strands Evals report" in err.getvalue()


def test_a_failing_dialog_missing_from_the_inputs_is_named(tmp_path: Path) -> None:
    results, _ = _score(tmp_path)
    err = io.StringIO()
    code = aem_strands(["export-regression", str(results), "--inputs", INPUTS[0], "--out", str(tmp_path / "c.json")],
                       stdout=io.StringIO(), stderr=err)  # fmt: skip
    assert code == 2
    assert "dialog 'sales_report_two_roots'" in err.getvalue()
    assert "no dialog of this id in --inputs" in err.getvalue()
