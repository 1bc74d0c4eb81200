"""What pass^k costs the report: ``summarise`` over generated trial records, with and without trial metadata.

    python benchmarks/report_trials.py --cases 2000 --trials 8

Each case has its own pass probability (uniform, seeded) and ``--trials`` records marked ``metadata.trial`` /
``trial_of``, in two versions. One line per ``--by``: the time with trials (pass^1..pass^K, each a bootstrap
over cases, overall and per version) and the time of the same records without trial metadata.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from aem_strands.report.summary import summarise


def records(cases: int, trials: int, seed: int = 0) -> list[dict[str, Any]]:
    """``cases`` x ``trials`` trial records, each case passing with its own random probability."""
    rng = random.Random(seed)
    out = []
    for case in range(cases):
        chance = rng.random()
        for trial in range(1, trials + 1):
            metadata = {"trial": trial, "trial_of": f"c{case}", "version": f"v{case % 2}"}
            out.append({"dialog_id": f"c{case}#trial{trial}", "test_pass": rng.random() < chance, "score": 0.5,
                        "turns": [], "metadata": metadata})  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=8)
    args = parser.parse_args()
    with_trials = records(args.cases, args.trials)
    plain = [{**r, "metadata": {"version": r["metadata"]["version"]}} for r in with_trials]
    for by in (None, "version"):
        start = time.perf_counter()
        summary = summarise(with_trials, by=by)
        took = time.perf_counter() - start
        start = time.perf_counter()
        summarise(plain, by=by)
        base = time.perf_counter() - start
        ks = ", ".join(f"pass^{r['k']} {r['estimate']}" for r in summary["trials"]["pass_hat_k"][:3])
        print(f"--by {by}: {len(with_trials):,} records: {took:.2f} s with trials, {base:.2f} s without ({ks}, ...)")


if __name__ == "__main__":
    main()
