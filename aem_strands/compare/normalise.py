"""Text normalisation shared by every comparison: the surface differences that never matter.

``normalise_text`` applies unicode compatibility forms (NFKC), case folding, punctuation to spaces
and whitespace collapsing. Typed parsing (numbers, booleans, dates, times, durations) lives in
``values`` and the ``parse_*`` modules; ``settle`` combines them.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from aem_strands.types import JsonValue

_PUNCTUATION = re.compile(r"[^\w\s]", re.UNICODE)
_SPACES = re.compile(r"\s+")


@functools.lru_cache(maxsize=1 << 16)
def normalise_text(text: str) -> str:
    """NFKC, case-folded, punctuation replaced by spaces, whitespace collapsed. Remembered: one value is
    normalised by several parsers and rules in one comparison, and again in later turns."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _SPACES.sub(" ", _PUNCTUATION.sub(" ", folded)).strip()


def display(value: JsonValue) -> str:
    """The string a semantic scorer sees for a scalar."""
    return value if isinstance(value, str) else str(value)
