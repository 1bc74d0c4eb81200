"""A scripted Strands ``Model`` for offline tests, examples and judges: no network, no credentials.

``ScriptedModel`` replays a fixed list of model turns. Each call to ``stream`` consumes the next
entry of the script:

- a ``str`` is a final text reply (stop reason ``end_turn``);
- a ``ToolUse`` (or a list of them) is a request to call tools (stop reason ``tool_use``); the agent
  runs the real ``@tool`` functions and calls the model again, which consumes the next entry.

A real ``strands.Agent`` driven by it runs its tools, emits its usual telemetry spans, and can be
evaluated exactly like an agent on a hosted model::

    model = ScriptedModel([ToolUse("filter_data", {"metric": "profit"}), "EU profit was 1.15M."])
    agent = Agent(model=model, tools=[filter_data], callback_handler=None)
    agent("Show me EU revenue")

For LLM judges (built-in evaluators that ask for structured output), give ``structured``: a mapping
from the output class name (e.g. ``"HarmfulnessRating"``) to the fields to return. Whenever the
agent offers a tool of that name the model calls it with those fields; structured replies are not
consumed, so one judge model serves any number of cases. A structured reply that the output class
rejects is answered once in text instead of being repeated, so the agent ends with a
``StructuredOutputException`` (which AEM's judge scorer reports as "could not score").

Contract: a script that runs out raises ``ScriptExhaustedError`` (the test is wrong, not the agent);
scripts are consumed under a lock, so a model instance may be shared across threads, though each
concurrent conversation normally gets its own instance.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import AsyncGenerator, AsyncIterable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel
from strands.models.model import Model

from aem_strands.errors import AemError

T = TypeVar("T", bound=BaseModel)


class ScriptExhaustedError(AemError):
    """The scripted model was asked for more turns than its script holds."""


@dataclass(frozen=True)
class ToolUse:
    """One scripted tool call: the tool's name and its input arguments."""

    name: str
    input: Mapping[str, Any] = field(default_factory=dict)
    tool_use_id: str | None = None


ScriptEntry = str | ToolUse | Sequence[ToolUse]


def _text_events(text: str) -> list[dict[str, Any]]:
    return [
        {"contentBlockStart": {"start": {}}},
        {"contentBlockDelta": {"delta": {"text": text}}},
        {"contentBlockStop": {}},
    ]


def _tool_events(call: ToolUse) -> list[dict[str, Any]]:
    tool_use_id = call.tool_use_id or f"tooluse_{uuid.uuid4().hex[:12]}"
    return [
        {"contentBlockStart": {"start": {"toolUse": {"toolUseId": tool_use_id, "name": call.name}}}},
        {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(dict(call.input))}}}},
        {"contentBlockStop": {}},
    ]


def _rejected_structured_reply(messages: Any, names: Collection[str]) -> bool:
    """Whether the latest message reports that a structured-output tool call (one of ``names``) failed."""
    if not names or not isinstance(messages, list) or len(messages) < 2:
        return False
    if not isinstance(messages[-2], dict) or not isinstance(messages[-1], dict):
        return False
    calls = {
        block["toolUse"].get("toolUseId"): block["toolUse"].get("name")
        for block in messages[-2].get("content", [])
        if isinstance(block, dict) and "toolUse" in block
    }
    return any(
        isinstance(block, dict)
        and block.get("toolResult", {}).get("status") == "error"
        and calls.get(block["toolResult"].get("toolUseId")) in names
        for block in messages[-1].get("content", [])
    )


class ScriptedModel(Model):
    """Replays a script of text replies and tool calls (see the module docstring)."""

    def __init__(
        self,
        script: Sequence[ScriptEntry] = (),
        *,
        structured: Mapping[str, Mapping[str, Any]] | None = None,
        model_id: str = "scripted",
    ) -> None:
        self._script: list[ScriptEntry] = list(script)
        self._structured = {name: dict(fields) for name, fields in (structured or {}).items()}
        self._lock = threading.Lock()
        self.config: dict[str, Any] = {"model_id": model_id}
        self.calls = 0

    @property
    def remaining(self) -> int:
        """How many script entries have not been replayed yet."""
        return len(self._script)

    def update_config(self, **model_config: Any) -> None:
        self.config.update(model_config)

    def get_config(self) -> dict[str, Any]:
        return self.config

    def structured_output(
        self, output_model: type[T], prompt: Any, system_prompt: str | None = None, **kwargs: Any
    ) -> AsyncGenerator[dict[str, T | Any], None]:
        fields = self._structured.get(output_model.__name__)
        if fields is None:
            raise ScriptExhaustedError(f"ScriptedModel: no structured reply for {output_model.__name__!r}")
        value = output_model.model_validate(fields)

        async def generate() -> AsyncGenerator[dict[str, T | Any], None]:
            yield {"output": value}

        return generate()

    def _next_entry(self, messages: Any, tool_specs: Sequence[Mapping[str, Any]] | None) -> ScriptEntry:
        if _rejected_structured_reply(messages, self._structured):
            # A structured reply the output class rejected: answer in text rather than repeat it forever.
            return "ScriptedModel: the scripted structured reply was rejected."
        for spec in tool_specs or ():
            name = spec.get("name")
            if isinstance(name, str) and name in self._structured:
                return ToolUse(name, self._structured[name])
        with self._lock:
            self.calls += 1
            if not self._script:
                raise ScriptExhaustedError(f"ScriptedModel: script exhausted after {self.calls - 1} model calls")
            return self._script.pop(0)

    async def stream(
        self,
        messages: Any,
        tool_specs: Any = None,
        system_prompt: str | None = None,
        **kwargs: Any,
    ) -> AsyncIterable[Any]:
        entry = self._next_entry(messages, tool_specs)
        calls = [entry] if isinstance(entry, ToolUse) else [] if isinstance(entry, str) else list(entry)
        yield {"messageStart": {"role": "assistant"}}
        if isinstance(entry, str):
            for event in _text_events(entry):
                yield event
        for call in calls:
            for event in _tool_events(call):
                yield event
        yield {"messageStop": {"stopReason": "tool_use" if calls else "end_turn"}}
        yield {
            "metadata": {"usage": {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0}, "metrics": {"latencyMs": 0}}
        }


Policy = Callable[[list[dict[str, Any]]], ScriptEntry]
"""What a ``PolicyModel`` says next, from the conversation so far (Strands messages)."""


class PolicyModel(ScriptedModel):
    """A scripted model whose next turn is ``policy(messages)`` (a text reply, a tool call or several) instead of
    the next entry of a fixed script: it answers from the conversation so far, so a replay that changes one step
    changes what it does next (counterfactual replay), and one model serves any number of runs."""

    def __init__(self, policy: Policy, *, model_id: str = "policy") -> None:
        super().__init__(model_id=model_id)
        self.policy = policy

    def _next_entry(self, messages: Any, tool_specs: Sequence[Mapping[str, Any]] | None) -> ScriptEntry:
        with self._lock:
            self.calls += 1
        return self.policy(messages)
