"""How often ``score`` and ``trace --gold`` agree with the known task outcome on the same runs (issue 28: with gold,
one engine).

Reads ``data/outcomes/tau2_outcomes.jsonl.gz`` (τ²-bench runs whose outcome τ²-bench's own environment decided;
built by ``benchmarks/outcome_dataset.py``, described in docs/OUTCOMES.md) and judges every run three ways:

- **score**: ``evaluate_dialogs(dialogs, scope="actions", allow_extra="read_only", tools=TOOLS)``, the same as
  ``aem-strands score DATA --scope actions --allow-extra read_only --tools TOOLS``; success = ``test_pass``;
- **trace calls**: the run as a trace (``trace_from_dialog``, the gold side as the trace's gold, as ``aem-strands
  trace --input dialog DATA --tools TOOLS`` reads it), judged by ``evaluate_trace``; success = the
  ``tool_selection`` dimension passed (the verdict on the calls, which ``trace --gold`` now takes from score's
  engine);
- **trace status**: the same trace's whole status (``test_pass``: every dimension, safety and planning included,
  which judge more than the calls).

Prints the three agreement rates with the outcome, their confusion matrices (rows: outcome failure, success;
columns: verdict fail, pass), the per-fault breakdown, and every run where score's verdict and the trace's verdict
on the calls differ (the goal: none). ``--json FILE`` writes the same figures; ``--limit N`` judges the first N
runs only.

    python benchmarks/trace_gold_agreement.py [--data FILE] [--tools FILE] [--scorer exact|embedding]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "outcomes" / "tau2_outcomes.jsonl.gz"
TOOLS = ROOT / "data" / "outcomes" / "tau2_tools.mcp.json"
VERDICTS = ("score", "trace_calls", "trace_status")


def load_dialogs(path: Path, limit: int | None = None) -> list[dict[str, Any]]:
    """The dialogs of a JSONL file (gzip when the name ends in ``.gz``), one per line."""
    with gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(encoding="utf-8") as lines:
        dialogs = [json.loads(line) for line in lines if line.strip()]
    return dialogs[:limit] if limit is not None else dialogs


def score_verdicts(dialogs: list[dict[str, Any]], tools: Path, scorer: str) -> list[tuple[int, str]]:
    """``(1 if test_pass else 0, reason)`` per dialog, as ``score --scope actions --allow-extra read_only``."""
    from aem_strands import evaluate_dialogs

    results = evaluate_dialogs(dialogs, scope="actions", allow_extra="read_only", tools=str(tools), scorer=scorer)
    return [(int(r.test_pass), r.reason()) for r in results]


def trace_verdicts(dialogs: list[dict[str, Any]], tools: Path, scorer: str) -> list[tuple[int, int, str]]:
    """``(calls passed, trace passed, tool_selection findings)`` per dialog, each run read as a trace."""
    from aem_strands.evaluate import make_comparator
    from aem_strands.load import parse_dialog
    from aem_strands.options import EvalOptions
    from aem_strands.trace.convert import trace_from_dialog
    from aem_strands.trace.evaluate import evaluate_trace
    from aem_strands.trace.types import Dimension
    from aem_strands.trace.values import ComparatorValues

    options = EvalOptions(tools=str(tools), scorer=scorer)  # type: ignore[arg-type]  # a scorer name
    # The run's scorer decides what typed normalisation leaves open, as it does for score.
    values = ComparatorValues(make_comparator(options))
    out = []
    for dialog in dialogs:
        trace = trace_from_dialog(parse_dialog(dialog, default_id="dialog"))
        result = evaluate_trace(trace, options, values=values)
        calls = result.dimensions[Dimension.TOOL_SELECTION]
        messages = "; ".join(f.message for f in calls.findings) or calls.reason
        out.append((int(calls.passed is True), int(result.test_pass), messages))
    return out


def confusion(outcomes: Sequence[int], verdicts: Sequence[int]) -> list[list[int]]:
    """The 2x2 confusion matrix: rows outcome 0/1, columns verdict 0/1 (scikit-learn's layout)."""
    matrix = [[0, 0], [0, 0]]
    for outcome, verdict in zip(outcomes, verdicts, strict=True):
        matrix[outcome][verdict] += 1
    return matrix


def summarise(dialogs: Sequence[Mapping[str, Any]], verdicts: Mapping[str, Sequence[int]]) -> dict[str, Any]:
    """Agreement rates, confusion matrices and the per-fault breakdown, as plain JSON values."""
    outcomes = [int(d["metadata"]["outcome"]) for d in dialogs]
    n = len(dialogs)
    per_fault: dict[str, Counter[str]] = defaultdict(Counter)
    for i, dialog in enumerate(dialogs):
        counts = per_fault[dialog["metadata"]["fault"]]
        counts["n"] += 1
        counts["success"] += outcomes[i]
        for name in VERDICTS:
            counts[name] += int(verdicts[name][i] == outcomes[i])
    summary: dict[str, Any] = {"runs": n, "outcome_success": sum(outcomes)}
    for name in VERDICTS:
        agree = sum(o == v for o, v in zip(outcomes, verdicts[name], strict=True))
        summary[name] = {"agreement": agree / n if n else None, "agree": agree,
                         "confusion": confusion(outcomes, verdicts[name])}  # fmt: skip
    summary["per_fault"] = {fault: dict(counts) for fault, counts in sorted(per_fault.items())}
    return summary


def render(summary: Mapping[str, Any], differ: Sequence[Mapping[str, Any]]) -> str:
    """The figures as text (see the module docstring)."""
    lines = [f"{summary['runs']} runs, {summary['outcome_success']} with a successful outcome"]
    for name in VERDICTS:
        part = summary[name]
        (tn, fp), (fn, tp) = part["confusion"]
        lines.append(f"{name:13s} agreement {part['agreement']:.3f} ({part['agree']} / {summary['runs']})")
        lines.append(f"  outcome fail:    verdict fail {tn:5d}  pass {fp:5d}")
        lines.append(f"  outcome success: verdict fail {fn:5d}  pass {tp:5d}")
    lines.append(f"{'fault':20s} {'n':>5s} {'success':>8s} {'score':>6s} {'calls':>6s} {'status':>7s}")
    for fault, c in summary["per_fault"].items():
        lines.append(
            f"{fault:20s} {c['n']:5d} {c['success']:8d} {c['score']:6d} {c['trace_calls']:6d} {c['trace_status']:7d}"
        )
    lines.append(f"{len(differ)} run(s) where score and the trace's calls verdict differ:")
    lines.extend(
        f"  {d['dialog_id']}: score {d['score']} ({d['score_reason']}); trace {d['trace']} ({d['trace_reason']})"
        for d in differ
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--tools", type=Path, default=TOOLS)
    parser.add_argument("--scorer", default="exact", choices=["exact", "embedding"])
    parser.add_argument("--limit", type=int, default=None, help="judge the first N runs only")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    if not args.data.exists():
        print(f"{args.data} not found (build it with benchmarks/outcome_dataset.py)", file=sys.stderr)
        return 0
    dialogs = load_dialogs(args.data, args.limit)
    started = time.perf_counter()
    scored = score_verdicts(dialogs, args.tools, args.scorer)
    traced = trace_verdicts(dialogs, args.tools, args.scorer)
    verdicts = {
        "score": [v for v, _ in scored],
        "trace_calls": [calls for calls, _, _ in traced],
        "trace_status": [status for _, status, _ in traced],
    }
    summary = summarise(dialogs, verdicts)
    differ = [
        {"dialog_id": d["dialog_id"], "score": s, "score_reason": sr, "trace": t, "trace_reason": tr}
        for d, (s, sr), (t, _, tr) in zip(dialogs, scored, traced, strict=True)
        if s != t
    ]
    summary["differ"] = differ
    summary["scorer"] = args.scorer
    summary["seconds"] = round(time.perf_counter() - started, 1)
    print(render(summary, differ))
    if args.json is not None:
        partial = args.json.with_name(args.json.name + ".partial")  # written whole, then moved: never half a file
        partial.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        os.replace(partial, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
