"""The bad-input matrix of issue 9, measured through the installed command: exit code and records kept per case.

Run against any source tree (``--root``, default: this checkout) to compare before and after a change::

    python benchmarks/fuzz_bad_inputs.py --root /tmp/old-checkout

Each case writes its files to a fresh temporary folder, runs ``python -m aem_strands.cli`` there with the
exact scorer, and prints one Markdown row: case, exit code, good records kept (of those given), and what
else was seen (a traceback, a raw control character in the table, the input overwritten, ...). The cases of
``trace`` and ``trials`` (issue 29: YAML and JSON trace files, policy, gold, tools and thresholds files, outputs
that are inputs, a stopped run, trial counts and names) are in ``fuzz_trace_cases.py``; each is stopped after
its time limit instead of waited on. ``--only trace`` runs those.
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

import fuzz_trace_cases  # beside this file (benchmarks/ is on the path when this runs as a script)

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


# The cache cases (issue 21): one dialog that fails with the embedding scorer (cosine revenue/profit 0.73 < 0.85,
# exit 1), scored once to fill a cache, the cache spoiled, then scored again: the verdict must stay FAIL, nothing
# may crash, and no code in the cache may run (a crafted pickle would create the folder "pwned").
CACHED = {
    "dialog_id": "cached",
    "turns": [{"turn_no": 1, "turn": "Tool",
               "gold_turn": {"tool_id": "t", "action": "A", "args": {"metric": "revenue"}},
               "predict_turn": {"tool_id": "t", "action": "A", "args": {"metric": "profit"}}}],
}  # fmt: skip
_filled: dict[Path, Path] = {}  # checkout root -> a cache filled by one run, copied for each case
VECTOR = 4 + 384 * 4  # a vector record's payload: its dimension, then 384 float32 values


class Marker:
    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.mkdir, (str(self.path),)


def _entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.rglob("*") if p.is_file() and not p.name.startswith("."))


def _records(raw: bytes) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """A pack of aem_strands.cache read as (head, [(key, payload)]): tag line, uint32 count, (key, uint32 length)
    rows, then per record a SHA-256 of key and payload and the payload."""
    import struct

    tag = raw[: raw.index(b"\n") + 1]
    (count,) = struct.unpack_from("<I", raw, len(tag))
    rows = [struct.unpack_from("<32sI", raw, len(tag) + 4 + 36 * i) for i in range(count)]
    offset, records = len(tag) + 4 + 36 * count, []
    for key, length in rows:
        records.append((key, raw[offset + 32 : offset + length]))
        offset += length
    return tag, records


def _pack(tag: bytes, records: list[tuple[bytes, bytes]]) -> bytes:
    """A well-formed pack: every checksum right."""
    import hashlib
    import struct

    table = b"".join(struct.pack("<32sI", key, 32 + len(payload)) for key, payload in records)
    body = b"".join(hashlib.sha256(key + payload).digest() + payload for key, payload in records)
    return tag + struct.pack("<I", len(records)) + table + body


def spoil_random(cache: Path, marker: Path) -> None:
    for path in _entries(cache):
        path.write_bytes(os.urandom(max(path.stat().st_size, 1)))


def spoil_truncate(cache: Path, marker: Path) -> None:
    for path in _entries(cache):
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def spoil_pickle(cache: Path, marker: Path) -> None:
    import pickle

    for path in [*_entries(cache), cache / "cache.db", cache / "vectors.npy", cache / "vectors.pkl"]:
        path.write_bytes(pickle.dumps(Marker(marker)))


def spoil_copy(cache: Path, marker: Path) -> None:
    """Every vector record holds the first one's values (all strings alike: cosine 1.0), checksums left as they were."""
    packs = [p for p in _entries(cache) if p.suffix == ".pack"]
    first = next(payload for p in packs for _, payload in _records(p.read_bytes())[1] if len(payload) == VECTOR)
    for path in packs:
        raw = path.read_bytes()
        for _, payload in _records(raw)[1]:
            if len(payload) == VECTOR:
                raw = raw.replace(payload, first)
        path.write_bytes(raw)


def spoil_dimension(cache: Path, marker: Path) -> None:
    """Every vector record forged well formed (right checksum) with 10 equal values: a 10-dimension array."""
    import struct

    forged = struct.pack("<I", 10) + struct.pack("<10f", *[0.316] * 10)
    for path in (p for p in _entries(cache) if p.suffix == ".pack"):
        tag, records = _records(path.read_bytes())
        path.write_bytes(_pack(tag, [(k, forged if len(v) == VECTOR else v) for k, v in records]))


