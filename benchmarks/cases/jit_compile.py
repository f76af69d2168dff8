"""More jit cases (issue 3): a fused reduction, per-call overhead, a row softmax, and
reverse mode through a jitted function.  Peers: plain numpy, ``jax.jit``."""

from __future__ import annotations

import numpy as np

from . import block, register
from .jit import JitCase, _fgrad_jit


def _chain_sum(m):
    return lambda x: m.sum(m.tanh(m.exp(-x * x) * m.cos(3.0 * x) + m.sin(x) * 0.5 - 1.0) / (1.0 + x * x))


@register
class JitChainSum(JitCase):
    name = "jit_chain_sum"
    short = "jit: chain + sum, 10M"
    title = "`jit` of a 10-op elementwise chain followed by a sum (one kernel), 10M elements (float32)"
    goals = [("numpy", 0.5)]
    notes = {"numpy": "plain numpy, unfused", "jax": "`jax.jit`"}
    rtol, atol = 1e-4, 1e-2

    def setup(self):
        self.x = np.random.default_rng(0).standard_normal(10_000_000).astype(np.float32)

    def fgrad(self):
        fgrad = _fgrad_jit()
        import fgrad.numpy as fnp

        f, x = fgrad.jit(_chain_sum(fnp)), fnp.asarray(self.x)
        return lambda: f(x)

    def numpy(self):
        f, x = _chain_sum(np), self.x
        return lambda: f(x)

    def jax(self):
        import jax
        import jax.numpy as jnp

        f, x = jax.jit(_chain_sum(jnp)), jnp.asarray(self.x)
        return lambda: block(f(x))


@register
class JitOverhead(JitCase):
    name = "jit_overhead"
    short = "jit: call overhead"
    title = "`jit(lambda x: x * 2 + 1)` on 8 elements: per-call overhead (float32)"
    goals = [("jax", 1.0)]
    notes = {"numpy": "`x * 2 + 1` in numpy", "jax": "`jax.jit`"}

    def setup(self):
        self.x = np.arange(8, dtype=np.float32)

    def fgrad(self):
        fgrad = _fgrad_jit()
        import fgrad.numpy as fnp

        f, x = fgrad.jit(lambda x: x * 2.0 + 1.0), fnp.asarray(self.x)
        return lambda: f(x)

    def numpy(self):
        x = self.x
        return lambda: x * 2.0 + 1.0

    def jax(self):
        import jax
        import jax.numpy as jnp

        f, x = jax.jit(lambda x: x * 2.0 + 1.0), jnp.asarray(self.x)
        return lambda: block(f(x))


@register
class JitScalarArg(JitCase):
    name = "jit_scalar_arg"
    short = "jit: call with a float arg"
    title = "`jit(lambda x, s: x * s + 1)` on 8 elements, `s` a Python float: per-call overhead (float32)"
    goals = [("jax", 1.0)]
    notes = {"numpy": "`x * s + 1` in numpy", "jax": "`jax.jit`"}

    def setup(self):
        self.x = np.arange(8, dtype=np.float32)

    def fgrad(self):
        fgrad = _fgrad_jit()
        import fgrad.numpy as fnp

        f, x = fgrad.jit(lambda x, s: x * s + 1.0), fnp.asarray(self.x)
        return lambda: f(x, 0.5)

    def numpy(self):
        x = self.x
        return lambda: x * np.float32(0.5) + np.float32(1.0)

    def jax(self):
        import jax
        import jax.numpy as jnp

        f, x = jax.jit(lambda x, s: x * s + 1.0), jnp.asarray(self.x)
        return lambda: block(f(x, 0.5))


def _softmax(m):
    def f(z):
        e = m.exp(z - m.max(z, axis=1, keepdims=True))
        return e / m.sum(e, axis=1, keepdims=True)

    return f


@register
class JitSoftmax(JitCase):
    name = "jit_softmax"
    short = "jit: row softmax"
    title = "`jit` of a row softmax, 4096 × 512 (float32)"
    goals = [("numpy", 1.1)]  # 8 MB arrays stay in L3: fusion saves passes, not DRAM traffic
    notes = {"numpy": "the same expression in numpy", "jax": "`jax.jit` (XLA's fast exp)"}
    rtol, atol = 1e-5, 1e-8

    def setup(self):
        self.z = np.random.default_rng(0).standard_normal((4096, 512)).astype(np.float32)

    def fgrad(self):
        fgrad = _fgrad_jit()
        import fgrad.numpy as fnp

        f, z = fgrad.jit(_softmax(fnp)), fnp.asarray(self.z)
        return lambda: f(z)

    def numpy(self):
        f, z = _softmax(np), self.z
        return lambda: f(z)

    def jax(self):
        import jax
        import jax.numpy as jnp

        f, z = jax.jit(_softmax(jnp)), jnp.asarray(self.z)
        return lambda: block(f(z))


def _logreg_loss(m):
    def loss(w, X, y):  # y in {-1, +1}
        return m.mean(m.log1p(m.exp(-y * (X @ w)))) + 1e-3 * m.sum(w * w)

    return loss


@register
class GradOfJit(JitCase):
    name = "grad_of_jit"
    short = "grad(jit(loss))"
    title = "`grad(jit(loss))`: logistic-regression gradient, 4096 × 256 (float32)"
    goals = [("jax", 1.5)]
    notes = {"numpy": "analytic gradient", "jax": "`jax.grad(jax.jit(loss))`"}
    rtol, atol = 1e-4, 1e-6

    def setup(self):
        rng = np.random.default_rng(0)
        self.w = (rng.standard_normal(256) / 16).astype(np.float32)
        self.X = rng.standard_normal((4096, 256)).astype(np.float32)
        self.y = rng.choice(np.array([-1.0, 1.0], np.float32), 4096)

    def fgrad(self):
        fgrad = _fgrad_jit()
        import fgrad.numpy as fnp

        g = fgrad.grad(fgrad.jit(_logreg_loss(fnp)))
        w, X, y = fnp.asarray(self.w), fnp.asarray(self.X), fnp.asarray(self.y)
        return lambda: g(w, X, y)

    def numpy(self):
        w, X, y = self.w, self.X, self.y
        n = np.float32(len(y))

        def g():
            s = -y / (1 + np.exp(y * (X @ w)))
            return (s @ X) / n + np.float32(2e-3) * w

        return g

    def jax(self):
        import jax
        import jax.numpy as jnp

        g = jax.grad(jax.jit(_logreg_loss(jnp)))
        w, X, y = jnp.asarray(self.w), jnp.asarray(self.X), jnp.asarray(self.y)
        return lambda: block(g(w, X, y))
