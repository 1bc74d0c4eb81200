"""Whether an agent's reply reports that an action was done ("Your table has been booked"), read by a small model
trained on the SGD corpus's labelled system acts.

SGD labels every system turn with its acts; ``NOTIFY_SUCCESS`` is the system reporting that the transaction the
user confirmed went through. ``benchmarks/train_success_acts.py`` trains one logistic regression on SGD train system
turns (111,878; the snapshot lacks 31 of the 128 train files), ``NOTIFY_SUCCESS`` against every other act
(``INFORM``, ``OFFER``, ``CONFIRM``, ``REQUEST``, ``NOTIFY_FAILURE``, ``INFORM_COUNT``, ``REQ_MORE``, ``GOODBYE``
...), over hashed word unigrams, bigrams, trigrams and the beginnings of longer words (``features``: no sentence
model, about 60 microseconds a reply), chooses the band on SGD dev and reports it on SGD test (never trained or
tuned on):

- ``CONFIDENT`` (0.7): the lowest threshold of the script's with precision >= 99% on SGD dev system turns (99.3%,
  recall 87.2%, 1,877 positive of 19,384); on SGD test precision 99.5%, recall 85.9% (2,617 of 24,863);
- ``UNSURE`` (0.4): the lowest with precision >= 97% on dev (98.3%, recall 93.1%): between the two the reading is a
  question, not a finding. On SGD test from 0.4: precision 97.9%, recall 92.6%. (A band from 0.2, 90% on dev, asked
  with the character n-gram features about 7 replies of 300 SGD test traces of the tuning half that report nothing
  done, "It was from 2011.", "Do you want tickets booked then?": the replies read are those with no write call
  before them, nearly all of them no report.)

The dialog act heads' features (``compare.dialog_acts.features``: words and character 2- to 5-grams) did no better
(``--features chars``: dev 99.1% / 85.7% at 0.7, test 99.2% / 86.2%) at four times the cost a reply (about 240
microseconds), which showed in the throughput (``benchmarks/trace_benchmark.py``: +1.5 ms CPU a generated trace);
words alone, without the beginnings (``creat`` of ``created``), read as well on SGD test (99.5% / 85.8%) but lower
on replies in other words than SGD's ("Alarm created successfully.": 0.51 against 0.68). Read whole, as trained (a
turn's ``NOTIFY_SUCCESS`` is the turn's act): the most of a reply's sentences' readings did worse on SGD (with the
character features, dev precision 99.0% only from 0.9, recall 81.8%), since a confirmation request's sentence alone
reads as done ("Kindly ensure that, ... Regular ride has been booked for 3 persons."). On ToolTalk's assistant
turns, labelled by ToolTalk's own structure (a turn after a successful call of an action API, 108, against a turn
with no call, 66; never trained on), precision is 100% from ``CONFIDENT`` but recall 7.4%, and 94.1% / 14.8% from
``UNSURE``: its wording ("Your event has been created", "I've sent Nick a message") is not SGD's, which hashed
words do not bridge.

The model reads words, not tense or mood: an announcement of what the agent is about to do reads as done (``Okay,
I will modify your registration now.``: 0.55, on API-Bank's tuning half). So a reply it reads from ``UNSURE`` is
parsed (spaCy, ``compare.roles``' pipeline; only those replies, so the parse runs rarely) and read again without
its sentences that by their grammar report nothing done (``unreported``: a main verb with a modal auxiliary,
``will``, ``'ll``, ``can``; ``going to`` or ``about to`` before a verb; ``let me`` / ``let's``; a question): the
lower of the two readings, ``0.0`` when no sentence is left. A reply that reports an action and announces the next
(``I've cancelled it. I will now refund you.``) reads as its report (0.78 against 0.80 whole). An imperative to the
user is left to the model: SGD reports music played as ``Enjoy the music.`` (0.77; read as no report, 3 of the
planted ``claimed_without_call`` faults of SGD's tuning half went missed), and one that asks the user for something
(``Please confirm the booking.``: 0.01) the model reads as no report already.

The weights (``data/success_acts.npz``, float16) load on first use only. They derive from the Schema-Guided
Dialogue dataset (Rastogi et al., 2020), CC BY-SA 4.0; see ``data/success_acts.README.md``.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aem_strands.compare.dialog_acts import hashed_grams, sigmoid

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

WEIGHTS = Path(__file__).with_name("data") / "success_acts.npz"
CONFIDENT = 0.7
"""The probability from which a reply is read as reporting an action done (see the module docstring)."""
UNSURE = 0.4
"""The probability from which, below ``CONFIDENT``, the reading is a question (see the module docstring)."""


BUCKETS = 1 << 16
"""Hash buckets of the features; the weights are ``BUCKETS`` long."""

_STEM = 5
"""Letters of a word's beginning kept as a feature of its own (``creat`` of ``created``, ``creating``)."""
_TOKEN = re.compile(r"[a-z0']+|[0-9]+|[^\sa-z0-9]")


