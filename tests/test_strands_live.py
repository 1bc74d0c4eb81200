"""Live agents inside Experiments: concurrency keeps cases apart; caching skips the agent and the
gold-refreshing store scores edited gold against the cached trajectory."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from strands import Agent
from strands_evals import Case, Experiment
from strands_evals.local_file_task_result_store import LocalFileTaskResultStore

from aem_strands.strands import AemReport, AemSessionEvaluator, GoldRefreshingStore, live_case, make_live_task
from experiments.sales_agent import build_agent


def gold(metric: str = "revenue", dataset_id: str = "ds-7731") -> list[dict[str, Any]]:
    return [
        {"turn": "Tool", "tool_id": "filter_data", "action": "filter_data",
         "args": {"metric": metric, "region": "EU", "year": 2024}},
        {"turn": "Tool", "tool_id": "create_chart", "action": "create_chart",
         "args": {"dataset_id": dataset_id, "chart_type": "bar"}},
        {"turn": "Agent", "response": "Your chart is ready."},
    ]  # fmt: skip


def case(name: str, metric: str, region: str, year: int, dataset_id: str, **kw: Any) -> Case[Any, Any]:
    script = [
        {"tool": "filter_data", "input": {"metric": metric, "region": region, "year": year}},
        {"tool": "create_chart", "input": {"dataset_id": dataset_id, "chart_type": "bar"}},
        "Your chart is ready.",
    ]
    return live_case(kw.pop("gold", gold()), ["EU revenue for 2024 as a bar chart, please."], name=name,
                     metadata={"scripted_model": script, **kw})  # fmt: skip


# Four cases, each with a different wrong argument (dataset ids follow from the tool's data).
CASES = [
    case("wrong_metric", "profit", "EU", 2024, "ds-7732", version="v1"),
    case("wrong_region", "revenue", "US", 2024, "ds-7741", version="v1"),
    case("wrong_year", "revenue", "EU", 2023, "ds-7721", version="v2"),
    case("wrong_units", "units", "EU", 2024, "ds-7751", version="v2"),
]
WRONG = {"wrong_metric": ("args.metric", "profit"), "wrong_region": ("args.region", "US"),
         "wrong_year": ("args.year", 2023), "wrong_units": ("args.metric", "units")}  # fmt: skip


def test_four_concurrent_cases_are_each_scored_on_their_own_spans() -> None:
    experiment = Experiment(cases=CASES, evaluators=[AemSessionEvaluator(scorer="exact")], report_cls=AemReport)
    report = asyncio.run(experiment.run_evaluations_async(make_live_task(build_agent), max_workers=4))
    assert isinstance(report, AemReport)
    for row, outputs, score in zip(report.cases, report.detailed_results, report.scores, strict=True):
        meta = outputs[0].metadata
        # exactly this case's three turns (a mixed session would hold 6..12 predicted turns)
        assert len(meta["predicted_turns"]) == 3, row["name"]
        problem = meta["turns"][0]["problems"][0]
        assert (problem["field"], problem["predicted"]) == WRONG[row["name"]]
        assert [t["failure_reason"] for t in meta["turns"]] == [
            "inconsistent_parameter_values",
            "prior_action_failed",
            None,
        ]
        assert score == pytest.approx(1 / 3)  # only the reply passes
    rollups = report.rollups(group_by="version")
    assert rollups["failure_reasons"] == {"inconsistent_parameter_values": {"root_cause": 4, "cascade": 4}}
    assert rollups["by_metadata"]["groups"]["v1"] == {"cases": 2, "mean_score": 0.3333, "pass_rate": 0.0}  # type: ignore[index]


class CountingFactory:
    """An agent factory that counts how often an agent was built (a cache hit must build none)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, case: Case[Any, Any]) -> Agent:
        self.calls += 1
        return build_agent(case)


def run(cases: list[Case[Any, Any]], factory: CountingFactory, store: Any) -> float:
    experiment = Experiment(cases=cases, evaluators=[AemSessionEvaluator(scorer="exact")])
    report = experiment.run_evaluations(make_live_task(factory), evaluation_data_store=store)
    return float(report.scores[0])


def test_cached_rerun_skips_the_agent_and_edited_gold_changes_the_score(tmp_path: Path) -> None:
    factory = CountingFactory()
    cases = [CASES[0]]
    assert run(cases, factory, GoldRefreshingStore.local(tmp_path, cases)) == pytest.approx(1 / 3)
    assert factory.calls == 1

    store = GoldRefreshingStore.local(tmp_path, cases)
    assert run(cases, factory, store) == pytest.approx(1 / 3)
    assert (factory.calls, store.hits, store.misses) == (1, 1, 0)  # served from the cache

    # Gold edited to what the agent did (profit / ds-7732): every turn now passes, 3/3.
    edited = [case("wrong_metric", "profit", "EU", 2024, "ds-7732", gold=gold("profit", "ds-7732"))]
    assert run(edited, factory, GoldRefreshingStore.local(tmp_path, edited)) == 1.0
    assert factory.calls == 1
    # The plain host store would score the stale cached gold.
    assert run(edited, factory, LocalFileTaskResultStore(tmp_path)) == pytest.approx(1 / 3)
    assert factory.calls == 1


def test_a_live_session_carries_the_agent_tool_registry() -> None:
    from aem_strands.strands.session import session_tools
    from aem_strands.tools import ArgKind, tools_from_specs

    one = case("registry", "revenue", "EU", 2024, "ds-7731")
    trajectory = make_live_task(build_agent)(one)["trajectory"]
    specs = session_tools(trajectory)
    assert {spec["name"] for spec in specs} >= {"filter_data", "create_chart"}
    catalog = tools_from_specs(specs)
    filter_data = next(d for d in catalog.definitions if d.name == "filter_data")
    # The schema Strands builds from the tool's signature reaches judging: year is declared an integer.
    assert set(filter_data.properties) >= {"metric", "region", "year"}
    assert filter_data.arg_kind("year") is ArgKind.NUMBER
