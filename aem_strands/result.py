"""The result of evaluating one dialog, and its JSON form."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from aem_strands.compose import Composition
from aem_strands.errors import InputError
from aem_strands.types import (
    Attribution,
    Decision,
    FailureReason,
    JsonValue,
    Method,
    Role,
    Turn,
    TurnVerdict,
    Verdict,
    frozen_record,
)


def chain_bucket(length: int) -> str:
    """``single``, ``two_step`` or ``three_plus``: the bucket of an action chain's length."""
    return "single" if length == 1 else "two_step" if length == 2 else "three_plus"


@dataclass(frozen=True)
class TurnResult:
    """A judged, attributed turn."""

    turn: Turn
    verdict: TurnVerdict
    attribution: Attribution | None
    chain_length: int | None

    @property
    def failure_reason(self) -> FailureReason | None:
        if self.attribution is not None and self.attribution.role is Role.CASCADE:
            return FailureReason.PRIOR_ACTION_FAILED
        return self.verdict.own_reason

    def to_dict(self) -> dict[str, JsonValue]:
        # Enum values are read as ``_value_`` (a plain attribute; ``.value`` is a descriptor call): the hot path
        # of every JSON record.
        a, verdict, turn = self.attribution, self.verdict, self.turn
        own = verdict.own_reason
        cascade = a is not None and a.role is Role.CASCADE
        failure = FailureReason.PRIOR_ACTION_FAILED if cascade else own
        out: dict[str, JsonValue] = {
            "turn_no": turn.turn_no,
            "kind": turn.kind._value_,
            "success": verdict.verdict is Verdict.PASS,
            "verdict": verdict.verdict._value_,
            "failure_reason": None if failure is None else failure._value_,
            "own_reason": None if own is None else own._value_,
            "role": None if a is None else a.role._value_,
            "caused_by": None if a is None or a.role is Role.ROOT_CAUSE else a.caused_by,
            "link": None if a is None or a.link is None else a.link._value_,
            "evidence": None if a is None or not a.evidence else a.evidence,
            "problems": [p.to_dict() for p in verdict.problems],
            "sub_scores": {m._value_: _round(s) for m, s in verdict.sub_scores.items()},
            "decisions": [_decision(d) for d in verdict.decisions],
            "chain_length": self.chain_length,
        }
        if verdict.matched_turn_no is not None:
            out["matched_predicted_turn_no"] = verdict.matched_turn_no
        if verdict.note:
            out["note"] = verdict.note
        if turn.critical:
            out["critical"] = True
        if turn.weight != 1.0:
            out["weight"] = turn.weight
        if turn.latency_ms is not None:
            out["latency_ms"] = turn.latency_ms
        return out


def make_turn_result(
    turn: Turn, verdict: TurnVerdict, attribution: Attribution | None, chain_length: int | None
) -> TurnResult:
    """``TurnResult(...)`` built as ``aem_strands.types.make_turn`` builds a ``Turn`` (one per judged turn)."""
    return frozen_record(
        TurnResult, {"turn": turn, "verdict": verdict, "attribution": attribution, "chain_length": chain_length}
    )


def _round(score: float) -> float:
    """``round(score, 4)``, which leaves the usual 1.0 and 0.0 as they are."""
    return score if type(score) is float and (score == 1.0 or score == 0.0) else round(score, 4)


def _decision(decision: Decision) -> dict[str, JsonValue]:
    """``Decision.to_dict``, with its enum value and score read the fast way (see ``TurnResult.to_dict``)."""
    return {
        "field": decision.field,
        "equivalent": decision.equivalent,
        "method": decision.method._value_,
        "score": _round(decision.score),
        "detail": decision.detail,
    }


def _reason_value(turn: TurnResult) -> str | None:
    reason = turn.verdict.own_reason
    return None if reason is None else reason.value


