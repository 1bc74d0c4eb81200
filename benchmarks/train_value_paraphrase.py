"""Train ``aem_strands.compare.value_paraphrase`` on SGD train; report it on SGD test; choose its operating point.

Pairs come from the SGD dialogs (train: the snapshot ``fetch`` brings, ``--sgd-git``, read as
``benchmarks/pair_model_data.py`` reads it; test: the project's copy, ``--sgd-test``, never trained on). For each
service call, each parameter whose value is words (``value_paraphrase.reads``: no digit, at most three words, no
typed reading) and each value the user's state held for that slot at the turn before the call
(``frames[].state.slot_values``) that shares no word with it (``value_paraphrase.shares_word``: a value named in
part is not the model's to read):

- positive: (the user's value, the call's value): ``('Barbecue', 'American')``, ``('SF', 'San Francisco')``,
  weighing as often as SGD gives it, up to ``--repeat`` times;
- negatives: the same user value against ``--other`` other values the slot takes in calls (never one SGD pairs
  with that user value anywhere), against one value of another slot, and ``--phrases`` candidate phrases of the
  dialog's user turns so far (``value_paraphrase.phrases``; none that overlaps a state value or shares a word with
  the call's value) against the call's value, and (train only) the ``--common`` phrases the users of a service say
  most ("restaurant", "movie", "book"), none ever a user's value for the slot, against five values of each slot.

One hidden layer of ``--hidden`` ReLU units (scikit-learn's ``MLPClassifier``; ``--hidden 0``: a logistic
regression) over ``value_paraphrase.pair_features`` of the bundled MiniLM vectors. On SGD test the script prints
precision and recall on the pairs, then on whole values as the arguments check meets them: a call's value not
written in the user's turns, where those turns hold the user's own words for it, is grounded when some candidate
phrase of those turns reaches the threshold (recall); the same call with the value replaced by another value of the
slot, not written there and never paired with the user's words, must not be (a wrong grounding: the precision
counts them, and the script names those at the operating point). The operating point printed is the lowest
threshold whose precision on SGD dev whole values (the snapshot's ``dev``, also never trained on) is at least
``--precision``: chosen there, then reported on test; ``value_paraphrase.CONFIDENT`` is set from
it by hand. ``--write`` stores the weights (float16) in ``aem_strands/compare/data/value_paraphrase.npz``,
atomically. ``--cache DIR`` keeps the sentence vectors between runs (``aem_strands.cache.ModelCache``). The shipped
weights:

    PYTHONPATH=$PWD python benchmarks/train_value_paraphrase.py --hidden 64 --phrases 12 --common 60 --write

SGD is CC BY-SA 4.0 (Rastogi et al., 2020); the shipped weights say so beside them (``value_paraphrase.README.md``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pair_model_data import SGD_GIT, git_show, head_commit, listed, write_weights  # noqa: E402
from train_dialog_acts import SGD_TEST, test_dialogs, train_dialogs  # noqa: E402

from aem_strands.cache import ModelCache  # noqa: E402
from aem_strands.compare.scorers import EmbeddingScorer  # noqa: E402
from aem_strands.compare.value_paraphrase import WEIGHTS, pair_features, phrases, reads, shares_word  # noqa: E402

C = 1.0
"""Inverse regularisation of the regression (a first choice, not tuned on test)."""
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999)


@dataclass(frozen=True)
class Call:
    """One call value to ground: its slot (service, slot), the value, the user's values for it, the user turns."""

    slot: tuple[str, str]
    value: str
    said: tuple[str, ...]
    user_turns: tuple[str, ...]


def calls(dialogs: Iterable[dict[str, Any]]) -> Iterator[Call]:
    """Every call value that is words (see the module docstring), with the user's values for its slot."""
    for dialog in dialogs:
        state: dict[str, dict[str, list[str]]] = {}
        user_turns: list[str] = []
        for turn in dialog["turns"]:
            if turn["speaker"] == "USER":
                user_turns.append(turn["utterance"])
                for frame in turn["frames"]:
                    state[frame["service"]] = frame["state"]["slot_values"]
                continue
            for frame in turn["frames"]:
                call = frame.get("service_call")
                if call is None:
                    continue
                slots = state.get(frame["service"], {})
                for slot, value in call["parameters"].items():
                    if reads(value):
                        said = tuple(v for v in slots.get(slot, []) if v.strip())
                        yield Call((frame["service"], slot), value, said, tuple(user_turns))


