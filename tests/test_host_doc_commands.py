"""Every shell command of README.md and docs/STRANDS.md runs as written (issue 29, "what a newcomer trips on").

The ``sh`` / ``bash`` blocks are run in order, one work folder per document (a later command reads what an earlier
one wrote), with ``aem-strands`` and ``strands-evals`` on ``PATH`` as this checkout's, and ``examples/``,
``experiments/`` and ``data/`` beside them. A command's exit code is the one its comment names (``exits 2: ...``),
else 0 or 1 (1: failures found, which the bundled examples are for). Not run, each with its reason: the ``make``
targets (they build ``.venv`` and run the whole suite) and commands with a placeholder of the reader's own
(``my.jsonl``, ``my_agents:task ...``). A comment line ``# exits N: ...`` names the next command's code.
Optional ``[--flag VALUE]`` groups are left out. Bounded: each command has a time limit, and the whole runs in a
few minutes (the default scorer loads the embedding model once per command).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCS = ("README.md", "docs/STRANDS.md")
NOT_RUN = {
    "make ": "builds .venv and runs the whole suite (make test is what CI runs)",
    "my.jsonl": "a file of the reader's own",
    "my_agents:task": "an agent module of the reader's own",
}
LIMIT_S = 600


def commands(doc: str) -> list[tuple[str, int | None]]:
    """The doc's shell commands in order (continuations joined, comments apart) and the exit code each names."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    out: list[tuple[str, int | None]] = []
    for block in re.findall(r"^```(?:sh|bash)\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE):
        ahead: int | None = None  # a comment line "# exits N: ..." names the next command's exit code
        for line in re.sub(r"\\\n\s*", " ", block).splitlines():
            command, _, comment = line.partition(" # ")
            command = command.strip()
            if command.startswith("#"):
                said = re.match(r"#\s*exits? (\d)\b", command)
                ahead = int(said.group(1)) if said else ahead
                continue
            if not command:
                continue
            named = re.search(r"\bexits? (\d)\b", comment)
            out.append((command, int(named.group(1)) if named else ahead))
            ahead = None
    return out


def _wrappers(folder: Path) -> None:
    scripts = {
        "aem-strands": f'exec "{sys.executable}" -m aem_strands "$@"',
        "strands-evals": f'exec "{sys.executable}" -c "import sys; from strands_evals.cli.main import main; '
        'sys.exit(main(sys.argv[1:]))" "$@"',
        "python": f'exec "{sys.executable}" "$@"',
    }
    for name, body in scripts.items():
        path = folder / name
        path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IEXEC)


@pytest.mark.slow
@pytest.mark.parametrize("doc", DOCS)
def test_every_documented_command_runs_as_written(doc: str, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _wrappers(bin_dir)
    work = tmp_path / "work"
    work.mkdir()
    for name in ("examples", "experiments", "data", "benchmarks"):
        (work / name).symlink_to(ROOT / name)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "PYTHONPATH": str(ROOT),
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}  # fmt: skip
    ran = 0
    for command, expected in commands(doc):
        if any(marker in command for marker in NOT_RUN):
            continue
        line = re.sub(r"\s\[[^\]]*\]", "", command).replace(".venv/bin/", "")  # optional groups; our PATH
        done = subprocess.run(["bash", "-c", line], cwd=work, env=env, capture_output=True, text=True,
                              timeout=LIMIT_S, check=False)  # fmt: skip
        allowed = {expected} if expected is not None else {0, 1}
        assert done.returncode in allowed, f"{doc}: {command!r} exited {done.returncode}:\n{done.stderr[-2000:]}"
        ran += 1
    assert ran >= 8  # README: 8 commands run, docs/STRANDS.md: 16 (the rest are named in NOT_RUN)


def test_the_commands_are_found_and_placeholders_are_named() -> None:
    readme = dict(commands("README.md"))
    assert readme["aem-strands report results.jsonl --by version --html report.html"] == 2  # the error record
    skipped = [c for doc in DOCS for c, _ in commands(doc) if any(m in c for m in NOT_RUN)]
    assert all(c.startswith("make ") or "my" in c for c in skipped)  # only the make targets and the reader's own
