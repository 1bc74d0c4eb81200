"""Deterministic fact checks between a gold reply and a predicted reply: facts first, wording second.

Each reply is read into typed facts (``reply_signals.facts_in``) and a dialog act
(``acts.dialog_act``). Then, check by check:

- ``numbers`` (numbers with scale, money, percentages with direction, measures, durations),
  ``dates`` (dates, weekdays, months, times of day), ``identifiers`` (identifiers, e-mails, phones),
  ``entities`` (named entities, in any casing): each gold fact is matched with an agreeing
  predicted fact (``7 pm`` = ``19:00``; ``$356 million`` = ``$356M``). A gold fact left unmatched
  while the prediction states an unmatched fact of the same family is *inconsistent*, naming both
  (``7 am vs gold 7 pm``); a gold fact left unmatched otherwise is *incomplete* (``omits May 3``).
  A fact the prediction adds, with nothing in gold to contradict, is not a finding. A named entity
  replaced by other words in the same place is inconsistent (``mill valley vs gold Pleasant Hill``).
- ``states``: opposed state words of one group (``switched on`` / ``switched off``, ``confirmed`` /
  ``failed``, ``including`` / ``excluding``, ``sunny`` / ``rainy``) are inconsistent when each side
  has a pole the other lacks; a negation flips the word it governs (``not a good idea`` = ``a bad
  idea``).
- ``polarity``: a word negated on one side and stated plainly on the other is inconsistent
  (``could not book`` / ``booked``); the negation is scoped to the word it governs.
- ``questions``: gold asks for information the prediction does not ask for is *incomplete* (``asks
  for time where gold asks for date``); gold asks the user to confirm and the prediction asks
  nothing is *incomplete*; gold asks for information and the prediction only asks a yes/no question or
  to confirm, proposing no value (``Who do you need to share it with?`` / ``Please confirm the address
  is 1532 20th Street.``), is *incomplete* too. Two questions asking for the same information agree
  (``same_request``).
  A question proposing a value is about that value's topic (``Would you like to pick up the car on
  March 6th?``: ``date:pickup``): two questions about no common topic are *incomplete* (``asks
  about date:pickup where gold asks about time:pickup``).

``FactCheck.matched`` lists the facts both replies state, for the reason of a passing reply.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import re
from collections.abc import Collection
from dataclasses import dataclass

from aem_strands.compare.acts import ActKind, DialogAct, dialog_act, opposed_outcomes, same_topics
from aem_strands.compare.reply_signals import Fact, facts_in, words_in
from aem_strands.compare.reply_words import GOVERNED_SKIP, NEGATION_CUES, stem
from aem_strands.errors import ConfigError
from aem_strands.types import FailureReason, SubMetric

CHECKS = ("numbers", "dates", "identifiers", "entities", "states", "polarity", "questions")
"""Every check, in the order findings are reported; ``check_reply_facts`` runs all by default."""

_FAMILIES = {
    "number": "numbers", "money": "numbers", "percent": "numbers", "measure": "numbers", "duration": "numbers",
    "time": "dates", "date": "dates", "weekday": "dates", "month": "dates",
    "identifier": "identifiers", "email": "identifiers", "phone": "identifiers", "entity": "entities",
    "address": "entities",
}  # fmt: skip
_ASKING = frozenset([ActKind.CONFIRM, ActKind.OFFER, ActKind.OFFER_INTENT, ActKind.REQ_MORE])
_UNIT_GROUPS = frozenset(["money", "percent", "measure"])
_NEGATIVE_WORDS = frozenset(["unable", "without", "nothing", "none", "neither", "failed", "lack", "lacks"])
_NEGATION = re.compile(
    r"\b(?:" + "|".join(re.escape(c) for c in sorted(NEGATION_CUES | _NEGATIVE_WORDS)) + r")\b|n't\b"
)


@dataclass(frozen=True)
class FactFinding:
    """One fact that does not agree; ``reason`` is the response failure it supports."""

    reason: FailureReason
    sub_metric: SubMetric
    gold: str
    predicted: str
    detail: str


@dataclass(frozen=True)
class FactCheck:
    """Findings, how many of gold's facts the prediction covers, and what both state."""

    findings: tuple[FactFinding, ...]
    gold_facts: int
    covered_facts: int
    matched: tuple[str, ...] = ()
    same_request: bool = False

    @property
    def coverage(self) -> float:
        return self.covered_facts / self.gold_facts if self.gold_facts else 1.0

    @property
    def contradicted(self) -> bool:
        return any(f.reason is FailureReason.INCONSISTENT_RESPONSE for f in self.findings)


