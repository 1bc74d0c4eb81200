"""Differential checks of the fast alignment: the banded DP (and the identical-sequence shortcut) gives the
same pairs and cost as the full DP, and the once-normalised ``match_cost`` the value the per-pair one gave."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.align import MISMATCH_COST, AlignOptions, _Aligner, _canon, match_cost
from aem_strands.compare.normalise import normalise_text
from aem_strands.types import ActionCall, Reply, Turn, TurnContent, TurnKind

CONTENTS: list[TurnContent] = [
    ActionCall("hotels", "Search", {"city": "Paris", "stars": 4}),
    ActionCall("hotels", "Search", {"city": "paris ", "stars": 4.0}),
    ActionCall("hotels", "Search", {"city": "Rome"}),
    ActionCall("hotels", "Book", {"id": "h1", "nights": 2}),
    ActionCall("hotels", "Book", {"id": "h2", "nights": 2}, compare_args=("id",)),
    ActionCall("mail", "Send", {}),
    Reply("Your hotel in Paris is booked."),
    Reply("The hotel in Paris is booked!"),
    Reply("Which city?"),
    Reply(""),
]


def _old_match_cost(gold: TurnContent, predicted: TurnContent) -> float:
    """``match_cost`` as it was before turns were normalised once (normalising inside every pair)."""
    if isinstance(gold, ActionCall) and isinstance(predicted, ActionCall):
        if gold.tool_id != predicted.tool_id or gold.action != predicted.action:
            return MISMATCH_COST
        gold_args, predicted_args = gold.compared_args(gold.args), gold.compared_args(predicted.args)
        keys = set(gold_args) | set(predicted_args)
        if not keys:
            return 0.0
        differing = sum(
            1
            for k in keys
            if k not in gold_args or k not in predicted_args or _canon(gold_args[k]) != _canon(predicted_args[k])
        )
        return 0.8 * differing / len(keys)
    if isinstance(gold, Reply) and isinstance(predicted, Reply):
        a, b = set(normalise_text(gold.response).split()), set(normalise_text(predicted.response).split())
        overlap = len(a & b) / len(a | b) if a | b else 1.0
        return 0.5 * (1.0 - overlap)
    return MISMATCH_COST


@given(st.sampled_from(CONTENTS), st.sampled_from(CONTENTS))
def test_match_cost_is_the_per_pair_one(gold: TurnContent, predicted: TurnContent) -> None:
    assert match_cost(gold, predicted) == _old_match_cost(gold, predicted)


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[Turn], list[TurnContent], AlignOptions]:
    indexes = draw(st.lists(st.integers(0, len(CONTENTS) - 1), min_size=0, max_size=9))
    gold = []
    for number, index in enumerate(indexes, start=1):
        content = CONTENTS[index]
        tags = ("OrderInvariant_g",) if draw(st.integers(0, 3)) == 0 else ()
        kind = TurnKind.ACTION if isinstance(content, ActionCall) else TurnKind.RESPONSE
        gold.append(Turn(number, kind, content, None, tags=tags, optional=draw(st.integers(0, 9)) == 0))
    predicted = [t.gold for t in gold if t.gold is not None]
    # Mostly-agreeing predictions: a few substitutions, insertions, deletions and swaps of the gold sequence.
    for _ in range(draw(st.integers(0, 3))):
        edit = draw(st.sampled_from(["sub", "ins", "del", "swap"]))
        at = draw(st.integers(0, max(len(predicted) - 1, 0)))
        if edit == "ins" or not predicted:
            predicted.insert(at, draw(st.sampled_from(CONTENTS)))
        elif edit == "sub":
            predicted[at] = draw(st.sampled_from(CONTENTS))
        elif edit == "del":
            predicted.pop(at)
        elif at + 1 < len(predicted):
            predicted[at], predicted[at + 1] = predicted[at + 1], predicted[at]
    allow = draw(st.sampled_from(["none", "none", "all"]))
    return gold, predicted, AlignOptions(allow_extra=allow)


@settings(max_examples=600)
@given(cases())
def test_banded_alignment_is_the_full_one(case: tuple[list[Turn], list[Any], AlignOptions]) -> None:
    gold, predicted, options = case
    fast = _Aligner(gold, predicted, options).solve()
    full = _Aligner(gold, predicted, options, banded=False).solve()
    assert fast == full


def test_identical_sequences_settle_on_the_diagonal_without_the_dp() -> None:
    gold = [Turn(i + 1, TurnKind.ACTION, c, None) for i, c in enumerate(CONTENTS[:6])]
    aligner = _Aligner(gold, [t.gold for t in gold if t.gold is not None], AlignOptions())
    assert aligner.band == 0
    assert aligner.solve() == (0.0, [(i, i) for i in range(6)])
    assert len(aligner._costs) == 6  # only the diagonal was costed (6 pairs, not 36)
