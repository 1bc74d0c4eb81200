"""``import aem_strands`` asks OpenMP's idle threads to sleep, unless the caller chose a wait policy (speed only)."""

from __future__ import annotations

import os
import subprocess
import sys


def _policy_after_import(environment: dict[str, str]) -> str:
    code = "import os, aem_strands; print(os.environ.get('OMP_WAIT_POLICY'))"
    done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_package_sets_a_passive_wait_policy_only_when_none_is_given() -> None:
    environment = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    assert _policy_after_import(environment) == "PASSIVE"
    assert _policy_after_import({**environment, "OMP_WAIT_POLICY": "ACTIVE"}) == "ACTIVE"
