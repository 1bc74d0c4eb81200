"""Dialog outcomes: nothing to judge passes; what could not be judged is inconclusive, never a pass (fail closed)."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence

from aem_strands import ValueKind, evaluate_dialog
from aem_strands.cli import EXIT_FAILURES, EXIT_INCONCLUSIVE, EXIT_OK, build_parser, exit_code
from aem_strands.types import Method
from tests.conftest import action, paired


class UnreachableScorer:
    """A semantic scorer that can never answer (as a judge without credentials): every score is ``None``."""

    name = "unreachable"
    method = Method.JUDGE

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        return [None] * len(pairs)


def _needs_the_scorer() -> list[dict[str, object]]:
    # 'revenue' vs 'turnover' is not settled by exact match or normalisation: only the scorer can decide.
    return [paired(1, action("reports", "Filter", metric="revenue"), action("reports", "Filter", metric="turnover"))]


def test_a_dialog_with_nothing_to_judge_passes_and_says_why() -> None:
    # Unpaired form: gold requires nothing; the agent's one call is a tolerated read-only lookup.
    lookup = {"turn": "Tool", "tool_id": "weather", "action": "get", "args": {"city": "Oslo"}}
    dialog = {"dialog_id": "empty", "gold": [], "predicted": [lookup]}
    result = evaluate_dialog(dialog, scorer="exact", allow_extra="read_only", read_only_tools=["weather"])
    assert (result.score, result.test_pass, result.status) == (1.0, True, "pass")
    assert result.reason() == "nothing to judge: no required turn, nothing missing, nothing extra"
    assert exit_code([result], [], io.StringIO()) == EXIT_OK


def test_a_turn_that_could_not_be_judged_makes_the_dialog_inconclusive() -> None:
    result = evaluate_dialog(_needs_the_scorer(), scorer=UnreachableScorer())
    assert result.turns[0].verdict.verdict.value == "not_applicable"
    assert (result.score, result.test_pass, result.status) == (None, False, "inconclusive")
    err = io.StringIO()
    assert exit_code([result], [], err) == EXIT_INCONCLUSIVE
    assert "1 dialog inconclusive" in err.getvalue()


def test_inconclusive_turns_never_let_other_passing_turns_pass_the_dialog() -> None:
    send = action("reports", "Send", to="a@b.c")
    turns = [*_needs_the_scorer(), paired(2, send, send)]
    for composer in ("mean", "weighted", "gated", "thresholds"):
        result = evaluate_dialog(turns, scorer=UnreachableScorer(), composer=composer)
        assert result.score == 1.0  # the one judged turn passes: 1/1
        assert (result.test_pass, result.status) == (False, "inconclusive"), composer


def test_a_failure_outranks_inconclusive_in_the_exit_code() -> None:
    failing = evaluate_dialog([paired(1, action("a", "X"), action("b", "X"))], scorer="exact")
    undecided = evaluate_dialog(_needs_the_scorer(), scorer=UnreachableScorer())
    assert failing.status == "fail"
    assert exit_code([failing, undecided], [], io.StringIO()) == EXIT_FAILURES


def test_help_lists_the_exit_codes() -> None:
    text = build_parser().format_help()
    assert "4  inconclusive" in text
    assert "2  bad input" in text


class _Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_score_shows_progress_on_a_terminal_and_none_when_piped(tmp_path: object) -> None:
    from pathlib import Path

    from aem_strands.cli import main

    assert isinstance(tmp_path, Path)
    data = tmp_path / "d.json"
    data.write_text(json.dumps([paired(1, action("t", "A", x=1), action("t", "A", x=1))]), encoding="utf-8")
    piped, terminal = io.StringIO(), _Terminal()
    assert main(["score", str(data), "--scorer", "exact", "--format", "jsonl"], stdout=io.StringIO(), stderr=piped) == 0
    assert (
        main(["score", str(data), "--scorer", "exact", "--format", "jsonl"], stdout=io.StringIO(), stderr=terminal) == 0
    )
    assert piped.getvalue() == ""
    assert "scored 1 dialog " in terminal.getvalue()  # the count reads "1 dialog" (issue 21)
