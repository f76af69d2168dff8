"""Reverse mode through `lax.scan` is one forward sweep that saves residuals and one backward
sweep (JAX's partial evaluation of scan), not a replay of the primal carries plus a sweep that
recomputes every step's primal values: `_scan_jvp_split` in fgrad/ops/control_flow.py.

Checked: the structure of the staged gradient (two scans; the backward body reads saved
residuals and evaluates no primal nonlinearity), and the gradients themselves against finite
differences (orders 1-2, both modes), JAX (live when installed) and each other across the
tape (top-level grad), jit, vmap and hessian paths.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.testing import check_grads

RNG = np.random.default_rng(7)
W = RNG.standard_normal((4, 4)) * 0.4
U = RNG.standard_normal((3, 4)) * 0.4
H0 = RNG.standard_normal(4) * 0.5
XS = RNG.standard_normal((6, 3))


def rnn_loss(m, lax_, reverse=False):
    def loss(w, u, h0, xs):
        scale = m.sum(w) * 0.01  # a closed-over value computed from an argument

        def step(carry, x):
            h, k = carry
            h = m.tanh(h @ w + x @ u + scale) * (1.0 + 0.1 * k)
            return (h, k + 1), m.sum(m.sin(h))

        (h, _), ys = lax_.scan(step, (h0, 0), xs, reverse=reverse)
        return m.sum(h ** 2) + m.sum(ys * m.arange(1.0, ys.shape[0] + 1))

    return loss


ARGS = tuple(fnp.asarray(a) for a in (W, U, H0, XS))


def _scan_eqns(jaxpr):
    return [e for e in jaxpr.eqns if e.prim.name == "scan"]


def test_the_gradient_is_one_forward_and_one_backward_scan():
    jaxpr = fgrad.make_jaxpr(fgrad.grad(rnn_loss(fnp, lax), argnums=(0, 1, 2, 3)))(*ARGS)
    scans = _scan_eqns(jaxpr)
    assert len(scans) == 2, [str(e) for e in scans]
    forward, backward = scans
    assert not forward.params["reverse"] and backward.params["reverse"]
    names = {e.prim.name for e in backward.params["body"].jaxpr.eqns}
    assert "tanh" not in names and "sin" not in names, sorted(names)  # no primal recomputed


@pytest.mark.parametrize("reverse", [False, True])
def test_gradients_match_finite_differences(reverse):
    check_grads(rnn_loss(fnp, lax, reverse), ARGS, order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("reverse", [False, True])
def test_tape_jit_vmap_and_hessian_paths_agree(reverse):
    f = rnn_loss(fnp, lax, reverse)
    g = fgrad.grad(f, argnums=(0, 1, 2, 3))
    eager = g(*ARGS)
    for got in (fgrad.jit(g)(*ARGS),
                [a[0] for a in fgrad.vmap(g, in_axes=(None, None, 0, None))(
                    ARGS[0], ARGS[1], fnp.stack([ARGS[2], ARGS[2]]), ARGS[3])]):
        for a, b in zip(got, eager):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12)
    h = fgrad.hessian(lambda h0: f(ARGS[0], ARGS[1], h0, ARGS[3]))(ARGS[2])
    h_fwd = fgrad.jacfwd(fgrad.jacfwd(lambda h0: f(ARGS[0], ARGS[1], h0, ARGS[3])))(ARGS[2])
    np.testing.assert_allclose(np.asarray(h), np.asarray(h_fwd), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reverse", [False, True])
def test_gradients_match_jax(reverse):
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    want = jax.grad(rnn_loss(jnp, jax.lax, reverse), argnums=(0, 1, 2, 3))(W, U, H0, XS)
    got = fgrad.grad(rnn_loss(fnp, lax, reverse), argnums=(0, 1, 2, 3))(*ARGS)
    for a, b in zip(got, want):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-13)
