"""τ-bench's airline runs as traces: real GPT-4o conversations with a simulated user, each with τ-bench's reward.

**τ-bench** (Yao et al. 2024, Sierra Research; MIT), ``data/taubench/gpt-4o-airline.json.gz`` (see its README):
200 runs (50 test tasks x 4 trials). A run's ``traj`` is OpenAI chat messages: ``system`` (the airline policy:
the trace's ``instructions``; its "The current time is ..." line also gives ``initial_state.today``), ``user`` (a
``user`` step; the simulator's ``###STOP###`` marker removed), ``assistant`` (its text a ``response`` step, each of its
``tool_calls`` a ``tool_call`` step with the arguments parsed from JSON) and ``tool`` (the observation of the call
with its ``tool_call_id``: JSON when it parses, else the text; a text opening with ``Error:`` is also the step's
``error``). The catalog is τ²-bench's airline tools of ``data/outcomes/tau2_tools.mcp.json`` that τ-bench has (its
writes destructive, which the policy's "obtain explicit user confirmation (yes) to proceed" asks for) and τ-bench's
``think`` tool (read-only: it "will not obtain new information or change the database").

A run's ``reward`` is 1.0 when τ-bench's environment ended in the database state of the task's gold actions: the
run did what the task asked. That says nothing of how (a write without the user's yes can still reach the right
state), so a finding on such a run is not proven false; it is what a user reading the run would call a false alarm
unless the run shows the fault. ``gold`` carries the task's gold actions (the writes only) as ``evaluation.
expected_tools`` with their arguments, for ``trace --gold``. Halves: ``split_of`` of ``taubench-airline-<task_id>``,
so the four trials of a task fall in one half.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from aem_bench.trace_sets import REPO_ROOT, open_json, split_of

TAUBENCH_RUNS = REPO_ROOT / "data" / "taubench" / "gpt-4o-airline.json.gz"
TAU2_TOOLS = REPO_ROOT / "data" / "outcomes" / "tau2_tools.mcp.json"

__all__ = ["TAUBENCH_RUNS", "taubench_catalog", "taubench_dialogs", "taubench_traces"]

AIRLINE_TOOLS = frozenset(
    {
        "book_reservation",
        "calculate",
        "cancel_reservation",
        "get_reservation_details",
        "get_user_details",
        "list_all_airports",
        "search_direct_flight",
        "search_onestop_flight",
        "send_certificate",
        "transfer_to_human_agents",
        "update_reservation_baggages",
        "update_reservation_flights",
        "update_reservation_passengers",
    }
)
"""The tools τ-bench's airline domain gives its agent, besides ``think`` (τ²-bench added ``get_flight_status``)."""

THINK_TOOL: dict[str, Any] = {
    "name": "think",
    "description": "Use the tool to think about something. It will not obtain new information or change the "
    "database, but just append the thought to the log.",
    "inputSchema": {
        "type": "object",
        "properties": {"thought": {"type": "string", "description": "A thought to think about."}},
        "required": ["thought"],
    },
    "annotations": {"readOnlyHint": True, "destructiveHint": False},
}


def taubench_catalog(tools_file: Path = TAU2_TOOLS) -> list[dict[str, Any]]:
    """The airline agent's tools as MCP tool definitions (see the module docstring)."""
    tools = [tool for tool in json.loads(tools_file.read_text(encoding="utf-8")) if tool["name"] in AIRLINE_TOOLS]
    return [*tools, THINK_TOOL]


