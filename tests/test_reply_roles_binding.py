"""Facts with roles (issue 22), second round: possessors, denied fillers, ``unable``, scope words that add
or bound, and a question that checks a fact. The pairs are written here, not taken from the tuning sets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.compare.facts import check_reply_facts, needs_parse
from aem_strands.compare.replies import settle_reply
from aem_strands.compare.roles import relations_in, role_findings
from aem_strands.compare.scopes import scope_findings, scopes_in
from tests.conftest import reply_fails_on_facts


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        (  # the possessor and the subject swap: "Omar's" is read as "Omar" when choosing what to parse
            "Your accountant signed Omar's tax form.",
            "Omar signed your accountant's tax form.",
            "'Your accountant' is the agent of 'signed' in gold, the patient in the prediction",
        ),
        (  # a family noun is a party like "you"
            "Your son has been listed as a driver on your policy.",
            "You have been listed as a driver on your son's policy.",
            "'You' is the patient of 'listed' in the prediction where gold has 'Your son'",
        ),
    ],
)
def test_a_possessor_moved_into_a_rolereply_fails_on_facts(gold: str, predicted: str, said: str) -> None:
    assert needs_parse(gold, predicted)
    assert said in reply_fails_on_facts(gold, predicted)


def test_a_filler_denied_on_one_side_and_given_on_the_otherreply_fails_on_facts() -> None:
    gold = "The delivery fee is covered by the seller, not by you."
    predicted = "The delivery fee is covered by you, not by the seller."
    (relation,) = relations_in(gold)
    assert [(f.text, f.denied) for _, f in relation.roles if f.party] == [("seller", False), ("you", True)]
    detail = reply_fails_on_facts(gold, predicted)
    assert "'seller' is the agent of 'covered' in gold, denied it in the prediction" in detail
    assert "'you' is the agent of 'covered' in the prediction, denied it in gold" in detail


def test_the_same_denial_is_no_finding() -> None:
    gold = "The delivery fee is covered by the seller, not by you."
    assert role_findings(gold, "The delivery fee is covered by the seller and not by you.") == []


def test_unable_to_act_is_the_action_negated() -> None:
    assert "not renew vs gold renew" in reply_fails_on_facts(
        "I can renew your library loan.", "I'm unable to renew your library loan."
    )


def test_not_able_and_unable_say_one_thing() -> None:
    # the "not" hangs on the copula ("was"), not on "able": it still denies the infinitive
    (unable,) = relations_in("I was unable to reach the clinic.")
    (not_able,) = relations_in("I wasn't able to reach the clinic.")
    assert unable.negated
    assert not_able.negated
    assert role_findings("I was unable to reach the clinic.", "I wasn't able to reach the clinic.") == []


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        ("Only guests can use the gym.", "Guests can also use the gym.", "also vs gold only"),
        ("Only the red mug is on sale.", "The red mug is on sale, along with the teapot.", "also vs gold only"),
        ("We can cover part of the repair.", "We can cover the full cost of the repair.", "all vs gold some"),
        ("Neither of the rooms has a balcony.", "One of the rooms has no balcony.", "some vs gold none"),
        (
            "The pass includes both the museum and the garden.",
            "The pass includes the museum or the garden, whichever you pick.",
            "either vs gold all",
        ),
        ("You may check a maximum of three bags.", "You may check at least three bags.", "at least vs gold at most"),
        ("Half of the invoices are paid.", "The whole invoice batch is paid.", "all vs gold some"),
    ],
)
def test_scope_words_that_add_split_or_bound_fail(gold: str, predicted: str, said: str) -> None:
    assert said in reply_fails_on_facts(gold, predicted)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Breakfast is also served on the terrace.", "Breakfast is served on the terrace too."),
        ("Some rooms have a sea view.", "Some rooms have a sea view as well."),  # "also" opposes only "only"
        ("You have at least 4 results.", "You have 4 results."),  # a bound on one side only is used loosely
        ("One of the two lifts is closed.", "One of the two lifts is out of order."),
    ],
)
def test_scope_words_said_on_both_sides_or_added_are_no_finding(gold: str, predicted: str) -> None:
    assert scope_findings(gold, predicted) == []


def test_the_full_name_quantifies_nothing() -> None:
    assert scopes_in("Could you give me your full name?") == frozenset()


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Is your billing address still 4 Oak Lane?", "Your billing address is 4 Oak Lane."),
        ("Your flight number is UA 88.", "Is your flight number UA 88?"),
    ],
)
def test_a_question_that_checks_a_fact_is_not_the_statement_of_it(gold: str, predicted: str) -> None:
    settled = settle_reply(gold, predicted)
    assert settled is None or settled.equivalent is False  # never passed on its facts


_ACCOUNTS = ["checking", "savings", "brokerage", "travel", "joint", "business"]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(_ACCOUNTS), min_size=2, max_size=2, unique=True), st.integers(2, 900))
def test_swapping_the_source_and_the_destination_alwaysreply_fails_on_facts(accounts: list[str], amount: int) -> None:
    source, destination = accounts
    gold = f"I've moved ${amount} from your {source} account to your {destination} account."
    predicted = f"I've moved ${amount} from your {destination} account to your {source} account."
    assert "is the source of 'moved' in gold, the destination in the prediction" in reply_fails_on_facts(
        gold, predicted
    )
    settled = settle_reply(gold, gold)
    assert settled is None or settled.equivalent is True  # the reply itself never fails
    assert check_reply_facts(gold, gold).findings == ()


def test_a_time_bound_to_another_actionreply_fails_on_facts() -> None:
    gold = "Boarding starts at 9:10 and the gate closes at 9:40."
    predicted = "Boarding starts at 9:40 and the gate closes at 9:10."
    assert "'9:10' goes with 'starts' in gold, with 'closes' in the prediction" in reply_fails_on_facts(gold, predicted)


def test_the_same_times_with_the_clauses_in_another_order_are_no_finding() -> None:
    gold = "Boarding starts at 9:10 and the gate closes at 9:40."
    assert role_findings(gold, "The gate closes at 9:40, and boarding starts at 9:10.") == []


def test_a_number_reached_through_a_misread_word_is_bound_to_no_action() -> None:
    # the parser reads "am" as a verb's auxiliary here: 7:50 is not said to go with "costing"
    (relation,) = [r for r in relations_in("What about the one bus departing at 7:50 am costing $50?") if r.values]
    assert relation.values == frozenset(["50"])


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Could you tell me your arrival date?", "What date do you arrive?"),  # few words shared
        ("The museum is not open on Mondays.", "Mondays are busy at the market, not quiet."),  # too little shared
    ],
)
def test_pairs_sharing_too_little_are_not_parsed(gold: str, predicted: str) -> None:
    assert needs_parse(gold, predicted) is False


def test_the_parser_loads_without_pytorch() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from aem_strands.compare import roles; roles.english_parser(); print('torch' in sys.modules); "
        "import torch; print(torch.__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "torch"]  # not imported by the parser, importable afterwards


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Your haircut is on Tuesday at 3 pm.", "Tuesday's 3 pm slot is your haircut."),
        ("The gym opens at 6 am on Sunday.", "On Sundays the gym opens at 6 am."),
    ],
)
def test_a_weekday_as_a_possessive_or_a_plural_is_the_weekday(gold: str, predicted: str) -> None:
    assert check_reply_facts(gold, predicted).findings == ()


def test_another_weekday_as_a_possessive_stillreply_fails_on_facts() -> None:
    assert "Wednesday vs gold Tuesday" in reply_fails_on_facts(
        "Your haircut is on Tuesday.", "Your haircut is Wednesday's first slot."
    )


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        (  # one kind of party, two owners: "your" and "the landlord's"
            "The damage will be paid for by the landlord's insurer.",
            "Your insurer is paying for the damage.",
            "'Your insurer' is the agent of 'paying' in the prediction where gold has 'landlord's insurer'",
        ),
        (  # one kind of thing, two owners
            "The plan protects your partner's laptop.",
            "Your laptop is protected by the plan.",
            "'Your laptop' is the patient of 'protected' in the prediction where gold has 'partner's laptop'",
        ),
    ],
)
def test_a_filler_owned_by_another_party_fails(gold: str, predicted: str, said: str) -> None:
    assert said in [f.detail for f in role_findings(gold, predicted)]


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Your insurer is paying for the damage.", "The damage is being paid for by your insurer."),
        ("Your insurer is paying for the damage.", "The insurer is paying for the damage."),  # no owner said
        ("We have refunded Maria's deposit.", "Maria's deposit has been refunded by us."),
    ],
)
def test_the_same_owner_or_none_on_one_side_is_no_finding(gold: str, predicted: str) -> None:
    assert role_findings(gold, predicted) == []


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        (  # "hand over" and "transfer" name one action: who gives and who gets swap
            "Your brother's parking permit has been transferred to you.",
            "You handed your parking permit over to your brother.",
            "'you' is the recipient of 'transferred' in gold, the agent in the prediction",
        ),
        (
            "Your parcel was passed on to the courier by the warehouse.",
            "The courier passed your parcel on to the warehouse.",
            "'courier' is the recipient of 'passed' in gold, the agent in the prediction",
        ),
    ],
)
def test_a_phrasal_synonym_of_send_is_compared_with_send(gold: str, predicted: str, said: str) -> None:
    assert needs_parse(gold, predicted)
    assert said in [f.detail for f in role_findings(gold, predicted)]


def test_a_second_direction_joined_to_the_first_is_read() -> None:
    # "into" is joined to "out of" by "and": both phrases are roles of the one verb; "checking" is the account
    (relation,) = relations_in("I've moved $80 out of checking and into your holiday savings.")
    assert {(r.value, f.text) for r, f in relation.roles} >= {
        ("source", "checking"),
        ("destination", "your holiday savings"),
    }
    assert "'checking' is the destination of 'moved' in gold, the source in the prediction" in [
        f.detail
        for f in role_findings(
            "I've moved $80 from your savings into checking.", "I've moved $80 out of checking and into your savings."
        )
    ]


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        (
            "Your brother will drive the van and your sister will drive the car.",
            "Your sister will drive the van and your brother will drive the car.",
            "'van' is the patient of 'drive' with 'Your brother' as the agent in gold, with 'Your sister' in the "
            "prediction",
        ),
        (  # "pay for" and "cover" are one action; what is paid for is its patient
            "Your employer pays for the flights and you pay for the hotel.",
            "You're covering the flights and your employer is covering the hotel.",
            "'flights' is the patient of 'pays' with 'Your employer' as the agent in gold, with 'You' in the "
            "prediction",
        ),
    ],
)
def test_an_action_said_twice_with_its_fillers_paired_otherwise_fails(gold: str, predicted: str, said: str) -> None:
    assert said in [f.detail for f in role_findings(gold, predicted)]


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        (  # the same pairs, said in the other order
            "Your brother will drive the van and your sister will drive the car.",
            "Your sister will drive the car and your brother will drive the van.",
        ),
        (
            "Your employer pays for the flights and you pay for the hotel.",
            "You cover the hotel; your employer covers the flights.",
        ),
    ],
)
def test_an_action_said_twice_with_the_same_pairs_is_no_finding(gold: str, predicted: str) -> None:
    assert role_findings(gold, predicted) == []


def test_two_person_nouns_with_one_owner_may_be_one_party() -> None:
    gold = "Your tenant's insurer will pay for the broken window."
    assert role_findings(gold, "The broken window is covered by your tenant's insurance company.") == []
