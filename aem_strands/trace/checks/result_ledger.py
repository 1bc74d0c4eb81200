"""Result use's ledger: what the tools, the user and the agent have stated so far in a trace read in order, the
reference the result use rules (``result_use``) read each reply and later call against.

It keeps the observations' records (``observed.records``) with their facts bucketed by kind (``KnownFacts``), a later
observation of a record's field replacing what earlier ones said of it; the records' names and identifiers
(``naming.RecordNames``); the polar values of the concepts of ``polarity.POLARITY``, the latest standing; the codes
stated and observed (``codes.StatedCodes``); what the user, the calls' arguments and the replies stated (values,
numbers, amounts that may be added to a record's: a tip), read lazily when a rule first asks; the lengths of the
lists tools answered (what a reply may count with); the calls and turns so far and the records of the latest
successful write call's answer. Whether the user spoke since the latest observation is kept too: a reply then may be
about something else.
"""

from __future__ import annotations

import re
from decimal import Decimal

from aem_strands.compare.fact_match import amount
from aem_strands.compare.identifiers import identifier_key
from aem_strands.compare.reply_signals import Fact, values_in
from aem_strands.compare.walk import json_leaves
from aem_strands.trace.checks.amounts import lengths, number
from aem_strands.trace.checks.codes import StatedCodes, token_keys
from aem_strands.trace.checks.failures import failure
from aem_strands.trace.checks.identifier_arguments import IDENTIFIER_ARGUMENT
from aem_strands.trace.checks.naming import RecordNames
from aem_strands.trace.checks.observed import (
    COMPARED_GROUPS,
    KnownFacts,
    ObservedValue,
    Record,
    observed_values,
    records,
)
from aem_strands.trace.checks.outcomes import is_write
from aem_strands.trace.checks.polarity import concept_polarity
from aem_strands.trace.checks.rulings import CLIP
from aem_strands.trace.types import Environment, Step, Trace
from aem_strands.types import JsonValue

_ORDINAL = re.compile(r"\d(?:st|nd|rd|th)$", re.I)
"""A day of the month said alone (``the 8th``): no amount, and no hour of a clock time."""

_NUMBER = re.compile(r"-?\d{1,12}(?:\.\d{1,6})?")
"""A call's argument read as an amount it gives (``tip: 2``): an ordinary number, not a code of many digits."""


_LARGEST = 10**12


def _given(value: str | int | float) -> Decimal | None:
    """The amount a call's argument gives (see ``_NUMBER``), ``None`` for other values."""
    if isinstance(value, int) and not -_LARGEST < value < _LARGEST:
        return None  # no amount; and a huge int is costly (or refused) to write out
    text = value if isinstance(value, str) else repr(value) if isinstance(value, float) else str(value)
    return Decimal(text) if len(text) <= 20 and _NUMBER.fullmatch(text) else None


def _failed(step: Step) -> bool:
    return failure(step) is not None


