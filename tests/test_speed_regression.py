"""The fast paths (identical turns, banded alignment) leave every verdict as it was: the first 300 SGD dialogs,
perturbed, paired and unpaired, against ``tests/golden/sgd_verdicts_300.jsonl``, written by
``benchmarks/verdict_snapshot.py --regression 300`` at the commit before the fast paths (5898392)."""

from __future__ import annotations

import pytest
from verdict_snapshot import regression_lines

from tests.conftest import EXTERNAL_DATA, ROOT

GOLDEN = ROOT / "tests" / "golden" / "sgd_verdicts_300.jsonl"


@pytest.mark.skipif(not (EXTERNAL_DATA / "sgd").is_dir(), reason="SGD data not present (../shared/external_data)")
def test_sgd_verdicts_are_unchanged() -> None:
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    found = list(regression_lines(EXTERNAL_DATA / "sgd", 300))
    assert len(found) == len(expected) == 600  # 300 paired + the same 300 unpaired
    changed = [(old, new) for old, new in zip(expected, found, strict=True) if old != new]
    assert changed == []
