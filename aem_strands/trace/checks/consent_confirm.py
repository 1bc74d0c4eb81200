"""An explicit confirmation of the details, for a tool the policy's ``rules.consent`` marks ``confirm`` (a
customer-service policy's "list the action details and get a yes": before an action that updates the booking
database, the agent lists the details and obtains explicit user confirmation).

- A call of the tool needs an agreed **proposal** (``consent_proposal.by_proposal``: the agent's last proposal of
  the action, as last restated after a correction, and an answer the dialog-act model reads as ``agree``, given
  after the user's latest change of the details). A request path alone ("Please cancel order 123") is no
  confirmation, nor is a transaction chained to an earlier yes (``consent_chain``): neither listed the details
  back.
- The proposal must **list the call's details**: each argument value of the call (less a session's context,
  ``consent.own_details``) found by the grounding index (``trace.grounding``: typed numbers, dates against the
  trace's known today, clock times, identifiers, places by any of their names, ``two people`` for ``2``, ``March
  13th`` for ``2019-03-13``) in the *listing*: the proposal, and the earlier confirmation requests about the call
  it restates after a correction ("Please confirm: 4 people from Sacramento ..." / "No, only 3 people." / "Please
  confirm: 3 seat reservations."), while no user step after one states another value of a type of the call's. A
  yes/no argument (``add_insurance: "False"``) is stated by the side the newest mention of its words says (read
  from its parse: "with extra luggage" yes; "Insurance is not included", "No extra luggage" no); a false one nobody
  mentions is the default, no detail to list. The listing must state the action too (it names the action's word,
  or the model reads it as a ``confirm`` or ``offer_intent`` act).
- A finding (the listing does not state the call's details): a number, clock time or date (a date only against
  a known today) the index does not find in the listing, or no value of the call found at all ("Shall I book
  it?" / "Yes"). ``undecided`` (never a pass, never a finding): a name or identifier the index does not find (it
  may be said in other words: "the diner" for ``Diner X``), a true flag nobody mentions or one whose mention
  reads the other side, a listing that states every value but not the action, and an answer the model is unsure
  of.
"""

from __future__ import annotations

import re

from aem_strands.tools import ToolCatalog
from aem_strands.trace.checks.consent import own_details
from aem_strands.trace.checks.consent_acts import agent_acts, replies, turn_text, user_turns
from aem_strands.trace.checks.consent_decision import PROPOSAL, Consent, ConsentLedger, Decision
from aem_strands.trace.checks.consent_flags import flag_side, flag_value
from aem_strands.trace.checks.consent_proposal import by_proposal, values_stated
from aem_strands.trace.checks.details import other_details, value_detail
from aem_strands.trace.checks.steps import names_action
from aem_strands.trace.grounding import GroundingIndex
from aem_strands.trace.grounding_dates import trace_today
from aem_strands.trace.grounding_keys import SameFn
from aem_strands.trace.types import ActionType, Step, Trace

NEEDS = "an explicit confirmation of its details (policy rules.consent: confirm)"
"""What a ``confirm`` tool needs, as the finding states it."""
_SETTLED = ("number", "clock", "date", "datetime")
"""The kinds of value (``details.value_detail``) the grounding index reads in any wording it knows: one it does not
find in the listing was not stated."""
_SQUEEZED = re.compile(r"([.!?,])(?=[A-Za-z])")
"""Sentence punctuation with no space after it ("on March 10th.Is that okay?"), spaced before the index reads."""


def _listing(before: list[Step], proposal: Step, call: Step) -> list[Step]:
    """The replies that listed the call's details to the user: the agreed proposal, and the earlier confirmation
    requests about the call it restates after a correction ("Please confirm: 4 people from Sacramento ..." / "No,
    only 3 people." / "Please confirm: 3 seat reservations."), back to the last call of the tool; an earlier one
    only while no user step after it states another value of a type of the call's (then only the later replies
    list the details)."""
    done = [s.index for s in before if s.action_type is ActionType.TOOL_CALL and s.tool_name == call.tool_name]
    since = max(done, default=-1)
    out = [proposal]
    for reply in reversed(replies(before)):
        if reply.index >= proposal.index or reply.index <= since:
            continue
        if agent_acts(turn_text(reply))["confirm"] < PROPOSAL or values_stated(reply, call) == 0:
            continue
        later = [u for u in user_turns(before) if u.index > reply.index]
        if any(other_details(call.arguments, turn_text(u)) for u in later):
            break
        out.append(reply)
    return out


def _details_listed(
    trace: Trace, listing: list[Step], call: Step, same: SameFn
) -> tuple[list[str], list[str], list[str]]:
    """The call's argument names the listing states, those it does not (a number, clock time or date the grounding
    index does not find in it: a date only against a known today), and those it may state in other words (a name
    in part, an identifier, a flag)."""
    context = trace_today(trace)
    index = GroundingIndex(same, context)
    texts = [turn_text(s) for s in listing]
    for step, text in zip(listing, texts, strict=True):
        index.add_text(_SQUEEZED.sub(r"\1 ", text), f"reply (step {step.step_id})")
    stated: list[str] = []
    missing: list[str] = []
    unsure: list[str] = []
    for name, value in call.arguments.items():
        flag = flag_value(value)
        if flag is not None:
            side = flag_side(texts, name)
            if side is flag:
                stated.append(name)
            elif side is not None or flag:
                unsure.append(name)  # a false flag not mentioned is the default, no detail to list
            continue
        if index.find(value, name) is not None:
            stated.append(name)
            continue
        detail = value_detail(value)
        dated = detail is not None and detail.kind in ("date", "datetime")
        settled = detail is not None and detail.kind in _SETTLED and (context.reference_date or not dated)
        (missing if settled else unsure).append(name)
    return stated, missing, unsure


def _states_action(listing: list[Step], call: Step) -> bool:
    for step in listing:
        text = turn_text(step)
        acts = agent_acts(text)
        if names_action(text, call.tool_name or "") or max(acts["confirm"], acts["offer_intent"]) >= PROPOSAL:
            return True
    return False


def confirmation_to(trace: Trace, call: Step, ledger: ConsentLedger, catalog: ToolCatalog, same: SameFn) -> Consent:
    """The user's explicit confirmation of ``call``'s details (see the module docstring); ``ledger`` as
    ``consent.consent_to``'s."""
    before = list(trace.steps[: call.index])
    own = own_details(catalog, call, before)
    proposed = by_proposal(before, own, ledger, call)
    if proposed is None:
        how = "no proposal of it listed its details and got a yes (a request is no confirmation)"
        return Consent(Decision.WITHHELD, how, ())
    if proposed.decision is Decision.WITHHELD:
        return proposed
    proposal = proposed.shown[0]
    listing = _listing(before, proposal, own)
    stated, missing, unsure = _details_listed(trace, listing, own, same)
    where = f"the proposal at step {proposal.step_id!r}"
    if len(listing) > 1:
        where += f" (with the confirmation it restates, step {listing[-1].step_id!r})"
    if missing or (unsure and not stated):
        how = f"{where} does not state the call's {', '.join(missing or unsure)}"
        return Consent(Decision.WITHHELD, how, proposed.shown)
    if proposed.decision is Decision.UNDECIDED:
        return proposed
    if unsure:
        how = f"whether {where} the user agreed to states the call's {', '.join(unsure)}, perhaps in other words"
        return Consent(Decision.UNDECIDED, how, proposed.shown)
    if not _states_action(listing, own):
        how = f"whether {where} the user agreed to states the action"
        return Consent(Decision.UNDECIDED, how, proposed.shown)
    return proposed
