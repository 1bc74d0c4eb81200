"""A small live sales-report agent for the AEM experiments and examples, fully offline.

Real ``@tool`` functions over an in-memory data set, and a real Strands ``Agent`` driven by the
package's ``ScriptedModel``. The script of each case is read from ``case.metadata["scripted_model"]``
(JSON: a string is a text reply, ``{"tool": name, "input": {...}}`` a tool call, a list of those
several calls in one model turn), so one factory serves every case and cases run concurrently.

``task`` is the live task for ``strands-evals run --task experiments.sales_agent:task``
(``cases_task`` reads the factory each case names, allowing only ``build_agent``);
``ScriptedHarmfulnessEvaluator`` is the built-in ``HarmfulnessEvaluator`` with the scripted model
as its judge (an experiment file can only name a judge model by id, which would mean Bedrock).
"""

from __future__ import annotations

from typing import Any

from strands import Agent, tool
from strands_evals import Case
from strands_evals.evaluators import HarmfulnessEvaluator

from aem_strands.strands import make_live_task
from aem_strands.testing import ScriptedModel, ToolUse

DATASETS: dict[tuple[str, str, int], dict[str, Any]] = {
    ("revenue", "EU", 2024): {"dataset_id": "ds-7731", "total": 4200000},
    ("profit", "EU", 2024): {"dataset_id": "ds-7732", "total": 1150000},
    ("revenue", "US", 2024): {"dataset_id": "ds-7741", "total": 5300000},
    ("revenue", "EU", 2023): {"dataset_id": "ds-7721", "total": 3900000},
    ("units", "EU", 2024): {"dataset_id": "ds-7751", "total": 81000},
}
CHARTS = {"ds-7731": "ch-301", "ds-7732": "ch-302", "ds-7741": "ch-311", "ds-7721": "ch-321", "ds-7751": "ch-331"}


@tool
def filter_data(metric: str, region: str, year: int) -> dict[str, Any]:
    """Select the sales data of one metric, region and year.

    Args:
        metric: revenue, profit or units
        region: sales region code, e.g. EU
        year: calendar year
    """
    found = DATASETS.get((metric, region, int(year)))
    if found is None:
        raise ValueError(f"no data for {metric} in {region} {year}")
    return {"dataset_id": found["dataset_id"], "metric": metric, "total": found["total"]}


@tool
def create_chart(dataset_id: str, chart_type: str) -> dict[str, Any]:
    """Draw a chart of a data set.

    Args:
        dataset_id: id returned by filter_data
        chart_type: bar or line
    """
    return {"chart_id": CHARTS[dataset_id], "chart_type": chart_type}


@tool
def export_report(dataset_id: str, chart_id: str, format: str) -> dict[str, Any]:
    """Export a report with a data set and a chart.

    Args:
        dataset_id: id returned by filter_data
        chart_id: id returned by create_chart
        format: pdf or xlsx
    """
    return {"report": f"report-{dataset_id}-{chart_id}.{format}"}


def _entry(raw: Any) -> str | ToolUse | list[ToolUse]:
    if isinstance(raw, str):
        return raw
    if isinstance(raw, list):
        return [ToolUse(item["tool"], item.get("input", {})) for item in raw]
    return ToolUse(raw["tool"], raw.get("input", {}))


def build_agent(case: Case[Any, Any]) -> Agent:
    """A fresh agent for one case, scripted by ``case.metadata["scripted_model"]``."""
    script = [_entry(item) for item in (case.metadata or {})["scripted_model"]]
    return Agent(
        model=ScriptedModel(script),
        tools=[filter_data, create_chart, export_report],
        system_prompt="You build sales reports.",
        callback_handler=None,
    )


task = make_live_task(build_agent)
cases_task = make_live_task(allow=["experiments.sales_agent:build_agent"])
"""The factory each case names in ``metadata.aem.agent``, imported only if it is this module's ``build_agent``."""

JUDGE = ScriptedModel(
    structured={"HarmfulnessRating": {"reasoning": "A factual sales figure; nothing harmful.", "score": "Not Harmful"}},
    model_id="scripted-judge",
)


class ScriptedHarmfulnessEvaluator(HarmfulnessEvaluator):  # type: ignore[misc]  # strands_evals ships no type information
    """``HarmfulnessEvaluator`` judged by the scripted model ``JUDGE`` (offline)."""

    def __init__(self, version: str = "v0", system_prompt: str | None = None, name: str | None = None) -> None:
        super().__init__(version=version, model=JUDGE, system_prompt=system_prompt, name=name)

    # A property keeps the judge out of ``to_dict()`` (it is not a Bedrock model id to save).
    @property
    def model(self) -> ScriptedModel:
        return self._judge

    @model.setter
    def model(self, value: object) -> None:
        self._judge = value if isinstance(value, ScriptedModel) else JUDGE


def chart_gold(metric: str = "revenue", region: str = "EU", year: int = 2024) -> list[dict[str, Any]]:
    """Gold turns (unpaired format) of the one-request chart conversation."""
    dataset = DATASETS[(metric, region, year)]["dataset_id"]
    return [
        {"turn": "Tool", "tool_id": "filter_data", "action": "filter_data",
         "args": {"metric": metric, "region": region, "year": year}},
        {"turn": "Tool", "tool_id": "create_chart", "action": "create_chart",
         "args": {"dataset_id": dataset, "chart_type": "bar"}},
        {"turn": "Agent", "response": "Your chart is ready."},
    ]  # fmt: skip


def chart_case(name: str, metric: str, region: str, year: int, **metadata: Any) -> Case[Any, Any]:
    """A live case asking for the EU 2024 revenue chart, whose scripted agent uses the given arguments."""
    from aem_strands.strands import live_case

    dataset = DATASETS[(metric, region, year)]["dataset_id"]
    script = [
        {"tool": "filter_data", "input": {"metric": metric, "region": region, "year": year}},
        {"tool": "create_chart", "input": {"dataset_id": dataset, "chart_type": "bar"}},
        "Your chart is ready.",
    ]
    gold = metadata.pop("gold", None) or chart_gold()
    return live_case(gold, ["EU revenue for 2024 as a bar chart, please."], name=name,
                     metadata={"scripted_model": script, **metadata})  # fmt: skip
