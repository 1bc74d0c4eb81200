"""Real agent runs that nobody on this project wrote, as traces: the sets the trace rules are measured on.

- **SGD test** (Rastogi et al., "Towards Scalable Multi-domain Conversational Agents: The Schema-Guided Dialogue
  Dataset", AAAI 2020; CC BY-SA 4.0), read where it lies (``../shared/external_data/sgd``), never copied. Each
  dialogue is a successful, human-written task dialog whose transactions the user confirmed first. A USER turn
  becomes a ``user`` step; a SYSTEM turn becomes, in order, one ``tool_call`` per frame with a ``service_call``
  (``tool_name`` = the method, ``arguments`` = its parameters, ``observation`` = its ``service_results``; an empty
  list is what SGD records for a transaction that could not be made), then a ``response`` step (the utterance;
  its SGD system acts, ``NOTIFY_SUCCESS`` or ``NOTIFY_FAILURE`` among them, in the step's ``metadata.sgd_acts``).
  A user step's ``metadata`` holds its acts (``sgd_acts``) and the intents the user asked for in it
  (``sgd_intents``: those its ``INFORM_INTENT`` names, and those the system turn before offered, ``OFFER_INTENT``,
  when it answers ``AFFIRM_INTENT``). The checks read no step metadata: the labels serve the planted faults'
  measure only.
  The trace's own ``environment.tools`` is the dialogue's services from ``test_schema.json``: every intent a
  tool, its slots the properties (categorical slots with their ``possible_values`` as an ``enum``, optional slots
  with their schema default as ``default``), its required slots required; a transactional intent
  (``is_transactional``) is a write that needs consent (``destructiveHint: true``), any other intent a read
  (``readOnlyHint: true``). SGD's dialogues were collected
  with 1 March 2019 as today (the dates users call "today" are 2019-03-01 in 21 of 27 calls of the first 34
  files), so ``initial_state`` is ``{"today": "2019-03-01"}``.
- **ToolTalk** (Farn and Shin, "ToolTalk: Evaluating Tool-Usage in a Conversational Setting", 2023; MIT),
  ``../shared/external_data/tooltalk``: 78 gold conversations with real API calls and their results. A user turn
  becomes a ``user`` step, an assistant turn its API calls (``exception`` as the call's ``error``) then its
  reply. ``initial_state`` is the conversation's ``metadata`` (location, timestamp, the session token and
  username the agent is given) with ``today`` its date. The catalog is ``data/traces/tooltalk_tools.json``
  (derived from ToolTalk's own API classes, MIT: each API's description and parameters, ``session_token``
  added where the API requires a login, and ``readOnlyHint`` = not ``is_action``). ``destructiveHint`` follows
  MCP's meaning of it (the tool may delete or overwrite, not only add): the action APIs that delete, modify,
  overwrite or end something (``DESTRUCTIVE_TOOLTALK``) need consent; those that only add (an alarm, an event, a
  message sent, a login) are writes that do not.
- **API-Bank**: its own module, ``aem_bench.apibank``.

``split_of(id)`` halves every set by the SHA-1 of its id: ``tuning`` (even) and ``heldout`` (odd). Rules may be
tuned on the tuning half only; the held-out half is reported apart.
"""

from __future__ import annotations

import glob
import gzip
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED = REPO_ROOT.parent / "shared" / "external_data"
SGD_DIR = SHARED / "sgd"
TOOLTALK_DIR = SHARED / "tooltalk"
TOOLTALK_TOOLS = REPO_ROOT / "data" / "traces" / "tooltalk_tools.json"
SGD_TODAY = "2019-03-01"
DESTRUCTIVE_TOOLTALK = frozenset({
    "ChangePassword", "CompleteReminder", "DeleteAccount", "DeleteAlarm", "DeleteEvent", "DeleteReminder",
    "LogoutUser", "ModifyEvent", "ResetPassword", "UpdateAccountInformation",
})  # fmt: skip
"""ToolTalk's action APIs that delete, modify, overwrite or end something (MCP's ``destructiveHint``)."""

