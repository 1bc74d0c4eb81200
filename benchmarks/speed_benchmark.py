"""Per-turn cost of the deterministic pipeline on SGD gold vs a perturbed copy: API and command line.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/speed_benchmark.py [--sgd-dir DIR] [--limit N]
        [--repeat R] [--scorer exact|embedding] [--no-cli]

Each perturbed dialog is written in the unpaired form (``{"dialog_id", "metadata", "gold", "predicted"}``),
so both paths align it first. Figures, each the best of ``--repeat`` runs, in µs per gold turn:

- **API, align + evaluate**: ``evaluate_dialogs`` on the unpaired JSON objects (validation, alignment,
  judging, attribution, composition);
- **API, pre-aligned**: ``evaluate_dialogs`` on the already paired ``Dialog`` objects;
- **CLI end to end**: ``aem-strands score FILE --format jsonl --out OUT`` as a subprocess (reading,
  scoring, writing), with and without the start-up of a process that scores one dialog.

The machine is shared: the load average is printed before and after; compare figures taken side by side.
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
from dataclasses import replace
from pathlib import Path
from typing import Any

from aem_bench import load_sgd_dialogs, perturb_dialogs

from aem_strands import Dialog, evaluate_dialogs
from aem_strands.types import ActionCall, JsonValue, TurnContent

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SGD_DIR = REPO_ROOT.parent / "shared" / "external_data" / "sgd"


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


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def cli_seconds(path: Path, scorer: str, repeat: int) -> float:
    command = [sys.executable, "-m", "aem_strands.cli", "score", str(path), "--scorer", scorer, "--format", "jsonl"]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.jsonl"

        def run() -> None:
            done = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, check=False)
            if done.returncode not in (0, 1):
                raise SystemExit(f"aem-strands score failed ({done.returncode}): {done.stderr[-2000:]}")

        return best_of(repeat, run)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sgd-dir", type=Path, default=DEFAULT_SGD_DIR)
    parser.add_argument("--limit", type=int, default=None, help="first N dialogs (default all)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is kept (default 3)")
    parser.add_argument("--scorer", choices=("exact", "embedding"), default="exact")
    parser.add_argument("--no-cli", action="store_true", help="API figures only")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"load average at start (1/5/15 min): {load_average()}")
    gold = load_sgd_dialogs(args.sgd_dir, args.limit)
    perturbed = perturb_dialogs(gold, seed=0, rate=0.1)
    objects = [unpaired(d) for d in perturbed]
    paired = [replace(d, metadata={}) for d in perturbed]
    turns = sum(len(d.turns) for d in perturbed)
    print(f"{len(perturbed)} dialogs, {turns} gold turns, scorer {args.scorer}, best of {args.repeat}")

    def per_turn(seconds: float) -> str:
        return f"{seconds / turns * 1e6:8.1f} µs per gold turn ({seconds:.2f} s)"

    aligned = best_of(args.repeat, lambda: evaluate_dialogs(objects, scorer=args.scorer))
    print(f"API align + evaluate   {per_turn(aligned)}")
    pre_aligned = best_of(args.repeat, lambda: evaluate_dialogs(paired, scorer=args.scorer))
    print(f"API pre-aligned        {per_turn(pre_aligned)}")
    if not args.no_cli:
        with tempfile.TemporaryDirectory() as folder:
            data, one = Path(folder) / "sgd.jsonl", Path(folder) / "one.jsonl"
            data.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
            one.write_text(json.dumps(objects[0]) + "\n", encoding="utf-8")
            whole = cli_seconds(data, args.scorer, args.repeat)
            start_up = cli_seconds(one, args.scorer, args.repeat)
        print(f"CLI end to end         {per_turn(whole)}")
        print(f"CLI minus start-up     {per_turn(whole - start_up)} (start-up + one dialog {start_up:.2f} s)")
    print(f"load average at end (1/5/15 min): {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
