"""Reproduce the measured defaults and the side-by-side tables of docs/EQUIVALENCE.md.

For arguments and for responses: calibrate on ``data/calibration/*.calibration.jsonl`` (recommended
threshold and band floor), then measure every stage on ``*.heldout.jsonl`` with the thresholds
shipped in ``aem_strands.compare.chain`` and with the recommended ones. Cosine@best on the held-out
part uses the threshold that is best *on the held-out part itself* (an optimistic baseline)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/calibrate_report.py [--write-config thresholds.json]

Equivalent to running ``aem-strands calibrate --pairs FILE --kind KIND`` on each file.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from aem_strands.calibrate import render
from aem_strands.compare.calibration import calibrate, load_pairs
from aem_strands.compare.chain import Thresholds
from aem_strands.compare.config import save_thresholds
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.types import ValueKind

DATA = Path(__file__).resolve().parents[1] / "data" / "calibration"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write-config", type=Path, help="write the thresholds recommended on the calibration part")
    args = parser.parse_args()
    scorer = EmbeddingScorer()
    shipped = Thresholds()
    recommended = Thresholds()
    started = time.perf_counter()
    for kind, stem in ((ValueKind.ARGUMENT, "arguments"), (ValueKind.RESPONSE, "responses")):
        tuning = calibrate(load_pairs(DATA / f"{stem}.calibration.jsonl", kind), scorer, shipped, kind=kind)
        print(f"== {stem}: calibration part (thresholds are chosen here)")
        print(render(tuning))
        heldout = calibrate(load_pairs(DATA / f"{stem}.heldout.jsonl", kind), scorer, shipped, kind=kind)
        print(f"== {stem}: held-out part, shipped defaults {shipped.for_kind(kind):.2f}")
        print(render(heldout))
        field = "argument" if kind is ValueKind.ARGUMENT else "response"
        recommended = replace(
            recommended, **{field: tuning.recommended_threshold, f"{field}_floor": tuning.recommended_floor}
        )
    print(f"recommended on the calibration parts: {recommended}")
    print(f"distinct strings embedded: {scorer.embedded_count}; {time.perf_counter() - started:.1f} s")
    if args.write_config:
        save_thresholds(args.write_config, recommended)


if __name__ == "__main__":
    main()
