"""Compare `fgrad.scipy.stats` with `jax.scipy.stats` value by value and gradient by gradient.

For every distribution method (logpdf/pdf/cdf/logcdf/sf/logsf/ppf/isf/logpmf/pmf) and several
parameter sets (valid, invalid, with ``loc``/``scale``), float64 and float32, evaluates values
and per-element gradients with respect to every positional argument (the parameters are
broadcast to the shape of ``x``, so the gradient of the sum is the per-element gradient), at
interior points and at edges (0, tiny, the support's ends, +-inf, NaN, out-of-range
probabilities). Each differing element is classified:

- ``fgNaN``: fgrad NaN where JAX is finite (usually an fgrad bug),
- ``jaxNaN``: JAX NaN where fgrad is finite (usually JAX leaking a masked branch),
- ``num``: both non-NaN but different.

Run ``python tools/stats_parity.py [--dist NAME] [--fn NAME] [--verbose]``; it prints each
differing check and ``bad N of M``. Needs JAX (``jax_enable_x64`` is switched on).

``python tools/stats_parity.py --store`` writes JAX's values and gradients at the regression
cases below (``REGRESSION_CASES``) to ``tests/stored/scipy_stats_parity21.json``, which
``tests/test_scipy_stats_parity21.py`` checks fgrad against.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout's fgrad

XS = np.array([-3., -1., -0.5, 0., 1e-300, 0.1, 0.3, 0.6, 1., 1.1, 1.7, 2., 2.5, 10.,
               np.inf, -np.inf, np.nan])
QS = np.array([0., 1e-10, 0.1, 0.5, 0.9, 1., 1.2, -0.1, np.nan])
METHODS = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf", "logpmf", "pmf"]
SKIP = {"multivariate_normal", "dirichlet", "multinomial", "gaussian_kde", "wrapcauchy",
        "vonmises_fisher", "mode", "rankdata", "sem"}
PARAM_SETS = [(0.6, 1.7, 2.2), (1.7, 0.6, 2.2), (2.5, 3.0, 0.5)]
TRUNCNORM_SETS = [(-1.0, 1.5), (0.5, 3.0), (2.0, 1.0), (-np.inf, 0.5)]


NAN, INF = float("nan"), float("inf")
# (function, arguments (the first one a list, the rest scalars broadcast to it), dtype, the
# positional arguments to differentiate in: JAX raises for betainc's shape parameters)
REGRESSION_CASES = [
    ("stats.bernoulli.logpmf", [[-1.0, 0.0, 0.3, 1.0, 1.5, NAN], 0.3], "float64", [0, 1]),
    ("stats.geom.logpmf", [[-1.0, 0.0, 0.5, 1.0, 3.0, NAN], 0.4], "float64", [0, 1]),
    ("stats.poisson.logpmf", [[-2.0, 0.5, 1.0, 3.5, 2.0], 2.0, 0.5], "float64", [1]),
    ("stats.binom.logpmf", [[-1.0, 0.0, 2.5, 3.0, 3.5, 5.0], 3.0, 0.4], "float64", [0, 2]),
    # (JAX's betaln is off by 1e-5 in the shape gradients here: only d/dk is compared)
    ("stats.betabinom.logpmf", [[-1.0, 0.0, 1.5, 2.0, 5.5, 6.0], 5.0, 2.0, 3.0], "float64", [0]),
    ("stats.nbinom.logpmf", [[0.0, 2.5, 4.0, NAN], 2.0, 0.5], "float64", [2]),
    ("stats.truncnorm.cdf", [[-3.0, -1.0, 0.0, 1.5, 3.0], -1.0, 1.5], "float64", [0]),
    ("stats.truncnorm.logcdf", [[-3.0, -2.0, 0.0], -1.0, 1.5], "float64", [0, 1, 2]),
    ("stats.truncnorm.sf", [[0.0, 2.0, 3.0], -1.0, 1.5], "float64", [0, 1, 2]),
    ("stats.truncnorm.logsf", [[-2.0, 0.0, 0.3, 2.0], -INF, 0.5], "float64", [0]),
    ("stats.truncnorm.logpdf", [[0.0, 1.5, 3.0, NAN], 2.0, 1.0], "float64", [0]),
    ("stats.beta.cdf", [[-1.0, 0.3, 2.0], 0.6, 1.7], "float64", [0]),
    ("stats.beta.logsf", [[-1.0, 0.3, 2.0], 0.6, 1.7], "float64", [0]),
    ("stats.beta.logpdf", [[0.3, NAN], 2.5, 3.0], "float64", [0]),
    ("stats.gamma.cdf", [[-1.0, 0.5, INF], 0.6], "float64", [0]),
    ("stats.chi2.sf", [[-1.0, 2.0, 5.0], 1.2], "float64", [0]),
    ("stats.uniform.cdf", [[-1.0, 0.0, 0.5, 1.0, 2.0, NAN]], "float64", [0]),
    ("stats.uniform.pdf", [[-1.0, 0.5, NAN]], "float64", [0]),
    ("stats.expon.ppf", [[-0.1, 0.5, 1.2]], "float64", [0]),
    ("stats.expon.logcdf", [[0.5, 10.0]], "float32", [0]),
    ("stats.expon.logpdf", [[0.5, NAN]], "float64", [0]),
    ("stats.pareto.ppf", [[-0.1, 0.5], 2.0], "float64", [0]),
    ("stats.bernoulli.cdf", [[-1.0, 0.5, 2.0, NAN], 1.7], "float64", [0]),
    ("stats.bernoulli.ppf", [[0.2, 0.5], 1.7], "float64", [0]),
    ("stats.poisson.cdf", [[1.0, NAN], 1.7], "float64", [1]),
    ("stats.gumbel_r.sf", [[-3.0, -1.0, 0.5]], "float32", [0]),
    ("stats.gumbel_l.cdf", [[1.0, -0.5]], "float32", [0]),
    ("special.digamma", [[0.0, -1.0, 0.5]], "float64", []),
    ("special.polygamma", [2, [0.0, -1.0, 0.5]], "float64", []),
]


def regression_function(module, name):
    """``module.name`` for a dotted case name such as ``stats.beta.cdf`` (``module`` is
    ``jax.scipy`` or ``fgrad.scipy``); polygamma's order comes first and is not an array."""
    obj = module
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def regression_arrays(args, dtype, xp):
    """The case's arguments as ``xp`` arrays of one shape: the list one as given, the scalars
    broadcast to it (so the gradient of the sum is the per-element gradient); a Python int
    (polygamma's order) stays an integer."""
    size = next(len(a) for a in args if isinstance(a, list))
    return [xp.asarray(np.asarray(a if isinstance(a, list) else [a] * size,
                                  np.int32 if isinstance(a, int) else dtype)) for a in args]


