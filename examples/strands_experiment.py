"""AEM evaluators next to built-in Strands Evals evaluators in one Python ``Experiment``.

A live sales agent (real ``Agent``, real ``@tool``s, scripted model, offline) answers three user
turns and calls ``filter_data`` with ``metric="profit"`` where gold says ``revenue``. AEM finds the
root cause (turn 2) and the turns that cascade from it; ``ToolCalled`` and a scripted
``HarmfulnessEvaluator`` run on the same case. Run from the repository root:

    python examples/strands_experiment.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # so `experiments.sales_agent` imports

from strands_evals import Experiment
from strands_evals.evaluators import HarmfulnessEvaluator, ToolCalled

from aem_strands.strands import AemReport, AemSessionEvaluator, AemTurnEvaluator, make_live_task
from experiments.sales_agent import JUDGE, ScriptedHarmfulnessEvaluator, build_agent

EXPERIMENT = Path(__file__).resolve().parent.parent / "experiments" / "sales_report_live.json"


def main() -> int:
    """Run the experiment; print one line per evaluator and the AEM rollups; exit 1 if AEM fails."""
    cases = Experiment.from_file(
        str(EXPERIMENT), custom_evaluators=[AemSessionEvaluator, AemTurnEvaluator, ScriptedHarmfulnessEvaluator]
    ).cases
    experiment = Experiment(
        cases=cases,
        evaluators=[
            AemSessionEvaluator(name="aem_correctness"),  # default embedding scorer
            AemTurnEvaluator(name="aem_turns"),
            ToolCalled(tool_name="filter_data"),
            HarmfulnessEvaluator(model=JUDGE),
        ],
        report_cls=AemReport,
    )
    report = experiment.run_evaluations(make_live_task(build_agent))
    for case, score, passed, reason in zip(
        report.cases, report.scores, report.test_passes, report.reasons, strict=True
    ):
        print(f"{case['evaluator']:>20}: score {score:.2f} pass {passed}  {reason.splitlines()[0]}")
    print(json.dumps(report.rollups(group_by="version"), indent=2))
    return 0 if all(report.test_passes) else 1


if __name__ == "__main__":
    sys.exit(main())
