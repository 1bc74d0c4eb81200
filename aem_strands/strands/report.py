"""``AemReport``: an ``EvaluationReport`` with AEM rollups across cases.

Use it as ``Experiment(..., report_cls=AemReport)``, or reload any report JSON (including the one
``strands-evals run -o`` writes) with ``AemReport.from_file(path)``: the rollups are computed from
the rows' ``metadata``, so nothing beyond the host's report format is needed.

AEM rows are the rows whose single output's ``metadata`` holds a dialog result (those of
``AemSessionEvaluator`` / ``CorrectnessCustomEvaluator``). ``rollups()`` returns:

- ``cases``, ``mean_score``, ``pass_rate`` over those rows;
- ``failure_reasons``: for each turn-level failure reason (the turn's own reason), how many
  failing turns were a root cause and how many a cascade;
- ``sub_metrics``: passed / total / rate summed over cases;
- ``chains``: per chain-length bucket (single, two_step, three_plus), turns / passed / pass_rate;
- ``by_metadata``: when ``group_by`` names a case metadata key (e.g. ``version``), per value:
  cases, mean_score, pass_rate.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from strands_evals.types.evaluation_report import EvaluationReport

from aem_strands.types import JsonValue


@dataclass(frozen=True)
class AemRow:
    """One AEM session row of a report: the case record, its dialog result, score and verdict."""

    case: dict[str, Any]
    result: dict[str, Any]
    score: float
    test_pass: bool


def _rate(passed: int, total: int) -> float | None:
    return round(passed / total, 4) if total else None


class AemReport(EvaluationReport):  # type: ignore[misc]  # strands_evals ships no type information
    """An ``EvaluationReport`` that can roll AEM results up across cases."""

    def aem_rows(self, evaluator: str | None = None) -> Iterator[AemRow]:
        """Every AEM session row (of the evaluator named ``evaluator``, if given)."""
        for index, outputs in enumerate(self.detailed_results):
            case = self.cases[index] if index < len(self.cases) else {}
            if evaluator is not None and case.get("evaluator") != evaluator:
                continue
            if len(outputs) != 1 or not isinstance(outputs[0].metadata, dict):
                continue
            result = outputs[0].metadata
            if "turns" not in result or "sub_metrics" not in result:
                continue
            yield AemRow(case, result, float(self.scores[index]), bool(self.test_passes[index]))

    def rollups(self, *, group_by: str | None = None, evaluator: str | None = None) -> dict[str, JsonValue]:
        """Rollups across the AEM rows (see the module docstring)."""
        rows = list(self.aem_rows(evaluator))
        reasons: dict[str, dict[str, int]] = {}
        sub: dict[str, dict[str, int]] = {}
        chains: dict[str, dict[str, int]] = {}
        groups: dict[str, list[tuple[float, bool]]] = {}
        for row in rows:
            result = row.result
            for turn in result["turns"]:
                reason, role = turn.get("own_reason"), turn.get("role")
                if reason and role:
                    counts = reasons.setdefault(reason, {"root_cause": 0, "cascade": 0})
                    counts[role] += 1
            for metric, rate in result["sub_metrics"].items():
                total = sub.setdefault(metric, {"passed": 0, "total": 0})
                total["passed"] += rate["passed"]
                total["total"] += rate["total"]
            for bucket, stats in result.get("chains", {}).items():
                total = chains.setdefault(bucket, {"turns": 0, "passed": 0})
                total["turns"] += stats["turns"]
                total["passed"] += stats["passed"]
            if group_by is not None:
                key = (row.case.get("metadata") or {}).get(group_by)
                groups.setdefault(str(key), []).append((row.score, row.test_pass))
        out: dict[str, JsonValue] = {
            "cases": len(rows),
            "mean_score": round(sum(r.score for r in rows) / len(rows), 4) if rows else None,
            "pass_rate": _rate(sum(r.test_pass for r in rows), len(rows)),
            "failure_reasons": dict(sorted(reasons.items())),
            "sub_metrics": {m: {**t, "rate": _rate(t["passed"], t["total"])} for m, t in sub.items()},
            "chains": {b: {**t, "pass_rate": _rate(t["passed"], t["turns"])} for b, t in chains.items()},
        }
        if group_by is not None:
            out["by_metadata"] = {
                "key": group_by,
                "groups": {
                    value: {
                        "cases": len(items),
                        "mean_score": round(sum(s for s, _ in items) / len(items), 4),
                        "pass_rate": _rate(sum(p for _, p in items), len(items)),
                    }
                    for value, items in sorted(groups.items())
                },
            }
        return out

    def summary(self, *, group_by: str | None = None) -> str:
        """A few lines a person can read at a glance: scores, root causes vs cascades, weakest sub-metric."""
        r = self.rollups(group_by=group_by)
        lines = [f"AEM: {r['cases']} case(s), mean score {r['mean_score']}, pass rate {r['pass_rate']}"]
        reasons = r["failure_reasons"]
        assert isinstance(reasons, dict)  # built just above as a dict; narrows JsonValue for mypy
        for reason, counts in reasons.items():
            lines.append(f"  {reason}: {counts['root_cause']} root cause(s), {counts['cascade']} cascade(s)")
        groups = r.get("by_metadata")
        if isinstance(groups, dict):
            for value, stats in groups["groups"].items():
                lines.append(f"  {group_by}={value}: mean {stats['mean_score']}, pass rate {stats['pass_rate']}")
        return "\n".join(lines)
