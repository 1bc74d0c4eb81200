"""Issue 21, output that is lost or wrong: each test reproduces a defect through the real command (``main``,
or a subprocess where a signal is needed) and checks what a user gets now."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from strands_evals import Experiment

import aem_strands
from aem_strands.cli import build_parser, main
from aem_strands.strands import AemSessionEvaluator, offline_case, offline_task
from tests.conftest import EXAMPLES, ROOT, action, paired, reply


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def dialog(dialog_id: str, *, passes: bool, version: str | None = None) -> dict[str, Any]:
    region = "EU" if passes else "US"
    turns = [
        paired(1, action("db", "Filter", region="EU"), action("db", "Filter", region=region)),
        paired(2, reply("Done."), reply("Done.")),
    ]
    return {"dialog_id": dialog_id, "metadata": {} if version is None else {"version": version}, "turns": turns}


def results(folder: Path, dialogs: list[dict[str, Any]], name: str = "results.jsonl") -> Path:
    """``score`` output (JSONL records) for ``dialogs``."""
    source = folder / f"{name}.dialogs.jsonl"
    source.write_text("".join(json.dumps(d) + "\n" for d in dialogs), encoding="utf-8")
    scored = aem_strands.evaluate_dialogs(aem_strands.load_dialogs(source), scorer="exact")
    path = folder / name
    path.write_text("".join(json.dumps(r.to_dict()) + "\n" for r in scored), encoding="utf-8")
    return path


def record(dialog_id: str = "d", *, passes: bool = True) -> dict[str, Any]:
    found = aem_strands.evaluate_dialog(dialog(dialog_id, passes=passes)["turns"], scorer="exact").to_dict()
    return {**found, "dialog_id": dialog_id}


def strict_json(text: str) -> Any:
    """JSON as a strict reader sees it: ``NaN`` or ``Infinity`` is an error."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"bare {constant} in JSON")

    return json.loads(text, parse_constant=refuse)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial"))


# --- report --labels with a disagreement


def test_labels_that_disagree_give_the_html_and_json_instead_of_a_crash(tmp_path: Path) -> None:
    path = results(tmp_path, [dialog("a", passes=True), dialog("b", passes=False), dialog("c", passes=True)])
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"dialog_id": "a", "label": "fail"}\n{"dialog_id": "b", "label": "fail"}\n', encoding="utf-8")
    html, summary = tmp_path / "r.html", tmp_path / "r.json"
    code, _, err = run("report", str(path), "--labels", str(labels), "--html", str(html), "--json", str(summary))
    assert code == 0, err
    disagreements = json.loads(summary.read_text(encoding="utf-8"))["labels"]["dialog"]["disagreements"]
    # people fail "a", which the metric passes: the one disagreement ("b" fails on both sides)
    assert disagreements == [{"dialog_id": "a", "turn_no": None, "label": 0.0, "metric_pass": True}]
    page = html.read_text(encoding="utf-8")
    assert "To review: 1 disagreement</h4>" in page
    assert "<td>a</td><td></td><td>0</td><td>pass</td>" in page


# --- one malformed record in a results file


def _bad(kind: str) -> str:
    good = record("bad")
    if kind == "turns of numbers":
        return json.dumps({**good, "turns": [1, 2]})
    if kind == "a count as text":
        return json.dumps({**good, "root_cause_count": "3"})
    if kind == "list metadata":
        return json.dumps({**good, "metadata": ["version", "v1"]})
    if kind == "a huge integer":
        return json.dumps({**good, "cascading_count": 10**30})
    if kind == "a long number literal":
        return json.dumps(good).replace('"score": 1.0', '"score": 1' + "0" * 400)
    if kind == "deep nesting":
        return json.dumps({**good, "metadata": {"x": "@"}}).replace('"@"', "[" * 150 + "]" * 150)
    raise AssertionError(kind)


FIELDS = {
    "turns of numbers": "turns[0]",
    "a count as text": "root_cause_count",
    "list metadata": "metadata",
    "a huge integer": "cascading_count",
    "a long number literal": "score",
    "deep nesting": "metadata.x",
}


