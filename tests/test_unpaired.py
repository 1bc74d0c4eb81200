"""The unpaired file format: validation errors, the public API and ``aem-strands score`` with the
alignment flags (examples/data/strands_unpaired.json)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from aem_strands import AlignOptions, InputError, evaluate_dialog, load_dialogs, parse_unpaired
from aem_strands.cli import main as aem_strands
from tests.conftest import EXAMPLES

DATA = EXAMPLES / "data" / "strands_unpaired.json"


def tool(tool_id: str, act: str, **args: Any) -> dict[str, Any]:
    return {"turn": "Tool", "tool_id": tool_id, "action": act, "args": args}


def agent(text: str) -> dict[str, Any]:
    return {"turn": "Agent", "response": text}


def test_evaluate_dialog_accepts_the_unpaired_json_form() -> None:
    raw = {
        "dialog_id": "d",
        "gold": [tool("a", "x", q=1), agent("ok")],
        "predicted": [tool("b", "y"), tool("a", "x", q=1), agent("ok")],
    }
    result = evaluate_dialog(raw, scorer="exact").to_dict()
    assert [t["own_reason"] for t in result["turns"]] == ["extra_turn", None, None]  # type: ignore[index]
    assert result["score"] == 0.6667  # 2 of 3 turns pass, rounded to 4 places
    assert result["metadata"]["alignment"]["pairs"][0] == {"turn_no": 1, "gold_index": None, "predicted_index": 0}  # type: ignore[index]
    tolerant = evaluate_dialog(raw, scorer="exact", align=AlignOptions("all")).to_dict()
    assert (tolerant["score"], tolerant["test_pass"]) == (1.0, True)
    assert tolerant["metadata"]["alignment"]["ignored_predicted"] == [0]  # type: ignore[index]


def test_load_dialogs_reads_an_array_of_unpaired_dialogs_with_options() -> None:
    strict = load_dialogs(DATA)
    assert [d.dialog_id for d in strict] == ["booking_extra_lookup", "booking_skipped"]
    assert len(strict[0].turns) == 5  # the weather lookup is an extra turn
    tolerant = load_dialogs(DATA, align=AlignOptions("read_only", frozenset({"weather"})))
    assert len(tolerant[0].turns) == 4


def test_predicted_latency_is_kept_on_the_aligned_turn() -> None:
    raw = {"dialog_id": "d", "gold": [tool("a", "x")], "predicted": [{**tool("a", "x"), "latency_ms": 12.5}]}
    assert parse_unpaired(raw).align().turns[0].latency_ms == 12.5


@pytest.mark.parametrize(
    ("raw", "turn_no", "field", "message"),
    [
        ({"dialog_id": "d", "gold": [tool("a", "x")]}, None, "predicted", "'predicted' is missing"),
        ({"dialog_id": "d", "gold": {}, "predicted": []}, None, "gold", "must be a list"),
        ({"dialog_id": "d", "gold": [agent("a"), {"turn": "Tool", "tool_id": "t"}], "predicted": []},
         2, "gold.action", "'action'"),
        ({"dialog_id": "d", "gold": [{"turn": "Agent", "tool_id": "t"}], "predicted": []}, 1, "gold.tool_id", "reply"),
        ({"dialog_id": "d", "gold": [], "predicted": [{"turn": "Bot", "response": "x"}]}, 1, "predicted.turn", "Agent"),
        ({"dialog_id": "d", "gold": [], "predicted": [{**agent("x"), "critical": True}]},
         1, "predicted.critical", "gold annotation"),
        ({"dialog_id": "d", "gold": [{**tool("a", "x"), "depends_on": [1]}], "predicted": []},
         1, "gold.depends_on", "earlier"),
        ({"dialog_id": "d", "gold": [tool("a", "x", v=float("nan"))], "predicted": []}, 1, "gold", "NaN"),
        ({"dialog_id": "d", "gold": [], "predicted": [], "turns": []}, None, "turns", "unknown field"),
        ({"dialog_id": 3, "gold": [], "predicted": []}, None, "dialog_id", "non-empty string"),
    ],
)  # fmt: skip
def test_bad_input_names_dialog_turn_and_field(
    raw: dict[str, Any], turn_no: int | None, field: str, message: str
) -> None:
    with pytest.raises(InputError, match=message) as caught:
        parse_unpaired(raw, file="f.json")
    where = caught.value.location
    assert (where.file, where.turn_no, where.field) == ("f.json", turn_no, field)
    if field != "dialog_id":
        assert where.dialog_id == "d"


def test_bad_dialog_in_a_file_is_reported_and_the_good_one_still_scored(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    good = {"dialog_id": "good", "gold": [agent("hi")], "predicted": [agent("hi")]}
    bad = {"dialog_id": "bad", "gold": [{"turn": "Tool", "tool_id": "t"}], "predicted": []}
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    out, err = io.StringIO(), io.StringIO()
    assert aem_strands(["score", str(path), "--scorer", "exact", "--format", "jsonl"], stdout=out, stderr=err) == 2
    assert "dialog 'bad', turn 1, field 'gold.action'" in err.getvalue()
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert records[0]["dialog_id"] == "good"
    assert records[0]["test_pass"] is True


def _score(*flags: str) -> tuple[int, list[dict[str, Any]]]:
    out, err = io.StringIO(), io.StringIO()
    code = aem_strands(["score", str(DATA), "--scorer", "exact", "--format", "json", *flags], stdout=out, stderr=err)
    return code, json.loads(out.getvalue() or "[]")


def test_cli_scores_unpaired_dialogs_with_alignment_flags() -> None:
    code, results = _score()
    assert code == 1
    lookup, skipped = results
    # extra weather lookup: 4 of 5 aligned turns pass
    assert (lookup["score"], lookup["root_cause"]) == (0.8, "extra_turn")
    # swapped order-invariant pair passes, the skipped booking is missing: 3 of 4
    assert skipped["score"] == 0.75
    assert [t["own_reason"] for t in skipped["turns"]] == [None, None, "missing_turn", None]

    code, results = _score("--allow-extra", "read_only", "--read-only-tool", "weather")
    assert (results[0]["score"], results[0]["test_pass"]) == (1.0, True)
    assert code == 1  # the second dialog still misses a turn

    assert _score("--allow-extra", "read_only") == (2, [])  # read_only needs at least one tool name


def test_nothing_required_and_nothing_done_passes() -> None:
    result = evaluate_dialog({"dialog_id": "idle", "gold": [], "predicted": []}, scorer="exact")
    assert (result.score, result.test_pass) == (1.0, True)
    assert result.reason() == "nothing to judge: no required turn, nothing missing, nothing extra"
