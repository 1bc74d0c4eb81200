"""Plain value types of the pipeline: dialogs and turns in, verdicts and attributions out.

The core works on these only; loaders and Strands adapters convert their inputs to them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

JsonValue = Any
"""A value decoded from JSON: None, bool, int, float, str, list or dict of those."""


class TurnKind(str, Enum):
    """What the agent produced in a turn: a reply to the user or one tool call."""

    RESPONSE = "response"
    ACTION = "action"


class SubMetric(str, Enum):
    """The independently measured parts of correctness (plus the structural checks of action turns)."""

    STRUCTURE = "structure"
    COMPLETENESS = "completeness"
    TRUTHFULNESS = "truthfulness"


class FailureReason(str, Enum):
    """Why a turn failed. Listed in the precedence used for a turn's primary reason."""

    MISSING_TURN = "missing_turn"
    EXTRA_TURN = "extra_turn"
    TOOL_MISMATCH = "tool_mismatch"
    ACTION_MISMATCH = "action_mismatch"
    MISSING_PARAMETERS = "missing_parameters"
    INCONSISTENT_PARAMETER_VALUES = "inconsistent_parameter_values"
    EXTRA_PARAMETERS = "extra_parameters"
    CALL_FAILED = "call_failed"
    INCONSISTENT_RESPONSE = "inconsistent_response"
    INCOMPLETE_RESPONSE = "incomplete_response"
    PRIOR_ACTION_FAILED = "prior_action_failed"


REASON_PRECEDENCE: tuple[FailureReason, ...] = tuple(
    reason for reason in FailureReason if reason is not FailureReason.PRIOR_ACTION_FAILED
)
"""Order in which a turn's own problems decide its primary reason (first wins)."""


class Method(str, Enum):
    """How a comparison or check was decided."""

    STRUCTURAL = "structural"
    KEYS = "keys"
    EXACT = "exact"
    NORMALISED = "normalised"
    EMBEDDING = "embedding"
    JUDGE = "judge"
    TEST = "test"
    FACTS = "facts"
    ALIGNMENT = "alignment"


class ValueKind(str, Enum):
    """Short argument values and free-text replies are compared with different thresholds."""

    ARGUMENT = "argument"
    RESPONSE = "response"


class Verdict(str, Enum):
    """A turn's outcome; ``not_applicable`` means it could not be scored (it is not a failure)."""

    PASS = "pass"
    FAIL = "fail"
    NOT_APPLICABLE = "not_applicable"


@dataclass(frozen=True)
class ActionCall:
    """One tool call: which tool, which action, with which arguments, and what it returned."""

    tool_id: str
    action: str
    args: dict[str, JsonValue] = field(default_factory=dict)
    observation: JsonValue = None
    compare_args: tuple[str, ...] | None = None
    """Gold only: the argument names to compare (``None``: all; ``()``: tool and action only)."""

    def compared_args(self, args: dict[str, JsonValue]) -> dict[str, JsonValue]:
        """``args`` restricted to this (gold) call's ``compare_args``."""
        if self.compare_args is None:
            return args
        return {k: v for k, v in args.items() if k in self.compare_args}


@dataclass(frozen=True)
class Reply:
    """Text the agent says to the user."""

    response: str


TurnContent = ActionCall | Reply

_Record = TypeVar("_Record")
_new = object.__new__
_set = object.__setattr__


def frozen_record(cls: type[_Record], fields: dict[str, Any]) -> _Record:
    """An instance of the frozen dataclass ``cls`` whose instance dictionary is ``fields`` (every field, in
    declaration order): the value ``cls(**fields)`` builds, equal, hashed, printed, pickled and ``replace``-d
    alike, without the generated ``__init__`` that sets each field through ``object.__setattr__`` (this sets the
    dictionary once, about a third of the cost). For records built once per turn (tests/test_fast_path_records.py
    checks each builder gives every field). Only for dataclasses without ``__post_init__``."""
    record = _new(cls)
    _set(record, "__dict__", fields)
    return record


def make_call(
    tool_id: str, action: str, args: dict[str, JsonValue], observation: JsonValue, compare_args: tuple[str, ...] | None
) -> ActionCall:
    """``ActionCall(...)`` with every field given in order, built as ``make_turn`` builds a ``Turn``."""
    return frozen_record(
        ActionCall,
        {"tool_id": tool_id, "action": action, "args": args, "observation": observation, "compare_args": compare_args},
    )


def make_reply(response: str) -> Reply:
    """``Reply(response)``, built as ``make_turn`` builds a ``Turn``."""
    return frozen_record(Reply, {"response": response})


@dataclass(frozen=True)
class Turn:
    """A gold turn paired with the predicted turn it is judged against.

    ``gold`` is ``None`` for a predicted turn with no gold counterpart (an extra turn) and
    ``predicted`` is ``None`` for a gold turn the agent never produced (a missing turn).
    """

    turn_no: int
    kind: TurnKind
    gold: TurnContent | None
    predicted: TurnContent | None
    tags: tuple[str, ...] = ()
    depends_on: tuple[int, ...] = ()
    critical: bool = False
    weight: float = 1.0
    latency_ms: float | None = None
    optional: bool = False

    @property
    def order_group(self) -> str | None:
        """The ``OrderInvariant_<group>`` group this turn belongs to, if any."""
        for tag in self.tags:
            if tag.startswith(ORDER_INVARIANT_PREFIX):
                return tag[len(ORDER_INVARIANT_PREFIX) :]
        return None


