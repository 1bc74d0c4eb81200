"""Where gold comes from: the ``aem`` entry of a case's metadata, turned into a ``Dialog`` to score.

Two shapes are supported (both survive ``Experiment.to_file`` / ``from_file``, the result cache and
the report, since they are plain JSON in ``Case.metadata``):

- **offline replay** — ``{"aem": {"dialog": <paired dialog>}}``: the annotated paired turns of
  SPEC §3 (a bare list of turns or ``{"dialog_id", "metadata", "turns"}``). ``offline_task``
  returns the predicted side as a real ``Session`` (``offline_session``; a list ``[{"turn_no",
  "predict_turn"}, ...]`` is accepted too); the gold side is always read from the case, so edited gold
  is scored even against a cached trajectory.
- **live / unpaired** — ``{"aem": {"gold": [gold turns], "user_messages": [...], "agent":
  "MODULE:ATTR"}}``: gold turns in the unpaired format (``aem_strands.unpaired``). The predicted
  turns are the task's trajectory: a Strands ``Session`` (mapped by ``session_to_turns``) or a list
  of unpaired-format turns; they are **aligned** to gold (``aem_strands.align``).

- **host fields** — a case without ``metadata["aem"]`` may carry its gold in the host's own fields:
  ``expected_trajectory`` (the tool calls: names, or ``{"name", "arguments"}``) and
  ``expected_output`` (the final reply); see ``host_gold``. The predicted side is the task's
  trajectory as for live cases (a ``Session``, unpaired turns, or the host's list of tool names); a
  task that returns only its reply (no trajectory) is one predicted reply.

When gold names a reply, a task's non-empty ``output`` is the agent's final reply: it ends the predicted
turns unless they already end with it (``_final_reply``). Gold that names no reply (only tool calls, e.g.
``expected_trajectory`` without ``expected_output``) leaves the replies free: the predicted replies are
not turns to judge, so a right run of the right tools passes whatever the agent said.

- **recorded trace** — ``{"aem": {"trace": <trace document>}}`` (as ``export-regression`` writes for
  ``aem-strands trace`` output): ``offline_task`` replays its steps, ``AemTraceEvaluator`` judges the trace.

``offline_case`` and ``live_case`` build such cases.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from strands_evals import Case
from strands_evals.types.trace import Session

from aem_strands.align import AlignOptions
from aem_strands.errors import InputError, Location
from aem_strands.load import parse_dialog
from aem_strands.strands.session import PredictedTurn, offline_turns, session_to_turns
from aem_strands.types import Dialog, JsonValue, Reply
from aem_strands.unpaired import parse_unpaired

AEM_KEY = "aem"


@dataclass(frozen=True)
class CaseDialog:
    """The dialog to score for one case, how it was obtained, and the live turns it came from."""

    dialog: Dialog
    mode: str
    predicted: tuple[PredictedTurn, ...] = ()
    spans: Mapping[int, Mapping[str, JsonValue]] = field(default_factory=dict)
    """Turn number -> the predicted turn's ``span_id``, ``user_turn`` and ``agent`` (for a Session trajectory)."""


def dialog_context(dialog: JsonValue) -> dict[str, Any]:
    """The dialog record's ``metadata.goal`` (a string) and ``metadata.user_messages`` (strings), those it has."""
    meta = dialog.get("metadata") if isinstance(dialog, Mapping) else None
    out: dict[str, Any] = {}
    if isinstance(meta, Mapping):
        if isinstance(meta.get("goal"), str):
            out["goal"] = meta["goal"]
        messages = meta.get("user_messages")
        if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
            out["user_messages"] = list(messages)
    return out


def offline_case(
    dialog: JsonValue, *, name: str, metadata: Mapping[str, Any] | None = None, **case: Any
) -> Case[Any, Any]:
    """A case carrying an annotated paired dialog (SPEC §3) for offline replay.

    The dialog's ``metadata.goal`` and ``metadata.user_messages`` travel in ``metadata.aem`` too: the replayed
    Session's user prompts are those messages (``offline_task``) and a trace's goal is that goal
    (``AemTraceEvaluator``), so values the user gave are grounded.
    """
    context = dialog_context(dialog)
    return Case(name=name, input=name, metadata={**(metadata or {}), AEM_KEY: {"dialog": dialog, **context}}, **case)


def live_case(
    gold: Sequence[Mapping[str, Any]],
    user_messages: Sequence[str],
    *,
    name: str,
    agent: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    **case: Any,
) -> Case[Any, Any]:
    """A case carrying gold turns (unpaired format) and the user messages to drive a live agent.

    ``input`` is the one user message as a string (what ``strands-evals run --agent`` sends), or the
    list of them. ``agent`` is the ``MODULE:ATTR`` of an agent factory, read by
    ``make_live_task(allow=...)``.
    """
    aem: dict[str, Any] = {"gold": [dict(t) for t in gold], "user_messages": list(user_messages)}
    if agent is not None:
        aem["agent"] = agent
    messages = list(user_messages)
    first = messages[0] if len(messages) == 1 else messages  # one message: a plain string, as `run --agent` sends
    return Case(name=name, input=first, metadata={**(metadata or {}), AEM_KEY: aem}, **case)


