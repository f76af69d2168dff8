"""Structural rows: joining, splitting, tiling, flipping, padding, triangles, diagonals."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
import numpy as np

import fgrad.numpy as fnp

from ._base import Arg, OpRow, shapes_of

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# structural: joining, splitting, tiling, flipping, padding, triangles and diagonals


def _kw(**fields):
    """``shapes -> strategy of dicts``: each field is a strategy or ``shapes -> strategy``."""

    def make(shapes):
        return st.fixed_dictionaries(
            {
                k: (v(shapes) if callable(v) and not isinstance(v, st.SearchStrategy) else v)
                for k, v in fields.items()
            }
        )

    return make


def _axis(extra=0):
    """An int axis for the first argument's rank (+ ``extra`` for new axes, as in stack)."""
    return lambda shapes: st.integers(-(len(shapes[0]) + extra), len(shapes[0]) + extra - 1)


def _lst(f):
    """Adapt a function of a list of arrays to positional arrays."""
    return lambda *arrays, **kw: f(list(arrays), **kw)


def _split_kwargs(shapes):
    s = shapes[0]

    def for_axis(ax):
        n = s[ax]
        sections = [d for d in range(1, n + 1) if n % d == 0]
        idx_lists = st.lists(st.integers(0, n), max_size=3).map(sorted).map(list)
        return st.fixed_dictionaries(
            {
                "indices_or_sections": st.one_of(st.sampled_from(sections), idx_lists),
                "axis": st.just(ax - len(s) if ax % 2 else ax),
            }
        )

    return st.integers(0, len(s) - 1).flatmap(for_axis)


def _array_split_kwargs(shapes):
    s = shapes[0]
    return st.integers(0, len(s) - 1).flatmap(
        lambda ax: st.fixed_dictionaries(
            {"indices_or_sections": st.integers(1, s[ax] + 2), "axis": st.just(ax)}
        )
    )


def _flip_axis(shapes):
    nd = len(shapes[0])
    opts = [st.none()]
    if nd:
        opts += [
            st.integers(-nd, nd - 1),
            st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True).map(tuple),
        ]
    return st.one_of(*opts)


def _roll_kwargs(shapes):
    nd = len(shapes[0])
    none_axis = st.fixed_dictionaries({"shift": st.integers(-7, 7), "axis": st.none()})
    if not nd:
        return none_axis
    one = st.fixed_dictionaries({"shift": st.integers(-7, 7), "axis": st.integers(-nd, nd - 1)})
    many = st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True).flatmap(
        lambda axes: st.fixed_dictionaries(
            {
                "shift": st.lists(st.integers(-5, 5), min_size=len(axes), max_size=len(axes)).map(tuple),
                "axis": st.just(tuple(axes)),
            }
        )
    )
    return st.one_of(none_axis, one, many)


def _pad_kwargs(shapes):
    nd = len(shapes[0])
    widths = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=nd, max_size=nd).map(tuple)
    const = st.fixed_dictionaries(
        {"pad_width": widths, "mode": st.just("constant"), "constant_values": st.sampled_from([0.0, 1.5])}
    )
    other = st.fixed_dictionaries(
        {"pad_width": widths, "mode": st.sampled_from(["edge", "reflect", "symmetric", "wrap"])}
    )
    return st.one_of(const, other)


def _tile_kwargs(shapes):
    return st.fixed_dictionaries(
        {"reps": st.one_of(st.integers(1, 3), st.lists(st.integers(1, 3), min_size=1, max_size=3).map(tuple))}
    )


def _repeat_kwargs(shapes):
    s = shapes[0]
    flat = st.fixed_dictionaries({"repeats": st.integers(0, 3), "axis": st.none()})
    if not s:
        return flat
    per_axis = st.integers(0, len(s) - 1).flatmap(
        lambda ax: st.fixed_dictionaries(
            {
                "repeats": st.one_of(
                    st.integers(0, 3), st.lists(st.integers(0, 3), min_size=s[ax], max_size=s[ax]).map(tuple)
                ),
                "axis": st.just(ax),
            }
        )
    )
    return st.one_of(flat, per_axis)


def _diag_kwargs(shapes):
    return st.fixed_dictionaries({"k": st.integers(-2, 2)})


def _diagonal_kwargs(shapes):
    nd = len(shapes[0])
    return st.permutations(list(range(nd))).flatmap(
        lambda p: st.fixed_dictionaries(
            {"offset": st.integers(-2, 2), "axis1": st.just(p[0]), "axis2": st.just(p[1] - nd)}
        )
    )


