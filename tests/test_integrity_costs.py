"""Issue 21, cost that grows faster than the input: the near-linear paths give what the quadratic ones gave,
and inputs beyond a documented limit get the documented, fail-closed answer. Timings live in
``benchmarks/quadratic_costs.py``, never here."""

from __future__ import annotations

import io
import itertools
import json
import math
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands import Comparator, TableScorer, parse_dialog
from aem_strands.align import MAX_ALIGN_CELLS, AlignOptions, _Aligner
from aem_strands.checks import check_turn
from aem_strands.compare import facts as facts_module
from aem_strands.compare.fact_match import agree, match_facts
from aem_strands.compare.facts import MAX_DIFF_WORDS, check_reply_facts
from aem_strands.compare.reply_signals import Fact
from aem_strands.errors import InputError
from aem_strands.order import JudgeFn, assign, candidate_pairings, order_groups, reorder
from aem_strands.order import _cost as order_cost
from aem_strands.types import ActionCall, FailureReason, Turn, TurnContent, TurnKind, TurnVerdict
from aem_strands.unpaired import parse_unpaired
from tests.conftest import action, paired, reply
from tests.test_speed_align import CONTENTS

# --- reply facts -------------------------------------------------------------------------------------------------


def _pairing_by_scan(gold: list[Fact], predicted: list[Fact]) -> tuple[list[Fact], list[Fact], list[Fact]]:
    """The pairing as it was written before issue 21 (each gold fact against every free predicted one)."""
    free = list(predicted)
    hits: dict[int, Fact] = {}
    for same_group in (True, False):
        for index, fact in enumerate(gold):
            if index in hits:
                continue
            hit = next((p for p in free if (p.group == fact.group) == same_group and agree(fact, p)), None)
            if hit is not None:
                free.remove(hit)
                hits[index] = hit
    matched = [fact for index, fact in enumerate(gold) if index in hits]
    missing = [fact for index, fact in enumerate(gold) if index not in hits]
    return matched, missing, free


_NAME_WORDS = ["kenya", "supreme", "court", "sc", "grand", "central", "station", "gcs", "union", "hill"]
_AMOUNTS = ["1", "7", "12", "19", "1250", "0.5", "-3"]


def _fact(group: str, pick: int, loose: bool) -> Fact:
    if group == "time":
        hour, minute = [0, 7, 12, 19][pick % 4], ["00", "30"][pick % 2]
        return Fact("time", f"{hour}:{minute}", f"t{pick}", loose)
    if group == "date":
        parts = [["?", "2020"][pick % 2], ["?", "5", "11"][pick % 3], ["3", "11", "?"][pick % 3]]
        key = "-".join(parts)
        return Fact("date", key + ("|2020-3-5" if pick % 5 == 4 else ""), f"d{pick}")
    if group == "entity":
        words = [w for i, w in enumerate(_NAME_WORDS) if (pick >> i) & 1] or ["hill"]
        return Fact("entity", " ".join(words), f"e{pick}")
    if group == "measure":
        scale = ["temperature", "temperature F", "temperature C", "mass g"][pick % 4]
        return Fact("measure", f"{scale} {_AMOUNTS[pick % len(_AMOUNTS)]}", f"m{pick}")
    prefix = {"money": "USD ", "percent": "", "number": "", "duration": ""}[group]
    suffix = {"percent": "%", "duration": " s"}.get(group, "")
    return Fact(group, f"{prefix}{_AMOUNTS[pick % len(_AMOUNTS)]}{suffix}", f"{group[0]}{pick}")


_FACTS = st.builds(
    _fact,
    st.sampled_from(["time", "date", "entity", "measure", "money", "percent", "number", "duration"]),
    st.integers(0, 1023),
    st.booleans(),
)


@given(st.lists(_FACTS, max_size=25), st.lists(_FACTS, max_size=25))
def test_fact_pairing_equals_the_pairwise_scan(gold: list[Fact], predicted: list[Fact]) -> None:
    assert match_facts(gold, predicted) == _pairing_by_scan(gold, predicted)


def test_fact_pairing_takes_the_first_agreeing_fact_in_reading_order() -> None:
    # gold 7 pm agrees with the loose "7:00" (2nd) and with "19:00" (3rd): the earlier one is taken; the later
    # gold "19:00" then takes the exact one. A bare 7 agrees with 7 pm only across groups, after all same-group pairs.
    gold = [Fact("time", "19:00", "7 pm"), Fact("time", "19:00", "19:00"), Fact("number", "7", "7")]
    predicted = [Fact("number", "7", "seven"), Fact("time", "7:00", "7", True), Fact("time", "19:00", "19:00")]
    matched, missing, extra = match_facts(gold, predicted)
    assert (matched, missing, extra) == (gold, [], [])
    assert match_facts(gold[:1], predicted[1:]) == (gold[:1], [], predicted[2:])


