"""Result use: what the agent says or does after a tool answered must not contradict the answer, nor report an
outcome no answer gives.

A contradiction is about the same object: the same record (the object an observation describes:
``observed.records``) and the same kind of quantity. The rules:

- **polarity**: an observation value that says yes or no about a concept, as a boolean under a known key
  (``eligible: false``, ``in_stock: true``) or a status word (``status: "denied"``), against a reply that
  states the opposite (``you are eligible for a refund``, ``it is refundable``, ``approved``). The concepts and
  their words are the small table ``POLARITY``; a negation governing a word flips it (``not eligible``), with
  the product's negation cues (``polarity``). The latest observation of a concept stands. A reply that states
  both sides, or mentions the concept's subject without a word of either side, is left to the judge
  (``ctx.judge``), when one is given.
- **values**: times, dates, durations, money, percentages, measures, phone numbers and street addresses a reply
  sentence states (the product's
  reply fact reading, ``compare.reply_signals.facts_in``) against the record the sentence is about: a record it
  names (by an identifier or a name such as ``Benissimo``), else the only record of the latest observation that
  holds a value of that kind, when the user has not spoken since (then the reply may be about another task), else
  the records of a list that share one value with the reply (the buses at $28: a time none of them, and no record
  of the list, holds contradicts them). A record the sentence names (another flight, by its airline) vouches for
  its own values; when the reply states every value of the kind the record holds, another one is another quantity
  (``AA 211 is $189 ... insurance for $24``).
  Questions in a reply that reports a failure propose other values (``Do you prefer 5:15 pm?``): not read. A fact
  contradicts it when that record holds values of its kind, and the fact agrees (``fact_match.agree``: ``5 days`` vs
  ``2 days`` differ; ``$40`` vs ``40`` and ``3 march`` vs ``2019-03-03`` agree) with nothing the trace stated
  before: no observation (an item further down a list, an earlier search), no user message, no call argument, no
  earlier reply, and no product, sum or difference of the record's amounts (``3 nights at $150``: ``$450``; ``£43.85
  more``), nor one of them with an amount the user or a call gave added (a $2 tip), nor the total of a list's items
  (``about $51`` in fees), nor, said with a hedge, a rounding of one (``about £44``: ``amounts``). A single record
  of the answer just before the reply, later than the record the sentence names, vouches for its own values (the
  cart's total after the menu's item). A fact about no known record, or
  of a kind the record does not hold, is another quantity: no finding; a bare whole-hour number beside it counts as
  stating a time (``from 12 to 1 pm``). A record whose interval runs backwards on one date (``12:00`` to ``01:00``)
  writes its clock on 12 hours: its times are read without am/pm. Of the records a fact is compared with, it is
  cited against the only one whose title's own word its clause holds (``Bob at 1 pm``: ``Bob-Hugo``). A later
  observation of a record's field (the same identifiers) replaces what earlier ones said of it.
- **arguments** (``identifier_arguments``): a later call passing, under an identifier argument, a value other
  than the one a single record reported, that nothing before gave (``order_id ORDER_9`` after ``order_id:
  ORDER_8``); another item of a list, or a new value written in place of an observed one, is none.
- **codes** (``result_use.unsupported_value``): a statement of a reply giving a code (letters with digits in one
  token: ``Clink261``, ``S90``) that nothing stated before holds in any spelling (no observation, the user, a call,
  an earlier reply), after a tool answered: an object no answer holds (``a 5 star hotel called Clink261`` after a
  search that returned no Clink261). Questions propose, they do not state: not read. So is a numbered name (a
  number beside a capitalised word: ``Hotel 99``, ``28 Hotel Sydney``, ``10th and Filbert``; not a count, ``3
  Psychologist offices``) whose number and neighbouring word nothing stated holds together, in a statement or a
  question (``How about Hyatt At Olive 8?`` after a search with no such hotel).
- **outcomes** (``result_use.unsupported_outcome``, ``outcomes``): a reply claiming an action went through that
  no observation supports: the record's status says another stage (``ORDER_500 is cancelled`` after ``status:
  cancel_requested``), or a false flag names the action (``I've scheduled it`` after ``scheduled: false``), or no
  call that could have done it was made (``I've booked it`` after searches only).

Findings are ``result_use.contradicts_observation``, ``result_use.unsupported_value`` and
``result_use.unsupported_outcome``; a judge's answer only
adds findings (``method=judge``), and a question it could not answer (or, without a judge, one the outcome rule
could not settle) is ``undecided``. Evidence is bounded: the record's values of the kind, the sentence, the
step ids. What was stated before each reply (the records, names, codes, polar values and what the user and
the calls said) is kept by ``result_ledger.Ledger``; this module holds the rules that read replies and later calls
against it. The reading is linear in the size of the trace's texts: facts are bucketed (``observed.KnownFacts``),
names are looked up by the words of a sentence. Not applicable when no reply or call follows an observation and
no reply claims an outcome in a trace with tools.
"""

