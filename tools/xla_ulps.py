"""Measure how often fgrad's functional face prints other bits than JAX's for its elementwise
math: for each function and dtype (float32 with 64-bit types off, float64 with them on), on a
wide seeded sample (normal, wide normal, uniform over the domain, near 0, large, subnormal,
special values), the fraction of inputs whose bits differ from ``jax.numpy``'s -- eager and
under ``jax.jit``/``fgrad.jit`` -- and the largest distance in ulps.  The table goes in
docs/numerics.md ("Where fgrad's numbers are XLA's").  Run with the real JAX installed::

    python tools/xla_ulps.py                 # both dtypes, every function
    python tools/xla_ulps.py --dtype float64 tanh logistic
    python tools/xla_ulps.py --store         # tests/stored/xla_numerics.json (`STORED`)

``--store`` writes JAX's bits on a small seeded sample of each function fgrad computes with
XLA's algorithm (`STORED`), the reference of tests/test_xla_numerics.py without JAX.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# name -> (domain, the path of the function in jax/fgrad: "numpy.exp", "nn.sigmoid", ...)
FUNCTIONS: dict[str, tuple[str, str]] = {
    "exp": ("real", "numpy.exp"), "log": ("positive", "numpy.log"), "log1p": ("above_m1", "numpy.log1p"),
    "expm1": ("real", "numpy.expm1"), "tanh": ("real", "numpy.tanh"), "sinh": ("real", "numpy.sinh"),
    "cosh": ("real", "numpy.cosh"), "sin": ("real", "numpy.sin"), "cos": ("real", "numpy.cos"),
    "tan": ("real", "numpy.tan"), "arctan": ("real", "numpy.arctan"), "sqrt": ("positive", "numpy.sqrt"),
    "cbrt": ("real", "numpy.cbrt"), "rsqrt": ("positive", "lax.rsqrt"),
    "logistic": ("real", "lax.logistic"), "sigmoid": ("real", "nn.sigmoid"),
    "softplus": ("real", "nn.softplus"), "log_sigmoid": ("real", "nn.log_sigmoid"),
    "erf": ("real", "scipy.special.erf"), "erfc": ("real", "scipy.special.erfc"),
    "gammaln": ("real", "scipy.special.gammaln"), "digamma": ("positive", "scipy.special.digamma"),
    "erf_inv": ("open_unit", "scipy.special.erfinv"),
}


# the functions whose bits fgrad's functional face reproduces, per dtype (`fgrad.ops.xla_math`)
STORED: dict[str, tuple[str, ...]] = {
    "float64": ("exp", "log1p", "tanh", "logistic", "sigmoid", "gammaln"),
    "float32": ("exp", "tanh", "logistic", "sigmoid"),
}
STORE_PATH = Path(__file__).resolve().parents[1] / "tests" / "stored" / "xla_numerics.json"


def sample(domain: str, dtype, n: int = 4000, seed: int = 0) -> np.ndarray:
    """A seeded sample of ``domain`` in ``dtype``: normal, 10x normal, uniform, near 0, large,
    subnormal and special values.

    >>> sample("real", np.float32, 10).dtype
    dtype('float32')
    """
    rng = np.random.default_rng(seed)
    fi = np.finfo(dtype)
    large = np.sign(rng.normal(size=n // 4)) * 10 ** rng.uniform(2, 30, n // 4)
    parts = [rng.normal(size=n), 10 * rng.normal(size=n), rng.uniform(-30, 30, n),
             rng.normal(size=n // 4) * 1e-5, large,
             rng.uniform(-4, 4, n // 8) * float(fi.tiny), [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0]]
    with np.errstate(over="ignore"):
        x = np.concatenate([np.asarray(p, np.float64) for p in parts]).astype(dtype)
    if domain == "positive":
        x = np.abs(x)
    elif domain == "above_m1":
        x = np.where(x < -1, -x - 1, x)
    elif domain == "open_unit":
        x = np.tanh(x).astype(dtype)
    return x


def ulps(a: np.ndarray, b: np.ndarray) -> float:
    """The largest distance of ``a`` from ``b`` in units in the last place (inf: a NaN or an
    infinity on one side only; 0 where both are the same NaN class).

    >>> ulps(np.float32([1.0]), np.nextafter(np.float32([1.0]), 2, dtype=np.float32))
    1.0
    """
    it = np.int32 if a.dtype == np.float32 else np.int64
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if np.any(nan_a != nan_b):
        return float("inf")
    ok = ~nan_a
    ia, ib = a[ok].view(it).astype(np.int64), b[ok].view(it).astype(np.int64)
    big = np.int64(np.iinfo(it).min)
    ia = np.where(ia < 0, big - ia, ia)  # ordered integers: adjacent floats differ by 1
    ib = np.where(ib < 0, big - ib, ib)
    d = np.abs(ia.astype(np.float64) - ib.astype(np.float64))
    return float(d.max()) if d.size else 0.0


def _jax_version() -> str:
    import jax
    return jax.__version__


def _resolve(module, path: str):
    obj = module
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def measure(names: list[str], dtype: str) -> list[tuple]:
    """Rows ``(name, dtype, differ eager, differ jit, max ulps, subnormal differ, jit == eager)``:
    the fractions of normal and special inputs whose bits differ from JAX's (eager vs eager,
    ``fgrad.jit`` vs ``jax.jit``), the largest distance there in ulps, the fraction of the
    subnormal inputs that differ (XLA's CPU code reads them as zero), and whether fgrad's jit
    gives its eager bits."""
    import jax
    import jax.nn  # noqa: F401
    import jax.scipy.special  # noqa: F401
    import fgrad
    import fgrad.nn  # noqa: F401
    import fgrad.scipy.special  # noqa: F401
    x64 = dtype == "float64"
    jax.config.update("jax_enable_x64", x64)
    fgrad.config.update("jax_enable_x64", x64)
    rows = []
    for name in names:
        domain, path = FUNCTIONS[name]
        x = sample(domain, np.dtype(dtype))
        sub = (x != 0) & (np.abs(x) < np.finfo(x.dtype).tiny)
        jf, ff = _resolve(jax, path), _resolve(fgrad, path)
        with np.errstate(all="ignore"):
            j = np.asarray(jf(x))
            jj = np.asarray(jax.jit(jf)(x))
            r = np.asarray(ff(fgrad.numpy.asarray(x)))
            rj = np.asarray(fgrad.jit(ff)(fgrad.numpy.asarray(x)))
        it = np.int32 if j.dtype == np.float32 else np.int64
        bits = lambda v: v.view(it)  # noqa: E731
        rows.append((name, dtype, float(np.mean((bits(r) != bits(j))[~sub])),
                     float(np.mean((bits(rj) != bits(jj))[~sub])), ulps(r[~sub], j[~sub]),
                     float(np.mean((bits(r) != bits(j))[sub])), bool(np.array_equal(bits(r), bits(rj)))))
    return rows


def to_hex(a: np.ndarray) -> str:
    """The bits of a float32/float64 array as one string of fixed-width hex words.

    >>> to_hex(np.float32([1.0, -0.0]))
    '3f80000080000000'
    """
    it = np.uint32 if a.dtype == np.float32 else np.uint64
    w = 2 * a.dtype.itemsize
    return "".join(f"{int(v):0{w}x}" for v in np.ascontiguousarray(a).reshape(-1).view(it))


def store_rows(dtype: str) -> dict:
    """``{name: {"path", "x", "y"}}``: JAX's bits (eager; jit gives the same, `measure`) on a
    small seeded sample of each of `STORED`'s functions in ``dtype``."""
    import jax
    import jax.nn  # noqa: F401
    import jax.scipy.special  # noqa: F401
    jax.config.update("jax_enable_x64", dtype == "float64")
    out = {}
    for name in STORED[dtype]:
        domain, path = FUNCTIONS[name]
        x = sample(domain, np.dtype(dtype), 48, seed=7)
        with np.errstate(all="ignore"):
            y = np.asarray(_resolve(jax, path)(x))
        out[name] = {"path": path, "x": to_hex(x), "y": to_hex(y)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=list(FUNCTIONS))
    ap.add_argument("--dtype", choices=("float32", "float64"))
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--store", action="store_true", help="write " + str(STORE_PATH.name))
    a = ap.parse_args()
    if a.store and a.worker:
        print(json.dumps(store_rows(a.dtype)))
        return
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    if a.store:
        table = {"generated_by": "python tools/xla_ulps.py --store (jax " + _jax_version() + ", CPU)"}
        for dt in STORED:
            out = subprocess.run([sys.executable, __file__, "--worker", "--store", "--dtype", dt], env=env,
                                 capture_output=True, text=True, check=True).stdout
            table[dt] = json.loads(out)
        STORE_PATH.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
        print("wrote", STORE_PATH)
        return
    if a.worker:  # one dtype per process: 64-bit mode is process-wide
        for row in measure(a.names, a.dtype):
            print("|", " | ".join(row[:2]), f"| {row[2]:.2%} | {row[3]:.2%} | {row[4]:g} | {row[5]:.0%} | "
                  f"{'yes' if row[6] else 'no'} |")
        return
    print("| function | dtype | bits differ (eager) | bits differ (jit) | max ulps | subnormal inputs differ "
          "| fgrad jit == eager |")
    print("|---|---|---|---|---|---|---|")
    for dt in ([a.dtype] if a.dtype else ["float64", "float32"]):
        out = subprocess.run([sys.executable, __file__, "--worker", "--dtype", dt, *a.names], env=env,
                             capture_output=True, text=True, check=True).stdout
        print(out, end="")


if __name__ == "__main__":
    main()
