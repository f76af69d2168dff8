"""Rows of NumPy's numerical breadth: NaN-aware order statistics, calculus on samples,
statistics and histograms, polynomials, set operations, windows, the remaining elementwise
and bit functions, array utilities and ``linalg.eig``/``eigvals``."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import fgrad.numpy as fnp
from fgrad.numpy._calculus import gradient_with_edge_order
from ...core.inexact import to_inexact_dtype
from ..device_numerics import ftz_spacing
from fgrad.ops import eig as eig_ops

from ._base import (
    _as_input_dtype,
    F32,
    F64,
    INTS,
    Arg,
    OpRow,
    binary,
    near_integer,
    one_axis_kwargs,
    reduction,
    shapes_of,
    unary,
)

ROWS: list[OpRow] = []


def _cast_tree(out, dtype):
    if isinstance(out, (tuple, list)):
        return type(out)(_cast_tree(o, dtype) for o in out)
    out = np.asarray(out)
    return out.astype(dtype) if out.dtype.kind == "f" else out


def _as_arg(i, ref):
    """NumPy's function with float results in argument ``i``'s float dtype (JAX and fgrad
    keep float32 where NumPy computes in float64)."""

    def f(*args, **kw):
        dt = np.asarray(args[i]).dtype
        return _cast_tree(ref(*args, **kw), dt if dt.kind == "f" else np.float64)

    return f


def _as_first(ref):
    return _as_arg(0, ref)


_TOL = {F32: (1e-5, 1e-5), F64: (1e-12, 1e-11)}
_INT64 = np.dtype(np.int64)


# --------------------------------------------------------------------------------------
# NaN-aware order statistics


def _nan_args(rng, shapes, kw, dt):
    """NaNs where the index sum is 1 mod 3 (every slice keeps numbers), plus one all-NaN
    column when the array is 2-D or more (NaN results)."""
    a = rng.uniform(-2, 2, shapes[0])
    idx = np.indices(shapes[0]).sum(axis=0) if a.ndim else np.zeros(())
    a[(idx % 3) == 1] = np.nan
    return [a.astype(dt)]


def _q_kwargs(scale):
    def make(shapes):
        nd = len(shapes[0])
        axis = st.one_of(st.none(), st.integers(-nd, nd - 1)) if nd else st.none()
        q = st.one_of(
            st.floats(0.0, 1.0).map(lambda v: v * scale),
            st.lists(st.floats(0.0, 1.0), min_size=1, max_size=3).map(lambda v: tuple(x * scale for x in v)),
        )
        return st.fixed_dictionaries(
            {
                "q": q,
                "axis": axis,
                "keepdims": st.booleans(),
                "method": st.sampled_from(["linear", "lower", "higher", "nearest", "midpoint"]),
            }
        )

    return make


def _qfn(f):
    return lambda a, q, **kw: f(a, np.asarray(q) if isinstance(q, tuple) else q, **kw)


_NAN_SHAPES = shapes_of(1, min_dims=1, max_dims=3, min_side=3, max_side=4)

ROWS += [
    reduction("nanmedian", make_args=_nan_args, shapes=_NAN_SHAPES, fwd_tol=_TOL),
    OpRow(
        "nanquantile",
        _qfn(fnp.nanquantile),
        _as_input_dtype(_qfn(np.nanquantile)),
        shapes=_NAN_SHAPES,
        kwargs=_q_kwargs(1.0),
        make_args=_nan_args,
        example_kwargs={"q": 0.3, "axis": 1, "keepdims": False, "method": "linear"},
        fwd_tol=_TOL,
    ),
    OpRow(
        "nanpercentile",
        _qfn(fnp.nanpercentile),
        _qfn(np.nanpercentile),
        shapes=_NAN_SHAPES,
        kwargs=_q_kwargs(100.0),
        make_args=_nan_args,
        example_kwargs={"q": 30.0, "axis": None, "keepdims": True, "method": "midpoint"},
        fwd_tol=_TOL,
    ),
]


# --------------------------------------------------------------------------------------
# calculus on samples


def _interp_args(rng, shapes, kw, dt):
    n = shapes[1][0]
    xp = np.sort(rng.choice(np.linspace(-2, 2, 4 * n + 1), n, replace=False)) + rng.uniform(0, 0.01, n)
    fp = rng.uniform(-2, 2, n)
    x = rng.uniform(-2.5, 2.5, shapes[0])
    return [x.astype(dt), xp.astype(dt), fp.astype(dt)]


def _interp_valid(vals, kw):
    x, xp = np.asarray(vals[0], np.float64), np.asarray(vals[1], np.float64)
    return bool(np.all(np.abs(x[..., None] - xp) > 0.03))


ROWS += [
    OpRow(
        "interp",
        fnp.interp,
        _as_first(np.interp),
        args=(Arg(), Arg(), Arg()),
        shapes=st.tuples(st.lists(st.integers(1, 4), max_size=2).map(tuple), st.integers(1, 5)).map(
            lambda t: (t[0], (t[1],), (t[1],))
        ),
        example_shapes=((3, 2), (4,), (4,)),
        make_args=_interp_args,
        valid=_interp_valid,
        fwd_tol=_TOL,
    ),
    OpRow(
        "interp[period]",
        lambda x, xp, fp: fnp.interp(x, xp, fp, period=1.5),
        _as_first(lambda x, xp, fp: np.interp(x, xp, fp, period=1.5)),
        args=(Arg(), Arg(), Arg()),
        shapes=st.just(((5,), (4,), (4,))),
        example_shapes=((5,), (4,), (4,)),
        make_args=lambda rng, s, kw, dt: [
            rng.uniform(-2, 2, 5).astype(dt),
            (np.array([0.1, 0.5, 0.9, 1.3]) + rng.uniform(0, 0.05, 4)).astype(dt),
            rng.uniform(-2, 2, 4).astype(dt),
        ],
        valid=lambda v, kw: bool(
            np.all(np.abs(np.mod(v[0], 1.5)[:, None] - np.asarray(v[1])) > 0.03)
            and np.all(np.abs(np.mod(v[0], 1.5)[:, None] - np.asarray(v[1]) - 1.5) > 0.03)
            and np.all(np.abs(np.mod(v[0], 1.5)[:, None] - np.asarray(v[1]) + 1.5) > 0.03)
        ),
        covers=("numpy.interp",),
        fwd_tol=_TOL,
    ),
]


def _gradient_kwargs(shapes):
    nd = len(shapes[0])
    return st.fixed_dictionaries(
        {"axis": st.one_of(st.none(), st.integers(-nd, nd - 1)), "edge_order": st.sampled_from([1, 2])}
    )


def _sorted_coords(rng, n, dt):
    return np.cumsum(rng.uniform(0.3, 1.0, n)).astype(dt)


ROWS += [
    OpRow(
        "gradient",
        lambda f, **kw: gradient_with_edge_order(f, 0.7, **kw),
        lambda f, **kw: np.gradient(f, 0.7, **kw),
        shapes=shapes_of(1, min_dims=1, max_dims=3, min_side=3),
        kwargs=_gradient_kwargs,
        example_shapes=((3, 4),),
        example_kwargs={"axis": None, "edge_order": 2},
        fwd_tol=_TOL,
    ),
    OpRow(
        "gradient[coordinates]",
        lambda f, x, edge_order: gradient_with_edge_order(f, x, axis=-1, edge_order=edge_order),
        lambda f, x, edge_order: np.gradient(f, x, axis=-1, edge_order=edge_order),
        args=(Arg(), Arg()),
        shapes=st.tuples(st.integers(1, 3), st.integers(3, 5)).map(lambda t: ((t[0], t[1]), (t[1],))),
        example_shapes=((2, 4), (4,)),
        kwargs=lambda s: st.fixed_dictionaries({"edge_order": st.sampled_from([1, 2])}),
        example_kwargs={"edge_order": 2},
        make_args=lambda rng, s, kw, dt: [
            rng.uniform(-2, 2, s[0]).astype(dt),
            _sorted_coords(rng, s[1][0], dt),
        ],
        covers=("numpy.gradient",),
        fwd_tol=_TOL,
    ),
    OpRow(
        "trapezoid",
        lambda y, x, axis: fnp.trapezoid(y, x, axis=axis),
        lambda y, x, axis: np.trapezoid(y, x, axis=axis),
        args=(Arg(), Arg()),
        shapes=st.tuples(st.integers(1, 3), st.integers(2, 5)).map(lambda t: ((t[1], t[0]), (t[1],))),
        example_shapes=((4, 2), (4,)),
        kwargs=lambda s: st.just({"axis": 0}),
        example_kwargs={"axis": 0},
        fwd_tol=_TOL,
    ),
    OpRow(
        "trapezoid[dx]",
        lambda y, axis: fnp.trapezoid(y, dx=0.3, axis=axis),
        lambda y, axis: np.trapezoid(y, dx=0.3, axis=axis),
        shapes=shapes_of(1, min_dims=1),
        kwargs=one_axis_kwargs(),
        example_shapes=((3, 4),),
        example_kwargs={"axis": -1},
        covers=("numpy.trapezoid",),
        fwd_tol=_TOL,
    ),
]


def _unwrap_args(rng, shapes, kw, dt):
    steps = rng.uniform(-9, 9, shapes[0])
    for _ in range(100):  # keep every step away from the kinks at odd multiples of pi
        bad = np.abs(np.mod(steps + np.pi, 2 * np.pi) - 0.0) < 0.1
        bad |= np.abs(np.mod(steps + np.pi, 2 * np.pi) - 2 * np.pi) < 0.1
        if not bad.any():
            break
        steps[bad] = rng.uniform(-9, 9, int(bad.sum()))
    return [np.cumsum(steps, axis=-1).astype(dt)]


ROWS += [
    OpRow(
        "unwrap",
        fnp.unwrap,
        np.unwrap,
        shapes=shapes_of(1, min_dims=1, min_side=2),
        make_args=_unwrap_args,
        kwargs=lambda s: st.just({"axis": -1}),
        example_shapes=((2, 5),),
        example_kwargs={"axis": -1},
        fwd_tol={F32: (1e-4, 1e-5), F64: (1e-12, 1e-12)},
    ),
    OpRow(
        "ediff1d",
        lambda a: fnp.ediff1d(a, to_end=np.array([1.5]), to_begin=-2.0),
        lambda a: np.ediff1d(a, to_end=np.array([1.5]), to_begin=-2.0),
        shapes=shapes_of(1, min_dims=1),
        example_shapes=((3, 2),),
    ),
    OpRow(
        "trim_zeros",
        lambda a: fnp.trim_zeros(a, "fb"),
        lambda a: np.trim_zeros(a, "fb"),
        args=(Arg(-2, 2),),
        shapes=shapes_of(1, min_dims=1, max_dims=1, min_side=1, max_side=6),
        make_args=lambda rng, s, kw, dt: [
            np.concatenate([[0.0], rng.uniform(0.5, 2, s[0][0]), [0.0, 0.0]]).astype(dt)
        ],
        example_shapes=((4,),),
        vmap=False,
        grad="skip",
    ),
    OpRow(
        "piecewise",
        lambda x: fnp.piecewise(x, [x < 0, x > 1], [lambda v: v**2, lambda v: 3 * v, -1.5]),
        lambda x: np.piecewise(x, [x < 0, x > 1], [lambda v: v**2, lambda v: 3 * v, -1.5]),
        args=(Arg(-2, 2, avoid=(0.0, 1.0)),),
        shapes=shapes_of(1),
        example_shapes=((3, 2),),
    ),
    OpRow(
        "apply_along_axis",
        lambda a, axis: fnp.apply_along_axis(lambda v: fnp.sum(v**2) * v[0], axis, a),
        lambda a, axis: np.apply_along_axis(lambda v: np.sum(v**2) * v[0], axis, a),
        shapes=shapes_of(1, min_dims=1),
        kwargs=one_axis_kwargs(),
        example_shapes=((3, 4),),
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "apply_over_axes",
        lambda a: fnp.apply_over_axes(fnp.sum, a, [0, 2]),
        lambda a: np.apply_over_axes(np.sum, a, [0, 2]),
        shapes=shapes_of(1, min_dims=3, max_dims=3),
        example_shapes=((2, 3, 2),),
    ),
]


# --------------------------------------------------------------------------------------
# statistics and histograms


def _cov_kwargs(shapes):
    return st.fixed_dictionaries({"rowvar": st.booleans(), "bias": st.booleans()})


def _in_dtype_of(m, out):
    """NumPy's cov/corrcoef ``out`` (float64) in JAX's dtype: ``m``'s inexact dtype."""
    return out.astype(to_inexact_dtype(m.dtype))


