"""``aem-strands report``: regressions by version (planted and absent), labels, Strands report files, headline."""

from __future__ import annotations

import io
import json
from html import escape
from pathlib import Path
from typing import Any

import pytest
from scipy import stats
from sklearn.metrics import cohen_kappa_score
from strands_evals import Experiment

import aem_strands
from aem_strands.cli import main
from aem_strands.report import headline, load_results, root_cause_in_words, summarise
from aem_strands.report.command import _steps
from aem_strands.strands import AemSessionEvaluator, offline_case, offline_task
from tests.conftest import EXAMPLES, action, paired, reply


def dialog(dialog_id: str, version: str, *, passes: bool) -> dict[str, Any]:
    region = "EU" if passes else "US"
    turns = [
        paired(1, action("db", "Filter", region="EU"), action("db", "Filter", region=region)),
        paired(2, reply("Done."), reply("Done.")),
    ]
    return {"dialog_id": dialog_id, "metadata": {"version": version}, "turns": turns}


def scored(tmp_path: Path, dialogs: list[dict[str, Any]], name: str = "scores.jsonl") -> Path:
    source = tmp_path / f"{name}.dialogs.jsonl"
    source.write_text("".join(json.dumps(d) + "\n" for d in dialogs), encoding="utf-8")
    results = aem_strands.evaluate_dialogs(aem_strands.load_dialogs(source), scorer="exact")
    out = tmp_path / name
    out.write_text("".join(json.dumps(r.to_dict()) + "\n" for r in results), encoding="utf-8")
    return out


def versions(v2_passing: int) -> list[dict[str, Any]]:
    v1 = [dialog(f"a{i}", "v1", passes=i < 36) for i in range(40)]  # 36 of 40 pass (90%)
    v2 = [dialog(f"b{i}", "v2", passes=i < v2_passing) for i in range(40)]
    return v1 + v2


def report(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["report", *argv, "--json", "-"])
    return code, json.loads(capsys.readouterr().out)  # --json -: the JSON summary on stdout


