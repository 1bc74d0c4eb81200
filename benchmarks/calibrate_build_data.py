"""Build the labelled calibration pairs in ``data/calibration/`` from ``../shared/external_data``.

Deterministic (fixed seed, hash-based split); rerun to reproduce the committed files byte for byte::

    .venv/bin/python benchmarks/calibrate_build_data.py [--external ../shared/external_data] [--out data/calibration]

Arguments (``arguments.*.jsonl``, lines ``{"gold", "predicted", "label", "source", "group"[, "reference_date"]}``):

- BFCL positives: every unordered pair of one slot's acceptable strings (``derived_arg_equivalence_sets``).
- BFCL negatives: an acceptable value of one slot against the value of another slot with the same
  parameter name (from every single-turn ``possible_answer`` file) whose acceptable sets do not meet;
  pairs where one token set contains the other are dropped (often unlabelled aliases).
- SGD positives: a user's surface form against its canonical value (``values`` / ``canonical_values``
  of the dialog acts: ``March 8th`` / ``2019-03-08``, ``$190`` / ``190``, ``SF`` / ``San Francisco``);
  SGD negatives: the same surface form against another canonical value of the same slot.
  SGD dialogs are set on Friday 2019-03-01 ("Monday next week" is 2019-03-04, "next Friday" is
  2019-03-08 in the annotations), so SGD pairs carry ``reference_date: "2019-03-01"``.
- Hand-made hard pairs (``HANDMADE_ARGUMENTS``): near-synonyms that are different values
  (revenue/profit, EU/US) and aliases that are the same.

Responses (``responses.*.jsonl``):

- STS-B dev without MSR rows, with the human 0-5 score (``score``; equivalent when >= 4).
- SGD system utterances: two utterances of one service with the same dialog acts and slot values are
  paraphrases (positive); NOTIFY_SUCCESS against NOTIFY_FAILURE, the same acts with other slot
  values, and requests for different slots are negatives.

Split: a pair's ``group`` (an acceptable set, an SGD slot value, an STS-B id, an act signature) is
hashed; 30 % of groups are held out (``*.heldout.jsonl``), the rest is for calibration.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import itertools
import json
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HELDOUT_SHARE = 30  # percent of groups
SGD_REFERENCE_DATE = "2019-03-01"

HANDMADE_ARGUMENTS: list[tuple[str, str, bool]] = [
    ("revenue", "profit", False), ("revenue", "sales", False), ("profit", "margin", False),
    ("EU", "US", False), ("EU", "UK", False), ("Europe", "Asia", False), ("buy", "sell", False),
    ("ascending", "descending", False), ("asc", "desc", False), ("enable", "disable", False),
    ("open", "closed", False), ("input", "output", False), ("min", "max", False), ("minimum", "maximum", False),
    ("Monday", "Tuesday", False), ("January", "June", False), ("celsius", "fahrenheit", False),
    ("debit", "credit", False), ("import", "export", False), ("upload", "download", False),
    ("first class", "economy", False), ("one way", "round trip", False), ("departure", "arrival", False),
    ("weekly", "monthly", False), ("public", "private", False), ("read", "write", False),
    ("morning", "evening", False), ("Austria", "Australia", False), ("Sweden", "Switzerland", False),
    ("Washington", "Washington DC", False), ("NYC", "New York City", True), ("LA", "Los Angeles", True),
    ("SF", "San Francisco", True), ("EU", "European Union", True), ("USA", "United States", True),
    ("UK", "United Kingdom", True), ("NY", "New York", True), ("New York", "New York, NY", True),
    ("Berkeley", "Berkeley, CA", True), ("km", "kilometers", True), ("kg", "kilograms", True),
    ("7 pm", "19:00", True), ("two", "2", True), ("1,000", "1000", True), ("50%", "0.5", True),
    ("$1,200", "1200 USD", True), ("yes", "true", True), ("2 hours", "120 minutes", True),
    ("90 minutes", "1.5 hours", True), ("March 1st, 2019", "2019-03-01", True),
]  # fmt: skip


def _group_split(group: str) -> str:
    digest = int(hashlib.sha1(group.encode("utf-8")).hexdigest(), 16)
    return "heldout" if digest % 100 < HELDOUT_SHARE else "calibration"


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


def _tokens(text: str) -> set[str]:
    return set(_norm(text).split())


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def bfcl_arguments(external: Path, rng: random.Random) -> list[dict[str, Any]]:
    slots = list(_jsonl(external / "bfcl" / "derived_arg_equivalence_sets.jsonl.gz"))
    by_param: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for path in sorted((external / "bfcl" / "possible_answer").glob("BFCL_v4_*.json.gz")):
        if "multi_turn" in path.name:
            continue
        for row in _jsonl(path):
            for call in row.get("ground_truth", []):
                if not isinstance(call, dict):
                    continue
                for params in call.values():
                    for param, values in params.items():
                        texts = tuple(sorted({v for v in values if isinstance(v, str) and v.strip()}))
                        if texts:
                            by_param[param].add(texts)
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for slot in slots:
        acceptable = [v for v in slot["acceptable"] if v.strip()]
        group = "bfcl:" + json.dumps(sorted(acceptable))
        for a, b in itertools.combinations(acceptable, 2):
            if (a, b) not in seen and _norm(a) != _norm(b):
                seen.add((a, b))
                out.append({"gold": a, "predicted": b, "label": True, "source": "bfcl", "group": group})
        normalised = {_norm(v) for v in acceptable}
        others = sorted(texts for texts in by_param[slot["param"]] if not normalised & {_norm(t) for t in texts})
        for texts in rng.sample(others, min(2, len(others))):
            gold, predicted = rng.choice(acceptable), rng.choice(texts)
            a, b = _tokens(gold), _tokens(predicted)
            if not a or not b or a <= b or b <= a or (gold, predicted) in seen:
                continue
            seen.add((gold, predicted))
            out.append({"gold": gold, "predicted": predicted, "label": False, "source": "bfcl", "group": group})
    return out


def _sgd_dialogs(external: Path) -> Iterator[dict[str, Any]]:
    for path in sorted((external / "sgd" / "test").glob("dialogues_*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            yield from json.load(handle)


def sgd_arguments(external: Path, rng: random.Random, per_slot: int = 40) -> list[dict[str, Any]]:
    surfaces: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for dialog in _sgd_dialogs(external):
        for turn in dialog["turns"]:
            for frame in turn["frames"]:
                for action in frame["actions"]:
                    values, canonical = action.get("values", []), action.get("canonical_values", [])
                    if len(values) == 1 and len(canonical) == 1 and values[0] != canonical[0]:
                        surfaces[action["slot"]][canonical[0]].add(values[0])
    out: list[dict[str, Any]] = []
    for slot in sorted(surfaces):
        by_canonical = surfaces[slot]
        pairs = sorted((c, s) for c, forms in by_canonical.items() for s in forms)
        canonicals = sorted(by_canonical)
        for canonical, surface in rng.sample(pairs, min(per_slot, len(pairs))):
            group = f"sgd:{slot}:{canonical}"
            base = {"source": "sgd", "group": group, "reference_date": SGD_REFERENCE_DATE}
            out.append({"gold": canonical, "predicted": surface, "label": True, **base})
            other = [c for c in canonicals if c != canonical and _norm(c) != _norm(surface)]
            if other:
                out.append({"gold": rng.choice(other), "predicted": surface, "label": False, **base})
    return out


def handmade_arguments() -> list[dict[str, Any]]:
    return [
        {"gold": g, "predicted": p, "label": label, "source": "handmade", "group": f"handmade:{g}|{p}"}
        for g, p, label in HANDMADE_ARGUMENTS
    ]


def stsb_responses(external: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    with open(external / "stsb" / "sts-dev.no-msr.csv", encoding="utf-8") as handle:
        for row in csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            genre, source, year, pair_id, score, first, second = row[:7]
            out.append({
                "gold": first, "predicted": second, "score": float(score), "source": f"stsb:{source}",
                "group": f"stsb:{genre}:{source}:{year}:{pair_id}",
            })  # fmt: skip
    return out


def _signature(frame: dict[str, Any]) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    return tuple(sorted((a["act"], a["slot"], tuple(a.get("values", []))) for a in frame["actions"]))


def sgd_responses(external: Path, rng: random.Random) -> list[dict[str, Any]]:
    utterances: dict[tuple[str, Any], set[str]] = defaultdict(set)
    for dialog in _sgd_dialogs(external):
        for turn in dialog["turns"]:
            if turn["speaker"] == "SYSTEM" and len(turn["frames"]) == 1:
                frame = turn["frames"][0]
                utterances[(frame["service"], _signature(frame))].add(turn["utterance"])
    keys = sorted(utterances, key=repr)
    out: list[dict[str, Any]] = []

    def add(gold: str, predicted: str, label: bool, group: str) -> None:
        out.append({"gold": gold, "predicted": predicted, "label": label, "source": "sgd", "group": group})

    positives = [k for k in keys if len(utterances[k]) >= 2]
    for key in rng.sample(positives, min(500, len(positives))):
        a, b = rng.sample(sorted(utterances[key]), 2)
        add(a, b, True, f"sgd-reply:{key[0]}:{key[1]!r}")
    by_shape: dict[tuple[str, Any], list[tuple[str, Any]]] = defaultdict(list)
    for key in keys:
        shape = tuple((act, slot) for act, slot, _ in key[1])
        by_shape[(key[0], shape)].append(key)
    flips = {"NOTIFY_SUCCESS": "NOTIFY_FAILURE", "NOTIFY_FAILURE": "NOTIFY_SUCCESS"}
    negatives: list[tuple[tuple[str, Any], tuple[str, Any]]] = []
    for (service, shape), members in sorted(by_shape.items(), key=repr):
        if len(members) >= 2:  # same acts, other slot values: "$50" where gold says "$60"
            negatives.append(tuple(rng.sample(members, 2)))  # type: ignore[arg-type]
        flipped = tuple(sorted((flips.get(act, act), slot) for act, slot in shape))
        if flipped != shape and by_shape.get((service, flipped)):
            negatives.append((rng.choice(members), rng.choice(by_shape[(service, flipped)])))
    requests = defaultdict(list)
    for key in keys:
        if len(key[1]) == 1 and key[1][0][0] == "REQUEST":
            requests[key[0]].append(key)
    for _, members in sorted(requests.items()):
        for a_key, b_key in itertools.combinations(members, 2):
            negatives.append((a_key, b_key))
    for a_key, b_key in rng.sample(negatives, min(700, len(negatives))):
        group = f"sgd-reply:{a_key[0]}:{a_key[1]!r}"
        add(rng.choice(sorted(utterances[a_key])), rng.choice(sorted(utterances[b_key])), False, group)
    return out


def write(rows: list[dict[str, Any]], out_dir: Path, stem: str) -> None:
    parts: dict[str, list[dict[str, Any]]] = {"calibration": [], "heldout": []}
    for row in rows:
        parts[_group_split(row["group"])].append(row)
        row["group"] = hashlib.sha1(row["group"].encode("utf-8")).hexdigest()[:10]
    for split, part in parts.items():
        path = out_dir / f"{stem}.{split}.jsonl"
        with open(path, "w", encoding="utf-8") as handle:
            for row in part:
                handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
        labels = [r.get("label", r.get("score", 0) >= 4) for r in part]
        print(f"{path}: {len(part)} pairs, {sum(labels)} equivalent")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--external", type=Path, default=ROOT.parent / "shared" / "external_data")
    parser.add_argument("--out", type=Path, default=ROOT / "data" / "calibration")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    arguments = bfcl_arguments(args.external, random.Random(4)) + sgd_arguments(args.external, random.Random(4))
    write(arguments + handmade_arguments(), args.out, "arguments")
    responses = stsb_responses(args.external) + sgd_responses(args.external, random.Random(4))
    write(responses, args.out, "responses")


if __name__ == "__main__":
    main()
