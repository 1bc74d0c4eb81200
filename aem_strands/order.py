"""Order-invariant steps (SPEC §4): turns tagged ``OrderInvariant_<group>`` may come in any order.

Within each group the predicted turns are re-paired with the gold turns by an optimal assignment
(``scipy.optimize.linear_sum_assignment``) that maximises the number of passing turns, then the sub-scores, and among
equal assignments keeps the written order. A correct step performed in another order therefore
passes; a wrong step inside a group still fails.

Only pairs that can pass are judged: a prediction of another kind, tool or action than the gold turn fails with a
structure score of 0 whatever its arguments (``checks.check_turn``: ``tool_mismatch`` / ``action_mismatch``), so
its cost is known without a comparison (``MISMATCH_COST``). A group of calls to many tools is judged in time near
its size, not its square; a group of calls to one tool and action still compares every pair, so a group whose
pairs to judge exceed ``MAX_GROUP_PAIRS`` (about 220 calls to one tool and action, in any order) is an
``InputError`` naming the group, in a moment, instead of minutes of comparisons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from aem_strands.errors import InputError, Location
from aem_strands.types import ActionCall, Reply, Turn, TurnVerdict

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


def _key(content: ActionCall | Reply | None) -> tuple[str, str] | str | None:
    """What a pair must share to be judged: a call's tool and action, ``"reply"`` for a reply."""
    if isinstance(content, ActionCall):
        return content.tool_id, content.action
    return "reply" if isinstance(content, Reply) else None


MAX_GROUP_PAIRS = 50_000
"""The most gold/prediction pairs one order-invariant group may ask to judge (see the module docstring)."""


def _judged_pairs(turns: Sequence[Turn], members: Sequence[int]) -> list[tuple[int, int]]:
    """The (row, column) pairs of a group's matrix to judge: gold and prediction of one kind, tool and action,
    or a side without content (a missing prediction is judged as written); every other pair costs
    ``MISMATCH_COST``. More than ``MAX_GROUP_PAIRS`` is an ``InputError`` naming the group."""
    by_key: dict[object, list[int]] = {}
    for column, j in enumerate(members):
        by_key.setdefault(_key(turns[j].predicted), []).append(column)
    unknown = by_key.get(None, [])
    rows = [_key(turns[i].gold) for i in members]
    count = sum(len(members) if key is None else len(by_key.get(key, [])) + len(unknown) for key in rows)
    if count > MAX_GROUP_PAIRS:
        group = turns[members[0]].order_group
        raise InputError(
            f"order-invariant group {group!r} of {len(members):,} turns would judge {count:,} gold/prediction pairs "
            f"(the limit is {MAX_GROUP_PAIRS:,}): split the group, or give the turns in order",
            Location(turn_no=turns[members[0]].turn_no, field="tags"),
        )
    pairs = []
    for row, i in enumerate(members):
        key = _key(turns[i].gold)
        columns = list(range(len(members))) if key is None else sorted(by_key.get(key, []) + unknown)
        pairs += [(row, column) for column in columns]
    return pairs


MISMATCH_COST = 11.0
"""The cost of a failed verdict with a structure score of 0 (``_cost``): what ``check_turn`` gives a prediction of
another kind, tool or action."""


def candidate_pairings(turns: Sequence[Turn]) -> list[Turn]:
    """Every gold/predicted re-pairing inside groups that ``reorder`` will judge, for batching their comparisons
    up front."""
    out = []
    for members in order_groups(turns).values():
        if _settled(turns, members):
            continue
        for row, column in _judged_pairs(turns, members):
            if row != column:
                out.append(replace(turns[members[row]], predicted=turns[members[column]].predicted))
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
        matrix = np.full((len(members), len(members)), MISMATCH_COST + 1e-6)  # as _cost adds for a moved pair
        np.fill_diagonal(matrix, MISMATCH_COST)
        for row, column in _judged_pairs(turns, members):
            i, j = members[row], members[column]
            matrix[row, column] = _cost(judge(replace(turns[i], predicted=turns[j].predicted)), i != j)
        for row, col in enumerate(assign(matrix.tolist())):
            i, j = members[row], members[col]
            if i != j:
                out[i] = replace(turns[i], predicted=turns[j].predicted)
                moved[turns[i].turn_no] = turns[j].turn_no
    return out, moved
