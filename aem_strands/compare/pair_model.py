"""The reply pair model: a cross-encoder trained here, read with onnxruntime, for reply pairs left open.

A cross-encoder reads the two replies together (``[CLS] gold [SEP] predicted [SEP]``) and gives one
logit: how likely the two say the same. It starts from the packaged all-MiniLM-L6-v2 weights and was
trained by ``benchmarks/train_pair_model.py`` on SGD train act pairs (paraphrases against replies with
one value or slot changed) and STS-B train (the data manifest is ``data/pair_model/manifest.json``);
it ships as int8 ONNX with its tokenizer in ``data/pair_model/`` (about 23 MB), so scoring needs
onnxruntime and the ``tokenizers`` library, no torch and no training step.

``PairModelStage`` combines it with the pair head for every reply pair the facts and acts leave open
(``replies.settle_replies`` settles the rest first): a logistic regression over the head's logit (its
act-group threshold already moved to 0.5) and the pair model's logit, fitted by
``benchmarks/pair_model_stage_fit.py``. ``stage.json`` may give each act group (``combiner.PairGroup``)
weights of its own; the shipped one gives every group the same, which did best on the fitting pairs.

The model reads one pair per run, never a batch: its int8 layers quantise their inputs with one scale per
run (onnxruntime's dynamic quantisation), so in a batch a pair's logit moved with its neighbours (by up to
one logit on SGD development pairs, and up to 2.7 from the pair read alone), and a verdict could change
with the other pairs of a run. One pair per run is also faster here (no padding): 3.5 ms a pair against
5.9 in batches of 32 (``benchmarks/pair_model_batches.py`` prints both).
"""

from __future__ import annotations

import functools
import json
import math
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from aem_strands.compare.combiner import PairGroup, pair_group
from aem_strands.compare.reply_signals import with_digits
from aem_strands.errors import ConfigError

_DAY_CLOCK = re.compile(r"\b(1[3-9]|2[0-3]|00?)[:.]([0-5]\d)\b(?!\s*[ap]\.?m\b)", re.IGNORECASE)
_ON_THE_HOUR = re.compile(r"\b(\d{1,2}):00(\s*[ap]\.?m\.?)", re.IGNORECASE)
_SPOKEN_CLOCK = re.compile(
    r"\b(?:(?P<half>half|quarter) (?P<rel>past|to) )?(?P<hour>\d{1,2})(?::(?P<minute>[0-5]\d))?"
    r"(?P<oclock> ?o'?clock)?(?: (?:in the (?P<part>morning|afternoon|evening)|at (?P<night>night)))?\b",
    re.IGNORECASE,
)
"""A clock time said in words (number words are digits by then): ``5 in the morning``, ``half past 9``,
``quarter to 8 in the evening``, ``3 o'clock``."""
_SPOKEN_SPAN = re.compile(
    r"\b(?:(?P<half>half an hour)|(?P<quarters>a|1|3) quarters? of an hour|(?P<whole>an|1) hour and a half)\b",
    re.IGNORECASE,
)
"""A span of time said in parts of an hour: ``half an hour``, ``3 quarters of an hour``, ``an hour and a half``."""


def model_input(text: str) -> str:
    """``text`` as the pair model reads it: number words as digits (``two`` → ``2``), a 24-hour time as the
    12-hour one (``19:00`` → ``7 pm``, ``00:30`` → ``12:30 am``) and ``7:00 pm`` as ``7 pm``. The facts have
    already compared the values; written one way on both sides, the model compares the wording around them
    (it was trained on SGD replies, which write ``7 pm``: ``19:00`` against ``7 pm`` read as another time).
    Clock times from 1:00 to 12:59 without am/pm stay as written: they may be either half of the day. A time or a span
    said in words is written as SGD replies write it: ``5 in the morning`` → ``5 am``, ``half past 9`` → ``9:30``,
    ``3 o'clock`` → ``3``, ``3 quarters of an hour`` → ``45 minutes``."""

    def twelve(match: re.Match[str]) -> str:
        hour, minutes = int(match[1]), match[2]
        clock = f"{hour % 12 or 12}" + ("" if minutes == "00" else f":{minutes}")
        return f"{clock} {'pm' if hour >= 12 else 'am'}"

    for _ in range(4):  # to a fixed point: a rewrite may make another ("five o'clock o'clock" -> "5 o'clock" -> "5")
        written = _DAY_CLOCK.sub(twelve, with_digits(text))
        if _DIGIT.search(written):
            written = _SPOKEN_CLOCK.sub(_said_clock, written)
        if "hour" in written:
            written = _SPOKEN_SPAN.sub(_said_span, written)
        written = _ON_THE_HOUR.sub(lambda m: f"{m[1]}{m[2]}", written)
        if written == text:
            break
        text = written
    return text


_DIGIT = re.compile(r"\d")


def _said_clock(match: re.Match[str]) -> str:
    """A spoken clock time as SGD replies write it (``5 am``, ``8:45 pm``; ``9:30`` and ``3`` where no half of the
    day is said); anything else (a bare number, an hour past 12, ``12 at night``) as written."""
    part = (match["part"] or match["night"] or "").casefold()
    hour, minute = int(match["hour"]), int(match["minute"] or 0)
    if not (match["half"] or match["oclock"] or part) or not 1 <= hour <= 12 or (hour == 12 and part):
        return match[0]
    if match["half"] and match["minute"]:
        return match[0]  # "half past 5:30" says no one time
    if match["half"]:
        offset = 30 if match["half"].casefold() == "half" else 15
        hour, minute = (hour, offset) if match["rel"].casefold() == "past" else (hour - 1 or 12, 60 - offset)
    clock = f"{hour}" + (f":{minute:02d}" if minute else "")
    if not part:
        return clock
    return f"{clock} {'am' if part == 'morning' or (part == 'night' and hour < 6) else 'pm'}"


