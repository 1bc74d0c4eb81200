"""The result of evaluating one dialog, and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field

from aem_strands.compose import Composition
from aem_strands.types import Attribution, FailureReason, JsonValue, Method, Role, Turn, TurnVerdict, Verdict


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
        a = self.attribution
        out: dict[str, JsonValue] = {
            "turn_no": self.turn.turn_no,
            "kind": self.turn.kind.value,
            "success": self.verdict.success,
            "verdict": self.verdict.verdict.value,
            "failure_reason": None if self.failure_reason is None else self.failure_reason.value,
            "own_reason": None if self.verdict.own_reason is None else self.verdict.own_reason.value,
            "role": None if a is None else a.role.value,
            "caused_by": None if a is None or a.role is Role.ROOT_CAUSE else a.caused_by,
            "link": None if a is None or a.link is None else a.link.value,
            "evidence": None if a is None or not a.evidence else a.evidence,
            "problems": [p.to_dict() for p in self.verdict.problems],
            "sub_scores": {m.value: round(s, 4) for m, s in self.verdict.sub_scores.items()},
            "decisions": [d.to_dict() for d in self.verdict.decisions],
            "chain_length": self.chain_length,
        }
        if self.verdict.matched_turn_no is not None:
            out["matched_predicted_turn_no"] = self.verdict.matched_turn_no
        if self.verdict.note:
            out["note"] = self.verdict.note
        if self.turn.critical:
            out["critical"] = True
        if self.turn.weight != 1.0:
            out["weight"] = self.turn.weight
        if self.turn.latency_ms is not None:
            out["latency_ms"] = self.turn.latency_ms
        return out


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
        return [t for t in self.turns if t.verdict.verdict.value != "not_applicable"]

    @property
    def success_rate(self) -> float | None:
        judged = self.judged
        return sum(t.verdict.success for t in judged) / len(judged) if judged else None

    @property
    def failures(self) -> list[TurnResult]:
        return [t for t in self.turns if t.verdict.failed]

    @property
    def root_causes(self) -> list[TurnResult]:
        return [t for t in self.failures if t.attribution is not None and t.attribution.role is Role.ROOT_CAUSE]

    @property
    def cascades(self) -> list[TurnResult]:
        return [t for t in self.failures if t.attribution is not None and t.attribution.role is Role.CASCADE]

    def reason(self) -> str:
        """One line a person can act on, naming the first root cause and what cascaded from it."""
        if not self.failures:
            if not self.turns:
                return self.composition.explanation
            if self.inconclusive:
                return self.composition.explanation
            return f"all {len(self.judged)} judged turns pass"
        parts = []
        for root in self.root_causes:
            problem = root.verdict.problems[0]
            if problem.method is Method.FACTS:
                what = f"{problem.field} {problem.detail}"
            elif problem.reason is FailureReason.MISSING_PARAMETERS:
                what = f"{problem.field} missing, gold {problem.gold!r}"
            elif problem.reason is FailureReason.EXTRA_PARAMETERS:
                what = f"{problem.field} {problem.predicted!r} not in gold"
            else:
                what = f"{problem.field} {problem.predicted!r} vs {problem.gold!r}"
            inherited = sum(1 for c in self.cascades if c.attribution and c.attribution.caused_by == root.turn.turn_no)
            parts.append(f"root cause turn {root.turn.turn_no}: {problem.reason.value} ({what}); {inherited} cascading")
        return "; ".join(parts)

    def chain_buckets(self) -> dict[str, dict[str, JsonValue]]:
        buckets: dict[str, dict[str, int]] = {
            b: {"turns": 0, "passed": 0} for b in ("single", "two_step", "three_plus")
        }
        for t in self.judged:
            if t.chain_length is not None:
                bucket = buckets[chain_bucket(t.chain_length)]
                bucket["turns"] += 1
                bucket["passed"] += int(t.verdict.success)
        return {
            name: {**b, "pass_rate": round(b["passed"] / b["turns"], 4) if b["turns"] else None}
            for name, b in buckets.items()
        }

    def to_dict(self) -> dict[str, JsonValue]:
        first_root = self.root_causes[0] if self.root_causes else None
        failures = self.failures
        score, rate = self.score, self.success_rate
        return {
            "dialog_id": self.dialog_id,
            "success_rate": None if rate is None else round(rate, 4),
            "score": None if score is None else round(score, 4),
            "composer": self.composer,
            "test_pass": self.test_pass,
            "status": self.status,
            "first_failure_turn": failures[0].turn.turn_no if failures else None,
            "root_cause": None if first_root is None else _reason_value(first_root),
            "root_cause_turn": None if first_root is None else first_root.turn.turn_no,
            "root_cause_count": len(self.root_causes),
            "cascading_count": len(self.cascades),
            "total_failures": len(failures),
            "not_applicable_count": len(self.turns) - len(self.judged),
            "root_causes": [{"turn_no": r.turn.turn_no, "reason": _reason_value(r)} for r in self.root_causes],
            "sub_metrics": {
                m.value: {"passed": r.passed, "total": r.total, "rate": None if r.rate is None else round(r.rate, 4)}
                for m, r in self.composition.sub_metrics.items()
            },
            "chains": self.chain_buckets(),
            "reason": self.reason(),
            "explanation": self.composition.explanation,
            "metadata": self.metadata,
            "turns": [t.to_dict() for t in self.turns],
        }
