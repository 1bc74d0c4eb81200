"""Numbers compared as numbers (issue 28, "Soundness"): a float argument is the decimal it stands for, not its
binary rounding; each on traces of both outcomes."""

from __future__ import annotations

import pytest

from aem_strands.compare.values import ParseContext
from aem_strands.trace.grounding import GroundingIndex
from aem_strands.trace.values import ComparatorValues


def grounded_by(said: str, value: float) -> bool:
    index = GroundingIndex(ComparatorValues().same, ParseContext())
    index.add_text(said, "user")
    return index.find(value) is not None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2 + 0.53, True),  # 2.5300000000000002 in binary: the amount meant is 2.53
        (0.1 + 0.2, False),  # 0.30000000000000004 is 0.3, which was not said
        (2.54, False),
    ],
)
def test_a_float_is_the_decimal_it_stands_for(value: float, expected: bool) -> None:
    assert grounded_by("I paid $2.53 and then $0.35", value) is expected
