"""fgrad.scipy rows: special functions, distributions, linalg and signal, with SciPy as
the reference (no rows when SciPy is not installed: the special functions need it anyway).

References are cast to the first argument's dtype (SciPy computes in float64), so float32
inputs check that fgrad keeps float32.
"""

from __future__ import annotations

from hypothesis import strategies as st
import numpy as np

from ...core.x64_mode import canonical_dtype as _canonical_dtype

from ._base import Arg, F32, F64, OpRow, broadcast_shapes_of, shapes_of

try:
    import scipy.special as _ssp
    import scipy.stats as _sst
except ImportError:  # pragma: no cover - scipy is an optional test dependency
    _ssp = None

import fgrad.numpy as fnp
import fgrad.scipy as _fs

ROWS: list[OpRow] = []

_TOL = {F32: (1e-4, 1e-4), F64: (1e-11, 1e-10)}


def _cast_like_first(fn):
    def ref(*args, **kw):
        dt = np.asarray(args[0]).dtype
        with np.errstate(all="ignore"):
            out = fn(*args, **kw)
        if isinstance(out, tuple):
            return tuple(np.asarray(o).astype(dt if np.asarray(o).dtype.kind == "f" else np.asarray(o).dtype)
                         for o in out)
        out = np.asarray(out)
        return out.astype(dt) if out.dtype.kind == "f" and dt.kind == "f" else out

    return ref


def _special(name, *args, ref=None, fn=None, **kw):
    shapes = kw.pop("shapes", broadcast_shapes_of(len(args), max_dims=2) if len(args) > 1
                    else shapes_of(1, min_side=0))
    return OpRow(f"scipy.special.{name}", fn or getattr(_fs.special, name),
                 _cast_like_first(ref or getattr(_ssp, name)), args=tuple(args), shapes=shapes,
                 example_shapes=((3, 2),) * len(args), fwd_tol=kw.pop("fwd_tol", _TOL),
                 covers=(f"scipy.special.{name}",), **kw)


def _nondiff(lo, hi, kind="float"):
    return Arg(lo, hi, kind=kind, diff=False)


def _sum_away_from_zero(v, kw):
    """logsumexp with signed b: the sum stays away from 0 (where log|s| has a pole)."""
    return bool(np.all(np.abs(np.sum(v[1] * np.exp(v[0]), axis=kw["axis"])) > 0.05))


def _axis_kw(shapes):
    nd = len(shapes[0])
    axis = st.one_of(st.none(), st.integers(-nd, nd - 1)) if nd else st.none()
    return st.fixed_dictionaries({"axis": axis})


def _lse_kw(shapes):
    nd = len(shapes[0])
    axis = st.one_of(st.none(), st.integers(-nd, nd - 1)) if nd else st.none()
    return st.fixed_dictionaries({"axis": axis, "keepdims": st.booleans()})