def _rows_spread_out(vals, kw) -> bool:
    """corrcoef divides by each row's standard deviation: a row that is constant up to subnormal
    noise has a float32 variance that underflows to 0 (NaN, as in NumPy and JAX at float32), while
    the float64 reference still finds a correlation; such rows are ill posed, not wrong."""
    return bool(np.all(np.std(np.asarray(vals[0], np.float64), axis=-1) > 1e-3))


def _cov_shapes(extra_weights: bool):
    return st.tuples(st.integers(1, 3), st.integers(3, 6)).map(
        lambda t: ((t[0], t[1]), (t[1],)) if extra_weights else ((t[0], t[1]),)
    )


ROWS += [
    OpRow(
        "cov",
        lambda m, rowvar, bias: fnp.cov(m if rowvar else m.T, rowvar=rowvar, bias=bias),
        lambda m, rowvar, bias: _in_dtype_of(m, np.cov(m if rowvar else m.T, rowvar=rowvar, bias=bias)),
        shapes=_cov_shapes(False),
        kwargs=_cov_kwargs,
        example_shapes=((2, 4),),
        example_kwargs={"rowvar": True, "bias": False},
        fwd_tol=_TOL,
    ),
    OpRow(
        "cov[weights]",
        lambda m, w: fnp.cov(m, aweights=w, fweights=np.arange(1, m.shape[1] + 1)),
        lambda m, w: _in_dtype_of(m, np.cov(m, aweights=w, fweights=np.arange(1, m.shape[1] + 1))),
        args=(Arg(), Arg(0.5, 2.0)),
        shapes=_cov_shapes(True),
        example_shapes=((2, 4), (4,)),
        covers=("numpy.cov",),
        fwd_tol=_TOL,
    ),
    OpRow(
        "corrcoef",
        fnp.corrcoef,
        lambda m: _in_dtype_of(m, np.corrcoef(m)),
        shapes=st.tuples(st.integers(2, 3), st.integers(3, 6)).map(lambda t: ((t[0], t[1]),)),
        example_shapes=((2, 4),),
        fwd_tol=_TOL,
        valid=_rows_spread_out,
    ),
]


