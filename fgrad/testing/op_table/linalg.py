"""fgrad.numpy.linalg rows."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
import numpy as np

import fgrad
import fgrad.numpy as fnp

from ._base import Arg, F32, F64, OpRow, shapes_of
from .products import _PROD_TOL
from .structural import _kw, _one, _two_plus

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# numpy.linalg

LA = fnp.linalg
_LA_TOL = {F32: (1e-4, 1e-4), F64: (1e-10, 1e-9)}
_LA_BATCH = st.sampled_from([(), (2,)])


def _sq_shapes(n_lo=1, n_hi=4, extra=None):
    """One square matrix shape with optional batch dims (and extra argument shapes)."""

    def build(t):
        batch, n = t
        s = tuple(batch) + (n, n)
        return (s,) if extra is None else (s,) + extra(batch, n)

    return st.tuples(_LA_BATCH, st.integers(n_lo, n_hi)).map(build)


def _well_conditioned(rng, shape, dt):
    n = shape[-1]
    return (np.eye(n) * 2.0 + rng.uniform(-0.5, 0.5, shape)).astype(dt)


def _spd(rng, shape, dt):
    n = shape[-1]
    m = rng.uniform(-1, 1, shape)
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(dt)


def _with_spectrum(rng, shape, dt, values, symmetric):
    """Random orthogonal Q and V with Q diag(values) V^T (V = Q when symmetric)."""
    n = shape[-1]
    out = np.empty(shape)
    for idx in np.ndindex(*shape[:-2]):
        q, _ = np.linalg.qr(rng.normal(size=(n, n)))
        v = q if symmetric else np.linalg.qr(rng.normal(size=(n, n)))[0]
        out[idx] = q @ np.diag(values(n)) @ v.T
    return out.astype(dt)


def _distinct_spectrum(n):
    return np.linspace(-2.0, 2.5, n) + 0.1 * np.arange(n) if n > 1 else np.array([1.5])


def _la_args(*makers):
    def make(rng, shapes, kw, dt):
        return [mk(rng, s, dt) for mk, s in zip(makers, shapes, strict=True)]

    return make


def _rand(rng, shape, dt):
    return rng.uniform(-1, 1, shape).astype(dt)


def _sign_fix(v, w=None):
    """Canonical signs for eigen/singular vectors: each column of ``v`` gets a positive first
    row; the matching rows of ``w`` (V^H of an SVD) are flipped with it."""
    m = fnp if isinstance(v, fgrad.Array) else np
    s = m.sign(v[..., :1, :])
    if w is None:
        return v * s
    return v * s, w * m.swapaxes(s, -1, -2)


def _eigh_fn(a):
    w, v = LA.eigh(a)
    return w, _sign_fix(v)


def _eigh_ref(a):
    w, v = np.linalg.eigh(a)
    return w, _sign_fix(v)


def _svd_fn(a):
    u, s, vh = LA.svd(a, full_matrices=False)
    u, vh = _sign_fix(u, vh)
    return u, s, vh


def _svd_ref(a):
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    u, vh = _sign_fix(u, vh)
    return u, s, vh


def _first_row_away_from_zero(vals, kw):
    a = np.asarray(vals[0], np.float64)
    if a.shape[-1] == a.shape[-2] and np.allclose(a, np.swapaxes(a, -1, -2)):
        v = np.linalg.eigh(a)[1]
    else:
        v = np.linalg.svd(a, full_matrices=False)[0]
    return bool(np.all(np.abs(v[..., 0, :]) > 0.1))


def _rect_shapes():
    return st.tuples(_LA_BATCH, st.integers(1, 4), st.integers(1, 4)).map(
        lambda t: (tuple(t[0]) + (t[1], t[2]),)
    )


def _svd_args(rng, shapes, kw, dt):
    (s,) = shapes
    m, n = s[-2:]
    k = min(m, n)
    out = np.empty(s)
    for idx in np.ndindex(*s[:-2]):
        u = np.linalg.qr(rng.normal(size=(m, m)))[0][:, :k]
        v = np.linalg.qr(rng.normal(size=(n, n)))[0][:, :k]
        out[idx] = u @ np.diag(np.linspace(0.5, 2.5, k) if k > 1 else [1.5]) @ v.T
    return [out.astype(dt)]


def _norm_kwargs(shapes):
    nd = len(shapes[0])
    vec = st.fixed_dictionaries(
        {
            "ord": st.sampled_from([None, 1, 2, np.inf, -np.inf, 3, 0.5]),
            "axis": st.integers(-nd, nd - 1),
            "keepdims": st.booleans(),
        }
    )
    if nd < 2:
        return st.fixed_dictionaries(
            {
                "ord": st.sampled_from([None, 1, 2, np.inf, -np.inf, 3]),
                "axis": st.sampled_from([None, 0]),
                "keepdims": st.booleans(),
            }
        )
    mat = st.permutations(list(range(nd))).flatmap(
        lambda p: st.fixed_dictionaries(
            {
                "ord": st.sampled_from([None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]),
                "axis": st.just((p[0], p[1] - nd)),
                "keepdims": st.booleans(),
            }
        )
    )
    return st.one_of(vec, mat)


ROWS += [
    OpRow(
        "linalg.inv",
        LA.inv,
        np.linalg.inv,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_well_conditioned),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.inv",),
    ),
    OpRow(
        "linalg.solve",
        LA.solve,
        np.linalg.solve,
        args=(Arg(), Arg()),
        shapes=_sq_shapes(extra=lambda b, n: (tuple(b) + (n, 2),)),
        make_args=_la_args(_well_conditioned, _rand),
        example_shapes=((3, 3), (3, 2)),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.solve",),
    ),
    OpRow(
        "linalg.solve[vector]",
        LA.solve,
        np.linalg.solve,
        args=(Arg(), Arg()),
        shapes=st.integers(1, 4).map(lambda n: ((n, n), (n,))),
        make_args=_la_args(_well_conditioned, _rand),
        example_shapes=((3, 3), (3,)),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.solve",),
    ),
    OpRow(
        "linalg.det",
        LA.det,
        np.linalg.det,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_well_conditioned),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.det",),
    ),
    OpRow(
        "linalg.slogdet",
        lambda a: tuple(LA.slogdet(a)),
        lambda a: tuple(np.linalg.slogdet(a)),
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_well_conditioned),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.slogdet",),
    ),
    OpRow(
        "linalg.cholesky",
        LA.cholesky,
        np.linalg.cholesky,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_spd),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.cholesky",),
    ),
    OpRow(
        "linalg.cholesky[upper]",
        lambda a: LA.cholesky(a, upper=True),
        lambda a: np.linalg.cholesky(a, upper=True),
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_spd),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.cholesky",),
    ),
    OpRow(
        "linalg.eigh",
        _eigh_fn,
        _eigh_ref,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=lambda rng, s, kw, dt: [_with_spectrum(rng, s[0], dt, _distinct_spectrum, True)],
        valid=_first_row_away_from_zero,
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.eigh",),
    ),
    OpRow(
        "linalg.eigvalsh",
        LA.eigvalsh,
        np.linalg.eigvalsh,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=lambda rng, s, kw, dt: [_with_spectrum(rng, s[0], dt, _distinct_spectrum, True)],
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.eigvalsh",),
    ),
    OpRow(
        "linalg.svd",
        _svd_fn,
        _svd_ref,
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        make_args=_svd_args,
        valid=_first_row_away_from_zero,
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.svd",),
    ),
    OpRow(
        "linalg.svd[values]",
        lambda a: LA.svd(a, compute_uv=False),
        lambda a: np.linalg.svd(a, compute_uv=False),
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        make_args=_svd_args,
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.svd",),
    ),
    OpRow(
        "linalg.svdvals",
        LA.svdvals,
        np.linalg.svdvals,
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        make_args=_svd_args,
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.svdvals",),
    ),
    OpRow(
        "linalg.qr",
        lambda a: tuple(LA.qr(a)),
        lambda a: tuple(np.linalg.qr(a)),
        shapes=st.tuples(_LA_BATCH, st.integers(1, 4), st.integers(1, 4)).map(
            lambda t: (tuple(t[0]) + (max(t[1], t[2]), min(t[1], t[2])),)
        ),
        make_args=_svd_args,
        fwd_tol=_LA_TOL,
        example_shapes=((4, 3),),
        covers=("numpy.linalg.qr",),
    ),
    OpRow(
        "linalg.qr[r]",
        lambda a: LA.qr(a, mode="r"),
        lambda a: np.linalg.qr(a, mode="r"),
        shapes=st.integers(1, 4).map(lambda n: ((n + 1, n),)),
        make_args=_svd_args,
        fwd_tol=_LA_TOL,
        example_shapes=((4, 3),),
        covers=("numpy.linalg.qr",),
    ),
    OpRow(
        "linalg.pinv",
        LA.pinv,
        np.linalg.pinv,
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        make_args=_svd_args,
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.pinv",),
    ),
    OpRow(
        "linalg.matrix_power",
        lambda a, n: LA.matrix_power(a, n),
        np.linalg.matrix_power,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_well_conditioned),
        kwargs=_kw(n=st.integers(-2, 3)),
        example_kwargs={"n": 3},
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.matrix_power",),
    ),
    OpRow(
        "linalg.matrix_rank",
        LA.matrix_rank,
        np.linalg.matrix_rank,
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        grad="no",
        make_args=lambda rng, s, kw, dt: [
            (
                _rand(rng, s[0][:-1] + (1,), dt) @ _rand(rng, s[0][:-2] + (1, s[0][-1]), dt)
                if rng.random() < 0.5
                else _rand(rng, s[0], dt)
            ).astype(dt)
        ],
        covers=("numpy.linalg.matrix_rank",),
    ),
    OpRow(
        "linalg.norm",
        lambda x, **kw: LA.norm(x, **kw),
        lambda x, **kw: np.linalg.norm(x, **kw),
        shapes=_one(hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=3)),
        kwargs=_norm_kwargs,
        make_args=lambda rng, s, kw, dt: [
            (rng.uniform(0.3, 2.0, s[0]) * np.where(rng.random(s[0]) < 0.5, -1, 1)).astype(dt)
        ],
        example_shapes=((3, 4),),
        example_kwargs={"ord": None, "axis": None, "keepdims": False},
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.norm",),
    ),
    OpRow(
        "linalg.vector_norm",
        lambda x, **kw: LA.vector_norm(x, **kw),
        lambda x, **kw: np.linalg.vector_norm(x, **kw),
        args=(Arg(0.3, 2.0),),
        kwargs=_kw(ord=st.sampled_from([2, 1, np.inf, -np.inf, 3]), keepdims=st.booleans()),
        example_kwargs={"ord": 2, "keepdims": False},
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.vector_norm",),
    ),
    OpRow(
        "linalg.matrix_norm",
        lambda x, **kw: LA.matrix_norm(x, **kw),
        lambda x, **kw: np.linalg.matrix_norm(x, **kw),
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        make_args=_svd_args,
        kwargs=_kw(
            ord=st.sampled_from(["fro", "nuc", 1, 2, np.inf, -1, -2, -np.inf]), keepdims=st.booleans()
        ),
        example_kwargs={"ord": "fro", "keepdims": False},
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.matrix_norm",),
    ),
    OpRow(
        "linalg.cond",
        LA.cond,
        np.linalg.cond,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_well_conditioned),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.cond",),
    ),
    OpRow(
        "linalg.lstsq",
        lambda a, b: LA.lstsq(a, b)[0],
        lambda a, b: np.linalg.lstsq(a, b)[0],
        args=(Arg(), Arg()),
        shapes=st.tuples(st.integers(1, 3), st.integers(0, 2)).map(
            lambda t: ((t[0] + t[1], t[0]), (t[0] + t[1], 2))
        ),
        make_args=lambda rng, s, kw, dt: _svd_args(rng, s[:1], kw, dt) + [_rand(rng, s[1], dt)],
        example_shapes=((4, 3), (4, 2)),
        fwd_tol=_LA_TOL,
        vmap=False,
        covers=("numpy.linalg.lstsq",),
    ),
    OpRow(
        "linalg.lstsq[all]",
        lambda a, b: list(LA.lstsq(a, b, numpy_resid=True)),
        lambda a, b: [o if i != 2 else np.int64(o) for i, o in enumerate(np.linalg.lstsq(a, b))],
        args=(Arg(), Arg()),
        shapes=st.just(((4, 3), (4,))),
        grad="skip",
        vmap=False,
        make_args=lambda rng, s, kw, dt: _svd_args(rng, s[:1], kw, dt) + [_rand(rng, s[1], dt)],
        example_shapes=((4, 3), (4,)),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.lstsq",),
    ),
    OpRow(
        "linalg.multi_dot",
        lambda a, b, c: LA.multi_dot([a, b, c]),
        lambda a, b, c: np.linalg.multi_dot([a, b, c]),
        args=(Arg(),) * 3,
        shapes=st.sampled_from([((3,), (3, 2), (2, 4)), ((2, 3), (3, 2), (2,)), ((1, 2), (2, 2), (2, 3))]),
        example_shapes=((2, 3), (3, 2), (2,)),
        fwd_tol=_LA_TOL,
        vmap=False,
        covers=("numpy.linalg.multi_dot",),
    ),
    OpRow(
        "linalg.tensorinv",
        lambda a: LA.tensorinv(a, ind=2),
        lambda a: np.linalg.tensorinv(a, ind=2),
        shapes=st.just(((2, 2, 4),)),
        example_shapes=((2, 2, 4),),
        fwd_tol=_LA_TOL,
        vmap=False,
        make_args=lambda rng, s, kw, dt: [_well_conditioned(rng, (4, 4), dt).reshape(2, 2, 4)],
        covers=("numpy.linalg.tensorinv",),
    ),
    OpRow(
        "linalg.tensorsolve",
        LA.tensorsolve,
        np.linalg.tensorsolve,
        args=(Arg(), Arg()),
        shapes=st.just(((2, 2, 4), (2, 2))),
        example_shapes=((2, 2, 4), (2, 2)),
        fwd_tol=_LA_TOL,
        vmap=False,
        make_args=lambda rng, s, kw, dt: [
            _well_conditioned(rng, (4, 4), dt).reshape(2, 2, 4),
            _rand(rng, (2, 2), dt),
        ],
        covers=("numpy.linalg.tensorsolve",),
    ),
    OpRow(
        "linalg.diagonal",
        lambda x, offset: LA.diagonal(x, offset=offset),
        lambda x, offset: np.linalg.diagonal(x, offset=offset),
        shapes=_one(_two_plus),
        kwargs=_kw(offset=st.integers(-2, 2)),
        example_kwargs={"offset": 0},
        covers=("numpy.linalg.diagonal",),
    ),
    OpRow(
        "linalg.trace",
        lambda x, offset: LA.trace(x, offset=offset),
        lambda x, offset: np.linalg.trace(x, offset=offset),
        shapes=_one(_two_plus),
        kwargs=_kw(offset=st.integers(-2, 2)),
        example_kwargs={"offset": 1},
        covers=("numpy.linalg.trace",),
    ),
    OpRow(
        "linalg.cross",
        LA.cross,
        np.linalg.cross,
        args=(Arg(), Arg()),
        shapes=shapes_of(2, min_dims=1).map(lambda s: (s[0][:-1] + (3,),) * 2),
        example_shapes=((2, 3), (2, 3)),
        fwd_tol=_PROD_TOL,
        covers=("numpy.linalg.cross",),
    ),
    OpRow(
        "linalg.vecdot",
        LA.vecdot,
        np.linalg.vecdot,
        args=(Arg(), Arg()),
        shapes=shapes_of(2, min_dims=1),
        fwd_tol=_PROD_TOL,
        covers=("numpy.linalg.vecdot",),
    ),
    OpRow(
        "linalg.outer",
        LA.outer,
        np.linalg.outer,
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(min_dims=1, max_dims=1), hnp.array_shapes(min_dims=1, max_dims=1)),
        example_shapes=((3,), (2,)),
        fwd_tol=_PROD_TOL,
        covers=("numpy.linalg.outer",),
    ),
    OpRow(
        "linalg.tensordot",
        lambda a, b: LA.tensordot(a, b, axes=1),
        lambda a, b: np.linalg.tensordot(a, b, axes=1),
        args=(Arg(), Arg()),
        shapes=st.just(((2, 3), (3, 4))),
        example_shapes=((2, 3), (3, 4)),
        fwd_tol=_PROD_TOL,
        covers=("numpy.linalg.tensordot",),
    ),
    OpRow(
        "linalg.matmul",
        LA.matmul,
        np.linalg.matmul,
        args=(Arg(), Arg()),
        shapes=st.sampled_from([((2, 3), (3, 4)), ((2, 2, 3), (3, 1)), ((3,), (3, 2))]),
        example_shapes=((2, 3), (3, 4)),
        fwd_tol=_PROD_TOL,
        covers=("numpy.linalg.matmul",),
    ),
    OpRow(
        "linalg.matrix_transpose",
        LA.matrix_transpose,
        np.linalg.matrix_transpose,
        shapes=_one(_two_plus),
        covers=("numpy.linalg.matrix_transpose",),
    ),
]


