"""Shape-manipulation rows."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
import numpy as np

import fgrad.numpy as fnp

from ._base import Arg, OpRow, broadcast_shapes_of, shapes_of

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# shape manipulation


def _reshape_kwargs(shapes):
    (s,) = shapes
    n = int(np.prod(s, dtype=np.int64))
    divisors = [d for d in range(1, n + 1) if n % d == 0]
    opts = [(n,), (-1,), s[::-1], (1,) + s, s + (1,)]
    opts += [(d, n // d) for d in divisors] + [(d, -1) for d in divisors]
    return st.sampled_from(opts).map(lambda t: {"newshape": tuple(t)})


def _perm_kwargs(shapes):
    nd = len(shapes[0])
    return st.permutations(list(range(nd))).map(lambda p: {"axes": tuple(p)})


def _two_axes(names):
    def make(shapes):
        nd = len(shapes[0])
        return st.fixed_dictionaries({names[0]: st.integers(-nd, nd - 1), names[1]: st.integers(-nd, nd - 1)})

    return make


def _squeeze_kwargs(shapes):
    (s,) = shapes
    ones = [i for i, d in enumerate(s) if d == 1]
    opts = [st.none()]
    if ones:
        opts.append(st.lists(st.sampled_from(ones), min_size=1, unique=True).map(tuple))
        opts.append(st.sampled_from(ones))
    return st.fixed_dictionaries({"axis": st.one_of(*opts)})


def _expand_kwargs(shapes):
    nd = len(shapes[0])
    return st.fixed_dictionaries({"axis": st.integers(-nd - 1, nd)})


def _broadcast_to_kwargs(shapes):
    (s,) = shapes

    def target(t):
        lead, grow = t
        grown = tuple(3 if (d == 1 and g) else d for d, g in zip(s, grow, strict=True))
        return {"shape": tuple(lead) + grown}

    return st.tuples(
        st.lists(st.integers(1, 3), max_size=2), st.lists(st.booleans(), min_size=len(s), max_size=len(s))
    ).map(target)


ROWS += [
    OpRow(
        "reshape",
        lambda x, newshape: fnp.reshape(x, newshape),
        lambda x, newshape: np.reshape(x, newshape),
        shapes=shapes_of(1),
        kwargs=_reshape_kwargs,
        example_kwargs={"newshape": (2, 3)},
    ),
    OpRow(
        "reshape[method]",
        lambda x, newshape: x.reshape(*newshape),
        lambda x, newshape: x.reshape(*newshape),
        shapes=shapes_of(1, min_dims=1),
        kwargs=_reshape_kwargs,
        example_kwargs={"newshape": (6,)},
        covers=("Array.reshape",),
    ),
    OpRow("ravel", fnp.ravel, np.ravel),
    OpRow("transpose", fnp.transpose, np.transpose, shapes=shapes_of(1, max_dims=4)),
    OpRow(
        "transpose[axes]",
        lambda x, axes: fnp.transpose(x, axes),
        lambda x, axes: np.transpose(x, axes),
        shapes=shapes_of(1, max_dims=4),
        kwargs=_perm_kwargs,
        example_kwargs={"axes": (1, 0)},
        covers=("numpy.transpose",),
    ),
    OpRow(
        "permute_dims",
        lambda x, axes: fnp.permute_dims(x, axes),
        lambda x, axes: np.transpose(x, axes),
        shapes=shapes_of(1, max_dims=4),
        kwargs=_perm_kwargs,
        example_kwargs={"axes": (1, 0)},
    ),
    OpRow(
        "matrix_transpose",
        fnp.matrix_transpose,
        lambda x: np.swapaxes(x, -1, -2),
        shapes=shapes_of(1, min_dims=2, max_dims=4),
    ),
    OpRow(
        "moveaxis",
        lambda x, source, destination: fnp.moveaxis(x, source, destination),
        np.moveaxis,
        shapes=shapes_of(1, min_dims=1, max_dims=4),
        kwargs=_two_axes(("source", "destination")),
        example_kwargs={"source": 0, "destination": -1},
    ),
    OpRow(
        "swapaxes",
        lambda x, axis1, axis2: fnp.swapaxes(x, axis1, axis2),
        np.swapaxes,
        shapes=shapes_of(1, min_dims=1, max_dims=4),
        kwargs=_two_axes(("axis1", "axis2")),
        example_kwargs={"axis1": 0, "axis2": 1},
    ),
    OpRow(
        "squeeze",
        lambda x, axis: fnp.squeeze(x, axis),
        lambda x, axis: np.squeeze(x, axis),
        shapes=hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=2).map(lambda s: (s,)),
        kwargs=_squeeze_kwargs,
        example_shapes=((3, 1, 2),),
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "expand_dims",
        lambda x, axis: fnp.expand_dims(x, axis),
        np.expand_dims,
        kwargs=_expand_kwargs,
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "broadcast_to",
        lambda x, shape: fnp.broadcast_to(x, shape),
        np.broadcast_to,
        shapes=hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3).map(lambda s: (s,)),
        kwargs=_broadcast_to_kwargs,
        example_shapes=((3, 1),),
        example_kwargs={"shape": (2, 3, 4)},
    ),
    OpRow(
        "broadcast_arrays",
        lambda x, y: fnp.broadcast_arrays(x, y),
        lambda x, y: list(np.broadcast_arrays(x, y)),
        args=(Arg(), Arg()),
        shapes=broadcast_shapes_of(2),
        example_shapes=((3, 1), (4,)),
    ),
    OpRow("atleast_1d", fnp.atleast_1d, np.atleast_1d),
    OpRow("atleast_2d", fnp.atleast_2d, np.atleast_2d),
    OpRow("atleast_3d", fnp.atleast_3d, np.atleast_3d),
    OpRow("Array.T", lambda x: x.T, lambda x: x.T, shapes=shapes_of(1, max_dims=4), covers=("Array.T",)),
]


ROWS += [
    OpRow(
        "diff",
        lambda x, n: fnp.diff(x, n),
        lambda x, n: np.diff(x, n),
        shapes=shapes_of(1, min_dims=1),
        kwargs=lambda shapes: st.fixed_dictionaries({"n": st.integers(0, 2)}),
        example_kwargs={"n": 1},
    ),
]
