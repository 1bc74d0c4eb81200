"""Seeded, realistic errors in the predicted side of paired dialogs, recorded in their metadata.

``perturb`` picks each turn with probability ``rate`` and gives a picked turn one error, drawn among
the kinds that apply to it (an action turn: ``arg_value``, ``arg_drop``, ``method``; a response
turn: ``reply_number``, ``reply_swap``). Replacements come from a ``PerturbationPool`` of values
seen in a corpus (``build_pool``), and a replacement is kept only when the comparison chain without
a model (the ``exact`` scorer) finds it not equivalent to gold, so with that scorer every perturbed
turn fails with its ``EXPECTED_REASON``. When an ``arg_value`` error's gold value appears word for
word in the reply right after the action, that reply repeats the wrong value (``propagated``): the
error an agent makes when it reports what it did. Which turns were perturbed, and how, is recorded
in ``metadata["perturbations"]`` (read it back with ``perturbations_of``). Draws depend only on the
``random.Random`` given (``perturb_dialogs`` seeds one per dialog from a seed and the dialog id).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from aem_strands.compare.chain import Comparator
from aem_strands.compare.scorers import ExactScorer
from aem_strands.errors import ConfigError
from aem_strands.types import (
    ActionCall,
    Dialog,
    FailureReason,
    JsonValue,
    Reply,
    Turn,
    TurnContent,
    TurnKind,
    ValueKind,
)

PERTURBATIONS_KEY = "perturbations"
"""The metadata key under which ``perturb`` records its errors."""


class Perturbation(str, Enum):
    """The kinds of error ``perturb`` puts into a predicted turn."""

    ARG_VALUE = "arg_value"
    """One argument's value replaced by another value of the same slot (same tool first)."""
    ARG_DROP = "arg_drop"
    """One argument left out."""
    METHOD = "method"
    """Another action of the same tool called."""
    REPLY_NUMBER = "reply_number"
    """One number in the reply changed."""
    REPLY_SWAP = "reply_swap"
    """The reply replaced by another reply seen with one of the dialog's tools."""
    PROPAGATED = "propagated"
    """The reply after an ``arg_value`` error repeats the wrong value (never drawn on its own)."""


EXPECTED_REASON: Mapping[Perturbation, FailureReason] = {
    Perturbation.ARG_VALUE: FailureReason.INCONSISTENT_PARAMETER_VALUES,
    Perturbation.ARG_DROP: FailureReason.MISSING_PARAMETERS,
    Perturbation.METHOD: FailureReason.ACTION_MISMATCH,
    Perturbation.REPLY_NUMBER: FailureReason.INCONSISTENT_RESPONSE,
    Perturbation.REPLY_SWAP: FailureReason.INCONSISTENT_RESPONSE,
    Perturbation.PROPAGATED: FailureReason.INCONSISTENT_RESPONSE,
}
"""The turn's own failure reason each perturbation is meant to produce."""

ACCEPTED_REASONS: Mapping[Perturbation, frozenset[FailureReason]] = {
    kind: frozenset({reason}) for kind, reason in EXPECTED_REASON.items()
} | {
    # Another reply of the dialog's tools usually asks for other information: gold's question is then left
    # unasked (incomplete) as often as contradicted; both are the failure the swap plants.
    Perturbation.REPLY_SWAP: frozenset({FailureReason.INCONSISTENT_RESPONSE, FailureReason.INCOMPLETE_RESPONSE}),
}
"""The own failure reasons that count as the planted error's (every perturbation must fail its turn)."""


