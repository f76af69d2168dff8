"""`fgrad.pmap` and the `fgrad.lax` collectives over named axes (psum, pmean, pmax, pmin,
all_gather, psum_scatter, ppermute, pshuffle, axis_index): values and derivatives against
JAX 0.10 (stored numbers; live when jax is installed), under vmap, pmap, jit, grad.
Primitives: psum_named, pmax_named, pmin_named, all_gather_named, psum_scatter_named,
ppermute_named, axis_index_named (fgrad/ops/named_axes.py)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.lax as flax
import fgrad.numpy as fnp

X3 = np.arange(3.0)
M33 = np.arange(9.0).reshape(3, 3)
PERM = [(0, 1), (1, 2), (2, 0)]


def _programs(jax, lax, jnp):
    """name -> (thunk computing the result with that library): each uses vmap with
    axis_name (JAX's vmap supports collectives, and its pmap needs one device per example)."""
    vm = lambda f, **kw: jax.vmap(f, axis_name="i", **kw)  # noqa: E731
    sq = lambda y: lax.psum(y ** 2, "i")  # noqa: E731
    x = jnp.asarray(X3)
    m = jnp.asarray(M33)
    return {
        "psum": lambda: vm(lambda y: lax.psum(y, "i"))(x),
        "psum_const": lambda: vm(lambda y: lax.psum(2.0, "i") + 0 * y)(x),
        "psum_one": lambda: vm(lambda y: lax.psum(1, "i") * jnp.ones_like(y))(x),
        "psum_tree": lambda: vm(lambda y: lax.psum({"a": y, "b": 2 * y}, "i"))(x)["b"],
        "pmean": lambda: vm(lambda y: lax.pmean(y, "i"))(x),
        "pmax": lambda: vm(lambda y: lax.pmax(y, "i"))(x),
        "pmin": lambda: vm(lambda y: lax.pmin(y, "i"))(x),
        "normalize": lambda: vm(lambda y: y / lax.psum(y, "i"))(x + 1),
        "axis_index": lambda: vm(lambda y: y * lax.axis_index("i"))(x + 1),
        "all_gather": lambda: vm(lambda y: lax.all_gather(y, "i"))(x),
        "all_gather_axis1": lambda: vm(lambda y: lax.all_gather(y, "i", axis=1))(m[:, :2]),
        "all_gather_tiled": lambda: vm(lambda y: lax.all_gather(y, "i", tiled=True))(m[:, :2]),
        "psum_scatter": lambda: vm(lambda y: lax.psum_scatter(y, "i"))(m),
        "psum_scatter_tiled": lambda: vm(lambda y: lax.psum_scatter(y, "i", tiled=True))(
            jnp.concatenate([m, m], axis=1)),
        "ppermute": lambda: vm(lambda y: lax.ppermute(y, "i", PERM))(x),
        "pshuffle": lambda: vm(lambda y: lax.pshuffle(y, "i", [2, 0, 1]))(x),
        "nested_both": lambda: jax.vmap(vm(lambda y: lax.psum(y, ("i", "j"))), axis_name="j")(m[:2]),
        "nested_outer": lambda: jax.vmap(jax.vmap(lambda y: lax.psum(y, "i"), axis_name="j"),
                                         axis_name="i")(m[:2]),
        "jit_inside": lambda: vm(jax.jit(lambda y: lax.psum(y, "i") + lax.axis_index("i")))(x),
        "jit_outside": lambda: jax.jit(vm(lambda y: lax.pmax(y, "i") - y))(x),
        # derivatives: JAX's pairing (psum transposes to psum, all_gather to psum_scatter, ...)
        "vmap_grad_psum": lambda: vm(jax.grad(sq))(x),
        "grad_vmap_psum": lambda: jax.grad(lambda z: vm(sq)(z).sum())(x),
        "vmap_grad_pmean": lambda: vm(jax.grad(lambda y: lax.pmean(y ** 3, "i")))(x),
        "grad_all_gather": lambda: jax.grad(lambda z: (vm(lambda y: lax.all_gather(y, "i"))(z) * m).sum())(x),
        "vmap_grad_all_gather": lambda: vm(jax.grad(lambda y: (lax.all_gather(y, "i") * x).sum()))(x),
        "vmap_grad_ppermute": lambda: vm(jax.grad(
            lambda y: jnp.sin(lax.ppermute(y, "i", PERM)) * lax.axis_index("i")))(x),
        "grad_psum_scatter": lambda: jax.grad(
            lambda z: (vm(lambda y: lax.psum_scatter(y, "i"))(z) ** 2).sum())(m),
        "jit_vmap_grad": lambda: jax.jit(vm(jax.grad(sq)))(x),
        "hessian_psum": lambda: jax.hessian(lambda z: vm(lambda y: lax.psum(y ** 3, "i"))(z).sum())(x),
    }


STORED = {  # JAX 0.10.2 (CPU), printed from _programs(jax, jax.lax, jax.numpy)
    "psum": [3.0, 3.0, 3.0],
    "psum_const": [6.0, 6.0, 6.0],
    "psum_one": [3.0, 3.0, 3.0],
    "psum_tree": [6.0, 6.0, 6.0],
    "pmean": [1.0, 1.0, 1.0],
    "pmax": [2.0, 2.0, 2.0],
    "pmin": [0.0, 0.0, 0.0],
    "normalize": [1 / 6, 2 / 6, 3 / 6],
    "axis_index": [0.0, 2.0, 6.0],
    "all_gather": [[0.0, 1.0, 2.0]] * 3,
    "all_gather_axis1": [[[0.0, 3.0, 6.0], [1.0, 4.0, 7.0]]] * 3,
    "all_gather_tiled": [[0.0, 1.0, 3.0, 4.0, 6.0, 7.0]] * 3,
    "psum_scatter": [9.0, 12.0, 15.0],
    "psum_scatter_tiled": [[9.0, 12.0], [15.0, 9.0], [12.0, 15.0]],
    "ppermute": [2.0, 0.0, 1.0],
    "pshuffle": [2.0, 0.0, 1.0],
    "nested_both": [[15.0, 15.0, 15.0], [15.0, 15.0, 15.0]],
    "nested_outer": [[3.0, 5.0, 7.0], [3.0, 5.0, 7.0]],
    "jit_inside": [3.0, 4.0, 5.0],
    "jit_outside": [2.0, 1.0, 0.0],
    "vmap_grad_psum": [0.0, 6.0, 12.0],
    "grad_vmap_psum": [0.0, 6.0, 12.0],
    "vmap_grad_pmean": [0.0, 3.0, 12.0],
    "grad_all_gather": [9.0, 12.0, 15.0],
    "vmap_grad_all_gather": [0.0, 3.0, 6.0],
    # example j's value goes to example (j + 1) % 3, whose index weighs it: cos(x_j) * ((j + 1) % 3)
    "vmap_grad_ppermute": [1.0, 2 * np.cos(1.0), 0.0],
    # out[i] = sum_k m[k, i]; loss = sum_i out[i]^2; d/dm[k, i] = 2 out[i]
    "grad_psum_scatter": [[18.0, 24.0, 30.0]] * 3,
    "jit_vmap_grad": [0.0, 6.0, 12.0],
    "hessian_psum": [[0.0, 0.0, 0.0], [0.0, 18.0, 0.0], [0.0, 0.0, 36.0]],
}


NAMES = sorted(_programs(fgrad, flax, fnp))


@pytest.mark.parametrize("name", NAMES)
def test_collective_matches_stored(name):
    got = _programs(fgrad, flax, fnp)[name]()
    np.testing.assert_allclose(np.asarray(got), STORED[name], rtol=1e-7, atol=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_collective_matches_live_jax(name):
    jax = pytest.importorskip("jax")
    want = np.asarray(_programs(jax, jax.lax, jax.numpy)[name]())
    got = np.asarray(_programs(fgrad, flax, fnp)[name]())
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_psum_scatter_tiled_is_per_block_sum():
    m2 = np.concatenate([M33, M33], axis=1)
    got = fgrad.vmap(lambda y: flax.psum_scatter(y, "i", tiled=True), axis_name="i")(fnp.asarray(m2))
    np.testing.assert_allclose(np.asarray(got), m2.sum(0).reshape(3, 2))


def test_derivatives_against_finite_differences():
    # a program mixing every differentiable collective; the scalar loss's gradient vs central FD
    def loss(z):
        def per(y):
            g = flax.all_gather(y, "i")
            return fnp.sin(flax.ppermute(y, "i", PERM)) * flax.pmean(y ** 2, "i") + fnp.sum(g * y)
        return fnp.sum(fgrad.vmap(per, axis_name="i")(z) ** 2)

    x = np.array([0.3, -0.7, 1.1])
    g = np.asarray(fgrad.grad(loss)(fnp.asarray(x)))
    eps = 1e-6
    fd = [(float(loss(fnp.asarray(x + eps * e))) - float(loss(fnp.asarray(x - eps * e)))) / (2 * eps)
          for e in np.eye(3)]
    np.testing.assert_allclose(g, fd, rtol=1e-6)


# -- errors --------------------------------------------------------------------------------------

def test_unbound_axis_name_is_a_name_error():
    with pytest.raises(NameError, match="unbound axis name: 'i'"):
        flax.psum(fnp.ones(3), "i")
    with pytest.raises(NameError, match="unbound axis name: 'k'"):
        fgrad.vmap(lambda y: flax.psum(y, "k"), axis_name="i")(fnp.ones(3))
    with pytest.raises(NameError, match="unbound axis name"):
        flax.axis_index("i")


def test_pmax_pmin_derivatives_split_ties():
    # JAX has no rule (NotImplementedError); fgrad differentiates like max: ties share equally
    x = fnp.asarray([1.0, 3.0, 3.0, -2.0])
    f = lambda z: fnp.sum(fgrad.vmap(lambda y: flax.pmax(y, "i"), axis_name="i")(z))  # noqa: E731
    np.testing.assert_allclose(np.asarray(fgrad.grad(f)(x)), [0.0, 2.0, 2.0, 0.0])  # 4 copies of max / 2
    g = lambda z: fnp.sum(fgrad.vmap(lambda y: flax.pmin(y, "i") * y, axis_name="i")(z))  # noqa: E731
    # sum_j min(z) z_j: d/dz_k = min + [k is argmin] * sum(z)
    np.testing.assert_allclose(np.asarray(fgrad.grad(g)(x)), [-2.0, -2.0, -2.0, -2.0 + 5.0])
    jv = fgrad.jvp(lambda z: fgrad.vmap(lambda y: flax.pmax(y, "i"), axis_name="i")(z), (x,),
                   (fnp.asarray([1.0, 10.0, 20.0, 1.0]),))[1]
    np.testing.assert_allclose(np.asarray(jv), [15.0] * 4)


def test_ppermute_rejects_bad_perms():
    with pytest.raises(ValueError, match="outside axis"):
        fgrad.vmap(lambda y: flax.ppermute(y, "i", [(0, 5)]), axis_name="i")(fnp.asarray(X3))
    with pytest.raises(ValueError, match="twice"):
        fgrad.vmap(lambda y: flax.ppermute(y, "i", [(0, 1), (2, 1)]), axis_name="i")(fnp.asarray(X3))


def test_ppermute_partial_perm_gives_zeros():
    got = fgrad.vmap(lambda y: flax.ppermute(y, "i", [(0, 1)]), axis_name="i")(fnp.asarray(X3 + 1))
    np.testing.assert_array_equal(np.asarray(got), [0.0, 1.0, 0.0])


# -- pmap ---------------------------------------------------------------------------------------

@pytest.fixture
def any_size():
    fgrad.config.update("pmap_any_size", True)
    yield
    fgrad.config.update("pmap_any_size", None)


def test_pmap_idiom_on_local_devices():
    n = fgrad.local_device_count()
    x = fnp.arange(12.0).reshape(n, -1) + 1
    out = fgrad.pmap(lambda v: v / flax.psum(fnp.sum(v), "i"), axis_name="i")(x)
    np.testing.assert_allclose(np.asarray(out), np.asarray(x) / np.asarray(x).sum())
    assert fgrad.device_count() == n == len(fgrad.local_devices())


def test_pmap_axis_longer_than_devices_is_a_value_error():
    n = fgrad.local_device_count()
    with pytest.raises(ValueError, match="pmap_any_size"):
        fgrad.pmap(lambda v: v)(fnp.ones((n + 1, 2)))


def test_pmap_needs_a_mapped_argument():
    with pytest.raises(ValueError, match="at least one argument with a mapped axis"):
        fgrad.pmap(lambda v: v, in_axes=None)(fnp.ones(2))


def test_pmap_matches_live_jax_on_one_device():
    jax = pytest.importorskip("jax")
    x = np.arange(6.0).reshape(1, 6)

    def prog(jx, lax):
        return jx.pmap(lambda v, k: lax.psum(v * k, "i") + lax.axis_index("i"), axis_name="i",
                       static_broadcasted_argnums=1, donate_argnums=0)(x, 3)

    np.testing.assert_allclose(np.asarray(prog(fgrad, flax)), np.asarray(prog(jax, jax.lax)))


def test_pmap_any_size_and_transforms(any_size):
    f = fgrad.pmap(lambda v: flax.psum(v ** 2, "i"), axis_name="i")
    x = fnp.asarray(X3)
    np.testing.assert_allclose(np.asarray(f(x)), [5.0, 5.0, 5.0])
    # grad of pmap, pmap of grad: both 2 n x (JAX's values, STORED above)
    np.testing.assert_allclose(np.asarray(fgrad.grad(lambda z: fnp.sum(f(z)))(x)), STORED["grad_vmap_psum"])
    g = fgrad.pmap(fgrad.grad(lambda v: flax.psum(v ** 2, "i")), axis_name="i")(x)
    np.testing.assert_allclose(np.asarray(g), STORED["vmap_grad_psum"])


def test_pmap_in_axes_out_axes_static(any_size):
    y = fgrad.pmap(lambda a, b: a + b, in_axes=(0, None))(fnp.ones((3, 2)), fnp.arange(2.0))
    np.testing.assert_allclose(np.asarray(y), np.ones((3, 2)) + np.arange(2.0))
    z = fgrad.pmap(lambda a: a * 2, in_axes=1, out_axes=1)(fnp.ones((2, 3)))
    assert z.shape == (2, 3)
    calls = []

    def scaled(a, k):
        calls.append(k)
        return a * k

    p = fgrad.pmap(scaled, static_broadcasted_argnums=(1,))
    np.testing.assert_allclose(np.asarray(p(fnp.ones((3, 1)), 4)), 4 * np.ones((3, 1)))
    p(fnp.ones((3, 1)), 4)
    assert calls == [4]  # compiled once per static value
    with pytest.raises(TypeError, match="hashable"):
        p(fnp.ones((3, 1)), [1])


def test_nested_pmap(any_size):
    f = fgrad.pmap(fgrad.pmap(lambda v: flax.psum(v, "j") + flax.psum(v, "i"), axis_name="j"), axis_name="i")
    np.testing.assert_allclose(np.asarray(f(fnp.ones((2, 3)))), np.full((2, 3), 5.0))


def test_pmap_any_size_option_round_trips():
    assert fgrad.config.read("pmap_any_size") is False
    fgrad.config.update("pmap_any_size", True)
    try:
        assert fgrad.config.pmap_any_size is True
    finally:
        fgrad.config.update("pmap_any_size", False)
    with pytest.raises(TypeError):
        fgrad.config.update("pmap_any_size", "yes")


# -- collectives inside control flow inside vmap/pmap (they used to be staged without their
# axis and raise NameError when the loop ran) -----------------------------------------------

def _cf_cases(lax, x):
    def scan(a):
        return lax.scan(lambda c, _: (c * 0.5 + lax.psum(a * c, "i"), None), 1.0, None, length=3)[0]

    def cond(a):  # a predicate per example: each example's branch, collectives over all
        return lax.cond(a > 1.5, lambda: lax.psum(a, "i"), lambda: lax.pmax(a, "i") * 10)

    def fori_grad(a):
        return lax.fori_loop(0, 2, lambda i, c: c + lax.psum(a ** 2, "i"), 0.0)

    return scan, cond, fori_grad


def test_collectives_inside_control_flow_under_vmap_and_pmap(any_size):
    x = np.arange(3.0) + 1
    scan, cond, fori = _cf_cases(flax, x)
    c = 1.0
    for _ in range(3):  # the loop by hand
        c = c * 0.5 + (x * c).sum()
    for mapped in (fgrad.vmap, fgrad.pmap):
        np.testing.assert_allclose(mapped(scan, axis_name="i")(x), [c] * 3, rtol=1e-14)
        np.testing.assert_allclose(mapped(cond, axis_name="i")(x), [30.0, 6.0, 6.0])
        # psum transposes to psum: d/da of 2 * sum_j a_j^2, seeded on all 3 examples
        np.testing.assert_allclose(mapped(fgrad.grad(fori), axis_name="i")(x), 4 * 3 * x)

    def loop(a):  # trip count per example: finished examples keep their values in the sums
        return flax.while_loop(lambda s: s[0] < a, lambda s: (s[0] + 1, s[1] + flax.psum(s[0], "i")),
                               (0.0, 0.0))[1]

    np.testing.assert_allclose(fgrad.vmap(loop, axis_name="i")(x), [0.0, 3.0, 8.0])
    # no operand varies along the axis, but the body holds a collective over it
    for mapped in (fgrad.vmap, fgrad.pmap):
        out = mapped(lambda a: fgrad.jit(lambda: flax.psum(1, "i"))() + a, axis_name="i")(x)
        np.testing.assert_array_equal(out, x + 3)
        out = mapped(lambda a: fgrad.jit(lambda b: flax.psum(1, "i") * b)(fnp.ones(())) + a, axis_name="i")(x)
        np.testing.assert_array_equal(out, x + 3)
        out = mapped(lambda a: flax.fori_loop(0, 3, lambda i, c: c + flax.axis_index("i"), 0) + a,
                     axis_name="i")(x)
        np.testing.assert_array_equal(out, x + 3 * np.arange(3))
        out = mapped(lambda a: flax.while_loop(lambda c: c < 5, lambda c: c + flax.psum(1, "i"), 0) + a,
                     axis_name="i")(x)
        np.testing.assert_array_equal(out, x + 6)
    jax = pytest.importorskip("jax")
    jscan, jcond, jfori = _cf_cases(jax.lax, x)  # (JAX in float32)
    for ours, theirs in ((scan, jscan), (cond, jcond)):
        np.testing.assert_allclose(fgrad.vmap(ours, axis_name="i")(x), jax.vmap(theirs, axis_name="i")(x),
                                   rtol=1e-6)
    np.testing.assert_allclose(fgrad.vmap(fgrad.grad(fori), axis_name="i")(x),
                               jax.vmap(jax.grad(jfori), axis_name="i")(x), rtol=1e-6)
