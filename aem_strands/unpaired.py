"""The unpaired dialog format: gold and predicted turns as two separate lists, aligned on load.

A dialog object ``{"dialog_id": str, "metadata": {...}, "gold": [turns], "predicted": [turns]}``.
Each turn is ``{"turn": "Agent", "response": str}`` or
``{"turn": "Tool", "tool_id": str, "action": str, "args": {...}}``, optionally with
``observation`` (what the tool returned) and ``latency_ms``. Gold turns may also carry ``tags``
(e.g. ``OrderInvariant_<group>``), ``depends_on`` (1-based positions of earlier gold turns),
``critical``, ``weight`` and ``optional`` (a gold turn the agent may skip without failing).

``parse_unpaired`` validates one such object into an ``UnpairedDialog``; its ``align`` method runs
``aem_strands.align.align_turns`` and returns the paired ``Dialog`` the pipeline scores, with the
alignment record in ``metadata["alignment"]``. Errors are ``InputError``s naming the file, the
dialog id, the turn (its 1-based position in its list) and the field (``gold.args``,
``predicted.tool_id``, ...).

``UnpairedTurnModel`` (pydantic) is the reference reading of a turn. The usual well-formed turn is read by a
hand-written check instead (``_quick_turn``: exact JSON types, known keys), which costs a fraction of a model
validation; any turn it does not accept as plainly well-formed goes to the model, so errors are the model's.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aem_strands.align import Alignment, AlignOptions, align_settled, align_turns
from aem_strands.decode import find_flaw, plain_json, plain_text
from aem_strands.errors import InputError, Location
from aem_strands.metadata import check_metadata
from aem_strands.types import (
    ActionCall,
    Dialog,
    JsonValue,
    Reply,
    Turn,
    TurnContent,
    TurnKind,
    make_call,
    make_reply,
    make_turn,
)

UNPAIRED_KEYS = frozenset({"dialog_id", "metadata", "gold", "predicted"})
_GOLD_ONLY = ("tags", "depends_on", "critical", "weight", "optional", "compare_args")


class UnpairedTurnModel(BaseModel):
    """One turn of the unpaired format, as it appears in a file."""

    model_config = ConfigDict(extra="forbid", strict=True)
    turn: Literal["Agent", "Tool"]
    response: str | None = None
    tool_id: str | None = None
    action: str | None = None
    args: dict[str, Any] | None = None
    observation: Any = None
    latency_ms: Annotated[float, Field(ge=0, allow_inf_nan=False)] | None = None
    tags: list[str] = Field(default_factory=list)
    depends_on: list[int] = Field(default_factory=list)
    critical: bool = False
    weight: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 1.0
    optional: bool = False
    compare_args: list[str] | None = None


@dataclass(frozen=True)
class UnpairedDialog:
    """A validated unpaired dialog: gold turns (numbered 1..n, ``predicted=None``) and predicted contents."""

    dialog_id: str
    gold: tuple[Turn, ...]
    predicted: tuple[TurnContent, ...]
    metadata: dict[str, JsonValue] = field(default_factory=dict)
    predicted_latency_ms: tuple[float | None, ...] = ()

    def alignment(self, options: AlignOptions | None = None) -> Alignment:
        """The optimal alignment of this dialog's gold and predicted turns."""
        return align_turns(self.gold, self.predicted, options, dialog_id=self.dialog_id, metadata=self.metadata)

    def align(self, options: AlignOptions | None = None) -> Dialog:
        """The paired dialog to score; ``metadata["alignment"]`` records which turns were paired."""
        return self.settled(options)[0]

    def settled(self, options: AlignOptions | None = None) -> tuple[Dialog, list[bool] | None]:
        """``align``, and which of its turns are identical to gold where aligning found that out
        (``aem_strands.align.align_settled``): the pipeline then settles them without asking again."""
        result, identical = align_settled(
            self.gold, self.predicted, options, dialog_id=self.dialog_id, metadata=self.metadata
        )
        turns = result.dialog.turns
        if any(measured is not None for measured in self.predicted_latency_ms):
            latency = dict(enumerate(self.predicted_latency_ms))
            timed = []
            for turn, pair in zip(turns, result.pairs, strict=True):
                measured = latency.get(pair.predicted_index) if pair.predicted_index is not None else None
                timed.append(turn if measured is None else replace(turn, latency_ms=measured))
            turns = tuple(timed)
        metadata = {**result.dialog.metadata, "alignment": result.to_dict()}
        return Dialog(result.dialog.dialog_id, turns, metadata), identical


_TURN_PATH = re.compile(r"(turns|gold|predicted)\[(\d+)\]\.?")


