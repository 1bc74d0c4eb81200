"""The turns around a call read as dialog acts (the SGD trained heads of ``aem_strands.compare.dialog_acts``): an
agent reply's proposal acts, and a user step's answer (``answer_reading``: ``refuse``, ``decline``, ``agree``,
``other`` or ``unsure``) read in the context of the reply before it. See ``consent`` for how the check uses them."""

from __future__ import annotations

from collections.abc import Iterable

from aem_strands.compare.dialog_acts import Speaker, act_probabilities
from aem_strands.trace.checks.consent_decision import CONFIDENT, PROPOSAL, UNLIKELY
from aem_strands.trace.checks.requests import (
    asks_for,
    clauses,
    conditional,
    past_negated_noun,
    refuses_action,
    refuses_by_ellipsis,
)
from aem_strands.trace.checks.steps import sentences
from aem_strands.trace.types import ActionType, Step


def turn_text(step: Step) -> str:
    return step.content or ""


def observations(steps: Iterable[Step]) -> list[str]:
    """What the tools of ``steps`` answered, each observation as its ``str`` (the text a value is looked for in)."""
    return [str(s.observation) for s in steps if s.observation is not None]


def shown(steps: Iterable[Step]) -> list[str]:
    """What ``steps`` showed: their texts, then what their tools answered (``observations``)."""
    listed = list(steps)
    return [turn_text(s) for s in listed if s.content] + observations(listed)


def replies(steps: list[Step]) -> list[Step]:
    return [s for s in steps if s.action_type is ActionType.RESPONSE and s.content]


def user_turns(steps: list[Step]) -> list[Step]:
    return [s for s in steps if s.action_type is ActionType.USER and s.content]


def reply_before(before: list[Step], step: Step) -> Step | None:
    return next((r for r in reversed(replies(before)) if r.index < step.index), None)


def agent_acts(text: str) -> dict[str, float]:
    """A reply's proposal labels: the most probable of the whole text's and each sentence's (a turn's acts are
    its sentences': "Order 123 is pending. Would you like me to cancel it?" offers)."""
    readings = [act_probabilities(text, Speaker.AGENT), *(act_probabilities(s, Speaker.AGENT) for s in sentences(text))]
    return {label: max(r[label] for r in readings) for label in readings[0]}


def proposal_act(step: Step) -> bool:
    return max(agent_acts(turn_text(step)).values()) >= PROPOSAL


def asks(step: Step) -> bool:
    """Whether a reply asks the user something: a proposal act or a question."""
    return "?" in turn_text(step) or proposal_act(step)


_YES_NO_CONTEXTS = ("confirm", "offer_intent", "offer")
"""The contexts an answer to a proposal the model cannot name the kind of is read in, each."""


def answer_contexts(before: list[Step], step: Step, proposal: Step | None) -> tuple[str, ...]:
    """The contexts a user step is read in: the proposal kind of the reply before it when the model names it
    (``PROPOSAL``); for an answer to a proposal it cannot name, each of ``_YES_NO_CONTEXTS``; ``other`` after a
    reply that proposes nothing or after the user's own step; ``none`` for the trace's first words."""
    previous = reply_before(before, step)
    if previous is None:
        return ("other",) if any(s.index < step.index for s in user_turns(before)) else ("none",)
    acts = agent_acts(turn_text(previous))
    label = max(acts, key=lambda k: acts[k])
    if acts[label] >= PROPOSAL:
        return (label,)
    return _YES_NO_CONTEXTS if previous is proposal else ("other",)


def user_acts(before: list[Step], step: Step, proposal: Step | None = None) -> list[dict[str, float]]:
    """The user step's acts in each of its contexts (``answer_contexts``)."""
    return [act_probabilities(turn_text(step), Speaker.USER, c) for c in answer_contexts(before, step, proposal)]


def _read(acts: dict[str, float]) -> str:
    if acts["refuse"] >= CONFIDENT:
        return "refuse"
    if acts["refuse"] > UNLIKELY:
        return "decline" if acts["agree"] <= UNLIKELY else "unsure"
    if acts["agree"] >= CONFIDENT:
        return "agree"
    return "other" if acts["agree"] <= UNLIKELY else "unsure"


def answer_reading(before: list[Step], step: Step, proposal: Step, tool: str) -> str:
    """``refuse``, ``agree``, ``other`` or ``unsure`` (see the module docstring); read in several contexts, a step
    the contexts read differently is ``unsure``. Before the model: an answer that refuses by ellipsis ("I'd rather
    you didn't") or negates the action itself ("I'd rather you didn't change anything") refuses
    (``requests.refuses_by_ellipsis``, ``requests.refuses_action``), and one that asks for the action itself by a
    word naming it agrees ("Not a problem, cancel that one."; ``requests.asks_for``, whose negations reach no clause
    set beside them: "I don't want insurance, just book it."), unless a context reads another sentence of it, or the
    leading interjection of the asking one (``requests.clauses``), as a refusal ("Cancel it? Absolutely not.", "No,
    please play it on the speaker outside." to "Please confirm playing it in Patio.": a correction, no yes). An
    answer of several sentences the model reads as ``other`` or ``unsure`` as a whole agrees when each of its
    sentences (a leading interjection apart: ``_parts``) that is not ``other`` is a sure agreement ("Ok, you twisted
    my arm. Do they have outdoor seating?", "Sure, may I know if they have vegetarian options?")."""
    if refuses_by_ellipsis(turn_text(step)) or refuses_action(turn_text(step), tool):
        return "refuse"
    reading = _agreement(before, step, proposal, tool)
    return "unsure" if reading == "agree" and conditional(turn_text(step)) else reading


