"""Score the SGD test conversations twice, gold vs itself and gold vs a perturbed copy, and print speed and memory.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/sgd_benchmark.py [--sgd-dir DIR] [--limit N]
        [--scorer embedding|exact] [--seed S] [--rate R] [--no-tracemalloc]

The data is read where it lies (``../shared/external_data/sgd`` from the repository root by
default; see ``aem_bench.sgd`` for the conversion). Each run gets a fresh scorer and its
own comparator, so nothing is shared between (a) and (b). Figures per run:

- wall seconds of ``evaluate_dialogs`` alone (model load is timed apart: the model is loaded, and
  one warm-up string embedded, before the clock starts; run (a)'s load includes importing torch),
  dialogs/s and turns/s;
- distinct strings embedded (the scorer's ``embedded_count`` minus the warm-up string);
- memory, two different things: *tracemalloc peak*, the Python allocations made while scoring
  (measured in a second, traced pass with another fresh scorer, because tracing slows Python
  several times; input dialogs and model weights are allocated before tracing starts, and torch's
  own buffers are invisible to tracemalloc), and *max RSS* (``getrusage`` ``ru_maxrss``), the
  resident-set peak of the whole process so far (data, model and every earlier run included).

Sanity checks: (a) every dialog must pass (the script exits 1 otherwise); (b) counts how many
perturbed turns fail, with their expected own reason, how failures split into root causes and
cascades, and the mean success rate. Attribution is then scored against what the perturbation
knows (``attribution_labels``): each perturbed turn is a root cause, except a ``propagated`` reply,
which is a cascade of the action whose wrong value it repeats; root and cascade precision and
recall come from ``sklearn.metrics.precision_recall_fscore_support`` over every turn.
Exit codes: 0 ok, 1 a gold-vs-itself dialog failed, 2 bad input.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from aem_bench import (
    ACCEPTED_REASONS,
    EXPECTED_REASON,
    Perturbation,
    load_sgd_dialogs,
    perturb_dialogs,
    perturbations_of,
)
from sklearn.metrics import precision_recall_fscore_support

from aem_strands import (
    AemError,
    Dialog,
    DialogResult,
    EmbeddingScorer,
    ExactScorer,
    Role,
    SemanticScorer,
    TurnKind,
    evaluate_dialogs,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SGD_DIR = REPO_ROOT.parent / "shared" / "external_data" / "sgd"
WARM_UP = "aem-strands benchmark warm-up sentence"
"""Embedded once before timing so that the model load is not counted as scoring time."""


MAX_EXAMPLES = 2
"""Perturbations per kind that were missed (or failed for another reason) shown in the summary."""


def _short(value: object, width: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _mib(n_bytes: float) -> str:
    return f"{n_bytes / 2**20:.1f} MiB"


def _max_rss_bytes() -> int:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss if sys.platform == "darwin" else rss * 1024  # bytes on macOS, KiB on Linux


@dataclass(frozen=True)
class Ready:
    """A fresh scorer with its model loaded, and how long loading took (``None``: no model)."""

    scorer: SemanticScorer
    load_s: float | None
    embedded_before: int


def _ready(name: str) -> Ready:
    if name == "exact":
        return Ready(ExactScorer(), None, 0)
    scorer = EmbeddingScorer()
    start = time.perf_counter()
    scorer.embed([WARM_UP])
    return Ready(scorer, time.perf_counter() - start, scorer.embedded_count)


def _embedded(ready: Ready) -> int | None:
    return ready.scorer.embedded_count - ready.embedded_before if isinstance(ready.scorer, EmbeddingScorer) else None


@dataclass(frozen=True)
class Run:
    """One timed scoring run and its figures."""

    label: str
    dialogs: Sequence[Dialog]
    results: list[DialogResult]
    load_s: float | None
    wall_s: float
    embedded: int | None
    max_rss: int
    traced_peak: int | None = None

    @property
    def turns(self) -> int:
        return sum(len(d.turns) for d in self.dialogs)


def _timed(label: str, dialogs: Sequence[Dialog], scorer_name: str) -> Run:
    ready = _ready(scorer_name)
    gc.collect()
    start = time.perf_counter()
    results = evaluate_dialogs(dialogs, scorer=ready.scorer)
    wall = time.perf_counter() - start
    return Run(label, dialogs, results, ready.load_s, wall, _embedded(ready), _max_rss_bytes())


def _traced_peak(dialogs: Sequence[Dialog], scorer_name: str) -> int:
    ready = _ready(scorer_name)
    gc.collect()
    tracemalloc.start()
    try:
        evaluate_dialogs(dialogs, scorer=ready.scorer)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _print_run(run: Run) -> None:
    wall = max(run.wall_s, 1e-9)
    rows = [
        ("dialogs", f"{len(run.dialogs)}"),
        ("turns", f"{run.turns}"),
        ("model load s (not in wall)", "n/a (no model)" if run.load_s is None else f"{run.load_s:.2f}"),
        ("scoring wall s", f"{run.wall_s:.2f}"),
        ("dialogs/s", f"{len(run.dialogs) / wall:.1f}"),
        ("turns/s", f"{run.turns / wall:.1f}"),
        ("distinct strings embedded", "n/a (no model)" if run.embedded is None else f"{run.embedded}"),
        (
            "peak Python heap (tracemalloc)",
            "not measured" if run.traced_peak is None else f"{_mib(run.traced_peak)} allocated while scoring",
        ),
        ("max RSS (getrusage)", f"{_mib(run.max_rss)} whole process so far"),
    ]
    print(f"\n{run.label}")
    for name, value in rows:
        print(f"  {name:<32} {value}")


def _gold_summary(run: Run) -> int:
    failing = [r for r in run.results if not r.test_pass]
    print(f"  {'dialogs not passing (must be 0)':<32} {len(failing)}")
    for result in failing[:5]:
        print(f"    {result.dialog_id}: {result.reason()}")
    return len(failing)


def _perturbed_summary(run: Run) -> None:
    planted: Counter[str] = Counter()
    detected: Counter[str] = Counter()
    as_expected: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}  # per kind, the first missed or mis-reasoned perturbations
    false_alarms = not_applicable = roots = cascades = propagated_cascades = 0
    for dialog, result in zip(run.dialogs, run.results, strict=True):
        records = {r.turn_no: r for r in perturbations_of(dialog)}
        roots += len(result.root_causes)
        cascades += len(result.cascades)
        for turn in result.turns:
            verdict, record = turn.verdict, records.get(turn.turn.turn_no)
            not_applicable += verdict.verdict.value == "not_applicable"
            if record is None:
                false_alarms += verdict.failed
                continue
            planted[record.kind.value] += 1
            expected_reason = verdict.own_reason in ACCEPTED_REASONS[record.kind]
            if not expected_reason and len(examples.setdefault(record.kind.value, [])) < MAX_EXAMPLES:
                found_as = "passed" if verdict.own_reason is None else verdict.own_reason.value
                change = f"{record.field} {_short(record.gold)} -> {_short(record.predicted)}"
                examples[record.kind.value].append(f"{dialog.dialog_id} turn {record.turn_no}: {change}: {found_as}")
            if verdict.failed:
                detected[record.kind.value] += 1
                as_expected[record.kind.value] += expected_reason
                a = turn.attribution
                if record.kind is Perturbation.PROPAGATED and a is not None and a.role is Role.CASCADE:
                    propagated_cascades += a.via_turn == record.from_turn
    rates = [r.success_rate for r in run.results if r.success_rate is not None]
    total, found = sum(planted.values()), sum(detected.values())
    failures = roots + cascades
    print(f"  {'perturbed turns':<32} {total} in {sum(1 for d in run.dialogs if perturbations_of(d))} dialogs")
    expected = sum(as_expected.values())
    print(f"  {'detected as failures':<32} {found} ({found / max(total, 1):.1%}), {expected} with the expected reason")
    for kind in Perturbation:
        n = planted[kind.value]
        if n:
            share = detected[kind.value] / n
            line = f"{detected[kind.value]}/{n} detected ({share:.1%}), {as_expected[kind.value]} with reason"
            print(f"    {kind.value:<30} {line} {EXPECTED_REASON[kind].value}")
            for example in examples.get(kind.value, []):
                print(f"      not as expected: {example}")
    print(f"  {'failures on unperturbed turns':<32} {false_alarms}")
    print(f"  {'not_applicable turns':<32} {not_applicable}")
    print(f"  {'failures: root causes/cascades':<32} {failures} = {roots} root causes + {cascades} cascades")
    print(f"  {'propagated -> cascade of action':<32} {propagated_cascades}/{planted[Perturbation.PROPAGATED.value]}")
    mean = sum(rates) / len(rates) if rates else float("nan")
    print(f"  {'mean success_rate':<32} {mean:.4f} over {len(rates)} dialogs")
    print(f"  {'dialogs passing':<32} {sum(r.test_pass for r in run.results)}/{len(run.results)}")


ROOT, CASCADE, OTHER_ROOT, NO_FAILURE = "root_cause", "cascade", "cascade_of_another_root", "no_failure"
"""Attribution labels of a turn; a cascade counts only when it names the right root cause."""


def attribution_labels(dialog: Dialog, result: DialogResult) -> tuple[list[str], list[str]]:
    """Per turn of ``dialog``, the attribution the perturbation implies and the one ``result`` gives.

    Truth: a perturbed turn is a root cause unless it is a ``propagated`` reply, a cascade of the
    action turn it repeats (``from_turn``); an unperturbed turn has no failure. Prediction: the
    turn's role; a cascade whose ``caused_by`` is not the true root is ``cascade_of_another_root``.
    """
    records = {r.turn_no: r for r in perturbations_of(dialog)}
    truth: list[str] = []
    predicted: list[str] = []
    for turn in result.turns:
        record = records.get(turn.turn.turn_no)
        if record is None:
            truth.append(NO_FAILURE)
        else:
            truth.append(CASCADE if record.kind is Perturbation.PROPAGATED else ROOT)
        a = turn.attribution
        if a is None:
            predicted.append(NO_FAILURE)
        elif a.role is Role.ROOT_CAUSE:
            predicted.append(ROOT)
        elif record is not None and record.kind is Perturbation.PROPAGATED and a.caused_by != record.from_turn:
            predicted.append(OTHER_ROOT)
        else:
            predicted.append(CASCADE)
    return truth, predicted


def _attribution_summary(run: Run) -> None:
    truth: list[str] = []
    predicted: list[str] = []
    links: Counter[str] = Counter()
    for dialog, result in zip(run.dialogs, run.results, strict=True):
        t, p = attribution_labels(dialog, result)
        truth += t
        predicted += p
        links.update(c.attribution.link.value for c in result.cascades if c.attribution and c.attribution.link)
    labels = [ROOT, CASCADE]
    precision, recall, _, support = precision_recall_fscore_support(
        truth, predicted, labels=labels, average=None, zero_division=0
    )
    print(f"  {'attribution vs perturbation':<32} precision  recall  true  predicted")
    for index, label in enumerate(labels):
        said = sum(1 for p in predicted if p == label)
        line = f"{precision[index]:9.4f} {recall[index]:7.4f} {support[index]:5d} {said:10d}"
        print(f"    {label:<30} {line}")
    print(f"  {'cascades by link':<32} {dict(sorted(links.items()))}")


def actions_only(dialog: Dialog) -> Dialog:
    """``dialog`` without its response turns: its action turns then form one action chain."""
    return replace(dialog, turns=tuple(t for t in dialog.turns if t.kind is TurnKind.ACTION))


def _timed_step(step: Callable[[], list[Dialog]]) -> tuple[list[Dialog], float]:
    start = time.perf_counter()
    dialogs = step()
    return dialogs, time.perf_counter() - start


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sgd-dir", type=Path, default=DEFAULT_SGD_DIR, help=f"SGD folder (default {DEFAULT_SGD_DIR})")
    parser.add_argument("--limit", type=int, default=None, help="score only the first N dialogs (default all)")
    parser.add_argument("--scorer", choices=("embedding", "exact"), default="embedding")
    parser.add_argument("--seed", type=int, default=0, help="seed of the perturbed copy (default 0)")
    parser.add_argument("--rate", type=float, default=0.1, help="share of turns perturbed (default 0.1)")
    parser.add_argument("--no-tracemalloc", action="store_true", help="skip the traced passes (faster)")
    parser.add_argument(
        "--write-results", type=Path, metavar="FILE",
        help="write run (b)'s results as JSONL, the format of aem-strands score (input of aem-strands report)",
    )  # fmt: skip
    parser.add_argument(
        "--actions-only", action="store_true",
        help="drop the replies, so each dialog is one action chain (SGD has no longer chains; stresses rule 3)",
    )  # fmt: skip
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        gold, load_s = _timed_step(lambda: load_sgd_dialogs(args.sgd_dir, args.limit))
        if args.actions_only:
            gold = [actions_only(d) for d in gold]
        perturbed, perturb_s = _timed_step(lambda: perturb_dialogs(gold, seed=args.seed, rate=args.rate))
    except AemError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    kinds = Counter(r.kind.value for d in perturbed for r in perturbations_of(d))
    n_turns = sum(len(d.turns) for d in gold)
    n_actions = sum(1 for d in gold for t in d.turns if t.kind.value == "action")
    only = ", action turns only" if args.actions_only else ""
    print(f"SGD benchmark: scorer {args.scorer}, data {args.sgd_dir}{only}")
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.platform()}")
    print("load average at start (1/5/15 min): " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    split = f"{n_actions} action, {n_turns - n_actions} response"
    print(f"load: {len(gold)} dialogs, {n_turns} turns ({split}) in {load_s:.2f} s")
    print(
        f"perturb: seed {args.seed}, rate {args.rate}: {sum(kinds.values())} turns in {perturb_s:.2f} s ({dict(kinds)})"
    )
    print(f"max RSS after load and perturb: {_mib(_max_rss_bytes())}")

    runs = [
        _timed("(a) gold vs itself", gold, args.scorer),
        _timed(f"(b) gold vs perturbed copy (seed {args.seed}, rate {args.rate})", perturbed, args.scorer),
    ]
    if not args.no_tracemalloc:
        runs = [
            Run(
                r.label,
                r.dialogs,
                r.results,
                r.load_s,
                r.wall_s,
                r.embedded,
                r.max_rss,
                _traced_peak(r.dialogs, args.scorer),
            )
            for r in runs
        ]
    _print_run(runs[0])
    gold_failures = _gold_summary(runs[0])
    _print_run(runs[1])
    _perturbed_summary(runs[1])
    _attribution_summary(runs[1])
    if args.write_results:
        with args.write_results.open("w", encoding="utf-8") as out:
            out.writelines(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in runs[1].results)
        print(f"results of (b) written to {args.write_results}")
    return 1 if gold_failures else 0


if __name__ == "__main__":
    sys.exit(main())
