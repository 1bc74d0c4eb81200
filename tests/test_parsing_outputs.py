"""Issue 29, "Outputs that never replace an input, and say what happened": every output flag of every command is
refused, before any work, when it names one of the command's inputs (by resolved path: ``./``, symbolic and hard
links); an interrupted ``trace --out`` says what it kept and what it did not write."""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from aem_strands.cli import INPUT_FILES, INPUT_FOLDERS, OUTPUT_FILES, build_parser, main
from aem_strands.output import Terminated, raise_if_stopped, terminated_as_interrupt
from tests.conftest import ROOT

NOT_FILES = {"judge_prompt_version", "embedding_device", "sub_metric_thresholds", "read_only_tools", "budgets",
             "cache_dir", "by", "title", "evaluator"}  # fmt: skip
"""Arguments with a text value that names no file the command reads or writes (``cache_dir``: a cache both read and
written, keyed by content)."""


def run(*argv: str | Path, cwd: Path | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    here = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        code = main([str(a) for a in argv], stdout=out, stderr=err)
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()


def commands() -> dict[str, argparse.ArgumentParser]:
    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def valued(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The arguments that take a text value (flags without a value, choices and numbers left out)."""
    numbers = (int, float)
    return [a for a in parser._actions
            if a.nargs != 0 and a.choices is None and a.type not in numbers and getattr(a.type, "__name__", "")
            != "_threshold"]  # fmt: skip


def test_every_argument_naming_a_file_is_known_as_an_input_or_an_output() -> None:
    # a new flag naming a file must be classified, or the refusal below would not cover it
    known = set(INPUT_FILES) | set(INPUT_FOLDERS) | set(OUTPUT_FILES) | NOT_FILES
    unknown = {(name, a.dest) for name, parser in commands().items() for a in valued(parser) if a.dest not in known}
    assert unknown == set()
    outputs = {(name, a.dest) for name, parser in commands().items() for a in valued(parser) if a.dest in OUTPUT_FILES}
    assert outputs == {("score", "out"), ("compare", "out"), ("calibrate", "write_config"), ("report", "html"),
                       ("report", "json"), ("trace", "out"), ("trace", "html"), ("export-regression", "out"),
                       ("trials", "out")}  # fmt: skip


def _pairs() -> list[tuple[str, str, str]]:
    """Every (command, input argument, output argument) the command line has."""
    found = []
    for name, parser in commands().items():
        dests = {a.dest for a in valued(parser)}
        for given in sorted(dests & set(INPUT_FILES)):
            found += [(name, given, output) for output in sorted(dests & set(OUTPUT_FILES))]
    return found


def _argv(command: str, given: str, output: str, victim: str, alias: str, dummy: str) -> list[str]:
    """A command line of ``command`` where argument ``given`` names ``victim`` and ``output`` names ``alias``."""
    parser = commands()[command]
    argv = [command]
    for action in parser._actions:
        flag = action.option_strings[0] if action.option_strings else None
        value = victim if action.dest == given else alias if action.dest == output else dummy
        if flag is None and action.dest in INPUT_FILES:
            argv.append(value)
        elif action.required and flag is not None:
            argv += [flag, "3" if action.dest == "trials" else value]
        elif action.dest in (given, output) and flag is not None:
            argv += [flag, value]
    return argv


@pytest.mark.parametrize(("command", "given", "output"), _pairs())
@pytest.mark.parametrize("spelling", ["same path", "./ relative", "symlink", "hardlink"])
def test_no_output_of_any_command_may_replace_any_of_its_inputs(
    tmp_path: Path, command: str, given: str, output: str, spelling: str
) -> None:
    victim = tmp_path / "input.json"
    victim.write_text('{"thresholds": {}}\n', encoding="utf-8")
    dummy = tmp_path / "other.json"
    dummy.write_text("{}\n", encoding="utf-8")
    alias = {"same path": str(victim), "./ relative": "./sub/../input.json", "symlink": "link.json",
             "hardlink": "hard.json"}[spelling]  # fmt: skip
    (tmp_path / "sub").mkdir()
    if spelling == "symlink":
        (tmp_path / alias).symlink_to(victim)
    elif spelling == "hardlink":
        os.link(victim, tmp_path / alias)
    argv = _argv(command, given, output, str(victim), alias, str(dummy))
    code, out, err = run(*argv, cwd=tmp_path)
    assert code == 2, (argv, err)
    assert f"field '{OUTPUT_FILES[output]}': is also an input" in err, err
    assert (INPUT_FILES[given] == "input") or f"({INPUT_FILES[given]} " in err  # the input named by its flag
    assert out == ""  # refused before any work
    assert victim.read_text(encoding="utf-8") == '{"thresholds": {}}\n'
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")) == []


def test_the_issue_example_refused_and_a_distinct_output_written(tmp_path: Path) -> None:
    thresholds = tmp_path / "th.json"
    thresholds.write_text('{"thresholds": {}}\n', encoding="utf-8")
    traces = tmp_path / "t.yaml"
    traces.write_text("trace_id: t\nsteps: [{action_type: user, content: hi}, {action_type: response, content: ok}]\n")
    for flag in ("--out", "--html"):
        code, _, err = run("trace", traces, "--scorer", "exact", "--thresholds", thresholds, flag, thresholds)
        assert code == 2  # was 0, the thresholds overwritten by the records
        assert err == (f"aem-strands: file {thresholds}, field '{flag}': is also an input (--thresholds "
                       f"{thresholds}); it would be overwritten\n")  # fmt: skip
        assert thresholds.read_text(encoding="utf-8") == '{"thresholds": {}}\n'
    out, page = tmp_path / "out.jsonl", tmp_path / "r.html"
    code, _, err = run("trace", traces, "--scorer", "exact", "--keep-pii", "--thresholds", thresholds, "--out", out,
                       "--html", page)  # fmt: skip
    assert code != 2, err
    assert [json.loads(line)["trace_id"] for line in out.read_text(encoding="utf-8").splitlines()] == ["t"]
    assert page.read_text(encoding="utf-8").startswith("<!")
    code, _, err = run("trace", traces, "--scorer", "exact", "--out", out, "--html", tmp_path / "." / "out.jsonl")
    assert code == 2
    assert "field '--html': names the same file as --out" in err


def test_an_output_inside_the_embedding_model_folder_is_refused(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}", encoding="utf-8")
    traces = tmp_path / "t.yaml"
    traces.write_text("trace_id: t\nsteps: [{action_type: user, content: hi}]\n", encoding="utf-8")
    code, _, err = run("trace", traces, "--embedding-model", model, "--out", model / "config.json")
    assert code == 2
    assert f"is inside the folder of --embedding-model ({model})" in err
    assert (model / "config.json").read_text(encoding="utf-8") == "{}"


TRACE = {"steps": [
    {"step_id": "u1", "action_type": "user", "content": "What is the status of order 123?"},
    {"step_id": "s1", "action_type": "tool_call", "tool_name": "get_order", "arguments": {"order_id": "123"},
     "observation": {"order_id": "123", "status": "shipped"}},
    {"step_id": "r1", "action_type": "response", "content": "Order 123 has shipped."},
]}  # fmt: skip


def _stopped_run(tmp_path: Path, sig: signal.Signals, *flags: str) -> tuple[int, str, Path]:
    source = tmp_path / "many.jsonl"
    source.write_text("".join(json.dumps({"trace_id": f"t{i}", **TRACE}) + "\n" for i in range(20000)))
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "aem_strands.cli", "trace", str(source), "--scorer", "exact", "--keep-pii",
               "--out", str(out), *flags]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and proc.poll() is None:  # until some record was written
        if any(p.stat().st_size for p in tmp_path.iterdir() if p.name.endswith(".partial")):
            break
        time.sleep(0.1)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err, out


@pytest.mark.parametrize(("sig", "code", "word"), [(signal.SIGTERM, 143, "terminated"),
                                                   (signal.SIGINT, 130, "interrupted")])  # fmt: skip
def test_a_stopped_trace_run_says_what_it_kept_and_what_it_did_not_write(
    tmp_path: Path, sig: signal.Signals, code: int, word: str
) -> None:
    page = tmp_path / "r.html"
    returned, err, out = _stopped_run(tmp_path, sig, "--html", str(page))
    assert returned == code, err
    kept = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]  # each line whole
    assert 0 < len(kept) < 20000
    assert [r["trace_id"] for r in kept] == [f"t{i}" for i in range(len(kept))]
    # was "terminated; nothing written", with the records there and --html dropped without a word
    assert err.endswith(f"aem-strands: {word}; {len(kept):,} records kept in {out}; --html not written (it is "
                        "rendered when the run ends)\n"), err  # fmt: skip
    assert not page.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []


class _SignalsInDestructor:
    """Sends a signal to this process from ``__del__``: its handler runs there, and what it raises is dropped."""

    def __init__(self, sig: signal.Signals) -> None:
        self.sig = sig

    def __del__(self) -> None:
        os.kill(os.getpid(), self.sig)
        total = 0
        for step in range(10_000):  # the handler runs between these bytecodes
            total += step


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the dropped exception, as wanted
@pytest.mark.parametrize(("sig", "kind"), [(signal.SIGTERM, Terminated), (signal.SIGINT, KeyboardInterrupt)])
def test_a_stop_that_a_destructor_swallowed_is_raised_at_the_next_safe_point(
    sig: signal.Signals, kind: type[KeyboardInterrupt]
) -> None:
    # CI saw it: a SIGTERM landed in regex's Group.__del__, "Exception ignored", and the trace run ended with exit 0
    # the context manager leaves signals alone that others handle (an earlier test's library may have set one)
    before = signal.signal(signal.SIGTERM, signal.SIG_DFL), signal.signal(signal.SIGINT, signal.default_int_handler)
    went_on = False

    def run() -> None:
        nonlocal went_on
        with terminated_as_interrupt():
            _SignalsInDestructor(sig)  # collected at once; the handler's exception is dropped
            went_on = True
            raise_if_stopped()

    try:
        with pytest.raises(kind):
            run()
        assert went_on
        raise_if_stopped()  # the stop was seen: nothing is left to raise
    finally:
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGINT, before[1])


def test_a_run_that_ends_writes_every_record_and_the_page(tmp_path: Path) -> None:
    source = tmp_path / "t.jsonl"
    source.write_text("".join(json.dumps({"trace_id": f"t{i}", **TRACE}) + "\n" for i in range(3)))
    out, page = tmp_path / "out.jsonl", tmp_path / "r.html"
    code, _, err = run("trace", source, "--scorer", "exact", "--keep-pii", "--out", out, "--html", page)
    assert code == 0, err
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3
    assert page.exists()
    assert "not written" not in err