@pytest.mark.parametrize("kind", sorted(FIELDS))
def test_a_malformed_record_is_named_and_skipped_and_the_others_reported(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "results.jsonl"
    text = json.dumps(record("first")) + "\n" + _bad(kind) + "\n" + json.dumps(record("third", passes=False)) + "\n"
    path.write_text(text, encoding="utf-8")
    summary_file = tmp_path / "s.json"
    code, _, err = run("report", str(path), "--json", str(summary_file))
    assert code == 2
    (line,) = [x for x in err.splitlines() if "line 2" in x]
    assert f"file {path}, line 2, dialog 'bad'" in line
    assert f"field '{FIELDS[kind]}'" in line or f"field '{FIELDS[kind]}" in line
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    assert (summary["overall"]["dialogs"], summary["overall"]["failing"]) == (2, 1)  # first and third


# --- text and numbers that broke the HTML dialog list and the JSON summary


def _data_block(page: str) -> str:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert found is not None
    return found.group(1)


def test_script_like_text_in_a_dialog_cannot_end_or_reopen_the_data_block(tmp_path: Path) -> None:
    sneaky = "x<!--<script>\u2028</script><b>&amp;"
    failing = record("f", passes=False)
    failing["turns"][0]["problems"][0]["predicted"] = sneaky
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({**record(sneaky)}) + "\n" + json.dumps(failing) + "\n", encoding="utf-8")
    html = tmp_path / "r.html"
    code, _, err = run("report", str(path), "--html", str(html))
    assert code == 0, err
    block = _data_block(html.read_text(encoding="utf-8"))
    assert not set("<>&\u2028\u2029") & set(block)  # all written as \u003c ... escapes
    data = json.loads(block)
    assert {d["id"] for d in data["dialogs"]} == {sneaky, "f"}
    problem = data["dialogs"][0]["turns"][0][7][0]  # the failing dialog first: its first problem
    assert problem[2] == sneaky  # the predicted value, whole, back from the escapes


