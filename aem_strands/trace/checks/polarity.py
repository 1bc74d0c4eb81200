"""The polarity rule of result use: yes/no concepts a tool reports (``eligible: false``, ``status: "denied"``,
``cancellable: false``) and the side a reply states for them (``it is refundable``, ``not eligible``, ``you can
still cancel``).

The concepts and their words are the small table ``POLARITY``; a negation governing a phrase (one of three words
before it, the product's negation cues) flips it. ``concept_polarity`` reads an observed value, ``phrase_polarity``
a reply (linear in its length: each phrase's negation is read in a bounded window before it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from aem_strands.compare.reply_words import NEGATION_CUES
from aem_strands.trace.checks.context import TraceJudge
from aem_strands.trace.checks.observed import ObservedValue, key_name
from aem_strands.trace.checks.rulings import Ruling, ask, cite, clip, result_finding
from aem_strands.trace.types import Step
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
    Concept(
        "cancellability",
        frozenset({"cancellable", "cancelable", "is_cancellable", "is_cancelable", "can_cancel", "cancel_allowed",
                   "cancellation_allowed"}),
        frozenset({"cancellable", "cancelable"}),
        frozenset({"non_cancellable", "not_cancellable", "non-cancellable", "noncancellable"}),
        (r"cancell?able", r"(?:can|could) (?:still )?be cancell?ed", r"you (?:can|could) (?:still )?cancel"),
        (r"non-?cancell?able", r"(?:cannot|can't|can not) (?:still )?be cancell?ed",
         r"you (?:cannot|can't|can not) (?:still )?cancel", r"too late to cancel"),
        ("cancel",),
    ),
)  # fmt: skip
"""The concepts the polarity rule knows (see the module docstring)."""

_STATUS_KEYS = frozenset({"status", "state", "decision", "result", "outcome", "eligibility", "availability"})
_NEGATION_WINDOW = 3
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_LOOK_BACK = 60
"""Characters before a phrase read for a negation governing it (three words fit in them)."""


_WORDS_OF_ANY = frozenset(w for c in POLARITY for w in (*c.yes_status, *c.no_status))
_KEYS_OF_ANY = frozenset(k for c in POLARITY for k in c.keys)


def concept_polarity(path: str, value: JsonValue) -> tuple[Concept, bool] | None:
    """The concept an observed value says yes or no about, and the side; ``None`` for any other value (most of them:
    told apart before the key is read)."""
    if isinstance(value, str):
        if value.strip().casefold() not in _WORDS_OF_ANY:
            return None
    elif not isinstance(value, bool):
        return None
    key = key_name(path)
    if isinstance(value, bool) and key not in _KEYS_OF_ANY:
        return None
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


def _negated(before: str) -> bool:
    words = _WORD.findall(before[-_LOOK_BACK:])[-_NEGATION_WINDOW:]
    return any(w in NEGATION_CUES or w.endswith("n't") for w in words)


def phrase_polarity(text: str, concept: Concept) -> tuple[set[bool], list[str]]:
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
                flipped = _negated(folded[max(0, match.start() - _LOOK_BACK) : match.start()])
                sides.add(side != flipped)
                said.append(("not " if flipped else "") + match.group())
                if len(said) > 1 and len(sides) > 1:
                    return sides, said  # both sides stated: nothing more can change the reading
    return sides, said


def mentions_subject(text: str, concept: Concept) -> bool:
    folded = text.casefold()
    return any(stem in folded for stem in concept.subject)


def polarity_ruling(
    step: Step | None,
    where: str,
    text: str,
    concept: Concept,
    observed: ObservedValue,
    truth: bool,
    judge: TraceJudge | None,
    rule: str,
) -> Ruling:
    """A reply against the side ``observed`` reported for ``concept`` (``truth``): a contradiction (by ``rule``)
    when the reply states only the other side; when it states neither, or both, and names the concept's subject,
    a question for the judge (no judge: nothing, since no side was stated)."""
    sides, said = phrase_polarity(text, concept)
    shown = f"{observed.path}: {observed.value!r}"
    evidence: dict[str, JsonValue] = {
        "observation": cite(observed.step, observed.path),
        "observed": {observed.path: observed.value},
        "reply": clip(text),
    }
    if sides == {not truth}:
        evidence["stated"] = said
        message = (
            f"{where} says {' / '.join(repr(s) for s in said)}, but step {observed.step.step_id} "
            f"({observed.step.tool_name}) reported {shown}"
        )
        return Ruling((result_finding(step, rule, message, evidence),))
    if sides == {truth} or judge is None or (not sides and not mentions_subject(text, concept)):
        return Ruling()
    question = (
        f"The tool {observed.step.tool_name} reported {shown} ({concept.name}). Does the reply "
        f"{clip(text)!r} contradict that?"
    )
    message = (
        f"{where} contradicts step {observed.step.step_id} ({observed.step.tool_name}: {shown}), as the judge reads it"
    )
    return ask(judge, question, evidence, step, rule, message)


__all__ = ["POLARITY", "Concept", "concept_polarity", "mentions_subject", "phrase_polarity", "polarity_ruling"]
