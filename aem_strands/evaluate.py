"""The pipeline over whole dialogs: compare (batched) → judge → re-pair order-invariant steps →
attribute → compose. This is the public entry point of the core."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from aem_strands.align import AlignOptions, identical_turn
from aem_strands.attribution import attribute, chain_lengths
from aem_strands.checks import CheckContext, check_turn, comparison_requests, identical_verdict
from aem_strands.collector import collector_paused
from aem_strands.compare.chain import Comparator, ComparisonRequest
from aem_strands.compare.scorers import EmbeddingScorer, ExactScorer, SemanticScorer, make_scorer
from aem_strands.compose import Composer
from aem_strands.load import parse_dialog
from aem_strands.options import EvalOptions
from aem_strands.order import candidate_pairings, reorder
from aem_strands.result import DialogResult, make_turn_result
from aem_strands.scope import Scope, apply_scope
from aem_strands.types import Dialog, JsonValue, Turn, TurnVerdict
from aem_strands.unpaired import is_unpaired, parse_unpaired

if TYPE_CHECKING:
    from aem_strands.cache import ModelCache


@functools.lru_cache(maxsize=1)
def default_embedding_scorer() -> EmbeddingScorer:
    """One shared embedding scorer per process, so the model loads at most once."""
    return EmbeddingScorer()


@functools.lru_cache(maxsize=4)
def _embedding_scorer(model_path: str | None, device: str) -> EmbeddingScorer:
    return EmbeddingScorer(model_path, device=device)


def resolve_scorer(scorer: str | SemanticScorer, options: EvalOptions | None = None) -> SemanticScorer:
    """A scorer instance from its name, configured by ``options`` (embedding model and device, judge prompt
    and timeout); an instance is returned as it is."""
    if not isinstance(scorer, str):
        return scorer
    options = options or EvalOptions()
    if scorer == "embedding":
        if options.embedding_model is None and options.embedding_device == "cpu":
            return default_embedding_scorer()
        return _embedding_scorer(options.embedding_model, options.embedding_device)
    if scorer == "judge":
        from aem_strands.compare.judge_scorer import JudgeScorer

        return JudgeScorer.from_options(options)
    return make_scorer(scorer)


def make_comparator(
    options: EvalOptions | None = None,
    *,
    scorer: SemanticScorer | None = None,
    escalation: SemanticScorer | None = None,
) -> Comparator:
    """A comparator for ``options``; ``scorer`` / ``escalation`` inject instances in place of the named ones.

    Escalation decides the pairs whose score falls in the uncertain band (``options.escalate``).
    """
    options = options or EvalOptions()
    if escalation is None and options.escalate is not None:
        escalation = resolve_scorer(options.escalate, options)
    chosen = scorer or resolve_scorer(options.scorer, options)
    if options.cache_dir is not None:
        chosen, escalation = _cached(chosen, options.cache_dir), escalation and _cached(escalation, options.cache_dir)
    return Comparator(chosen, options.thresholds, escalation=escalation)


def _cached(scorer: SemanticScorer, directory: str) -> SemanticScorer:
    """``scorer`` with the persistent cache: an embedding scorer keeps vectors, any other scorer its scores."""
    from aem_strands.cache import CachedScorer

    if isinstance(scorer, ExactScorer):
        return scorer
    if isinstance(scorer, EmbeddingScorer):
        if scorer.cache is not None:
            return scorer
        content = _model_content(scorer.model_path)
        return _cached_embedding(
            scorer.model_path, scorer.device, scorer.batch_size, scorer.replies, directory, content
        )
    return CachedScorer(scorer, _model_cache(directory))


def _model_content(model_path: str | None) -> str | None:
    """The fingerprint of a model folder (``None`` for a model named otherwise): another model put at the same path
    in this process gets a scorer of its own, and so vectors of its own."""
    from pathlib import Path

    from aem_strands.cache import model_fingerprint

    if model_path is None or not Path(model_path).is_dir():
        return None  # the packaged model does not change under a running process
    return model_fingerprint(model_path)


@functools.lru_cache(maxsize=4)
def _cached_embedding(
    model_path: str | None,
    device: str,
    batch_size: int,
    replies: Literal["combined", "cosine"],
    directory: str,
    content: str | None,
) -> EmbeddingScorer:
    """One cached embedding scorer per configuration, folder and model content, so its model loads once per
    process."""
    return EmbeddingScorer(
        model_path, device=device, batch_size=batch_size, replies=replies, cache=_model_cache(directory)
    )


@functools.lru_cache(maxsize=4)
def _model_cache(directory: str) -> ModelCache:
    from aem_strands.cache import ModelCache

    return ModelCache(directory)


def _as_dialog(dialog: Dialog | JsonValue, align: AlignOptions) -> tuple[Dialog, list[bool] | None]:
    """The dialog to judge and, for an unpaired one aligned on the diagonal, which of its turns are identical to
    gold (as ``_identical`` would find; ``None``: not known yet)."""
    if isinstance(dialog, Dialog):
        return dialog, None
    if is_unpaired(dialog):  # as parse_dialog reads it, keeping what aligning found
        return parse_unpaired(dialog, default_id="dialog").settled(align)
    return parse_dialog(dialog, default_id="dialog", align=align), None


def _scoped(dialog: Dialog, identical: list[bool] | None, scope: Scope) -> tuple[Dialog, list[bool]]:
    """The dialog in ``scope`` and which of its turns are identical to gold."""
    scoped = apply_scope(dialog, scope)
    return scoped, identical if identical is not None and scoped is dialog else _identical(scoped)


def _context(dialog: Dialog, options: EvalOptions) -> CheckContext:
    return CheckContext.from_metadata(dialog.metadata, options.tools, options.read_only_tools)


def _identical(dialog: Dialog) -> list[bool]:
    """Which turns' predictions are identical to gold: settled once per dialog, with no comparison to ask for."""
    return [turn.gold is not None and identical_turn(turn.gold, turn.predicted) for turn in dialog.turns]


