"""``fgrad.torch.multiprocessing``: ``torch.multiprocessing.spawn`` for distributed
programs, over MPI.

PyTorch's DDP tutorials start their workers with ``mp.spawn(train, args=(world_size,),
nprocs=world_size)`` and call ``dist.init_process_group("gloo", rank=rank,
world_size=world_size)`` in each.  fgrad's processes talk through MPI, so `spawn` starts
them with ``mpiexec -n nprocs``: worker i runs ``fn(i, *args)`` with MPI rank i (so the
``rank``/``world_size`` it passes to ``init_process_group`` agree with MPI's; the
``MASTER_ADDR``/``MASTER_PORT`` it sets are not needed).  As with PyTorch's ``spawn`` start
method, each worker imports the main script under the name ``__mp_main__`` (keep the
``spawn`` call under ``if __name__ == "__main__":``) and ``fn`` and ``args`` are pickled.
A worker that raises ends the job (the others do not hang) and `spawn` raises
`ProcessRaisedException` with its traceback, as PyTorch's.  The rest of Python's
``multiprocessing`` is re-exported, as PyTorch does.

Example::

    >>> import fgrad.torch.multiprocessing as mp
    >>> callable(mp.spawn), mp.get_start_method(allow_none=True) in (None, "fork", "spawn", "forkserver")
    (True, True)
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from multiprocessing import *  # noqa: F401,F403  (as torch.multiprocessing)
from typing import Callable

from fgrad.backends import world as _world
from typing import Any


class ProcessException(Exception):
    """A worker of `spawn` failed.

    Example::

        >>> import fgrad.torch.multiprocessing as mp
        >>> e = mp.ProcessException('worker 1 failed', error_index=1, error_pid=123)
        >>> e.error_index, e.pid, str(e)
        (1, 123, 'worker 1 failed')
    """

    def __init__(self, msg: str, error_index: int, error_pid: int) -> None:
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = error_pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A worker raised an exception: the message holds its traceback.

    Example::

        >>> import fgrad.torch.multiprocessing as mp
        >>> issubclass(mp.ProcessRaisedException, Exception)
        True
    """


class ProcessExitedException(ProcessException):
    """A worker exited with a nonzero code (or was killed) without a Python traceback.

    Example::

        >>> import fgrad.torch.multiprocessing as mp
        >>> e = mp.ProcessExitedException('exit 1', error_index=0, error_pid=7, exit_code=1)
        >>> e.exit_code, e.error_index
        (1, 0)
    """

    def __init__(self, msg: str, error_index: int, error_pid: int, exit_code: int,
                 signal_name: str | None = None) -> None:
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid, self.exit_code, self.signal_name)


class ProcessContext:
    """The running workers of `spawn(..., join=False)`: `join` waits for them.

    Example::

        >>> import fgrad.torch.multiprocessing as mp
        >>> hasattr(mp.ProcessContext, 'join')
        True
    """

    def __init__(self, proc: subprocess.Popen, workdir: str, nprocs: int) -> None:
        self._proc = proc
        self._workdir = workdir
        self.nprocs = nprocs

    def pids(self) -> list:
        return [self._proc.pid]

    def join(self, timeout: float | None = None, grace_period: float | None = None) -> bool:
        """Wait for the workers (at most ``timeout`` seconds); True when all have finished
        successfully, False on timeout; raises `ProcessRaisedException` /
        `ProcessExitedException` when one failed."""
        try:
            code = self._proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        try:
            if code != 0:
                raise self._failure(code)
            return True
        finally:
            shutil.rmtree(self._workdir, ignore_errors=True)

    def _failure(self, code: int) -> ProcessException:
        for i in range(self.nprocs):
            path = os.path.join(self._workdir, f"error_{i}.txt")
            if os.path.exists(path):
                with open(path) as f:
                    pid, _, trace = f.read().partition("\n")
                msg = f"\n\n-- Process {i} terminated with the following error:\n{trace}"
                return ProcessRaisedException(msg, i, int(pid))
        return ProcessExitedException(f"process 0 terminated with exit code {code}", 0, self._proc.pid,
                                      exit_code=code)