def _inconsistent(gold: str, predicted: str, detail: str) -> FactFinding:
    return FactFinding(FailureReason.INCONSISTENT_RESPONSE, SubMetric.TRUTHFULNESS, gold, predicted, detail)


def _incomplete(gold: str, detail: str) -> FactFinding:
    return FactFinding(FailureReason.INCOMPLETE_RESPONSE, SubMetric.COMPLETENESS, gold, "", detail)


def _amount(fact: Fact) -> float | None:
    found = re.findall(r"-?\d+(?:\.\d+)?", fact.key)
    return float(found[0]) if fact.group != "duration" and len(found) == 1 else None


def _agree(gold: Fact, predicted: Fact) -> bool:
    if gold.agrees(predicted):
        return True
    bare = {gold.group, predicted.group} - _UNIT_GROUPS
    if bare == {"number"} and gold.group != predicted.group:
        # "$1,250" and "1,250": a unit on one side only does not make the amounts differ
        return _amount(gold) is not None and _amount(gold) == _amount(predicted)
    if {gold.group, predicted.group} == {"number", "time"}:
        number, time = (gold, predicted) if gold.group == "number" else (predicted, gold)
        hour, minute = time.key.split(":")
        return minute == "00" and _amount(number) in (float(hour), float(int(hour) % 12))
    return False


def _match(gold: list[Fact], predicted: list[Fact]) -> tuple[list[Fact], list[Fact], list[Fact]]:
    """(matched gold facts, unmatched gold, unmatched predicted), in gold's order. Facts of one group
    pair first, across groups after: the "1 pm" of one side is the other's "1 pm", not its "one"."""
    free = list(predicted)
    hits: dict[int, Fact] = {}
    for same_group in (True, False):
        for index, fact in enumerate(gold):
            if index in hits:
                continue
            hit = next((p for p in free if (p.group == fact.group) == same_group and _agree(fact, p)), None)
            if hit is not None:
                free.remove(hit)
                hits[index] = hit
    matched = [fact for index, fact in enumerate(gold) if index in hits]
    missing = [fact for index, fact in enumerate(gold) if index not in hits]
    return matched, missing, free


def _mentioned(name: str, words: frozenset[str]) -> bool:
    """Whether each word of ``name`` is among ``words``, inflected or derived (``Syria``/``Syrian``,
    ``Greece``/``Greek``: the same first four letters or more, each word's rest at most three
    letters; ``Psychologist``/``Psychiatrist`` share five but differ in seven)."""
    return all(w in words or stem(w) in words or any(_derived(w, v) for v in words) for w in name.split())


def _derived(word: str, other: str) -> bool:
    shared = sum(1 for _ in itertools.takewhile(lambda pair: pair[0] == pair[1], zip(word, other, strict=False)))
    return shared >= 4 and len(word) - shared <= 3 and len(other) - shared <= 3


