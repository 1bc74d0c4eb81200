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

- **API-Bank** (Li et al., "API-Bank: A Comprehensive Benchmark for Tool-Augmented LLMs", EMNLP 2023; Apache-2.0),
  ``../shared/external_data/api_bank``: 261 dialogues (212 of level 1, Call; 49 of level 2, Retrieve+Call; the paper's
  314 also count level 3, which these files do not hold), given as the turn-level test items of levels 1 and 2
  (``*-api``: the next API request, ``*-response``: the next reply), one trace per dialogue ``file``. Each item's
  ``input`` is the dialogue so far, a prefix of the file's longest one, so the longest input, with its
  ``expected_output`` appended, holds every turn of the file. ``User:`` becomes a ``user`` step, ``AI:`` a
  ``response`` step, ``API-Request: [Name(k='v', ...)]->result`` a ``tool_call`` (the call parsed by ``ast``; the
  result after ``->`` as JSON, else a Python literal, else text; the line as written in ``metadata.apibank_request``).
  In 40 of 508 calls the data quotes a list argument (``attendees='['Ann', 'Bo']'``), which no parser reads; there the
  quotes around ``[...]``/``{...}`` are dropped and the argument is the list (the API's declared ``list`` type). The
  catalog is the file's ``API descriptions`` (JSON lines of the instruction): ``input_parameters`` as the properties
  (``str``, ``int``, ``bool``, ``list``/``list(str)`` as JSON types, their descriptions kept), ``output_parameters``
  named in the description. API-Bank states neither which parameters are required nor any read-only or destructive
  hint, so none is given: the library then takes every tool as a write that needs no consent (MCP's defaults:
  ``readOnlyHint`` false, ``destructiveHint`` unset) and no argument as required. The instruction says only "The
  current year is 2023", so ``initial_state`` is ``{"current_year": 2023}``: no day is stated, none is invented.
  What the data gets wrong is kept as written and no dialogue is left out: the (Cancel)TimedSwitch calls of 8 files
  pass ``device_id`` where their description names ``name``; the paper calls the dialogues annotated, not each one
  successful, and some are not (a reply naming an ID the call did not return, a password the user never gave).

``split_of(id)`` halves every set by the SHA-1 of its id: ``tuning`` (even) and ``heldout`` (odd). Rules may be
tuned on the tuning half only; the held-out half is reported apart.
"""

from __future__ import annotations

import ast
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
APIBANK_DIR = SHARED / "api_bank"
TOOLTALK_TOOLS = REPO_ROOT / "data" / "traces" / "tooltalk_tools.json"
SGD_TODAY = "2019-03-01"
DESTRUCTIVE_TOOLTALK = frozenset({
    "ChangePassword", "CompleteReminder", "DeleteAccount", "DeleteAlarm", "DeleteEvent", "DeleteReminder",
    "LogoutUser", "ModifyEvent", "ResetPassword", "UpdateAccountInformation",
})  # fmt: skip
"""ToolTalk's action APIs that delete, modify, overwrite or end something (MCP's ``destructiveHint``)."""

__all__ = ["APIBANK_DIR", "SGD_DIR", "TOOLTALK_DIR", "apibank_traces", "sgd_traces", "split_of", "tooltalk_traces"]


def split_of(identifier: str) -> str:
    """``tuning`` when the SHA-1 of ``identifier`` is even, else ``heldout``."""
    return "tuning" if hashlib.sha1(identifier.encode("utf-8")).digest()[-1] % 2 == 0 else "heldout"


def _open_json(path: Path) -> Any:
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
    catalog = sgd_catalog(_open_json(folder / "test_schema.json"))
    count = 0
    for name in sorted(glob.glob(str(folder / "test" / "dialogues_*.json*"))):
        for dialogue in _open_json(Path(name)):
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
            conversation = _open_json(Path(name))
            if split is not None and split_of(conversation["name"]) != split:
                continue
            yield _tooltalk_trace(conversation, tools)


APIBANK_TYPES: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "bool": {"type": "boolean"},
    "list": {"type": "array"},
    "list(str)": {"type": "array", "items": {"type": "string"}},
}
"""API-Bank's parameter type names as JSON Schema types (every name its API descriptions use)."""


def apibank_catalog(instruction: str) -> list[dict[str, Any]]:
    """The tools an API-Bank ``instruction`` describes (its JSON lines after ``API descriptions:``), as MCP tool
    definitions without hints or required parameters (see the module docstring)."""
    tools = []
    for line in instruction.split("API descriptions:", 1)[-1].strip().splitlines():
        api = json.loads(line)
        properties = {
            name: {**APIBANK_TYPES.get(spec["type"], {}), "description": spec["description"]}
            for name, spec in api["input_parameters"].items()
        }
        returns = "; ".join(f"{n} ({o['type']}): {o['description']}" for n, o in api["output_parameters"].items())
        description = f"{api['description']} Returns: {returns}" if returns else api["description"]
        tools.append(
            {
                "name": api["name"],
                "description": description,
                "inputSchema": {"type": "object", "properties": properties},
            }
        )
    return tools


