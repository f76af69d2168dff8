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
    opts = parser.parse_args()
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
