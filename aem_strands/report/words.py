"""The root cause in words, the order of dialogs (failing first), the one-line headline of a run, and a record's
value of a ``--by`` field (``field_value``, ordered by ``natural_key``).

Everything here reads the JSON form of a dialog result (``DialogResult.to_dict()``, as written by
``aem-strands score`` or kept in a Strands Evals row's metadata), so the text table, the HTML
report and a reloaded file all say the same thing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

Record = Mapping[str, Any]
"""One dialog result in its JSON form (``DialogResult.to_dict()``)."""

NONE_VALUE = "(none)"


def field_value(record: Record, field: str) -> str:
    """The record's ``metadata[field]`` (or top-level ``field``) as text; ``(none)`` when absent."""
    metadata = record.get("metadata") or {}
    value = metadata.get(field, record.get(field))
    return NONE_VALUE if value is None else str(value)


def natural_key(text: str) -> tuple[Any, ...]:
    """Order ``v2`` before ``v10`` and ``1.9`` before ``1.10``; ``(none)`` last."""
    parts = re.split(r"(\d+)", text)
    return (text == NONE_VALUE, tuple((0, int(p)) if p.isdigit() else (1, p) for p in parts))


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``1 dialog``, ``2 dialogs``, ``0 dialogs`` (``plural`` where adding ``s`` is wrong: ``entry``/``entries``)."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def _value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _subject(turn: Record) -> str:
    """Who did it: the tool action when the record names it (``action``), else the turn's kind."""
    action = turn.get("action")
    if isinstance(action, str) and action:
        return action
    return "the reply" if turn.get("kind") == "response" else "the call"


def problem_in_words(turn: Record) -> str:
    """What went wrong in a failed turn, from its first (primary) problem, e.g.
    ``FilterData used metric 'profit' where 'revenue' was due``."""
    problems = turn.get("problems") or []
    if not problems:
        return str(turn.get("own_reason") or turn.get("failure_reason") or "failed")
    p = problems[0]
    reason, field = p.get("reason"), str(p.get("field", ""))
    name = field.removeprefix("args.")
    gold, predicted, subject = p.get("gold"), p.get("predicted"), _subject(turn)
    if p.get("method") == "facts" and p.get("detail"):
        return f"{subject}: {p['detail']}"
    if reason == "inconsistent_parameter_values":
        return f"{subject} used {name} {_value(predicted)} where {_value(gold)} was due"
    if reason == "missing_parameters":
        return f"{subject} left out {name} (gold {_value(gold)})"
    if reason == "extra_parameters":
        return f"{subject} added {name} {_value(predicted)}, which gold does not have"
    if reason == "tool_mismatch":
        return f"the agent used {_value(predicted)} where {_value(gold)} was due"
    if reason == "action_mismatch":
        return f"the agent called {_value(predicted)} where {_value(gold)} was due"
    if reason == "missing_turn":
        return f"the agent skipped {_value(gold)}"
    if reason == "extra_turn":
        return f"the agent made an extra {_value(predicted)}"
    if reason == "inconsistent_response":
        return f"the reply said {_value(predicted)} where gold said {_value(gold)}"
    if reason == "incomplete_response":
        return f"the reply left out what gold says: {_value(gold)}"
    return f"{reason}: {field} {_value(predicted)} vs {_value(gold)}"


def inherited_from(record: Record, root_turn_no: int) -> int:
    """How many failed turns of the dialog cascade from the root cause at ``root_turn_no``."""
    return sum(
        1 for t in record.get("turns") or () if t.get("role") == "cascade" and t.get("caused_by") == root_turn_no
    )


def root_turns(record: Record) -> list[Record]:
    """The dialog's root-cause turns, in turn order."""
    return [t for t in record.get("turns") or () if t.get("role") == "root_cause"]


