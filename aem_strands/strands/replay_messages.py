"""The Strands side of a counterfactual replay: predicted turns as Strands messages and back, and recorded tools.

- ``Conversation`` builds the messages a fresh agent is given: user text, then per tool call an assistant
  ``toolUse`` and a user ``toolResult`` (each call its own pair), and an assistant text per reply.
- ``continuation_turns`` reads the messages the agent added back as predicted turns (as ``session_to_turns``
  reads spans: a call with its decoded result, a failed call's ``{"error": ...}``, a text-only reply).
- ``RecordedTools`` answers tool calls from recorded observations (keyed by ``call_key``: tool name and
  arguments) through a ``BeforeToolCallEvent`` hook, so no tool runs; an unrecorded call gets an error
  observation naming it and is listed in ``unrecorded``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from strands.hooks import BeforeToolCallEvent
from strands.tools.tools import PythonAgentTool
from strands.types.tools import ToolResult

from aem_strands.strands.session import PredictedTurn
from aem_strands.types import ActionCall, JsonValue, Reply, TurnContent


def call_key(name: str, args: Mapping[str, Any]) -> str:
    """``name({args as sorted JSON})``: what makes two calls the same call."""
    return f"{name}({json.dumps(dict(args), sort_keys=True, default=str, ensure_ascii=False)})"


def result_content(observation: JsonValue) -> tuple[Literal["success", "error"], str]:
    """``(status, text)`` of a Strands tool result for an observation (``{"error": ...}`` is a failed call)."""
    if isinstance(observation, dict) and set(observation) == {"error"}:
        error = observation["error"]
        return "error", error if isinstance(error, str) else json.dumps(error, ensure_ascii=False)
    return "success", observation if isinstance(observation, str) else json.dumps(observation, ensure_ascii=False)


def tool_observation(result: Mapping[str, Any]) -> JsonValue:
    """A Strands tool result read back as ``session_to_turns`` reads a tool span (JSON decoded when it is JSON)."""
    parts = [b.get("text") if "text" in b else json.dumps(b.get("json")) for b in result.get("content", [])]
    text = "".join(p for p in parts if isinstance(p, str))
    try:
        value: JsonValue = json.loads(text)
    except ValueError:
        value = text
    return {"error": value} if result.get("status") == "error" else value


class Conversation:
    """Strands messages built turn by turn (each tool call its own assistant message and result)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self._ids = 0

    def user(self, text: str) -> None:
        self.messages.append({"role": "user", "content": [{"text": text}]})

    def add(self, content: TurnContent) -> None:
        if isinstance(content, Reply):
            self.messages.append({"role": "assistant", "content": [{"text": content.response}]})
            return
        self._ids += 1
        use_id = f"replay-{self._ids}"
        status, text = result_content(content.observation)
        self.messages.append(
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": use_id, "name": content.action,
                                                            "input": dict(content.args)}}]}
        )  # fmt: skip
        self.messages.append(
            {"role": "user", "content": [{"toolResult": {"toolUseId": use_id, "status": status,
                                                          "content": [{"text": text}]}}]}
        )  # fmt: skip


def continuation_turns(messages: Sequence[Mapping[str, Any]], user_turn: int) -> list[PredictedTurn]:
    """The turns of messages the agent added: each tool call (with its result), and each text-only reply."""
    results = {
        b["toolResult"].get("toolUseId"): b["toolResult"]
        for m in messages
        for b in m.get("content", [])
        if isinstance(b, dict) and "toolResult" in b
    }
    out: list[PredictedTurn] = []
    for message in messages:
        blocks = [b for b in message.get("content", []) if isinstance(b, dict)]
        if message.get("role") == "user":
            user_turn += any("text" in b for b in blocks)
            continue
        uses = [b["toolUse"] for b in blocks if "toolUse" in b]
        for use in uses:
            result = results.get(use.get("toolUseId"))
            observation = None if result is None else tool_observation(result)
            name = str(use.get("name"))
            out.append(PredictedTurn(ActionCall(name, name, dict(use.get("input") or {}), observation), user_turn))
        text = "".join(b["text"] for b in blocks if isinstance(b.get("text"), str)).rstrip("\n")
        if not uses and text.strip():
            out.append(PredictedTurn(Reply(text), user_turn))
    return out


class RecordedTools:
    """Answers the tool calls of one replay from ``recorded`` (``call_key`` -> observation); install
    ``before_tool`` as the agent's ``BeforeToolCallEvent`` callback so that no tool runs."""

    def __init__(self, recorded: Mapping[str, JsonValue]) -> None:
        self.recorded = dict(recorded)
        self.unrecorded: list[str] = []

    def answer(self, name: str, args: Mapping[str, Any]) -> JsonValue:
        key = call_key(name, args)
        if key in self.recorded:
            return self.recorded[key]
        self.unrecorded.append(key)
        return {"error": f"counterfactual replay: {key} was not recorded, and recorded tools never run"}

    def before_tool(self, event: BeforeToolCallEvent) -> None:
        use = event.tool_use
        status, text = result_content(self.answer(str(use["name"]), use.get("input") or {}))
        spec = event.selected_tool.tool_spec if event.selected_tool is not None else {
            "name": use["name"], "description": "recorded", "inputSchema": {"json": {"type": "object"}}}  # fmt: skip

        def recorded(tool_use: Any, **_: Any) -> ToolResult:
            return {"toolUseId": tool_use["toolUseId"], "status": status, "content": [{"text": text}]}

        event.selected_tool = PythonAgentTool(str(use["name"]), spec, recorded)
