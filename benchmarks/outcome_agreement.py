"""How often a dialog verdict agrees with the task outcome: ours against a plain "required calls verbatim" rule.

Scores ``data/outcomes/tau2_outcomes.jsonl.gz`` (built by ``benchmarks/outcome_dataset.py``: τ²-bench runs
whose outcome is the environment's database check) twice:

- **ours**: ``evaluate_dialogs(dialogs, scope="actions", allow_extra="read_only", tools=TOOLS)``, the
  same as ``aem-strands score DATA --scope actions --allow-extra read_only --tools TOOLS``; a dialog
  counts as a success when ``test_pass`` is true;
- **baseline**: every required (gold) call is present verbatim in the run (same tool, action and
  arguments under plain JSON equality) and the run makes no extra successful write (a call to a tool
  that is not read-only, not matched to a gold call, whose observation is not ``{"error": ...}``).

Prints both agreement rates with the outcome, both 2x2 confusion matrices (rows: outcome failure,
success; columns: verdict fail, pass), the per-fault breakdown, and every dialog where the baseline
agrees with the outcome and we do not, with our reason. ``--json FILE`` writes the same figures.

    python benchmarks/outcome_agreement.py [--data FILE] [--tools FILE] [--scorer embedding]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "outcomes" / "tau2_outcomes.jsonl.gz"
TOOLS = ROOT / "data" / "outcomes" / "tau2_tools.mcp.json"


def load_dialogs(path: Path) -> list[dict[str, Any]]:
    """The dialogs of a JSONL file (gzip when the name ends in ``.gz``), one per line."""
    with gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def read_only_names(tools: object) -> frozenset[str]:
    """Names of the tools marked ``readOnlyHint: true`` (MCP and annotated Strands forms; OpenAI has no hint)."""
    items = tools.get("tools") if isinstance(tools, Mapping) else tools
    names = set()
    for item in items if isinstance(items, list) else []:
        annotations = item.get("annotations") or {}
        if annotations.get("readOnlyHint") is True:
            names.add(item.get("name") or item.get("function", {}).get("name"))
    return frozenset(names)


def _same(gold: Mapping[str, Any], call: Mapping[str, Any]) -> bool:
    # Decoded JSON compared with ==: 50 equals 50.0, "ab12" does not equal "AB12".
    return all(gold.get(k) == call.get(k) for k in ("tool_id", "action", "args"))


def _failed(turn: Mapping[str, Any]) -> bool:
    observation = turn.get("observation")
    return isinstance(observation, Mapping) and "error" in observation


def baseline_pass(dialog: Mapping[str, Any], read_only: Iterable[str]) -> bool:
    """Every gold call present verbatim in the run, and no extra successful write (see the module docstring)."""
    read_only = frozenset(read_only)
    calls = [t for t in dialog["predicted"] if t["turn"] == "Tool"]
    unused = list(range(len(calls)))
    for gold in (t for t in dialog["gold"] if t["turn"] == "Tool"):
        match = next((i for i in unused if _same(gold, calls[i])), None)
        if match is None:
            return False
        unused.remove(match)
    extra = (calls[i] for i in unused)
    return not any(
        t.get("action") not in read_only and t.get("tool_id") not in read_only and not _failed(t) for t in extra
    )


def confusion(outcomes: Sequence[int], verdicts: Sequence[int]) -> list[list[int]]:
    """The 2x2 confusion matrix: rows outcome 0/1, columns verdict 0/1 (scikit-learn's layout)."""
    from sklearn.metrics import confusion_matrix

    return [[int(v) for v in row] for row in confusion_matrix(outcomes, verdicts, labels=[0, 1])]


def our_verdicts(dialogs: list[dict[str, Any]], tools: Path, scorer: str) -> list[tuple[int, str]]:
    """``(1 if test_pass else 0, reason)`` per dialog, under actions scope, read-only extras and the tools file."""
    from aem_strands import evaluate_dialogs

    results = evaluate_dialogs(dialogs, scope="actions", allow_extra="read_only", tools=str(tools), scorer=scorer)
    return [(int(r.test_pass), r.reason()) for r in results]


def summarise(dialogs: Sequence[Mapping[str, Any]], ours: Sequence[int], baseline: Sequence[int]) -> dict[str, Any]:
    """Agreement rates, confusion matrices and the per-fault breakdown, as plain JSON values."""
    outcomes = [int(d["metadata"]["outcome"]) for d in dialogs]
    n = len(dialogs)
    per_fault: dict[str, Counter[str]] = defaultdict(Counter)
    for dialog, outcome, mine, rule in zip(dialogs, outcomes, ours, baseline, strict=True):
        counts = per_fault[dialog["metadata"]["fault"]]
        counts["n"] += 1
        counts["success"] += outcome
        counts["ours_agree"] += int(mine == outcome)
        counts["baseline_agree"] += int(rule == outcome)
    return {
        "dialogs": n,
        "outcome_success": sum(outcomes),
        "ours": {
            "agreement": sum(o == v for o, v in zip(outcomes, ours, strict=True)) / n,
            "confusion": confusion(outcomes, ours),
        },
        "baseline": {
            "agreement": sum(o == v for o, v in zip(outcomes, baseline, strict=True)) / n,
            "confusion": confusion(outcomes, baseline),
        },
        "per_fault": {fault: dict(counts) for fault, counts in sorted(per_fault.items())},
    }


def render(summary: Mapping[str, Any], losses: Sequence[tuple[str, int, str]]) -> str:
    """The figures as text (see the module docstring)."""
    lines = [f"{summary['dialogs']} dialogs, {summary['outcome_success']} with a successful outcome"]
    for name in ("ours", "baseline"):
        part = summary[name]
        (tn, fp), (fn, tp) = part["confusion"]
        lines.append(f"{name:9s} agreement {part['agreement']:.3f}")
        lines.append(f"  outcome fail:    verdict fail {tn:5d}  pass {fp:5d}")
        lines.append(f"  outcome success: verdict fail {fn:5d}  pass {tp:5d}")
    lines.append(f"{'fault':20s} {'n':>5s} {'success':>8s} {'ours':>6s} {'baseline':>8s}")
    for fault, c in summary["per_fault"].items():
        lines.append(f"{fault:20s} {c['n']:5d} {c['success']:8d} {c['ours_agree']:6d} {c['baseline_agree']:8d}")
    lines.append(f"{len(losses)} dialog(s) where the baseline agrees with the outcome and we do not:")
    lines.extend(f"  {dialog_id} (outcome {outcome}): {reason}" for dialog_id, outcome, reason in losses)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--tools", type=Path, default=TOOLS)
    parser.add_argument("--scorer", default="embedding", choices=["exact", "embedding"])
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    if not args.data.exists():
        print(f"{args.data} not found (build it with benchmarks/outcome_dataset.py)", file=sys.stderr)
        return 0
    dialogs = load_dialogs(args.data)
    read_only = read_only_names(json.loads(args.tools.read_text(encoding="utf-8")))
    baseline = [int(baseline_pass(d, read_only)) for d in dialogs]
    verdicts = our_verdicts(dialogs, args.tools, args.scorer)
    ours = [v for v, _ in verdicts]
    summary = summarise(dialogs, ours, baseline)
    losses = [
        (d["dialog_id"], int(d["metadata"]["outcome"]), reason)
        for d, (mine, reason), rule in zip(dialogs, verdicts, baseline, strict=True)
        if rule == int(d["metadata"]["outcome"]) != mine
    ]
    summary["losses"] = [{"dialog_id": i, "outcome": o, "reason": r} for i, o, r in losses]
    print(render(summary, losses))
    if args.json is not None:
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