def _bincount_args(rng, shapes, kw, dt):
    return [rng.integers(0, 6, shapes[0]).astype(np.int64), rng.uniform(-2, 2, shapes[1]).astype(dt)]


def _away_from_edges(edges):
    def valid(vals, kw):
        return bool(np.all(np.abs(np.asarray(vals[0], np.float64)[..., None] - edges) > 0.02))

    return valid


_EDGES = np.linspace(-2.0, 2.0, 6)
_EDGES_2D = np.linspace(-2.0, 2.0, 4)

ROWS += [
    OpRow(
        "bincount",
        lambda x, w: fnp.bincount(x, w, length=7),
        _as_arg(1, lambda x, w: np.bincount(x, w, minlength=7)),
        args=(Arg(0, 5, kind="int", dtype=_INT64), Arg()),
        shapes=shapes_of(2, min_dims=1, max_dims=1),
        example_shapes=((5,), (5,)),
        make_args=_bincount_args,
        fwd_tol=_TOL,
    ),
    OpRow(
        "histogram",
        lambda a, w: fnp.histogram(a, bins=5, range=(-2.0, 2.0), weights=w),
        lambda a, w: np.histogram(a, bins=5, range=(-2.0, 2.0), weights=w),
        args=(Arg(-2.5, 2.5, diff=False), Arg()),
        shapes=shapes_of(2, min_dims=1, max_dims=2),
        example_shapes=((6,), (6,)),
        valid=_away_from_edges(_EDGES),
        fwd_tol=_TOL,
    ),
    OpRow(
        "histogram[density]",
        lambda a: fnp.histogram(a, bins=4, density=True),
        # JAX's density is in the data's float dtype (NumPy's is float64: it counts in ints)
        lambda a: (lambda h, e: (h.astype(a.dtype), e))(*np.histogram(a, bins=4, density=True)),
        args=(Arg(kind="distinct"),),
        shapes=shapes_of(1, min_dims=1, max_dims=1, min_side=2, max_side=8),
        example_shapes=((6,),),
        grad="skip",
        covers=("numpy.histogram",),
        fwd_tol=_TOL,
    ),
    OpRow(
        "histogram_bin_edges",
        lambda a: fnp.histogram_bin_edges(a, bins=4),
        lambda a: np.histogram_bin_edges(a, bins=4),
        args=(Arg(kind="distinct"),),
        shapes=shapes_of(1, min_dims=1, max_dims=2, min_side=2),
        example_shapes=((5,),),
        fwd_tol=_TOL,
    ),
    OpRow(
        "histogram2d",
        lambda x, y, w: fnp.histogram2d(x, y, bins=3, range=[(-2, 2), (-2, 2)], weights=w),
        _as_arg(2, lambda x, y, w: np.histogram2d(x, y, bins=3, range=[(-2, 2), (-2, 2)], weights=w)),
        args=(Arg(-2.5, 2.5, diff=False), Arg(-2.5, 2.5, diff=False), Arg()),
        shapes=shapes_of(3, min_dims=1, max_dims=1),
        example_shapes=((6,), (6,), (6,)),
        valid=lambda v, kw: _away_from_edges(_EDGES_2D)(v, kw) and _away_from_edges(_EDGES_2D)([v[1]], kw),
        fwd_tol=_TOL,
    ),
    OpRow(
        "histogramdd",
        lambda s, w: fnp.histogramdd(s, bins=(2, 3), range=[(-2, 2), (-1, 1)], weights=w),
        _as_arg(1, lambda s, w: np.histogramdd(s, bins=(2, 3), range=[(-2, 2), (-1, 1)], weights=w)),
        args=(Arg(-2.5, 2.5, diff=False), Arg()),
        shapes=st.integers(1, 6).map(lambda n: ((n, 2), (n,))),
        example_shapes=((5, 2), (5,)),
        valid=lambda v, kw: bool(
            np.all(np.abs(np.asarray(v[0])[:, :1] - np.linspace(-2, 2, 3)) > 0.02)
            and np.all(np.abs(np.asarray(v[0])[:, 1:] - np.linspace(-1, 1, 4)) > 0.02)
        ),
        fwd_tol=_TOL,
    ),
]


