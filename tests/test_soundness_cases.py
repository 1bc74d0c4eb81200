"""benchmarks/soundness_cases.py: every adversarial case of the soundness bullets gives the verdict it must."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_every_soundness_case_gives_its_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import soundness_cases

    assert soundness_cases.main(["--tooltalk", str(tmp_path)]) == 0  # an empty folder: the cases only
    out = capsys.readouterr().out
    assert "0 case(s) wrong" in out
    assert out.count(" veto ") >= 12  # the denied, destructive, lifted-hint and injected cases
    assert "WRONG" not in out