def regression_results(module, xp, grad, name, args, dtype, argnums):
    """``(value, [gradient per argnum])`` of one regression case as float64 lists."""
    fn = regression_function(module, name)
    arrays = regression_arrays(args, dtype, xp)
    value = np.asarray(fn(*arrays), np.float64).tolist()
    grads = []
    if argnums:
        g = grad(lambda *z: xp.sum(fn(*z)), argnums=tuple(argnums))(*arrays)
        grads = [np.asarray(gi, np.float64).tolist() for gi in g]
    return value, grads


def store(path):
    """Write JAX's results at ``REGRESSION_CASES`` to ``path`` (JSON)."""
    import json

    import jax
    import jax.numpy as jnp
    import jax.scipy as jsp
    jax.config.update("jax_enable_x64", True)
    out = {"jax": jax.__version__, "cases": []}
    for name, args, dtype, argnums in REGRESSION_CASES:
        value, grads = regression_results(jsp, jnp, jax.grad, name, args, dtype, argnums)
        out["cases"].append({"name": name, "args": args, "dtype": dtype, "argnums": argnums,
                             "value": value, "grads": grads})
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


def _required(fn):
    sig = inspect.signature(fn)
    req = [p.name for p in sig.parameters.values() if p.default is inspect.Parameter.empty]
    opt = [p.name for p in sig.parameters.values() if p.default is not inspect.Parameter.empty]
    return req, opt


def _cases(dist, method, jfn):
    req, opt = _required(jfn)
    k = len(req) - 1
    sets = TRUNCNORM_SETS if dist == "truncnorm" else PARAM_SETS
    for params in dict.fromkeys(tuple(s[:k]) for s in sets):
        yield params, np.float64
    yield tuple(sets[0][:k]), np.float32
    if "loc" in opt:
        extra = (0.3, 1.5) if "scale" in opt else (0.3,)
        yield tuple(sets[0][:k]) + extra, np.float64


def _classify(ja, fa, rtol):
    ja, fa = np.asarray(ja, np.float64), np.asarray(fa, np.float64)
    same = np.isclose(ja, fa, rtol=rtol, atol=1e-300 if rtol < 1e-6 else 1e-30, equal_nan=True)
    same |= (ja == fa)
    kinds = []
    for i in np.flatnonzero(~same):
        if np.isnan(fa.flat[i]):
            kinds.append((i, "fgNaN"))
        elif np.isnan(ja.flat[i]):
            kinds.append((i, "jaxNaN"))
        else:
            kinds.append((i, "num"))
    return kinds


