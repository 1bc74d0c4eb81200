"""Consent's reading of an answer that gives details after the proposal (``consent_proposal._informed_after``): the
answer counts only when it informs and the call has values neither the proposal nor the talk before it stated;
the values are read only for an answer that informs, each outcome as before that order."""

from __future__ import annotations

from aem_strands.trace.checks.consent_proposal import _informed_after, _said_after
from tests.consent_traces import call, say, trace, user

_CALL = call("reserve_table", restaurant="Bird Dog", party_size=4, time="19:00")


def _read(*talk: dict[str, object]) -> tuple[str | None, bool] | None:
    steps = list(trace(*talk, _CALL).steps)
    before, reserve = steps[:-1], steps[-1]
    proposal = next(s for s in before if s.content == "Would you like to reserve a table there?")
    found = _informed_after(before, proposal, reserve)
    return None if found is None else (found[0].step_id, found[1])


def test_an_answer_that_gives_unproposed_details_is_found() -> None:
    # "4" and "7 pm" come first in the answer: neither the proposal nor anything before it stated them
    found = _read(say("Would you like to reserve a table there?"), user("Yes, for 4 people at 7 pm."))
    assert found is not None
    assert found[0] == "s2"


def test_an_answer_that_gives_no_details_is_none_even_with_unproposed_values() -> None:
    # the call's 4 and 19:00 were never proposed, but the yes gives no information (inform at most UNLIKELY)
    assert _read(say("Would you like to reserve a table there?"), user("Yes.")) is None


def test_an_informing_answer_is_none_when_every_value_was_stated_before() -> None:
    stated = user("Book Bird Dog for 4 people at 7 pm.")
    assert _read(stated, say("Would you like to reserve a table there?"), user("Yes, for 4 people at 7 pm.")) is None


def test_only_values_said_after_the_proposal_and_never_before_came_after_it() -> None:
    # party_size 4 is said after the proposal only; 19:00 in the proposal and after it; Bird Dog has no digit
    steps = list(
        trace(
            say("Would you like to reserve a table there at 7 pm?"), user("Yes."), say("For 4 people at 7 pm?"), _CALL
        ).steps
    )
    assert _said_after(steps[:-1], steps[0], steps[-1]) == ["4"]
    quiet = list(trace(say("Would you like to reserve a table there at 7 pm?"), user("Yes."), _CALL).steps)
    assert _said_after(quiet[:-1], quiet[0], quiet[-1]) == []  # 4 is said nowhere: no value came after
