"""Where the per-gold-turn cost of the deterministic pipeline goes: the turns that differ from gold against the rest.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 PYTHONPATH=.:benchmarks .venv/bin/python benchmarks/stage_costs.py [--sgd-dir DIR] [--limit N]
        [--repeat R]

The SGD gold-vs-perturbed set of ``speed_benchmark.py`` (same seed and rate) is scored through the API
(``evaluate_dialogs`` on the unpaired JSON objects, ``--scorer exact``) twice over:

- **perturbed**: gold against the perturbed copy, the benchmark itself;
- **gold against gold**: the same dialogs with the predicted side replaced by gold, so no turn differs.

Each is run in a fresh child process: the first run there is *cold* (lazily built tables and per-value caches empty),
then the best of ``--repeat`` *warm* runs. The difference between the two sets is what the turns that differ from
gold cost: their alignment, their comparisons (typed values, reply facts and acts), their verdicts and the
attribution of their failures. It is printed per gold turn (the unit of issue 12's targets) and per differing turn.

For scale, three loops that do no judging at all (plain Python over the same objects, no library code) are timed
too: decoding the JSON lines, walking gold and predicted with one ``==`` and one small record per gold turn, and
encoding one small JSON object per gold turn.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from aem_bench import load_sgd_dialogs, perturb_dialogs
from speed_benchmark import DEFAULT_SGD_DIR, REPO_ROOT, require_sgd, unpaired

_CHILD = """
import json, sys, time
from aem_strands import evaluate_dialogs
path, repeat = sys.argv[1], int(sys.argv[2])
with open(path, encoding="utf-8") as handle:
    objects = [json.loads(line) for line in handle]
def timed():
    start = time.perf_counter(); evaluate_dialogs(objects, scorer="exact"); return time.perf_counter() - start
cold = timed()
print(json.dumps([cold, min(timed() for _ in range(repeat))]))
"""


def api_seconds(path: Path, repeat: int) -> tuple[float, float]:
    """Cold and best warm seconds of ``evaluate_dialogs`` over the objects in ``path``, in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), str(repeat)],
        capture_output=True, text=True, check=False, cwd=REPO_ROOT, env=env,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"API run failed ({done.returncode}): {done.stderr[-2000:]}")
    cold, warm = json.loads(done.stdout.splitlines()[-1])
    return float(cold), float(warm)


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def floors(objects: list[dict[str, Any]], repeat: int) -> dict[str, float]:
    """Seconds of three loops that judge nothing, over the same objects."""
    lines = [json.dumps(o) for o in objects]

    class Record:
        __slots__ = ("gold", "predicted", "same", "turn_no")

        def __init__(self, turn_no: int, gold: object, predicted: object, same: bool) -> None:
            self.turn_no, self.gold, self.predicted, self.same = turn_no, gold, predicted, same

    def walk() -> list[list[Record]]:
        return [
            [Record(n, g, p, g == p) for n, (g, p) in enumerate(zip(o["gold"], o["predicted"], strict=False))]
            for o in objects
        ]

    def encode() -> list[str]:
        pairs = [zip(o["gold"], o["predicted"], strict=False) for o in objects]
        return [json.dumps([{"turn_no": n, "success": g == p} for n, (g, p) in enumerate(z)]) for z in pairs]

    return {
        "decode the JSON lines (json.loads)": best_of(repeat, lambda: [json.loads(line) for line in lines]),
        "walk gold/predicted: one == and one record per turn": best_of(repeat, walk),
        "encode one small JSON object per turn (json.dumps)": best_of(repeat, encode),
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sgd-dir", type=Path, default=DEFAULT_SGD_DIR)
    parser.add_argument("--limit", type=int, default=None, help="first N dialogs (default all)")
    parser.add_argument("--repeat", type=int, default=3, help="warm runs per figure; the best is kept (default 3)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"load average at start (1/5/15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    require_sgd(args.sgd_dir, "stage_costs")
    gold = load_sgd_dialogs(args.sgd_dir, args.limit)
    perturbed = perturb_dialogs(gold, seed=0, rate=0.1)
    objects = [unpaired(d) for d in perturbed]
    same = [{**o, "predicted": o["gold"]} for o in objects]
    turns = sum(len(d.turns) for d in perturbed)
    differing = sum(1 for d in perturbed for t in d.turns if t.gold != t.predicted)
    print(f"{len(objects)} dialogs, {turns} gold turns, {differing} of them differ from gold; exact scorer")
    with tempfile.TemporaryDirectory() as folder:
        paths = {"perturbed": Path(folder) / "perturbed.jsonl", "gold against gold": Path(folder) / "same.jsonl"}
        for path, rows in zip(paths.values(), (objects, same), strict=True):
            path.write_text("".join(json.dumps(o) + "\n" for o in rows), encoding="utf-8")
        seconds = {name: api_seconds(path, args.repeat) for name, path in paths.items()}
    print(f"{'':40s} {'cold':>28s} {'warm':>28s}")

    def cell(value: float) -> str:
        return f"{value / turns * 1e6:7.1f} µs/gold turn ({value:6.2f} s)"

    for name, (cold, warm) in seconds.items():
        print(f"API, {name:35s} {cell(cold):>28s} {cell(warm):>28s}")
    (cold_p, warm_p), (cold_s, warm_s) = seconds["perturbed"], seconds["gold against gold"]
    print(f"{'the differing turns add':40s} {cell(cold_p - cold_s):>28s} {cell(warm_p - warm_s):>28s}")
    if differing:
        per = [(p - s) / differing * 1e6 for p, s in ((cold_p, cold_s), (warm_p, warm_s))]
        print(f"{'  per differing turn':40s} {per[0]:18.1f} µs {per[1]:21.1f} µs")
    print("loops that judge nothing (plain Python, same objects):")
    for name, value in floors(objects, args.repeat).items():
        print(f"  {name:55s} {value / turns * 1e6:6.2f} µs/gold turn")
    print(f"load average at end (1/5/15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
