"""The async runner with ``max_workers=4``: four live cases, each with a different wrong argument.

Every case is scored on its own spans (its run id is stamped on them), so the four results never
mix. Run from the repository root:

    python examples/strands_async.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # so `experiments.sales_agent` imports

from strands_evals import Experiment

from aem_strands.strands import AemReport, AemSessionEvaluator, make_live_task
from experiments.sales_agent import build_agent, chart_case

CASES = [
    chart_case("wrong_metric", "profit", "EU", 2024, version="v1"),
    chart_case("wrong_region", "revenue", "US", 2024, version="v1"),
    chart_case("wrong_year", "revenue", "EU", 2023, version="v2"),
    chart_case("right", "revenue", "EU", 2024, version="v2"),
]


def main() -> int:
    """Run four cases on four workers; print each root cause; exit 1 when any case fails."""
    experiment = Experiment(cases=CASES, evaluators=[AemSessionEvaluator(scorer="exact")], report_cls=AemReport)
    report = asyncio.run(experiment.run_evaluations_async(make_live_task(build_agent), max_workers=4))
    for case, score, reason in zip(report.cases, report.scores, report.reasons, strict=True):
        print(f"{case['name']:>13}: {score:.2f}  {reason.splitlines()[0]}")  # first line: the dialog's reason
    print(report.summary(group_by="version"))
    return 0 if all(report.test_passes) else 1


if __name__ == "__main__":
    sys.exit(main())