# --------------------------------------------------------------------------------------
# polynomials


def _poly_shapes(n_args: int, lo=1, hi=5):
    return st.tuples(*[st.integers(lo, hi) for _ in range(n_args)]).map(lambda t: tuple((k,) for k in t))


def _polydiv_args(rng, shapes, kw, dt):
    u = rng.uniform(-2, 2, shapes[0][0])
    v = rng.uniform(-2, 2, min(shapes[1][0], shapes[0][0]))
    v[0] = np.sign(v[0] or 1.0) * rng.uniform(0.7, 2.0)
    return [u.astype(dt), v.astype(dt)]


def _polyfit_args(rng, shapes, kw, dt):
    n = shapes[0][0]
    x = np.linspace(-1, 1, n) + rng.uniform(-0.05, 0.05, n)
    return [x.astype(dt), rng.uniform(-2, 2, shapes[1]).astype(dt)]


def _roots_args(rng, shapes, kw, dt):
    r = np.sort(rng.choice(np.linspace(-2, 2, 9), shapes[0][0] - 1, replace=False)) + rng.uniform(0, 0.05)
    return [(rng.uniform(0.5, 2) * np.poly(r)).astype(dt)]


ROWS += [
    OpRow(
        "polyval",
        fnp.polyval,
        np.polyval,
        args=(Arg(), Arg()),
        shapes=st.tuples(st.integers(1, 5), st.lists(st.integers(1, 3), max_size=2).map(tuple)).map(
            lambda t: ((t[0],), t[1])
        ),
        example_shapes=((4,), (3,)),
        fwd_tol=_TOL,
    ),
    OpRow(
        "polyadd",
        fnp.polyadd,
        np.polyadd,
        args=(Arg(), Arg()),
        shapes=_poly_shapes(2),
        example_shapes=((3,), (5,)),
    ),
    OpRow(
        "polysub",
        fnp.polysub,
        np.polysub,
        args=(Arg(), Arg()),
        shapes=_poly_shapes(2),
        example_shapes=((4,), (2,)),
    ),
    OpRow(
        "polymul",
        fnp.polymul,
        # jnp.polymul's default (trim_leading_zeros=False: a static shape), which fgrad follows;
        # np.polymul trims leading zeros of the inputs ([0, a] * [b] is [a*b] there)
        lambda a1, a2: np.convolve(np.atleast_1d(a1), np.atleast_1d(a2)),
        args=(Arg(), Arg()),
        shapes=_poly_shapes(2),
        example_shapes=((3,), (2,)),
        fwd_tol=_TOL,
    ),
    OpRow(
        "polydiv",
        fnp.polydiv,
        lambda u, v: _np_polydiv_untrimmed(u, v),
        args=(Arg(), Arg()),
        shapes=_poly_shapes(2, 2, 5),
        example_shapes=((5,), (3,)),
        make_args=_polydiv_args,
        fwd_tol={F32: (1e-4, 1e-4), F64: (1e-11, 1e-10)},
    ),
    OpRow(
        "polyder",
        lambda p, m: fnp.polyder(p, m),
        _as_first(lambda p, m: np.polyder(p, m)),
        shapes=_poly_shapes(1, 1, 6),
        kwargs=lambda s: st.fixed_dictionaries({"m": st.integers(0, 3)}),
        example_shapes=((5,),),
        example_kwargs={"m": 2},
    ),
    OpRow(
        "polyint",
        lambda p, m: fnp.polyint(p, m, k=0.5),
        lambda p, m: np.polyint(p, m, k=[0.5] * m).astype(p.dtype),  # JAX: float32 stays
        shapes=_poly_shapes(1, 1, 6),
        kwargs=lambda s: st.fixed_dictionaries({"m": st.integers(1, 3)}),
        example_shapes=((4,),),
        example_kwargs={"m": 2},
        fwd_tol=_TOL,
    ),
    OpRow(
        "polyfit",
        lambda x, y, deg: fnp.polyfit(x, y, deg),
        lambda x, y, deg: np.polyfit(x, y, deg).astype(np.result_type(x, y)),  # JAX: float32 stays
        args=(Arg(), Arg()),
        shapes=st.tuples(st.integers(4, 7), st.sampled_from([(), (2,)])).map(
            lambda t: ((t[0],), (t[0],) + t[1])
        ),
        kwargs=lambda s: st.fixed_dictionaries({"deg": st.integers(0, 3)}),
        make_args=_polyfit_args,
        example_shapes=((5,), (5,)),
        example_kwargs={"deg": 2},
        fwd_tol={F32: (1e-3, 1e-3), F64: (1e-9, 1e-9)},
        f32_grad_scale=10.0,
    ),
    OpRow(
        "vander",
        lambda x, N, increasing: fnp.vander(x, N, increasing),
        _as_first(lambda x, N, increasing: np.vander(x, N, increasing)),
        shapes=_poly_shapes(1, 1, 5),
        kwargs=lambda s: st.fixed_dictionaries(
            {"N": st.one_of(st.none(), st.integers(0, 5)), "increasing": st.booleans()}
        ),
        example_shapes=((3,),),
        example_kwargs={"N": 4, "increasing": False},
        fwd_tol=_TOL,
    ),
    OpRow("poly", fnp.poly, np.poly, shapes=_poly_shapes(1, 1, 5), example_shapes=((3,),), fwd_tol=_TOL),
    OpRow(
        "roots",
        lambda p: fnp.sort(fnp.real(fnp.roots(p, strip_zeros=False))),
        lambda p: np.sort(np.real(np.roots(p))),
        shapes=_poly_shapes(1, 2, 5),
        example_shapes=((4,),),
        make_args=_roots_args,
        fwd_tol={F32: (1e-4, 1e-4), F64: (1e-10, 1e-9)},
        f32_grad_scale=10.0,
        grad_tol=(1e-4, 1e-4),
        covers=("numpy.roots",),
    ),
]


