"""Issue 29, host paths: ``export-regression`` turns ``aem-strands trace`` output, with the trace files it read and
the policy (and gold) it was judged under, into Strands Evals cases that reproduce the verdicts.

Before, trace output was refused ("not a Strands Evals report"). The traces are the examples' (YAML, JSON, a JSON
array, JSONL; planning, safety vetoes, result use, grounding, recovery), judged for real by ``aem-strands trace``;
the exported cases run through a real ``Experiment`` with ``offline_task`` and ``AemTraceEvaluator``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from strands_evals import Experiment

from aem_strands.cli import main as aem_strands
from aem_strands.strands import AemTraceEvaluator, offline_task
from tests.conftest import EXAMPLES

TRACES = EXAMPLES / "data" / "traces"
POLICY = str(TRACES / "policy.yaml")
FILES = [str(TRACES / name) for name in ("refund_identity.yaml", "timeout.yaml", "cancel_consent.json",
                                         "looped_lookup.json", "method_writeup.json", "result_use.jsonl",
                                         "ungrounded_order.json", "refund_status.json")]  # fmt: skip


def _run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    code = aem_strands(argv, stdout=io.StringIO(), stderr=err)
    return code, err.getvalue()


def _trace(tmp_path: Path, files: list[str], *extra: str, fmt: str = "jsonl") -> tuple[Path, list[dict[str, Any]]]:
    out = tmp_path / f"judged.{fmt}"
    code, err = _run(["trace", *files, "--format", fmt, "--out", str(out), *extra])
    assert code in (0, 1) or "Field required" in err, err  # 2: a file that holds no trace (an error record)
    text = out.read_text(encoding="utf-8")
    records = json.loads(text) if fmt == "json" else [json.loads(line) for line in text.splitlines()]
    return out, records


def _rerun(cases: Path) -> dict[str, dict[str, Any]]:
    """Each exported case's row under a real Experiment: offline_task replays it, AemTraceEvaluator judges it."""
    experiment = Experiment.from_dict(json.loads(cases.read_text(encoding="utf-8")),
                                      custom_evaluators=[AemTraceEvaluator])  # fmt: skip
    report = experiment.run_evaluations(offline_task)
    return {case["name"]: {"metadata": rows[0].metadata, "test_pass": rows[0].test_pass, "score": rows[0].score}
            for case, rows in zip(report.cases, report.detailed_results, strict=True)}  # fmt: skip


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_every_failing_trace_is_exported_and_fails_the_same_way(tmp_path: Path, fmt: str) -> None:
    judged, records = _trace(tmp_path, FILES, "--policy", POLICY, fmt=fmt)
    failing = {r["trace_id"]: r for r in records if not r["test_pass"]}
    assert len(failing) >= 7  # planning, timeout, consent veto, loop, write-up veto, two result-use, grounding
    assert any(r["veto"] for r in failing.values())
    cases = tmp_path / "cases.json"
    code, err = _run(["export-regression", str(judged), "--inputs", *FILES, "--policy", POLICY, "--out", str(cases)])
    assert code == 0, err  # before: exit 2, "not a Strands Evals report"
    experiment = json.loads(cases.read_text(encoding="utf-8"))
    assert sorted(c["name"] for c in experiment["cases"]) == sorted(failing)  # the passing traces are left out
    assert experiment["evaluators"] == [{"evaluator_type": "AemTraceEvaluator", "name": "aem_trace", "policy": POLICY}]
    rows = _rerun(cases)
    for name, record in failing.items():
        row = rows[name]["metadata"]
        assert row["status"] == record["status"]
        assert row["veto"] == record["veto"]
        assert row["first_critical_failure_step"] == record["first_critical_failure_step"]
        assert row["critical_rule"] == record["critical_rule"]
        assert rows[name]["test_pass"] is False
        failed = {d for d, v in record["dimensions"].items() if v["pass"] is False}
        assert {d for d, v in row["dimensions"].items() if v["pass"] is False} == failed


def test_a_policy_other_than_the_runs_is_refused_by_name(tmp_path: Path) -> None:
    judged, _ = _trace(tmp_path, [FILES[0]], "--policy", POLICY)
    cases = tmp_path / "cases.json"
    code, err = _run(["export-regression", str(judged), "--inputs", FILES[0], "--out", str(cases)])  # no --policy
    assert code == 2
    # without the policy's ordering rule the refund without identity check passes: the case would not reproduce
    assert "trace 'refund-no-identity': not exported: judged pass" in err
    assert "the record says fail (s5)" in err
    assert json.loads(cases.read_text(encoding="utf-8"))["cases"] == []


def test_the_gold_the_run_used_travels_with_the_case(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"  # the verified refund never calls lookup_order: tool selection fails with this gold
    gold.write_text(json.dumps({"refund-verified": {"expected_tools": ["lookup_order"]}}), encoding="utf-8")
    judged, records = _trace(tmp_path, [FILES[0]], "--policy", POLICY, "--gold", str(gold))
    verified = next(r for r in records if r["trace_id"] == "refund-verified")
    assert verified["dimensions"]["tool_selection"]["pass"] is False
    cases = tmp_path / "cases.json"
    argv = ["export-regression", str(judged), "--inputs", FILES[0], "--policy", POLICY, "--out", str(cases)]
    code, err = _run([*argv, "--gold", str(gold)])
    assert code == 0, err
    rows = _rerun(cases)
    assert rows["refund-verified"]["metadata"]["dimensions"]["tool_selection"]["pass"] is False
    code, err = _run(argv)  # without the gold the verified refund passes: not exported, named
    assert code == 2
    assert "trace 'refund-verified': not exported" in err


def test_a_redacted_trace_id_still_joins_its_input(tmp_path: Path) -> None:
    story = next(iter(yaml.safe_load_all((TRACES / "refund_identity.yaml").read_text(encoding="utf-8"))))
    source = tmp_path / "mine.json"
    source.write_text(json.dumps({**story, "trace_id": "refund-for-jane.doe@example.com"}), encoding="utf-8")
    judged, [record] = _trace(tmp_path, [str(source)], "--policy", POLICY)
    assert "jane.doe" not in record["trace_id"]  # redacted in the output
    cases = tmp_path / "cases.json"
    code, err = _run(["export-regression", str(judged), "--inputs", str(source), "--policy", POLICY,
                      "--out", str(cases), "--keep-pii"])  # fmt: skip  # values kept: see test_export_redaction
    assert code == 0, err
    [case] = json.loads(cases.read_text(encoding="utf-8"))["cases"]
    assert case["name"] == "refund-for-jane.doe@example.com"  # joined by source (file, line), not by id
    assert _rerun(cases)[case["name"]]["metadata"]["first_critical_failure_step"] == "s5"


def test_trace_output_without_its_inputs_or_with_error_records_is_named(tmp_path: Path) -> None:
    judged, _ = _trace(tmp_path, [FILES[0], POLICY], "--policy", POLICY)  # the policy file is no trace: an error
    cases = tmp_path / "cases.json"
    code, err = _run(["export-regression", str(judged), "--out", str(cases)])
    assert code == 2
    assert "needs the trace files it read (--inputs)" in err
    code, err = _run(["export-regression", str(judged), "--inputs", FILES[0], "--policy", POLICY,
                      "--out", str(cases)])  # fmt: skip
    assert code == 2
    assert "an error record: the trace was not judged" in err
    assert [c["name"] for c in json.loads(cases.read_text(encoding="utf-8"))["cases"]] == ["refund-no-identity"]