if _ssp is not None:
    _POS = Arg(0.3, 4.0)
    ROWS += [
        _special("erf", Arg()),
        _special("erfc", Arg()),
        _special("erfinv", Arg(-0.9, 0.9)),
        _special("gammaln", Arg(0.2, 5.0)),
        _special("digamma", Arg(0.3, 5.0)),
        _special("gamma", Arg(0.3, 4.0)),
        _special("gammasgn", Arg(-3.5, 3.5, avoid=lambda v: np.abs(v - np.round(v))), grad="zero"),
        _special("i0", Arg(-3.0, 3.0)),
        _special("i0e", Arg(-3.0, 3.0, avoid=(0.0,), margin=0.1)),
        _special("i1", Arg(-3.0, 3.0)),
        _special("i1e", Arg(-3.0, 3.0, avoid=(0.0,), margin=0.1)),
        _special("ndtr", Arg(-3.0, 3.0)),
        _special("erfcx", Arg(-2.0, 4.0)),
        _special("j0", Arg(-6.0, 6.0)),
        _special("j1", Arg(-6.0, 6.0)),
        _special("ndtri", Arg(0.1, 0.9), eps=1e-5),
        _special("log_ndtr", Arg(-6.0, 3.0)),
        _special("expit", Arg(-4.0, 4.0)),
        _special("logit", Arg(0.05, 0.95)),
        _special("entr", Arg(0.1, 3.0)),
        _special("factorial", Arg(0.3, 4.0)),
        _special("betaln", _POS, _POS),
        _special("beta", _POS, _POS),
        _special("poch", Arg(0.5, 3.0), Arg(0.3, 2.0)),
        _special("xlogy", Arg(), Arg(0.2, 3.0)),
        _special("xlog1py", Arg(), Arg(-0.8, 3.0)),
        _special("rel_entr", Arg(0.1, 3.0), Arg(0.1, 3.0)),
        _special("kl_div", Arg(0.1, 3.0), Arg(0.1, 3.0)),
        _special("gammainc", _nondiff(0.5, 4.0), Arg(0.2, 4.0)),
        _special("gammaincc", _nondiff(0.5, 4.0), Arg(0.2, 4.0)),
        _special("zeta", Arg(1.5, 4.0), Arg(0.3, 3.0)),  # both arguments (the exponent since session 20)
        _special("polygamma", _nondiff(0, 3, kind="int"), Arg(0.5, 4.0)),
        _special("betainc", _nondiff(0.5, 3.0), _nondiff(0.5, 3.0), Arg(0.1, 0.9)),
        _special("loggamma", Arg(0.2, 5.0)),
        _special("comb", Arg(3.0, 9.0), Arg(0.5, 2.5), fwd_tol={F32: (1e-4, 1e-4), F64: (1e-10, 1e-10)}),
        _special("boxcox", Arg(0.2, 3.0), Arg(-1.5, 1.5)),
        _special("boxcox1p", Arg(-0.5, 2.0), Arg(-1.5, 1.5)),
        # derivatives in the shape parameters (first order: their own derivatives exist in x only)
        _special("gammainc[shape]", Arg(0.5, 6.0), Arg(0.2, 8.0), fn=_fs.special.gammainc, ref=_ssp.gammainc,
                 order=1),
        _special("gammaincc[shape]", Arg(0.5, 6.0), Arg(0.2, 8.0), fn=_fs.special.gammaincc,
                 ref=_ssp.gammaincc, order=1),
        _special("betainc[shape]", Arg(0.5, 5.0), Arg(0.5, 5.0), Arg(0.05, 0.95), fn=_fs.special.betainc,
                 ref=_ssp.betainc, order=1),
        _special("multigammaln", Arg(2.0, 5.0), example_kwargs={"d": 2},
                 kwargs=lambda s: st.fixed_dictionaries({"d": st.integers(1, 3)})),
        _special("logsumexp", Arg(-3.0, 3.0), shapes=shapes_of(1, min_dims=1), kwargs=_lse_kw,
                 example_kwargs={"axis": 1, "keepdims": False}),
        _special("logsumexp[b]", Arg(-3.0, 3.0), Arg(0.2, 2.0),
                 fn=lambda a, b, **kw: _fs.special.logsumexp(a, b=b, **kw),
                 ref=lambda a, b, **kw: _ssp.logsumexp(a, b=b, **kw),
                 shapes=shapes_of(2, min_dims=1), kwargs=_lse_kw,
                 example_kwargs={"axis": 0, "keepdims": True}),
        _special("logsumexp[return_sign]", Arg(-3.0, 3.0), Arg(-2.0, 2.0),
                 fn=lambda a, b, **kw: _fs.special.logsumexp(a, b=b, return_sign=True, **kw),
                 ref=lambda a, b, **kw: _ssp.logsumexp(a, b=b, return_sign=True, **kw),
                 shapes=shapes_of(2, min_dims=1, min_side=2), kwargs=_lse_kw,
                 example_kwargs={"axis": None, "keepdims": False},
                 valid=_sum_away_from_zero),
        _special("softmax", Arg(-3.0, 3.0), shapes=shapes_of(1, min_dims=1), kwargs=_axis_kw,
                 example_kwargs={"axis": 1}),
        _special("log_softmax", Arg(-3.0, 3.0), shapes=shapes_of(1, min_dims=1), kwargs=_axis_kw,
                 example_kwargs={"axis": None}),
    ]

# --------------------------------------------------------------------------------------
# scipy.stats: one row per (distribution, function)