def test_a_non_finite_score_is_refused_and_the_summary_holds_no_bare_nan(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    nan = json.dumps(record("nan")).replace('"score": 1.0', '"score": NaN')
    inf = json.dumps(record("inf")).replace('"score": 1.0', '"score": Infinity')
    path.write_text(json.dumps(record("ok")) + "\n" + nan + "\n" + inf + "\n", encoding="utf-8")
    html, summary_file = tmp_path / "r.html", tmp_path / "r.json"
    code, _, err = run("report", str(path), "--html", str(html), "--json", str(summary_file))
    assert code == 2
    assert f"file {path}, line 2, dialog 'nan', field 'score': NaN or infinite number is not allowed" in err
    assert "line 3, dialog 'inf', field 'score'" in err
    assert strict_json(summary_file.read_text(encoding="utf-8"))["overall"]["dialogs"] == 1
    assert [d["id"] for d in strict_json(_data_block(html.read_text(encoding="utf-8")))["dialogs"]] == ["ok"]


def test_the_embedded_json_turns_nan_into_null() -> None:
    from aem_strands.report.html import script_json
    from aem_strands.report.summary import json_safe

    assert script_json({"a": float("nan"), "b": [float("inf"), 1.5], "c": "</script>"}) == (
        '{"a":null,"b":[null,1.5],"c":"\\u003c/script\\u003e"}'
    )
    assert json_safe({"x": (float("-inf"), {"y": float("nan")})}) == {"x": [None, {"y": None}]}


# --- every output written whole or not at all


class _FullDisk:
    """A text stream over a real file that fails with ENOSPC once ``room`` characters were written."""

    def __init__(self, stream: Any, room: int) -> None:
        self._stream, self._room = stream, room

    def write(self, text: str) -> int:
        if len(text) > self._room:
            self._stream.write(text[: self._room])
            self._room = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self._room -= len(text)
        return int(self._stream.write(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _fill_disk_after(monkeypatch: pytest.MonkeyPatch, room: int) -> None:
    real = os.fdopen

    def fdopen(fd: int, *args: Any, **kwargs: Any) -> Any:
        return _FullDisk(real(fd, *args, **kwargs), room)

    monkeypatch.setattr(os, "fdopen", fdopen)


def test_table_on_a_full_disk_publishes_nothing_and_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "set.jsonl"
    source.write_text("".join(json.dumps(dialog(f"d{i}", passes=i % 2 == 0)) + "\n" for i in range(6)))
    out = tmp_path / "out.txt"
    out.write_text("the previous run\n", encoding="utf-8")
    _fill_disk_after(monkeypatch, 300)
    code, _, err = run("score", str(source), "--scorer", "exact", "--format", "table", "--out", str(out))
    assert code == 3
    assert "No space left on device" in err
    assert out.read_text(encoding="utf-8") == "the previous run\n"  # not a truncated table
    assert leftovers(tmp_path) == []


def test_report_on_a_full_disk_publishes_neither_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = results(tmp_path, [dialog("a", passes=True), dialog("b", passes=False)])
    html, summary = tmp_path / "r.html", tmp_path / "r.json"
    _fill_disk_after(monkeypatch, 1000)
    code, _, err = run("report", str(path), "--html", str(html), "--json", str(summary))
    assert code == 3
    assert "No space left on device" in err
    assert not html.exists()
    assert not summary.exists()
    assert leftovers(tmp_path) == []


def test_report_interrupted_leaves_no_file_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from aem_strands.report.summary import SummaryTally

    path = results(tmp_path, [dialog("a", passes=True)])
    html, summary = tmp_path / "r.html", tmp_path / "r.json"

    def interrupt(self: SummaryTally) -> dict[str, Any]:
        raise KeyboardInterrupt

    monkeypatch.setattr(SummaryTally, "summary", interrupt)
    code, _, _ = run("report", str(path), "--html", str(html), "--json", str(summary))
    assert code == 130
    assert not html.exists()
    assert not summary.exists()
    assert leftovers(tmp_path) == []


def test_sigterm_keeps_whole_records_and_leaves_no_partial_file(tmp_path: Path) -> None:
    source = tmp_path / "many.jsonl"
    line = json.dumps(dialog("@", passes=True))
    source.write_text("".join(line.replace('"@"', f'"d{i}"') + "\n" for i in range(20000)), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "aem_strands.cli", "score", str(source), "--scorer", "exact", "--out", str(out)]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:  # until some record was written
        if any(p.stat().st_size for p in tmp_path.iterdir() if p.name.endswith(".partial")):
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert "terminated" in err
    assert leftovers(tmp_path) == []
    kept = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert 0 < len(kept) < 20000
    assert all(r["test_pass"] for r in kept)


# --- an output that is also an input


def _link(kind: str, target: Path, name: Path) -> Path:
    if kind == "symlink":
        name.symlink_to(target)
    elif kind == "hardlink":
        os.link(target, name)
    else:
        return target
    return name


@pytest.mark.parametrize("kind", ["same path", "symlink", "hardlink"])
def test_any_output_equal_to_any_input_is_refused_before_the_work(tmp_path: Path, kind: str) -> None:
    source = tmp_path / "set.jsonl"
    source.write_text(json.dumps(dialog("a", passes=True)) + "\n", encoding="utf-8")
    tools = tmp_path / "tools.json"
    tools.write_text("[]", encoding="utf-8")
    thresholds = tmp_path / "t.json"
    thresholds.write_text('{"thresholds": {}}', encoding="utf-8")
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text('{"gold": "a", "predicted": "a"}\n', encoding="utf-8")
    scored = results(tmp_path, [dialog("a", passes=True)])
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"dialog_id": "a", "label": true}\n', encoding="utf-8")
    before = {p: p.read_bytes() for p in (source, tools, thresholds, pairs, scored, labels)}
    cases = [
        (["score", str(source), "--scorer", "exact", "--tools", "{0}", "--out", "{1}"], tools, "--out"),
        (["score", str(source), "--scorer", "exact", "--thresholds", "{0}", "--out", "{1}"], thresholds, "--out"),
        (["compare", "--pairs", "{0}", "--scorer", "exact", "--out", "{1}"], pairs, "--out"),
        (["report", "{0}", "--html", "{1}"], scored, "--html"),
        (["report", str(scored), "--labels", "{0}", "--json", "{1}"], labels, "--json"),
    ]
    for number, (argv, given, flag) in enumerate(cases):
        output = _link(kind, given, tmp_path / f"alias{number}")
        code, out, err = run(*(a.format(given, output) for a in argv))
        assert code == 2, (argv, err)
        assert f"field '{flag}': is also an input" in err
        assert out == ""  # refused before any work
    assert {p: p.read_bytes() for p in before} == before


def test_report_checks_its_outputs_before_reading_anything(tmp_path: Path) -> None:
    missing = tmp_path / "absent.jsonl"  # would be an input error if it were read
    code, _out, err = run("report", str(missing), "--html", str(tmp_path / "no" / "r.html"))
    assert code == 2
    assert err.strip() == f"aem-strands: file {tmp_path / 'no' / 'r.html'}, field '--html': its folder " + (
        f"{tmp_path / 'no'} does not exist"
    )
    both = tmp_path / "r.out"
    code, _, err = run("report", str(missing), "--html", str(both), "--json", str(both))
    assert code == 2
    assert "names the same file as --html" in err
    assert "absent" not in err


# --- terminal escapes


def test_report_escapes_dialog_ids_and_messages_on_the_terminal(tmp_path: Path) -> None:
    nasty = "x\x1b]0;owned\x07\x1b[2J\r"
    path = tmp_path / "results.jsonl"
    error = {"dialog_id": nasty, "error": {"message": f"bad {nasty}"}}
    path.write_text(json.dumps(record(nasty, passes=False)) + "\n" + json.dumps(error) + "\n", encoding="utf-8")
    code, out, err = run("report", str(path))
    assert code == 2
    for text in (out, err):
        assert "\x1b" not in text
        assert "\x07" not in text
        assert "\r" not in text
    assert "x\\x1b]0;owned\\x07\\x1b[2J\\r" in out  # the headline names the failing dialog, escaped
    assert "scored with an error: bad x\\x1b]0;owned" in err


# --- newcomer items


def _strands_report(folder: Path) -> Path:
    cases = [
        offline_case(json.loads((EXAMPLES / "data" / f"{name}.json").read_text(encoding="utf-8")), name=name)
        for name in ("sales_report", "sales_report_wrong_recipient")
    ]
    evaluators = [AemSessionEvaluator(scorer="exact"), AemSessionEvaluator(scorer="exact", name="second")]
    path = folder / "strands.json"
    Experiment(cases=cases, evaluators=evaluators).run_evaluations(offline_task).to_file(str(path))
    return path


def test_strands_report_with_two_aem_evaluators_counts_each_case_once_and_names_the_evaluator(tmp_path: Path) -> None:
    path = _strands_report(tmp_path)
    code, out, err = run("report", str(path), "--json", "-")
    assert code == 0, err
    assert json.loads(out)["overall"]["dialogs"] == 2  # not 4
    assert "2 AEM evaluators (AemSessionEvaluator, second); reporting AemSessionEvaluator" in err
    code, out, err = run("report", str(path), "--json", "-", "--evaluator", "second", "--by", "evaluator")
    assert code == 0, err
    assert [(g["value"], g["dialogs"]) for g in json.loads(out)["groups"]] == [("second", 2)]
    code, _, err = run("report", str(path), "--evaluator", "third")
    assert code == 2
    assert "no AEM evaluator 'third' (the report has: AemSessionEvaluator, second)" in err


def test_dialogs_without_a_version_are_not_a_version_in_the_sequence(tmp_path: Path) -> None:
    dialogs = [dialog(f"a{i}", passes=True, version="v1") for i in range(10)]
    dialogs += [dialog(f"n{i}", passes=False) for i in range(10)]  # no version, all failing
    path = results(tmp_path, dialogs)
    code, out, _ = run("report", str(path), "--by", "version", "--json", "-")
    summary = json.loads(out)
    assert [g["value"] for g in summary["groups"]] == ["v1", "(none)"]
    assert "vs_previous" not in summary["groups"][1]  # 100% then 0% would otherwise be called a regression
    assert summary["regressions"] == []
    assert code == 0


def test_report_prints_a_short_text_when_piped_and_json_only_when_asked(tmp_path: Path) -> None:
    path = results(tmp_path, [dialog("a", passes=True), dialog("b", passes=False)])
    summary = tmp_path / "s.json"
    code, out, err = run("report", str(path), "--json", str(summary))
    assert code == 0
    assert out == "1 of 2 dialogs fails: 1 root cause, 0 inherited failures. First: b " + (
        "turn 1: the call used region 'US' where 'EU' was due; no later turn inherited it\n"
        "pass rate 0.500 [95% CI 0.000, 1.000]\n"  # 1 of 2; the bootstrap of two values spans 0 to 1
    )
    assert re.fullmatch(rf"aem-strands: wrote {re.escape(str(summary))} \([\d,]+ bytes\)\n", err)
    code, out, _ = run("report", str(path), "--json", "-")
    assert json.loads(out)["overall"]["dialogs"] == 2


def test_counts_are_in_words_with_their_plural(tmp_path: Path) -> None:
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps(dialog("a", passes=True)) + "\n", encoding="utf-8")
    _, out, _ = run("score", str(one), "--scorer", "exact", "--format", "table")
    assert out.startswith("the one dialog passes\n")
    assert out.endswith("1 dialog scored, 1 pass, 0 fail, 0 not readable\n")
    empty = tmp_path / "pairs.jsonl"
    empty.write_text('{"gold": "a"}\n', encoding="utf-8")  # no pair to compare
    _, _, err = run("compare", "--pairs", str(empty), "--scorer", "exact")
    assert re.fullmatch(r"aem-strands: compared 0 pairs in \d+\.\d\d s\n", err.splitlines()[-1] + "\n")
    pairs = tmp_path / "p.jsonl"
    pairs.write_text('{"gold": "a", "predicted": "a"}\n', encoding="utf-8")
    _, _, err = run("compare", "--pairs", str(pairs), "--scorer", "exact")
    assert "compared 1 pair in" in err
    assert "0 pairs/s" not in err


def test_help_is_plain_text_without_rest_quotes(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    texts = [parser.format_help(), *(p.format_help() for p in commands.choices.values())]  # type: ignore[union-attr]
    assert len(texts) >= 5
    assert not [t for t in texts if "``" in t]
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    assert "``" not in capsys.readouterr().out