ORDER_INVARIANT_PREFIX = "OrderInvariant_"


def make_turn(
    turn_no: int,
    kind: TurnKind,
    gold: TurnContent | None,
    predicted: TurnContent | None,
    tags: tuple[str, ...],
    depends_on: tuple[int, ...],
    critical: bool,
    weight: float,
    latency_ms: float | None,
    optional: bool,
) -> Turn:
    """``Turn(...)`` with every field given in order, built without the frozen dataclass's ``__init__`` (which
    sets each field through ``object.__setattr__``; this sets the instance dictionary once, about a third of the
    cost). The same value in every respect: equality, hash, repr, pickling, ``replace``. For the paths that build
    one per turn; tests/test_fast_path_records.py checks it covers every field."""
    return frozen_record(
        Turn,
        {
            "turn_no": turn_no, "kind": kind, "gold": gold, "predicted": predicted, "tags": tags,
            "depends_on": depends_on, "critical": critical, "weight": weight, "latency_ms": latency_ms,
            "optional": optional,
        },
    )  # fmt: skip


@dataclass(frozen=True)
class Dialog:
    """One conversation: its id, free metadata, and its turns in order."""

    dialog_id: str
    turns: tuple[Turn, ...]
    metadata: dict[str, JsonValue] = field(default_factory=dict)


@dataclass(frozen=True)
class Comparison:
    """Outcome of comparing one gold value with one predicted value.

    ``equivalent`` is ``None`` when the comparison could not be decided (for example a judge reply
    that could not be parsed); ``detail`` then says why.
    """

    equivalent: bool | None
    score: float
    method: Method
    detail: str = ""


@dataclass(frozen=True)
class Problem:
    """One detected problem of a turn: enough to recompute the verdict by hand."""

    reason: FailureReason
    sub_metric: SubMetric
    field: str
    gold: JsonValue = None
    predicted: JsonValue = None
    score: float | None = None
    method: Method = Method.STRUCTURAL
    detail: str = ""

    def to_dict(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {
            "reason": self.reason.value,
            "sub_metric": self.sub_metric.value,
            "field": self.field,
            "gold": self.gold,
            "predicted": self.predicted,
            "score": None if self.score is None else round(self.score, 4),
            "method": self.method.value,
        }
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True)
class Decision:
    """How one value or reply of a turn was decided, pass or fail: what a reader audits a pass by."""

    field: str
    equivalent: bool | None
    method: Method
    score: float
    detail: str = ""

    def to_dict(self) -> dict[str, JsonValue]:
        return {
            "field": self.field,
            "equivalent": self.equivalent,
            "method": self.method.value,
            "score": round(self.score, 4),
            "detail": self.detail,
        }


@dataclass(frozen=True)
class TurnVerdict:
    """The judgement of one turn before attribution.

    ``sub_scores`` maps each applicable sub-metric to a score in [0, 1]; ``problems`` lists every
    problem found (not only the primary one), in precedence order.
    """

    turn_no: int
    kind: TurnKind
    verdict: Verdict
    problems: tuple[Problem, ...] = ()
    sub_scores: dict[SubMetric, float] = field(default_factory=dict)
    sub_passed: dict[SubMetric, bool] = field(default_factory=dict)
    matched_turn_no: int | None = None
    note: str = ""
    decisions: tuple[Decision, ...] = ()

    @property
    def success(self) -> bool:
        return self.verdict is Verdict.PASS

    @property
    def failed(self) -> bool:
        return self.verdict is Verdict.FAIL

    @property
    def own_reason(self) -> FailureReason | None:
        """The primary reason of this turn's own problems (``None`` when it passed)."""
        return self.problems[0].reason if self.problems and self.failed else None


def make_verdict(
    turn_no: int,
    kind: TurnKind,
    verdict: Verdict,
    problems: tuple[Problem, ...],
    sub_scores: dict[SubMetric, float],
    sub_passed: dict[SubMetric, bool],
    matched_turn_no: int | None,
    note: str,
    decisions: tuple[Decision, ...],
) -> TurnVerdict:
    """``TurnVerdict(...)`` with every field given in order, built as ``make_turn`` builds a ``Turn``."""
    return frozen_record(
        TurnVerdict,
        {
            "turn_no": turn_no, "kind": kind, "verdict": verdict, "problems": problems, "sub_scores": sub_scores,
            "sub_passed": sub_passed, "matched_turn_no": matched_turn_no, "note": note, "decisions": decisions,
        },
    )  # fmt: skip


class Role(str, Enum):
    """Attribution role of a failed turn."""

    ROOT_CAUSE = "root_cause"
    CASCADE = "cascade"


class Link(str, Enum):
    """Which rule linked a cascading turn to an earlier failed turn."""

    DEPENDS_ON = "depends_on"
    DATA_FLOW = "data_flow"
    ACTION_CHAIN = "action_chain"


@dataclass(frozen=True)
class Attribution:
    """Why a failed turn failed: at its own hand (root cause) or inherited (cascade)."""

    turn_no: int
    role: Role
    caused_by: int | None = None
    via_turn: int | None = None
    link: Link | None = None
    evidence: str = ""