@dataclass(frozen=True)
class DialogResult:
    """Everything the evaluation found about one dialog (SPEC §5 keys and per-turn details)."""

    dialog_id: str
    turns: tuple[TurnResult, ...]
    composition: Composition
    composer: str
    metadata: dict[str, JsonValue] = field(default_factory=dict)

    @property
    def score(self) -> float | None:
        return self.composition.score

    @property
    def test_pass(self) -> bool:
        return self.composition.test_pass

    @property
    def inconclusive(self) -> bool:
        """Some turn could not be judged (a scorer failed or could not decide): never a pass."""
        return any(t.verdict.verdict is Verdict.NOT_APPLICABLE for t in self.turns)

    @property
    def status(self) -> str:
        """``pass``, ``fail`` (some judged turn failed, or the composer failed the dialog) or ``inconclusive``."""
        if self.test_pass:
            return "pass"
        return "inconclusive" if self.inconclusive and not self.failures else "fail"

    @property
    def judged(self) -> list[TurnResult]:
        return [t for t in self.turns if t.verdict.verdict is not Verdict.NOT_APPLICABLE]

    @property
    def success_rate(self) -> float | None:
        judged = self.judged
        return sum(t.verdict.success for t in judged) / len(judged) if judged else None

    @property
    def failures(self) -> list[TurnResult]:
        return [t for t in self.turns if t.verdict.failed]

    @property
    def root_causes(self) -> list[TurnResult]:
        return _outcomes(self.turns).root_causes

    @property
    def cascades(self) -> list[TurnResult]:
        return _outcomes(self.turns).cascades

    def reason(self) -> str:
        """One line a person can act on, naming the first root cause and what cascaded from it."""
        return self._reason(_outcomes(self.turns))

    def _reason(self, outcomes: _Outcomes) -> str:
        if not outcomes.failures:
            if not self.turns:
                return self.composition.explanation
            if len(outcomes.judged) < len(self.turns):  # inconclusive
                return self.composition.explanation
            return f"all {len(outcomes.judged)} judged turns pass"
        parts = []
        for root in outcomes.root_causes:
            problem = root.verdict.problems[0]
            if problem.method is Method.FACTS:
                what = f"{problem.field} {problem.detail}"
            elif problem.reason is FailureReason.MISSING_PARAMETERS:
                what = f"{problem.field} missing, gold {problem.gold!r}"
            elif problem.reason is FailureReason.EXTRA_PARAMETERS:
                what = f"{problem.field} {problem.predicted!r} not in gold"
            else:
                what = f"{problem.field} {problem.predicted!r} vs {problem.gold!r}"
            inherited = sum(
                1 for c in outcomes.cascades if c.attribution and c.attribution.caused_by == root.turn.turn_no
            )
            parts.append(f"root cause turn {root.turn.turn_no}: {problem.reason.value} ({what}); {inherited} cascading")
        return "; ".join(parts)

    def chain_buckets(self) -> dict[str, dict[str, JsonValue]]:
        return _chain_buckets(self.judged)

    def to_dict(self) -> dict[str, JsonValue]:
        outcomes = _outcomes(self.turns)
        judged, failures, roots = outcomes.judged, outcomes.failures, outcomes.root_causes
        first_root = roots[0] if roots else None
        score = self.score
        rate = sum(t.verdict.verdict is Verdict.PASS for t in judged) / len(judged) if judged else None
        test_pass = self.test_pass
        inconclusive = len(judged) < len(self.turns)
        status = "pass" if test_pass else "inconclusive" if inconclusive and not failures else "fail"
        return {
            "dialog_id": self.dialog_id,
            "success_rate": None if rate is None else round(rate, 4),
            "score": None if score is None else round(score, 4),
            "composer": self.composer,
            "test_pass": test_pass,
            "status": status,
            "first_failure_turn": failures[0].turn.turn_no if failures else None,
            "root_cause": None if first_root is None else _reason_value(first_root),
            "root_cause_turn": None if first_root is None else first_root.turn.turn_no,
            "root_cause_count": len(roots),
            "cascading_count": len(outcomes.cascades),
            "total_failures": len(failures),
            "not_applicable_count": len(self.turns) - len(judged),
            "root_causes": [{"turn_no": r.turn.turn_no, "reason": _reason_value(r)} for r in roots],
            "sub_metrics": {
                m._value_: {"passed": r.passed, "total": r.total, "rate": None if r.rate is None else round(r.rate, 4)}
                for m, r in self.composition.sub_metrics.items()
            },
            "chains": _chain_buckets(judged),
            "reason": self._reason(outcomes),
            "explanation": self.composition.explanation,
            "metadata": self.metadata,
            "turns": [t.to_dict() for t in self.turns],
        }


@dataclass(frozen=True)
class _Outcomes:
    """A dialog's turns sorted once: the judged ones, the failed ones, and the failures' roles."""

    judged: list[TurnResult]
    failures: list[TurnResult]
    root_causes: list[TurnResult]
    cascades: list[TurnResult]


def _outcomes(turns: tuple[TurnResult, ...]) -> _Outcomes:
    judged: list[TurnResult] = []
    failures: list[TurnResult] = []
    roots: list[TurnResult] = []
    cascades: list[TurnResult] = []
    for turn in turns:
        verdict = turn.verdict.verdict
        if verdict is Verdict.NOT_APPLICABLE:
            continue
        judged.append(turn)
        if verdict is Verdict.FAIL:
            failures.append(turn)
            role = None if turn.attribution is None else turn.attribution.role
            if role is Role.ROOT_CAUSE:
                roots.append(turn)
            elif role is Role.CASCADE:
                cascades.append(turn)
    return _Outcomes(judged, failures, roots, cascades)


def _chain_buckets(judged: list[TurnResult]) -> dict[str, dict[str, JsonValue]]:
    buckets: dict[str, dict[str, int]] = {b: {"turns": 0, "passed": 0} for b in ("single", "two_step", "three_plus")}
    for t in judged:
        if t.chain_length is not None:
            bucket = buckets[chain_bucket(t.chain_length)]
            bucket["turns"] += 1
            bucket["passed"] += int(t.verdict.success)
    return {
        name: {**b, "pass_rate": round(b["passed"] / b["turns"], 4) if b["turns"] else None}
        for name, b in buckets.items()
    }


def record_of(item: DialogResult | InputError) -> dict[str, Any]:
    """The JSON record of a result, or of an input error (``{"dialog_id", "error"}``), as the CLI writes it."""
    if isinstance(item, DialogResult):
        return item.to_dict()
    return {"dialog_id": item.location.dialog_id, "error": item.to_dict()}


_CONTROLS = {c: f"\\u{c:04x}" for c in (*range(0x7F, 0xA0), 0x2028, 0x2029)}


def json_text(record: Any, indent: int | None = None) -> str:
    """JSON with no raw line separator or C1 control (a reader splitting lines, or a terminal, cannot trip)."""
    text = json.dumps(record, ensure_ascii=False, indent=indent)
    if text.isascii():  # the usual case: no surrogate, separator or C1 control to take care of
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate in a message: let json escape it
        text = json.dumps(record, indent=indent)
    return text.translate(_CONTROLS)
