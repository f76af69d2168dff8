"""Error messages: each names the operation, the shapes/dtypes involved and the fix.

Shape mismatches in binary ops (eagerly and under every transform), grad of a non-scalar
output, grad with respect to integer inputs, Python control flow on a batched value under
vmap, a tracer used after its transform returned (the message says where it was created),
in-place assignment on an Array, and a primitive without a batching / differentiation rule.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.core.array import ShapedArray
from fgrad.core.primitive import PRIMITIVES, Primitive

THIS_FILE = __file__


def _line_of(fn_name: str) -> int:
    """Line number of ``def fn_name`` in this file (for "created at file:line" checks)."""
    with open(THIS_FILE) as f:
        for i, line in enumerate(f, 1):
            if re.match(rf"\s*def {fn_name}\b", line):
                return i
    raise LookupError(fn_name)


# --------------------------------------------------------------------------------------
# shape mismatches

BINARY_CASES = {
    "eager": lambda f, a, b: f(a, b),
    "grad": lambda f, a, b: fgrad.grad(lambda x: fnp.sum(f(x, b)))(a),
    "jvp": lambda f, a, b: fgrad.jvp(lambda x: f(x, b), (a,), (a,)),
    "vjp": lambda f, a, b: fgrad.vjp(lambda x: f(x, b), a),
    "vmap": lambda f, a, b: fgrad.vmap(lambda x: f(x, b))(fnp.stack([a, a])),
    "jit": lambda f, a, b: fgrad.jit(f)(a, b),
}


@pytest.mark.parametrize("where", list(BINARY_CASES))
@pytest.mark.parametrize("op,name", [(fnp.add, "add"), (fnp.multiply, "mul"), (lambda a, b: a - b, "sub"),
                                     (fnp.maximum, "max")])
def test_binary_shape_mismatch_names_op_and_shapes(op, name, where):
    a, b = fnp.ones((2, 3)), fnp.ones((4,))
    with pytest.raises(ValueError) as info:
        BINARY_CASES[where](op, a, b)
    msg = str(info.value)
    assert re.search(rf"\b{name}\b|{name}\w*:", msg), f"message does not name the op '{name}': {msg}"
    assert "(4,)" in msg and "3)" in msg, f"message does not show the shapes: {msg}"
    assert "broadcast" in msg


def test_matmul_shape_mismatch():
    with pytest.raises(ValueError) as info:
        fnp.ones((2, 3)) @ fnp.ones((4, 5))
    msg = str(info.value)
    assert "matmul" in msg and "(2, 3)" in msg and "(4, 5)" in msg


def test_reshape_size_mismatch_names_sizes():
    with pytest.raises(ValueError) as info:
        fnp.reshape(fnp.ones(6), (4, 2))
    msg = str(info.value)
    assert "reshape" in msg and "6" in msg and "(4, 2)" in msg.replace("(4,2)", "(4, 2)")


def test_axis_out_of_bounds_names_op_and_axis():
    with pytest.raises(ValueError) as info:
        fnp.sum(fnp.ones((3, 4)), axis=2)
    assert "sum" in str(info.value) and "2" in str(info.value)


# --------------------------------------------------------------------------------------
# grad misuse


def test_grad_of_nonscalar_output():
    with pytest.raises(TypeError) as info:
        fgrad.grad(lambda x: x * 2)(fnp.ones(3))
    msg = str(info.value)
    assert "scalar" in msg and "(3,)" in msg
    assert "sum" in msg or "jacrev" in msg or "vjp" in msg  # the fix


def test_grad_of_pytree_output():
    with pytest.raises(TypeError, match="scalar"):
        fgrad.grad(lambda x: (fnp.sum(x), fnp.sum(x)))(fnp.ones(3))


@pytest.mark.parametrize("x", [fnp.arange(3), 3, fnp.asarray([True, False])],
                         ids=["int-array", "int", "bool"])
def test_grad_wrt_integer_input(x):
    with pytest.raises(TypeError) as info:
        fgrad.grad(lambda x: fnp.sum(x * 2.0))(x)
    msg = str(info.value)
    assert re.search(r"int64|bool", msg), msg
    assert "float" in msg  # the fix: convert to float (or use argnums)


def test_jacobians_wrt_integer_input():
    for jac in (fgrad.jacfwd, fgrad.jacrev, fgrad.hessian):
        with pytest.raises(TypeError, match="int"):
            jac(lambda x: x * 2.0)(fnp.arange(3))


def test_grad_wrt_integer_pytree_leaf_names_dtype():
    with pytest.raises(TypeError, match="int"):
        fgrad.grad(lambda p: fnp.sum(p["w"] * 1.0))({"w": fnp.arange(2)})


def test_jvp_tangent_mismatch_messages():
    with pytest.raises(ValueError, match=r"\(3,\).*\(2,\)"):
        fgrad.jvp(fnp.sin, (fnp.ones(3),), (fnp.ones(2),))
    with pytest.raises(TypeError, match="float64.*float32"):
        fgrad.jvp(fnp.sin, (fnp.ones(3),), (fnp.ones(3, dtype=np.float32),))


def test_vjp_cotangent_shape_mismatch():
    _, f_vjp = fgrad.vjp(fnp.sin, fnp.ones(3))
    with pytest.raises(ValueError, match=r"\(4,\).*\(3,\)|\(3,\).*\(4,\)"):
        f_vjp(fnp.ones(4))


# --------------------------------------------------------------------------------------
# control flow on batched values


def branchy(x):
    if x > 0:  # a Python `if` on a traced value
        return x
    return -x


def test_python_if_on_batched_value_under_vmap():
    with pytest.raises(fgrad.ConcretizationError) as info:
        fgrad.vmap(branchy)(fnp.ones(3))
    msg = str(info.value)
    assert "vmap" in msg
    assert f"{THIS_FILE}:{_line_of('branchy') + 1}" in msg, f"message does not point at the `if`: {msg}"
    assert "where" in msg  # the fix


def test_python_conversion_of_batched_value_under_vmap():
    with pytest.raises(fgrad.ConcretizationError, match="vmap"):
        fgrad.vmap(lambda x: float(x) * 2)(fnp.ones(3))
    with pytest.raises(fgrad.ConcretizationError):
        fgrad.vmap(lambda x: int(fnp.argmax(x)))(fnp.ones((2, 3)))


def test_python_if_on_unbatched_value_under_vmap_is_fine():
    f = lambda x, flag: x * 2 if flag > 0 else x
    out = fgrad.vmap(f, in_axes=(0, None))(fnp.ones(3), fnp.asarray(1.0))
    np.testing.assert_allclose(np.asarray(out), 2 * np.ones(3))


def test_python_if_under_grad_of_vmap_names_vmap():
    with pytest.raises(fgrad.ConcretizationError, match="vmap"):
        fgrad.grad(lambda x: fnp.sum(fgrad.vmap(branchy)(x)))(fnp.ones(3))


# --------------------------------------------------------------------------------------
# leaked tracers

_LEAKED: list = []


def leaky_loss(x):
    _LEAKED.append(x * 2.0)
    return fnp.sum(x)


def leaky_map(x):
    _LEAKED.append(x)
    return x


@pytest.mark.parametrize("transform", ["grad", "jvp", "vmap", "vjp", "jacfwd", "jit"])
def test_leaked_tracer_error_names_origin(transform):
    _LEAKED.clear()
    x = fnp.ones(3)
    if transform == "grad":
        fgrad.grad(leaky_loss)(x)
    elif transform == "jvp":
        fgrad.jvp(leaky_loss, (x,), (x,))
    elif transform == "vjp":
        fgrad.vjp(leaky_loss, x)
    elif transform == "jacfwd":
        fgrad.jacfwd(leaky_map)(x)
    elif transform == "jit":
        fgrad.jit(leaky_loss)(x)
    else:
        fgrad.vmap(leaky_map)(x)
    leaked = _LEAKED[0]
    assert isinstance(leaked, fgrad.Tracer)
    with pytest.raises(fgrad.UnexpectedTracerError) as info:
        fnp.sin(leaked) + 1.0
    msg = str(info.value)
    assert "sin" in msg, msg
    accepted = {"grad": ("grad", "vjp"), "jacfwd": ("jacfwd", "jvp")}.get(transform, (transform,))
    assert any(t in msg for t in accepted), f"message does not name {transform}: {msg}"
    assert THIS_FILE in msg, f"message does not say where the transform was called: {msg}"
    fname = "leaky_map" if transform in ("vmap", "jacfwd") else "leaky_loss"
    assert fname in msg, f"message does not name the transformed function {fname}: {msg}"


def test_leaked_tracer_bool_conversion():
    _LEAKED.clear()
    fgrad.grad(leaky_loss)(fnp.ones(3))
    with pytest.raises((fgrad.UnexpectedTracerError, fgrad.ConcretizationError)):
        bool(fnp.sum(_LEAKED[0]) > 0)


# --------------------------------------------------------------------------------------
# immutability


def test_inplace_assignment_points_to_at():
    x = fnp.ones(3)
    with pytest.raises(TypeError) as info:
        x[0] = 2.0
    msg = str(info.value)
    assert "immutable" in msg and ".at[" in msg and ".set(" in msg
    np.testing.assert_array_equal(np.asarray(x), np.ones(3))


def test_inplace_assignment_on_tracer_points_to_at():
    def f(x):
        x[0] = 1.0
        return x

    with pytest.raises(TypeError, match=r"\.at\["):
        fgrad.grad(lambda x: fnp.sum(f(x)))(fnp.ones(3))
    with pytest.raises(TypeError, match=r"\.at\["):
        fgrad.vmap(f)(fnp.ones((2, 3)))


def test_inplace_operators_rebind_instead_of_mutating():
    x = fnp.ones(3)
    y = x
    y += 1.0
    np.testing.assert_array_equal(np.asarray(x), np.ones(3))
    np.testing.assert_array_equal(np.asarray(y), 2 * np.ones(3))


def test_numpy_view_is_read_only():
    x = fnp.ones(3)
    view = np.asarray(x)
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 5.0
    np.testing.assert_array_equal(np.asarray(x), np.ones(3))


# --------------------------------------------------------------------------------------
# primitives without rules


@pytest.fixture
def throwaway_primitive():
    made = []

    def make(name, **rules):
        full = f"_test_{name}"
        p = Primitive(full, lambda xp, x: x * 2, lambda x: ShapedArray(x.shape, x.dtype), family="test")
        for k, v in rules.items():
            setattr(p, k, v)
        made.append(full)
        return p

    yield make
    for n in made:
        PRIMITIVES.pop(n, None)


def test_primitive_without_batching_rule(throwaway_primitive):
    p = throwaway_primitive("nobatch")
    p.jvp = lambda primals, tangents: (p.bind(primals[0]), p.bind(tangents[0]))
    np.testing.assert_allclose(np.asarray(p.bind(fnp.ones(2))), 2 * np.ones(2))  # eager works
    with pytest.raises(NotImplementedError) as info:
        fgrad.vmap(p.bind)(fnp.ones((3, 2)))
    msg = str(info.value)
    assert "_test_nobatch" in msg and ("batching" in msg.lower() or "vmap" in msg)


def test_primitive_without_jvp_rule(throwaway_primitive):
    p = throwaway_primitive("nojvp")
    p.batch = lambda size, vals, dims: (p.bind(vals[0]), dims[0])
    with pytest.raises(NotImplementedError, match="_test_nojvp"):
        fgrad.grad(lambda x: fnp.sum(p.bind(x)))(fnp.ones(3))
    with pytest.raises(NotImplementedError, match="_test_nojvp"):
        fgrad.jvp(p.bind, (fnp.ones(3),), (fnp.ones(3),))
    # not differentiating it is fine
    np.testing.assert_allclose(np.asarray(fgrad.vmap(p.bind)(fnp.ones((2, 2)))), 2 * np.ones((2, 2)))


def test_linear_primitive_without_transpose(throwaway_primitive):
    p = throwaway_primitive("notranspose")
    p.jvp = lambda primals, tangents: (p.bind(primals[0]), p.bind(tangents[0]))
    p.batch = lambda size, vals, dims: (p.bind(vals[0]), dims[0])
    # forward mode works; reverse mode needs a transpose rule and says so
    np.testing.assert_allclose(np.asarray(fgrad.jvp(p.bind, (fnp.ones(2),), (fnp.ones(2),))[1]), [2.0, 2.0])
    with pytest.raises(NotImplementedError, match="_test_notranspose"):
        fgrad.grad(lambda x: fnp.sum(p.bind(x)))(fnp.ones(2))


def test_duplicate_primitive_name_rejected(throwaway_primitive):
    throwaway_primitive("dup")
    with pytest.raises(ValueError, match="_test_dup"):
        Primitive("_test_dup", lambda xp, x: x, lambda x: x)


# --------------------------------------------------------------------------------------
# vmap axis errors


def test_vmap_axis_errors():
    with pytest.raises(ValueError, match=r"size 3.*size 4|3.*4"):
        fgrad.vmap(fnp.add)(fnp.ones(3), fnp.ones(4))
    with pytest.raises(ValueError, match=r"axis 2.*\(3, 4\)"):
        fgrad.vmap(fnp.sin, in_axes=2)(fnp.ones((3, 4)))
    with pytest.raises(ValueError, match="in_axes"):
        fgrad.vmap(fnp.add, in_axes=(0, 0, 0))(fnp.ones(3), fnp.ones(3))
    with pytest.raises(ValueError):
        fgrad.vmap(fnp.sin)(fnp.asarray(1.0))  # rank 0 cannot be mapped
