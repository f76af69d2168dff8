"""``checkpoint(prevent_cse=True)`` under jit: the backward pass recomputes the checkpointed
block instead of jit's CSE merging the recomputation with the forward pass (which kept the
forward values alive and undid the memory saving); ``lax.optimization_barrier`` itself."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.compile.passes import optimize


def _optimized_ops(f, *args):
    low = fgrad.jit(f).lower(*args)
    return [e.prim.name for e in optimize(low.jaxpr, low.consts).eqns]


@pytest.mark.parametrize("prevent_cse", [True, False])
def test_jit_recomputes_only_with_prevent_cse(prevent_cse):
    block = fgrad.checkpoint(lambda x: fnp.sin(fnp.sin(x)), prevent_cse=prevent_cse)
    f = lambda x: fnp.sum(block(block(x)))  # noqa: E731
    ops = _optimized_ops(fgrad.grad(f), fnp.ones(3))
    # forward: 2 sins (the second block's output is not needed); backward: each block's inner
    # sin recomputed from its barrier'd input (JAX's program has the same 4 sins)
    assert ops.count("sin") == (4 if prevent_cse else 3)
    assert ops.count("optimization_barrier") == (2 if prevent_cse else 0)
    x = np.asarray([0.3, -1.2, 2.0])
    s1 = np.sin(x)
    s2 = np.sin(s1)
    s3 = np.sin(s2)
    want = np.cos(s3) * np.cos(s2) * np.cos(s1) * np.cos(x)  # d/dx sin(sin(sin(sin x)))
    np.testing.assert_allclose(np.asarray(fgrad.jit(fgrad.grad(f))(fnp.asarray(x))), want, rtol=1e-12)


def test_barrier_keeps_second_order_and_vmap():
    block = fgrad.checkpoint(lambda x: fnp.sin(x) * x)
    f = lambda x: block(x)  # noqa: E731
    x = 0.7
    # d2/dx2 (x sin x) = 2 cos x - x sin x
    got = fgrad.jit(fgrad.grad(fgrad.grad(f)))(x)
    np.testing.assert_allclose(float(got), 2 * np.cos(x) - x * np.sin(x), rtol=1e-12)
    xs = np.asarray([0.1, 0.5, 1.5])
    got = fgrad.jit(fgrad.vmap(fgrad.grad(f)))(fnp.asarray(xs))
    np.testing.assert_allclose(np.asarray(got), np.sin(xs) + xs * np.cos(xs), rtol=1e-12)


def test_optimization_barrier_is_the_identity_jit_does_not_see_through():
    x = fnp.asarray([1.0, 2.0])
    out = lax.optimization_barrier({"a": x, "b": (x, fnp.ones(1))})
    np.testing.assert_array_equal(np.asarray(out["a"]), [1.0, 2.0])
    # CSE merges x*2 computed twice, but not when one copy is behind a barrier
    f = lambda x: (x * 2, lax.optimization_barrier(x) * 2)  # noqa: E731
    assert _optimized_ops(f, x).count("mul") == 2
    g = lambda x: (x * 2, x * 2)  # noqa: E731
    assert _optimized_ops(g, x).count("mul") == 1
    assert float(fgrad.grad(lambda x: fnp.sum(lax.optimization_barrier(x) ** 2))(fnp.asarray(3.0))) == 6.0
