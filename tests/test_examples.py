"""Every core example script runs and prints what it claims (Strands examples have their own tests)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import EXAMPLES, ROOT


def run_example(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    return subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300
    )


def test_quickstart_finds_the_refund_amount_as_root_cause() -> None:
    done = run_example("quickstart.py")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "root cause turn 2: inconsistent_parameter_values (args.amount '200' vs 20); 1 cascading"
    assert lines[1:] == ["1 pass ", "2 inconsistent_parameter_values ", "3 prior_action_failed 2"]


@pytest.mark.slow
def test_score_dataset_skips_the_bad_record_and_scores_the_rest() -> None:
    done = run_example("score_dataset.py")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "skipped: file " in out
    assert "dialog 'trip-bad', turn 1, field 'predict_turn.action'" in out
    assert "trip-ok: score 1.00 pass=True" in out  # the swapped order-invariant pair passes
    # trip-wrong-city: 4 turns, none pass: turn 1 root, 2 and 3 cascade via UA-555, turn 4 a second root.
    assert "trip-wrong-city: score 0.00 pass=False | root cause turn 1" in out
    assert "2 cascading; root cause turn 4" in out
    # trip-missing-arg: 1 of 2 turns passes ("NYC" vs "New York City" passes on the embedding model).
    assert "trip-missing-arg: score 0.50 pass=False | root cause turn 1: missing_parameters (args.nights missing" in out


def test_trace_quickstart_prints_each_storys_outcome_and_critical_step() -> None:
    done = run_example("trace_quickstart.py")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "refund-status-ok: pass failed=-"
    assert "refund-no-identity: fail failed=planning | first critical step s5 (earliest_failure)" in lines
    assert "cancel-no-consent: fail VETO failed=safety | first critical step s4 (earliest_failure)" in lines
    assert "timeout-hidden: fail failed=recovery | first critical step s3 (unrecovered_error)" in lines
    assert "timeout-retried-explained: pass failed=-" in lines
    ungrounded = "ungrounded-order-id: fail failed=arguments,state | first critical step s2 (decision_before_failures)"
    assert ungrounded in lines
    assert '"first_critical_failure_step": "s2"' in done.stdout
