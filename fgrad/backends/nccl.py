"""Collectives on GPU buffers through NCCL (``cupy.cuda.nccl``), set up over MPI.

Process 0 creates an NCCL unique id, MPI broadcasts it, and every process joins the NCCL
communicator with its MPI rank (as ChainerMN did).  Each collective then runs on the current
CUDA stream between device buffers, without a copy through the host.  `NcclEngine` takes the
``nccl`` module as an argument so its logic (the id exchange, dtype and reduction codes,
pointers, counts, output shapes) is tested against a stand-in without a GPU
(tests/test_distributed.py); it has not yet run on several real GPUs.

Example::

    >>> from fgrad.backends.nccl import NCCL_DTYPES
    >>> "float64" in NCCL_DTYPES
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np

# numpy dtype name -> cupy.cuda.nccl constant name
NCCL_DTYPES = {"int8": "NCCL_INT8", "uint8": "NCCL_UINT8", "int32": "NCCL_INT32", "uint32": "NCCL_UINT32",
               "int64": "NCCL_INT64", "uint64": "NCCL_UINT64", "float16": "NCCL_FLOAT16",
               "float32": "NCCL_FLOAT32", "float64": "NCCL_FLOAT64"}
NCCL_OPS = {"sum": "NCCL_SUM", "prod": "NCCL_PROD", "max": "NCCL_MAX", "min": "NCCL_MIN"}


def _ptr(buf) -> int:
    """The device address of a buffer (cupy: ``.data.ptr``; host stand-ins: ``.ctypes.data``)."""
    data = getattr(buf, "data", None)
    ptr = getattr(data, "ptr", None)
    return int(ptr) if ptr is not None else int(buf.ctypes.data)


class NcclEngine:
    """An NCCL communicator over the processes of an MPI communicator ``mpi_comm`` (an
    mpi4py communicator: only its ``bcast`` is used, once)."""

    def __init__(self, mpi_comm, rank: int, size: int, nccl: Any, xp: Any, stream_ptr=None) -> None:
        self.nccl = nccl
        self.xp = xp
        self.rank, self.size = rank, size
        uid = nccl.get_unique_id() if rank == 0 else None
        uid = mpi_comm.bcast(uid, root=0)
        self.comm = nccl.NcclCommunicator(size, uid, rank)
        self._stream_ptr = stream_ptr

    def _stream(self) -> int:
        if self._stream_ptr is not None:
            return self._stream_ptr()
        return self.xp.cuda.get_current_stream().ptr

    def _dtype(self, buf) -> int:
        name = NCCL_DTYPES.get(np.dtype(buf.dtype).name)
        if name is None:
            raise TypeError(f"fgrad.distributed: NCCL has no type for {np.dtype(buf.dtype).name} "
                            f"(supported: {', '.join(NCCL_DTYPES)})")
        return getattr(self.nccl, name)

    def _op(self, red: str) -> int:
        return getattr(self.nccl, NCCL_OPS[red])

    def allreduce(self, buf, red: str):
        x = self.xp.ascontiguousarray(buf)
        out = self.xp.empty_like(x)
        self.comm.allReduce(_ptr(x), _ptr(out), x.size, self._dtype(x), self._op(red), self._stream())
        return out

    def allgather(self, buf):
        x = self.xp.ascontiguousarray(buf)
        out = self.xp.empty((self.size,) + tuple(x.shape), x.dtype)
        self.comm.allGather(_ptr(x), _ptr(out), x.size, self._dtype(x), self._stream())
        return out

    def reduce_scatter(self, buf, red: str):
        x = self.xp.ascontiguousarray(buf)
        out = self.xp.empty((x.shape[0] // self.size,) + tuple(x.shape[1:]), x.dtype)
        self.comm.reduceScatter(_ptr(x), _ptr(out), out.size, self._dtype(x), self._op(red), self._stream())
        return out

    def broadcast(self, buf, root: int):
        x = self.xp.ascontiguousarray(buf)
        out = x.copy() if self.rank == root else self.xp.empty_like(x)
        self.comm.broadcast(_ptr(out), _ptr(out), out.size, self._dtype(out), root, self._stream())
        return out


def cupy_engine(mpi_comm, rank: int, size: int) -> NcclEngine | None:
    """An engine on cupy's NCCL, or None when cupy or its NCCL bindings are missing."""
    try:
        import cupy
        from cupy.cuda import nccl
    except Exception:  # noqa: BLE001 - any failure: no NCCL, collectives go through the host
        return None
    return NcclEngine(mpi_comm, rank, size, nccl, cupy)


__all__ = ["NcclEngine", "cupy_engine", "NCCL_DTYPES", "NCCL_OPS"]
