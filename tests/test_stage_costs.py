"""``benchmarks/stage_costs.py`` runs end to end on a few SGD dialogs and prints every figure it promises."""

from __future__ import annotations

import re

import pytest
import stage_costs

from tests.conftest import EXTERNAL_DATA


@pytest.mark.skipif(not (EXTERNAL_DATA / "sgd").is_dir(), reason="SGD data not present (../shared/external_data)")
def test_stage_costs_prints_each_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert stage_costs.main(["--limit", "12", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^12 dialogs, \d+ gold turns, \d+ of them differ from gold", out, re.M)
    for row in ("API, perturbed", "API, gold against gold", "the differing turns add", "per differing turn"):
        assert re.search(rf"^\s*{row}.*µs", out, re.M), row
    assert len(re.findall(r"µs/gold turn$", out, re.M)) == 3  # the three loops that judge nothing
