"""Products with NumPy names: dot, matmul, vdot, inner, outer, tensordot, einsum, kron, cross.

Every contraction lowers to the single ``dot_general`` primitive (plus reshape/transpose/
broadcast/reduce_sum), so all of them differentiate, batch and stage through its rules.
"""

from __future__ import annotations

from typing import Any

from ..typing import ArrayLike, DTypeLike, Shaped

import functools
import math

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind
from ..core.narrow_floats import promote_types as _promote_types

from ..core.array import Array, get_aval
from ..ops import elementwise as ew
from ..ops.convolution import conv_general_dilated_p, ConvDimensionNumbers
from ..ops.elementwise import promote_weak
from ..ops.linalg import ContractionShapeError, check_precision, dot_general_p, widen_to_preferred
from ..ops.structural import rev
from ..ops.reductions import reduce_sum
from ..ops.shape import broadcast_in_dim, moveaxis, reshape, transpose
from ..ops._util import normalize_axis
from ._creation import asarray

__all__ = [
    "convolve", "correlate",
    "dot", "matmul", "vdot", "vecdot", "matvec", "vecmat", "inner", "outer", "tensordot", "einsum",
    "kron", "cross",
]


def _arr(x):
    if isinstance(x, Array):
        return x
    return asarray(x)


def _shape(x):
    return get_aval(x).shape


def _dg(x, y, dn):  # dimension numbers already normalized
    x, y = promote_weak(x, y)  # a weak operand takes the other's dtype (JAX)
    x, y = ew.lattice_pair(x, y)  # an integer meeting a float takes the float's type (JAX)
    return dot_general_p.bind(x, y, dimension_numbers=dn)


def _finish(out, op: str, precision, preferred_element_type):
    """Validate ``precision=`` (fgrad contracts at full precision) and apply JAX's
    ``preferred_element_type=`` (the result's dtype)."""
    check_precision(precision, op)
    if preferred_element_type is not None and get_aval(out).dtype != np.dtype(preferred_element_type):
        out = ew.convert_element_type(out, np.dtype(preferred_element_type))
    return out


def _dn(lc, rc, lb=(), rb=()):
    return ((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb)))


# ---------------------------------------------------------------------------------------
# matmul / dot


def _matmul(a, b):
    """Matrix product with NumPy's rules: 1-D operands are promoted to a row (left) or a
    column (right) and the promoted axis is removed; leading axes broadcast.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.matmul(fnp.ones((2, 3)), fnp.ones(3))
        Array([3., 3.], dtype=float64)
    """
    a, b = _arr(a), _arr(b)
    sa, sb = _shape(a), _shape(b)
    na, nb = len(sa), len(sb)
    if na == 0 or nb == 0:
        raise ValueError(
            f"matmul: Input operand {0 if na == 0 else 1} does not have enough dimensions "
            f"(shapes {sa} @ {sb}); use multiply (`*`) for scalars"
        )
    ka, kb = sa[-1], (sb[-2] if nb >= 2 else sb[0])
    if ka != kb:
        raise ContractionShapeError(
            f"matmul: contracting dimension mismatch: {sa} @ {sb} (last axis of the left operand "
            f"has size {ka}, {'second-to-last' if nb >= 2 else 'only'} axis of the right has size {kb})"
        )
    if nb == 1:  # (..., m, k) @ (k,) -> (..., m)   (also 1-D @ 1-D -> scalar)
        return _dg(a, b, _dn((na - 1,), (0,)))
    if na == 1:  # (k,) @ (..., k, n) -> (..., n)
        return _dg(a, b, _dn((0,), (nb - 2,)))
    if nb == 2:  # (..., m, k) @ (k, n)
        return _dg(a, b, _dn((na - 1,), (0,)))
    if na == 2:  # (m, k) @ (..., k, n) -> (m, ..., n) -> (..., m, n)
        return moveaxis(_dg(a, b, _dn((1,), (nb - 2,))), 0, nb - 2)
    return _matmul_batched(a, b, sa, sb)