def start_processes(fn: Callable, args: tuple = (), nprocs: int = 1, join: bool = True, daemon: bool = False,
                    start_method: str = "spawn") -> Any:
    """`spawn` (PyTorch's general form; every start method means: new processes under
    ``mpiexec``).

    Example::

        >>> import fgrad.torch.multiprocessing as mp
        >>> callable(mp.start_processes)
        True
    """
    return spawn(fn, args, nprocs, join, daemon, start_method)


def spawn(fn: Callable, args: tuple = (), nprocs: int = 1, join: bool = True, daemon: bool = False,
          start_method: str = "spawn") -> Any:
    """Run ``fn(i, *args)`` on ``nprocs`` new processes, i = 0 .. nprocs - 1 (their MPI ranks),
    started by ``mpiexec``; wait for them with ``join`` (else return a `ProcessContext`).

    Example (not run here: it starts processes)::

        def train(rank, world_size):
            dist.init_process_group("gloo", rank=rank, world_size=world_size)
            ...

        if __name__ == "__main__":
            mp.spawn(train, args=(2,), nprocs=2)

    Example::

        >>> import fgrad.torch.multiprocessing as mp
        >>> callable(mp.spawn)
        True
    """
    if _world.launched_size() > 1:
        raise RuntimeError("torch.multiprocessing.spawn: this process already runs under an MPI launcher "
                           f"with {_world.launched_size()} processes; call fn(rank, ...) directly instead of "
                           "spawning")
    nprocs = int(nprocs)
    if nprocs < 1:
        raise ValueError(f"spawn: nprocs must be at least 1, got {nprocs}")
    launcher = os.environ.get("FGRAD_MPIEXEC", "mpiexec")
    if shutil.which(launcher) is None:
        raise RuntimeError(f"torch.multiprocessing.spawn: {launcher} not found: fgrad's workers are MPI "
                           "processes; install the MPI extra (pip install 'fgrad[mpi]')")
    workdir = tempfile.mkdtemp(prefix="fgrad-spawn-")
    main = sys.modules.get("__main__")
    path = [p for p in sys.path if p]
    with open(os.path.join(workdir, "meta.json"), "w") as f:
        json.dump({"main": getattr(main, "__file__", None), "argv": list(sys.argv)}, f)
    with open(os.path.join(workdir, "job.pkl"), "wb") as f:
        pickle.dump({"fn": fn, "args": tuple(args)}, f)  # by reference, as PyTorch's spawn
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(path)
    cmd = [launcher, "-n", str(nprocs), sys.executable, "-m", "fgrad.torch.multiprocessing._worker", workdir]
    ctx = ProcessContext(subprocess.Popen(cmd, env=env), workdir, nprocs)
    if not join:
        return ctx
    while not ctx.join():
        pass
    return None


def get_all_sharing_strategies() -> set:
    """The tensor sharing strategies there are (``{'file_system'}``: workers are MPI processes).

    Example::

        >>> import fgrad.torch.multiprocessing as mp
        >>> 'file_system' in mp.get_all_sharing_strategies()
        True
    """
    return {"file_system"}


def get_sharing_strategy() -> str:
    """The current sharing strategy (``'file_system'``).

    Example::

        >>> import fgrad.torch.multiprocessing as mp
        >>> isinstance(mp.get_sharing_strategy(), str)
        True
    """
    return "file_system"


def set_sharing_strategy(new_strategy: str) -> None:
    """Choose the sharing strategy (only ``'file_system'``; ValueError otherwise).

    Example::

        >>> import fgrad.torch.multiprocessing as mp
        >>> mp.set_sharing_strategy('file_system')
    """
    if new_strategy not in get_all_sharing_strategies():
        raise ValueError(f"unknown sharing strategy {new_strategy!r}")


__all__ = [n for n in multiprocessing.__all__] + [
    "spawn", "start_processes", "ProcessContext", "ProcessException", "ProcessRaisedException",
    "ProcessExitedException", "get_all_sharing_strategies", "get_sharing_strategy", "set_sharing_strategy"]

