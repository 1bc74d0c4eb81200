"""Consent's proposal as the agent last restated it (``consent_proposal._restated``): after a user step that refuses
or declines it, the next reply about the call proposes it anew; an answer is read only when such a reply follows."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.consent_proposal import _restated
from tests.consent_traces import call, say, trace, user

_BOOKING = call("reserve_table", {"ok": True}, restaurant="Triptych", party_size=1, time="18:15")
_HEARD = say("Here's what I heard: 2 people for a table at Triptych at 6:15 pm.")


def _restated_at(*talk: dict[str, Any]) -> str | None:
    steps = list(trace(user("I'm looking to book a table at Triptych at 6:15 pm."), *talk, _BOOKING).steps)
    before = steps[:-1]
    return _restated(before, before[1], steps[-1]).step_id


def test_a_correction_then_a_reply_about_the_call_restates_it() -> None:
    assert _restated_at(_HEARD, user("No, one more time. One person."), say("I have 6:15 pm 1 person.")) == "s4"


def test_a_correction_with_no_reply_about_the_call_after_it_keeps_the_proposal() -> None:
    assert _restated_at(_HEARD, user("No, one more time. One person.")) == "s2"
    assert _restated_at(_HEARD, user("No, one more time. One person."), say("Anything else?")) == "s2"


def test_an_agreement_before_a_reply_about_the_call_keeps_the_proposal() -> None:
    assert _restated_at(_HEARD, user("Yes, that's right."), say("I have 6:15 pm 2 people.")) == "s2"