_X = Arg(-2.0, 2.0)
_LOC = Arg(-0.3, 0.3)
_SCALE = Arg(0.6, 2.0)
_Q = Arg(0.05, 0.95)
_PX = Arg(0.8, 4.0)  # positive x, above any loc
_ST = broadcast_shapes_of


def _stat(dist, fn_name, *args, **kw):
    fn = getattr(getattr(_fs.stats, dist), fn_name)
    ref = getattr(getattr(_sst, dist), fn_name)
    default_float = kw.pop("default_float", False)  # JAX returns the default float (norm.ppf/isf)
    cast = _in_default_float(ref) if default_float else _cast_like_first(ref)
    return OpRow(f"scipy.stats.{dist}.{fn_name}", fn, cast, args=tuple(args),
                 shapes=kw.pop("shapes", _ST(len(args), max_dims=2)), example_shapes=((3, 2),) * len(args),
                 fwd_tol=kw.pop("fwd_tol", _TOL), covers=(f"scipy.stats.{dist}.{fn_name}",), **kw)


def _in_default_float(ref):
    def f(*a, **kw):
        return np.asarray(ref(*a, **kw), _canonical_dtype(np.float64))
    return f


def _stats_rows(dist, names, *args, **kw):
    return [_stat(dist, n, *args, **kw) for n in names]


def _away_from_loc(v, kw):
    return bool(np.all(np.abs(np.subtract(*np.broadcast_arrays(v[0], v[1]))) > 0.05))


def _dirichlet_args(rng, shapes, kw, dt):
    k = shapes[1][0]  # JAX: the categories on x's first axis, the batch after
    alpha = rng.uniform(0.5, 3.0, k)
    x = np.moveaxis(rng.dirichlet(np.ones(k), size=shapes[0][1:] or None), -1, 0)
    return [np.asarray(x, dt), alpha.astype(dt)]


def _mvn_args(rng, shapes, kw, dt):
    n = shapes[0][-1]
    m = rng.normal(size=(n, n))
    cov = m @ m.T + n * np.eye(n)
    return [rng.normal(size=shapes[0]).astype(dt), rng.normal(size=n).astype(dt), cov.astype(dt)]


def _dirichlet_ref(x, alpha):
    # SciPy checks the simplex to ~1e-9: a float32 point's sum is an ulp off 1 (0.99999994),
    # so the reference takes the point renormalized in float64 (within the row's tolerance)
    x = np.moveaxis(np.asarray(x, np.float64), 0, -1)  # categories first (JAX), last here
    flat = (x / x.sum(-1, keepdims=True)).reshape(-1, alpha.shape[-1])
    return np.asarray([_sst.dirichlet.logpdf(xi, alpha) for xi in flat]).reshape(x.shape[:-1])


def _mvn_ref(x, mean, cov):
    return _sst.multivariate_normal.logpdf(x, mean, cov)


