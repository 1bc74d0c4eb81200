"""Issue 29: ``trials --trials 50000000`` (MemoryError, then a hang) and trial names that leave the result folder
are refused before any work; ``report --labels`` with one bad line (``"label": null``) names the line, skips it
and writes the rest."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from strands_evals import Case

import aem_strands
from aem_strands.cli import main
from aem_strands.errors import ConfigError
from aem_strands.strands.trials import MAX_TRIAL_CASES, MAX_TRIALS, trial_cases
from tests.conftest import action, paired, reply


def run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def experiment(folder: Path, *names: str) -> Path:
    path = folder / "experiment.json"
    cases = [{"name": name, "input": "hi"} for name in names]
    path.write_text(json.dumps({"cases": cases, "evaluators": []}), encoding="utf-8")
    return path


def test_a_trial_count_beyond_the_limit_is_refused_at_once(tmp_path: Path) -> None:
    source, out = experiment(tmp_path, "a", "b"), tmp_path / "trials.json"
    started = time.perf_counter()
    code, _, err = run("trials", source, "--trials", "50000000", "--out", out)
    assert time.perf_counter() - started < 5  # was MemoryError, then a hang
    assert code == 2
    assert err == "aem-strands: trials must be at most 1,000 (pass^k needs no more), got 50,000,000\n"
    assert not out.exists()
    code, _, err = run("trials", source, "--trials", str(MAX_TRIALS), "--out", out)
    assert code == 0, err
    assert len(json.loads(out.read_text(encoding="utf-8"))["cases"]) == 2 * MAX_TRIALS  # 2 cases x 1,000 trials


def test_an_expansion_beyond_the_case_limit_is_refused() -> None:
    # 101 cases x 1,000 trials = 101,000 > 100,000; 100 x 1,000 = 100,000 is the most allowed
    cases = [Case(name=f"c{i}", input="hi") for i in range(101)]
    with pytest.raises(ConfigError, match=r"101 cases x 1,000 trials = 101,000 cases, more than 100,000"):
        trial_cases(cases, MAX_TRIALS)
    assert len(trial_cases(cases[:2], 3)) == 6
    assert MAX_TRIAL_CASES == 100 * MAX_TRIALS


@pytest.mark.parametrize("name", ["../escape", "/etc/cron.d/x", "a/b", "a\\b", "nul\x00byte"])
def test_a_case_name_that_is_a_path_is_refused(tmp_path: Path, name: str) -> None:
    source, out = experiment(tmp_path, "fine", name), tmp_path / "trials.json"
    code, _, err = run("trials", source, "--trials", "2", "--out", out)
    assert code == 2
    assert "case 1: name" in err
    assert "holds a path separator" in err
    assert not out.exists()


@pytest.mark.parametrize("name", ["refund: late", "..dots..", "Q&A #3", "naïve café"])
def test_a_case_name_without_a_separator_is_expanded(tmp_path: Path, name: str) -> None:
    source, out = experiment(tmp_path, name), tmp_path / "trials.json"
    code, _, err = run("trials", source, "--trials", "2", "--out", out)
    assert code == 0, err
    names = [c["name"] for c in json.loads(out.read_text(encoding="utf-8"))["cases"]]
    assert names == [f"{name}#trial1", f"{name}#trial2"]


def _scored(folder: Path) -> Path:
    dialogs = []
    for dialog_id, region in (("a", "EU"), ("b", "US"), ("c", "EU")):
        turns = [
            paired(1, action("db", "Filter", region="EU"), action("db", "Filter", region=region)),
            paired(2, reply("Done."), reply("Done.")),
        ]
        dialogs.append({"dialog_id": dialog_id, "turns": turns})
    source = folder / "dialogs.jsonl"
    source.write_text("".join(json.dumps(d) + "\n" for d in dialogs), encoding="utf-8")
    scored = aem_strands.evaluate_dialogs(aem_strands.load_dialogs(source), scorer="exact")
    path = folder / "results.jsonl"
    path.write_text("".join(json.dumps(r.to_dict()) + "\n" for r in scored), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("bad", "field"),
    [({"dialog_id": "b", "label": None}, "label"), ({"dialog_id": "b", "turn_no": "2", "label": True}, "turn_no"),
     ({"label": True}, "dialog_id"), ("{not json", None)],
)  # fmt: skip
def test_a_bad_labels_line_is_named_skipped_and_the_rest_written(tmp_path: Path, bad: Any, field: str | None) -> None:
    results = _scored(tmp_path)
    labels = tmp_path / "labels.jsonl"
    lines = [json.dumps({"dialog_id": "a", "label": True}), bad if isinstance(bad, str) else json.dumps(bad),
             json.dumps({"dialog_id": "c", "label": "pass"})]  # fmt: skip
    labels.write_text("\n".join(lines) + "\n", encoding="utf-8")
    html, summary = tmp_path / "r.html", tmp_path / "r.json"
    code, _, err = run("report", results, "--labels", labels, "--html", html, "--json", summary)
    assert code == 2  # a record that cannot be read: exit 2, the rest reported (was: nothing written)
    named = f"aem-strands: file {labels}, line 2"
    assert named in err
    assert field is None or f"field '{field}'" in err
    assert html.read_text(encoding="utf-8").startswith("<!")
    agreement = json.loads(summary.read_text(encoding="utf-8"))["labels"]
    assert agreement["dialog"]["n"] == 2  # lines 1 and 3: dialogs a and c, both labelled pass and passing
    assert agreement["dialog"]["disagreements"] == []


def test_good_labels_give_exit_0_and_count_every_line(tmp_path: Path) -> None:
    results = _scored(tmp_path)
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps({"dialog_id": d, "label": d != "b"}) + "\n" for d in "abc"))
    summary = tmp_path / "r.json"
    code, _, err = run("report", results, "--labels", labels, "--json", summary)
    assert code == 0, err
    assert json.loads(summary.read_text(encoding="utf-8"))["labels"]["dialog"]["n"] == 3  # a, b and c


def test_an_experiment_beyond_the_input_limits_is_bad_input(tmp_path: Path) -> None:
    source, out = tmp_path / "experiment.json", tmp_path / "trials.json"
    source.write_text('{"cases": [{"name": "a", "input": "hi"}], "x": ' + "9" * 5000 + "}", encoding="utf-8")
    code, _, err = run("trials", source, "--trials", "2", "--out", out)
    assert code == 2  # was 3: TypeError, BadValue is not JSON serializable
    assert f"file {source}, field 'x': number literal of 5,000 characters" in err
    source.write_text('{"cases": [{"name": "a", "input": "hi"}], "x": ' + "9" * 100 + "}", encoding="utf-8")
    assert run("trials", source, "--trials", "2", "--out", out)[0] == 0  # 100 digits: within the limit
