"""Random numbers (issue 16, `docs/speed-random.md`): ``fgrad.random.normal``/``uniform``/
``bits`` of a million values side by side with ``jax.random`` (eager, the same key: fgrad
reproduces JAX's Threefry streams bit for bit, so the outputs are compared exactly)."""

from __future__ import annotations

import numpy as np

from . import Case, block, register


class _RandomVsJax(Case):
    group = "eager"
    issue = 16
    reference = "jax"
    rtol, atol = 0.0, 0.0  # the same bits (normal: see `_case`)
    n = 1_000_000
    dtype = "float32"
    sampler = "normal"

    @property
    def jax_x64(self):  # float64 samples need JAX's 64-bit mode
        return self.dtype == "float64"

    def _run(self, random):
        key, n, dt = random.key(0), self.n, np.dtype(self.dtype)
        if self.sampler == "bits":
            return lambda: np.asarray(block(random.bits(key, (n,), np.uint32)))
        f = getattr(random, self.sampler)
        return lambda: np.asarray(block(f(key, (n,), dt)))

    def fgrad(self):
        import fgrad.random

        return self._run(fgrad.random)

    def jax(self):
        import jax.random

        return self._run(jax.random)


def _case(sampler, dtype, goal):
    name = f"random_{sampler}" + ("" if dtype in ("float32", None) else "_f64")
    dt = dtype or "uint32"

    @register
    class C(_RandomVsJax):
        pass

    C.__name__ = C.__qualname__ = "Random" + sampler.title() + ("F64" if dtype == "float64" else "")
    C.name, C.sampler, C.dtype = name, sampler, dtype or "float32"
    C.short = f"random.{sampler} 1M {dt}"
    C.title = f"`random.{sampler}(key, (1_000_000,))` ({dt})"
    C.goals = [("jax", goal)]
    C.notes = {"jax": f"`jax.random.{sampler}` (eager)"}
    if sampler == "normal":  # erf_inv: XLA's float32 log1p is not correctly rounded (a few
        #                      values 1-3 ulp apart); float64 is SciPy's erfinv, not XLA's
        C.rtol = 4e-7 if dtype == "float32" else 1e-12
    return C


RandomNormal = _case("normal", "float32", 2.0)
RandomNormalF64 = _case("normal", "float64", 2.0)
RandomUniform = _case("uniform", "float32", 2.0)
RandomUniformF64 = _case("uniform", "float64", 2.0)
RandomBits = _case("bits", None, 2.0)
