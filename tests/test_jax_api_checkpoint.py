"""`fgrad.checkpoint` / `remat`: same values and derivatives (every transform), JAX's policy
names and arguments, and a real memory saving (tracemalloc peak of grad of a deep chain)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.ad_checkpoint import checkpoint_name


def _block(x):
    a = fnp.sin(x)
    b = fnp.cos(a) * x
    return fnp.tanh(b + a) * 0.5 + x * 0.5


def _chain(block, depth):
    def f(x):
        for _ in range(depth):
            x = block(x)
        return fnp.sum(x ** 2)

    return f


TRANSFORMS = {
    "grad": lambda f: fgrad.grad(f),
    "jit-grad": lambda f: fgrad.jit(fgrad.grad(f)),
    "hessian": lambda f: fgrad.hessian(f),
    "jacfwd": lambda f: fgrad.jacfwd(f),
    "vmap-grad": lambda f: (lambda x: fgrad.vmap(fgrad.grad(lambda r: f(r)))(fnp.stack([x, 2 * x]))),
    "grad-of-grad-sum": lambda f: fgrad.grad(lambda x: fnp.sum(fgrad.grad(f)(x))),
}


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_checkpoint_keeps_values_and_derivatives(name):
    x = fnp.asarray([0.3, -0.8, 1.4])
    t = TRANSFORMS[name]
    want = t(_chain(_block, 3))(x)
    got = t(_chain(fgrad.checkpoint(_block), 3))(x)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-12, atol=1e-14)


def test_jvp_and_eager_call():
    x = fnp.asarray([0.3, -0.8])
    cb = fgrad.remat(_block)
    np.testing.assert_array_equal(np.asarray(cb(x)), np.asarray(_block(x)))
    (_, t1), (_, t2) = fgrad.jvp(cb, (x,), (fnp.ones(2),)), fgrad.jvp(_block, (x,), (fnp.ones(2),))
    np.testing.assert_allclose(np.asarray(t1), np.asarray(t2), rtol=1e-14)


def test_static_argnums_and_decorator_forms():
    @fgrad.checkpoint(static_argnums=(1,), policy=fgrad.checkpoint_policies.dots_saveable,
                      prevent_cse=False)
    def repeat(x, n):
        for _ in range(n):  # n is a Python int
            x = fnp.sin(x)
        return x

    g = fgrad.grad(repeat)(0.4, 2)
    assert abs(float(g) - np.cos(np.sin(0.4)) * np.cos(0.4)) < 1e-14

    @fgrad.checkpoint
    def square(x):
        return x * x

    assert float(fgrad.grad(square)(3.0)) == 6.0
    with pytest.raises(ValueError, match="static_argnums"):
        fgrad.checkpoint(lambda x: x, static_argnums=3)(1.0)


def test_policy_names_and_signature():
    P = fgrad.checkpoint_policies
    for name in ("everything_saveable", "nothing_saveable", "dots_saveable", "checkpoint_dots",
                 "dots_with_no_batch_dims_saveable", "save_only_these_names", "save_any_names_but_these",
                 "save_from_both_policies", "save_and_offload_only_these_names",
                 "offload_dot_with_no_batch_dims"):
        assert callable(getattr(P, name)), name
    dot = fgrad.core.primitive.PRIMITIVES["dot_general"]
    assert P.dots_saveable(dot) and not P.nothing_saveable(dot) and P.everything_saveable(dot)
    assert P.dots_with_no_batch_dims_saveable(dot, dimension_numbers=(((1,), (0,)), ((), ())))
    assert not P.dots_with_no_batch_dims_saveable(dot, dimension_numbers=(((2,), (1,)), ((0,), (0,))))
    x = fnp.asarray(2.0)
    assert checkpoint_name(x, "h") is x
    f = fgrad.checkpoint(lambda x: checkpoint_name(fnp.sin(x), "h") * x,
                         policy=P.save_only_these_names("h"))
    assert abs(float(fgrad.grad(f)(0.5)) - (np.cos(0.5) * 0.5 + np.sin(0.5))) < 1e-14


def _peak_bytes(fn, x) -> int:
    fn(x)  # warm the caches (programs compiled once are not what we measure)
    tracemalloc.start()
    try:
        fn(x)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_remat_saves_memory_in_grad_of_a_deep_chain():
    x = fnp.asarray(np.random.default_rng(0).standard_normal(10_000))  # 80 kB per array
    depth = 24
    plain = _peak_bytes(fgrad.grad(_chain(_block, depth)), x)
    remat = _peak_bytes(fgrad.grad(_chain(fgrad.checkpoint(_block), depth)), x)
    saved_all = _peak_bytes(fgrad.grad(_chain(fgrad.checkpoint(
        _block, policy=fgrad.checkpoint_policies.everything_saveable), depth)), x)
    # plain keeps ~5 intermediates per block (~10 MB measured), remat only each block's input
    # (~3 MB measured): at least halve it
    assert remat < 0.5 * plain, (remat, plain)
    assert saved_all > 0.75 * plain  # everything_saveable: no rematerialization
    np.testing.assert_allclose(
        np.asarray(fgrad.grad(_chain(fgrad.checkpoint(_block), depth))(x)),
        np.asarray(fgrad.grad(_chain(_block, depth))(x)), rtol=1e-12)