from __future__ import annotations

import re
from decimal import Decimal

from aem_strands.compare.acts import ActKind, dialog_act
from aem_strands.compare.fact_match import agree, amount
from aem_strands.compare.reply_signals import Fact, values_in
from aem_strands.trace.checks.amounts import MAX_FACTOR, approximates, derived, list_total
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.identifier_arguments import changed_identifiers
from aem_strands.trace.checks.naming import ngrams, title_words, titled
from aem_strands.trace.checks.observed import (
    COMPARED_GROUPS,
    Record,
    name_words,
)
from aem_strands.trace.checks.outcomes import outcome_ruling, unsupported
from aem_strands.trace.checks.polarity import POLARITY, Concept, polarity_ruling
from aem_strands.trace.checks.result_ledger import Ledger
from aem_strands.trace.checks.rulings import Ruling, cite, clip, result_finding
from aem_strands.trace.checks.steps import sentences
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

_CONTRADICTS = "result_use.contradicts_observation"
_UNSUPPORTED = "result_use.unsupported_outcome"
_DESCRIBED = 2
"""Values and names a reply must share with a record before it is taken as describing it."""


def _count(fact: Fact) -> Decimal | None:
    """A whole number from 2 to ``MAX_FACTOR`` a reply states (``3`` passengers), or ``None``."""
    value = amount(fact)
    return value if value is not None and value == value.to_integral_value() and 1 < value <= MAX_FACTOR else None


def _where(step: Step | None) -> str:
    return f"step {step.step_id}" if step is not None else "the final response"


def _holds(record: Record, fact: Fact) -> bool:
    return fact.group in record.fields and record.holds(fact)


