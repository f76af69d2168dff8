"""jit (issue 3).  Skipped until ``fgrad.jit`` exists.  Peers: numpy by hand, ``jax.jit``."""

from __future__ import annotations

import numpy as np

from . import Case, Skip, block, register
from ._models import functional_step, mlp_data, numpy_mlp_step, stateful


def _fgrad_jit():
    import fgrad

    if not hasattr(fgrad, "jit"):
        raise Skip("fgrad.jit not implemented yet")
    return fgrad


def _chain(m):
    return lambda x: x * m.sin(x) + m.exp(-x ** 2) * m.cos(3 * x) - m.tanh(x) / (1 + x ** 2)


class JitCase(Case):
    group = "jit"
    issue = 3
    first_call_matters = True
    jax_x64 = False  # all float32


@register
class JitChain(JitCase):
    name = "jit_chain"
    short = "jit: 14-op chain, 10M"
    title = "`jit` of a 14-op elementwise chain, 10M elements (float32)"
    goals = [("numpy", 0.5), ("jax", 0.25)]
    notes = {"numpy": "plain numpy, unfused", "jax": "`jax.jit`"}
    rtol, atol = 1e-4, 1e-5

    def setup(self):
        self.x = np.random.default_rng(0).standard_normal(10_000_000).astype(np.float32)

    def fgrad(self):
        fgrad = _fgrad_jit()
        import fgrad.numpy as fnp

        f, x = fgrad.jit(_chain(fnp)), fnp.asarray(self.x)
        return lambda: f(x)

    def numpy(self):
        f, x = _chain(np), self.x
        return lambda: f(x)

    def jax(self):
        import jax
        import jax.numpy as jnp

        f, x = jax.jit(_chain(jnp)), jnp.asarray(self.x)
        return lambda: block(f(x))


@register
class JitMLPStep(JitCase):
    name = "jit_mlp"
    short = "jit: MLP train step"
    title = "`jit` of an MLP 784-512-512-10 training step, batch 128 (float32)"
    goals = [("numpy", 1.15)]
    notes = {"numpy": "the same step hand-written", "jax": "`jax.jit`"}
    rtol = 1e-4

    def setup(self):
        self.params, self.x, _, self.onehot = mlp_data()

    def fgrad(self):
        fgrad = _fgrad_jit()
        import fgrad.numpy as fnp

        params = [(fnp.asarray(W), fnp.asarray(b)) for W, b in self.params]
        step = functional_step(fnp, fgrad.value_and_grad, jit=fgrad.jit)
        return stateful(step, params, fnp.asarray(self.x), fnp.asarray(self.onehot))

    def numpy(self):
        return numpy_mlp_step(self.params, self.x, self.onehot)

    def jax(self):
        import jax
        import jax.numpy as jnp

        params = [(jnp.asarray(W), jnp.asarray(b)) for W, b in self.params]
        run = stateful(functional_step(jnp, jax.value_and_grad, jit=jax.jit), params,
                       jnp.asarray(self.x), jnp.asarray(self.onehot))
        return lambda: block(run())


@register
class JitHessian(JitCase):
    name = "jit_hessian"
    short = "jit: hessian, n = 64"
    title = "`jit(hessian(lambda x: sum(tanh(A @ x)**2)))`, n = 64 (float32)"
    goals = [("jax", 1.5)]
    notes = {"numpy": "analytic Hessian Aᵀ diag(f'') A", "autograd": "`autograd.hessian`, no jit",
             "jax": "`jax.jit(jax.hessian(f))`"}
    rtol, atol = 1e-3, 1e-4

    def setup(self):
        rng = np.random.default_rng(0)
        self.A = (rng.standard_normal((64, 64)) / 8).astype(np.float32)
        self.x = rng.standard_normal(64).astype(np.float32)

    def _f(self, m, A):
        return lambda x: m.sum(m.tanh(A @ x) ** 2)

    def fgrad(self):
        fgrad = _fgrad_jit()
        import fgrad.numpy as fnp

        h = fgrad.jit(fgrad.hessian(self._f(fnp, fnp.asarray(self.A))))
        x = fnp.asarray(self.x)
        return lambda: h(x)

    def numpy(self):
        A, x = self.A, self.x

        def h():
            t = np.tanh(A @ x)
            d2 = 2 * (1 - t * t) * (1 - 3 * t * t)
            return A.T @ (d2[:, None] * A)

        return h

    def autograd(self):
        import autograd
        import autograd.numpy as anp

        h, x = autograd.hessian(self._f(anp, self.A)), self.x
        return lambda: h(x)

    def jax(self):
        import jax
        import jax.numpy as jnp

        h = jax.jit(jax.hessian(self._f(jnp, jnp.asarray(self.A))))
        x = jnp.asarray(self.x)
        return lambda: block(h(x))


def _logistic_loss(m):
    def loss(w, x, y):  # y in {-1, +1}
        return m.log1p(m.exp(-y * (x @ w)))

    return loss


@register
class JitPerExampleGrads(JitCase):
    name = "jit_per_example"
    short = "jit: per-example grads"
    title = "`jit(vmap(grad(loss)))`: per-example logistic-regression gradients, 256 × 512 (float32)"
    goals = [("jax", 1.5)]
    notes = {"numpy": "analytic per-example gradients", "jax": "`jax.jit(jax.vmap(jax.grad(loss)))`"}
    rtol, atol = 1e-4, 1e-6

    def setup(self):
        rng = np.random.default_rng(0)
        self.w = (rng.standard_normal(512) / 16).astype(np.float32)
        self.X = rng.standard_normal((256, 512)).astype(np.float32)
        self.y = rng.choice(np.array([-1.0, 1.0], np.float32), 256)

    def fgrad(self):
        fgrad = _fgrad_jit()
        import fgrad.numpy as fnp

        g = fgrad.jit(fgrad.vmap(fgrad.grad(_logistic_loss(fnp)), in_axes=(None, 0, 0)))
        w, X, y = fnp.asarray(self.w), fnp.asarray(self.X), fnp.asarray(self.y)
        return lambda: g(w, X, y)

    def numpy(self):
        w, X, y = self.w, self.X, self.y

        def g():
            return (-y / (1 + np.exp(y * (X @ w))))[:, None] * X

        return g

    def jax(self):
        import jax
        import jax.numpy as jnp

        g = jax.jit(jax.vmap(jax.grad(_logistic_loss(jnp)), in_axes=(None, 0, 0)))
        w, X, y = jnp.asarray(self.w), jnp.asarray(self.X), jnp.asarray(self.y)
        return lambda: block(g(w, X, y))
