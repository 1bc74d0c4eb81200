"""Issue 7, arguments: values judged by what they are (identifiers, units, phones, places, states), not by cosine."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aem_strands import Comparator, EmbeddingScorer, TableScorer, ValueKind, evaluate_dialog
from aem_strands.compare.identifiers import identifier_key, is_identifier, looks_like_phone
from aem_strands.compare.parse_numbers import parse_amount
from aem_strands.compare.settle import settle, typed_value
from aem_strands.compare.units import parse_measure
from aem_strands.compare.values import ClockTime, Identifier, ParseContext, Quantity, Quarter, Weekday, agree
from aem_strands.types import Method, Role

ROOT = Path(__file__).resolve().parent.parent
HARD = ROOT / "data" / "hard_arguments"
NO_DATE = ParseContext()

# Every pair of issue 7's "Arguments" paragraph, with the verdict it must get.
ISSUE_EXAMPLES = [
    ("ds_revenue_eu_q3", "ds_profit_eu_q3", False),
    ("rpt_revenue_eu_q3", "rpt_profit_eu_q3", False),
    ("ascending", "descending", False),
    ("Psychologist", "Psychiatrist", False),
    ("San Francisco", "San Jose", False),
    ("john.smith@example.com", "jon.smith@example.com", False),
    ("5 kg", "5 lb", False),
    ("EU revenue Q3 2024", "EU profit Q3 2024", False),
    ("ORDER_123", "ORDER_124", False),
    ("5 kg", "5000 g", True),
    ("Q3 2024", "third quarter of 2024", True),
    ("+1 555-123-2002", "5551232002", True),
    ("JFK", "John F. Kennedy International Airport", True),
    ("celsius", "°C", True),
    ("enable", "turn on", True),
    ("LAX", "Los Angeles", True),
    ("Chicago", "Chi-town", True),
    ("19:00", "7 o'clock in the evening", True),
    ("19:00", 'seven o"clock in the evening', True),
]


class SimilarScorer(TableScorer):
    """Says every pair is near-identical (0.99) and records what it was asked: whatever passes without
    it, or fails despite it, was not decided by similarity."""

    def __init__(self) -> None:
        super().__init__({})
        self.asked: list[tuple[str, str]] = []

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        self.asked.extend(pairs)
        return [0.99 for _ in pairs]


@pytest.mark.parametrize(("gold", "predicted", "same"), ISSUE_EXAMPLES)
def test_issue_examples_are_not_decided_by_similarity(gold: str, predicted: str, same: bool) -> None:
    scorer = SimilarScorer()
    result = Comparator(scorer).compare(gold, predicted)
    assert result.equivalent is same
    if same:  # settled before any model, and the rule is written down
        assert (result.method, scorer.asked) == (Method.NORMALISED, [])
        assert "is the same as" in result.detail
    else:  # settled as different, or a 0.99 similarity was not allowed to pass it
        assert result.method is Method.NORMALISED or "similarity does not decide" in result.detail


@pytest.mark.slow
@pytest.mark.parametrize(("gold", "predicted", "same"), ISSUE_EXAMPLES)
def test_issue_examples_with_the_default_embedding_scorer(gold: str, predicted: str, same: bool) -> None:
    assert Comparator(_embedding()).compare(gold, predicted).equivalent is same


@pytest.mark.parametrize(
    ("gold", "predicted", "detail"),
    [
        ("5 kg", "5000 g", "'5000 g' is the same as '5 kg' (measurement 5 kilogram)"),
        ("ORDER_123", "order-123", "'order-123' is the same as 'ORDER_123' (identifier ORDER_123)"),
        ("enable", "turn on", "'turn on' is the same as 'enable' (same state)"),
        ("ascending", "descending", "'descending' differs from 'ascending' (opposite states)"),
        ("Chicago", "Chi-town", "'Chi-town' is the same as 'Chicago' (gazetteer: both name Chicago (US))"),
        ("US", "USA", "'USA' is the same as 'US' (gazetteer: both name United States (country))"),
        ("2.0", 2, "'2' is the same as '2.0' (number 2)"),
        ("New  York", "new york", "'new york' is the same as 'New  York' (ignoring case, spacing and punctuation)"),
    ],
)
def test_a_settled_value_says_how_it_was_decided(gold: Any, predicted: Any, detail: str) -> None:
    result = Comparator(SimilarScorer()).compare(gold, predicted)
    assert (result.method, result.detail) == (Method.NORMALISED, detail)


def test_a_held_pair_records_its_score_and_why_similarity_did_not_pass_it() -> None:
    result = Comparator(TableScorer({("Psychologist", "Psychiatrist"): 0.784})).compare("Psychologist", "Psychiatrist")
    assert (result.equivalent, result.score, result.method) == (False, 0.784, Method.TEST)
    assert result.detail == (
        "table 0.784 >= 0.75 but similarity does not decide single words "
        "(no escalation scorer: not equivalent, conservative)"
    )


def test_the_escalation_scorer_decides_a_held_pair() -> None:
    judge = TableScorer({("Football", "Soccer"): 1.0, ("Psychologist", "Psychiatrist"): 0.0})
    table = TableScorer({("Football", "Soccer"): 0.845, ("Psychologist", "Psychiatrist"): 0.784})
    comparator = Comparator(table, escalation=judge)
    same, different = comparator.compare("Football", "Soccer"), comparator.compare("Psychologist", "Psychiatrist")
    assert (same.equivalent, different.equivalent) == (True, False)
    assert same.detail == "table 0.845 >= 0.75 but similarity does not decide single words → table 1.00: equivalent"


def test_a_held_pair_below_the_floor_fails_on_its_score_as_before() -> None:
    result = Comparator(TableScorer({("revenue", "cat"): 0.2})).compare("revenue", "cat")
    assert (result.equivalent, result.detail) == (False, "table 0.200 < 0.49")


def test_replies_are_not_held() -> None:
    result = Comparator(TableScorer({("Sure.", "Okay."): 0.8})).compare("Sure.", "Okay.", ValueKind.RESPONSE)
    assert settle("Sure.", "Okay.", ValueKind.RESPONSE, NO_DATE) is None
    assert result.method is not Method.NORMALISED


@pytest.mark.parametrize(
    ("gold", "predicted", "same"),
    [
        ("4.2 million", 4_200_000, True),
        ("4.2 million", 4.2, False),
        ("$356 million", "$356M", True),
        ("10:00", "10 am", True),
        ("10:00", 1000, False),  # a time, not a thousand
        ("10 km", "10000 m", True),  # a bare "m" after a number is a metre, not a million or a minute
        ("72 °F", "22.2 °C", True),  # 22.2 °C is 71.96 °F: within the rounding of the written 22.2
        ("5 kg", "5.4 kg", False),  # the same unit: no rounding allowance
        ("1 h 30 m", "90 minutes", True),
        ("Monday", "Tuesday", False),
        ("2019-03-04", "Monday", True),  # 4 March 2019 was a Monday
        ("Q1 2025", "Q2 2025", False),
        ("five_years", "5 years", True),
        ("house_price", "house price", True),
        ("2019-2020", "2020-2021", False),
        ("mph", "miles per hour", True),
        ("EU", "Europe", True),
        ("two working days", "2 working days", True),
        ("two working days", "3 working days", False),
        ("2 French journalists", "Two French journalists", True),
        ("$1,250", "$1,520", False),
        ("May 3", "May 13", False),
        ("10:30", "11:30", False),
        ("7 pm", "7 am", False),
    ],
)
def test_typed_parsing(gold: Any, predicted: Any, same: bool) -> None:
    result = settle(gold, predicted, ValueKind.ARGUMENT, NO_DATE)
    assert result is not None
    assert result.equivalent is same


def test_numbers_beyond_float_range_are_never_equal() -> None:
    gold, predicted = json.loads('{"n": 1e400}'), json.loads('{"n": 1e999}')  # both load as inf
    for same_text in (False, True):
        result = Comparator(SimilarScorer()).compare(gold, gold if same_text else predicted)
        assert result.equivalent is False
        assert "out of range" in result.detail
    assert Comparator(SimilarScorer()).compare("1e400", "1e999").equivalent is False  # identifier-shaped text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ds_revenue_eu_q3", True),
        ("ORDER-123", True),
        ("A1", True),
        ("getUserById", True),
        ("iPhone", True),
        ("user@host", True),
        ("McDonald", False),  # one capital inside a capitalised word: a name
        ("C#", False),
        ("Chi-town", False),
        ("New York", False),
        ("revenue", False),
    ],
)
def test_identifier_shape(text: str, expected: bool) -> None:
    assert is_identifier(text) is expected


def test_identifier_keys_ignore_case_and_separators() -> None:
    assert identifier_key("ORDER_123") == identifier_key("order-123") == identifier_key("Order.123") == "order123"
    assert typed_value("ds_profit_eu_q3") == Identifier("dsprofiteuq3", "ds_profit_eu_q3")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("+1 555-123-2002", True), ("(555) 123-2002", True), ("555 123 2002", True), ("2019-2020", False), ("42", False)],
)
def test_phone_shape(text: str, expected: bool) -> None:
    assert looks_like_phone(text) is expected


@pytest.mark.parametrize(
    ("text", "unit", "base"),
    [("5 kg", "kilogram", 5.0), ("5000 g", "gram", 5.0), ("five kilograms", "kilogram", 5.0), ("20 °C", None, 293.15)],
)
def test_measures_convert_to_base_units(text: str, unit: str | None, base: float) -> None:
    measure = parse_measure(text)
    assert measure is not None
    assert measure.base == pytest.approx(base)  # 5000 g = 5 kg; 20 °C = 293.15 K
    if unit is not None:
        assert measure.unit == unit


@pytest.mark.parametrize("text", ["EU", "at", "in", "revenue", "New York", "5 MB"])
def test_words_that_pint_could_misread_are_not_measures(text: str) -> None:
    assert parse_measure(text) is None  # "EU" would be exa-enzyme-units, "5 MB" millibarns


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4.2 million", Quantity(4_200_000.0)),
        ("$356M", Quantity(356_000_000.0, "USD")),
        ("10:00", ClockTime(10, 0)),
        ("third quarter of 2024", Quarter(3, 2024)),
        ("Q3", Quarter(3)),
        ("Sat", Weekday(5)),
    ],
)
def test_parsers_read_the_whole_value(text: str, expected: Any) -> None:
    assert typed_value(text) == expected


def test_parse_amount_reads_scales_once() -> None:
    assert parse_amount("4.2 million") == 4_200_000.0  # not 4.2 and 1000000
    assert parse_amount("two") == 2.0


NEW_FORMS = [
    "5 kg", "5000 g", "5 lb", "celsius", "°C", "Q3 2024", "third quarter of 2024", "+1 555-123-2002",
    "5551232002", "JFK", "John F. Kennedy International Airport", "LAX", "Los Angeles", "San Jose", "Chi-town",
    "Chicago", "ORDER_123", "order-123", "ORDER_124", "ascending", "descending", "enable", "turn on", "Monday",
    "2019-03-04", "john.smith@example.com", "EU revenue Q3 2024", "EU profit Q3 2024", "Psychologist",
]  # fmt: skip


@given(st.sampled_from(NEW_FORMS), st.sampled_from(NEW_FORMS))
def test_settlement_of_the_new_forms_is_symmetric(a: str, b: str) -> None:
    forward, backward = settle(a, b, ValueKind.ARGUMENT, NO_DATE), settle(b, a, ValueKind.ARGUMENT, NO_DATE)
    assert (forward is None) == (backward is None)
    if forward is not None and backward is not None:
        assert forward.equivalent == backward.equivalent


@given(st.sampled_from(NEW_FORMS))
def test_every_new_form_agrees_with_itself(text: str) -> None:
    value = typed_value(text)
    assert agree(value, value) in (True, None)  # None only for plain text, which exact match decides first
    assert Comparator(SimilarScorer()).compare(text, text).equivalent is True


def _embedding() -> EmbeddingScorer:
    return _EMBEDDING.setdefault("scorer", EmbeddingScorer())


_EMBEDDING: dict[str, EmbeddingScorer] = {}


def _balanced_accuracy(path: Path) -> float:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    comparator = Comparator(_embedding())
    hits = {True: [0, 0], False: [0, 0]}
    for row in rows:
        decided = comparator.compare(row["gold"], row["predicted"]).equivalent is True
        hits[row["label"]][0] += decided == row["label"]
        hits[row["label"]][1] += 1
    return (hits[True][0] / hits[True][1] + hits[False][0] / hits[False][1]) / 2


@pytest.mark.slow
@pytest.mark.parametrize("part", ["tuning", "heldout"])
def test_hard_argument_pairs_reach_the_target(part: str) -> None:
    # docs: tuning 0.955 (50 pairs), held-out 0.944 (56 pairs, written before it was first measured)
    assert _balanced_accuracy(HARD / f"{part}.jsonl") >= 0.90


def _sales_report(dataset: tuple[str, str], report: tuple[str, str]) -> list[dict[str, Any]]:
    """The seed's sales-report dialog with realistic identifiers: (gold, predicted) for each id."""
    dialog = json.loads((ROOT / "examples" / "data" / "sales_report.json").read_text(encoding="utf-8"))
    text = json.dumps(dialog).replace('"ds-7731"', json.dumps(dataset[0])).replace('"ds-7732"', json.dumps(dataset[1]))
    text = text.replace('"ch-301"', json.dumps(report[0])).replace('"ch-302"', json.dumps(report[1]))
    turns: list[dict[str, Any]] = json.loads(text)
    return turns


@pytest.mark.slow
def test_the_sales_report_cascade_survives_realistic_identifiers() -> None:
    dialog = _sales_report(("ds_revenue_eu_q3", "ds_profit_eu_q3"), ("rpt_revenue_eu_q3", "rpt_profit_eu_q3"))
    result = evaluate_dialog(dialog, comparator=Comparator(_embedding()))
    by_turn = {t.turn.turn_no: t for t in result.turns}
    assert result.score == pytest.approx(0.2)  # 1 of 5 turns passes: the opening question
    assert [t for t in by_turn if not by_turn[t].verdict.success] == [2, 3, 4, 5]
    assert by_turn[2].attribution is not None
    assert by_turn[2].attribution.role is Role.ROOT_CAUSE
    assert [by_turn[t].attribution.role for t in (3, 4, 5) if by_turn[t].attribution] == [Role.CASCADE] * 3
