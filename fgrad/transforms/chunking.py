"""Chunked Jacobians: ``chunk_size=`` and ``memory_budget=`` of `jacfwd`/`jacrev`/`hessian`.

A Jacobian is one derivative per *basis vector* (a row of the identity): `jacrev` pulls back
one cotangent per output element, `jacfwd` pushes forward one tangent per input element, and
both batch them with `vmap`.  Batching all ``n`` of them at once multiplies the memory of
every intermediate that depends on the basis vector by ``n``.  `map_basis` runs them in
chunks of ``chunk_size`` rows instead (each chunk vmapped, a chunk of one a plain call, as
``torch.func``'s ``chunk_size=1``), and concatenates the chunks.

``memory_budget`` (bytes, or a string such as ``"2GB"``/``"512MiB"``) picks the chunk:

    chunk_size = max(1, memory_budget // row_bytes)

where ``row_bytes`` is an upper bound of what one more row costs while a chunk runs: the
bytes of the basis row plus the bytes of every value that one row's derivative program
computes from it (found by tracing that program once, abstractly; values that do not depend
on the row, like the forward pass, are computed once per chunk and not counted; values
inside control-flow bodies are all counted).  The bound assumes every such value is alive
at once, so a chunk's working memory stays within the budget.  The Jacobian itself
(``n_out * n_in`` elements, what was asked for) is not part of the budget.

Example::

    >>> from fgrad.transforms.chunking import parse_memory_budget
    >>> parse_memory_budget("2GB", "jacrev"), parse_memory_budget("1KiB", "jacrev")
    (2000000000, 1024)
"""

from __future__ import annotations

import re
import warnings
from typing import Callable, Sequence

import numpy as np

from ..core.array import get_aval
from ..core.constants import constant_like
from ..core.ir import Jaxpr, Var
from ..core.trace import new_trace, origin
from ..ops.structural import concatenate
from ..ops.shape import expand_dims, moveaxis
from ..tree_util import flatten_arrays as tree_flatten, map_arrays as tree_map, tree_unflatten
from .batching import vmap
from .staging import StagingTrace

_UNITS = {"": 1, "b": 1, "kb": 10 ** 3, "mb": 10 ** 6, "gb": 10 ** 9, "tb": 10 ** 12,
          "kib": 2 ** 10, "mib": 2 ** 20, "gib": 2 ** 30, "tib": 2 ** 40,
          "k": 10 ** 3, "m": 10 ** 6, "g": 10 ** 9, "t": 10 ** 12}
_BUDGET = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*([a-zA-Z]*)\s*$")


def parse_memory_budget(budget, name: str) -> int:
    """Bytes from ``budget``: a positive int, or a string with a unit (``"2GB"`` = 2e9,
    ``"2GiB"`` = 2 * 2**30; kB/MB/GB/TB are decimal, KiB/MiB/GiB/TiB binary).

    Example::

        >>> parse_memory_budget(4096, "jacfwd"), parse_memory_budget("1.5 MB", "jacfwd")
        (4096, 1500000)
    """
    if isinstance(budget, str):
        m = _BUDGET.match(budget)
        unit = m.group(2).lower() if m else None
        if m is None or unit not in _UNITS:
            raise ValueError(
                f"{name}: memory_budget={budget!r} is not a size; give bytes as an int or a "
                "string like '2GB', '512MiB', '64kB' (kB/MB/GB/TB decimal, KiB/MiB/GiB/TiB binary)")
        value = int(float(m.group(1)) * _UNITS[unit])
    elif isinstance(budget, (int, np.integer)) and not isinstance(budget, bool):
        value = int(budget)
    else:
        raise TypeError(f"{name}: memory_budget must be an int (bytes) or a string like '2GB', "
                        f"got {type(budget).__name__} {budget!r}")
    if value <= 0:
        raise ValueError(f"{name}: memory_budget must be positive, got {budget!r}")
    return value


def check_chunking(name: str, chunk_size, memory_budget) -> int | None:
    """Validate the arguments when the transform is made; returns the budget in bytes."""
    if chunk_size is not None:
        if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)):
            raise TypeError(f"{name}: chunk_size must be an int or None, got "
                            f"{type(chunk_size).__name__} {chunk_size!r}")
        if chunk_size <= 0:
            raise ValueError(f"{name}: chunk_size must be greater than 0 (or None: all rows at "
                             f"once), got {chunk_size}")
        if memory_budget is not None:
            raise ValueError(f"{name}: give chunk_size or memory_budget, not both (memory_budget "
                             "picks the chunk size)")
    return None if memory_budget is None else parse_memory_budget(memory_budget, name)


