"""The ``diagonal_dot`` primitive: a matrix product whose one factor is a diagonal matrix
built from the identity, run as a scaling (O(n²) instead of the GEMM's O(n³)).

``jacrev``/``jacfwd``/``hessian`` push the identity basis through the function's VJP or
JVP: the cotangent (tangent) of every output is a row of ``I``, and the traced program
multiplies ``I`` by vectors (``I * c * g``: a diagonal matrix) and then multiplies that by a
weight matrix, a full ``n × n × k`` GEMM.  jit's pass `compile.passes.diagonal_dots` finds
that pattern (an identity constant, multiplied by scalars and vectors, contracted by a
``dot_general``) and replaces the product by this primitive.  It computes the diagonal
``d = v₁ v₂ …`` and scales the other operand's contracted axis by it: every entry is
``dᵢ aᵢⱼ``, the one nonzero term of the GEMM's sum, so the values are the GEMM's up to the
sign of a zero.  The GEMM and the materialized diagonal matrix differ from the scaling only
when an operand holds an infinity or a NaN (``0 · inf`` is NaN off the diagonal): then the
primitive computes exactly what the original program did (the identity times the vectors in
their order, then ``dot_general``).

Example::

    >>> import numpy as np
    >>> from fgrad.ops.diagonal_dot import diagonal_dot_p
    >>> v, a = np.array([1.0, 2.0]), np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> diagonal_dot_p.bind(v, a, n=2, chain=(None,), d_first=True,
    ...                     dimension_numbers=(((1,), (0,)), ((), ())))
    Array([[1., 2.],
           [6., 8.]], dtype=float64)
"""

from __future__ import annotations

import numpy as np

from ..core.array import ShapedArray
from ..core.primitive import Primitive
from ..core.rules import add_tangents, defbatch, defjvp_rule
from .elementwise import mul
from .linalg import _dg_abstract, dot_general, dot_general_p


def _diagonal(xp, n: int, dtype, chain, vectors):
    """The identity times the chain's factors, in order (the original program's matrix)."""
    m = xp.eye(n, dtype=dtype)
    it = iter(vectors)
    for lit in chain:
        m = m * (next(it) if lit is None else lit)
    return m


def _impl(xp, *ops, n, chain, d_first, dimension_numbers):
    vectors, a = ops[:-1], ops[-1]
    (lc, rc), _ = dimension_numbers
    ca = (rc if d_first else lc)[0]
    if xp is np and all(np.isfinite(v).all() for v in vectors) and np.isfinite(a).all():
        d = np.ones(n, a.dtype)
        it = iter(vectors)
        for lit in chain:
            d = d * (np.reshape(next(it), -1) if lit is None else lit)
        moved = np.moveaxis(a, ca, 0 if d_first else -1)
        scale = d.reshape((n,) + (1,) * (a.ndim - 1)) if d_first else d
        return np.multiply(moved, scale, out=np.empty(moved.shape, a.dtype))
    m = _diagonal(xp, n, a.dtype, chain, vectors)
    return dot_general_p.impl(xp, m, a, dimension_numbers) if d_first else \
        dot_general_p.impl(xp, a, m, dimension_numbers)


def _abstract(*avals, n, chain, d_first, dimension_numbers):
    a = avals[-1]
    m = ShapedArray((n, n), a.dtype)
    return _dg_abstract(m, a, dimension_numbers) if d_first else _dg_abstract(a, m, dimension_numbers)


diagonal_dot_p = Primitive("diagonal_dot", _impl, _abstract, family="contraction")


def _reference(*ops, n, chain, d_first, dimension_numbers):
    """The primitive as the fgrad ops it replaced (its derivative and batching rules)."""
    m = np.eye(n, dtype=np.dtype(ops[-1].dtype))  # a constant: the identity the basis was
    it = iter(ops[:-1])
    for lit in chain:
        m = mul(m, next(it) if lit is None else lit)
    a = ops[-1]
    return dot_general(m, a, dimension_numbers) if d_first else dot_general(a, m, dimension_numbers)


def _jvp(primals, tangents, **params):
    # linear in each operand separately (a product of the factors and ``a``); the tangent is
    # built from the ops of `_reference`, whose transposes reverse mode uses
    out = diagonal_dot_p.bind(*primals, **params)
    t = None
    for k, tk in enumerate(tangents):
        if tk is not None:
            args = list(primals)
            args[k] = tk
            t = add_tangents(t, _reference(*args, **params))
    return out, t


def _batch(axis_size, vals, dims, **params):
    from ..transforms.batching import vmap

    return vmap(lambda *xs: _reference(*xs, **params), in_axes=tuple(dims))(*vals), 0


defjvp_rule(diagonal_dot_p, _jvp)
defbatch(diagonal_dot_p, _batch)

__all__ = ["diagonal_dot_p"]
