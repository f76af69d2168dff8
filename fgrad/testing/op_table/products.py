"""Product rows (dot, matmul, einsum, tensordot, ...)."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
import numpy as np

import fgrad.numpy as fnp

from ._base import Arg, F32, F64, OpRow, shapes_of
from .structural import _axis, _kw

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# products


def numpy_cross(a, b, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: int | None = None):
    """``numpy.cross`` as NumPy 1.x-2.4 computes it, 2-vectors included (taken with z = 0;
    two 2-vectors give the z component, as in ``jax.numpy.cross``): the reference for
    `fgrad.numpy.cross`.  NumPy 2.5 removed 2-vectors (``ValueError: Both input arrays must
    be (arrays of) 3-dimensional vectors``), so they are computed here with NumPy's own
    formulas (same operations, same signed zeros); everything else is ``numpy.cross``.

    Example::

        >>> float(numpy_cross(np.array([0.5, 1.0]), np.array([2.0, 0.25])))
        -1.875
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = np.asarray(a), np.asarray(b)
    if a.ndim < 1 or b.ndim < 1:
        return np.cross(a, b, axisa, axisb, axisc)
    a, b = np.moveaxis(a, axisa, -1), np.moveaxis(b, axisb, -1)
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3) or (na == 3 and nb == 3):
        return np.cross(a, b, axisc=axisc)
    dtype = np.promote_types(a.dtype, b.dtype)
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    z = (a0 * b1 - a1 * b0).astype(dtype, copy=False)
    if na == 2 and nb == 2:
        return z
    if na == 2:
        b2 = b[..., 2]
        c = (a1 * b2, -(a0 * b2), z)
    else:
        a2 = a[..., 2]
        c = (-(a2 * b1), a2 * b0, z)
    shp = np.broadcast_shapes(a0.shape, b0.shape)
    c = np.stack([np.broadcast_to(np.asarray(v, dtype), shp) for v in c], axis=-1)
    return np.moveaxis(c, -1, axisc)


def _matmul_shapes():
    """Shapes (a, b) valid for matmul: vector/matrix/batched, with broadcasting batch dims."""

    def build(t):
        n, k, m, batch_a, batch_b, va, vb = t
        a = (k,) if va else tuple(batch_a) + (n, k)
        b = (k,) if vb else tuple(batch_b) + (k, m)
        return a, b

    return st.tuples(
        st.integers(1, 3),
        st.integers(1, 3),
        st.integers(1, 3),
        st.lists(st.sampled_from([1, 2]), max_size=2),
        st.lists(st.sampled_from([1, 2]), max_size=1),
        st.booleans(),
        st.booleans(),
    ).map(build)


def _dot_shapes():
    def build(t):
        sa, sb, k = t
        a = tuple(sa) + (k,)
        b = (k,) if not sb else tuple(sb[:-1]) + (k,) + (sb[-1],)
        return (a if len(a) > 0 else (k,)), b

    return st.one_of(
        st.tuples(
            st.lists(st.integers(1, 3), max_size=2),
            st.lists(st.integers(1, 3), max_size=2),
            st.integers(1, 3),
        ).map(build),
        st.tuples(st.just(()), hnp.array_shapes(max_dims=2)),  # scalar operand
    )


_EINSUMS = [
    ("ij,jk->ik", ((2, 3), (3, 4))),
    ("ij,ij->", ((2, 3), (2, 3))),
    ("ii->i", ((3, 3),)),
    ("ii", ((3, 3),)),
    ("ij->ji", ((2, 3),)),
    ("bij,bjk->bik", ((2, 2, 3), (2, 3, 2))),
    ("i,j->ij", ((2,), (3,))),
    ("...ij,...jk->...ik", ((2, 1, 2, 3), (3, 3, 2))),
    ("ij,j", ((2, 3), (3,))),
    ("abc,cd,b->ad", ((2, 3, 2), (2, 2), (3,))),
    ("i,i,i->", ((4,), (4,), (4,))),
    ("ijk->", ((2, 3, 2),)),
]


def _einsum_row(sub, shapes):
    n = len(shapes)
    return OpRow(
        f"einsum[{sub}]",
        (lambda s: lambda *ops: fnp.einsum(s, *ops))(sub),
        (lambda s: lambda *ops: np.einsum(s, *ops))(sub),
        args=(Arg(),) * n,
        shapes=st.just(shapes),
        example_shapes=shapes,
        covers=("numpy.einsum",),
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    )


