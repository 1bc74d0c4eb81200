"""``aem-strands calibrate``: measure the comparison chain on labelled pairs and recommend thresholds.

A thin shell over ``aem_strands.compare.calibration``. Prints one row per stage (exact, normalised,
plain cosine at 0.5 and at its best threshold, the shipped chain, the chain at its best threshold)
and the chain's threshold sweep; ``--write-config`` stores the recommended threshold and band floor
for the chosen value kind in a thresholds config (other keys of an existing file are kept).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from aem_strands.compare.chain import Thresholds
from aem_strands.compare.config import load_thresholds, save_thresholds
from aem_strands.compare.scorers import SCORER_NAMES, make_scorer
from aem_strands.decode import require_utf8
from aem_strands.errors import AemError, ConfigError, InputError, Location, printable
from aem_strands.types import ValueKind

if TYPE_CHECKING:  # the calibration module pulls in scikit-learn (seconds); loaded when the command runs
    from aem_strands.compare.calibration import CalibrationReport, LabelledPair

EXIT_OK, EXIT_BAD_INPUT, EXIT_RUNTIME = 0, 2, 3


def add_calibrate_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``calibrate`` subcommand to an argparse ``add_subparsers()`` object."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "calibrate", help="measure equivalence decisions on labelled pairs and recommend thresholds"
    )
    parser.add_argument("--pairs", type=Path, required=True, help='JSONL of {"gold", "predicted", "label"|"score"}')
    parser.add_argument("--kind", choices=[k.value for k in ValueKind], default="argument", help="value kind")
    parser.add_argument("--cutoff", type=float, default=4.0, help="STS-style score that counts as equivalent")
    parser.add_argument("--scorer", choices=SCORER_NAMES, default="embedding", help="semantic scorer to calibrate")
    parser.add_argument(
        "--escalate", choices=("judge",), help="scorer deciding the chain's uncertain band (default: conservative)"
    )
    parser.add_argument("--thresholds", type=Path, help="thresholds config to measure the chain with")
    parser.add_argument("--write-config", type=Path, help="write the recommended thresholds to this config")
    parser.add_argument("--format", choices=("table", "json"), help="default: table on a terminal, else json")
    parser.add_argument("--sweep", action="store_true", help="also print the whole threshold sweep")
    return parser


def render(report: CalibrationReport, with_sweep: bool = False) -> str:
    """The report as a table a person reads at a glance."""
    lines = [f"{report.kind.value} pairs: {report.pairs} ({report.positives} equivalent)"]
    lines.append(f"{'stage':<12} {'thresh':>6} {'prec':>6} {'recall':>6} {'F1':>6} {'bal.acc':>7} {'AUC':>6}")
    for stage in report.stages:
        a = stage.agreement
        threshold = "-" if stage.threshold is None else f"{stage.threshold:.2f}"
        auc = "-" if stage.auc is None else f"{stage.auc:.3f}"
        lines.append(
            f"{stage.name:<12} {threshold:>6} {a.precision:>6.3f} {a.recall:>6.3f} {a.f1:>6.3f} "
            f"{a.balanced_accuracy:>7.3f} {auc:>6}"
        )
    floor = "none" if report.recommended_floor is None else f"{report.recommended_floor:.2f}"
    lines.append(f"recommended threshold {report.recommended_threshold:.2f}, band floor {floor}")
    if with_sweep:
        lines.append("sweep (chain score >= threshold):")
        for point in report.sweep:
            a = point.agreement
            lines.append(
                f"  {point.threshold:.2f}  P {a.precision:.3f}  R {a.recall:.3f}  bal.acc {a.balanced_accuracy:.3f}"
            )
    return "\n".join(lines) + "\n"


def _labelled(path: Path, kind: ValueKind, cutoff: float) -> list[LabelledPair]:
    from aem_strands.compare.calibration import load_pairs

    require_utf8(path, "--pairs")
    pairs = [p for p in load_pairs(path, kind, cutoff) if p.kind is kind]
    positives = sum(p.label for p in pairs)
    where = Location(str(path), field="--pairs")
    if not pairs:
        raise InputError(f"no {kind.value} pairs", where)
    if positives in (0, len(pairs)):
        said = "equivalent" if positives else "not equivalent"
        raise InputError(
            f"all {len(pairs)} {kind.value} pair(s) are labelled {said}: a threshold needs both equivalent and "
            "not-equivalent pairs to be chosen from",
            where,
        )
    return pairs


def _check_config_target(target: Path, pairs: Path) -> None:
    where = Location(str(target), field="--write-config")
    if target.resolve() == pairs.resolve():
        raise InputError("is the --pairs file; it would be overwritten", where)
    if target.is_dir():
        raise InputError("is a folder; name a file", where)
    if not target.parent.is_dir():
        raise InputError(f"its folder {target.parent} does not exist", where)
    if target.exists():
        require_utf8(target, "--write-config")


def run_calibrate(args: argparse.Namespace, stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    """Run the command; returns the exit code (0 ok, 2 bad input, 3 runtime error)."""
    from aem_strands.compare.calibration import calibrate

    out, err = stdout or sys.stdout, stderr or sys.stderr
    kind = ValueKind(args.kind)
    try:
        if args.write_config is not None:
            _check_config_target(args.write_config, args.pairs)
        if args.thresholds:
            require_utf8(args.thresholds, "--thresholds")
        thresholds = load_thresholds(args.thresholds) if args.thresholds else None
        pairs = _labelled(args.pairs, kind, args.cutoff)
        escalation = make_scorer(args.escalate) if args.escalate else None
        report = calibrate(pairs, make_scorer(args.scorer), thresholds, kind=kind, escalation=escalation)
    except (InputError, ConfigError) as error:
        print(f"aem-strands calibrate: {printable(str(error))}", file=err)
        return EXIT_BAD_INPUT
    except AemError as error:
        print(f"aem-strands calibrate: {printable(str(error))}", file=err)
        return EXIT_RUNTIME
    as_json = args.format == "json" or (args.format is None and not out.isatty())
    out.write(json.dumps(report.to_dict()) + "\n" if as_json else render(report, args.sweep))
    if args.write_config is not None:
        existing = load_thresholds(args.write_config) if args.write_config.exists() else None
        chosen = existing or thresholds or Thresholds()
        threshold = report.recommended_threshold if report.recommended_threshold is not None else chosen.for_kind(kind)
        floor = report.recommended_floor
        if kind is ValueKind.ARGUMENT:
            chosen = replace(chosen, argument=threshold, argument_floor=floor)
        else:
            chosen = replace(chosen, response=threshold, response_floor=floor)
        save_thresholds(args.write_config, chosen)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry point (``python -m aem_strands.calibrate``)."""
    parser = argparse.ArgumentParser(prog="aem-strands")
    add_calibrate_parser(parser.add_subparsers(dest="command", required=True))
    return run_calibrate(parser.parse_args(["calibrate", *(sys.argv[1:] if argv is None else argv)]))


if __name__ == "__main__":
    sys.exit(main())