HOST_KEYS = ("input", "expected_output", "expected_assertion", "expected_trajectory", "expected_interactions")
"""The ``Case`` fields a report row keeps (besides name and metadata) that a regression case carries over."""


def host_fields(case: Mapping[str, Any]) -> dict[str, Any]:
    """The ``HOST_KEYS`` a report's case record holds, but a ``Session`` given as ``expected_trajectory`` (a run's,
    not a case's field)."""
    fields = {key: case.get(key) for key in HOST_KEYS if case.get(key) is not None}
    if not isinstance(fields.get("expected_trajectory", []), list):
        del fields["expected_trajectory"]
    return fields


def aem_entry(metadata: Mapping[str, Any] | None, case_name: str | None) -> dict[str, Any]:
    """The ``aem`` entry of a case's metadata, or an ``InputError`` naming what is missing."""
    entry = (metadata or {}).get(AEM_KEY)
    if not isinstance(entry, dict) or not ({"dialog", "gold", "session", "trace"} & set(entry)):
        raise InputError(
            "case metadata needs an 'aem' object with 'dialog' (offline) or 'gold' (live) turns, or a recorded "
            "'session' or 'trace'",
            Location(dialog_id=case_name, field="metadata.aem"),
        )
    return entry


def _offline_spans(trajectory: object) -> dict[int, dict[str, JsonValue]]:
    carried = offline_turns(trajectory) if isinstance(trajectory, Session) else None
    return {t["turn_no"]: {"span_id": t["span_id"], "user_turn": t["user_turn"], "agent": None} for t in carried or []}


def _live_spans(dialog: Dialog, live: tuple[PredictedTurn, ...]) -> dict[int, dict[str, JsonValue]]:
    alignment = dialog.metadata.get("alignment")
    if not live or not isinstance(alignment, dict):
        return {}
    out: dict[int, dict[str, JsonValue]] = {}
    for pair in alignment.get("pairs", []):
        index = pair.get("predicted_index")
        if isinstance(index, int) and 0 <= index < len(live):
            turn = live[index]
            out[pair["turn_no"]] = {"span_id": turn.span_id, "user_turn": turn.user_turn, "agent": turn.agent}
    return out


def _offline(raw: JsonValue, trajectory: object, name: str) -> Dialog:
    where = Location(dialog_id=name, field="actual_trajectory")
    if isinstance(trajectory, Session):
        carried = offline_turns(trajectory)
        if carried is None:
            raise InputError(
                "offline replay needs the Session offline_task builds (predicted turns in span metadata)", where
            )
        trajectory = carried
    if not isinstance(trajectory, list):
        raise InputError(
            "offline replay needs the task's trajectory as a Session or a list of predicted turns, "
            f"got {type(trajectory).__name__}",
            where,
        )
    by_turn: dict[int, Any] = {}
    for item in trajectory:
        if not isinstance(item, dict) or not isinstance(item.get("turn_no"), int) or "predict_turn" not in item:
            raise InputError("each trajectory item must be {'turn_no': int, 'predict_turn': {...}}", where)
        by_turn[item["turn_no"]] = item["predict_turn"]
    record: dict[str, Any] = {"dialog_id": name, "turns": raw} if isinstance(raw, list) else dict(raw)
    turns = record.get("turns")
    if not isinstance(turns, list):
        raise InputError(
            "offline dialog needs a 'turns' list", Location(dialog_id=name, field="metadata.aem.dialog.turns")
        )
    absent: set[int] = set()
    merged = []
    for turn in turns:
        if isinstance(turn, dict) and isinstance(turn.get("turn_no"), int):
            number = turn["turn_no"]
            if number not in by_turn:
                absent.add(number)
            merged.append({**turn, "predict_turn": by_turn.get(number, turn.get("gold_turn"))})
        else:
            merged.append(turn)
    dialog = parse_dialog({**record, "turns": merged}, default_id=name)
    if not absent:
        return dialog
    return replace(dialog, turns=tuple(replace(t, predicted=None) if t.turn_no in absent else t for t in dialog.turns))


def host_gold(expected_trajectory: object, expected_output: object, case_name: str | None) -> list[dict[str, Any]]:
    """Gold turns (unpaired format) from the host's own ``Case`` fields.

    ``expected_trajectory`` lists the tool calls in order: a tool name (any arguments: only the tool is
    compared) or an object ``{"name" | "tool" | "tool_id", "arguments" | "args" | "input"}`` (the given
    arguments are compared; none given: the tool only). ``expected_output``, a string, is the final
    reply. Raises ``InputError`` naming the item when one has another shape.
    """
    gold: list[dict[str, Any]] = []
    items = expected_trajectory if isinstance(expected_trajectory, list) else []
    for index, item in enumerate(items):
        where = Location(dialog_id=case_name, turn_no=index + 1, field="expected_trajectory")
        if isinstance(item, str) and item:
            gold.append({"turn": "Tool", "tool_id": item, "action": item, "args": {}, "compare_args": []})
            continue
        tool = next((item[k] for k in ("name", "tool", "tool_id") if isinstance(item, dict) and k in item), None)
        args = next((item[k] for k in ("arguments", "args", "input") if isinstance(item, dict) and k in item), None)
        if not isinstance(tool, str) or not tool or (args is not None and not isinstance(args, dict)):
            raise InputError("expected a tool name or {'name': str, 'arguments': {...}}, got " + repr(item)[:80], where)
        call: dict[str, Any] = {"turn": "Tool", "tool_id": tool, "action": tool, "args": dict(args or {})}
        if args is None:
            call["compare_args"] = []
        gold.append(call)
    if isinstance(expected_output, str) and expected_output.strip():
        gold.append({"turn": "Agent", "response": expected_output})
    return gold


