"""The process world: collectives over raw buffers, on MPI (mpi4py) or on one process.

A `Communicator` is a group of processes that run collectives together.  The world one
(`world()`) is created on first use: when the program was started by an MPI launcher
(``mpiexec``, ``srun``; seen in the environment: ``PMI_SIZE``, ``OMPI_COMM_WORLD_SIZE``,
``PMIX_RANK``, ...) it wraps ``mpi4py.MPI.COMM_WORLD``; otherwise the world is this one
process, every collective is the identity, and mpi4py is never imported.  So code written
for many processes runs unchanged on one.

Every collective goes through one place, `Communicator._run`, which

* numbers it (a per-communicator sequence number);
* checks that every process called the same collective (sequence number, operation,
  dtype, shape, root) before running it, and raises `CollectiveMismatchError` naming both
  sides when they disagree, instead of hanging or returning wrong numbers.  By default the
  check is cheap: one 16-byte all-reduce of a 64-bit hash of that fingerprint (the maximum
  of ``h`` and of ``-h`` equal ``h`` and ``-h`` on every process only when all hashes agree);
  only when it fails are the full fingerprints all-gathered to name both sides.  In debug
  mode (`settings.debug`) the full fingerprints are all-gathered every time;
* runs it non-blocking and waits with `settings.timeout` (`CollectiveTimeoutError` when it
  runs out: a process that never arrives does not hang the others forever).

Buffers are NumPy arrays or device buffers of a registered backend (cupy): cupy buffers go
through NCCL (`fgrad.backends.nccl`, created on the first one) when cupy has it, else they are
copied to the host and back explicitly.  This module sits with the backends: it knows raw buffers only.

Example::

    >>> import numpy as np
    >>> w = world()
    >>> w.size >= 1 and 0 <= w.rank < w.size
    True
    >>> single = Communicator(None, 0, 1)     # the one-process world: collectives are the identity
    >>> single.allreduce(np.arange(3.0), "sum")
    array([0., 1., 2.])
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import threading
import time
import traceback
from typing import Any, Callable

import numpy as np

from . import PROCESS_INDEX, backend_of_buffer, to_host
from .nccl import cupy_engine as nccl_factory

# environment variables set by MPI launchers (MPICH/Hydra, Intel MPI, Open MPI, PMIx, MVAPICH)
LAUNCHER_SIZE_VARS = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "MV2_COMM_WORLD_SIZE")
LAUNCHER_RANK_VARS = ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "MV2_COMM_WORLD_RANK")

REDUCTIONS = ("sum", "prod", "max", "min", "band", "bor", "bxor")
BITWISE = ("band", "bor", "bxor")  # integer and bool dtypes only

# point-to-point messages: a header (dtype, shape) on tag P2P_TAG_BASE + 2 * tag, then the
# data on the next tag (tags below P2P_TAG_BASE belong to the collectives' own messages)
P2P_TAG_BASE = 64
_MONITORED_BARRIER_TAG = 5


class DistError(RuntimeError):
    """A failure of the process world (PyTorch's ``torch.distributed.DistError``).

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> issubclass(dist.DistError, RuntimeError)
        True
    """


class DistBackendError(DistError):
    """A failure inside a collective (PyTorch's ``DistBackendError``).

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> issubclass(dist.DistBackendError, dist.DistError)
        True
    """


class DistNetworkError(DistError):
    """A failure of the transport between processes (PyTorch's ``DistNetworkError``).

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> issubclass(dist.DistNetworkError, dist.DistError)
        True
    """


class DistStoreError(DistError):
    """A failure of the key-value store (PyTorch's ``DistStoreError``; fgrad has no store).

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> issubclass(dist.DistStoreError, dist.DistError)
        True
    """


class CollectiveMismatchError(DistBackendError):
    """Processes called different collectives (operation, dtype, shape or root) at the same
    point of the program.

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> issubclass(dist.CollectiveMismatchError, RuntimeError)
        True
    """


class CollectiveTimeoutError(DistBackendError):
    """A collective did not complete within the timeout (another process never joined).

    Example::

        >>> import fgrad.torch.distributed as dist
        >>> issubclass(dist.CollectiveTimeoutError, RuntimeError)
        True
    """


class Settings:
    """Process-wide settings of the collectives.

    * ``debug``: fingerprint every collective and compare it across processes (one small
      extra all-gather per collective).  ``FGRAD_DISTRIBUTED_DEBUG=1`` or PyTorch's
      ``TORCH_DISTRIBUTED_DEBUG=DETAIL`` switch it on at start.
    * ``check``: the cheap mismatch check before every collective (on by default; one
      16-byte all-reduce).  ``FGRAD_DISTRIBUTED_CHECK=0`` switches it off.
    * ``timeout``: seconds a collective may wait for the other processes (None: forever).
      ``FGRAD_DISTRIBUTED_TIMEOUT`` sets it at start (``none``: no timeout, plain blocking
      waits); the default is PyTorch's, 30 minutes.
    * ``abort_grace``: seconds an uncaught exception's process waits, after writing its
      traceback, before it aborts the job, so the launcher forwards the traceback before it
      kills the processes (MPICH's mpiexec can drop the last output of a process that aborts
      at once).  ``FGRAD_DISTRIBUTED_ABORT_GRACE`` sets it at start; default 0.5.
    """

    def __init__(self) -> None:
        self.debug = (os.environ.get("FGRAD_DISTRIBUTED_DEBUG", "") not in ("", "0")
                      or os.environ.get("TORCH_DISTRIBUTED_DEBUG", "").upper() == "DETAIL")
        check = os.environ.get("FGRAD_DISTRIBUTED_CHECK", "1").strip().lower()
        self.check = check not in ("0", "off", "false", "no")
        t = os.environ.get("FGRAD_DISTRIBUTED_TIMEOUT", "").strip().lower()
        self.timeout: float | None = (None if t in ("none", "0", "inf") else float(t)) if t else 1800.0
        grace = os.environ.get("FGRAD_DISTRIBUTED_ABORT_GRACE", "").strip()
        self.abort_grace = float(grace) if grace else 0.5


settings = Settings()


def launched_size() -> int:
    """The number of processes an MPI launcher started (1 when not launched by one)."""
    for var in LAUNCHER_SIZE_VARS:
        v = os.environ.get(var)
        if v:
            try:
                return int(v)
            except ValueError:
                continue
    return 1


def _mpi():
    """mpi4py's MPI module (importing it initializes MPI)."""
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise RuntimeError(
            f"fgrad.distributed: this program was started by an MPI launcher with {launched_size()} "
            "processes, but mpi4py is not installed, so the processes cannot communicate (each would "
            "silently train alone). Install the extra: pip install 'fgrad[mpi]' (mpi4py + mpich)."
        ) from e
    return MPI


# -- fingerprints (debug mode) --------------------------------------------------------------

_OP_CODES = {name: i for i, name in enumerate((
    "all_reduce", "all_gather", "reduce_scatter", "broadcast", "ppermute", "barrier",
    "all_gather_object", "all_to_all", "gather", "scatter", "gather_object", "scatter_object",
    "broadcast_object", "monitored_barrier"))}
_OP_NAMES = {i: name for name, i in _OP_CODES.items()}
_RED_CODES = {name: i for i, name in enumerate(("",) + REDUCTIONS)}
_FP_LEN = 16  # seq, op, reduction, dtype, root, ndim, shape[0:9], crc of the perm


def _fingerprint(seq: int, op: str, red: str, buf, root: int, extra: int) -> np.ndarray:
    fp = np.full(_FP_LEN, -1, np.int64)
    fp[0], fp[1], fp[2], fp[4], fp[5] = seq, _OP_CODES[op], _RED_CODES[red], root, extra
    if buf is not None:
        fp[3] = _dtype_code(buf.dtype)
        fp[6] = len(buf.shape)
        for i, s in enumerate(buf.shape[:_FP_LEN - 7]):
            fp[7 + i] = s
    return fp


def _describe(fp) -> str:
    seq, op, red, dt, root, extra, nd = (int(v) for v in fp[:7])
    name = _OP_NAMES.get(op, f"op#{op}")
    if red > 0:
        name += f"({_RED_CODES_INV[red]})"
    if dt >= 0:
        shape = ",".join(str(int(s)) for s in fp[7:7 + nd])
        dname = _DTYPES[dt].name if dt < len(_DTYPES) else "an unusual dtype"
        name += f" of {dname}[{shape}]"
    if root >= 0:
        name += f" from root {root}"
    return f"collective #{seq}: {name}"


_RED_CODES_INV = {i: name for name, i in _RED_CODES.items()}


_DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                                  "uint64", "float16", "float32", "float64", "complex64", "complex128")]


def _dtype_code(dtype) -> int:
    try:
        return _DTYPES.index(np.dtype(dtype))
    except (ValueError, TypeError):
        return len(_DTYPES)


# -- waiting with a timeout ---------------------------------------------------------------

_SPIN_S = 0.5


def wait(req, what: str) -> None:
    """Complete the MPI request ``req`` within `settings.timeout` seconds."""
    timeout = settings.timeout
    if timeout is None:
        req.Wait()
        return
    if req.Test():
        return
    # spin on Test (it also drives MPI's progress engine, as a blocking call would); only a
    # wait longer than `_SPIN_S` (a process is late) backs off with short sleeps
    start = time.monotonic()
    deadline = start + timeout
    spins = 0
    while not req.Test():
        spins += 1
        if spins & 255:
            continue
        now = time.monotonic()
        if now - start > _SPIN_S:
            time.sleep(1e-4)
        if now > deadline:
            raise CollectiveTimeoutError(
                f"fgrad.distributed: {what} did not complete within {timeout:g} s: another process "
                "never joined it (it raised, hangs, or runs a different sequence of collectives). "
                "Set the timeout with fgrad.distributed.initialize(timeout=...) or "
                "init_process_group(timeout=...); debug mode (FGRAD_DISTRIBUTED_DEBUG=1 / "
                "TORCH_DISTRIBUTED_DEBUG=DETAIL) names mismatched collectives.")


# -- the communicator ---------------------------------------------------------------------

class Communicator:
    """A group of processes.  ``comm`` is an mpi4py communicator, or None for one process.

    Collectives take and return raw buffers (NumPy or a device backend's); results are new
    buffers unless the method says otherwise.
    """

    def __init__(self, comm, rank: int, size: int, ranks: tuple | None = None) -> None:
        self.comm = comm
        self.rank = rank
        self.size = size
        self.ranks = ranks if ranks is not None else tuple(range(size))  # world ranks of members
        self.seq = 0
        self.nccl: Any = None  # NCCL engine for device buffers (None: not tried yet; False: none)

    def __repr__(self) -> str:
        return f"Communicator(rank={self.rank}, size={self.size})"

    # -- the one place every collective goes through ----------------------------------
    def _run(self, op: str, red: str, buf, start: Callable, root: int = -1, extra: int = -1):
        """Number, (in debug mode) check, start and wait for one collective; ``start()``
        returns an MPI request or a list of them."""
        self.seq += 1
        self._verify(op, red, buf, root, extra)
        reqs = start()
        what = f"{op} (collective #{self.seq} on rank {self.rank} of {self.size})"
        if isinstance(reqs, list):
            for r in reqs:
                wait(r, what)
        else:
            wait(reqs, what)

    def _verify(self, op, red, buf, root, extra) -> None:
        """The mismatch check before a collective: full in debug mode, else cheap (unless
        switched off)."""
        if settings.debug:
            self._check(op, red, buf, root, extra)
        elif settings.check and not self._hashes_agree(_fingerprint(self.seq, op, red, buf, root, extra)):
            self._check(op, red, buf, root, extra)  # every process gets here: name both sides

    def _hashes_agree(self, fp: np.ndarray) -> bool:
        """Whether every process's fingerprint hashes to the same 64-bit value: one all-reduce
        (max) of ``[h, -h]``, whose result is ``[h, -h]`` exactly when max(h) == min(h)."""
        h = int.from_bytes(hashlib.blake2b(fp.tobytes(), digest_size=8).digest(), "little", signed=True)
        h = max(h, -(2 ** 63) + 1)  # so that -h fits
        mine = np.array([h, -h], np.int64)
        out = np.empty(2, np.int64)
        wait(self.comm.Iallreduce(mine, out, _mpi().MAX),
             f"the mismatch check of collective #{self.seq} on rank {self.rank}")
        return bool(out[0] == h and out[1] == -h)

    def _check(self, op, red, buf, root, extra) -> None:
        mine = _fingerprint(self.seq, op, red, buf, root, extra)
        allfp = np.empty((self.size, _FP_LEN), np.int64)
        req = self.comm.Iallgather(mine, allfp)
        wait(req, f"the fingerprint of {op} (debug mode, collective #{self.seq} on rank {self.rank})")
        for r in range(self.size):
            if not np.array_equal(allfp[r], mine):
                raise CollectiveMismatchError(
                    f"fgrad.distributed: mismatched collectives: rank {self.rank} called "
                    f"{_describe(mine)}, but rank {r} called {_describe(allfp[r])}. Every process "
                    "must call the same collectives, in the same order, with the same dtype and "
                    "shape (and root).")

    # -- device buffers: NCCL ---------------------------------------------------------
    def _engine_for(self, buf, op: str, red: str, root: int = -1):
        """The NCCL engine for a device buffer (created on the first one, collectively), or
        None: host buffers, no NCCL (device buffers then go through the host), or
        ``FGRAD_NCCL=0``.  Collectives it runs are numbered and, in debug mode, checked."""
        if type(buf) is np.ndarray or self.comm is None:
            return None
        if self.nccl is None:
            if os.environ.get("FGRAD_NCCL", "1") == "0" or backend_of_buffer(buf).name != "cupy":
                return None
            self.nccl = nccl_factory(self.comm, self.rank, self.size) or False
        if not self.nccl:
            return None
        self.seq += 1
        self._verify(op, red, buf, root, -1)
        return self.nccl

    # -- buffers ----------------------------------------------------------------------
    @staticmethod
    def _host(buf):
        """(host array, backend or None): device buffers are copied to the host."""
        # np.asarray(order="C"), not np.ascontiguousarray: that turns a 0-d buffer into shape (1,)
        if type(buf) is np.ndarray:
            return np.asarray(buf, order="C"), None
        if np.isscalar(buf):
            return np.asarray(buf), None
        be = backend_of_buffer(buf)
        if be.name == "numpy":
            return np.asarray(buf, order="C"), None
        return np.asarray(to_host(buf), order="C"), be

    @staticmethod
    def _back(arr, be, like):
        if be is None:
            return arr
        return be.from_host(arr, be.device_of(like))

    def _mpi_op(self, red: str, dtype):
        MPI = _mpi()
        if dtype == np.bool_:
            if red in ("max", "sum", "bor"):
                return MPI.LOR
            if red in ("min", "prod", "band"):
                return MPI.LAND
            if red == "bxor":
                return MPI.LXOR
        return {"sum": MPI.SUM, "prod": MPI.PROD, "max": MPI.MAX, "min": MPI.MIN,
                "band": MPI.BAND, "bor": MPI.BOR, "bxor": MPI.BXOR}[red]

    @staticmethod
    def _check_red(red: str, dtype) -> None:
        if red not in REDUCTIONS:
            raise ValueError(f"unknown reduction {red!r}; expected one of {REDUCTIONS}")
        kind = np.dtype(dtype).kind
        if red in ("max", "min") and kind == "c":
            raise TypeError(f"fgrad.distributed: {red} of complex values is not defined "
                            f"(got {np.dtype(dtype).name}); reduce the real and imaginary parts.")
        if red in BITWISE and kind not in "biu":
            raise TypeError(f"fgrad.distributed: the bitwise reduction {red} needs an integer or bool "
                            f"dtype, got {np.dtype(dtype).name}")

    # -- collectives -----------------------------------------------------------------
    def allreduce(self, buf, red: str = "sum"):
        """Elementwise reduction (``sum``, ``prod``, ``max``, ``min``) over the processes."""
        self._check_red(red, buf.dtype)
        if self.size == 1:
            return buf
        eng = self._engine_for(buf, "all_reduce", red)
        if eng is not None:
            return eng.allreduce(buf, red)
        x, be = self._host(buf)
        out = np.empty_like(x)
        op = self._mpi_op(red, x.dtype)
        self._run("all_reduce", red, x, lambda: self.comm.Iallreduce(x, out, op))
        return self._back(out, be, buf)

    def allreduce_inplace(self, arr: np.ndarray, red: str = "sum", start_only: bool = False):
        """Reduce the C-contiguous host array ``arr`` into itself.  With ``start_only`` the
        request is returned unfinished (``wait(req, ...)`` completes it)."""
        self._check_red(red, arr.dtype)
        if self.size == 1:
            return None
        MPI = _mpi()
        op = self._mpi_op(red, arr.dtype)
        if start_only:
            self.seq += 1
            self._verify("all_reduce", red, arr, -1, -1)
            return self.comm.Iallreduce(MPI.IN_PLACE, arr, op)
        self._run("all_reduce", red, arr, lambda: self.comm.Iallreduce(MPI.IN_PLACE, arr, op))
        return None

    def allgather(self, buf):
        """The processes' buffers stacked along a new leading axis (``size`` long)."""
        if self.size == 1:
            return buf[None]
        eng = self._engine_for(buf, "all_gather", "")
        if eng is not None:
            return eng.allgather(buf)
        x, be = self._host(buf)
        out = np.empty((self.size,) + x.shape, x.dtype)
        self._run("all_gather", "", x, lambda: self.comm.Iallgather(x, out))
        return self._back(out, be, buf)

    def reduce_scatter(self, buf, red: str = "sum"):
        """``buf`` (leading axis ``size * k``) reduced over the processes; process i gets
        rows ``i*k:(i+1)*k``."""
        self._check_red(red, buf.dtype)
        n = buf.shape[0] if buf.ndim else 0
        if buf.ndim == 0 or n % self.size:
            raise ValueError(f"fgrad.distributed: reduce_scatter needs a leading axis divisible by the "
                             f"number of processes ({self.size}); got shape {tuple(buf.shape)}")
        if self.size == 1:
            return buf
        eng = self._engine_for(buf, "reduce_scatter", red)
        if eng is not None:
            return eng.reduce_scatter(buf, red)
        x, be = self._host(buf)
        out = np.empty((n // self.size,) + x.shape[1:], x.dtype)
        op = self._mpi_op(red, x.dtype)
        self._run("reduce_scatter", red, x, lambda: self.comm.Ireduce_scatter_block(x, out, op))
        return self._back(out, be, buf)

    def broadcast(self, buf, root: int = 0):
        """Process ``root``'s buffer on every process."""
        self._check_root(root)
        if self.size == 1:
            return buf
        eng = self._engine_for(buf, "broadcast", "", root)
        if eng is not None:
            return eng.broadcast(buf, root)
        x, be = self._host(buf)
        out = x.copy() if self.rank == root else np.empty_like(x)
        self._run("broadcast", "", x, lambda: self.comm.Ibcast(out, root), root=root)
        return self._back(out, be, buf)

    def permute(self, buf, perm: tuple):
        """JAX's ``ppermute``: ``perm`` is a tuple of (source, destination) pairs; each
        destination gets its source's buffer, processes that are no destination get zeros."""
        srcs = [s for s, _ in perm]
        dsts = [d for _, d in perm]
        if len(set(srcs)) != len(srcs) or len(set(dsts)) != len(dsts) or not all(
                0 <= r < self.size for r in srcs + dsts):
            raise ValueError(f"ppermute: perm must be (source, destination) pairs of distinct process "
                             f"indices below {self.size}; got {perm}")
        x, be = self._host(buf)
        out = np.zeros_like(x)
        if self.size == 1:
            if perm:
                out = x.copy()
            return self._back(out, be, buf)
        me = self.rank

        def start():
            reqs = []
            for s, d in perm:
                if s == me:
                    if d == me:
                        out[...] = x
                    else:
                        reqs.append(self.comm.Isend(x, dest=d, tag=7))
                if d == me and s != me:
                    reqs.append(self.comm.Irecv(out, source=s, tag=7))
            return reqs

        self._run("ppermute", "", x, start, extra=hash(tuple(perm)) & 0x7FFFFFFF)
        return self._back(out, be, buf)

    def barrier(self) -> None:
        """Wait until every process arrives."""
        if self.size == 1:
            return
        self._run("barrier", "", None, lambda: self.comm.Ibarrier())

    def gather(self, buf, root: int = 0):
        """The processes' buffers stacked along a new leading axis on process ``root``
        (``size`` long); None on the others."""
        self._check_root(root)
        if self.size == 1:
            return buf[None]
        x, be = self._host(buf)
        out = np.empty((self.size,) + x.shape, x.dtype) if self.rank == root else None
        self._run("gather", "", x, lambda: self.comm.Igather(x, out, root), root=root)
        return None if out is None else self._back(out, be, buf)

    def scatter(self, stacked, like, root: int = 0):
        """Block i of ``stacked`` (leading axis ``size``; given on process ``root`` only) on
        process i; ``like`` is this process's block (its shape and dtype)."""
        self._check_root(root)
        x, be = self._host(like)
        if self.rank == root:
            src, _ = self._host(stacked)
            if src.shape != (self.size,) + x.shape or src.dtype != x.dtype:
                raise ValueError(f"fgrad.distributed: scatter from root {root} needs {self.size} blocks of "
                                 f"{x.dtype.name}{list(x.shape)}; got {src.dtype.name}{list(src.shape)}")
            if self.size == 1:
                return self._back(src[0].copy(), be, like)
        else:
            src = None
        out = np.empty_like(x)
        self._run("scatter", "", out, lambda: self.comm.Iscatter(src, out, root), root=root)
        return self._back(out, be, like)

    def alltoall(self, buf, send_rows=None, recv_rows=None, recv_shape=None):
        """All-to-all along the leading axis: process i sends rows ``send_rows[j]`` (in order)
        to process j and receives ``recv_rows[j]`` rows from each j, concatenated in rank order.
        Without row counts the leading axis splits into ``size`` equal blocks.  Counts that
        disagree between sender and receiver raise `CollectiveMismatchError` on every process."""
        x, be = self._host(buf)
        n = self.size
        if x.ndim == 0:
            raise ValueError("fgrad.distributed: all_to_all needs at least one dimension; got a scalar")
        row = x.shape[1:]
        if send_rows is None:
            if x.shape[0] % n:
                raise ValueError(f"fgrad.distributed: all_to_all needs an input leading axis divisible by "
                                 f"the number of processes ({n}); got shape {tuple(x.shape)}")
            send_rows = [x.shape[0] // n] * n
        if recv_rows is None:
            m = x.shape[0] if recv_shape is None else recv_shape[0]
            if m % n:
                raise ValueError(f"fgrad.distributed: all_to_all needs an output leading axis divisible by "
                                 f"the number of processes ({n}); got {m} rows")
            recv_rows = [m // n] * n
        send_rows = [int(c) for c in send_rows]
        recv_rows = [int(c) for c in recv_rows]
        if len(send_rows) != n or len(recv_rows) != n or sum(send_rows) != x.shape[0] or min(
                send_rows + recv_rows) < 0:
            raise ValueError(f"fgrad.distributed: all_to_all split sizes must be {n} non-negative counts "
                             f"summing to the leading axis ({x.shape[0]}); got {send_rows} (send), "
                             f"{recv_rows} (receive)")
        out = np.empty((sum(recv_rows),) + row, x.dtype)
        mine = np.array(send_rows + recv_rows, np.int64)
        if n == 1:
            counts = mine[None]
        else:
            # every process learns every count, so all reach the same verdict (no one is left
            # waiting in the exchange when counts disagree)
            self.seq += 1
            self._verify("all_to_all", "", x[:0], -1, -1)
            counts = np.empty((n, 2 * n), np.int64)
            wait(self.comm.Iallgather(mine, counts),
                 f"the counts of all_to_all #{self.seq} on rank {self.rank}")
        sent, received = counts[:, :n], counts[:, n:]
        bad = [(i, j) for i in range(n) for j in range(n) if sent[i, j] != received[j, i]]
        if bad:
            i, j = bad[0]
            raise CollectiveMismatchError(
                f"fgrad.distributed: mismatched all_to_all (collective #{self.seq}): rank {i} sends "
                f"{sent[i, j]} rows to rank {j}, but rank {j} expects {received[j, i]} rows from rank {i}. "
                "Each process's output split sizes must equal the input split sizes the others use for it.")
        if n == 1:
            out[...] = x
            return self._back(out, be, buf)
        width = int(np.prod(row, dtype=np.int64))
        sc = np.array(send_rows, np.int64) * width
        rc = np.array(recv_rows, np.int64) * width
        sd = np.concatenate([[0], np.cumsum(sc)[:-1]])
        rd = np.concatenate([[0], np.cumsum(rc)[:-1]])
        req = self.comm.Ialltoallv([x, (sc, sd)], [out, (rc, rd)])
        wait(req, f"all_to_all (collective #{self.seq} on rank {self.rank} of {n})")
        return self._back(out, be, buf)

    # -- point to point ----------------------------------------------------------------
    def _p2p_tags(self, tag: int) -> tuple:
        t = P2P_TAG_BASE + 2 * int(tag)
        ub = self.comm.Get_attr(_mpi().TAG_UB) if self.comm is not None else 2 ** 29
        if tag < 0 or t + 1 > ub:
            raise ValueError(f"fgrad.distributed: tag {tag} is out of range: tags must lie in "
                             f"[0, {(ub - 1 - P2P_TAG_BASE) // 2}] with this MPI")
        return t, t + 1

    @staticmethod
    def _header(arr: np.ndarray) -> np.ndarray:
        h = np.full(_FP_LEN, -1, np.int64)
        h[0], h[1], h[2], h[_FP_LEN - 1] = _dtype_code(arr.dtype), arr.size, arr.ndim, arr.nbytes
        for i, s in enumerate(arr.shape[:_FP_LEN - 4]):
            h[3 + i] = s
        return h

    @staticmethod
    def _header_text(h) -> str:
        dt, nd = int(h[0]), int(h[2])
        dname = _DTYPES[dt].name if dt < len(_DTYPES) else "an unusual dtype"
        return f"{dname}[{','.join(str(int(v)) for v in h[3:3 + nd])}]"

    def isend(self, arr: np.ndarray, dest: int, tag: int = 0) -> list:
        """Start sending the C-contiguous host array ``arr`` to process ``dest``: its header
        (dtype, shape) and its data.  Returns ``[header request, data request, header, arr]``
        (holding the list keeps the buffers alive until the requests complete)."""
        self._check_peer(dest, "destination")
        htag, dtag = self._p2p_tags(tag)
        head = self._header(arr)
        MPI = _mpi()
        # the data travels as bytes: a receive posted with another dtype must not make MPI
        # unpack a message of the wrong type (MPICH asserts on that); the header checks the type
        return [self.comm.Isend(head, dest=dest, tag=htag),
                self.comm.Isend([arr, MPI.BYTE], dest=dest, tag=dtag), head, arr]  # buffers kept alive

    def irecv(self, out: np.ndarray, source: int | None = None, tag: int = 0) -> "Receive":
        """Start receiving into the C-contiguous host array ``out`` from ``source`` (None: any
        process).  The returned `Receive` checks the sender's dtype and size against ``out``."""
        if source is not None:
            self._check_peer(source, "source")
        return Receive(self, out, source, tag)

    def _check_peer(self, peer: int, what: str) -> None:
        if not 0 <= peer < self.size:
            raise ValueError(f"fgrad.distributed: {what} rank {peer} is not a process of this group "
                             f"(size {self.size})")

    def monitored_barrier(self, timeout: float, wait_all_ranks: bool = False) -> None:
        """A barrier through process 0 that names the processes that did not arrive within
        ``timeout`` seconds (all of them with ``wait_all_ranks``, else the first)."""
        if self.size == 1:
            return
        self.seq += 1
        token = np.zeros(1, np.int64)
        tag = _MONITORED_BARRIER_TAG
        deadline = time.monotonic() + timeout
        if self.rank != 0:
            sent = self.comm.Isend(token, dest=0, tag=tag)
            if not _test_until(self.comm.Irecv(token, source=0, tag=tag), deadline):
                raise RuntimeError(f"Rank {self.rank} failed to pass monitoredBarrier in "
                                   f"{timeout * 1000:.0f} ms: rank 0 did not release it")
            sent.Wait()
            return
        reqs = {r: self.comm.Irecv(np.zeros(1, np.int64), source=r, tag=tag) for r in range(1, self.size)}
        missing = []
        for r, req in reqs.items():
            if not _test_until(req, deadline):
                missing.append(r)
                if not wait_all_ranks:
                    break
        if missing:
            who = (f"Ranks {', '.join(map(str, missing))}" if len(missing) > 1 else f"Rank {missing[0]}")
            raise RuntimeError(f"{who} failed to pass monitoredBarrier in {timeout * 1000:.0f} ms")
        for r in range(1, self.size):
            self.comm.Send(token, dest=r, tag=tag)

    # -- Python objects (pickled bytes, through the checked buffer collectives) ---------
    def allgather_object(self, obj) -> list:
        """Python objects (pickled) from every process, in rank order."""
        if self.size == 1:
            return [obj]
        data = _pickled(obj)
        sizes = self.allgather(np.array([data.size], np.int64))[:, 0]
        buf = np.zeros(int(sizes.max()), np.uint8)
        buf[:data.size] = data
        blocks = self.allgather(buf)
        return [_unpickled(blocks[i, :sizes[i]]) for i in range(self.size)]

    def gather_object(self, obj, root: int = 0) -> list | None:
        """Python objects (pickled) from every process on process ``root``, in rank order;
        None on the others."""
        if self.size == 1:
            return [obj]
        data = _pickled(obj)
        sizes = self.allgather(np.array([data.size], np.int64))[:, 0]
        buf = np.zeros(int(sizes.max()), np.uint8)
        buf[:data.size] = data
        blocks = self.gather(buf, root)
        if blocks is None:
            return None
        return [_unpickled(blocks[i, :sizes[i]]) for i in range(self.size)]

    def scatter_object(self, objs, root: int = 0):
        """Object i of ``objs`` (a sequence given on process ``root``) on process i."""
        self._check_root(root)
        if self.rank == root:
            if objs is None or len(objs) != self.size:
                raise ValueError(f"fgrad.distributed: scatter_object from root {root} needs {self.size} "
                                 f"objects, got {None if objs is None else len(objs)}")
            if self.size == 1:
                return objs[0]
            datas = [_pickled(o) for o in objs]
            sizes = np.array([d.size for d in datas], np.int64)
        else:
            sizes = np.zeros(self.size, np.int64)
        sizes = self.broadcast(sizes, root)
        width = int(sizes.max())
        stacked = None
        if self.rank == root:
            stacked = np.zeros((self.size, width), np.uint8)
            for i, d in enumerate(datas):
                stacked[i, :d.size] = d
        mine = self.scatter(stacked, np.zeros(width, np.uint8), root)
        return _unpickled(mine[:sizes[self.rank]])

    def broadcast_object(self, obj, root: int = 0):
        """Process ``root``'s Python object on every process."""
        self._check_root(root)
        if self.size == 1:
            return obj
        data = _pickled(obj) if self.rank == root else None
        size = self.broadcast(np.array([0 if data is None else data.size], np.int64), root)
        buf = data if data is not None else np.zeros(int(size[0]), np.uint8)
        return _unpickled(self.broadcast(buf, root))

    def _check_root(self, root: int) -> None:
        if not 0 <= root < self.size:
            raise ValueError(f"fgrad.distributed: root {root} is not a process of this group "
                             f"(size {self.size})")

    def split(self, ranks: tuple) -> "Communicator | None":
        """A communicator over the world ranks ``ranks`` (called by every process of this
        one); None on processes outside it."""
        ranks = tuple(ranks)
        if self.size == 1 or self.comm is None:
            return Communicator(None, 0, 1, ranks) if self.rank in ranks or not ranks else None
        self.seq += 1
        MPI = _mpi()
        group = self.comm.Get_group().Incl(list(ranks))
        sub = self.comm.Create(group)
        if sub == MPI.COMM_NULL:
            return None
        return Communicator(sub, sub.Get_rank(), sub.Get_size(), ranks)

    def abort(self, code: int = 1) -> None:
        """End every process of the job now (MPI_Abort); on one process, exit."""
        if self.comm is None:
            os._exit(code)
        self.comm.Abort(code)


def _pickled(obj) -> np.ndarray:
    return np.frombuffer(pickle.dumps(obj), np.uint8)


def _unpickled(buf: np.ndarray):
    # pickle between the job's own processes only: PyTorch's object collectives' semantics
    return pickle.loads(np.ascontiguousarray(buf).tobytes())  # noqa: S301


def _test_until(req, deadline: float) -> bool:
    """Whether the MPI request ``req`` completes before ``deadline`` (time.monotonic)."""
    while not req.Test():
        if time.monotonic() > deadline:
            req.Cancel()
            req.Wait()
            return False
        time.sleep(1e-4)
    return True


class Receive:
    """A point-to-point receive in flight (`Communicator.irecv`): the header (the sender's
    dtype and shape) first, checked against the output, then the data.  With a known source
    both are posted at once, so a batch of sends and receives cannot deadlock."""

    def __init__(self, comm: Communicator, out: np.ndarray, source: int | None, tag: int) -> None:
        self.comm, self.out, self.tag = comm, out, tag
        self.htag, self.dtag = comm._p2p_tags(tag)
        self.head = np.empty(_FP_LEN, np.int64)
        self.status = _mpi().Status()
        any_source = _mpi().ANY_SOURCE if source is None else source
        self.head_req = comm.comm.Irecv(self.head, source=any_source, tag=self.htag)
        self.data_req = None if source is None else comm.comm.Irecv([out, _mpi().BYTE], source=source,
                                                                    tag=self.dtag)
        self.source = source
        self.checked = False

    def _check_header(self) -> None:
        if self.checked:
            return
        self.checked = True
        if self.source is None:
            self.source = self.status.Get_source()
        want = self.comm._header(self.out)
        if int(self.head[0]) != int(want[0]) or int(self.head[1]) != int(want[1]):
            self._drain()
            raise CollectiveMismatchError(
                f"fgrad.distributed: mismatched send/recv (tag {self.tag}): rank {self.source} sent "
                f"{self.comm._header_text(self.head)}, but rank {self.comm.rank} receives into "
                f"{self.comm._header_text(want)}. The receiving tensor must have the sender's dtype and "
                "number of elements.")
        if self.data_req is None:
            self.data_req = self.comm.comm.Irecv([self.out, _mpi().BYTE], source=self.source, tag=self.dtag)

    def _drain(self) -> None:
        """Consume the mismatched message, so that it matches no later receive (MPI reports
        an over-long message as truncated: that error is the mismatch, raised next)."""
        try:
            if self.data_req is None:
                scratch = np.empty(int(self.head[_FP_LEN - 1]), np.uint8)
                self.data_req = self.comm.comm.Irecv([scratch, _mpi().BYTE], source=self.source,
                                                     tag=self.dtag)
            wait(self.data_req, f"recv (tag {self.tag}) on rank {self.comm.rank}")
        except _mpi().Exception:
            pass

    def test(self) -> bool:
        """Whether the message has arrived (raises on a mismatch)."""
        if not self.checked:
            if not self.head_req.Test(self.status):
                return False
            self._check_header()
        return bool(self.data_req.Test())

    def wait(self) -> int:
        """Complete the receive; returns the sender's rank."""
        what = f"recv (tag {self.tag}) on rank {self.comm.rank}"
        if not self.checked:
            if settings.timeout is None:
                self.head_req.Wait(self.status)
            else:
                wait(_WithStatus(self.head_req, self.status), what)
            self._check_header()
        wait(self.data_req, what)
        return int(self.source)


class _WithStatus:
    """An MPI request whose Test/Wait fill ``status`` (for the source of an any-source receive)."""

    def __init__(self, req, status) -> None:
        self.req, self.status = req, status

    def Test(self) -> bool:  # noqa: N802 - MPI's name
        return self.req.Test(self.status)

    def Wait(self) -> None:  # noqa: N802 - MPI's name
        self.req.Wait(self.status)


# -- the world ----------------------------------------------------------------------------

_lock = threading.Lock()
_world: Communicator | None = None


def world() -> Communicator:
    """The world communicator, created on first use (see the module docstring)."""
    w = _world
    if w is not None:
        return w
    return initialize()


def initialize(force_mpi: bool = False) -> Communicator:
    """Create the world (idempotent): MPI's when launched by an MPI launcher (or
    ``force_mpi``), else the one-process world."""
    global _world
    with _lock:
        if _world is not None:
            return _world
        if force_mpi or launched_size() > 1:
            MPI = _mpi()
            comm = MPI.COMM_WORLD
            w = Communicator(comm, comm.Get_rank(), comm.Get_size())
            if w.size > 1:
                install_abort_on_exception()
        else:
            w = Communicator(None, 0, 1)
        _world = w
        return w


def is_initialized() -> bool:
    """Whether the world exists already."""
    return _world is not None


PROCESS_INDEX[0] = lambda: world().rank  # what Device.process_index reads for this process's devices


def _reset_for_tests() -> None:
    global _world
    _world = None


# -- faults: one process raises, the whole job ends ------------------------------------------

_previous_hook = None


def _launched_rank() -> str:
    for var in LAUNCHER_RANK_VARS:
        v = os.environ.get(var)
        if v:
            return v
    return "?"


def install_abort_on_exception() -> None:
    """An uncaught exception on any process prints that process's traceback (each line
    prefixed by its rank) and aborts the whole job (``MPI_Abort``), so the other processes do
    not hang in their next collective.  Installed by ``import fgrad`` under an MPI launcher
    (an exception before the world exists initializes MPI just to abort it) and by
    `initialize`.  Idempotent."""
    global _previous_hook
    if _previous_hook is not None:
        return
    _previous_hook = sys.excepthook

    def hook(etype, value, tb):
        w = _world
        rank = str(w.rank) if w is not None and w.comm is not None else _launched_rank()
        try:
            text = "".join(traceback.format_exception(etype, value, tb))
            prefix = f"[rank {rank}] "
            sys.stderr.write("".join(prefix + line + "\n" for line in text.rstrip("\n").split("\n")))
            sys.stderr.write(f"[rank {rank}] fgrad.distributed: uncaught exception; aborting all "
                             f"{launched_size()} processes (MPI_Abort)\n")
            sys.stderr.flush()
            sys.stdout.flush()
            time.sleep(max(settings.abort_grace, 0.0))
        finally:
            if w is not None and w.comm is not None:
                w.abort(1)
            try:
                _mpi().COMM_WORLD.Abort(1)
            finally:
                os._exit(1)

    sys.excepthook = hook


__all__ = ["Communicator", "CollectiveMismatchError", "CollectiveTimeoutError", "DistError",
           "DistBackendError", "DistNetworkError", "DistStoreError", "settings", "world",
           "initialize", "is_initialized", "launched_size", "install_abort_on_exception", "wait"]