def basis_rows(flat: Sequence, start: int, stop: int) -> list:
    """Rows ``start:stop`` of the identity over the concatenated flat leaves of ``flat``:
    one array ``(stop - start, *leaf.shape)`` per leaf, on the leaf's device (only these
    rows are made, never the whole identity)."""
    avals = [get_aval(x) for x in flat]
    sizes = [int(np.prod(av.shape, dtype=np.int64)) for av in avals]
    n = sum(sizes)
    dtype = np.result_type(*[av.dtype for av in avals]) if flat else np.float64
    rows = np.zeros((stop - start, n), dtype=dtype)
    rows[np.arange(stop - start), np.arange(start, stop)] = 1
    out, off = [], 0
    for x, av, s in zip(flat, avals, sizes):
        part = rows[:, off:off + s].reshape((stop - start,) + av.shape).astype(av.dtype)
        out.append(constant_like(part, x))
        off += s
    return out


def _nbytes(aval) -> int:
    return int(np.prod(aval.shape, dtype=np.int64)) * np.dtype(aval.dtype).itemsize


def _sub_jaxprs(params) -> list:
    found = []
    for v in params.values():
        for item in (v if isinstance(v, (tuple, list)) else (v,)):
            if isinstance(item, Jaxpr):
                found.append(item)
            elif isinstance(getattr(item, "jaxpr", None), Jaxpr):
                found.append(item.jaxpr)
    return found


def _all_bytes(jaxpr: Jaxpr) -> int:
    total = 0
    for e in jaxpr.eqns:
        total += sum(_nbytes(v.aval) for v in e.outvars)
        for sub in _sub_jaxprs(e.params):
            total += _all_bytes(sub)
    return total


def _dependent_bytes(jaxpr: Jaxpr) -> int:
    """Bytes of the values computed from the program's inputs (not from constants only)."""
    live = {id(v) for v in jaxpr.invars}
    total = 0
    for e in jaxpr.eqns:
        if any(type(v) is Var and id(v) in live for v in e.invars):
            live.update(id(v) for v in e.outvars)
            total += sum(_nbytes(v.aval) for v in e.outvars)
            for sub in _sub_jaxprs(e.params):
                total += _all_bytes(sub)
    return total


def row_bytes(row_fn: Callable, row: Sequence) -> int:
    """Upper bound of the memory one basis row costs in a batched chunk of ``row_fn``: the
    row's bytes plus those of every value ``row_fn`` computes from it (traced abstractly)."""
    with new_trace(StagingTrace, origin("jacobian memory estimate"), partial=False) as trace:
        args = [trace.new_arg(get_aval(r)) for r in row]
        outs, _ = tree_flatten(row_fn(*args))
        jaxpr, _ = trace.to_jaxpr(outs)
    return sum(_nbytes(get_aval(r)) for r in row) + _dependent_bytes(jaxpr)


def map_basis(name: str, row_fn: Callable, flat: Sequence, chunk_size: int | None,
              budget: int | None, out_axes=0, aux: bool = False,
              estimate_fn: Callable | None = None):
    """``vmap(row_fn, out_axes=out_axes)`` over the rows of the identity on the flat leaves
    ``flat``, in chunks (see the module docstring).  With ``aux`` the function returns
    ``(batched, aux)``: ``aux`` is not batched and is taken from the first chunk.  The
    budget's row estimate traces ``estimate_fn`` (default ``row_fn``), a function equal to
    ``row_fn`` that keeps no state between calls."""
    n = sum(int(np.prod(get_aval(x).shape, dtype=np.int64)) for x in flat)
    if budget is not None and n > 0:
        first = [b[0] for b in basis_rows(flat, 0, 1)]
        fn = row_fn if estimate_fn is None else estimate_fn
        per_row = row_bytes((lambda *r: fn(*r)[0]) if aux else fn, first)
        chunk_size = max(1, budget // per_row)
        if budget < per_row:
            warnings.warn(
                f"{name}: memory_budget={budget} bytes is less than the estimated cost of one "
                f"Jacobian row ({per_row} bytes, an upper bound); computing one row at a time",
                stacklevel=3)
    if chunk_size is None or chunk_size >= n or n == 0:
        axes = (out_axes, None) if aux else out_axes
        return vmap(row_fn, out_axes=axes)(*basis_rows(flat, 0, n))
    pieces = []
    aux_value = None
    for start in range(0, n, chunk_size):
        stop = min(start + chunk_size, n)
        basis = basis_rows(flat, start, stop)
        if stop - start == 1:
            first = aux_value is None and aux
            res = row_fn(*[b[0] for b in basis])
            if aux:
                res, a = res
                aux_value = a if first else aux_value
            res = tree_map(lambda x: expand_dims(x, (0,)), res)
        else:
            axes = (0, None) if aux else 0
            res = vmap(row_fn, out_axes=axes)(*basis)
            if aux:
                res, a = res
                aux_value = a if aux_value is None else aux_value
        pieces.append(res)
    flat_pieces = [tree_flatten(p)[0] for p in pieces]
    tree = tree_flatten(pieces[0])[1]
    joined = []
    for leaves in zip(*flat_pieces):
        j = concatenate(list(leaves), 0)
        joined.append(j if out_axes == 0 else moveaxis(j, 0, out_axes))
    out = tree_unflatten(tree, joined)
    return (out, aux_value) if aux else out


__all__ = ["map_basis", "check_chunking", "parse_memory_budget", "basis_rows", "row_bytes"]
