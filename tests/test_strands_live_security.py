"""live_task imports only what the caller allows: a case file never chooses code to run on its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from strands_evals import Experiment

from aem_strands import ConfigError
from aem_strands.strands import AemSessionEvaluator, live_case, live_task, make_live_task

GOLD = [{"turn": "Agent", "response": "Hello."}]


def planted_module(tmp_path: Path) -> tuple[Path, Path]:
    """A module file that leaves a marker when imported (what hostile code would do), and the marker."""
    marker = tmp_path / "imported.txt"
    module = tmp_path / "planted.py"
    module.write_text(
        "from pathlib import Path\n"
        f"Path({str(marker)!r}).write_text('ran')\n"
        "from aem_strands.testing import ScriptedModel\n"
        "from strands import Agent\n"
        "def build():\n"
        "    return Agent(model=ScriptedModel(['Hello.']), callback_handler=None)\n",
        encoding="utf-8",
    )
    return module, marker


def case_naming(spec: str) -> Any:
    return live_case(GOLD, ["Hi"], name="planted", agent=spec)


def test_live_task_refuses_a_factory_named_by_the_case(tmp_path: Path) -> None:
    module, marker = planted_module(tmp_path)
    with pytest.raises(ConfigError, match="does not import code named by a case"):
        live_task(case_naming(f"{module}:build"))
    assert not marker.exists()


def test_a_factory_outside_the_allow_list_is_not_imported(tmp_path: Path) -> None:
    module, marker = planted_module(tmp_path)
    task = make_live_task(allow=["experiments.sales_agent"])
    with pytest.raises(ConfigError, match="not allowed"):
        task(case_naming(f"{module}:build"))
    assert not marker.exists()
    # inside an experiment the refusal is that case's error row, and nothing ran
    report = Experiment(cases=[case_naming(f"{module}:build")], evaluators=[AemSessionEvaluator(scorer="exact")])
    result = report.run_evaluations(task)
    assert result.test_passes == [False]
    assert "not allowed" in result.reasons[0]
    assert not marker.exists()


def test_an_allowed_factory_runs(tmp_path: Path) -> None:
    module, marker = planted_module(tmp_path)
    task = make_live_task(allow=[str(module)])  # the whole file is allowed
    out = task(case_naming(f"{module}:build"))
    assert (out["output"], marker.read_text()) == ("Hello.", "ran")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({}, "needs an agent factory, or allow"), ({"allow": "experiments"}, "got the string"),
     ({"allow": ["mod:not an attr"]}, "MODULE:ATTR")],
)  # fmt: skip
def test_make_live_task_validates_what_it_is_given(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make_live_task(**kwargs)
