"""Structured control flow: cond, switch, scan, fori_loop, while_loop, map.

Each is a higher-order primitive whose parameters hold *jaxprs* traced from the user's
functions (with the functions' captured constants passed as explicit operands, so closures
over tracers of enclosing transforms work).  Implementations run the compiled jaxprs;
jvp rules build new jaxprs for the tangent computation; batching rules vmap the bodies;
reverse mode transposes the tangent computation.

* cond/switch: reverse mode via a cond of per-branch VJPs (exact: the tangent branches are
  linear in the tangents).
* scan (and fori_loop with static bounds): reverse mode replays the primal carries and
  runs the per-step VJPs in reverse.
* while_loop: forward mode and vmap; reverse mode raises an error that points to
  scan / fori_loop with a static trip count.
"""

from __future__ import annotations

import numpy as np

from ..core.array import ArrayImpl, ShapedArray, Tracer, get_aval, wrap
from ..core.ir import Jaxpr, eval_jaxpr
from ..core.primitive import Primitive
from ..core.trace import new_trace
from ..tree_util import tree_flatten, tree_unflatten
from ..transforms.staging import StagingTrace
from ..transforms.transpose import is_undefined


class Branch:
    """A traced function: a jaxpr whose first ``n_consts`` inputs are its constants.
    Hashed by identity; caches its compiled executor."""

    __slots__ = ("jaxpr", "n_consts", "_run")

    def __init__(self, jaxpr: Jaxpr, n_consts: int) -> None:
        self.jaxpr, self.n_consts, self._run = jaxpr, n_consts, None

    @property
    def out_avals(self):
        return [get_aval(v) if not hasattr(v, "aval") else v.aval for v in self.jaxpr.outvars]

    def run(self, xp, bufs):
        if self._run is None:
            from ..transforms.jit import compile_jaxpr

            self._run = compile_jaxpr(self.jaxpr)
        return self._run(xp, bufs)

    def __call__(self, *args):
        """Evaluate under the current trace (args include the constants)."""
        return eval_jaxpr(self.jaxpr, [], list(args))

    def __repr__(self) -> str:
        return str(self.jaxpr)


def trace_flat(fun, avals, what="control flow"):
    """Trace ``fun(*flat_args) -> flat list`` to a `Branch` plus its constants."""
    with new_trace(StagingTrace, what, partial=False) as st:
        args = [st.new_arg(a) for a in avals]
        outs = fun(*args)
        jaxpr, consts = st.to_jaxpr(list(outs))
    jaxpr = Jaxpr([], list(jaxpr.constvars) + list(jaxpr.invars), jaxpr.eqns, jaxpr.outvars)
    return Branch(jaxpr, len(consts)), consts


def _avals(xs):
    return [ShapedArray(get_aval(x).shape, get_aval(x).dtype) for x in xs]


def _as_arrays(xs):
    from .. import numpy as fnp

    return [x if isinstance(x, (Tracer, ArrayImpl)) else fnp.asarray(x) for x in xs]


def _zeros_like(x):
    from .. import numpy as fnp

    return fnp.zeros_like(x)


def _xp(bufs):
    from ..backends import xp_of

    for b in bufs:
        if hasattr(b, "shape") and not isinstance(b, (int, float)):
            return xp_of(b)
    return np


# =======================================================================================
# cond / switch

def _cond_impl(xp, index, *args, branches, n_consts):
    i = int(np.clip(int(index), 0, len(branches) - 1))
    off = sum(n_consts[:i])
    ops = args[sum(n_consts):]
    return branches[i].run(xp, list(args[off:off + n_consts[i]]) + list(ops))


def _cond_abstract(index, *args, branches, n_consts):
    return branches[0].out_avals


cond_p = Primitive("cond", _cond_impl, _cond_abstract, multiple_results=True, family="control")


def _bind_cond(index, funs, ops, what="cond"):
    """Trace each function over ``ops``'s avals and bind cond_p."""
    traced = [trace_flat(f, _avals(ops), what) for f in funs]
    outs0 = [(a.shape, a.dtype) for a in traced[0][0].out_avals]
    for k, (b, _) in enumerate(traced[1:], 1):
        outs = [(a.shape, a.dtype) for a in b.out_avals]
        if outs != outs0:
            raise TypeError(
                f"{what}: branches must return the same shapes and dtypes; branch 0 returns "
                f"{_fmt(outs0)} but branch {k} returns {_fmt(outs)}"
            )
    branches = tuple(b for b, _ in traced)
    consts = [c for _, cs in traced for c in cs]
    return cond_p.bind(index, *consts, *ops, branches=branches, n_consts=tuple(len(cs) for _, cs in traced))


def _fmt(avs):
    return "(" + ", ".join(f"{np.dtype(d).name}{list(s)}" for s, d in avs) + ")"


def _cond_jvp(primals, tangents, branches, n_consts):
    from ..transforms.ad import jvp

    index, args = primals[0], list(primals[1:])
    targs = list(tangents[1:])
    out = cond_p.bind(index, *args, branches=branches, n_consts=n_consts)
    if all(t is None for t in targs):
        return out, [None] * len(out)
    tflat = [_zeros_like(a) if t is None else t for a, t in zip(args, targs)]
    n = len(args)

    def make(k):
        def f(*xs):
            p, t = _pick(k, xs[:n], n_consts), _pick(k, xs[n:], n_consts)
            return jvp(lambda *a: branches[k](*a), tuple(p), tuple(t))[1]

        return f

    t_out = _bind_cond(index, [make(k) for k in range(len(branches))], args + tflat, "cond (jvp)")
    return out, t_out


