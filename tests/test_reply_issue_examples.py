"""Every reply example of issue 7 judged right, and one verdict for ``compare`` and ``score``.

The scorer here is a ``TableScorer`` that gives each pair the cosine the issue measured (or a
deliberately misleading one): paraphrases at low scores must still pass and contradictions at high
scores must still fail, so the facts and acts, not the score, decide them.
"""

from __future__ import annotations

import json

import pytest

from aem_strands import TableScorer
from aem_strands.compare.chain import Comparator, ComparisonRequest
from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.reply_signals import facts_in
from aem_strands.evaluate import evaluate_dialog
from aem_strands.types import FailureReason, Method, ValueKind, Verdict

from .conftest import ROOT, paired, reply

PARAPHRASES = [
    # (gold, predicted, the cosine the issue measured)
    ("What date would you like to leave?", "Could you tell me your departure date?", 0.612),
    ("Anything else I can do for you today?", "Is there anything else I can help you with?", 0.466),
    (
        "Which city are you flying to, and on what date?",
        "Sure! What's your destination city and your travel date?",
        0.659,
    ),
]

CONTRADICTIONS = [
    # (gold, predicted, the fact named in the reason); all scored 0.98 by the table
    ("Your table is booked for 7 pm.", "Your table is booked for 7 am.", "7 am vs gold 7 pm"),
    ("Sales are up 8% this quarter.", "Sales are down 8% this quarter.", "down 8% vs gold up 8%"),
    ("Your order ORDER_123 has shipped.", "Your order ORDER_124 has shipped.", "ORDER_124 vs gold ORDER_123"),
    ("John will join you at the meeting.", "Jane will join you at the meeting.", "Jane vs gold John"),
    ("The price is $40 including tax.", "The price is $40 excluding tax.", "excluding vs gold including"),
    ("Your subscription was cancelled.", "Your subscription was renewed.", "renewed vs gold cancelled"),
    ("The heater is switched off.", "The heater is switched on.", "switched on vs gold switched off"),
    ("The total is $1,250.", "The total is $1,520.", "$1,520 vs gold $1,250"),
    ("Your appointment is on May 3.", "Your appointment is on May 13.", "May 13 vs gold May 3"),
    ("The meeting is on Friday.", "The meeting is on Monday.", "Monday vs gold Friday"),
    ("The train leaves at 10:30.", "The train leaves at 11:30.", "11:30 vs gold 10:30"),
    ("It will be sunny tomorrow.", "It will be rainy tomorrow.", "rainy vs gold sunny"),
    ("I found a house in Pleasant Hill.", "I found a house in Mill Valley.", "Mill Valley vs gold Pleasant Hill"),
    (
        "Your train leaves from Union Station.",
        "Your train leaves from Grand Central Station.",
        "Grand Central Station vs gold Union Station",
    ),
    ("Your reservation is confirmed.", "Sorry, the reservation failed.", "failed vs gold confirmed"),
    ("EU revenue was 4.2 million.", "EU profit was 1.1M.", "1.1M vs gold 4.2 million"),
]

NOT_CONTRADICTIONS = [
    # misfires of the old checks: no finding at all
    ("You have nothing on your calendar.", "Your calendar is free."),
    ("That is not a good idea.", "That is a very bad idea."),
    ("2 French journalists were freed.", "Two French journalists were freed."),
    ("The company was sold for $356 million.", "The company was sold for $356M."),
    ("Delivery takes two working days.", "Delivery takes 2 working days."),
]


def _comparator(table: dict[tuple[str, str], float]) -> Comparator:
    return Comparator(TableScorer(table))


@pytest.mark.parametrize(("gold", "predicted", "cosine"), PARAPHRASES)
def test_paraphrased_questions_pass_whatever_their_cosine(gold: str, predicted: str, cosine: float) -> None:
    for score in (cosine, 0.05):  # the measured cosine, and one far below any threshold
        result = _comparator({(gold, predicted): score}).compare(gold, predicted, ValueKind.RESPONSE)
        assert result.equivalent is True, result.detail
        assert result.method is Method.FACTS  # decided by the dialog act, not the score


@pytest.mark.parametrize(("gold", "predicted", "named"), CONTRADICTIONS)
def test_contradictions_fail_whatever_their_cosine(gold: str, predicted: str, named: str) -> None:
    result = _comparator({(gold, predicted): 0.98}).compare(gold, predicted, ValueKind.RESPONSE)
    assert result.equivalent is False
    assert named in result.detail
    verdict = evaluate_dialog([paired(1, reply(gold), reply(predicted))], comparator=_comparator({}))
    problem = verdict.turns[0].verdict.problems[0]
    assert problem.reason is FailureReason.INCONSISTENT_RESPONSE
    assert problem.detail == named or named in problem.detail


@pytest.mark.parametrize(("gold", "predicted"), NOT_CONTRADICTIONS)
def test_old_misfires_find_nothing(gold: str, predicted: str) -> None:
    assert check_reply_facts(gold, predicted).findings == ()


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("It reached 4.2 million.", ("number", "4200000")),  # one value, not 4.2 and 1000000
        ("The call is at 10:00.", ("time", "10:00")),  # not the number 1000
        ("It takes two working days.", ("duration", "172800 s")),  # two days: it states 2
        ("profit was 1.1M", ("number", "1100000")),  # not "1"
    ],
)
def test_numbers_are_read_with_their_scale(text: str, fact: tuple[str, str]) -> None:
    assert [(f.group, f.key) for f in facts_in(text) if f.group != "entity"] == [fact]


def test_a_passing_reply_explains_how_it_was_decided() -> None:
    gold, predicted = "Your table for 2 is at 7 pm.", "A table for two at 19:00; the kitchen closes at 23:00."
    result = _comparator({(gold, predicted): 0.8}).compare(gold, predicted, ValueKind.RESPONSE)
    assert result.equivalent is True
    assert result.detail == "table 0.800 >= 0.50; facts agree: 2, 7 pm"  # method, score, facts matched


def test_a_reply_passed_by_its_dialog_act_says_so() -> None:
    gold, predicted = "Your table for 2 is booked at 7 pm.", "Booked: a table for two at 19:00."
    result = _comparator({(gold, predicted): 0.05}).compare(gold, predicted, ValueKind.RESPONSE)
    assert (result.equivalent, result.method) == (True, Method.FACTS)  # the score 0.05 never counted
    assert result.detail == "both confirm success (notify_success); facts agree: 2, 7 pm"


def _load(name: str) -> list[dict[str, object]]:
    with open(ROOT / "data" / "replies" / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_compare_and_score_give_one_verdict_on_every_pair() -> None:
    rows = _load("sgd_pairs.heldout.jsonl")[::6] + _load("hard_pairs.jsonl")  # 325 + 69 pairs
    assert len(rows) > 300
    comparator = _comparator({})  # token overlap for whatever facts and acts leave open
    compared = comparator.compare_many([ComparisonRequest(r["gold"], r["predicted"], ValueKind.RESPONSE) for r in rows])
    for row, comparison in zip(rows, compared, strict=True):
        dialog = [paired(1, reply(str(row["gold"])), reply(str(row["predicted"])))]
        verdict = evaluate_dialog(dialog, comparator=_comparator({})).turns[0].verdict.verdict
        expected = {True: Verdict.PASS, False: Verdict.FAIL, None: Verdict.NOT_APPLICABLE}[comparison.equivalent]
        assert verdict is expected, (row, comparison)
