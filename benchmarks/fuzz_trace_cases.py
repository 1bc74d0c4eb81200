"""The bad-input cases of issue 29 for ``benchmarks/fuzz_bad_inputs.py``: ``trace`` (trace files in YAML and JSON,
its policy, gold, tools and thresholds files, outputs that are inputs, a stopped run) and ``trials``.

Each case runs the command in a fresh folder (``Case`` of ``fuzz_bad_inputs``) with a time limit (``LIMIT``
seconds: a run past it is reported as such, the process killed, instead of waited on) and returns the exit code,
the good trace records kept of those given, and what else was seen (the last line of stderr, a traceback, an input
overwritten).
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Callable
from typing import Any, Protocol

LIMIT = 120
"""Seconds a case may run (the alias bomb took 3 minutes and 2.8 GB before it ended in MemoryError)."""
STEPS = "steps:\n  - {action_type: user, content: hi}\n  - {action_type: response, content: hello}\n"
STEP_LIST = [{"action_type": "user", "content": "hi"}, {"action_type": "response", "content": "hello"}]


class Folder(Protocol):
    """What a case needs of ``fuzz_bad_inputs.Case``."""

    folder: Any
    env: dict[str, str]

    def write(self, name: str, text: str | bytes) -> Any: ...

    def cmd(self, *argv: str) -> list[str]: ...


Result = tuple[int, str, str]


def _bomb(indent: str) -> str:
    lines = [f"{indent}a0: &a0 [x, x, x, x, x, x, x, x, x]\n"]
    return "".join(lines + [f"{indent}a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 9)])


def _yaml(trace_id: str, metrics: str = "") -> str:
    return f"trace_id: {trace_id}\n{STEPS}" + (f"metrics:\n{metrics}" if metrics else "")


def _json(trace_id: str, metrics: str = "{}") -> str:
    return '{"trace_id": "' + trace_id + '", "steps": ' + json.dumps(STEP_LIST) + ', "metrics": ' + metrics + "}\n"


def _run(c: Folder, *argv: str) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run(
            c.cmd(*argv), capture_output=True, text=True, cwd=c.folder, env=c.env, timeout=LIMIT
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return None


def _judged(text: str) -> int:
    found = 0
    for line in text.splitlines():
        try:
            found += "status" in json.loads(line)
        except json.JSONDecodeError:
            continue
    return found


def _seen(done: subprocess.CompletedProcess[str]) -> str:
    if "Traceback" in done.stderr:
        return f"traceback ({done.stderr.count(chr(10))} lines)"
    lines = done.stderr.strip().splitlines()
    return lines[-1][:140] if lines else ""


def _trace(c: Folder, names: list[str], *flags: str, given: int) -> Result:
    started = time.monotonic()
    done = _run(c, "trace", *names, "--scorer", "exact", "--keep-pii", "--format", "jsonl", *flags)
    if done is None:
        return -1, "-", f"still running after {LIMIT} s: stopped"
    took = f"{time.monotonic() - started:.1f} s; "
    return done.returncode, f"{_judged(done.stdout)}/{given}", took + _seen(done)


def trace_file(name: str, text: str, good: int = 2) -> Callable[[Folder], Result]:
    """A trace file of ``text`` between two good trace files: the good traces judged (``good`` of them, those of
    ``text`` counted), the bad one an error."""

    def run(c: Folder) -> Result:
        c.write("before.json", _json("before"))
        c.write(name, text)
        c.write("after.yaml", _yaml("after"))
        return _trace(c, ["before.json", name, "after.yaml"], given=good)

    return run


def side_file(flag: str, name: str, text: str) -> Callable[[Folder], Result]:
    """A good trace with ``flag`` naming a bad file: exit 2 naming the file, nothing judged."""

    def run(c: Folder) -> Result:
        c.write("t.yaml", _yaml("t"))
        c.write(name, text)
        return _trace(c, ["t.yaml"], flag, name, given=0)

    return run


def output_is_input(flags: list[str]) -> Callable[[Folder], Result]:
    def run(c: Folder) -> Result:
        c.write("t.yaml", _yaml("t"))
        path = c.write("th.json", '{"thresholds": {}}\n')
        code, kept, notes = _trace(c, ["t.yaml"], "--thresholds", "th.json", *flags, given=0)
        intact = path.read_text(encoding="utf-8") == '{"thresholds": {}}\n'
        return code, kept, ("input kept" if intact else "INPUT OVERWRITTEN") + "; " + notes

    return run


def stopped(sig: signal.Signals) -> Callable[[Folder], Result]:
    def run(c: Folder) -> Result:
        trace = {"steps": STEP_LIST}
        c.write("many.jsonl", "".join(json.dumps({"trace_id": f"t{i}", **trace}) + "\n" for i in range(20000)))
        argv = ("trace", "many.jsonl", "--scorer", "exact", "--keep-pii", "--out", "out.jsonl", "--html", "r.html")
        proc = subprocess.Popen(
            c.cmd(*argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=c.folder, env=c.env
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:  # until some record is written
            if any(p.stat().st_size for p in c.folder.iterdir() if p.name.startswith(".out.jsonl")):
                break
            time.sleep(0.2)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=LIMIT)
        out = c.folder / "out.jsonl"
        kept = _judged(out.read_text(encoding="utf-8")) if out.exists() else 0
        page = "; r.html written" if (c.folder / "r.html").exists() else ""
        done = subprocess.CompletedProcess(proc.args, proc.returncode, "", err)
        return proc.returncode, f"{kept} of 20000 kept", _seen(done) + page

    return run


def trials(argv: list[str], names: list[str] | None = None, text: str | None = None) -> Callable[[Folder], Result]:
    def run(c: Folder) -> Result:
        cases = [{"name": n, "input": "hi"} for n in names or ["a", "b"]]
        c.write("experiment.json", text if text is not None else json.dumps({"cases": cases, "evaluators": []}))
        started = time.monotonic()
        done = _run(c, "trials", "experiment.json", *argv)
        if done is None:
            return -1, "-", f"still running after {LIMIT} s: stopped"
        out = c.folder / "trials.json"
        written = len(json.loads(out.read_text(encoding="utf-8"))["cases"]) if out.exists() else 0
        intact = "" if text is None or (c.folder / "experiment.json").read_text(encoding="utf-8") == text else (
            "INPUT OVERWRITTEN; ")  # fmt: skip
        return done.returncode, f"{written} cases", f"{time.monotonic() - started:.1f} s; {intact}{_seen(done)}"

    return run


def cases() -> dict[str, Callable[[Folder], Result]]:
    deep, big = "[" * 3000 + "]" * 3000, "9" * 5000
    return {
        "trace: YAML alias bomb (538 bytes, 9 levels)": trace_file("bomb.yaml", _yaml("bomb", _bomb("  "))),
        "trace: YAML alias cycle &a [*a]": trace_file("cycle.yaml", _yaml("cycle", "  x: &a [*a]\n")),
        "trace: YAML nesting 3,000": trace_file("deep.yaml", _yaml("deep", f"  x: {deep}\n")),
        "trace: JSON nesting 3,000": trace_file("deep.json", _json("deep", '{"x": ' + deep + "}")),
        "trace: YAML integer of 5,000 digits": trace_file("big.yaml", _yaml("big", f"  x: {big}\n")),
        "trace: JSON integer of 5,000 digits": trace_file("big.json", _json("big", '{"x": ' + big + "}")),
        "trace: YAML float beyond a float's digits": trace_file(
            "f.yaml", _yaml("f", "  x: 0.12345678901234567891\n")),
        "trace: YAML date 2024-13-45 (a good trace)": trace_file("date.yaml", _yaml("date", "  x: 2024-13-45\n"), 3),
        "trace: YAML list of traces, bomb in the 2nd": trace_file("list.yaml", "- " + _yaml("l1").replace(
            "\n", "\n  ").rstrip() + "\n- " + _yaml("l2", _bomb("  ")).replace("\n", "\n  ").rstrip() + "\n", 3),
        "trace: malformed YAML": trace_file("bad.yaml", "trace_id: x\nsteps: [\n"),
        "trace: --policy YAML alias bomb": side_file("--policy", "p.yaml", "expected_final_state:\n" + _bomb("  ")),
        "trace: --policy YAML nesting 3,000": side_file("--policy", "p.yaml", f"expected_final_state: {deep}\n"),
        "trace: --policy YAML cycle": side_file("--policy", "p.yaml", "expected_final_state: &a {x: *a}\n"),
        "trace: --policy YAML integer of 5,000 digits": side_file(
            "--policy", "p.yaml", f"budgets: {{max_steps: {big}}}\n"),
        "trace: --policy JSON nesting 3,000": side_file("--policy", "p.json", '{"expected_final_state": ' + deep + "}"),
        "trace: --policy a tool defined twice": side_file("--policy", "p.yaml", "tools: [{name: a}, {name: a}]\n"),
        "trace: --gold YAML alias bomb": side_file("--gold", "g.yaml", "t:\n  expected_final_state:\n" + _bomb("    ")),
        "trace: --gold YAML nesting 3,000": side_file("--gold", "g.yaml", f"t: {{expected_final_state: {deep}}}\n"),
        "trace: --gold JSON integer of 5,000 digits": side_file(
            "--gold", "g.json", '{"t": {"expected_final_state": {"x": ' + big + "}}}"),
        "trace: --tools integer of 5,000 digits": side_file(
            "--tools", "tools.json", '[{"name": "a", "x": ' + big + "}]"),
        "trace: --thresholds nesting 3,000": side_file("--thresholds", "th.json", '{"thresholds": ' + deep + "}"),
        "trace: --out equal to --thresholds": output_is_input(["--out", "th.json"]),
        "trace: --html equal to ./--thresholds": output_is_input(["--html", "./th.json"]),
        "trace: SIGTERM mid-run, --out and --html": stopped(signal.SIGTERM),
        "trace: Ctrl-C (SIGINT) mid-run, --out and --html": stopped(signal.SIGINT),
        "trials: --trials 50000000": trials(["--trials", "50000000", "--out", "trials.json"]),
        "trials: --trials 0": trials(["--trials", "0", "--out", "trials.json"]),
        "trials: a case named ../escape": trials(["--trials", "2", "--out", "trials.json"], ["ok", "../escape"]),
        "trials: a case named /tmp/abs": trials(["--trials", "2", "--out", "trials.json"], ["/tmp/abs"]),
        "trials: --out equal to the experiment": trials(
            ["--trials", "2", "--out", "experiment.json"], text=json.dumps({"cases": [{"name": "a", "input": "x"}]})),
        "trials: experiment nesting 3,000": trials(
            ["--trials", "2", "--out", "trials.json"], text='{"cases": [], "x": ' + deep + "}"),
        "trials: experiment integer of 5,000 digits": trials(
            ["--trials", "2", "--out", "trials.json"], text='{"cases": [], "x": ' + big + "}"),
    }  # fmt: skip
