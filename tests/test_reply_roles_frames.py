"""Facts with roles (issue 22), third round: frames that several verbs share. A replacement read whatever
the verb (``replace``, ``swap ... for``, ``switch from ... to``, ``take over from``). The pairs are written
here, not taken from the tuning sets."""

from __future__ import annotations

import pytest

from aem_strands.compare.roles import relations_in, role_findings
from tests.conftest import reply_fails_on_facts


def _replaced(text: str) -> list[tuple[str, str]]:
    return [(old.text, new.text) for r in relations_in(text) for old, new in r.replacements]


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("The laptop will replace your desktop.", [("your desktop", "laptop")]),
        ("Your desktop has been replaced with a laptop.", [("Your desktop", "laptop")]),
        ("We replaced your desktop with a laptop.", [("your desktop", "laptop")]),
        ("Anna replaces Ben as your adviser.", [("Ben", "Anna")]),
        ("We can swap your aisle seat for a window seat.", [("your aisle seat", "window seat")]),
        ("I switched your plan from the basic tier to the premium tier.", [("basic tier", "premium tier")]),
        ("We moved you off the 09:15 and onto the 10:40 flight.", [("09:15", "10:40 flight")]),
        ("You were switched from the morning class back to the evening class.", [("morning class", "evening class")]),
        ("Anna takes over from Ben as your adviser.", [("Ben", "Anna")]),
        ("We replaced your card.", []),  # who replaces is no new card
        ("I sent the form to the office.", []),
    ],
)
def test_a_replacement_reads_old_and_new_whatever_the_verb(text: str, pairs: list[tuple[str, str]]) -> None:
    assert _replaced(text) == pairs


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        (
            "The laptop will replace your desktop.",
            "You'll be switched from the laptop back to your desktop.",
            "'laptop' is the new one in gold ('replace'), 'laptop' the old one in the prediction ('switched')",
        ),
        (
            "Your 09:15 flight has been replaced with the 10:40 flight.",
            "I've moved you off the 10:40 and onto the 09:15 flight.",
            "'10:40 flight' is the new one in gold ('replaced'), '10:40' the old one in the prediction ('moved')",
        ),
        (
            "We can swap your aisle seat for a window seat.",
            "Your window seat can be replaced with an aisle seat.",
            "'window seat' is the new one in gold ('swap'), 'Your window seat' the old one in the prediction",
        ),
    ],
)
def test_a_replacement_run_the_other_way_fails(gold: str, predicted: str, said: str) -> None:
    assert said in reply_fails_on_facts(gold, predicted)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Ben is being replaced by Anna as your adviser.", "Anna takes over from Ben as your adviser."),
        ("The laptop will replace your desktop.", "We'll switch you from your desktop to the laptop."),
        ("Your old card has been replaced by the new card.", "The new card supersedes your old card."),
    ],
)
def test_a_replacement_the_same_way_round_is_no_finding(gold: str, predicted: str) -> None:
    assert role_findings(gold, predicted) == []


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        (
            "Your neighbour lent you the ladder.",
            "Your neighbour borrowed the ladder from you.",
            "'you' is the taker in gold ('lent'), 'you' the giver in the prediction ('borrowed')",
        ),
        (
            "You'll receive €40 from Priya.",
            "You will send Priya €40.",
            "'You' is the taker in gold ('receive'), 'You' the giver in the prediction ('send')",
        ),
        (
            "Priya paid you €40 for the taxi.",
            "A €40 transfer from you to Priya for the taxi went through.",
            "'you' is the taker in gold ('paid'), 'you' the giver in the prediction ('transfer')",
        ),
    ],
)
def test_a_giver_made_the_taker_through_a_converse_verb_fails(gold: str, predicted: str, said: str) -> None:
    assert said in reply_fails_on_facts(gold, predicted)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Your neighbour lent you the ladder.", "You borrowed the ladder from your neighbour."),
        ("You'll receive €40 from Priya.", "Priya will send you €40."),
        ("The clinic called your mother.", "Your mother got a call from the clinic."),
        ("Priya paid you €40 for the taxi.", "A €40 transfer from Priya to you for the taxi went through."),
        ("I got you a table for two.", "You have a table for two."),  # an indirect object: the subject takes nothing
    ],
)
def test_a_converse_verb_the_same_way_round_is_no_finding(gold: str, predicted: str) -> None:
    assert role_findings(gold, predicted) == []
