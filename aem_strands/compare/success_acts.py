"""Whether an agent's reply reports that an action was done ("Your table has been booked"), read by a small model
trained on the SGD corpus's labelled system acts.

SGD labels every system turn with its acts; ``NOTIFY_SUCCESS`` is the system reporting that the transaction the
user confirmed went through. ``benchmarks/train_success_acts.py`` trains one logistic regression on SGD train system
turns, ``NOTIFY_SUCCESS`` against every other act (``INFORM``, ``OFFER``, ``CONFIRM``, ``REQUEST``,
``NOTIFY_FAILURE``, ``INFORM_COUNT``, ``REQ_MORE``, ``GOODBYE`` ...), over the hashed word and character n-grams
the dialog act heads use (``compare.dialog_acts.features``: no sentence model, a fraction of a millisecond a text),
chooses the band on SGD dev and reports it on SGD test (never trained or tuned on):

- ``CONFIDENT`` (0.7): the lowest threshold of the script's with precision >= 99% on SGD dev system turns (99.1%,
  recall 85.7%, 1,877 positive of 19,384); on SGD test precision 99.2%, recall 86.2% (2,617 of 24,863);
- ``UNSURE`` (0.5): the lowest with precision >= 97% on dev (97.8%, recall 90.0%): between the two the reading is
  a question, not a finding. On SGD test from 0.5: precision 98.1%, recall 90.7%. (From 0.2, 90% on dev, it asked
  about 7 replies of 300 SGD test traces of the tuning half that report nothing done: "It was from 2011.", "Do you
  want tickets booked then?": the replies read are those with no write call before them, nearly all not reports.)

Read whole, as trained (a turn's ``NOTIFY_SUCCESS`` is the turn's act): the most of a reply's sentences' readings did
worse on SGD (dev precision 99.0% only from 0.9, recall 81.8%), since a confirmation request's sentence alone reads
as done ("Kindly ensure that, ... Regular ride has been booked for 3 persons."). On ToolTalk's assistant turns,
labelled by ToolTalk's own structure (a turn after a successful call of an action API, 108, against a turn with no
call, 66; never trained on), precision is 100% from ``CONFIDENT`` but recall 9.3%, and 100% / 16.7% from
``UNSURE``: its wording ("Your event has been created") is not SGD's, which hashed n-grams do not bridge.

The weights (``data/success_acts.npz``, float16) load on first use only. They derive from the Schema-Guided
Dialogue dataset (Rastogi et al., 2020), CC BY-SA 4.0; see ``data/success_acts.README.md``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aem_strands.compare.dialog_acts import features

WEIGHTS = Path(__file__).with_name("data") / "success_acts.npz"
CONFIDENT = 0.7
"""The probability from which a reply is read as reporting an action done (see the module docstring)."""
UNSURE = 0.5
"""The probability from which, below ``CONFIDENT``, the reading is a question (see the module docstring)."""


@dataclass(frozen=True)
class _Model:
    weights: Any  # numpy float32 vector, one weight per hash bucket
    bias: float


@functools.lru_cache(maxsize=1)
def _model() -> _Model:
    import numpy as np  # only when a reply is first read

    if not WEIGHTS.is_file():
        raise FileNotFoundError(f"the success act weights {WEIGHTS} are missing; run "
                                "benchmarks/train_success_acts.py --write")  # fmt: skip
    with np.load(WEIGHTS) as data:
        return _Model(data["weights"].astype(np.float32), float(data["bias"].astype(np.float32)[0]))


@functools.lru_cache(maxsize=4096)
def success_probability(text: str) -> float:
    """The probability that an agent's ``text`` reports an action done (SGD's ``NOTIFY_SUCCESS``)."""
    import numpy as np

    model = _model()
    vector = features(text)
    values = np.fromiter(vector.values(), dtype=np.float32, count=len(vector))
    score = model.bias + float(model.weights[list(vector)] @ values)
    return 1.0 / (1.0 + math.exp(-score)) if score >= 0 else math.exp(score) / (1.0 + math.exp(score))


def success_probabilities(texts: Sequence[str]) -> list[float]:
    """``success_probability`` of each text, in order."""
    return [success_probability(t) for t in texts]


__all__ = ["CONFIDENT", "UNSURE", "WEIGHTS", "success_probabilities", "success_probability"]
