"""A cached rerun: the agent runs once; later runs read its trajectory from a result store.

``GoldRefreshingStore`` wraps the host's ``LocalFileTaskResultStore`` so a rerun after editing
gold scores the cached trajectory against the **edited** gold. Run from the repository root:

    python examples/cached_rerun.py [CACHE_DIR]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # so `experiments.sales_agent` imports

from strands_evals import Case, Experiment

from aem_strands.strands import AemSessionEvaluator, GoldRefreshingStore, make_live_task
from experiments.sales_agent import build_agent, chart_case, chart_gold

AGENT_RUNS = 0


def counting_agent(case: Case[Any, Any]) -> Any:
    global AGENT_RUNS  # a demo counter, to show that cache hits build no agent
    AGENT_RUNS += 1
    return build_agent(case)


def run(cases: list[Case[Any, Any]], cache: Path) -> float:
    store = GoldRefreshingStore.local(cache, cases)
    experiment = Experiment(cases=cases, evaluators=[AemSessionEvaluator(scorer="exact")])
    report = experiment.run_evaluations(make_live_task(counting_agent), evaluation_data_store=store)
    reason = report.reasons[0].splitlines()[0]  # first line: the dialog's reason
    print(f"score {report.scores[0]:.2f}, agent runs so far {AGENT_RUNS}, cache hits {store.hits}: {reason}")
    return float(report.scores[0])


def main(argv: list[str] | None = None) -> int:
    """First run, cached rerun, rerun with edited gold; returns 0 when the three scores are as expected."""
    args = sys.argv[1:] if argv is None else argv
    cache = Path(args[0]) if args else Path(tempfile.mkdtemp(prefix="aem-cache-"))
    agent_case = chart_case("chart", "profit", "EU", 2024)
    first = run([agent_case], cache)  # runs the agent
    again = run([agent_case], cache)  # cache hit: no agent
    edited = chart_case("chart", "profit", "EU", 2024, gold=chart_gold(metric="profit"))
    fixed = run([edited], cache)  # cache hit, scored against the edited gold
    return 0 if (first, again, fixed, AGENT_RUNS) == (1 / 3, 1 / 3, 1.0, 1) else 1


if __name__ == "__main__":
    sys.exit(main())