def _matmul_batched(a, b, sa, sb):
    la, lb = sa[:-2], sb[:-2]
    try:
        lead = tuple(np.broadcast_shapes(la, lb))
    except ValueError:
        raise ValueError(
            f"matmul: batch dimensions cannot be broadcast together: {sa} @ {sb} (leading axes "
            f"{la} and {lb})"
        ) from None
    L = len(lead)
    pa = (1,) * (L - len(la)) + la
    pb = (1,) * (L - len(lb)) + lb
    batch, a_free, b_free = [], [], []  # positions in the broadcast leading axes
    keep_a, keep_b = [], []
    for i in range(L):
        if pa[i] == pb[i]:
            batch.append(i); keep_a.append(i); keep_b.append(i)
        elif pa[i] == 1:
            b_free.append(i); keep_b.append(i)
        else:
            a_free.append(i); keep_a.append(i)
    a2 = reshape(a, tuple(pa[i] for i in keep_a) + sa[-2:])
    b2 = reshape(b, tuple(pb[i] for i in keep_b) + sb[-2:])
    na2, nb2 = len(keep_a) + 2, len(keep_b) + 2
    dn = _dn((na2 - 1,), (nb2 - 2,), [keep_a.index(i) for i in batch], [keep_b.index(i) for i in batch])
    out = _dg(a2, b2, dn)
    labels = batch + a_free + [L] + b_free + [L + 1]  # L: rows (m), L + 1: columns (n)
    return transpose(out, tuple(labels.index(j) for j in range(L + 2)))


def _dot(a, b):
    """NumPy ``dot``: sum over the last axis of ``a`` and the second-to-last of ``b``
    (the only axis if ``b`` is 1-D); scalars multiply."""
    a, b = _arr(a), _arr(b)
    sa, sb = _shape(a), _shape(b)
    if not sa or not sb:
        return ew.mul(a, b)
    j = 0 if len(sb) == 1 else len(sb) - 2
    if sa[-1] != sb[j]:
        raise ContractionShapeError(
            f"dot: shapes {sa} and {sb} not aligned: {sa[-1]} (dim {len(sa) - 1}) != {sb[j]} (dim {j})"
        )
    return _dg(a, b, _dn((len(sa) - 1,), (j,)))


def _vdot(a, b):
    """Dot product of the flattened arrays, conjugating the first."""
    a, b = _arr(a), _arr(b)
    if _dtype_kind(get_aval(a).dtype) == "c":
        a = ew.conj(a)
    a, b = reshape(a, (get_aval(a).size,)), reshape(b, (get_aval(b).size,))
    if _shape(a) != _shape(b):
        raise ContractionShapeError(f"vdot: arrays have different sizes {_shape(a)[0]} and {_shape(b)[0]}")
    return _dg(a, b, _dn((0,), (0,)))


def _inner(a, b):
    """Sum over the last axes of ``a`` and ``b``; result shape ``a.shape[:-1] + b.shape[:-1]``."""
    a, b = _arr(a), _arr(b)
    sa, sb = _shape(a), _shape(b)
    if not sa or not sb:
        return ew.mul(a, b)
    if sa[-1] != sb[-1]:
        raise ContractionShapeError(
            f"inner: shapes {sa} and {sb} not aligned: last axes {sa[-1]} != {sb[-1]}")
    return _dg(a, b, _dn((len(sa) - 1,), (len(sb) - 1,)))


def outer(a: ArrayLike, b: ArrayLike) -> Array:
    """``outer(a, b)[i, j] = a.ravel()[i] * b.ravel()[j]``."""
    a, b = _arr(a), _arr(b)
    m, n = get_aval(a).size, get_aval(b).size
    return ew.mul(reshape(a, (m, 1)), reshape(b, (1, n)))


