"""What a counterfactual replay costs relative to the original run of a case.

Usage (from the repository root)::

    .venv/bin/python benchmarks/counterfactual_benchmark.py [--cases N] [--repeat R] [--tools recorded|sandboxed]

The two cases of ``examples/counterfactual_replay.py`` (a real Strands ``Agent``, ``@tool`` functions, a model that
answers from the conversation so far; one case is ``fixed`` by the replay, the other ``still_fails``), alternated
over ``--cases`` cases, scored by ``AemSessionEvaluator(scorer="exact")``. Timed per case, best of ``--repeat``:

- **original run**: ``run_live`` (the agent through the user message) plus scoring it, what an Experiment does;
- **counterfactual**: ``counterfactual_replay`` on that run: the recorded run scored again (to find the root cause),
  a fresh agent continuing from the rebuilt messages, and the new conversation scored.

The in-memory span exporter is cleared before each original run: ``run_live`` maps every finished span the
process has kept, so without that a run's cost grows with the runs before it (about 12 ms -> 33 ms per run over
500 runs of this agent). With a scripted model the agent costs next to nothing, so the ratio shows the replay's
own overhead; with a hosted model the model calls dominate, and a replay makes fewer of them than the run (the
prefix is not asked again).
"""

from __future__ import annotations

import argparse
import os
import runpy
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from strands_evals.types import EvaluationData

from aem_strands.strands import AemSessionEvaluator, live_case, run_live
from aem_strands.strands.counterfactual import TOOLS_MODES, counterfactual_replay
from aem_strands.strands.tasks import telemetry

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "counterfactual_replay.py"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--cases", type=int, default=40, help="cases per timing (alternating the two kinds)")
    parser.add_argument("--repeat", type=int, default=3, help="timings; the best is reported")
    parser.add_argument("--tools", choices=TOOLS_MODES, default="recorded")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    example: dict[str, Any] = runpy.run_path(str(EXAMPLE), run_name="counterfactual_example")
    build, gold, question = example["build_agent"], example["GOLD"], example["QUESTION"]
    cases = [
        live_case(gold, [question], name=f"case-{i}", metadata={"chart_type": "line"} if i % 2 else {})
        for i in range(args.cases)
    ]
    evaluator = AemSessionEvaluator(scorer="exact")
    print(f"load average at start (1/5/15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    best_run = best_replay = float("inf")
    outcomes: dict[str, int] = {}
    for _ in range(args.repeat):
        started = time.perf_counter()
        runs = []
        for case in cases:
            telemetry().in_memory_exporter.clear()  # run_live maps every span the process kept: start each fresh
            run = run_live(build, case)
            data: EvaluationData[Any, Any] = EvaluationData(
                input=case.input, actual_output=run["output"], name=case.name, actual_trajectory=run["trajectory"],
                metadata=case.metadata,
            )  # fmt: skip
            evaluator.score_case(data)
            runs.append(run)
        best_run = min(best_run, time.perf_counter() - started)
        started = time.perf_counter()
        found = [
            counterfactual_replay(build, c, r, evaluator=evaluator, tools=args.tools)
            for c, r in zip(cases, runs, strict=True)
        ]
        best_replay = min(best_replay, time.perf_counter() - started)
        outcomes = {}
        for item in found:
            outcomes[item.outcome.value] = outcomes.get(item.outcome.value, 0) + 1
    per_run, per_replay = best_run / args.cases * 1000, best_replay / args.cases * 1000
    print(f"{args.cases} cases, exact scorer, {args.tools} tools, best of {args.repeat}; outcomes {outcomes}")
    print(f"original run (run_live + score): {per_run:.2f} ms/case")
    print(f"counterfactual replay:           {per_replay:.2f} ms/case")
    print(f"counterfactual / original run:   {per_replay / per_run:.2f}x wall time")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
