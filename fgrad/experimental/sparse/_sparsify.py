"""`sparsify`: run a function written for dense arrays on BCOO arguments (JAX's
``jax.experimental.sparse.sparsify``).

The function is traced once to a program (``make_jaxpr``) with dense stand-ins of the
sparse arguments' shapes -- nothing of their dense size is allocated -- and the program is
run equation by equation: an equation whose operands are all dense binds its primitive as
usual (under whatever transformation is active, so ``jit``/``grad``/``vmap`` of a sparsified
function work), one with a sparse operand applies that primitive's sparse rule
(`_rules.SPARSE_RULES`), and one without a rule raises instead of densifying.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from ...core.array import ShapeDtypeStruct
from ...core.ir import eval_jaxpr
from ...transforms.jit import make_jaxpr
from ...tree_util import tree_flatten, tree_unflatten
from ._base import JAXSparse
from ._bcoo import BCOO
from ._elementwise import bcoo_map_data
from ._rules import apply_rule

__all__ = ["eval_sparse_jaxpr", "sparsify"]


def _as_bcoo(x: Any) -> Any:
    to_bcoo = getattr(x, "to_bcoo", None)
    return to_bcoo() if to_bcoo is not None and not isinstance(x, BCOO) else x


def eval_sparse_jaxpr(jaxpr: Any, consts: list, args: list) -> list:
    """Run ``jaxpr`` on ``args`` (dense values or BCOO arrays), sparse rules where an operand
    is sparse.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> s = sparse.BCOO.fromdense(fnp.array([0., 2.]))
        >>> cj = fgrad.make_jaxpr(lambda x: -x * 3.0)(fnp.zeros(2))
        >>> eval_sparse_jaxpr(cj.jaxpr, cj.consts, [s])[0].todense().tolist()
        [0.0, -6.0]
    """
    return eval_jaxpr(jaxpr, consts, args, _sparse_eqn)


def _sparse_eqn(e: Any, vals: list) -> Any:
    """One equation: its sparse rule where an operand is sparse, else the primitive."""
    if any(isinstance(x, BCOO) for x in vals):
        if e.prim.name in ("add", "sub") and _share_indices(*vals):
            # derived from one sparse value: same stored positions, so add the values (as JAX)
            x, y = vals
            out = bcoo_map_data(x, lambda d: e.prim.bind(d, y.data))
        elif e.prim.name == "jit":  # a nested jit: run its program with the sparse rules too
            closed = e.params["closed"]
            out = eval_sparse_jaxpr(closed.jaxpr, closed.consts, vals)
        else:
            out = apply_rule(e.prim.name, *vals, **e.params)
    else:
        out = e.prim.bind(*vals, **e.params)
    return out if e.prim.multiple_results else (out,)


def _share_indices(x: Any, y: Any) -> bool:
    return (
        isinstance(x, BCOO)
        and isinstance(y, BCOO)
        and x.indices is y.indices
        and x.shape == y.shape
        and x.data.shape == y.data.shape
        and x.dtype == y.dtype
    )


def _is_traced_leaf(x: Any) -> bool:
    return isinstance(x, JAXSparse) or (hasattr(x, "shape") and hasattr(x, "dtype"))


def sparsify(f: Callable[..., Any], use_tracer: bool = False) -> Callable[..., Any]:
    """``f`` made to accept BCOO (and BCSR) arguments: its operations apply to the sparse
    representation (results stay sparse where JAX's do), and operations that would densify
    a sparse array raise NotImplementedError.  ``use_tracer`` is accepted for JAX's
    signature (fgrad always interprets the traced program).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> M = sparse.BCOO.fromdense(fnp.array([[0., 1.], [2., 0.]]))
        >>> f = sparse.sparsify(lambda m, v: 2 * (m @ v) + fnp.sum(m))
        >>> f(M, fnp.array([1., 10.])).tolist()
        [23.0, 7.0]
    """
    del use_tracer

    @functools.wraps(f)
    def sparsified(*args: Any, **kwargs: Any) -> Any:
        leaves, tree = tree_flatten((args, kwargs), is_leaf=lambda x: isinstance(x, JAXSparse))
        if not any(isinstance(x, JAXSparse) for x in leaves):
            return f(*args, **kwargs)
        leaves = [_as_bcoo(x) for x in leaves]
        traced = [i for i, x in enumerate(leaves) if _is_traced_leaf(x)]
        out_tree: list = []

        def flat_fun(*values):
            full = list(leaves)
            for i, v in zip(traced, values):
                full[i] = v
            a, k = tree_unflatten(tree, full)
            out_leaves, treedef = tree_flatten(f(*a, **k))
            out_tree.append(treedef)
            return out_leaves

        standins = [ShapeDtypeStruct(tuple(leaves[i].shape), leaves[i].dtype) for i in traced]
        closed = make_jaxpr(flat_fun)(*standins)
        outs = eval_sparse_jaxpr(closed.jaxpr, closed.consts, [leaves[i] for i in traced])
        return tree_unflatten(out_tree[0], outs)

    return sparsified
