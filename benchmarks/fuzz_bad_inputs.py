"""The bad-input matrix of issue 9, measured through the installed command: exit code and records kept per case.

Run against any source tree (``--root``, default: this checkout) to compare before and after a change::

    python benchmarks/fuzz_bad_inputs.py --root /tmp/old-checkout

Each case writes its files to a fresh temporary folder, runs ``python -m aem_strands.cli`` there with the
exact scorer, and prints one Markdown row: case, exit code, good records kept (of those given), and what
else was seen (a traceback, a raw control character in the table, the input overwritten, ...).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

GOOD = {
    "dialog_id": "good",
    "turns": [{"turn_no": 1, "turn": "Agent", "gold_turn": {"response": "Hi."}, "predict_turn": {"response": "Hi."}}],
}


def good(name: str) -> dict[str, object]:
    return {**GOOD, "dialog_id": name}


def odd(name: str, value: object) -> str:
    """A dialog whose predicted reply holds ``value`` written as raw JSON text."""
    turn = (
        '{"turn_no": 1, "turn": "Tool", "gold_turn": {"tool_id": "t", "action": "A", "args": {"x": 1}}, '
        '"predict_turn": {"tool_id": "t", "action": "A", "args": {"x": ' + str(value) + "}}}"
    )
    return '{"dialog_id": "' + name + '", "turns": [' + turn + "]}"


def lines(*items: object) -> str:
    return "".join((item if isinstance(item, str) else json.dumps(item)) + "\n" for item in items)


class Case:
    def __init__(self, folder: Path, root: Path) -> None:
        self.folder, self.root = folder, root
        self.env = dict(os.environ, PYTHONPATH=str(root), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")

    def write(self, name: str, text: str | bytes) -> Path:
        path = self.folder / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    def cmd(self, *argv: str) -> list[str]:
        return [sys.executable, "-m", "aem_strands.cli", *argv]

    def run(self, *argv: str, stdin: str | None = None, shell: str | None = None) -> subprocess.CompletedProcess[str]:
        if shell is not None:
            return subprocess.run(
                shell, shell=True, capture_output=True, text=True, cwd=self.folder, env=self.env,
                executable="/bin/bash",
            )  # fmt: skip
        return subprocess.run(
            self.cmd(*argv), input=stdin, capture_output=True, text=True, cwd=self.folder, env=self.env, timeout=600
        )


def kept(text: str) -> int:
    """Good records in an output: JSONL or a JSON array of dialog results (those with ``test_pass``)."""
    text = text.strip()
    if not text:
        return 0
    try:
        data = json.loads(text)
        rows = data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        rows = []
        for line in text.split("\n"):
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return sum(1 for r in rows if isinstance(r, dict) and "test_pass" in r)


def seen(done: subprocess.CompletedProcess[str]) -> str:
    notes = []
    if "Traceback" in done.stderr:
        notes.append(f"traceback ({done.stderr.count(chr(10))} lines)")
    elif done.stderr.strip():
        notes.append(done.stderr.strip().splitlines()[-1][:110])
    return "; ".join(notes)


def score_case(odd_text: str) -> Callable[[Case], tuple[int, str, str]]:
    def run(c: Case) -> tuple[int, str, str]:
        path = c.write("set.jsonl", lines(good("a"), odd_text, good("b")))
        done = c.run("score", str(path), "--scorer", "exact")
        return done.returncode, f"{kept(done.stdout)}/2", seen(done)

    return run


def out_is_input(c: Case) -> tuple[int, str, str]:
    path = c.write("v.json", json.dumps([good("a")]))
    done = c.run("score", str(path), "--scorer", "exact", "--out", str(path))
    survived = "test_pass" not in path.read_text(encoding="utf-8")
    return done.returncode, "-", ("input kept" if survived else "INPUT OVERWRITTEN") + "; " + seen(done)


def out_unwritable(target: str) -> Callable[[Case], tuple[int, str, str]]:
    def run(c: Case) -> tuple[int, str, str]:
        path = c.write("v.jsonl", lines(good("a"), good("b")))
        (c.folder / "ro").mkdir()
        (c.folder / "adir").mkdir()
        os.chmod(c.folder / "ro", 0o500)
        done = c.run("score", str(path), "--scorer", "exact", "--out", target)
        os.chmod(c.folder / "ro", 0o700)
        note = "; running as root: the folder is writable" if "ro/" in target and os.geteuid() == 0 else ""
        return done.returncode, "0/2", seen(done) + note

    return run


def head_one(c: Case) -> tuple[int, str, str]:
    path = c.write("many.jsonl", lines(*(good(f"d{i}") for i in range(3000))))
    done = c.run(shell=f"set -o pipefail; {' '.join(c.cmd('score', str(path), '--scorer', 'exact'))} | head -1")
    return done.returncode, "1 shown", seen(done) or "quiet"


def interrupted(c: Case) -> tuple[int, str, str]:
    path = c.write("many.jsonl", lines(*(good(f"d{i}") for i in range(20000))))
    out = c.folder / "out.jsonl"
    proc = subprocess.Popen(
        c.cmd("score", str(path), "--scorer", "exact", "--out", str(out)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=c.folder, env=c.env,
    )  # fmt: skip
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:  # until some record is written (a streaming writer), or 40 s
        partial = [p for p in c.folder.iterdir() if p.name.startswith(".out.jsonl")]
        if any(p.stat().st_size for p in partial) or proc.poll() is not None:
            break
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    text = out.read_text(encoding="utf-8") if out.exists() else ""
    done = subprocess.CompletedProcess(proc.args, proc.returncode, "", err)
    return proc.returncode, f"{kept(text)} of 20000 kept", seen(done)


def table_escape(c: Case) -> tuple[int, str, str]:
    path = c.write("t.jsonl", lines({**GOOD, "dialog_id": "x\rFAKE: PASS \x1b[2K"}))
    done = c.run("score", str(path), "--scorer", "exact", "--format", "table")
    raw = "\r" in done.stdout or "\x1b" in done.stdout
    return done.returncode, f"{done.stdout.count('PASS') and 1}/1", "RAW control chars" if raw else "escaped"


def suffix_case(name: str, via_stdin: bool = False, dash: bool = False) -> Callable[[Case], tuple[int, str, str]]:
    def run(c: Case) -> tuple[int, str, str]:
        text = lines(good("a"), good("b"))
        if via_stdin:
            done = c.run("score", "-" if dash else "/dev/stdin", "--scorer", "exact", stdin=text)
        else:
            done = c.run("score", str(c.write(name, text)), "--scorer", "exact")
        return done.returncode, f"{kept(done.stdout)}/2", seen(done)

    return run


def message_case(text: str, name: str = "set.json", given: int = 1) -> Callable[[Case], tuple[int, str, str]]:
    def run(c: Case) -> tuple[int, str, str]:
        done = c.run("score", str(c.write(name, text)), "--scorer", "exact")
        return done.returncode, f"{kept(done.stdout)}/{given}", seen(done)

    return run


def binary_thresholds(c: Case) -> tuple[int, str, str]:
    path = c.write("v.jsonl", lines(good("a")))
    done = c.run("score", str(path), "--scorer", "exact", "--thresholds", str(c.write("t.json", b"\xff\xfe\x00bin")))
    return done.returncode, f"{kept(done.stdout)}/1", seen(done)


def calibrate_case(rows: list[dict[str, object]] | bytes) -> Callable[[Case], tuple[int, str, str]]:
    def run(c: Case) -> tuple[int, str, str]:
        pairs = c.write("p.jsonl", rows if isinstance(rows, bytes) else lines(*rows))
        config = c.folder / "cfg.json"
        done = c.run("calibrate", "--pairs", str(pairs), "--scorer", "exact", "--write-config", str(config))
        wrote = json.loads(config.read_text())["thresholds"]["argument"] if config.exists() else None
        return done.returncode, "-", f"wrote argument {wrote}" if wrote is not None else seen(done)

    return run


def compare_case(text: str, n_in: int) -> Callable[[Case], tuple[int, str, str]]:
    def run(c: Case) -> tuple[int, str, str]:
        done = c.run("compare", "--pairs", str(c.write("p.jsonl", text)), "--scorer", "exact")
        out = [line for line in done.stdout.split("\n") if line]
        return done.returncode, f"{len(out)} lines for {n_in} in", seen(done)

    return run


def cases() -> dict[str, Callable[[Case], tuple[int, str, str]]]:
    ab = lines(good("a"), good("b"))
    return {
        "--out equal to the input": out_is_input,
        "integer with 5,000 digits": score_case(odd("big", "9" * 5000)),
        "nesting depth 1,000": score_case(odd("deep", "[" * 1000 + "]" * 1000)),
        'lone surrogate "\\ud800"': score_case(odd("sur", '"\\ud800"')),
        "raw U+2028 inside a string (JSONL)": score_case(odd("ls", '"a\u2028b"')),
        "NaN in metadata": score_case('{"dialog_id": "nan", "metadata": {"x": NaN}, "turns": []}'.replace(
            '"turns": []', '"turns": ' + json.dumps(GOOD["turns"]))),
        "--out in a missing folder": out_unwritable("missing/out.jsonl"),
        "--out in a read-only folder": out_unwritable("ro/out.jsonl"),
        "--out is a directory": out_unwritable("adir"),
        "score | head -1": head_one,
        "Ctrl-C (SIGINT) mid-run, --out": interrupted,
        "\\r and ANSI in dialog_id, table": table_escape,
        ".ndjson file": suffix_case("set.ndjson"),
        ".JSONL file": suffix_case("set.JSONL"),
        "JSONL on stdin (/dev/stdin)": suffix_case("", via_stdin=True),
        "'-' reads stdin": suffix_case("", via_stdin=True, dash=True),
        "dialog_id a number (JSON array)": message_case(json.dumps([good("ok"), {**GOOD, "dialog_id": 7}])),
        "non-object element (JSON array)": message_case(json.dumps([good("ok"), 5])),
        "unterminated string (3rd line)": message_case(ab + '{"dialog_id": "x\n', "set.jsonl", 2),
        "binary thresholds file": binary_thresholds,
        "calibrate: all positive": calibrate_case([{"gold": "a", "predicted": "a", "label": True}] * 4),
        "calibrate: all negative": calibrate_case([{"gold": "a", "predicted": "b", "label": False}] * 4),
        "calibrate: one pair": calibrate_case([{"gold": "a", "predicted": "b", "label": True}]),
        "calibrate: binary pairs file": calibrate_case(b"\xff\xfe\x00\x01"),
        "compare: U+2028 inside a value": compare_case(
            lines({"gold": "a\u2028b", "predicted": "a"}, {"gold": 1, "predicted": 1}, {"gold": "x", "predicted": "x"})
            .replace("\\u2028", "\u2028"), 3),
        "compare: lone surrogate": compare_case(
            lines({"gold": "a", "predicted": "a"}) + '{"gold": "\\ud800", "predicted": "x"}\n', 2),
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--only", help="run the cases whose name contains this text")
    args = parser.parse_args()
    print("| case | exit | records kept | seen |\n|---|---|---|---|")
    for name, case in cases().items():
        if args.only and args.only not in name:
            continue
        with tempfile.TemporaryDirectory() as folder:
            try:
                code, records, notes = case(Case(Path(folder), args.root.resolve()))
            except Exception as error:  # a measurement must not stop the table
                code, records, notes = -1, "-", f"measurement failed: {type(error).__name__}: {error}"
        print(f"| {name} | {code} | {records} | {notes.replace('|', '/')} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