def _rot90_kwargs(shapes):
    nd = len(shapes[0])
    return st.permutations(list(range(nd))).flatmap(
        lambda p: st.fixed_dictionaries({"k": st.integers(-3, 4), "axes": st.just((p[0], p[1]))})
    )


def _take_args(rng, shapes, kw, dt):
    a = rng.uniform(-2, 2, shapes[0]).astype(dt)
    ax = kw.get("axis")
    n = a.size if ax is None else a.shape[ax]
    return [a, rng.integers(-n, n, size=shapes[1]).astype(np.int64)]


def _take_along_args(rng, shapes, kw, dt):
    a = rng.uniform(-2, 2, shapes[0]).astype(dt)
    ax = kw["axis"]
    n = a.size if ax is None else a.shape[ax]
    ishape = (n + 1,) if ax is None else tuple(2 if i == ax % a.ndim else d for i, d in enumerate(a.shape))
    return [a, rng.integers(-n, n, size=ishape).astype(np.int64)]


def _put_along_args(rng, shapes, kw, dt):
    a = rng.uniform(-2, 2, shapes[0]).astype(dt)
    ax = kw["axis"] % a.ndim
    n = a.shape[ax]
    ishape = tuple(1 if i == ax else d for i, d in enumerate(a.shape))
    idx = rng.integers(0, n, size=ishape).astype(np.int64)  # one index per line: no duplicates
    return [a, idx, rng.uniform(-2, 2, ishape).astype(dt)]


def _put_along_ref(a, i, v, axis):
    a = a.copy()
    np.put_along_axis(a, i, v, axis)
    return a


def _fill_diag_ref(a, v):
    a = a.copy()
    np.fill_diagonal(a, v)
    return a


def _select_args(rng, shapes, kw, dt):
    s = shapes[0]
    return [
        rng.random(s) < 0.4,
        rng.random(s) < 0.5,
        rng.uniform(-2, 2, s).astype(dt),
        rng.uniform(-2, 2, s).astype(dt),
    ]


def _choose_args(rng, shapes, kw, dt):
    s = shapes[0]
    return [rng.integers(0, 3, size=s).astype(np.int64)] + [
        rng.uniform(-2, 2, s).astype(dt) for _ in range(3)
    ]


def _delete_kwargs(shapes):
    s = shapes[0]
    return st.integers(0, len(s) - 1).flatmap(
        lambda ax: st.fixed_dictionaries(
            {
                "obj": st.one_of(
                    st.integers(-s[ax], s[ax] - 1),
                    st.lists(st.integers(0, s[ax] - 1), max_size=2, unique=True).map(tuple),
                ),
                "axis": st.just(ax),
            }
        )
    )


def _insert_args(rng, shapes, kw, dt):
    a = rng.uniform(-2, 2, shapes[0]).astype(dt)
    ax = kw["axis"]
    vshape = tuple(1 if i == ax else d for i, d in enumerate(a.shape))
    return [a, rng.uniform(-2, 2, vshape).astype(dt)]


def _insert_kwargs(shapes):
    s = shapes[0]
    return st.integers(0, len(s) - 1).flatmap(
        lambda ax: st.fixed_dictionaries({"obj": st.integers(0, s[ax]), "axis": st.just(ax)})
    )


def _mask_kwargs(shapes):
    s = shapes[0]
    return st.integers(0, len(s) - 1).flatmap(
        lambda ax: st.fixed_dictionaries(
            {
                "condition": st.lists(st.booleans(), min_size=s[ax], max_size=s[ax]).map(tuple),
                "axis": st.just(ax),
            }
        )
    )


_one_plus = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)
_two_plus = hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4)
_three_plus = hnp.array_shapes(min_dims=3, max_dims=4, min_side=1, max_side=3)


def _one(strategy):
    return strategy.map(lambda s: (s,))


def _same(n, strategy):
    return strategy.map(lambda s: (s,) * n)


