"""``x ** 3`` on real floats is ``(x * x) * x`` -- what JAX (``lax.integer_pow``) and PyTorch
(``pow(x, 3)``) compute -- in eager code, under jit (the simplifier's rewrite) and in the
shim; NumPy's ``power`` calls ``pow`` and is an ulp off at times (and 2.5x slower, which made
a jitted Newton iteration 2.8x JAX's time)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as ftorch
from fgrad.testing import check_grads

X64 = np.random.default_rng(3).uniform(-3, 3, 4000)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cube_is_the_product_eager_jit_and_shim(dtype):
    x = X64.astype(dtype)
    want = (x * x) * x
    assert not np.array_equal(np.power(x, 3), want)  # the data tells the two apart
    for got in (fnp.asarray(x) ** 3, fnp.power(fnp.asarray(x), 3),
                fgrad.jit(lambda v: v ** 3)(fnp.asarray(x)),
                fgrad.jit(lambda v: fnp.sin(v) * 0 + v ** 3)(fnp.asarray(x)),
                ftorch.tensor(x) ** 3):
        np.testing.assert_array_equal(np.asarray(got), want)


def test_cube_derivatives():
    check_grads(lambda v: fnp.sum(v ** 3), (fnp.asarray(X64[:5]),), order=2, modes=("fwd", "rev"))
    assert float(fgrad.grad(fgrad.grad(lambda v: v ** 3))(2.0)) == 12.0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cube_matches_the_peers_bit_for_bit(dtype):
    x = X64.astype(dtype)
    got = np.asarray(fnp.asarray(x) ** 3)
    try:
        import jax

        jax.config.update("jax_enable_x64", True)
        np.testing.assert_array_equal(np.asarray(jax.jit(lambda v: v ** 3)(x)), got)
    except ImportError:
        pass
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal((torch.tensor(x) ** 3).numpy(), got)
