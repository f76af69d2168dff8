"""`fgrad.shard_map`: JAX's numbers (stored from JAX 0.10.2 with 4 host devices, and live),
a Python loop over the blocks, finite differences, and JAX's errors.

Covers the typed collectives of check_vma bodies (primitives ``pvary_named``,
``psum_invariant_named``, ``as_varying_named``) through the grad-inside-the-body cases."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import fgrad
import fgrad.lax as lax
import fgrad.numpy as fnp
from fgrad.sharding import Mesh, PartitionSpec as P

sys.path.insert(0, os.path.dirname(__file__))
import shard_map_cases as cases  # noqa: E402

STORED = json.load(open(os.path.join(os.path.dirname(__file__), "stored", "jax_shard_map.json")))


@pytest.fixture
def virtual_devices():
    saved = fgrad.config.read("pmap_any_size")
    fgrad.config.update("pmap_any_size", True)
    try:
        yield
    finally:
        fgrad.config.update("pmap_any_size", saved)


class FgradNamespace:
    def __init__(self) -> None:
        self.shard_map, self.lax, self.np, self.P = fgrad.shard_map, lax, fnp, P
        self.grad, self.jit, self.vmap = fgrad.grad, fgrad.jit, fgrad.vmap
        self.mesh4 = fgrad.make_mesh((4,), ("i",))
        self.mesh22 = fgrad.make_mesh((2, 2), ("a", "b"))


def _close(got, want):
    np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_matches_stored_jax(name, virtual_devices):
    got = cases._leaves(cases.CASES[name](FgradNamespace()))
    want = STORED["values"][name]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _close(np.asarray(g), w)


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_errors_match_jax(name, virtual_devices):
    with pytest.raises(Exception) as info:
        cases.ERRORS[name](FgradNamespace())
    assert type(info.value).__name__ == STORED["errors"][name] == "ValueError"


@pytest.mark.slow
def test_matches_live_jax_on_4_host_devices():
    pytest.importorskip("jax")
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=4", "JAX_PLATFORMS": "cpu"}
    out = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "shard_map_cases.py"),
                          "--print"], env=env, capture_output=True, text=True, check=True)
    live = json.loads(out.stdout.strip().splitlines()[-1])
    for name, want in live["values"].items():
        for g, w in zip(STORED["values"][name], want):
            _close(g, w)
    assert live["errors"] == STORED["errors"]


def test_size_one_mesh_matches_live_jax():
    """Without virtual devices: the real single device, JAX in this process (1 CPU device)."""
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    jax.config.update("jax_enable_x64", True)
    x = np.linspace(0.0, 1.0, 6)

    def body(ns_lax, ns_np):
        return lambda w, x: (ns_lax.psum(ns_np.sum(ns_np.sin(w * x)), "i"), x * ns_lax.axis_size("i"))

    jmesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("i",))
    want = jax.shard_map(body(jax.lax, jnp), mesh=jmesh, in_specs=(P_jax(jax)(), P_jax(jax)("i")),
                         out_specs=(P_jax(jax)(), P_jax(jax)("i")))(0.7, x)
    got = fgrad.shard_map(body(lax, fnp), mesh=fgrad.make_mesh((1,), ("i",)), in_specs=(P(), P("i")),
                          out_specs=(P(), P("i")))(0.7, x)
    for g, w in zip(got, want):
        _close(g, np.asarray(w))


def P_jax(jax):
    return jax.sharding.PartitionSpec


def test_against_a_python_loop_over_blocks(virtual_devices):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 3))
    w = rng.normal(size=(3,))
    mesh = fgrad.make_mesh((4,), ("i",))

    def body(w, x):
        local = fnp.tanh(x @ w)
        return local - lax.pmean(fnp.mean(local), "i"), lax.psum(fnp.sum(local ** 2), "i")

    got_local, got_total = fgrad.shard_map(body, mesh=mesh, in_specs=(P(), P("i")),
                                           out_specs=(P("i"), P()))(w, x)
    locals_ = [np.tanh(b @ w) for b in np.split(x, 4)]
    mean = np.mean([loc.mean() for loc in locals_])
    np.testing.assert_allclose(np.asarray(got_local), np.concatenate([loc - mean for loc in locals_]),
                               rtol=1e-13)
    np.testing.assert_allclose(float(got_total), sum((loc ** 2).sum() for loc in locals_), rtol=1e-13)


def test_data_parallel_gradient_is_the_full_batch_gradient(virtual_devices):
    """The canonical program: per-shard loss, psum'ed, differentiated inside the body with
    respect to replicated parameters (JAX's check_vma rules): the full-batch gradient."""
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=(12, 3)), rng.normal(size=(12,))
    params = {"w": rng.normal(size=(3,)), "b": np.float64(0.3)}

    def loss(p, x, y):
        return fnp.sum((fnp.tanh(x @ p["w"] + p["b"]) - y) ** 2)

    step = fgrad.shard_map(lambda p, x, y: fgrad.grad(lambda p: lax.psum(loss(p, x, y), "d"))(p),
                           mesh=fgrad.make_mesh((3,), ("d",)), in_specs=(P(), P("d"), P("d")), out_specs=P())
    got = step(params, x, y)
    want = fgrad.grad(loss)(params, x, y)
    for k in params:
        np.testing.assert_allclose(np.asarray(got[k]), np.asarray(want[k]), rtol=1e-12)
    # finite differences of the full loss
    eps = 1e-6
    for i in range(3):
        e = np.zeros(3)
        e[i] = eps
        fd = (float(loss({**params, "w": params["w"] + e}, x, y))
              - float(loss({**params, "w": params["w"] - e}, x, y))) / (2 * eps)
        np.testing.assert_allclose(float(got["w"][i]), fd, rtol=1e-6)


