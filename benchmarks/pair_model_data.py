"""Build the pair model's training pairs from fetched snapshots of SGD train and STS-B train.

    .venv/bin/python benchmarks/pair_model_data.py [--sgd-git DIR] [--stsb-git DIR] [--out build/pair_model_data]

Both sources are public GitHub repositories, read straight from a bare snapshot (``git show
HEAD:path``; nothing of them is committed here):

- ``google-research-datasets/dstc8-schema-guided-dialogue`` (SGD, CC BY-SA 4.0), ``train/``;
- ``aivilmo/textual-similarity`` (STS Benchmark, scores CC BY-SA 4.0), ``stsbenchmark/sts-train.csv``.

Fetch them first (the project's ``fetch`` tool, or ``git clone --bare`` of the two repositories) and
pass their git directories. Files over 4 MiB are missing from those snapshots; a missing file is
skipped and counted in the manifest.

Pairs (``{"gold", "predicted", "label", "case", "source", "split"}``, ``label`` in [0, 1]):

- SGD system turns of one service with one frame are keyed by their acts, slots and values (the
  values of one act as a set, as ``reply_pairs.py`` does). ``paraphrase`` (label 1): two wordings of
  one key from two dialogues. ``value_change`` (label 0): the same acts and slots, exactly one act's
  values differ. ``slot_change`` (label 0): the same acts, exactly one act's slot differs.
- STS-B train rows of every genre but the MSR ones (``MSRpar`` comes from MRPC, ``MSRvid`` from MSR:
  neither licence allows shipping a model trained on it): ``stsb``, label ``score / 5`` (a regression
  target; the combiner places the decision).

``split`` is ``train`` or ``dev``: 10 % of SGD train dialogues (by SHA-1 of the dialogue id) and 10 %
of the STS-B train rows (by SHA-1 of the two sentences) are kept aside for choosing the model and
fitting its stage in the combiner. SGD dev and test, STS-B dev and test, MRPC and SICK are never read
for training. ``sgd_dev_pairs`` builds SGD dev act pairs the same way for ``reply_heldout_eval.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pair_model_perturb import act_changes, frame_spans, perturbed_pairs
from reply_pairs import Signature, act_groups

from aem_strands.output import AtomicFile, write_atomically

ROOT = Path(__file__).resolve().parents[1]
SGD_SNAPSHOT = "google-research-datasets+dstc8-schema-guided-dialogue"
STSB_SNAPSHOT = "aivilmo+textual-similarity"


def beside_repo(snapshot: str) -> Path:
    """Where a bare snapshot ``<.mirror>/<owner+name>/repo`` is looked for by default: the first ``.mirror`` folder
    beside this checkout or one level up (a worktree's), else the one beside it (named in the message)."""
    candidates = [folder / ".mirror" / snapshot / "repo" for folder in (ROOT.parent, ROOT.parent.parent)]
    return next((c for c in candidates if c.is_dir()), candidates[0])


SGD_GIT = beside_repo(SGD_SNAPSHOT)


def write_weights(target: Path, arrays: Mapping[str, Any]) -> None:
    """Store ``arrays`` as float16 in the ``.npz`` ``target``, whole or not at all: written under a temporary name
    beside it and renamed into place; the temporary file is removed when writing fails (a full disk, Ctrl-C)."""
    import numpy as np

    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".npz")
    os.close(handle)
    try:
        stored = {name: np.asarray(array, dtype=np.float16) for name, array in arrays.items()}
        np.savez_compressed(temporary, **stored)  # type: ignore[arg-type]
        os.chmod(temporary, 0o644)  # mkstemp makes it private; the package's data is world-readable
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


STSB_GIT = beside_repo(STSB_SNAPSHOT)


def require_snapshot(git_dir: Path, flag: str, what: str) -> None:
    """Return when ``git_dir`` is a git snapshot; else say what is missing and exit 2."""
    done = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"], capture_output=True, check=False)
    if done.returncode == 0:
        return
    print(f"pair_model_data: no git snapshot of {what} at {git_dir}: pass {flag} DIR (a bare or ordinary git "
          f"directory of it); nothing written.", file=sys.stderr)  # fmt: skip
    raise SystemExit(2)


DEV_SHARE = 10
PER_KEY = 3
SLOT_PAIRS = 1
"""Wordings paired per pair of keys that differ in one slot (as value changes). 3 gives 1,783 train slot changes
for 638; a model trained on that (slot changes twice) did no better on the whole chain (SGD 0.913 against 0.912, STS-B
0.821 against 0.828, tuning hard pairs 0.846 against 0.858, 5-fold on the stage's fitting pairs)."""
COMBOS_PER_MEMBER = 40
"""Key pairs tried per member of a group of keys with the same acts (a bounded sample of the quadratic candidates)."""
PERTURBED = {"train": 1500, "dev": 150}
"""Hard negatives of each perturbation kind per split from SGD paraphrases (a fifth of that from STS-B pairs)."""
ACT_CHANGES = {"train": 2500, "dev": 250}
"""At most this many pairs per act key (paraphrases) or per key pair (changes), so frequent acts do not dominate."""
MSR_GENRES = ("MSRpar", "MSRvid")