def _said_span(match: re.Match[str]) -> str:
    if match["half"]:
        return "30 minutes"
    if match["quarters"]:
        return f"{45 if match['quarters'] == '3' else 15} minutes"
    return "90 minutes"


MAX_LENGTH = 64
"""Tokens per pair (both replies together), as in training; longer pairs lose words from the longer reply."""


def _folder() -> Path:
    return Path(str(resources.files("aem_strands.compare").joinpath("data").joinpath("pair_model")))


class PairModel:
    """The int8 ONNX cross-encoder in ``folder`` (default: the packaged one), loaded on first use.

    ``seconds`` adds up the time spent scoring (tokenising and running the model), ``scored`` the pairs
    scored, so a benchmark can report the model's share of a run.
    """

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or _folder()
        self.seconds = 0.0
        self.scored = 0
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._session is None:
                import onnxruntime
                from tokenizers import Tokenizer

                model, vocabulary = self.folder / "model.onnx", self.folder / "tokenizer.json"
                for path in (model, vocabulary):
                    if not path.is_file():
                        raise ConfigError(f"PairModel: {path} is missing (the pair model folder is incomplete)")
                tokenizer = Tokenizer.from_file(str(vocabulary))
                tokenizer.enable_truncation(MAX_LENGTH)
                tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = 1  # the run's other work (embedding, facts) uses the other cores
                self._session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
                self._tokenizer = tokenizer
        return self._session, self._tokenizer

    def logits(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """The model's logit for each (gold, predicted) pair, in order."""
        import numpy as np

        session, tokenizer = self._load()
        started = time.perf_counter()
        out: list[float] = []
        for gold, predicted in pairs:  # one pair per run: see the module docstring
            encoded = tokenizer.encode(model_input(gold), model_input(predicted))
            feeds = {
                "input_ids": np.array([encoded.ids], dtype=np.int64),
                "attention_mask": np.array([encoded.attention_mask], dtype=np.int64),
                "token_type_ids": np.array([encoded.type_ids], dtype=np.int64),
            }
            out.append(float(session.run(None, feeds)[0].reshape(-1)[0]))
        self.seconds += time.perf_counter() - started
        self.scored += len(pairs)
        return out

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """The model's probability in [0, 1] that each pair says the same."""
        return [_logistic(z) for z in self.logits(pairs)]


def _logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1.0 - p))


@dataclass(frozen=True)
class StageWeights:
    """``logistic(intercept + head * logit(head probability) + model * pair model logit)`` for one act group."""

    head: float
    model: float
    intercept: float

    def probability(self, head_probability: float, model_logit: float) -> float:
        return _logistic(self.intercept + self.head * _logit(head_probability) + self.model * model_logit)


@dataclass(frozen=True)
class PairModelStage:
    """The pair head's probability and the pair model's logit combined, with weights per act group
    (``combiner.PairGroup``, fitted by ``benchmarks/pair_model_stage_fit.py``); the pairs of a group without
    weights keep the head's probability and never reach the model."""

    groups: dict[PairGroup, StageWeights]

    def weights(self, gold: str, predicted: str) -> StageWeights | None:
        """The weights for the pair's act group; ``None`` when the stage does not serve that group."""
        return self.groups.get(pair_group(gold, predicted))

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": "pair_model_stage",
            "groups": {
                group.value: {"head": w.head, "model": w.model, "intercept": w.intercept}
                for group, w in sorted(self.groups.items(), key=lambda item: item[0].value)
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> PairModelStage:
        if data.get("kind") != "pair_model_stage":
            raise ConfigError(f"PairModelStage: kind must be 'pair_model_stage', got {data.get('kind')!r}")
        known = {g.value: g for g in PairGroup}
        groups = data.get("groups")
        if not isinstance(groups, dict) or not groups or not all(g in known for g in groups):
            raise ConfigError(f"PairModelStage: groups must map some of {sorted(known)} to weights, got {groups!r}")
        out: dict[PairGroup, StageWeights] = {}
        for name, weights in groups.items():
            if not isinstance(weights, dict):
                raise ConfigError(f"PairModelStage: groups.{name} must be an object of weights, got {weights!r}")
            numbers: list[float] = []
            for field in ("head", "model", "intercept"):
                value = weights.get(field)
                if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
                    raise ConfigError(f"PairModelStage: groups.{name}.{field} must be a finite number, got {value!r}")
                numbers.append(float(value))
            out[known[name]] = StageWeights(*numbers)
        return cls(out)


@functools.lru_cache(maxsize=1)
def default_pair_model() -> PairModel:
    """The packaged pair model (one per process: its ONNX session is loaded once)."""
    return PairModel()


@functools.lru_cache(maxsize=1)
def default_stage() -> PairModelStage | None:
    """The packaged stage (``data/pair_model/stage.json``); ``None`` when the package ships none."""
    path = _folder() / "stage.json"
    if not path.is_file():
        return None
    return PairModelStage.from_dict(json.loads(path.read_text(encoding="utf-8")))
