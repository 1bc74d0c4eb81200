"""Result use: what the agent says or does after a tool answered must not contradict the answer.

Three rules, each against the latest observation that speaks to the point (a later call may update an
earlier one):

- **polarity**: an observation value that says yes or no about a concept, as a boolean under a known key
  (``eligible: false``, ``in_stock: true``) or a status word (``status: "denied"``), against a reply that
  states the opposite (``you are eligible for a refund``, ``it is refundable``, ``approved``). The concepts and
  their words are the small table ``POLARITY``; a negation governing a word flips it (``not eligible``), with
  the product's negation cues. A reply that states both sides, or mentions the concept's subject without a
  word of either side, is left to the judge (``ctx.judge``), when one is given.
- **amounts**: durations, money, percentages, measures and dates the reply states (read with the product's
  reply fact reading, ``compare.reply_signals.facts_in``) against the observation's values of the same kind:
  a reply fact that agrees with none of them (``fact_match.agree``: ``5 days`` vs ``2 days``; ``$40`` vs ``40``
  agree) and that the user did not say either contradicts the observation. A bare number under a key naming a
  unit (``processing_days: 5``) or money (``refund_amount: 40``) is read with that unit.
- **arguments**: a later call passing, under the same argument name as an observation's key, a value the value
  judge finds different (``order_id`` ``ORDER_9`` after the lookup answered ``order_id: ORDER_8``), unless the
  user gave that value.

Findings are ``result_use.contradicts_observation``; a judge's answer only adds findings (``method=judge``), and
a question it could not answer is ``undecided``. Not applicable when no tool call has an observation, or nothing
follows one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from aem_strands.compare.fact_match import agree as facts_agree
from aem_strands.compare.reply_signals import Fact, facts_in
from aem_strands.compare.reply_words import NEGATION_CUES
from aem_strands.compare.walk import json_leaves
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.steps import step_fragment
from aem_strands.trace.types import (
    ActionType,
    Dimension,
    DimensionVerdict,
    Environment,
    Finding,
    FindingMethod,
    Step,
    Trace,
    not_applicable,
)
from aem_strands.types import JsonValue


@dataclass(frozen=True)
class Concept:
    """A yes/no property a tool may report: the keys that carry it as a boolean, the status words for each
    side, and the reply phrases for each side (regular expressions, matched case-insensitively on words)."""

    name: str
    keys: frozenset[str]
    yes_status: frozenset[str]
    no_status: frozenset[str]
    yes_phrases: tuple[str, ...]
    no_phrases: tuple[str, ...]
    subject: tuple[str, ...]


POLARITY: tuple[Concept, ...] = (
    Concept(
        "eligibility",
        frozenset({"eligible", "is_eligible", "refund_eligible", "eligible_for_refund", "refundable", "is_refundable",
                   "qualifies", "can_refund", "refund_allowed"}),
        frozenset({"eligible", "refundable", "qualified"}),
        frozenset({"ineligible", "not_eligible", "not eligible", "non_refundable", "non-refundable", "nonrefundable"}),
        (r"eligible", r"qualif(?:y|ies|ied)", r"refundable", r"(?:can|will) be refunded",
         r"(?:get|receive|issue|process)(?:s|ed|ing)? (?:a|the|your|you a|you the|full)? ?refund"),
        (r"ineligible", r"non-?refundable", r"no refund", r"(?:cannot|can't|can not) be refunded"),
        ("eligib", "refund", "qualif"),
    ),
    Concept(
        "approval",
        frozenset({"approved", "is_approved", "accepted", "granted"}),
        frozenset({"approved", "accepted", "granted", "authorized", "authorised"}),
        frozenset({"denied", "rejected", "declined", "refused"}),
        (r"approved", r"accepted", r"granted", r"authori[sz]ed"),
        (r"denied", r"rejected", r"declined", r"refused"),
        ("approv", "denied", "reject", "declin", "request", "application", "claim"),
    ),
    Concept(
        "availability",
        frozenset({"available", "is_available", "in_stock", "instock", "has_stock"}),
        frozenset({"available", "in_stock", "in stock"}),
        frozenset({"unavailable", "out_of_stock", "out of stock", "sold_out", "sold out"}),
        (r"available", r"in stock"),
        (r"unavailable", r"out of stock", r"sold out"),
        ("availab", "stock"),
    ),
)  # fmt: skip
"""The concepts the polarity rule knows (see the module docstring)."""

_STATUS_KEYS = frozenset({"status", "state", "decision", "result", "outcome", "eligibility", "availability"})
_NEGATION_WINDOW = 3
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")

_UNIT_KEYS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:^|_)(?:business_|working_)?days?(?:$|_)"), "days"),
    (re.compile(r"(?:^|_)hours?(?:$|_)"), "hours"),
    (re.compile(r"(?:^|_)minutes?(?:$|_)|(?:^|_)mins?(?:$|_)"), "minutes"),
    (re.compile(r"(?:^|_)weeks?(?:$|_)"), "weeks"),
    (re.compile(r"(?:^|_)months?(?:$|_)"), "months"),
)
_MONEY_KEY = re.compile(r"(?:^|_)(?:amount|price|cost|total|fee|fees|balance|refund|charge|subtotal|usd|eur)(?:$|_)")
_COMPARED_GROUPS = frozenset({"duration", "money", "percent", "measure", "date"})


@dataclass(frozen=True)
class _Observed:
    """One value an observation reported: where, under which key, and what it says."""

    step: Step
    path: str
    value: JsonValue


def _key_name(path: str) -> str:
    last = re.split(r"[.\[]", path)[-1].rstrip("]")
    return last.casefold()


def _concept_polarity(path: str, value: JsonValue) -> tuple[Concept, bool] | None:
    key = _key_name(path)
    for concept in POLARITY:
        if isinstance(value, bool) and key in concept.keys:
            return concept, value
        if isinstance(value, str) and (key in _STATUS_KEYS or key in concept.keys):
            word = value.strip().casefold()
            if word in concept.yes_status:
                return concept, True
            if word in concept.no_status:
                return concept, False
    return None


def _negated(words: list[str], index: int) -> bool:
    before = words[max(0, index - _NEGATION_WINDOW) : index]
    return any(w in NEGATION_CUES or w.endswith("n't") for w in before)


def _phrase_polarity(text: str, concept: Concept) -> tuple[set[bool], list[str]]:
    """The sides a text states for a concept (True: yes, False: no), with the phrases that state them."""
    folded = text.casefold().replace("\u2019", "'")
    sides: set[bool] = set()
    said: list[str] = []
    spans: list[tuple[int, int]] = []
    for phrases, side in ((concept.no_phrases, False), (concept.yes_phrases, True)):
        for phrase in phrases:
            for match in re.finditer(rf"\b{phrase}\b", folded):
                if any(match.start() < end and start < match.end() for start, end in spans):
                    continue  # "non-refundable" holds "refundable": the longer, negative reading stands
                spans.append((match.start(), match.end()))
                words = _WORD.findall(folded[: match.start()])
                flipped = _negated(words, len(words))
                sides.add(side != flipped)
                said.append(("not " if flipped else "") + match.group())
    return sides, said


def _mentions_subject(text: str, concept: Concept) -> bool:
    folded = text.casefold()
    return any(stem in folded for stem in concept.subject)


def _unit_text(path: str, value: JsonValue) -> tuple[str, bool] | None:
    """A bare number read with the unit its key names, and whether it is money (``processing_days: 5`` →
    ``5 days``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    key = _key_name(path)
    for pattern, unit in _UNIT_KEYS:
        if pattern.search(key):
            return f"{value} {unit}", False
    if _MONEY_KEY.search(key):
        return str(value), True
    return None


def _observed_facts(observed: _Observed) -> list[tuple[str, Fact]]:
    """(kind, fact) pairs an observation value states, for the amounts rule."""
    if isinstance(observed.value, str):
        return [(f.group, f) for f in facts_in(observed.value) if f.group in _COMPARED_GROUPS]
    read = _unit_text(observed.path, observed.value)
    if read is None:
        return []
    text, money = read
    return [("money" if money else f.group, f) for f in facts_in(text) if money or f.group in _COMPARED_GROUPS]


def _observations(step: Step) -> Iterator[_Observed]:
    # A status such as "denied" is an answer to use, not a failed call: only a call that raised is skipped.
    if step.observation is None or step.error is not None:
        return
    if isinstance(step.observation, str):
        yield _Observed(step, "", step.observation)
        return
    for path, value in json_leaves(step.observation):
        yield _Observed(step, path, value)


def _reply_fragment(step: Step | None, text: str) -> dict[str, JsonValue]:
    return step_fragment(step) if step is not None else {"final_response": text}


class _Reader:
    """Walks a trace in order, keeping the latest observed values and what the user said."""

    def __init__(self, trace: Trace, ctx: TraceContext) -> None:
        self.trace = trace
        self.ctx = ctx
        self.polar: dict[str, tuple[_Observed, bool]] = {}
        self.amounts: dict[str, list[tuple[_Observed, Fact]]] = {}
        self.keyed: dict[str, _Observed] = {}
        self.user_facts: list[Fact] = list(facts_in(trace.goal)) if trace.goal else []
        self.user_texts: list[str] = [trace.goal] if trace.goal else []
        self.findings: list[Finding] = []
        self.undecided: list[str] = []
        self.checked = 0

    def observe(self, step: Step) -> None:
        for observed in _observations(step):
            polar = _concept_polarity(observed.path, observed.value)
            if polar is not None:
                self.polar[polar[0].name] = (observed, polar[1])
            for kind, fact in _observed_facts(observed):
                # The latest observation of a kind replaces what earlier ones said of it.
                earlier = self.amounts.get(kind, [])
                kept = [(o, f) for o, f in earlier if o.step is step]
                self.amounts[kind] = [*kept, (observed, fact)]
            if observed.path:
                self.keyed[_key_name(observed.path)] = observed

    def reply(self, step: Step | None, text: str) -> None:
        self.checked += 1
        where = f"step {step.step_id}" if step is not None else "the final response"
        for concept in POLARITY:
            if concept.name in self.polar:
                self._polarity(step, where, text, concept, *self.polar[concept.name])
        self._amounts(step, where, text)

    def _add(self, step: Step | None, message: str, evidence: dict[str, JsonValue], method: FindingMethod) -> None:
        self.findings.append(
            Finding(
                Dimension.RESULT_USE,
                "result_use.contradicts_observation",
                message,
                step.step_id if step is not None else None,
                step.index if step is not None else None,
                evidence,
                method,
            )
        )

    def _polarity(
        self, step: Step | None, where: str, text: str, concept: Concept, observed: _Observed, truth: bool
    ) -> None:
        sides, said = _phrase_polarity(text, concept)
        shown = f"{observed.path}: {observed.value!r}"
        evidence: dict[str, JsonValue] = {
            "observation": step_fragment(observed.step),
            "observed": {observed.path: observed.value},
            "reply": _reply_fragment(step, text),
        }
        if sides == {not truth}:
            evidence["stated"] = said
            self._add(
                step,
                f"{where} says {' / '.join(repr(s) for s in said)}, but step {observed.step.step_id} "
                f"({observed.step.tool_name}) reported {shown}",
                evidence,
                FindingMethod.RULE,
            )
            return
        if sides == {truth} or self.ctx.judge is None:
            return
        if not sides and not _mentions_subject(text, concept):
            return
        question = (
            f"The tool {observed.step.tool_name} reported {shown} ({concept.name}). Does the reply "
            f"{text!r} contradict that?"
        )
        answer = self.ctx.judge.decide(question, evidence)
        if answer is None:
            self.undecided.append(question)
        elif answer:
            self._add(
                step,
                f"{where} contradicts step {observed.step.step_id} ({observed.step.tool_name}: {shown}), "
                "as the judge reads it",
                evidence,
                FindingMethod.JUDGE,
            )

    def _amounts(self, step: Step | None, where: str, text: str) -> None:
        for fact in facts_in(text):
            kind = fact.group
            observed = self.amounts.get(kind)
            if kind not in _COMPARED_GROUPS or not observed:
                continue
            if any(facts_agree(o, fact) or facts_agree(fact, o) for _, o in observed):
                continue
            if any(facts_agree(u, fact) or facts_agree(fact, u) for u in self.user_facts):
                continue
            source, _ = observed[-1]
            self._add(
                step,
                f"{where} says {fact.text!r}, but step {source.step.step_id} ({source.step.tool_name}) reported "
                f"{' / '.join(repr(f.text) for _, f in observed)}" + (f" ({source.path})" if source.path else ""),
                {
                    "observation": step_fragment(source.step),
                    "observed": [f.text for _, f in observed],
                    "stated": fact.text,
                    "reply": _reply_fragment(step, text),
                },
                FindingMethod.RULE,
            )

    def user(self, text: str) -> None:
        self.user_texts.append(text)
        self.user_facts.extend(facts_in(text))

    def arguments(self, step: Step) -> None:
        self.checked += 1
        for path, value in json_leaves(dict(step.arguments)):
            observed = self.keyed.get(_key_name(path))
            if observed is None or observed.step is step or isinstance(value, (bool, dict, list)) or value is None:
                continue
            if self.ctx.values.same(observed.value, value, path) is not False:
                continue
            if self._user_gave(value):
                continue
            self._add(
                step,
                f"step {step.step_id}: argument {path!r} of {step.tool_name} is {value!r}, but step "
                f"{observed.step.step_id} ({observed.step.tool_name}) reported {observed.path}: {observed.value!r}",
                {
                    "observation": step_fragment(observed.step),
                    "observed": {observed.path: observed.value},
                    "step": step_fragment(step),
                    "argument": path,
                },
                FindingMethod.RULE,
            )

    def _user_gave(self, value: JsonValue) -> bool:
        shown = str(value).casefold()
        return any(shown in text.casefold() for text in self.user_texts)


def _follows_observation(trace: Trace) -> bool:
    seen = False
    for step in trace.steps:
        if seen and (step.action_type is ActionType.RESPONSE or step.action_type is ActionType.TOOL_CALL):
            return True
        seen = seen or (step.action_type is ActionType.TOOL_CALL and step.observation is not None)
    return seen and bool(trace.final_response)


def check_result_use(trace: Trace, env: Environment, ctx: TraceContext) -> DimensionVerdict:
    """Replies and later arguments against earlier observations (see the module docstring)."""
    if not _follows_observation(trace):
        return not_applicable(Dimension.RESULT_USE, "no reply or call follows a tool observation")
    reader = _Reader(trace, ctx)
    replies_seen: set[str] = set()
    for step in trace.steps:
        if step.action_type is ActionType.USER and step.content:
            reader.user(step.content)
        elif step.action_type is ActionType.RESPONSE and step.content and (reader.polar or reader.amounts):
            reader.reply(step, step.content)
            replies_seen.add(step.content)
        elif step.action_type is ActionType.TOOL_CALL:
            if step.arguments and reader.keyed:
                reader.arguments(step)
            reader.observe(step)
    if trace.final_response and trace.final_response not in replies_seen and (reader.polar or reader.amounts):
        reader.reply(None, trace.final_response)
    findings = tuple(reader.findings)
    checked = f"{reader.checked} later reply/call(s) against the observations before them"
    return DimensionVerdict(Dimension.RESULT_USE, not findings, findings, checked, "", tuple(reader.undecided))


__all__ = ["POLARITY", "Concept", "check_result_use"]