if _ssp is not None:
    _SIMPLEX = st.tuples(st.sampled_from([(), (2,)]), st.integers(2, 4)).map(
        lambda t: ((t[1],) + tuple(t[0]), (t[1],)))
    _MVN = st.tuples(st.sampled_from([(), (3,)]), st.integers(1, 3)).map(
        lambda t: (tuple(t[0]) + (t[1],), (t[1],), (t[1], t[1])))
    ROWS += (
        _stats_rows("norm", ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], _X, _LOC, _SCALE)
        + _stats_rows("norm", ["ppf", "isf"], _Q, _LOC, _SCALE, eps=1e-5, default_float=True)
        + _stats_rows("t", ["logpdf", "pdf"], _X, Arg(1.5, 5.0), _LOC, _SCALE)
        + _stats_rows("gamma", ["logpdf", "pdf"], _PX, Arg(0.8, 3.0), _LOC, _SCALE)
        + _stats_rows("gamma", ["cdf", "logcdf", "sf", "logsf"], _PX, _nondiff(0.8, 3.0), _LOC, _SCALE)
        + _stats_rows("chi2", ["logpdf", "pdf"], _PX, Arg(1.5, 5.0), _LOC, _SCALE)
        + _stats_rows("chi2", ["cdf", "logcdf", "sf", "logsf"], _PX, _nondiff(1.5, 5.0), _LOC, _SCALE)
        + _stats_rows("beta", ["logpdf", "pdf"], Arg(0.1, 0.9), Arg(0.8, 3.0), Arg(0.8, 3.0))
        + _stats_rows("beta", ["cdf", "logcdf", "sf", "logsf"], Arg(0.1, 0.9), _nondiff(0.8, 3.0),
                      _nondiff(0.8, 3.0))
        + _stats_rows("poisson", ["logpmf", "pmf", "cdf"], _nondiff(0, 6, kind="int"), Arg(0.5, 4.0))
        + _stats_rows("bernoulli", ["logpmf", "pmf"], _nondiff(0, 1, kind="int"), Arg(0.1, 0.9))
        + _stats_rows("bernoulli", ["cdf"], _nondiff(-1.0, 2.0), Arg(0.1, 0.9),
                      valid=lambda v, kw: bool(np.all(np.abs(v[0] - np.round(v[0])) > 0.05)))
        + _stats_rows("bernoulli", ["ppf"], _nondiff(0.05, 0.95), _nondiff(0.1, 0.9), grad="skip")
        + _stats_rows("binom", ["logpmf", "pmf"], _nondiff(0, 5, kind="int"), _nondiff(5, 8, kind="int"),
                      Arg(0.1, 0.9))
        + _stats_rows("geom", ["logpmf", "pmf"], _nondiff(1, 6, kind="int"), Arg(0.1, 0.9))
        + _stats_rows("nbinom", ["logpmf", "pmf"], _nondiff(0, 6, kind="int"), Arg(0.8, 4.0), Arg(0.1, 0.9))
        + _stats_rows("logistic", ["logpdf", "pdf", "cdf", "sf"], _X, _LOC, _SCALE, valid=_away_from_loc)
        + _stats_rows("logistic", ["ppf", "isf"], _Q, _LOC, _SCALE)
        + _stats_rows("laplace", ["logpdf", "pdf", "cdf"], _X, _LOC, _SCALE, valid=_away_from_loc)
        + _stats_rows("cauchy", ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], _X, _LOC, _SCALE)
        + _stats_rows("cauchy", ["ppf", "isf"], _Q, _LOC, _SCALE)
        + _stats_rows("expon", ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], _PX, _LOC, _SCALE)
        + _stats_rows("expon", ["ppf"], _Q, _LOC, _SCALE)
        + _stats_rows("uniform", ["logpdf", "pdf", "cdf"], Arg(0.2, 0.8), Arg(-0.1, 0.1), Arg(1.1, 1.5))
        + _stats_rows("uniform", ["ppf"], _Q, _LOC, _SCALE)
        + _stats_rows("pareto", ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], Arg(2.0, 4.0),
                      Arg(0.8, 3.0), _LOC, Arg(0.6, 1.2))
        + _stats_rows("pareto", ["ppf"], _Q, Arg(0.8, 3.0), _LOC, _SCALE)
        + _stats_rows("truncnorm", ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], Arg(-0.5, 0.5),
                      Arg(-2.0, -1.0), Arg(1.0, 2.0), Arg(-0.2, 0.2), _SCALE)
        + [
            OpRow("scipy.stats.dirichlet.logpdf", _fs.stats.dirichlet.logpdf,
                  _cast_like_first(_dirichlet_ref),
                  args=(Arg(diff=False), Arg()), shapes=_SIMPLEX, make_args=_dirichlet_args,
                  example_shapes=((3,), (3,)), fwd_tol=_TOL, covers=("scipy.stats.dirichlet.logpdf",)),
            OpRow("scipy.stats.multivariate_normal.logpdf", _fs.stats.multivariate_normal.logpdf,
                  _cast_like_first(_mvn_ref), args=(Arg(), Arg(), Arg()), shapes=_MVN, make_args=_mvn_args,
                  example_shapes=((3,), (3,), (3, 3)), fwd_tol=_TOL,
                  covers=("scipy.stats.multivariate_normal.logpdf",)),
        ]
    )

# --------------------------------------------------------------------------------------
# scipy.linalg

