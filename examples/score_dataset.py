"""Score a JSONL dataset with one bad record: the bad record is reported, every good one is scored.

Run: python examples/score_dataset.py [--scorer exact|embedding]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import aem_strands

DATA = Path(__file__).parent / "data" / "travel_dataset.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scorer", choices=("exact", "embedding"), default="embedding")
    args = parser.parse_args()
    loaded = aem_strands.load_dialogs(DATA)
    for error in loaded.errors:
        print(f"skipped: {error}")
    results = aem_strands.evaluate_dialogs(loaded, scorer=args.scorer)
    reasons: Counter[str] = Counter()
    for result in results:
        print(f"{result.dialog_id}: score {result.score:.2f} pass={result.test_pass} | {result.reason()}")
        reasons.update(t.failure_reason.value for t in result.turns if t.failure_reason is not None)
    print("failure reasons:", dict(sorted(reasons.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
