"""Output files written whole or not at all, checked before any work, and cleaned up on every way out.

Every file a command writes (``score --out``, ``compare --out``, ``report --html/--json``, a config) goes
through ``AtomicFile``: the text goes to a temporary file in the target's folder (so the rename stays on
one file system), which is flushed, ``fsync``-ed and renamed over the target by ``commit``. Any failure
(a full disk, an exception, Ctrl-C, ``SIGTERM`` under ``terminated_as_interrupt``) removes the temporary
file and leaves an existing target as it was. ``check_target`` refuses a target that is also an input
(same resolved path, or the same file through a link) before the work starts.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import FrameType, TracebackType
from typing import IO

from aem_strands.errors import InputError, Location

PARTIAL_SUFFIX = ".partial"


class Terminated(KeyboardInterrupt):
    """``SIGTERM`` turned into an exception where the program stands, so the same cleanup as Ctrl-C runs."""


class Stopped(KeyboardInterrupt):
    """Ctrl-C or ``SIGTERM`` (``terminated``) seen by a command that says what it kept (``kept``: "3 records kept
    in out.jsonl; --html not written"), for the main command's last line."""

    def __init__(self, kept: str, terminated: bool) -> None:
        super().__init__(kept)
        self.kept, self.terminated = kept, terminated


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file: equal once resolved (symbolic links followed), or the same inode (hard
    links) where both exist."""
    try:
        if a.resolve() == b.resolve():
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except (OSError, RuntimeError):  # RuntimeError: a symbolic link loop on older Pythons
        return False


def check_target(target: Path, inputs: Iterable[Path | str | None], flag: str) -> None:
    """Raise an ``InputError`` naming ``flag`` when ``target`` is one of ``inputs`` (``None`` and ``-`` skipped),
    a folder, or in a folder that does not exist."""
    where = Location(str(target), field=flag)
    if str(target) == "-":
        return
    for path in inputs:
        if path is not None and str(path) != "-" and same_file(target, Path(path)):
            raise InputError(f"is also an input ({path}); it would be overwritten", where)
    if target.is_dir():
        raise InputError("is a folder; name a file", where)
    if not target.parent.is_dir():
        raise InputError(f"its folder {target.parent} does not exist", where)


Named = tuple[str, Path]
"""A file as the command line gave it: the flag (``--out``; ``input`` for a positional path) and the path."""


def _inside(target: Path, folder: Path) -> bool:
    try:
        return folder.is_dir() and folder.resolve() in target.resolve().parents
    except (OSError, RuntimeError):
        return False


def check_outputs(outputs: Iterable[Named], inputs: Iterable[Named], folders: Iterable[Named] = ()) -> None:
    """Raise an ``InputError`` naming the flags when an output is one of the ``inputs``, lies inside one of the
    input ``folders`` (a model folder), or names the same file as an earlier output: compared as ``same_file``
    does (resolved, symbolic and hard links followed), so ``./th.json`` or a link to it is ``th.json``. ``-``
    (stdin, stdout) is no file and is skipped. Called before any work, so nothing is read or written first."""
    given = [(flag, path) for flag, path in inputs if str(path) != "-"]
    within = [(flag, path) for flag, path in folders if str(path) != "-"]
    earlier: list[Named] = []
    for flag, target in outputs:
        if str(target) == "-":
            continue
        where = Location(str(target), field=flag)
        for name, path in given:
            if same_file(target, path):
                shown = str(path) if name == "input" else f"{name} {path}"
                raise InputError(f"is also an input ({shown}); it would be overwritten", where)
        for name, folder in within:
            if _inside(target, folder):
                raise InputError(f"is inside the folder of {name} ({folder}), an input; write it elsewhere", where)
        for name, path in earlier:
            if same_file(target, path):
                raise InputError(f"names the same file as {name}", where)
        earlier.append((flag, target))


def _mode_for(target: Path) -> int:
    """The permissions an existing target has, else what a new file gets under the umask."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


class AtomicFile:
    """A text file written under a temporary name beside ``target`` and renamed into place by ``commit``.

    Opening creates the temporary file, so a folder that cannot be written is an ``InputError`` (naming
    ``flag``) before any work. Used as a context manager it commits on a clean exit and discards on an
    exception; a caller that keeps partial output on Ctrl-C calls ``commit`` itself first.
    """

    def __init__(self, target: Path, flag: str) -> None:
        self.target, self.committed = target, False
        try:
            handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=PARTIAL_SUFFIX)
        except OSError as error:
            where = Location(str(target), field=flag)
            raise InputError(f"cannot write in {target.parent}: {error.strerror}", where) from None
        self.temp = Path(name)
        try:
            self.stream: IO[str] = os.fdopen(handle, "w", encoding="utf-8")
        except BaseException:
            os.close(handle)
            self.temp.unlink(missing_ok=True)
            raise

    def write(self, text: str) -> None:
        self.stream.write(text)

    def commit(self) -> None:
        """Flush, ``fsync`` and rename the temporary file over the target; on any failure remove it and re-raise."""
        if self.committed:
            return
        try:
            self.stream.flush()
            os.fsync(self.stream.fileno())
            self.stream.close()
            os.chmod(self.temp, _mode_for(self.target))
            os.replace(self.temp, self.target)
        except BaseException:
            self.discard()
            raise
        self.committed = True

    def discard(self) -> None:
        """Remove the temporary file (the target is left as it was); safe to call more than once."""
        if self.committed:
            return
        with contextlib.suppress(OSError, ValueError):
            self.stream.close()  # may fail to flush (a full disk): the descriptor is closed all the same
        self.temp.unlink(missing_ok=True)

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if kind is None:
            self.commit()
        elif not self.committed:
            self.discard()


def write_atomically(target: Path, text: str, flag: str) -> None:
    """Write ``text`` to ``target`` whole or not at all (see ``AtomicFile``)."""
    with AtomicFile(target, flag) as out:
        out.write(text)


_pending_stop: list[KeyboardInterrupt] = []  # a stop whose exception may have been swallowed (see below)


def raise_if_stopped() -> None:
    """Raise again a Ctrl-C or ``SIGTERM`` that arrived under ``terminated_as_interrupt`` and was not seen.

    Python runs a signal handler between any two bytecodes, also inside a ``__del__`` run by the garbage
    collector; an exception raised there is printed as "Exception ignored" and dropped, so a run would go on
    (and end with exit 0) after its stop. Loops call this at each safe point (after each record)."""
    if _pending_stop:
        raise _pending_stop.pop()


def _clear_stop() -> None:
    _pending_stop.clear()


@contextlib.contextmanager
def terminated_as_interrupt() -> Iterator[None]:
    """While inside, ``SIGTERM`` raises ``Terminated`` in this process (in the main thread, and only where the
    default handler was in place), so outputs are cleaned up as on Ctrl-C; both signals are also kept for
    ``raise_if_stopped``. A forked worker process that inherits the handler dies of the signal as before."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        yield
        return
    owner = os.getpid()
    own_sigint = signal.getsignal(signal.SIGINT) is signal.default_int_handler

    def handle(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:
            signal.signal(signum, signal.SIG_DFL if signum == signal.SIGTERM else signal.default_int_handler)
            os.kill(os.getpid(), signum)
            return
        stop: KeyboardInterrupt = Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()
        _pending_stop[:] = [stop]
        raise stop

    _clear_stop()
    signal.signal(signal.SIGTERM, handle)
    if own_sigint:
        signal.signal(signal.SIGINT, handle)
    try:
        yield
    except KeyboardInterrupt:
        _clear_stop()  # seen: nothing left to raise again
        raise
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if own_sigint:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        _clear_stop()
