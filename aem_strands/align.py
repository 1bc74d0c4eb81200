"""Alignment of unpaired gold and predicted turn sequences into a paired ``Dialog``.

Real agents add, skip and reorder turns, so pairing gold and predicted turns by position would
shift every later turn out of place after one inserted call. ``align_turns`` instead finds an
**optimal** alignment (minimum total cost over all order-respecting alignments, by dynamic
programming — not greedy, not positional):

- a gold turn paired with a predicted turn costs ``match_cost`` (0 for identical turns, below 1 for
  the same tool and action or two replies, 1.9 for a different tool/action or kind — still cheaper
  than calling it one missing plus one extra turn, which costs 2);
- an unmatched gold turn is **missing** (cost 1), except a gold turn marked ``optional``
  (cost 0, and it is dropped from the result);
- an unmatched predicted turn is **extra** (cost 1), except where ``AlignOptions`` allows it
  (``allow_extra="all"``, or ``"read_only"`` for calls to one of ``read_only_tools``): cost 0, and
  it is dropped from the result (listed in ``Alignment.ignored``).

Gold turns that share an ``OrderInvariant_<group>`` tag and are adjacent form a block; the
predicted turns aligned to a block may come in any order (optimal assignment within the block;
runs longer than ``MAX_BLOCK`` are split into consecutive blocks).
Everything else keeps its relative order, so a swapped pair of non-invariant turns is one match
and one missing plus one extra turn.

Among alignments of equal cost the one that pairs turns earliest wins (extras of repeated
identical calls come last). Empty sequences are fine: all gold missing, or all predicted extra.

The result is a ``Dialog`` of paired ``Turn``s numbered 1..n in aligned order, ``predicted=None``
for a missing turn and ``gold=None`` for an extra one, which the existing pipeline judges
(``missing_turn`` / ``extra_turn``) and attributes unchanged. Gold ``depends_on`` (1-based gold
positions) is renumbered to the aligned turn numbers. Pure: no model, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from aem_strands.compare.normalise import normalise_text
from aem_strands.errors import ConfigError, InputError, Location
from aem_strands.scope import SCOPE_CHOICES, Scope, content_in_scope
from aem_strands.tools import ToolCatalog
from aem_strands.types import (
    ActionCall,
    Dialog,
    JsonValue,
    Reply,
    Turn,
    TurnContent,
    TurnKind,
    frozen_record,
    make_turn,
)

AllowExtra = Literal["none", "all", "read_only"]
ALLOW_EXTRA_CHOICES: tuple[str, ...] = ("none", "all", "read_only")

MISSING_COST = 1.0
EXTRA_COST = 1.0
MISMATCH_COST = 1.9
FAILED_CALL_COST = 0.5
"""Added to pairing a gold call with a predicted call of the same tool and action that failed (its
observation is ``{"error": ...}``) where gold's did not."""
_EPS = 1e-9
_BAND_MARGIN = 1e-3
"""How much cheaper than any alignment outside the band the diagonal must be (see ``_Aligner``): far above
the DP's tie-break penalties (1e-7) and rounding (1e-6)."""


def failed_call(call: ActionCall) -> bool:
    """Whether a call's observation records a failure (``{"error": ...}``, as the live mapping writes it)."""
    observation = call.observation
    return isinstance(observation, dict) and observation.get("error") not in (None, False, "")


def same_json(gold: JsonValue, predicted: JsonValue) -> bool:
    """Whether two JSON values are identical as the comparison chain's exact match sees them: same types at
    every depth (``1`` is not ``1.0`` nor ``True``), same written floats, and no infinite or NaN number
    (two of those are not known to be equal: the chain fails them closed)."""
    if type(gold) is not type(predicted):
        return False
    if isinstance(gold, str):
        return bool(gold == predicted)
    if (
        isinstance(gold, dict)
        and gold == predicted
        and all(type(v) is str for v in gold.values())
        and all(type(v) is str for v in predicted.values())
    ):
        # Equal flat string maps (the usual arguments), compared in C: nothing left to tell apart.
        return True
    if isinstance(gold, dict):
        assert isinstance(predicted, dict)  # same type, checked above
        return len(gold) == len(predicted) and all(
            key in predicted and same_json(value, predicted[key]) for key, value in gold.items()
        )
    if isinstance(gold, list):
        assert isinstance(predicted, list)  # same type, checked above
        return len(gold) == len(predicted) and all(same_json(g, p) for g, p in zip(gold, predicted, strict=True))
    if isinstance(gold, float):
        return math.isfinite(gold) and repr(gold) == repr(predicted)
    return bool(gold == predicted)