def features(text: str) -> dict[int, float]:
    """The hashed feature vector of a reply (bucket → weight, unit length): its word unigrams, bigrams and
    trigrams (with the turn's start and end) and the first ``_STEM`` letters of each longer word, of the case-folded
    text with every digit read as ``0``; counts log-scaled. A quarter of the cost of the dialog act heads' character
    n-grams, as accurate here (the module docstring)."""
    folded = re.sub(r"[0-9]", "0", text.casefold().replace("\u2019", "'"))
    tokens = ["<s>", *_TOKEN.findall(folded), "</s>"]
    grams = [f"w {t}" for t in tokens[1:-1]]
    grams += [f"p {t[:_STEM]}" for t in tokens[1:-1] if len(t) > _STEM]
    grams += [f"b {a} {b}" for a, b in itertools.pairwise(tokens)]
    grams += [f"t {a} {b} {c}" for a, b, c in zip(tokens, tokens[1:], tokens[2:], strict=False)]
    return hashed_grams(grams, BUCKETS)


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


def _model_probability(text: str) -> float:
    """The model's probability that ``text``, read whole, reports an action done."""
    import numpy as np

    model = _model()
    vector = features(text)
    values = np.fromiter(vector.values(), dtype=np.float32, count=len(vector))
    score = model.bias + float(model.weights[list(vector)] @ values)
    return sigmoid(score)


@functools.lru_cache(maxsize=4096)
def success_probability(text: str) -> float:
    """The probability that an agent's ``text`` reports an action done (SGD's ``NOTIFY_SUCCESS``): the model's
    reading of the whole text; where that is at least ``UNSURE``, the reading of the text without its sentences that
    by their grammar report nothing done (``unreported``: ``I will modify your registration now``, ``Shall I book
    it?``), when lower: ``0.0`` when every sentence is one of those. The model reads words, not tense: an
    announcement of what the agent is about to do reads as done (``Okay, I will modify your registration now.``:
    0.55)."""
    probability = _model_probability(text)
    if probability < UNSURE or not _may_announce(text):
        return probability  # no parse: most replies read here
    spans = _sentences(text)
    kept = [span for span, announced in spans if not announced]
    if len(kept) == len(spans):
        return probability
    return min(probability, _model_probability(" ".join(kept))) if kept else 0.0


