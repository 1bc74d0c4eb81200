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
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aem_strands.align import Alignment, AlignOptions, align_turns
from aem_strands.decode import find_flaw
from aem_strands.errors import InputError, Location
from aem_strands.metadata import check_metadata
from aem_strands.types import ActionCall, Dialog, JsonValue, Reply, Turn, TurnContent, TurnKind

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
        result = self.alignment(options)
        latency = dict(enumerate(self.predicted_latency_ms))
        turns = []
        for turn, pair in zip(result.dialog.turns, result.pairs, strict=True):
            measured = latency.get(pair.predicted_index) if pair.predicted_index is not None else None
            turns.append(turn if measured is None else replace(turn, latency_ms=measured))
        metadata = {**result.dialog.metadata, "alignment": result.to_dict()}
        return Dialog(result.dialog.dialog_id, tuple(turns), metadata)


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


def _parse_side(raw: object, side: str, where: Location) -> list[tuple[UnpairedTurnModel, TurnContent]]:
    if not isinstance(raw, list):
        raise InputError(
            f"{side} must be a list of turns, got {type(raw).__name__}",
            Location(where.file, where.dialog_id, None, side),
        )
    out = []
    for position, item in enumerate(raw, start=1):
        here = Location(where.file, where.dialog_id, position)
        if not isinstance(item, dict):
            raise InputError(
                f"a turn must be a JSON object, got {type(item).__name__}",
                Location(here.file, here.dialog_id, position, side),
            )
        try:
            model = UnpairedTurnModel.model_validate(item)
        except ValidationError as exc:
            detail = exc.errors()[0]
            name = ".".join(str(part) for part in detail["loc"])
            raise InputError(detail["msg"], Location(here.file, here.dialog_id, position, f"{side}.{name}")) from None
        if side == "predicted":
            for name in _GOLD_ONLY:
                if name in item:
                    raise InputError(
                        f"{name!r} is a gold annotation; predicted turns do not take it",
                        Location(here.file, here.dialog_id, position, f"predicted.{name}"),
                    )
        out.append((model, _content(model, here, side)))
    return out


def parse_unpaired(raw: object, *, file: str | None = None, default_id: str | None = None) -> UnpairedDialog:
    """Validate one unpaired dialog object (see the module docstring)."""
    if not isinstance(raw, dict):
        raise InputError(f"an unpaired dialog must be a JSON object, got {type(raw).__name__}", Location(file))
    problem = limit_error(raw, file, default_id)
    if problem is not None:  # parse_dialog checks first; this guards direct callers
        raise problem
    dialog_id = raw.get("dialog_id", default_id)
    if not isinstance(dialog_id, str) or not dialog_id:
        raise InputError(
            f"dialog_id must be a non-empty string, got {dialog_id!r}", Location(file, None, None, "dialog_id")
        )
    where = Location(file, dialog_id)
    unknown = sorted(set(raw) - UNPAIRED_KEYS)
    if unknown:
        raise InputError(f"unknown field(s) {', '.join(unknown)}", Location(file, dialog_id, None, unknown[0]))
    for side in ("gold", "predicted"):
        if side not in raw:
            raise InputError(
                f"an unpaired dialog needs both 'gold' and 'predicted'; {side!r} is missing",
                Location(file, dialog_id, None, side),
            )
    metadata = check_metadata(raw.get("metadata"), Location(file, dialog_id))
    gold_side = _parse_side(raw["gold"], "gold", where)
    predicted_side = _parse_side(raw["predicted"], "predicted", where)
    # Both sides empty is a valid dialog: nothing was required and nothing was done (it passes).
    gold: list[Turn] = []
    for position, (model, content) in enumerate(gold_side, start=1):
        for dep in model.depends_on:
            if not 1 <= dep < position:
                raise InputError(
                    f"depends_on names turn {dep}, which is not an earlier gold turn",
                    Location(file, dialog_id, position, "gold.depends_on"),
                )
        kind = TurnKind.ACTION if isinstance(content, ActionCall) else TurnKind.RESPONSE
        gold.append(
            Turn(
                turn_no=position, kind=kind, gold=content, predicted=None, tags=tuple(model.tags),
                depends_on=tuple(model.depends_on), critical=model.critical, weight=model.weight,
                latency_ms=model.latency_ms, optional=model.optional,
            )
        )  # fmt: skip
    return UnpairedDialog(
        dialog_id=dialog_id,
        gold=tuple(gold),
        predicted=tuple(content for _, content in predicted_side),
        metadata=metadata,
        predicted_latency_ms=tuple(model.latency_ms for model, _ in predicted_side),
    )