class Ledger:
    """What the tools, the user and the agent have stated so far in a trace read in order: the reference the result
    use rules (``result_use``) read each reply and later call against (see the module docstring)."""

    def __init__(self, trace: Trace, env: Environment) -> None:
        self.env = env
        self.polar: dict[str, tuple[ObservedValue, bool]] = {}
        self.known = KnownFacts()
        self.said = KnownFacts()
        """What the user, the agent's instructions, the calls' arguments and the agent's replies stated (``known``:
        what tools reported)."""
        self.slots: dict[tuple[frozenset[str], str], list[Fact]] = {}
        self.names = RecordNames()
        self.latest_of_kind: dict[str, list[Record]] = {}
        self.keyed: dict[str, tuple[Record, str, JsonValue]] = {}
        self.grounded: set[str] = set()
        self.calls: list[Step] = []
        self.turns: list[Step] = []
        """The user and agent turns read so far, in order (whose the latest request or agreement is)."""
        self.last_write: list[Record] = []
        self.latest_records: list[Record] = []
        self.spoke_since = False
        """Whether the user spoke after the latest observation: a reply then may be about something else."""
        self.codes = StatedCodes()
        self.counts: set[str] = set()
        """Numbers the user, a call or a reply stated, and the lengths of the lists tools answered: what a reply
        counts with (``3 Psychologist offices``, ``1 Economy class ticket``)."""
        self.listed: list[JsonValue] = []
        """Observations whose lists' lengths are not yet in ``counts`` (read when a reply may count with one)."""
        self.answers: dict[int, list[Record]] = {}
        """The records of each observation, by its step's index."""
        self.added: set[Decimal] = set()
        """Amounts the user, a call's arguments or a reply gave (a tip): what a reply may add to a record's amount."""
        self.observed = False
        self.unread: list[str] = []
        """Texts stated whose facts are not yet in ``said``, ``counts`` and ``added``: read, in order, when a rule
        first asks one of them (most replies state no value that a record they name does not hold)."""
        if trace.goal:
            self.user(trace.goal)
        if trace.instructions:
            self._state(trace.instructions)  # what the agent was told (a policy's fees) vouches as a user's words do

    # --- what was stated ------------------------------------------------------------------------------------

    def _state(self, text: str) -> None:
        self.unread.append(text)
        self.grounded.update(token_keys(text).written)
        self.codes.state(text)

    def _read_stated(self) -> None:
        """Reads the texts stated so far into ``said``, ``counts`` and ``added`` (see ``unread``)."""
        for text in self.unread:
            self._read(text)
        self.unread.clear()

    def _said(self, fact: Fact) -> bool:
        """Whether the user, a call or an earlier reply stated a value that agrees with ``fact``."""
        self._read_stated()
        return self.said.agrees(fact)

    def _added(self) -> set[Decimal]:
        """``added``, with every text stated so far read."""
        self._read_stated()
        return self.added

    def _read(self, text: str) -> None:
        for fact in values_in(text):
            if fact.group in COMPARED_GROUPS or (fact.group == "number" and not _ORDINAL.search(fact.text)):
                self.said.add(fact)
            if fact.group == "number":
                self.counts.add(fact.key)
            elif fact.group == "money" and (given := amount(fact)) is not None:
                self.added.add(given)

    def user(self, text: str) -> None:
        self._state(text)
        self.spoke_since = True

    def observe(self, step: Step) -> None:
        self.calls.append(step)
        for _, value in json_leaves(dict(step.arguments)):
            if isinstance(value, str):
                self._state(value)
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                self.grounded.add(identifier_key(str(value)))
                given = _given(value)
                if given is not None:
                    self.added.add(given)
        if step.observation is None or step.error is not None:
            return
        if isinstance(step.observation, (int, float)) and not isinstance(step.observation, bool):
            # a tool's computed number (``calculate``: 329.0) is stated as given, as a call's argument is
            self.added.add(Decimal(str(step.observation)))
        self.observed = True
        self.listed.append(step.observation)
        for observed in observed_values(step):
            self.codes.observe(observed.value)
            if isinstance(observed.value, (str, int)) and not isinstance(observed.value, bool):
                # any observed value counts as given, an item of a list of ids too (the user's reservations)
                self.grounded.add(identifier_key(str(observed.value)))
            polar = concept_polarity(observed.path, observed.value)
            if polar is not None:
                self.polar[polar[0].name] = (observed, polar[1])
        of_kind: dict[str, list[Record]] = {}
        fresh: dict[tuple[frozenset[str], str], list[Fact]] = {}
        found = list(records(step))
        self.answers[step.index] = found
        for record in found:
            self._record(record, of_kind, fresh)
        for slot, facts in fresh.items():
            # a later observation of a record's field replaces what earlier ones said of it
            for old in self.slots.get(slot, []):
                self.known.remove(old)
            self.slots[slot] = facts
        self.latest_of_kind.update(of_kind)
        if of_kind:
            self.latest_records = [r for r in found if r.fields]
        self.spoke_since = False
        if is_write(step, self.env) and not _failed(step):
            self.last_write = found

    def _record(
        self, record: Record, of_kind: dict[str, list[Record]], fresh: dict[tuple[frozenset[str], str], list[Fact]]
    ) -> None:
        for kind, held in record.fields.items():
            of_kind.setdefault(kind, []).append(record)
            for key, _, fact in held:
                slot = record.slot(key)
                if slot is not None:
                    fresh.setdefault(slot, []).append(fact)
                self.known.add(fact)
        self.names.add(record)
        for key, (path, value) in record.values.items():
            if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                continue
            text = str(value)
            shown = identifier_key(text)
            self.grounded.add(shown)
            if IDENTIFIER_ARGUMENT.search(key):
                self.names.add_identifier(shown, record)
                if not record.listed:
                    self.keyed[key] = (record, path, value)
            for fact in values_in(text) if len(text) <= CLIP else ():
                if fact.group == "number":
                    self.known.add(fact)  # a bare number agrees with the same amount said with a unit

    def _counted(self, word: str) -> bool:
        """Whether a number was stated as a number or is a list's length (``3 Psychologist offices``)."""
        self._read_stated()
        for observation in self.listed:
            self.counts.update(lengths(observation))
        self.listed.clear()
        return bool(number(word) & self.counts)


__all__ = ["Ledger"]
