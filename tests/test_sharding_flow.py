"""Shardings through operations and ``jit``, as JAX reports them on one device
(`fgrad.core.sharding_flow`).

Regression: every result was ``SingleDeviceSharding`` whatever its operands' placement
(``jit(f)(x).sharding.spec`` raised AttributeError for an ``x`` placed with a
``NamedSharding``), ``device_put(x, device)`` kept a mesh placement, the eager
``with_sharding_constraint`` placed nothing, and ``Compiled.input_shardings``/
``output_shardings`` did not exist.  The expected answers are JAX 0.10.2's (a one-device CPU
mesh), stored here and checked live when JAX is installed.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad


def _mods(lib):
    if lib == "jax":
        jax = pytest.importorskip("jax")
        return jax, jax.numpy, jax.sharding
    import fgrad.numpy as fnp
    return fgrad, fnp, fgrad.sharding


def _describe(s):
    """("named", spec entries) or ("single",)."""
    if type(s).__name__ == "NamedSharding":
        return ("named", tuple(s.spec))
    assert type(s).__name__ == "SingleDeviceSharding", s
    return ("single",)


def _setup(lib):
    jax, jnp, sh = _mods(lib)
    mesh = jax.make_mesh((1,), ("x",), axis_types=(sh.AxisType.Auto,))
    s = sh.NamedSharding(mesh, sh.PartitionSpec("x"))
    x = jax.device_put(jnp.arange(8.0), s)
    x2 = jax.device_put(jnp.ones((4, 6)), sh.NamedSharding(mesh, sh.PartitionSpec(None, "x")))
    return jax, jnp, sh, mesh, s, x, x2


# name -> (the expression, JAX's answer)
CASES = {
    "jit_elementwise": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(lambda a: a * 2)(x), ("named", ("x",))),
    "jit_reshape": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(lambda a: (a * 2).reshape(2, 4))(x),
                    ("named", ())),
    "jit_placed_first": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(lambda a, b: a + b)(x, jnp.ones(8)),
                         ("named", ("x",))),
    "jit_unplaced_first": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(lambda a, b: a * b)(jnp.ones(8), x),
                           ("named", ())),
    "jit_scalar_first": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(lambda a, b: a * b)(2.0, x),
                         ("named", ())),
    "jit_unplaced": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(lambda a: a * 2)(jnp.ones(8)), ("single",)),
    "eager_elementwise": (lambda jax, jnp, sh, mesh, s, x, x2: x * 2, ("named", ("x",))),
    "eager_sum": (lambda jax, jnp, sh, mesh, s, x, x2: jnp.sum(x), ("named", ())),
    "eager_unplaced_first": (lambda jax, jnp, sh, mesh, s, x, x2: jnp.ones(8) + x, ("named", ())),
    "jit_transpose_keeps": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(lambda a: a.T)(x2),
                            ("named", (None, "x"))),
    "jit_reduce_axis": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(lambda a: a.sum(0))(x2), ("named", ())),
    "jit_out_shardings": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(
        lambda a: a, out_shardings=sh.SingleDeviceSharding(jax.devices()[0]))(x2), ("single",)),
    "eager_vmap": (lambda jax, jnp, sh, mesh, s, x, x2:
        jax.vmap(lambda a: a * 2)(x2), ("named", (None, "x"))),
    "jit_second_output": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(lambda a: (a, a.sum()))(x)[1],
                          ("named", ())),
    "device_put_device": (lambda jax, jnp, sh, mesh, s, x, x2:
        jax.device_put(x, jax.devices()[0]), ("single",)),
    "constraint_eager": (lambda jax, jnp, sh, mesh, s, x, x2: jax.lax.with_sharding_constraint(
        jnp.ones(4), sh.NamedSharding(mesh, sh.PartitionSpec("x"))), ("named", ("x",))),
    "constraint_in_jit": (lambda jax, jnp, sh, mesh, s, x, x2:
        jax.jit(lambda a: jax.lax.with_sharding_constraint(
        a * 2, sh.NamedSharding(mesh, sh.PartitionSpec(None))))(x), ("named", ("x",))),
    "in_shardings": (lambda jax, jnp, sh, mesh, s, x, x2:
        jax.jit(lambda a: a * 3, in_shardings=s)(jnp.ones(8)),
                     ("named", ())),
    "zeros_like": (lambda jax, jnp, sh, mesh, s, x, x2: jnp.zeros_like(x), ("named", ("x",))),
    "slice": (lambda jax, jnp, sh, mesh, s, x, x2: x[2:4], ("named", ("x",))),
    "index": (lambda jax, jnp, sh, mesh, s, x, x2: x[2], ("named", ())),
    "jit_new_axis": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(lambda a: a[None])(x), ("named", ())),
    "jit_constant": (lambda jax, jnp, sh, mesh, s, x, x2:
        jax.jit(lambda a: jnp.ones((4, 6)))(x2), ("single",)),
    "jit_forwarded": (lambda jax, jnp, sh, mesh, s, x, x2: jax.jit(lambda a: a, donate_argnums=0)(
        jax.device_put(jnp.ones(2), s)), ("named", ("x",))),
    "astype": (lambda jax, jnp, sh, mesh, s, x, x2: x.astype(jnp.int32), ("named", ("x",))),
    "set_mesh_create": (lambda jax, jnp, sh, mesh, s, x, x2: _in_mesh(jax, mesh, lambda: jnp.ones(2)),
                        ("named", ())),
    "set_mesh_jit": (lambda jax, jnp, sh, mesh, s, x, x2: _in_mesh(
        jax, mesh, lambda: jax.jit(lambda a: a * 3)(np.ones(2))), ("named", ())),
}


def _explicit(lib):
    """An Explicit mesh (`make_mesh`'s default): JAX types values with their shardings."""
    jax, jnp, sh = _mods(lib)
    mesh = jax.make_mesh((1, 1), ("x", "y"))
    xs = jax.device_put(jnp.arange(6.0).reshape(2, 3), sh.NamedSharding(mesh, sh.PartitionSpec("x", "y")))
    v = jax.device_put(jnp.arange(3.0), sh.NamedSharding(mesh, sh.PartitionSpec("y")))
    return jax, jnp, xs, v


EXPLICIT = {
    "sum0": (lambda jax, jnp, xs, v: xs.sum(0), ("y",)),
    "jit_sum1": (lambda jax, jnp, xs, v: jax.jit(lambda a: a.sum(1))(xs), ("x",)),
    "broadcast": (lambda jax, jnp, xs, v: xs + v, ("x", "y")),
    "broadcast_first": (lambda jax, jnp, xs, v: v + xs, ("x", "y")),
    "scalar": (lambda jax, jnp, xs, v: 2.0 * xs, ("x", "y")),
    "slice": (lambda jax, jnp, xs, v: xs[:, 1:], ("x", "y")),
    "index": (lambda jax, jnp, xs, v: xs[0], ("y",)),
    "exp": (lambda jax, jnp, xs, v: jnp.exp(xs), ("x", "y")),
    "jit_transpose": (lambda jax, jnp, xs, v: jax.jit(lambda a: jnp.tanh(a.T) * 2)(xs), ("y", "x")),
    "matvec": (lambda jax, jnp, xs, v: xs @ jnp.ones(3), ("x",)),
    "sum": (lambda jax, jnp, xs, v: xs.sum(), ()),
}


@pytest.mark.parametrize("name", sorted(EXPLICIT))
def test_explicit_mesh_specs_as_jax(name):
    make, want = EXPLICIT[name]
    assert tuple(make(*_explicit("fgrad")).sharding.spec) == want


@pytest.mark.parametrize("name", sorted(EXPLICIT))
def test_explicit_stored_answers_are_jax(name):
    make, want = EXPLICIT[name]
    assert tuple(make(*_explicit("jax")).sharding.spec) == want


def _in_mesh(jax, mesh, make):
    with jax.set_mesh(mesh):
        return make()


@pytest.mark.parametrize("name", sorted(CASES))
def test_sharding_as_jax(name):
    make, want = CASES[name]
    got = make(*_setup("fgrad"))
    assert _describe(got.sharding) == want


@pytest.mark.parametrize("name", sorted(CASES))
def test_stored_answers_are_jax(name):
    make, want = CASES[name]
    assert _describe(make(*_setup("jax")).sharding) == want


def test_values_unchanged_and_compiled_shardings():
    jax, jnp, sh, mesh, s, x, x2 = _setup("fgrad")
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda a: a * 2)(x)), np.arange(8.0) * 2)
    compiled = jax.jit(lambda a: (a * 2, a.sum())).lower(x).compile()
    (ins,), kw = compiled.input_shardings
    assert kw == {} and _describe(ins) == ("named", ("x",))
    assert [_describe(o) for o in compiled.output_shardings] == [("named", ("x",)), ("named", ())]
    plain = jax.jit(lambda a: a * 2).lower(jnp.ones(3)).compile()
    assert _describe(plain.input_shardings[0][0]) == ("single",)
    assert _describe(plain.output_shardings) == ("single",)


def test_compiled_shardings_as_jax():
    jax = pytest.importorskip("jax")
    _, jnp, sh, mesh, s, x, x2 = _setup("jax")
    compiled = jax.jit(lambda a: (a * 2, a.sum())).lower(x).compile()
    assert [_describe(o) for o in compiled.output_shardings] == [("named", ("x",)), ("named", ())]
    assert _describe(compiled.input_shardings[0][0]) == ("named", ("x",))
