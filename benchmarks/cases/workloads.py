"""Real-workload rows of the speed table (issue 16) not covered by the other modules: a GPT
training step in the shim (vs torch eager), a `lax.scan` RNN with its gradient, a `while_loop`
Newton solve, a `lax.scan` whose step the pass pipeline simplifies and a 256-wide `jacrev` under
`jit` (vs ``jax.jit``)."""

from __future__ import annotations

import numpy as np

from . import Case, block, register

# ----------------------------------------------------------------------------------------------
# shim: GPT (two blocks: causal attention, GELU MLP, LayerNorm), AdamW step


def _gpt_step(t, x, y):
    from benchmarks.compile_shim import _gpt

    t.manual_seed(0)  # the shim draws PyTorch's CPU stream: both sides start from equal weights
    model = _gpt(t)
    opt = t.optim.AdamW(model.parameters(), lr=1e-3)
    xt, yt = t.from_numpy(x), t.from_numpy(y)
    loss_fn = t.nn.functional.cross_entropy

    def step():
        opt.zero_grad()
        logits = model(xt)
        loss = loss_fn(logits.view(-1, logits.shape[-1]), yt.view(-1))
        loss.backward()
        opt.step()
        return loss.detach().numpy().copy()

    return step


@register
class TorchGPTStep(Case):
    name = "torch_gpt"
    short = "fgrad.torch GPT train step"
    title = ("`fgrad.torch` training step of a 2-block GPT (d=64, 4 heads, causal attention, GELU, "
             "LayerNorm), batch 16 × 32 tokens, AdamW (float32)")
    issue = 16
    group = "torch"
    goals = [("torch", 1.3)]
    reference = "torch"
    rtol, atol = 1e-3, 1e-4  # losses after several AdamW steps: summation order differs
    notes = {"torch": "PyTorch CPU eager, same code"}

    def setup(self):
        rng = np.random.default_rng(1)
        self.x = rng.integers(0, 128, (16, 32)).astype(np.int64)
        self.y = rng.integers(0, 128, (16, 32)).astype(np.int64)

    def fgrad(self):
        import fgrad.torch as ft

        return _gpt_step(ft, self.x, self.y)

    def torch(self):
        import torch

        return _gpt_step(torch, self.x, self.y)


# ----------------------------------------------------------------------------------------------
# jit: scan RNN forward + gradient


def _rnn_loss(m, lax):
    def loss(params, xs):
        W, U, b = params

        def cell(h, x):
            h = m.tanh(h @ W + x @ U + b)
            return h, m.sum(h ** 2)

        _, per_step = lax.scan(cell, m.zeros((xs.shape[1], W.shape[0]), xs.dtype), xs)
        return m.sum(per_step)

    return loss


class _JitVsJax(Case):
    """A jit case run by the same ``_run(lib, numpy_module, lax)`` on fgrad and on jax."""

    group = "jit"
    issue = 16
    reference = "jax"
    first_call_matters = True
    jax_x64 = False
    rtol, atol = 1e-4, 1e-5

    def _run(self, lib, m, lax):
        raise NotImplementedError

    def fgrad(self):
        import fgrad
        import fgrad.numpy as fnp

        return self._run(fgrad, fnp, fgrad.lax)

    def jax(self):
        import jax
        import jax.numpy as jnp

        return self._run(jax, jnp, jax.lax)


@register
class JitScanRNN(_JitVsJax):
    name = "jit_scan_rnn"
    short = "jit: scan RNN + grad"
    title = ("`jit(value_and_grad)` of a tanh RNN over `lax.scan`: 100 steps, batch 32, "
             "hidden 128, input 64 (float32)")
    goals = [("jax", 1.5)]
    notes = {"jax": "`jax.jit(jax.value_and_grad(loss))`, same function"}
    atol = 1e-2  # the loss is ~1.7e5 in float32; both sides are within 1e-6 of float64 (max-norm)

    def setup(self):
        rng = np.random.default_rng(0)
        self.params = (0.1 * rng.standard_normal((128, 128)).astype(np.float32),
                       0.1 * rng.standard_normal((64, 128)).astype(np.float32),
                       np.zeros(128, np.float32))
        self.xs = rng.standard_normal((100, 32, 64)).astype(np.float32)

    def _run(self, lib, m, lax):
        f = lib.jit(lib.value_and_grad(_rnn_loss(m, lax)))
        params, xs = tuple(m.asarray(p) for p in self.params), m.asarray(self.xs)

        def run():
            value, grads = f(params, xs)
            return [np.asarray(block(value))] + [np.asarray(block(g)) for g in grads]

        return run


