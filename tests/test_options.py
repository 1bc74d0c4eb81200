"""EvalOptions: one validated, serialisable value built the same way by the API, the CLI and the evaluators."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from strands_evals import Case, Experiment

from aem_strands import evaluate_dialog
from aem_strands.cli import build_parser
from aem_strands.compare.chain import Thresholds
from aem_strands.errors import ConfigError
from aem_strands.options import EvalOptions, options_from_args
from aem_strands.strands import AemSessionEvaluator, CorrectnessCustomEvaluator

DATA = Path(__file__).parent.parent / "examples" / "data" / "sales_report.json"


def test_defaults_round_trip_through_json() -> None:
    options = EvalOptions()
    assert EvalOptions.from_dict(json.loads(options.to_json())) == options


def test_every_field_round_trips_through_json() -> None:
    options = EvalOptions(
        scorer="exact",
        escalate="judge",
        thresholds=Thresholds(argument=0.8, response=0.7, argument_floor=None, response_floor=0.6),
        composer="thresholds",
        cap=0.3,
        sub_metric_thresholds={"truthfulness": 0.9},
        allow_extra="read_only",
        read_only_tools=frozenset({"weather", "search"}),
    )
    assert EvalOptions.from_dict(json.loads(options.to_json())) == options


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"scorer": "cosine"}, "scorer must be one of exact, embedding, judge, got 'cosine'"),
        ({"escalate": "human"}, "escalate must be None or one of judge"),
        ({"composer": "median"}, "composer must be one of"),
        ({"cap": 1.5}, r"cap must be a number in \[0, 1\], got 1.5"),
        ({"allow_extra": "some"}, "allow_extra must be one of"),
        ({"allow_extra": "read_only"}, "needs read-only tools"),
        ({"read_only_tools": "weather"}, "read_only_tools must be a list of tool names"),
        ({"composer": "thresholds", "sub_metric_thresholds": {"speed": 0.5}}, "unknown sub-metric 'speed'"),
        ({"threshold_args": 2.0}, "threshold for argument values must be a number in"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_are_config_errors_naming_the_option(values: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        EvalOptions.build(**values)


def test_shortcuts_override_thresholds_file(tmp_path: Path) -> None:
    config = tmp_path / "t.json"
    config.write_text(json.dumps({"thresholds": {"argument": 0.6, "response": 0.9}}), encoding="utf-8")
    built = EvalOptions.build(thresholds_file=str(config), threshold_response=0.95)
    assert (built.thresholds.argument, built.thresholds.response) == (0.6, 0.95)


def test_the_cli_builds_the_same_options_as_the_api() -> None:
    args = build_parser().parse_args(
        ["score", "x.json", "--scorer", "exact", "--composer", "gated", "--cap", "0.2", "--threshold-args", "0.9",
         "--allow-extra", "read_only", "--read-only-tool", "weather"]
    )  # fmt: skip
    expected = EvalOptions.build(
        scorer="exact", composer="gated", cap=0.2, threshold_args=0.9, allow_extra="read_only",
        read_only_tools=["weather"],
    )  # fmt: skip
    assert options_from_args(args) == expected


def test_compare_command_options_keep_defaults_for_scoring_only_fields() -> None:
    args = build_parser().parse_args(["compare", "--pairs", "p.jsonl", "--scorer", "exact"])
    assert options_from_args(args) == EvalOptions(scorer="exact")


def test_options_object_and_keyword_shortcuts_give_the_same_result() -> None:
    dialog = json.loads(DATA.read_text(encoding="utf-8"))
    by_object = evaluate_dialog(dialog, EvalOptions(scorer="exact", composer="gated", cap=0.1)).to_dict()
    by_keywords = evaluate_dialog(dialog, scorer="exact", composer="gated", cap=0.1).to_dict()
    assert by_object == by_keywords
    lenient = evaluate_dialog(dialog, scorer="exact", composer="gated", allow_extra="all").to_dict()
    assert lenient == by_keywords  # a paired dialog: alignment options do not apply


def test_evaluators_hold_the_options_and_survive_save_and_load() -> None:
    evaluator = AemSessionEvaluator(scorer="exact", composer="thresholds", sub_metric_thresholds={"truthfulness": 0.5})
    assert evaluator.options == EvalOptions(
        scorer="exact", composer="thresholds", sub_metric_thresholds={"truthfulness": 0.5}
    )
    experiment = Experiment(cases=[Case(name="c", input="hi")], evaluators=[evaluator])
    reloaded = Experiment.from_dict(experiment.to_dict(), custom_evaluators=[AemSessionEvaluator])
    assert reloaded.evaluators[0].options == evaluator.options


def test_compatibility_evaluator_passes_every_option_through() -> None:
    evaluator = CorrectnessCustomEvaluator(threshold=0.7, scorer="exact", cap=0.4, composer="gated")
    assert evaluator.options == EvalOptions(scorer="exact", cap=0.4, composer="gated")
    experiment = Experiment(cases=[Case(name="c", input="hi")], evaluators=[evaluator])
    reloaded = Experiment.from_dict(experiment.to_dict(), custom_evaluators=[CorrectnessCustomEvaluator])
    assert reloaded.evaluators[0].options == evaluator.options
    assert reloaded.evaluators[0].threshold == 0.7
