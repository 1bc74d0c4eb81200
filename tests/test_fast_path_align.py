"""The settled alignment (``align.align_settled``) against the DP it short-cuts: on the diagonal (equal lengths,
diagonal cost under 2, nothing optional, tolerated or grouped) it gives the DP's alignment, field for field, and
says exactly which turns are identical to gold; anywhere else it is the DP's. Through the pipeline, an unpaired
dialog scores the same whether the identical turns come from aligning or are found again."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands import evaluate_dialogs
from aem_strands.align import AlignOptions, _aligned, align_settled, identical_turn
from aem_strands.types import ActionCall, Reply, Turn, TurnContent, TurnKind
from aem_strands.unpaired import parse_unpaired

CONTENTS: list[TurnContent] = [
    ActionCall("hotels", "Search", {"city": "Paris", "stars": 4}),
    ActionCall("hotels", "Search", {"city": "Paris", "stars": 4.0}),  # equal by ==, not identical
    ActionCall("hotels", "Search", {"city": "paris "}),
    ActionCall("hotels", "Book", {"id": "h1"}, observation={"error": "full"}),
    ActionCall("hotels", "Book", {"id": "h1"}),
    ActionCall("mail", "Send", {}),
    Reply("Your hotel in Paris is booked."),
    Reply("The hotel in Paris is booked!"),
    Reply("Which city?"),
]


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[Turn], list[TurnContent], AlignOptions]:
    indexes = draw(st.lists(st.integers(0, len(CONTENTS) - 1), max_size=8))
    gold = []
    for number, index in enumerate(indexes, start=1):
        content = CONTENTS[index]
        kind = TurnKind.ACTION if isinstance(content, ActionCall) else TurnKind.RESPONSE
        rare = draw(st.integers(0, 14))
        depends = (number - 1,) if number > 1 and draw(st.booleans()) else ()
        gold.append(
            Turn(
                number, kind, content, None, tags=("OrderInvariant_g",) if rare == 0 else (), depends_on=depends,
                optional=rare == 1, latency_ms=draw(st.sampled_from([None, 3.0])),
            )
        )  # fmt: skip
    predicted: list[TurnContent] = [t.gold for t in gold if t.gold is not None]
    for _ in range(draw(st.integers(0, 4))):  # substitutions mostly: the diagonal, with its cost up to 2 and past it
        at = draw(st.integers(0, max(len(predicted) - 1, 0)))
        edit = draw(st.sampled_from(["sub", "sub", "sub", "ins", "del"]))
        if edit == "ins" or not predicted:
            predicted.insert(at, draw(st.sampled_from(CONTENTS)))
        elif edit == "sub":
            predicted[at] = draw(st.sampled_from(CONTENTS))
        else:
            predicted.pop(at)
    options = AlignOptions(
        allow_extra=draw(st.sampled_from(["none", "none", "none", "all"])),
        scope=draw(st.sampled_from(["all", "all", "all", "actions"])),
    )
    return gold, predicted, options


@settings(max_examples=800)
@given(cases())
def test_the_settled_alignment_is_the_dps(case: tuple[list[Turn], list[TurnContent], AlignOptions]) -> None:
    gold, predicted, options = case
    fast, identical = align_settled(gold, predicted, options, dialog_id="d", metadata={"m": 1})
    reference = _aligned(gold, predicted, options, "d", {"m": 1})
    assert fast == reference
    assert repr(fast) == repr(reference)
    assert fast.to_dict() == reference.to_dict()
    if identical is not None:
        assert identical == [t.gold is not None and identical_turn(t.gold, t.predicted) for t in fast.dialog.turns]


def test_an_identical_dialog_settles_on_the_diagonal() -> None:
    gold = [Turn(i + 1, TurnKind.ACTION, c, None) for i, c in enumerate(CONTENTS[:5])]
    alignment, identical = align_settled(gold, [t.gold for t in gold if t.gold is not None])
    assert identical == [True] * 5
    assert alignment.cost == 0.0
    assert [(p.gold_index, p.predicted_index) for p in alignment.pairs] == [(i, i) for i in range(5)]


def test_numbers_equal_by_value_are_not_identical() -> None:
    """``4 == 4.0`` in Python, but the comparison chain tells them apart: the turn is not settled as identical."""
    gold = [Turn(1, TurnKind.ACTION, CONTENTS[0], None)]
    _, identical = align_settled(gold, [CONTENTS[1]])
    assert identical == [False]


turn_dicts = st.one_of(
    st.fixed_dictionaries({"turn": st.just("Agent"), "response": st.sampled_from(["Booked.", "Which city?", ""])}),
    st.fixed_dictionaries(
        {
            "turn": st.just("Tool"),
            "tool_id": st.sampled_from(["hotel", "mail"]),
            "action": st.sampled_from(["find", "book"]),
            "args": st.dictionaries(
                st.sampled_from(["city", "n"]), st.sampled_from(["Paris", "Rome", 2, 2.0, True]), max_size=2
            ),
        }
    ),
)


@settings(max_examples=150, deadline=None)
@given(gold=st.lists(turn_dicts, max_size=6), data=st.data())
def test_an_unpaired_dialog_scores_the_same_when_aligning_settles_it(gold: list[dict[str, Any]], data: Any) -> None:
    predicted = copy.deepcopy(gold)
    for _ in range(data.draw(st.integers(0, 2))):
        if predicted:
            predicted[data.draw(st.integers(0, len(predicted) - 1))] = data.draw(turn_dicts)
    raw = {"dialog_id": "d", "gold": gold, "predicted": predicted}
    settled = evaluate_dialogs([raw], scorer="exact")[0]
    found_again = evaluate_dialogs([parse_unpaired(raw).align()], scorer="exact")[0]  # a Dialog: nothing settled
    assert repr(settled.to_dict()) == repr(found_again.to_dict())
    if gold == predicted and all(type(v) is str for t in gold for v in t.get("args", {}).values()):
        assert all(t.verdict.problems == () for t in settled.turns)
        assert settled.test_pass
