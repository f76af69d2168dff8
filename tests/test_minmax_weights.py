"""The derivative weights of ``maximum``/``minimum`` (docs/convolution.md, session 17): the
tangent of x goes 1 where x wins, 0.5 at a tie (signed zeros tie), 0 where it loses and 0
where either operand is NaN -- JAX's values.  The weight is counted in bytes (``x > y`` plus
``x >= y``) and halved once, so a jitted ReLU's mask costs fewer passes over the activations;
these tests pin the weights in every float dtype, eager and under ``jit``, for both operands.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp

nan, inf = np.nan, np.inf
X = [2.0, 1.0, 1.0, -0.0, 0.0, nan, 1.0, nan, inf, -inf, inf, 3.0, -1.0]
Y = [1.0, 2.0, 1.0, 0.0, -0.0, 1.0, nan, nan, inf, -inf, 1.0, inf, -inf]
# d maximum / dx and / dy, elementwise (JAX 0.10.2, stored)
MAX_DX = [1.0, 0.0, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0, 0.5, 0.5, 1.0, 0.0, 1.0]
MAX_DY = [0.0, 1.0, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 1.0, 0.0]
MIN_DX = [0.0, 1.0, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 1.0, 0.0]
MIN_DY = [1.0, 0.0, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0, 0.5, 0.5, 1.0, 0.0, 1.0]

DTYPES = [np.float16, np.float32, np.float64, fnp.bfloat16]


def _grads(f, x, y, jit):
    g = fgrad.grad(lambda a, b: fnp.sum(f(a, b)), argnums=(0, 1))
    g = fgrad.jit(g) if jit else g
    dx, dy = g(x, y)
    return np.asarray(dx, np.float64), np.asarray(dy, np.float64)


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_weights_at_wins_ties_nans_and_infinities(name, dtype, jit):
    # bfloat16 on the host (devices have no bfloat16: docs/gpu.md); the others on the default device
    with fgrad.default_device("cpu") if dtype is fnp.bfloat16 else contextlib.nullcontext():
        x, y = fnp.asarray(np.array(X), dtype), fnp.asarray(np.array(Y), dtype)
        dx, dy = _grads(getattr(fnp, name), x, y, jit)
    want_dx, want_dy = (MAX_DX, MAX_DY) if name == "maximum" else (MIN_DX, MIN_DY)
    np.testing.assert_array_equal(dx, want_dx)
    np.testing.assert_array_equal(dy, want_dy)  # at a NaN too: 0 (it was 1 - w_x = 1)
    assert fgrad.grad(lambda a: fnp.sum(getattr(fnp, name)(a, y)))(x).dtype == x.dtype


def test_nan_weight_of_y_is_jax_s():
    """Regression: y's weight was ``1 - w_x``, so at a NaN operand y got the whole tangent
    (JAX gives neither operand any: its ``_balanced_eq``)."""
    for f, want in ((fnp.maximum, MAX_DY), (fnp.minimum, MIN_DY)):
        for jit in (False, True):
            _, dy = _grads(f, fnp.asarray(np.array(X)), fnp.asarray(np.array(Y)), jit)
            np.testing.assert_array_equal(dy, want)
    g = fgrad.grad(lambda a, b: fnp.maximum(a, b), argnums=(0, 1))(fnp.float64(1.0), fnp.float64(nan))
    assert [float(v) for v in g] == [0.0, 0.0]


# PyTorch's weights (maximum_backward: the full gradient except where the operand loses, half
# at a tie; at a NaN both operands get it), from torch 2.13 CPU
_TX = [nan, 1.0, 2.0, 1.0, 3.0, -0.0, inf]
_TY = [1.0, nan, 2.0, 3.0, 1.0, 0.0, inf]
TORCH_MAX = ([1.0, 1.0, 0.5, 0.0, 1.0, 0.5, 0.5], [1.0, 1.0, 0.5, 1.0, 0.0, 0.5, 0.5])
TORCH_MIN = ([1.0, 1.0, 0.5, 1.0, 0.0, 0.5, 0.5], [1.0, 1.0, 0.5, 0.0, 1.0, 0.5, 0.5])


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_shim_weights_are_pytorchs(name):
    """fgrad.torch's maximum/minimum gradients follow PyTorch (spec ``torch_rule``), not the
    functional face's JAX weights: at a NaN both operands get the gradient."""
    import fgrad.torch as ft

    want = TORCH_MAX if name == "maximum" else TORCH_MIN
    for dt in (ft.float32, ft.float64):
        x = ft.tensor(_TX, dtype=dt, requires_grad=True)
        y = ft.tensor(_TY, dtype=dt, requires_grad=True)
        out = getattr(ft, name)(x, y)
        assert type(out.grad_fn).__name__ == ("MaximumBackward0" if name == "maximum" else "MinimumBackward0")
        out.sum().backward()
        assert x.grad.tolist() == want[0] and y.grad.tolist() == want[1]
        assert x.grad.dtype == dt


def test_shim_weights_live_pytorch():
    torch = pytest.importorskip("torch")
    for name, want in (("maximum", TORCH_MAX), ("minimum", TORCH_MIN)):
        x = torch.tensor(_TX, requires_grad=True)
        y = torch.tensor(_TY, requires_grad=True)
        getattr(torch, name)(x, y).sum().backward()
        assert (x.grad.tolist(), y.grad.tolist()) == want


def test_relu_mask_under_jit_on_a_large_activation_matches_eager():
    # the fused kernel's blocks (more than one) against the eager rule, ties at 0 included
    rng = np.random.default_rng(5)
    h = rng.standard_normal((8, 16, 40, 40)).astype(np.float32)
    h[..., ::7] = 0.0
    h[0, 0, 0, :3] = [nan, -0.0, inf]
    ct = rng.standard_normal(h.shape).astype(np.float32)

    def f(h):
        return fnp.sum(fnp.maximum(h, 0.0) * ct)

    want = np.where(h > 0, ct, np.where(h == 0, ct * np.float32(0.5), np.float32(0)))
    np.testing.assert_array_equal(np.asarray(fgrad.grad(f)(h)), want)
    np.testing.assert_array_equal(np.asarray(fgrad.jit(fgrad.grad(f))(h)), want)


def test_jvp_weights_and_second_order():
    x, y = fnp.asarray(np.array(X)), fnp.asarray(np.array(Y))
    _, t = fgrad.jvp(fnp.maximum, (x, y), (fnp.ones_like(x), fnp.zeros_like(y)))
    np.testing.assert_array_equal(np.asarray(t), MAX_DX)
    # the weight is piecewise constant: its own derivative is zero
    h = fgrad.grad(fgrad.grad(lambda a: fnp.maximum(a, 1.0)))(fnp.asarray(1.0))
    assert float(h) == 0.0


def test_weights_match_jax_live():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    x, y = np.array(X, np.float32), np.array(Y, np.float32)
    for f, want in ((jnp.maximum, (MAX_DX, MAX_DY)), (jnp.minimum, (MIN_DX, MIN_DY))):
        dx, dy = jax.grad(lambda a, b: jnp.sum(f(a, b)), argnums=(0, 1))(x, y)
        np.testing.assert_array_equal(np.asarray(dx), want[0])
        np.testing.assert_array_equal(np.asarray(dy), want[1])
