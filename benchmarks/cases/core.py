"""Functional core, eager (issue 2)."""

from __future__ import annotations

import numpy as np

from . import Case, block, register
from ._models import functional_step, mlp_data, numpy_mlp_step, stateful


@register
class Sin8(Case):
    name = "sin"
    short = "numpy.sin, 8 elements"
    title = "`fgrad.numpy.sin`, 8 elements (float64)"
    issue = 2
    goals = [("numpy", 3.0)]
    notes = {"autograd": "`autograd.numpy.sin`", "torch": "`torch.sin` (float64)",
             "jax": "`jnp.sin`, eager"}

    def setup(self):
        self.x = np.random.default_rng(0).standard_normal(8)

    def fgrad(self):
        import fgrad.numpy as fnp

        x, sin = fnp.asarray(self.x), fnp.sin
        return lambda: sin(x)

    def numpy(self):
        x, sin = self.x, np.sin
        return lambda: sin(x)

    def autograd(self):
        import autograd.numpy as anp

        x, sin = self.x, anp.sin
        return lambda: sin(x)

    def torch(self):
        import torch

        x, sin = torch.from_numpy(self.x.copy()), torch.sin
        return lambda: sin(x)

    def jax(self):
        import jax.numpy as jnp

        x, sin = jnp.asarray(self.x), jnp.sin
        return lambda: sin(x).block_until_ready()


def _tanh_loss(m):
    return lambda x: m.sum(m.tanh(x) ** 2 * m.exp(-x))


@register
class GradTanh16(Case):
    name = "grad"
    short = "grad(f), 16 elements"
    title = "`fgrad.grad(f)`, f(x) = sum(tanh(x)\\*\\*2 \\* exp(-x)), 16 elements (float64)"
    issue = 2
    goals = [("autograd", 1.0)]
    notes = {"numpy": "hand-written analytic gradient", "autograd": "`autograd.grad`",
             "torch": "forward + `backward()`", "jax": "`jax.grad`, no jit"}

    def setup(self):
        self.x = np.random.default_rng(1).standard_normal(16)

    def fgrad(self):
        import fgrad
        import fgrad.numpy as fnp

        g, x = fgrad.grad(_tanh_loss(fnp)), fnp.asarray(self.x)
        return lambda: g(x)

    def numpy(self):
        x = self.x

        def g():
            t = np.tanh(x)
            return (2.0 * t * (1.0 - t * t) - t * t) * np.exp(-x)

        return g

    def autograd(self):
        import autograd
        import autograd.numpy as anp

        g, x = autograd.grad(_tanh_loss(anp)), self.x
        return lambda: g(x)

    def torch(self):
        import torch

        f, x = _tanh_loss(torch), torch.from_numpy(self.x.copy()).requires_grad_()

        def g():
            f(x).backward()
            out, x.grad = x.grad, None
            return out

        return g

    def jax(self):
        import jax
        import jax.numpy as jnp

        g, x = jax.grad(_tanh_loss(jnp)), jnp.asarray(self.x)
        return lambda: block(g(x))


@register
class MLPStepEager(Case):
    name = "mlp_eager"
    short = "MLP train step, eager"
    title = "MLP 784-512-512-10 training step, batch 128 (float32), `value_and_grad` + SGD, eager"
    issue = 2
    notes = {"numpy": "the same step hand-written (forward, backward, in-place SGD)",
             "autograd": "`autograd.value_and_grad`", "jax": "`jax.value_and_grad`, no jit"}
    rtol = 1e-4
    jax_x64 = False

    def setup(self):
        self.params, self.x, _, self.onehot = mlp_data()

    def fgrad(self):
        import fgrad
        import fgrad.numpy as fnp

        params = [(fnp.asarray(W), fnp.asarray(b)) for W, b in self.params]
        step = functional_step(fnp, fgrad.value_and_grad)
        return stateful(step, params, fnp.asarray(self.x), fnp.asarray(self.onehot))

    def numpy(self):
        return numpy_mlp_step(self.params, self.x, self.onehot)

    def autograd(self):
        import autograd
        import autograd.numpy as anp

        step = functional_step(anp, autograd.value_and_grad)
        return stateful(step, [(W.copy(), b.copy()) for W, b in self.params], self.x, self.onehot)

    def jax(self):
        import jax
        import jax.numpy as jnp

        params = [(jnp.asarray(W), jnp.asarray(b)) for W, b in self.params]
        run = stateful(functional_step(jnp, jax.value_and_grad), params, jnp.asarray(self.x),
                       jnp.asarray(self.onehot))
        return lambda: block(run())
