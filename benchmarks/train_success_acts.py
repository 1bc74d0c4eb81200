"""Train ``aem_strands.compare.success_acts`` on SGD train; choose its band on SGD dev; report it on SGD test.

Every system turn of the SGD dialogs is a row, labelled 1 when one of its frames' actions is ``NOTIFY_SUCCESS``
(the system reports that the transaction the user confirmed was done: "Your table has been booked") and 0 for every
other act (``INFORM``, ``OFFER``, ``CONFIRM``, ``REQUEST``, ``NOTIFY_FAILURE``, ``INFORM_COUNT``, ``REQ_MORE``,
``GOODBYE``, ...). Train: the snapshot ``fetch`` brings (``--sgd-git``, as ``benchmarks/pair_model_data.py`` reads
it); dev: the snapshot's ``dev`` split, where the band is chosen; test: the project's copy (``--sgd-test``), never
trained or tuned on. One logistic regression (scikit-learn, ``C`` below) over the hashed features the dialog act
heads use (``aem_strands.compare.dialog_acts.features``), so training and run time see the same vectors.

The script prints, on dev and test, precision and recall at each threshold of ``THRESHOLDS``, then the band: its
upper end is the lowest threshold whose dev precision is at least ``--precision`` (a finding), its lower end the
lowest whose dev precision is at least ``--ask`` (a question below the upper end). ``success_acts.CONFIDENT`` and
``success_acts.UNSURE`` are set from them by hand. ``--tooltalk DIR`` also scores ToolTalk's assistant turns, labelled
by ToolTalk's own structure (1: the turn follows a call of an action API that succeeded, in the same assistant
turn; 0: no call in that turn), never trained on. ``--write`` stores the weights (float16) in
``aem_strands/compare/data/success_acts.npz``, atomically. The shipped weights:

    PYTHONPATH=$PWD python benchmarks/train_success_acts.py --write

SGD is CC BY-SA 4.0 (Rastogi et al., 2020); the shipped weights say so beside them (``success_acts.README.md``).
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pair_model_data import SGD_GIT, head_commit, write_weights  # noqa: E402
from train_dialog_acts import SGD_TEST, test_dialogs, train_dialogs  # noqa: E402
from train_value_paraphrase import dev_dialogs  # noqa: E402

from aem_strands.compare import dialog_acts, success_acts  # noqa: E402
from aem_strands.compare.success_acts import BUCKETS, WEIGHTS  # noqa: E402

C = 4.0
"""Inverse regularisation (the dialog act heads' choice; not tuned on test)."""
THRESHOLDS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98)
TOOLTALK = ROOT.parent / "shared" / "external_data" / "tooltalk"


def system_turns(dialogs: Iterable[dict[str, Any]]) -> tuple[list[str], list[int]]:
    """The system turns' texts and labels (1: ``NOTIFY_SUCCESS`` among their acts)."""
    texts: list[str] = []
    labels: list[int] = []
    for dialog in dialogs:
        for turn in dialog["turns"]:
            if turn["speaker"] != "SYSTEM":
                continue
            acts = {a["act"] for f in turn["frames"] for a in f["actions"]}
            texts.append(turn["utterance"])
            labels.append(int("NOTIFY_SUCCESS" in acts))
    return texts, labels


def tooltalk_turns(folder: Path) -> tuple[list[str], list[int]]:
    """ToolTalk's assistant turns labelled by its own structure (see the module docstring): 1 after a successful
    call of an action API (``is_action``: a write) in the same turn, 0 for a turn with no call."""
    apis = _tooltalk_actions(folder)
    texts: list[str] = []
    labels: list[int] = []
    for sub in ("tooltalk", "easy"):
        for name in sorted(glob.glob(str(folder / sub / "*.json"))):
            conversation = json.loads(Path(name).read_text(encoding="utf-8"))
            for turn in conversation["conversation"]:
                if turn["role"] != "assistant" or not turn.get("text"):
                    continue
                calls = turn.get("apis") or []
                if not calls:
                    texts.append(turn["text"])
                    labels.append(0)
                elif any(apis.get(c["request"]["api_name"]) and c.get("exception") is None for c in calls):
                    texts.append(turn["text"])
                    labels.append(1)
    return texts, labels


