"""The pipeline over whole dialogs: compare (batched) → judge → re-pair order-invariant steps →
attribute → compose. This is the public entry point of the core."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import replace

from aem_strands.align import AlignOptions
from aem_strands.attribution import attribute, chain_lengths
from aem_strands.compare.chain import Comparator, ComparisonRequest, Thresholds
from aem_strands.compare.scorers import EmbeddingScorer, SemanticScorer, make_scorer
from aem_strands.compose import Composer, make_composer
from aem_strands.checks import CheckContext, comparison_requests, check_turn
from aem_strands.load import parse_dialog
from aem_strands.order import candidate_pairings, reorder
from aem_strands.result import DialogResult, TurnResult
from aem_strands.types import Dialog, JsonValue, Turn, TurnVerdict


@functools.lru_cache(maxsize=1)
def default_embedding_scorer() -> EmbeddingScorer:
    """One shared embedding scorer per process, so the model loads at most once."""
    return EmbeddingScorer()


def resolve_scorer(scorer: str | SemanticScorer) -> SemanticScorer:
    if isinstance(scorer, str):
        return default_embedding_scorer() if scorer == "embedding" else make_scorer(scorer)
    return scorer


def make_comparator(
    scorer: str | SemanticScorer = "embedding",
    *,
    threshold_args: float | None = None,
    threshold_response: float | None = None,
    thresholds: Thresholds | None = None,
    escalation: str | SemanticScorer | None = None,
) -> Comparator:
    """A comparator from a scorer (or its name), thresholds and an optional escalation scorer.

    ``thresholds`` (e.g. from ``aem_strands.compare.load_thresholds``) replaces the defaults;
    ``threshold_args`` / ``threshold_response`` then override its two main values. ``escalation``
    (e.g. ``"judge"``) decides the pairs whose score falls in the uncertain band.
    """
    escalate = resolve_scorer(escalation) if escalation is not None else None
    chosen = make_thresholds(threshold_args, threshold_response, thresholds)
    return Comparator(resolve_scorer(scorer), chosen, escalation=escalate)


def make_thresholds(
    threshold_args: float | None = None, threshold_response: float | None = None, thresholds: Thresholds | None = None
) -> Thresholds:
    """``thresholds`` (the defaults when ``None``) with the argument and reply thresholds overridden where given."""
    base = thresholds or Thresholds()
    if threshold_args is not None:
        base = replace(base, argument=threshold_args)
    if threshold_response is not None:
        base = replace(base, response=threshold_response)
    return base


def _as_dialog(dialog: Dialog | JsonValue, align: AlignOptions | None = None) -> Dialog:
    return dialog if isinstance(dialog, Dialog) else parse_dialog(dialog, default_id="dialog", align=align)


def _requests(dialog: Dialog) -> list[ComparisonRequest]:
    context = CheckContext.from_metadata(dialog.metadata)
    turns = list(dialog.turns) + candidate_pairings(dialog.turns)
    return [request for turn in turns for request in comparison_requests(turn, context)]


def _evaluate(dialog: Dialog, comparator: Comparator, composer: Composer) -> DialogResult:
    context = CheckContext.from_metadata(dialog.metadata)

    def judge(turn: Turn) -> TurnVerdict:
        return check_turn(turn, comparator.compare_request, context)

    turns, moved = reorder(dialog.turns, judge)
    verdicts = [judge(turn) for turn in turns]
    verdicts = [replace(v, matched_turn_no=moved.get(v.turn_no)) for v in verdicts]
    attributions = attribute(turns, verdicts)
    lengths = chain_lengths(turns)
    results = tuple(TurnResult(t, v, a, n) for t, v, a, n in zip(turns, verdicts, attributions, lengths, strict=True))
    return DialogResult(
        dialog.dialog_id, results, composer.compose(turns, verdicts), composer.name, dict(dialog.metadata)
    )


def evaluate_dialogs(
    dialogs: Iterable[Dialog | JsonValue],
    *,
    scorer: str | SemanticScorer = "embedding",
    threshold_args: float | None = None,
    threshold_response: float | None = None,
    composer: str | Composer = "mean",
    comparator: Comparator | None = None,
    align: AlignOptions | None = None,
    thresholds: Thresholds | None = None,
    escalation: str | SemanticScorer | None = None,
) -> list[DialogResult]:
    """Evaluate many dialogs; all their semantic comparisons go to the scorer in one batch.

    ``dialogs`` may hold ``Dialog`` objects or their JSON form (a bare list of turns or a
    ``{"dialog_id", "metadata", "turns"}`` object). ``comparator`` overrides ``scorer`` and the
    thresholds (pass one to share its memo across calls); ``thresholds`` and ``escalation`` are
    as for ``make_comparator``. Dialog metadata may give ``reference_date`` (for relative dates) and
    ``unordered_args`` (see ``aem_strands.checks``). ``align`` sets the alignment options of
    dialogs given in the unpaired ``{"gold", "predicted"}`` JSON form (see ``aem_strands.align``).
    """
    parsed: Sequence[Dialog] = [_as_dialog(d, align) for d in dialogs]
    compare = comparator or make_comparator(
        scorer,
        threshold_args=threshold_args,
        threshold_response=threshold_response,
        thresholds=thresholds,
        escalation=escalation,
    )
    compose = make_composer(composer) if isinstance(composer, str) else composer
    compare.compare_many([r for dialog in parsed for r in _requests(dialog)])
    return [_evaluate(dialog, compare, compose) for dialog in parsed]


def evaluate_dialog(
    dialog: Dialog | JsonValue,
    *,
    scorer: str | SemanticScorer = "embedding",
    threshold_args: float | None = None,
    threshold_response: float | None = None,
    composer: str | Composer = "mean",
    comparator: Comparator | None = None,
    align: AlignOptions | None = None,
    thresholds: Thresholds | None = None,
    escalation: str | SemanticScorer | None = None,
) -> DialogResult:
    """Evaluate one dialog (see ``evaluate_dialogs`` for the parameters)."""
    return evaluate_dialogs(
        [dialog],
        scorer=scorer,
        threshold_args=threshold_args,
        threshold_response=threshold_response,
        composer=composer,
        comparator=comparator,
        align=align,
        thresholds=thresholds,
        escalation=escalation,
    )[0]
