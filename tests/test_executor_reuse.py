"""The straight-line executor's host fast paths give the same numbers as plain NumPy:
buffer reuse (a ufunc writing into a dead intermediate, the output passed positionally) and
the bitwise ``select``."""

from __future__ import annotations

import re

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.core.executor import straight_line
from fgrad.ops.elementwise import host_where


def _program(f, *xs):
    return straight_line(fgrad.make_jaxpr(f)(*xs))


def test_a_chain_reuses_its_intermediates():
    run = _program(lambda x: fnp.tanh(fnp.exp(x) + 1.0) * 2.0, np.zeros(4))
    # a ufunc writes into its dead operand: that operand passed again as the (positional) out
    assert re.search(r"uh\d+\((rh\d+), (.*, )?\1\)", run.source), run.source
    x = np.linspace(-2, 2, 4)
    np.testing.assert_array_equal(run(np, [x])[0], np.tanh(np.exp(x) + 1.0) * 2.0)
    assert np.array_equal(x, np.linspace(-2, 2, 4))  # the input is never written


def test_views_of_an_intermediate_survive_its_last_use():
    """``y`` is split into views, then its last use is a ufunc: writing that ufunc's result
    into ``y`` would change the views read afterwards."""

    def f(x):
        y = fnp.exp(x)
        a, b = fnp.split(y, 2)
        w = y + 1.0
        return a * w[:2] + b

    x = np.array([0.1, 0.2, 0.3, 0.4])
    y = np.exp(x)
    want = y[:2] * (y + 1.0)[:2] + y[2:]
    np.testing.assert_array_equal(_program(f, x)(np, [x])[0], want)
    np.testing.assert_array_equal(fgrad.jit(f)(x), want)


def test_outputs_and_inputs_are_never_reused():
    def f(x):
        y = fnp.sin(x)
        return y, y * 2.0

    x = np.array([0.5, 1.0])
    y, z = _program(f, x)(np, [x])
    np.testing.assert_array_equal(y, np.sin(x))
    np.testing.assert_array_equal(z, np.sin(x) * 2.0)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int8", "int64", "uint16"])
@pytest.mark.parametrize("shape", [(4096,), (64, 64), (3, 1, 1024)])
def test_host_where_has_np_where_bits(dtype, shape):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(shape) * 50).astype(dtype)
    y = (rng.standard_normal(shape) * 50).astype(dtype)
    if x.dtype.kind == "f":
        x.flat[:3] = [np.nan, -0.0, np.inf]
        y.flat[:3] = [-np.inf, np.nan, -0.0]
    c = rng.random(shape) < 0.5
    got, want = host_where(c, x, y), np.where(c, x, y)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8))


def test_host_where_broadcasts_as_np_where():
    rng = np.random.default_rng(1)
    c = rng.random((64, 64)) < 0.5
    row, full = rng.standard_normal((1, 64)), rng.standard_normal((64, 64))
    np.testing.assert_array_equal(host_where(c, row, full), np.where(c, row, full))
    np.testing.assert_array_equal(host_where(c, full, row), np.where(c, full, row))
    wide = rng.random((32, 64, 2)) < 0.5
    a, b = rng.standard_normal((64, 1)), rng.standard_normal((64, 2))
    np.testing.assert_array_equal(host_where(wide, a, b), np.where(wide, a, b))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("value", [0.0, -0.0, 0.1, float("nan"), float("-inf"), 1e-320])
def test_host_where_with_a_python_float_has_np_where_bits(dtype, value):
    """``jnp.where(x > 0, x, 0.0)`` eagerly: the Python float is blended as the array's dtype."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((64, 64)).astype(dtype)
    c = x > 0
    for got, want in ((host_where(c, x, value), np.where(c, x, value)),
                      (host_where(c, value, x), np.where(c, value, x))):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got.view(np.uint8), want.view(np.uint8))


def test_a_matrix_product_takes_the_bias_in_place():
    """The host kernel of ``dot_general`` returns a new array: the bias added to it (a linear
    layer) is written into the product (``out=``), with the numbers of ``x @ w + b``."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 5, 3)).astype(np.float32)
    w = rng.standard_normal((6, 3)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    run = _program(lambda x, w, b: fnp.matmul(x, fnp.swapaxes(w, 0, 1)) + b, x, w, b)
    assert re.search(r"(rh\d+) = fh\d+\(.*\n.*\n *rh\d+ = uh\d+\(\1, ah\d+, \1\)", run.source), run.source
    args = [x.copy(), w.copy(), b.copy()]
    out = run(np, args)[0]
    np.testing.assert_array_equal(out, np.matmul(x, w.T) + b)
    for a, a0 in zip(args, (x, w, b)):  # the inputs are never written
        np.testing.assert_array_equal(a, a0)


def test_a_matrix_product_viewed_later_is_not_overwritten():
    """A product read again through a reshape after the ufunc keeps its values: the ufunc
    does not write into it."""

    def f(x, w):
        p = fnp.matmul(x, w)
        q = fnp.reshape(p, (-1,))
        return p * 2.0, q + 1.0

    x = np.arange(6.0).reshape(2, 3)
    w = np.arange(12.0).reshape(3, 4)
    p2, q1 = _program(f, x, w)(np, [x, w])
    np.testing.assert_array_equal(p2, (x @ w) * 2.0)
    np.testing.assert_array_equal(q1, (x @ w).reshape(-1) + 1.0)


def test_a_product_of_vectors_is_a_scalar_and_not_a_target():
    """``v @ v`` is a NumPy scalar on the host: nothing writes into it."""
    v = np.arange(3.0)
    run = _program(lambda v: fnp.dot(v, v) * 2.0, v)
    assert run(np, [v])[0] == 10.0
