"""The trajectory evaluator (``AemTraceEvaluator``) in a Python ``Experiment``, on a live agent, without gold.

The sales agent of ``experiments/sales_agent.py`` (real ``Agent``, real ``@tool``s, scripted model, offline) runs
two versions of one conversation. In v1 it filters on ``metric="profit"``, a value nobody gave (the user asked for
a sales report): rules alone cannot tell "profit" from a sales word said otherwise, so without a judge the case
is inconclusive (never a pass; ``AemTraceEvaluator(escalate="judge", model=...)`` asks the judge). In v2
the user asks for revenue and the agent filters on it: every check passes. ``ToolCalled`` runs beside it on the
same Session, and ``AemReport.trace_rollups`` gives the pass, veto and dimension rates by version. Run from the
repository root:

    python examples/strands_trace.py
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # so `experiments.sales_agent` imports

from strands_evals import Case, Experiment
from strands_evals.evaluators import ToolCalled

from aem_strands.strands import AemReport, AemTraceEvaluator
from experiments.sales_agent import cases_task

EXPERIMENT = Path(__file__).resolve().parent.parent / "experiments" / "sales_traces_live.json"


def cases() -> list[Case[Any, Any]]:
    """v1 as recorded in the experiment file; v2 the same conversation, the user naming the metric."""
    raw = json.loads(EXPERIMENT.read_text(encoding="utf-8"))["cases"][0]
    v1 = Case.model_validate({**raw, "name": "invented_metric", "session_id": "trace-v1"})
    fixed = copy.deepcopy(raw)
    fixed["input"][0] = fixed["metadata"]["aem"]["user_messages"][0] = "I need a sales report of revenue."
    script = fixed["metadata"]["scripted_model"]
    script[1]["input"]["metric"] = "revenue"  # filter_data then returns ds-7731, a total of 4,200,000
    script[2]["input"]["dataset_id"] = script[4]["input"]["dataset_id"] = "ds-7731"
    script[4]["input"]["chart_id"] = "ch-301"
    script[3] = "EU revenue for 2024 was 4,200,000 EUR; the bar chart is ready."
    fixed["metadata"]["version"] = "v2"
    v2 = Case.model_validate({**fixed, "name": "named_metric", "session_id": "trace-v2"})
    return [v1, v2]


def main() -> int:
    """Run both cases; print one line per row and the trace rollups by version; exit 1 if a trace fails."""
    experiment = Experiment(
        cases=cases(), evaluators=[AemTraceEvaluator(), ToolCalled(tool_name="filter_data")], report_cls=AemReport
    )
    report = experiment.run_evaluations(cases_task)
    for case, passed, reason in zip(report.cases, report.test_passes, report.reasons, strict=True):
        print(f"{case['name']:>16} {case['evaluator']:>10}: pass {passed}  {reason.splitlines()[0][:160]}")
    rollups = report.trace_rollups(group_by="version")
    print(json.dumps({k: rollups[k] for k in ("cases", "pass_rate", "veto_rate", "first_critical_steps")}, indent=2))
    print(json.dumps(rollups["by_metadata"], indent=2))
    traces = list(report.trace_rows())
    return 0 if all(row.test_pass for row in traces) else 1


if __name__ == "__main__":
    sys.exit(main())