def _np_polydiv_untrimmed(u, v):
    """NumPy's quotient with the remainder padded back to ``u``'s length (JAX's layout)."""
    q, r = np.polydiv(u, v)
    return q, np.concatenate([np.zeros(len(u) - len(r), r.dtype), r])


# --------------------------------------------------------------------------------------
# set operations (sorted unique results: concrete inputs, or size= under vmap)

_SET_ARGS = (Arg(0, 6, kind="int", dtype=_INT64), Arg(0, 6, kind="int", dtype=_INT64))
_SET_SHAPES = shapes_of(2, min_dims=1, max_dims=1, max_side=6)
ROWS += [
    OpRow(
        "isin",
        fnp.isin,
        np.isin,
        args=(Arg(0, 6, kind="int"), Arg(0, 6, kind="int")),
        shapes=st.tuples(
            st.lists(st.integers(1, 3), max_size=2).map(tuple), st.integers(0, 5).map(lambda n: (n,))
        ),
        example_shapes=((3, 2), (4,)),
        dtypes=(),
        other_dtypes=INTS + (F64,),
        grad="no",
    ),
    OpRow(
        "union1d",
        fnp.union1d,
        np.union1d,
        args=_SET_ARGS,
        shapes=_SET_SHAPES,
        example_shapes=((4,), (3,)),
        dtypes=(),
        other_dtypes=(_INT64,),
        grad="no",
        vmap=False,
    ),
    OpRow(
        "intersect1d",
        lambda a, b: fnp.intersect1d(a, b, return_indices=True),
        lambda a, b: np.intersect1d(a, b, return_indices=True),
        args=_SET_ARGS,
        shapes=_SET_SHAPES,
        example_shapes=((4,), (3,)),
        dtypes=(),
        other_dtypes=(_INT64,),
        grad="no",
        vmap=False,
    ),
    OpRow(
        "setdiff1d",
        fnp.setdiff1d,
        np.setdiff1d,
        args=_SET_ARGS,
        shapes=_SET_SHAPES,
        example_shapes=((4,), (3,)),
        dtypes=(),
        other_dtypes=(_INT64,),
        grad="no",
        vmap=False,
    ),
    OpRow(
        "setxor1d",
        fnp.setxor1d,
        np.setxor1d,
        args=_SET_ARGS,
        shapes=_SET_SHAPES,
        example_shapes=((4,), (3,)),
        dtypes=(),
        other_dtypes=(_INT64,),
        grad="no",
        vmap=False,
    ),
    OpRow(
        "union1d[size]",
        lambda a, b: fnp.union1d(a, b, size=12, fill_value=-1),
        lambda a, b: _padded(np.union1d(a, b), 12, -1),
        args=_SET_ARGS,
        shapes=_SET_SHAPES,
        example_shapes=((4,), (3,)),
        dtypes=(),
        other_dtypes=(_INT64,),
        grad="no",
        covers=("numpy.union1d",),
    ),
    OpRow(
        "setdiff1d[size]",
        lambda a, b: fnp.setdiff1d(a, b, size=6, fill_value=-1),
        lambda a, b: _padded(np.setdiff1d(a, b), 6, -1),
        args=_SET_ARGS,
        shapes=_SET_SHAPES,
        example_shapes=((4,), (3,)),
        dtypes=(),
        other_dtypes=(_INT64,),
        grad="no",
        covers=("numpy.setdiff1d",),
    ),
    OpRow(
        "setxor1d[size]",
        lambda a, b: fnp.setxor1d(a, b, size=12, fill_value=-1),
        lambda a, b: _padded(np.setxor1d(a, b), 12, -1),
        args=_SET_ARGS,
        shapes=_SET_SHAPES,
        example_shapes=((4,), (3,)),
        dtypes=(),
        other_dtypes=(_INT64,),
        grad="no",
        covers=("numpy.setxor1d",),
    ),
    OpRow(
        "intersect1d[size]",
        lambda a, b: fnp.intersect1d(a, b, size=6, fill_value=-1),
        lambda a, b: _padded(np.intersect1d(a, b), 6, -1),
        args=_SET_ARGS,
        shapes=_SET_SHAPES,
        example_shapes=((4,), (3,)),
        dtypes=(),
        other_dtypes=(_INT64,),
        grad="no",
        covers=("numpy.intersect1d",),
    ),
]


