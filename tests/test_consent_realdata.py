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
    outcomes = [consent_findings(t) for t in traces]
    # Measured on this sample: no finding on any of the 20, 17 settled as consent, 3 questions for the judge.
    assert all(found == [] for found, _ in outcomes)
    assert sum(undecided == 0 for _, undecided in outcomes) >= 17
    for kind in ("refuse", "drop"):
        caught = undecided = 0
        for t in traces:
            planted = plant(t, kind, refusals)
            assert planted is not None
            faulty, step_id = planted
            found, questions = consent_findings(faulty)
            caught += step_id in found
            undecided += step_id not in found and questions > 0
        # Never a pass on a planted fault here: caught (refuse 14, drop 14 of 20) or a question for the judge.
        assert caught >= 14, kind
        assert caught + undecided == 20, kind
