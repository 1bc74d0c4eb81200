"""The Ray engine against the local path on the SGD gold-vs-perturbed set: identical results? how long?

Usage (from the repository root; needs the ray extra, ``pip install -e '.[ray]'`` from the repository)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/ray_benchmark.py [--sgd-dir DIR] [--limit N]
        [--scorer exact|embedding] [--cpus N] [--batch-size N] [--no-cli]

The set is the one ``speed_benchmark.py`` scores: the SGD test conversations perturbed (seed 0, rate 0.1), in
the unpaired form (aligned on load). A local Ray instance with ``--cpus`` CPUs (default: this machine's count)
is started once, and its start-up is timed apart; with ``RAY_ADDRESS`` set the script joins that cluster
instead. Side by side, in one process:

- API: ``evaluate_dialogs`` (one process) vs ``evaluate_dataset(dialogs_dataset(...))`` read back with
  ``results_in_order``, one actor per CPU (``workers``);
- CLI: ``aem-strands score FILE --format jsonl`` vs the same with ``--engine ray --workers N``, called in this
  process (so the Ray instance is already up); the JSONL text and the exit codes are compared.

Ray timings include starting the actors (each imports ``aem_strands`` and builds its comparator; in embedding
mode each loads the model) and moving the dialogs through the object store. Exit code 0 when every comparison
is identical, 1 otherwise.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from aem_bench import load_sgd_dialogs, perturb_dialogs
from speed_benchmark import DEFAULT_SGD_DIR, load_average, unpaired

from aem_strands import EvalOptions, evaluate_dialogs
from aem_strands.cli import main as cli_main
from aem_strands.distributed import dialogs_dataset, evaluate_dataset, require_ray, results_in_order


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sgd-dir", type=Path, default=DEFAULT_SGD_DIR)
    parser.add_argument("--limit", type=int, help="read at most N SGD dialogs (default: all)")
    parser.add_argument("--scorer", choices=("exact", "embedding"), default="exact")
    parser.add_argument("--cpus", type=int, default=os.cpu_count() or 1, help="CPUs of the local Ray instance")
    parser.add_argument("--batch-size", type=int, default=64, help="dialogs per map_batches batch (default 64)")
    parser.add_argument("--no-cli", action="store_true", help="compare the API paths only")
    return parser.parse_args(argv)


def _cli(path: Path, *extra: str) -> tuple[int, str, float]:
    out = io.StringIO()
    start = time.perf_counter()
    code = cli_main(["score", str(path), "--format", "jsonl", *extra], stdout=out, stderr=io.StringIO())
    return code, out.getvalue(), time.perf_counter() - start


def _yes(same: bool) -> str:
    return "yes" if same else "NO"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"load average at start (1/5/15 min): {load_average()}")
    objects = [unpaired(d) for d in perturb_dialogs(load_sgd_dialogs(args.sgd_dir, args.limit), seed=0, rate=0.1)]
    turns = sum(len(o["gold"]) for o in objects)
    print(f"{len(objects)} dialogs, {turns} gold turns, scorer {args.scorer}, batch size {args.batch_size}")

    ray = require_ray()
    start = time.perf_counter()
    if os.environ.get("RAY_ADDRESS"):
        ray.init(include_dashboard=False, log_to_driver=False, logging_level="error")
    else:
        ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, logging_level="error")
    context = ray.data.DataContext.get_current()  # figures only on stdout: no progress lines
    context.enable_progress_bars = context.print_on_execution_start = context.enable_auto_log_stats = False
    logging.getLogger("ray.data").setLevel(logging.ERROR)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    print(f"Ray {ray.__version__}: instance up in {time.perf_counter() - start:.1f} s, {cpus} CPUs")
    local_options = EvalOptions(scorer=args.scorer)  # the plain API: one batch, one process
    ray_options = EvalOptions(scorer=args.scorer, batch_size=args.batch_size, workers=cpus)

    start = time.perf_counter()
    local = [r.to_dict() for r in evaluate_dialogs(objects, local_options)]
    local_s = time.perf_counter() - start
    start = time.perf_counter()
    on_ray = list(results_in_order(evaluate_dataset(dialogs_dataset(objects), ray_options)))
    ray_s = time.perf_counter() - start
    same = on_ray == local
    print(f"API  identical: {_yes(same)}; local {local_s:.2f} s (1 process), ray {ray_s:.2f} s ({cpus} actors)")
    if not same:
        differ = sum(a != b for a, b in zip(on_ray, local, strict=False)) + abs(len(on_ray) - len(local))
        print(f"     {differ} of {len(local)} records differ")
    identical = same

    if not args.no_cli:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "sgd.jsonl"
            path.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
            flags = ["--scorer", args.scorer, "--batch-size", str(args.batch_size)]
            code, text, local_s = _cli(path, *flags)
            ray_code, ray_text, ray_s = _cli(path, *flags, "--engine", "ray", "--workers", str(cpus))
        same = ray_text == text and ray_code == code
        print(
            f"CLI  identical: {_yes(same)} (exit {code} vs {ray_code}, {len(text.splitlines())} lines); "
            f"local {local_s:.2f} s, ray {ray_s:.2f} s"
        )
        identical = identical and same
    ray.shutdown()
    print(f"load average at end (1/5/15 min): {load_average()}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
