"""fgrad.scipy rows for the integrals, hypergeometric functions, Bessel/spherical-harmonic
composites (`fgrad.ops.special_integrals`, `fgrad.scipy.special`) and the distributions and
descriptive statistics added with them, with SciPy as the reference (no rows without SciPy).

Complex results (``wofz``, ``sph_harm_y``) are compared and differentiated as their real and
imaginary parts.
"""

from __future__ import annotations

from hypothesis import strategies as st
import numpy as np

from ._base import Arg, F32, F64, OpRow, shapes_of
from .scipy_rows import _TOL, _cast_like_first, _nondiff, _special, _stats_rows

try:
    import scipy.special as _ssp
    import scipy.stats as _sst
except ImportError:  # pragma: no cover - scipy is an optional test dependency
    _ssp = None

import fgrad.scipy as _fs

ROWS: list[OpRow] = []

_LOOSE = {F32: (2e-4, 2e-4), F64: (1e-10, 1e-10)}


def _complex_parts(fn):
    def split(*args, **kw):
        out = fn(*args, **kw)
        return out.real, out.imag

    return split


def _away_from_integers(v, kw):
    return bool(np.all(np.abs(v[0] - np.round(v[0])) > 0.05))


def _sph_ref(n, m, theta, phi):
    """SciPy's values; a scalar theta gives a 1-d result (JAX's convention)."""
    theta = np.atleast_1d(theta)
    out = _ssp.sph_harm_y(n.astype(np.int64), m.astype(np.int64), theta, phi)
    return out.real.astype(theta.dtype), out.imag.astype(theta.dtype)


def _sph_args(rng, shapes, kw, dt):
    shape = shapes[0]
    n = rng.integers(0, 4, shape)
    m = rng.integers(-3, 4, shape)
    m = np.clip(m, -n, n)
    return [n.astype(np.int64), m.astype(np.int64), rng.uniform(0.2, 2.9, shape).astype(dt),
            rng.uniform(0.1, 6.0, shape).astype(dt)]


def _multinomial_args(rng, shapes, kw, dt):
    *batch, k = shapes[0]
    weights = rng.uniform(0.5, 1.5, k)  # probabilities away from 0: finite differences stay inside
    p = (weights / weights.sum()).astype(dt)
    n = 5
    x = rng.multinomial(n, rng.dirichlet(np.ones(k)), size=tuple(batch) or None)
    return [np.asarray(x, np.int64), np.int64(n), p]


def _multinomial_ref(x, n, p):
    return np.asarray(_sst.multinomial.logpmf(x, n, p)).astype(p.dtype)


def _kde_args(rng, shapes, kw, dt):
    d, n, m = shapes[0]
    return [rng.normal(size=(d, n)).astype(dt), rng.normal(size=(d, m)).astype(dt)]


def _kde_ref(data, points, method):
    return getattr(_sst.gaussian_kde(data), method)(points)


def _kde_fn(data, points, method):
    return getattr(_fs.stats.gaussian_kde(data), method)(points)


def _rank_kw(shapes):
    nd = len(shapes[0])
    axis = st.one_of(st.none(), st.integers(-nd, nd - 1)) if nd else st.none()
    return st.fixed_dictionaries({"method": st.sampled_from(["average", "min", "max", "dense", "ordinal"]),
                                  "axis": axis})


def _sem_kw(shapes):
    nd = len(shapes[0])
    return st.fixed_dictionaries({"axis": st.one_of(st.none(), st.integers(-nd, nd - 1)),
                                  "ddof": st.sampled_from([0, 1]), "keepdims": st.booleans()})


def _mode_kw(shapes):
    nd = len(shapes[0])
    return st.fixed_dictionaries({"axis": st.one_of(st.none(), st.integers(-nd, nd - 1)),
                                  "keepdims": st.booleans()})


def _mode_ref(a, axis, keepdims):
    res = _sst.mode(a, axis=axis, keepdims=keepdims)
    return np.asarray(res.mode), np.asarray(res.count)


