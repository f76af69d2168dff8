"""Indexing-like rows (take, take_along_axis, choose, ...) and value-dependent shapes."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
import numpy as np

import fgrad.numpy as fnp

from ._base import Arg, BOOL, INTS, OpRow, shapes_of
from .structural import (
    _axis, _choose_args, _delete_kwargs, _insert_args, _insert_kwargs, _kw, _mask_kwargs, _one,
    _one_plus, _put_along_args, _put_along_ref, _same, _select_args, _take_along_args, _take_args,
)

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# indexing-like: take, take_along_axis, put_along_axis, select, choose, compress, delete, ...

ROWS += [
    OpRow(
        "take",
        lambda a, i, axis: fnp.take(a, i, axis=axis),
        lambda a, i, axis: np.take(a, i, axis=axis),
        args=(Arg(), Arg(kind="int", dtype=np.int64)),
        shapes=st.tuples(_one_plus, hnp.array_shapes(min_dims=0, max_dims=2)),
        kwargs=lambda shapes: st.fixed_dictionaries({"axis": st.one_of(st.none(), _axis()(shapes))}),
        make_args=_take_args,
        example_shapes=((3, 4), (2,)),
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "take_along_axis",
        lambda a, i, axis: fnp.take_along_axis(a, i, axis),
        lambda a, i, axis: np.take_along_axis(a, i, axis),
        args=(Arg(), Arg(kind="int", dtype=np.int64)),
        shapes=st.tuples(_one_plus, st.just(())),
        kwargs=_kw(axis=_axis()),
        make_args=_take_along_args,
        example_shapes=((3, 4), ()),
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "put_along_axis",
        lambda a, i, v, axis: fnp.put_along_axis(a, i, v, axis, inplace=False),
        _put_along_ref,
        args=(Arg(), Arg(kind="int", dtype=np.int64), Arg()),
        shapes=st.tuples(_one_plus, st.just(()), st.just(())),
        kwargs=_kw(axis=_axis()),
        make_args=_put_along_args,
        example_shapes=((3, 4), (), ()),
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "select",
        lambda c1, c2, a, b: fnp.select([c1, c2], [a, b], default=0.5),
        lambda c1, c2, a, b: np.select([c1, c2], [a, b], default=0.5),
        args=(Arg(kind="bool"), Arg(kind="bool"), Arg(), Arg()),
        shapes=shapes_of(4),
        make_args=_select_args,
    ),
    OpRow(
        "choose",
        lambda i, a, b, c: fnp.choose(i, [a, b, c]),
        lambda i, a, b, c: np.choose(i, [a, b, c]),
        args=(Arg(kind="int", dtype=np.int64), Arg(), Arg(), Arg()),
        shapes=shapes_of(4),
        make_args=_choose_args,
    ),
    OpRow(
        "compress",
        lambda a, condition, axis: fnp.compress(np.asarray(condition), a, axis),
        lambda a, condition, axis: np.compress(np.asarray(condition), a, axis),
        shapes=_one(_one_plus),
        kwargs=_mask_kwargs,
        example_kwargs={"condition": (True, False, True), "axis": 0},
    ),
    OpRow(
        "extract",
        lambda a, condition: fnp.extract(np.asarray(condition), a),
        lambda a, condition: np.extract(np.asarray(condition), a),
        shapes=_one(_one_plus),
        kwargs=lambda shapes: st.fixed_dictionaries(
            {
                "condition": st.lists(
                    st.booleans(), min_size=int(np.prod(shapes[0])), max_size=int(np.prod(shapes[0]))
                ).map(lambda c: np.array(c).reshape(shapes[0]).tolist())
            }
        ),
        example_kwargs={"condition": [[True, False], [False, True], [True, True]]},
    ),
    OpRow(
        "delete",
        # (a list of indices as an array: fnp.delete rejects lists, as JAX does)
        lambda a, obj, axis: fnp.delete(a, np.asarray(obj) if isinstance(obj, (list, tuple)) else obj, axis),
        lambda a, obj, axis: np.delete(a, obj, axis),
        shapes=_one(_one_plus),
        kwargs=_delete_kwargs,
        example_kwargs={"obj": 1, "axis": 0},
    ),
    OpRow(
        "insert",
        lambda a, v, obj, axis: fnp.insert(a, obj, v, axis),
        lambda a, v, obj, axis: np.insert(a, obj, v, axis),
        args=(Arg(), Arg()),
        shapes=st.tuples(_one_plus, st.just(())),
        kwargs=_insert_kwargs,
        make_args=_insert_args,
        example_shapes=((3, 2), ()),
        example_kwargs={"obj": 1, "axis": 0},
    ),
    OpRow(
        "append",
        lambda a, v, axis: fnp.append(a, v, axis),
        lambda a, v, axis: np.append(a, v, axis),
        args=(Arg(), Arg()),
        shapes=_same(2, _one_plus),
        kwargs=_kw(axis=lambda s: st.one_of(st.none(), _axis()(s))),
        example_shapes=((2, 3),) * 2,
        example_kwargs={"axis": 0},
    ),
    OpRow(
        "meshgrid",
        lambda a, b, indexing: fnp.meshgrid(a, b, indexing=indexing),
        lambda a, b, indexing: list(np.meshgrid(a, b, indexing=indexing)),
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(min_dims=1, max_dims=1), hnp.array_shapes(min_dims=1, max_dims=1)),
        kwargs=_kw(indexing=st.sampled_from(["xy", "ij"])),
        example_shapes=((3,), (2,)),
        example_kwargs={"indexing": "xy"},
    ),
]

# value-dependent output shapes: forward only (no vmap)
ROWS += [
    OpRow(
        "nonzero",
        lambda a: fnp.nonzero(a),
        lambda a: list(np.nonzero(a)),
        args=(Arg(-1, 1, kind="int"),),
        shapes=_one(_one_plus),
        grad="no",
        vmap=False,
        other_dtypes=INTS + (BOOL,),
    ),
    OpRow(
        "nonzero[size]",
        lambda a: fnp.nonzero(a, size=4, fill_value=0),
        lambda a: [np.pad(i[:4], (0, max(0, 4 - i.size))) for i in np.nonzero(a)],
        args=(Arg(-1, 1, kind="int"),),
        shapes=_one(_one_plus),
        grad="no",
        covers=("numpy.nonzero",),
    ),
    OpRow(
        "argwhere",
        fnp.argwhere,
        np.argwhere,
        args=(Arg(-1, 1, kind="int"),),
        shapes=_one(_one_plus),
        grad="no",
        vmap=False,
    ),
    OpRow(
        "flatnonzero", fnp.flatnonzero, np.flatnonzero, args=(Arg(-1, 1, kind="int"),), grad="no", vmap=False
    ),
    OpRow(
        "unique",
        lambda a: fnp.unique(a),
        np.unique,
        args=(Arg(-2, 2, kind="int"),),
        grad="skip",
        vmap=False,
        other_dtypes=INTS,
    ),
    OpRow(
        "unique[counts]",
        lambda a: fnp.unique(a, return_index=True, return_inverse=True, return_counts=True),
        lambda a: list(np.unique(a, return_index=True, return_inverse=True, return_counts=True)),
        args=(Arg(-2, 2, kind="int"),),
        shapes=_one(hnp.array_shapes(min_dims=1, max_dims=1)),
        grad="skip",
        vmap=False,
        covers=("numpy.unique",),
        example_shapes=((5,),),
    ),
    OpRow(
        "unique_values",
        fnp.unique_values,
        np.unique_values,
        args=(Arg(-2, 2, kind="int"),),
        grad="skip",
        vmap=False,
    ),
    OpRow(
        "unique_counts",
        lambda a: list(fnp.unique_counts(a)),
        lambda a: list(np.unique_counts(a)),
        args=(Arg(-2, 2, kind="int"),),
        grad="skip",
        vmap=False,
    ),
    OpRow(
        "unique_inverse",
        lambda a: list(fnp.unique_inverse(a)),
        lambda a: list(np.unique_inverse(a)),
        args=(Arg(-2, 2, kind="int"),),
        grad="skip",
        vmap=False,
    ),
    OpRow(
        "unique_all",
        lambda a: list(fnp.unique_all(a)),
        lambda a: list(np.unique_all(a)),
        args=(Arg(-2, 2, kind="int"),),
        grad="skip",
        vmap=False,
    ),
]