def test_grad_of_shard_map_by_finite_differences(virtual_devices):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(8,))
    f = fgrad.shard_map(lambda x: lax.psum(fnp.sum(fnp.sin(x) * lax.pmean(x, "i")), "i"),
                        mesh=fgrad.make_mesh((4,), ("i",)), in_specs=P("i"), out_specs=P())
    g = np.asarray(fgrad.grad(f)(x))
    eps = 1e-6
    for i in range(8):
        e = np.zeros(8)
        e[i] = eps
        fd = (float(f(x + e)) - float(f(x - e))) / (2 * eps)
        np.testing.assert_allclose(g[i], fd, rtol=1e-6, atol=1e-9)


def test_decorator_forms_and_current_mesh(virtual_devices):
    mesh = fgrad.make_mesh((2,), ("i",))

    @functools.partial(fgrad.shard_map, mesh=mesh, in_specs=P("i"), out_specs=P("i"))
    def f(x):
        return x * lax.axis_index("i")

    @fgrad.shard_map(mesh=mesh, in_specs=P("i"), out_specs=P("i"))
    def g(x):
        return x * lax.axis_index("i")

    x = np.ones(4)
    np.testing.assert_array_equal(np.asarray(f(x)), [0, 0, 1, 1])
    np.testing.assert_array_equal(np.asarray(g(x)), [0, 0, 1, 1])
    with fgrad.sharding.set_mesh(mesh):
        h = fgrad.shard_map(lambda x: x * lax.axis_index("i"), in_specs=P("i"), out_specs=P("i"))
        np.testing.assert_array_equal(np.asarray(h(x)), [0, 0, 1, 1])
    with pytest.raises(ValueError, match="no mesh"):
        fgrad.shard_map(lambda x: x, in_specs=P("i"), out_specs=P("i"))(x)


def test_experimental_path_and_check_rep(virtual_devices):
    from fgrad.experimental.shard_map import shard_map

    mesh = fgrad.make_mesh((4,), ("i",))
    f = shard_map(lambda x: fnp.sum(x, keepdims=True), mesh, in_specs=P("i"), out_specs=P(), check_rep=False)
    np.testing.assert_allclose(np.asarray(f(cases.X8)), cases.X8[:2].sum(keepdims=True))
    with pytest.raises(ValueError, match="replicat"):
        shard_map(lambda x: fnp.sum(x, keepdims=True), mesh, in_specs=P("i"), out_specs=P())(cases.X8)