def cache_case(spoil: Callable[[Path, Path], None]) -> Callable[[Case], tuple[int, str, str]]:
    def run(c: Case) -> tuple[int, str, str]:
        import atexit
        import shutil

        path = c.write("cached.jsonl", lines(CACHED))
        argv = ("score", str(path), "--scorer", "embedding", "--cache-dir", str(c.folder / "cache"))
        if c.root not in _filled:
            first = c.run(*argv)
            if first.returncode != 1:
                return first.returncode, "-", "filling the cache: " + (seen(first) or "not a FAIL")
            _filled[c.root] = Path(tempfile.mkdtemp()) / "cache"
            atexit.register(shutil.rmtree, _filled[c.root].parent, True)
            shutil.copytree(c.folder / "cache", _filled[c.root])
        else:
            shutil.copytree(_filled[c.root], c.folder / "cache")
        marker = c.folder / "pwned"
        spoil(c.folder / "cache", marker)
        done = c.run(*argv)
        verdicts = [line for line in done.stdout.split("\n") if '"test_pass"' in line]
        verdict = "FAIL kept" if verdicts and all('"test_pass": false' in v for v in verdicts) else "VERDICT CHANGED"
        notes = ["CODE RAN" if marker.exists() else "no code ran", seen(done)]
        return done.returncode, verdict, "; ".join(n for n in notes if n)

    return run


def scored_line(c: Case, name: str = "good") -> str:
    """One ``score`` result record (JSONL text) of a passing dialog, as the command writes it."""
    done = c.run("score", str(c.write("in.jsonl", lines(good(name)))), "--scorer", "exact")
    return done.stdout.strip()


def summary_dialogs(path: Path) -> str:
    """How many dialogs a report's JSON summary counted (``-`` when there is no summary)."""
    try:
        return str(json.loads(path.read_text(encoding="utf-8"))["overall"]["dialogs"])
    except (OSError, ValueError, KeyError):
        return "-"


def report_case(edit: Callable[[dict[str, object]], str]) -> Callable[[Case], tuple[int, str, str]]:
    """``report`` over a good record, ``edit(record)`` (raw JSON text) and another good record."""

    def run(c: Case) -> tuple[int, str, str]:
        record = json.loads(scored_line(c))
        text = lines(record, edit({**record, "dialog_id": "odd"}), {**record, "dialog_id": "b"})
        summary = c.folder / "s.json"
        done = c.run(
            "report", str(c.write("r.jsonl", text)), "--json", str(summary), "--html", str(c.folder / "r.html")
        )
        left = [p.name for p in c.folder.iterdir() if p.name.endswith(".partial")]
        named = next((x for x in done.stderr.splitlines() if "line 2" in x), seen(done))[:110]
        return done.returncode, f"{summary_dialogs(summary)}/2", named + (f"; LEFT {left}" if left else "")

    return run


def report_script_text(c: Case) -> tuple[int, str, str]:
    record = json.loads(scored_line(c, "x<!--<script>"))
    done = c.run("report", str(c.write("r.jsonl", lines(record))), "--html", str(c.folder / "r.html"))
    page = (c.folder / "r.html").read_text(encoding="utf-8") if (c.folder / "r.html").exists() else ""
    data = page.split('id="data">', 1)[-1].split("</script>", 1)[0]
    return (
        done.returncode,
        "-",
        ("RAW '<' in the data block" if "<" in data else "data block escaped") + "; " + seen(done),
    )


def report_labels_disagree(c: Case) -> tuple[int, str, str]:
    results = c.write("r.jsonl", scored_line(c) + "\n")
    labels = c.write("l.jsonl", lines({"dialog_id": "good", "label": "fail"}, {"dialog_id": "x", "label": True}))
    summary = c.folder / "s.json"
    done = c.run(
        "report", str(results), "--labels", str(labels), "--json", str(summary), "--html", str(c.folder / "r.html")
    )
    return done.returncode, f"{summary_dialogs(summary)}/1", seen(done)


def report_escape(c: Case) -> tuple[int, str, str]:
    record = json.loads(scored_line(c))
    nasty = "x\x1b]0;title\x07\x1b[2J"
    done = c.run(
        "report",
        str(
            c.write(
                "r.jsonl",
                lines(
                    {**record, "dialog_id": nasty, "test_pass": False},
                    {"dialog_id": nasty, "error": {"message": nasty}},
                ),
            )
        ),
    )
    raw = "\x1b" in done.stdout + done.stderr or "\x07" in done.stdout + done.stderr
    return done.returncode, "-", "RAW control chars" if raw else "escaped"


