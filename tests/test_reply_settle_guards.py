"""What a settled pass needs beyond matched facts: the same denials, scope words, order of times and roles of
values, and numbers counting the same nouns (issue 22)."""

from __future__ import annotations

import pytest

from aem_strands.compare.replies import settle_reply
from aem_strands.compare.reply_signals import counted_numbers, facts_in, negates


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Which day do you fly back?", "Which day are you not flying back?"),  # a request denied on one side
        ("Anything else for today?", "Nothing else, is there anything more for today?"),
        ("Your parcel is on its way.", "Your parcel can not be sent."),  # "can not" read apart
        ("Your parcel is on its way.", "Your parcel cannot be sent."),
        ("The sauna has 2 benches.", "The sauna is unable to seat 2 on benches."),  # a word that denies by itself
    ],
)
def test_a_denial_on_one_side_only_is_never_settled_equal(gold: str, predicted: str) -> None:
    settled = settle_reply(gold, predicted)
    assert settled is None or settled.equivalent is False
    assert settle_reply(predicted, gold) is None or settle_reply(predicted, gold).equivalent is False  # type: ignore[union-attr]


def test_negates_reads_cues_that_govern_no_content_word_and_leaves_idioms_out() -> None:
    assert negates("Where are not you staying?")  # the cue governs no content word: no scoped fact, still a denial
    assert negates("The voucher is non-transferable.")
    assert negates("It cannot be moved.")
    assert negates("It can not be moved.")
    assert not negates("No problem, the desk opens at 9.")  # an idiom
    assert not negates("No, the desk opens at 9.")  # a bare answer: the statement after it is plain
    assert not negates("The desk opens at 9.")


def test_a_negation_does_not_reach_into_the_next_sentence() -> None:
    # "don't" governs nothing in its own sentence; "paid" in the next one is stated plainly
    assert [f.group for f in facts_in("No, we don't. The invoice is paid.") if f.text == "not paid"] == []
    assert any(f.text == "not paid" for f in facts_in("No, the invoice is not paid yet."))


def test_non_before_a_state_word_flips_it() -> None:
    gold, predicted = "The fare is not refundable.", "It is a non-refundable fare."
    assert settle_reply(gold, predicted) is None or settle_reply(gold, predicted).equivalent is True  # type: ignore[union-attr]
    assert settle_reply(predicted, "It is a refundable fare.").equivalent is False  # type: ignore[union-attr]


def test_counted_numbers_bind_each_number_to_the_noun_after_it() -> None:
    assert counted_numbers("A flat with 4 rooms and two balconies.") == {
        "room": frozenset(["4"]),
        "balconi": frozenset(["2"]),  # the number word read as a digit; nouns by their stem
    }
    assert counted_numbers("We open at 9 am on May 4.") == {}  # times and dates count nothing


@pytest.mark.parametrize(
    ("gold", "predicted", "detail"),
    [
        ("A flat with 4 rooms and 2 balconies.", "A flat with 2 rooms and 4 balconies.", "2 room vs gold 4 room"),
        ("The 7 Seas Inn is a 3 star inn.", "The 3 Seas Inn is a 7 star inn.", "3 sea vs gold 7 sea"),
    ],
)
def test_two_numbers_swapped_between_their_nouns_fail(gold: str, predicted: str, detail: str) -> None:
    settled = settle_reply(gold, predicted)
    assert settled is not None
    assert settled.equivalent is False
    assert detail in settled.detail


def test_numbers_counting_the_same_nouns_in_another_order_still_pass() -> None:
    settled = settle_reply("A flat with 4 rooms and 2 balconies.", "A flat with 2 balconies and 4 rooms.")
    assert settled is not None
    assert settled.equivalent is True


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("The shop is open from 9 am to 5 pm.", "The shop is open from 5 pm to 9 am."),  # two times reversed
        ("You stay from May 2 to May 6.", "You stay from May 6 to May 2."),
        ("The ferry goes from Dover to Calais.", "The ferry goes from Calais to Dover."),  # names with "from"
    ],
)
def test_two_times_dates_or_places_in_the_other_order_are_not_settled_equal(gold: str, predicted: str) -> None:
    settled = settle_reply(gold, predicted)
    assert settled is None or settled.equivalent is False


def test_a_list_of_names_in_another_order_may_still_pass() -> None:
    settled = settle_reply("How about Oslo, Bergen or Tromso?", "How about Tromso, Oslo or Bergen?")
    assert settled is not None
    assert settled.equivalent is True


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("From Leeds Station.", "The destination is Leeds Station."),  # a source against a target
        ("The last coach runs to Leeds Station.", "The last coach runs from Leeds Station."),
    ],
)
def test_a_source_said_where_the_other_says_a_target_fails(gold: str, predicted: str) -> None:
    # once left open for the semantic stage; the words next to the place now tell its two ends apart (directions)
    settled = settle_reply(gold, predicted)
    assert settled is not None
    assert settled.equivalent is False
    assert "'Leeds Station' is the" in settled.detail


def test_words_of_one_role_on_one_side_only_do_not_block_a_pass() -> None:
    settled = settle_reply("The coach leaves from Leeds Station.", "The coach departs Leeds Station.")
    assert settled is not None
    assert settled.equivalent is True


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Lunch, Brunch and Dinner are all served.", "Lunch, Brunch and Dinner are some served."),
        ("You can pick Oslo, Bergen or Tromso.", "You can pick both Oslo, Bergen or Tromso."),
    ],
)
def test_a_scope_word_on_one_side_only_is_not_settled_equal(gold: str, predicted: str) -> None:
    settled = settle_reply(gold, predicted)
    assert settled is None or settled.equivalent is False


def test_also_on_one_side_only_does_not_block_a_pass() -> None:
    settled = settle_reply("The Grand Hotel has a pool.", "The Grand Hotel also has a pool.")
    assert settled is not None
    assert settled.equivalent is True