class _Reader(Ledger):
    """Walks a trace in order, reading each reply and later call against what the tools, the user and the agent
    stated before it (``Ledger``)."""

    def __init__(self, trace: Trace, env: Environment, ctx: TraceContext) -> None:
        self.ctx = ctx
        self.findings: list[Finding] = []
        self.undecided: list[str] = []
        self.checked = 0
        self.reported: set[tuple[int | None, Fact]] = set()
        self.stated: list[Fact] = []
        """The facts of the reply being read, bare numbers with them (``from 12 to 1 pm``: a whole hour's number)."""
        super().__init__(trace, env)

    # --- replies -------------------------------------------------------------------------------------------

    def reply(self, step: Step | None, text: str) -> None:
        self.checked += 1
        where = _where(step)
        for concept in POLARITY:
            if concept.name in self.polar:
                observed, truth = self.polar[concept.name]
                self._take(polarity_ruling(step, where, text, concept, observed, truth, self.ctx.judge, _CONTRADICTS))
        # A reply that reports a failure proposes other values in its questions ("Do you prefer 5:15 pm?"):
        # they are offers in place of what failed, not statements of what a tool reported.
        act = dialog_act(text)
        failing = ActKind.NOTIFY_FAILURE in act.kinds
        self.stated = [f for f in values_in(text) if f.group in COMPARED_GROUPS or f.group == "number"]
        # After the user asked for something new, a reply asking to confirm it states the new details: a proposal
        # ("Please confirm 1 ticket for March 1st" after "later today"), not a report of the answer before.
        proposing = self.spoke_since and (act.confirms or act.asks)
        for sentence in sentences(text) if not proposing else ():
            self._values(step, where, sentence, offer=failing and "?" in sentence)
        if not proposing:
            self._described(step, where, text, failing)
        if self.observed:
            self._invented(step, where, text)
        if self.calls or self.env.tools:
            for outcome in unsupported(text, self.calls, self.env, self.names.named, self.last_write, self.turns):
                self._take(outcome_ruling(step, where, outcome, self.calls, self.ctx.judge, _UNSUPPORTED))
        self._state(text)

    def _add(self, step: Step | None, rule: str, message: str, evidence: JsonValue, method: FindingMethod) -> None:
        self.findings.append(result_finding(step, rule, message, evidence, method))

    def _take(self, ruling: Ruling) -> None:
        self.findings.extend(ruling.findings)
        self.undecided.extend(ruling.undecided)

    def _values(self, step: Step | None, where: str, sentence: str, offer: bool = False) -> None:
        """The sentence's values against the records they are about; in an ``offer`` (a question of a reply that
        reports a failure) only against a tool's counter-offer (``_countered``)."""
        facts = [f for f in values_in(sentence) if f.group in COMPARED_GROUPS]
        if not facts:
            return
        named = self.names.named(sentence)
        words = title_words(sentence) if any(r.identity for r in named) else (set(), set())
        by_title = [r for r in named if r.identity and titled(r, words)]
        distinct = self.names.distinct(sentence)
        for fact in facts:
            if any(_holds(r, fact) for r in named):
                continue  # a value of a record the sentence names (another flight of the list, by its airline)
            about = [r for r in distinct if fact.group in r.fields]
            single = [r for r in self.latest_records if fact.group in r.fields] if not self.spoke_since else []
            if about:
                # the sentence names one record by its title: the fact is about it, unless another record it
                # names by a title holds it or the user, a call or an earlier reply stated it; another item of
                # the list does not vouch for it
                if self._said(fact) or any(_holds(r, fact) for r in by_title):
                    continue
                if self._answered_since(about, fact):
                    continue
            elif len(single) == 1:
                # the only record holding a value of this kind, in an answer the user has not spoken after: an
                # earlier answer (a list of offers before the booking) does not vouch for it
                if self._said(fact) or single[0].holds(fact):
                    continue
                about = single
            elif self._said(fact) or self.known.agrees(fact):
                continue
            else:
                # named by an identifier or a title, not by a name every record of a city shares
                about = [r for r in by_title if fact.group in r.fields]
            if offer:
                about = [r for r in about if _countered(r, fact.group)]
            if not about or any(derived(fact, r, fact.group, self._added()) for r in about):
                continue
            self._report(step, where, sentence, fact, about[0])

    def _worked_out(self, fact: Fact) -> bool:
        """Whether a money fact is the sum or difference of two amounts in play (given by the user, the agent's
        instructions, a call, a tool's computed result or an earlier reply, or stated beside it in this reply: "a
        balance of $500 ... $329 ... you will have $171 remaining"), or one of them times a count this reply states
        ("$50 per passenger ... 3 passengers ... $150")."""
        stated = amount(fact)
        if stated is None or stated == 0:
            return False
        beside = {a for f in self.stated if f is not fact and f.group == "money" and (a := amount(f)) is not None}
        pool = {*self._added(), *beside} - {Decimal(0)}
        # one pass with set lookups, not every pair: a long run states many amounts
        if any((stated - a in pool and stated - a != a) or a + stated in pool for a in pool):
            return True
        counts = {n for f in self.stated if f.group == "number" and (n := _count(f)) is not None}
        return any(stated / n in pool for n in counts)

    def _answered_since(self, about: list[Record], fact: Fact) -> bool:
        """Whether a single record (no item of a list) of the answer just before the reply, a later answer than the
        records the sentence names, holds the fact (the cart's total after the menu's item): the reply reports it.
        Another item of the named record's own list does not vouch for it."""
        if self.spoke_since or not self.latest_records:
            return False
        latest = self.latest_records[0].step.index
        return all(r.step.index != latest for r in about) and any(
            not r.listed and _holds(r, fact) for r in self.latest_records
        )

    def _other_quantity(self, fact: Fact, record: Record) -> bool:
        """Whether the reply states every value of the fact's kind the record holds (``AA 211 is $189 ... insurance
        for $24``): then another value of that kind is about another quantity, not in place of the record's."""
        held = record.fields.get(fact.group, [])
        return bool(held) and all(
            any(f is not fact and (agree(known, f) or agree(f, known)) for f in self.stated) for _, _, known in held
        )

    def _invented(self, step: Step | None, where: str, text: str) -> None:
        """A code or a numbered name a statement of the reply gives that nothing the trace stated before holds, in
        any spelling: an object no tool reported (``result_use.unsupported_value``, ``codes``). A name a
        contradiction at this step already cites (``1030 2nd Street`` for the record's address) is not told again."""
        at = step.index if step else None
        cited = [f.text for s, f in self.reported if s == at]
        names = [
            (sentence, name)
            for sentence, name in self.codes.unnamed(text, self._counted)
            if not any(name.text in told or told in name.text for told in cited)
        ]
        for sentence, fact in [*self.codes.invented(text, self.grounded), *names]:
            evidence: dict[str, JsonValue] = {"stated": fact.text, "reply": clip(sentence)}
            if self.latest_records:
                evidence["observation"] = cite(self.latest_records[0].step)
            message = (
                f"{where} says {fact.text!r}, which no tool reported and neither the user nor a call gave: "
                "an object the answers do not hold"
            )
            self._add(step, "result_use.unsupported_value", message, evidence, FindingMethod.RULE)

    def _report(self, step: Step | None, where: str, sentence: str, fact: Fact, record: Record) -> None:
        if (step.index if step else None, fact) in self.reported or self._other_quantity(fact, record):
            return
        if approximates(sentence, fact, record) or list_total(sentence, fact, self.answers.get(record.step.index, ())):
            return
        if fact.group == "money" and self._worked_out(fact):
            return
        self.reported.add((step.index if step else None, fact))
        held = record.fields[fact.group]
        observed = [f.text for _, _, f in held]
        message = (
            f"{where} says {fact.text!r}, but step {record.step.step_id} ({record.step.tool_name}) reported "
            f"{' / '.join(repr(t) for t in observed)} ({', '.join(dict.fromkeys(p for _, p, _ in held))})"
        )
        evidence: dict[str, JsonValue] = {
            "observation": cite(record.step, record.path),
            "observed": [clip(t) for t in observed],
            "stated": fact.text,
            "reply": clip(sentence),
        }
        self._add(step, _CONTRADICTS, message, evidence, FindingMethod.RULE)

    def _described(self, step: Step | None, where: str, text: str, failing: bool) -> None:
        """The record of the latest answer a reply describes, by the values and names it shares with it: a value
        of the reply that this record holds otherwise, that no other record sharing something with the reply
        holds and nothing said vouches for, contradicts it (``Air Canada ... departs at 5:35 PM ... $328`` against
        the Air Canada flight at 16:35 for $328)."""
        candidates = self.latest_records
        if not candidates:
            return
        stated = [
            (sentence, f)
            for sentence in sentences(text)
            if not (failing and "?" in sentence)
            for f in values_in(sentence)
            if f.group in COMPARED_GROUPS
        ]
        if len(stated) < 1:
            return
        words = set(ngrams(name_words(text)))
        scores = []
        for record in candidates:
            facts = sum(_holds(record, f) for _, f in stated)
            names = sum(name in words for name in set(record.names))
            scores.append((facts + names, facts, record))
        best = max(score for score, _, _ in scores)
        others = [r for score, _, r in scores if score > 0]
        # A record is described by two values or names it shares with the reply; in an answer of several, one
        # shared value picks the records that hold it (the buses at $28): a value of another kind that every one
        # of them holds otherwise, that no record of the answer holds and nothing stated vouches for, is in place
        # of theirs (``a bus at 8 am for $28`` when the $28 buses leave at 7, 9:10 and 11:50).
        picked = best < _DESCRIBED and len(candidates) > 1
        if best < 1 or (best < _DESCRIBED and not picked):
            return
        described = [(r, facts) for score, facts, r in scores if score == best] if not picked else []
        for sentence, fact in stated:
            if any(_holds(r, fact) for r in (candidates if picked else others)) or self._said(fact):
                continue
            if any(_holds(r, fact) for r in self.names.named(sentence)):
                continue  # a value of a record the sentence names (another flight of an earlier search)
            if picked:
                if self.known.agrees(fact):
                    continue
                if all(fact.group in r.fields for r in others):
                    described = [(r, 0) for r in others]
            about = [
                r for r, _ in described if fact.group in r.fields and not derived(fact, r, fact.group, self._added())
            ]
            if about:
                nearest = _nearest([r for r in candidates if fact.group in r.fields], sentence, fact)
                if nearest is not None and _holds(nearest, fact):
                    continue  # the record the clause names holds it
                self._report(step, where, sentence, fact, nearest or about[0])

    # --- arguments -----------------------------------------------------------------------------------------

    def arguments(self, step: Step) -> None:
        self.checked += 1
        self.findings += changed_identifiers(step, self.keyed, self.grounded, self.ctx.values, _CONTRADICTS)


