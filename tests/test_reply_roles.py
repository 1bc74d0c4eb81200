"""Facts with roles (issue 22): who does what to whom, scope words, and what a reply does.

The reply pairs are the issue's examples; ``settle_reply`` is the reply stage of the comparison chain
and ``check_reply_facts`` what turn judging reports, so each failing pair is checked on both.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.compare.facts import check_reply_facts, needs_parse
from aem_strands.compare.replies import settle_reply
from aem_strands.compare.roles import Role, relations_in, role_findings, same_relations
from aem_strands.compare.scopes import scope_findings
from aem_strands.types import Method
from tests.conftest import reply_fails_on_facts


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        (
            "I transferred $50 from checking to savings.",
            "I transferred $50 from savings to checking.",
            "'checking' is the source of 'transferred' in gold, the destination in the prediction",
        ),
        ("John will pay Mary.", "Mary will pay John.", "'John' is the agent of 'pay' in gold, the patient"),
        (
            "The new router replaces the old modem.",
            "The old modem replaces the new router.",
            "'new router' is the agent of 'replaces' in gold, the patient in the prediction",
        ),
        (
            "I'll send the money to Alice.",
            "Alice will send the money to you.",
            "'Alice' is the recipient of 'send' in gold, the agent in the prediction",
        ),
        (
            "The landlord owes you the $300 deposit.",
            "You owe the landlord the $300 deposit.",
            "'landlord' is the agent of 'owes' in gold, the recipient in the prediction",
        ),
    ],
)
def test_a_filler_bound_to_another_role_fails_and_the_detail_names_both_roles(
    gold: str, predicted: str, said: str
) -> None:
    assert said in reply_fails_on_facts(gold, predicted)


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        ("The customer pays the delivery fee.", "We pay the delivery fee.", "'We' is the agent of 'pay'"),
        (
            "We sent the refund to your card.",
            "We sent the refund to your wallet.",
            "'your wallet' is the destination of 'sent' in the prediction where gold has 'your card'",
        ),
        ("You can pay by card.", "You can pay with your wallet.", "'your wallet' is the instrument of 'pay'"),
    ],
)
def test_another_party_or_means_in_one_rolereply_fails_on_facts(gold: str, predicted: str, said: str) -> None:
    assert said in reply_fails_on_facts(gold, predicted)


def test_active_and_passive_with_the_same_roles_pass_and_say_which_relations() -> None:
    settled = settle_reply("The refund was sent to your card by us.", "We sent the refund to your card.")
    assert settled is not None
    assert settled.equivalent is True
    assert settled.method is Method.FACTS
    assert "send(" in settled.detail
    assert "destination: your card" in settled.detail
    assert "agent: us" in settled.detail
    (passive,) = relations_in("The refund was sent to your card by us.")
    (active,) = relations_in("We sent the refund to your card.")
    assert (
        {r: f.words for r, f in passive.roles}
        == {r: f.words for r, f in active.roles}
        == {
            Role.AGENT: frozenset(["speaker"]),
            Role.PATIENT: frozenset(["refund"]),
            Role.DESTINATION: frozenset(["card"]),
        }
    )


def test_an_intransitive_subject_is_the_transitive_object() -> None:
    # "Your order shipped" / "We shipped your order": the order is shipped in both, not a swapped agent
    assert role_findings("Your order shipped yesterday.", "We shipped your order yesterday.") == []


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        ("All of the flights are delayed.", "Some of the flights are delayed.", "some vs gold all"),
        ("Some of your photos failed to upload.", "All of your photos failed to upload.", "all vs gold some"),
        ("All three of your bags are checked through.", "Two of your three bags are checked through.", "some"),
        ("Either date works for us.", "Neither date works for us.", "none vs gold either"),
        ("Breakfast is included for all guests.", "Breakfast is included for the lead guest only.", "only vs gold all"),
    ],
)
def test_other_scope_words_fail(gold: str, predicted: str, said: str) -> None:
    assert said in reply_fails_on_facts(gold, predicted)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Every item in your cart ships free.", "Each item in your cart ships free."),
        ("Pets aren't allowed at either hotel.", "Neither hotel accepts pets."),
        ("Only the lead passenger needs to scan a passport.", "No one except the lead passenger needs a scan."),
        ("You're all set.", "Your booking is complete."),  # "all set" quantifies nothing
    ],
)
def test_scope_said_in_other_words_is_no_finding(gold: str, predicted: str) -> None:
    assert scope_findings(gold, predicted) == []


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        ("Shall I cancel the booking?", "I have cancelled the booking.", "gold asks about 'cancel'"),
        (
            "Can you confirm the transfer of $500 to Jane?",
            "The transfer of $500 to Jane is confirmed.",
            "gold asks about 'confirm', the prediction reports it done",
        ),
        ("I have cancelled the booking.", "Shall I cancel the booking?", "the prediction asks about"),
    ],
)
def test_a_question_seeking_confirmation_is_not_a_report_of_completion(gold: str, predicted: str, said: str) -> None:
    assert said in reply_fails_on_facts(gold, predicted)


@pytest.mark.parametrize(
    ("gold", "predicted", "said"),
    [
        ("Can I book it for you?", "I can't book it for you.", "not book vs gold book"),  # offer vs refusal
        ("The restaurant accepts walk-ins.", "The restaurant doesn't accept walk-ins.", "not accept"),
        ("It will rain in Seattle tomorrow.", "It won't rain in Seattle tomorrow.", "not rain vs gold rain"),
        ("Your photos uploaded.", "Your photos failed to upload.", "not upload"),  # a verb that denies
    ],
)
def test_a_negated_actionreply_fails_on_facts(gold: str, predicted: str, said: str) -> None:
    assert said in reply_fails_on_facts(gold, predicted)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Your seat is 14A.", "Your seat is 14C."),
        ("Boarding is at gate B12.", "Boarding is at gate B21."),
        ("Your train leaves at quarter past 7.", "Your train leaves at quarter to 7."),
        ("The meeting is at noon.", "The meeting is at midnight."),
        ("The train leaves from platform 3.", "The train leaves from platform 4."),
    ],
)
def test_other_times_and_codes_fail(gold: str, predicted: str) -> None:
    reply_fails_on_facts(gold, predicted)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Jonas sent you €120.", "You received €120 from Jonas."),  # another verb: not compared
        ("The system sent it to them.", "They got it from the system."),  # unresolved pronouns
    ],
)
def test_what_the_parse_cannot_compare_is_left_open(gold: str, predicted: str) -> None:
    assert role_findings(gold, predicted) == []
    assert not same_relations(gold, predicted)


NAMES = ["John", "Mary", "Alice", "Priya", "Jake", "Sam", "Maria", "Tom"]
VERBS = ["pay", "invite", "call", "email", "replace", "visit", "hire", "remind"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(VERBS), st.sampled_from(["will", "can"]))
def test_swapping_the_agent_and_the_patient_alwaysreply_fails_on_facts(a: str, b: str, verb: str, modal: str) -> None:
    if a == b:
        return
    gold, predicted = f"{a} {modal} {verb} {b} tomorrow.", f"{b} {modal} {verb} {a} tomorrow."
    assert any(Role.AGENT.value in f.detail for f in check_reply_facts(gold, predicted).findings), (gold, predicted)


PLACES = ["checking", "savings", "your card", "your wallet", "Boston", "Denver", "the warehouse", "your account"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PLACES), st.sampled_from(PLACES), st.integers(min_value=2, max_value=900))
def test_swapping_the_source_and_the_destination_alwaysreply_fails_on_facts(a: str, b: str, amount: int) -> None:
    if a == b:
        return
    gold, predicted = f"I moved ${amount} from {a} to {b}.", f"I moved ${amount} from {b} to {a}."
    settled = settle_reply(gold, predicted)
    assert settled is not None, (gold, predicted)
    assert settled.equivalent is False, (gold, predicted, settled)
    assert "source" in settled.detail


SENTENCES = [
    "The refund was sent to your card by us.",
    "I transferred $50 from checking to savings.",
    "Shall I cancel the booking?",
    "The restaurant doesn't accept walk-ins.",
    "Some of your photos failed to upload.",
    "Alice will send the money to you.",
]


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(SENTENCES))
def test_the_same_sentence_has_no_finding_and_the_same_relations(sentence: str) -> None:
    assert role_findings(sentence, sentence) == []
    assert scope_findings(sentence, sentence) == []
    assert same_relations(sentence, sentence)
    assert check_reply_facts(sentence, sentence).findings == ()


@pytest.mark.parametrize(
    ("gold", "predicted", "parsed"),
    [
        ("What date would you like to leave?", "Could you tell me your departure date?", False),  # few words shared
        ("Your table is booked.", "Your table is booked.", False),  # the same text
        ("John will pay Mary.", "Mary will pay John.", True),  # shared words in another order
        ("You can pay by card.", "You can pay with your wallet.", True),  # another word after a role's preposition
        ("The customer pays the delivery fee.", "We pay the delivery fee.", True),  # other parties
        ("Shall I cancel the booking?", "I have cancelled the booking.", True),  # asked on one side, done on the other
        ("The restaurant accepts walk-ins.", "The restaurant doesn't accept walk-ins.", True),  # other negations
        # one action in two verbs, in another order: "sent" and "forwarded" are both "send"
        ("The clinic sent the scan report to Dr. Okafor.", "Dr. Okafor forwarded a scan report to the clinic.", True),
        # a phrasal verb's particle after its object: "picked ... up" is "collect"
        ("Your neighbour collected the parcel.", "You picked the parcel up for your neighbour.", True),
        # a person noun in another place among fewer shared words: who acts may have moved
        (
            "The landlord will email you when the keys are ready.",
            "Please email the landlord to ask if the keys are ready.",
            True,
        ),
        # the same order, the same parties
        (
            "The landlord will email you when the keys are ready.",
            "Your landlord is going to email you once the keys are ready.",
            False,
        ),
    ],
)
def test_only_pairs_whose_words_hint_at_a_role_difference_are_parsed(gold: str, predicted: str, parsed: bool) -> None:
    assert needs_parse(gold, predicted) is parsed


def test_the_parser_loads_without_other_packages_spacy_factories() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from aem_strands.compare import roles; roles.english_parser(); "
        "print('presidio_analyzer' in sys.modules, 'transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]  # presidio's token pipe (and transformers behind it) not imported
