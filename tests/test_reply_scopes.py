"""Scope and quantity words of replies (``compare.scopes``): denied universals, ``within``, ``as do``."""

from __future__ import annotations

import pytest

from aem_strands.compare.scopes import flipped_predicate, quantified_sentence, scope_findings, scopes_in


@pytest.mark.parametrize(
    ("text", "classes"),
    [
        ("Not every branch opens on Sundays.", {"some"}),  # a denied universal says some
        ("The rooms aren't all booked yet.", {"some"}),
        ("Snow will fall in the hills, but not everywhere.", {"some"}),
        ("Everything in the basket ships today.", {"all"}),
        ("Wi-Fi works everywhere in the hotel.", {"all"}),
        ("Your parcel arrives within three days.", {"at most"}),  # no later than
        ("Expect a reply within 48 hours.", {"at most"}),
        ("The museum is within walking distance.", set()),  # a place, no bound
        ("The blue jacket is in stock, as are the grey ones.", {"also"}),
        ("Not at all, happy to help.", set()),
    ],
)
def test_scope_classes(text: str, classes: set[str]) -> None:
    assert scopes_in(text) == frozenset(classes)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Everything you ordered is in stock.", "Most of what you ordered is in stock."),
        ("Refunds take at least 10 days.", "Refunds arrive within 10 days."),
        ("Only the early show has tickets left.", "The early show has tickets left, as does the late one."),
        ("Not all of the rooms have a sea view.", "All of the rooms have a sea view."),
    ],
)
def test_other_scopes_are_findings(gold: str, predicted: str) -> None:
    assert scope_findings(gold, predicted)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Some of the trails are open, but not all.", "Not every trail is open; a few are."),
        ("The refund reaches you within five days.", "You'll get the refund in no more than five days."),
        ("Your whole order has been packed.", "Everything in your order has been packed."),
    ],
)
def test_one_scope_in_other_words_is_no_finding(gold: str, predicted: str) -> None:
    assert scope_findings(gold, predicted) == []


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Only the blue mug is on sale.", "Everything except the blue mug is full price."),  # predicate reworded
        ("Only the north gate stays open tonight.", "All the gates close tonight apart from the north one."),
    ],
)
def test_only_and_all_except_with_another_predicate_are_left_open(gold: str, predicted: str) -> None:
    assert scope_findings(gold, predicted) == []


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Only the blue mug is on sale.", "Everything except the blue mug is on sale."),  # the same predicate
        ("Only the north gate stays open tonight.", "All the gates stay open tonight apart from the north one."),
    ],
)
def test_only_and_all_except_with_the_same_predicate_oppose(gold: str, predicted: str) -> None:
    assert [f.detail for f in scope_findings(gold, predicted)] == ["all, except vs gold only"]


@pytest.mark.parametrize(
    ("denying", "universal"),
    [
        ("No flat in the block allows pets.", "Every flat in the block is pet-free."),  # -free
        ("No parcel arrived damaged.", "Every parcel arrived without damage."),  # without
        ("No ferries are sailing tomorrow.", "All ferries are suspended tomorrow."),  # a denying state word
        ("No guest may stay more than three nights.", "Each guest may stay up to three nights."),  # bounds
        ("There's no seat that can't be reclined.", "Every seat can be reclined."),  # denied twice
    ],
)
def test_no_and_every_with_the_predicate_flipped(denying: str, universal: str) -> None:
    assert quantified_sentence(denying)
    assert flipped_predicate(denying, universal)


@pytest.mark.parametrize(
    ("denying", "universal"),
    [
        ("No flat in the block allows pets.", "Every flat in the block allows pets."),  # nothing flipped
        ("No ferries are suspended tomorrow.", "All ferries are suspended tomorrow."),  # the same state word
        ("No guest may stay more than three nights.", "Each guest may stay more than three nights."),
        ("No ferries are sailing tomorrow.", "Some ferries are suspended tomorrow."),  # no universal
        ("No ferries are sailing tomorrow.", "All ferries aren't sailing tomorrow."),  # the universal side negates
    ],
)
def test_no_and_every_without_a_flip_are_not_read_as_one(denying: str, universal: str) -> None:
    assert not flipped_predicate(denying, universal)


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("The ferry is not sailing. No refund is due.", " no refund is due"),
        ("Sorry, none of the ferries are sailing.", "sorry, none of the ferries are sailing"),
        ("Sadly, no ferries are sailing.", "sadly, no ferries are sailing"),
        ("The ferry is not sailing.", ""),  # a negated predicate is no quantifier
        ("I have no idea.", ""),  # an object's "no" denies no subject
    ],
)
def test_the_sentence_a_quantifier_no_denies(text: str, sentence: str) -> None:
    assert quantified_sentence(text) == sentence