def _requests(dialog: Dialog, context: CheckContext, identical: list[bool]) -> list[ComparisonRequest]:
    turns = [turn for turn, same in zip(dialog.turns, identical, strict=True) if not same]
    return [
        request for turn in turns + candidate_pairings(dialog.turns) for request in comparison_requests(turn, context)
    ]


def _evaluate(
    dialog: Dialog, context: CheckContext, comparator: Comparator, composer: Composer, identical: list[bool]
) -> DialogResult:
    def check(turn: Turn) -> TurnVerdict:
        return check_turn(turn, comparator.compare_request, context)

    turns, moved = reorder(dialog.turns, check)
    if moved:
        verdicts = [replace(check(turn), matched_turn_no=moved.get(turn.turn_no)) for turn in turns]
    else:  # the turns as written: an identical one gets check_turn's verdict for it without asking again
        verdicts = [identical_verdict(t) if same else check(t) for t, same in zip(turns, identical, strict=True)]
    attributions = attribute(turns, verdicts)
    lengths = chain_lengths(turns)
    results = tuple(map(make_turn_result, turns, verdicts, attributions, lengths))
    return DialogResult(
        dialog.dialog_id, results, composer.compose(turns, verdicts), composer.name, dict(dialog.metadata)
    )


def split_shortcuts(
    options: EvalOptions | None, shortcuts: dict[str, Any]
) -> tuple[EvalOptions, SemanticScorer | None, SemanticScorer | None, Composer | None]:
    """Keyword shortcuts to options, separating injected instances (a scorer, escalation or composer object).

    ``align=AlignOptions(...)`` is accepted for its two fields. Only names are mapped here; ``EvalOptions``
    validates.
    """
    scorer = shortcuts.pop("scorer", None)
    escalation = shortcuts.pop("escalation", None)
    composer = shortcuts.pop("composer", None)
    align = shortcuts.pop("align", None)
    if isinstance(align, AlignOptions):
        shortcuts.update(allow_extra=align.allow_extra, read_only_tools=align.read_only_tools)
    for name, value in (("scorer", scorer), ("escalate", escalation), ("composer", composer)):
        if isinstance(value, str):
            shortcuts[name] = value
    built = EvalOptions.build(options, **shortcuts) if shortcuts else (options or EvalOptions())
    return built, _instance(scorer), _instance(escalation), _instance(composer)


def _instance(value: Any) -> Any:
    return None if value is None or isinstance(value, str) else value


