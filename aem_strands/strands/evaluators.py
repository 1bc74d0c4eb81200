"""AEM correctness as Strands Evals evaluators (thin adapters over ``aem_strands.evaluate_dialog``).

- ``AemSessionEvaluator``: one row per case: ``score`` = the composed score, ``test_pass`` (every
  turn judged, and every judged turn passes), ``reason`` naming the root cause and its cascade,
  ``label`` (``pass``, the root cause's failure reason, ``inconclusive``, or ``not_applicable``), and
  the full dialog result in ``metadata``.
- ``AemTurnEvaluator``: one row per turn (``label`` = failure reason, ``pass`` or
  ``not_applicable``); its aggregator gives the case the same composed score and verdict as the
  session evaluator.
- ``CorrectnessCustomEvaluator(threshold=0.5, name="aem_correctness")``: the reference write-up's
  wrapper signature (its default name would clash with the CLI short name ``correctness``).
  ``threshold`` is the pass mark on the composed dialog score (``test_pass`` = score >= threshold,
  and no turn left undecided); it is **not** a similarity threshold (see ``threshold_args`` /
  ``threshold_response``: where values are compared, defaults from ``Thresholds()``).

Fail closed: a turn that could not be judged is a ``not_applicable`` row with ``test_pass=False``
(the host counts it as a failure, not as "nothing to judge"), and its case never passes in any of
the three evaluators. A case that cannot be scored at all (no gold, a malformed trajectory) gives
one ``not_applicable`` row with ``test_pass=False`` and the reason, never a silent 0.

Every public attribute equals a constructor parameter and is JSON-safe, so the evaluators survive
``Experiment.to_file`` → ``Experiment.from_file(..., custom_evaluators=[...])``. Scorer, composer,
alignment, judge and embedding options are ``EvalOptions`` fields chosen by name (``**options``);
``scorer="judge"`` / ``escalate="judge"`` use ``model`` (a ``Model`` or model id, like the host's
judges) and record the judge in ``metadata["judge"]``; ``sub_agents`` says how a live ``Session``'s
nested agents are read (``auto``, the default: a sub-agent's own calls are judged only when gold names
one of them; ``inline``: always; ``opaque``: never). ``semantic_scorer`` injects a scorer instance
(e.g. ``TableScorer`` in tests); it is private and not serialised. The case's label also reaches the host's telemetry
(``_score_mapping``).

Where the gold and predicted turns come from is described in ``aem_strands.strands.cases``.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from strands.models.model import Model
from strands_evals.evaluators import Evaluator
from strands_evals.types import NOT_APPLICABLE, EvaluationData, EvaluationOutput
from strands_evals.types.trace import EvaluationLevel, Session

from aem_strands.compare.judge_scorer import JudgeScorer
from aem_strands.compare.scorers import SemanticScorer
from aem_strands.compose import Composer
from aem_strands.errors import AemError, ConfigError
from aem_strands.evaluate import evaluate_dialog, make_comparator, resolve_scorer
from aem_strands.options import EvalOptions
from aem_strands.result import DialogResult, TurnResult
from aem_strands.strands.cases import CaseDialog, case_dialog
from aem_strands.strands.session import SUB_AGENT_CHOICES, session_tools
from aem_strands.tools import tools_from_specs
from aem_strands.types import JsonValue, Role, Verdict

SCORER_CHOICES = ("embedding", "exact", "judge")
INCONCLUSIVE = "inconclusive"

# The label of the case the current task just evaluated: the host reads a telemetry label from
# ``_score_mapping`` right after ``evaluate_async`` returns, in the same task (see ``_score_mapping``).
_LAST_LABEL: contextvars.ContextVar[tuple[float, str] | None] = contextvars.ContextVar("aem_label", default=None)


@dataclass(frozen=True)
class ScoredCase:
    """What one case was scored on (``found``) and the result."""

    found: CaseDialog
    result: DialogResult
    judge: dict[str, JsonValue] | None = None


class _AemEvaluator(Evaluator[Any, Any]):  # type: ignore[misc]  # strands_evals ships no type information
    """Shared options and scoring of the AEM evaluators.

    The explicit parameters and any other ``EvalOptions`` field given by keyword (``**options``) become
    one ``EvalOptions``, validated once here; each is also kept as a public attribute, so the host saves
    and reloads the evaluator by them.
    """

    def __init__(
        self,
        scorer: str = "embedding",
        threshold_args: float | None = None,
        threshold_response: float | None = None,
        composer: str = "mean",
        cap: float | None = None,
        allow_extra: str = "none",
        read_only_tools: list[str] | None = None,
        model: Model | str | None = None,
        name: str | None = None,
        thresholds_file: str | None = None,
        escalate: str | None = None,
        sub_agents: str = "auto",
        *,
        semantic_scorer: SemanticScorer | None = None,
        **options: Any,
    ) -> None:
        super().__init__(name=name)
        given = dict(
            scorer=scorer, threshold_args=threshold_args, threshold_response=threshold_response, composer=composer,
            cap=cap, allow_extra=allow_extra, read_only_tools=read_only_tools, thresholds_file=thresholds_file,
            escalate=escalate, **options,
        )  # fmt: skip
        self._options = EvalOptions.build(**given)  # validated now, not per case
        for key, value in given.items():
            setattr(self, key, list(value) if key == "read_only_tools" and value is not None else value)
        self.model = model
        if sub_agents not in SUB_AGENT_CHOICES:
            raise ConfigError(f"sub_agents must be one of {', '.join(SUB_AGENT_CHOICES)}, got {sub_agents!r}")
        self.sub_agents = sub_agents
        self._composer: Composer = self._options.make_composer()
        self._semantic_scorer = semantic_scorer
        self._judge: JudgeScorer | None = None
        self.aggregator = self._aggregate_rows

    @property
    def options(self) -> EvalOptions:
        """How this evaluator judges (built once from its parameters)."""
        return self._options

    def _aggregate_rows(self, outputs: list[EvaluationOutput]) -> tuple[float, bool, str]:
        score, passed, reason = Evaluator._default_aggregator(outputs)
        return float(score), bool(passed), str(reason)

    def case_label(self, outputs: Sequence[EvaluationOutput]) -> str | None:
        """The case's label (``pass``, the root cause's failure reason, ``inconclusive``, ...)."""
        return str(outputs[0].label) if len(outputs) == 1 and outputs[0].label else None

    @property
    def _score_mapping(self) -> dict[str, float]:
        """The host's telemetry label hook: ``{label: score}`` of the case this task evaluated last.

        The host exports ``gen_ai.evaluation.score.label`` by reverse-mapping the case's aggregate score
        through ``_score_mapping`` (else "YES"/"NO" by score >= 0.5); mapping the aggregate score of
        this very case to its AEM label makes a failing case export its failure reason.
        """
        last = _LAST_LABEL.get()
        return {} if last is None else {last[1]: last[0]}

    async def evaluate_async(self, evaluation_case: EvaluationData[Any, Any]) -> list[EvaluationOutput]:
        outputs = await asyncio.to_thread(self.evaluate, evaluation_case)
        label = self.case_label(outputs)
        if label is not None:
            _LAST_LABEL.set((float(self.aggregator(outputs)[0]), label))
        return outputs

    def _judge_scorer(self) -> JudgeScorer:
        if self._judge is None:
            self._judge = JudgeScorer.from_options(self._options, self.model)
        return self._judge

    def _uses_judge(self) -> bool:
        return self._options.escalate == "judge" or (self._semantic_scorer is None and self._options.scorer == "judge")

    def _scorer(self) -> SemanticScorer:
        options = self._options
        if self._semantic_scorer is not None:
            return self._semantic_scorer
        if options.scorer == "judge":
            return self._judge_scorer()
        return resolve_scorer(options.scorer, options)  # an embedding model is shared per process by path and device

    def score_case(self, data: EvaluationData[Any, Any]) -> ScoredCase:
        """The dialog of one case and its AEM result (raises ``AemError`` when it cannot be scored).

        Without ``tools``, a live session's own tool definitions (the agent's tool registry, recorded by
        ``run_live``) give the argument kinds."""
        options = self._options
        if not options.tools and isinstance(data.actual_trajectory, Session):
            specs = session_tools(data.actual_trajectory)
            if specs:
                options = replace(options, tools=tools_from_specs(specs))
        found = case_dialog(
            data.metadata,
            data.actual_trajectory,
            name=data.name,
            align=options.align_options(),
            sub_agents=self.sub_agents,
            expected_trajectory=data.expected_trajectory,
            expected_output=data.expected_output,
            actual_output=data.actual_output,
        )
        escalation = self._judge_scorer() if options.escalate == "judge" else None
        comparator = make_comparator(options, scorer=self._scorer(), escalation=escalation)
        result = evaluate_dialog(found.dialog, options, comparator=comparator, composer=self._composer)
        judge = self._judge_scorer().provenance() if self._uses_judge() else None
        return ScoredCase(found, result, judge)

    def _rows(self, scored: ScoredCase) -> list[EvaluationOutput]:
        raise NotImplementedError

    def evaluate(self, evaluation_case: EvaluationData[Any, Any]) -> list[EvaluationOutput]:
        try:
            scored = self.score_case(evaluation_case)
        except AemError as error:
            return [
                EvaluationOutput(score=0.0, test_pass=False, reason=f"could not score: {error}", label=NOT_APPLICABLE)
            ]
        return self._rows(scored)


def dialog_metadata(scored: ScoredCase) -> dict[str, JsonValue]:
    """The full dialog result (SPEC §5 keys and per-turn details) plus how it was obtained.

    When an LLM judge took part (``scorer="judge"`` or ``escalate="judge"``), ``judge`` records which:
    its prompt label and version and the model id.
    """
    found, result = scored.found, scored.result
    out = result.to_dict()
    out["mode"] = found.mode
    if scored.judge is not None:
        out["judge"] = scored.judge
    if found.spans:
        spans = predicted_spans(found)
        out["turn_spans"] = {str(turn_no): where for turn_no, where in sorted(spans.items())}
        root = result.root_causes[0].turn.turn_no if result.root_causes else None
        out["root_cause_span_id"] = spans.get(root, {}).get("span_id") if root is not None else None
    if found.predicted:
        out["predicted_turns"] = [
            {"index": i, "user_turn": t.user_turn, "span_id": t.span_id, "agent": t.agent, **t.to_dict()}
            for i, t in enumerate(found.predicted)
        ]
    return out


def _label(result: DialogResult) -> str:
    if result.score is None:
        return str(NOT_APPLICABLE)
    if result.test_pass:
        return "pass"
    roots = result.root_causes
    reason = roots[0].verdict.own_reason if roots else None
    if reason is not None:
        return reason.value
    return INCONCLUSIVE if result.inconclusive else "fail"


class AemSessionEvaluator(_AemEvaluator):
    """One row per case: the composed AEM correctness score of the whole dialog."""

    evaluation_level = EvaluationLevel.SESSION_LEVEL

    def _passes(self, result: DialogResult) -> bool:
        return result.test_pass

    def _rows(self, scored: ScoredCase) -> list[EvaluationOutput]:
        result = scored.result
        metadata = dialog_metadata(scored)
        if result.score is None:  # no turn could be judged: failing to judge is never a pass (fail closed)
            return [
                EvaluationOutput(
                    score=0.0, test_pass=False, reason=result.reason(), label=NOT_APPLICABLE, metadata=metadata
                )
            ]
        passed = self._passes(result)
        return [
            EvaluationOutput(
                score=result.score,
                test_pass=passed,
                reason=session_reason(result),
                label=_label(result),
                metadata=metadata,
            )
        ]


def session_reason(result: DialogResult) -> str:
    """The dialog's one-line reason, then one line per failing turn (``turn_reason``), so the host's
    ``strands-evals report`` shows which turns failed and what each inherited."""
    lines = [result.reason(), *(turn_reason(t) for t in result.failures)]
    return "\n".join(lines)


def turn_reason(turn: TurnResult) -> str:
    """One line that lets the reader recompute a turn's verdict."""
    n = turn.turn.turn_no
    if turn.verdict.verdict is Verdict.NOT_APPLICABLE:
        return f"turn {n}: not judged ({turn.verdict.note})"
    if turn.verdict.success:
        return f"turn {n}: pass"
    problem = turn.verdict.problems[0]
    score = "" if problem.score is None else f" {problem.method.value} {problem.score:.2f}"
    what = f"turn {n}: {problem.field} {problem.predicted!r} vs {problem.gold!r}{score} → {problem.reason.value}"
    attribution = turn.attribution
    if attribution is not None and attribution.role is Role.CASCADE:
        return f"{what}; cascade of turn {attribution.caused_by} → prior_action_failed"
    return f"{what} (root cause)"