def _observation(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _today(system: str) -> str | None:
    _, found, rest = system.partition("The current time is ")
    return rest[:10] if found and rest[:4].isdigit() else None


def taubench_trace(run: dict[str, Any], tools: list[dict[str, Any]]) -> dict[str, Any]:
    """One τ-bench run as a trace object (see the module docstring)."""
    steps: list[dict[str, Any]] = []
    calls: dict[str, dict[str, Any]] = {}
    today = system = None
    for message in run["traj"]:
        role = message["role"]
        content = message.get("content") or ""
        if role == "system":
            today, system = _today(content), content
        elif role == "user":
            text = content.replace("###STOP###", "").strip()
            if text:
                steps.append({"action_type": "user", "content": text})
        elif role == "assistant":
            if content.strip():
                steps.append({"action_type": "response", "content": content.strip()})
            for call in message.get("tool_calls") or []:
                step = {
                    "action_type": "tool_call",
                    "tool_name": call["function"]["name"],
                    "arguments": json.loads(call["function"]["arguments"] or "{}"),
                }
                calls[call["id"]] = step
                steps.append(step)
        elif role == "tool":
            step = calls[message["tool_call_id"]]
            step["observation"] = _observation(content)
            if content.startswith("Error:"):
                step["error"] = content
    for index, step in enumerate(steps, start=1):
        step["step_id"] = f"s{index}"
    task = run["info"]["task"]
    gold = [{"tool": action["name"], "arguments": action["kwargs"]} for action in task["actions"]]
    return {
        "trace_id": f"taubench-airline-{run['task_id']}-trial{run['trial']}",
        "case_id": f"taubench-airline-{run['task_id']}",
        "initial_state": {"today": today} if today else {},
        "instructions": system or None,
        "environment": {"tools": tools},
        "steps": steps,
        "evaluation": {"expected_tools": gold},
        "metadata": {"reward": run["reward"], "task_id": run["task_id"], "trial": run["trial"]},
    }


def taubench_traces(
    path: Path = TAUBENCH_RUNS, split: str | None = None, reward: float | None = None, gold: bool = False
) -> Iterator[dict[str, Any]]:
    """The runs as trace objects in file order; ``split`` as for SGD (by task), ``reward`` keeps the runs with that
    reward only, ``gold`` keeps the task's gold actions (else the ``evaluation`` block is dropped)."""
    tools = taubench_catalog()
    for run in open_json(path):
        if split is not None and split_of(f"taubench-airline-{run['task_id']}") != split:
            continue
        if reward is not None and float(run["reward"]) != reward:
            continue
        trace = taubench_trace(run, tools)
        if not gold:
            del trace["evaluation"]
        yield trace


def taubench_dialogs(path: Path = TAUBENCH_RUNS, split: str | None = None) -> Iterator[dict[str, Any]]:
    """The runs as unpaired dialogs for ``score`` (``--scope actions``), as a user of ``score`` writes them: the gold
    side the task's gold actions (τ-bench lists the lookups it expects beside the writes; a lookup is
    ``optional: true``, since the reward reads only the database a write changes), the predicted side every call of
    the run in order with its observation (a failed call's ``{"error": text}``, how ``score`` records one);
    ``metadata.reward`` as given. The same runs, in the same order, as ``taubench_traces(path, split, gold=True)``."""
    tools = taubench_catalog()
    read_only = {t["name"] for t in tools if (t.get("annotations") or {}).get("readOnlyHint")}
    for run in open_json(path):
        if split is not None and split_of(f"taubench-airline-{run['task_id']}") != split:
            continue
        trace = taubench_trace(run, tools)
        calls = [s for s in trace["steps"] if s["action_type"] == "tool_call"]
        gold = []
        for action in run["info"]["task"]["actions"]:
            turn = {"turn": "Tool", "tool_id": "taubench", "action": action["name"], "args": action["kwargs"]}
            gold.append({**turn, "optional": True} if action["name"] in read_only else turn)
        predicted = [
            {
                "turn": "Tool",
                "tool_id": "taubench",
                "action": s["tool_name"],
                "args": s["arguments"],
                "observation": {"error": s["error"]} if s.get("error") else s.get("observation"),
            }
            for s in calls
        ]
        yield {
            "dialog_id": trace["trace_id"],
            "gold": gold,
            "predicted": predicted,
            "metadata": {"reward": run["reward"]},
        }
