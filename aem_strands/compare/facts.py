"""Deterministic fact checks between a gold reply and a predicted reply.

Cosine similarity cannot see that "EU revenue was 4.2 million" and "EU profit was 1.1 million"
disagree, nor that "Your reservation is confirmed." and "Sorry, the reservation failed." do. These
checks can (signals extracted by ``reply_signals``):

- ``numbers``: a number the prediction states that gold does not is *inconsistent* (only when gold
  states numbers at all); a number gold states that the prediction omits is *incomplete*.
- ``polarity``: gold reports success and the prediction failure or a negation, or the reverse, is
  *inconsistent*.
- ``entities``: the prediction names something gold does not mention while leaving out a name gold
  gives (``Paris`` where gold says ``London``) is *inconsistent*.
- ``questions``: gold asks the user for information (a wh-question, ``please tell me``; not an offer
  such as ``How about Delta?``) and the prediction asks nothing is *incomplete*.

Coverage counts gold's numbers and its question, and how many of them the prediction gives.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from aem_strands.compare.reply_signals import (
    asks,
    entities_in,
    mentions,
    numbers_in,
    polarity,
    requests_information,
    words_in,
)
from aem_strands.errors import ConfigError
from aem_strands.types import FailureReason, SubMetric

CHECKS = ("numbers", "polarity", "entities", "questions")
"""Every check, in the order findings are reported; ``check_reply_facts`` runs all by default."""


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


def _inconsistent(gold: str, predicted: str, detail: str) -> FactFinding:
    return FactFinding(FailureReason.INCONSISTENT_RESPONSE, SubMetric.TRUTHFULNESS, gold, predicted, detail)


def _incomplete(gold: str, detail: str) -> FactFinding:
    return FactFinding(FailureReason.INCOMPLETE_RESPONSE, SubMetric.COMPLETENESS, gold, "", detail)


def check_reply_facts(gold: str, predicted: str, checks: Collection[str] = CHECKS) -> FactCheck:
    """Compare the facts of two replies (see the module docstring); ``checks`` selects the checks."""
    unknown = set(checks) - set(CHECKS)
    if unknown:
        raise ConfigError(f"unknown fact checks {sorted(unknown)}; expected some of {list(CHECKS)}")
    findings: list[FactFinding] = []
    gold_numbers, predicted_numbers = numbers_in(gold), numbers_in(predicted)
    if "numbers" in checks:
        if gold_numbers:
            for number in sorted(predicted_numbers - gold_numbers):
                findings.append(_inconsistent("", _show(number), f"states {_show(number)}, which gold does not state"))
        for number in sorted(gold_numbers - predicted_numbers):
            findings.append(_incomplete(_show(number), f"omits {_show(number)}, which gold states"))
    if "polarity" in checks:
        gold_polarity, predicted_polarity = polarity(gold), polarity(predicted)
        if gold_polarity != predicted_polarity:
            detail = f"polarity: the prediction is {predicted_polarity} where gold is {gold_polarity}"
            findings.append(_inconsistent(gold_polarity, predicted_polarity, detail))
    if "entities" in checks:
        gold_words, predicted_words = words_in(gold), words_in(predicted)
        introduced = sorted(e for e in entities_in(predicted) if not mentions(e, gold_words))
        dropped = sorted(e for e in entities_in(gold) if not mentions(e, predicted_words))
        if introduced and dropped:
            detail = f"names {', '.join(introduced)} where gold names {', '.join(dropped)}"
            findings.append(_inconsistent(", ".join(dropped), ", ".join(introduced), detail))
    gold_asks, predicted_asks = asks(gold), asks(predicted)
    if "questions" in checks and requests_information(gold) and not predicted_asks:
        findings.append(_incomplete("?", "gold asks the user a question; the prediction asks none"))
    order = [FailureReason.INCONSISTENT_RESPONSE, FailureReason.INCOMPLETE_RESPONSE]
    findings.sort(key=lambda f: order.index(f.reason))
    gold_facts = sum(gold_numbers.values()) + int(gold_asks)
    covered = sum((gold_numbers & predicted_numbers).values()) + int(gold_asks and predicted_asks)
    return FactCheck(tuple(findings), gold_facts, covered)
