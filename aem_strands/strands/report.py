"""``AemReport``: an ``EvaluationReport`` with AEM rollups across cases, consistent with the host's numbers.

Use it as ``Experiment(..., report_cls=AemReport)``, or reload any report JSON (including the one
``strands-evals run -o`` writes) with ``AemReport.from_file(path)``: the rollups are computed from
the rows' ``metadata``, so nothing beyond the host's report format is needed.

AEM rows are the rows that carry a dialog result: the one output of ``AemSessionEvaluator`` /
``CorrectnessCustomEvaluator`` (the full result in its ``metadata``), or the per-turn outputs of
``AemTurnEvaluator`` (each turn's details plus the dialog's in ``metadata["dialog"]``). ``rollups()``
returns, over one AEM evaluator's rows (``evaluator=``), or over every case once (the first AEM
evaluator's row of each case, session rows preferred) when ``evaluator`` is ``None``:

- ``cases``, ``pass_rate``, and ``mean_score`` averaged over the rows the host averages
  (``EvaluationReport.is_applicable``: a case that could not be judged counts, as a failure, and only
  a case with nothing to judge is left out), so it equals the host's ``overall_score`` for that
  evaluator;
- ``evaluators``: the AEM evaluators whose rows were used;
- ``failure_reasons``: for each turn-level failure reason (the turn's own reason), how many
  failing turns were a root cause and how many a cascade;
- ``sub_metrics``: passed / total / rate summed over cases;
- ``chains``: per chain-length bucket (single, two_step, three_plus), turns / passed / pass_rate;
- ``by_metadata``: when ``group_by`` names a case metadata key (e.g. ``version``), per value:
  cases, mean_score, pass_rate.

Trace rows are the rows of ``AemTraceEvaluator`` (one per case, the trace record in ``metadata``: status, veto,
dimensions, first critical failure step). ``trace_rollups()`` gives, over one trace evaluator's rows: ``cases``,
``pass_rate``, ``mean_score`` (as the host averages), ``veto_rate``, ``inconclusive``, per dimension how many cases
it applied to, passed and failed (``rate`` = passed / applied), ``critical_rules`` (how often each rule chose the
first critical step), ``first_critical_steps`` (each failing case's step, rule and hypothesis) and, with
``group_by``, the same rates per metadata value (``version``...).

``summary()`` prints one block per AEM evaluator (dialog and trace); ``failing_turns()`` lists the per-turn verdicts of
every failing or undecided turn (``python -m aem_strands.strands.report FILE`` prints them: the
host's ``strands-evals report`` shows rows collapsed).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from strands_evals.types import EvaluationOutput
from strands_evals.types.evaluation_report import EvaluationReport

from aem_strands.report.words import counted
from aem_strands.types import JsonValue


@dataclass(frozen=True)
class AemRow:
    """One AEM row of a report: the case record, its dialog result, score and verdict, as the host has them."""

    case: dict[str, Any]
    result: dict[str, Any]
    score: float
    test_pass: bool
    applicable: bool = True
    turn_rows: bool = False

    @property
    def evaluator(self) -> str:
        return str(self.case.get("evaluator", ""))


AEM_TYPES = frozenset({"AemSessionEvaluator", "AemTurnEvaluator", "CorrectnessCustomEvaluator"})
"""Evaluator types whose rows are AEM rows even when a case could not be scored (the row has no result)."""
TRACE_TYPES = frozenset({"AemTraceEvaluator"})
"""Evaluator types whose rows are trace rows even when a case could not be judged (the row has no record)."""


@dataclass(frozen=True)
class TraceRow:
    """One trace row of a report: the case record, its trace record (``{}`` when it could not be judged), score and
    verdict as the host has them."""

    case: dict[str, Any]
    record: dict[str, Any]
    score: float
    test_pass: bool
    reason: str = ""

    @property
    def evaluator(self) -> str:
        return str(self.case.get("evaluator", ""))


def _trace_record(outputs: list[EvaluationOutput]) -> dict[str, Any] | None:
    """The trace record of a row's outputs (``None``: not a trace row)."""
    metadata = outputs[0].metadata if len(outputs) == 1 else None
    return metadata if isinstance(metadata, dict) and "dimensions" in metadata and "veto" in metadata else None


