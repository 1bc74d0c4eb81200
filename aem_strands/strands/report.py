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

``summary()`` prints one block per AEM evaluator; ``failing_turns()`` lists the per-turn verdicts of
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

    def summary(self, *, group_by: str | None = None) -> str:
        """A few lines per AEM evaluator: cases, mean score, pass rate, root causes vs cascades, groups."""
        lines = []
        names: list[str | None] = [*self.aem_evaluators()] or [None]
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
        return "\n".join(lines)

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
    """``python -m aem_strands.strands.report FILE``: the summary and every failing turn's verdict."""
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
