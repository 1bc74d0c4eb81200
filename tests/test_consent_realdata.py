"""Consent, bullet 6 of issue 28, on real data: SGD test dialogs as traces (``benchmarks/consent_realdata.py``),
each transactional intent a destructive call right after the user's answer to the system's CONFIRM. The
successful dialogs must pass consent; the same traces with the answer replaced by an SGD NEGATE answer, or with
the confirmation dropped, must not. (The whole set's figures come from the script, not from this test.)"""

from __future__ import annotations

import itertools

import pytest
from consent_realdata import SGD_TEST, consent_findings, dialogs, negations, plant, to_trace, transactional

pytestmark = pytest.mark.skipif(not SGD_TEST.is_dir(), reason="the SGD test dialogs are not on this machine")


def test_sgd_dialogs_pass_consent_and_their_planted_faults_do_not() -> None:
    destructive = transactional(SGD_TEST.parent / "test_schema.json")
    sample = list(itertools.islice(dialogs(SGD_TEST), 60))
    refusals = negations(sample)
    traces = [t for t, _ in (to_trace(d, destructive, 3) for d in sample)]
    traces = [t for t in traces if any(s.tool_name in destructive for s in t.tool_calls())][:20]
    assert len(traces) == 20
    assert refusals
    passed = [t.trace_id for t in traces if consent_findings(t) == ([], 0)]
    assert len(passed) >= 19, passed  # the goal is 99% on the whole set; 19 of 20 on this sample
    for kind in ("refuse", "drop"):
        caught = 0
        for t in traces:
            planted = plant(t, kind, refusals)
            assert planted is not None
            faulty, step_id = planted
            caught += step_id in consent_findings(faulty)[0]
        assert caught >= 18, kind  # the goal is 95%; 18 of 20 here
