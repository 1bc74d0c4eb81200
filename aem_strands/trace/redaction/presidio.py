"""Presidio's pattern recognizers without Presidio's NLP engine, and the context rule its engine would apply.

``import presidio_analyzer`` runs the package's ``__init__``, which builds the recognizer registry and the NLP
engines and so imports spaCy, transformers and torch (about 10 s and 300 MiB on a shared two-core machine), although
a pattern recognizer needs none of them. ``recognizer_classes`` imports only the modules of the recognizers named
here, under a stand-in for the package, and then forgets the stand-in, so a later ``import presidio_analyzer`` (by
anyone) gets the real package. Where the real package is already imported, its classes are used as they are.

Presidio raises a weak pattern's score when a context word of its recognizer stands shortly before the match
(``LemmaContextAwareEnhancer``: +0.35, at least 0.4, the five words before); that enhancer reads spaCy lemmas, so
``context_score`` applies the same rule on the words themselves.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import types
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

_CORE = (
    ("analysis_explanation", "AnalysisExplanation"),
    ("recognizer_result", "RecognizerResult"),
    ("entity_recognizer", "EntityRecognizer"),
    ("local_recognizer", "LocalRecognizer"),
    ("pattern", "Pattern"),
    ("pattern_recognizer", "PatternRecognizer"),
)
"""The modules (and the names the package's ``__init__`` re-exports from them) that recognizers import."""

CONTEXT_BOOST = 0.35
"""Presidio's ``context_similarity_factor``: what a context word adds to a match's score."""
MIN_SCORE_WITH_CONTEXT = 0.4
"""Presidio's ``min_score_with_context_similarity``: the least score of a match with a context word."""
CONTEXT_WORDS_BEFORE = 5
"""Presidio's ``context_prefix_count``: how many words before a match are read for context."""


class _NlpArtifacts:
    """Stands in for ``presidio_analyzer.nlp_engine.NlpArtifacts``, which recognizers import for annotations only."""


def _stand_in(name: str, path: Path | None) -> types.ModuleType:
    module = types.ModuleType(name)
    if path is not None:
        module.__path__ = [str(path)]
    sys.modules[name] = module
    return module


def recognizer_classes(modules: Sequence[tuple[str, str]]) -> Mapping[str, Any]:
    """The classes ``(module, class)`` of ``presidio_analyzer.predefined_recognizers`` (module relative to it,
    ``generic.iban_recognizer``), plus ``RecognizerResult``, imported without Presidio's NLP engines (see the
    module docstring)."""
    if "presidio_analyzer.predefined_recognizers" in sys.modules:
        return {
            name: getattr(importlib.import_module(f"presidio_analyzer.predefined_recognizers.{module}"), name)
            for module, name in [*modules, ("generic.phone_recognizer", "PhoneRecognizer")]
        } | {"RecognizerResult": sys.modules["presidio_analyzer"].RecognizerResult}
    spec = importlib.util.find_spec("presidio_analyzer")
    if spec is None or spec.origin is None:
        raise ImportError("presidio-analyzer is not installed (pip install presidio-analyzer)")
    root = Path(spec.origin).parent
    before = set(sys.modules)
    try:
        package = _stand_in("presidio_analyzer", root)
        _stand_in("presidio_analyzer.nlp_engine", root / "nlp_engine").NlpArtifacts = _NlpArtifacts  # type: ignore[attr-defined]
        for module, name in _CORE:
            setattr(package, name, getattr(importlib.import_module(f"presidio_analyzer.{module}"), name))
        found: dict[str, Any] = {"RecognizerResult": package.RecognizerResult}
        for module, name in modules:
            parts = ["predefined_recognizers", *module.split(".")[:-1]]
            for depth in range(1, len(parts) + 1):
                dotted = "presidio_analyzer." + ".".join(parts[:depth])
                if dotted not in sys.modules:
                    _stand_in(dotted, root.joinpath(*parts[:depth]))
            found[name] = getattr(importlib.import_module(f"presidio_analyzer.predefined_recognizers.{module}"), name)
        return found
    finally:
        for name in set(sys.modules) - before:
            if name == "presidio_analyzer" or name.startswith("presidio_analyzer."):
                del sys.modules[name]


_WORD = re.compile(r"[A-Za-z]+")


def context_score(score: float, text: str, start: int, context: Iterable[str]) -> float:
    """``score`` raised as Presidio's context enhancer would: when one of ``context`` (its recognizer's words) is
    one of the ``CONTEXT_WORDS_BEFORE`` words before ``start`` (case-insensitive; a word also matches when it begins
    with the context word, Presidio's lemma stand-in: ``phones`` for ``phone``)."""
    words = [w.lower() for w in _WORD.findall(text[max(0, start - 80) : start])][-CONTEXT_WORDS_BEFORE:]
    wanted = [c.lower() for c in context]
    if any(w == c or (len(c) > 3 and w.startswith(c)) for w in words for c in wanted):
        return max(MIN_SCORE_WITH_CONTEXT, min(1.0, score + CONTEXT_BOOST))
    return score
