"""Alignment cost of order-invariant groups: the same SGD dialogs aligned ordered and order-invariant.

Usage (from the repository root)::

    .venv/bin/python benchmarks/order_invariant_benchmark.py [--sgd-dir DIR] [--limit 200] [--group-size 4]

Each SGD test dialog becomes an unpaired dialog (gold = its turns, predicted = the same contents with
each run of ``--group-size`` adjacent turns reversed, or kept in order with ``--keep-order``).
In the ordered variant nothing is tagged; in the
order-invariant variant each such run is tagged ``OrderInvariant_<n>``. Both are scored with the exact
scorer (alignment, checks, attribution and composition, no model). Prints CPU seconds of each and their
ratio, and how many dialogs pass in each (the invariant variant should pass every dialog).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from aem_bench import load_sgd_dialogs

from aem_strands import evaluate_dialogs
from aem_strands.types import ActionCall, Dialog, Reply, TurnContent

DEFAULT_SGD_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "external_data" / "sgd"


def _turn(content: TurnContent | None, tag: str | None) -> dict[str, Any]:
    if isinstance(content, ActionCall):
        out: dict[str, Any] = {
            "turn": "Tool",
            "tool_id": content.tool_id,
            "action": content.action,
            "args": content.args,
        }
    elif isinstance(content, Reply):
        out = {"turn": "Agent", "response": content.response}
    else:
        raise ValueError("a gold turn without content")
    if tag is not None:
        out["tags"] = [tag]
    return out


def unpaired(dialog: Dialog, size: int, tagged: bool, keep_order: bool = False) -> dict[str, Any]:
    contents = [t.gold for t in dialog.turns]
    gold, predicted = [], []
    for start in range(0, len(contents), size):
        run = contents[start : start + size]
        tag = f"OrderInvariant_{start}" if tagged and len(run) > 1 else None
        gold += [_turn(c, tag) for c in run]
        predicted += [_turn(c, None) for c in (run if keep_order else reversed(run))]
    return {"dialog_id": dialog.dialog_id, "gold": gold, "predicted": predicted}


def timed(dialogs: list[dict[str, Any]]) -> tuple[float, int]:
    start = time.process_time()
    results = evaluate_dialogs(dialogs, scorer="exact")
    return time.process_time() - start, sum(r.test_pass for r in results)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sgd-dir", type=Path, default=DEFAULT_SGD_DIR)
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--group-size", type=int, default=4)
    parser.add_argument("--keep-order", action="store_true", help="predict the gold order (nothing reversed)")
    args = parser.parse_args(argv)
    if not args.sgd_dir.is_dir():
        print(f"SGD data not found at {args.sgd_dir}", file=sys.stderr)
        return 2
    dialogs = load_sgd_dialogs(args.sgd_dir, args.limit)
    turns = sum(len(d.turns) for d in dialogs)
    ordered, ordered_pass = timed([unpaired(d, args.group_size, False, args.keep_order) for d in dialogs])
    invariant, invariant_pass = timed([unpaired(d, args.group_size, True, args.keep_order) for d in dialogs])
    how = "in gold order" if args.keep_order else "reversed"
    print(f"{len(dialogs)} SGD dialogs, {turns} turns, runs of {args.group_size} {how} in the prediction")
    print(f"ordered:         {ordered:7.2f} s CPU, {ordered_pass} dialogs pass")
    print(f"order-invariant: {invariant:7.2f} s CPU, {invariant_pass} dialogs pass")
    print(f"ratio invariant/ordered: {invariant / ordered:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