def limit_error(raw: object, file: str | None, default_id: str | None) -> InputError | None:
    """The error for the first part of a raw dialog (paired, bare or unpaired) beyond a limit of
    ``aem_strands.decode``, naming its dialog, turn and field; ``None`` when it is within them."""
    flaw = find_flaw(raw)
    if flaw is None:
        return None
    body = {"dialog_id": default_id, "turns": raw} if isinstance(raw, list) else raw
    path = f"turns{flaw.path}" if isinstance(raw, list) else flaw.path
    named = body.get("dialog_id", default_id) if isinstance(body, dict) else None
    dialog_id = named if isinstance(named, str) and find_flaw(named) is None else None
    message, turn_no, field = flaw.message, None, path or None
    found = _TURN_PATH.match(path)
    turns = body.get(found.group(1)) if found and isinstance(body, dict) else None
    if found and isinstance(turns, list):
        side, position = found.group(1), int(found.group(2))
        if side == "turns":  # paired: the turn's own number, the field inside it
            number = turns[position].get("turn_no") if isinstance(turns[position], dict) else None
            if isinstance(number, int) and not isinstance(number, bool):
                turn_no, field = number, path[found.end() :] or None
        else:  # unpaired: the 1-based position in its list, the side as field (as for every unpaired error)
            turn_no, field, message = position + 1, side, f"{message} (at {path})"
    return InputError(message, Location(file, dialog_id, turn_no, field))


def is_unpaired(raw: object) -> bool:
    """Whether a decoded JSON value is a dialog in the unpaired format (has ``gold``/``predicted`` keys)."""
    return isinstance(raw, Mapping) and ("gold" in raw or "predicted" in raw)


def _content(model: UnpairedTurnModel, where: Location, side: str) -> TurnContent:
    def error(message: str, name: str) -> InputError:
        return InputError(message, Location(where.file, where.dialog_id, where.turn_no, f"{side}.{name}"))

    if model.turn == "Agent":
        for name in ("tool_id", "action", "args"):
            if getattr(model, name) is not None:
                raise error("an Agent turn is a reply: it takes 'response', not tool fields", name)
        if model.response is None:
            raise error("an Agent turn needs a 'response' string", "response")
        return Reply(model.response)
    if model.response is not None:
        raise error("a Tool turn is a tool call: it takes tool_id, action and args, not 'response'", "response")
    tool_id, action = model.tool_id, model.action
    if not tool_id:
        raise error("a Tool turn needs a non-empty 'tool_id' string", "tool_id")
    if not action:
        raise error("a Tool turn needs a non-empty 'action' string", "action")
    compare = None if model.compare_args is None else tuple(model.compare_args)
    return ActionCall(tool_id, action, dict(model.args or {}), model.observation, compare)


@dataclass(frozen=True)
class _Notes:
    """What a turn carries besides its content: its latency, and on the gold side its annotations."""

    latency_ms: float | None = None
    tags: tuple[str, ...] = ()
    depends_on: tuple[int, ...] = ()
    critical: bool = False
    weight: float = 1.0
    optional: bool = False


_NO_NOTES = _Notes()


_ParsedTurn = tuple[TurnContent, _Notes]
"""One validated turn of either side: its content and its notes (a plain tuple: one is built per turn, and a
named tuple's constructor is a Python-level call that costs several times as much)."""


_AGENT_KEYS = frozenset({"turn", "response", "latency_ms"})
_TOOL_KEYS = frozenset({"turn", "tool_id", "action", "args", "observation", "latency_ms"})
_GOLD_AGENT_KEYS = _AGENT_KEYS | (set(_GOLD_ONLY) - {"compare_args"})
_GOLD_TOOL_KEYS = _TOOL_KEYS | set(_GOLD_ONLY)
_ANNOTATIONS = frozenset({"latency_ms", *_GOLD_ONLY}) - {"compare_args"}
_EXACT_FLOAT = 2.0**53
"""Integers up to here become floats exactly (as the model turns a JSON integer into a float)."""


def _plain_number(value: object, low: float, inclusive: bool) -> float | None:
    """``value`` as the model reads a finite float field bounded below by ``low``; ``None`` for anything else."""
    if type(value) is float:
        number = value
    elif type(value) is int and abs(value) <= _EXACT_FLOAT:
        number = float(value)
    else:
        return None
    if not number < math.inf or not (number >= low if inclusive else number > low):  # NaN fails both
        return None
    return number


def _plain_strings(value: object) -> bool:
    return type(value) is list and all(type(item) is str for item in value)


