"""Side-by-side figures for reply equivalence: cosine, facts, the shipped chain, the learned combiner.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/reply_report.py [--markdown] [--cache-dir DIR] [--v1] \
        [--candidate NAME=FILE ...]

Data (see ``benchmarks/reply_pairs.py`` and ``data/replies/README.md``):

- ``sgd heldout``: ``data/replies/sgd_pairs.heldout.jsonl`` (dialogues never seen in calibration);
- ``sts-b heldout``: the held-out STS-B rows of ``data/calibration/responses.heldout.jsonl``
  (equivalent when the human score >= 4);
- ``hard``: ``data/replies/hard_pairs.jsonl`` (hand-made, including every reply example of issue 7);
- with ``--v1``, ``sgd heldout v1``: ``data/replies/sgd_pairs.heldout.v1.jsonl``, the held-out pairs of
  the first pair builder (with its label noise), for figures comparable with earlier ones.

Methods: plain MiniLM cosine at 0.5, at its best threshold on the calibration part
(``sgd_pairs.calibration.jsonl`` + STS-B calibration rows) and at the best threshold of the reported
set itself (an optimistic baseline); facts and acts alone (anything without
a finding passes); the shipped chain (``Comparator`` with the default embedding scorer and
thresholds, i.e. exactly what ``score`` and ``compare`` do). Each row reports balanced accuracy over
the set and the accuracy per case (paraphrases passed, contradictions failed). ``--candidate
NAME=FILE`` adds the chain with another learned reply stage in place of the shipped one: a
``ReplyCombiner`` or ``PairHead`` json file (``benchmarks/reply_combiner_fit.py`` writes them).
``--cache-dir`` keeps the embeddings in a persistent cache (``aem_strands.cache``) between runs.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sklearn.metrics import balanced_accuracy_score

from aem_strands.cache import ModelCache
from aem_strands.compare.chain import Comparator, ComparisonRequest
from aem_strands.compare.combiner import PairHead, ReplyCombiner
from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.errors import ConfigError
from aem_strands.types import Method, ValueKind

ROOT = Path(__file__).resolve().parents[1]


def _read(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _stsb(path: Path) -> list[dict[str, Any]]:
    rows = [r for r in _read(path) if str(r.get("source", "")).startswith("stsb")]
    return [{**r, "label": r["score"] >= 4, "case": "equivalent" if r["score"] >= 4 else "different"} for r in rows]


def load_sets(v1: bool = False) -> dict[str, list[dict[str, Any]]]:
    """The reply sets by name; ``v1`` adds ``sgd heldout v1`` (the first pair builder's held-out pairs)."""
    data = ROOT / "data"
    sets = {
        "sgd calibration": _read(data / "replies" / "sgd_pairs.calibration.jsonl"),
        "sgd heldout": _read(data / "replies" / "sgd_pairs.heldout.jsonl"),
        "sts-b calibration": _stsb(data / "calibration" / "responses.calibration.jsonl"),
        "sts-b heldout": _stsb(data / "calibration" / "responses.heldout.jsonl"),
        "hard": _read(data / "replies" / "hard_pairs.jsonl"),
    }
    if v1:
        sets["sgd heldout v1"] = _read(data / "replies" / "sgd_pairs.heldout.v1.jsonl")
    return sets


class CandidateScorer:
    """The embedding scorer with another learned reply stage (a ``ReplyCombiner`` or ``PairHead``)."""

    name = "embedding"
    method = Method.EMBEDDING

    def __init__(self, embedder: EmbeddingScorer, model: ReplyCombiner | PairHead) -> None:
        self.embedder, self.model = embedder, model

    def similarities(self, pairs: list[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        if kind is not ValueKind.RESPONSE:
            return self.embedder.similarities(pairs, kind)
        self.embedder.embed(text for pair in pairs for text in pair)
        if isinstance(self.model, PairHead):
            gold, predicted = self.embedder.vectors([g for g, _ in pairs]), self.embedder.vectors([p for _, p in pairs])
            return [self.model.probability(g, p, u, v) for (g, p), u, v in zip(pairs, gold, predicted, strict=True)]
        return [self.model.probability(g, p, self.embedder.cosine(g, p)) for g, p in pairs]


def read_candidate(path: Path) -> ReplyCombiner | PairHead:
    """A learned reply stage from its json file: a pair head (``"kind": "pair_head"``) or a combiner."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a json object, got {type(data).__name__}")
    return PairHead.from_dict(data) if data.get("kind") == "pair_head" else ReplyCombiner.from_dict(data)


def _best_threshold(scores: list[float], labels: list[bool]) -> float:
    candidates = sorted({round(s, 3) for s in scores})
    return max(candidates, key=lambda t: balanced_accuracy_score(labels, [s >= t for s in scores]))


def _at_own_best(scores: list[float], rows: list[dict[str, Any]]) -> list[bool]:
    threshold = _best_threshold(scores, [bool(r["label"]) for r in rows])
    return [s >= threshold for s in scores]


def _row(name: str, rows: list[dict[str, Any]], verdicts: list[bool]) -> dict[str, Any]:
    labels = [bool(r["label"]) for r in rows]
    per_case: dict[str, list[bool]] = defaultdict(list)
    for row, verdict in zip(rows, verdicts, strict=True):
        per_case[row.get("case", "equivalent" if row["label"] else "different")].append(verdict == row["label"])
    return {
        "method": name,
        "balanced_accuracy": round(float(balanced_accuracy_score(labels, verdicts)), 3),
        **{case: round(sum(hits) / len(hits), 3) for case, hits in sorted(per_case.items())},
    }


def evaluate(
    sets: dict[str, list[dict[str, Any]]], methods: dict[str, Callable[[list[dict[str, Any]]], list[bool]]]
) -> dict[str, list[dict[str, Any]]]:
    return {
        name: [_row(method, rows, decide(rows)) for method, decide in methods.items()]
        for name, rows in sets.items()
        if "calibration" not in name
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--cache-dir", type=Path, help="a persistent embedding cache (aem_strands.cache)")
    parser.add_argument("--v1", action="store_true", help="also report the v1 held-out SGD pairs")
    parser.add_argument("--candidate", action="append", default=[], help="NAME=FILE: the chain with this stage")
    args = parser.parse_args()
    candidates: dict[str, ReplyCombiner | PairHead] = {}
    for item in args.candidate:
        name, sep, file = item.partition("=")
        if not sep or not name or not file:
            raise SystemExit(f"--candidate: expected NAME=FILE, got {item!r}")
        candidates[name] = read_candidate(Path(file))
    sets = load_sets(v1=args.v1)
    embedder = EmbeddingScorer(cache=ModelCache(args.cache_dir) if args.cache_dir else None)

    def cosines(rows: list[dict[str, Any]]) -> list[float]:
        embedder.embed(text for r in rows for text in (r["gold"], r["predicted"]))
        return [embedder.cosine(r["gold"], r["predicted"]) for r in rows]  # plain cosine, not the combiner

    calibration = sets["sgd calibration"] + sets["sts-b calibration"]
    best = _best_threshold(cosines(calibration), [bool(r["label"]) for r in calibration])
    comparator = Comparator(embedder)

    def chain_of(comparator: Comparator) -> Callable[[list[dict[str, Any]]], list[bool]]:
        def chain(rows: list[dict[str, Any]]) -> list[bool]:
            requests = [ComparisonRequest(r["gold"], r["predicted"], ValueKind.RESPONSE) for r in rows]
            return [c.equivalent is True for c in comparator.compare_many(requests)]

        return chain

    methods: dict[str, Callable[[list[dict[str, Any]]], list[bool]]] = {
        "cosine@0.50": lambda rows: [s >= 0.5 for s in cosines(rows)],
        f"cosine@{best:.2f} (best on calibration)": lambda rows: [s >= best for s in cosines(rows)],
        "cosine@best on the set itself (optimistic)": lambda rows: _at_own_best(cosines(rows), rows),
        "facts and acts only": lambda rows: [not check_reply_facts(r["gold"], r["predicted"]).findings for r in rows],
        "shipped chain": chain_of(comparator),
    }
    for name, model in candidates.items():
        methods[f"chain with {name}"] = chain_of(Comparator(CandidateScorer(embedder, model)))
    report = evaluate(sets, methods)
    if args.markdown:
        for name, table in report.items():
            cases = [k for k in table[0] if k not in ("method", "balanced_accuracy")]
            print(f"\n{name} ({len(sets[name])} pairs)\n")
            print("| method | balanced acc. | " + " | ".join(cases) + " |")
            print("|---|---|" + "---|" * len(cases))
            for row in table:
                print(
                    f"| {row['method']} | {row['balanced_accuracy']} | " + " | ".join(str(row[c]) for c in cases) + " |"
                )
    else:
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
