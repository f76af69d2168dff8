"""Contractions with BCOO operands: `bcoo_dot_general` (sparse x dense, dense x sparse,
sparse x sparse), `bcoo_dot_general_sampled` (a dense product evaluated only at given
indices) and the ``@`` of `BCOO`.

Sparse x dense, for one unbatched operand: gather the rows of the dense operand at the
stored elements' contracted indices, multiply each stored value into its row (a
``dot_general`` batched over the stored elements), and scatter-add the products at the
free indices.  Batch dimensions of the sparse operand are mapped with ``vmap`` (paired
with the dense operand's for dot batch dimensions, alone for free ones, paired and then
summed for contracted ones).  The derivatives are the gathers' and scatters' -- a
gather of the cotangent for ``data`` and a scatter-add into the dense operand, JAX's
rules for its ``bcoo_dot_general`` primitive.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

import fgrad.numpy as fnp
from ...ops.linalg import dot_general
from ._batching import broadcast_batch, map_batch
from ._bcoo import BCOO
from ._convert import _extract_unbatched
from ._indices import in_bounds
from ._layout import _sum_duplicates_unbatched

__all__ = ["bcoo_dot_general", "bcoo_dot_general_sampled", "bcoo_matmul"]

DimensionNumbers = tuple[tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]]


def _normalize_dn(dimension_numbers: Any, lhs_ndim: int, rhs_ndim: int, op: str) -> tuple:
    try:
        (lc, rc), (lb, rb) = dimension_numbers
    except (TypeError, ValueError):
        raise TypeError(
            f"{op}: dimension_numbers must be ((lhs_contracting, rhs_contracting), "
            f"(lhs_batch, rhs_batch)); got {dimension_numbers!r}"
        ) from None

    def norm(dims, ndim):
        dims = (dims,) if isinstance(dims, (int, np.integer)) else tuple(dims)
        out = tuple(int(d) % ndim if -ndim <= int(d) < ndim else None for d in dims)
        if None in out:
            raise ValueError(
                f"{op}: dimension_numbers {dimension_numbers!r} out of range for operands of "
                f"rank {lhs_ndim} and {rhs_ndim}"
            )
        return out

    lc, lb = norm(lc, lhs_ndim), norm(lb, lhs_ndim)
    rc, rb = norm(rc, rhs_ndim), norm(rb, rhs_ndim)
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise TypeError(
            f"{op}: dimension_numbers must pair as many lhs as rhs dimensions; got {dimension_numbers!r}"
        )
    return (lc, rc), (lb, rb)


def _check_sizes(lhs_shape, rhs_shape, dn, op: str) -> None:
    (lc, rc), (lb, rb) = dn
    for a, b in zip(lc + lb, rc + rb):
        if lhs_shape[a] != rhs_shape[b]:
            raise TypeError(
                f"{op}: dimension {a} of lhs (shape {tuple(lhs_shape)}) has size {lhs_shape[a]} but "
                f"dimension {b} of rhs (shape {tuple(rhs_shape)}) has size {rhs_shape[b]}"
            )


# ---- sparse x dense --------------------------------------------------------------------------


def _spdense_unbatched(
    data: Any,
    indices: Any,
    rhs: Any,
    *,
    contract_cols: tuple[int, ...],
    free_cols: tuple[int, ...],
    free_shape: tuple[int, ...],
) -> Any:
    """``data (nse, *dense)``, ``indices (nse, n_sparse)``, ``rhs (*contracted, *rhs_free)``
    (contracted axes in ``contract_cols`` order) -> ``(*free_shape, *dense, *rhs_free)``."""
    nse = data.shape[0]
    if contract_cols:
        rows = rhs.at[tuple(indices[:, c] for c in contract_cols)].get(mode="fill", fill_value=0)
    else:
        rows = fnp.broadcast_to(rhs, (nse,) + tuple(rhs.shape))
    prod = dot_general(data, rows, (((), ()), ((0,), (0,))))
    if free_cols:
        out = fnp.zeros(free_shape + tuple(prod.shape[1:]), prod.dtype)
        return out.at[tuple(indices[:, c] for c in free_cols)].add(prod, mode="drop")
    return prod.sum(0)


def _bcoo_dense_dot(lhs: BCOO, rhs: Any, dn: tuple, out_dtype: Any) -> Any:
    (lc, rc), (lb, rb) = dn
    n_batch, n_sparse = lhs.n_batch, lhs.n_sparse
    if any(d >= n_batch for d in lb):
        raise NotImplementedError(
            "bcoo_dot_general batch dimensions must be among the batch dimensions in the "
            f"sparse representation.\ngot lhs_batch={lb}, n_batch={n_batch}"
        )
    if any(d >= n_batch + n_sparse for d in lc):
        raise NotImplementedError("bcoo_dot_general: contracting over dense dimensions.")
    pairs = dict(zip(lc, rc))
    contract_batch = [d for d in lc if d < n_batch]
    contract_sparse = [d for d in lc if d >= n_batch]
    free_batch = [d for d in range(n_batch) if d not in lb and d not in contract_batch]
    free_sparse = [d for d in range(n_batch, n_batch + n_sparse) if d not in contract_sparse]
    batch = lhs.shape[:n_batch]
    data = fnp.asarray(broadcast_batch(lhs.data, batch)).astype(out_dtype)
    indices = broadcast_batch(lhs.indices, batch)
    rhs = fnp.asarray(rhs).astype(out_dtype)
    # lhs batch axes: dot batch, then contracted, then free (free ones innermost: mapped last)
    order = list(lb) + contract_batch + free_batch
    data = fnp.transpose(data, tuple(order) + tuple(range(n_batch, data.ndim)))
    indices = fnp.transpose(indices, tuple(order) + (n_batch, n_batch + 1))
    rhs_free = [d for d in range(rhs.ndim) if d not in rc and d not in rb]
    rhs = fnp.transpose(
        rhs,
        tuple(rb)
        + tuple(pairs[d] for d in contract_batch)
        + tuple(pairs[d] for d in contract_sparse)
        + tuple(rhs_free),
    )
    kernel = map_batch(
        lambda d, i, r: _spdense_unbatched(
            d,
            i,
            r,
            contract_cols=tuple(c - n_batch for c in contract_sparse),
            free_cols=tuple(c - n_batch for c in free_sparse),
            free_shape=tuple(lhs.shape[c] for c in free_sparse),
        ),
        len(free_batch),
        (0, 0, None),
    )
    kernel = map_batch(kernel, len(contract_batch), (0, 0, 0))
    summed = kernel
    if contract_batch:

        def summed(d, i, r):
            return kernel(d, i, r).sum(tuple(range(len(contract_batch))))

    return map_batch(summed, len(lb), (0, 0, 0))(data, indices, rhs)


# ---- sparse x sparse -------------------------------------------------------------------------


def _spsp_unbatched(ldata, lind, rdata, rind, *, lshape, rshape, lc, rc):
    """As JAX: all pairs of stored elements -- the product where the contracted indices agree
    (and both are in bounds), else an explicit zero -- at the concatenated free indices, then
    the duplicates summed (sorted, unique, padding last) into ``min(nl * nr, out size)``
    stored elements (JAX's ``bcoo_spdot_general`` result ``nse``)."""
    nl, nr = ldata.shape[0], rdata.shape[0]
    lfree = [k for k in range(len(lshape)) if k not in lc]
    rfree = [k for k in range(len(rshape)) if k not in rc]
    match = in_bounds(lind, lshape)[:, None] & in_bounds(rind, rshape)[None, :]
    for a, b in zip(lc, rc):
        match = match & (lind[:, a][:, None] == rind[:, b][None, :])
    data = fnp.where(match, ldata[:, None] * rdata[None, :], 0).reshape(nl * nr)
    cols = [fnp.broadcast_to(lind[:, k][:, None], (nl, nr)) for k in lfree]
    cols += [fnp.broadcast_to(rind[:, k][None, :], (nl, nr)) for k in rfree]
    out_shape = tuple([lshape[k] for k in lfree] + [rshape[k] for k in rfree])
    if cols:
        idx = fnp.stack(cols, axis=-1).reshape(nl * nr, len(cols))
        nse = min(nl * nr, math.prod(out_shape))
        return _sum_duplicates_unbatched(data, idx, sparse_shape=out_shape, nse=nse)
    idx = fnp.zeros((1, 0), lind.dtype)
    return data.sum(keepdims=True), idx


def _bcoo_spdot(lhs: BCOO, rhs: BCOO, dn: tuple, out_dtype: Any) -> BCOO:
    (lc, rc), (lb, rb) = dn
    if lhs.n_dense or rhs.n_dense:
        raise NotImplementedError("bcoo_spdot_general with dense dimensions.")
    if tuple(lb) != tuple(range(lhs.n_batch)) or tuple(rb) != tuple(range(rhs.n_batch)):
        raise NotImplementedError(
            "bcoo_spdot_general: batch_dims must correspond to batch dimensions of the "
            "sparse representation (fgrad: all of them, in order)."
        )
    if any(d < lhs.n_batch for d in lc) or any(d < rhs.n_batch for d in rc):
        raise NotImplementedError("bcoo_spdot_general only supports contraction of sparse indices.")
    nb = lhs.n_batch
    batch = lhs.shape[:nb]
    lshape, rshape = lhs.shape[nb:], rhs.shape[rhs.n_batch :]
    fn = map_batch(
        lambda a, b, c, d: _spsp_unbatched(
            a,
            b,
            c,
            d,
            lshape=lshape,
            rshape=rshape,
            lc=tuple(x - nb for x in lc),
            rc=tuple(x - rhs.n_batch for x in rc),
        ),
        nb,
        (0, 0, 0, 0),
    )
    data, indices = fn(
        broadcast_batch(lhs.data, batch).astype(out_dtype),
        broadcast_batch(lhs.indices, batch),
        broadcast_batch(rhs.data, batch).astype(out_dtype),
        broadcast_batch(rhs.indices, batch),
    )
    shape = (
        batch
        + tuple(n for k, n in enumerate(lshape) if k + nb not in lc)
        + tuple(n for k, n in enumerate(rshape) if k + nb not in rc)
    )
    return BCOO((data, indices), shape=shape)


# ---- public ----------------------------------------------------------------------------------


def bcoo_dot_general(
    lhs: BCOO | Any,
    rhs: BCOO | Any,
    *,
    dimension_numbers: DimensionNumbers,
    precision: Any = None,
    preferred_element_type: Any = None,
    out_sharding: Any = None,
) -> BCOO | Any:
    """``lax.dot_general`` with one or both operands BCOO: a dense result when one operand is
    dense, a BCOO result when both are sparse.  The sparse operand's dot batch dimensions must
    be among its batch dimensions, and its contracted dimensions must not be dense (JAX's
    NotImplementedError otherwise).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> A = sparse.BCOO.fromdense(fnp.array([[1., 0.], [0., 2.]]))
        >>> sparse.bcoo_dot_general(A, fnp.array([[1., 2.], [3., 4.]]),
        ...                         dimension_numbers=(((1,), (0,)), ((), ()))).tolist()
        [[1.0, 2.0], [6.0, 8.0]]
    """
    del precision, out_sharding  # fgrad contracts at full precision on one device
    op = "bcoo_dot_general"
    lhs_sparse, rhs_sparse = isinstance(lhs, BCOO), isinstance(rhs, BCOO)
    if not lhs_sparse:
        lhs = fnp.asarray(lhs)
    if not rhs_sparse:
        rhs = fnp.asarray(rhs)
    dn = _normalize_dn(dimension_numbers, len(lhs.shape), len(rhs.shape), op)
    _check_sizes(lhs.shape, rhs.shape, dn, op)
    out_dtype = fnp.result_type(lhs.dtype, rhs.dtype)
    if lhs_sparse and rhs_sparse:
        out = _bcoo_spdot(lhs, rhs, dn, out_dtype)
    elif lhs_sparse:
        out = _bcoo_dense_dot(lhs, rhs, dn, out_dtype)
    elif rhs_sparse:  # dense x sparse: the swapped product, free axes put back in order
        (lc, rc), (lb, rb) = dn
        swapped = _bcoo_dense_dot(rhs, lhs, ((rc, lc), (rb, lb)), out_dtype)
        nb = len(lb)
        n_rhs_free = len(rhs.shape) - len(rc) - nb
        out = fnp.transpose(
            swapped,
            tuple(range(nb))
            + tuple(range(nb + n_rhs_free, swapped.ndim))
            + tuple(range(nb, nb + n_rhs_free)),
        )
    else:
        out = dot_general(lhs.astype(out_dtype), rhs.astype(out_dtype), dn)
    if preferred_element_type is not None:
        out = out.astype(preferred_element_type)
    return out


def bcoo_dot_general_sampled(A: Any, B: Any, indices: Any, *, dimension_numbers: DimensionNumbers) -> Any:
    """The values of ``lax.dot_general(A, B, dimension_numbers)`` at ``indices`` (BCOO
    indices of the product's shape): the ``data`` of a sparse result, e.g. the gradient of
    a sparse matrix's values in ``S @ X``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> A, B = fnp.array([[1., 2.], [3., 4.]]), fnp.eye(2)
        >>> sparse.bcoo_dot_general_sampled(A, B, fnp.array([[0, 1], [1, 0]]),
        ...                                 dimension_numbers=(((1,), (0,)), ((), ()))).tolist()
        [2.0, 3.0]
    """
    A, B, indices = fnp.asarray(A), fnp.asarray(B), fnp.asarray(indices)
    dn = _normalize_dn(dimension_numbers, A.ndim, B.ndim, "bcoo_dot_general_sampled")
    _check_sizes(A.shape, B.shape, dn, "bcoo_dot_general_sampled")
    out_dtype = fnp.result_type(A.dtype, B.dtype)
    dense = dot_general(A.astype(out_dtype), B.astype(out_dtype), dn)
    n_batch = indices.ndim - 2
    batch = dense.shape[:n_batch]
    fn = map_batch(lambda i, d: _extract_unbatched(i, d, assume_unique=True), n_batch, (0, 0))
    return fn(broadcast_batch(indices, batch), dense)


def bcoo_matmul(lhs: Any, rhs: Any) -> Any:
    """``lhs @ rhs`` with NumPy's matmul rules, one or both operands BCOO (leading
    dimensions of equal sizes are batch dimensions).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> A = sparse.BCOO.fromdense(fnp.array([[1., 0.], [0., 2.]]))
        >>> bcoo_matmul(fnp.array([1., 1.]), A).tolist()
        [1.0, 2.0]
    """
    ln, rn = len(lhs.shape), len(rhs.shape)
    if ln == 0 or rn == 0:
        raise ValueError(
            "matmul: inputs must be at least 1-dimensional (use * for scalars); got shapes "
            f"{tuple(lhs.shape)} and {tuple(rhs.shape)}"
        )
    lc = ln - 1
    rc = 0 if rn == 1 else rn - 2
    if ln > 2 and rn > 2 and (ln != rn or tuple(lhs.shape[: ln - 2]) != tuple(rhs.shape[: rn - 2])):
        raise ValueError(
            f"matmul: batch dimensions of shapes {tuple(lhs.shape)} and {tuple(rhs.shape)} differ "
            "(sparse matmul does not broadcast them)"
        )
    nb = ln - 2 if ln > 2 and rn > 2 else 0
    dn = ((lc,), (rc,)), (tuple(range(nb)), tuple(range(nb)))
    out = bcoo_dot_general(lhs, rhs, dimension_numbers=dn)
    if rn > 2 and ln == 2:  # (m, *batch, n) -> (*batch, m, n)
        out = fnp.moveaxis(out, 0, -2)
    return out