def report_output_is_input(flag: str) -> Callable[[Case], tuple[int, str, str]]:
    def run(c: Case) -> tuple[int, str, str]:
        results = c.write("r.jsonl", scored_line(c) + "\n")
        labels = c.write("l.jsonl", lines({"dialog_id": "good", "label": True}))
        target = labels if flag == "--json" else results
        before = target.read_bytes()
        done = c.run("report", str(results), "--labels", str(labels), flag, str(target))
        kept_input = target.read_bytes() == before
        return done.returncode, "-", ("input kept" if kept_input else "INPUT OVERWRITTEN") + "; " + seen(done)

    return run


def interrupted_report(c: Case) -> tuple[int, str, str]:
    record = json.loads(scored_line(c))
    text = "".join(json.dumps({**record, "dialog_id": f"d{i}"}) + "\n" for i in range(60000))
    path = c.write("many.jsonl", text)
    proc = subprocess.Popen(
        c.cmd("report", str(path), "--json", str(c.folder / "s.json"), "--html", str(c.folder / "r.html")),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=c.folder, env=c.env,
    )  # fmt: skip
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and proc.poll() is None:  # until the outputs are open
        if any(p.name.endswith(".partial") for p in c.folder.iterdir()):
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    left = sorted(p.name for p in c.folder.iterdir() if p.name.endswith(".partial") or p.name in ("s.json", "r.html"))
    done = subprocess.CompletedProcess(proc.args, proc.returncode, "", err)
    return proc.returncode, "-", f"left {left}" if left else "nothing left behind; " + seen(done)


def compare_out_is_input(c: Case) -> tuple[int, str, str]:
    pairs = c.write("p.jsonl", lines({"gold": "a", "predicted": "a"}))
    before = pairs.read_bytes()
    done = c.run("compare", "--pairs", str(pairs), "--scorer", "exact", "--out", str(pairs))
    return (
        done.returncode,
        "-",
        ("input kept" if pairs.read_bytes() == before else "INPUT OVERWRITTEN") + "; " + seen(done),
    )


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
        "compare: integer with 5,000 digits": compare_case(
            lines({"gold": 1, "predicted": 1}) + '{"gold": ' + "9" * 5000 + ', "predicted": 1}\n', 2),
        "compare: nesting depth 1,000": compare_case(
            lines({"gold": 1, "predicted": 1}) + '{"gold": ' + "[" * 1000 + "]" * 1000 + ', "predicted": 1}\n', 2),
        "compare: NaN": compare_case(lines({"gold": 1, "predicted": 1}) + '{"gold": NaN, "predicted": 1}\n', 2),
        "compare: --out equal to --pairs": compare_out_is_input,
        "report: turns [1, 2]": report_case(lambda r: json.dumps({**r, "turns": [1, 2]})),
        "report: a count as text": report_case(lambda r: json.dumps({**r, "root_cause_count": "3"})),
        "report: list metadata": report_case(lambda r: json.dumps({**r, "metadata": ["v1"]})),
        "report: integer with 5,000 digits": report_case(
            lambda r: json.dumps({**r, "total_failures": "@"}).replace('"@"', "9" * 5000)),
        "report: nesting depth 1,000": report_case(
            lambda r: json.dumps({**r, "metadata": {"x": 0}}).replace('"x": 0', '"x": ' + "[" * 1000 + "]" * 1000)),
        "report: NaN score": report_case(lambda r: json.dumps(r).replace('"score": 1.0', '"score": NaN')),
        "report: not JSON": report_case(lambda r: '{"dialog_id": "odd", '),
        "report: <!--<script> in a dialog id": report_script_text,
        "report: --labels with a disagreement": report_labels_disagree,
        "report: \\x1b escapes in ids and errors": report_escape,
        "report: --html equal to the results": report_output_is_input("--html"),
        "report: --json equal to --labels": report_output_is_input("--json"),
        "report: SIGTERM mid-run": interrupted_report,
        "cache: random bytes in every entry": cache_case(spoil_random),
        "cache: every entry truncated to half": cache_case(spoil_truncate),
        "cache: crafted pickle in every entry": cache_case(spoil_pickle),
        "cache: one vector copied over the others": cache_case(spoil_copy),
        "cache: 10-value arrays, checksums forged": cache_case(spoil_dimension),
        **fuzz_trace_cases.cases(),
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
