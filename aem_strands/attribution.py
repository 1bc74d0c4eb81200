"""Attribution: is a failed turn a root cause, or a cascade of an earlier failure? (SPEC §5)

The rule, applied to each failed turn T in order; the first rule that links T to an earlier
failed turn F decides, and T becomes a cascade (``prior_action_failed``) whose ``caused_by`` is
F's root cause (F itself when F is a root cause):

1. **depends_on** — T names F in ``depends_on``. When T has an explicit ``depends_on`` and none of
   the named turns failed, T is a root cause: the annotation overrides inference.
2. **data flow** — a *tainted* value of F reappears in T's prediction (an argument value, nested
   or not, or a word sequence of T's reply) and T's gold does not contain it. F's tainted values
   are the wrong values it introduced: the predicted values of its truthfulness problems and of
   its extra parameters, and every value of its predicted tool observation that its gold (args or
   observation) does not hold. Only action turns introduce traced values (a wrong reply is linked
   to later turns through ``depends_on`` only). Texts shorter than two characters (numbers
   excepted), booleans and null never count.
3. **action chain** — T is an action turn, F is an earlier action turn of the same chain
   (consecutive action turns with no reply between them), and T failed *structurally*: its
   primary reason is ``tool_mismatch``, ``action_mismatch``, ``missing_turn`` or
   ``missing_parameters``, and it has no wrong value (no truthfulness problem). After a wrong call
   an agent that picks the wrong next tool or action, or skips a step or an argument, is derailed
   by it; a wrong argument *value* is evidence of a cascade only when it traces to F (rule 2).

Otherwise T is a root cause with its own reason. A later error with no link is therefore a
second root cause, also inside an action chain: a wrong e-mail recipient right after a wrong
filter, with no value of the filter in it, is a root cause of its own. Every cascade points to
an earlier root, so each failure chain has exactly one root cause, its earliest turn. The order
of candidate turns F is earliest first.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Iterator, Sequence

from aem_strands.compare.normalise import normalise_text
from aem_strands.compare.walk import json_scalars
from aem_strands.types import (
    ActionCall,
    Attribution,
    FailureReason,
    JsonValue,
    Link,
    Reply,
    Role,
    SubMetric,
    Turn,
    TurnContent,
    TurnKind,
    TurnVerdict,
    Verdict,
)

STRUCTURAL_REASONS = frozenset(
    {
        FailureReason.TOOL_MISMATCH,
        FailureReason.ACTION_MISMATCH,
        FailureReason.MISSING_TURN,
        FailureReason.MISSING_PARAMETERS,
    }
)
"""Primary reasons through which a failure in an action chain derails the turns after it (rule 3)."""


def _token(value: JsonValue) -> str | None:
    """The normalised form a value is matched by, or ``None`` for values too generic to trace."""
    if value is None or isinstance(value, bool):
        return None
    text = normalise_text(str(value)) if not isinstance(value, float) or not value.is_integer() else str(int(value))
    # A wrong count or rating ("3" stars for "4") is a classic cascade, so numbers trace at any length.
    return text if len(text) >= 2 or text.isdigit() else None


def _content_values(content: TurnContent | None, *, with_observation: bool) -> list[JsonValue]:
    if isinstance(content, ActionCall):
        values = list(json_scalars(content.args))
        if with_observation:
            values += list(json_scalars(content.observation))
        return values
    if isinstance(content, Reply):
        return [content.response]
    return []


def tainted_values(turn: Turn, verdict: TurnVerdict) -> dict[str, JsonValue]:
    """The wrong values a failed turn introduced (see the module rule), keyed by normalised form."""
    wrong: list[JsonValue] = []
    if turn.kind is TurnKind.ACTION:
        for problem in verdict.problems:
            if problem.sub_metric is SubMetric.TRUTHFULNESS or problem.reason is FailureReason.EXTRA_PARAMETERS:
                wrong.extend(json_scalars(problem.predicted))
    if isinstance(turn.predicted, ActionCall):
        wrong.extend(json_scalars(turn.predicted.observation))
    legitimate = {_token(v) for v in _content_values(turn.gold, with_observation=True)}
    out: dict[str, JsonValue] = {}
    for value in wrong:
        token = _token(value)
        if token is not None and token not in legitimate:
            out.setdefault(token, value)
    return out


def _mentions(haystack: list[str], needle: str) -> bool:
    pattern = re.compile(rf"(?<!\w){re.escape(needle)}(?!\w)")
    return any(pattern.search(text) for text in haystack)


def _data_flow(turn: Turn, taint: dict[str, JsonValue]) -> JsonValue:
    """The first tainted value the turn's prediction reuses while its gold does not, if any."""
    if not taint:
        return None
    used = [t for t in (_token(v) for v in _content_values(turn.predicted, with_observation=False)) if t]
    expected = [t for t in (_token(v) for v in _content_values(turn.gold, with_observation=False)) if t]
    for token in sorted(taint):
        if _mentions(used, token) and not _mentions(expected, token):
            return taint[token]
    return None