Key = tuple[str, Signature]
Row = dict[str, Any]


def git_show(git_dir: Path, path: str) -> str | None:
    """The text of ``path`` at ``HEAD`` of a bare snapshot; ``None`` when the snapshot lacks the file."""
    done = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"HEAD:{path}"], capture_output=True, check=False)
    return done.stdout.decode("utf-8") if done.returncode == 0 else None


def head_commit(git_dir: Path) -> str:
    done = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"], capture_output=True, check=True)
    return done.stdout.decode().strip()


def listed(git_dir: Path, folder: str) -> list[str]:
    done = subprocess.run(
        ["git", "--git-dir", str(git_dir), "ls-tree", "--name-only", f"HEAD:{folder}"], capture_output=True, check=True
    )
    return sorted(f"{folder}/{n}" for n in done.stdout.decode().split() if n.startswith("dialogues_"))


def _share(text: str) -> int:
    return int(hashlib.sha1(text.encode("utf-8")).hexdigest(), 16) % 100


def sgd_dialogs(git_dir: Path, folder: str, missing: list[str]) -> Iterator[dict[str, Any]]:
    for path in listed(git_dir, folder):
        text = git_show(git_dir, path)
        if text is None:
            missing.append(path)
            continue
        yield from json.loads(text)


def sgd_keys(dialogs: Iterator[dict[str, Any]], part_of: Any) -> dict[str, dict[Key, list[tuple[str, str]]]]:
    """Per part (``part_of(dialogue_id)``): (service, act signature) → [(utterance, dialogue id)]."""
    return act_groups(dialogs, part_of)


def _change(a: Signature, b: Signature) -> str | None:
    """``value_change`` or ``slot_change`` when the two signatures differ in exactly one act's values or slot."""
    if len(a) != len(b) or [x[0] for x in a] != [y[0] for y in b]:
        return None
    differing = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    if len(differing) != 1:
        return None
    (_, slot_a, values_a), (_, slot_b, values_b) = differing[0]
    if slot_a == slot_b and values_a and values_b:
        return "value_change"
    if slot_a != slot_b and values_a == values_b:
        return "slot_change"
    return None


def _pairs_of(rng: random.Random, a: list[tuple[str, str]], b: list[tuple[str, str]], count: int) -> list[Any]:
    out, seen = [], set()
    for _ in range(count * 4):
        first, second = rng.choice(a), rng.choice(b)
        if first[1] == second[1] or first[0] == second[0] or (first[0], second[0]) in seen:
            continue
        seen.add((first[0], second[0]))
        out.append((first[0], second[0]))
        if len(out) >= count:
            break
    return out


def sgd_pairs(
    part: dict[Key, list[tuple[str, str]]], rng: random.Random, per_key: int = PER_KEY, slot_pairs: int = 1
) -> list[Row]:
    """Paraphrases (at most ``per_key`` pairs per key), value changes (one pair per key pair) and slot changes
    (``slot_pairs`` per key pair: they are few) of one part."""
    keys = sorted(part, key=repr)
    rows: list[Row] = []
    for key in keys:
        for gold, predicted in _pairs_of(rng, part[key], part[key], per_key):
            rows.append({"gold": gold, "predicted": predicted, "label": 1.0, "case": "paraphrase"})
    by_acts: dict[tuple[str, tuple[str, ...]], list[Key]] = defaultdict(list)
    for key in keys:
        by_acts[(key[0], tuple(act for act, _, _ in key[1]))].append(key)
    for _, members in sorted(by_acts.items(), key=repr):
        combos = list(itertools.combinations(members, 2))
        rng.shuffle(combos)
        for a, b in combos[: COMBOS_PER_MEMBER * len(members)]:  # quadratic in the members: a bounded sample
            case = _change(a[1], b[1])
            if case is None:
                continue
            for gold, predicted in _pairs_of(rng, part[a], part[b], slot_pairs if case == "slot_change" else 1):
                rows.append({"gold": gold, "predicted": predicted, "label": 0.0, "case": case})
    for row in rows:
        row["source"] = "sgd"
    return rows


def sgd_spans(dialogs: Iterator[dict[str, Any]]) -> dict[str, list[Any]]:
    """Utterance → the spans of its slot values that can trade places (``pair_model_perturb.frame_spans``), for the
    one-frame system turns ``act_groups`` keeps."""
    out: dict[str, list[Any]] = {}
    for dialog in dialogs:
        for turn in dialog["turns"]:
            if turn["speaker"] == "SYSTEM" and len(turn["frames"]) == 1:
                out[turn["utterance"]] = frame_spans(turn["utterance"], turn["frames"][0])
    return out


def stsb_rows(git_dir: Path, path: str) -> list[Row]:
    """STS-B rows of ``path`` with their genre: ``{"gold", "predicted", "score", "genre"}``."""
    text = git_show(git_dir, path)
    if text is None:
        raise SystemExit(f"{git_dir}: no {path} at HEAD (fetch aivilmo/textual-similarity first)")
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split("\t")
        if len(fields) < 7:
            raise SystemExit(f"{path} line {number}: expected 7 tab-separated fields, got {len(fields)}")
        rows.append({"gold": fields[5], "predicted": fields[6], "score": float(fields[4]), "genre": fields[1]})
    return rows