def _trace_rates(rows: list[TraceRow]) -> dict[str, JsonValue]:
    judged = [r for r in rows if r.record]
    return {
        "cases": len(rows),
        "mean_score": round(sum(r.score for r in rows) / len(rows), 4) if rows else None,
        "pass_rate": _rate(sum(r.test_pass for r in rows), len(rows)),
        "veto_rate": _rate(sum(bool(r.record.get("veto")) for r in rows), len(rows)),
        "inconclusive": sum(r.record.get("status") == "inconclusive" for r in judged),
        "not_judged": len(rows) - len(judged),
    }


def _rate(passed: int, total: int) -> float | None:
    return round(passed / total, 4) if total else None


def _mean(rows: list[AemRow]) -> float | None:
    counted = [r.score for r in rows if r.applicable]
    return round(sum(counted) / len(counted), 4) if counted else None


def _result(outputs: list[EvaluationOutput]) -> tuple[dict[str, Any], bool] | None:
    """The dialog result a row's outputs carry, and whether they are per-turn rows (``None``: not AEM)."""
    metadata = [o.metadata for o in outputs]
    if len(outputs) == 1 and isinstance(metadata[0], dict) and "turns" in metadata[0] and "sub_metrics" in metadata[0]:
        return metadata[0], False
    if outputs and all(isinstance(m, dict) and isinstance(m.get("dialog"), dict) for m in metadata):
        dialog = dict(metadata[0]["dialog"])
        turns = [{k: v for k, v in m.items() if k != "dialog"} for m in metadata if "turn_no" in m]
        return {**dialog, "turns": turns}, True
    return None


