"""What the consent check decides for one call (``Decision``, ``Consent``), the bands it reads the dialog act model
with, and the consents earlier calls of a trace used (``ConsentLedger``: one consent, one call)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from aem_strands.trace.checks.details import call_details, stated
from aem_strands.trace.checks.steps import call_failed, call_key, names_action
from aem_strands.trace.types import ActionType, Step

CONFIDENT = 0.8
"""A label at least this probable is read as the turn's act."""
UNLIKELY = 0.2
"""A label at most this probable is read as not the turn's act; between the two the model is unsure."""
PROPOSAL = 0.5
"""An agent turn whose most probable proposal label reaches this is a proposal act."""


class Decision(str, Enum):
    """What the trace shows of the user's consent to one call."""

    GIVEN = "given"
    WITHHELD = "withheld"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class Consent:
    """The decision for one call, how it was reached, the steps that show it, the proposal's or request's step
    index it used (one consent, one call), whether the user refused, and whether a user step answered the proposal
    (agreed, refused or left the model unsure: a request before it is then answered by that answer), and whether it
    is a request whose values the user did not all state (``partial``: undecided, and no answer to a proposal)."""

    decision: Decision
    how: str
    shown: tuple[Step, ...]
    used: int | None = None
    refused: bool = False
    answered: bool = False
    partial: bool = False


@dataclass
class ConsentLedger:
    """The consents earlier calls of the trace used: step index of the proposal or request → those calls."""

    used: dict[int, list[Step]] = field(default_factory=dict)

    def covers(self, anchor: Step, call: Step) -> bool:
        """Whether the consent at ``anchor`` may still cover ``call``: unused, a retry of a failed identical call,
        a call other than those it covered whose details ``anchor`` states (and there are details to state), or the
        first call of another tool whose action ``anchor`` names ("Please cancel ZK4PQ1 and refund me")."""
        earlier = self.used.get(anchor.index, [])
        if any(call_key(e) == call_key(call) and not call_failed(e) for e in earlier):
            return False  # the same call again after it succeeded: a repeat nobody agreed to
        if all(call_key(e) == call_key(call) for e in earlier):
            return True
        if all(e.tool_name != call.tool_name for e in earlier) and names_action(
            anchor.content or "", call.tool_name or ""
        ):
            return True  # an anchor that names two actions ("cancel it and refund me") covers one call of each
        details = list(call_details(call.arguments).values())
        return bool(details) and all(stated(d, anchor.content or "") for d in details)

    def use(self, consent: Consent, call: Step) -> None:
        """Record that ``call`` used ``consent``: under its proposal or request, and under each user step it shows
        (the answer that agreed), so that the same words read again as a request are the same consent, not another
        ("That sounds good. Please go ahead and book it." agrees to a proposal and asks for the booking)."""
        if consent.decision is Decision.GIVEN and consent.used is not None:
            users = (s.index for s in consent.shown if s.action_type is ActionType.USER)
            for anchor in dict.fromkeys((consent.used, *users)):
                self.used.setdefault(anchor, []).append(call)