_LA_TOL = {F32: (2e-4, 2e-4), F64: (1e-10, 1e-9)}
_N = st.integers(1, 4)


def _permuted_dominant(rng, shape, dt):
    """Row-permuted diagonally dominant matrices: partial pivoting meets clear winners (no
    near-ties that a finite-difference step could flip)."""
    n = shape[-1]
    a = 2.0 * np.eye(n) + rng.uniform(-0.4, 0.4, shape)
    perm = rng.permutation(n)
    return a[..., perm, :].astype(dt)


def _spd(rng, shape, dt):
    n = shape[-1]
    m = rng.uniform(-1, 1, shape)
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(dt)


def _tri_matrix(rng, shape, dt):
    n = shape[-1]
    return (2.0 * np.eye(n) + rng.uniform(-0.5, 0.5, shape)).astype(dt)


def _rand(rng, shape, dt):
    return rng.uniform(-1, 1, shape).astype(dt)


def _tri_matrix_rect(rng, shape, dt):
    """Tall matrices with a well-conditioned top block (R's diagonal stays away from 0)."""
    return (2.0 * np.eye(*shape) + rng.uniform(-0.5, 0.5, shape)).astype(dt)


def _abs_r(factors):
    """QR's R with non-negative diagonal (the decomposition's sign freedom removed)."""
    r = factors[-1]
    m = np if isinstance(r, np.ndarray) else fnp
    d = m.sign(m.diagonal(r))
    rows = r.shape[-2]
    if rows > d.shape[0]:  # 'full'/'r' modes of a tall matrix: zero rows below the diagonal
        d = m.concatenate([d, m.ones(rows - d.shape[0], dtype=d.dtype)])
    return r * d[:, None]


def _distinct_singular_values(a):
    s = np.linalg.svd(np.asarray(a, np.float64), compute_uv=False)
    return bool(np.all(np.diff(s[::-1]) > 0.05)) and bool(np.all(s > 0.05))


def _small(rng, shape, dt):
    return rng.uniform(-0.7, 0.7, shape).astype(dt)


def _makers(*fs):
    def make(rng, shapes, kw, dt):
        return [f(rng, s, dt) for f, s in zip(fs, shapes)]

    return make


def _la(name, fn, ref, shapes, makers, example_shapes, kwargs=None, example_kwargs=None, also=(), **kw):
    return OpRow(f"scipy.linalg.{name}", fn, _cast_like_first(ref), args=(Arg(),) * len(makers),
                 shapes=shapes, make_args=_makers(*makers), example_shapes=example_shapes, kwargs=kwargs,
                 example_kwargs=example_kwargs or {}, fwd_tol=kw.pop("fwd_tol", _LA_TOL),
                 covers=tuple(f"scipy.linalg.{n}" for n in (name.split("[")[0],) + tuple(also)), **kw)


def _sq(n):
    return ((n, n),)


def _sq_rhs(n):
    return ((n, n), (n, 2))