class AemReport(EvaluationReport):  # type: ignore[misc]  # strands_evals ships no type information
    """An ``EvaluationReport`` that can roll AEM results up across cases."""

    def aem_rows(self, evaluator: str | None = None, *, turn_rows: bool = False) -> Iterator[AemRow]:
        """Every AEM session row (and, with ``turn_rows``, each case of a turn evaluator) of ``evaluator``.

        With ``turn_rows``, a case an AEM evaluator could not score (its row carries no result) is
        included too, with no turns, as the host counts it.
        """
        aem = {self._name(i) for i, outputs in enumerate(self.detailed_results) if _result(outputs) is not None}
        aem |= {self._name(i) for i in range(len(self.cases)) if self.cases[i].get("evaluator_type") in AEM_TYPES}
        for index, outputs in enumerate(self.detailed_results):
            case = self.cases[index] if index < len(self.cases) else {}
            if evaluator is not None and case.get("evaluator") != evaluator:
                continue
            found = _result(outputs)
            if found is None and turn_rows and self._name(index) in aem:
                found = ({"turns": []}, True)
            if found is None or (found[1] and not turn_rows):
                continue
            applicable = bool(self.is_applicable(outputs))
            yield AemRow(case, found[0], float(self.scores[index]), bool(self.test_passes[index]), applicable, found[1])

    def _name(self, index: int) -> str:
        return str(self.cases[index].get("evaluator", "")) if index < len(self.cases) else ""

    def aem_evaluators(self) -> list[str]:
        """The names of the AEM evaluators in this report, in report order."""
        return list(dict.fromkeys(row.evaluator for row in self.aem_rows(turn_rows=True)))

    def _rows(self, evaluator: str | None) -> list[AemRow]:
        rows = list(self.aem_rows(evaluator, turn_rows=True))
        if evaluator is not None:
            return rows
        chosen: dict[tuple[str, str], AemRow] = {}
        for row in sorted(rows, key=lambda r: r.turn_rows):  # session rows first
            key = (str(row.case.get("name")), str(row.case.get("session_id")))
            chosen.setdefault(key, row)
        return [r for r in rows if chosen.get((str(r.case.get("name")), str(r.case.get("session_id")))) is r]

    def rollups(self, *, group_by: str | None = None, evaluator: str | None = None) -> dict[str, JsonValue]:
        """Rollups across the AEM rows (see the module docstring)."""
        rows = self._rows(evaluator)
        reasons: dict[str, dict[str, int]] = {}
        sub: dict[str, dict[str, int]] = {}
        chains: dict[str, dict[str, int]] = {}
        groups: dict[str, list[AemRow]] = {}
        for row in rows:
            result = row.result
            for turn in result["turns"]:
                reason, role = turn.get("own_reason"), turn.get("role")
                if reason and role:
                    counts = reasons.setdefault(reason, {"root_cause": 0, "cascade": 0})
                    counts[role] += 1
            for metric, rate in (result.get("sub_metrics") or {}).items():
                total = sub.setdefault(metric, {"passed": 0, "total": 0})
                total["passed"] += rate["passed"]
                total["total"] += rate["total"]
            for bucket, stats in (result.get("chains") or {}).items():
                total = chains.setdefault(bucket, {"turns": 0, "passed": 0})
                total["turns"] += stats["turns"]
                total["passed"] += stats["passed"]
            if group_by is not None:
                key = (row.case.get("metadata") or {}).get(group_by)
                groups.setdefault(str(key), []).append(row)
        out: dict[str, JsonValue] = {
            "cases": len(rows),
            "mean_score": _mean(rows),
            "pass_rate": _rate(sum(r.test_pass for r in rows), len(rows)),
            "evaluators": list(dict.fromkeys(r.evaluator for r in rows)),
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
                        "mean_score": _mean(items),
                        "pass_rate": _rate(sum(r.test_pass for r in items), len(items)),
                    }
                    for value, items in sorted(groups.items())
                },
            }
        return out

    def trace_rows(self, evaluator: str | None = None) -> Iterator[TraceRow]:
        """Every trace row (``AemTraceEvaluator``) of ``evaluator`` (default: every trace evaluator's)."""
        for index, outputs in enumerate(self.detailed_results):
            case = self.cases[index] if index < len(self.cases) else {}
            if evaluator is not None and case.get("evaluator") != evaluator:
                continue
            record = _trace_record(outputs)
            if record is None and case.get("evaluator_type") not in TRACE_TYPES:
                continue
            reason = str(self.reasons[index]) if index < len(self.reasons) else ""
            yield TraceRow(case, record or {}, float(self.scores[index]), bool(self.test_passes[index]), reason)

    def trace_evaluators(self) -> list[str]:
        """The names of the trace evaluators in this report, in report order."""
        return list(dict.fromkeys(row.evaluator for row in self.trace_rows()))

    def trace_rollups(self, *, group_by: str | None = None, evaluator: str | None = None) -> dict[str, JsonValue]:
        """Rollups across the trace rows of ``evaluator`` (default: the first trace evaluator; see the module
        docstring)."""
        chosen = evaluator or next(iter(self.trace_evaluators()), None)
        rows = list(self.trace_rows(chosen))
        dimensions: dict[str, dict[str, int]] = {}
        rules: dict[str, int] = {}
        steps: list[JsonValue] = []
        groups: dict[str, list[TraceRow]] = {}
        for row in rows:
            for name, verdict in (row.record.get("dimensions") or {}).items():
                counts = dimensions.setdefault(name, {"applicable": 0, "passed": 0, "failed": 0})
                if isinstance(verdict, dict) and verdict.get("applicable"):
                    counts["applicable"] += 1
                    counts["passed"] += verdict.get("pass") is True
                    counts["failed"] += verdict.get("pass") is False
            rule = str(row.record.get("critical_rule") or "").split(":", 1)[0]
            if not row.test_pass and rule:
                rules[rule] = rules.get(rule, 0) + 1
                steps.append({"case": row.case.get("name"), "step": row.record.get("first_critical_failure_step"),
                              "rule": rule, "hypothesis": row.record.get("root_cause_hypothesis")})  # fmt: skip
            if group_by is not None:
                groups.setdefault(str((row.case.get("metadata") or {}).get(group_by)), []).append(row)
        out: dict[str, JsonValue] = {
            "evaluator": chosen,
            **_trace_rates(rows),
            "dimensions": {d: {**c, "rate": _rate(c["passed"], c["applicable"])} for d, c in dimensions.items()},
            "critical_rules": dict(sorted(rules.items())),
            "first_critical_steps": steps,
        }
        if group_by is not None:
            out["by_metadata"] = {"key": group_by, "groups": {v: _trace_rates(g) for v, g in sorted(groups.items())}}
        return out

    def _trace_summary(self, group_by: str | None) -> list[str]:
        lines = []
        for name in self.trace_evaluators():
            r = self.trace_rollups(group_by=group_by, evaluator=name)
            lines.append(f"{name}: {counted(int(r['cases']), 'trace')}, mean score {r['mean_score']}, pass rate "
                         f"{r['pass_rate']}, veto rate {r['veto_rate']}")  # fmt: skip
            dimensions = r["dimensions"]
            for dimension, counts in (dimensions if isinstance(dimensions, dict) else {}).items():
                if isinstance(counts, dict) and counts["applicable"]:
                    lines.append(f"  {dimension}: {counts['passed']} of {counts['applicable']} pass")
            groups = r.get("by_metadata")
            if isinstance(groups, dict):
                for value, stats in groups["groups"].items():
                    traces = counted(int(stats["cases"]), "trace")
                    lines.append(f"  {group_by}={value}: {traces}, mean {stats['mean_score']}, "
                                 f"pass rate {stats['pass_rate']}, veto rate {stats['veto_rate']}")  # fmt: skip
        return lines

    def failing_traces(self) -> list[dict[str, JsonValue]]:
        """Every failing trace row: case, evaluator, status, first critical failure step, its rule and hypothesis."""
        out: list[dict[str, JsonValue]] = []
        for row in self.trace_rows():
            if row.test_pass:
                continue
            record = row.record
            out.append({"case": row.case.get("name"), "evaluator": row.evaluator,
                        "status": record.get("status") or "not judged", "veto": bool(record.get("veto")),
                        "step": record.get("first_critical_failure_step"),
                        "rule": str(record.get("critical_rule") or "").split(":", 1)[0] or None,
                        "hypothesis": record.get("root_cause_hypothesis") or row.reason})  # fmt: skip
        return out

    def summary(self, *, group_by: str | None = None) -> str:
        """A few lines per AEM evaluator: cases, mean score, pass rate, root causes vs cascades, groups; and per
        trace evaluator: traces, mean score, pass and veto rates, each dimension's passes, groups."""
        lines = []
        traces = self._trace_summary(group_by)
        names: list[str | None] = [*self.aem_evaluators()] or ([] if traces else [None])
        for name in names:
            r = self.rollups(group_by=group_by, evaluator=name)
            label = "AEM" if name is None else name
            cases = counted(int(r["cases"]), "case")
            lines.append(f"{label}: {cases}, mean score {r['mean_score']}, pass rate {r['pass_rate']}")
            reasons = r["failure_reasons"]
            for reason, counts in (reasons if isinstance(reasons, dict) else {}).items():
                roots, cascades = counted(counts["root_cause"], "root cause"), counted(counts["cascade"], "cascade")
                lines.append(f"  {reason}: {roots}, {cascades}")
            groups = r.get("by_metadata")
            if isinstance(groups, dict):
                for value, stats in groups["groups"].items():
                    lines.append(f"  {group_by}={value}: mean {stats['mean_score']}, pass rate {stats['pass_rate']}")
        return "\n".join([*lines, *traces])

    def failing_turns(self, evaluator: str | None = None) -> list[dict[str, JsonValue]]:
        """Every failing or undecided turn of every case (each case once): case, evaluator, turn and verdict."""
        out: list[dict[str, JsonValue]] = []
        for row in self._rows(evaluator):
            for turn in row.result["turns"]:
                if turn.get("success") or turn.get("verdict") == "pass":
                    continue
                problems = turn.get("problems") or []
                first = problems[0] if problems else {}
                detail = f"{first.get('field')}: {first.get('detail')}" if first else turn.get("note")
                keys = ("turn_no", "verdict", "failure_reason", "role", "caused_by")
                out.append({"case": row.case.get("name"), "evaluator": row.evaluator,
                            **{k: turn.get(k) for k in keys}, "detail": detail})  # fmt: skip
        return out


