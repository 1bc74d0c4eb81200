"""The hard training pairs of the reply pair model (``benchmarks/pair_model_perturb.py``): each change alters
exactly one fact of a reply, and says nothing when the reply has no such fact."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from pair_model_perturb import (
    act_changes,
    code_flip,
    frame_spans,
    negation,
    perturbed_pairs,
    role_swap,
    scope,
    time_flip,
)


def test_role_swap_trades_two_fillers_of_one_kind() -> None:
    text = "You check in on March 3rd and check out on March 5th."
    start_in, start_out = text.index("March 3rd"), text.index("March 5th")
    frame = {
        "slots": [
            {"slot": "check_in_date", "start": start_in, "exclusive_end": start_in + 9},
            {"slot": "check_out_date", "start": start_out, "exclusive_end": start_out + 9},
            {"slot": "hotel_name", "start": 0, "exclusive_end": 3},  # no kind: never swapped
        ]
    }
    spans = frame_spans(text, frame)
    assert [kind for _, _, kind in spans] == ["date", "date"]
    assert role_swap(text, spans) == "You check in on March 5th and check out on March 3rd."


def test_role_swap_reads_from_to_and_counts_without_spans() -> None:
    assert role_swap("I moved $50 from checking to savings.") == "I moved $50 from savings to checking."
    assert role_swap("It has 3 bedrooms and 2 baths.") == "It has 2 bedrooms and 3 baths."
    assert role_swap("The table is booked for 7 pm.") is None  # one filler: nothing to trade


def test_time_flip_moves_the_time_to_the_other_half_of_the_day() -> None:
    assert time_flip("The bus leaves at 7:30 pm.") == "The bus leaves at 7:30 am."
    assert time_flip("It starts at a quarter past six.") == "It starts at a quarter to six."
    assert time_flip("The shop opens at noon.") == "The shop opens at midnight."
    assert time_flip("The shop is open today.") is None


def test_code_flip_transposes_two_different_neighbouring_digits() -> None:
    assert code_flip("Board at gate B12.") == "Board at gate B21."
    assert code_flip("It costs $1,060.") == "It costs $1,600."  # the first group 1 has one digit
    assert code_flip("Call 555-0100.") == "Call 555-1000."  # 555: equal digits, nothing to trade
    assert code_flip("Seat 11 is yours.") is None  # equal digits: nothing changes


def test_negation_adds_or_drops_one_negation() -> None:
    assert negation("The hotel is pet friendly.") == "The hotel is not pet friendly."
    assert negation("They don't serve alcohol.") == "They do serve alcohol."
    assert negation("I can't find a flight.") == "I can find a flight."
    assert negation("Great choice!") is None


def test_scope_replaces_the_first_scope_word() -> None:
    assert scope("All rooms have a view.") == "Some rooms have a view."
    assert scope("I found only two flights.") == "I found also two flights."
    assert scope("Your flight leaves at 9.") is None


@given(st.text(alphabet=st.sampled_from(list("abc 12:.,AP")), max_size=40))
def test_a_change_is_none_or_another_text(text: str) -> None:
    for change in (time_flip, code_flip, negation, scope, role_swap):
        changed = change(text)
        assert changed is None or changed != text


def test_perturbed_pairs_are_labelled_negatives_of_their_kind() -> None:
    positives = [
        ("The bus leaves at 7:30 pm.", "Your bus departs at 7:30 pm.", []),
        ("It has 3 beds and 2 baths.", "There are 3 beds and 2 baths.", []),
        ("All rooms have a view.", "Every room has a view.", []),
    ]
    rows = perturbed_pairs(positives, random.Random(0), per_kind=5)
    assert rows
    golds = {g for g, _, _ in positives}
    for row in rows:
        assert row["label"] == 0.0
        assert row["gold"] in golds
        assert row["predicted"] not in {p for _, p, _ in positives}
    assert len(rows) == len(positives)  # each positive gives one change: its first kind that applies
    assert {row["case"] for row in rows} <= {"role_swap", "time_flip", "code_flip", "negation", "scope"}


def test_act_changes_pair_turns_with_the_same_values_and_other_acts() -> None:
    confirm = ("Restaurants_1", (("CONFIRM", "restaurant_name", ("Sushi Zen",)),))
    done = ("Restaurants_1", (("INFORM", "restaurant_name", ("Sushi Zen",)), ("NOTIFY_SUCCESS", "", ())))
    closing = ("Restaurants_1", (("CONFIRM", "restaurant_name", ("Sushi Zen",)), ("REQ_MORE", "", ())))
    part = {
        confirm: [("Shall I book Sushi Zen?", "d1")],
        done: [("Sushi Zen is booked.", "d2")],
        closing: [("Sushi Zen, right? Anything else?", "d3")],
    }
    rows = act_changes(part, random.Random(0), limit=10)
    pairs = {frozenset((r["gold"], r["predicted"])) for r in rows}
    assert frozenset(("Shall I book Sushi Zen?", "Sushi Zen is booked.")) in pairs
    # only "anything else?" differs: the same thing said, not an act change
    assert frozenset(("Shall I book Sushi Zen?", "Sushi Zen, right? Anything else?")) not in pairs
    assert all(r["label"] == 0.0 and r["case"] == "act_change" for r in rows)
