"""Repeated trials: pass^k per case group, and which cases are flaky or never pass. Pure: records in, a dict out.

A record is one trial when its ``metadata`` carries ``trial`` (``aem_strands.strands.trials.trial_cases`` sets
``trial`` and ``trial_of``); its case is ``metadata.trial_of`` (else the ``dialog_id`` less a ``#trial<i>``
suffix). For a case with ``c`` passes in ``n`` trials, pass^k is the τ-bench estimator
``C(c, k) / C(n, k)`` (``scipy.special.comb``): the chance that ``k`` trials drawn without replacement all
pass. pass^k of a set of cases is the mean over the cases with at least ``k`` trials, with a percentile
bootstrap 95% interval over cases (``aem_strands.report.stats.mean_interval``). pass^1 is the plain pass
rate; pass^k falls as ``k`` grows unless every case passes always or never.

A case is ``flaky`` when it passed in some trials and failed in others, ``never_passed`` when it failed in
every trial; the two are listed apart (a flaky case wants repeated runs, a never-passing one a fix).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scipy.special import comb

from aem_strands.report.stats import mean_interval

TRIAL_SUFFIX = re.compile(r"#trial\d+$")
MAX_LISTED = 50
"""Most case names listed as flaky or never passing per group (the counts are always complete)."""


def pass_hat_k(passed: int, trials: int, k: int) -> float:
    """``C(passed, k) / C(trials, k)``: the chance that ``k`` of the case's ``trials`` drawn at random all passed.

    Raises ``ValueError`` unless ``0 <= passed <= trials`` and ``1 <= k <= trials``.
    """
    if not 0 <= passed <= trials or not 1 <= k <= trials:
        raise ValueError(f"pass^k needs 0 <= passed <= trials and 1 <= k <= trials, got {passed}, {trials}, {k}")
    return int(comb(passed, k, exact=True)) / int(comb(trials, k, exact=True))


def trial_of(record: Mapping[str, Any]) -> str | None:
    """The case a trial record belongs to, or ``None`` when the record is not a trial (no ``metadata.trial``)."""
    metadata = record.get("metadata") or {}
    if not isinstance(metadata, Mapping) or metadata.get("trial") is None:
        return None
    parent = metadata.get("trial_of")
    if isinstance(parent, str) and parent:
        return parent
    return TRIAL_SUFFIX.sub("", str(record.get("dialog_id")))


@dataclass
class _Case:
    trials: int = 0
    passed: int = 0


class TrialTally:
    """Passes and trials per case, added one record at a time; ``summary()`` gives pass^k and the flaky cases."""

    def __init__(self) -> None:
        self.cases: dict[str, _Case] = {}

    def add(self, record: Mapping[str, Any]) -> bool:
        """Count ``record`` when it is a trial; returns whether it was one."""
        case = trial_of(record)
        if case is None:
            return False
        counts = self.cases.setdefault(case, _Case())
        counts.trials += 1
        counts.passed += bool(record.get("test_pass"))
        return True

    def summary(self) -> dict[str, Any] | None:
        """pass^k for k = 1..(most trials of a case), each with its interval and the cases it averages; the
        flaky and never-passing cases; ``None`` without trials."""
        if not self.cases:
            return None
        most = max(c.trials for c in self.cases.values())
        rows = []
        for k in range(1, most + 1):
            values = [pass_hat_k(c.passed, c.trials, k) for c in self.cases.values() if c.trials >= k]
            interval = mean_interval(values)
            empty = {"estimate": None, "low": None, "high": None, "n": 0}
            rows.append({"k": k, **(interval.to_dict() if interval is not None else empty)})
        flaky = sorted(name for name, c in self.cases.items() if 0 < c.passed < c.trials)
        never = sorted(name for name, c in self.cases.items() if c.passed == 0)
        per_case = None
        if len(self.cases) <= MAX_LISTED:
            per_case = {n: {"passed": c.passed, "trials": c.trials} for n, c in sorted(self.cases.items())}
        return {
            "cases": len(self.cases),
            "trials": sum(c.trials for c in self.cases.values()),
            "max_trials": most,
            "pass_hat_k": rows,
            "flaky_count": len(flaky),
            "never_passed_count": len(never),
            "always_passed_count": sum(c.passed == c.trials for c in self.cases.values()),
            "flaky": flaky[:MAX_LISTED],
            "never_passed": never[:MAX_LISTED],
            "per_case": per_case,
        }