def _printable(value: object) -> str:
    """A value for the terminal: control characters escaped, so no value can rewrite a line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(value))


def main(argv: list[str] | None = None) -> int:
    """``python -m aem_strands.strands.report FILE``: the summary, every failing turn's verdict and every failing
    trace's first critical step."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m aem_strands.strands.report", description=main.__doc__)
    parser.add_argument("report_file")
    parser.add_argument("--group-by", metavar="KEY", help="case metadata key to group by")
    args = parser.parse_args(argv)
    report = AemReport.from_file(args.report_file)
    for line in report.summary(group_by=args.group_by).splitlines():
        print(_printable(line))
    for turn in report.failing_turns():
        role = turn["role"] or "-"
        cause = f" (cascade of turn {turn['caused_by']})" if turn["caused_by"] is not None else ""
        line = (
            f"{turn['case']} turn {turn['turn_no']}: {turn['verdict']} {turn['failure_reason'] or ''} [{role}]{cause}"
        )
        print(_printable(f"{line}: {turn['detail']}"))
    for trace in report.failing_traces():
        veto = " (veto)" if trace["veto"] else ""
        where = f"first critical step {trace['step']} ({trace['rule']})" if trace["step"] or trace["rule"] else ""
        print(_printable(f"{trace['case']}: {trace['status']}{veto} {where}: {trace['hypothesis']}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
