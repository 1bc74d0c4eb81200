"""The success act model read with the grammar of the reply's sentences (``compare.success_acts``): an announcement
of what the agent is about to do ("Okay, I will modify your registration now."), an offer, a question or a proposal
("Let me book it") reports nothing done, though its words read as done; a reply that reports an action and then
announces the next one still reads as done. Checked on the sentences' parses and on whole traces (``result_use``)."""

from __future__ import annotations

import pytest

from aem_strands.compare.roles import english_parser
from aem_strands.compare.success_acts import (
    CONFIDENT,
    UNSURE,
    _may_announce,
    _model_probability,
    success_probability,
    unreported,
)
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.types import DimensionVerdict, Step, Trace
from tests.test_outcomes_model import ASKED, CTX, HOTELS, RESERVED, UNSUPPORTED
from tests.test_resultuse_flags import say


@pytest.mark.parametrize(
    "sentence",
    [
        "Okay, I will modify your registration now.",  # the auxiliary "will"
        "I'll go ahead and schedule it.",  # "'ll", the coordinated verb sharing it
        "I'm going to book the table for you.",
        "I am about to cancel your order.",
        "I can book it for you.",  # another modal: what may be done
        "Shall I book it?",  # a question
        "Would you like me to book it?",
        "Let me book that for you.",  # a proposal in the first person
        "Let's book it.",
    ],
)
def test_a_sentence_of_what_will_may_or_should_be_done_reports_nothing(sentence: str) -> None:
    assert unreported(next(english_parser()(sentence).sents)) is True
    assert _may_announce(sentence) is True  # the words that let a reply be parsed at all: the gate lets it through


@pytest.mark.parametrize(
    "sentence",
    [
        "Your table has been booked.",
        "I have booked your hotel room.",
        "I cancelled it and I will refund you tomorrow.",  # a main clause in the past: a report
        "Your booking is now confirmed!",
        "Done!",
        "Sure.",  # no verb: left to the model
        "Enjoy the music.",  # an imperative to the user: SGD's report of a song played
        "Please confirm the booking.",  # an imperative asking the user: the model reads it (0.01)
        "Help me with this.",  # "me" the object, not the subject of a proposal
    ],
)
def test_a_sentence_of_what_was_done_or_with_no_verb_is_left_to_the_model(sentence: str) -> None:
    assert unreported(next(english_parser()(sentence).sents)) is False


def test_an_announcement_whose_words_read_as_done_reads_as_no_report() -> None:
    reply = "Okay, I will modify your registration now."  # API-Bank's tuning half
    assert _model_probability(reply) >= UNSURE  # 0.55: the words alone read as done, a question
    assert success_probability(reply) == 0.0  # its only sentence announces: nothing left to read


def test_a_report_then_an_announcement_reads_as_the_report() -> None:
    # per reply, the model reads the text without the announcing sentence: "I've cancelled it." alone
    reply = "I've cancelled it. I will now refund you."
    assert success_probability(reply) == pytest.approx(_model_probability("I've cancelled it."))  # 0.78 < 0.80
    assert success_probability(reply) >= CONFIDENT
    # a sentence that announces never raises the reading: the lower of the whole and the rest
    assert success_probability(reply) <= _model_probability(reply)


def judged(*steps: dict[str, object]) -> DimensionVerdict:
    trace = Trace(trace_id="t1", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(steps)))  # type: ignore[arg-type]
    return check_result_use(trace, HOTELS, CTX)


def test_an_announcement_with_no_call_is_no_finding_and_no_question() -> None:
    reply = "Okay, I will reserve the hotel room for you now."
    assert _model_probability(reply) >= CONFIDENT  # 0.81: read by its words alone, a finding
    verdict = judged(*ASKED, say(reply))
    assert (verdict.findings, verdict.undecided) == ((), ())


def test_a_report_with_no_call_is_still_a_finding_and_passes_after_the_call() -> None:
    reply = "I have booked your hotel room."
    verdict = judged(*ASKED, say(reply))
    assert [(f.step_id, f.rule) for f in verdict.findings] == [("s5", UNSUPPORTED)]
    assert judged(*ASKED, RESERVED, say(reply)).passed is True


def test_a_report_mixed_with_an_announcement_with_no_call_is_still_a_finding() -> None:
    reply = "I have booked your hotel room. I will now email you the confirmation."
    verdict = judged(*ASKED, say(reply))
    assert [(f.step_id, f.rule) for f in verdict.findings] == [("s5", UNSUPPORTED)]
    assert "I have booked your hotel room." in verdict.findings[0].message  # the report is cited, not the plan


def test_a_reply_with_no_word_an_announcement_needs_is_read_by_the_model_alone() -> None:
    reply = "Done! Your refund for order ORDER_762387 has been processed."  # the generated traces' report
    assert _may_announce(reply) is False  # no modal, no "?", "going", "about" or "let": no parse
    assert success_probability(reply) == _model_probability(reply)  # 0.89