def sgd_dev_pairs(git_dir: Path = SGD_GIT, per_case: int = 700, seed: int = 7) -> tuple[list[Row], list[str]]:
    """SGD dev act pairs built as the training pairs are (one pair per key or key pair, ``per_case`` of each
    case drawn with ``seed``), and the dev files the snapshot lacks. For measurement only."""
    missing: list[str] = []
    part = sgd_keys(sgd_dialogs(git_dir, "dev", missing), lambda _: "dev")["dev"]
    rows = sgd_pairs(part, random.Random(seed), per_key=1)
    rng = random.Random(seed)
    out: list[Row] = []
    for case in ("paraphrase", "value_change", "slot_change"):
        mine = [r for r in rows if r["case"] == case]
        rng.shuffle(mine)
        out += [{**r, "label": bool(r["label"])} for r in mine[:per_case]]
    return out, missing


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sgd-git", type=Path, default=SGD_GIT,
                        help="git snapshot of google-research-datasets/dstc8-schema-guided-dialogue")  # fmt: skip
    parser.add_argument("--stsb-git", type=Path, default=STSB_GIT,
                        help="git snapshot of aivilmo/textual-similarity (STS-B)")  # fmt: skip
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "pair_model_data")
    args = parser.parse_args(argv)
    require_snapshot(args.sgd_git, "--sgd-git", "the SGD data set (dstc8-schema-guided-dialogue)")
    require_snapshot(args.stsb_git, "--stsb-git", "STS-B (aivilmo/textual-similarity)")
    args.out.mkdir(parents=True, exist_ok=True)
    missing: list[str] = []
    parts = sgd_keys(sgd_dialogs(args.sgd_git, "train", missing), lambda d: "dev" if _share(d) < DEV_SHARE else "train")
    spans = sgd_spans(sgd_dialogs(args.sgd_git, "train", []))
    rows: list[Row] = []
    for split in ("train", "dev"):
        sgd = sgd_pairs(parts[split], random.Random(7), slot_pairs=SLOT_PAIRS)
        positives = [
            (r["gold"], r["predicted"], spans.get(r["predicted"], [])) for r in sgd if r["case"] == "paraphrase"
        ]
        sgd += [{**r, "source": "sgd"} for r in perturbed_pairs(positives, random.Random(11), PERTURBED[split])]
        sgd += [{**r, "source": "sgd"} for r in act_changes(parts[split], random.Random(12), ACT_CHANGES[split])]
        rows += [{**r, "split": split} for r in sgd]
    stsb = stsb_rows(args.stsb_git, "stsbenchmark/sts-train.csv")
    kept = [r for r in stsb if r["genre"] not in MSR_GENRES]
    close: dict[str, list[tuple[str, str, list[Any]]]] = {"train": [], "dev": []}
    for r in kept:
        split = "dev" if _share(r["gold"] + "\t" + r["predicted"]) < DEV_SHARE else "train"
        rows.append({
            "gold": r["gold"], "predicted": r["predicted"], "label": r["score"] / 5, "case": "stsb",
            "source": "stsb", "split": split, "score": r["score"],
        })  # fmt: skip
        if r["score"] >= 4:
            close[split].append((r["gold"], r["predicted"], []))
    for split, positives in close.items():
        for row in perturbed_pairs(positives, random.Random(13), PERTURBED[split] // 5):
            rows.append({**row, "source": "stsb", "split": split, "score": None})
    with AtomicFile(args.out / "pairs.jsonl", "--out") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    counts = Counter(f"{r['split']}:{r['case']}" for r in rows)
    manifest = {
        "sources": [
            {
                "repository": "google-research-datasets/dstc8-schema-guided-dialogue",
                "commit": head_commit(args.sgd_git),
                "paths": "train/dialogues_*.json",
                "licence": "CC BY-SA 4.0",
                "files_missing_from_snapshot": missing,
            },
            {
                "repository": "aivilmo/textual-similarity",
                "commit": head_commit(args.stsb_git),
                "paths": "stsbenchmark/sts-train.csv",
                "licence": "scores CC BY-SA 4.0; texts per stsbenchmark/LICENSE.txt",
                "rows": len(stsb),
                "rows_excluded_msr": len(stsb) - len(kept),
            },
        ],
        "excluded": [
            "SGD dev and test (measurement only)",
            "STS-B dev and test (dev is the project's calibration data; test is held out)",
            "STS-B train MSRpar and MSRvid rows (Microsoft licences)",
            "MRPC, SICK and the SemEval STS files: never read (MRPC and SICK are non-commercial; MRPC and SemEval "
            "STS contain STS-B test pairs)",
        ],
        "dev_share_percent": DEV_SHARE,
        "counts": dict(sorted(counts.items())),
    }
    write_atomically(args.out / "manifest.json", json.dumps(manifest, indent=2) + "\n", "--out")
    print(json.dumps(manifest["counts"]), f"SGD files missing: {len(missing)}")


if __name__ == "__main__":
    main()