def _mentioned_by_scan(name: str, words: frozenset[str]) -> bool:
    return all(
        w in words or facts_module.stem(w) in words or any(facts_module._derived(w, v) for v in words)
        for w in name.split()
    )


_WORDS = st.sampled_from(["syria", "syrian", "greece", "greek", "psychologist", "psychiatrist", "hill", "hil", "mill"])


@given(st.lists(_WORDS, min_size=1, max_size=3), st.frozensets(_WORDS, max_size=6))
def test_name_mentions_equal_the_scan_over_every_word(name: list[str], words: frozenset[str]) -> None:
    assert facts_module._Words(words).mentions(" ".join(name)) == _mentioned_by_scan(" ".join(name), words)


def _long_reply(name: str, words: int) -> str:
    filler = " ".join(itertools.islice(itertools.cycle(["the", "room", "is", "ready", "and", "quiet"]), words))
    return f"Your hotel is in {name} today. {filler}."


def test_a_replaced_name_is_named_in_a_reply_within_the_diff_limit() -> None:
    check = check_reply_facts(_long_reply("Pleasant Hill", 50), _long_reply("mill valley", 50))
    assert [f.detail for f in check.findings] == ["mill valley vs gold Pleasant Hill"]
    assert check.contradicted


def test_a_replaced_name_beyond_the_diff_limit_is_still_a_failing_omission() -> None:
    gold, predicted = _long_reply("Pleasant Hill", MAX_DIFF_WORDS + 10), _long_reply("mill valley", MAX_DIFF_WORDS + 10)
    check = check_reply_facts(gold, predicted)
    assert [(f.reason, f.detail) for f in check.findings] == [
        (FailureReason.INCOMPLETE_RESPONSE, "omits Pleasant Hill, which gold states")
    ]
    assert check.coverage < 1.0


# --- unpaired alignment ------------------------------------------------------------------------------------------


@st.composite
def _far_apart(draw: st.DrawFn) -> tuple[list[Turn], list[TurnContent]]:
    """Gold of up to 40 turns and a prediction with runs of insertions, deletions and substitutions: far enough
    apart that the first narrow band does not hold the optimum and the band is widened."""
    indexes = draw(st.lists(st.integers(0, len(CONTENTS) - 1), max_size=40))
    gold = []
    for number, index in enumerate(indexes, start=1):
        content = CONTENTS[index]
        tags = ("OrderInvariant_g",) if draw(st.integers(0, 5)) == 0 else ()
        kind = TurnKind.ACTION if isinstance(content, ActionCall) else TurnKind.RESPONSE
        gold.append(Turn(number, kind, content, None, tags=tags))
    predicted = [t.gold for t in gold if t.gold is not None]
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(predicted)))
        run = draw(st.integers(1, 12))
        edit = draw(st.sampled_from(["ins", "del", "sub"]))
        if edit == "ins":
            predicted[at:at] = draw(st.lists(st.sampled_from(CONTENTS), min_size=run, max_size=run))
        elif edit == "del":
            del predicted[at : at + run]
        else:
            predicted[at : at + run] = draw(st.lists(st.sampled_from(CONTENTS), min_size=run, max_size=run))
    return gold, predicted


@settings(max_examples=300)
@given(_far_apart())
def test_widened_band_alignment_is_the_full_one(case: tuple[list[Turn], list[TurnContent]]) -> None:
    gold, predicted = case
    options = AlignOptions()
    assert _Aligner(gold, predicted, options).solve() == _Aligner(gold, predicted, options, banded=False).solve()


def _turns(count: int, tool: str) -> list[dict[str, object]]:
    return [{"turn": "Tool", "tool_id": tool, "action": "Act", "args": {"n": i}} for i in range(count)]


def test_long_dialogs_that_differ_in_few_places_align_as_the_full_dp_would() -> None:
    gold = _turns(1200, "db")
    predicted = [{"turn": "Agent", "response": "one moment"}, *gold[:600], *gold[601:]]  # one extra, one missing
    dialog = parse_unpaired({"dialog_id": "long", "gold": gold, "predicted": predicted})
    alignment = dialog.alignment()
    assert alignment.cost == 2.0  # 1 extra reply + 1 missing gold turn, every other turn identical
    assert [(p.gold_index, p.predicted_index) for p in alignment.pairs[:2]] == [(None, 0), (0, 1)]
    assert (600, None) in [(p.gold_index, p.predicted_index) for p in alignment.pairs]


