"""Layer-sized ``jit`` workloads users notice (issue 16): a layer norm, a cross-entropy over a
large vocabulary (value and gradient) and an attention block, each side by side with
``jax.jit`` (one thread) and the same expression in plain numpy.  ``shape`` sets the size
(the tests run each case tiny)."""

from __future__ import annotations

import numpy as np

from . import Case, block, register


class _JitVsJax(Case):
    group = "jit"
    issue = 16
    reference = "jax"
    first_call_matters = True
    jax_x64 = False  # float32 throughout
    rtol, atol = 1e-4, 1e-5

    def _fn(self, lib, m):
        raise NotImplementedError

    def _args(self):
        raise NotImplementedError

    def fgrad(self):
        import fgrad
        import fgrad.numpy as fnp

        f, args = fgrad.jit(self._fn(fgrad, fnp)), [fnp.asarray(a) for a in self._args()]
        return lambda: _host(f(*args))

    def jax(self):
        import jax
        import jax.numpy as jnp

        f, args = jax.jit(self._fn(jax, jnp)), [jnp.asarray(a) for a in self._args()]
        return lambda: _host(block(f(*args)))


def _host(out):
    return tuple(np.asarray(o) for o in out) if isinstance(out, tuple) else np.asarray(out)


def _layernorm(m):
    def f(x, g, b):
        mu = m.mean(x, axis=-1, keepdims=True)
        var = m.mean((x - mu) ** 2, axis=-1, keepdims=True)
        return (x - mu) / m.sqrt(var + 1e-5) * g + b

    return f


@register
class JitLayerNorm(_JitVsJax):
    name = "jit_layernorm"
    short = "jit: layer norm"
    title = "`jit` of a layer norm (mean, variance, scale, shift), 4096 × 1024 (float32)"
    goals = [("jax", 1.5)]
    notes = {"jax": "`jax.jit`", "numpy": "the same expression in numpy"}
    shape = (4096, 1024)

    def setup(self):
        rng = np.random.default_rng(0)
        n, d = self.shape
        self.x = rng.standard_normal((n, d)).astype(np.float32)
        self.g = rng.standard_normal(d).astype(np.float32)
        self.b = rng.standard_normal(d).astype(np.float32)

    def _args(self):
        return self.x, self.g, self.b

    def _fn(self, lib, m):
        return _layernorm(m)

    def numpy(self):
        f, args = _layernorm(np), self._args()
        return lambda: f(*args)


def _xent(m):
    def loss(logits, onehot):
        z = logits - m.max(logits, axis=-1, keepdims=True)
        lse = m.log(m.sum(m.exp(z), axis=-1))
        return m.mean(lse - m.sum(z * onehot, axis=-1))

    return loss


@register
class JitCrossEntropy(_JitVsJax):
    name = "jit_xent"
    short = "jit: cross-entropy grad"
    title = ("`jit(value_and_grad)` of a softmax cross-entropy over a 32,768-word vocabulary, "
             "batch 128 (float32)")
    goals = [("jax", 1.5)]
    notes = {"jax": "`jax.jit(jax.value_and_grad(loss))`",
             "numpy": "the analytic value and gradient in numpy"}
    rtol, atol = 1e-4, 1e-7
    shape = (128, 32768)

    def setup(self):
        rng = np.random.default_rng(0)
        n, v = self.shape
        self.logits = (3 * rng.standard_normal((n, v))).astype(np.float32)
        self.onehot = np.zeros((n, v), np.float32)
        self.onehot[np.arange(n), rng.integers(0, v, n)] = 1.0

    def _args(self):
        return self.logits, self.onehot

    def _fn(self, lib, m):
        return lib.value_and_grad(_xent(m))

    def numpy(self):
        logits, onehot = self._args()

        def run():
            z = logits - logits.max(-1, keepdims=True)
            e = np.exp(z)
            s = e.sum(-1, keepdims=True)
            value = np.mean(np.log(s[:, 0]) - (z * onehot).sum(-1))
            return value, (e / s - onehot) / np.float32(len(z))

        return run


def _attention(m):
    def f(x, wq, wk, wv, wo):
        q, k, v = x @ wq, x @ wk, x @ wv  # (batch, seq, d)
        s = q @ m.swapaxes(k, -1, -2) / np.float32(np.sqrt(q.shape[-1]))
        p = m.exp(s - m.max(s, axis=-1, keepdims=True))
        p = p / m.sum(p, axis=-1, keepdims=True)
        return (p @ v) @ wo + x

    return f


@register
class JitAttention(_JitVsJax):
    name = "jit_attention"
    short = "jit: attention block"
    title = ("`jit` of a single-head attention block with a residual: batch 8, 256 tokens, "
             "width 128 (float32)")
    goals = [("jax", 1.5)]
    notes = {"jax": "`jax.jit`", "numpy": "the same expression in numpy"}
    shape = (8, 256, 128)  # batch, tokens, width

    def setup(self):
        rng = np.random.default_rng(0)
        b, t, d = self.shape
        self.x = rng.standard_normal((b, t, d)).astype(np.float32)
        self.w = [(rng.standard_normal((d, d)) / np.sqrt(d)).astype(np.float32) for _ in range(4)]

    def _args(self):
        return (self.x, *self.w)

    def _fn(self, lib, m):
        return _attention(m)

    def numpy(self):
        f, args = _attention(np), self._args()
        return lambda: f(*args)
