"""Gold that lists only required actions: tool definitions, scope, side effects, compare_args (issue 8)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from aem_strands import evaluate_dialog
from aem_strands.cli import main
from aem_strands.compare.scorers import TableScorer
from aem_strands.errors import ConfigError
from aem_strands.options import EvalOptions
from aem_strands.tools import ArgKind, ToolCatalog, as_catalog, load_tools, tools_from_specs
from aem_strands.types import FailureReason

SEARCH_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "sort": {"type": "string", "enum": ["lowest price first", "shortest travel time"]},
        "date": {"type": "string", "format": "date"},
    },
    "required": ["city"],
}
BOOK_SCHEMA = {
    "type": "object",
    "properties": {
        "flight_id": {"type": "string"},
        "seats": {"type": "integer"},
        "email": {"type": "string", "format": "email"},
        "note": {"type": "string", "description": "Free text for the airline"},
    },
}
MCP = {
    "tools": [
        {"name": "search_flights", "description": "Find flights", "inputSchema": SEARCH_SCHEMA,
         "annotations": {"readOnlyHint": True}},
        {"name": "book_flight", "description": "Book a flight", "inputSchema": BOOK_SCHEMA,
         "annotations": {"readOnlyHint": False, "destructiveHint": False}},
    ]
}  # fmt: skip
OPENAI = [
    {"type": "function", "function": {"name": "search_flights", "description": "Find", "parameters": SEARCH_SCHEMA}},
    {"type": "function", "function": {"name": "book_flight", "description": "Book", "parameters": BOOK_SCHEMA}},
]  # fmt: skip
STRANDS = [
    {"name": "search_flights", "description": "Find flights", "inputSchema": {"json": SEARCH_SCHEMA}},
    {"name": "book_flight", "description": "Book a flight", "inputSchema": {"json": BOOK_SCHEMA}},
]


def call(action: str, tool_id: str = "api", observation: Any = None, **args: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"turn": "Tool", "tool_id": tool_id, "action": action, "args": args}
    if observation is not None:
        out["observation"] = observation
    return out


def say(text: str) -> dict[str, Any]:
    return {"turn": "Agent", "response": text}


BOOK = call("book_flight", flight_id="UA-100", seats=2)


def required(*predicted: dict[str, Any], gold: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"dialog_id": "d", "gold": gold if gold is not None else [BOOK], "predicted": list(predicted)}


@pytest.mark.parametrize("form", [MCP, OPENAI, STRANDS], ids=["mcp", "openai", "strands"])
def test_the_three_forms_give_the_same_kinds(form: object, tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(form), encoding="utf-8")
    catalog = load_tools(path)
    search = catalog.definitions[0]
    book = catalog.definitions[1]
    assert [search.arg_kind(a) for a in ("city", "sort", "date")] == [ArgKind.VALUE, ArgKind.ENUM, ArgKind.DATE]
    assert [book.arg_kind(a) for a in ("seats", "email", "note")] == [ArgKind.NUMBER, ArgKind.EMAIL, ArgKind.FREE_TEXT]
    # Only MCP carries read-only hints; the other forms name read-only tools with --read-only-tool.
    assert search.read_only is (form is MCP)


def test_a_definition_applies_by_action_then_by_tool_id() -> None:
    catalog = as_catalog(MCP)
    from aem_strands.types import ActionCall

    assert catalog.find(ActionCall("api", "search_flights")) is catalog.definitions[0]
    assert catalog.find(ActionCall("book_flight", "run")) is catalog.definitions[1]
    assert catalog.find(ActionCall("api", "other")) is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"tools": {}}, "expected a JSON list"),
        ([{"description": "x"}], "needs a non-empty 'name'"),
        (
            [{"name": "a", "annotations": {"readOnlyHint": "yes"}}],
            "readOnlyHint, destructiveHint and idempotentHint must be",
        ),
        ([{"name": "a"}, {"name": "a"}], "'a' is defined more than once"),
    ],
)
def test_bad_tool_definitions_are_named(data: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        as_catalog(data)  # type: ignore[arg-type]


def test_strands_tool_specs_from_a_registry() -> None:
    assert tools_from_specs(STRANDS).definitions[1].arg_kind("email") is ArgKind.EMAIL


# --- side effects under allow_extra=read_only ---


def score(dialog: dict[str, Any], **options: Any) -> Any:
    options.setdefault("scorer", "exact")
    return evaluate_dialog(dialog, allow_extra="read_only", tools=MCP, **options)


def test_extra_lookups_and_replies_are_tolerated_and_noted() -> None:
    result = score(required(call("search_flights", city="Oslo"), say("Booking now."), BOOK, say("Done!")))
    assert (result.score, result.test_pass) == (1.0, True)
    tolerated = result.metadata["alignment"]["tolerated"]
    assert [t["why"] for t in tolerated] == [
        "search_flights is read-only",
        "a reply: no side effect",
        "a reply: no side effect",
    ]


def test_an_extra_write_fails_naming_the_write() -> None:
    result = score(required(BOOK, call("book_flight", flight_id="UA-200", seats=1)))
    assert result.test_pass is False
    extra = result.failures[0]
    assert extra.failure_reason is FailureReason.EXTRA_TURN
    assert "an extra call to book_flight, a write" in extra.verdict.problems[0].detail


def test_a_failed_extra_write_changed_nothing_and_is_tolerated() -> None:
    failed = call("book_flight", observation={"error": "sold out"}, flight_id="UA-300", seats=2)
    result = score(required(failed, BOOK))
    assert result.test_pass is True
    assert result.metadata["alignment"]["tolerated"][0]["why"].startswith(
        "book_flight failed (observation has an error)"
    )


def test_read_only_tool_names_match_the_action_as_well_as_the_tool_id() -> None:
    lookup = call("get_weather", tool_id="env", city="Oslo")
    dialog = required(lookup, BOOK)
    assert evaluate_dialog(dialog, scorer="exact", allow_extra="read_only", read_only_tools=["get_weather"]).test_pass
    assert evaluate_dialog(dialog, scorer="exact", allow_extra="read_only", read_only_tools=["env"]).test_pass
    assert not evaluate_dialog(dialog, scorer="exact", allow_extra="read_only", read_only_tools=["other"]).test_pass


# --- scope ---


def test_scope_actions_leaves_replies_out_on_both_sides_and_says_so() -> None:
    dialog = required(say("Sure!"), BOOK, gold=[say("Which flight?"), BOOK, say("Booked.")])
    result = evaluate_dialog(dialog, scorer="exact", scope="actions")
    assert (result.score, result.test_pass) == (1.0, True)
    assert [t.turn.kind.value for t in result.turns] == ["action"]
    assert result.metadata["alignment"]["scope"] == {
        "scope": "actions", "left_out_gold": [0, 2], "left_out_predicted": [0],
    }  # fmt: skip


def test_scope_replies_leaves_tool_calls_out() -> None:
    dialog = required(say("Booked."), call("book_flight", flight_id="WRONG"), gold=[BOOK, say("Booked.")])
    result = evaluate_dialog(dialog, scorer="exact", scope="replies")
    assert result.test_pass is True
    assert result.metadata["alignment"]["scope"]["left_out_predicted"] == [1]


def test_scope_applies_to_paired_dialogs_too() -> None:
    turns = [
        {"turn_no": 1, "turn": "Agent", "gold_turn": {"response": "Hi"}, "predict_turn": {"response": "Bye"}},
        {"turn_no": 2, "turn": "Tool", "gold_turn": {"tool_id": "t", "action": "a", "args": {}},
         "predict_turn": {"tool_id": "t", "action": "a", "args": {}}},
    ]  # fmt: skip
    result = evaluate_dialog(turns, scorer="exact", scope="actions")
    assert result.test_pass is True
    assert result.metadata["scope"] == {"scope": "actions", "left_out_turns": [1]}


# --- what gold says to compare, and argument kinds ---


def test_compare_args_limits_the_comparison() -> None:
    gold = {**call("book_flight", flight_id="UA-100", seats=2, note="window"), "compare_args": ["flight_id"]}
    predicted = call("book_flight", flight_id="UA-100", seats=3, extra_flag=True)
    assert evaluate_dialog(required(predicted, gold=[gold]), scorer="exact").test_pass is True
    only_tool = {**gold, "compare_args": []}
    other = call("book_flight", flight_id="ZZ-9")
    assert evaluate_dialog(required(other, gold=[only_tool]), scorer="exact").test_pass is True
    wrong = call("book_flight", flight_id="UA-101", seats=2)
    failed = evaluate_dialog(required(wrong, gold=[gold]), scorer="exact")
    assert [p.field for p in failed.failures[0].verdict.problems] == ["args.flight_id"]


def test_compare_args_is_a_gold_annotation() -> None:
    from aem_strands import InputError

    with pytest.raises(InputError, match="compare_args"):
        evaluate_dialog(required({**BOOK, "compare_args": []}), scorer="exact")


def test_a_nested_key_only_the_prediction_has_is_an_extra_parameter_with_its_path() -> None:
    gold = call("book_flight", flights=[{"id": "UA-1"}])
    predicted = call("book_flight", flights=[{"id": "UA-1", "origin": "SFO"}])
    result = evaluate_dialog(required(predicted, gold=[gold]), scorer="exact")
    problems = result.failures[0].verdict.problems
    assert [(p.reason, p.field, p.predicted) for p in problems] == [
        (FailureReason.EXTRA_PARAMETERS, "args.flights[0].origin", "SFO")
    ]
    missing = evaluate_dialog(required(gold, gold=[predicted]), scorer="exact").failures[0].verdict.problems
    assert [(p.reason, p.field) for p in missing] == [(FailureReason.MISSING_PARAMETERS, "args.flights[0].origin")]


def test_an_enum_argument_never_passes_on_similarity() -> None:
    similar = TableScorer({("lowest price first", "shortest travel time"): 0.95, ("Oslo", "Oslo Norway"): 0.95})
    gold = [call("search_flights", city="Oslo", sort="lowest price first")]
    predicted = call("search_flights", city="Oslo Norway", sort="shortest travel time")
    result = evaluate_dialog(required(predicted, gold=gold), scorer=similar, tools=MCP)
    problems = result.failures[0].verdict.problems
    assert [p.field for p in problems] == ["args.sort"]  # city (a plain value) passes at 0.95; sort is an enum
    assert "schema declares a enum argument" in problems[0].detail


def test_a_free_text_argument_is_judged_like_a_reply() -> None:
    gold = [call("book_flight", flight_id="UA-100", note="The passenger would like a window seat near the front.")]
    predicted = call("book_flight", flight_id="UA-100", note="Passenger prefers a window seat close to the front.")
    result = evaluate_dialog(required(predicted, gold=gold), tools=MCP)  # the default embedding scorer
    assert result.test_pass is True, result.reason()
    comparison = result.turns[0].to_dict()
    assert comparison["verdict"] == "pass"


# --- options and the command line ---


def test_tools_and_scope_round_trip_through_options_json(tmp_path: Path) -> None:
    options = EvalOptions.build(tools=MCP, scope="actions", allow_extra="read_only")
    again = EvalOptions.from_dict(json.loads(options.to_json()))
    assert again == options
    assert isinstance(again.tools, ToolCatalog)
    with pytest.raises(ConfigError, match="scope must be one of all, actions, replies"):
        EvalOptions.build(scope="tools")


def test_the_command_line_takes_tools_and_scope(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(MCP), encoding="utf-8")
    data = tmp_path / "runs.jsonl"
    runs = [
        required(say("Looking."), call("search_flights", city="Oslo"), BOOK) | {"dialog_id": "ok"},
        required(BOOK, call("book_flight", flight_id="UA-200", seats=1)) | {"dialog_id": "double"},
    ]
    data.write_text("".join(json.dumps(r) + "\n" for r in runs), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    argv = ["score", str(data), "--scorer", "exact", "--scope", "actions", "--allow-extra", "read_only",
            "--tools", str(tools), "--format", "jsonl"]  # fmt: skip
    assert main(argv, stdout=out, stderr=err) == 1
    records = {r["dialog_id"]: r for r in map(json.loads, out.getvalue().splitlines())}
    assert records["ok"]["test_pass"] is True
    assert records["double"]["root_cause"] == "extra_turn"


# --- optional gold turns and order-invariant groups ---


def test_identical_optional_gold_turns_resolve_alike_ordered_and_order_invariant() -> None:
    # Every gold sequence of up to 3 calls drawn from A, A(x=1), B, with every optional flag, against every
    # prediction of up to 2 such calls: tagging the gold turns as one order-invariant group may let more
    # predictions pass (order no longer matters), never fewer; where the gold turns are identical the
    # verdicts are the same.
    import itertools

    base = [("A", {}), ("A", {"x": 1}), ("B", {})]
    checked = 0
    for n in (1, 2, 3):
        for gold_calls in itertools.product(base, repeat=n):
            for flags in itertools.product([False, True], repeat=n):
                ordered = [call(a, **k) | {"optional": o} for (a, k), o in zip(gold_calls, flags, strict=True)]
                grouped = [t | {"tags": ["OrderInvariant_g"]} for t in ordered]
                for m in (0, 1, 2):
                    for predicted_calls in itertools.product(base, repeat=m):
                        predicted = [call(a, **k) for a, k in predicted_calls]
                        one = evaluate_dialog(
                            {"dialog_id": "o", "gold": ordered, "predicted": predicted}, scorer="exact"
                        )
                        two = evaluate_dialog(
                            {"dialog_id": "g", "gold": grouped, "predicted": predicted}, scorer="exact"
                        )
                        assert two.test_pass or not one.test_pass, (gold_calls, flags, predicted_calls)
                        if len(set(map(str, gold_calls))) == 1:
                            assert (one.score, one.test_pass) == (two.score, two.test_pass)
                        checked += 1
    assert checked == 3 * 2 * 13 + 9 * 4 * 13 + 27 * 8 * 13  # (gold sequences x flag sets) x 13 predictions


# --- rejected calls and idempotent repeats ---


def test_a_rejected_call_does_not_satisfy_a_required_call() -> None:
    rejected = call("book_flight", observation={"error": "cabin must be lower case"}, flight_id="UA-100", seats=2)
    result = evaluate_dialog(required(rejected), scorer="exact")
    assert result.test_pass is False
    assert result.failures[0].failure_reason is FailureReason.CALL_FAILED
    # Gold's own call failed the same way: the prediction did what gold did.
    gold_rejected = {**BOOK, "observation": {"error": "sold out"}}
    assert evaluate_dialog(required(rejected, gold=[gold_rejected]), scorer="exact").test_pass is True


def test_a_rejected_attempt_then_a_successful_retry_passes_under_read_only() -> None:
    rejected = call("book_flight", observation={"error": "try again"}, flight_id="UA-100", seats=2)
    result = score(required(rejected, BOOK))
    assert result.test_pass is True  # gold pairs with the retry; the rejected attempt changed nothing
    assert [t["predicted_index"] for t in result.metadata["alignment"]["tolerated"]] == [0]


def test_an_idempotent_repeat_is_tolerated_and_any_other_repeat_fails() -> None:
    tools = {"tools": [{"name": "set_address", "annotations": {"idempotentHint": True}}, {"name": "book_flight"}]}
    address = call("set_address", city="Oslo")
    gold = [address]
    repeated = evaluate_dialog(
        required(address, address, gold=gold), scorer="exact", allow_extra="read_only", tools=tools
    )
    assert repeated.test_pass is True
    assert "idempotent" in repeated.metadata["alignment"]["tolerated"][0]["why"]
    changed = evaluate_dialog(
        required(address, call("set_address", city="Bergen"), gold=gold), scorer="exact", allow_extra="read_only",
        tools=tools,
    )  # fmt: skip
    assert changed.test_pass is False  # a different address is a second write
    twice = evaluate_dialog(required(BOOK, BOOK), scorer="exact", allow_extra="read_only", tools=tools)
    assert twice.test_pass is False  # book_flight is not idempotent: booking twice books twice


def test_openai_definitions_may_carry_mcp_annotations_beside_the_function() -> None:
    annotated = [{**OPENAI[0], "annotations": {"readOnlyHint": True}}, OPENAI[1]]
    assert as_catalog(annotated).read_only_names() == frozenset({"search_flights"})