def root_cause_in_words(record: Record, root: Record | None = None) -> str:
    """``turn 2: FilterData used metric 'profit' where 'revenue' was due; 3 later turns inherited it``
    for ``root`` (default: the dialog's first root cause); a passing dialog says so."""
    roots = root_turns(record)
    root = root if root is not None else (roots[0] if roots else None)
    if root is None:
        if record.get("test_pass"):
            return "every judged turn passes"
        return str(record.get("reason") or "fails without a root cause")
    n = inherited_from(record, int(root["turn_no"]))
    inherited = "no later turn inherited it" if n == 0 else f"{counted(n, 'later turn')} inherited it"
    return f"turn {root['turn_no']}: {problem_in_words(root)}; {inherited}"


def counterfactual(record: Record) -> Mapping[str, Any] | None:
    """The counterfactual replay a record carries (``counterfactual``, from the row's metadata, or the case's
    ``metadata.counterfactual``), or ``None``."""
    metadata = record.get("metadata")
    carried = metadata.get("counterfactual") if isinstance(metadata, Mapping) else None
    for found in (record.get("counterfactual"), carried):
        if isinstance(found, Mapping) and isinstance(found.get("outcome"), str):
            return found
    return None


def roots_in_words(record: Record) -> list[str]:
    """``root_cause_in_words`` for each root cause (one line for a dialog without one); where the dialog's
    counterfactual replay corrected a root cause (``step`` is its turn number; else the first), its outcome
    follows: ``...; counterfactual replay: fixed``."""
    roots = root_turns(record)
    words = [root_cause_in_words(record, root) for root in roots] or [root_cause_in_words(record)]
    replay = counterfactual(record)
    if replay is not None:
        step = replay.get("step")
        where = next((i for i, root in enumerate(roots) if root.get("turn_no") == step), 0)
        words[where] += f"; counterfactual replay: {replay['outcome']}"
    return words


def failing_first_key(record: Record) -> tuple[int, float, int, str]:
    """Sort key of the dialog list: failing dialogs first, lowest score, most failed turns, then id."""
    score = record.get("score")
    return (
        1 if record.get("test_pass") else 0,
        score if isinstance(score, (int, float)) else 2.0,  # not scored: after every scored dialog
        -int(record.get("total_failures") or 0),
        str(record.get("dialog_id")),
    )


def ordered(records: Iterable[Record]) -> list[Record]:
    """``records`` failing first (see ``failing_first_key``)."""
    return sorted(records, key=failing_first_key)


class HeadlineTally:
    """The headline over records added one at a time: counts, and the first failing dialog (by
    ``failing_first_key``); only that one record is kept."""

    def __init__(self) -> None:
        self.dialogs = self.failing = self.roots = self.cascades = 0
        self._first: tuple[tuple[int, float, int, str], Record] | None = None

    def add(self, record: Record) -> None:
        self.dialogs += 1
        self.roots += int(record.get("root_cause_count") or 0)
        self.cascades += int(record.get("cascading_count") or 0)
        if record.get("test_pass"):
            return
        self.failing += 1
        key = failing_first_key(record)
        if self._first is None or key < self._first[0]:
            self._first = (key, record)

    def text(self) -> str:
        """See ``headline``."""
        if not self.dialogs:
            return "no dialogs scored"
        if self._first is None:
            return "the one dialog passes" if self.dialogs == 1 else f"all {counted(self.dialogs, 'dialog')} pass"
        first = self._first[1]
        return (
            f"{self.failing} of {counted(self.dialogs, 'dialog')} {'fails' if self.failing == 1 else 'fail'}: "
            f"{counted(self.roots, 'root cause')}, {counted(self.cascades, 'inherited failure')}. "
            f"First: {first.get('dialog_id')} {root_cause_in_words(first)}"
        )


def headline(results: Iterable[Any]) -> str:
    """One line for the top of the HTML report and of ``--format table``.

    ``results`` are ``DialogResult`` objects or their JSON records. E.g. ``2 of 3 dialogs fail:
    3 root causes, 5 inherited failures. First: sales_report turn 2: ...; 3 later turns inherited it``.
    """
    tally = HeadlineTally()
    for result in results:
        tally.add(result if isinstance(result, Mapping) else result.to_dict())
    return tally.text()
