"""Peak memory and wall time of ``aem-strands score`` (and of ``iter_evaluate``) for growing inputs.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/stream_benchmark.py [--sizes 1000 100000] [--workers 1]
        [--batch-size N] [--api] [--engine local|ray] [--sgd-dir DIR]

An input of N dialogs is copies of the SGD gold-vs-perturbed set (unpaired form, ids suffixed with the copy
number), written to a temporary JSONL file by a generator. Each size runs in a fresh process; its peak
resident set comes from ``os.wait4`` (that child alone). ``--api`` measures ``iter_evaluate`` over a
generator of the same dialogs in a child process instead of the command line. ``--engine ray`` runs the command
with ``--engine ray`` (a local Ray instance started by the command; Ray Data reads the JSONL file): the peak is
then that of the largest single process of the run that the command waited for (the command itself, or a Ray
process it started and reaped). Streaming holds one batch at a time, so the peak should not grow with N; wall time
should grow linearly.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from aem_bench import load_sgd_dialogs, perturb_dialogs
from speed_benchmark import DEFAULT_SGD_DIR, load_average, require_sgd, unpaired

API_CHILD = """
import json, sys
from aem_strands import EvalOptions
from aem_strands.evaluate import iter_evaluate
def dialogs():
    with open(sys.argv[1], encoding="utf-8") as handle:
        for line in handle:
            yield json.loads(line)
options = EvalOptions(scorer="exact", batch_size=int(sys.argv[2]), workers=int(sys.argv[3]))
print(sum(1 for _ in iter_evaluate(dialogs(), options)))
"""


def copies(objects: list[dict[str, Any]], count: int) -> Iterator[dict[str, Any]]:
    for index in range(count):
        item = objects[index % len(objects)]
        yield {**item, "dialog_id": f"{item['dialog_id']}#{index // len(objects)}"}


def peak_rss_mib(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{command[:4]} exited {code}: {child.stderr.read().decode()[-2000:] if child.stderr else ''}")
    return wall, usage.ru_maxrss / 1024  # KiB on Linux


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sgd-dir", type=Path, default=DEFAULT_SGD_DIR)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 100_000])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--api", action="store_true", help="iter_evaluate in a child process instead of the CLI")
    parser.add_argument("--engine", choices=("local", "ray"), default="local", help="the command's --engine")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    require_sgd(args.sgd_dir, "stream_benchmark")
    objects = [unpaired(d) for d in perturb_dialogs(load_sgd_dialogs(args.sgd_dir), seed=0, rate=0.1)]
    turns_per_copy = sum(len(o["gold"]) for o in objects)
    path = "API iter_evaluate" if args.api else "CLI score"
    setup = f"scorer exact, batch size {args.batch_size}, workers {args.workers}, engine {args.engine}"
    print(f"{path}, {setup}; {len(objects)} SGD dialogs")
    print(f"load average at start (1/5/15 min): {load_average()}")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            data = Path(folder) / f"{size}.jsonl"
            with data.open("w", encoding="utf-8") as out:
                out.writelines(json.dumps(o) + "\n" for o in copies(objects, size))
            if args.api:
                command = [sys.executable, "-c", API_CHILD, str(data), str(args.batch_size), str(args.workers)]
            else:
                command = [sys.executable, "-m", "aem_strands.cli", "score", str(data), "--scorer", "exact"]
                command += ["--format", "jsonl", "--batch-size", str(args.batch_size), "--workers", str(args.workers)]
                command += ["--engine", args.engine]
            wall, rss = peak_rss_mib(command)
            turns = turns_per_copy * size / len(objects)
            rows.append((size, wall, rss))
            line = f"{size:>8} dialogs: wall {wall:8.1f} s ({wall / turns * 1e6:7.1f} µs per gold turn), "
            print(line + f"peak RSS {rss:7.1f} MiB; load {load_average()}", flush=True)
            data.unlink()
    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        growth = last[0] / first[0]
        ratios = f"peak RSS ratio {last[2] / first[2]:.2f}x, wall ratio {last[1] / first[1]:.1f}x"
        print(f"{ratios} for {growth:.0f}x the dialogs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
