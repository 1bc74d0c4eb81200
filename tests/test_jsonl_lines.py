"""JSONL is split on "\\n" only, by every reader: a raw U+2028, U+2029 or U+0085 inside a JSON string stays in its
record (``str.splitlines`` would cut it in two and shift every later line number) (issue 9)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aem_strands.compare.calibration import load_pairs
from aem_strands.errors import InputError
from aem_strands.report import load_labels, load_results

SEPARATORS = ["\u2028", "\u2029", "\u0085", "\x1c", "\x0b", "\x0c"]


def raw_jsonl(rows: list[dict[str, object]]) -> str:
    # ensure_ascii=False writes the separators raw, as many producers do
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


@pytest.mark.parametrize("separator", SEPARATORS)
def test_calibration_pairs_keep_a_raw_separator_inside_a_string(tmp_path: Path, separator: str) -> None:
    path = tmp_path / "pairs.jsonl"
    rows = [
        {"gold": f"a{separator}b", "predicted": "a b", "label": True},
        {"gold": "x", "predicted": "y", "label": False},
        {"gold": "x", "predicted": "y"},
    ]
    path.write_text(raw_jsonl(rows), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_pairs(path)
    # the third record is the bad one, and it is still reported on line 3
    assert caught.value.location.file == f"{path}:3"
    path.write_text(raw_jsonl(rows[:2]), encoding="utf-8")
    pairs = load_pairs(path)
    assert [p.gold for p in pairs] == [f"a{separator}b", "x"]


@pytest.mark.parametrize("separator", SEPARATORS)
def test_report_results_and_labels_keep_a_raw_separator_inside_a_string(tmp_path: Path, separator: str) -> None:
    results = tmp_path / "results.jsonl"
    rows = [
        {"dialog_id": f"d{separator}1", "turns": []},
        {"dialog_id": "d2", "turns": []},
        {"dialog_id": "d3"},
    ]
    results.write_text(raw_jsonl(rows), encoding="utf-8")
    loaded = load_results([results])
    assert [r["dialog_id"] for r in loaded.records] == [f"d{separator}1", "d2"]
    assert [(e.location.file, e.location.line) for e in loaded.errors] == [(str(results), 3)]

    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        raw_jsonl([{"dialog_id": f"d{separator}1", "label": "pass"}, {"dialog_id": "d2", "label": "fail"}]),
        encoding="utf-8",
    )
    assert [(label.dialog_id, label.value) for label in load_labels(labels)] == [(f"d{separator}1", 1.0), ("d2", 0.0)]
