"""Repeated trials of live cases: each case expanded into K cases, so an ``Experiment`` runs the agent K times.

``trial_cases(cases, k)`` returns, for each case, K copies named ``<name>#trial<i>`` (i = 1..K) with
``metadata.trial = i`` and ``metadata.trial_of = <name>`` and a fresh ``session_id`` each. Distinct names
keep the trials apart wherever the host keys by case name (the result cache, ``LocalFileTaskResultStore``,
the report); the metadata reaches every result row, where ``aem-strands report`` groups the trials by
``trial_of`` and gives pass^k (``aem_strands.report.passk``).

The ``strands-evals`` command line has no trials option, and ``aem-strands`` runs no live agent, so the
command ``aem-strands trials EXPERIMENT.json --trials K --out TRIALS.json`` writes the expanded experiment
(evaluators kept as they are) for ``strands-evals run TRIALS.json --task ...``.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import uuid
from collections.abc import Iterable
from typing import IO, Any

from pydantic import ValidationError
from strands_evals import Case

from aem_strands.decode import find_flaw, format_of, read_records
from aem_strands.errors import ConfigError, InputError, Location, printable
from aem_strands.load import read_lines
from aem_strands.output import AtomicFile, check_target
from aem_strands.report.words import counted

TRIAL_KEY, TRIAL_OF_KEY = "trial", "trial_of"
MAX_TRIALS = 1_000
"""Most trials per case (pass^k beyond a few dozen trials says nothing more; 50,000,000 ran out of memory)."""
MAX_TRIAL_CASES = 100_000
"""Most cases an expanded experiment may hold (cases x trials)."""
_PATH_LIKE = re.compile(r"[/\\\x00]")
"""What makes a name a path: a separator (``/``, ``\\``) or a NUL. The host stores a result file per case name
(``LocalFileTaskResultStore``: ``folder / f"{name}.json"``), so ``../x`` or ``/etc/x`` would be written outside its
folder."""


def trial_name(name: str, trial: int) -> str:
    """``<name>#trial<trial>``: the name of one trial of a case."""
    return f"{name}#trial{trial}"


def _trial_count(trials: object) -> int:
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise ConfigError(f"trials must be an integer >= 1, got {trials!r}")
    if trials > MAX_TRIALS:
        raise ConfigError(f"trials must be at most {MAX_TRIALS:,} (pass^k needs no more), got {trials:,}")
    return trials


def _checked_name(name: object, index: int) -> str:
    if not isinstance(name, str) or not name:
        raise ConfigError(f"case {index}: repeated trials need every case named (trials are grouped by name)")
    if _PATH_LIKE.search(name):
        raise ConfigError(
            f"case {index}: name {printable(repr(name))} holds a path separator; a trial's name names "
            "its result file, which must stay in its folder"
        )
    return name


def trial_cases(cases: Iterable[Case[Any, Any]], trials: int) -> list[Case[Any, Any]]:
    """Each case repeated ``trials`` times (see the module docstring), in case order, trials together.

    Raises ``ConfigError`` for ``trials`` beyond ``MAX_TRIALS`` or an expansion beyond ``MAX_TRIAL_CASES``, a case
    without a name, a name with a path separator (``../x``, ``/x``, ``a\\b``), two cases of one name,
    or a case that is already a trial.
    """
    count = _trial_count(trials)
    listed = list(cases)
    if len(listed) * count > MAX_TRIAL_CASES:
        raise ConfigError(
            f"{counted(len(listed), 'case')} x {counted(count, 'trial')} = {len(listed) * count:,} cases, more than "
            f"{MAX_TRIAL_CASES:,} (the limit): run fewer trials, or the cases in parts"
        )
    out: list[Case[Any, Any]] = []
    seen: set[str] = set()
    for index, case in enumerate(listed):
        name = _checked_name(case.name, index)
        if name in seen:
            raise ConfigError(f"case {index}: two cases are named {name!r}; trials are grouped by name")
        seen.add(name)
        metadata = dict(case.metadata or {})
        if TRIAL_KEY in metadata:
            raise ConfigError(
                f"case {name!r} is already trial {metadata[TRIAL_KEY]!r} of {metadata.get(TRIAL_OF_KEY)!r}: "
                "expand the original cases, once"
            )
        for trial in range(1, count + 1):
            update = {
                "name": trial_name(name, trial),
                "session_id": str(uuid.uuid4()),
                "metadata": {**copy.deepcopy(metadata), TRIAL_KEY: trial, TRIAL_OF_KEY: name},
            }
            out.append(case.model_copy(update=update, deep=True))
    return out


def trial_experiment_data(data: object, trials: int, file: str) -> dict[str, Any]:
    """An experiment file's JSON with its cases expanded by ``trial_cases`` (evaluators and other keys kept)."""
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise InputError("not an experiment file: expected an object with a 'cases' list", Location(file))
    cases = []
    for index, raw in enumerate(data["cases"]):
        try:
            cases.append(Case.model_validate(raw))
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or None
            name = raw.get("name") if isinstance(raw, dict) and isinstance(raw.get("name"), str) else None
            raise InputError(first["msg"], Location(file, name, None, where, index=index)) from None
    try:
        expanded = trial_cases(cases, trials)
    except ConfigError as error:
        raise InputError(str(error), Location(file, field="cases")) from None
    return {**data, "cases": [case.model_dump(mode="json") for case in expanded]}


def run_trials(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    """Run ``trials`` with parsed ``args``: write the expanded experiment; returns the exit code (0)."""
    file = str(args.experiment)
    _trial_count(args.trials)
    check_target(args.out, [args.experiment], "--out")
    found = None
    for record in read_records(read_lines(args.experiment), file, format_of(args.experiment)):
        if record.error is not None:
            raise InputError(record.error, Location(file, line=record.line))
        if record.kind != "document":
            raise InputError("not an experiment file: expected one JSON object", Location(file, line=record.line))
        found = record.value
    flaw = find_flaw(found)  # a part beyond the input limits (a 5,000-digit number) is bad input, not a crash
    if flaw is not None:
        raise InputError(flaw.message, Location(file, field=flaw.path or None))
    data = trial_experiment_data(found, args.trials, file)
    with AtomicFile(args.out, "--out") as out:
        out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    original = counted(len(data["cases"]) // args.trials, "case")
    what = f"{original} x {counted(args.trials, 'trial')} = {counted(len(data['cases']), 'case')}"
    print(f"aem-strands: wrote {printable(str(args.out))} ({what})", file=stderr)
    return 0
