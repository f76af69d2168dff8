"""`lax.gather` / `lax.scatter*` rows: a 2x2 window at index vectors (some out of bounds,
some repeated) and a batched take-along-axis, under both out-of-bounds modes; the NumPy
references compute the window indices with fancy indexing and ``ufunc.at``."""

from __future__ import annotations

from hypothesis import strategies as st
import numpy as np

import fgrad
import fgrad.numpy as fnp

from ._base import Arg, OpRow

ROWS: list[OpRow] = []

LAX = fgrad.lax
_WINDOW = (2, 2)
_XSHAPE = (3, 4)
_N_STARTS = 5


def _gdn():
    return LAX.GatherDimensionNumbers(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1))


def _sdn():
    return LAX.ScatterDimensionNumbers(update_window_dims=(1, 2), inserted_window_dims=(),
                                       scatter_dims_to_operand_dims=(0, 1))


def _distinct(rng, n, dt):
    """``n`` values at least 4/(n-1) apart (no ties between an operand and an update)."""
    return rng.permutation(np.linspace(-2.0, 2.0, n)).astype(dt)


def _window_args(with_updates: bool):
    def make(rng, shapes, kw, dt):
        n_x = int(np.prod(_XSHAPE))
        n_u = _N_STARTS * int(np.prod(_WINDOW))
        vals = _distinct(rng, n_x + n_u, dt)
        x = vals[:n_x].reshape(_XSHAPE)
        idx = rng.integers(-1, 4, size=(_N_STARTS, 2))
        idx[1] = idx[0]  # a repeated window
        out = [x, idx]
        if with_updates:
            out.append(vals[n_x:].reshape((_N_STARTS,) + _WINDOW))
        return out

    return make


def _window_index(idx, mode):
    """(operand index arrays of shape (starts, 2, 2), window fits) for the 2x2 window rows."""
    s = idx.astype(np.int64)
    hi = np.array(_XSHAPE) - np.array(_WINDOW)
    if mode == "clip":
        s = np.clip(s, 0, hi)
        ok = np.ones(len(s), bool)
    else:
        ok = np.all((s >= 0) & (s <= hi), axis=1)
        s = np.where(ok[:, None], s, 0)
    w = np.arange(2)
    i0, i1 = np.broadcast_arrays(s[:, 0, None, None] + w[None, :, None],
                                 s[:, 1, None, None] + w[None, None, :])
    return (i0, i1), ok


def _gather_ref(x, idx, mode):
    (i0, i1), ok = _window_index(idx, mode)
    return np.where(ok[:, None, None], x[i0, i1], np.asarray(0.5, x.dtype))


_UFUNC = {"scatter_add": np.add, "scatter_mul": np.multiply, "scatter_min": np.minimum,
          "scatter_max": np.maximum}


def _scatter_ref(name):
    def ref(x, idx, u, mode):
        (i0, i1), ok = _window_index(idx, mode)
        out = x.copy()
        target = (i0[ok], i1[ok])
        if name == "scatter":
            for t0, t1, v in zip(target[0].ravel(), target[1].ravel(), u[ok].ravel()):
                out[t0, t1] = v  # one at a time: the last update of an element wins
        elif name == "scatter_sub":
            np.add.at(out, target, -u[ok])
        else:
            _UFUNC[name].at(out, target, u[ok])
        return out

    return ref


def _apply_ref(x, idx, mode):
    (i0, i1), ok = _window_index(idx, mode)
    counts = np.zeros(x.shape, np.int64)
    np.add.at(counts, (i0[ok], i1[ok]), 1)
    out = x.copy()
    for r in range(int(counts.max())):
        out = np.where(counts > r, np.sin(out), out)
    return out


_X, _I = Arg(), Arg(kind="int", dtype=np.int64, diff=False)
_MODES = lambda shapes: st.fixed_dictionaries({"mode": st.sampled_from(["clip", "drop"])})  # noqa: E731
_SHAPES2 = st.just((_XSHAPE, (_N_STARTS, 2)))
_SHAPES3 = st.just((_XSHAPE, (_N_STARTS, 2), (_N_STARTS,) + _WINDOW))


def _scatter_row(name):
    return OpRow(
        f"lax.{name}",
        lambda x, i, u, mode: getattr(LAX, name)(x, i, u, _sdn(), mode=mode),
        _scatter_ref(name),
        args=(_X, _I, _X),
        shapes=_SHAPES3,
        kwargs=_MODES,
        make_args=_window_args(True),
        example_shapes=(_XSHAPE, (_N_STARTS, 2), (_N_STARTS,) + _WINDOW),
        example_kwargs={"mode": "drop"},
        covers=(f"lax.{name}",),
    )


def _take_along_args(rng, shapes, kw, dt):
    x = rng.uniform(-2, 2, _XSHAPE).astype(dt)
    return [x, rng.integers(-1, 5, size=(3, 2, 1)).astype(np.int64)]


def _take_along_ref(x, idx, mode):
    i = idx[..., 0]
    ok = (i >= 0) & (i < x.shape[1])
    got = x[np.arange(3)[:, None], np.clip(i, 0, x.shape[1] - 1)]
    return got if mode == "clip" else np.where(ok, got, np.asarray(0.5, x.dtype))


_BATCHED = dict(offset_dims=(), collapsed_slice_dims=(1,), start_index_map=(1,), operand_batching_dims=(0,),
                start_indices_batching_dims=(0,))

ROWS += [
    OpRow(
        "lax.gather[window]",
        lambda x, i, mode: LAX.gather(x, i, _gdn(), _WINDOW, mode="fill" if mode == "drop" else mode,
                                      fill_value=0.5),
        _gather_ref,
        args=(_X, _I),
        shapes=_SHAPES2,
        kwargs=_MODES,
        make_args=_window_args(False),
        example_shapes=(_XSHAPE, (_N_STARTS, 2)),
        example_kwargs={"mode": "drop"},
        covers=("lax.gather",),
    ),
    OpRow(
        "lax.gather[batched]",
        lambda x, i, mode: LAX.gather(x, i, LAX.GatherDimensionNumbers(**_BATCHED), (1, 1),
                                      mode="fill" if mode == "drop" else mode, fill_value=0.5),
        _take_along_ref,
        args=(_X, _I),
        shapes=st.just((_XSHAPE, (3, 2, 1))),
        kwargs=_MODES,
        make_args=_take_along_args,
        example_shapes=(_XSHAPE, (3, 2, 1)),
        example_kwargs={"mode": "drop"},
        covers=("lax.gather",),
    ),
    *[_scatter_row(n) for n in ("scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min",
                                "scatter_max")],
    OpRow(
        "lax.scatter_apply",
        lambda x, i, mode: LAX.scatter_apply(x, i, fnp.sin, _sdn(), update_shape=(_N_STARTS,) + _WINDOW,
                                             mode=mode),
        _apply_ref,
        args=(_X, _I),
        shapes=_SHAPES2,
        kwargs=_MODES,
        make_args=_window_args(False),
        example_shapes=(_XSHAPE, (_N_STARTS, 2)),
        example_kwargs={"mode": "drop"},
        covers=("lax.scatter_apply",),
    ),
]
