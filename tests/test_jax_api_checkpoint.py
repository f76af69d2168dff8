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
    assert float(checkpoint_name(x, "h")) == 2.0
    assert "= name[name=h] a" in str(fgrad.make_jaxpr(lambda v: checkpoint_name(v, "h"))(x))
    f = fgrad.checkpoint(lambda x: checkpoint_name(fnp.sin(x), "h") * x,
                         policy=P.save_only_these_names("h"))
    assert abs(float(fgrad.grad(f)(0.5)) - (np.cos(0.5) * 0.5 + np.sin(0.5))) < 1e-14


def _peak_bytes(fn, x) -> int:
    """Peak memory allocated while ``fn(x)`` runs: on a GPU (cupy) the device memory pool's
    high-water mark above what was in use before (tracemalloc sees only host memory there:
    the GPU run measured 215516 vs 80361 host bytes, Python objects only); elsewhere
    tracemalloc's peak (NumPy and fake-device buffers are host memory)."""
    fn(x)  # warm the caches (programs compiled once are not what we measure)
    xp = fgrad.backends.default_backend().xp
    if hasattr(xp, "get_default_memory_pool") and hasattr(getattr(xp, "cuda", None), "set_allocator"):
        return _device_peak_bytes(xp, fn, x)
    tracemalloc.start()
    try:
        fn(x)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _device_peak_bytes(cp, fn, x) -> int:
    """cupy's pool keeps no high-water mark: route allocations through a wrapper that records
    ``used_bytes`` after each one."""
    pool = cp.get_default_memory_pool()
    cp.cuda.Device().synchronize()
    base = pool.used_bytes()
    peak = [base]

    def malloc(size):
        mem = pool.malloc(size)
        peak[0] = max(peak[0], pool.used_bytes())
        return mem

    previous = cp.cuda.get_allocator()
    cp.cuda.set_allocator(malloc)
    try:
        fn(x)
        cp.cuda.Device().synchronize()
    finally:
        cp.cuda.set_allocator(previous)
    return peak[0] - base


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


# -- policies change what is saved (counted), never the derivatives ---------------------------

_W = np.random.default_rng(1).standard_normal((3, 3)) / 2
P = fgrad.checkpoint_policies
POLICIES = {
    "default": None,
    "nothing_saveable": P.nothing_saveable,
    "everything_saveable": P.everything_saveable,
    "dots_saveable": P.dots_saveable,
    "checkpoint_dots": P.checkpoint_dots,
    "dots_with_no_batch_dims_saveable": P.dots_with_no_batch_dims_saveable,
    "save_only_these_names": P.save_only_these_names("pre"),
    "save_any_names_but_these": P.save_any_names_but_these("pre"),
    "save_from_both_policies": P.save_from_both_policies(P.nothing_saveable, P.save_only_these_names("pre")),
    "save_and_offload_only_these_names": P.save_and_offload_only_these_names(
        names_which_can_be_saved=(), names_which_can_be_offloaded=("pre",)),
    "offload_dot_with_no_batch_dims": P.offload_dot_with_no_batch_dims("device", "pinned_host"),
}


def _dense_block(w, x):
    h = checkpoint_name(w @ x, "pre")
    return fnp.sin(fnp.tanh(h)) + 0.5 * x


def _dense_net(block, depth=3):
    def f(w, x):
        for _ in range(depth):
            x = block(w, x)
        return fnp.sum(x ** 2)

    return f


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("name", ["grad", "jit-grad", "vmap-grad", "grad-of-grad-sum", "hessian"])
def test_policies_keep_derivatives(policy, name):
    x = fnp.asarray([0.3, -0.8, 1.4])
    w = fnp.asarray(_W)
    block = fgrad.checkpoint(_dense_block, policy=POLICIES[policy])
    t = TRANSFORMS[name]
    for f, g in ((_dense_net(_dense_block), _dense_net(block)),):
        want = t(lambda v: f(w, v))(x)  # through x
        got = t(lambda v: g(w, v))(x)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-11, atol=1e-13)
    gw = fgrad.grad(_dense_net(block))(w, x)  # through the weights
    np.testing.assert_allclose(np.asarray(gw), np.asarray(fgrad.grad(_dense_net(_dense_block))(w, x)),
                               rtol=1e-11, atol=1e-13)