_CLAUSE = re.compile(r"[,;]\s*(?:and\s+)?|\s+and\s+")


def _nearest(records: list[Record], sentence: str, fact: Fact) -> Record | None:
    """The only record whose title has a word of the fact's clause that the other records' titles lack (``a meeting
    with Bob at 1 pm``: ``Bob-Hugo`` of ``Hugo-Alice``, ``Bob-Hugo``, ``Tracy-Hugo``); ``None`` when none or
    several."""
    clause = next((c for c in _CLAUSE.split(sentence) if fact.text in c), sentence)
    words = set(name_words(clause))
    titles = [{w for t in r.titles for w in t.split()} for r in records]
    shared = set.intersection(*titles) if len(titles) > 1 else set()
    found = [r for r, t in zip(records, titles, strict=True) if (t - shared) & words]
    return found[0] if len(found) == 1 else None


def _countered(record: Record, kind: str) -> bool:
    """Whether the record answers a value of ``kind`` other than the one its call asked for under the same key
    (``time: 11:30`` for a call with ``time: 11:00``): the tool's counter-offer, which a reply offering another
    value in its place contradicts. A value the call asked for (the slot that is taken) leaves the agent free to
    propose any other."""
    asked = record.step.arguments
    for key, _, fact in record.fields.get(kind, []):
        wanted = asked.get(key)
        if isinstance(wanted, (str, int, float)) and not isinstance(wanted, bool):
            said = [f for f in values_in(str(wanted)) if f.group == kind]
            if said and not any(agree(f, fact) or agree(fact, f) for f in said):
                return True
    return False


