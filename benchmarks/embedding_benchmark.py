"""Embedding mode: whole-pass time against the encoder's own time, and a cached re-run after a small change.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/embedding_benchmark.py [--limit 500] [--sgd-dir DIR]

1. ``evaluate_dialogs`` over SGD gold vs a perturbed copy (seed 0, rate 0.3, so replies differ and reach the
   model) with a fresh embedding scorer (model loaded and warmed up before the clock starts): *total*;
2. the same model encoding exactly the distinct strings that reached it in (1), same batch size, the faster of two
   runs: *encoder only*. The ratio total / encoder only is the pipeline's overhead around the model, printed for
   wall time and for CPU time (which varies less with the load of a shared machine);
3. with ``cache_dir`` (a new folder): a cold run, then a run after a small change (10 % of the dialogs take
   another perturbation seed): strings the model encoded and wall time of each.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from aem_bench import load_sgd_dialogs, perturb_dialogs
from speed_benchmark import DEFAULT_SGD_DIR, load_average, require_sgd

from aem_strands import EvalOptions, evaluate_dialogs
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.evaluate import make_comparator

WARM_UP = "aem-strands benchmark warm-up sentence"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sgd-dir", type=Path, default=DEFAULT_SGD_DIR)
    parser.add_argument("--limit", type=int, default=500)
    args = parser.parse_args(argv)
    print(f"load average at start (1/5/15 min): {load_average()}")
    require_sgd(args.sgd_dir, "embedding_benchmark")
    gold = load_sgd_dialogs(args.sgd_dir, args.limit)
    perturbed = perturb_dialogs(gold, seed=0, rate=0.3)
    turns = sum(len(d.turns) for d in perturbed)
    print(f"{len(perturbed)} dialogs, {turns} gold turns")

    scorer = EmbeddingScorer()
    scorer.embed([WARM_UP])
    start, cpu = time.perf_counter(), time.process_time()
    evaluate_dialogs(perturbed, scorer=scorer)
    total, total_cpu = time.perf_counter() - start, time.process_time() - cpu
    reached = [text for text in scorer._vectors if text != WARM_UP]  # what the model was asked, in order
    model = scorer._load()

    def encode_once() -> tuple[float, float]:
        start, cpu = time.perf_counter(), time.process_time()
        model.encode(reached, batch_size=scorer.batch_size, normalize_embeddings=True, show_progress_bar=False)
        return time.perf_counter() - start, time.process_time() - cpu

    # The best of two encoder-only runs (the machine is shared: the faster run is the encoder's own time), so the
    # ratio errs high, never low. CPU time counts the model's threads too and varies less with load than wall time.
    encoder, encoder_cpu = min(encode_once() for _ in range(2))
    print(f"total {total:.2f} s, encoder only {encoder:.2f} s for {len(reached)} distinct strings")
    print(f"ratio total / encoder only: {total / encoder:.2f}x ({turns / total:.0f} turns/s)")
    print(f"CPU: total {total_cpu:.2f} s, encoder only {encoder_cpu:.2f} s, ratio {total_cpu / encoder_cpu:.2f}x")

    # A small change: every tenth dialog takes another perturbation (seed 1).
    changed = [d if i % 10 else perturb_dialogs([gold[i]], seed=1, rate=0.3)[0] for i, d in enumerate(perturbed)]
    with tempfile.TemporaryDirectory() as folder:
        options = EvalOptions(scorer="embedding", cache_dir=folder)
        for label, dialogs in (("cold cache", perturbed), ("after a small change", changed)):
            comparator = make_comparator(options)
            cached = comparator.scorer
            assert isinstance(cached, EmbeddingScorer)
            cached._vectors.clear()  # a fresh process would start empty: only the disk cache remains
            before = cached.encoded_count
            start = time.perf_counter()
            evaluate_dialogs(dialogs, options, comparator=comparator)
            wall = time.perf_counter() - start
            print(f"{label:<22} {wall:7.2f} s, model encoded {cached.encoded_count - before} strings")
    print(f"load average at end (1/5/15 min): {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
