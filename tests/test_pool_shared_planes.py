"""Max/min pooling under `jit` on the host (session 14): a ``reduce_window_max`` (``min``) and
the ``select_and_scatter_add`` of the same operand (its gradient) share the copy of the
windows' cells (`ops.windowed.planes_key`, codegen's `plan_patches`): the forward keeps its
planes, the gradient reads them.  Checked against the definition (float64, each window's
cotangent to its first extremum), eager evaluation bit for bit, PyTorch's max-pool gradient
(live when installed) and for the structure of the compiled program."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.testing.device_numerics import assert_equal_up_to_summation_order

RNG = np.random.default_rng(14)


def _pool(x, kind, window, padding):
    init, op = (-fnp.inf, lax.max) if kind == "max" else (fnp.inf, lax.min)
    dims = (1, 1) + window
    return lax.reduce_window(x, init, op, dims, dims, ((0, 0), (0, 0)) + padding)


def _loss(kind, window, padding, g):
    def loss(x):
        return fnp.sum(_pool(fnp.maximum(x, 0.0), kind, window, padding) * g)

    return loss


def _grad_ref(x, kind, window, padding, g):
    """d/dx of sum(pool(relu(x)) * g) by the definition, in float64: each window's cotangent
    goes to its first extremum (row-major within the window), then ReLU's derivative (JAX's
    convention: 0.5 at 0)."""
    r = np.maximum(x.astype(np.float64), 0.0)
    fill = -np.inf if kind == "max" else np.inf
    rp = np.pad(r, ((0, 0), (0, 0)) + padding, constant_values=fill)
    gp = np.zeros(rp.shape)
    kh, kw = window
    for n, c, i, j in np.ndindex(*g.shape):
        win = rp[n, c, i * kh:(i + 1) * kh, j * kw:(j + 1) * kw]
        a, b = np.unravel_index((np.argmax if kind == "max" else np.argmin)(win), win.shape)
        gp[n, c, i * kh + a, j * kw + b] += g[n, c, i, j]
    (t, bt), (le, ri) = padding
    gr = gp[:, :, t:gp.shape[2] - bt, le:gp.shape[3] - ri]
    return gr * np.where(x > 0, 1.0, np.where(x == 0, 0.5, 0.0))


CASES = [  # kind, x shape, window, padding of the two spatial axes
    ("max", (3, 4, 8, 8), (2, 2), ((0, 0), (0, 0))),
    ("max", (2, 3, 9, 7), (3, 2), ((0, 0), (1, 0))),
    ("min", (2, 3, 6, 6), (2, 2), ((1, 1), (1, 1))),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}{c[1]}{c[3]}")
def test_jitted_pool_gradient_shares_planes_and_matches(case):
    kind, shape, window, padding = case
    x = RNG.standard_normal(shape).astype(np.float32)
    x[0, 0, :2, :2] = 0.0  # ReLU's zeros: ties within a window
    out_shape = np.asarray(_pool(fnp.asarray(x), kind, window, padding)).shape
    g = RNG.standard_normal(out_shape).astype(np.float32)
    f = fgrad.value_and_grad(_loss(kind, window, padding, g))
    eager_v, eager_g = f(fnp.asarray(x))
    jit_f = fgrad.jit(f)
    jit_v, jit_g = jit_f(fnp.asarray(x))
    # bit for bit on the host; a GPU's eager sums add in another order than its fused kernels
    assert_equal_up_to_summation_order(jit_g, eager_g)
    assert_equal_up_to_summation_order(jit_v, eager_v)
    ref = _grad_ref(x, kind, window, padding, g)
    np.testing.assert_allclose(np.asarray(jit_g), ref, rtol=1e-6, atol=1e-6)


def test_planes_handed_over_in_the_generated_code():
    """On the host (NumPy) the compiled program hands the planes over; other backends run the
    two primitives as they are."""
    import re

    from fgrad.compile import compile_executable

    x = RNG.standard_normal((2, 3, 8, 8)).astype(np.float32)
    g = RNG.standard_normal((2, 3, 4, 4)).astype(np.float32)
    f = fgrad.value_and_grad(_loss("max", (2, 2), ((0, 0), (0, 0)), g))
    closed = fgrad.make_jaxpr(f)(x)
    exe = compile_executable(closed.jaxpr, closed.consts)
    keep = [ln for ln in exe.source.splitlines() if re.match(r"\s+\w+, pl\d+ = f", ln)]
    use = [ln for ln in exe.source.splitlines() if "(xp, pl" in ln]
    assert len(keep) == 1 and len(use) == 1, exe.source
    got = exe.run([x])
    for a, b in zip(got, f(x)):
        assert_equal_up_to_summation_order(a, b)


def test_nan_window_takes_the_nan_aware_selection():
    x = RNG.standard_normal((2, 2, 4, 4)).astype(np.float32)
    x[1, 1, 2, 3] = np.nan
    g = RNG.standard_normal((2, 2, 2, 2)).astype(np.float32)
    f = fgrad.grad(_loss("max", (2, 2), ((0, 0), (0, 0)), g))
    eager, jitted = np.asarray(f(fnp.asarray(x))), np.asarray(fgrad.jit(f)(fnp.asarray(x)))
    np.testing.assert_array_equal(jitted, eager)
    # the NaN is its window's maximum: the window's cotangent goes there (times ReLU's 0)
    assert np.isnan(jitted[1, 1, 2, 3]) or jitted[1, 1, 2, 3] == 0.0
    assert (jitted[1, 1, 2:, 2:][~np.isnan(jitted[1, 1, 2:, 2:])] == 0).all()


def test_matches_torch_max_pool_gradient():
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((4, 3, 10, 10)).astype(np.float32)
    g = RNG.standard_normal((4, 3, 5, 5)).astype(np.float32)
    got = np.asarray(fgrad.jit(fgrad.grad(_loss("max", (2, 2), ((0, 0), (0, 0)), g)))(fnp.asarray(x)))
    xt = torch.from_numpy(x + 0.0).requires_grad_()
    # ReLU's derivative at 0 differs from JAX's (0 vs 0.5): no input is exactly 0 here
    (torch.nn.functional.max_pool2d(torch.relu(xt), 2) * torch.from_numpy(g)).sum().backward()
    np.testing.assert_allclose(got, xt.grad.numpy(), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("kind", ["max", "min"])
def test_kept_extrema_survive_writes_into_the_forward_result(kind):
    # session 17: the forward keeps a copy of its extrema for the gradient; a compiled
    # program may write into the forward's result once it is dead, which must not move the
    # gradient (the kept extrema are not the result's memory)
    from fgrad.ops.windowed import extremum_keeping_planes, scatter_from_planes

    p = dict(window_dimensions=(1, 1, 2, 2), window_strides=(1, 1, 2, 2), padding=((0, 0),) * 4,
             base_dilation=(1,) * 4, window_dilation=(1,) * 4)
    x = np.maximum(RNG.standard_normal((3, 4, 8, 8)), 0.0)  # ReLU's zeros tie
    ct = RNG.standard_normal((3, 4, 4, 4))
    res, kept = extremum_keeping_planes(np, x, kind=kind, **p)
    # (disjoint 2-D windows in C keep each window's cell, not a copy of the extrema)
    kept_arrays = [kept.cells] if hasattr(kept, "cells") else [kept[1]]
    assert kept is not None and not any(np.shares_memory(res, k) for k in kept_arrays)
    want = scatter_from_planes(np, None, ct, x, select=kind, **p)  # planes made there
    res[...] = -7.0 if kind == "max" else 7.0
    got = scatter_from_planes(np, kept, ct, x, select=kind, **p)
    np.testing.assert_array_equal(got, want)
    # each window's cotangent lands on its first extremum (the definition)
    xr = x.reshape(3, 4, 4, 2, 4, 2).transpose(0, 1, 2, 4, 3, 5).reshape(3, 4, 4, 4, 4)
    first = (xr.argmax if kind == "max" else xr.argmin)(axis=-1)
    ref = np.zeros((3, 4, 4, 4, 4))
    np.put_along_axis(ref, first[..., None], ct[..., None], axis=-1)
    ref = ref.reshape(3, 4, 4, 4, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(x.shape)
    np.testing.assert_array_equal(got, ref)