def _applies(trace: Trace, env: Environment) -> bool:
    """Whether a reply or call follows an observation, or the trace (with tools) has a reply at all."""
    seen = False
    for step in trace.steps:
        if seen and step.action_type in (ActionType.RESPONSE, ActionType.TOOL_CALL):
            return True
        seen = seen or (step.action_type is ActionType.TOOL_CALL and step.observation is not None)
    if seen and bool(trace.final_response):
        return True
    tools = bool(trace.tool_calls()) or bool(env.tools)
    return tools and (bool(trace.final_response) or any(s.action_type is ActionType.RESPONSE for s in trace.steps))


def check_result_use(trace: Trace, env: Environment, ctx: TraceContext) -> DimensionVerdict:
    """Replies and later arguments against earlier observations (see the module docstring)."""
    if not _applies(trace, env):
        return not_applicable(Dimension.RESULT_USE, "no reply or call follows a tool observation")
    reader = _Reader(trace, env, ctx)
    replies_seen: set[str] = set()
    for step in trace.steps:
        if step.action_type is ActionType.USER and step.content:
            reader.user(step.content)
            reader.turns.append(step)
        elif step.action_type is ActionType.RESPONSE and step.content:
            reader.reply(step, step.content)
            reader.turns.append(step)
            replies_seen.add(step.content)
        elif step.action_type is ActionType.TOOL_CALL:
            if step.arguments and reader.keyed:
                reader.arguments(step)
            reader.observe(step)
    if trace.final_response and trace.final_response not in replies_seen:
        reader.reply(None, trace.final_response)
    findings = tuple(reader.findings)
    checked = f"{reader.checked} later reply/call(s) against the observations before them"
    return DimensionVerdict(Dimension.RESULT_USE, not findings, findings, checked, "", tuple(reader.undecided))


__all__ = ["POLARITY", "Concept", "check_result_use"]
