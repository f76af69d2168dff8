"""Sparse rules: what each primitive does when an operand is a BCOO array.  Used by
`sparsify` (which runs a traced program with these rules) and by `BCOO`'s operators.

A rule takes the operands (BCOO arrays or dense values) and the primitive's parameters.
Primitives without a rule raise NotImplementedError when an operand is sparse: computing
them would densify the array silently (JAX's message and advice).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import fgrad.numpy as fnp
from ...core.primitive import PRIMITIVES
from ...ops.elementwise import integer_pow_p
from ...ops.structural import slice_indexer
from ._bcoo import BCOO
from ._convert import bcoo_todense
from ._dot import bcoo_dot_general
from ._elementwise import bcoo_add, bcoo_map_data, bcoo_multiply_sparse, multiply_dense
from ._slicing import basic_index_from_indexer, bcoo_basic_index, bcoo_concatenate, bcoo_rev
from ._shape import bcoo_broadcast_in_dim, bcoo_reduce_sum, bcoo_reshape, bcoo_transpose

__all__ = ["SPARSE_RULES", "TODENSE_NAME", "apply_rule", "densifying_error"]

TODENSE_NAME = "fgrad.experimental.sparse.todense"  # the `name` marker `todense` leaves in traces

# primitives with f(0) == 0: applied to the stored values only
ZERO_PRESERVING = (
    "neg",
    "square",
    "sin",
    "tan",
    "sqrt",
    "tanh",
    "abs",
    "sign",
    "expm1",
    "log1p",
    "sinh",
    "asin",
    "atan",
    "asinh",
    "atanh",
    "real",
    "imag",
    "conj",
    "cbrt",
    "erf",
    "floor",
    "ceil",
    "round",
    "trunc",
    "stop_gradient",
    "convert_element_type",
    "copy",
    "erf_inv",
)


def densifying_error(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"sparse rule for {name} is not implemented because it would result in dense output. If this is your "
        "intent, use sparse.todense() to convert your arguments to dense arrays."
    )


def _is_sparse(x: Any) -> bool:
    return isinstance(x, BCOO)


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(np.shape(x)) if not hasattr(x, "shape") else tuple(x.shape)


def _unary(name: str) -> Callable[..., Any]:
    prim = PRIMITIVES[name]

    def rule(x, **params):
        return bcoo_map_data(x, lambda d: prim.bind(d, **params))

    return rule


def _mul(x, y, **params):
    if _is_sparse(x) and _is_sparse(y):
        return bcoo_multiply_sparse(x, y)
    sp, dense = (x, y) if _is_sparse(x) else (y, x)
    if not _shape(dense):
        return bcoo_map_data(
            sp, lambda d: fnp.multiply(d, dense) if _is_sparse(x) else fnp.multiply(dense, d)
        )
    return multiply_dense(sp, dense)


def _div(x, y, **params):
    if _is_sparse(y):
        raise densifying_error("div (a sparse divisor)")
    if not _shape(y):
        if np.dtype(x.dtype).kind in "iub":  # lax's integer division, as the traced program has it
            return bcoo_map_data(x, lambda d: PRIMITIVES["div"].bind(d, y))
        return bcoo_map_data(x, lambda d: fnp.true_divide(d, y))
    return multiply_dense(x, fnp.reciprocal(fnp.asarray(y)))


def _add_or_sub(name: str) -> Callable[..., Any]:
    def rule(x, y, **params):
        if _is_sparse(x) and _is_sparse(y):
            return bcoo_add(x, bcoo_map_data(y, fnp.negative) if name == "sub" else y)
        sp, dense = (x, y) if _is_sparse(x) else (y, x)
        out_shape = np.broadcast_shapes(sp.shape, _shape(dense))
        if out_shape != _shape(dense):
            raise NotImplementedError(
                "Addition between a sparse array X and a dense array Y is not implemented when the output "
                "shape "
                f"is larger than Y.shape. This is to prevent silent densification of a large sparse array. "
                f"(shapes {sp.shape} and {_shape(dense)}; call sparse.todense first if that is your intent)"
            )
        x = bcoo_todense(x) if _is_sparse(x) else x
        y = bcoo_todense(y) if _is_sparse(y) else y
        return PRIMITIVES[name].bind(x, y)

    return rule


def _pow(x, y, **params):
    if _is_sparse(y):
        raise densifying_error("pow (a sparse exponent)")
    try:
        positive = float(np.asarray(y)) > 0 if not _shape(y) else False
    except Exception:  # noqa: BLE001 -- a traced exponent: 0 ** y is unknown
        positive = False
    if not positive:
        raise NotImplementedError(
            "sparse rule for pow needs a concrete positive scalar exponent (0 ** y must be 0); "
            "use sparse.todense() for other exponents"
        )
    return bcoo_map_data(x, lambda d: fnp.power(d, y))


def _dot_general(x, y, *, dimension_numbers, **params):
    return bcoo_dot_general(x, y, dimension_numbers=dimension_numbers)


def _reduce_sum(x, *, axes, **params):
    out = bcoo_reduce_sum(x, axes=axes)
    return bcoo_todense(out) if not out.shape else out


def _transpose(x, *, permutation, **params):
    return bcoo_transpose(x, permutation=permutation)


def _reshape(x, *, new_sizes, dimensions=None, **params):
    return bcoo_reshape(x, new_sizes=new_sizes, dimensions=dimensions)


def _gather(x, *index_arrays, indexer, **params):
    basic = None if index_arrays or not _is_sparse(x) else basic_index_from_indexer(indexer, x.ndim)
    if basic is None:
        raise densifying_error("gather (indexing with arrays)")
    return bcoo_basic_index(x, *basic)


def _slice(x, *, start_indices, limit_indices, strides, **params):
    indexer = slice_indexer(x.shape, start_indices, limit_indices, strides)
    return bcoo_basic_index(x, *basic_index_from_indexer(indexer, x.ndim))


def _squeeze(x, *, dimensions, **params):
    return bcoo_reshape(x, new_sizes=tuple(n for i, n in enumerate(x.shape) if i not in dimensions))


def _integer_pow(x, *, y, **params):
    if y <= 0:
        raise NotImplementedError(
            f"sparse rule for integer_pow needs a positive exponent (0 ** {y} is not 0); "
            "use sparse.todense() for other exponents")
    return bcoo_map_data(x, lambda d: integer_pow_p.bind(d, y=y))


def _rev(x, *, dimensions, **params):
    return bcoo_rev(x, dimensions)


def _concatenate(*operands, dimension, **params):
    if not all(_is_sparse(o) for o in operands):
        raise densifying_error("concatenate (of sparse and dense arrays)")
    return bcoo_concatenate(operands, dimension=dimension)


def _broadcast_in_dim(x, *dyn, shape, broadcast_dimensions, **params):
    if dyn:
        raise densifying_error("broadcast_in_dim (dynamic shapes)")
    return bcoo_broadcast_in_dim(x, shape=shape, broadcast_dimensions=broadcast_dimensions)


def _name(x, *, name, **params):
    return bcoo_todense(x) if name == TODENSE_NAME else x


SPARSE_RULES: dict[str, Callable[..., Any]] = {
    name: _unary(name) for name in ZERO_PRESERVING if name in PRIMITIVES
}
SPARSE_RULES.update(
    {
        "mul": _mul,
        "div": _div,
        "add": _add_or_sub("add"),
        "add_any": _add_or_sub("add"),
        "sub": _add_or_sub("sub"),
        "pow": _pow,
        "integer_pow": _integer_pow,
        "slice": _slice,
        "squeeze": _squeeze,
        "dot_general": _dot_general,
        "reduce_sum": _reduce_sum,
        "transpose": _transpose,
        "reshape": _reshape,
        "name": _name,
        "gather": _gather,
        "rev": _rev,
        "broadcast_in_dim": _broadcast_in_dim,
        "concatenate": _concatenate,
    }
)


def apply_rule(prim_name: str, /, *args: Any, **params: Any) -> Any:
    """Apply primitive ``name`` to operands some of which are BCOO arrays.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([0., 3.]))
        >>> apply_rule("mul", s, 2.0).todense().tolist()
        [0.0, 6.0]
    """
    rule = SPARSE_RULES.get(prim_name)
    if rule is None:
        raise densifying_error(prim_name)
    return rule(*args, **params)
