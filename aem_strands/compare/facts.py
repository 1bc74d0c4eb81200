"""Deterministic fact checks between a gold reply and a predicted reply: facts first, wording second.

Each reply is read into typed facts (``reply_signals.facts_in``) and a dialog act
(``acts.dialog_act``). Then, check by check:

- ``numbers`` (numbers with scale, money, percentages with direction, measures, durations),
  ``dates`` (dates, weekdays, months, times of day), ``identifiers`` (identifiers, e-mails, phones),
  ``entities`` (named entities, in any casing): each gold fact is matched with an agreeing
  predicted fact (``7 pm`` = ``19:00``; ``$356 million`` = ``$356M``). A gold fact left unmatched
  while the prediction states an unmatched fact of the same family is *inconsistent*, naming both
  (``7 am vs gold 7 pm``); a gold fact left unmatched otherwise is *incomplete* (``omits May 3``).
  A fact the prediction adds, with nothing in gold to contradict, is not a finding, but for an amount of money
  or a code (``fact_match.ADDED_FAILS``: ``adds $12, which gold does not state`` is inconsistent). A named entity
  replaced by other words in the same place is inconsistent (``mill valley vs gold Pleasant Hill``).
- ``states``: opposed state words of one group (``switched on`` / ``switched off``, ``confirmed`` /
  ``failed``, ``including`` / ``excluding``, ``sunny`` / ``rainy``) are inconsistent when each side
  has a pole the other lacks; a negation flips the word it governs (``not a good idea`` = ``a bad
  idea``).
- ``polarity``: a word negated on one side and stated plainly on the other is inconsistent
  (``could not book`` / ``booked``); the negation is scoped to the word it governs. A ``no`` subject against
  ``every`` with the predicate flipped (``No dish contains peanuts`` / ``Every dish is peanut-free``:
  ``scopes.flipped_predicate``) is left open. A reply that says something can or will be done against one that
  denies it in other words (``We can seat you on the terrace`` / ``The terrace isn't available``:
  ``stances.opposed_stances``) is inconsistent.
- ``questions``: gold asks for information the prediction does not ask for is *incomplete* (``asks
  for time where gold asks for date``); gold asks the user to confirm and the prediction asks
  nothing is *incomplete*; gold asks for information and the prediction only asks a yes/no question or
  to confirm, proposing no value (``Who do you need to share it with?`` / ``Please confirm the address
  is 1532 20th Street.``), is *incomplete* too. Two questions asking for the same information agree
  (``same_request``).
  A question proposing a value is about that value's topic (``Would you like to pick up the car on
  March 6th?``: ``date:pickup``): two questions about no common topic are *incomplete* (``asks
  about date:pickup where gold asks about time:pickup``).

- ``scope``: scope and quantity words of other classes on the two sides (``some vs gold all``;
  ``scopes.scope_findings``) are inconsistent.
- ``roles``: when no other check found anything, a named place or party that is where a move starts on one
  side and where it ends on the other (``leaves from Union Station`` / ``travelling to Union Station``,
  ``directions``, read from the words next to it) is inconsistent; failing that, the two replies are parsed
  (``roles``: spaCy's dependency parse, each text once) and an entity bound to another role of the same
  action (``'checking' is the source of 'transferred' in gold, the destination in the prediction``), another
  party or means in one role, an action negated on one side only, or a question on one side reported done on
  the other is inconsistent. Only pairs that share a content word are parsed (``needs_parse``).

``FactCheck.matched`` lists the facts both replies state, for the reason of a passing reply.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import re
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, replace

from aem_strands.compare.acts import (
    ActKind,
    DialogAct,
    asked_against_done,
    dialog_act,
    opposed_outcomes,
    same_topics,
)
from aem_strands.compare.aliases import same_entity
from aem_strands.compare.asked_items import dropped_item
from aem_strands.compare.directions import direction_findings
from aem_strands.compare.fact_match import ADDED_FAILS, match_facts
from aem_strands.compare.reply_signals import Fact, counted_numbers, facts_in, words_in
from aem_strands.compare.reply_words import GOVERNED_SKIP, negation_pattern, stem
from aem_strands.compare.roles import role_findings, worth_parsing
from aem_strands.compare.scopes import flipped_predicate, quantified_sentence, scope_findings
from aem_strands.compare.stances import opposed_stances
from aem_strands.errors import ConfigError
from aem_strands.types import FailureReason, SubMetric

CHECKS = ("numbers", "dates", "identifiers", "entities", "states", "polarity", "questions", "scope", "roles")
"""Every check, in the order findings are reported; ``check_reply_facts`` runs all by default."""

_FAMILIES = {
    "number": "numbers", "money": "numbers", "percent": "numbers", "measure": "numbers", "duration": "numbers",
    "time": "dates", "date": "dates", "weekday": "dates", "month": "dates",
    "identifier": "identifiers", "email": "identifiers", "phone": "identifiers", "entity": "entities",
    "address": "entities",
}  # fmt: skip
_ASKING = frozenset([ActKind.CONFIRM, ActKind.OFFER, ActKind.OFFER_INTENT, ActKind.REQ_MORE])
_NEGATION = negation_pattern()


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


class _Words:
    """The word stems of one reply, with ``mentions`` memoised per name and derived words looked up by their
    first four letters (a long reply has thousands of names and words: comparing each pair would be quadratic)."""

    def __init__(self, words: frozenset[str]) -> None:
        self.words = words
        self._by_prefix: dict[str, list[str]] | None = None
        self._seen: dict[str, bool] = {}

    def mentions(self, name: str) -> bool:
        """Whether each word of ``name`` is among the words, inflected or derived from the same country's name
        (``Syria``/``Syrian``, ``Greece``/``Greek``: the same first four letters or more, each word's rest at most
        three letters, and ``aliases.same_entity``; ``Hansen``/``Hanson`` are two names)."""
        found = self._seen.get(name)
        if found is None:
            # "Chinese and Italian" is mentioned by "Italian, Chinese": the words joining a name need not be
            words = [w for w in name.split() if w not in _NAME_GLUE] or name.split()
            found = self._seen[name] = all(self._has(w) for w in words)
        return found

    def _has(self, word: str) -> bool:
        if word in self.words or stem(word) in self.words:
            return True
        if self._by_prefix is None:
            self._by_prefix = {}
            for other in self.words:
                self._by_prefix.setdefault(other[:4], []).append(other)
        # a derived word shares at least the first four letters, and names the same country (Syria / Syrian, Greece /
        # Greek): other names alike at the start are other names (Hansen / Hanson, Carla / Carlos)
        return len(word) >= 4 and any(
            _derived(word, v) and same_entity(word, v) for v in self._by_prefix.get(word[:4], ())
        )


_NAME_GLUE = frozenset(["and", "&", "of", "the"])


def _derived(word: str, other: str) -> bool:
    shared = sum(1 for _ in itertools.takewhile(lambda pair: pair[0] == pair[1], zip(word, other, strict=False)))
    return shared >= 4 and len(word) - shared <= 3 and len(other) - shared <= 3


MAX_DIFF_WORDS = 2_000
"""The longest reply (in words, either side) in which a name gold states and the prediction leaves out is
looked for among the prediction's words standing in its place (``mill valley vs gold Pleasant Hill``:
inconsistent). Lining up two replies word by word costs time growing with the product of their lengths;
beyond this a name left out is reported as omitted (incomplete): the pair fails either way."""


class _Replacements:
    """What the prediction says where gold names an entity, for each entity of one reply pair: the
    replies lined up word by word once (``difflib``), each name looked up once."""

    def __init__(self, gold: str, predicted: str) -> None:
        self.gold = gold
        self.predicted = predicted
        self._lined_up: tuple[list[str], list[str], list[tuple[str, int, int, int, int]]] | None = None
        self._seen: dict[str, str | None] = {}

    def of(self, entity: Fact) -> str | None:
        """The predicted words standing where gold names ``entity`` (``mill valley`` for ``Pleasant Hill``);
        ``None`` when there are none, or a reply is longer than ``MAX_DIFF_WORDS`` words."""
        if entity.key not in self._seen:
            self._seen[entity.key] = self._find(entity.key.split())
        return self._seen[entity.key]

    def _find(self, name: list[str]) -> str | None:
        if self._lined_up is None:
            gold_words = re.findall(r"\w+", self.gold.casefold())
            predicted_words = re.findall(r"\w+", self.predicted.casefold())
            opcodes: list[tuple[str, int, int, int, int]] = []
            if max(len(gold_words), len(predicted_words)) <= MAX_DIFF_WORDS:
                opcodes = list(difflib.SequenceMatcher(a=gold_words, b=predicted_words, autojunk=False).get_opcodes())
            self._lined_up = gold_words, predicted_words, opcodes
        gold_words, predicted_words, opcodes = self._lined_up
        for tag, i1, i2, j1, j2 in opcodes:
            if tag == "replace" and set(name) <= set(gold_words[i1:i2]) and 0 < j2 - j1 <= len(name) + 2:
                words = [w for w in predicted_words[j1:j2] if w not in GOVERNED_SKIP]
                if words and i2 - i1 <= len(name) + 2:
                    return " ".join(predicted_words[j1:j2])
        return None


def _facts_check(gold: str, predicted: str, checks: Collection[str]) -> tuple[list[FactFinding], list[Fact], int]:
    findings: list[FactFinding] = []
    gold_facts = [f for f in facts_in(gold) if _FAMILIES.get(f.group) in checks]
    predicted_facts = [f for f in facts_in(predicted) if _FAMILIES.get(f.group) in checks]
    matched, missing, extra = match_facts(gold_facts, predicted_facts)
    predicted_words, gold_words = _Words(words_in(predicted)), _Words(words_in(gold))
    named = [f for f in missing if f.group == "entity" and predicted_words.mentions(f.key)]
    if named:
        missing = [f for f in missing if not (f.group == "entity" and predicted_words.mentions(f.key))]
        matched += named
    rivals: dict[str, deque[Fact]] = {}  # the prediction's unmatched facts by group, in its order
    for fact in extra:
        if not (fact.group == "entity" and gold_words.mentions(fact.key)):
            rivals.setdefault(fact.group, deque()).append(fact)
    replacements = _Replacements(gold, predicted)
    for fact in missing:
        rival = rivals[fact.group].popleft() if rivals.get(fact.group) else None
        if rival is None and fact.group == "entity":
            replaced = replacements.of(fact)
            if replaced is not None and Fact("entity", replaced, replaced).agrees(fact):
                matched.append(fact)  # "Pak army" where gold says "In Pakistan, army": one name, not capitalised
                continue
            if replaced is not None:
                findings.append(_inconsistent(fact.text, replaced, f"{replaced} vs gold {fact.text}"))
                continue
        if rival is not None:
            findings.append(_inconsistent(fact.text, rival.text, f"{rival.text} vs gold {fact.text}"))
        elif not (fact.group == "number" and fact.key == "1") and fact.group != "month":
            findings.append(_incomplete(fact.text, f"omits {fact.text}, which gold states"))
    for fact in itertools.chain.from_iterable(rivals.get(group, ()) for group in ADDED_FAILS):  # none left to rival
        findings.append(_inconsistent("", fact.text, f"adds {fact.text}, which gold does not state"))
    return findings, matched, len(gold_facts)


def _swapped_counts(gold: str, predicted: str) -> list[FactFinding]:
    """Numbers both replies state, counting other nouns on the two sides (``3 bedrooms and 2 baths`` /
    ``2 bedrooms and 3 baths``; ``the 1 Hotel, a 4 star hotel`` / ``the 4 Hotel, a 1 star hotel``): each
    number is matched, but not with what it counts."""
    mine, theirs = counted_numbers(gold), counted_numbers(predicted)
    gold_numbers = frozenset().union(*mine.values())
    predicted_numbers = frozenset().union(*theirs.values())
    findings = []
    for noun in [noun for noun in mine if noun in theirs]:  # gold's order: a set's would change with the hash seed
        said, gold_said = theirs[noun], mine[noun]
        if (
            len(said) == len(gold_said) == 1
            and said != gold_said
            and said <= gold_numbers
            and gold_said <= predicted_numbers
        ):
            detail = f"{min(said)} {noun} vs gold {min(gold_said)} {noun}"
            findings.append(_inconsistent(f"{min(gold_said)} {noun}", f"{min(said)} {noun}", detail))
    return findings


def _states_check(gold: str, predicted: str) -> list[FactFinding]:
    """Opposed poles of one state group (see the module docstring). A side whose plain pole stands beside a
    negation bound to another word (``I can't find any taxis available``: the negation is read on ``taxis``) may
    deny the state as well: an opposition resting on that pole against a negated one (``no cabs free``) is left
    open."""
    findings: list[FactFinding] = []
    gold_states = [f for f in facts_in(gold) if f.group.startswith("state:")]
    predicted_states = [f for f in facts_in(predicted) if f.group.startswith("state:")]
    unbound = [any(f.group == "negation" for f in facts_in(text)) for text in (gold, predicted)]
    percents = any(f.group == "percent" for f in facts_in(gold))
    for group in dict.fromkeys(f.group for f in gold_states):
        if group == "state:direction" and percents:
            continue  # the direction is part of the percentage fact

        mine = {f.key: f.text for f in gold_states if f.group == group}
        theirs = {f.key: f.text for f in predicted_states if f.group == group}
        if theirs and set(mine) - set(theirs) and set(theirs) - set(mine):
            said = ", ".join(theirs[k] for k in theirs if k not in mine)
            gold_said = ", ".join(mine[k] for k in mine if k not in theirs)
            if _unsure_pole(gold_said, said, unbound[0]) or _unsure_pole(said, gold_said, unbound[1]):
                continue
            findings.append(_inconsistent(gold_said, said, f"{said} vs gold {gold_said}"))
    return findings


def _unsure_pole(plain: str, other: str, negates_elsewhere: bool) -> bool:
    """Whether a plainly stated pole (``available``) may be denied by a negation its side binds to another word,
    against a pole the other side reaches by negating (``not free``)."""
    return negates_elsewhere and not plain.startswith("not ") and other.startswith("not ")


def _polarity_check(gold: str, predicted: str) -> list[FactFinding]:
    findings: list[FactFinding] = []
    gold_facts, predicted_facts = facts_in(gold), facts_in(predicted)
    sides = ((gold_facts, predicted_facts, predicted, False), (predicted_facts, gold_facts, gold, True))
    for negating, other, other_text, reverse in sides:
        negations = [f for f in negating if f.group == "negation"]
        if not negations:
            continue  # most replies negate nothing: the other side need not be read
        if _NEGATION.search(other_text.casefold().replace("\u2019", "'")):
            continue  # both sides negate something: which word each governs is too fragile to oppose them
        other_negated = {f.key for f in other if f.group == "negation"}
        other_words = words_in(other_text)
        flipped_words = _flipped_words(predicted if reverse else gold, other_text)
        for fact in negations:
            if fact.key not in other_negated and fact.key in other_words:
                if fact.key in flipped_words:
                    continue  # "No dish contains peanuts" / "Every dish is peanut-free": left open
                plain = fact.text.removeprefix("not ")
                gold_text, predicted_text = (plain, fact.text) if reverse else (fact.text, plain)
                findings.append(_inconsistent(gold_text, predicted_text, f"{predicted_text} vs gold {gold_text}"))
    return findings


def _flipped_words(negating: str, other: str) -> frozenset[str]:
    """The word stems of the sentence of ``negating`` whose ``no`` subject reads as ``every`` in ``other`` with the
    predicate flipped (``scopes.flipped_predicate``): what those words deny is left open, not opposed."""
    quantified = quantified_sentence(negating)
    return words_in(quantified) if quantified and flipped_predicate(negating, other) else frozenset()


def _flipped_negation(gold: str, predicted: str, said: tuple[str, str]) -> bool:
    """Whether ``said`` (gold's word, the prediction's) is a word negated on one side only, in a sentence whose
    ``no`` subject the other side reads as ``every`` with the predicate flipped (``_flipped_words``)."""
    for negating, other, (denied, plain) in ((gold, predicted, said), (predicted, gold, said[::-1])):
        if denied == f"not {plain}" and stem(plain.rsplit(" ", 1)[-1]) in _flipped_words(negating, other):
            return True
    return False


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
    dropped = dropped_item(gold, predicted)  # "policy number and postcode?" / "policy number?"
    if dropped is not None:
        return [_incomplete(dropped, f"one question asks for '{dropped}', the other does not")], False
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


_PARSED_CHECKS = frozenset(["roles"])


@functools.lru_cache(maxsize=1 << 14)
def _check(gold: str, predicted: str, checks: frozenset[str]) -> FactCheck:
    check = _unparsed_check(gold, predicted, checks - _PARSED_CHECKS)
    if check.findings:
        return check
    found = _parsed_findings(gold, predicted) if "roles" in checks else ()
    if not found and "polarity" in checks:
        # "We can seat you" / "isn't available": denied by meaning, where no word is negated on one side only
        # (the parse's "not renew vs gold renew" names the action, so it goes first)
        stances = opposed_stances(gold, predicted)
        if stances is not None:
            found = (_inconsistent(*stances, f"says it {stances[1]} be done vs gold {stances[0]}"),)
    if not found and "questions" in checks:
        # "Shall I sign you up?" / "I've put you down.": the acts differ where the parse names no shared action
        acts = asked_against_done(gold, predicted)
        if acts is not None:
            found = (_inconsistent(*acts, f"the prediction {acts[1]} where gold {acts[0]}"),)
    return replace(check, findings=found) if found else check


def _parsed_findings(gold: str, predicted: str) -> tuple[FactFinding, ...]:
    moved = tuple(_inconsistent(f.gold, f.predicted, f.detail) for f in direction_findings(gold, predicted))
    if moved or not needs_parse(gold, predicted):
        return moved
    return tuple(
        _inconsistent(f.gold, f.predicted, f.detail)
        for f in role_findings(gold, predicted)
        if not _flipped_negation(gold, predicted, (f.gold, f.predicted))
    )


@functools.lru_cache(maxsize=1 << 14)
def needs_parse(gold: str, predicted: str) -> bool:
    """Whether the ``roles`` check parses this pair once no other check found anything: the replies differ,
    share a content word (an action or a filler to compare), and their words hint at a difference a parse
    can tell (``roles.worth_parsing``)."""
    if gold.casefold() == predicted.casefold():
        return False
    return worth_parsing(gold, predicted)


def pending_parses(pairs: Collection[tuple[str, str]]) -> list[str]:
    """The texts the ``roles`` check will parse for ``pairs`` (to parse them in one batch first)."""
    every = frozenset(CHECKS) - _PARSED_CHECKS
    return [
        text
        for gold, predicted in pairs
        if needs_parse(gold, predicted)
        and not _unparsed_check(gold, predicted, every).findings
        and not direction_findings(gold, predicted)
        for text in (gold, predicted)
    ]


@functools.lru_cache(maxsize=1 << 14)
def _unparsed_check(gold: str, predicted: str, checks: frozenset[str]) -> FactCheck:
    findings, matched, gold_count = _facts_check(gold, predicted, checks)
    if "numbers" in checks:
        findings += _swapped_counts(gold, predicted)
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
    if "scope" in checks and not findings:
        findings += [_inconsistent(f.gold, f.predicted, f.detail) for f in scope_findings(gold, predicted)]
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
