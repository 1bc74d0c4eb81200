"""How to judge, as one typed value: ``EvalOptions``.

Every choice that travels together (the semantic scorer and its escalation, thresholds, the composer,
alignment of unpaired dialogs) lives here, is validated once at construction, and serialises to and
from JSON. The CLI builds it from its flags (``add_option_flags`` / ``options_from_args``, defined
here beside the fields they set), the Strands evaluators from their constructor parameters, and
``evaluate_dialogs(dialogs, options=...)`` takes it.

Adding an option means: a field here (validated in ``__post_init__``), its flag in
``add_option_flags``, and its line in the docs. Keyword shortcuts (``evaluate_dialogs(d,
scorer="exact")``, evaluator parameters) go through ``EvalOptions.build``, which only maps names;
validation happens in one place.

Objects that cannot be serialised (a scorer instance, a composer instance, a judge ``Model``) are
not options: they are injected where a run is set up (``make_comparator(options, scorer=...)``).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from enum import Enum
from pathlib import Path
from typing import Any, Literal, get_args

from aem_strands.align import ALLOW_EXTRA_CHOICES, AlignOptions, AllowExtra
from aem_strands.compare.chain import Thresholds
from aem_strands.compare.config import load_thresholds, thresholds_from_dict
from aem_strands.compose import COMPOSER_NAMES, Composer, ComposerName, make_composer
from aem_strands.errors import ConfigError
from aem_strands.scope import SCOPE_CHOICES, Scope
from aem_strands.tools import ToolCatalog, as_catalog
from aem_strands.trace.types import Budgets, Environment

ScorerName = Literal["exact", "embedding", "judge"]
SCORER_CHOICES: tuple[str, ...] = get_args(ScorerName)
EscalationName = Literal["judge"]
ESCALATION_CHOICES: tuple[str, ...] = get_args(EscalationName)


class Engine(str, Enum):
    """Where a run is carried out (never what it finds): here, or on a Ray cluster (``aem_strands.distributed``)."""

    LOCAL = "local"
    RAY = "ray"


ENGINE_CHOICES: tuple[str, ...] = tuple(e.value for e in Engine)

SHORTCUTS = ("threshold_args", "threshold_response", "thresholds_file")
"""Keyword shortcuts ``EvalOptions.build`` accepts besides the field names."""


def _choice(name: str, value: object, choices: tuple[str, ...], *, optional: bool = False) -> None:
    if optional and value is None:
        return
    if value not in choices:
        either = "None or one of" if optional else "one of"
        raise ConfigError(f"{name} must be {either} {', '.join(choices)}, got {value!r}")


def _unit_interval(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ConfigError(f"{name} must be a number in [0, 1], got {value!r}")
    return float(value)


def _judge_and_embedding(options: EvalOptions) -> None:
    from aem_strands.compare.judge_scorer import JUDGE_PROMPTS

    if options.embedding_model is not None and (
        not isinstance(options.embedding_model, str) or not options.embedding_model
    ):
        raise ConfigError(f"embedding_model must be a model folder path or None, got {options.embedding_model!r}")
    if not isinstance(options.embedding_device, str) or not options.embedding_device:
        raise ConfigError(
            f"embedding_device must be a torch device name such as 'cpu' or 'cuda', got {options.embedding_device!r}"
        )
    _choice("judge_prompt_version", options.judge_prompt_version, tuple(JUDGE_PROMPTS))
    prompt = options.judge_system_prompt
    if prompt is not None and (not isinstance(prompt, str) or not prompt.strip()):
        raise ConfigError(f"judge_system_prompt must be a non-empty string or None, got {prompt!r}")
    timeout = options.judge_timeout
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf"):
            raise ConfigError(f"judge_timeout must be a number of seconds > 0 or None, got {timeout!r}")
        object.__setattr__(options, "judge_timeout", float(timeout))


def _policy(options: EvalOptions) -> None:
    """The trace policy, read and validated once (a path or decoded JSON becomes an ``Environment``)."""
    policy = options.policy
    if policy is None or isinstance(policy, Environment):
        return
    from aem_strands.trace.policy import as_environment

    if not isinstance(policy, (str, Path, Mapping)):
        raise ConfigError(f"policy must be a policy file path, its decoded JSON or None, got {type(policy).__name__}")
    object.__setattr__(options, "policy", as_environment(policy))


def _budgets(options: EvalOptions) -> None:
    """Budget overrides for every trace (``Budgets`` field → a whole number or amount >= 0, or ``None``: no
    budget), validated once."""
    budgets = options.budgets
    if not isinstance(budgets, Mapping):
        raise ConfigError(f"budgets must be a mapping of budget names to numbers, got {type(budgets).__name__}")
    known = {f.name for f in fields(Budgets)}
    out: dict[str, int | float | None] = {}
    for name, value in budgets.items():
        if name not in known:
            raise ConfigError(f"budgets: unknown budget {name!r}; expected one of {', '.join(sorted(known))}")
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf")
        ):
            raise ConfigError(f"budgets: {name} must be a number >= 0 or None, got {value!r}")
        out[name] = value
    object.__setattr__(options, "budgets", out)


def _run_shape(options: EvalOptions) -> None:
    """How a run is carried out (never what it finds): dialogs per scoring batch and worker processes."""
    size = options.batch_size
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
        raise ConfigError(f"batch_size must be a whole number >= 1 or None, got {size!r}")
    workers = options.workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be a whole number >= 1, got {workers!r}")
    if options.cache_dir is not None and (not isinstance(options.cache_dir, str) or not options.cache_dir):
        raise ConfigError(f"cache_dir must be a folder path or None, got {options.cache_dir!r}")
    try:
        object.__setattr__(options, "engine", Engine(options.engine))
    except ValueError:
        raise ConfigError(f"engine must be one of {', '.join(ENGINE_CHOICES)}, got {options.engine!r}") from None


@dataclass(frozen=True)
class EvalOptions:
    """Every choice of how dialogs are judged (see the module docstring).

    - ``scorer``: the semantic stage after exact match and typed normalisation (``exact``,
      ``embedding`` — the default offline model — or ``judge``, an LLM judge);
    - ``escalate``: a scorer that decides pairs in the uncertain band (``judge``) or ``None``;
    - ``thresholds``: similarity thresholds and band floors per value kind;
    - ``composer``, ``cap``, ``sub_metric_thresholds``: how turn verdicts compose (``aem_strands.compose``);
    - ``allow_extra``, ``read_only_tools``: which unmatched predicted turns are tolerated when
      unpaired dialogs are aligned (``aem_strands.align``);
    - ``tools``: tool definitions (``aem_strands.tools``: read-only tools, argument kinds), given as a
      tools file path or decoded JSON;
    - ``scope``: judge ``all`` turns, only ``actions`` or only ``replies`` (``aem_strands.scope``);
    - ``embedding_model``, ``embedding_device``: the embedding scorer's local sentence-transformers
      model folder (``None``: the packaged MiniLM) and torch device;
    - ``judge_prompt_version``, ``judge_system_prompt``, ``judge_timeout``: the LLM judge's versioned
      system prompt (or a replacement), and seconds per judge call (``None``: no limit); see
      ``aem_strands.compare.judge_scorer``;
    - ``batch_size``, ``workers``: how a run is carried out, never what it finds: dialogs scored per batch
      (their semantic comparisons go to the scorer together; ``None``: ``evaluate_dialogs`` takes all in
      one batch, ``iter_evaluate`` 256) and scoring processes (``aem_strands.workers``; results identical
      to one process);
    - ``engine``: ``local`` (this machine: one process or ``workers`` processes) or ``ray`` (Ray Data actors,
      ``aem_strands.distributed``; ``workers`` > 1 fixes the number of actors); results identical either way;
    - ``cache_dir``: a folder for the persistent embedding and judge cache (``aem_strands.cache``), or
      ``None`` (no cache; the CLI's ``--cache-dir`` defaults to ``$AEM_CACHE_DIR``);
    - ``policy``: what traces are judged against (``aem_strands.trace``: tools, permissions, rules, budgets),
      given as a policy file path (JSON or YAML) or decoded JSON; a trace's own environment wins key by key;
    - ``budgets``: budget overrides for every trace (``max_steps``, ``max_tokens``, ... of ``Budgets``) over the
      policy's budgets; a trace's own budgets still win.
    """

    scorer: ScorerName = "embedding"
    escalate: EscalationName | None = None
    thresholds: Thresholds = field(default_factory=Thresholds)
    composer: ComposerName = "mean"
    cap: float | None = None
    sub_metric_thresholds: Mapping[str, float] = field(default_factory=dict)
    allow_extra: AllowExtra = "none"
    read_only_tools: frozenset[str] = field(default_factory=frozenset)
    tools: ToolCatalog = field(default_factory=ToolCatalog)
    scope: Scope = "all"
    embedding_model: str | None = None
    embedding_device: str = "cpu"
    judge_prompt_version: str = "v1"
    judge_system_prompt: str | None = None
    judge_timeout: float | None = 300.0
    batch_size: int | None = None
    workers: int = 1
    cache_dir: str | None = None
    engine: Engine = Engine.LOCAL
    policy: Environment | None = None
    budgets: Mapping[str, int | float | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _choice("scorer", self.scorer, SCORER_CHOICES)
        _choice("escalate", self.escalate, ESCALATION_CHOICES, optional=True)
        if not isinstance(self.thresholds, Thresholds):
            raise ConfigError(f"thresholds must be a Thresholds value, got {type(self.thresholds).__name__}")
        _choice("composer", self.composer, COMPOSER_NAMES)
        if self.cap is not None:
            _unit_interval("cap", self.cap)
        if not isinstance(self.sub_metric_thresholds, Mapping):
            raise ConfigError(f"sub_metric_thresholds must be a mapping, got {self.sub_metric_thresholds!r}")
        object.__setattr__(self, "sub_metric_thresholds", dict(self.sub_metric_thresholds))
        _choice("allow_extra", self.allow_extra, ALLOW_EXTRA_CHOICES)
        tools = self.read_only_tools
        if isinstance(tools, str) or not all(isinstance(t, str) for t in tools):
            raise ConfigError(f"read_only_tools must be a list of tool names, got {tools!r}")
        object.__setattr__(self, "read_only_tools", frozenset(tools))
        if not isinstance(self.tools, ToolCatalog):
            object.__setattr__(self, "tools", as_catalog(self.tools))
        _choice("scope", self.scope, SCOPE_CHOICES)
        _judge_and_embedding(self)
        _run_shape(self)
        _policy(self)
        _budgets(self)
        # Building them validates what only they know (sub-metric names, read_only needing tools).
        self.make_composer()
        self.align_options()

    @classmethod
    def build(cls, base: EvalOptions | None = None, **shortcuts: Any) -> EvalOptions:
        """``base`` (the defaults when ``None``) with fields replaced by keyword.

        Besides the field names: ``threshold_args`` / ``threshold_response`` override the argument
        and reply thresholds, ``thresholds_file`` reads a thresholds config (applied first). ``None``
        means "not given" for these shortcuts; list values of ``read_only_tools`` are accepted.
        """
        options = base or cls()
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(shortcuts) - known - set(SHORTCUTS))
        if unknown:
            raise ConfigError(
                f"unknown option {unknown[0]!r}; expected one of {', '.join(sorted(known | set(SHORTCUTS)))}"
            )
        thresholds = shortcuts.pop("thresholds", None) or options.thresholds
        path = shortcuts.pop("thresholds_file", None)
        if path is not None:
            thresholds = load_thresholds(Path(path))
        argument, response = shortcuts.pop("threshold_args", None), shortcuts.pop("threshold_response", None)
        if argument is not None:
            thresholds = replace(thresholds, argument=argument)
        if response is not None:
            thresholds = replace(thresholds, response=response)
        for optional in ("read_only_tools", "tools", "policy", "budgets"):
            if shortcuts.get(optional) is None:
                shortcuts.pop(optional, None)
        if shortcuts.get("sub_metric_thresholds") is None:
            shortcuts.pop("sub_metric_thresholds", None)
        return replace(options, thresholds=thresholds, **shortcuts)

    def align_options(self) -> AlignOptions:
        return AlignOptions(self.allow_extra, self.read_only_tools, self.tools, self.scope)

    def make_composer(self) -> Composer:
        return make_composer(self.composer, cap=self.cap, thresholds=self.sub_metric_thresholds)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict; ``EvalOptions.from_dict`` reads it back."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["thresholds"] = asdict(self.thresholds)
        out["sub_metric_thresholds"] = dict(self.sub_metric_thresholds)
        out["read_only_tools"] = sorted(self.read_only_tools)
        out["tools"] = self.tools.to_list()
        out["engine"] = self.engine.value
        if self.policy is not None:
            from aem_strands.trace.policy import environment_to_json

            out["policy"] = environment_to_json(self.policy)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EvalOptions:
        """Options from ``to_dict`` output (or any subset of its keys)."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"options must be a JSON object, got {type(data).__name__}")
        values = dict(data)
        if "thresholds" in values:
            values["thresholds"] = thresholds_from_dict({"thresholds": values["thresholds"]})
        return cls.build(**values)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)


