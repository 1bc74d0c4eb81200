"""Fuzzed documents through the loader and the scorer: only ``AemError`` may escape (issue 9).

The strategy lives in ``benchmarks/fuzz_documents.py``, which also runs 10,000 documents as a script.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from fuzz_documents import check, documents
from hypothesis import HealthCheck, given, settings


@settings(
    max_examples=50,
    deadline=None,
    derandomize=True,  # the same documents every run: CI never goes red by chance; the script explores new ones
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(documents())
def test_fuzzed_documents_raise_nothing_but_our_error(document: tuple[bytes, str]) -> None:
    data, suffix = document
    with tempfile.TemporaryDirectory() as folder:
        outcome = check(data, suffix, Path(folder))
    assert outcome  # check raises anything that is not an AemError; an outcome names what happened
