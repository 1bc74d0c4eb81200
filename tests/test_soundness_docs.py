"""The examples of docs/TRAJECTORY.md's "Ordering and hand-off rules", "Argument schemas" and "Untrusted output"
(the ``yml`` blocks: a trace with the rule in its own environment, its first line what ``trace`` finds) give what
they say."""

from __future__ import annotations

import re

import pytest
import yaml

from aem_strands.trace.evaluate import evaluate_trace
from aem_strands.trace.load import parse_trace
from aem_strands.trace.types import Dimension
from tests.conftest import ROOT

BLOCKS = re.findall(r"^```yml\n(.*?)^```", (ROOT / "docs" / "TRAJECTORY.md").read_text(encoding="utf-8"),
                    flags=re.DOTALL | re.MULTILINE)  # fmt: skip
EXPECTED = re.compile(r"# (?:pass: (?P<passes>\w+)|(?P<rule>(?P<dimension>\w+)\.\w+) at (?P<step>\w+))\n")


def test_every_rule_of_the_section_has_an_example() -> None:
    rules = {m.group("rule") for b in BLOCKS if (m := EXPECTED.match(b)) and m.group("rule")}
    assert rules >= {"planning.precondition_said_no", "planning.precondition_pending",
                     "planning.precondition_other_object", "planning.identity_not_from_user", "planning.order",
                     "planning.required_value", "planning.at_most", "planning.not_after", "planning.handoff_due",
                     "arguments.schema", "safety.injected_instruction_followed"}  # fmt: skip
    assert any(EXPECTED.match(b) and EXPECTED.match(b).group("passes") for b in BLOCKS)  # type: ignore[union-attr]


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: str(yaml.safe_load(b)["trace_id"]))
def test_the_documented_example_finds_what_it_says(block: str) -> None:
    expected = EXPECTED.match(block)
    assert expected is not None, "an example opens with '# RULE at STEP' or '# pass: DIMENSION'"
    result = evaluate_trace(parse_trace(yaml.safe_load(block)))
    if expected.group("passes"):
        assert result.dimensions[Dimension(expected.group("passes"))].passed is True
        return
    verdict = result.dimensions[Dimension(expected.group("dimension"))]
    assert [(f.step_id, f.rule) for f in verdict.findings] == [(expected.group("step"), expected.group("rule"))]
