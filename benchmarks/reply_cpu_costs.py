"""CPU time of reply comparison per pair, alternating packages, for a machine other jobs share.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/reply_cpu_costs.py [--package DIR ...] [--runs 3] [--limit N]

Times what ``aem-strands compare --pairs ... --scorer exact`` times (``Comparator.compare_many`` over the
reply pairs of ``benchmarks/reply_throughput.py``, in the command's chunks of 1, 2, 4 ... 1024 pairs, the
parser's load included), in a fresh process per run, for this checkout and each ``--package`` (a folder
holding another ``aem_strands``, e.g. an extracted older commit), the packages taking turns. Wall time is
what ``reply_throughput.py`` reports; the process's CPU time (``time.process_time``) is printed beside it,
since on a machine other jobs load the wall time mostly measures them. Medians over ``--runs``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from reply_throughput import reply_pairs

ROOT = Path(__file__).resolve().parents[1]
_RUN = """
import json, sys, time
from aem_strands.compare import Comparator, ComparisonRequest, ExactScorer
from aem_strands.types import ValueKind
pairs = [tuple(json.loads(line)) for line in open(sys.argv[1], encoding="utf-8")]
requests = [ComparisonRequest(g, p, ValueKind.RESPONSE) for g, p in pairs]
comparator = Comparator(ExactScorer())
wall = cpu = 0.0
start, size = 0, 1
while start < len(requests):
    chunk = requests[start : start + size]
    started, started_cpu = time.perf_counter(), time.process_time()
    comparator.compare_many(chunk)
    wall += time.perf_counter() - started
    cpu += time.process_time() - started_cpu
    start, size = start + size, min(2 * size, 1024)
print(json.dumps({"wall": wall, "cpu": cpu}))
"""


def _time_once(package: Path, pairs_file: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": f"{package}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(pairs_file)], capture_output=True, text=True, check=True, env=env, cwd=package
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--package", type=Path, action="append", default=[], help="another aem_strands to time")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=int, help="time only the first N pairs")
    args = parser.parse_args()
    pairs = reply_pairs()[: args.limit]
    packages = [ROOT, *args.package]
    timings: dict[Path, list[dict[str, float]]] = {p: [] for p in packages}
    with tempfile.TemporaryDirectory() as folder:
        pairs_file = Path(folder) / "pairs.jsonl"
        pairs_file.write_text("".join(json.dumps(pair) + "\n" for pair in pairs), encoding="utf-8")
        for _ in range(args.runs):
            for package in packages:
                timings[package].append(_time_once(package, pairs_file))
    print(f"{len(pairs)} reply pairs, {args.runs} runs each (medians; per pair, the parser's load included)")
    for package, runs in timings.items():
        wall = statistics.median(r["wall"] for r in runs) / len(pairs) * 1000
        cpu = statistics.median(r["cpu"] for r in runs) / len(pairs) * 1000
        shown = "this checkout" if package == ROOT else str(package)
        print(f"  {shown}: wall {wall:.3f} ms/pair, CPU {cpu:.3f} ms/pair")


if __name__ == "__main__":
    main()