def _replaced_by(entity: Fact, gold: str, predicted: str) -> str | None:
    """The predicted words standing where gold names ``entity`` (``mill valley`` for ``Pleasant Hill``)."""
    gold_words = re.findall(r"\w+", gold.casefold())
    predicted_words = re.findall(r"\w+", predicted.casefold())
    name = entity.key.split()
    matcher = difflib.SequenceMatcher(a=gold_words, b=predicted_words, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace" and set(name) <= set(gold_words[i1:i2]) and 0 < j2 - j1 <= len(name) + 2:
            words = [w for w in predicted_words[j1:j2] if w not in GOVERNED_SKIP]
            if words and i2 - i1 <= len(name) + 2:
                return " ".join(predicted_words[j1:j2])
    return None


def _facts_check(gold: str, predicted: str, checks: Collection[str]) -> tuple[list[FactFinding], list[Fact], int]:
    findings: list[FactFinding] = []
    gold_facts = [f for f in facts_in(gold) if _FAMILIES.get(f.group) in checks]
    predicted_facts = [f for f in facts_in(predicted) if _FAMILIES.get(f.group) in checks]
    matched, missing, extra = _match(gold_facts, predicted_facts)
    predicted_words = words_in(predicted)
    gold_words = words_in(gold)
    for fact in list(missing):
        if fact.group == "entity" and _mentioned(fact.key, predicted_words):
            missing.remove(fact)
            matched.append(fact)
    extra = [f for f in extra if not (f.group == "entity" and _mentioned(f.key, gold_words))]
    for fact in missing:
        rival = next((p for p in extra if p.group == fact.group), None)
        if rival is None and fact.group == "entity":
            replaced = _replaced_by(fact, gold, predicted)
            if replaced is not None:
                findings.append(_inconsistent(fact.text, replaced, f"{replaced} vs gold {fact.text}"))
                continue
        if rival is not None:
            extra.remove(rival)
            findings.append(_inconsistent(fact.text, rival.text, f"{rival.text} vs gold {fact.text}"))
        elif not (fact.group == "number" and fact.key == "1") and fact.group != "month":
            findings.append(_incomplete(fact.text, f"omits {fact.text}, which gold states"))
    return findings, matched, len(gold_facts)


def _states_check(gold: str, predicted: str) -> list[FactFinding]:
    findings: list[FactFinding] = []
    gold_states = [f for f in facts_in(gold) if f.group.startswith("state:")]
    predicted_states = [f for f in facts_in(predicted) if f.group.startswith("state:")]
    percents = any(f.group == "percent" for f in facts_in(gold))
    for group in dict.fromkeys(f.group for f in gold_states):
        if group == "state:direction" and percents:
            continue  # the direction is part of the percentage fact

        mine = {f.key: f.text for f in gold_states if f.group == group}
        theirs = {f.key: f.text for f in predicted_states if f.group == group}
        if theirs and set(mine) - set(theirs) and set(theirs) - set(mine):
            said = ", ".join(theirs[k] for k in theirs if k not in mine)
            gold_said = ", ".join(mine[k] for k in mine if k not in theirs)
            findings.append(_inconsistent(gold_said, said, f"{said} vs gold {gold_said}"))
    return findings


def _polarity_check(gold: str, predicted: str) -> list[FactFinding]:
    findings: list[FactFinding] = []
    gold_facts, predicted_facts = facts_in(gold), facts_in(predicted)
    sides = ((gold_facts, predicted_facts, predicted, False), (predicted_facts, gold_facts, gold, True))
    for negating, other, other_text, reverse in sides:
        if _NEGATION.search(other_text.casefold().replace("\u2019", "'")):
            continue  # both sides negate something: which word each governs is too fragile to oppose them
        other_negated = {f.key for f in other if f.group == "negation"}
        other_words = words_in(other_text)
        for fact in negating:
            if fact.group == "negation" and fact.key not in other_negated and fact.key in other_words:
                plain = fact.text.removeprefix("not ")
                gold_text, predicted_text = (plain, fact.text) if reverse else (fact.text, plain)
                findings.append(_inconsistent(gold_text, predicted_text, f"{predicted_text} vs gold {gold_text}"))
    return findings


def _questions_check(gold: str, predicted: str) -> tuple[list[FactFinding], bool]:
    gold_act, predicted_act = dialog_act(gold), dialog_act(predicted)
    if gold_act.requests:
        same = same_topics(gold_act.requests, predicted_act.requests) if predicted_act.requests else False
        asked = ", ".join(sorted(gold_act.requests))
        if same is True:
            return [], True
        if not predicted_act.asks:
            return [_incomplete("?", f"gold asks for {asked}; the prediction asks nothing")], False
        if not predicted_act.requests and "?" not in gold_act.requests and not predicted_act.proposals:
            # "What time will you be visiting?" / "In San Francisco you want to search?": a yes/no question
            # or a confirmation about nothing gold asks for
            what = ", ".join(sorted(k.value for k in predicted_act.kinds if k in _ASKING)) or "a question"
            return [_incomplete("?", f"gold asks for {asked}; the prediction asks no information ({what})")], False
        asked_about = predicted_act.requests | predicted_act.proposals  # "What kind of car? Need insurance?"
        if (
            predicted_act.requests
            and "?" not in gold_act.requests
            and same_topics(gold_act.requests, asked_about) is False
        ):
            theirs = ", ".join(sorted(predicted_act.requests))
            return [_incomplete(asked, f"asks for {theirs} where gold asks for {asked}")], False
    return _asked_about_other(gold_act, predicted_act), False


def _asked_about_other(gold: DialogAct, predicted: DialogAct) -> list[FactFinding]:
    """Both ask, and what they ask about (information requested, or a value proposed: ``Would you
    like insurance?`` / ``Do you want the car from March 5th?``) shares no topic."""
    mine, theirs = gold.requests | gold.proposals, predicted.requests | predicted.proposals
    if not (gold.asks and predicted.asks and mine and theirs) or "?" in mine | theirs:
        return []
    if same_topics(mine, theirs) is not False:
        return []
    asked, other = ", ".join(sorted(mine)), ", ".join(sorted(theirs))
    return [_incomplete(asked, f"asks about {other} where gold asks about {asked}")]


@functools.lru_cache(maxsize=1 << 14)
def _check(gold: str, predicted: str, checks: frozenset[str]) -> FactCheck:
    findings, matched, gold_count = _facts_check(gold, predicted, checks)
    if "states" in checks:
        findings += _states_check(gold, predicted)
        outcomes = opposed_outcomes(gold, predicted)  # success vs failure, told in words no state table has
        if outcomes is not None and not any(f.reason is FailureReason.INCONSISTENT_RESPONSE for f in findings):
            findings.append(_inconsistent(*outcomes, f"reports {outcomes[1]} vs gold {outcomes[0]}"))
    if "polarity" in checks:
        findings += _polarity_check(gold, predicted)
    same_request = False
    if "questions" in checks:
        asked, same_request = _questions_check(gold, predicted)
        findings += asked
    order = [FailureReason.INCONSISTENT_RESPONSE, FailureReason.INCOMPLETE_RESPONSE]
    findings.sort(key=lambda f: order.index(f.reason))
    gold_act, predicted_act = dialog_act(gold), dialog_act(predicted)
    gold_asks = gold_act.requests_information and "questions" in checks
    covered = len(matched) + int(gold_asks and (same_request or gold_act.requests == predicted_act.requests))
    return FactCheck(
        tuple(findings), gold_count + int(gold_asks), covered, tuple(f.text for f in matched), same_request
    )


def check_reply_facts(gold: str, predicted: str, checks: Collection[str] = CHECKS) -> FactCheck:
    """Compare the facts of two replies (see the module docstring); ``checks`` selects the checks."""
    unknown = set(checks) - set(CHECKS)
    if unknown:
        raise ConfigError(f"unknown fact checks {sorted(unknown)}; expected some of {list(CHECKS)}")
    return _check(gold, predicted, frozenset(checks))