def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> Array:
    """``sum(conj(x1) * x2, axis)`` with the other axes broadcast (NumPy 2 ``vecdot``): ``axis``
    counts in each input, the two contracted axes must have equal lengths (they are not
    broadcast), and the result has the inputs' promoted dtype (uint8 stays uint8).

    >>> import fgrad.numpy as fnp
    >>> fnp.vecdot(fnp.ones((2, 3)), fnp.arange(3.0))
    Array([3., 3.], dtype=float64)
    """
    x1, x2 = _arr(x1), _arr(x2)
    s1, s2 = _shape(x1), _shape(x2)
    if not s1 or not s2:
        raise ValueError(f"vecdot: both inputs need at least one dimension, got shapes {s1} and {s2}")
    a1, a2 = normalize_axis(axis, len(s1), "vecdot"), normalize_axis(axis, len(s2), "vecdot")
    if s1[a1] != s2[a2]:
        raise ValueError(
            f"vecdot: the contracted axes must have the same length, got shapes {s1} and {s2} "
            f"with axis={axis} ({s1[a1]} != {s2[a2]}); the contracted axis is not broadcast"
        )
    dt = _promote_types(get_aval(x1).dtype, get_aval(x2).dtype)
    if _dtype_kind(get_aval(x1).dtype) == "c":
        x1 = ew.conj(x1)
    p = ew.mul(moveaxis(x1, a1, -1), moveaxis(x2, a2, -1))
    out = reduce_sum(p, (len(_shape(p)) - 1,))
    return out if get_aval(out).dtype == dt else ew.convert_element_type(out, dt)


def matvec(x1: Shaped[ArrayLike, "*#batch m n"], x2: Shaped[ArrayLike, "*#batch n"], /) -> Array:
    """``x1 @ x2`` for matrices (..., m, n) and vectors (..., n), broadcasting the stacks."""
    x2 = _arr(x2)
    out = matmul(x1, reshape(x2, _shape(x2) + (1,)))
    return reshape(out, _shape(out)[:-1])


def vecmat(x1: Shaped[ArrayLike, "*#batch m"], x2: Shaped[ArrayLike, "*#batch m n"], /) -> Array:
    """``conj(x1) @ x2`` for vectors (..., m) and matrices (..., m, n)."""
    x1 = _arr(x1)
    if _dtype_kind(get_aval(x1).dtype) == "c":
        x1 = ew.conj(x1)
    out = matmul(reshape(x1, _shape(x1)[:-1] + (1, _shape(x1)[-1])), x2)
    return reshape(out, _shape(out)[:-2] + _shape(out)[-1:])


def _tensordot(a, b, axes=2):
    """Sum over ``axes`` (an int N: last N of ``a`` with first N of ``b``; or a pair of
    axis sequences).  Result: free axes of ``a`` then free axes of ``b``."""
    a, b = _arr(a), _arr(b)
    sa, sb = _shape(a), _shape(b)
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0:
            raise ValueError("tensordot: axes must be non-negative")
        if n > len(sa) or n > len(sb):
            raise ValueError(f"tensordot: axes={n} exceeds the rank of {sa} or {sb}")
        ax_a, ax_b = tuple(range(len(sa) - n, len(sa))), tuple(range(n))
    else:
        ax_a, ax_b = axes
        ax_a = (ax_a,) if isinstance(ax_a, (int, np.integer)) else tuple(ax_a)
        ax_b = (ax_b,) if isinstance(ax_b, (int, np.integer)) else tuple(ax_b)
        if len(ax_a) != len(ax_b):
            raise ValueError(f"tensordot: axes lists must have equal length, got {ax_a} and {ax_b}")
        ax_a = tuple(normalize_axis(int(x), len(sa), "tensordot") for x in ax_a)
        ax_b = tuple(normalize_axis(int(x), len(sb), "tensordot") for x in ax_b)
    for i, j in zip(ax_a, ax_b, strict=True):
        if sa[i] != sb[j]:
            raise ContractionShapeError(
                f"tensordot: shape mismatch for sum: {sa} axis {i} ({sa[i]}) vs {sb} axis {j} ({sb[j]})"
            )
    return _dg(a, b, _dn(ax_a, ax_b))


