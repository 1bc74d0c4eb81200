"""Issue 29: ``pytest`` says why tests skip (``-rs`` in the configured options)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def test_the_configured_options_report_skip_reasons() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # tomllib is 3.11+, the package supports 3.10
    section = text.split("[tool.pytest.ini_options]", 1)[1].split("\n[", 1)[0]
    found = re.search(r'^addopts\s*=\s*"([^"]*)"', section, flags=re.MULTILINE)
    assert found is not None
    assert "-rs" in found.group(1).split()


def test_a_skipped_test_names_its_reason(tmp_path: Path) -> None:
    (tmp_path / "test_skips.py").write_text(
        "import pytest\n\ndef test_needs_data():\n    pytest.skip('needs ../shared/external_data/sgd')\n\n"
        "def test_runs():\n    assert 1 + 1 == 2\n",
        encoding="utf-8",
    )
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_skips.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert "SKIPPED [1]" in done.stdout
    assert "needs ../shared/external_data/sgd" in done.stdout
    assert "1 passed, 1 skipped" in done.stdout