@dataclass(frozen=True)
class PerturbationRecord:
    """One perturbed turn: which, how, and the gold and predicted values of the changed field.

    ``from_turn`` is the action turn whose wrong value a ``propagated`` reply repeats.
    """

    turn_no: int
    kind: Perturbation
    field: str
    gold: JsonValue
    predicted: JsonValue
    from_turn: int | None = None

    def to_dict(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {
            "turn_no": self.turn_no,
            "kind": self.kind.value,
            "field": self.field,
            "gold": self.gold,
            "predicted": self.predicted,
        }
        if self.from_turn is not None:
            out["from_turn"] = self.from_turn
        return out


@dataclass(frozen=True)
class PerturbationPool:
    """Values seen in a corpus, from which perturbations draw realistic wrong values.

    ``slot_values`` maps ``"<tool_id>.<slot>"`` and ``"*.<slot>"`` (any tool) to the distinct string
    values of that argument; ``methods`` maps a tool to its actions; ``replies`` maps a tool to the
    replies of dialogs that use it, and ``"*"`` to all replies. Tuples are sorted, so a draw
    depends on the random generator only.
    """

    slot_values: Mapping[str, tuple[str, ...]]
    methods: Mapping[str, tuple[str, ...]]
    replies: Mapping[str, tuple[str, ...]]


def _dialog_tools(dialog: Dialog) -> list[str]:
    services = dialog.metadata.get("services")
    if isinstance(services, list) and services and all(isinstance(s, str) for s in services):
        return list(services)
    return sorted({t.gold.tool_id for t in dialog.turns if isinstance(t.gold, ActionCall)})


def _sorted_values(groups: Mapping[str, set[str]]) -> dict[str, tuple[str, ...]]:
    return {key: tuple(sorted(values)) for key, values in sorted(groups.items())}


def build_pool(dialogs: Iterable[Dialog]) -> PerturbationPool:
    """The pool of alternatives found in the gold side of ``dialogs`` (string argument values only)."""
    slots: defaultdict[str, set[str]] = defaultdict(set)
    methods: defaultdict[str, set[str]] = defaultdict(set)
    replies: defaultdict[str, set[str]] = defaultdict(set)
    for dialog in dialogs:
        tools = _dialog_tools(dialog)
        for turn in dialog.turns:
            gold = turn.gold
            if isinstance(gold, ActionCall):
                methods[gold.tool_id].add(gold.action)
                for slot, value in gold.args.items():
                    if isinstance(value, str):
                        slots[f"{gold.tool_id}.{slot}"].add(value)
                        slots[f"*.{slot}"].add(value)
            elif isinstance(gold, Reply):
                for tool in (*tools, "*"):
                    replies[tool].add(gold.response)
    return PerturbationPool(_sorted_values(slots), _sorted_values(methods), _sorted_values(replies))


@dataclass(frozen=True)
class _Draw:
    """What every draw needs: the generator, the pool, the dialog's tools, and a model-free comparator."""

    rng: random.Random
    pool: PerturbationPool
    tools: tuple[str, ...]
    exact: Comparator

    def is_error(self, gold: JsonValue, predicted: JsonValue, kind: ValueKind) -> bool:
        """Whether the comparison chain without a model finds ``predicted`` not equivalent to ``gold``."""
        return self.exact.compare(gold, predicted, kind).equivalent is False

    def other(self, candidates: Sequence[str], gold: JsonValue, kind: ValueKind) -> str | None:
        """A candidate that is an error against ``gold``, or ``None``."""
        for _ in range(8):  # a few blind draws suffice unless most candidates equal gold
            if not candidates:
                return None
            candidate = candidates[self.rng.randrange(len(candidates))]
            if self.is_error(gold, candidate, kind):
                return candidate
        others = [c for c in candidates if self.is_error(gold, c, kind)]
        return self.rng.choice(others) if others else None


@dataclass(frozen=True)
class _Edit:
    content: TurnContent
    kind: Perturbation
    field: str
    gold: JsonValue
    predicted: JsonValue


def _edit_action(call: ActionCall, kind: Perturbation, draw: _Draw) -> _Edit | None:
    args = call.args
    if kind is Perturbation.ARG_VALUE:
        slots = [k for k in sorted(args) if isinstance(args[k], str)]
        draw.rng.shuffle(slots)
        for slot in slots:
            values = draw.pool.slot_values
            other = draw.other(values.get(f"{call.tool_id}.{slot}", ()), args[slot], ValueKind.ARGUMENT)
            if other is None:
                other = draw.other(values.get(f"*.{slot}", ()), args[slot], ValueKind.ARGUMENT)
            if other is not None:
                new_args = {k: other if k == slot else v for k, v in args.items()}
                return _Edit(replace(call, args=new_args), kind, f"args.{slot}", args[slot], other)
        return None
    if kind is Perturbation.ARG_DROP:
        if not args:
            return None
        slot = draw.rng.choice(sorted(args))
        new_args = {k: v for k, v in args.items() if k != slot}
        return _Edit(replace(call, args=new_args), kind, f"args.{slot}", args[slot], None)
    methods = [m for m in draw.pool.methods.get(call.tool_id, ()) if m != call.action]
    if not methods:
        return None
    other = draw.rng.choice(methods)
    return _Edit(replace(call, action=other), kind, "action", call.action, other)


_DIGITS = re.compile(r"[0-9]+")


def _edit_reply(reply: Reply, kind: Perturbation, draw: _Draw) -> _Edit | None:
    text = reply.response
    if kind is Perturbation.REPLY_NUMBER:
        numbers = list(_DIGITS.finditer(text))
        if not numbers:
            return None
        match = draw.rng.choice(numbers)
        new = str(int(match.group()) + draw.rng.randint(1, 9)).zfill(len(match.group()))
        changed = text[: match.start()] + new + text[match.end() :]
        if not draw.is_error(text, changed, ValueKind.RESPONSE):
            return None
        return _Edit(Reply(changed), kind, "response", match.group(), new)
    tool = draw.rng.choice(draw.tools) if draw.tools else "*"
    replies = draw.pool.replies
    other = draw.other(replies.get(tool) or replies.get("*", ()), text, ValueKind.RESPONSE)
    return None if other is None else _Edit(Reply(other), kind, "response", text, other)


_ACTION_KINDS = (Perturbation.ARG_VALUE, Perturbation.ARG_DROP, Perturbation.METHOD)
_REPLY_KINDS = (Perturbation.REPLY_NUMBER, Perturbation.REPLY_SWAP)


def _edit(content: TurnContent | None, draw: _Draw) -> _Edit | None:
    """One error for ``content``: kinds are tried in a random order until one applies."""
    if not isinstance(content, (ActionCall, Reply)):
        return None
    kinds = list(_ACTION_KINDS if isinstance(content, ActionCall) else _REPLY_KINDS)
    draw.rng.shuffle(kinds)
    for kind in kinds:
        edit = (
            _edit_action(content, kind, draw) if isinstance(content, ActionCall) else _edit_reply(content, kind, draw)
        )
        if edit is not None:
            return edit
    return None


def _propagate(turn: Turn, wrong: _Edit, draw: _Draw) -> Reply | None:
    """``turn``'s reply repeating ``wrong``'s value in place of gold's, if the reply states gold's value."""
    if turn.kind is not TurnKind.RESPONSE or not isinstance(turn.predicted, Reply):
        return None
    if not isinstance(wrong.gold, str) or not isinstance(wrong.predicted, str) or not wrong.gold.strip():
        return None
    pattern = re.compile(rf"(?<!\w){re.escape(wrong.gold)}(?!\w)")
    text = turn.predicted.response
    changed = pattern.sub(lambda _: str(wrong.predicted), text)
    return Reply(changed) if draw.is_error(text, changed, ValueKind.RESPONSE) else None


def perturb(dialog: Dialog, rng: random.Random, rate: float, *, pool: PerturbationPool | None = None) -> Dialog:
    """A copy of ``dialog`` whose predicted side has seeded, realistic errors (see the module docstring).

    Gold is unchanged. ``rate`` in [0, 1] is the chance that a turn is picked; a picked turn to
    which no kind applies (an action without arguments or alternatives...) stays correct.
    ``pool`` defaults to the alternatives found in ``dialog`` itself. The result's metadata adds
    ``"perturbations"``: one ``PerturbationRecord.to_dict()`` per changed turn, in turn order.
    """
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0.0 <= rate <= 1.0:
        raise ConfigError(f"perturbation rate must be a number in [0, 1], got {rate!r}")
    pool = pool if pool is not None else build_pool([dialog])
    draw = _Draw(rng, pool, tuple(_dialog_tools(dialog)), Comparator(ExactScorer()))
    turns = list(dialog.turns)
    records: list[PerturbationRecord] = []
    repeated: set[int] = set()  # indexes of replies already wrong because they repeat an earlier error
    for index, turn in enumerate(turns):
        if index in repeated or rng.random() >= rate:
            continue
        edit = _edit(turn.predicted, draw)
        if edit is None:
            continue
        turns[index] = replace(turn, predicted=edit.content)
        records.append(PerturbationRecord(turn.turn_no, edit.kind, edit.field, edit.gold, edit.predicted))
        if edit.kind is Perturbation.ARG_VALUE and index + 1 < len(turns):
            after = turns[index + 1]
            reply = _propagate(after, edit, draw)
            if reply is not None:
                turns[index + 1] = replace(after, predicted=reply)
                repeated.add(index + 1)
                records.append(
                    PerturbationRecord(
                        after.turn_no, Perturbation.PROPAGATED, "response", edit.gold, edit.predicted, turn.turn_no
                    )
                )
    metadata = {**dialog.metadata, PERTURBATIONS_KEY: [r.to_dict() for r in records]}
    return replace(dialog, turns=tuple(turns), metadata=metadata)


def perturb_dialogs(
    dialogs: Sequence[Dialog], *, seed: int | str, rate: float, pool: PerturbationPool | None = None
) -> list[Dialog]:
    """``perturb`` every dialog with its own generator, seeded by ``seed`` and the dialog id.

    A dialog's errors therefore do not depend on which other dialogs are in the list (only on the
    pool, which defaults to ``build_pool(dialogs)``).
    """
    pool = pool if pool is not None else build_pool(dialogs)
    return [perturb(d, random.Random(f"{seed}:{d.dialog_id}"), rate, pool=pool) for d in dialogs]


def perturbations_of(dialog: Dialog) -> tuple[PerturbationRecord, ...]:
    """The perturbations recorded in a dialog's metadata (empty when it was never perturbed)."""
    out: list[PerturbationRecord] = []
    for raw in dialog.metadata.get(PERTURBATIONS_KEY) or ():
        from_turn = raw.get("from_turn")
        out.append(
            PerturbationRecord(
                int(raw["turn_no"]),
                Perturbation(raw["kind"]),
                str(raw["field"]),
                raw.get("gold"),
                raw.get("predicted"),
                None if from_turn is None else int(from_turn),
            )
        )
    return tuple(out)