# ----------------------------------------------------------------------------------------------
# jit: while_loop Newton solve


def _newton(m, lax):
    def cube_root(a):
        def cond(state):
            x, i = state
            return (m.max(m.abs(x ** 3 - a)) > 1e-5) & (i < 50)

        def body(state):
            x, i = state
            return x - (x ** 3 - a) / (3 * x ** 2), i + 1

        x, _ = lax.while_loop(cond, body, (m.ones_like(a) * 2, 0))
        return x

    return cube_root


@register
class JitNewton(_JitVsJax):
    name = "jit_newton"
    short = "jit: while_loop Newton"
    title = "`jit` of a `lax.while_loop` Newton solve (cube roots of 1,000 values in [1, 8]) (float32)"
    goals = [("jax", 1.0)]
    notes = {"jax": "`jax.jit`, same function"}

    def setup(self):
        self.a = np.random.default_rng(0).uniform(1, 8, 1000).astype(np.float32)

    def _run(self, lib, m, lax):
        f, a = lib.jit(_newton(m, lax)), m.asarray(self.a)
        return lambda: np.asarray(block(f(a)))


# ----------------------------------------------------------------------------------------------
# jit: a scan whose step has work for the pass pipeline (CSE, DCE, identities)


def _pendulums(m, lax):
    def simulate(x0, v0, forces):
        def step(carry, f):
            x, v = carry
            damping = m.full_like(v, 0.1)  # a broadcast constant: folding it made an array
            a = -m.sin(x) - damping * v + f
            v_half = v + 0.005 * a
            x_new = x + 0.01 * v_half
            a_new = -m.sin(x_new) - damping * v_half + f
            v_new = v_half + 0.005 * a_new
            drift = m.max(m.abs(a_new - a))  # a diagnostic the step never returns
            del drift
            power = m.sum(m.sin(x_new) * v_new)  # sin(x_new) again
            energy = m.sum(0.5 * v_new ** 2 + (1.0 - m.cos(x_new)))
            return (x_new, v_new * 1.0), (energy, power)

        return lax.scan(step, (x0, v0), forces)

    return simulate


@register
class JitScanSimplified(_JitVsJax):
    name = "jit_scan_cse"
    short = "jit: scan step with CSE/DCE"
    title = ("`jit` of a `lax.scan` leapfrog step of 1,000 driven pendulums, 200 steps; the step "
             "recomputes `sin`, multiplies by 1.0, squares, builds a constant and drops a "
             "diagnostic (float32)")
    goals = [("jax", 1.5)]
    notes = {"jax": "`jax.jit`, same function"}
    rtol, atol = 1e-4, 1e-3  # energies summed over 1,000 pendulums

    def setup(self):
        rng = np.random.default_rng(0)
        self.x0 = rng.uniform(-1, 1, 1000).astype(np.float32)
        self.v0 = np.zeros(1000, np.float32)
        self.forces = (0.1 * rng.standard_normal((200, 1000))).astype(np.float32)

    def _run(self, lib, m, lax):
        f = lib.jit(_pendulums(m, lax))
        x0, v0, forces = m.asarray(self.x0), m.asarray(self.v0), m.asarray(self.forces)

        def run():
            (x, v), (energy, power) = f(x0, v0, forces)
            return [np.asarray(block(a)) for a in (x, v, energy, power)]

        return run


# ----------------------------------------------------------------------------------------------
# jacrev of a 256-wide function


@register
class JitJacrev256(_JitVsJax):
    name = "jit_jacrev"
    short = "jit: jacrev 256-wide"
    title = "`jit(jacrev(lambda x: tanh(W @ x) * x))`, 256 → 256 (float32)"
    goals = [("jax", 1.0)]
    notes = {"jax": "`jax.jit(jax.jacrev(f))`"}

    def setup(self):
        rng = np.random.default_rng(0)
        self.W = (rng.standard_normal((256, 256)) / 16).astype(np.float32)
        self.x = rng.standard_normal(256).astype(np.float32)

    def _run(self, lib, m, lax):
        W, x = m.asarray(self.W), m.asarray(self.x)
        f = lib.jit(lib.jacrev(lambda x: m.tanh(W @ x) * x))
        return lambda: np.asarray(block(f(x)))

