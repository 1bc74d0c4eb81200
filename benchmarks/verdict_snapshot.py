"""Write every turn verdict of the SGD gold-vs-perturbed set and of the bundled examples, for before/after diffs.

Usage (from the repository root; run it on two commits and diff the files)::

    .venv/bin/python benchmarks/verdict_snapshot.py OUT.jsonl [--sgd-dir DIR] [--scorer exact|embedding]
    .venv/bin/python benchmarks/verdict_snapshot.py --diff BEFORE.jsonl AFTER.jsonl

One line per dialog: its id, score, ``test_pass`` and, per turn, the verdict, own reason, role and the
turn a cascade inherits from. ``--diff`` prints the dialogs whose line changed and exits 1 if any did.
Used to show that a refactoring (issue 13) leaves every verdict as it was.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from aem_bench import load_sgd_dialogs, perturb_dialogs

from aem_strands import DialogResult, evaluate_dialogs, load_dialogs

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


def diff(before: Path, after: Path) -> int:
    old = before.read_text(encoding="utf-8").splitlines()
    new = after.read_text(encoding="utf-8").splitlines()
    changed = [(a, b) for a, b in zip(old, new, strict=False) if a != b]
    print(f"{len(old)} dialogs before, {len(new)} after, {len(changed)} changed")
    for a, b in changed[:20]:
        print(f"- {a}\n+ {b}")
    return 1 if changed or len(old) != len(new) else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--sgd-dir", type=Path, default=DEFAULT_SGD_DIR)
    parser.add_argument("--scorer", choices=("exact", "embedding"), default="exact")
    parser.add_argument("--diff", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.diff:
        return diff(*args.diff)
    if args.out is None:
        parser.error("OUT is required without --diff")
    with args.out.open("w", encoding="utf-8") as out:
        out.writelines(line + "\n" for line in snapshot(args.sgd_dir, args.scorer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