def _cond_transpose(cts, index, *args, branches, n_consts):
    from ..transforms.ad import vjp

    if is_undefined(index):
        raise ValueError("cond is not linear in its index")
    undef = [is_undefined(a) for a in args]
    defined = [a for a in args if not is_undefined(a)]
    cts = [_zeros_like_aval(av) if c is None else c for c, av in zip(cts, branches[0].out_avals)]
    undef_avals = [a.aval for a in args if is_undefined(a)]

    def make(k):
        def f(*xs):
            d, c = list(xs[: len(defined)]), list(xs[len(defined):])

            def lin(*u):
                it_d, it_u = iter(d), iter(u)
                full = [next(it_u) if un else next(it_d) for un in undef]
                return branches[k](*_pick(k, full, n_consts))

            zeros = [_zeros_aval(av) for av in undef_avals]
            _, f_vjp = vjp(lin, *zeros)
            return list(f_vjp(c))

        return f

    res = _bind_cond(index, [make(k) for k in range(len(branches))], defined + cts, "cond (transpose)")
    it = iter(res)
    return [None] + [next(it) if un else None for un in undef]


def _zeros_aval(av):
    from .. import numpy as fnp

    return fnp.zeros(av.shape, av.dtype)


_zeros_like_aval = _zeros_aval


def _pick(k, xs, n_consts):
    """Branch k's operands out of the cond operands (all consts, then ops)."""
    n_ops = len(xs) - sum(n_consts)
    off = sum(n_consts[:k])
    return list(xs[off:off + n_consts[k]]) + list(xs[len(xs) - n_ops:])


def _cond_batch(axis_size, vals, dims, branches, n_consts):
    from .. import numpy as fnp
    from ..transforms.batching import bdim_to_front, vmap

    index, args = vals[0], list(vals[1:])
    idim, adims = dims[0], list(dims[1:])

    def vmapped(k):
        def f(*xs):
            return vmap(lambda *a: branches[k](*a), in_axes=tuple(_pick(k, adims, n_consts)),
                        axis_size=axis_size)(*_pick(k, xs, n_consts))

        return f

    if idim is None:
        return _bind_cond(index, [vmapped(k) for k in range(len(branches))], args, "cond (vmap)"), 0
    # a batched predicate: evaluate every branch and select per example
    idx = fnp.clip(bdim_to_front(index, idim, axis_size), 0, len(branches) - 1)
    outs = [vmapped(k)(*args) for k in range(len(branches))]
    res = []
    for j in range(len(outs[0])):
        acc = outs[0][j]
        for k in range(1, len(branches)):
            o = outs[k][j]
            sel = fnp.reshape(fnp.equal(idx, k), (axis_size,) + (1,) * (get_aval(o).ndim - 1))
            acc = fnp.where(sel, o, acc)
        res.append(acc)
    return res, 0


def cond(pred, true_fun, false_fun, *operands, operand=None):
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, as one primitive
    (traceable under jit, differentiable, batchable; a batched ``pred`` selects per example).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.lax import cond
        >>> cond(True, lambda x: x + 1, lambda x: x - 1, 1.0)
        Array(2., dtype=float64)
    """
    if operand is not None:
        operands = (operand,)
    from .. import numpy as fnp

    index = fnp.asarray(pred, dtype=np.int64) if not isinstance(pred, (Tracer, ArrayImpl)) else \
        fnp.astype(pred, np.int64) if get_aval(pred).dtype != np.int64 else pred
    if get_aval(index).shape != ():
        raise TypeError(f"cond: the predicate must be a scalar, got shape {get_aval(index).shape}")
    # index 1 selects true_fun (pred True), 0 selects false_fun
    return switch(index, [false_fun, true_fun], *operands, _what="cond")


def switch(index, branches, *operands, _what="switch"):
    """``branches[clamp(index)](*operands)`` as one primitive.

    Example::

        >>> from fgrad.lax import switch
        >>> switch(2, [lambda x: x, lambda x: 2 * x, lambda x: 3 * x], 1.0)
        Array(3., dtype=float64)
    """
    from .. import numpy as fnp

    flat, tree = tree_flatten(operands)
    flat = _as_arrays(flat)
    out_trees = []

    def wrap_fun(f):
        def g(*xs):
            out = f(*tree_unflatten(tree, list(xs)))
            leaves, t = tree_flatten(out)
            out_trees.append(t)
            return _as_arrays(leaves)

        return g

    idx = index if isinstance(index, (Tracer, ArrayImpl)) else fnp.asarray(int(index))
    if get_aval(idx).dtype.kind not in "iub":
        raise TypeError(f"{_what}: index must be an integer, got {get_aval(idx).dtype}")
    idx = fnp.clip(fnp.astype(idx, np.int64), 0, len(branches) - 1)
    outs = _bind_cond(idx, [wrap_fun(f) for f in branches], flat, _what)
    if any(t != out_trees[0] for t in out_trees):
        raise TypeError(f"{_what}: branches return different structures: {out_trees[0]} vs {out_trees[-1]}")
    return tree_unflatten(out_trees[0], outs)


cond_p.jvp = _cond_jvp
cond_p.transpose = _cond_transpose
cond_p.batch = _cond_batch
