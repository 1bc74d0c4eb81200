"""How a result-use rule settles one reading: a finding by the rule, a question the judge answers (a finding by
the judge, or none), or a question left undecided (no judge, or no answer), as the precision contract asks.

A finding's evidence cites the step and path it stands on (``cite``) and quotes text no longer than ``CLIP``
characters (``clip``): evidence shows, it does not copy.
"""

from __future__ import annotations

from dataclasses import dataclass

from aem_strands.trace.checks.context import TraceJudge
from aem_strands.trace.types import Dimension, Finding, FindingMethod, Step
from aem_strands.types import JsonValue

CLIP = 300
"""Longest text a finding quotes (a reply sentence, an observed value)."""


def clip(text: str) -> str:
    """``text``, cut to ``CLIP`` characters with ``...`` when longer."""
    return text if len(text) <= CLIP else text[: CLIP - 3] + "..."


def cite(step: Step, path: str = "") -> dict[str, JsonValue]:
    """The step (and the path inside its observation, when given) a finding stands on."""
    cited: dict[str, JsonValue] = {"step_id": step.step_id, "index": step.index, "tool_name": step.tool_name}
    if path:
        cited["path"] = path
    return cited


def result_finding(
    step: Step | None, rule: str, message: str, evidence: JsonValue, method: FindingMethod = FindingMethod.RULE
) -> Finding:
    """A result-use finding at ``step`` (``None``: the final response)."""
    index = step.index if step is not None else None
    return Finding(Dimension.RESULT_USE, rule, message, step.step_id if step else None, index, evidence, method)


@dataclass(frozen=True)
class Ruling:
    """What a rule made of one reading: its findings, and the questions neither it nor a judge settled."""

    findings: tuple[Finding, ...] = ()
    undecided: tuple[str, ...] = ()


def ask(
    judge: TraceJudge | None, question: str, evidence: JsonValue, step: Step | None, rule: str, message: str
) -> Ruling:
    """The judge's ruling on a question the rule could not settle: a finding (``message``, by the judge) on yes,
    nothing on no, the question undecided when there is no judge or no answer."""
    answer = judge.decide(question, evidence) if judge is not None else None
    if answer is None:
        return Ruling(undecided=(question,))
    if answer:
        return Ruling((result_finding(step, rule, message, evidence, FindingMethod.JUDGE),))
    return Ruling()


__all__ = ["CLIP", "Ruling", "ask", "cite", "clip", "result_finding"]