def evaluate_dialogs(
    dialogs: Iterable[Dialog | JsonValue],
    options: EvalOptions | None = None,
    *,
    comparator: Comparator | None = None,
    **shortcuts: Any,
) -> list[DialogResult]:
    """Evaluate many dialogs; all their semantic comparisons go to the scorer in one batch.

    ``dialogs`` may hold ``Dialog`` objects or their JSON form (a bare list of turns, a
    ``{"dialog_id", "metadata", "turns"}`` object, or the unpaired ``{"gold", "predicted"}`` form,
    aligned per ``options``). ``options`` says how to judge (``EvalOptions``); keyword shortcuts
    replace its fields (``scorer="exact"``, ``threshold_args=0.8``, ``composer="gated"``, ...), and
    ``scorer=`` / ``escalation=`` / ``composer=`` also take instances to inject. ``comparator``
    overrides scorer and thresholds (pass one to share its memo across calls). Dialog metadata may
    give ``reference_date`` (for relative dates) and ``unordered_args`` (see ``aem_strands.checks``).
    With ``options.batch_size`` or ``options.workers > 1`` this is ``list(iter_evaluate(...))``.
    """
    chosen, scorer, escalation, composer = split_shortcuts(options, dict(shortcuts))
    if chosen.batch_size is not None or chosen.workers > 1:
        return list(iter_evaluate(dialogs, chosen, comparator=comparator, **_injected(scorer, escalation, composer)))
    compare = comparator or make_comparator(chosen, scorer=scorer, escalation=escalation)
    return evaluate_chunk(list(dialogs), chosen, compare, composer or chosen.make_composer())


def _injected(scorer: Any, escalation: Any, composer: Any) -> dict[str, Any]:
    named = {"scorer": scorer, "escalation": escalation, "composer": composer}
    return {name: value for name, value in named.items() if value is not None}


def evaluate_chunk(
    dialogs: Sequence[Dialog | JsonValue], options: EvalOptions, comparator: Comparator, composer: Composer
) -> list[DialogResult]:
    """Evaluate ``dialogs`` as one batch: parse, ask the comparator for every comparison at once, judge each."""
    with collector_paused():
        return _evaluate_chunk(dialogs, options, comparator, composer)


def _evaluate_chunk(
    dialogs: Sequence[Dialog | JsonValue], options: EvalOptions, comparator: Comparator, composer: Composer
) -> list[DialogResult]:
    align = options.align_options()
    settled = [_scoped(*_as_dialog(d, align), options.scope) for d in dialogs]
    parsed = [dialog for dialog, _ in settled]
    identical = [same for _, same in settled]
    contexts = [_context(dialog, options) for dialog in parsed]
    comparator.compare_many(
        [r for d, c, same in zip(parsed, contexts, identical, strict=True) for r in _requests(d, c, same)]
    )
    return [_evaluate(d, c, comparator, composer, same) for d, c, same in zip(parsed, contexts, identical, strict=True)]


STREAM_BATCH = 256
"""Dialogs per batch of ``iter_evaluate`` when ``options.batch_size`` is not set."""


def iter_evaluate(
    dialogs: Iterable[Dialog | JsonValue],
    options: EvalOptions | None = None,
    *,
    comparator: Comparator | None = None,
    batch_size: int | None = None,
    **shortcuts: Any,
) -> Iterator[DialogResult]:
    """Evaluate dialogs as they come, yielding each result in input order (see ``evaluate_dialogs``).

    ``dialogs`` is read lazily, ``batch_size`` (else ``options.batch_size``, else ``STREAM_BATCH``) at a time;
    each batch's semantic comparisons go to the scorer together, so memory holds one batch, not the input.
    With ``options.workers > 1`` batches are scored in worker processes (``aem_strands.workers``), each with
    its own scorer; results are the same as in one process.
    """
    chosen, scorer, escalation, composer = split_shortcuts(options, dict(shortcuts))
    size = batch_size or chosen.batch_size or STREAM_BATCH
    chunks = _chunks(dialogs, size)
    if chosen.workers > 1 and comparator is None and scorer is None and escalation is None and composer is None:
        from aem_strands.workers import scored_in_workers

        for _, future in scored_in_workers(((None, chunk) for chunk in chunks), chosen):
            yield from future.result()
        return
    compare = comparator or make_comparator(chosen, scorer=scorer, escalation=escalation)
    compose = composer or chosen.make_composer()
    for chunk in chunks:
        yield from evaluate_chunk(chunk, chosen, compare, compose)


def _chunks(items: Iterable[Dialog | JsonValue], size: int) -> Iterator[list[Dialog | JsonValue]]:
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def evaluate_dialog(
    dialog: Dialog | JsonValue,
    options: EvalOptions | None = None,
    *,
    comparator: Comparator | None = None,
    **shortcuts: Any,
) -> DialogResult:
    """Evaluate one dialog (see ``evaluate_dialogs`` for the parameters)."""
    return evaluate_dialogs([dialog], options, comparator=comparator, **shortcuts)[0]
