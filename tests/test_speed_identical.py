"""The identical-pair fast path: ``check_turn`` settles a turn whose prediction is identical to gold without
comparisons or fact checks. Proven here against the full checks it skips: an identical pair can never
produce a finding, and its verdict is the one the full path gives."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.align import identical_turn, same_json
from aem_strands.checks import NO_CONTEXT, _check_action, _check_reply, check_turn, comparison_requests
from aem_strands.compare.chain import Comparator
from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.scorers import ExactScorer
from aem_strands.types import ActionCall, Reply, Turn, TurnKind, Verdict
from tests.conftest import EXTERNAL_DATA

# Words that trigger every fact family: numbers, money, times, dates, states, negation, questions, entities.
FACT_WORDS = [
    "3", "42.5", "$20", "7 pm", "Monday", "March 3rd", "2024", "not", "no", "on", "off", "open", "closed",
    "up", "down", "50%", "New York", "Paris", "Sorry,", "Which", "city?", "would", "you", "like", "the",
    "reservation", "is", "confirmed", "4.2 million", "isn't", "don't", "two", "first", "and", "at", "?", ".",
]  # fmt: skip

texts = st.one_of(
    st.lists(st.sampled_from(FACT_WORDS), max_size=14).map(" ".join),
    st.text(max_size=40),
)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.floats(allow_nan=True, allow_infinity=True), texts
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=8,
)


def _full(turn: Turn) -> Any:
    """The verdict of the full checks (what the fast path skips), with the model-free comparator."""
    compare = Comparator(ExactScorer()).compare_request
    if isinstance(turn.gold, ActionCall) and isinstance(turn.predicted, ActionCall):
        return _check_action(turn, turn.gold, turn.predicted, compare, NO_CONTEXT)
    assert isinstance(turn.gold, Reply)
    assert isinstance(turn.predicted, Reply)
    return _check_reply(turn, turn.gold, turn.predicted, compare, NO_CONTEXT)


def _fast(turn: Turn) -> Any:
    """The fast path's verdict, checked to record its one decision (identical to gold), then without it: the
    full path records a decision per compared value instead, and everything else must be the same."""
    verdict = check_turn(turn, Comparator(ExactScorer()).compare_request)
    if not identical_turn(turn.gold, turn.predicted):  # a non-finite number: the full path judged it
        return verdict
    assert [(d.field, d.equivalent, d.detail) for d in verdict.decisions] == [("turn", True, "identical to gold")]
    return replace(verdict, decisions=())


@settings(max_examples=300)
@given(text=texts)
def test_identical_reply_never_has_a_finding(text: str) -> None:
    facts = check_reply_facts(text, text)
    assert facts.findings == ()
    assert facts.coverage == 1.0
    turn = Turn(1, TurnKind.RESPONSE, Reply(text), Reply(text))
    full = _full(turn)
    assert full.verdict is Verdict.PASS
    assert full.problems == ()
    assert _fast(turn) == replace(full, decisions=())


@settings(max_examples=300)
@given(args=st.dictionaries(st.text(max_size=8), json_values, max_size=4))
def test_identical_call_verdict_is_the_full_one(args: dict[str, Any]) -> None:
    copy = json.loads(json.dumps(args))  # equal values, distinct objects
    turn = Turn(1, TurnKind.ACTION, ActionCall("t", "a", args), ActionCall("t", "a", copy))
    full = _full(turn)
    assert _fast(turn) == (replace(full, decisions=()) if same_json(args, copy) else full)
    finite = same_json(args, copy)
    # Only a non-finite number keeps an identical-looking call from passing (the chain fails it closed).
    assert (full.verdict is Verdict.PASS) or not finite
    if finite:
        assert comparison_requests(turn) == []  # settled without asking the comparator anything


@given(gold=json_values, predicted=json_values)
def test_same_json_means_exact_match(gold: Any, predicted: Any) -> None:
    """``same_json`` implies the chain's exact match (never the reverse claim for non-finite numbers)."""
    if same_json(gold, predicted):
        outcome = Comparator(ExactScorer()).compare(gold, predicted)
        assert outcome.equivalent is True
        assert outcome.score == 1.0


def test_same_json_distinguishes_json_types() -> None:
    assert not same_json(1, 1.0)  # json writes 1 and 1.0: the chain does not call them an exact match
    assert not same_json(1, True)
    assert not same_json(math.inf, math.inf)
    assert same_json({"a": [1, "x"], "b": None}, {"b": None, "a": [1, "x"]})


@pytest.mark.skipif(not (EXTERNAL_DATA / "sgd").is_dir(), reason="SGD data not present (../shared/external_data)")
def test_identical_sgd_replies_have_no_finding() -> None:
    from aem_bench import load_sgd_dialogs

    dialogs = load_sgd_dialogs(EXTERNAL_DATA / "sgd", 300)
    replies = sorted({t.gold.response for d in dialogs for t in d.turns if isinstance(t.gold, Reply)})
    for text in random.Random(0).sample(replies, min(400, len(replies))):
        facts = check_reply_facts(text, text)
        assert (facts.findings, facts.coverage) == ((), 1.0), text


finite_values = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.floats(allow_nan=False, allow_infinity=False), texts
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=8,
)
turn_objects = st.one_of(
    st.builds(lambda text: {"turn": "Agent", "response": text}, texts),
    st.builds(
        lambda tool, args: {"turn": "Tool", "tool_id": tool, "action": "run", "args": args},
        st.sampled_from(["search", "book"]),
        st.dictionaries(st.text(max_size=6), finite_values, max_size=4),
    ),
)


@settings(max_examples=150, deadline=None)
@given(gold=st.lists(turn_objects, max_size=8))
def test_an_identical_unpaired_dialog_never_has_a_finding(gold: list[dict[str, Any]]) -> None:
    # The whole path (load, align, judge, attribute, compose): a copy of gold aligns turn for turn and every turn
    # is settled as identical, with no problem, whatever the replies and arguments hold.
    from aem_strands import evaluate_dialog

    predicted = json.loads(json.dumps(gold))
    result = evaluate_dialog({"dialog_id": "d", "gold": gold, "predicted": predicted}, scorer="exact")
    assert result.status == "pass"
    assert [t.verdict.problems for t in result.turns] == [()] * len(gold)
    assert all(t.verdict.decisions[0].detail == "identical to gold" for t in result.turns)
    assert [(p.gold_index, p.predicted_index) for p in _pairs(result)] == [(i, i) for i in range(len(gold))]


def _pairs(result: Any) -> list[Any]:
    from aem_strands.align import AlignedPair

    return [AlignedPair(**p) for p in result.metadata["alignment"]["pairs"]]


@given(
    values=st.dictionaries(st.text(max_size=4), st.one_of(texts, st.integers(0, 2), st.booleans()), max_size=4),
    data=st.data(),
)
def test_same_json_of_flat_maps_matches_its_definition(values: dict[str, Any], data: st.DataObject) -> None:
    # The flat string map shortcut (compared in C) must agree with comparing value by value, types included.
    other = {k: data.draw(st.sampled_from([v, str(v), 1 if v is True else v])) for k, v in values.items()}
    expected = values.keys() == other.keys() and all(
        type(v) is type(other[k]) and v == other[k] for k, v in values.items()
    )
    assert same_json(values, other) == expected