def identical_turn(gold: ActionCall | Reply | None, predicted: ActionCall | Reply | None) -> bool:
    """Whether ``predicted`` is identical to ``gold`` in everything judging reads: then the turn passes with
    every sub-score 1.0, and no comparison, fact check or re-pairing can change that (the fast path)."""
    if isinstance(gold, Reply) and isinstance(predicted, Reply):
        return gold.response == predicted.response
    if isinstance(gold, ActionCall) and isinstance(predicted, ActionCall):
        if failed_call(predicted) and not failed_call(gold):
            return False
        return (
            gold.tool_id == predicted.tool_id
            and gold.action == predicted.action
            and same_json(gold.args, predicted.args)
        )
    return False


@dataclass(frozen=True)
class AlignOptions:
    """Which unmatched predicted turns are tolerated, and which turns are aligned at all.

    ``allow_extra``: ``"none"`` (every unmatched predicted turn is an ``extra_turn`` failure),
    ``"all"`` (none is), or ``"read_only"``: side effects decide. An extra reply changes nothing and
    is tolerated; an extra call is tolerated when its tool is read-only (named in ``read_only_tools``,
    by ``action`` or ``tool_id``, or marked ``readOnlyHint`` in ``tools``) or when it failed (its
    observation is ``{"error": ...}``: it changed nothing); an extra call to any other tool is a
    write and fails. ``scope`` leaves replies (``"actions"``) or tool calls (``"replies"``) out of
    alignment altogether.
    """

    allow_extra: AllowExtra = "none"
    read_only_tools: frozenset[str] = field(default_factory=frozenset)
    tools: ToolCatalog = field(default_factory=ToolCatalog)
    scope: Scope = "all"

    def __post_init__(self) -> None:
        if self.allow_extra not in ALLOW_EXTRA_CHOICES:
            raise ConfigError(f"allow_extra must be one of {', '.join(ALLOW_EXTRA_CHOICES)}, got {self.allow_extra!r}")
        if self.scope not in SCOPE_CHOICES:
            raise ConfigError(f"scope must be one of {', '.join(SCOPE_CHOICES)}, got {self.scope!r}")
        if self.allow_extra == "read_only" and not self.read_only_tools and not self.tools:
            raise ConfigError(
                "allow_extra='read_only' needs read-only tools: name them in read_only_tools or give tool definitions"
            )
        object.__setattr__(self, "read_only_tools", frozenset(self.read_only_tools))

    def is_read_only(self, call: ActionCall) -> bool:
        return self.tools.is_read_only(call, self.read_only_tools)

    def tolerance(self, content: TurnContent, earlier: Sequence[TurnContent] = ()) -> str | None:
        """Why an unmatched predicted turn is tolerated (not a failure), or ``None`` when it is not.

        ``earlier``: the predicted turns before it (a repeat of an identical call to an idempotent tool
        has no further effect)."""
        if self.allow_extra == "all":
            return "allow_extra=all"
        if self.allow_extra != "read_only":
            return None
        if isinstance(content, Reply):
            return "a reply: no side effect"
        if self.is_read_only(content):
            return f"{content.action} is read-only"
        if failed_call(content):
            return f"{content.action} failed (observation has an error): it changed nothing"
        definition = self.tools.find(content)
        if definition is not None and definition.idempotent and any(_same_call(content, e) for e in earlier):
            return f"{content.action} is idempotent and repeats an earlier identical call: no further effect"
        return None

    def tolerates(self, content: TurnContent, earlier: Sequence[TurnContent] = ()) -> bool:
        """Whether an unmatched predicted turn with this content is allowed (not a failure)."""
        return self.tolerance(content, earlier) is not None


def _same_call(call: ActionCall, other: TurnContent) -> bool:
    return (
        isinstance(other, ActionCall)
        and (other.tool_id, other.action, other.args) == (call.tool_id, call.action, call.args)
        and not failed_call(other)
    )


@dataclass(frozen=True)
class AlignedPair:
    """One row of an alignment: 0-based indexes into the gold and predicted sequences (or ``None``)."""

    turn_no: int
    gold_index: int | None
    predicted_index: int | None

    def to_dict(self) -> dict[str, JsonValue]:
        return {"turn_no": self.turn_no, "gold_index": self.gold_index, "predicted_index": self.predicted_index}


