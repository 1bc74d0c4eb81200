"""Order-invariant steps (SPEC §4): turns tagged ``OrderInvariant_<group>`` may come in any order.

Within each group the predicted turns are re-paired with the gold turns by an optimal assignment
(``scipy.optimize.linear_sum_assignment``) that maximises the number of passing turns, then the sub-scores, and among
equal assignments keeps the written order. A correct step performed in another order therefore
passes; a wrong step inside a group still fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from aem_strands.types import Turn, TurnVerdict

JudgeFn = Callable[[Turn], TurnVerdict]


def order_groups(turns: Sequence[Turn]) -> dict[str, list[int]]:
    """Positions (indexes into ``turns``) of the members of each order-invariant group."""
    groups: dict[str, list[int]] = {}
    if not any(turn.tags for turn in turns):  # the usual dialog: no tag, so no group
        return groups
    for index, turn in enumerate(turns):
        group = turn.order_group
        if group is not None:
            groups.setdefault(group, []).append(index)
    return {name: members for name, members in groups.items() if len(members) > 1}


def _settled(turns: Sequence[Turn], members: Sequence[int]) -> bool:
    """Every member's prediction is identical to its gold: the written pairing is optimal as it stands."""
    return all(turns[i].gold == turns[i].predicted for i in members)


def candidate_pairings(turns: Sequence[Turn]) -> list[Turn]:
    """Every gold/predicted re-pairing inside groups, for batching their comparisons up front."""
    out = []
    for members in order_groups(turns).values():
        if _settled(turns, members):
            continue
        for i in members:
            for j in members:
                if i != j:
                    out.append(replace(turns[i], predicted=turns[j].predicted))
    return out


def _cost(verdict: TurnVerdict, moved: bool) -> float:
    mean_score = sum(verdict.sub_scores.values()) / len(verdict.sub_scores) if verdict.sub_scores else 0.0
    return (0.0 if verdict.success else 10.0) + (1.0 - mean_score) + (1e-6 if moved else 0.0)


def assign(cost: Sequence[Sequence[float]]) -> list[int]:
    """Minimum-cost perfect assignment of a square matrix: ``result[row] = column`` (scipy's solver)."""
    from scipy.optimize import linear_sum_assignment  # imported on first use: most runs never need it (seconds)

    rows, columns = linear_sum_assignment(np.asarray(cost, dtype=float))
    result = [0] * len(cost)
    for row, column in zip(rows.tolist(), columns.tolist(), strict=True):
        result[row] = column
    return result


def reorder(turns: Sequence[Turn], judge: JudgeFn) -> tuple[list[Turn], dict[int, int]]:
    """Re-pair predicted turns inside order-invariant groups.

    Returns the re-paired turns and, for each turn whose predicted side moved, the ``turn_no``
    of the turn the prediction was written at.
    """
    out = list(turns)
    moved: dict[int, int] = {}
    for members in order_groups(turns).values():
        # Identical pairs cost nothing and any move costs more, so the written pairing is the optimum.
        if _settled(turns, members):
            continue
        matrix = [
            [_cost(judge(replace(turns[i], predicted=turns[j].predicted)), i != j) for j in members] for i in members
        ]
        for row, col in enumerate(assign(matrix)):
            i, j = members[row], members[col]
            if i != j:
                out[i] = replace(turns[i], predicted=turns[j].predicted)
                moved[turns[i].turn_no] = turns[j].turn_no
    return out, moved