@pytest.fixture
def count_dots(monkeypatch):
    """Counts evaluations of dot_general's implementation."""
    counts = {"dot_general": 0}
    prim = fgrad.core.primitive.PRIMITIVES["dot_general"]
    impl = prim.impl

    def counting(*args, **params):
        counts["dot_general"] += 1
        return impl(*args, **params)

    monkeypatch.setattr(prim, "impl", counting)
    # the straight-line executor may bind a per-shape matmul plan instead of calling impl:
    # count every evaluation by taking that route away
    monkeypatch.setattr(prim, "host_kernel", None)
    fgrad.clear_caches()  # cached programs hold the implementation they were built with
    yield counts
    fgrad.clear_caches()


# dot_general evaluations in the backward pass of 3 checkpointed dense layers (each layer: one
# dot; its transposes are two dots, one per operand). Recomputing the forward dot costs one more.
BACKWARD_DOTS = {
    "nothing_saveable": 3 * 2 + 3,     # every layer's dot recomputed
    "default": 3 * 2 + 3,
    "save_any_names_but_these": 3 * 2 + 3,
    "dots_saveable": 3 * 2,            # the dots are saved: transposes only
    "checkpoint_dots": 3 * 2,
    "dots_with_no_batch_dims_saveable": 3 * 2,
    "offload_dot_with_no_batch_dims": 3 * 2,
    "save_only_these_names": 3 * 2,    # "pre" (the dot's value) is saved: the dot is not replayed
    "save_from_both_policies": 3 * 2,
    "save_and_offload_only_these_names": 3 * 2,
}


@pytest.mark.parametrize("policy", sorted(BACKWARD_DOTS))
def test_policies_change_what_is_recomputed(policy, count_dots):
    w, x = fnp.asarray(_W), fnp.asarray([0.3, -0.8, 1.4])
    f = _dense_net(fgrad.checkpoint(_dense_block, policy=POLICIES[policy]))
    _, pullback = fgrad.vjp(f, w, x)
    count_dots["dot_general"] = 0
    gw, gx = pullback(fnp.asarray(1.0))
    assert count_dots["dot_general"] == BACKWARD_DOTS[policy]
    want = fgrad.grad(_dense_net(_dense_block), argnums=(0, 1))(w, x)
    np.testing.assert_allclose(np.asarray(gw), np.asarray(want[0]), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gx), np.asarray(want[1]), rtol=1e-12)


def test_everything_saveable_recomputes_nothing(count_dots):
    w, x = fnp.asarray(_W), fnp.asarray([0.3, -0.8, 1.4])
    plain = _dense_net(_dense_block)
    saved = _dense_net(fgrad.checkpoint(_dense_block, policy=P.everything_saveable))
    counts = []
    for f in (plain, saved):
        _, pullback = fgrad.vjp(f, w, x)
        count_dots["dot_general"] = 0
        pullback(fnp.asarray(1.0))
        counts.append(count_dots["dot_general"])
    assert counts[0] == counts[1] == 3 * 2