@dataclass(frozen=True)
class Alignment:
    """The aligned dialog, where each of its turns came from, and what was tolerated or dropped."""

    dialog: Dialog
    pairs: tuple[AlignedPair, ...]
    cost: float
    ignored: tuple[int, ...] = ()
    skipped_optional: tuple[int, ...] = ()
    tolerated: tuple[tuple[int, str], ...] = ()
    left_out_gold: tuple[int, ...] = ()
    left_out_predicted: tuple[int, ...] = ()
    scope: str = "all"

    def to_dict(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {
            "cost": round(self.cost, 4),
            # ``AlignedPair.to_dict`` inlined: one row per turn of every unpaired dialog.
            "pairs": [
                {"turn_no": p.turn_no, "gold_index": p.gold_index, "predicted_index": p.predicted_index}
                for p in self.pairs
            ],
            "ignored_predicted": list(self.ignored),
            "skipped_optional_gold": list(self.skipped_optional),
            "tolerated": [{"predicted_index": i, "why": why} for i, why in self.tolerated],
        }
        if self.scope != "all":
            out["scope"] = {
                "scope": self.scope,
                "left_out_gold": list(self.left_out_gold),
                "left_out_predicted": list(self.left_out_predicted),
            }
        return out


def _canon(value: JsonValue) -> JsonValue:
    if isinstance(value, dict):
        return {k: _canon(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_canon(v) for v in value]
    if isinstance(value, str):
        return normalise_text(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


@dataclass(frozen=True)
class _Shape:
    """What ``match_cost`` reads of one turn, normalised once: a call's tool, action and canonical arguments
    (a gold call's restricted to its ``compare_args``), or a reply's set of normalised words."""

    call: tuple[str, str] | None
    args: dict[str, JsonValue]
    compare_args: frozenset[str] | None
    words: frozenset[str]


def _shape(content: TurnContent, *, gold: bool) -> _Shape:
    if isinstance(content, ActionCall):
        args = {k: _canon(v) for k, v in (content.compared_args(content.args) if gold else content.args).items()}
        keep = None if content.compare_args is None or not gold else frozenset(content.compare_args)
        return _Shape((content.tool_id, content.action), args, keep, frozenset())
    return _Shape(None, {}, None, frozenset(normalise_text(content.response).split()))


def _shaped_cost(gold: _Shape, predicted: _Shape) -> float:
    if gold.call is not None and predicted.call is not None:
        if gold.call != predicted.call:
            return MISMATCH_COST
        gold_args, predicted_args = gold.args, predicted.args
        if gold.compare_args is not None:
            predicted_args = {k: v for k, v in predicted_args.items() if k in gold.compare_args}
        keys = set(gold_args) | set(predicted_args)
        if not keys:
            return 0.0
        differing = sum(
            1 for k in keys if k not in gold_args or k not in predicted_args or gold_args[k] != predicted_args[k]
        )
        return 0.8 * differing / len(keys)
    if gold.call is None and predicted.call is None:
        a, b = gold.words, predicted.words
        overlap = len(a & b) / len(a | b) if a | b else 1.0
        return 0.5 * (1.0 - overlap)
    return MISMATCH_COST


def match_cost(gold: TurnContent, predicted: TurnContent) -> float:
    """Cost of pairing two turns: 0 identical, < 1 same tool and action (or two replies), 1.9 otherwise.

    Same tool and action: 0.8 x the share of argument keys (union of both sides) whose values differ
    after normalisation or that one side lacks. Two replies: 0.5 x (1 - word-set Jaccard overlap).
    """
    return _shaped_cost(_shape(gold, gold=True), _shape(predicted, gold=False))


MAX_BLOCK = 12
MAX_ALIGN_CELLS = 4_000_000
"""The most dynamic-programming states one alignment may take (a block's state counted once per predicted turn its
assignment reaches): about 2,000 by 2,000 turns aligned in full, or far longer lists that differ in few places
(the DP keeps to a band around the diagonal as wide as their differences ask). Beyond it ``align_turns`` raises an
``InputError`` naming the dialog, in seconds, instead of running for minutes."""
_FIRST_BAND = 8
"""How far off the diagonal (beyond the length difference) the first banded pass looks."""
"""Longest run of adjacent same-group gold turns aligned as one block (longer runs are split)."""

Row = tuple[int | None, int | None]


def _blocks(gold: Sequence[Turn]) -> list[list[int]]:
    """Gold positions grouped into units: adjacent members of one order-invariant group, or single turns."""
    if not any(turn.tags for turn in gold):  # no group at all (the usual dialog): every turn is its own unit
        return [[index] for index in range(len(gold))]
    units: list[list[int]] = []
    for index, turn in enumerate(gold):
        group = turn.order_group
        previous = units[-1] if units else None
        if (
            previous is not None
            and group is not None
            and gold[previous[-1]].order_group == group
            and len(previous) < MAX_BLOCK
        ):
            previous.append(index)
        else:
            units.append([index])
    return units


class _Aligner:
    """Dynamic programming over (gold unit, predicted position); see the module docstring.

    Work follows what differs. Each turn is normalised once (``_Shape``) and a pair's cost computed only
    when the DP reads it. When gold and predicted have the same length and every skip costs 1 (no optional
    gold turn, no tolerated extra), the DP is restricted to a band around the diagonal: an alignment that
    passes ``d`` positions off the diagonal skips at least ``d`` gold and ``d`` predicted turns, so costs at
    least ``2d``; the diagonal itself costs ``C``, so no optimal (or tied) alignment leaves the band
    ``d <= floor((C + margin) / 2)``, and every state on one keeps its full-DP value: same cost, same
    tie-breaks. With ``C`` under 2 (identical sequences, or one differing turn) that band is the diagonal:
    no DP at all unless an order-invariant block needs its assignment.

    A common prefix of zero-cost pairs is settled without the DP too (when no gold turn is in a block): where gold
    turn 0 and predicted turn 0 pair at cost 0 and skipping either costs 1, any alignment that does not pair them
    can be changed into one that does at no more cost (skip the turn either was paired with instead), with the
    same sums in the same order where the two tie; so the DP's traceback, which tries that pair first, takes it,
    and so on down the prefix. The DP then runs from the first pair that differs. ``banded=False`` runs the full
    DP with neither shortcut (the differential tests compare both).
    """

    def __init__(
        self,
        gold: Sequence[Turn],
        predicted: Sequence[TurnContent],
        options: AlignOptions,
        *,
        banded: bool = True,
        dialog_id: str = "dialog",
    ) -> None:
        self.gold, self.predicted, self.options = gold, predicted, options
        self.units = _blocks(gold)
        self._gold_contents = [_gold_content(g) for g in gold]
        self._gold_shapes: dict[int, _Shape] = {}
        # a call's tool and action (None for a reply): pairs that differ here cost MISMATCH_COST, read without a shape
        self._gold_keys = [_call_key(c) for c in self._gold_contents]
        self._predicted_keys = [_call_key(c) for c in predicted]
        self._predicted_shapes: dict[int, _Shape] = {}
        self._costs: dict[tuple[int, int], float] = {}
        self.skip_gold = [0.0 if g.optional else MISSING_COST for g in gold]
        self.skip_pred = (
            [EXTRA_COST] * len(predicted)
            if options.allow_extra == "none"  # nothing is tolerated: no need to ask turn by turn
            else [0.0 if options.tolerates(p, predicted[:j]) else EXTRA_COST for j, p in enumerate(predicted)]
        )
        self._block_memo: dict[tuple[int, int], list[float]] = {}
        self._reach: list[int] | None = None  # per unit, the last predicted position a block's DP need reach
        self.band = self._band() if banded else None
        self._trim = banded
        self._dialog_id = dialog_id

    def cost(self, g: int, j: int) -> float:
        if self._gold_keys[g] != self._predicted_keys[j]:
            return MISMATCH_COST
        key = (g, j)
        found = self._costs.get(key)
        if found is None:
            gold, predicted = self._gold_contents[g], self.predicted[j]
            # An identical pair normalises to identical shapes: cost 0 without normalising either.
            found = self._costs[key] = (
                0.0
                if identical_turn(gold, predicted)
                else _shaped_cost(
                    self._shaped(self._gold_shapes, g, gold, True),
                    self._shaped(self._predicted_shapes, j, predicted, False),
                )
            )
        return found

    @staticmethod
    def _shaped(shapes: dict[int, _Shape], index: int, content: TurnContent, gold: bool) -> _Shape:
        shape = shapes.get(index)
        if shape is None:
            shape = shapes[index] = _shape(content, gold=gold)
        return shape

    def _band(self) -> int | None:
        n = len(self.gold)
        if n != len(self.predicted) or any(s < 1.0 for s in self.skip_gold) or any(s < 1.0 for s in self.skip_pred):
            return None
        return math.floor((sum(self.cost(i, i) for i in range(n)) + _BAND_MARGIN) / 2)

    def _block_dp(self, unit: int, start: int, stop: int | None = None) -> tuple[list[float], list[Row]]:
        """Assign a block's gold turns to predicted[start:...] in any order (subset DP over the members).

        Returns the block's best cost for every stop in start..m and, when ``stop`` is given, the rows
        of the best assignment to predicted[start:stop]. Pairing member k with the k-th item of the
        segment costs nothing extra; any other pairing 1e-7, so ties keep the written order. The DP
        runs over all member subsets at once (numpy arrays indexed by subset bit mask).
        """
        members = self.units[unit]
        size = 1 << len(members)
        masks = np.arange(size)
        skips = np.array([self.skip_gold[g] for g in members])
        bits = (masks[:, None] >> np.arange(len(members))) & 1
        unmatched = (1 - bits) @ skips
        sources = [masks[bits[:, k] == 0] for k in range(len(members))]
        costs = np.array([[self.cost(g, j) for j in range(len(self.predicted))] for g in members]).reshape(
            len(members), len(self.predicted)
        )
        best = np.full(size, np.inf)
        best[0] = 0.0
        parents: list[tuple[np.ndarray, np.ndarray]] = []
        totals = [round(float(np.min(best + unmatched)), 6)]
        last = (len(self.predicted) if self._reach is None else self._reach[unit]) if stop is None else stop
        for offset, item in enumerate(range(start, last)):
            new = np.full(size, np.inf)
            parent_mask = masks.copy()
            parent_member = np.full(size, -1)
            # Ties keep the first candidate in the order the plain loop over (mask, member) met them:
            # a match before a skip, and for one target the larger member index first.
            for k in range(len(members) - 1, -1, -1):
                without = sources[k]
                cost = best[without] + costs[k, item] + (0.0 if k == offset else 1e-7)
                target = without | (1 << k)
                better = cost < new[target]
                new[target[better]] = cost[better]
                parent_mask[target[better]] = without[better]
                parent_member[target[better]] = k
            skip = best + self.skip_pred[item]
            better = skip < new
            new[better] = skip[better]
            parent_mask[better] = masks[better]
            parent_member[better] = -1
            best = new
            parents.append((parent_mask, parent_member))
            totals.append(round(float(np.min(best + unmatched)), 6))
        if stop is None:
            return totals, []
        mask = int(np.argmin(best + unmatched))
        matched: dict[int, int] = {}
        extras: list[int] = []
        for item in range(stop - 1, start - 1, -1):
            parent_mask, parent_member = parents[item - start]
            member = int(parent_member[mask])
            if member < 0:
                extras.append(item)
            else:
                matched[members[member]] = item
            mask = int(parent_mask[mask])
        rows: list[Row] = [(g, matched.get(g)) for g in members]
        return totals, rows + [(None, item) for item in sorted(extras)]

    def block_costs(self, unit: int, start: int) -> list[float]:
        key = (unit, start)
        if key not in self._block_memo:
            self._block_memo[key] = self._block_dp(unit, start)[0]
        return self._block_memo[key]

    def solve(self) -> tuple[float, list[Row]]:
        """The least total cost and the aligned rows (gold index, predicted index), as the full DP finds them.

        Where every skip costs 1 the DP keeps to a band of offsets ``j - i`` (``_window``) wide enough for every
        alignment costing at most an upper bound: first the diagonal's cost (equal lengths) or the best alignment
        inside a narrow band, then, when that bound asks for a wider band, once more in the band it asks for.
        More than ``MAX_ALIGN_CELLS`` states is an ``InputError`` naming the dialog."""
        m = len(self.predicted)
        if self.band == 0 and all(len(members) == 1 for members in self.units):
            # Only the diagonal is in the band: its cost summed as the DP sums it (from the end).
            total = 0.0
            for i in range(m - 1, -1, -1):
                total = self.cost(i, i) + total
            return total, [(i, i) for i in range(m)]
        uniform = all(s == 1.0 for s in self.skip_gold) and all(s == 1.0 for s in self.skip_pred)
        if not (self._trim and uniform):
            return self._solve(None)
        shift = abs(m - len(self.gold))
        extra = _FIRST_BAND if self.band is None else self.band
        while True:
            total, rows = self._solve(extra)
            needed = math.floor((total + _BAND_MARGIN - shift) / 2)
            if needed <= extra:
                return total, rows
            extra = needed

    def _window(self, extra: int | None) -> tuple[int, int]:
        """The offsets ``j - i`` (predicted position less gold position) of the states the DP keeps. A path through
        offset ``d`` skips at least ``|d|`` turns before the state and ``|shift - d|`` after it (``shift``: how many
        more predicted turns than gold), each skip costing 1; so offsets more than ``extra`` outside ``[0, shift]``
        lie only on alignments costing more than ``|shift| + 2 * extra``."""
        m, n = len(self.predicted), len(self.gold)
        if extra is None:
            return -n - 1, m + 1
        return min(0, m - n) - extra, max(0, m - n) + extra

    def _solve(self, extra: int | None) -> tuple[float, list[Row]]:
        n_units, m = len(self.units), len(self.predicted)
        lo, hi = self._window(extra)
        width = min(m + 1, hi - lo + 1)
        cells = sum(width if len(members) == 1 else width * width for members in self.units)
        if cells > MAX_ALIGN_CELLS:
            raise InputError(
                f"aligning {len(self.gold):,} gold turns with {m:,} predicted turns needs {cells:,} dynamic-programming"
                f" states (the limit is {MAX_ALIGN_CELLS:,}): the two lists differ too much to align; give the"
                " dialog in the paired format, or split it",
                Location(dialog_id=self._dialog_id, field="predicted"),
            )
        firsts = [members[0] for members in self.units] + [len(self.gold)]
        self._reach = None if extra is None else [min(m, firsts[u + 1] + hi) for u in range(n_units)]
        self._block_memo.clear()
        start = self._prefix() if self._trim else 0
        fill = 0.0 if extra is None else math.inf
        best = [[fill] * (m + 1) for _ in range(n_units)] + [[0.0] * (m + 1)]
        for j in range(m - 1, start - 1, -1):
            best[n_units][j] = self.skip_pred[j] + best[n_units][j + 1]
        skip_pred, pair_cost = self.skip_pred, self.cost
        for u in range(n_units - 1, start - 1, -1):
            members = self.units[u]
            first = members[0]
            low, high = max(0, first + lo), min(m, first + hi)
            row, below = best[u], best[u + 1]
            if len(members) > 1:
                for j in range(high, max(low, start) - 1, -1):  # the states the traceback from (start, start) reaches
                    row[j] = min(value for value, _ in self._moves(u, j, best))
                continue
            skip_gold = self.skip_gold[first]
            if high == m and m >= max(low, start):  # the last column: nothing left to pair or skip on its right
                row[m] = skip_gold + below[m]
                high -= 1
            for j in range(high, max(low, start) - 1, -1):  # _moves' three steps, inline (the same values)
                row[j] = min(pair_cost(first, j) + below[j + 1], skip_gold + below[j], skip_pred[j] + row[j + 1])
        rows: list[Row] = [(i, i) for i in range(start)]
        u, j = start, start
        while u < n_units or j < m:
            if u == n_units:
                rows.append((None, j))
                j += 1
                continue
            for cost, (next_u, next_j) in self._moves(u, j, best):
                if cost <= best[u][j] + _EPS:
                    rows.extend(self._rows(u, j, next_u, next_j))
                    u, j = next_u, next_j
                    break
        return best[start][start], rows

    def _prefix(self) -> int:
        """How many leading gold and predicted turns pair at cost 0 where skipping costs 1 (see the class
        docstring); 0 when a gold turn is in a block."""
        if any(len(members) > 1 for members in self.units):
            return 0
        limit, k = min(len(self.units), len(self.predicted)), 0
        while k < limit and self.skip_gold[k] == 1.0 and self.skip_pred[k] == 1.0 and self.cost(k, k) == 0.0:
            k += 1
        return k

    def _rows(self, u: int, j: int, next_u: int, next_j: int) -> list[Row]:
        if next_u == u:
            return [(None, j)]
        members = self.units[u]
        if len(members) > 1:
            return self._block_dp(u, j, next_j)[1]
        return [(members[0], j if next_j > j else None)]

    def _moves(self, u: int, j: int, best: list[list[float]]) -> list[tuple[float, tuple[int, int]]]:
        """Candidate steps from state (unit u, predicted j) to (next unit, next j), in tie-break order."""
        m = len(self.predicted)
        members = self.units[u]
        moves: list[tuple[float, tuple[int, int]]] = []
        if len(members) == 1:
            g = members[0]
            if j < m:
                moves.append((self.cost(g, j) + best[u + 1][j + 1], (u + 1, j + 1)))
            moves.append((self.skip_gold[g] + best[u + 1][j], (u + 1, j)))
        else:
            for offset, cost in enumerate(self.block_costs(u, j)):
                moves.append((cost + best[u + 1][j + offset], (u + 1, j + offset)))
        if j < m:
            moves.append((self.skip_pred[j] + best[u][j + 1], (u, j + 1)))
        return moves


def _call_key(content: TurnContent) -> tuple[str, str] | None:
    return (content.tool_id, content.action) if isinstance(content, ActionCall) else None


def _gold_content(turn: Turn) -> TurnContent:
    if turn.gold is None:
        raise ConfigError(f"align_turns: gold turn {turn.turn_no} has no gold content")
    return turn.gold


def align_turns(
    gold: Sequence[Turn],
    predicted: Sequence[TurnContent],
    options: AlignOptions | None = None,
    *,
    dialog_id: str = "dialog",
    metadata: dict[str, JsonValue] | None = None,
) -> Alignment:
    """Align gold turns (``Turn``s whose ``predicted`` is ignored) with predicted turn contents.

    See the module docstring for the cost model, tie-breaking and the shape of the result.
    """
    return align_settled(gold, predicted, options, dialog_id=dialog_id, metadata=metadata)[0]


def _diagonal(
    gold: Sequence[Turn], predicted: Sequence[TurnContent], options: AlignOptions
) -> tuple[float, list[bool]] | None:
    """For sequences the DP pairs on the diagonal without a search (``_Aligner``'s band 0: equal lengths, no
    block, every skip costing 1, diagonal cost under 2): the cost, and which pairs are identical; ``None`` for any
    other case."""
    if len(gold) != len(predicted) or options.allow_extra != "none" or options.scope != "all":
        return None
    if any(g.optional or g.tags or g.gold is None for g in gold):
        return None
    same = [identical_turn(g.gold, p) for g, p in zip(gold, predicted, strict=True)]
    if False not in same:
        return 0.0, same
    costs = [
        0.0 if ok else match_cost(g.gold, p)  # type: ignore[arg-type]  # checked above: every gold turn has content
        for g, p, ok in zip(gold, predicted, same, strict=True)
    ]
    if sum(costs) + _BAND_MARGIN >= 2:  # the band's test, summed as _Aligner._band sums
        return None
    total = 0.0
    for cost in reversed(costs):  # summed from the end, as _Aligner.solve sums the diagonal
        total = cost + total
    return total, same


def align_settled(
    gold: Sequence[Turn],
    predicted: Sequence[TurnContent],
    options: AlignOptions | None = None,
    *,
    dialog_id: str = "dialog",
    metadata: dict[str, JsonValue] | None = None,
) -> tuple[Alignment, list[bool] | None]:
    """``align_turns``, and when the alignment is the diagonal, which turns of the aligned dialog are identical
    to gold (``identical_turn``), as aligning found out (``None``: not known without asking each turn).

    The diagonal is settled without the DP: every turn paired with the one at its position, which is what the DP
    returns there (tests/test_fast_path_align.py compares the two)."""
    options = options or AlignOptions()
    diagonal = _diagonal(gold, predicted, options)
    if diagonal is not None:
        total, same = diagonal
        return _on_diagonal(gold, predicted, total, dialog_id, metadata), same
    return _aligned(gold, predicted, options, dialog_id, metadata), None


def _on_diagonal(
    gold: Sequence[Turn],
    predicted: Sequence[TurnContent],
    total: float,
    dialog_id: str,
    metadata: dict[str, JsonValue] | None,
) -> Alignment:
    """The alignment pairing gold turn i with predicted turn i, as ``_aligned`` builds it from the DP's rows."""
    turns = [
        make_turn(
            number, g.kind, g.gold, p, g.tags, g.depends_on, g.critical, g.weight, g.latency_ms, g.optional
        )
        for number, g, p in zip(range(1, len(gold) + 1), gold, predicted, strict=True)
    ]  # fmt: skip
    if any(t.depends_on for t in turns):
        turns = _renumbered(turns, {number: number for number in range(1, len(turns) + 1)})
    pairs = tuple(_pair(number, index, index) for index, number in enumerate(range(1, len(turns) + 1)))
    dialog = Dialog(dialog_id=dialog_id, turns=tuple(turns), metadata=dict(metadata or {}))
    return Alignment(dialog, pairs, total)


def _pair(turn_no: int, gold_index: int | None, predicted_index: int | None) -> AlignedPair:
    """``AlignedPair(...)`` built as ``aem_strands.types.make_turn`` builds a ``Turn`` (one per aligned turn)."""
    return frozen_record(
        AlignedPair, {"turn_no": turn_no, "gold_index": gold_index, "predicted_index": predicted_index}
    )


def _renumbered(turns: list[Turn], renumber: dict[int, int]) -> list[Turn]:
    """Gold ``depends_on`` (gold positions) as aligned turn numbers; a turn named that was not aligned is dropped."""
    return [
        replace(t, depends_on=tuple(renumber[d] for d in t.depends_on if d in renumber)) if t.depends_on else t
        for t in turns
    ]


def _aligned(
    gold: Sequence[Turn],
    predicted: Sequence[TurnContent],
    options: AlignOptions,
    dialog_id: str,
    metadata: dict[str, JsonValue] | None,
) -> Alignment:
    """``align_turns`` by the DP (see ``_Aligner``)."""
    if options.scope == "all":
        gold_kept, predicted_kept = list(range(len(gold))), list(range(len(predicted)))
        total, rows = _Aligner(gold, predicted, options, dialog_id=dialog_id).solve()
    else:
        gold_kept = [i for i, g in enumerate(gold) if content_in_scope(g.gold, options.scope)]
        predicted_kept = [i for i, p in enumerate(predicted) if content_in_scope(p, options.scope)]
        aligner = _Aligner(
            [gold[i] for i in gold_kept], [predicted[i] for i in predicted_kept], options, dialog_id=dialog_id
        )
        total, scoped_rows = aligner.solve()
        rows = [(None if g is None else gold_kept[g], None if p is None else predicted_kept[p]) for g, p in scoped_rows]
    turns: list[Turn] = []
    pairs: list[AlignedPair] = []
    ignored: list[int] = []
    tolerated: list[tuple[int, str]] = []
    skipped: list[int] = []
    renumber: dict[int, int] = {}
    for g, p in rows:
        why = None
        if g is None and p is not None:
            why = options.tolerance(predicted[p], [predicted[i] for i in predicted_kept if i < p])
        if why is not None and p is not None:
            ignored.append(p)
            tolerated.append((p, why))
            continue
        if g is not None and p is None and gold[g].optional:
            skipped.append(g)
            continue
        turn_no = len(turns) + 1
        if g is not None:
            renumber[g + 1] = turn_no
            base = gold[g]
            # ``replace(base, turn_no=..., predicted=...)`` field by field, without its per-call field walk.
            turns.append(
                make_turn(
                    turn_no, base.kind, base.gold, None if p is None else predicted[p], base.tags, base.depends_on,
                    base.critical, base.weight, base.latency_ms, base.optional,
                )
            )  # fmt: skip
        elif p is not None:
            content = predicted[p]
            kind = TurnKind.ACTION if isinstance(content, ActionCall) else TurnKind.RESPONSE
            turns.append(Turn(turn_no=turn_no, kind=kind, gold=None, predicted=content))
        pairs.append(_pair(turn_no, g, p))
    if any(t.depends_on for t in turns):
        turns = _renumbered(turns, renumber)
    dialog = Dialog(dialog_id=dialog_id, turns=tuple(turns), metadata=dict(metadata or {}))
    left_gold: tuple[int, ...] = ()
    left_predicted: tuple[int, ...] = ()
    if options.scope != "all":
        left_gold = tuple(sorted(set(range(len(gold))) - set(gold_kept)))
        left_predicted = tuple(sorted(set(range(len(predicted))) - set(predicted_kept)))
    return Alignment(
        dialog, tuple(pairs), total, tuple(sorted(ignored)), tuple(sorted(skipped)), tuple(sorted(tolerated)),
        left_gold, left_predicted, options.scope,
    )  # fmt: skip
