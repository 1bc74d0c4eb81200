"""Issue 29, host paths: ``aem-strands report`` reports traces as it reports dialogs.

Before, ``report`` on ``aem-strands trace`` output named every record "not a dialog result" (exit 2), and on a Strands
Evals report with ``AemTraceEvaluator`` rows printed "no dialogs scored" (exit 0). Now both get the trace view: pass,
veto and dimension rates, the first critical steps, by ``--by`` value with the regression test dialogs get, in the
text, the JSON summary and the HTML page. The traces are the refund stories of the examples (one skips the identity
check: planning fails at s5; one follows the rule: passes), judged for real by ``aem-strands trace``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import yaml
from strands_evals import Experiment

from aem_strands.cli import main as aem_strands
from aem_strands.strands import AemSessionEvaluator, AemTraceEvaluator, offline_case, offline_task
from tests.conftest import EXAMPLES
from tests.test_host_offline_trace import ORDER, _dialog
from tests.test_host_trace_rows import USER, _report

POLICY = str(EXAMPLES / "data" / "traces" / "policy.yaml")
STORIES = list(yaml.safe_load_all((EXAMPLES / "data" / "traces" / "refund_identity.yaml").read_text(encoding="utf-8")))
SKIPS, FOLLOWS = STORIES  # planning fails at s5; passes


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = aem_strands(argv, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _judged(tmp_path: Path, traces: list[tuple[str, dict[str, Any], str]], fmt: str = "jsonl") -> Path:
    """``aem-strands trace`` output for ``(trace_id, story, version)`` triples."""
    source = tmp_path / "traces.jsonl"
    lines = [json.dumps({**story, "trace_id": name, "metadata": {"version": v}}) for name, story, v in traces]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / f"judged.{fmt}"
    code, _, err = _run(["trace", str(source), "--policy", POLICY, "--format", fmt, "--out", str(out)])
    assert code in (0, 1), err
    return out


def test_trace_output_gets_the_trace_view_in_text_json_and_html(tmp_path: Path) -> None:
    judged = _judged(tmp_path, [("skips", SKIPS, "v1"), ("follows", FOLLOWS, "v1")])
    html, summary_file = tmp_path / "r.html", tmp_path / "r.json"
    code, text, err = _run(["report", str(judged), "--html", str(html), "--json", str(summary_file)])
    assert code == 0, err  # before: exit 2, "not a dialog result" for each record
    assert "not a dialog result" not in err
    assert text.startswith("1 of 2 traces does not pass (0 vetoed, 0 inconclusive). First: skips step s5 "
                           "(earliest_failure)")  # fmt: skip
    assert "  planning: 1 of 2 pass" in text
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    traces = summary["traces"]
    assert traces["overall"]["traces"] == 2
    assert traces["overall"]["pass_rate"]["estimate"] == 0.5  # one of two passes
    assert traces["overall"]["veto_rate"]["estimate"] == 0.0
    assert traces["dimensions"]["planning"] == {
        "applicable": 2, "passed": 1, "failed": 1, "pass_rate": traces["dimensions"]["planning"]["pass_rate"]
    }  # fmt: skip
    assert traces["dimensions"]["planning"]["pass_rate"]["estimate"] == 0.5
    assert traces["critical_rules"] == {"earliest_failure": 1}
    [step] = traces["first_critical_steps"]
    assert (step["trace_id"], step["step"], step["rule"]) == ("skips", "s5", "earliest_failure")
    assert "issue_refund was called before verify_identity" in step["hypothesis"]
    # the score of a CLI record is the evaluator's: 5 of 6 applicable dimensions pass (planning fails)
    assert step["score"] == round(5 / 6, 4)
    page = html.read_text(encoding="utf-8")
    assert '<section id="traces">' in page
    assert "<td>skips</td>" in page
    assert "<td>s5</td>" in page
    assert 'id="dialog-table"' not in page  # no empty dialog list on a report of traces only


def test_trace_output_as_a_json_array_reads_the_same(tmp_path: Path) -> None:
    judged = _judged(tmp_path, [("skips", SKIPS, "v1"), ("follows", FOLLOWS, "v1")], fmt="json")
    code, text, _ = _run(["report", str(judged)])
    assert code == 0
    assert text.startswith("1 of 2 traces does not pass")


def _versions(tmp_path: Path, v2: list[dict[str, Any]]) -> tuple[int, dict[str, Any], str, str]:
    traces = [("a1", FOLLOWS, "v1"), ("b1", FOLLOWS, "v1")]
    traces += [(f"{name}2", story, "v2") for name, story in zip("ab", v2, strict=True)]
    judged = _judged(tmp_path, traces)
    code, out, _ = _run(["report", str(judged), "--by", "version", "--json", "-"])
    html = tmp_path / "r.html"
    code_text, text, _ = _run(["report", str(judged), "--by", "version", "--html", str(html)])
    assert code_text == code
    return code, json.loads(out), text, html.read_text(encoding="utf-8")


def test_a_version_whose_traces_all_fail_is_a_regression(tmp_path: Path) -> None:
    code, summary, text, page = _versions(tmp_path, [SKIPS, SKIPS])
    assert code == 1  # a regression was called
    # v1 passes 2 of 2, v2 0 of 2: both samples constant, the difference -1.0 with a zero-width interval below 0
    groups = summary["traces"]["groups"]
    assert [g["value"] for g in groups] == ["v1", "v2"]
    assert groups[1]["vs_previous"]["pass_rate_change"]["estimate"] == -1.0
    assert summary["regressions"] == ["traces v2 vs v1"]
    assert "REGRESSION traces version v2 vs v1" in text
    assert "  version=v2: 2 traces, pass rate 0.000" in text
    assert "<h3>Traces by version</h3>" in page
    assert '<p class="bad">Regression called: v2 vs v1</p>' in page


def test_a_version_that_fails_as_often_is_no_regression(tmp_path: Path) -> None:
    code, summary, _, page = _versions(tmp_path, [FOLLOWS, FOLLOWS])
    assert code == 0
    assert summary["regressions"] == []
    assert "<p>No regression called.</p>" in page
    assert summary["traces"]["groups"][1]["vs_previous"]["regression"] is False


def test_a_trace_record_with_a_wrong_field_is_named_and_the_rest_reported(tmp_path: Path) -> None:
    judged = _judged(tmp_path, [("skips", SKIPS, "v1"), ("follows", FOLLOWS, "v1")])
    lines = judged.read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[1])
    broken["status"] = "maybe"
    judged.write_text(lines[0] + "\n" + json.dumps(broken) + "\n", encoding="utf-8")
    code, text, err = _run(["report", str(judged)])
    assert code == 2
    assert "line 2, trace 'follows', field 'status'" in err
    assert text.startswith("1 of 1 trace does not pass")  # the readable record is reported


def test_trace_text_on_the_page_is_escaped(tmp_path: Path) -> None:
    judged = _judged(tmp_path, [("skips", SKIPS, "v1")])
    record = json.loads(judged.read_text(encoding="utf-8"))
    record["trace_id"] = "</td><script>alert(1)</script>"
    judged.write_text(json.dumps(record) + "\n", encoding="utf-8")
    html = tmp_path / "r.html"
    assert _run(["report", str(judged), "--html", str(html)])[0] == 0
    page = html.read_text(encoding="utf-8")
    assert "<script>alert(1)" not in page
    assert "&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_strands_report_of_trace_rows_gets_the_trace_view(tmp_path: Path) -> None:
    report = _report(tmp_path)  # good (v1) passes, bad (v2) fails arguments at lookup_order#2
    code, out, err = _run(["report", str(report), "--by", "version", "--json", "-"])
    assert code == 0, err
    summary = json.loads(out)
    assert summary["headline"].startswith("1 of 2 traces does not pass")  # before: "no dialogs scored"
    traces = summary["traces"]
    assert traces["dimensions"]["arguments"]["passed"] == 1
    assert traces["first_critical_steps"][0]["step"] == "lookup_order#2"
    assert [(g["value"], g["traces"], g["failing"]) for g in traces["groups"]] == [("v1", 1, 0), ("v2", 1, 1)]
    # the host's own numbers: the row's score (4 of 5 applicable dimensions pass) and verdict
    rows = json.loads(report.read_text(encoding="utf-8"))["detailed_results"]
    assert traces["first_critical_steps"][0]["score"] == rows[1][0]["score"]


def test_a_report_with_dialog_and_trace_rows_reports_each_case_once_per_kind(tmp_path: Path) -> None:
    cases = [offline_case(_dialog(ORDER, **USER), name="good", metadata={"version": "v1"}),
             offline_case(_dialog("ORD-9999", **USER), name="bad", metadata={"version": "v2"})]  # fmt: skip
    evaluators = [AemSessionEvaluator(scorer="exact"), AemTraceEvaluator(policy=POLICY)]
    path = tmp_path / "both.json"
    Experiment(cases=cases, evaluators=evaluators).run_evaluations(offline_task).to_file(str(path))
    code, out, err = _run(["report", str(path), "--json", "-"])
    assert code == 0, err
    summary = json.loads(out)
    assert summary["overall"]["dialogs"] == 2
    assert summary["traces"]["overall"]["traces"] == 2
    assert "; traces: 1 of 2 traces does not pass" in summary["headline"]
    code, out, _ = _run(["report", str(path), "--json", "-", "--evaluator", "aem_trace"])
    only = json.loads(out)
    assert only["overall"]["dialogs"] == 0  # one kind chosen
    assert only["traces"]["overall"]["traces"] == 2
    code, _, err = _run(["report", str(path), "--evaluator", "nobody"])
    assert code == 2
    assert "the report has: AemSessionEvaluator, aem_trace" in err


def test_a_case_the_trace_evaluator_could_not_judge_is_named_and_the_rest_reported(tmp_path: Path) -> None:
    cases = [offline_case(_dialog(ORDER, **USER), name="good"),
             offline_case(_dialog(ORDER, **USER), name="no-session")]  # fmt: skip

    def task(case: Any) -> Any:
        replayed = offline_task(case)
        return replayed if case.name == "good" else {"output": "done"}  # no trajectory: nothing to judge

    path = tmp_path / "partly.json"
    Experiment(cases=cases, evaluators=[AemTraceEvaluator(policy=POLICY)]).run_evaluations(task).to_file(str(path))
    code, out, err = _run(["report", str(path), "--json", "-"])
    assert code == 2  # some input could not be read
    assert "trace 'no-session': not judged: could not judge: case 'no-session': actual_trajectory is" in err
    assert json.loads(out)["traces"]["overall"]["traces"] == 1  # the judged case is reported
