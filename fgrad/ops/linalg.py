"""Contraction and linear-algebra primitives.

* ``dot_general``  general tensor contraction (lax semantics: output dims are batch, lhs
  free, rhs free), implemented as one ``matmul`` after a transpose/reshape to
  ``(batch, free, contract)``;
* ``triangular_solve``, ``solve``  linear in the right-hand side (transpose rules);
* ``cholesky``, ``eigh``, ``svd``, ``qr``, ``slogdet``  decompositions.

All linalg primitives act on the last two axes and accept equal leading (batch) axes, as
``numpy.linalg`` does; the NumPy-facing wrappers in `fgrad.numpy.linalg` broadcast.
Derivative rules are written with fgrad ops (they can be differentiated, batched and
staged again); the matrix-calculus formulas are documented at each rule.  Derivatives of
the decompositions hold for real and complex inputs (complex: JAX's rules and gauges, with
conjugate transposes and the non-conjugating pairing ``Re(sum(a * b))`` of §2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from ..typing import Array, ArrayLike, DTypeLike

import contextlib
import enum
import functools
import math

import numpy as np
from ..core.narrow_floats import finfo as narrow_finfo
from ..core.narrow_floats import dtype_kind, float32 as F32, is_narrow, promote_types

from ..backends import backend_of_xp
from ..core.array import ShapedArray, get_aval
from ..core.primitive import Primitive
from ..core.constants import constant_like
from ..core.quiet import quiet
from ..core.rules import defbatch, defbilinear, defjvp_rule, deflinear_in, is_undefined
from .elementwise import add, conj, convert_element_type, div, eq, mul, neg, promote_weak, real, sub
from .reductions import reduce_sum
from .shape import bdim_to_front, broadcast_in_dim, moveaxis, reshape, transpose
from .sorting import take_static
from . import _host_lapack
from ._scipy import scipy_module, scipy_version



def _shape(x):
    return get_aval(x).shape


def _dtype(x):
    return get_aval(x).dtype


def _ndim(x):
    return get_aval(x).ndim


# =======================================================================================
# dot_general


def _norm_dn(dimension_numbers, nx, ny):
    try:
        (lc, rc), (lb, rb) = dimension_numbers
    except (TypeError, ValueError):
        raise TypeError(
            "dot_general: dimension_numbers must be ((lhs_contract, rhs_contract), "
            f"(lhs_batch, rhs_batch)), got {dimension_numbers!r}"
        ) from None

    def norm(axes, nd, what):
        out = []
        for a in axes:
            a = int(a)
            if not -nd <= a < nd:
                raise ValueError(f"dot_general: {what} axis {a} is out of bounds for an operand of rank {nd}")
            out.append(a % nd)
        if len(set(out)) != len(out):
            raise ValueError(f"dot_general: repeated {what} axis in {tuple(axes)}")
        return tuple(out)

    lc, lb = norm(lc, nx, "lhs contracting"), norm(lb, nx, "lhs batch")
    rc, rb = norm(rc, ny, "rhs contracting"), norm(rb, ny, "rhs batch")
    if set(lc) & set(lb) or set(rc) & set(rb):
        raise ValueError("dot_general: an axis cannot be both a contracting and a batch axis")
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise ValueError(
            f"dot_general: lhs and rhs need as many contracting ({len(lc)} vs {len(rc)}) and "
            f"batch ({len(lb)} vs {len(rb)}) axes"
        )
    return (lc, rc), (lb, rb)


_norm_dn_cached = functools.lru_cache(maxsize=1024)(_norm_dn)


class ContractionShapeError(TypeError, ValueError):
    """Contracted axes of different lengths (``dot_general``, and the jax.numpy products on
    it: ``matmul``/``@``, ``dot``, ``vdot``, ``inner``, ``tensordot``): JAX raises TypeError
    (dot_general's shape rule), NumPy ValueError; this is both, so ``except TypeError`` (code
    written for JAX) and ``except ValueError`` (for NumPy) catch it.

    Example::

        >>> import fgrad.numpy as fnp
        >>> try:
        ...     fnp.ones((2, 3)) @ fnp.ones((2, 3))
        ... except TypeError as e:
        ...     print(type(e).__name__, isinstance(e, ValueError))
        ContractionShapeError True
    """


@functools.lru_cache(maxsize=4096)
def _dg_plan(xs, ys, dn):
    """How to run a contraction as one matmul: permutations, 2-/3-D shapes, out shape."""
    (lc, rc), (lb, rb) = dn
    for what, la, ra in (("contracting", lc, rc), ("batch", lb, rb)):
        ls, rs = tuple(xs[i] for i in la), tuple(ys[i] for i in ra)
        if ls != rs:
            raise ContractionShapeError(
                f"dot_general: {what} dimensions must have equal sizes, got lhs shape {xs} "
                f"axes {la} (sizes {ls}) and rhs shape {ys} axes {ra} (sizes {rs})"
            )
    nx, ny = len(xs), len(ys)
    xf = tuple(i for i in range(nx) if i not in lc and i not in lb)
    yf = tuple(i for i in range(ny) if i not in rc and i not in rb)
    xperm, yperm = lb + xf + lc, rb + rc + yf
    b = math.prod(xs[i] for i in lb)
    m = math.prod(xs[i] for i in xf)
    k = math.prod(xs[i] for i in lc)
    n = math.prod(ys[i] for i in yf)
    out_shape = tuple(xs[i] for i in lb) + tuple(xs[i] for i in xf) + tuple(ys[i] for i in yf)
    if lb:
        x3, y3 = (b, m, k), (b, k, n)
    else:
        x3, y3 = (m, k), (k, n)
    return (None if xperm == tuple(range(nx)) else xperm, None if yperm == tuple(range(ny)) else yperm,
            x3, y3, out_shape)


def _dg_impl(xp, x, y, dimension_numbers):
    x, y = xp.asarray(x), xp.asarray(y)
    xperm, yperm, x3, y3, out_shape = _dg_plan(x.shape, y.shape, dimension_numbers)
    if xperm is not None:
        x = x.transpose(xperm)
    if x.shape != x3:
        x = x.reshape(x3)
    if yperm is not None:
        y = y.transpose(yperm)
    if y.shape != y3:
        y = y.reshape(y3)
    dt = promote_types(x.dtype, y.dtype)
    if is_narrow(dt):  # accumulate in float32 and round once, as JAX and PyTorch do
        out = xp.matmul(x.astype(F32), y.astype(F32)).astype(dt)
    else:
        out = xp.matmul(x, y)
    if out.shape != out_shape:
        out = out.reshape(out_shape)
    return out


def _dg_abstract(x, y, dimension_numbers):
    out_shape = _dg_plan(x.shape, y.shape, dimension_numbers)[4]
    dt = promote_types(x.dtype, y.dtype)
    return ShapedArray(out_shape, dt, x.weak_type and y.weak_type)


class Precision(enum.Enum):
    """Requested matmul precision (JAX's ``lax.Precision``).  fgrad's contractions always run
    at the operands' full precision, which meets every request, so this only validates.

    Example::

        >>> Precision("highest") is Precision.HIGHEST
        True
    """

    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    @classmethod
    def _missing_(cls, value):
        names = {"default": cls.DEFAULT, "fastest": cls.DEFAULT, "bfloat16": cls.DEFAULT,
                 "high": cls.HIGH, "bfloat16_3x": cls.HIGH, "tensorfloat32": cls.HIGH,
                 "highest": cls.HIGHEST, "float32": cls.HIGHEST}
        return names.get(value.lower()) if isinstance(value, str) else None


def check_precision(precision, op: str) -> None:
    """Validate a ``precision=`` argument as JAX does: None, a `Precision` or its name, or a
    pair of them (one per operand); a ValueError names ``op`` otherwise.

    Example::

        >>> check_precision(("highest", None), "dot")
    """
    pair = precision if isinstance(precision, (tuple, list)) else (precision,)
    if isinstance(precision, (tuple, list)) and len(precision) != 2:
        raise ValueError(f"{op}: precision must be None, a lax.Precision or a pair of them, got "
                         f"{precision!r}")
    for p in pair:
        if p is None or isinstance(p, Precision):
            continue
        try:
            Precision(p)
        except ValueError:
            raise ValueError(
                f"{op}: unknown precision {p!r}; use None, a lax.Precision (DEFAULT, HIGH, "
                "HIGHEST) or its name") from None


# quiet: a product of inf and 0 is NaN silently (the eager path; programs are quiet already)
dot_general_p = Primitive("dot_general", quiet(_dg_impl), _dg_abstract, family="contraction")

# ``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))`` (JAX's name)
DotDimensionNumbers = tuple[tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]]


def widen_to_preferred(preferred: DTypeLike | None, *operands: ArrayLike) -> tuple:
    """The operands of a contraction with ``preferred_element_type=preferred``, each array
    converted to ``preferred`` where that is a widening (a safe cast): JAX multiplies and
    accumulates in the preferred type (bfloat16 or float16 products summed in float32, int8
    in int32), which casting the narrow result afterwards would not reproduce.  The products
    of two such values are exact in the wider type, so the contraction is XLA's.

    Example::

        >>> import fgrad.numpy as fnp
        >>> x, = widen_to_preferred(fnp.float32, fnp.ones(2, fnp.float16))
        >>> x.dtype
        dtype('float32')
    """
    if preferred is None:
        return operands
    want = np.dtype(preferred)
    out = []
    for o in operands:
        if isinstance(o, (bool, int, float, complex)):  # Python scalars stay weak
            out.append(o)
            continue
        have = get_aval(o).dtype
        widen = have != want and dtype_kind(have) != "b" and np.can_cast(have, want, "safe")
        out.append(convert_element_type(o, want) if widen else o)
    return tuple(out)


def dot_general(x: ArrayLike, y: ArrayLike,
                dimension_numbers: DotDimensionNumbers,
                precision: Any = None, preferred_element_type: DTypeLike | None = None) -> Array:
    """Contract ``x`` and ``y`` (lax semantics).  ``dimension_numbers`` is
    ``((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))``; the result's axes are the
    batch axes, then the free axes of ``x``, then the free axes of ``y`` (each in order).
    ``precision`` is validated (`check_precision`); fgrad always contracts at the operands'
    full precision.  ``preferred_element_type`` is the type the products are summed in and
    the result's (`widen_to_preferred`).

    Example::

        >>> import fgrad.numpy as fnp
        >>> dot_general(fnp.ones((2, 3)), fnp.ones((3, 4)), (((1,), (0,)), ((), ()))).shape
        (2, 4)
    """
    check_precision(precision, "dot_general")
    nx, ny = _ndim(x), _ndim(y)
    try:
        dn = _norm_dn_cached(dimension_numbers, nx, ny)
    except TypeError:  # unhashable spelling (lists): normalize without the cache
        dn = _norm_dn(dimension_numbers, nx, ny)
    x, y = widen_to_preferred(preferred_element_type, *promote_weak(x, y))
    out = dot_general_p.bind(x, y, dimension_numbers=dn)
    if preferred_element_type is not None and _dtype(out) != np.dtype(preferred_element_type):
        out = convert_element_type(out, np.dtype(preferred_element_type))
    return out


def _argsort(labels):
    return tuple(labels.index(j) for j in range(len(labels)))


def _dg_transpose_lhs(ct, x, y, dimension_numbers):
    (lc, rc), (lb, rb) = dimension_numbers
    nx, ny = x.aval.ndim, _ndim(y)
    xf = [i for i in range(nx) if i not in lc and i not in lb]
    yf = tuple(i for i in range(ny) if i not in rc and i not in rb)
    nb, nxf = len(lb), len(xf)
    ct_free = tuple(range(nb + nxf, nb + nxf + len(yf)))
    res = dot_general_p.bind(ct, y, dimension_numbers=((ct_free, yf), (tuple(range(nb)), rb)))
    labels = list(lb) + xf + [lc[rc.index(d)] for d in sorted(rc)]
    res = transpose(res, _argsort(labels))
    if _dtype(res) != x.aval.dtype:
        res = convert_element_type(res, x.aval.dtype)
    return res


def _dg_transpose_rhs(ct, x, y, dimension_numbers):
    (lc, rc), (lb, rb) = dimension_numbers
    # x first, so that for a plain matmul the result comes out as x^T @ ct in y's layout
    nx, ny = _ndim(x), y.aval.ndim
    xf = tuple(i for i in range(nx) if i not in lc and i not in lb)
    yf = [i for i in range(ny) if i not in rc and i not in rb]
    nb, nxf = len(lb), len(xf)
    res = dot_general_p.bind(x, ct, dimension_numbers=((xf, tuple(range(nb, nb + nxf))),
                                                       (lb, tuple(range(nb)))))
    labels = list(rb) + [rc[lc.index(d)] for d in sorted(lc)] + yf
    res = transpose(res, _argsort(labels))
    if _dtype(res) != y.aval.dtype:
        res = convert_element_type(res, y.aval.dtype)
    return res


def _dg_batch(axis_size, vals, dims, dimension_numbers):
    x, y = vals
    dx, dy = dims
    (lc, rc), (lb, rb) = dimension_numbers

    def shift(axes, d):  # logical axis -> physical axis when a batch axis sits at d
        return tuple(a + (a >= d) for a in axes)

    if dx is not None and dy is not None:
        x, y = moveaxis(x, dx, 0), moveaxis(y, dy, 0)
        dn = ((shift(lc, 0), shift(rc, 0)), ((0,) + shift(lb, 0), (0,) + shift(rb, 0)))
        return dot_general_p.bind(x, y, dimension_numbers=dn), 0
    if dx is not None:
        lc2, lb2 = shift(lc, dx), shift(lb, dx)
        free = [i for i in range(_ndim(x)) if i not in lc2 and i not in lb2]
        dn = ((lc2, rc), (lb2, rb))
        return dot_general_p.bind(x, y, dimension_numbers=dn), len(lb) + free.index(dx)
    rc2, rb2 = shift(rc, dy), shift(rb, dy)
    free = [i for i in range(_ndim(y)) if i not in rc2 and i not in rb2]
    nxf = _ndim(x) - len(lc) - len(lb)
    dn = ((lc, rc2), (lb, rb2))
    return dot_general_p.bind(x, y, dimension_numbers=dn), len(lb) + nxf + free.index(dy)


# the tangent takes the output's dtype (mixed-dtype operands)
defbilinear(dot_general_p, _dg_transpose_lhs, _dg_transpose_rhs, cast_to_out=True)


def _dg_host_kernel(params, avals):
    """The host executor's call for a contraction of two arrays of one (not 16-bit) dtype:
    `_dg_impl`'s plan made once for these shapes, so a loop body's product is ``np.matmul``
    (with the operands' transposes and reshapes bound) without the impl's per-call checks."""
    x, y = avals
    if x.dtype != y.dtype or is_narrow(x.dtype) or not x.shape or not y.shape:
        return None
    xperm, yperm, x3, y3, out_shape = _dg_plan(tuple(x.shape), tuple(y.shape), params["dimension_numbers"])
    if xperm is None and yperm is None and x3 == x.shape and y3 == y.shape and out_shape == x3[:-1] + y3[1:]:
        return np.matmul
    mm = np.matmul

    def kernel(a, b):
        if xperm is not None:
            a = a.transpose(xperm)
        if yperm is not None:
            b = b.transpose(yperm)
        return mm(a.reshape(x3), b.reshape(y3)).reshape(out_shape)

    return kernel


dot_general_p.host_kernel = _dg_host_kernel
# the host kernel's result (of rank >= 1) is always a new C-contiguous array, or a reshape of
# one, that nothing else holds: the executor lets a later ufunc write into it
dot_general_p.host_kernel_fresh = True
defbatch(dot_general_p, _dg_batch)


# =======================================================================================
# helpers for the rules below: batched matrix algebra on the last two axes (fgrad ops)


def _mT(x):
    nd = _ndim(x)
    return transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def _hT(x):
    """The conjugate transpose of the last two axes (the transpose for real dtypes)."""
    return conj(_mT(x)) if _dtype(x).kind == "c" else _mT(x)


def _as_dtype_of(x, like):
    return convert_element_type(x, _dtype(like)) if _dtype(x) != _dtype(like) else x


def _mm(a, b):
    """``a @ b`` for (..., m, k) @ (..., k, n) with equal leading axes."""
    na, nb = _ndim(a), _ndim(b)
    if na != nb:
        raise ValueError(f"internal: _mm needs equal ranks, got {_shape(a)} @ {_shape(b)}")
    lead = tuple(range(na - 2))
    return dot_general_p.bind(a, b, dimension_numbers=(((na - 1,), (na - 2,)), (lead, lead)))


def _const(value, like):
    """A NumPy constant (identity, mask, selector) on ``like``'s device."""
    return constant_like(value, like)


def _eye(n, dtype, like):
    return _const(np.eye(n, dtype=dtype), like)


def _diag(x):
    """Diagonal of the last two (square) axes: (..., n, n) -> (..., n)."""
    n = _shape(x)[-1]
    return reduce_sum(mul(x, _eye(n, _dtype(x), x)), (_ndim(x) - 1,))


def _tril(x, k=0):
    m, n = _shape(x)[-2:]
    return mul(x, _const(np.tri(m, n, k, dtype=_dtype(x)), x))


def _triu(x, k=0):
    m, n = _shape(x)[-2:]
    return mul(x, _const(np.ones((m, n), _dtype(x)) - np.tri(m, n, k - 1, dtype=_dtype(x)), x))


def _sym_from_lower(t):
    """The symmetric (complex: Hermitian) matrix whose lower triangle is that of ``t`` (what
    the kernels read; LAPACK ignores the imaginary part of a Hermitian diagonal)."""
    if _dtype(t).kind != "c":
        return add(_tril(t), _mT(_tril(t, -1)))
    n = _shape(t)[-1]
    diag = mul(_as_dtype_of(real(t), t), _eye(n, _dtype(t), t))
    low = _tril(t, -1)
    return add(add(low, _hT(low)), diag)


def _batch_front(prim):
    """Batching rule for primitives over the last axes with equal leading axes: move every
    batch axis to the front (broadcasting unbatched operands) and call once."""
    def rule(axis_size, vals, dims, **params):
        vals = [bdim_to_front(v, d, axis_size) for v, d in zip(vals, dims, strict=True)]
        out = prim.bind(*vals, **params)
        return out, 0

    return rule


def _check_square(name, a):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: expected square matrices in the last two axes, got shape {a.shape}")


def _check_float(name, *avals):
    for a in avals:
        if dtype_kind(a.dtype) not in "fc":
            raise TypeError(f"{name}: expected a floating-point or complex array, got {a.dtype}")


def _failures_raise(xp):
    """A block in which ``xp``'s factorizations raise LinAlgError when they fail, as NumPy's
    always do; cupy's report nothing unless asked (a device->host read of cuSOLVER's status),
    and would otherwise hand back unspecified values instead of JAX's NaN."""
    return contextlib.nullcontext() if xp is np else backend_of_xp(xp).linalg_errors()


def _nan_fill(xp, shape, dtype):
    return xp.full(shape, np.nan, dtype=dtype)


def _per_matrix(xp, fn, out_shape, out_dtype, *arrays):
    """Apply ``fn`` matrix by matrix (leading axes), filling NaN where LAPACK fails (JAX
    returns NaN for a failed factorization rather than raising)."""
    out = _nan_fill(xp, out_shape, out_dtype)
    lead = out_shape[:-2]
    for idx in np.ndindex(*lead):
        try:
            out[idx] = fn(*[a[idx] for a in arrays])
        except np.linalg.LinAlgError:
            pass
    return out


# =======================================================================================
# triangular_solve


def _tri_impl(xp, a, b, left_side, lower, transpose_a, unit_diagonal):
    dt = np.result_type(a.dtype, b.dtype)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    with np.errstate(all="ignore"):
        fast = _host_lapack.triangular_solve(xp, a, b, left_side, lower, transpose_a, unit_diagonal)
    if fast is not None:
        return fast
    if not left_side:  # x op(a) = b  <=>  op(a)^T x^T = b^T
        bt = xp.swapaxes(b, -1, -2)
        return xp.swapaxes(_tri_impl(xp, a, bt, True, lower, not transpose_a, unit_diagonal), -1, -2)
    # SciPy (optional) has a real triangular solver on the CPU (NumPy has none); batched from 1.15
    sla = scipy_module("linalg") if xp is np and dtype_kind(dt) in "fc" else None
    if sla is not None and (a.ndim == 2 or scipy_version() >= (1, 15)):

        def one(am, bm):
            return sla.solve_triangular(am, bm, trans=1 if transpose_a else 0, lower=lower,
                                         unit_diagonal=unit_diagonal, check_finite=False)
    else:
        n = a.shape[-1]
        mask = np.tri(n, n, 0 if lower else -1, dtype=bool)
        if not lower:
            mask = ~mask | np.eye(n, dtype=bool)

        def one(am, bm):
            am = xp.where(xp.asarray(mask), am, 0)
            if unit_diagonal:
                am = xp.where(xp.asarray(np.eye(n, dtype=bool)), 1, am)
            if transpose_a:
                am = xp.swapaxes(am, -1, -2)
            return xp.linalg.solve(am, bm)
    with np.errstate(all="ignore"), _failures_raise(xp):
        try:
            return one(a, b)
        except (np.linalg.LinAlgError, ValueError):
            if a.ndim == 2:
                return _nan_fill(xp, b.shape, dt)
            return _per_matrix(xp, one, b.shape, dt, a, b)


def _tri_abstract(a, b, left_side, lower, transpose_a, unit_diagonal):
    _check_square("triangular_solve", a)
    _check_float("triangular_solve", a, b)
    m = a.shape[-1]
    k = b.shape[-2] if left_side else (b.shape[-1] if b.ndim else None)
    if b.ndim < 2 or k != m or b.shape[:-2] != a.shape[:-2]:
        side = "(..., m, n) with m" if left_side else "(..., n, m) with m"
        raise ValueError(
            f"triangular_solve: b must have shape {side} = {m} and the same leading axes as a "
            f"{a.shape}, got {b.shape}"
        )
    return ShapedArray(b.shape, np.result_type(a.dtype, b.dtype))


triangular_solve_p = Primitive("triangular_solve", _tri_impl, _tri_abstract, family="linalg")


def triangular_solve(a, b, *, left_side=True, lower=True, transpose_a=False, unit_diagonal=False):
    """Solve ``op(a) x = b`` (``left_side``) or ``x op(a) = b`` for triangular ``a``, where
    ``op(a)`` is ``a`` or ``a.T`` (``transpose_a``).  Only the ``lower``/upper triangle of
    ``a`` is read (and not its diagonal when ``unit_diagonal``).  Leading axes must match."""
    return triangular_solve_p.bind(a, b, left_side=bool(left_side), lower=bool(lower),
                                   transpose_a=bool(transpose_a), unit_diagonal=bool(unit_diagonal))


def _tri_mask(t, lower, unit_diagonal):
    if lower:
        return _tril(t, -1 if unit_diagonal else 0)
    return _triu(t, 1 if unit_diagonal else 0)


def _tri_jvp(primals, tangents, left_side, lower, transpose_a, unit_diagonal):
    # op(A) x = b  =>  op(A) dx = db - op(dA) x   (right side: dx op(A) = db - x op(dA))
    a, b = primals
    ta, tb = tangents
    params = dict(left_side=left_side, lower=lower, transpose_a=transpose_a, unit_diagonal=unit_diagonal)
    x = triangular_solve_p.bind(a, b, **params)
    rhs = tb
    if ta is not None:  # complex too: op(A) is a plain transpose, the formula is algebraic
        da = _tri_mask(ta, lower, unit_diagonal)
        if transpose_a:
            da = _mT(da)
        corr = _mm(da, x) if left_side else _mm(x, da)
        rhs = neg(corr) if rhs is None else sub(rhs, corr)
    if rhs is None:
        return x, None
    dt = _dtype(x)
    if _dtype(rhs) != dt:
        rhs = convert_element_type(rhs, dt)
    return x, triangular_solve_p.bind(a, rhs, **params)


def _tri_transpose(ct, a, b, left_side, lower, transpose_a, unit_diagonal):
    if is_undefined(a):
        raise ValueError("triangular_solve is linear only in b")
    ct_b = triangular_solve_p.bind(a, ct, left_side=left_side, lower=lower,
                                   transpose_a=not transpose_a, unit_diagonal=unit_diagonal)
    if _dtype(ct_b) != b.aval.dtype:
        ct_b = convert_element_type(ct_b, b.aval.dtype)
    return None, ct_b


def _fold_rhs_batch(prim, axis_size, a, b, db, left_side, **params):
    """Unbatched ``a`` with batched ``b``: fold the batch into b's free axis (one solve with
    more right-hand sides instead of broadcasting ``a``)."""
    nd = _ndim(b)  # physical rank, batch axis included
    if left_side:
        bb = moveaxis(b, db, nd - 1)  # (..., m, n, B)
        s = _shape(bb)
        x = prim.bind(a, reshape(bb, s[:-2] + (s[-2] * s[-1],)), left_side=left_side, **params)
        return reshape(x, s), nd - 1
    bb = moveaxis(b, db, nd - 3)  # (..., B, n, m)
    s = _shape(bb)
    x = prim.bind(a, reshape(bb, s[:-3] + (s[-3] * s[-2], s[-1])), left_side=left_side, **params)
    return reshape(x, s), nd - 3


def _tri_batch(axis_size, vals, dims, **params):
    a, b = vals
    da, db = dims
    if da is None:
        return _fold_rhs_batch(triangular_solve_p, axis_size, a, b, db, **params)
    return _batch_front(triangular_solve_p)(axis_size, vals, dims, **params)


defjvp_rule(triangular_solve_p, _tri_jvp)
deflinear_in(triangular_solve_p, _tri_transpose)
defbatch(triangular_solve_p, _tri_batch)


# =======================================================================================
# solve (general square systems, LU in LAPACK)


def _solve_impl(xp, a, b):
    dt = np.result_type(a.dtype, b.dtype)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    fast = _host_lapack.solve(xp, a, b)
    if fast is not None:
        return fast
    with _failures_raise(xp):
        try:
            return xp.linalg.solve(a, b)
        except np.linalg.LinAlgError:  # singular: LU's inf/NaN like JAX (NaN off the host)
            lu = _host_lapack.singular_solve(xp, a, b)
            if lu is not None:
                return lu
            if a.ndim == 2:
                return _nan_fill(xp, b.shape, dt)
            return _per_matrix(xp, xp.linalg.solve, b.shape, dt, a, b)


def _solve_abstract(a, b):
    _check_square("solve", a)
    _check_float("solve", a, b)
    if b.ndim < 2 or b.shape[-2] != a.shape[-1] or b.shape[:-2] != a.shape[:-2]:
        raise ValueError(
            f"solve: b must have shape (..., {a.shape[-1]}, k) with the leading axes of a "
            f"{a.shape}, got {b.shape}"
        )
    return ShapedArray(b.shape, np.result_type(a.dtype, b.dtype))


solve_p = Primitive("solve", _solve_impl, _solve_abstract, family="linalg")


def solve(a, b):
    """Solve ``a x = b`` for square ``a`` (..., m, m) and ``b`` (..., m, k), equal leading axes."""
    return solve_p.bind(a, b)


def _solve_jvp(primals, tangents):
    # A x = b  =>  A dx = db - dA x
    a, b = primals
    ta, tb = tangents
    x = solve_p.bind(a, b)
    rhs = tb
    if ta is not None:
        corr = _mm(ta, x)
        rhs = neg(corr) if rhs is None else sub(rhs, corr)
    if rhs is None:
        return x, None
    if _dtype(rhs) != _dtype(x):
        rhs = convert_element_type(rhs, _dtype(x))
    return x, solve_p.bind(a, rhs)


def _solve_transpose(ct, a, b):
    if is_undefined(a):
        raise ValueError("solve is linear only in b")
    ct_b = solve_p.bind(_mT(a), ct)
    if _dtype(ct_b) != b.aval.dtype:
        ct_b = convert_element_type(ct_b, b.aval.dtype)
    return None, ct_b


def _solve_batch(axis_size, vals, dims):
    a, b = vals
    da, db = dims
    if da is None:
        return _fold_rhs_batch(_SolveAsTri, axis_size, a, b, db, left_side=True)
    return _batch_front(solve_p)(axis_size, vals, dims)


class _SolveAsTri:  # adapter so _fold_rhs_batch can call solve with its keyword
    @staticmethod
    def bind(a, b, left_side):
        return solve_p.bind(a, b)


defjvp_rule(solve_p, _solve_jvp)
deflinear_in(solve_p, _solve_transpose)
defbatch(solve_p, _solve_batch)


# =======================================================================================
# cholesky


def _chol_impl(xp, a):
    fast = _host_lapack.cholesky(xp, a)
    if fast is not None:
        return fast
    with _failures_raise(xp):
        try:
            return xp.linalg.cholesky(a)
        except np.linalg.LinAlgError:  # not positive definite: NaN (JAX semantics)
            if a.ndim == 2:
                return _nan_fill(xp, a.shape, a.dtype)
            return _per_matrix(xp, xp.linalg.cholesky, a.shape, a.dtype, a)


def _chol_abstract(a):
    _check_square("cholesky", a)
    _check_float("cholesky", a)
    return ShapedArray(a.shape, a.dtype)


cholesky_p = Primitive("cholesky", _chol_impl, _chol_abstract, family="linalg")


def cholesky(a):
    """Lower Cholesky factor of the symmetric matrix whose lower triangle is that of ``a``."""
    return cholesky_p.bind(a)


def _phi(x):
    """Lower triangle with the diagonal halved."""
    n = _shape(x)[-1]
    w = np.tri(n, n, -1, dtype=_dtype(x)) + 0.5 * np.eye(n, dtype=_dtype(x))
    return mul(x, _const(w, x))


def _chol_jvp(primals, tangents):
    # A = L L^H  =>  dL = L phi(L^-1 dA L^-H)   (phi: lower triangle, half diagonal)
    (a,), (ta,) = primals, tangents
    L = cholesky_p.bind(a)
    da = _sym_from_lower(ta)
    tmp = triangular_solve(L, da, left_side=True, lower=True)
    if _dtype(a).kind == "c":  # X L^H = Y  <=>  conj(X) L^T = conj(Y)
        tmp = conj(triangular_solve(L, conj(tmp), left_side=False, lower=True, transpose_a=True))
    else:
        tmp = triangular_solve(L, tmp, left_side=False, lower=True, transpose_a=True)
    return L, _mm(L, _phi(tmp))


defjvp_rule(cholesky_p, _chol_jvp)
defbatch(cholesky_p, _batch_front(cholesky_p))


# =======================================================================================
# eigh


def _eigh_impl(xp, a):
    fast = _host_lapack.eigh(xp, a)
    w, v = fast if fast is not None else xp.linalg.eigh(a, UPLO="L")
    return [w, v]


def _eigh_abstract(a):
    _check_square("eigh", a)
    _check_float("eigh", a)
    rdt = narrow_finfo(a.dtype).dtype
    return [ShapedArray(a.shape[:-1], rdt), ShapedArray(a.shape, a.dtype)]


eigh_p = Primitive("eigh", _eigh_impl, _eigh_abstract, multiple_results=True, family="linalg")


def eigh(a):
    """Eigenvalues (ascending) and eigenvectors (columns) of the symmetric matrix whose lower
    triangle is that of ``a``: returns ``[w, v]``."""
    return eigh_p.bind(a)


def _gap_inverse(w):
    """F[..., i, j] = 1 / (w_j - w_i) off the diagonal, 0 on it."""
    n = _shape(w)[-1]
    nd = _ndim(w)
    wi = broadcast_in_dim(w, _shape(w) + (n,), tuple(range(nd)))  # [..., i, j] = w_i
    wj = _mT(wi)  # [..., i, j] = w_j
    eye = _eye(n, _dtype(w), w)
    return sub(div(1.0, add(sub(wj, wi), eye)), eye)


def _eigh_jvp(primals, tangents):
    # A = V diag(w) V^T, M = V^T dA V:  dw = diag(M),  dV = V (F o M),  F_ij = 1/(w_j - w_i)
    (a,), (ta,) = primals, tangents
    w, v = eigh_p.bind(a)
    m = _mm(_hT(v), _mm(_sym_from_lower(ta), v))  # complex: V^H dA V, dw = Re diag (JAX)
    dw = real(_diag(m)) if _dtype(m).kind == "c" else _diag(m)
    dv = _mm(v, mul(_as_dtype_of(_gap_inverse(w), v), m))
    return [w, v], [dw, dv]


defjvp_rule(eigh_p, _eigh_jvp)
defbatch(eigh_p, _batch_front(eigh_p))


# =======================================================================================
# svd


def _svd_impl(xp, a, full_matrices, compute_uv):
    fast = _host_lapack.svd(xp, a, full_matrices, compute_uv)
    if fast is not None:
        return list(fast) if compute_uv else [fast]
    if compute_uv:
        u, s, vh = xp.linalg.svd(a, full_matrices=full_matrices, compute_uv=True)
        return [u, s, vh]
    return [xp.linalg.svd(a, compute_uv=False)]


def _svd_abstract(a, full_matrices, compute_uv):
    if a.ndim < 2:
        raise ValueError(f"svd: expected a matrix (or a stack of them), got shape {a.shape}")
    _check_float("svd", a)
    *lead, m, n = a.shape
    lead = tuple(lead)
    k = min(m, n)
    rdt = narrow_finfo(a.dtype).dtype
    s = ShapedArray(lead + (k,), rdt)
    if not compute_uv:
        return [s]
    ku, kv = (m, n) if full_matrices else (k, k)
    return [ShapedArray(lead + (m, ku), a.dtype), s, ShapedArray(lead + (kv, n), a.dtype)]


svd_p = Primitive("svd", _svd_impl, _svd_abstract, multiple_results=True, family="linalg")


def svd(a, full_matrices=False, compute_uv=True):
    """``[u, s, vh]`` (or ``[s]``) with ``a = u @ diag(s) @ vh``, ``s`` descending."""
    return svd_p.bind(a, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv))


def _cols(x, start, stop):
    """Columns ``start:stop`` of the last axis (a product with a constant selector)."""
    n = _shape(x)[-1]
    sel = _const(np.eye(n, dtype=_dtype(x))[:, start:stop], x)
    return dot_general_p.bind(x, sel, dimension_numbers=(((_ndim(x) - 1,), (0,)), ((), ())))


def _hcat(x1, x2):
    """Concatenate along the last axis (sum of products with constant embeddings)."""
    k1, k2 = _shape(x1)[-1], _shape(x2)[-1]
    eye = np.eye(k1 + k2, dtype=_dtype(x1))
    dn = (((_ndim(x1) - 1,), (0,)), ((), ()))
    return add(dot_general_p.bind(x1, _const(eye[:k1], x1), dimension_numbers=dn),
               dot_general_p.bind(x2, _const(eye[k1:], x2), dimension_numbers=dn))


def _complete_basis_jvp(q1, q2, dq1):
    """Tangent of the orthonormal complement ``q2`` of ``q1`` (q = [q1 | q2] unitary):
    q1^H dq2 = -dq1^H q2 fixes its component along q1; the rotation within span(q2) is a
    free gauge, chosen zero:  dq2 = -q1 dq1^H q2."""
    return neg(_mm(q1, _mm(_hT(dq1), q2)))


def _svd_reduced_jvp(u, s, v, ta):
    # A = U S V^H (reduced), P = U^H dA V:  ds = Re diag(P),
    #   dU = U (F o (P S + S P^H) + D) + (I - U U^H) dA V S^-1
    #   dV = V (F o (S P + P^H S)) + (I - V V^H) dA^H U S^-1,   F_ij = 1/(s_j^2 - s_i^2),
    # D = diag(Im P_ii / s_i) i for complex input (the phase gauge of JAX's rule; 0 for real)
    m, n = _shape(u)[-2], _shape(v)[-2]
    cplx = _dtype(u).kind == "c"
    p = _mm(_hT(u), _mm(ta, v))
    ds = real(_diag(p)) if cplx else _diag(p)
    s_row = reshape(s, _shape(s)[:-1] + (1, _shape(s)[-1]))  # [..., i, j] = s_j
    f = _as_dtype_of(_gap_inverse(mul(s, s)), u)
    s_row_c = _as_dtype_of(s_row, u)
    ps = mul(p, s_row_c)  # P S
    sp = mul(_mT(s_row_c), p)  # S P
    inner = mul(f, add(ps, _hT(ps)))
    if cplx:  # 0.5 (P - P^H) S^-1 on the diagonal: i Im(P_ii) / s_i
        k = _shape(s)[-1]
        s_zero = convert_element_type(eq(s, 0.0), _dtype(s))
        s_inv = sub(div(1.0, add(s, s_zero)), s_zero)
        half_skew = mul(mul(sub(p, _hT(p)), 0.5), _eye(k, _dtype(p), p))
        inner = add(inner, mul(half_skew, _as_dtype_of(reshape(s_inv, _shape(s_inv)[:-1] + (1, k)), u)))
    du = _mm(u, inner)
    dv = _mm(v, mul(f, add(sp, _hT(sp))))
    if m > n:
        dav = _mm(ta, v)
        du = add(du, div(sub(dav, _mm(u, _mm(_hT(u), dav))), s_row_c))
    if n > m:
        dau = _mm(_hT(ta), u)
        dv = add(dv, div(sub(dau, _mm(v, _mm(_hT(v), dau))), s_row_c))
    return du, ds, dv


def _svd_jvp(primals, tangents, full_matrices, compute_uv):
    (a,), (ta,) = primals, tangents
    m, n = _shape(a)[-2:]
    k = min(m, n)
    out = svd_p.bind(a, full_matrices=full_matrices, compute_uv=compute_uv)
    if not compute_uv:
        u, s, vh = svd_p.bind(a, full_matrices=False, compute_uv=True)
        p = _diag(_mm(_hT(u), _mm(ta, _hT(vh))))
        return out, [real(p) if _dtype(p).kind == "c" else p]
    u, s, vh = out
    v = _hT(vh)
    if not full_matrices or m == n:
        du, ds, dv = _svd_reduced_jvp(u, s, v, ta)
        return out, [du, ds, _hT(dv)]
    # full_matrices, non-square: the reduced factors are the leading k columns; the extra
    # columns span the orthogonal complement (their tangent is fixed up to a gauge)
    u1 = _cols(u, 0, k) if m > k else u
    v1 = _cols(v, 0, k) if n > k else v
    du1, ds, dv1 = _svd_reduced_jvp(u1, s, v1, ta)
    du = _hcat(du1, _complete_basis_jvp(u1, _cols(u, k, m), du1)) if m > k else du1
    dv = _hcat(dv1, _complete_basis_jvp(v1, _cols(v, k, n), dv1)) if n > k else dv1
    return out, [du, ds, _hT(dv)]


defjvp_rule(svd_p, _svd_jvp)
defbatch(svd_p, _batch_front(svd_p))


# =======================================================================================
# qr


def _qr_impl(xp, a, full_matrices):
    fast = _host_lapack.qr(xp, a, full_matrices)
    q, r = fast if fast is not None else xp.linalg.qr(a, mode="complete" if full_matrices else "reduced")
    return [q, r]


def _qr_abstract(a, full_matrices):
    if a.ndim < 2:
        raise ValueError(f"qr: expected a matrix (or a stack of them), got shape {a.shape}")
    _check_float("qr", a)
    *lead, m, n = a.shape
    lead = tuple(lead)
    k = m if full_matrices else min(m, n)
    return [ShapedArray(lead + (m, k), a.dtype), ShapedArray(lead + (k, n), a.dtype)]


qr_p = Primitive("qr", _qr_impl, _qr_abstract, multiple_results=True, family="linalg")


def qr(a, full_matrices=False):
    """``[q, r]`` with ``a = q @ r``; reduced (k = min(m, n)) or complete (q is m x m)."""
    return qr_p.bind(a, full_matrices=bool(full_matrices))


def _qr_square_jvp(q, r, da):
    # A = QR (m >= n), C = Q^H dA R^-1, W = tril(C, -1) - tril(C, -1)^H (skew-Hermitian;
    # complex: plus i Im diag(C), JAX's gauge keeping diag(R) real):
    #   dQ = dA R^-1 + Q (W - C),   dR = (C - W) R
    dar = triangular_solve(r, da, left_side=False, lower=False)
    c = _mm(_hT(q), dar)
    low = _tril(c, -1)
    w = sub(low, _hT(low))
    if _dtype(c).kind == "c":
        n = _shape(c)[-1]
        w = add(w, mul(sub(c, _as_dtype_of(real(c), c)), _eye(n, _dtype(c), c)))
    dq = add(dar, _mm(q, sub(w, c)))
    dr = _mm(sub(c, w), r)
    return dq, dr


def _qr_jvp(primals, tangents, full_matrices):
    (a,), (ta,) = primals, tangents
    m, n = _shape(a)[-2:]
    q, r = qr_p.bind(a, full_matrices=full_matrices)
    if m >= n:
        if not full_matrices or m == n:
            dq, dr = _qr_square_jvp(q, r, ta)
            return [q, r], [dq, dr]
        # complete, tall: q = [q1 | q2], r = [r1; 0]; q2 spans the complement of q1
        q1 = _cols(q, 0, n)
        r1 = _mT(_cols(_mT(r), 0, n))
        dq1, dr1 = _qr_square_jvp(q1, r1, ta)
        dq = _hcat(dq1, _complete_basis_jvp(q1, _cols(q, n, m), dq1))
        pad = _const(np.eye(n, m, dtype=_dtype(dr1)), dr1)  # [dr1; 0]: embed the n rows into m
        dr = _mT(dot_general_p.bind(_mT(dr1), pad, dimension_numbers=(((_ndim(dr1) - 1,), (0,)), ((), ()))))
        return [q, r], [dq, dr]
    # wide: A = [X | Y], X = Q R_X (square), R = [R_X | Q^T Y]
    dt = _dtype(a)
    e1_h = np.eye(n, m, dtype=dt)  # A @ e1 = X
    e2_h = np.eye(n, dtype=dt)[:, m:]  # A @ e2 = Y
    e1, e2, e1t, e2t = (_const(c, a) for c in (e1_h, e2_h, e1_h.T, e2_h.T))

    def rmul(x, c):  # x (..., p, n) @ constant c (n, k)
        return dot_general_p.bind(x, c, dimension_numbers=(((_ndim(x) - 1,), (0,)), ((), ())))

    rx = rmul(r, e1)
    y = rmul(a, e2)
    dq, drx = _qr_square_jvp(q, rx, rmul(ta, e1))
    dry = add(_mm(_hT(dq), y), _mm(_hT(q), rmul(ta, e2)))
    dr = add(rmul(drx, e1t), rmul(dry, e2t))
    return [q, r], [dq, dr]


defjvp_rule(qr_p, _qr_jvp)
defbatch(qr_p, _batch_front(qr_p))


# =======================================================================================
# slogdet


def _slogdet_impl(xp, a):
    sign, logdet = xp.linalg.slogdet(a)
    return [sign, logdet]


def _slogdet_abstract(a):
    _check_square("slogdet", a)
    _check_float("slogdet", a)
    return [ShapedArray(a.shape[:-2], a.dtype), ShapedArray(a.shape[:-2], narrow_finfo(a.dtype).dtype)]


slogdet_p = Primitive("slogdet", _slogdet_impl, _slogdet_abstract, multiple_results=True, family="linalg")


def slogdet(a):
    """``[sign, log|det a|]`` over the last two axes."""
    return slogdet_p.bind(a)


def _slogdet_jvp(primals, tangents):
    # d log det A = tr(A^-1 dA); the sign of a real determinant is locally constant
    (a,), (ta,) = primals, tangents
    sign, logdet = slogdet_p.bind(a)
    if _shape(a)[-1] <= 2:
        t = _small_logdet_tangent(a, ta)
    else:
        t = reduce_sum(_diag(solve_p.bind(a, ta)), (_ndim(a) - 2,))
    if _dtype(a).kind == "c":
        tr = real(t)
        return [sign, logdet], [mul(sign, sub(t, tr)), tr]
    return [sign, logdet], [None, t]


def _small_logdet_tangent(a, ta):
    """``tr(adj(A) dA) / det(A)`` for 1x1 and 2x2 matrices, in JAX's closed form and order
    (``(dA00 A11 - dA01 A10 - dA10 A01 + dA11 A00) / (A00 A11 - A01 A10)``). The adjugate is
    finite everywhere, so at an exactly singular matrix the tangent is an infinity wherever
    ``tr(adj(A) dA) != 0``, as the limit ``1/eps`` of ``d/deps log|det(A + eps dA)|`` (the LU
    solve's ``A^-1 dA`` gave NaN: a zero column of ``dA`` solved to 0/0)."""
    def at(x, i, j):
        return reshape(take_static(take_static(x, [i], _ndim(x) - 2), [j], _ndim(x) - 1), _shape(x)[:-2])

    if _shape(a)[-1] == 1:
        return div(at(ta, 0, 0), at(a, 0, 0))
    a00, a01, a10, a11 = at(a, 0, 0), at(a, 0, 1), at(a, 1, 0), at(a, 1, 1)
    det = sub(mul(a00, a11), mul(a01, a10))
    num = add(sub(sub(mul(at(ta, 0, 0), a11), mul(at(ta, 0, 1), a10)), mul(at(ta, 1, 0), a01)),
              mul(at(ta, 1, 1), a00))
    return div(num, det)


defjvp_rule(slogdet_p, _slogdet_jvp)
defbatch(slogdet_p, _batch_front(slogdet_p))


__all__ = [
    "ContractionShapeError", "dot_general", "dot_general_p", "triangular_solve", "triangular_solve_p",
    "solve", "solve_p",
    "cholesky", "cholesky_p", "eigh", "eigh_p", "svd", "svd_p", "qr", "qr_p", "slogdet", "slogdet_p",
]