def _tooltalk_actions(folder: Path) -> dict[str, bool]:
    """Whether each ToolTalk API is an action (not ``readOnlyHint`` in the project's ToolTalk tool catalog, which
    carries ToolTalk's own ``is_action``)."""
    from aem_bench.trace_sets import TOOLTALK_TOOLS

    tools = json.loads(TOOLTALK_TOOLS.read_text(encoding="utf-8"))
    return {t["name"]: not t["annotations"].get("readOnlyHint", False) for t in tools}


def matrix(texts: list[str], features: Callable[[str], dict[int, float]] = success_acts.features) -> csr_matrix:
    rows, cols, vals = [], [], []
    for i, text in enumerate(texts):
        for bucket, value in features(text).items():
            rows.append(i)
            cols.append(bucket)
            vals.append(value)
    return csr_matrix((vals, (rows, cols)), shape=(len(texts), BUCKETS), dtype=np.float32)


def curve(name: str, y: np.ndarray[Any, Any], p: np.ndarray[Any, Any]) -> Iterator[tuple[float, float, float]]:
    """(threshold, precision, recall) at each of ``THRESHOLDS``, printed."""
    print(f"{name}: {len(y)} turns, {int(y.sum())} positive")
    for t in THRESHOLDS:
        hit = p >= t
        tp = int((hit & (y == 1)).sum())
        precision = tp / max(1, int(hit.sum()))
        recall = tp / max(1, int((y == 1).sum()))
        print(f"  at {t:4.2f}: precision {precision:.4f} recall {recall:.4f} ({int(hit.sum())} read as success)")
        yield t, precision, recall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sgd-git", type=Path, default=SGD_GIT)
    parser.add_argument("--sgd-test", type=Path, default=SGD_TEST)
    parser.add_argument("--tooltalk", type=Path, default=TOOLTALK, help="ToolTalk's data (skipped when absent)")
    parser.add_argument("--precision", type=float, default=0.99, help="dev precision of the band's upper end")
    parser.add_argument("--ask", type=float, default=0.97, help="dev precision of the band's lower end")
    parser.add_argument("--features", choices=("words", "chars"), default="words",
                        help="words: the module's; chars: the dialog act heads' (compared, never written)")  # fmt: skip
    parser.add_argument("--write", action="store_true", help="store the weights in the package")
    args = parser.parse_args()
    started = time.time()
    missing: list[str] = []
    train = system_turns(train_dialogs(args.sgd_git, missing))
    dev = system_turns(dev_dialogs(args.sgd_git))
    test = system_turns(test_dialogs(args.sgd_test))
    print(f"SGD train {head_commit(args.sgd_git)[:12]} ({len(missing)} train files absent from the snapshot, skipped)")
    print(f"SGD test {args.sgd_test}; {len(train[0])} train, {len(dev[0])} dev, {len(test[0])} test system turns")
    if args.write and args.features != "words":
        parser.error("--write stores the module's own features' weights (--features words)")
    reader = success_acts.features if args.features == "words" else dialog_acts.features

    def matrix_of(texts: list[str]) -> csr_matrix:
        return matrix(texts, reader)

    model = LogisticRegression(C=C, max_iter=2000, solver="liblinear", random_state=0)
    model.fit(matrix_of(train[0]), np.asarray(train[1]))
    dev_curve = list(curve("SGD dev", np.asarray(dev[1]), model.predict_proba(matrix_of(dev[0]))[:, 1]))
    upper = next((t for t, p, _ in dev_curve if p >= args.precision), None)
    lower = next((t for t, p, _ in dev_curve if p >= args.ask), None)
    print(f"band: a finding from {upper} (dev precision >= {args.precision}), a question from {lower} (>= {args.ask})")
    list(curve("SGD test", np.asarray(test[1]), model.predict_proba(matrix_of(test[0]))[:, 1]))
    if (args.tooltalk / "tooltalk").is_dir():
        texts, labels = tooltalk_turns(args.tooltalk)
        list(curve("ToolTalk assistant turns (labels by structure)", np.asarray(labels),
                   model.predict_proba(matrix_of(texts))[:, 1]))  # fmt: skip
    print(f"trained and scored in {time.time() - started:.0f} s")
    if args.write:
        write_weights(WEIGHTS, {"weights": model.coef_[0], "bias": model.intercept_[:1]})
        print(f"wrote {WEIGHTS} ({WEIGHTS.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
