"""Issue 29: a benchmark without its data says what is missing and exits cleanly (no traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

CASES = [
    ("speed_benchmark.py", "--sgd-dir", "no SGD dialogues in"),
    ("stage_costs.py", "--sgd-dir", "no SGD dialogues in"),
    ("stream_benchmark.py", "--sgd-dir", "no SGD dialogues in"),
    ("embedding_benchmark.py", "--sgd-dir", "no SGD dialogues in"),
    ("pair_model_data.py", "--sgd-git", "no git snapshot of the SGD data set"),
]


@pytest.mark.parametrize(("script", "flag", "message"), CASES)
def test_a_missing_data_folder_is_named_without_a_traceback(
    script: str, flag: str, message: str, tmp_path: Path
) -> None:
    missing = tmp_path / "absent"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = tmp_path / "out"
    extra = ["--out", str(out)] if script == "pair_model_data.py" else []
    command = [sys.executable, str(ROOT / "benchmarks" / script), flag, str(missing), *extra]
    done = subprocess.run(command, cwd=ROOT / "benchmarks", env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 2)  # 2: the folder given is not the data; 0: the default one is absent (skipped)
    assert "Traceback" not in done.stderr
    assert message in done.stderr
    assert str(missing) in done.stderr  # which folder was looked at
    assert flag in done.stderr  # and how to give another
    assert not out.exists()  # nothing written


def test_the_data_is_found_when_it_is_there(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from speed_benchmark import require_sgd
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "dialogues_001.json").write_text("[]", encoding="utf-8")
    require_sgd(tmp_path, "speed_benchmark")  # returns: the folder holds SGD dialogues
    with pytest.raises(SystemExit) as stopped:
        require_sgd(tmp_path / "elsewhere", "speed_benchmark")
    assert stopped.value.code == 2
