"""Which primitives an op-table row reaches (forward, jvp, vjp, vmap of its example)."""

from __future__ import annotations

from typing import Callable

import numpy as np

import fgrad
import fgrad.numpy as fnp
from fgrad.core.trace import Trace, new_trace
from fgrad.tree_util import flatten_arrays as tree_flatten, tree_unflatten

from ._base import F64, OpRow


class _Recorder(Trace):
    """A pass-through trace that records the name of every primitive bound through it."""

    def __init__(self, parent, origin, names=None) -> None:
        super().__init__(parent, origin)
        self.names = names

    def process(self, prim, args, params):
        self.names.add(prim.name)
        return self.parent.process(prim, args, params)


def record_primitives(fn: Callable, *args) -> set[str]:
    """Names of the primitives bound while running ``fn(*args)`` (through any transforms)."""
    names: set[str] = set()
    with new_trace(_Recorder, "record_primitives", names=names):
        fn(*args)
    return names


def example_args(row: OpRow, dtype=F64, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    return [fnp.asarray(a) for a in row.sample_args(rng, row.get_example_shapes(), row.example_kwargs, dtype)]


def row_primitives(row: OpRow) -> set[str]:
    """Primitives reached by a row's forward pass, jvp, vjp and vmap on its example."""
    dtype = F64 if F64 in row.dtypes else (row.dtypes + row.other_dtypes)[0]
    args = example_args(row, dtype)
    kw = row.example_kwargs
    f = lambda *a: row.fn(*a, **kw)
    names = record_primitives(f, *args)
    if row.grad != "no":
        dn = row.diff_argnums(dtype)

        def g(*d):
            full = list(args)
            for i, v in zip(dn, d, strict=False):
                full[i] = v
            return f(*full)

        dargs = [args[i] for i in dn]
        tans = [fnp.ones_like(a) for a in dargs]
        if "fwd" in row.modes:
            names |= record_primitives(lambda: fgrad.jvp(g, tuple(dargs), tuple(tans)))

        def rev(*d):
            out, f_vjp = fgrad.vjp(g, *d)
            leaves, tree = tree_flatten(out)
            return f_vjp(tree_unflatten(tree, [fnp.ones_like(o) for o in leaves]))

        if "rev" in row.modes:
            names |= record_primitives(rev, *dargs)
            stacked = [fnp.asarray(np.stack([np.asarray(a)] * 2)) for a in dargs]
            names |= record_primitives(lambda: fgrad.vmap(rev)(*stacked))
    if row.vmap:
        batched = [fnp.asarray(np.stack([np.asarray(a)] * 2)) for a in args]
        names |= record_primitives(lambda: fgrad.vmap(f)(*batched))
    return names