@pytest.mark.parametrize("policy", [None, P.dots_saveable])
def test_closed_over_values_get_derivatives(policy):
    # regression: a checkpointed function closing over a differentiated value (the parameters,
    # as in `checkpoint(lambda x: layer(params, x))`) raised UnexpectedTracerError in grad
    w = fnp.asarray(_W)

    def loss(w, x):
        @fgrad.checkpoint(policy=policy, static_argnums=(1,))
        def layer(v, k):
            return fnp.tanh(k * (w @ v))
        for _ in range(2):
            x = layer(x, 2.0)
        return fnp.sum(x)

    x = fnp.asarray([0.1, 0.2, -0.3])

    def ref(w, x):
        for _ in range(2):
            x = fnp.tanh(2.0 * (w @ x))
        return fnp.sum(x)

    for argnums in (0, (0, 1)):
        got = fgrad.grad(loss, argnums=argnums)(w, x)
        want = fgrad.grad(ref, argnums=argnums)(w, x)
        for g, r in zip(fgrad.tree_leaves(got), fgrad.tree_leaves(want)):
            np.testing.assert_allclose(np.asarray(g), np.asarray(r), rtol=1e-12)
    hess = fgrad.hessian(lambda v: loss(w, v))(x)  # second order through the closure too
    np.testing.assert_allclose(np.asarray(hess), np.asarray(fgrad.hessian(lambda v: ref(w, v))(x)),
                               rtol=1e-10, atol=1e-12)
    jg = fgrad.jit(fgrad.grad(loss))(w, x)
    np.testing.assert_allclose(np.asarray(jg), np.asarray(fgrad.grad(ref)(w, x)), rtol=1e-12)


@pytest.mark.parametrize("policy", [None, P.dots_saveable, P.everything_saveable])
def test_checkpointed_scan_body(policy):
    # the usual remat pattern: lax.scan(jax.checkpoint(step), ...), with an integer side output
    def step(c, x):
        c = fnp.tanh(c @ fnp.asarray(_W) + x)
        return c, (fnp.sum(c), fnp.argmax(c))

    def f(c0, xs, body):
        c, (ys, _) = fgrad.lax.scan(body, c0, xs)
        return fnp.sum(c) + fnp.sum(ys)

    c0 = fnp.asarray([0.1, 0.2, 0.3])
    xs = fnp.asarray(np.random.default_rng(0).normal(size=(5, 3)))
    body = fgrad.checkpoint(step, policy=policy)
    want = fgrad.grad(f)(c0, xs, step)
    np.testing.assert_allclose(np.asarray(fgrad.grad(f)(c0, xs, body)), np.asarray(want), rtol=1e-12)
    jitted = fgrad.jit(fgrad.grad(lambda c: f(c, xs, body)))
    np.testing.assert_allclose(np.asarray(jitted(c0)), np.asarray(want), rtol=1e-12)


def test_linearize_of_a_checkpointed_function():
    """``jax.linearize(jax.checkpoint(f), x)`` works in JAX (the gradient-checkpointing page);
    fgrad's ``f_jvp`` raised "can't apply forward-mode autodiff to a custom_vjp function": the
    linear program held checkpoint's reverse-mode form, which has no forward rule.  Under
    ``linearize`` checkpoint now differentiates its function as under ``jvp``."""
    f = lambda x: fnp.sin(x) * x  # noqa: E731
    exact = lambda x, t: t * (fnp.cos(x) * x + fnp.sin(x))  # noqa: E731
    for policy in (None, fgrad.checkpoint_policies.nothing_saveable):
        g = fgrad.checkpoint(f, policy=policy)
        y, f_jvp = fgrad.linearize(g, 1.0)
        np.testing.assert_allclose(float(y), float(f(1.0)))
        np.testing.assert_allclose(float(f_jvp(2.0)), float(exact(1.0, 2.0)))
        np.testing.assert_allclose(float(fgrad.jit(lambda x: fgrad.linearize(g, x)[1](2.0))(1.0)),
                                   float(exact(1.0, 2.0)))
        # the derivative of a linearization: d/dx 2 (x cos x + sin x)
        np.testing.assert_allclose(float(fgrad.grad(lambda x: fgrad.linearize(g, x)[1](2.0))(1.0)),
                                   2 * (2 * np.cos(1.0) - np.sin(1.0)))
    # grad through checkpoint still rematerializes (the linearization that vjp transposes)
    np.testing.assert_allclose(float(fgrad.grad(fgrad.checkpoint(f))(1.0)), float(exact(1.0, 1.0)))