def kron(a: ArrayLike, b: ArrayLike) -> Array:
    """Kronecker product (ranks are equalized by prepending unit axes, as in NumPy)."""
    a, b = _arr(a), _arr(b)
    sa, sb = _shape(a), _shape(b)
    nd = max(len(sa), len(sb))
    sa, sb = (1,) * (nd - len(sa)) + sa, (1,) * (nd - len(sb)) + sb
    a2 = reshape(a, tuple(x for s in sa for x in (s, 1)))
    b2 = reshape(b, tuple(x for s in sb for x in (1, s)))
    return reshape(ew.mul(a2, b2), tuple(x * y for x, y in zip(sa, sb, strict=True)))


def _levi_civita():
    e = np.zeros((3, 3, 3))
    e[0, 1, 2] = e[1, 2, 0] = e[2, 0, 1] = 1.0
    e[0, 2, 1] = e[2, 1, 0] = e[1, 0, 2] = -1.0
    return e


_EPS3 = _levi_civita()  # eps[i, j, k]
_EPS2 = np.array([[0.0, 1.0], [-1.0, 0.0]])  # a x b (z component) = a_j eps2[j, k] b_k


def cross(a: ArrayLike, b: ArrayLike, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: int | None = None) -> Array:
    """Cross product of 3-vectors (2-vectors are taken with z = 0; two 2-vectors give the
    z component), along ``axisa``/``axisb``, result vectors along ``axisc``."""
    a, b = _arr(a), _arr(b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(a, axisa, -1)
    b = moveaxis(b, axisb, -1)
    na, nb = _shape(a)[-1], _shape(b)[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError(
            f"cross: incompatible dimensions for cross product (dimension must be 2 or 3), got {na} and {nb}"
        )
    dt = _promote_types(get_aval(a).dtype, get_aval(b).dtype)
    if na == 2 and nb == 2:
        t = _dg(a, _EPS2.astype(dt), _dn((len(_shape(a)) - 1,), (0,)))  # (..., k)
        p = ew.mul(t, b)
        z = reduce_sum(p, (len(_shape(p)) - 1,))
        return z if get_aval(z).dtype == dt else ew.convert_element_type(z, dt)
    embed = np.eye(2, 3, dtype=dt)
    if na == 2:
        a = _dg(a, embed, _dn((len(_shape(a)) - 1,), (0,)))
    if nb == 2:
        b = _dg(b, embed, _dn((len(_shape(b)) - 1,), (0,)))
    # c_i = eps_ijk a_j b_k: t[..., i, k] = sum_j a_j eps_ijk, then c_i = sum_k t_ik b_k
    t = _dg(a, np.ascontiguousarray(_EPS3.transpose(1, 0, 2)).astype(dt),
                    _dn((len(_shape(a)) - 1,), (0,)))
    bb = reshape(b, _shape(b)[:-1] + (1, 3))
    c = ew.mul(t, bb)
    c = reduce_sum(c, (len(_shape(c)) - 1,))
    # integer sums accumulate in int64/uint64; NumPy keeps the promoted input dtype (wrapping
    # modulo 2**bits, which the narrowing cast reproduces exactly)
    c = c if get_aval(c).dtype == dt else ew.convert_element_type(c, dt)
    return moveaxis(c, -1, axisc)


# ---------------------------------------------------------------------------------------
# einsum


def _convert_interleaved(operands):
    ops, terms = [], []
    args = list(operands)
    out = None
    if len(args) % 2 == 1:
        out = args.pop()
    for i in range(0, len(args), 2):
        ops.append(args[i])
        terms.append(args[i + 1])

    def sub(lst):
        s = []
        for v in lst:
            if v is Ellipsis:
                s.append("...")
            else:
                v = int(v)
                if not 0 <= v < 52:
                    raise ValueError(f"einsum: subscript {v} is out of range [0, 52)")
                s.append("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[v])
        return "".join(s)

    spec = ",".join(sub(t) for t in terms)
    if out is not None:
        spec += "->" + sub(out)
    return spec, ops


@functools.lru_cache(maxsize=512)
def _parse_einsum(subscripts: str, ndims: tuple):
    spec = subscripts.replace(" ", "")
    if "->" in spec:
        lhs, out = spec.split("->")
        if "->" in out:
            raise ValueError("einsum: subscripts contain more than one '->'")
    else:
        lhs, out = spec, None
    terms = lhs.split(",")
    if len(terms) != len(ndims):
        raise ValueError(
            f"einsum: {len(terms)} operand subscripts given for {len(ndims)} operands ({subscripts!r})"
        )
    parsed, n_ell = [], []
    for t, nd in zip(terms, ndims, strict=True):
        if t.count("...") > 1 or "." in t.replace("...", ""):
            raise ValueError(f"einsum: invalid ellipsis in subscripts {t!r}")
        letters = t.replace("...", "")
        for c in letters:
            if not c.isalpha():
                raise ValueError(f"einsum: invalid subscript {c!r} in {subscripts!r} (use letters a-z, A-Z)")
        e = nd - len(letters)
        if e < 0 or (e > 0 and "..." not in t):
            raise ValueError(
                f"einsum: operand subscripts {t!r} do not match the operand's {nd} dimensions"
            )
        n_ell.append(e if "..." in t else 0)
        parsed.append(t)
    E = max(n_ell, default=0)
    in_labels = []
    for t, e in zip(parsed, n_ell, strict=True):
        labs = []
        if "..." in t:
            pre, post = t.split("...")
            labs = list(pre) + [f".{E - e + i}" for i in range(e)] + list(post)
        else:
            labs = list(t)
        in_labels.append(labs)
    ell = [f".{i}" for i in range(E)]
    if out is None:
        counts = {}
        for labs in in_labels:
            for lab in labs:
                counts[lab] = counts.get(lab, 0) + 1
        out_labels = ell + sorted(c for c, k in counts.items() if k == 1 and not c.startswith("."))
    else:
        if out.count("...") > 1 or "." in out.replace("...", ""):
            raise ValueError(f"einsum: invalid ellipsis in output subscripts {out!r}")
        if "..." in out:
            pre, post = out.split("...")
            out_labels = list(pre) + ell + list(post)
        else:  # JAX (opt_einsum) sums the ellipsis dimensions an explicit output leaves out
            out_labels = list(out)
        seen = set()
        all_in = {lab for labs in in_labels for lab in labs}
        for c in out_labels:
            if c in seen:
                raise ValueError(f"einsum: output subscript {c!r} appears more than once")
            seen.add(c)
            if c not in all_in:
                raise ValueError(f"einsum: output subscript {c!r} does not appear in the input subscripts")
    return tuple(tuple(labs) for labs in in_labels), tuple(out_labels)


def einsum(subscripts: str, *operands: ArrayLike, out: None = None, optimize: Any = None,
           precision: Any = None, preferred_element_type: DTypeLike | None = None,
           dtype: DTypeLike | None = None) -> Array:
    """Einstein summation with NumPy's subscripts (``'...'`` broadcasting, implicit output).

    Lowers to pairwise ``dot_general`` contractions (greedily the pair with the smallest
    intermediate; left to right for two operands), plus transposes, reduce_sum, broadcasts
    and diagonal masks.  The lowering is cached per (subscripts, shapes, dtypes).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.einsum("ij,jk->ik", fnp.ones((2, 3)), fnp.ones((3, 4))).shape
        (2, 4)
    """
    if out is not None:
        raise NotImplementedError("fgrad.numpy.einsum: out= is not supported (arrays are immutable)")
    check_precision(precision, "einsum")
    if not isinstance(subscripts, str):
        subscripts, operands = _convert_interleaved((subscripts,) + tuple(operands))
    ops = [_arr(o) for o in operands]
    if not ops:
        raise ValueError("einsum: no operands given")
    avals = [get_aval(o) for o in ops]
    res_dtype = functools.reduce(_promote_types, [a.dtype for a in avals])
    if dtype is not None:
        res_dtype = np.dtype(dtype)
    if preferred_element_type is not None:
        res_dtype = np.dtype(preferred_element_type)
    prep, dns, perm = _einsum_plan(subscripts, tuple(a.shape for a in avals),
                                   tuple(a.dtype for a in avals), res_dtype)
    xs = []
    for o, (diags, cast, target, drop) in zip(ops, prep, strict=True):
        for mask, q in diags:
            o = reduce_sum(ew.mul(o, mask), (q,))
        if cast:
            o = ew.convert_element_type(o, res_dtype)
        if target is not None:
            o = broadcast_in_dim(o, target, tuple(range(len(target))))
        if drop:
            o = reduce_sum(o, drop)
        xs.append(o)
    for i, j, dn in dns:  # contract operands i < j; the result goes to the end
        b, a = xs.pop(j), xs.pop(i)
        xs.append(_dg(a, b, dn))
    cur = transpose(xs[0], perm)
    if get_aval(cur).dtype != res_dtype:
        cur = ew.convert_element_type(cur, res_dtype)
    return cur


@functools.lru_cache(maxsize=1024)
def _einsum_plan(subscripts, shapes, dtypes, res_dtype):
    """The static lowering of one einsum call: per-operand steps (diagonal masks, cast,
    broadcast, sums over private labels), the dot_general dimension numbers of each
    pairwise contraction (left to right), and the final permutation."""
    in_labels, out_labels = _parse_einsum(subscripts, tuple(len(s) for s in shapes))
    in_labels, out_labels = [list(labs) for labs in in_labels], list(out_labels)

    # label sizes (size-1 axes broadcast)
    sizes: dict = {}
    for i, (shp, labs) in enumerate(zip(shapes, in_labels, strict=True)):
        for lab, n in zip(labs, shp, strict=True):
            prev = sizes.get(lab)
            if prev is None or prev == 1:
                sizes[lab] = n
            elif n not in (1, prev):
                name = "'...'" if lab.startswith(".") else repr(lab)
                raise ValueError(
                    f"einsum: size of label {name} for operand {i} ({n}) does not match previous "
                    f"terms ({prev}) in {subscripts!r}"
                )

    # per operand: diagonals (repeated labels), cast, broadcasting, and sums over labels
    # used nowhere else
    prep, labels = [], []
    for i, (shp, labs) in enumerate(zip(shapes, in_labels, strict=True)):
        shp, labs, diags = list(shp), list(labs), []
        while True:
            dup = next((lab for lab in labs if labs.count(lab) > 1), None)
            if dup is None:
                break
            p = labs.index(dup)
            q = labs.index(dup, p + 1)
            if shp[p] != shp[q]:
                raise ValueError(
                    f"einsum: repeated subscript {dup!r} on axes of different sizes {shp[p]} and {shp[q]}"
                )
            mshape = [1] * len(shp)
            mshape[p] = mshape[q] = shp[p]
            diags.append((np.eye(shp[p], dtype=dtypes[i]).reshape(mshape), q))
            del labs[q], shp[q]
        target = tuple(sizes[lab] for lab in labs)
        elsewhere = set(out_labels).union(*[set(in_labels[j]) for j in range(len(shapes)) if j != i])
        drop = tuple(k for k, lab in enumerate(labs) if lab not in elsewhere)
        prep.append((tuple(diags), dtypes[i] != res_dtype, None if tuple(shp) == target else target, drop))
        labels.append([lab for k, lab in enumerate(labs) if k not in drop])

    # pairwise contractions: greedily the pair with the smallest result (ties: leftmost),
    # which is plain left to right for two operands
    dns = []
    while len(labels) > 1:
        best = None
        for i in range(len(labels)):
            for j in range(i + 1, len(labels)):
                res = _pair_result(labels, i, j, out_labels)[0]
                size = math.prod(sizes[lab] for lab in res)
                if best is None or size < best[0]:
                    best = (size, i, j)
        _, i, j = best
        res, batch, contract = _pair_result(labels, i, j, out_labels)
        al, bl = labels[i], labels[j]
        dns.append((i, j, _dn([al.index(lab) for lab in contract], [bl.index(lab) for lab in contract],
                              [al.index(lab) for lab in batch], [bl.index(lab) for lab in batch])))
        del labels[j], labels[i]
        labels.append(res)
    cl = labels[0]
    assert sorted(cl) == sorted(out_labels), (cl, out_labels)
    return tuple(prep), tuple(dns), tuple(cl.index(lab) for lab in out_labels)


def _pair_result(labels, i, j, out_labels):
    """Labels of contracting operands i and j (dot_general order: batch, free i, free j)."""
    al, bl = labels[i], labels[j]
    later = set(out_labels).union(*[set(labels[k]) for k in range(len(labels)) if k not in (i, j)])
    shared = [lab for lab in al if lab in bl]
    batch = [lab for lab in shared if lab in later]
    contract = [lab for lab in shared if lab not in later]
    res = batch + [lab for lab in al if lab not in shared] + [lab for lab in bl if lab not in shared]
    return res, batch, contract


def _correlate_full(a, v):
    """Full cross-correlation of 1-d ``a`` and ``v`` (``len(a) + len(v) - 1`` values), one
    convolution."""
    m = _shape(v)[0]
    out = conv_general_dilated_p.bind(
        reshape(a, (1, 1, _shape(a)[0])), reshape(v, (1, 1, m)), window_strides=(1,),
        padding=((m - 1, m - 1),), lhs_dilation=(1,), rhs_dilation=(1,),
        dimension_numbers=ConvDimensionNumbers((0, 1, 2), (0, 1, 2), (0, 1, 2)),
        feature_group_count=1, batch_group_count=1)
    return reshape(out, (_shape(out)[2],))


def _mode_slice(full, n: int, m: int, mode: str):
    if mode == "full":
        return full
    if mode == "same":
        start = (min(n, m) - 1) // 2
        return full[start:start + max(n, m)]
    if mode == "valid":
        k = min(n, m) - 1
        return full[k:k + max(n, m) - min(n, m) + 1]
    raise ValueError(f"mode must be one of 'full', 'same' or 'valid', got {mode!r}")


def _check_1d(name, a, v):
    a, v = _arr(a), _arr(v)
    if get_aval(a).ndim != 1 or get_aval(v).ndim != 1:
        raise ValueError(f"{name}() only supports 1-dimensional inputs, got shapes {_shape(a)} and "
                         f"{_shape(v)}")
    if _shape(a)[0] == 0 or _shape(v)[0] == 0:
        raise ValueError(f"{name}: inputs cannot be empty")
    return ew.promote_args_inexact(a, v)  # JAX: integers in the inexact dtype (int8 -> float32)


def correlate(a: ArrayLike, v: ArrayLike, mode: str = "valid") -> Array:
    """Cross-correlation of two 1-d sequences, ``c[k] = sum_n a[n + k] * conj(v[n])``
    (``numpy.correlate``), as one convolution; bool/integer inputs in JAX's inexact dtype.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.correlate(fnp.array([1.0, 2.0, 3.0]), fnp.array([0.0, 1.0, 0.5]), "full")
        Array([0.5, 2. , 3.5, 3. , 0. ], dtype=float64)
    """
    a, v = _check_1d("correlate", a, v)
    n, m = _shape(a)[0], _shape(v)[0]
    cplx = np.dtype(get_aval(a).dtype).kind == "c" or np.dtype(get_aval(v).dtype).kind == "c"
    if m > n:  # numpy swaps the operands: c[k] = conj(d[-k]) for d = correlate(v, a)
        d = _mode_slice(_correlate_full(v, ew.conj(a) if cplx else a), n, m, mode)
        d = rev(d, (0,))
        return ew.conj(d) if cplx else d
    return _mode_slice(_correlate_full(a, ew.conj(v) if cplx else v), n, m, mode)


def convolve(a: ArrayLike, v: ArrayLike, mode: str = "full") -> Array:
    """Discrete linear convolution of two 1-d sequences (``numpy.convolve``), as one
    convolution with the flipped kernel; bool/integer inputs in JAX's inexact dtype.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.convolve(fnp.array([1.0, 2.0, 3.0]), fnp.array([0.0, 1.0, 0.5]))
        Array([0. , 1. , 2.5, 4. , 1.5], dtype=float64)
    """
    a, v = _check_1d("convolve", a, v)
    n, m = _shape(a)[0], _shape(v)[0]
    if m > n:
        a, v = v, a
    full = _correlate_full(a, rev(v, (0,)))
    return _mode_slice(full, n, m, mode)


# the public faces: JAX's keyword-only precision= / preferred_element_type=

def matmul(a: Shaped[ArrayLike, "*#batch m k"] | Shaped[ArrayLike, " k"],
           b: Shaped[ArrayLike, "*#batch k n"] | Shaped[ArrayLike, " k"], *, precision: Any = None,
           preferred_element_type: DTypeLike | None = None) -> Array:
    """Matrix product with NumPy's rules: 1-D operands are promoted to a row (left) or a
    column (right) and the promoted axis is removed; leading axes broadcast.  ``precision`` is
    validated (fgrad contracts at full precision); ``preferred_element_type`` sets the result
    dtype.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.matmul(fnp.ones((2, 3)), fnp.ones(3))
        Array([3., 3.], dtype=float64)
    """
    return _finish(_matmul(*widen_to_preferred(preferred_element_type, a, b)), "matmul", precision,
                   preferred_element_type)


def dot(a: ArrayLike, b: ArrayLike, *, precision: Any = None,
        preferred_element_type: DTypeLike | None = None) -> Array:
    """NumPy ``dot``: sum over the last axis of ``a`` and the second-to-last of ``b``
    (the only axis if ``b`` is 1-D); scalars multiply.  ``precision``/``preferred_element_type``
    as in `matmul`.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.dot(fnp.ones(3), fnp.ones(3), precision="highest")
        Array(3., dtype=float64)
    """
    return _finish(_dot(*widen_to_preferred(preferred_element_type, a, b)), "dot", precision,
                   preferred_element_type)


def vdot(a: ArrayLike, b: ArrayLike, *, precision: Any = None,
         preferred_element_type: DTypeLike | None = None) -> Shaped[Array, ""]:
    """Dot product of the flattened arrays, conjugating the first.  ``precision``/
    ``preferred_element_type`` as in `matmul`.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.vdot(fnp.ones((2, 2)), fnp.ones(4))
        Array(4., dtype=float64)
    """
    return _finish(_vdot(*widen_to_preferred(preferred_element_type, a, b)), "vdot", precision,
                   preferred_element_type)


def inner(a: ArrayLike, b: ArrayLike, *, precision: Any = None,
          preferred_element_type: DTypeLike | None = None) -> Array:
    """Sum over the last axes of ``a`` and ``b``; result shape ``a.shape[:-1] + b.shape[:-1]``.
    ``precision``/``preferred_element_type`` as in `matmul`.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.inner(fnp.ones(3), fnp.ones(3))
        Array(3., dtype=float64)
    """
    return _finish(_inner(*widen_to_preferred(preferred_element_type, a, b)), "inner", precision,
                   preferred_element_type)


def tensordot(a: ArrayLike, b: ArrayLike, axes: Any = 2, *, precision: Any = None,
              preferred_element_type: DTypeLike | None = None) -> Array:
    """Sum over ``axes`` (an int N: last N of ``a`` with first N of ``b``; or a pair of
    axis sequences).  Result: free axes of ``a`` then free axes of ``b``.  ``precision``/
    ``preferred_element_type`` as in `matmul`.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.tensordot(fnp.ones((2, 3)), fnp.ones((2, 3)), 2)
        Array(6., dtype=float64)
    """
    a, b = widen_to_preferred(preferred_element_type, a, b)
    return _finish(_tensordot(a, b, axes), "tensordot", precision, preferred_element_type)
