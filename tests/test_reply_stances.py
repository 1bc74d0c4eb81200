"""Affirmed and denied by meaning (``compare.stances``): what can or will be done against what cannot."""

from __future__ import annotations

import pytest

from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.stances import opposed_stances, stance


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We can fit you in at the clinic on Monday.", "can"),
        ("You'll receive the voucher by email.", "can"),
        ("A courtesy car is available for you.", "can"),
        ("The courtesy car isn't available this week.", "cannot"),
        ("Your voucher won't be refunded.", "cannot"),
        ("We're unable to upgrade your cabin.", "cannot"),
        ("An upgrade is impossible on this fare.", "cannot"),
        ("The suite isn't available, but we can offer a deluxe room.", None),  # both
        ("Can we fit you in on Monday?", None),  # a question
        ("The cabin can only be upgraded until Friday.", None),  # bounded
        ("The museum opens at nine.", None),  # no modal, no denial
    ],
)
def test_stance(text: str, expected: str | None) -> None:
    assert stance(text) == expected


@pytest.mark.parametrize(
    ("gold", "predicted", "expected"),
    [
        ("We can fit you in at the clinic on Monday.", "The clinic has no slot available on Monday.", None),
        ("A courtesy car will be provided.", "The courtesy car isn't available.", ("can", "cannot")),
        ("Your voucher won't be refunded.", "You'll get the voucher refunded.", ("cannot", "can")),
        ("We can upgrade your cabin.", "Dinner isn't possible tonight.", None),  # nothing shared
        ("I can't extend the loan past Friday.", "The loan can only be extended until Friday.", None),
    ],
)
def test_opposed_stances(gold: str, predicted: str, expected: tuple[str, str] | None) -> None:
    assert opposed_stances(gold, predicted) == expected


def test_a_denied_promise_is_an_inconsistent_fact() -> None:
    check = check_reply_facts("A courtesy car will be provided.", "The courtesy car isn't available.")
    assert [f.detail for f in check.findings] == ["says it cannot be done vs gold can"]
