"""The ``aem-strands`` command: a thin shell over the public API.

Exit codes follow the host's convention: 0 every dialog passes, 1 some dialog fails, 2 bad input
(a file or a dialog could not be read; the others are still scored), 3 runtime error; and 4 when no
dialog fails but some could not be judged (inconclusive: a scorer failed, e.g. the LLM judge without
credentials). Precedence: 2, then 1, then 4.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from aem_strands.calibrate import add_calibrate_parser, run_calibrate
from aem_strands.compare.chain import ComparisonRequest
from aem_strands.errors import AemError, ConfigError, InputError, Location
from aem_strands.evaluate import evaluate_dialogs, make_comparator
from aem_strands.load import load_dialogs
from aem_strands.options import add_option_flags, options_from_args
from aem_strands.render import render_table
from aem_strands.report import add_report_parser, run_report
from aem_strands.result import DialogResult
from aem_strands.types import Dialog, ValueKind

EXIT_OK, EXIT_FAILURES, EXIT_BAD_INPUT, EXIT_RUNTIME, EXIT_INCONCLUSIVE = 0, 1, 2, 3, 4
EXIT_CODES_HELP = """exit codes:
  0  every dialog passes (or there was nothing to judge)
  1  some dialog fails
  2  bad input: a file, record or option could not be read (the other dialogs are still scored)
  3  runtime error
  4  inconclusive: no dialog fails, but some turn could not be judged (e.g. the LLM judge was unreachable)
precedence when several apply: 2, then 1, then 4"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="aem-strands",
        description=__doc__.splitlines()[0] if __doc__ else None,
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score annotated dialog files")
    score.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="JSON or JSONL dialog files")
    add_option_flags(score, scoring=True)
    score.add_argument("--format", choices=("json", "jsonl", "table"), help="default: table on a terminal, else jsonl")
    score.add_argument("--out", type=Path, help="write results to this file instead of stdout")
    compare = commands.add_parser("compare", help="decide equivalence of value pairs")
    compare.add_argument("--pairs", type=Path, required=True, help='JSONL of {"gold", "predicted", "kind"}')
    add_option_flags(compare, scoring=False)
    compare.add_argument("--out", type=Path, help="write results to this file instead of stdout")
    add_calibrate_parser(commands)
    add_report_parser(commands)
    return parser


def _error_line(error: InputError) -> str:
    return f"aem-strands: {error}"


def _score(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    dialogs: list[Dialog] = []
    errors: list[InputError] = []
    options = options_from_args(args)
    align = options.align_options()
    for path in args.paths:
        try:
            loaded = load_dialogs(path, align=align)
        except InputError as error:
            errors.append(error)
            continue
        dialogs.extend(loaded.dialogs)
        errors.extend(loaded.errors)
    for problem in errors:
        print(_error_line(problem), file=stderr)
    results = evaluate_dialogs(dialogs, options)
    records: list[dict[str, Any]] = [r.to_dict() for r in results]
    records += [{"dialog_id": e.location.dialog_id, "error": e.to_dict()} for e in errors]
    out = args.out.open("w", encoding="utf-8") if args.out else stdout
    try:
        fmt = args.format or ("table" if out.isatty() else "jsonl")
        if fmt == "table":
            out.write(render_table(results, errors))
        elif fmt == "json":
            out.write(json.dumps(records, indent=2, ensure_ascii=False) + "\n")
        else:
            out.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    finally:
        if args.out:
            out.close()
    return exit_code(results, errors, stderr)


def exit_code(results: Sequence[DialogResult], errors: Sequence[InputError], stderr: IO[str]) -> int:
    """The exit code of a scoring run (see ``EXIT_CODES_HELP``); names the inconclusive dialogs on stderr."""
    inconclusive = [r.dialog_id for r in results if r.status == "inconclusive"]
    if inconclusive:
        shown = ", ".join(inconclusive[:5]) + (" ..." if len(inconclusive) > 5 else "")
        why = "some turn could not be judged"
        print(f"aem-strands: {len(inconclusive)} dialog(s) inconclusive ({why}): {shown}", file=stderr)
    if errors:
        return EXIT_BAD_INPUT
    if any(r.status == "fail" for r in results):
        return EXIT_FAILURES
    return EXIT_INCONCLUSIVE if inconclusive else EXIT_OK


def _read_pairs(path: Path) -> list[ComparisonRequest | InputError]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read file: {error}", Location(str(path))) from None
    out: list[ComparisonRequest | InputError] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = Location(f"{path}:{number}")
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            out.append(InputError(f"malformed JSON: {error.msg}", where))
            continue
        missing = [k for k in ("gold", "predicted") if not isinstance(record, dict) or k not in record]
        kind = record.get("kind", "argument") if isinstance(record, dict) else None
        if missing:
            out.append(InputError("missing field", Location(where.file, field=missing[0])))
        elif kind not in ("argument", "response"):
            out.append(
                InputError(f"kind must be 'argument' or 'response', got {kind!r}", Location(where.file, field="kind"))
            )
        else:
            out.append(ComparisonRequest(record["gold"], record["predicted"], ValueKind(kind)))
    return out


def _compare(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    items = _read_pairs(args.pairs)
    comparator = make_comparator(options_from_args(args))
    requests = [item for item in items if isinstance(item, ComparisonRequest)]
    started = time.perf_counter()
    results = iter(comparator.compare_many(requests))
    elapsed = time.perf_counter() - started
    out = args.out.open("w", encoding="utf-8") if args.out else stdout
    bad = 0
    try:
        for item in items:
            if isinstance(item, InputError):
                bad += 1
                print(_error_line(item), file=stderr)
                out.write(json.dumps({"error": item.to_dict()}) + "\n")
            else:
                c = next(results)
                record = {"equivalent": c.equivalent, "score": round(c.score, 4), "method": c.method.value}
                out.write(json.dumps(record) + "\n")
    finally:
        if args.out:
            out.close()
    embedded = getattr(comparator.scorer, "embedded_count", None)
    rate = len(requests) / elapsed if elapsed > 0 else float("inf")
    summary = f"aem-strands: compared {len(requests)} pairs in {elapsed:.2f} s ({rate:,.0f} pairs/s)"
    if embedded is not None:
        summary += f"; {embedded} distinct strings embedded"
    print(summary, file=stderr)
    return EXIT_BAD_INPUT if bad else EXIT_OK


def main(argv: Sequence[str] | None = None, *, stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    """Run the command; returns the exit code (``SystemExit`` only from ``--help`` and usage errors)."""
    out, err = stdout or sys.stdout, stderr or sys.stderr
    # The model loads from the installed package; its progress bars would only clutter stderr.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    args = build_parser().parse_args(argv)
    try:
        if args.command == "score":
            return _score(args, out, err)
        if args.command == "calibrate":
            return run_calibrate(args, out, err)
        if args.command == "report":
            return run_report(args, out, err)
        return _compare(args, out, err)
    except InputError as error:
        print(_error_line(error), file=err)
        return EXIT_BAD_INPUT
    except AemError as error:
        print(f"aem-strands: {error}", file=err)
        return EXIT_BAD_INPUT if isinstance(error, ConfigError) else EXIT_RUNTIME
    except Exception as error:  # a crash must still give the runtime exit code and a readable line
        print(f"aem-strands: runtime error: {type(error).__name__}: {error}", file=err)
        return EXIT_RUNTIME


if __name__ == "__main__":
    sys.exit(main())