_MAIN = frozenset(["ROOT", "conj"])
_SUBJECTS = frozenset(["nsubj", "nsubjpass", "expl", "csubj"])
_VERB_TAGS = frozenset(["VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "MD"])
_AUXILIARIES = frozenset(["aux", "auxpass"])


_MARKS = frozenset(["will", "would", "can", "could", "shall", "should", "may", "might", "must", "ought", "need",
                    "dare", "cannot", "won't", "can't", "couldn't", "wouldn't", "shouldn't", "mustn't", "shan't",
                    "mightn't", "needn't", "going", "about", "let", "let's", "lets"])  # fmt: skip
"""The words one of which an ``unreported`` sentence holds, whatever its parse: the modals (spaCy's ``MD``, with
their contractions: ``'ll`` and ``'d`` are found apart), ``going`` / ``about`` of ``going to`` / ``about to`` and
``let``. Not a reading: a reply with none of them (nor ``?``) is not parsed, as the parse could drop none of its
sentences (``Done! Your refund ... has been processed.``: half a millisecond a generated trace)."""
_WORDS = re.compile(r"[a-z']+")


def _may_announce(text: str) -> bool:
    """Whether ``text`` could hold a sentence ``unreported`` finds: a ``?``, a contracted modal or one of
    ``_MARKS``."""
    folded = text.casefold().replace("\u2019", "'")
    return "?" in folded or "'ll" in folded or "'d" in folded or any(w in _MARKS for w in _WORDS.findall(folded))


def _sentences(text: str) -> list[tuple[str, bool]]:
    """The sentences of ``text`` as the parser splits them, each with whether it reports nothing done by its
    grammar (``unreported``)."""
    from aem_strands.compare.roles import (
        english_parser,  # the parser, loaded once per process and only when a reply needs it
    )

    doc = english_parser()(text, disable=_UNREAD_PIPES)
    return [(sent.text, unreported(sent)) for sent in doc.sents if sent.text.strip()]


_UNREAD_PIPES = ("attribute_ruler", "lemmatizer")
"""Pipes whose annotations are not read here (only the tags, the arcs and the words): skipped, a third of the cost."""


def unreported(sentence: Span) -> bool:
    """Whether a parsed sentence reports nothing done by its grammar: a question (it ends in ``?``, or a modal
    opens it before the subject: ``Can I help with anything else.``), or a sentence each of whose main clauses (the
    root and the verbs coordinated with it that have a subject of their own) is in the future or another mood (a modal
    auxiliary: ``I will modify it``, ``I'll go ahead and schedule it``, ``I can book it``; ``going to`` or ``about
    to`` before a verb: ``I'm going to book it``) or a proposal in the first person (a bare ``let`` whose
    complement's subject is ``me`` or ``us``: ``Let me book that``). An imperative to the user (``Enjoy the
    music.``: SGD's report of a song played) and a sentence with no verb (``Sure.``) are not: the model reads
    them."""
    words = [t for t in sentence if not t.is_punct and not t.is_space]
    if not words:
        return False
    if sentence[-1].text == "?" or any(t.text == "?" for t in sentence[-3:]):
        return True
    first = words[0]
    if (
        first.tag_ == "MD"
        and first.head.dep_ == "ROOT"
        and any(c.dep_ in _SUBJECTS and c.i > first.i for c in first.head.children)
    ):
        return True  # an inverted modal: a question without its mark ("Can I help with anything else.")
    mains = [t for t in sentence if t.dep_ == "ROOT" or (t.dep_ == "conj" and t.head.dep_ in _MAIN and _own_clause(t))]
    verbs = [t for t in mains if t.tag_ in _VERB_TAGS]
    return bool(verbs) and len(verbs) == len(mains) and all(_not_done(v) for v in verbs)


def _own_clause(verb: Token) -> bool:
    """Whether a coordinated verb has a subject or an auxiliary of its own (``I've cancelled it and I will refund
    you``); one without shares its head's (``I'll go ahead and schedule it``)."""
    return verb.tag_ in _VERB_TAGS and any(c.dep_ in _SUBJECTS or c.dep_ in _AUXILIARIES for c in verb.children)


def _not_done(verb: Token) -> bool:
    """Whether a main verb says what will, may or should be done, not what was: a modal auxiliary, ``going to`` /
    ``about to`` before a verb, or a bare verb with no subject whose complement's subject is the speaker
    (``Let me book that``, ``Let's book it``)."""
    children = list(verb.children)
    if any(c.dep_ == "aux" and c.tag_ == "MD" for c in children):
        return True
    about = [c for c in children if c.lower_ == "about"]  # "am about to cancel": the verb hangs from "about"
    heads = [verb, *about] if verb.lower_ == "going" or about else []
    if any(c.dep_ == "xcomp" and any(a.lower_ == "to" for a in c.children) for h in heads for c in h.children):
        return True
    if verb.tag_ != "VB" or any(c.dep_ in _SUBJECTS or c.dep_ in _AUXILIARIES for c in children):
        return False
    said = [c for c in children if c.dep_ in ("ccomp", "xcomp")]
    return any(t.dep_ in _SUBJECTS and t.lower_ in _SPEAKER for c in said for t in c.children)


_SPEAKER = frozenset(["me", "us", "'s"])
"""The first person as ``let`` takes it (``let me``, ``let us``, ``let's``): the speaker proposes to act."""


__all__ = ["CONFIDENT", "UNSURE", "WEIGHTS", "success_probability", "unreported"]
