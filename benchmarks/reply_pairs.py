"""Build labelled reply pairs from SGD test dialogues' system dialog acts, split by dialogue.

Deterministic (fixed seed; the split hashes each dialogue id), so a rerun reproduces the files::

    .venv/bin/python benchmarks/reply_pairs.py [--external ../shared/external_data] [--out data/replies]

Every system utterance of the SGD test set carries its dialog acts (act, slot, values) per service.
Two utterances of one service, from two different dialogues of the same split, give:

- ``paraphrase`` (label true): identical acts, slots and values (the values of one act as a set:
  "SUV or Sedan" and "Sedan or SUV" offer the same);
- ``contradiction`` (label false): the same acts and slots, exactly one slot value differs;
- ``other_request`` (label false): one ``REQUEST`` act each, for different slots (asks for other
  information; two requests for the same slot with other offered values are no such pair).

Version 2 of the files (this builder) fixed two sources of label noise of version 1 (kept as
``sgd_pairs.*.v1.jsonl``): v1 keyed an utterance by its act values in annotation order, so two
utterances offering the same values in another order were never paraphrases and could even be
paired as a "contradiction"; and v1 paired any two single-``REQUEST`` utterances as
``other_request``, including requests for the same slot that offered other values.

30 % of dialogues (by SHA-1 of the dialogue id) are held out; pairs never mix the two parts, so a
held-out pair shares no utterance and no dialogue with a calibration pair. Lines:
``{"gold", "predicted", "label", "case", "service", "dialogues"}``. SGD is CC BY-SA 4.0 (see
``data/replies/README.md``).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import itertools
import json
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HELDOUT_SHARE = 30
PER_CASE = 700

Signature = tuple[tuple[str, str, tuple[str, ...]], ...]


def split_of(dialogue_id: str) -> str:
    digest = int(hashlib.sha1(dialogue_id.encode("utf-8")).hexdigest(), 16)
    return "heldout" if digest % 100 < HELDOUT_SHARE else "calibration"


def _dialogs(external: Path) -> Iterator[dict[str, Any]]:
    for path in sorted((external / "sgd" / "test").glob("dialogues_*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            yield from json.load(handle)


def utterances(external: Path) -> dict[str, dict[tuple[str, Signature], list[tuple[str, str]]]]:
    """Per split: (service, act signature) → [(utterance, dialogue id)]."""
    out: dict[str, dict[tuple[str, Signature], list[tuple[str, str]]]] = {
        "calibration": defaultdict(list),
        "heldout": defaultdict(list),
    }
    return act_groups(_dialogs(external), split_of, out)


def act_groups(
    dialogs: Iterable[dict[str, Any]],
    part_of: Callable[[str], str],
    out: dict[str, dict[tuple[str, Signature], list[tuple[str, str]]]] | None = None,
) -> dict[str, dict[tuple[str, Signature], list[tuple[str, str]]]]:
    """SGD system turns of one frame grouped per part (``part_of(dialogue_id)``) by (service, act signature):
    the turns of one group realise the same acts with the same values, so any two are paraphrases."""
    out = out if out is not None else defaultdict(lambda: defaultdict(list))
    for dialog in dialogs:
        part = out[part_of(dialog["dialogue_id"])]
        for turn in dialog["turns"]:
            if turn["speaker"] != "SYSTEM" or len(turn["frames"]) != 1:
                continue
            frame = turn["frames"][0]
            signature = tuple(
                sorted((a["act"], a["slot"], tuple(sorted(a.get("values", [])))) for a in frame["actions"])
            )
            part[(frame["service"], signature)].append((turn["utterance"], dialog["dialogue_id"]))
    return out


def _pick(rng: random.Random, a: list[tuple[str, str]], b: list[tuple[str, str]]) -> tuple[Any, Any] | None:
    for _ in range(8):
        first, second = rng.choice(a), rng.choice(b)
        if first[1] != second[1] and first[0] != second[0]:
            return first, second
    return None


def build(part: dict[tuple[str, Signature], list[tuple[str, str]]], rng: random.Random) -> list[dict[str, Any]]:
    keys = sorted(part, key=repr)
    cases: dict[str, list[tuple[tuple[str, Signature], tuple[str, Signature]]]] = defaultdict(list)
    for key in keys:
        if len({d for _, d in part[key]}) >= 2:
            cases["paraphrase"].append((key, key))
    by_shape: dict[tuple[str, tuple[tuple[str, str], ...]], list[tuple[str, Signature]]] = defaultdict(list)
    for key in keys:
        by_shape[(key[0], tuple((act, slot) for act, slot, _ in key[1]))].append(key)
    for _, members in sorted(by_shape.items(), key=repr):
        for a, b in itertools.combinations(members, 2):
            differing = [i for i, (x, y) in enumerate(zip(a[1], b[1], strict=True)) if x[2] != y[2]]
            if len(differing) == 1 and a[1][differing[0]][2] and b[1][differing[0]][2]:
                cases["contradiction"].append((a, b))
    requests = [k for k in keys if len(k[1]) == 1 and k[1][0][0] == "REQUEST"]
    by_service: dict[str, list[tuple[str, Signature]]] = defaultdict(list)
    for key in requests:
        by_service[key[0]].append(key)
    for _, members in sorted(by_service.items()):
        cases["other_request"].extend((a, b) for a, b in itertools.combinations(members, 2) if a[1][0][1] != b[1][0][1])
    rows: list[dict[str, Any]] = []
    for case, candidates in sorted(cases.items()):
        rng.shuffle(candidates)
        taken = 0
        for a, b in candidates:
            if taken >= PER_CASE:
                break
            picked = _pick(rng, part[a], part[b])
            if picked is None:
                continue
            (gold, gold_dialog), (predicted, predicted_dialog) = picked
            rows.append({
                "gold": gold, "predicted": predicted, "label": case == "paraphrase", "case": case,
                "service": a[0], "dialogues": [gold_dialog, predicted_dialog],
            })  # fmt: skip
            taken += 1
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--external", type=Path, default=ROOT.parent / "shared" / "external_data")
    parser.add_argument("--out", type=Path, default=ROOT / "data" / "replies")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for split, part in utterances(args.external).items():
        rows = build(part, random.Random(7))
        path = args.out / f"sgd_pairs.{split}.jsonl"
        with open(path, "w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
        counts = {case: sum(1 for r in rows if r["case"] == case) for case in sorted({r["case"] for r in rows})}
        print(f"{path}: {len(rows)} pairs {counts}")


if __name__ == "__main__":
    main()