Pair = tuple[str, str, int]


def _paired(all_calls: list[Call]) -> dict[tuple[tuple[str, str], str], set[str]]:
    """For each (slot, user value, case-folded), every call value SGD pairs with it there (itself included)."""
    out: dict[tuple[tuple[str, str], str], set[str]] = defaultdict(set)
    for c in all_calls:
        for s in c.said:
            out[(c.slot, s.casefold())].update({c.value.casefold(), s.casefold()})
    return out


def _overlaps(phrase: str, said: Iterable[str]) -> bool:
    p = phrase.casefold()
    return any(p in s.casefold() or s.casefold() in p for s in said)


def pairs(
    all_calls: list[Call], others: int, phrase_count: int, rng: random.Random, common: int = 0
) -> dict[Pair, int]:
    """Each pair (see the module docstring) and how often SGD gives it."""
    vocabulary: dict[tuple[str, str], list[str]] = defaultdict(list)
    for c in all_calls:
        if c.value not in vocabulary[c.slot]:
            vocabulary[c.slot].append(c.value)
    every = sorted({c.value for c in all_calls})
    paired = _paired(all_calls)
    out: Counter[Pair] = Counter()
    for c in all_calls:
        differ = [s for s in c.said if not shares_word(s, c.value)]
        if not differ:
            continue
        for s in differ:
            out[(s, c.value, 1)] += 1
            known = paired[(c.slot, s.casefold())]
            pool = [v for v in vocabulary[c.slot] if v.casefold() not in known]
            out.update((s, v, 0) for v in rng.sample(pool, min(others, len(pool))))
            foreign = rng.choice(every)
            if foreign not in vocabulary[c.slot]:
                out[(s, foreign, 0)] += 1
        candidates = [
            p for t in c.user_turns for p in phrases(t) if not _overlaps(p, c.said) and not shares_word(p, c.value)
        ]
        out.update((p, c.value, 0) for p in rng.sample(candidates, min(phrase_count, len(candidates))))
    out.update(_common_phrase_pairs(all_calls, vocabulary, common, rng))
    return dict(sorted(out.items()))


def _common_phrase_pairs(
    all_calls: list[Call], vocabulary: dict[tuple[str, str], list[str]], common: int, rng: random.Random
) -> Iterator[Pair]:
    """Hard negatives: the ``common`` phrases the users of a service say most ("restaurant", "movie", "book")
    against values of its slots, each phrase never a user's value for that slot anywhere."""
    said_by_slot: dict[tuple[str, str], set[str]] = defaultdict(set)
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for c in all_calls:
        said_by_slot[c.slot].update(s.casefold() for s in c.said)
        if (c.slot[0], c.user_turns) not in seen:
            seen.add((c.slot[0], c.user_turns))
            counts[c.slot[0]].update({p.casefold() for t in c.user_turns for p in phrases(t)})
    for slot, values in vocabulary.items():
        said = said_by_slot[slot]
        ranked = sorted(counts[slot[0]].items(), key=lambda item: (-item[1], item[0]))[:common]  # ties by name
        frequent = [p for p, _ in ranked if not _overlaps(p, said)]
        for phrase in frequent:
            for value in rng.sample(values, min(5, len(values))):
                if not shares_word(phrase, value):
                    yield (phrase, value, 0)


def dev_dialogs(git_dir: Path) -> Iterator[dict[str, Any]]:
    """The SGD dev dialogs of the snapshot (the operating point is chosen there, never on test)."""
    for path in listed(git_dir, "dev"):
        text = git_show(git_dir, path)
        if text is not None:
            yield from json.loads(text)


class Vectors:
    """MiniLM vectors of strings, embedded once each (kept in ``cache``, a ``ModelCache`` folder, when given)."""

    def __init__(self, cache: Path | None) -> None:
        self._scorer = EmbeddingScorer(batch_size=128, cache=ModelCache(cache) if cache is not None else None)

    def features(self, rows: list[tuple[str, str]]) -> np.ndarray[Any, Any]:
        left = self._scorer.vectors([a for a, _ in rows])
        right = self._scorer.vectors([b for _, b in rows])
        return pair_features(left, right)