def _quick_turn(item: dict[str, Any], gold: bool) -> _ParsedTurn | None:
    """The turn as ``_modelled_turn`` reads it, for the common well-formed case checked by hand (exact JSON types,
    known keys, nothing to report, every part within the input limits of ``aem_strands.decode`` as a turn of an
    unpaired object); ``None`` sends the turn to the model, whose errors name what is wrong.

    Never accepts a turn the model rejects, and gives the model's values where it accepts one
    (tests/test_fast_path_unpaired.py compares the two on generated turns)."""
    kind = item.get("turn")
    if kind == "Agent":
        if not (_GOLD_AGENT_KEYS if gold else _AGENT_KEYS).issuperset(item):
            return None
        response = item.get("response")
        if type(response) is not str or not plain_text(response):
            return None
        content: TurnContent = make_reply(response)
    elif kind == "Tool":
        if not (_GOLD_TOOL_KEYS if gold else _TOOL_KEYS).issuperset(item):
            return None
        tool_id, action, args = item.get("tool_id"), item.get("action"), item.get("args", _NO_ARGS)
        if type(tool_id) is not str or type(action) is not str or not tool_id or not action or type(args) is not dict:
            return None
        if not all(type(key) is str for key in args) or not _plain_args(tool_id + action, args):
            return None
        compare, observation = item.get("compare_args"), item.get("observation")
        if compare is not None and not (_plain_strings(compare) and plain_text("".join(compare))):
            return None
        if observation is not None and not plain_json(observation, _TURN_DEPTH + 1):
            return None
        content = make_call(tool_id, action, dict(args), observation, None if compare is None else tuple(compare))
    else:
        return None
    if _ANNOTATIONS.isdisjoint(item):  # the usual turn
        return content, _NO_NOTES
    notes = _notes(item)
    return None if notes is None else (content, notes)


_NO_ARGS: dict[str, Any] = {}
_TURN_DEPTH = 2
"""How deep a turn stands in an unpaired object (object, side list, turn): where its parts are checked."""


def _plain_args(text: str, args: dict[str, Any]) -> bool:
    """Whether a call's names (``text``: tool id and action) and arguments are within the input limits."""
    try:
        # All strings (the usual arguments): one check of names, keys and values together, in C.
        return plain_text("".join((text, *args, *args.values())))
    except TypeError:  # a value that is not a string: the general check
        return plain_text("".join((text, *args))) and plain_json(args, _TURN_DEPTH + 1)


def _notes(item: dict[str, Any]) -> _Notes | None:
    """A turn's latency and annotations as ``_quick_turn`` reads them (``None``: the model decides)."""
    latency: float | None = None
    if "latency_ms" in item:
        latency = _plain_number(item["latency_ms"], 0.0, inclusive=True)
        if latency is None:
            return None
    weight = _plain_number(item.get("weight", 1.0), 0.0, inclusive=False)
    tags, depends_on = item.get("tags", []), item.get("depends_on", [])
    critical, optional = item.get("critical", False), item.get("optional", False)
    if (
        weight is None
        or not _plain_strings(tags)
        or not plain_text("".join(tags))
        or type(depends_on) is not list
        or not all(type(dep) is int for dep in depends_on)
        or type(critical) is not bool
        or type(optional) is not bool
    ):
        return None
    return _Notes(latency, tuple(tags), tuple(depends_on), critical, weight, optional)


def _modelled_turn(item: dict[str, Any], side: str, where: Location) -> _ParsedTurn:
    """One turn validated by ``UnpairedTurnModel`` (the reference reading, and the one that names errors)."""
    try:
        model = UnpairedTurnModel.model_validate(item)
    except ValidationError as exc:
        detail = exc.errors()[0]
        name = ".".join(str(part) for part in detail["loc"])
        raise InputError(
            detail["msg"], Location(where.file, where.dialog_id, where.turn_no, f"{side}.{name}")
        ) from None
    if side == "predicted":
        for name in _GOLD_ONLY:
            if name in item:
                raise InputError(
                    f"{name!r} is a gold annotation; predicted turns do not take it",
                    Location(where.file, where.dialog_id, where.turn_no, f"predicted.{name}"),
                )
    notes = _Notes(
        model.latency_ms, tuple(model.tags), tuple(model.depends_on), model.critical, model.weight, model.optional
    )
    return _content(model, where, side), notes