if _ssp is not None:
    import scipy.linalg as _sla
    import scipy.signal as _ssig

    _LA = _fs.linalg
    _BATCHED_SQ = st.tuples(st.sampled_from([(), (2,)]), _N).map(lambda t: (tuple(t[0]) + (t[1], t[1]),))
    ROWS += [
        _la("lu_factor", lambda a: _LA.lu_factor(a), _sla.lu_factor, _N.map(_sq), [_permuted_dominant],
            ((3, 3),)),
        _la("lu", lambda a: _LA.lu(a), _sla.lu, _N.map(_sq), [_permuted_dominant], ((3, 3),)),
        _la("lu[permute_l]", lambda a: _LA.lu(a, permute_l=True), lambda a: _sla.lu(a, permute_l=True),
            _N.map(_sq), [_permuted_dominant], ((3, 3),)),
        _la("lu_solve", lambda a, b, trans: _LA.lu_solve(_LA.lu_factor(a), b, trans=trans),
            lambda a, b, trans: _sla.lu_solve(_sla.lu_factor(a), b, trans=trans), _N.map(_sq_rhs),
            [_permuted_dominant, _rand], ((3, 3), (3, 2)),
            kwargs=lambda s: st.fixed_dictionaries({"trans": st.sampled_from([0, 1])}),
            example_kwargs={"trans": 0}),
        _la("cholesky", lambda a, lower: _LA.cholesky(a, lower=lower),
            lambda a, lower: _sla.cholesky(a, lower=lower), _N.map(_sq), [_spd], ((3, 3),),
            kwargs=lambda s: st.fixed_dictionaries({"lower": st.booleans()}),
            example_kwargs={"lower": False}),
        _la("cho_solve", lambda a, b, lower: _LA.cho_solve(_LA.cho_factor(a, lower=lower), b),
            lambda a, b, lower: _sla.cho_solve(_sla.cho_factor(a, lower=lower), b), _N.map(_sq_rhs),
            [_spd, _rand], ((3, 3), (3, 2)),
            kwargs=lambda s: st.fixed_dictionaries({"lower": st.booleans()}), example_kwargs={"lower": True},
            also=("cho_factor",)),
        _la("solve_triangular", lambda a, b, **kw: _LA.solve_triangular(a, b, **kw),
            lambda a, b, **kw: _sla.solve_triangular(a, b, **kw), _N.map(_sq_rhs), [_tri_matrix, _rand],
            ((3, 3), (3, 2)),
            kwargs=lambda s: st.fixed_dictionaries({"trans": st.sampled_from([0, 1, 2, "N", "T"]),
                                                    "lower": st.booleans(), "unit_diagonal": st.booleans()}),
            example_kwargs={"trans": 0, "lower": True, "unit_diagonal": False}),
        _la("solve[pos]", lambda a, b: _LA.solve(a, b, assume_a="pos"),
            lambda a, b: _sla.solve(a, b, assume_a="pos"), _N.map(_sq_rhs), [_spd, _rand], ((3, 3), (3, 2))),
        _la("eigh[generalized]", lambda a, b: _LA.eigh(a, b, eigvals_only=True),
            lambda a, b: _sla.eigh(a, b, eigvals_only=True), _N.map(lambda n: ((n, n), (n, n))),
            [lambda rng, s, dt: np.diag(np.linspace(-2.0, 2.0, s[-1]) + 0.3 * np.arange(s[-1])).astype(dt)
             + (_small(rng, s, dt) + _small(rng, s, dt).T) * 0.05, _spd], ((3, 3), (3, 3))),
        _la("expm", lambda a: _LA.expm(a), _sla.expm, _BATCHED_SQ, [_rand], ((3, 3),)),
        # sqrtm (complex, as JAX): real and imaginary parts; positive definite (real roots) and
        # a general well-conditioned matrix (complex roots)
        _la("sqrtm", lambda a: _LA.sqrtm(a).real, lambda a: _sla.sqrtm(a).real, _N.map(_sq), [_spd],
            ((3, 3),), dtypes=(F64,)),
        _la("sqrtm[general]", lambda a: (_LA.sqrtm(a).real, _LA.sqrtm(a).imag),
            lambda a: (_sla.sqrtm(a.astype(complex)).real, _sla.sqrtm(a.astype(complex)).imag),
            _N.map(_sq), [lambda rng, s, dt: (_small(rng, s, dt) + 1.5 * np.eye(s[-1])).astype(dt)],
            ((3, 3),), dtypes=(F64,)),
        _la("schur", lambda a, output: _LA.schur(a, output=output),
            lambda a, output: _sla.schur(a, output=output), _N.map(_sq), [_rand], ((3, 3),), grad="skip",
            kwargs=lambda s: st.fixed_dictionaries({"output": st.sampled_from(["real", "complex"])}),
            example_kwargs={"output": "real"}),
        _la("funm", lambda a: _LA.funm(a, fnp.exp).real, lambda a: _sla.expm(a), _N.map(_sq),
            [lambda rng, s, dt: (np.diag(np.linspace(-1.0, 1.0, s[-1]) + 0.2 * np.arange(s[-1]))
                                 + 0.1 * _small(rng, s, dt)).astype(dt)], ((3, 3),), dtypes=(F64,),
            fwd_tol={F64: (1e-9, 1e-9)}),
        _la("expm[large]", lambda a: _LA.expm(a * 8.0), lambda a: _sla.expm(a * 8.0), _N.map(_sq), [_rand],
            ((3, 3),), fwd_tol={F32: (2e-3, 2e-3), F64: (1e-9, 1e-9)}),
        _la("expm_frechet", lambda a, e: _LA.expm_frechet(a, e), lambda a, e: _sla.expm_frechet(a, e),
            _N.map(lambda n: ((n, n), (n, n))), [_small, _rand], ((3, 3), (3, 3))),
        _la("block_diag", lambda a, b, c: _LA.block_diag(a, b, c), lambda a, b, c: _sla.block_diag(a, b, c),
            st.tuples(_N, _N, _N).map(lambda t: ((t[0], t[1]), (t[2],), ())), [_rand, _rand, _rand],
            ((2, 3), (2,), ())),
        _la("svd", lambda a: _LA.svd(a, compute_uv=False), lambda a: _sla.svd(a, compute_uv=False),
            st.tuples(_N, _N).map(lambda t: ((t[0], t[1]),)), [_rand], ((3, 2),),
            valid=lambda v, kw: _distinct_singular_values(v[0])),
        _la("qr", lambda a, mode: _abs_r(_LA.qr(a, mode=mode)), lambda a, mode: _abs_r(_sla.qr(a, mode=mode)),
            st.tuples(_N, _N).map(lambda t: ((max(t), min(t)),)), [_tri_matrix_rect], ((3, 2),),
            kwargs=lambda s: st.fixed_dictionaries({"mode": st.sampled_from(["full", "economic", "r"])}),
            example_kwargs={"mode": "economic"}),
        _la("det", _LA.det, _sla.det, _N.map(_sq), [_permuted_dominant], ((3, 3),)),
        _la("inv", _LA.inv, _sla.inv, _N.map(_sq), [_permuted_dominant], ((3, 3),)),
    ]

    def _sig_kw(shapes):
        return st.fixed_dictionaries({"mode": st.sampled_from(["full", "same", "valid"]),
                                      "method": st.sampled_from(["direct", "fft", "auto"])})

    def _sig_shapes():
        def pair(nd):
            big = st.lists(st.integers(2, 5), min_size=nd, max_size=nd)
            small = st.lists(st.integers(1, 2), min_size=nd, max_size=nd)
            return st.tuples(big, small).map(lambda t: (tuple(t[0]), tuple(t[1])))

        return st.integers(1, 2).flatmap(pair)

    for _name in ("convolve", "correlate"):
        ROWS.append(OpRow(
            f"scipy.signal.{_name}", getattr(_fs.signal, _name), _cast_like_first(getattr(_ssig, _name)),
            args=(Arg(), Arg()), shapes=_sig_shapes(), kwargs=_sig_kw, example_shapes=((4, 3), (2, 2)),
            example_kwargs={"mode": "same", "method": "direct"}, fwd_tol=_LA_TOL,
            covers=(f"scipy.signal.{_name}",)))
    for _name in ("convolve2d", "correlate2d"):
        ROWS.append(OpRow(
            f"scipy.signal.{_name}", getattr(_fs.signal, _name), _cast_like_first(getattr(_ssig, _name)),
            args=(Arg(), Arg()), shapes=st.tuples(st.integers(2, 4), st.integers(1, 2)).map(
                lambda t: ((t[0], t[0] + 1), (t[1], t[1]))),
            kwargs=lambda s: st.fixed_dictionaries({"mode": st.sampled_from(["full", "same", "valid"])}),
            example_shapes=((4, 3), (2, 2)), example_kwargs={"mode": "full"}, fwd_tol=_LA_TOL,
            covers=(f"scipy.signal.{_name}",)))
    ROWS.append(OpRow(
        "scipy.signal.fftconvolve", _fs.signal.fftconvolve, _cast_like_first(_ssig.fftconvolve),
        args=(Arg(), Arg()), shapes=_sig_shapes(),
        kwargs=lambda s: st.fixed_dictionaries({"mode": st.sampled_from(["full", "same", "valid"])}),
        example_shapes=((4, 3), (2, 2)), example_kwargs={"mode": "valid"}, fwd_tol=_LA_TOL,
        covers=("scipy.signal.fftconvolve",)))