def test_planted_regression_between_versions_is_called(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scored(tmp_path, versions(v2_passing=20))  # v2: 20 of 40 pass (50%)
    code, summary = report(str(path), "--by", "version", capsys=capsys)
    assert code == 1  # a regression was called
    assert summary["regressions"] == ["v2 vs v1"]
    v1, v2 = summary["groups"]
    assert (v1["value"], v1["pass_rate"]["estimate"], v2["pass_rate"]["estimate"]) == ("v1", 0.9, 0.5)
    change = v2["vs_previous"]["pass_rate_change"]
    assert change["estimate"] == pytest.approx(-0.4)  # 0.5 - 0.9
    assert change["high"] < 0


def test_no_regression_is_called_without_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scored(tmp_path, versions(v2_passing=35))  # v2: 35 of 40 pass (87.5%), within noise of 90%
    code, summary = report(str(path), "--by", "version", capsys=capsys)
    assert code == 0
    assert summary["regressions"] == []
    change = summary["groups"][1]["vs_previous"]["pass_rate_change"]
    assert change["low"] < 0 < change["high"]


def test_html_and_json_files_are_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scored(tmp_path, versions(v2_passing=20))
    html, summary_file = tmp_path / "r.html", tmp_path / "r.json"
    main(["report", str(path), "--by", "version", "--html", str(html), "--json", str(summary_file)])
    capsys.readouterr()
    page = html.read_text(encoding="utf-8")
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    assert f'<h1 id="headline">{escape(summary["headline"])}</h1>' in page
    assert "Regression called: v2 vs v1" in page
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing loaded from a network
    assert "https://" not in page


def test_labels_give_kappa_correlations_and_disagreements(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scored(tmp_path, versions(v2_passing=20))
    records = {r["dialog_id"]: r for r in load_results([path]).records}
    # People agree with the metric except on a0 (they fail it) and b39 (they pass it); "zz" is unknown.
    labels = {d: ("fail" if d == "a0" else "pass" if d == "b39" else records[d]["test_pass"]) for d in records}
    lines = [{"dialog_id": d, "label": v} for d, v in labels.items()] + [{"dialog_id": "zz", "label": True}]
    lines += [{"dialog_id": "a0", "turn_no": 1, "label": 0.0}, {"dialog_id": "b39", "turn_no": 1, "label": 0.0}]
    lines += [{"dialog_id": "a1", "turn_no": 1, "label": 1.0}, {"dialog_id": "b0", "turn_no": 1, "label": 1.0}]
    label_file = tmp_path / "labels.jsonl"
    label_file.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    _, summary = report(str(path), "--labels", str(label_file), capsys=capsys)
    found = summary["labels"]
    assert found["unmatched"] == 1
    human = [v is True or v == "pass" for v in labels.values()]
    metric = [records[d]["test_pass"] for d in labels]
    assert found["dialog"]["kappa"]["estimate"] == pytest.approx(cohen_kappa_score(human, metric), abs=1e-4)
    scores = [records[d]["score"] for d in labels]
    pearson = stats.pearsonr([float(h) for h in human], scores).statistic
    assert found["dialog"]["correlations"]["score"]["pearson"]["estimate"] == pytest.approx(pearson, abs=1e-4)
    assert {(d["dialog_id"], d["label"]) for d in found["dialog"]["disagreements"]} == {("a0", 0.0), ("b39", 1.0)}
    # turn 1 labels: the metric passes a0, a1, b0 and fails b39: only a0 (labelled 0.0) disagrees
    assert found["turn"]["n"] == 4
    assert [(d["dialog_id"], d["turn_no"]) for d in found["turn"]["disagreements"]] == [("a0", 1)]


def test_strands_report_file_rows_are_read_with_case_metadata(tmp_path: Path) -> None:
    cases = [
        offline_case(json.loads((EXAMPLES / "data" / f"{name}.json").read_text(encoding="utf-8")), name=name,
                     metadata={"version": version})
        for name, version in (("sales_report", "v1"), ("sales_report_wrong_recipient", "v2"))
    ]  # fmt: skip
    experiment = Experiment(cases=cases, evaluators=[AemSessionEvaluator(scorer="exact")])
    path = tmp_path / "strands_report.json"
    experiment.run_evaluations(offline_task).to_file(str(path))
    loaded = load_results([path])
    assert loaded.errors == ()
    assert [(r["dialog_id"], r["metadata"]["version"]) for r in loaded.records] == [
        ("sales_report", "v1"),
        ("sales_report_wrong_recipient", "v2"),
    ]
    assert [len(g["reasons"]) for g in summarise(loaded.records, by="version")["groups"]] == [2, 1]


def test_unreadable_records_are_reported_and_the_rest_is_read(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    good = aem_strands.evaluate_dialog([paired(1, reply("Hi."), reply("Hi."))], scorer="exact").to_dict()
    path.write_text(json.dumps(good) + "\n{not json\n" + json.dumps({"dialog_id": "x", "error": {"message": "bad"}}))
    loaded = load_results([path, tmp_path / "absent.jsonl"])
    assert len(loaded.records) == 1
    assert [str(e) for e in loaded.errors] == [
        f"file {path}, line 2: malformed JSON: Expecting property name enclosed in double quotes at column 2",
        f"file {path}, line 3, dialog 'x': scored with an error: bad",
        f"file {tmp_path / 'absent.jsonl'}: cannot read file: No such file or directory",
    ]


def test_root_cause_in_words_and_the_headline() -> None:
    dialogs = aem_strands.load_dialogs(EXAMPLES / "data" / "sales_report_wrong_recipient.json")
    results = aem_strands.evaluate_dialogs(dialogs, scorer="exact")
    record = results[0].to_dict()
    assert (
        root_cause_in_words(record)
        == "turn 2: the call used metric 'profit' where 'revenue' was due; 2 later turns inherited it"
    )
    roots = [t for t in record["turns"] if t["role"] == "root_cause"]
    assert root_cause_in_words(record, roots[1]) == (
        "turn 4: the call used to 'ceo@example.com' where 'cfo@example.com' was due; no later turn inherited it"
    )
    assert headline(results) == (
        "1 of 1 dialog fails: 2 root causes, 2 inherited failures. First: sales_report_wrong_recipient "
        + root_cause_in_words(record)
    )


def test_latency_correlation_chain_buckets_and_reason_mix(tmp_path: Path) -> None:
    dialogs = []
    for i in range(12):
        slow = i >= 6  # the slow half fails its second call: score falls as latency grows
        turns = [
            {**paired(1, action("db", "Get", id="1"), action("db", "Get", id="1")), "latency_ms": 100.0 + i},
            {**paired(2, action("db", "Put", id="1"), action("db", "Put" if not slow else "Post", id="1")),
             "latency_ms": 200.0 * (i + 1)},
        ]  # fmt: skip
        dialogs.append({"dialog_id": f"d{i}", "metadata": {"version": "v1" if i < 6 else "v2"}, "turns": turns})
    records = load_results([scored(tmp_path, dialogs)]).records
    summary = summarise(records, by="version")
    latencies = [100.0 + i + 200.0 * (i + 1) for i in range(12)]
    scores = [1.0] * 6 + [0.5] * 6  # 2 of 2, then 1 of 2 turns pass
    assert [p[0] for p in summary["latency"]["points"]] == latencies
    pearson = stats.pearsonr(latencies, scores)
    found = summary["latency"]["correlation"]["pearson"]
    assert found["estimate"] == pytest.approx(pearson.statistic, abs=1e-4)
    assert (found["low"], found["high"]) == pytest.approx(tuple(pearson.confidence_interval(0.95)), abs=1e-4)
    # both calls form one two-step chain: 24 turns, 18 pass
    wilson = stats.binomtest(18, 24).proportion_ci(method="wilson")
    assert summary["chains"]["two_step"]["pass_rate"] == {
        "estimate": 0.75, "low": round(wilson.low, 4), "high": round(wilson.high, 4), "n": 24
    }  # fmt: skip
    assert summary["reasons"] == {"action_mismatch": {"root_cause": 6, "cascade": 0}}
    assert summary["groups"][1]["reasons"] == {"action_mismatch": 6}
    assert summary["groups"][1]["vs_previous"]["reason_mix_change"] is None  # v1 has no failure: nothing to compare
    assert summary["regressions"] == ["v2 vs v1"]  # 6 of 6 pass, then 0 of 6


def test_score_json_array_output_is_read_and_progress_only_on_a_terminal(tmp_path: Path) -> None:
    results = aem_strands.evaluate_dialogs(
        aem_strands.load_dialogs(EXAMPLES / "data" / "sales_report.json"), scorer="exact"
    )
    path = tmp_path / "scores.json"
    path.write_text(json.dumps([r.to_dict() for r in results], indent=2), encoding="utf-8")
    assert [r["dialog_id"] for r in load_results([path]).records] == ["sales_report"]
    piped = io.StringIO()
    with _steps(piped, 3) as step:
        step("read")
    assert piped.getvalue() == ""  # piped: no progress bar
