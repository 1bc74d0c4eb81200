"""Cold cost of reading typed values: the first unit parse and the typed reading of every SGD value, fresh process.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/cold_parse_benchmark.py [--sgd-dir DIR] [--baseline DIR ...]

Each figure is measured in a fresh child process per checkout (the package it imports is the checkout's),
checkouts interleaved, so they are compared side by side under the same load:

- **first unit parse**: ``parse_measure("5 kg")`` and, in another process, ``parse_measure("36 km/h")`` (a
  compound unit, which still builds pint's registry);
- **typed values, cold**: ``typed_value`` on every distinct scalar argument value of the SGD gold-vs-perturbed
  set (gold and predicted) and every reply text, with empty caches, then the same again (warm).

The machine is shared: the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from aem_bench import load_sgd_dialogs, perturb_dialogs

from aem_strands.types import ActionCall, JsonValue, Reply

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SGD_DIR = REPO_ROOT.parent / "shared" / "external_data" / "sgd"

_FIRST_UNIT = """
import sys, time
started = time.perf_counter()
from aem_strands.compare.units import parse_measure
imported = time.perf_counter()
measure = parse_measure(sys.argv[1])
done = time.perf_counter()
print(f"{(done - imported) * 1e3:.1f} ms (import {(imported - started) * 1e3:.0f} ms) -> {measure}")
"""

_VALUES = """
import json, sys, time
values = json.load(open(sys.argv[1], encoding="utf-8"))
from aem_strands.compare.settle import typed_value
for run in ("cold", "warm"):
    started = time.perf_counter()
    for value in values:
        typed_value(value)
    seconds = time.perf_counter() - started
    print(f"{run} {seconds * 1e3:.0f} ms ({seconds / len(values) * 1e6:.0f} µs per value)", end="; ")
print(f"{len(values)} values")
"""


def _scalars(value: JsonValue) -> list[JsonValue]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _scalars(v)]
    if isinstance(value, list):
        return [s for v in value for s in _scalars(v)]
    return [value]


def sgd_values(sgd_dir: Path) -> list[JsonValue]:
    """Every distinct scalar argument value and reply text of the SGD gold-vs-perturbed set, in first-seen order."""
    perturbed = perturb_dialogs(load_sgd_dialogs(sgd_dir), seed=0, rate=0.1)
    seen: dict[str, JsonValue] = {}
    for dialog in perturbed:
        for turn in dialog.turns:
            for content in (turn.gold, turn.predicted):
                if isinstance(content, ActionCall):
                    for value in _scalars(content.args):
                        seen.setdefault(json.dumps(value), value)
                elif isinstance(content, Reply):
                    seen.setdefault(json.dumps(content.response), content.response)
    return list(seen.values())


def _run(root: Path, code: str, *args: str) -> str:
    path = os.pathsep.join([str(root), str(root / "benchmarks"), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=root, env=env)
    return done.stdout.strip() if done.returncode == 0 else f"failed: {done.stderr.strip()[-300:]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--sgd-dir", type=Path, default=DEFAULT_SGD_DIR)
    parser.add_argument("--baseline", type=Path, nargs="*", default=[], help="other checkouts, measured side by side")
    args = parser.parse_args()
    roots = [REPO_ROOT, *args.baseline]
    print(f"load average at start (1/5/15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        values_path = Path(folder) / "values.json"
        values_path.write_text(json.dumps(sgd_values(args.sgd_dir), ensure_ascii=False), encoding="utf-8")
        for label, code, extra in (
            ("first unit parse '5 kg'", _FIRST_UNIT, "5 kg"),
            ("first unit parse '36 km/h'", _FIRST_UNIT, "36 km/h"),
            ("typed values of SGD", _VALUES, str(values_path)),
        ):
            print(f"== {label}")
            for root in roots:
                print(f"  {'this checkout' if root == REPO_ROOT else root}: {_run(root, code, extra)}")
    print(f"load average at end (1/5/15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
