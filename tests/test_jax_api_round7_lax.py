"""JAX API round 7 (issue 12): ``lax.all_to_all``, ``ragged_dot``, ``random_gamma_grad``,
``rng_bit_generator``, ``composite`` and ``vmap(spmd_axis_name=)``.  Stored JAX 0.10.2 numbers,
live JAX (importorskip), finite differences, vmap vs loop, jit vs eager."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.random as random
from fgrad import lax
from fgrad.test_util import check_grads

X = np.arange(2 * 2 * 3.0).reshape(2, 2, 3)
X2 = np.arange(2 * 4 * 3.0).reshape(2, 4, 3)
LHS = np.random.default_rng(0).standard_normal((6, 3))
RHS = np.random.default_rng(1).standard_normal((3, 3, 2))


def _jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


def _a2a(x, split, concat, tiled=False, mod=lax, vmap=fgrad.vmap):
    return vmap(lambda v: mod.all_to_all(v, "i", split, concat, tiled=tiled), axis_name="i")(x)


def test_all_to_all_stored_jax_numbers():
    # JAX 0.10.2: jax.vmap(lambda v: lax.all_to_all(v, 'i', 0, 0), axis_name='i')(X)
    np.testing.assert_array_equal(np.asarray(_a2a(X, 0, 0)),
                                  [[[0, 1, 2], [6, 7, 8]], [[3, 4, 5], [9, 10, 11]]])
    np.testing.assert_array_equal(
        np.asarray(_a2a(X2, 0, 1, tiled=True)),
        [[[0, 1, 2, 12, 13, 14], [3, 4, 5, 15, 16, 17]], [[6, 7, 8, 18, 19, 20], [9, 10, 11, 21, 22, 23]]])
    assert _a2a(X, 0, 1).shape == (2, 3, 2) and _a2a(X, 0, 1, tiled=True).shape == (2, 1, 6)
    with pytest.raises(ValueError, match="to equal x.shape\\[split_axis\\], but they are 2 and 4"):
        _a2a(X2, 0, 1)


@pytest.mark.parametrize("x,split,concat,tiled", [
    (X, 0, 0, False), (X, 0, 1, False), (X2, 0, 1, True), (X2, 0, 0, True),
    (np.arange(24.0).reshape(2, 3, 4), 1, 0, True), (np.arange(24.0).reshape(2, 3, 2, 2), 1, 2, False)])
def test_all_to_all_matches_live_jax(x, split, concat, tiled):
    jax = _jax()
    got = _a2a(x, split, concat, tiled)
    want = _a2a(x, split, concat, tiled, mod=jax.lax, vmap=jax.vmap)
    assert got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_all_to_all_derivatives_and_jit():
    x = fnp.asarray(np.random.default_rng(2).standard_normal((2, 4, 3)))
    w = fnp.asarray(np.random.default_rng(3).standard_normal((2, 2, 6)))

    def f(x):
        return fnp.sum(_a2a(x, 0, 1, tiled=True) * w)

    check_grads(f, (x,), order=2, modes=("fwd", "rev"))
    check_grads(lambda x: _a2a(x[:, :2], 0, 0) ** 2, (x,), order=1, modes=("fwd", "rev"))
    np.testing.assert_array_equal(np.asarray(fgrad.jit(lambda x: _a2a(x, 0, 1, tiled=True))(x)),
                                  np.asarray(_a2a(x, 0, 1, tiled=True)))


GROUPS = [[1, 3, 2], [0, 4, 1], [2, 2, 2], [6, 0, 0], [1, 1, 1]]


def _ragged_loop(lhs, rhs, sizes):
    out = np.zeros((lhs.shape[0], rhs.shape[2]))
    start = 0
    for g, n in enumerate(sizes):
        out[start:start + n] = lhs[start:start + n] @ rhs[g]
        start += n
    return out


@pytest.mark.parametrize("sizes", GROUPS)
def test_ragged_dot_matches_the_definition(sizes):
    np.testing.assert_allclose(np.asarray(lax.ragged_dot(LHS, RHS, np.array(sizes))),
                               _ragged_loop(LHS, RHS, sizes), rtol=1e-13, atol=1e-14)


def test_ragged_dot_stored_and_live_jax():
    # JAX 0.10.2: lax.ragged_dot(arange(12.).reshape(4,3), arange(18.).reshape(2,3,3), [1, 2])
    got = lax.ragged_dot(fnp.arange(12.0).reshape(4, 3), fnp.arange(18.0).reshape(2, 3, 3),
                         fnp.asarray([1, 2]))
    np.testing.assert_array_equal(np.asarray(got),
                                  [[15, 18, 21], [150, 162, 174], [258, 279, 300], [0, 0, 0]])
    jax = _jax()
    for sizes in GROUPS:
        np.testing.assert_allclose(np.asarray(lax.ragged_dot(LHS, RHS, np.array(sizes))),
                                   np.asarray(jax.lax.ragged_dot(LHS, RHS, np.array(sizes))), rtol=1e-13)


def test_ragged_dot_derivatives_vmap_jit_and_errors():
    sizes = fnp.asarray([2, 1, 2])
    check_grads(lambda a, b: lax.ragged_dot(a, b, sizes), (fnp.asarray(LHS), fnp.asarray(RHS)), order=2,
                modes=("fwd", "rev"))
    many = fnp.asarray(np.random.default_rng(4).standard_normal((3, 6, 3)))
    loop = np.stack([np.asarray(lax.ragged_dot(m, RHS, sizes)) for m in many])
    np.testing.assert_allclose(np.asarray(fgrad.vmap(lambda m: lax.ragged_dot(m, RHS, sizes))(many)), loop)
    np.testing.assert_allclose(np.asarray(fgrad.jit(lax.ragged_dot)(LHS, RHS, sizes)),
                               np.asarray(lax.ragged_dot(LHS, RHS, sizes)))
    assert lax.ragged_dot(LHS, RHS, sizes, preferred_element_type=np.float32).dtype == np.float32
    with pytest.raises(TypeError, match="ragged_dot"):
        lax.ragged_dot(LHS, RHS[0], sizes)
    with pytest.raises(TypeError, match="integers"):
        lax.ragged_dot(LHS, RHS, fnp.asarray([2.0, 2.0, 2.0]))


def test_random_gamma_grad():
    a = fnp.asarray([0.5, 2.0, 5.0, 0.1])
    x = fnp.asarray([0.3, 1.5, 4.0, 1e-3])
    # JAX 0.10.2 (x64)
    np.testing.assert_allclose(np.asarray(lax.random_gamma_grad(a, x)),
                               [1.00980195, 0.93663907, 0.92272613, 0.06490725], rtol=1e-7)
    # it is the reparameterization gradient of fgrad's gamma sampler
    key = random.key(0)
    for alpha in [0.7, 3.0]:
        sample = random.gamma(key, alpha)
        g = fgrad.grad(lambda al: random.gamma(key, al))(alpha)
        assert float(g) == pytest.approx(float(lax.random_gamma_grad(alpha, sample)), rel=1e-8)
    jax = _jax()
    want = jax.lax.random_gamma_grad(np.asarray(a), np.asarray(x))
    np.testing.assert_allclose(np.asarray(lax.random_gamma_grad(a, x)), np.asarray(want), rtol=1e-10)


def test_rng_bit_generator():
    key = fnp.asarray([1, 2, 3, 4], dtype="uint32")
    new_key, bits = lax.rng_bit_generator(key, (2, 3))
    assert bits.shape == (2, 3) and bits.dtype == np.uint32
    assert new_key.tolist() == [1, 2, 3, 5] and new_key.dtype == np.uint32
    again = lax.rng_bit_generator(key, (2, 3))[1]
    np.testing.assert_array_equal(np.asarray(bits), np.asarray(again))  # stateless
    nxt = lax.rng_bit_generator(new_key, (2, 3))[1]
    assert not np.array_equal(np.asarray(nxt), np.asarray(bits))
    carry = lax.rng_bit_generator(fnp.asarray([1, 2, 3, 0xFFFFFFFF], dtype="uint32"), (1,))[0]
    assert carry.tolist() == [1, 2, 4, 0]  # the counter carries into the third word
    for dt, top in [("uint8", 2 ** 8), ("uint16", 2 ** 16), ("uint32", 2 ** 32), ("uint64", 2 ** 64)]:
        b = np.asarray(lax.rng_bit_generator(key, (20000,), dtype=dt)[1])
        assert b.dtype == np.dtype(dt)
        mean = b.astype(np.float64).mean() / top
        assert abs(mean - 0.5) < 0.01, (dt, mean)  # uniform: mean 1/2 within ~4 sigma
    jitted = fgrad.jit(lambda k: lax.rng_bit_generator(k, (2, 3)))(key)
    np.testing.assert_array_equal(np.asarray(jitted[1]), np.asarray(bits))
    for alg in lax.RandomAlgorithm:
        assert lax.rng_bit_generator(key, (2,), algorithm=alg)[1].shape == (2,)
    with pytest.raises(TypeError, match="unsupported dtype int32"):
        lax.rng_bit_generator(key, (2,), dtype=np.int32)
    with pytest.raises(TypeError, match="shape \\(4,\\)"):
        lax.rng_bit_generator(fnp.asarray([1, 2], dtype="uint32"), (2,))


def test_composite_and_spmd_axis_name():
    scale = lax.composite(lambda x, *, alpha: x * alpha, name="my.scale")
    np.testing.assert_array_equal(np.asarray(scale(fnp.ones(2), alpha=3.0)), [3.0, 3.0])
    eqns = fgrad.make_jaxpr(lambda x: scale(x, alpha=3.0))(fnp.ones(2)).eqns
    assert [e.source_info.name_stack for e in eqns] == ["my.scale"]
    g = fgrad.grad(lambda x: fnp.sum(scale(x, alpha=3.0) ** 2))(fnp.ones(2))
    np.testing.assert_array_equal(np.asarray(g), [18.0, 18.0])
    with pytest.raises(TypeError, match="name must be a string"):
        lax.composite(lambda x: x, name=3)
    f = fgrad.vmap(lambda x: x * 2, spmd_axis_name="data")
    np.testing.assert_array_equal(np.asarray(f(fnp.arange(3.0))), [0.0, 2.0, 4.0])
    assert fgrad.vmap(lambda x: x, spmd_axis_name=("a", "b"))(fnp.ones(2)).shape == (2,)
    with pytest.raises(TypeError):
        fgrad.vmap(lambda x: x, spmd_axis_name=["a"])
