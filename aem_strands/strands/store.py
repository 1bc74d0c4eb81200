"""A result-store wrapper that keeps cached task output but always scores against current gold.

``LocalFileTaskResultStore`` caches the whole post-task ``EvaluationData`` by case name, expected
fields and metadata included; on a hit the host skips the task (the agent is not called) and runs
the evaluators on the **stored** copy, so edited gold would be scored against its stale version.
``GoldRefreshingStore`` wraps any store: ``load`` returns the cached data with the expected fields
(``expected_output``, ``expected_trajectory``, ``expected_assertion``, ``expected_interactions``,
``expected_environment_state``) and ``metadata`` replaced by those of the current case of that
name; the cached actual output and trajectory are kept. ``hits`` / ``misses`` count loads; a hit whose
stored gold differed from the case's is logged as a warning and counted in ``refreshed``.

A file store names its file after the case, so a case name is refused (``ConfigError`` naming the case) when it
could leave the store folder or is no file name at all: empty, ``.`` or ``..``, or holding ``/``, ``\\`` or NUL
(``../x``, ``/abs/x``). The cases given are checked when the store is made, every name again on load and save.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from strands_evals import Case
from strands_evals.evaluation_data_store import EvaluationDataStore
from strands_evals.local_file_task_result_store import LocalFileTaskResultStore
from strands_evals.types import EvaluationData

from aem_strands.errors import ConfigError, printable

logger = logging.getLogger(__name__)

REFRESHED_FIELDS = (
    "expected_output",
    "expected_trajectory",
    "expected_assertion",
    "expected_interactions",
    "expected_environment_state",
    "metadata",
)


def check_case_name(case_name: object) -> str:
    """``case_name`` when a store may name a file after it (see the module docstring), else a ``ConfigError``."""
    if not isinstance(case_name, str):
        raise ConfigError(f"result store: a case name must be a string, got {type(case_name).__name__}")
    if case_name in ("", ".", "..") or any(c in case_name for c in "/\\\x00"):
        raise ConfigError(
            f"result store: case name {printable(repr(case_name))} is refused: it would be stored outside the store "
            "folder or is not a file name (no '/', '\\', NUL, '.' or '..'; rename the case)"
        )
    return case_name


class GoldRefreshingStore:
    """Wraps an ``EvaluationDataStore``; cached entries get the current cases' gold (see module docstring)."""

    def __init__(self, inner: EvaluationDataStore, cases: Sequence[Case[Any, Any]]) -> None:
        self._inner = inner
        self._cases = {check_case_name(case.name): case for case in cases if case.name is not None}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        self.refreshed = 0

    @classmethod
    def local(cls, directory: str | Path, cases: Sequence[Case[Any, Any]]) -> GoldRefreshingStore:
        """A refreshing wrapper over a ``LocalFileTaskResultStore`` in ``directory``."""
        return cls(LocalFileTaskResultStore(directory), cases)

    def load(self, case_name: str) -> EvaluationData[Any, Any] | None:
        cached = self._inner.load(check_case_name(case_name))
        with self._lock:
            if cached is None:
                self.misses += 1
            else:
                self.hits += 1
        case = self._cases.get(case_name)
        if cached is None or case is None:
            return cached
        changed = [name for name in REFRESHED_FIELDS if getattr(cached, name) != getattr(case, name)]
        if changed:
            with self._lock:
                self.refreshed += 1
            logger.warning(
                "cached task result of case %r was stored with other %s; scoring it against the current case",
                case_name,
                ", ".join(changed),
            )
        return cached.model_copy(update={name: getattr(case, name) for name in REFRESHED_FIELDS})

    def save(self, case_name: str, result: EvaluationData[Any, Any]) -> None:
        self._inner.save(check_case_name(case_name), result)