# --- the command line ------------------------------------------------------------------------------------------------


def _threshold(text: str) -> float:
    try:
        return _unit_interval("value", float(text))
    except (ValueError, ConfigError) as error:
        raise argparse.ArgumentTypeError(f"must be a number in [0, 1], got {text}") from error


def add_option_flags(parser: argparse.ArgumentParser, *, scoring: bool, traces: bool = False) -> None:
    """The flags that set ``EvalOptions``: comparison flags always, composition and alignment with ``scoring``,
    the trace policy with ``traces``."""
    defaults = Thresholds()
    parser.add_argument(
        "--scorer", choices=SCORER_CHOICES, default="embedding", help="semantic stage (default: embedding)"
    )
    parser.add_argument(
        "--threshold-args", type=_threshold, help=f"similarity an argument value needs (default {defaults.argument})"
    )
    parser.add_argument(
        "--threshold-response", type=_threshold, help=f"similarity a reply needs (default {defaults.response})"
    )
    parser.add_argument(
        "--thresholds", type=Path, metavar="FILE", dest="thresholds_file",
        help="thresholds config, as written by calibrate --write-config",
    )  # fmt: skip
    parser.add_argument(
        "--escalate",
        choices=ESCALATION_CHOICES,
        help="decide uncertain-band pairs with the LLM judge (Bedrock by default)",
    )
    parser.add_argument(
        "--judge-prompt-version", default="v1", metavar="VERSION",
        help="the LLM judge's versioned system prompt (v0, v1; default v1)",
    )  # fmt: skip
    parser.add_argument(
        "--judge-timeout", type=float, default=300.0, metavar="SECONDS", help="seconds per LLM judge call (default 300)"
    )
    parser.add_argument("--embedding-model", metavar="DIR", help="a local sentence-transformers model folder")
    parser.add_argument("--embedding-device", default="cpu", help="torch device of the embedding model (default cpu)")
    if traces:
        parser.add_argument(
            "--policy", metavar="FILE",
            help="trace policy (JSON or YAML): tools, permissions, rules and budgets; a trace's own environment wins",
        )  # fmt: skip
        parser.add_argument(
            "--budget", action="append", default=[], metavar="NAME=VALUE", dest="budgets",
            help="a budget for every trace over the policy's (max_steps, max_tool_calls, max_identical_calls, "
            "max_retries, max_latency_ms, max_tokens, max_cost_usd), e.g. max_steps=20",
        )  # fmt: skip
    if not scoring:
        return
    parser.add_argument("--composer", choices=COMPOSER_NAMES, default="mean", help="how turn verdicts compose")
    parser.add_argument("--cap", type=_threshold, help="score cap of the gated composer (default 0.5)")
    parser.add_argument(
        "--sub-metric-threshold", action="append", default=[], metavar="NAME=RATE", dest="sub_metric_thresholds",
        help="pass rate a sub-metric needs (thresholds composer), e.g. truthfulness=0.9",
    )  # fmt: skip
    parser.add_argument(
        "--allow-extra", choices=ALLOW_EXTRA_CHOICES, default="none",
        help="unpaired dialogs: which unmatched predicted turns are tolerated (default: none)",
    )  # fmt: skip
    parser.add_argument(
        "--read-only-tool", action="append", default=[], metavar="TOOL", dest="read_only_tools",
        help="with --allow-extra read_only: a tool (action or tool_id) whose extra calls are tolerated (repeatable)",
    )  # fmt: skip
    parser.add_argument(
        "--tools", metavar="FILE",
        help="tool definitions (MCP tools/list, OpenAI functions or Strands tool specs): read-only tools, arg kinds",
    )  # fmt: skip
    parser.add_argument(
        "--scope", choices=SCOPE_CHOICES, default="all",
        help="judge all turns, only actions (replies left out) or only replies (tool calls left out); default all",
    )  # fmt: skip
    parser.add_argument(
        "--batch-size", type=int, metavar="N", help="dialogs scored per batch (memory stays flat; default 64)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, metavar="N",
        help="scoring processes, this one included (results identical to 1; default 1)",
    )  # fmt: skip
    parser.add_argument(
        "--cache-dir", default=os.environ.get("AEM_CACHE_DIR") or None, metavar="DIR",
        help="persistent embedding and judge cache: re-runs embed only new strings (default $AEM_CACHE_DIR)",
    )  # fmt: skip
    parser.add_argument(
        "--engine", choices=ENGINE_CHOICES, default="local",
        help="local, or ray: score on a Ray cluster ($RAY_ADDRESS, else a local one; needs pip install -e '.[ray]')",
    )  # fmt: skip


def _sub_metric_thresholds(items: list[str]) -> dict[str, float]:
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        try:
            out[name.strip()] = _threshold(value)
        except argparse.ArgumentTypeError as problem:
            raise ConfigError(f"--sub-metric-threshold {item!r}: {problem}") from None
    return out


def options_from_args(args: argparse.Namespace) -> EvalOptions:
    """The options the flags of ``add_option_flags`` set (flags a sub-command lacks keep their defaults)."""
    given = {
        name: getattr(args, name)
        for name in (*(f.name for f in fields(EvalOptions)), *SHORTCUTS)
        if hasattr(args, name)
    }
    if "sub_metric_thresholds" in given:
        given["sub_metric_thresholds"] = _sub_metric_thresholds(given["sub_metric_thresholds"])
    if isinstance(given.get("budgets"), list):
        given["budgets"] = _budget_flags(given["budgets"])
    return EvalOptions.build(**given)


def _budget_flags(items: list[str]) -> dict[str, float | int]:
    out: dict[str, float | int] = {}
    for item in items:
        name, _, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            raise ConfigError(f"--budget {item!r}: expected NAME=NUMBER, e.g. max_steps=20") from None
        out[name.strip()] = int(number) if number.is_integer() else number
    return out