def _padded(values, size, fill):
    out = np.full(size, fill, values.dtype)
    out[: min(size, values.size)] = values[:size]
    return out


# --------------------------------------------------------------------------------------
# windows, i0 and the remaining elementwise / bit functions


def _kaiser_args(rng, shapes, kw, dt):
    return [np.asarray(rng.uniform(0.5, 6.0)).astype(dt)]


def _away_from_powers_of_two(v):
    a = np.abs(np.asarray(v, np.float64))
    return np.abs(np.log2(np.where(a > 0, a, 1.0)) - np.round(np.log2(np.where(a > 0, a, 1.0))))


ROWS += [
    OpRow(
        "kaiser",
        lambda beta, M: fnp.kaiser(M, beta),
        lambda beta, M: np.kaiser(M, beta),
        shapes=st.just(((),)),
        kwargs=lambda s: st.fixed_dictionaries({"M": st.integers(0, 6)}),
        example_shapes=((),),
        example_kwargs={"M": 5},
        make_args=_kaiser_args,
        dtypes=(F64,),
        fwd_tol=_TOL,
    ),
    unary("i0", lo=-4.0, hi=4.0, fwd_tol=_TOL),
    unary("fabs", avoid=(0.0,), specials=True),
    binary("float_power", args=(Arg(0.3, 2.0), Arg(-2.0, 2.0)), dtypes=(F64,), fwd_tol=_TOL),
    OpRow(
        "ldexp",
        fnp.ldexp,
        np.ldexp,
        args=(Arg(), Arg(-5, 5, kind="int", dtype=np.int32, diff=False)),
        shapes=shapes_of(2),
        example_shapes=((3, 2), (3, 2)),
    ),
    unary("frexp", avoid=lambda v: _away_from_powers_of_two(v), specials=True),
    unary("modf", avoid=near_integer, specials=True),
    unary(
        "spacing",
        grad="zero",
        avoid=lambda v: _away_from_powers_of_two(v),
        specials=True,
        fwd_tol={F32: (0, 0), F64: (0, 0)},
        ftz_ref=ftz_spacing,
    ),
    unary("isposinf", grad="no", specials=True),
    unary("isneginf", grad="no", specials=True),
    OpRow(
        "iscomplex",
        fnp.iscomplex,
        np.iscomplex,
        args=(Arg(-1, 1, kind="int"),),
        shapes=shapes_of(1),
        dtypes=(),
        other_dtypes=INTS + (np.dtype(np.complex128),),
        grad="no",
        example_shapes=((3,),),
    ),
    OpRow(
        "isreal",
        fnp.isreal,
        np.isreal,
        args=(Arg(-1, 1, kind="int"),),
        shapes=shapes_of(1),
        dtypes=(),
        other_dtypes=INTS + (np.dtype(np.complex128),),
        grad="no",
        example_shapes=((3,),),
    ),
    binary(
        "gcd",
        args=(Arg(-30, 30, kind="int"), Arg(-30, 30, kind="int")),
        dtypes=(),
        other_dtypes=INTS,
        grad="no",
    ),
    binary(
        "lcm",
        args=(Arg(-30, 30, kind="int"), Arg(-30, 30, kind="int")),
        dtypes=(),
        other_dtypes=INTS,
        grad="no",
    ),
    OpRow(
        "bitwise_count",
        fnp.bitwise_count,
        np.bitwise_count,
        args=(Arg(-300, 300, kind="int"),),
        shapes=shapes_of(1),
        dtypes=(),
        other_dtypes=INTS,
        grad="no",
        example_shapes=((3,),),
    ),
    OpRow(
        "sort_complex",
        fnp.sort_complex,
        lambda a: np.sort_complex(a).astype(np.complex64 if a.dtype == np.float32 else np.complex128),
        args=(Arg(kind="distinct"),),
        shapes=shapes_of(1, min_dims=1),
        example_shapes=((4,),),
        grad="skip",
    ),
    OpRow(
        "packbits",
        lambda a, axis: fnp.packbits(a, axis=axis),
        lambda a, axis: np.packbits(a, axis=axis),
        args=(Arg(0, 2, kind="int"),),
        shapes=shapes_of(1, min_dims=1, max_side=10),
        kwargs=lambda s: st.fixed_dictionaries(
            {"axis": st.one_of(st.none(), st.integers(-len(s[0]), len(s[0]) - 1))}
        ),
        example_shapes=((3, 9),),
        example_kwargs={"axis": 1},
        dtypes=(),
        other_dtypes=INTS + (np.dtype(np.bool_),),
        grad="no",
    ),
    OpRow(
        "unpackbits",
        lambda a, axis: fnp.unpackbits(a, axis=axis, count=5),
        lambda a, axis: np.unpackbits(a, axis=axis, count=5),
        args=(Arg(0, 255, kind="int", dtype=np.uint8),),
        shapes=shapes_of(1, min_dims=1),
        kwargs=lambda s: st.fixed_dictionaries({"axis": st.just(-1)}),
        example_shapes=((2, 3),),
        example_kwargs={"axis": -1},
        dtypes=(),
        other_dtypes=(np.dtype(np.uint8),),
        grad="no",
    ),
]


