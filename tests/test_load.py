"""Loading the SPEC §3 format, and bad input: the message names file, dialog, turn and field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aem_strands import ActionCall, InputError, Reply, TurnKind, load_dialogs
from tests.conftest import EXAMPLES, action, paired, reply

SPEC_EXAMPLE = """[
  {"turn_no": 1, "turn": "Agent",
   "gold_turn":    {"response": "Which region should the report cover?"},
   "predict_turn": {"response": "Sure, which region would you like the report for?"}},
  {"turn_no": 2, "turn": "Tool",
   "gold_turn":    {"tool_id": "reports", "action": "FilterData", "args": {"metric": "revenue", "region": "EU"}},
   "predict_turn": {"tool_id": "reports", "action": "FilterData", "args": {"metric": "profit",  "region": "EU"}},
   "tags": ["OrderInvariant_filter"]}
]"""


def write(tmp_path: Path, name: str, content: Any) -> Path:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def test_spec_example_loads_as_is(tmp_path: Path) -> None:
    dialogs = load_dialogs(write(tmp_path, "spec.json", SPEC_EXAMPLE))
    assert dialogs.errors == ()
    (dialog,) = dialogs
    assert dialog.dialog_id == "spec"
    first, second = dialog.turns
    assert first.kind is TurnKind.RESPONSE
    assert first.gold == Reply("Which region should the report cover?")
    assert second.predicted == ActionCall("reports", "FilterData", {"metric": "profit", "region": "EU"})
    assert second.order_group == "filter"


def test_optional_fields_load(tmp_path: Path) -> None:
    turn = paired(
        1,
        {**action("t", "A", x=1), "observation": {"rows": 3}},
        action("t", "A", x=1),
        depends_on=[],
        critical=True,
        weight=2.5,
        latency_ms=120,
        tags=["x"],
    )
    (dialog,) = load_dialogs(write(tmp_path, "d.json", [turn]))
    loaded = dialog.turns[0]
    assert (loaded.critical, loaded.weight, loaded.latency_ms, loaded.tags) == (True, 2.5, 120.0, ("x",))
    assert isinstance(loaded.gold, ActionCall)
    assert loaded.gold.observation == {"rows": 3}


def test_dataset_as_json_array_and_jsonl(tmp_path: Path) -> None:
    records = [
        {"dialog_id": "a", "metadata": {"version": "1"}, "turns": [paired(1, reply("hi"), reply("hi"))]},
        {"dialog_id": "b", "turns": [paired(1, reply("yo"), reply("yo"))]},
    ]
    as_array = load_dialogs(write(tmp_path, "set.json", records))
    as_lines = load_dialogs(write(tmp_path, "set.jsonl", "\n".join(json.dumps(r) for r in records) + "\n"))
    for loaded in (as_array, as_lines):
        assert [d.dialog_id for d in loaded] == ["a", "b"]
        assert loaded[0].metadata == {"version": "1"}


def test_bundled_examples_load() -> None:
    for name in ("sales_report.json", "sales_report_two_roots.json"):
        (dialog,) = load_dialogs(EXAMPLES / "data" / name)
        assert [t.turn_no for t in dialog.turns] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('[{"turn_no": 1,', "file {file}, line 1, element [0]: malformed JSON: Expecting property name"),
        (
            [paired(1, action("t", "A"), action("t", "A")), {"turn_no": "2", "turn": "Agent"}],
            "file {file}, line 1, dialog 'd', field 'turn_no': Input should be a valid integer",
        ),
        (
            [
                {
                    "turn_no": 1,
                    "turn": "Tool",
                    "gold_turn": {"tool_id": "t", "action": "A"},
                    "predict_turn": {"tool_id": "t"},
                }
            ],
            "file {file}, line 1, dialog 'd', turn 1, field 'predict_turn.action': Field required",
        ),
        (
            [{"turn_no": 1, "turn": "Tool", "predict_turn": action("t", "A")}],
            "file {file}, line 1, dialog 'd', turn 1, field 'gold_turn': Field required",
        ),
        (
            [paired(1, action("t", "A", n=1), action("t", "A", n=2), weight="heavy")],
            "file {file}, line 1, dialog 'd', turn 1, field 'weight': Input should be a valid number",
        ),
        ({"dialog_id": "d", "turns": []}, "file {file}, line 1, dialog 'd', field 'turns': dialog has no turns"),
        ([], "file {file}: the file holds no dialogs"),
        ("  \n", "file {file}: the file is empty"),
        (
            [paired(1, reply("a"), reply("a")), paired(1, reply("b"), reply("b"))],
            "file {file}, line 1, dialog 'd', turn 1, field 'turn_no': duplicate turn_no",
        ),
        (
            '[{"turn_no": 1, "turn": "Tool", "gold_turn": {"tool_id": "t", "action": "A", "args": {"n": NaN}},'
            ' "predict_turn": {"tool_id": "t", "action": "A", "args": {"n": 1}}}]',
            "file {file}, line 1, dialog 'd', turn 1, field 'gold_turn.args.n': NaN or infinite number is not allowed",
        ),
        (
            [paired(1, reply("a"), reply("a"), weight=0)],
            "file {file}, line 1, dialog 'd', turn 1, field 'weight': Input should be greater than 0",
        ),
        (
            [paired(1, reply("a"), reply("a"), depends_on=[3])],
            "file {file}, line 1, dialog 'd', turn 1, field 'depends_on': depends_on names turn 3",
        ),
        (
            [{"turn_no": 1, "turn": "Robot", "gold_turn": reply("a"), "predict_turn": reply("a")}],
            "file {file}, line 1, dialog 'd', turn 1, field 'turn': Input should be 'Agent' or 'Tool'",
        ),
    ],
)
def test_bad_input_names_file_dialog_turn_and_field(tmp_path: Path, content: Any, expected: str) -> None:
    path = write(tmp_path, "d.json", content)
    try:
        loaded = load_dialogs(path)
    except InputError as error:
        message = str(error)
    else:
        assert loaded.dialogs == ()
        (error,) = loaded.errors
        message = str(error)
    assert message.startswith(expected.format(file=path)), message


def test_bad_dialog_in_dataset_is_reported_and_the_rest_kept(tmp_path: Path) -> None:
    good = {"dialog_id": "good", "turns": [paired(1, reply("hi"), reply("hi"))]}
    bad = {"dialog_id": "bad", "turns": [paired(1, reply("hi"), {"response": 5})]}
    lines = [json.dumps(good), "{not json", json.dumps(bad), json.dumps({**good, "dialog_id": "good2"})]
    path = write(tmp_path, "set.jsonl", "\n".join(lines))
    loaded = load_dialogs(path)
    assert [d.dialog_id for d in loaded] == ["good", "good2"]
    messages = [str(e) for e in loaded.errors]
    assert messages[0].startswith(f"file {path}, line 2: malformed JSON")
    assert messages[1] == (
        f"file {path}, line 3, dialog 'bad', turn 1, field 'predict_turn.response': Input should be a valid string"
    )


def test_duplicate_dialog_id_is_an_error_for_the_later_one(tmp_path: Path) -> None:
    record = {"dialog_id": "same", "turns": [paired(1, reply("hi"), reply("hi"))]}
    loaded = load_dialogs(write(tmp_path, "set.json", [record, record]))
    assert len(loaded) == 1
    assert "dialog_id is used by an earlier dialog" in str(loaded.errors[0])


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"file .*missing\.json: cannot read file"):
        load_dialogs(tmp_path / "missing.json")


@pytest.mark.parametrize(
    ("metadata", "field", "message"),
    [
        (
            {"reference_date": "soon"},
            "metadata.reference_date",
            "expected an ISO date such as '2019-03-01', got 'soon'",
        ),
        ({"unordered_args": ["a"]}, "metadata.unordered_args", "expected {"),
        ([1], "metadata", "metadata must be an object, got list"),
    ],
)
def test_metadata_keys_the_engine_reads_are_validated(tmp_path: Path, metadata: Any, field: str, message: str) -> None:
    record = {"dialog_id": "d", "metadata": metadata, "turns": [paired(1, reply("hi"), reply("hi"))]}
    loaded = load_dialogs(write(tmp_path, "set.json", [record]))
    (error,) = loaded.errors
    assert error.location.field == field
    assert error.message.startswith(message)