def _agreement(before: list[Step], step: Step, proposal: Step, tool: str) -> str:
    """``answer_reading`` past its refusals, before its conditions: an agreement under a condition ("Yes if the fee is
    under $20.", ``requests.conditional``) is ``unsure``, since whether the condition held is the judge's, and so is
    one a later sentence may take back (``_taken_back``). An answer whose only negation is the determiner of a noun
    phrase hanging from its imperative ("No problem, go ahead.", ``requests.past_negated_noun``) is read by that
    imperative: the model reads the "no" as a refusal, the parse as no answer particle."""
    contexts = answer_contexts(before, step, proposal)
    own = sentences(turn_text(step))
    asking = [p for p in own if asks_for(p, tool)]
    refusing = [p for p in own if p not in asking and _refuses_somewhere(p, contexts)]
    # the leading interjection of an asking sentence answers the proposal: "No, please play it outside."
    refusing += [c for p in asking for c in clauses(p)[:-1] if _refuses_somewhere(c, contexts)]
    if asking and not refusing:
        return "agree"
    whole = _sure(turn_text(step), contexts)
    if whole == "agree" and _taken_back(own, contexts):
        return "unsure"
    rest = past_negated_noun(turn_text(step)) if whole in ("refuse", "decline", "unsure") else None
    if rest is not None and _sure(rest, contexts) == "agree":
        return "agree"  # "No problem, go ahead.": the "no" negates a noun; the imperative agrees
    if whole in ("other", "unsure"):
        for parts in _parts(turn_text(step)):
            said = {r for r in (_part(p, contexts) for p in parts) if r != "other"}
            if len(parts) > 1 and said == {"agree"}:
                return "agree"
    return whole


def _taken_back(own: tuple[str, ...], contexts: tuple[str, ...]) -> bool:
    """Whether a sentence after the first of an answer the model reads as agreeing as a whole may take the yes back:
    a context reads it as refusing above ``UNLIKELY`` and another (or the same) as agreeing below ``CONFIDENT`` ("Yes
    please. Wait, hold off."; not "Yes. Thank you.", nor "Yes. That is all." after a confirmation, nor a question:
    a question mark and ``ask`` the most probable label in each context). Whether it does is the judge's."""
    for later in own[1:]:
        acts = [act_probabilities(later, Speaker.USER, c) for c in contexts]
        if later.rstrip().endswith("?") and all(a["ask"] >= max(a.values()) for a in acts):
            continue  # a question ("How long do I have to wait for my ride?") neither agrees nor refuses
        if max(a["refuse"] for a in acts) > UNLIKELY and min(a["agree"] for a in acts) < CONFIDENT:
            return True
    return False


def _parts(text: str) -> tuple[list[str], list[str]]:
    """An answer's parts, two ways: its sentences, and its sentences with each leading interjection apart
    (``requests.clauses``: "Sure" of "Sure, may I know if they have vegetarian options?")."""
    return list(sentences(text)), [c for s in sentences(text) for c in clauses(s)]


def ends_agreeing(before: list[Step], step: Step, proposal: Step) -> bool:
    """Whether an answer of several sentences ends agreeing: its last sentence that is not ``other`` is a sure
    agreement ("I do not want travel insurance. Yes, go on.")."""
    parts = _parts(turn_text(step))[0]
    contexts = answer_contexts(before, step, proposal)
    readings = (r for r in (_part(p, contexts) for p in reversed(parts)) if r != "other")
    return len(parts) > 1 and next(readings, "") == "agree"


def _refuses_somewhere(text: str, contexts: tuple[str, ...]) -> bool:
    """Whether some context reads ``text`` as a sure refusal ("Absolutely not.")."""
    return any(act_probabilities(text, Speaker.USER, c)["refuse"] >= CONFIDENT for c in contexts)


def _part(text: str, contexts: tuple[str, ...]) -> str:
    """The reading of one part of an answer (``_sure``), a question in every context read as ``other``: it neither
    agrees nor refuses ("Do they have vegetarian options?" after a yes). A part is a question when every context
    reads it so (``ask`` at least ``CONFIDENT``, ``refuse`` at most ``UNLIKELY``), or when it ends with a question
    mark and ``ask`` is its most probable label in every context, ``refuse`` at most ``UNLIKELY`` (the model is
    less sure of a question after a proposal it cannot name the kind of)."""
    acts = [act_probabilities(text, Speaker.USER, c) for c in contexts]
    if all(a["ask"] >= CONFIDENT and a["refuse"] <= UNLIKELY for a in acts):
        return "other"
    asked = text.rstrip().endswith("?")
    if asked and all(a["ask"] >= max(a.values()) and a["refuse"] <= UNLIKELY for a in acts):
        return "other"
    return _sure(text, contexts)


def _sure(text: str, contexts: tuple[str, ...]) -> str:
    """The reading of ``text`` when every context reads it alike, else ``unsure``."""
    readings = {_read(act_probabilities(text, Speaker.USER, c)) for c in contexts}
    return readings.pop() if len(readings) == 1 else "unsure"