def _predicted_list(trajectory: list[Any]) -> list[Any]:
    """A host-style trajectory of tool names becomes unpaired tool turns; any other list is kept."""
    if not trajectory or not all(isinstance(item, str) for item in trajectory):
        return list(trajectory)
    return [{"turn": "Tool", "tool_id": t, "action": t, "args": {}} for t in trajectory]


def _final_reply(predicted: Sequence[Any], actual_output: object) -> str | None:
    """The task's output as the final reply, when the predicted turns do not already end with it.

    A task's ``output`` is the agent's final reply to the user (the host's ``TaskOutput``), so gold's
    final reply is compared with it even when the trajectory lists only tool calls; whitespace at
    the ends does not count (the host's mapper keeps a trailing newline).
    """
    if not isinstance(actual_output, str) or not actual_output.strip():
        return None
    last = predicted[-1] if predicted else None
    said = last.get("response") if isinstance(last, Mapping) and last.get("turn") == "Agent" else None
    return None if isinstance(said, str) and said.strip() == actual_output.strip() else actual_output


def case_dialog(
    metadata: Mapping[str, Any] | None,
    trajectory: object,
    *,
    name: str | None,
    align: AlignOptions | None = None,
    sub_agents: str = "auto",
    expected_trajectory: object = None,
    expected_output: object = None,
    actual_output: object = None,
) -> CaseDialog:
    """The dialog to score from a case's gold and its task trajectory (see the module docstring).

    Gold is ``metadata["aem"]`` when present, else the host's ``expected_trajectory`` /
    ``expected_output`` (``host_gold``). ``sub_agents`` says how a live ``Session``'s nested agents are
    read (``session_to_turns``; ``auto``: their calls are turns only when gold names one). When gold names
    a reply, a non-empty ``actual_output`` is the final reply: it is added as the last predicted turn unless
    the predicted turns already end with that reply; gold that names no reply drops the predicted replies.
    """
    label = name or "case"
    if AEM_KEY not in (metadata or {}) and (expected_trajectory is not None or expected_output is not None):
        entry: dict[str, Any] = {"gold": host_gold(expected_trajectory, expected_output, name)}
    else:
        entry = aem_entry(metadata, name)
    if "dialog" in entry:
        return CaseDialog(_offline(entry["dialog"], trajectory, label), "offline", spans=_offline_spans(trajectory))
    if "gold" not in entry:
        raise InputError("a recorded session has no gold turns to score against ('gold' or the host's expected_*)",
                         Location(dialog_id=label, field="metadata.aem.gold"))  # fmt: skip
    live: tuple[PredictedTurn, ...] = ()
    gold = entry["gold"] if isinstance(entry["gold"], list) else []
    if isinstance(trajectory, Session):
        live = tuple(session_to_turns(trajectory, sub_agents=sub_agents, gold=[g for g in gold if isinstance(g, dict)]))
        predicted: list[Any] = [turn.to_dict() for turn in live]
    elif isinstance(trajectory, list):
        predicted = _predicted_list(trajectory)
    elif trajectory is None and isinstance(actual_output, str):
        predicted = []  # a task that returns only its reply
    else:
        raise InputError(
            f"live scoring needs a Session or a list of predicted turns as trajectory, got {type(trajectory).__name__}",
            Location(dialog_id=label, field="actual_trajectory"),
        )
    names_reply = any(isinstance(g, Mapping) and g.get("turn") == "Agent" for g in gold)
    if not names_reply:  # nothing to compare a reply with: a reply is free, not an extra turn
        kept = [
            i for i, turn in enumerate(predicted) if not (isinstance(turn, Mapping) and turn.get("turn") == "Agent")
        ]
        predicted = [predicted[i] for i in kept]
        live = tuple(live[i] for i in kept) if live else live
    final = _final_reply(predicted, actual_output) if names_reply else None
    if final is not None:
        predicted.append({"turn": "Agent", "response": final})
        if live:
            live = (*live, PredictedTurn(Reply(final), live[-1].user_turn))
    extra = {k: v for k, v in (metadata or {}).items() if k != AEM_KEY}
    raw = {"dialog_id": label, "metadata": extra, "gold": entry["gold"], "predicted": predicted}
    dialog = parse_unpaired(raw).align(align)
    mode = "live" if live or isinstance(trajectory, Session) else "unpaired"
    return CaseDialog(dialog, mode, live, _live_spans(dialog, live))