def predicted_spans(found: CaseDialog) -> dict[int, dict[str, JsonValue]]:
    """Turn number -> the predicted turn's ``span_id``, ``user_turn`` and ``agent`` (Session trajectories only).

    Keying turns by span id lets per-turn AEM results be cross-checked against the host's detectors
    (``aem_strands.strands.detectors``).
    """
    return {turn_no: dict(where) for turn_no, where in found.spans.items()}


class AemTurnEvaluator(_AemEvaluator):
    """One row per turn; the aggregator composes them into the dialog's score."""

    evaluation_level = EvaluationLevel.TRACE_LEVEL

    def _aggregate_rows(self, outputs: list[EvaluationOutput]) -> tuple[float, bool, str]:
        return compose_turn_rows(outputs)

    def case_label(self, outputs: Sequence[EvaluationOutput]) -> str | None:
        dialog = (outputs[0].metadata or {}).get("dialog") if outputs else None
        return str(dialog["label"]) if isinstance(dialog, dict) and dialog.get("label") else None

    def _rows(self, scored: ScoredCase) -> list[EvaluationOutput]:
        found, result = scored.found, scored.result
        whole = result.to_dict()
        dialog: dict[str, JsonValue] = {
            "score": result.score,
            "test_pass": result.test_pass,
            "status": result.status,
            "reason": result.reason(),
            "dialog_id": result.dialog_id,
            "label": _label(result),
            "sub_metrics": whole["sub_metrics"],
            "chains": whole["chains"],
        }
        if scored.judge is not None:
            dialog["judge"] = scored.judge
        rows = []
        spans = predicted_spans(found)
        for turn in result.turns:
            data = turn.to_dict()
            data["dialog"] = dialog
            data.update(spans.get(turn.turn.turn_no, {}))
            if turn.verdict.verdict is Verdict.NOT_APPLICABLE:
                # could not be judged (not "nothing to judge"): the host counts such a row as a failure
                rows.append(
                    EvaluationOutput(
                        score=0.0, test_pass=False, reason=turn_reason(turn), label=NOT_APPLICABLE, metadata=data
                    )
                )
                continue
            ok = turn.verdict.success
            label = "pass" if ok else (turn.failure_reason.value if turn.failure_reason else "fail")
            rows.append(
                EvaluationOutput(
                    score=1.0 if ok else 0.0, test_pass=ok, reason=turn_reason(turn), label=label, metadata=data
                )
            )
        if not rows:
            why = "dialog has no turns to judge"
            rows.append(
                EvaluationOutput(
                    score=0.0, test_pass=True, reason=why, label=NOT_APPLICABLE, metadata={"dialog": dialog}
                )
            )
        return rows


