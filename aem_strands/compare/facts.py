"""Deterministic fact checks between a gold reply and a predicted reply.

Cosine similarity cannot see that "EU revenue was 4.2 million" and "EU profit was 1.1 million"
disagree. These checks can: numbers the predicted reply states must be numbers gold states
(otherwise the reply is inconsistent), and what gold gives or asks (its numbers, a question to the
user) must appear in the prediction (otherwise the reply is incomplete).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from aem_strands.types import FailureReason, SubMetric

_NUMBER = re.compile(r"(?<![\w.])[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")


def numbers_in(text: str) -> Counter[float]:
    """The numbers a text states, as a multiset (``1,200`` and ``1200`` are the same number)."""
    return Counter(float(m.group().replace(",", "")) for m in _NUMBER.finditer(text))


def _show(number: float) -> str:
    return str(int(number)) if number.is_integer() else str(number)


@dataclass(frozen=True)
class FactFinding:
    """One fact that does not agree; ``reason`` is the response failure it supports."""

    reason: FailureReason
    sub_metric: SubMetric
    gold: str
    predicted: str
    detail: str


@dataclass(frozen=True)
class FactCheck:
    """Findings and how many of gold's facts the prediction covers."""

    findings: tuple[FactFinding, ...]
    gold_facts: int
    covered_facts: int

    @property
    def coverage(self) -> float:
        return self.covered_facts / self.gold_facts if self.gold_facts else 1.0


def check_reply_facts(gold: str, predicted: str) -> FactCheck:
    """Compare the numbers and questions of two replies."""
    gold_numbers, predicted_numbers = numbers_in(gold), numbers_in(predicted)
    findings: list[FactFinding] = []
    if gold_numbers:
        for number in sorted(predicted_numbers - gold_numbers):
            findings.append(
                FactFinding(
                    FailureReason.INCONSISTENT_RESPONSE, SubMetric.TRUTHFULNESS, "", _show(number),
                    f"states {_show(number)}, which gold does not state",
                )
            )  # fmt: skip
    missing = gold_numbers - predicted_numbers
    for number in sorted(missing):
        findings.append(
            FactFinding(
                FailureReason.INCOMPLETE_RESPONSE, SubMetric.COMPLETENESS, _show(number), "",
                f"omits {_show(number)}, which gold states",
            )
        )  # fmt: skip
    gold_asks, predicted_asks = "?" in gold, "?" in predicted
    if gold_asks and not predicted_asks:
        findings.append(
            FactFinding(
                FailureReason.INCOMPLETE_RESPONSE, SubMetric.COMPLETENESS, "?", "",
                "gold asks the user a question; the prediction asks none",
            )
        )  # fmt: skip
    gold_facts = sum(gold_numbers.values()) + int(gold_asks)
    covered = sum((gold_numbers & predicted_numbers).values()) + int(gold_asks and predicted_asks)
    return FactCheck(tuple(findings), gold_facts, covered)