if _ssp is not None:
    _SP = _fs.special
    ROWS += [
        _special("exp1", Arg(0.2, 4.0)),
        _special("expi", Arg(-3.0, 3.0, avoid=(0.0,), margin=0.2)),
        _special("expn", _nondiff(0, 4, kind="int"), Arg(0.3, 4.0)),
        _special("dawsn", Arg(-4.0, 4.0)),
        _special("fresnel", Arg(-2.5, 2.5)),
        _special("sici", Arg(0.2, 6.0)),
        _special("sici[si]", Arg(-6.0, 6.0), fn=lambda x: _SP.sici(x)[0], ref=lambda x: _ssp.sici(x)[0]),
        _special("spence", Arg(0.1, 3.0)),
        # float64 only: JAX's owens_t of float32 is float64 (x64 on; tests/test_jax_suite_grids.py)
        _special("owens_t", Arg(-2.5, 2.5), Arg(-2.0, 2.0), fwd_tol=_LOOSE, dtypes=(F64,)),
        _special("hyp1f1", _nondiff(0.3, 2.0), _nondiff(0.5, 3.0), Arg(-2.0, 2.0), fwd_tol=_LOOSE),
        _special("hyp2f1", _nondiff(0.2, 1.5), _nondiff(0.2, 1.5), _nondiff(1.8, 3.0), Arg(-0.7, 0.7),
                 fwd_tol=_LOOSE),
        _special("wofz", Arg(-3.0, 3.0), Arg(-3.0, 3.0), fn=lambda x, y: _complex_parts(_SP.wofz)(x + 1j * y),
                 ref=lambda x, y: _complex_parts(_ssp.wofz)(x + 1j * y)),
        # n_iter=25 keeps the second-order checks fast; accurate to 1e-14 for |z| <= 6
        _special("bessel_jn", Arg(-6.0, 6.0, avoid=(0.0,), margin=0.1),
                 fn=lambda z, v: _SP.bessel_jn(z, v=v, n_iter=25),
                 ref=lambda z, v: np.stack([_ssp.jv(k, z) for k in range(v + 1)]),
                 kwargs=lambda s: st.fixed_dictionaries({"v": st.integers(0, 4)}), example_kwargs={"v": 3},
                 fwd_tol=_LOOSE),
        OpRow("scipy.special.sph_harm_y",
              _complex_parts(lambda n, m, t, p: _SP.sph_harm_y(n, m, t, p, n_max=3)),
              _sph_ref,
              args=(_nondiff(0, 3, kind="int"), _nondiff(-3, 3, kind="int"), Arg(), Arg()),
              shapes=shapes_of(4, max_dims=2), make_args=_sph_args, example_shapes=((3, 2),) * 4,
              fwd_tol=_LOOSE, covers=("scipy.special.sph_harm_y",)),
    ]

    _X = Arg(-2.0, 2.0)
    _LOC = Arg(-0.3, 0.3)
    _SCALE = Arg(0.6, 2.0)
    _Q = Arg(0.05, 0.95)
    ROWS += (
        _stats_rows("gumbel_r", ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], _X, _LOC, _SCALE)
        + _stats_rows("gumbel_r", ["ppf"], _Q, _LOC, _SCALE, eps=1e-5)
        + _stats_rows("gumbel_l", ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], _X, _LOC, _SCALE)
        + _stats_rows("gumbel_l", ["ppf"], _Q, _LOC, _SCALE, eps=1e-5)
        + _stats_rows("gennorm", ["logpdf", "pdf"], Arg(-2.0, 2.0, avoid=(0.0,), margin=0.1), Arg(1.2, 3.0))
        + _stats_rows("gennorm", ["cdf"], Arg(-2.0, 2.0, avoid=(0.0,), margin=0.1), _nondiff(1.2, 3.0))
        + _stats_rows("vonmises", ["logpdf", "pdf"], Arg(-4.0, 4.0), Arg(0.2, 4.0))
        + _stats_rows("wrapcauchy", ["logpdf", "pdf"], Arg(0.1, 6.1), Arg(0.1, 0.9))
        + _stats_rows("betabinom", ["logpmf", "pmf"], _nondiff(0, 5, kind="int"), _nondiff(5, 8, kind="int"),
                      Arg(0.5, 3.0), Arg(0.5, 3.0))
        + _stats_rows("poisson", ["entropy"], Arg(0.5, 30.0))
    )
    ROWS += [
        OpRow("scipy.stats.gennorm.cdf[shape]", _fs.stats.gennorm.cdf, _cast_like_first(_sst.gennorm.cdf),
              args=(Arg(-2.0, 2.0, avoid=(0.0,), margin=0.1), Arg(1.2, 3.0)), shapes=shapes_of(2, max_dims=2),
              order=1, fwd_tol=_TOL, covers=("scipy.stats.gennorm.cdf",)),
        OpRow("scipy.stats.multinomial.logpmf", _fs.stats.multinomial.logpmf,
              _multinomial_ref,
              args=(Arg(diff=False), Arg(diff=False), Arg()),
              shapes=st.tuples(st.sampled_from([(), (2,)]), st.integers(2, 4)).map(
                  lambda t: (tuple(t[0]) + (t[1],), (), (t[1],))),
              make_args=_multinomial_args, example_shapes=((2, 3), (), (3,)), fwd_tol=_TOL,
              covers=("scipy.stats.multinomial.logpmf", "scipy.stats.multinomial.pmf")),
        OpRow("scipy.stats.sem", _fs.stats.sem, _cast_like_first(_sst.sem), args=(Arg(),),
              shapes=shapes_of(1, min_dims=1, min_side=2), kwargs=_sem_kw,
              example_kwargs={"axis": 0, "ddof": 1, "keepdims": False}, fwd_tol=_TOL,
              covers=("scipy.stats.sem",)),
        OpRow("scipy.stats.rankdata", _fs.stats.rankdata,
              lambda a, **kw: np.asarray(_sst.rankdata(a, **kw), np.float64),  # float64 always, as JAX
              args=(Arg(-2.0, 2.0, kind="int"),), shapes=shapes_of(1, min_dims=1), kwargs=_rank_kw,
              example_kwargs={"method": "average", "axis": None}, grad="skip",
              covers=("scipy.stats.rankdata",)),
        OpRow("scipy.stats.mode", lambda a, **kw: tuple(_fs.stats.mode(a, **kw)), _mode_ref,
              args=(Arg(-2.0, 2.0, kind="int"),), shapes=shapes_of(1, min_dims=1), kwargs=_mode_kw,
              example_kwargs={"axis": 0, "keepdims": False}, grad="skip", covers=("scipy.stats.mode",)),
        OpRow("scipy.stats.gaussian_kde", lambda d, p, method: _kde_fn(d, p, method),
              _cast_like_first(_kde_ref), args=(Arg(), Arg()),
              shapes=st.tuples(st.integers(1, 2), st.integers(3, 4), st.integers(1, 2)).map(lambda t: (t, t)),
              make_args=_kde_args, example_shapes=((2, 4, 2), (2, 4, 2)),
              kwargs=lambda s: st.fixed_dictionaries({"method": st.sampled_from(["evaluate", "logpdf"])}),
              example_kwargs={"method": "logpdf"}, fwd_tol=_LOOSE,
              covers=("scipy.stats.gaussian_kde",)),
    ]