# --------------------------------------------------------------------------------------
# array utilities

ROWS += [
    OpRow(
        "array_equiv",
        fnp.array_equiv,
        np.array_equiv,
        args=(Arg(-1, 1, kind="int"), Arg(-1, 1, kind="int")),
        shapes=shapes_of(2, max_dims=2),
        example_shapes=((2,), (2,)),
        grad="no",
    ),
    unary("copy"),
    OpRow(
        "resize",
        lambda a, shape: fnp.resize(a, shape),
        lambda a, shape: np.resize(a, shape),
        shapes=shapes_of(1, min_dims=1),
        kwargs=lambda s: st.fixed_dictionaries(
            {"shape": st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)}
        ),
        example_shapes=((3,),),
        example_kwargs={"shape": (2, 4)},
    ),
    OpRow(
        "rollaxis",
        lambda a, axis, start: fnp.rollaxis(a, axis, start),
        lambda a, axis, start: np.rollaxis(a, axis, start),
        shapes=shapes_of(1, min_dims=1),
        kwargs=lambda s: st.fixed_dictionaries(
            {"axis": st.integers(-len(s[0]), len(s[0]) - 1), "start": st.integers(-len(s[0]), len(s[0]))}
        ),
        example_shapes=((2, 3, 4),),
        example_kwargs={"axis": 2, "start": 0},
    ),
    OpRow(
        "place",
        lambda a, v: fnp.place(a, a > 0, v, inplace=False),
        lambda a, v: _np_place(a, v),
        args=(Arg(), Arg()),
        shapes=st.tuples(
            st.lists(st.integers(1, 4), min_size=1, max_size=2).map(tuple), st.integers(1, 3)
        ).map(lambda t: (t[0], (t[1],))),
        example_shapes=((3, 2), (2,)),
        valid=lambda v, kw: bool(np.all(np.abs(np.asarray(v[0])) > 0.02)),
    ),
    OpRow(
        "put",
        lambda a, v: fnp.put(a, np.array([0, -1, 1]), v, mode="wrap", inplace=False),
        lambda a, v: _np_put(a, v),
        args=(Arg(), Arg()),
        shapes=st.tuples(
            st.lists(st.integers(2, 4), min_size=1, max_size=2).map(tuple), st.integers(1, 3)
        ).map(lambda t: (t[0], (t[1],))),
        example_shapes=((3, 2), (2,)),
        grad="skip",
    ),
    OpRow(
        "block",
        lambda a, b, c: fnp.block([[a, b], [c]]),
        lambda a, b, c: np.block([[a, b], [c]]),
        args=(Arg(), Arg(), Arg()),
        shapes=st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)).map(
            lambda t: ((t[0], t[1]), (t[0], t[2]), (2, t[1] + t[2]))
        ),
        example_shapes=((2, 2), (2, 1), (2, 3)),
    ),
    OpRow(
        "geomspace",
        lambda a, b: fnp.geomspace(a, b, 5),
        lambda a, b: np.geomspace(a, b, 5),
        args=(Arg(0.5, 3.0), Arg(0.5, 3.0)),
        shapes=st.just(((), ())),
        example_shapes=((), ()),
        dtypes=(F64,),
        fwd_tol=_TOL,
    ),
]


