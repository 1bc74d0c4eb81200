"""Write every turn verdict of the SGD gold-vs-perturbed set and of the bundled examples, for before/after diffs.

Usage (from the repository root; run it on two commits and diff the files)::

    .venv/bin/python benchmarks/verdict_snapshot.py OUT.jsonl [--sgd-dir DIR] [--scorer exact|embedding]
    .venv/bin/python benchmarks/verdict_snapshot.py --diff BEFORE.jsonl AFTER.jsonl

One line per dialog: its id, score, ``test_pass`` and, per turn, the verdict, own reason, role and the
turn a cascade inherits from. ``--diff`` prints the dialogs whose line changed and exits 1 if any did.
Used to show that a refactoring (issue 13) or a fast path (issue 12) leaves every verdict as it was.
``--regression N OUT`` writes the smaller snapshot ``tests/test_speed_regression.py`` compares against.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from aem_bench import load_sgd_dialogs, perturb_dialogs

from aem_strands import DialogResult, evaluate_dialogs, load_dialogs
from aem_strands.types import ActionCall, Dialog, JsonValue, Reply, TurnContent

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SGD_DIR = ROOT.parent / "shared" / "external_data" / "sgd"


def _line(source: str, result: DialogResult) -> str:
    turns = [
        {
            "turn_no": t.turn.turn_no,
            "verdict": t.verdict.verdict.value,
            "reason": t.verdict.own_reason.value if t.verdict.own_reason else None,
            "role": t.attribution.role.value if t.attribution else None,
            "caused_by": t.attribution.caused_by if t.attribution else None,
        }
        for t in result.turns
    ]
    record = {"source": source, "dialog_id": result.dialog_id, "score": result.score, "test_pass": result.test_pass}
    return json.dumps({**record, "turns": turns}, sort_keys=True)


def snapshot(sgd_dir: Path, scorer: str) -> Iterator[str]:
    for path in sorted((ROOT / "examples" / "data").glob("*.json*")):
        loaded = load_dialogs(path)
        for result in evaluate_dialogs(loaded.dialogs, scorer=scorer):
            yield _line(path.name, result)
    if sgd_dir.is_dir():
        perturbed = perturb_dialogs(load_sgd_dialogs(sgd_dir), seed=0, rate=0.1)
        for result in evaluate_dialogs(perturbed, scorer=scorer):
            yield _line("sgd", result)
    else:
        print(f"note: {sgd_dir} not found; SGD part skipped", file=sys.stderr)


def _dropped_middle(dialog: Dialog) -> dict[str, JsonValue]:
    """``dialog`` in the unpaired form with its middle predicted turn left out, so scoring must align it."""

    def content(turn: TurnContent | None) -> dict[str, JsonValue]:
        if isinstance(turn, ActionCall):
            return {"turn": "Tool", "tool_id": turn.tool_id, "action": turn.action, "args": turn.args}
        assert isinstance(turn, Reply)  # SGD dialogs pair every turn
        return {"turn": "Agent", "response": turn.response}

    predicted = [content(t.predicted) for t in dialog.turns]
    del predicted[len(predicted) // 2]
    return {"dialog_id": dialog.dialog_id, "gold": [content(t.gold) for t in dialog.turns], "predicted": predicted}


def regression_lines(sgd_dir: Path, limit: int) -> Iterator[str]:
    """Verdicts of the first ``limit`` SGD dialogs perturbed (seed 0, rate 0.3), paired and, with their middle
    predicted turn dropped, unpaired (aligned on load; the alignment's pairs are part of the line)."""
    perturbed = perturb_dialogs(load_sgd_dialogs(sgd_dir, limit), seed=0, rate=0.3)
    for result in evaluate_dialogs(perturbed, scorer="exact"):
        yield _line("sgd-paired", result)
    for result in evaluate_dialogs([_dropped_middle(d) for d in perturbed], scorer="exact"):
        alignment = result.metadata.get("alignment")
        pairs = alignment.get("pairs") if isinstance(alignment, dict) else None
        yield json.dumps({**json.loads(_line("sgd-unpaired", result)), "pairs": pairs}, sort_keys=True)


def _keyed(path: Path) -> dict[tuple[str, str, int], str]:
    """Lines by (source, dialog id, occurrence): dialogs added to or removed from the inputs shift nothing."""
    seen: dict[tuple[str, str], int] = {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        name = (record["source"], record["dialog_id"])
        seen[name] = seen.get(name, 0) + 1
        out[(*name, seen[name])] = line
    return out


def diff(before: Path, after: Path) -> int:
    """Dialogs present in both files whose line changed (exit 1 if any); added or removed dialogs are listed apart."""
    old, new = _keyed(before), _keyed(after)
    shared = [key for key in old if key in new]
    changed = [key for key in shared if old[key] != new[key]]
    only_old, only_new = sorted(set(old) - set(new)), sorted(set(new) - set(old))
    print(f"{len(old)} dialogs before, {len(new)} after, {len(shared)} in both, {len(changed)} changed")
    if only_old or only_new:
        print(f"only before: {len(only_old)} {only_old[:5]}; only after: {len(only_new)} {only_new[:5]}")
    for key in changed[:20]:
        print(f"- {old[key]}\n+ {new[key]}")
    return 1 if changed else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--sgd-dir", type=Path, default=DEFAULT_SGD_DIR)
    parser.add_argument("--scorer", choices=("exact", "embedding"), default="exact")
    parser.add_argument("--diff", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument(
        "--regression", type=int, metavar="N",
        help="write the regression snapshot of the first N SGD dialogs (tests/golden/sgd_verdicts.jsonl) instead",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.diff:
        return diff(*args.diff)
    if args.regression is not None and args.out is not None:
        with args.out.open("w", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in regression_lines(args.sgd_dir, args.regression))
        return 0
    if args.out is None:
        parser.error("OUT is required without --diff")
    with args.out.open("w", encoding="utf-8") as out:
        out.writelines(line + "\n" for line in snapshot(args.sgd_dir, args.scorer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
