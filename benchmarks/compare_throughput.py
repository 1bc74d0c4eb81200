"""Throughput of ``aem-strands compare --pairs`` on 10,000 argument pairs.

Builds 10,000 argument pairs from ``data/calibration/arguments.*.jsonl`` (every labelled pair, then
gold values re-paired with the predicted value of the next pair until 10,000 lines: realistic values,
mostly distinct), writes them as ``{"gold", "predicted", "kind": "argument"}`` JSONL, and runs the
real command line on them, once per scorer. The command prints pairs/s and how many distinct strings
the semantic stage embedded (each distinct string is embedded once per run)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/compare_throughput.py [--pairs 10000] [--scorer embedding exact]

The time includes parsing, normalisation and the model, not process start-up or model loading
(``compare`` times ``compare_many`` only); wall time of the whole process is printed too.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "calibration"


def build_pairs(count: int) -> list[dict[str, object]]:
    rows = []
    for part in ("calibration", "heldout"):
        with open(DATA / f"arguments.{part}.jsonl", encoding="utf-8") as handle:
            rows.extend(json.loads(line) for line in handle if line.strip())
    pairs = [{"gold": r["gold"], "predicted": r["predicted"], "kind": "argument"} for r in rows]
    shift = 1
    while len(pairs) < count:
        for index, row in enumerate(rows):
            if len(pairs) >= count:
                break
            other = rows[(index + shift) % len(rows)]
            pairs.append({"gold": row["gold"], "predicted": other["predicted"], "kind": "argument"})
        shift += 1
    return pairs[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--scorer", nargs="+", default=["embedding", "exact"])
    args = parser.parse_args()
    pairs = build_pairs(args.pairs)
    distinct = len({p["gold"] for p in pairs} | {p["predicted"] for p in pairs})
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pairs.jsonl"
        path.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in pairs), encoding="utf-8")
        print(f"{len(pairs)} argument pairs, {distinct} distinct strings")
        for scorer in args.scorer:
            command = [sys.executable, "-m", "aem_strands.cli", "compare", "--pairs", str(path), "--scorer", scorer]
            started = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            wall = time.perf_counter() - started
            summary = [line for line in done.stderr.splitlines() if "pairs/s" in line]
            decided = [json.loads(line) for line in done.stdout.splitlines()]
            by_method: dict[str, int] = {}
            for record in decided:
                by_method[record["method"]] = by_method.get(record["method"], 0) + 1
            print(f"--scorer {scorer}: {summary[-1] if summary else done.stderr.strip()[-300:]}")
            print(f"  process wall time {wall:.1f} s (exit {done.returncode}); decided by method: {by_method}")


if __name__ == "__main__":
    main()
