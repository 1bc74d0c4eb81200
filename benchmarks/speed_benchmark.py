"""Per-turn cost of the deterministic pipeline on SGD gold vs a perturbed copy: API and command line.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/speed_benchmark.py [--sgd-dir DIR] [--limit N]
        [--repeat R] [--scorer exact|embedding] [--no-cli] [--workers N ...] [--baseline DIR ...]

Each perturbed dialog is written in the unpaired form (``{"dialog_id", "metadata", "gold", "predicted"}``),
so both paths align it first. Figures, each the best of ``--repeat`` runs, in µs per gold turn:

- **API, first run (cold)**: the first ``evaluate_dialogs`` over the unpaired JSON objects in a fresh process:
  lazily loaded tables (places, units) and the per-value and per-reply caches start empty, as in a real run;
  the later figures are the best of ``--repeat`` runs after it, so those caches are warm there;
- **API, align + evaluate**: ``evaluate_dialogs`` on the unpaired JSON objects (validation, alignment,
  judging, attribution, composition);
- **API, pre-aligned**: ``evaluate_dialogs`` on the same dialogs loaded and aligned beforehand (``Dialog`` objects);
- **CLI end to end**: ``aem-strands score FILE --format jsonl --out OUT`` as a subprocess (``python -m
  aem_strands``, what the ``aem-strands`` script runs: reading, scoring, writing), with and without the start-up
  of a process that scores one dialog; once per ``--workers`` count (default 1 and 2), with the speedup over one
  process. CPU figures include the worker processes: this process adopts orphaned descendants (Linux
  ``PR_SET_CHILD_SUBREAPER``) and reaps them, so workers forked from a fork server that outlives the command are
  counted too; where that is not possible the figure says so.

``--baseline DIR`` (a checkout of another commit, e.g. ``git worktree add /tmp/old <commit>``) measures that
code too, in the same run and on the same data, interleaved with this checkout's, so the two are compared side
by side under the same load. API figures run in a child process per checkout (the package it imports is the
checkout's). The machine is shared: the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aem_bench import load_sgd_dialogs, perturb_dialogs

from aem_strands import Dialog
from aem_strands.types import ActionCall, JsonValue, TurnContent

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SGD_DIR = REPO_ROOT.parent / "shared" / "external_data" / "sgd"


def require_sgd(folder: Path, program: str) -> None:
    """Return when ``folder/test`` holds SGD dialogues; else say what is missing and exit: 0 (skipped) when the
    default folder beside the checkout is absent, 2 when the folder given by ``--sgd-dir`` is not one."""
    test = folder / "test"
    if test.is_dir() and any(p.name.endswith((".json", ".json.gz")) for p in test.glob("dialogues_*")):
        return
    given = folder.resolve() != DEFAULT_SGD_DIR.resolve()
    print(f"{program}: no SGD dialogues in {test} (test/dialogues_*.json of the Schema-Guided Dialogue data set). "
          f"Pass --sgd-dir DIR, or put the data at {DEFAULT_SGD_DIR} (../shared/external_data/sgd beside this "
          f"checkout). {'Nothing measured' if given else 'Skipped: nothing measured'}.", file=sys.stderr)  # fmt: skip
    raise SystemExit(2 if given else 0)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _content(content: TurnContent | None) -> dict[str, JsonValue]:
    if isinstance(content, ActionCall):
        out: dict[str, JsonValue] = {"turn": "Tool", "tool_id": content.tool_id, "action": content.action}
        out["args"] = content.args
        if content.observation is not None:
            out["observation"] = content.observation
        return out
    assert content is not None  # SGD dialogs pair every turn
    return {"turn": "Agent", "response": content.response}


def unpaired(dialog: Dialog) -> dict[str, Any]:
    """``dialog`` as an unpaired object: its gold and predicted turns as two lists."""
    return {
        "dialog_id": dialog.dialog_id,
        "gold": [_content(t.gold) for t in dialog.turns],
        "predicted": [_content(t.predicted) for t in dialog.turns],
    }


@dataclass(frozen=True, order=True)
class Seconds:
    """One run's wall-clock seconds and the CPU seconds it used (its child processes' included)."""

    wall: float
    cpu: float

    def __sub__(self, other: Seconds) -> Seconds:
        return Seconds(self.wall - other.wall, self.cpu - other.cpu)


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def best_of(repeat: int, run: Callable[[], object]) -> Seconds:
    """The fastest of ``repeat`` runs (by wall clock)."""
    times = []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), _cpu()
        run()
        times.append(Seconds(time.perf_counter() - start, _cpu() - cpu))
    return min(times)


def _env(root: Path) -> dict[str, str]:
    path = os.pathsep.join([str(root), str(root / "benchmarks"), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


_PR_SET_CHILD_SUBREAPER = 36


def adopt_descendants() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux), so their CPU time reaches
    ``RUSAGE_CHILDREN`` once ``reap_orphans`` waits for them; whether that worked."""
    try:
        return bool(ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def reap_orphans() -> None:
    """Wait for every child left (descendants adopted after their parent exited, e.g. a fork server)."""
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def cli_seconds(root: Path, path: Path, scorer: str, repeat: int, workers: int = 1) -> Seconds:
    command = [sys.executable, "-m", "aem_strands", "score", str(path), "--scorer", scorer, "--format", "jsonl"]
    if workers > 1:
        command += ["--workers", str(workers)]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.jsonl"

        def run() -> None:
            done = subprocess.run(
                [*command, "--out", str(out)], capture_output=True, text=True, check=False, cwd=root, env=_env(root)
            )
            reap_orphans()
            if done.returncode not in (0, 1):
                raise SystemExit(f"aem-strands score failed ({done.returncode}): {done.stderr[-2000:]}")

        return best_of(repeat, run)


_API_CHILD = """
import json, sys, time
from dataclasses import replace
from aem_strands import evaluate_dialogs
from aem_strands.load import iter_records
path, scorer, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(path, encoding="utf-8") as handle:
    objects = [json.loads(line) for line in handle]
paired = [replace(r.dialog, metadata={}) for r in iter_records(path) if r.dialog is not None]
def best(run):
    times = []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time(); run()
        times.append((time.perf_counter() - start, time.process_time() - cpu))
    return min(times)
start, cpu = time.perf_counter(), time.process_time()
evaluate_dialogs(objects, scorer=scorer)  # the first run: lazily loaded tables and per-value caches are cold
cold = (time.perf_counter() - start, time.process_time() - cpu)
aligned = best(lambda: evaluate_dialogs(objects, scorer=scorer))
print(json.dumps([cold, aligned, best(lambda: evaluate_dialogs(paired, scorer=scorer))]))
"""


def api_seconds(root: Path, path: Path, scorer: str, repeat: int) -> tuple[Seconds, Seconds, Seconds]:
    """Seconds of ``evaluate_dialogs`` (align + evaluate, then pre-aligned) in a child process importing ``root``'s
    code."""
    done = subprocess.run(
        [sys.executable, "-c", _API_CHILD, str(path), scorer, str(repeat)],
        capture_output=True, text=True, check=False, cwd=root, env=_env(root),
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"API run failed under {root} ({done.returncode}): {done.stderr[-2000:]}")
    cold, aligned, pre_aligned = json.loads(done.stdout.splitlines()[-1])
    return Seconds(*cold), Seconds(*aligned), Seconds(*pre_aligned)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sgd-dir", type=Path, default=DEFAULT_SGD_DIR)
    parser.add_argument("--limit", type=int, default=None, help="first N dialogs (default all)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is kept (default 3)")
    parser.add_argument("--scorer", choices=("exact", "embedding"), default="exact")
    parser.add_argument("--no-cli", action="store_true", help="API figures only")
    parser.add_argument(
        "--workers", type=int, nargs="+", default=[1, 2], help="CLI worker counts to measure (default 1 2)"
    )
    parser.add_argument(
        "--baseline", type=Path, nargs="*", default=[], help="other checkouts to measure side by side with this one"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"load average at start (1/5/15 min): {load_average()}")
    if not args.no_cli and not adopt_descendants():
        print("CLI CPU figures leave out worker processes that outlive the command (no PR_SET_CHILD_SUBREAPER here)")
    require_sgd(args.sgd_dir, "speed_benchmark")
    gold = load_sgd_dialogs(args.sgd_dir, args.limit)
    perturbed = perturb_dialogs(gold, seed=0, rate=0.1)
    objects = [unpaired(d) for d in perturbed]
    turns = sum(len(d.turns) for d in perturbed)
    roots = [REPO_ROOT, *(b.resolve() for b in args.baseline)]
    names = {root: "this checkout" if root == REPO_ROOT else str(root) for root in roots}
    print(f"{len(perturbed)} dialogs, {turns} gold turns, scorer {args.scorer}, best of {args.repeat}")

    def per_turn(seconds: Seconds) -> str:
        wall, cpu = seconds.wall / turns * 1e6, seconds.cpu / turns * 1e6
        return f"{wall:8.1f} µs per gold turn ({seconds.wall:.2f} s; CPU {cpu:.1f} µs per gold turn)"

    figures: dict[tuple[Path, str], Seconds] = {}
    with tempfile.TemporaryDirectory() as folder:
        data, one = Path(folder) / "sgd.jsonl", Path(folder) / "one.jsonl"
        data.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
        one.write_text(json.dumps(objects[0]) + "\n", encoding="utf-8")
        for root in roots:  # API, then CLI, each checkout in turn: side by side under the same load
            api = api_seconds(root, data, args.scorer, args.repeat)
            figures[root, "cold"], figures[root, "aligned"], figures[root, "pre_aligned"] = api
        if not args.no_cli:
            for root in roots:
                figures[root, "start_up"] = cli_seconds(root, one, args.scorer, args.repeat)
            for workers in args.workers:
                for root in roots:
                    figures[root, f"cli_{workers}"] = cli_seconds(root, data, args.scorer, args.repeat, workers)
    for root in roots:
        print(f"== {names[root]}")
        print(f"API align + evaluate, first run in the process (cold) {per_turn(figures[root, 'cold'])}")
        print(f"API align + evaluate   {per_turn(figures[root, 'aligned'])}")
        print(f"API pre-aligned        {per_turn(figures[root, 'pre_aligned'])}")
        if args.no_cli:
            continue
        start_up = figures[root, "start_up"]
        for workers in args.workers:
            whole = figures[root, f"cli_{workers}"]
            speedup = figures[root, f"cli_{args.workers[0]}"].wall / whole.wall
            print(
                f"CLI end to end, --workers {workers}: {per_turn(whole)}, {speedup:.2f}x of --workers {args.workers[0]}"
            )
            print(f"  minus start-up       {per_turn(whole - start_up)} (start-up + one dialog {start_up.wall:.2f} s)")
    print(f"load average at end (1/5/15 min): {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