_PROD_TOL = {F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)}

ROWS += [
    OpRow(
        "matmul",
        fnp.matmul,
        np.matmul,
        args=(Arg(), Arg()),
        shapes=_matmul_shapes(),
        example_shapes=((2, 3), (3, 4)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "matmul[@]",
        lambda a, b: a @ b,
        lambda a, b: a @ b,
        args=(Arg(), Arg()),
        shapes=_matmul_shapes(),
        example_shapes=((2, 2, 3), (3,)),
        fwd_tol=_PROD_TOL,
        covers=("numpy.matmul",),
    ),
    OpRow(
        "dot",
        fnp.dot,
        np.dot,
        args=(Arg(), Arg()),
        shapes=_dot_shapes(),
        example_shapes=((2, 3), (3, 2)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow("vdot", fnp.vdot, np.vdot, args=(Arg(), Arg()), shapes=shapes_of(2, min_dims=1), fwd_tol=_PROD_TOL),
    OpRow(
        "inner",
        fnp.inner,
        np.inner,
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=2), hnp.array_shapes(max_dims=2), st.integers(1, 3)).map(
            lambda t: (t[0] + (t[2],), t[1] + (t[2],))
        ),
        example_shapes=((2, 3), (3,)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "outer",
        fnp.outer,
        np.outer,
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=2), hnp.array_shapes(max_dims=2)),
        example_shapes=((3,), (2,)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "kron",
        fnp.kron,
        np.kron,
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=2, max_side=3), hnp.array_shapes(max_dims=2, max_side=3)),
        example_shapes=((2, 2), (3,)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "cross",
        lambda a, b: fnp.cross(a, b),
        numpy_cross,
        args=(Arg(), Arg()),
        shapes=st.tuples(st.lists(st.integers(1, 2), max_size=2), st.sampled_from([2, 3])).map(
            lambda t: (tuple(t[0]) + (t[1],), (t[1],))
        ),
        example_shapes=((2, 3), (3,)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "matvec",
        fnp.matvec,
        np.matvec,
        args=(Arg(), Arg()),
        shapes=st.sampled_from([((2, 3), (3,)), ((4, 2, 3), (3,)), ((2, 3), (4, 3))]),
        example_shapes=((2, 3), (3,)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "vecmat",
        fnp.vecmat,
        np.vecmat,
        args=(Arg(), Arg()),
        shapes=st.sampled_from([((2,), (2, 3)), ((4, 2), (2, 3)), ((2,), (4, 2, 3))]),
        example_shapes=((2,), (2, 3)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "vecdot",
        lambda a, b, axis: fnp.vecdot(a, b, axis=axis),
        lambda a, b, axis: np.vecdot(a, b, axis=axis),
        args=(Arg(), Arg()),
        shapes=shapes_of(2, min_dims=1),
        kwargs=_kw(axis=_axis()),
        example_kwargs={"axis": -1},
        fwd_tol=_PROD_TOL,
    ),
]
ROWS += [_einsum_row(sub, shapes) for sub, shapes in _EINSUMS]

# tensordot's axes must agree with its shapes: drawn together
ROWS += [
    OpRow(
        "tensordot",
        lambda a, b, axes: fnp.tensordot(a, b, axes),
        lambda a, b, axes: np.tensordot(a, b, axes),
        args=(Arg(), Arg()),
        shapes=st.sampled_from(
            [((2, 3), (3, 2)), ((2, 3, 4), (3, 4, 2)), ((3,), (3,)), ((2, 3), (4,)), ((2, 2, 3), (3, 2, 1))]
        ),
        kwargs=lambda shapes: st.just(
            {
                "axes": {
                    ((2, 3), (3, 2)): 1,
                    ((2, 3, 4), (3, 4, 2)): 2,
                    ((3,), (3,)): 1,
                    ((2, 3), (4,)): 0,
                    ((2, 2, 3), (3, 2, 1)): ([1, 2], [1, 0]),
                }[tuple(shapes)]
            }
        ),
        example_shapes=((2, 3), (3, 2)),
        example_kwargs={"axes": 1},
        fwd_tol=_PROD_TOL,
    ),
]