def _runs(turns: Sequence[Turn]) -> Iterator[tuple[bool, int]]:
    """The turns as runs of one kind, in order: whether a run is of action turns (an action chain), and its
    length."""
    for kind, run in itertools.groupby(turns, key=_KIND):
        yield kind is TurnKind.ACTION, sum(1 for _ in run)


_KIND = operator.attrgetter("kind")


def _chain_ids(turns: Sequence[Turn]) -> list[int | None]:
    """For each turn, the index of its action chain (``None`` for response turns)."""
    out: list[int | None] = []
    chain = -1
    for actions, size in _runs(turns):
        chain += actions
        out += [chain] * size if actions else [None] * size
    return out


def chain_lengths(turns: Sequence[Turn]) -> list[int | None]:
    """For each turn, the length of the action chain it belongs to (``None`` for response turns)."""
    out: list[int | None] = []
    for actions, size in _runs(turns):
        out += [size] * size if actions else [None] * size
    return out


def attribute(turns: Sequence[Turn], verdicts: Sequence[TurnVerdict]) -> list[Attribution | None]:
    """Attribute every failed turn; passing and not-applicable turns get ``None``."""
    if len(turns) == len(verdicts) and not any(verdict.verdict is Verdict.FAIL for verdict in verdicts):
        return [None] * len(verdicts)  # nothing failed: nothing to attribute
    chains = _chain_ids(turns)
    out: list[Attribution | None] = []
    failed: list[_Failed] = []  # the earlier failures
    roots: dict[int, int] = {}  # turn_no -> turn_no of its root cause
    for index, (turn, verdict) in enumerate(zip(turns, verdicts, strict=True)):
        if not verdict.failed:
            out.append(None)
            continue
        link = _link(index, turn, verdict, chains, failed)
        if link is None:
            attribution = Attribution(turn.turn_no, Role.ROOT_CAUSE)
            roots[turn.turn_no] = turn.turn_no
        else:
            via, how, evidence = link
            attribution = Attribution(turn.turn_no, Role.CASCADE, roots[via], via, how, evidence)
            roots[turn.turn_no] = roots[via]
        out.append(attribution)
        failed.append(_Failed(index, turn, verdict))
    return out


class _Failed:
    """An earlier failed turn. Its tainted values are worked out when a later failed turn first looks for them
    (most dialogs have no later failure to look)."""

    __slots__ = ("_taint", "index", "turn", "verdict")

    def __init__(self, index: int, turn: Turn, verdict: TurnVerdict) -> None:
        self.index, self.turn, self.verdict = index, turn, verdict
        self._taint: dict[str, JsonValue] | None = None

    @property
    def taint(self) -> dict[str, JsonValue]:
        if self._taint is None:
            self._taint = tainted_values(self.turn, self.verdict)
        return self._taint


def _structural(verdict: TurnVerdict) -> bool:
    """Whether a failed turn went wrong in its shape only (rule 3): a structural primary reason, no wrong value."""
    return verdict.own_reason in STRUCTURAL_REASONS and not any(
        p.sub_metric is SubMetric.TRUTHFULNESS for p in verdict.problems
    )


def _link(
    index: int,
    turn: Turn,
    verdict: TurnVerdict,
    chains: list[int | None],
    failed: list[_Failed],
) -> tuple[int, Link, str] | None:
    if turn.depends_on:
        for failure in failed:
            earlier = failure.turn
            if earlier.turn_no in turn.depends_on:
                return earlier.turn_no, Link.DEPENDS_ON, f"depends_on names turn {earlier.turn_no}"
        return None
    for failure in failed:
        value = _data_flow(turn, failure.taint)
        if value is not None:
            earlier = failure.turn
            return earlier.turn_no, Link.DATA_FLOW, f"reuses {value!r}, a wrong value from turn {earlier.turn_no}"
    reason = verdict.own_reason
    if chains[index] is not None and reason is not None and _structural(verdict):
        for failure in failed:
            earlier = failure.turn
            if chains[failure.index] == chains[index]:
                return (
                    earlier.turn_no,
                    Link.ACTION_CHAIN,
                    f"{reason.value} in the same action chain as failed turn {earlier.turn_no}",
                )
    return None