def test_long_dialogs_beyond_the_state_limit_are_a_named_input_error() -> None:
    side = math.isqrt(MAX_ALIGN_CELLS) + 2  # every pair differs: the band is the whole table
    dialog = parse_unpaired({"dialog_id": "huge", "gold": _turns(side, "a"), "predicted": _turns(side, "b")})
    with pytest.raises(InputError) as raised:
        dialog.alignment()
    assert raised.value.location.dialog_id == "huge"
    assert f"the limit is {MAX_ALIGN_CELLS:,}" in raised.value.message


# --- order-invariant groups --------------------------------------------------------------------------------------


def _reorder_by_full_matrix(turns: list[Turn], judge: JudgeFn) -> tuple[list[Turn], dict[int, int]]:
    """``reorder`` as it was before issue 21: every pair of a group judged."""
    out, moved = list(turns), {}
    for members in order_groups(turns).values():
        if all(turns[i].gold == turns[i].predicted for i in members):
            continue
        matrix = [[order_cost(judge(replace(turns[i], predicted=turns[j].predicted)), i != j) for j in members]
                  for i in members]  # fmt: skip
        for row, col in enumerate(assign(matrix)):
            i, j = members[row], members[col]
            if i != j:
                out[i] = replace(turns[i], predicted=turns[j].predicted)
                moved[turns[i].turn_no] = turns[j].turn_no
    return out, moved


_GROUP_CONTENTS = [
    action("cal", "Check", day="mon"), action("cal", "Check", day="tue"), action("cal", "Book", day="mon"),
    action("air", "Search", to="NYC"), action("air", "Search", to="LAX", seats=2), reply("Your table is booked."),
    reply("Which day?"),
]  # fmt: skip


@settings(max_examples=150)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.booleans()), min_size=2, max_size=9))
def test_group_reordering_equals_the_full_matrix(picks: list[tuple[int, int, bool]]) -> None:
    raw = [  # the paired format keeps a turn's kind: a prediction of the other kind is replaced by gold
        paired(n, _GROUP_CONTENTS[g], _GROUP_CONTENTS[p if (p < 5) == (g < 5) else g], tags=["OrderInvariant_x"])
        if tagged or n <= 2
        else paired(n, _GROUP_CONTENTS[g], _GROUP_CONTENTS[g])
        for n, (g, p, tagged) in enumerate(picks, start=1)
    ]
    turns = list(parse_dialog(raw).turns)
    comparator = Comparator(TableScorer({}))

    def judge(turn: Turn) -> TurnVerdict:
        return check_turn(turn, comparator.compare_request)

    assert reorder(turns, judge) == _reorder_by_full_matrix(turns, judge)


def test_only_pairs_of_one_tool_and_action_are_batched_for_comparison() -> None:
    gold = [action("t1", "Get", id=1), action("t2", "Get", id=2), action("t1", "Get", id=3)]
    predicted = [gold[2], gold[1], action("t1", "Get", id=9)]
    turns = parse_dialog(
        [
            paired(n, g, p, tags=["OrderInvariant_x"])
            for n, (g, p) in enumerate(zip(gold, predicted, strict=True), start=1)
        ]
    ).turns
    pairs = {(t.gold.args["id"], t.predicted.args["id"]) for t in candidate_pairings(turns)}  # type: ignore[union-attr]
    assert pairs == {(1, 9), (3, 3)}  # t1 golds 1 and 3 against the t1 predictions 3 and 9 moved; t2 has no other


def test_an_order_group_beyond_the_pair_limit_is_a_named_input_error_and_the_rest_is_scored(tmp_path: Path) -> None:
    from aem_strands.cli import main
    from aem_strands.order import MAX_GROUP_PAIRS

    size = int(MAX_GROUP_PAIRS**0.5) + 1  # every member calls one tool: size * size pairs to judge
    turns = [paired(n, action("t", "Get", id=n), action("t", "Get", id=size - n), tags=["OrderInvariant_g"])
             for n in range(1, size + 1)]  # fmt: skip
    small = [paired(1, action("t", "Get", id=1), action("t", "Get", id=1))]
    path = tmp_path / "d.jsonl"
    path.write_text(
        json.dumps({"dialog_id": "huge-group", "turns": turns}) + "\n" + json.dumps({"dialog_id": "ok", "turns": small})
        + "\n", encoding="utf-8",
    )  # fmt: skip
    out, err = io.StringIO(), io.StringIO()
    assert main(["score", str(path), "--scorer", "exact", "--format", "jsonl"], stdout=out, stderr=err) == 2
    assert "order-invariant group 'g'" in err.getvalue()
    assert "huge-group" in err.getvalue()
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert records[1]["dialog_id"] == "ok"
    assert records[1]["test_pass"] is True