def test_partial_manual_axes(virtual_devices):
    """axis_names= names the manual axes; the others stay whole in the body (JAX's auto axes)."""
    mesh = fgrad.make_mesh((2, 2), ("a", "b"))
    f = fgrad.shard_map(lambda x: x + lax.axis_index("a") * 100.0, mesh=mesh, in_specs=P("a"),
                        out_specs=P("a"), axis_names={"a"})
    np.testing.assert_array_equal(np.asarray(f(np.zeros(4))), [0, 0, 100, 100])
    with pytest.raises(NameError, match="unbound axis name"):
        fgrad.shard_map(lambda x: lax.psum(x, "b"), mesh=mesh, in_specs=P("a"), out_specs=P("a"),
                        axis_names={"a"})(np.zeros(4))
    with pytest.raises(ValueError, match="manual axes"):
        fgrad.shard_map(lambda x: x, mesh=mesh, in_specs=P("b"), out_specs=P("b"),
                        axis_names={"a"})(np.zeros(4))


def test_larger_meshes_need_virtual_devices():
    if fgrad.local_device_count() >= 4:
        pytest.skip("several real devices")
    with pytest.raises(ValueError, match="pmap_any_size"):
        fgrad.make_mesh((4,), ("i",))
    with pytest.raises(ValueError, match="pmap_any_size"):
        Mesh(np.array([fgrad.devices()[0]] * 4), ("i",))


def test_size_one_mesh_needs_no_option():
    mesh = fgrad.make_mesh((1,), ("i",))
    f = fgrad.shard_map(lambda x: x / lax.psum(fnp.sum(x), "i"), mesh=mesh, in_specs=P("i"), out_specs=P("i"))
    np.testing.assert_allclose(np.asarray(f(np.arange(1.0, 4.0))), np.arange(1.0, 4.0) / 6.0)


def test_legacy_vmap_and_pmap_collectives_keep_their_rules():
    """Outside shard_map, psum under vmap keeps JAX's pmap pairing (psum transposes to psum):
    vmap(grad(lambda x: psum(x*x))) is n times the per-example derivative."""
    x = np.array([1.0, 3.0])
    got = fgrad.vmap(fgrad.grad(lambda x: lax.psum(x * x, "i")), axis_name="i")(x)
    np.testing.assert_allclose(np.asarray(got), 2 * 2 * x)


def test_not_a_callable():
    with pytest.raises(TypeError, match="callable"):
        fgrad.shard_map(3, mesh=fgrad.make_mesh((1,), ("i",)), in_specs=P(), out_specs=P())


@pytest.mark.parametrize("n", [1, 2, 4])
@pytest.mark.parametrize("dim", [0, 1])
def test_blocks_along_either_dimension_match_a_loop(n, dim, virtual_devices):
    """Block b of the input (split along ``dim``) gives ``x_b * (b + 1) + sum of all blocks``;
    the reference loops over the blocks with NumPy."""
    rng = np.random.default_rng(n * 10 + dim)
    x = rng.normal(size=(4, 8))
    spec = P("i") if dim == 0 else P(None, "i")
    f = fgrad.shard_map(lambda b: b * (lax.axis_index("i") + 1.0) + lax.psum(fnp.sum(b), "i"),
                        mesh=fgrad.make_mesh((n,), ("i",)), in_specs=spec, out_specs=spec)
    blocks = np.split(x, n, axis=dim)
    want = np.concatenate([blk * (b + 1.0) + x.sum() for b, blk in enumerate(blocks)], axis=dim)
    np.testing.assert_allclose(np.asarray(f(x)), want, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(fgrad.jit(f)(x)), want, rtol=1e-13)