def _parse_side(raw: object, side: str, where: Location, *, quick: bool = True) -> list[_ParsedTurn]:
    if not isinstance(raw, list):
        raise InputError(
            f"{side} must be a list of turns, got {type(raw).__name__}",
            Location(where.file, where.dialog_id, None, side),
        )
    gold = side == "gold"
    out = []
    for position, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            raise InputError(
                f"a turn must be a JSON object, got {type(item).__name__}",
                Location(where.file, where.dialog_id, position, side),
            )
        parsed = _quick_turn(item, gold) if quick else None
        out.append(parsed or _modelled_turn(item, side, Location(where.file, where.dialog_id, position)))
    return out


def _plain_sides(raw: dict[str, Any]) -> tuple[list[_ParsedTurn], list[_ParsedTurn]] | None:
    """Both sides of an unpaired object read by ``_quick_turn``, when every part of the object is plainly well
    formed and within the input limits (then ``limit_error`` has nothing to find and ``_parse_side`` nothing to
    report); ``None`` when any part is not, and the object is read the careful way, which names what is wrong."""
    if type(raw) is not dict or not UNPAIRED_KEYS.issuperset(raw):
        return None
    dialog_id, gold, predicted = raw.get("dialog_id"), raw.get("gold"), raw.get("predicted")
    if type(gold) is not list or type(predicted) is not list:
        return None
    if dialog_id is not None and (type(dialog_id) is not str or not plain_text(dialog_id)):
        return None
    if "metadata" in raw and not plain_json(raw["metadata"], 1):
        return None
    sides: list[list[_ParsedTurn]] = [[], []]
    for items, out, is_gold in ((gold, sides[0], True), (predicted, sides[1], False)):
        for item in items:
            parsed = _quick_turn(item, is_gold) if type(item) is dict else None
            if parsed is None:
                return None
            out.append(parsed)
    return sides[0], sides[1]


def parse_unpaired(raw: object, *, file: str | None = None, default_id: str | None = None) -> UnpairedDialog:
    """Validate one unpaired dialog object (see the module docstring)."""
    return _parse_unpaired(raw, file, default_id)


def _parse_unpaired(raw: object, file: str | None, default_id: str | None, *, quick: bool = True) -> UnpairedDialog:
    """``parse_unpaired``; ``quick=False`` reads every turn through the model (the reference the quick reading
    is tested against)."""
    if not isinstance(raw, dict):
        raise InputError(f"an unpaired dialog must be a JSON object, got {type(raw).__name__}", Location(file))
    sides = _plain_sides(raw) if quick else None
    if sides is None:  # the whole object was not plainly read: check the limits first, naming the first flaw
        problem = limit_error(raw, file, default_id)
        if problem is not None:  # parse_dialog checks first; this guards direct callers
            raise problem
    dialog_id = raw.get("dialog_id", default_id)
    if not isinstance(dialog_id, str) or not dialog_id:
        raise InputError(
            f"dialog_id must be a non-empty string, got {dialog_id!r}", Location(file, None, None, "dialog_id")
        )
    where = Location(file, dialog_id)
    if not UNPAIRED_KEYS.issuperset(raw):
        unknown = sorted(set(raw) - UNPAIRED_KEYS)
        raise InputError(f"unknown field(s) {', '.join(unknown)}", Location(file, dialog_id, None, unknown[0]))
    for side in ("gold", "predicted"):
        if side not in raw:
            raise InputError(
                f"an unpaired dialog needs both 'gold' and 'predicted'; {side!r} is missing",
                Location(file, dialog_id, None, side),
            )
    metadata = check_metadata(raw.get("metadata"), Location(file, dialog_id))
    if sides is None:
        gold_side = _parse_side(raw["gold"], "gold", where, quick=quick)
        predicted_side = _parse_side(raw["predicted"], "predicted", where, quick=quick)
    else:
        gold_side, predicted_side = sides
    # Both sides empty is a valid dialog: nothing was required and nothing was done (it passes).
    gold: list[Turn] = []
    for position, (content, notes) in enumerate(gold_side, start=1):
        for dep in notes.depends_on:
            if not 1 <= dep < position:
                raise InputError(
                    f"depends_on names turn {dep}, which is not an earlier gold turn",
                    Location(file, dialog_id, position, "gold.depends_on"),
                )
        kind = TurnKind.ACTION if type(content) is ActionCall else TurnKind.RESPONSE
        gold.append(
            make_turn(
                position, kind, content, None, notes.tags, notes.depends_on, notes.critical, notes.weight,
                notes.latency_ms, notes.optional,
            )
        )  # fmt: skip
    return UnpairedDialog(
        dialog_id=dialog_id,
        gold=tuple(gold),
        predicted=tuple(content for content, _ in predicted_side),
        metadata=metadata,
        predicted_latency_ms=tuple(notes.latency_ms for _, notes in predicted_side),
    )