def main() -> None:
    import jax
    import jax.numpy as jnp
    import jax.scipy as jsp
    jax.config.update("jax_enable_x64", True)
    import fgrad
    import fgrad.numpy as fnp
    import fgrad.scipy as fsp

    parser = argparse.ArgumentParser()
    parser.add_argument("--dist")
    parser.add_argument("--fn")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--store", action="store_true")
    opts = parser.parse_args()
    if opts.store:
        store(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "tests", "stored", "scipy_stats_parity21.json"))
        return
    bad = total = 0
    tally: dict[str, int] = {}
    for dist in sorted(dir(jsp.stats)):
        if dist.startswith("_") or dist in SKIP or (opts.dist and dist != opts.dist):
            continue
        jmod, fmod = getattr(jsp.stats, dist), getattr(fsp.stats, dist, None)
        if not inspect.ismodule(jmod) and not hasattr(jmod, "pdf") and not hasattr(jmod, "pmf"):
            continue
        for method in METHODS:
            if opts.fn and method != opts.fn:
                continue
            jfn = getattr(jmod, method, None)
            if jfn is None:
                continue
            ffn = getattr(fmod, method, None) if fmod is not None else None
            if ffn is None:
                print("MISSING", dist, method)
                bad += 1
                continue
            first = QS if method in ("ppf", "isf") else XS
            for params, dt in _cases(dist, method, jfn):
                rtol = 1e-9 if dt == np.float64 else 2e-5
                args = [first.astype(dt)] + [np.full(first.shape, p, dt) for p in params]
                label = f"{dist}.{method}{tuple(params)} {np.dtype(dt).name}"
                try:
                    jv = np.asarray(jfn(*args))
                except Exception as e:  # noqa: BLE001 - a peer error is a result
                    jv = ("ERR", type(e).__name__)
                try:
                    fv = np.asarray(ffn(*[fnp.asarray(a) for a in args]))
                except Exception as e:  # noqa: BLE001
                    fv = ("ERR", type(e).__name__)
                total += 1
                if isinstance(jv, tuple) or isinstance(fv, tuple):
                    if isinstance(jv, tuple) != isinstance(fv, tuple):
                        bad += 1
                        print("ERRDIFF", label, jv if isinstance(jv, tuple) else "jax ok",
                              fv if isinstance(fv, tuple) else "fgrad ok")
                    continue
                if jv.dtype != fv.dtype or jv.shape != fv.shape:
                    bad += 1
                    print("DTYPE", label, jv.dtype, fv.dtype, jv.shape, fv.shape)
                    continue
                checks = [("value", jv, fv)]
                nargs = len(args)
                try:
                    jg = jax.grad(lambda *z: jnp.sum(jfn(*z)), argnums=tuple(range(nargs)))(
                        *[jnp.asarray(a) for a in args])
                except Exception as e:  # noqa: BLE001
                    jg = ("ERR", type(e).__name__)
                try:
                    fg = fgrad.grad(lambda *z: fnp.sum(ffn(*z)), argnums=tuple(range(nargs)))(
                        *[fnp.asarray(a) for a in args])
                except Exception as e:  # noqa: BLE001
                    fg = ("ERR", type(e).__name__, str(e)[:80])
                total += nargs
                if isinstance(jg, tuple) and len(jg) and jg[0] == "ERR" or \
                        isinstance(fg, tuple) and len(fg) and fg[0] == "ERR":
                    if (jg[0] == "ERR") != (fg[0] == "ERR"):
                        print("GERR", label, jg if jg[0] == "ERR" else "jax ok",
                              fg if fg[0] == "ERR" else "fgrad ok")
                        bad += 1
                    continue
                for i in range(nargs):
                    checks.append((f"grad{i}", np.asarray(jg[i]), np.asarray(fg[i])))
                for name, ja, fa in checks:
                    kinds = _classify(ja, fa, rtol)
                    if not kinds:
                        continue
                    bad += 1
                    where = first
                    summary = sorted({k for _, k in kinds})
                    for kk in summary:
                        tally[kk] = tally.get(kk, 0) + 1
                    print(f"DIFF {label} {name} {summary} at x={[float(where[i]) for i, _ in kinds]}")
                    if opts.verbose:
                        print("   jax", [float(ja.flat[i]) for i, _ in kinds])
                        print("   fg ", [float(fa.flat[i]) for i, _ in kinds])
    print("kinds", tally)
    print("bad", bad, "of", total)


if __name__ == "__main__":
    main()