def _apibank_call(text: str) -> tuple[str, dict[str, Any]] | None:
    """``[Name(k='v', ...)]`` as the name and its arguments, or None when it is not one literal call."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
        if not (isinstance(node, ast.List) and len(node.elts) == 1 and isinstance(node.elts[0], ast.Call)):
            return None
        call = node.elts[0]
        if not isinstance(call.func, ast.Name) or call.args:
            return None
        return call.func.id, {str(k.arg): ast.literal_eval(k.value) for k in call.keywords}
    except (SyntaxError, ValueError):
        return None


def _apibank_result(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return ast.literal_eval(text)
    except (SyntaxError, ValueError):
        return text


def _apibank_step(line: str) -> dict[str, Any]:
    """One ``API-Request: [Name(...)]->result`` line (or one without ``->result``) as a ``tool_call`` step."""
    request = line.removeprefix("API-Request:").strip()
    candidates = [(request[: i + 1], request[i + 3 :]) for i in range(len(request)) if request.startswith("]->", i)]
    for call_text, result in [*candidates, (request, None)]:
        # the data sometimes quotes a list or dict argument inside quotes (see the module docstring)
        unquoted = call_text.replace("='[", "=[").replace("]', ", "], ").replace("]')", "])")
        unquoted = unquoted.replace("='{", "={").replace("}', ", "}, ").replace("}')", "})")
        parsed = _apibank_call(call_text) or _apibank_call(unquoted)
        if parsed is not None:
            observation = None if result is None else _apibank_result(result)
            step = {"action_type": "tool_call", "tool_name": parsed[0], "arguments": parsed[1]}
            return {**step, "observation": observation, "metadata": {"apibank_request": line}}
    raise ValueError(f"API-Bank request not parsed: {line[:200]!r}")


def _apibank_trace(stem: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    longest = max(items, key=lambda item: len(item["input"]))
    lines = longest["input"].rstrip("\n").split("\n")
    if lines and lines[-1].startswith("Generate"):  # the task line ("Generate API Request:" / "... AI Response:")
        lines = lines[:-1]
    expected = str(longest["expected_output"]).strip()
    lines.append(expected if expected.startswith("API-Request:") else f"AI: {expected.removeprefix('AI:').strip()}")
    steps: list[dict[str, Any]] = []
    for line in lines:
        if line.startswith("API-Request:"):
            steps.append(_apibank_step(line))
        elif line.startswith(("User:", "AI:")):
            kind = "user" if line.startswith("User:") else "response"
            steps.append({"action_type": kind, "content": line.split(":", 1)[1].strip()})
        else:
            raise ValueError(f"API-Bank {stem}: a line that is no turn: {line[:200]!r}")
    for index, step in enumerate(steps, start=1):
        step["step_id"] = f"s{index}"
    tools: dict[str, dict[str, Any]] = {}
    for item in items:
        for tool in apibank_catalog(item["instruction"]):
            tools.setdefault(tool["name"], tool)
    _, found, rest = longest["instruction"].partition("The current year is ")
    state = {"current_year": int(rest.split(".", 1)[0])} if found else {}
    return {
        "trace_id": f"apibank-{stem}",
        "case_id": stem,
        "initial_state": state,
        "environment": {"tools": list(tools.values())},
        "steps": steps,
    }


def apibank_traces(folder: Path = APIBANK_DIR, split: str | None = None) -> Iterator[dict[str, Any]]:
    """The API-Bank test dialogues of levels 1 and 2 as trace objects, one a dialogue file, sorted by file name
    (see the module docstring); ``split`` as for SGD, by the file's stem."""
    by_file: dict[str, list[dict[str, Any]]] = {}
    for name in ("level-1-api", "level-1-response", "level-2-api", "level-2-response"):
        for item in _open_json(folder / f"{name}.json.gz"):
            by_file.setdefault(Path(item["file"]).stem, []).append(item)
    for stem in sorted(by_file):
        if split is None or split_of(stem) == split:
            yield _apibank_trace(stem, by_file[stem])


def sgd_refusals(folder: Path = SGD_DIR, split: str = "tuning") -> list[str]:
    """Real user turns of SGD test that negate the system's confirmation just before (a USER turn with a
    ``NEGATE`` act after a SYSTEM turn with a ``CONFIRM`` act), from the dialogues of ``split``, sorted."""
    found: set[str] = set()
    for name in sorted(glob.glob(str(folder / "test" / "dialogues_*.json*"))):
        for dialogue in _open_json(Path(name)):
            if split_of(dialogue["dialogue_id"]) != split:
                continue
            previous: set[str] = set()
            for turn in dialogue["turns"]:
                acts = {action["act"] for frame in turn["frames"] for action in frame["actions"]}
                if turn["speaker"] == "USER" and "CONFIRM" in previous and "NEGATE" in acts:
                    found.add(turn["utterance"])
                previous = acts
    return sorted(found)