__all__ = ["SGD_DIR", "TOOLTALK_DIR", "sgd_traces", "split_of", "tooltalk_traces"]


def split_of(identifier: str) -> str:
    """``tuning`` when the SHA-1 of ``identifier`` is even, else ``heldout``."""
    return "tuning" if hashlib.sha1(identifier.encode("utf-8")).digest()[-1] % 2 == 0 else "heldout"


def open_json(path: Path) -> Any:
    """A JSON file, gzipped (``.gz``) or not."""
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            return json.load(handle)
    return json.loads(path.read_text(encoding="utf-8"))


def sgd_catalog(schema: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Each service of an SGD schema as MCP tool definitions (see the module docstring), by service name."""
    catalog: dict[str, list[dict[str, Any]]] = {}
    for service in schema:
        slots = {slot["name"]: slot for slot in service["slots"]}
        tools = []
        for intent in service["intents"]:
            properties: dict[str, Any] = {}
            for name in [*intent["required_slots"], *intent["optional_slots"]]:
                slot = slots.get(name, {})
                prop: dict[str, Any] = {"type": "string", "description": slot.get("description", name)}
                if slot.get("is_categorical") and slot.get("possible_values"):
                    prop["enum"] = list(slot["possible_values"])
                if name in intent["optional_slots"]:  # SGD's optional slots carry their default values
                    prop["default"] = intent["optional_slots"][name]
                properties[name] = prop
            transactional = bool(intent["is_transactional"])
            tools.append(
                {
                    "name": intent["name"],
                    "description": intent["description"],
                    "inputSchema": {"type": "object", "properties": properties, "required": intent["required_slots"]},
                    "annotations": {"readOnlyHint": not transactional, "destructiveHint": transactional},
                }
            )
        catalog[service["service_name"]] = tools
    return catalog


def _sgd_trace(dialogue: dict[str, Any], catalog: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    steps: list[dict[str, Any]] = []
    offered: list[str] = []  # the intents the last system turn offered (OFFER_INTENT)
    for turn in dialogue["turns"]:
        actions = [action for frame in turn["frames"] for action in frame["actions"]]
        if turn["speaker"] == "USER":
            acts = sorted({action["act"] for action in actions})
            intents = [v for a in actions if a["act"] == "INFORM_INTENT" for v in a["values"]]
            intents += offered if "AFFIRM_INTENT" in acts else []
            metadata = {"sgd_acts": acts, "sgd_intents": sorted(set(intents))}
            steps.append({"action_type": "user", "content": turn["utterance"], "metadata": metadata})
            continue
        offered = [v for a in actions if a["act"] == "OFFER_INTENT" for v in a["values"]]
        for frame in turn["frames"]:
            call = frame.get("service_call")
            if call is None:
                continue
            steps.append(
                {
                    "action_type": "tool_call",
                    "tool_name": call["method"],
                    "arguments": dict(call["parameters"]),
                    "observation": list(frame.get("service_results") or []),
                }
            )
        acts = sorted({action["act"] for action in actions})
        steps.append({"action_type": "response", "content": turn["utterance"], "metadata": {"sgd_acts": acts}})
    tools: dict[str, dict[str, Any]] = {}
    for service in dialogue["services"]:
        for tool in catalog.get(service, []):
            tools.setdefault(tool["name"], tool)
    for index, step in enumerate(steps, start=1):
        step["step_id"] = f"s{index}"
    return {
        "trace_id": f"sgd-{dialogue['dialogue_id']}",
        "case_id": dialogue["dialogue_id"],
        "initial_state": {"today": SGD_TODAY},
        "environment": {"tools": list(tools.values())},
        "steps": steps,
    }


def sgd_traces(folder: Path = SGD_DIR, split: str | None = None, limit: int | None = None) -> Iterator[dict[str, Any]]:
    """The SGD test dialogues of ``folder`` as trace objects (plain JSON, as a trace file holds them), in file
    order; ``split`` keeps one half (``tuning`` / ``heldout``), ``limit`` stops after that many."""
    catalog = sgd_catalog(open_json(folder / "test_schema.json"))
    count = 0
    for name in sorted(glob.glob(str(folder / "test" / "dialogues_*.json*"))):
        for dialogue in open_json(Path(name)):
            if split is not None and split_of(dialogue["dialogue_id"]) != split:
                continue
            yield _sgd_trace(dialogue, catalog)
            count += 1
            if limit is not None and count >= limit:
                return


def _tooltalk_trace(conversation: dict[str, Any], tools: list[dict[str, Any]]) -> dict[str, Any]:
    steps: list[dict[str, Any]] = []
    for turn in conversation["conversation"]:
        if turn["role"] == "user":
            steps.append({"action_type": "user", "content": turn["text"]})
            continue
        for api in turn.get("apis") or []:
            request = api["request"]
            step: dict[str, Any] = {
                "action_type": "tool_call",
                "tool_name": request["api_name"],
                "arguments": dict(request.get("parameters") or {}),
                "observation": api.get("response"),
            }
            if api.get("exception"):
                step["error"] = str(api["exception"])
            steps.append(step)
        if turn.get("text"):
            steps.append({"action_type": "response", "content": turn["text"]})
    for index, step in enumerate(steps, start=1):
        step["step_id"] = f"s{index}"
    metadata = dict(conversation.get("metadata") or {})
    timestamp = str(metadata.get("timestamp") or "")
    state: dict[str, Any] = dict(metadata)
    if timestamp[:10]:
        state["today"] = timestamp[:10]
    destructive = [
        {**tool, "annotations": {**tool["annotations"], "destructiveHint": tool["name"] in DESTRUCTIVE_TOOLTALK}}
        if not tool["annotations"]["readOnlyHint"]
        else tool
        for tool in tools
    ]
    return {
        "trace_id": f"tooltalk-{conversation['name']}",
        "case_id": conversation["name"],
        "goal": conversation["conversation"][0]["text"] if conversation["conversation"] else None,
        "initial_state": state,
        "environment": {"tools": destructive},
        "steps": steps,
    }


def tooltalk_traces(folder: Path = TOOLTALK_DIR, split: str | None = None) -> Iterator[dict[str, Any]]:
    """The ToolTalk conversations (``tooltalk/`` and ``easy/``) as trace objects; ``split`` as for SGD."""
    tools = json.loads(TOOLTALK_TOOLS.read_text(encoding="utf-8"))
    for sub in ("tooltalk", "easy"):
        for name in sorted(glob.glob(str(folder / sub / "*.json"))):
            conversation = open_json(Path(name))
            if split is not None and split_of(conversation["name"]) != split:
                continue
            yield _tooltalk_trace(conversation, tools)


def sgd_refusals(folder: Path = SGD_DIR, split: str = "tuning") -> list[str]:
    """Real user turns of SGD test that negate the system's confirmation just before (a USER turn with a
    ``NEGATE`` act after a SYSTEM turn with a ``CONFIRM`` act), from the dialogues of ``split``, sorted."""
    found: set[str] = set()
    for name in sorted(glob.glob(str(folder / "test" / "dialogues_*.json*"))):
        for dialogue in open_json(Path(name)):
            if split_of(dialogue["dialogue_id"]) != split:
                continue
            previous: set[str] = set()
            for turn in dialogue["turns"]:
                acts = {action["act"] for frame in turn["frames"] for action in frame["actions"]}
                if turn["speaker"] == "USER" and "CONFIRM" in previous and "NEGATE" in acts:
                    found.add(turn["utterance"])
                previous = acts
    return sorted(found)