if _ssp is not None:
    # detrending and spectral analysis (fgrad.scipy.signal): composites over gathers and the FFT;
    # complex results are checked as (real, imaginary) pairs
    def _signal_1d(lo, hi):
        return st.integers(lo, hi).map(lambda n: ((n,),))

    def _real_imag(z):
        return z.real, z.imag

    ROWS += [
        OpRow("scipy.signal.detrend", lambda x, **kw: _fs.signal.detrend(x, **kw),
              _cast_like_first(lambda x, **kw: _ssig.detrend(x, **kw)), args=(Arg(),),
              shapes=st.tuples(st.sampled_from([(), (2,)]), st.integers(3, 9)).map(
                  lambda t: (tuple(t[0]) + (t[1],),)),
              kwargs=lambda s: st.fixed_dictionaries({"type": st.sampled_from(["linear", "constant"]),
                                                      "bp": st.sampled_from([0, [2]])}),
              example_shapes=((2, 6),), example_kwargs={"type": "linear", "bp": 0}, fwd_tol=_LA_TOL,
              covers=("scipy.signal.detrend",)),
        OpRow("scipy.signal.stft", lambda x, **kw: _real_imag(_fs.signal.stft(x, **kw)[2]),
              _cast_like_first(lambda x, **kw: _real_imag(_ssig.stft(x, **kw)[2])), args=(Arg(),),
              shapes=_signal_1d(8, 16),
              kwargs=lambda s: st.fixed_dictionaries({
                  "nperseg": st.integers(3, 6), "boundary": st.sampled_from(["zeros", "even", "odd", None]),
                  "detrend": st.sampled_from([False, "constant"]),
                  "window": st.sampled_from(["hann", "hamming"])}),
              example_shapes=((10,),), example_kwargs={"nperseg": 4, "boundary": "zeros", "detrend": False,
                                                       "window": "hann"},
              fwd_tol=_LA_TOL, covers=("scipy.signal.stft",)),
        OpRow("scipy.signal.istft", lambda a, b, **kw: _fs.signal.istft(a + 1j * b, **kw)[1],
              _cast_like_first(lambda a, b, **kw: _ssig.istft(a + 1j * b, **kw)[1]), args=(Arg(), Arg()),
              shapes=st.integers(2, 6).map(lambda t: ((4, t), (4, t))),
              kwargs=lambda s: st.fixed_dictionaries({"nperseg": st.just(6),
                                                      "noverlap": st.sampled_from([2, 3, 4])}),
              example_shapes=((4, 3), (4, 3)), example_kwargs={"nperseg": 6, "noverlap": 3}, fwd_tol=_LA_TOL,
              covers=("scipy.signal.istft",)),
        OpRow("scipy.signal.welch", lambda x, **kw: _fs.signal.welch(x, **kw)[1],
              _cast_like_first(lambda x, **kw: _ssig.welch(x, **kw)[1]), args=(Arg(),),
              shapes=_signal_1d(8, 16),
              kwargs=lambda s: st.fixed_dictionaries({
                  "nperseg": st.integers(3, 8), "scaling": st.sampled_from(["density", "spectrum"]),
                  "detrend": st.sampled_from([False, "constant", "linear"])}),
              example_shapes=((12,),),
              example_kwargs={"nperseg": 6, "scaling": "density", "detrend": "constant"},
              fwd_tol=_LA_TOL, covers=("scipy.signal.welch",)),
        OpRow("scipy.signal.csd", lambda x, y, **kw: _real_imag(_fs.signal.csd(x, y, **kw)[1]),
              _cast_like_first(lambda x, y, **kw: _real_imag(_ssig.csd(x, y, **kw)[1])), args=(Arg(), Arg()),
              shapes=st.integers(8, 16).map(lambda n: ((n,), (n,))),
              kwargs=lambda s: st.fixed_dictionaries({"nperseg": st.integers(3, 8),
                                                      "return_onesided": st.booleans()}),
              example_shapes=((12,), (12,)), example_kwargs={"nperseg": 6, "return_onesided": True},
              fwd_tol=_LA_TOL, covers=("scipy.signal.csd",)),
    ]
