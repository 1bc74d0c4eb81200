"""Shared builders for tests: small dialogs written inline, and a deterministic scorer."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# No test may fail on wall-clock time (speed is measured by the benchmark scripts): no deadlines.
settings.register_profile("aem", deadline=None)
settings.load_profile("aem")

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
EXTERNAL_DATA = ROOT.parent / "shared" / "external_data"


def action(tool: str, act: str, **args: Any) -> dict[str, Any]:
    return {"tool_id": tool, "action": act, "args": args}


def reply(text: str) -> dict[str, Any]:
    return {"response": text}


def paired(turn_no: int, gold: dict[str, Any], predicted: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """One paired turn in the SPEC §3 file format."""
    kind = "Tool" if "tool_id" in gold else "Agent"
    return {"turn_no": turn_no, "turn": kind, "gold_turn": gold, "predict_turn": predicted, **extra}


@pytest.fixture
def table() -> Any:
    """A deterministic scorer: revenue/profit 0.73 and NYC/New York City 0.92, else token overlap."""
    from aem_strands import TableScorer

    return TableScorer({("revenue", "profit"): 0.73, ("NYC", "New York City"): 0.92})


def reply_fails_on_facts(gold: str, predicted: str) -> str:
    """The detail of a reply pair that must fail on its facts, after checking that it does on both paths
    (``settle_reply`` and ``check_reply_facts``) with an inconsistency first."""
    from aem_strands.compare.facts import check_reply_facts
    from aem_strands.compare.replies import settle_reply
    from aem_strands.types import FailureReason, Method

    settled = settle_reply(gold, predicted)
    assert settled is not None, (gold, predicted)
    assert settled.equivalent is False, settled
    assert settled.method is Method.FACTS, settled
    findings = check_reply_facts(gold, predicted).findings
    assert findings
    assert findings[0].reason is FailureReason.INCONSISTENT_RESPONSE
    return settled.detail


@pytest.fixture
def collector_on() -> Iterator[None]:
    """The cyclic garbage collector on for the test, and as it was after (the speed tests check who pauses it)."""
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()