def compose_turn_rows(outputs: Sequence[EvaluationOutput]) -> tuple[float, bool, str]:
    """Aggregate per-turn rows into the case score: the composed dialog score the rows carry.

    Rows without AEM metadata (an error row) fall back to averaging the judged rows.
    """
    dialog = (outputs[0].metadata or {}).get("dialog") if outputs else None
    if isinstance(dialog, dict) and "score" in dialog:
        score = dialog["score"]
        return (0.0 if score is None else float(score)), bool(dialog["test_pass"]), str(dialog["reason"])
    score, passed, reason = Evaluator._aggregate_dropping_na(list(outputs))
    return float(score), bool(passed), str(reason)


class CorrectnessCustomEvaluator(AemSessionEvaluator):
    """Compatibility class: ``test_pass`` when the composed score reaches ``threshold`` (default 0.5).

    Every other parameter is as for ``AemSessionEvaluator``. An inconclusive dialog (some turn could
    not be judged) never passes, whatever its score. The default ``name`` is ``aem_correctness``: the
    reference write-up's ``correctness`` is a built-in short name of the ``strands-evals`` CLI.
    """

    def __init__(self, threshold: float = 0.5, name: str = "aem_correctness", **options: Any) -> None:
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0.0 <= threshold <= 1.0:
            raise ConfigError(f"threshold must be a number in [0, 1], got {threshold!r}")
        super().__init__(name=name, **options)
        self.threshold = threshold

    def _passes(self, result: DialogResult) -> bool:
        return result.score is not None and result.score >= self.threshold and not result.inconclusive