ROWS += [
    OpRow(
        "concatenate",
        _lst(fnp.concatenate),
        _lst(np.concatenate),
        args=(Arg(),) * 3,
        shapes=_same(3, _one_plus),
        kwargs=_kw(axis=_axis()),
        example_shapes=((2, 3),) * 3,
        example_kwargs={"axis": 0},
    ),
    OpRow(
        "concatenate[sizes]",
        lambda a, b, c, axis: fnp.concatenate([a, b, c], axis=axis),
        lambda a, b, c, axis: np.concatenate([a, b, c], axis=axis),
        args=(Arg(),) * 3,
        shapes=st.sampled_from(
            [((2, 3), (1, 3), (4, 3)), ((3,), (1,), (2,)), ((2, 1, 2), (2, 3, 2), (2, 2, 2))]
        ),
        kwargs=lambda shapes: st.just(
            {"axis": [i for i in range(len(shapes[0])) if shapes[0][i] != shapes[1][i]][0]}
        ),
        example_shapes=((2, 3), (1, 3), (4, 3)),
        example_kwargs={"axis": 0},
        covers=("numpy.concatenate",),
    ),
    OpRow(
        "concatenate[axis=None]",
        lambda a, b: fnp.concatenate([a, b], axis=None),
        lambda a, b: np.concatenate([a, b], axis=None),
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=3), hnp.array_shapes(max_dims=3)),
        example_shapes=((2, 3), (4,)),
        covers=("numpy.concatenate",),
    ),
    OpRow(
        "concat",
        _lst(fnp.concat),
        _lst(np.concat),
        args=(Arg(),) * 2,
        shapes=_same(2, _one_plus),
        kwargs=_kw(axis=_axis()),
        example_shapes=((2, 3),) * 2,
        example_kwargs={"axis": -1},
    ),
    OpRow(
        "stack",
        _lst(fnp.stack),
        _lst(np.stack),
        args=(Arg(),) * 3,
        shapes=shapes_of(3, max_dims=2),
        kwargs=_kw(axis=_axis(extra=1)),
        example_shapes=((2, 3),) * 3,
        example_kwargs={"axis": 1},
    ),
    OpRow("hstack", _lst(fnp.hstack), _lst(np.hstack), args=(Arg(),) * 2, shapes=shapes_of(2, max_dims=3)),
    OpRow("vstack", _lst(fnp.vstack), _lst(np.vstack), args=(Arg(),) * 2, shapes=shapes_of(2, max_dims=3)),
    OpRow(
        "row_stack", _lst(fnp.row_stack), _lst(np.vstack), args=(Arg(),) * 2, shapes=shapes_of(2, max_dims=3)
    ),
    OpRow("dstack", _lst(fnp.dstack), _lst(np.dstack), args=(Arg(),) * 2, shapes=shapes_of(2, max_dims=3)),
    OpRow(
        "column_stack",
        _lst(fnp.column_stack),
        _lst(np.column_stack),
        args=(Arg(),) * 2,
        shapes=shapes_of(2, max_dims=2),
    ),
    OpRow(
        "split",
        lambda a, **kw: fnp.split(a, **kw),
        lambda a, **kw: np.split(a, **kw),
        shapes=_one(_one_plus),
        kwargs=_split_kwargs,
        example_shapes=((4, 3),),
        example_kwargs={"indices_or_sections": 2, "axis": 0},
    ),
    OpRow(
        "array_split",
        lambda a, **kw: fnp.array_split(a, **kw),
        lambda a, **kw: np.array_split(a, **kw),
        shapes=_one(_one_plus),
        kwargs=_array_split_kwargs,
        example_shapes=((5, 2),),
        example_kwargs={"indices_or_sections": 3, "axis": 0},
    ),
    OpRow(
        "hsplit",
        lambda a, n: fnp.hsplit(a, n),
        lambda a, n: np.hsplit(a, n),
        shapes=st.sampled_from([((4,),), ((2, 4),), ((3, 2, 2),)]),
        kwargs=_kw(n=st.sampled_from([1, 2])),
        example_shapes=((2, 4),),
        example_kwargs={"n": 2},
    ),
    OpRow(
        "vsplit",
        lambda a, n: fnp.vsplit(a, n),
        lambda a, n: np.vsplit(a, n),
        shapes=st.sampled_from([((4, 2),), ((2, 3, 2),)]),
        kwargs=_kw(n=st.sampled_from([1, 2])),
        example_shapes=((4, 2),),
        example_kwargs={"n": 2},
    ),
    OpRow(
        "dsplit",
        lambda a, n: fnp.dsplit(a, n),
        lambda a, n: np.dsplit(a, n),
        shapes=st.sampled_from([((2, 3, 4),), ((1, 2, 2, 3),)]),
        kwargs=_kw(n=st.sampled_from([1, 2])),
        example_shapes=((2, 3, 4),),
        example_kwargs={"n": 2},
    ),
    OpRow(
        "unstack",
        lambda a, axis: fnp.unstack(a, axis=axis),
        lambda a, axis: list(np.unstack(a, axis=axis)),
        shapes=_one(_one_plus),
        kwargs=_kw(axis=_axis()),
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "tile",
        lambda a, reps: fnp.tile(a, reps),
        np.tile,
        kwargs=_tile_kwargs,
        example_kwargs={"reps": (2, 1)},
    ),
    OpRow(
        "repeat",
        lambda a, **kw: fnp.repeat(a, **kw),
        lambda a, **kw: np.repeat(a, **kw),
        kwargs=_repeat_kwargs,
        example_kwargs={"repeats": 2, "axis": 1},
    ),
    OpRow(
        "flip",
        lambda a, axis: fnp.flip(a, axis),
        np.flip,
        shapes=shapes_of(1),
        kwargs=_kw(axis=_flip_axis),
        example_kwargs={"axis": 0},
    ),
    OpRow("fliplr", fnp.fliplr, np.fliplr, shapes=_one(_two_plus)),
    OpRow("flipud", fnp.flipud, np.flipud, shapes=_one(_one_plus)),
    OpRow(
        "roll",
        lambda a, shift, axis: fnp.roll(a, shift, axis),
        np.roll,
        kwargs=_roll_kwargs,
        example_kwargs={"shift": 1, "axis": 0},
    ),
    OpRow(
        "rot90",
        lambda a, k, axes: fnp.rot90(a, k, axes),
        np.rot90,
        shapes=_one(_two_plus),
        kwargs=_rot90_kwargs,
        example_kwargs={"k": 1, "axes": (0, 1)},
    ),
    OpRow(
        "pad",
        lambda a, **kw: fnp.pad(a, **kw),
        lambda a, **kw: np.pad(a, **kw),
        shapes=_one(_one_plus),
        kwargs=_pad_kwargs,
        example_kwargs={"pad_width": ((1, 0), (0, 2)), "mode": "constant", "constant_values": 0.0},
    ),
    OpRow(
        "triu",
        lambda m, k: fnp.triu(m, k),
        np.triu,
        shapes=_one(_two_plus),
        kwargs=_diag_kwargs,
        example_kwargs={"k": 0},
    ),
    OpRow(
        "tril",
        lambda m, k: fnp.tril(m, k),
        np.tril,
        shapes=_one(_two_plus),
        kwargs=_diag_kwargs,
        example_kwargs={"k": -1},
    ),
    OpRow(
        "diag[1d]",
        lambda v, k: fnp.diag(v, k),
        np.diag,
        shapes=shapes_of(1, min_dims=1, max_dims=1),
        kwargs=_diag_kwargs,
        example_shapes=((3,),),
        example_kwargs={"k": 1},
        covers=("numpy.diag",),
    ),
    OpRow(
        "diag[2d]",
        lambda v, k: fnp.diag(v, k),
        np.diag,
        shapes=shapes_of(1, min_dims=2, max_dims=2),
        kwargs=_diag_kwargs,
        example_kwargs={"k": 0},
        covers=("numpy.diag",),
    ),
    OpRow(
        "diagflat",
        lambda v, k: fnp.diagflat(v, k),
        np.diagflat,
        shapes=shapes_of(1, max_dims=2),
        kwargs=_diag_kwargs,
        example_kwargs={"k": 0},
    ),
    OpRow(
        "diagonal",
        lambda a, **kw: fnp.diagonal(a, **kw),
        lambda a, **kw: np.diagonal(a, **kw),
        shapes=_one(_two_plus),
        kwargs=_diagonal_kwargs,
        example_kwargs={"offset": 0, "axis1": 0, "axis2": 1},
    ),
    OpRow(
        "trace",
        lambda a, **kw: fnp.trace(a, **kw),
        lambda a, **kw: np.trace(a, **kw),
        shapes=_one(_two_plus),
        kwargs=_diagonal_kwargs,
        example_kwargs={"offset": 0, "axis1": 0, "axis2": 1},
    ),
    OpRow(
        "fill_diagonal",
        lambda a, v: fnp.fill_diagonal(a, v, inplace=False),
        _fill_diag_ref,
        args=(Arg(), Arg()),
        shapes=st.sampled_from([((3, 3), ()), ((4, 2), ()), ((2, 2, 2), ())]),
        example_shapes=((3, 3), ()),
    ),
]

