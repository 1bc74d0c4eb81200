"""Our annotated dialogs as traces.

A Strands ``Session`` and OpenTelemetry span exports become traces in the Strands adapter
(``aem_strands.strands.trace_adapter``), so this module never sees host types.

- ``trace_from_dialog``: the predicted side of a dialog as steps (a tool turn is a ``tool_call`` step, an agent
  turn a ``response`` step; a failed call's ``{"error": ...}`` observation is the step's ``error``), the gold side
  as ``TraceGold`` (the expected tools in order with their arguments, the last gold reply). ``metadata.goal`` and
  ``metadata.user_messages`` (a list of texts, one before each stretch of agent turns that ends in a reply) fill
  the goal and the user's steps when present.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from aem_strands.trace.types import ActionType, ExpectedCall, Step, Trace, TraceGold
from aem_strands.types import ActionCall, Dialog, JsonValue, Reply

# ---------------------------------------------------------------------------------------------------- dialogs


def trace_error(observation: JsonValue) -> str | None:
    """The error text of an observation that is only ``{"error": ...}`` (how failed calls are recorded), else
    ``None``."""
    if isinstance(observation, Mapping) and set(observation) == {"error"}:
        error = observation["error"]
        return error if isinstance(error, str) else json.dumps(error, ensure_ascii=False)
    return None


def trace_from_dialog(dialog: Dialog) -> Trace:
    """The trace of a dialog's predicted side, with its gold side as ``TraceGold`` (see the module docstring)."""
    meta = dialog.metadata
    users = [str(m) for m in meta.get("user_messages") or [] if isinstance(m, str)]
    goal = meta.get("goal") if isinstance(meta.get("goal"), str) else (users[0] if users else None)
    steps: list[Step] = []
    user_no, open_turn = 0, False

    def add(**fields: Any) -> None:
        steps.append(Step(step_id=f"s{len(steps) + 1}", index=len(steps), **fields))

    for turn in dialog.turns:
        predicted = turn.predicted
        if predicted is None:
            continue
        if not open_turn and user_no < len(users):
            add(action_type=ActionType.USER, content=users[user_no])
            user_no += 1
        open_turn = True
        if isinstance(predicted, ActionCall):
            add(action_type=ActionType.TOOL_CALL, tool_name=predicted.action, arguments=dict(predicted.args),
                observation=predicted.observation, error=trace_error(predicted.observation),
                latency_ms=turn.latency_ms)  # fmt: skip
        else:
            add(action_type=ActionType.RESPONSE, content=predicted.response, latency_ms=turn.latency_ms)
            open_turn = False
    gold_calls = [t.gold for t in dialog.turns if isinstance(t.gold, ActionCall)]
    gold_replies = [t.gold.response for t in dialog.turns if isinstance(t.gold, Reply)]
    has_gold = any(t.gold is not None for t in dialog.turns)
    gold = (
        TraceGold(
            expected_tools=tuple(c.action for c in gold_calls),
            expected_arguments=tuple(dict(c.args) for c in gold_calls),
            expected_final_response=gold_replies[-1] if gold_replies else None,
            # whole, as score reads them: compare_args, and the gold's observation (a failed gold call)
            expected_calls=tuple(
                ExpectedCall(c.action, dict(c.args), c.compare_args, c.observation) for c in gold_calls
            ),
        )
        if has_gold
        else None
    )
    replies = [s.content for s in steps if s.action_type is ActionType.RESPONSE]
    return Trace(
        trace_id=dialog.dialog_id, steps=tuple(steps), case_id=dialog.dialog_id, goal=goal,
        final_response=replies[-1] if replies else None, gold=gold,
        metrics={k: v for k, v in meta.items() if k in ("latency_ms", "tokens", "cost_usd")},
        metadata={k: v for k, v in meta.items() if k != "alignment"},
    )  # fmt: skip