def _np_place(a, v):
    out = np.array(a, copy=True)
    np.place(out, out > 0, v)
    return out


def _np_put(a, v):
    out = np.array(a, copy=True)
    np.put(out, np.array([0, -1, 1]), v, mode="wrap")
    return out


# --------------------------------------------------------------------------------------
# linalg.eig / eigvals


def _real_spectrum(rng, s, dt):
    n = s[-1]
    out = np.empty(s)
    for idx in np.ndindex(*s[:-2]):
        q = rng.normal(size=(n, n)) + 2.0 * np.eye(n)
        w = np.linspace(-2.0, 2.5, n) + 0.1 * np.arange(n) if n > 1 else np.array([1.5])
        out[idx] = q @ np.diag(w) @ np.linalg.inv(q)
    return out.astype(dt)


_SQ = st.tuples(st.sampled_from([(), (2,)]), st.integers(1, 4)).map(lambda t: (t[0] + (t[1], t[1]),))
_EIG_TOL = {F32: (1e-3, 1e-3), F64: (1e-9, 1e-8)}

ROWS += [
    OpRow(
        "linalg.eigvals",
        lambda a: fnp.sort(fnp.real(fnp.linalg.eigvals(a))),
        lambda a: np.sort(np.real(np.linalg.eigvals(a))),
        shapes=_SQ,
        example_shapes=((3, 3),),
        make_args=lambda rng, s, kw, dt: [_real_spectrum(rng, s[0], dt)],
        fwd_tol=_EIG_TOL,
        f32_grad_scale=10.0,
        covers=("numpy.linalg.eigvals",),
    ),
    OpRow(
        "linalg.eig[complex]",
        lambda a: fnp.sort_complex(fnp.linalg.eigvals(a)),
        lambda a: np.sort_complex(np.linalg.eigvals(a)).astype(
            np.complex64 if a.dtype == np.float32 else np.complex128
        ),
        shapes=_SQ,
        example_shapes=((3, 3),),
        fwd_tol=_EIG_TOL,
        grad="skip",
        covers=("numpy.linalg.eigvals",),
    ),
    OpRow(
        "linalg.eig",
        lambda a: _eig_vectors(eig_ops.eig(a, eigvec_derivs=True)),
        lambda a: _eig_vectors(np.linalg.eig(a)),
        shapes=_SQ,
        example_shapes=((3, 3),),
        make_args=lambda rng, s, kw, dt: [_real_spectrum(rng, s[0], dt)],
        fwd_tol=_EIG_TOL,
        f32_grad_scale=10.0,
        dtypes=(F64,),
        covers=("numpy.linalg.eig",),
    ),
]


def _eig_vectors(res):
    """Eigenvalues (real parts, ascending) and the eigenvectors in that order, each column's
    sign fixed by its largest component (LAPACK's phase convention for real spectra)."""
    w, v = res
    xp = fnp if type(w).__module__.startswith("fgrad") else np
    order = xp.argsort(xp.real(w), axis=-1)
    w = xp.take_along_axis(xp.real(w), order, axis=-1)
    v = xp.take_along_axis(xp.real(v), order[..., None, :], axis=-1)
    return w, v
