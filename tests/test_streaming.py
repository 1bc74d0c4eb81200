"""``iter_evaluate``: results in input order, as the one-batch ``evaluate_dialogs`` gives them, whatever the batch
size; input read lazily, one batch at a time; ``--batch-size`` on the command line."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest

from aem_strands import EvalOptions, evaluate_dialogs, load_dialogs
from aem_strands.cli import main
from aem_strands.errors import ConfigError
from aem_strands.evaluate import iter_evaluate
from tests.conftest import EXAMPLES

DATA = EXAMPLES / "data"
FILES = ["travel_dataset.jsonl", "strands_unpaired.json", "sales_report.json", "sales_report_two_roots.json"]


def _dialogs() -> list[Any]:
    return [d for name in FILES for d in load_dialogs(DATA / name).dialogs]


@pytest.mark.parametrize("size", [1, 3, 1000])
def test_results_in_input_order_whatever_the_batch_size(size: int) -> None:
    dialogs = _dialogs()
    expected = [r.to_dict() for r in evaluate_dialogs(dialogs, scorer="exact")]
    streamed = [r.to_dict() for r in iter_evaluate(iter(dialogs), scorer="exact", batch_size=size)]
    assert streamed == expected
    assert [r["dialog_id"] for r in streamed] == [d.dialog_id for d in dialogs]


def test_input_is_read_one_batch_at_a_time() -> None:
    dialogs = _dialogs()
    pulled: list[int] = []

    def source() -> Iterator[Any]:
        for index, dialog in enumerate(dialogs):
            pulled.append(index)
            yield dialog

    results = iter_evaluate(source(), EvalOptions(scorer="exact", batch_size=2))
    first = next(results)
    assert first.dialog_id == dialogs[0].dialog_id
    assert len(pulled) == 2  # the first batch only (2 dialogs), not the whole input
    assert len(list(results)) == len(dialogs) - 1


def test_batch_size_in_options_gives_the_same_list() -> None:
    dialogs = _dialogs()
    one_batch = [r.to_dict() for r in evaluate_dialogs(dialogs, scorer="exact")]
    batched = [r.to_dict() for r in evaluate_dialogs(dialogs, EvalOptions(scorer="exact", batch_size=2))]
    assert batched == one_batch


@pytest.mark.parametrize("size", [0, -1, 2.5, True])
def test_batch_size_is_validated(size: Any) -> None:
    with pytest.raises(ConfigError, match="batch_size must be a whole number >= 1"):
        EvalOptions(batch_size=size)


def test_cli_batch_size_writes_the_same_records() -> None:
    path = str(DATA / "travel_dataset.jsonl")
    outputs = []
    for extra in ([], ["--batch-size", "1"], ["--batch-size", "3"]):
        out = io.StringIO()
        code = main(["score", path, "--scorer", "exact", "--format", "jsonl", *extra], stdout=out, stderr=io.StringIO())
        outputs.append((code, [json.loads(line) for line in out.getvalue().splitlines()]))
    assert outputs[1] == outputs[0]
    assert outputs[2] == outputs[0]
    loaded = load_dialogs(DATA / "travel_dataset.jsonl")
    assert len(outputs[0][1]) == len(loaded.dialogs) + len(loaded.errors)  # a record per dialog and per error
