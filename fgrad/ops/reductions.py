"""Reduction primitives: sum, max, min, prod, argmax, argmin, and/or over axes.

Parameters are normalized: ``axes`` is a sorted tuple of non-negative ints.  keepdims is a
composite (reshape after the reduction).
"""

from __future__ import annotations

import numpy as np

from ..core.array import ShapedArray, get_aval
from ..core.primitive import Primitive
from ._quiet import quiet
from .elementwise import convert_element_type, div, eq, mul, select
from .shape import broadcast_in_dim, reshape


def _reduced_shape(shp, axes):
    return tuple(s for i, s in enumerate(shp) if i not in axes)


def _reduce_abstract(prim, out_dtype=None):
    def rule(x, axes, **params):
        for a in axes:
            if a >= x.ndim:
                raise ValueError(f"{prim.name}: axis {a} is out of bounds for shape {x.shape}")
        if out_dtype is not None:
            dt = out_dtype
        else:
            with np.errstate(all="ignore"):
                dt = np.asarray(prim.impl(np, np.ones((1,) * x.ndim, x.dtype), axes=axes, **params)).dtype
        return ShapedArray(_reduced_shape(x.shape, axes), dt)

    return rule


def _reduce_batch(prim):
    def rule(axis_size, vals, dims, axes, **params):
        (x,), (d,) = vals, dims
        # physical positions: logical axis a is physical a if a < d else a + 1
        phys = tuple(a if a < d else a + 1 for a in axes)
        out_d = d - sum(1 for a in phys if a < d)
        return prim.bind(x, axes=tuple(sorted(phys)), **params), out_d

    return rule


def reduction(name, impl, out_dtype=None) -> Primitive:
    prim = Primitive(name, impl, None, family="reduction")
    prim.abstract_eval = _reduce_abstract(prim, out_dtype)
    prim.batch = _reduce_batch(prim)
    return prim


def _expand_back(y, in_shape, axes):
    """Broadcast a reduced value back to ``in_shape``."""
    kept = tuple(i for i in range(len(in_shape)) if i not in axes)
    return broadcast_in_dim(y, in_shape, kept)


# sums and products overflow to inf silently (as in JAX)
reduce_sum_p = reduction("reduce_sum", quiet(lambda xp, x, axes: xp.sum(x, axis=axes)))
reduce_max_p = reduction("reduce_max", lambda xp, x, axes: xp.max(x, axis=axes))
reduce_min_p = reduction("reduce_min", lambda xp, x, axes: xp.min(x, axis=axes))
reduce_prod_p = reduction("reduce_prod", quiet(lambda xp, x, axes: xp.prod(x, axis=axes)))
reduce_and_p = reduction("reduce_and", lambda xp, x, axes: xp.all(x, axis=axes), np.dtype(bool))
reduce_or_p = reduction("reduce_or", lambda xp, x, axes: xp.any(x, axis=axes), np.dtype(bool))


def reduce_sum(x, axes):
    return reduce_sum_p.bind(x, axes=tuple(sorted(axes)))


def reduce_max(x, axes):
    return reduce_max_p.bind(x, axes=tuple(sorted(axes)))


def reduce_min(x, axes):
    return reduce_min_p.bind(x, axes=tuple(sorted(axes)))


def reduce_prod(x, axes):
    return reduce_prod_p.bind(x, axes=tuple(sorted(axes)))


def _sum_jvp(primals, tangents, axes):
    return reduce_sum(primals[0], axes), reduce_sum(tangents[0], axes)


reduce_sum_p.jvp = _sum_jvp
reduce_sum_p.transpose = lambda ct, x, axes: (_expand_back(ct, x.aval.shape, axes),)
reduce_sum_p.linear = True


def _minmax_jvp(prim):
    def jvp(primals, tangents, axes):
        (x,), (t,) = primals, tangents
        y = prim.bind(x, axes=axes)
        xs = get_aval(x).shape
        mask = convert_element_type(eq(x, _expand_back(y, xs, axes)), get_aval(y).dtype)
        count = reduce_sum(mask, axes)
        return y, div(reduce_sum(mul(t, mask), axes), count)

    return jvp


reduce_max_p.jvp = _minmax_jvp(reduce_max_p)
reduce_min_p.jvp = _minmax_jvp(reduce_min_p)


def _prod_jvp(primals, tangents, axes):
    """d prod / d x_i = product of the others (exact with zeros): move the reduced axes to
    the end, flatten them to n, and form the n products that each leave one factor out."""
    from .. import numpy as fnp

    (x,), (t,) = primals, tangents
    y = reduce_prod(x, axes)
    xs = get_aval(x).shape
    keep = [i for i in range(len(xs)) if i not in axes]
    perm = keep + list(axes)
    n = int(np.prod([xs[a] for a in axes], dtype=np.int64))
    lead = tuple(xs[i] for i in keep)
    xf = reshape(fnp.transpose(x, perm), lead + (n,))
    tf = reshape(fnp.transpose(t, perm), lead + (n,))
    eye = fnp._creation.constant_like(np.eye(n, dtype=bool), x)
    xm = broadcast_in_dim(xf, lead + (n, n), tuple(range(len(lead))) + (len(lead) + 1,))
    others = reduce_prod(select(eye, 1.0, xm), (len(lead) + 1,))  # [..., i] = prod_{j != i}
    return y, reduce_sum(mul(tf, others), (len(lead),))


reduce_prod_p.jvp = _prod_jvp
for _p in (reduce_and_p, reduce_or_p):
    _p.jvp = (lambda p: lambda primals, tangents, axes: (p.bind(primals[0], axes=axes), None))(_p)


# -- argmax / argmin -------------------------------------------------------------------

def _arg_abstract(x, axis, index_dtype):
    return ShapedArray(_reduced_shape(x.shape, (axis,)), index_dtype)


def _arg_batch(prim):
    def rule(axis_size, vals, dims, axis, index_dtype):
        (x,), (d,) = vals, dims
        phys = axis if axis < d else axis + 1
        return prim.bind(x, axis=phys, index_dtype=index_dtype), d - (phys < d)

    return rule


argmax_p = Primitive("argmax", lambda xp, x, axis, index_dtype: xp.argmax(x, axis=axis).astype(index_dtype),
                     _arg_abstract, family="reduction")
argmin_p = Primitive("argmin", lambda xp, x, axis, index_dtype: xp.argmin(x, axis=axis).astype(index_dtype),
                     _arg_abstract, family="reduction")
for _p in (argmax_p, argmin_p):
    _p.jvp = (lambda p: lambda primals, tangents, **kw: (p.bind(primals[0], **kw), None))(_p)
    _p.batch = _arg_batch(_p)

__all__ = ["reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_sum_p", "reduce_max_p",
           "reduce_min_p", "reduce_prod_p", "argmax_p", "argmin_p"]
