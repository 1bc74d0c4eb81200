"""Passes explain themselves: every judged value and reply records how it was decided (issue 7, item 5)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from aem_strands import evaluate_dialog
from aem_strands.cli import main
from tests.conftest import action, paired, reply


def test_a_passing_value_records_method_score_and_detail() -> None:
    dialog = [paired(1, action("shop", "Ship", weight="5 kg"), action("shop", "Ship", weight="5000 g"))]
    turn = evaluate_dialog(dialog, scorer="exact").to_dict()["turns"][0]
    assert turn["verdict"] == "pass"
    assert turn["decisions"] == [
        {"field": "args.weight", "equivalent": True, "method": "normalised", "score": 1.0,
         "detail": "'5000 g' is the same as '5 kg' (measurement 5 kilogram)"},
    ]  # fmt: skip


def test_an_identical_turn_says_so_and_a_failing_one_records_its_decision_too() -> None:
    same = paired(1, reply("Done."), reply("Done."))
    wrong = paired(2, action("t", "A", x="ORDER_123"), action("t", "A", x="ORDER_124"))
    turns = evaluate_dialog([same, wrong], scorer="exact").to_dict()["turns"]
    assert turns[0]["decisions"][0]["detail"] == "identical to gold"
    assert turns[1]["decisions"][0]["equivalent"] is False
    assert turns[1]["decisions"][0]["field"] == "args.x"


def test_decisions_reach_the_json_output(tmp_path: Path) -> None:
    data = tmp_path / "d.json"
    dialog = [paired(1, action("shop", "Ship", weight="5 kg"), action("shop", "Ship", weight="5000 g"))]
    data.write_text(json.dumps(dialog), encoding="utf-8")
    out = io.StringIO()
    assert main(["score", str(data), "--scorer", "exact", "--format", "json"], stdout=out, stderr=io.StringIO()) == 0
    record = json.loads(out.getvalue())[0]
    assert record["turns"][0]["decisions"][0]["method"] == "normalised"
