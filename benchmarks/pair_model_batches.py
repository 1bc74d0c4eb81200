"""Whether the pair model's logit for a pair depends on the other pairs read with it, and what batching saves.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/pair_model_batches.py [--pairs N] [--batch B]

Reads N reply pairs (the SGD calibration pairs of ``data/replies``, shuffled with seed 1) with the packaged
int8 ONNX pair model three ways: one pair per run (what ``PairModel`` does), in batches of B in the given
order, and in batches of B in the reverse order. Prints the time per pair of each and the largest and mean
differences between the logits: a batch's logits move with its neighbours because the int8 layers quantise
their inputs with one scale per run.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np

from aem_strands.compare.pair_model import PairModel, model_input

ROOT = Path(__file__).resolve().parents[1]


def batched(model: PairModel, pairs: list[tuple[str, str]], size: int) -> list[float]:
    session, tokenizer = model._load()
    out: list[float] = []
    for start in range(0, len(pairs), size):
        encoded = tokenizer.encode_batch([(model_input(g), model_input(p)) for g, p in pairs[start : start + size]])
        feeds = {
            name: np.array([getattr(e, field) for e in encoded], dtype=np.int64)
            for name, field in (
                ("input_ids", "ids"),
                ("attention_mask", "attention_mask"),
                ("token_type_ids", "type_ids"),
            )
        }
        out += [float(x) for x in session.run(None, feeds)[0].reshape(-1)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=400)
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args()
    with open(ROOT / "data" / "replies" / "sgd_pairs.calibration.jsonl", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    random.Random(1).shuffle(rows)
    pairs = [(r["gold"], r["predicted"]) for r in rows[: args.pairs]]
    model = PairModel()
    model.logits(pairs[:4])  # load the model before timing
    started = time.perf_counter()
    alone = np.array(model.logits(pairs))
    alone_s = time.perf_counter() - started
    started = time.perf_counter()
    forward = np.array(batched(model, pairs, args.batch))
    batch_s = time.perf_counter() - started
    backward = np.array(batched(model, pairs[::-1], args.batch)[::-1])
    n = len(pairs)
    alone_ms, batch_ms = alone_s / n * 1000, batch_s / n * 1000
    print(f"{n} pairs: one per run {alone_ms:.2f} ms/pair; batches of {args.batch} {batch_ms:.2f} ms/pair")
    moved, apart = np.abs(forward - backward), np.abs(forward - alone)
    print(f"batches, order reversed vs given: max |logit difference| {moved.max():.3f}, mean {moved.mean():.4f}")
    print(f"batches vs one per run: max {apart.max():.3f}, mean {apart.mean():.4f}")


if __name__ == "__main__":
    main()
