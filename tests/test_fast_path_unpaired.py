"""The quick reading of unpaired turns (``unpaired._quick_turn``) against the model it stands in for.

The quick reading handles the common well-formed turn by hand and leaves everything else to
``UnpairedTurnModel``, whose errors name what is wrong. Proven here on generated turns, well-formed and not:
it never accepts a turn the model rejects, it reads every turn it accepts exactly as the model does, and a
whole dialog read either way gives the same result, field for field, through alignment and judging (or the same
error). An identical dialog with every gold annotation still has no finding.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands import InputError, evaluate_dialogs
from aem_strands.decode import MAX_DEPTH, MAX_STRING_CHARS, _BadNumber, find_flaw
from aem_strands.errors import Location
from aem_strands.unpaired import _modelled_turn, _parse_unpaired, _plain_sides, _quick_turn, parse_unpaired

finite = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**6), 10**6),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=6),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=6,
)
bad_numbers = st.sampled_from([math.inf, -math.inf, math.nan, -1, -0.5, 0, 0.0, -0.0, True, False, "1", None, 10**400])


# For every key the model knows: values it accepts (of every JSON type it converts), and values it rejects.
GOOD: dict[str, Any] = {
    "response": st.text(max_size=8),
    "tool_id": st.sampled_from(["search", "book"]),
    "action": st.sampled_from(["find", "x"]),
    "args": st.dictionaries(st.text(max_size=4), finite, max_size=3),
    "observation": finite,
    "latency_ms": st.one_of(st.floats(0, 1e6), st.integers(0, 2**60)),
    "weight": st.one_of(st.floats(1e-9, 1e6), st.integers(1, 2**60)),
    "tags": st.lists(st.text(max_size=4), max_size=3),
    "depends_on": st.lists(st.integers(-2, 5), max_size=3),
    "critical": st.booleans(),
    "optional": st.booleans(),
    "compare_args": st.one_of(st.none(), st.lists(st.text(max_size=3), max_size=2)),
}
BAD: dict[str, Any] = {
    "response": st.one_of(st.none(), st.integers()),
    "tool_id": st.one_of(st.sampled_from(["", None, 3])),
    "action": st.one_of(st.sampled_from(["", None, 3])),
    "args": st.one_of(st.dictionaries(st.integers(0, 3), finite, min_size=1, max_size=2), st.lists(finite, max_size=2)),
    "latency_ms": bad_numbers,  # 0 is a good latency and a bad weight
    "weight": bad_numbers,
    "tags": st.one_of(st.lists(st.integers(), min_size=1, max_size=2), st.text()),
    "depends_on": st.one_of(st.lists(st.booleans(), min_size=1, max_size=2), st.integers(), st.floats()),
    "critical": st.one_of(st.integers(0, 1), st.none()),
    "optional": st.one_of(st.integers(0, 1), st.none()),
    "compare_args": st.one_of(st.lists(st.integers(), min_size=1), st.text()),
    "note": st.text(max_size=3),
}
ANNOTATIONS = ("observation", "latency_ms", "weight", "tags", "depends_on", "critical", "optional", "compare_args")


@st.composite
def any_turn(draw: st.DrawFn) -> dict[str, Any]:
    """A turn of either kind with some annotations, then (usually) a few keys changed to any value, well-formed or
    not, or removed: most turns are one step from well-formed, where a quick reading could go wrong."""
    kind = draw(st.sampled_from(["Agent", "Tool"]))
    own = ["response"] if kind == "Agent" else ["tool_id", "action", "args"]
    item: dict[str, Any] = {"turn": kind} | {key: draw(GOOD[key]) for key in own}
    for key in draw(st.lists(st.sampled_from(ANNOTATIONS), max_size=4, unique=True)):
        item[key] = draw(GOOD[key])
    for _ in range(draw(st.sampled_from([0, 1, 1, 1, 2]))):
        key = draw(st.sampled_from(["turn", *GOOD, "note"]))
        change = draw(st.sampled_from(["bad", "good", "drop"]))
        if key == "turn":
            item["turn"] = draw(st.sampled_from(["Agent", "Tool", "Bot", None]))
        elif change == "drop":
            item.pop(key, None)
        else:
            pool = BAD if key not in GOOD or (change == "bad" and key in BAD) else GOOD  # any observation is good
            item[key] = draw(pool[key])
    return item


def _modelled(item: dict[str, Any], side: str) -> Any:
    try:
        return _modelled_turn(item, side, Location("f.json", "d", 1))
    except InputError:
        return None


@settings(max_examples=1500)
@given(item=any_turn(), gold=st.booleans())
def test_the_quick_reading_is_the_models_reading(item: dict[str, Any], gold: bool) -> None:
    quick = _quick_turn(item, gold)
    if quick is None:
        return  # the model reads it (and names the error, if any)
    modelled = _modelled(item, "gold" if gold else "predicted")
    assert modelled is not None, f"the quick reading accepted a turn the model rejects: {item!r}"
    assert quick == modelled
    assert repr(quick) == repr(modelled)  # the same types too (2.0, not 2; a tuple, not a list)


def test_the_quick_reading_takes_the_usual_turns() -> None:
    """The turns real files hold never reach the model (the quick reading is the one that runs)."""
    usual: list[dict[str, Any]] = [
        {"turn": "Agent", "response": "Booked."},
        {"turn": "Tool", "tool_id": "hotel", "action": "book", "args": {"city": "Paris", "nights": 2}},
        {"turn": "Tool", "tool_id": "hotel", "action": "find", "args": {}, "observation": {"hits": [1, 2]}},
        {"turn": "Tool", "tool_id": "t", "action": "a", "latency_ms": 12, "tags": ["OrderInvariant_x"], "weight": 2},
    ]
    for item in usual:
        quick = _quick_turn(item, gold=True)
        assert quick is not None, item
        assert repr(quick) == repr(_modelled(item, "gold"))
    assert _quick_turn({"turn": "Agent", "response": "x", "critical": True}, gold=False) is None  # gold only


well_formed = st.one_of(
    st.fixed_dictionaries(
        {"turn": st.just("Agent"), "response": st.sampled_from(["Booked.", "It is 3 pm.", "Which city?", ""])},
        optional={"latency_ms": st.floats(0, 1e4), "critical": st.booleans()},
    ),
    st.fixed_dictionaries(
        {
            "turn": st.just("Tool"),
            "tool_id": st.sampled_from(["hotel", "weather"]),
            "action": st.sampled_from(["find", "book"]),
            "args": st.dictionaries(st.sampled_from(["city", "day", "n"]), finite, max_size=3),
        },
        optional={
            "observation": finite,
            "latency_ms": st.integers(0, 500),
            "tags": st.sampled_from([["OrderInvariant_g"], ["x"], []]),
            "weight": st.sampled_from([0.5, 1.0, 2]),
            "optional": st.booleans(),
            "compare_args": st.sampled_from([["city"], []]),
        },
    ),
)


@st.composite
def unpaired_dialogs(draw: st.DrawFn) -> dict[str, Any]:
    """An unpaired dialog: gold turns, and predicted turns that copy, drop, change or add some (sometimes a bad
    turn on either side, so errors are compared too)."""
    gold = draw(st.lists(well_formed, max_size=6))
    for position, turn in enumerate(gold, start=1):
        if position > 1 and draw(st.booleans()):
            turn["depends_on"] = [draw(st.integers(0, position))]  # sometimes not an earlier turn: an error
    predicted = []
    for turn in gold:
        kept = {k: v for k, v in turn.items() if k in ("turn", "response", "tool_id", "action", "args", "observation")}
        choice = draw(st.sampled_from(["copy", "copy", "drop", "change", "add"]))
        if choice == "drop":
            continue
        if choice == "change" and kept["turn"] == "Tool":
            kept = {**kept, "args": {**kept["args"], "city": draw(st.sampled_from(["Rome", "Paris"]))}}
        elif choice == "change":
            kept = {**kept, "response": "Sorry, no."}
        predicted.append(copy.deepcopy(kept))
        if choice == "add":
            predicted.append(draw(well_formed))
    if draw(st.integers(0, 9)) == 0:
        side = draw(st.sampled_from([gold, predicted]))
        side.insert(draw(st.integers(0, len(side))), draw(any_turn()))
    return {"dialog_id": "d", "gold": gold, "predicted": predicted}


def _read(raw: dict[str, Any], quick: bool) -> Any:
    try:
        return _parse_unpaired(raw, "f.json", None, quick=quick)
    except InputError as error:
        return (str(error), error.location)


@settings(max_examples=300, deadline=None)
@given(raw=unpaired_dialogs())
def test_a_dialog_read_quickly_scores_exactly_as_one_read_by_the_model(raw: dict[str, Any]) -> None:
    quick, modelled = _read(raw, quick=True), _read(raw, quick=False)
    assert repr(quick) == repr(modelled)
    if isinstance(quick, tuple):
        return  # the same error, naming the same file, dialog, turn and field
    fast, reference = (evaluate_dialogs([d.align()], scorer="exact")[0].to_dict() for d in (quick, modelled))
    assert repr(fast) == repr(reference)


@settings(max_examples=200, deadline=None)
@given(gold=st.lists(well_formed, max_size=8))
def test_an_identical_annotated_dialog_never_has_a_finding(gold: list[dict[str, Any]]) -> None:
    predicted = [{k: v for k, v in t.items() if k in ("turn", "response", "tool_id", "action", "args")} for t in gold]
    for turn in predicted:
        if turn["turn"] == "Tool":
            turn["observation"] = None
    dialog = parse_unpaired({"dialog_id": "d", "gold": gold, "predicted": copy.deepcopy(predicted)}).align()
    result = evaluate_dialogs([dialog], scorer="exact")[0]
    assert len(result.turns) == len(gold)  # an optional gold turn that was copied is matched: every turn is judged
    assert all(t.verdict.problems == () for t in result.turns)
    assert result.test_pass
    assert result.score == 1.0


ONE_STEP_WRONG: list[tuple[str, list[Any]]] = [
    ("latency_ms", [math.inf, -math.inf, math.nan, -1, -0.5, True, "1", 10**400]),
    ("weight", [math.inf, math.nan, 0, 0.0, -0.0, -1, False, "1", 10**400]),
    ("tags", [[1], "OrderInvariant_x", [None]]),
    ("depends_on", [[True], [1.0], 1, ["1"]]),
    ("critical", [1, 0, None, "yes"]),
    ("optional", [1, None]),
    ("compare_args", [[1], "city"]),
    ("args", [{1: "x"}, ["x"], "x"]),
    ("tool_id", ["", None, 3]),
    ("action", ["", None, 3]),
    ("note", ["unknown key"]),
]


def test_each_value_one_step_from_well_formed_goes_to_the_model() -> None:
    """Every ill-formed value of every key, on an otherwise well-formed gold call: the quick reading declines it
    and the model names it (the generated turns above meet these rarely)."""
    for key, values in ONE_STEP_WRONG:
        for value in values:
            item = {"turn": "Tool", "tool_id": "t", "action": "a", "args": {}, key: value}
            assert _quick_turn(item, gold=True) is None, item
            assert _modelled(item, "gold") is None, item


# Parts beyond the input limits, for every place of an unpaired object the quick reading looks at.
FLAWS: list[Any] = [
    math.nan,
    math.inf,
    "\ud800",
    "ok \udfff",
    "x" * (MAX_STRING_CHARS + 1),
    _BadNumber("number literal of 101 characters (the limit is 100)"),
]


def _deep(levels: int) -> Any:
    value: Any = "deep"
    for _ in range(levels):
        value = [value]
    return value


@st.composite
def flawed_dialogs(draw: st.DrawFn) -> dict[str, Any]:
    """An unpaired dialog with one part beyond a limit (or, now and then, none): in a value, a key, or deep down."""
    raw = draw(unpaired_dialogs())
    flaw = draw(st.sampled_from([*FLAWS, _deep(MAX_DEPTH), _deep(MAX_DEPTH - 4), "fine"]))
    place = draw(
        st.sampled_from(["response", "tool_id", "args value", "args key", "observation", "tags", "metadata", "id"])
    )
    if place == "metadata":
        raw["metadata"] = {"note": flaw}
        return raw
    if place == "id":
        raw["dialog_id"] = flaw
        return raw
    side = draw(st.sampled_from(["gold", "predicted"]))
    turns = raw[side] or [{"turn": "Tool", "tool_id": "t", "action": "a", "args": {}}]
    raw[side] = turns
    turn = turns[draw(st.integers(0, len(turns) - 1))]
    if place == "response" and turn.get("turn") == "Agent":
        turn["response"] = flaw
    elif place == "tool_id" and turn.get("turn") == "Tool":
        turn["tool_id"] = flaw
    elif place == "args key" and isinstance(flaw, str):
        turn["args"] = {flaw: "v"}
    elif place == "tags":
        turn["tags"] = [flaw]
    elif place == "observation":
        turn["observation"] = {"hits": flaw}
    else:
        turn["args"] = {"city": flaw}
    return raw


@settings(max_examples=300, deadline=None)
@given(raw=flawed_dialogs())
def test_the_quick_pass_accepts_nothing_beyond_a_limit(raw: dict[str, Any]) -> None:
    """Reading both sides in one quick pass skips the limit walk only where that walk finds nothing; anywhere else
    the error is the careful reading's, naming the same dialog, turn and field."""
    if _plain_sides(raw) is not None:
        assert find_flaw(raw) is None
    assert repr(_read(raw, quick=True)) == repr(_read(raw, quick=False))