def _report(name: str, y: np.ndarray[Any, Any], p: np.ndarray[Any, Any]) -> None:
    for t in THRESHOLDS:
        hit = p >= t
        tp = int((hit & (y == 1)).sum())
        precision = tp / max(1, int(hit.sum()))
        recall = tp / max(1, int((y == 1).sum()))
        print(f"  {name} at {t:5.3f}: precision {precision:.4f} recall {recall:.4f} ({int(hit.sum())} grounded)")


class Model:
    """The fitted classifier: a logistic regression (``hidden`` 0), or one hidden layer of ``hidden`` ReLU units
    (scikit-learn's ``MLPClassifier``); ``stored`` gives its weights as ``value_paraphrase`` reads them."""

    def __init__(self, hidden: int, balanced: bool) -> None:
        self.hidden = hidden
        self._model: Any = (
            MLPClassifier((hidden,), alpha=1e-3, max_iter=300, early_stopping=True, random_state=0)
            if hidden
            else LogisticRegression(C=C, max_iter=3000, class_weight="balanced" if balanced else None)
        )

    def fit(self, x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], weight: np.ndarray[Any, Any]) -> None:
        self._model.fit(x, y, sample_weight=weight)

    def predict_proba(self, x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        out: np.ndarray[Any, Any] = self._model.predict_proba(x)
        return out

    def stored(self) -> dict[str, np.ndarray[Any, Any]]:
        if not self.hidden:
            return {"weights": self._model.coef_[0], "bias": self._model.intercept_[0]}
        (w1, w2), (b1, b2) = self._model.coefs_, self._model.intercepts_
        return {"hidden_weights": w1, "hidden_bias": b1, "weights": w2[:, 0], "bias": b2[0]}


def whole_values(
    model: Model, vectors: Vectors, test_calls: list[Call], limit: int, rng: random.Random, readings: list[str]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """(label, best probability) per whole value: each test call value the user's turns do not hold, where they
    hold the user's own words for it (1), and the same call with another value of the slot that nobody said (0)."""
    vocabulary: dict[tuple[str, str], list[str]] = defaultdict(list)
    for c in test_calls:
        if c.value not in vocabulary[c.slot]:
            vocabulary[c.slot].append(c.value)
    paired = _paired(test_calls)
    cases: list[tuple[int, str, list[str]]] = []
    seen: set[tuple[str, str, str]] = set()
    for c in test_calls:
        text = " ".join(c.user_turns).casefold()
        other_words = [s for s in c.said if not shares_word(s, c.value) and s.casefold() in text]
        if not other_words or c.value.casefold() in text or (c.slot[1], c.value, other_words[0]) in seen:
            continue
        seen.add((c.slot[1], c.value, other_words[0]))
        candidates = list(dict.fromkeys(p for t in c.user_turns for p in phrases(t)))
        known = set().union(*(paired[(c.slot, s.casefold())] for s in c.said))
        pool = [v for v in vocabulary[c.slot] if v.casefold() not in known and v.casefold() not in text]
        if not candidates or not pool:
            continue
        cases.append((1, c.value, candidates))
        cases.append((0, rng.choice(pool), candidates))
    rng.shuffle(cases)
    cases = cases[:limit]
    labels, best = [], []
    for label, value, every in cases:
        candidates = [p for p in every if not shares_word(p, value)]  # as ``grounding_phrase`` reads them
        if not candidates:
            labels.append(label)
            best.append(0.0)
            readings.append(f"{value!r} by nothing")
            continue
        p = model.predict_proba(vectors.features([(cand, value) for cand in candidates]))[:, 1]
        labels.append(label)
        best.append(float(p.max()))
        readings.append(f"{value!r} by {candidates[int(p.argmax())]!r} ({p.max():.3f})")
    return np.asarray(labels), np.asarray(best)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sgd-git", type=Path, default=SGD_GIT)
    parser.add_argument("--sgd-test", type=Path, default=SGD_TEST)
    parser.add_argument("--other", type=int, default=4, help="other values of the slot per positive")
    parser.add_argument("--phrases", type=int, default=4, help="other phrases of the user per call")
    parser.add_argument("--values", type=int, default=1200, help="whole test values to score (half changed)")
    parser.add_argument("--precision", type=float, default=0.98)
    parser.add_argument("--hidden", type=int, default=0, help="hidden ReLU units (0: a logistic regression)")
    parser.add_argument("--balanced", action="store_true", help="weigh the classes alike (logistic regression)")
    parser.add_argument("--repeat", type=int, default=10, help="the most a positive pair's count weighs")
    parser.add_argument("--positive", type=float, default=1.0, help="the weight of a positive pair seen once")
    parser.add_argument("--common", type=int, default=0, help="a service's most said phrases, as hard negatives")
    parser.add_argument("--show", type=float, help="name the changed values grounded at this threshold")
    parser.add_argument("--cache", type=Path, help="a folder to keep the sentence vectors in between runs")
    parser.add_argument("--write", action="store_true", help="store the weights in the package")
    args = parser.parse_args()
    started = time.time()
    rng = random.Random(20261202)
    missing: list[str] = []
    train_calls = list(calls(train_dialogs(args.sgd_git, missing)))
    test_calls = list(calls(test_dialogs(args.sgd_test)))
    dev_calls = list(calls(dev_dialogs(args.sgd_git)))
    train = pairs(train_calls, args.other, args.phrases, rng, args.common)
    test = pairs(test_calls, args.other, args.phrases, rng)
    print(f"SGD train {head_commit(args.sgd_git)[:12]} ({len(missing)} train files absent from the snapshot, skipped)")
    print(f"SGD test {args.sgd_test}")
    for name, rows in (("train", train), ("test", test)):
        positives = sum(label for _, _, label in rows)  # distinct positive pairs
        print(f"{name}: {len(rows)} pairs, {positives} positive")
    vectors = Vectors(args.cache)
    x_train = vectors.features([(a, b) for a, b, _ in train])
    y_train = np.asarray([label for _, _, label in train])
    # a mapping SGD gives often (Barbecue for American) weighs more, up to ``--repeat`` times; other pairs once
    weight = np.asarray([min(n, args.repeat) * args.positive if label else 1.0 for (_, _, label), n in train.items()])
    model = Model(args.hidden, args.balanced)
    model.fit(x_train, y_train, weight)
    x_test = vectors.features([(a, b) for a, b, _ in test])
    y_test = np.asarray([label for _, _, label in test])
    print("SGD test pairs:")
    _report("pairs", y_test, model.predict_proba(x_test)[:, 1])
    readings: list[str] = []
    dev_readings: list[str] = []
    labels, best = whole_values(model, vectors, dev_calls, args.values, rng, dev_readings)
    print(f"SGD dev whole values ({int(labels.sum())} said in other words, {int((labels == 0).sum())} changed):")
    _report("values", labels, best)
    chosen = next(
        (t for t in THRESHOLDS if ((best >= t) & (labels == 1)).sum() >= args.precision * max(1, (best >= t).sum())),
        None,
    )
    print(f"operating point: {chosen} (lowest threshold with precision >= {args.precision} on SGD dev whole values)")
    if args.show is not None:
        wrong = [r for r, label, p in zip(dev_readings, labels, best, strict=True) if label == 0 and p >= args.show]
        print(f"SGD dev changed values grounded at {args.show} ({len(wrong)}): {'; '.join(wrong)}")
    labels, best = whole_values(model, vectors, test_calls, args.values, rng, readings)
    print(f"SGD test whole values ({int(labels.sum())} said in other words, {int((labels == 0).sum())} changed):")
    _report("values", labels, best)
    shown = args.show if args.show is not None else chosen
    if shown is not None:
        wrong = [r for r, label, p in zip(readings, labels, best, strict=True) if label == 0 and p >= shown]
        print(f"SGD test changed values grounded at {shown} ({len(wrong)}): {'; '.join(wrong)}")
    print(f"trained and scored in {time.time() - started:.0f} s")
    if args.write:
        write_weights(WEIGHTS, model.stored())
        print(f"wrote {WEIGHTS} ({WEIGHTS.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
