"""Bad input to the functional face gets a clear error of the type JAX raises.

One table, ``CASES``: each row calls a public entry point wrongly.  Every call is written
once against a namespace ``m`` (``m.T`` = fgrad or jax, ``m.np`` = fgrad.numpy or
jax.numpy, ``m.lax``, ``m.random``, ``m.tree_util``, ``m.nn``), so the same call runs on
fgrad (always) and on JAX (when it is installed).  For fgrad the row gives the exception
type and a fragment of the message; for JAX the test checks that JAX raises too and that
``except <JAX's exception type>`` would also catch fgrad's.  Rows where fgrad deliberately
differs from JAX say why in ``jax``.

Below the table: the numbers of ``holomorphic=True`` and ``allow_int=True`` (stored JAX
values, analytic derivatives, finite differences, and a live JAX comparison), the
dynamic_slice family against stored JAX results, and behaviour that used to be silently
wrong (a fractional ``cond`` predicate).
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.lax
import fgrad.nn
import fgrad.numpy as fnp
import fgrad.random
import fgrad.tree_util

FGRAD = types.SimpleNamespace(T=fgrad, np=fnp, lax=fgrad.lax, random=fgrad.random,
                              tree_util=fgrad.tree_util, nn=fgrad.nn, key=fgrad.random.PRNGKey)


@pytest.fixture(scope="module")
def jax_ns():
    jax = pytest.importorskip("jax")
    pytest.importorskip("jax.nn")  # loads the submodule
    import jax.numpy as jnp

    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)  # fgrad keeps float64 like NumPy
    yield types.SimpleNamespace(T=jax, np=jnp, lax=jax.lax, random=jax.random,
                                tree_util=jax.tree_util, nn=jax.nn, key=jax.random.PRNGKey)
    jax.config.update("jax_enable_x64", before)


# -- helpers used by the table -----------------------------------------------------------


def _custom_jvp_bad_tangent(m, make_tangent):
    @m.T.custom_jvp
    def f(x):
        return m.np.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        return m.np.sin(primals[0]), make_tangent(tangents[0])

    x = m.np.arange(3, dtype=np.float32)
    return m.T.jvp(f, (x,), (x,))


def _custom_vjp_bad_bwd(m, bwd):
    @m.T.custom_vjp
    def f(x, y):
        return x * y

    f.defvjp(lambda x, y: (x * y, (x, y)), bwd)
    x = m.np.arange(3.0)
    return m.T.grad(lambda x: f(x, x).sum())(x)


def _branches(m):
    return [lambda x: x + 1.0, lambda x: x * 2.0]


@dataclass
class Case:
    id: str
    call: Callable[[Any], Any]
    exc: type
    fragment: str
    jax: str = "same"  # "same": JAX raises a matching type; otherwise why fgrad differs



CASES = [
    # ---- grad / value_and_grad / jacfwd / jacrev: JAX's dtype rules --------------------
    Case("grad-complex-output", lambda m: m.T.grad(lambda z: z ** 2)(1 + 2j),
         TypeError, "holomorphic=True"),
    Case("grad-holomorphic-real-input", lambda m: m.T.grad(lambda z: z ** 2, holomorphic=True)(
        np.float32(1.0)), TypeError, "holomorphic=True requires inputs with complex dtype, but got float32"),
    Case("grad-holomorphic-real-output", lambda m: m.T.grad(
        lambda z: (z * z).real, holomorphic=True)(1 + 2j), TypeError, "requires outputs with complex dtype"),
    Case("grad-int-input", lambda m: m.T.grad(lambda x: x * 2.0)(np.int32(3)),
         TypeError, "but got int32. If you want to use Boolean- or integer-valued inputs, use vjp or set "
                    "allow_int"),
    Case("grad-int-output", lambda m: m.T.grad(lambda x: (x > 0).astype(np.int32))(1.0),
         TypeError, "real-valued outputs"),
    Case("grad-nonscalar-output", lambda m: m.T.grad(lambda x: x * 2.0)(m.np.ones(3)),
         TypeError, "Gradient only defined for scalar-output functions. Output"),
    Case("grad-str-input", lambda m: m.T.grad(lambda x: x)("abc"), TypeError, "number and bool dtypes"),
    Case("grad-argnums-out-of-range", lambda m: m.T.grad(lambda x, y: x * y, argnums=3)(1.0, 2.0),
         TypeError, "argnums=3"),
    Case("grad-not-callable", lambda m: m.T.grad(3), TypeError, "callable"),
    Case("value_and_grad-complex-output", lambda m: m.T.value_and_grad(lambda z: z * 1j)(1.0),
         TypeError, "real-valued outputs"),
    Case("jacfwd-complex-input", lambda m: m.T.jacfwd(lambda z: z ** 2)(m.np.asarray([1 + 2j])),
         TypeError, "jacfwd requires real-valued inputs"),
    Case("jacfwd-int-input", lambda m: m.T.jacfwd(lambda x: x * 2.0)(m.np.asarray([1, 2])),
         TypeError, "jacfwd requires real-valued inputs"),
    Case("jacrev-complex-output", lambda m: m.T.jacrev(lambda x: x * (1 + 2j))(m.np.asarray([1.0, 2.0])),
         TypeError, "jacrev requires real-valued outputs"),
    Case("jacfwd-holomorphic-real-input", lambda m: m.T.jacfwd(lambda z: z, holomorphic=True)(
        m.np.ones(2)), TypeError, "holomorphic=True requires inputs with complex dtype"),
    Case("jacrev-holomorphic-real-input", lambda m: m.T.jacrev(lambda z: z, holomorphic=True)(
        m.np.ones(2)), TypeError, "holomorphic=True requires inputs with complex dtype"),
    Case("hessian-holomorphic-real-output", lambda m: m.T.hessian(
        lambda z: (z ** 3).sum().real, holomorphic=True)(m.np.asarray([1 + 2j])),
         TypeError, "requires outputs with complex dtype"),
    # ---- custom rules -------------------------------------------------------------------
    Case("custom_jvp-tangent-shape", lambda m: _custom_jvp_bad_tangent(m, lambda t: t[:2]),
         TypeError, "Expected float32[3] (tangent type of float32[3]) but got float32[2]"),
    Case("custom_jvp-tangent-dtype", lambda m: _custom_jvp_bad_tangent(m, lambda t: t.astype(np.float64)),
         TypeError, "but got float64[3]"),
    Case("custom_vjp-bwd-shape", lambda m: _custom_vjp_bad_bwd(m, lambda r, g: (g[:2], g)),
         ValueError, "produced an output of type float64[2] corresponding to an input of type float64[3]"),
    Case("custom_vjp-bwd-count", lambda m: _custom_vjp_bad_bwd(m, lambda r, g: (g,)),
         TypeError, "one cotangent per differentiable argument"),
    # ---- lax slicing ----------------------------------------------------------------------
    Case("slice-limit-out-of-range", lambda m: m.T.jit(lambda x: m.lax.slice(x, (2,), (12,)))(
        m.np.arange(10.0)), TypeError, "limit_indices (12,) for operand shape (10,)"),
    Case("slice-negative-start", lambda m: m.T.jit(lambda x: m.lax.slice(x, (-1,), (3,)))(
        m.np.arange(10.0)), TypeError, "start_indices"),
    Case("slice-2d-out-of-range", lambda m: m.lax.slice(m.np.ones((3, 4)), (0, 0), (3, 5)),
         TypeError, "operand shape (3, 4)"),
    Case("slice-start-after-limit", lambda m: m.T.jit(lambda x: m.lax.slice(x, (5,), (3,)))(
        m.np.arange(10.0)), TypeError, "greater than or equal to"),
    Case("slice-wrong-rank", lambda m: m.lax.slice(m.np.arange(10.0), (1, 2), (3, 4)),
         TypeError, "number of dimensions", jax="JAX fails inside safe_map with a ValueError"),
    Case("slice-zero-stride", lambda m: m.lax.slice(m.np.arange(10.0), (1,), (3,), (0,)),
         TypeError, "strides must be positive", jax="JAX fails with ZeroDivisionError"),
    Case("slice_in_dim-out-of-range", lambda m: m.lax.slice_in_dim(m.np.arange(10.0), 2, 12),
         TypeError, "limit_indices (12,)"),
    Case("dynamic_slice-size-too-big", lambda m: m.lax.dynamic_slice(m.np.arange(10.0), (0,), (12,)),
         TypeError, "(12,) for operand shape (10,)"),
    Case("dynamic_slice-wrong-rank", lambda m: m.lax.dynamic_slice(m.np.arange(10.0), (0, 1), (2,)),
         ValueError, "number of operand dimensions"),
    Case("dynamic_slice-float-index", lambda m: m.lax.dynamic_slice(m.np.arange(10.0), (1.5,), (2,)),
         TypeError, "integers"),
    Case("dynamic_update_slice-too-big", lambda m: m.lax.dynamic_update_slice(
        m.np.arange(10.0), m.np.ones(12), (0,)), TypeError, "update shape (12,) for operand shape (10,)"),
    # ---- control flow -----------------------------------------------------------------------
    Case("switch-float-index", lambda m: m.lax.switch(1.0, _branches(m), 3.0), TypeError, "integer"),
    Case("switch-bool-index", lambda m: m.lax.switch(True, _branches(m), 3.0), TypeError, "bool"),
    Case("switch-nonscalar-index", lambda m: m.lax.switch(m.np.asarray([0, 1]), _branches(m), 3.0),
         TypeError, "scalar"),
    Case("switch-no-branches", lambda m: m.lax.switch(0, [], 3.0), ValueError, "mpty branch sequence"),
    Case("cond-nonscalar-predicate", lambda m: m.lax.cond(m.np.asarray([True, False]), *_branches(m), 3.0),
         TypeError, "shape (2,)"),
    Case("cond-complex-predicate", lambda m: m.lax.cond(m.np.asarray(1 + 1j), *_branches(m), 3.0),
         TypeError, "complex"),
    Case("scan-carry-structure", lambda m: m.lax.scan(lambda c, x: ((c, c), x), 0.0, m.np.arange(3.0)),
         TypeError, "scan body function carry input and carry output must have the same pytree structure"),
    Case("scan-carry-shape", lambda m: m.lax.scan(lambda c, x: (m.np.stack([c, c]), x), 0.0,
                                                   m.np.arange(3.0)), TypeError, "float64[2]"),
    Case("scan-xs-lengths", lambda m: m.lax.scan(lambda c, x: (c, x), 0.0,
                                                  (m.np.arange(3.0), m.np.arange(2.0))), ValueError, "3"),
    Case("while-cond-not-bool", lambda m: m.lax.while_loop(lambda c: c, lambda c: c - 1.0, 3.0),
         TypeError, "boolean scalar"),
    Case("while-cond-not-scalar", lambda m: m.lax.while_loop(
        lambda c: c > 0, lambda c: c - 1.0, m.np.asarray([3.0, 2.0])), TypeError, "bool[2]"),
    Case("fori-mixed-bounds", lambda m: m.lax.fori_loop(0, 3.5, lambda i, c: c + i, 0.0), TypeError, "upper"),
    Case("fori-float-bounds", lambda m: m.lax.fori_loop(0.0, 3.0, lambda i, c: c + i, 0.0), TypeError,
         "lower bound must be a scalar integer",
         jax="JAX runs a float loop variable; fgrad requires integer bounds (use while_loop)"),
    # ---- jit ----------------------------------------------------------------------------------
    Case("jit-static_argnums-out-of-range", lambda m: m.T.jit(lambda x, y: x + y, static_argnums=(5,)),
         ValueError, "static_argnums=(5,), but only accepts 2 positional arguments"),
    Case("jit-static_argnums-negative", lambda m: m.T.jit(lambda x, y: x + y, static_argnums=(-3,)),
         ValueError, "only accepts 2 positional arguments"),
    Case("jit-static_argnames-unknown", lambda m: m.T.jit(lambda x, y: x + y, static_argnames=("z",)),
         ValueError, "invalid argnames {'z'}"),
    Case("jit-donate_argnums-out-of-range", lambda m: m.T.jit(lambda x, y: x + y, donate_argnums=(2,)),
         ValueError, "donate_argnums=(2,)"),
    Case("jit-static-and-donated", lambda m: m.T.jit(lambda x, y: x + y, static_argnums=(0,),
                                                     donate_argnums=(0,)), ValueError, "intersect"),
    Case("jit-not-callable", lambda m: m.T.jit(3), TypeError, "callable"),
    Case("jit-string-argument", lambda m: m.T.jit(lambda x, y: x)(1.0, "a"), TypeError, "static_argnums"),
    # ---- vmap ---------------------------------------------------------------------------------
    Case("vmap-inconsistent-sizes", lambda m: m.T.vmap(lambda x, y: x + y)(
        m.np.ones((2, 3)), m.np.ones((4, 3))),
         ValueError, "vmap got inconsistent sizes for array axes to be mapped"),
    Case("vmap-axis-size-mismatch", lambda m: m.T.vmap(lambda x: x, axis_size=3)(m.np.ones((2, 3))),
         ValueError, "inconsistent sizes"),
    Case("vmap-axis-out-of-range", lambda m: m.T.vmap(lambda x: x, in_axes=2)(m.np.ones((2, 3))),
         ValueError, "axis 2"),
    Case("vmap-scalar-argument", lambda m: m.T.vmap(lambda x: x)(1.0), ValueError,
         "rank should be at least 1"),
    Case("vmap-in_axes-length", lambda m: m.T.vmap(lambda x, y: x, in_axes=(0, 0, 0))(
        m.np.ones(2), m.np.ones(2)),
         ValueError, "len(in_axes)=3"),
    Case("vmap-in_axes-float", lambda m: m.T.vmap(lambda x: x, in_axes=0.5)(m.np.ones(2)), TypeError, "0.5"),
    Case("vmap-out_axes-none-but-mapped", lambda m: m.T.vmap(lambda x: x, out_axes=None)(m.np.ones(2)),
         ValueError, "out_axes"),
    Case("vmap-not-callable", lambda m: m.T.vmap(3)(m.np.ones(2)), TypeError, "callable"),
    # ---- jvp / vjp / linearize -------------------------------------------------------------
    Case("jvp-structure", lambda m: m.T.jvp(lambda x, y: x + y, (1.0, 2.0), (1.0,)), TypeError, "structure"),
    Case("jvp-shape", lambda m: m.T.jvp(m.np.sin, (m.np.ones((2, 3)),), (m.np.ones(4),)), ValueError, "(4,)"),
    Case("jvp-dtype", lambda m: m.T.jvp(m.np.sin, (m.np.ones(3, dtype=np.float32),), (m.np.ones(3),)),
         TypeError, "float64"),
    Case("jvp-float-tangent-for-int-primal", lambda m: m.T.jvp(
        lambda x: x * 2, (m.np.ones(3, dtype=np.int64),), (m.np.ones(3),)), TypeError, "int64"),
    Case("jvp-not-tuples", lambda m: m.T.jvp(m.np.sin, m.np.ones(3), m.np.ones(3)), TypeError,
         "tuples or lists"),
    Case("vjp-cotangent-shape", lambda m: m.T.vjp(m.np.sin, m.np.ones((2, 3)))[1](m.np.ones(4)),
         ValueError, "(2, 3)"),
    Case("vjp-cotangent-dtype", lambda m: m.T.vjp(m.np.sin, m.np.ones(3, dtype=np.float32))[1](m.np.ones(3)),
         ValueError, "float32[3]"),
    Case("linearize-tangent-shape", lambda m: m.T.linearize(m.np.sin, m.np.ones((2, 3)))[1](m.np.ones(4)),
         ValueError, "float64[2,3]"),
    # ---- array creation -------------------------------------------------------------------
    Case("asarray-str", lambda m: m.np.asarray("abc"), TypeError, "<U3"),
    Case("array-str-list", lambda m: m.np.array(["a", "bc"]), TypeError, "number and bool dtypes"),
    Case("asarray-object-array", lambda m: m.np.asarray(np.array([1, None], dtype=object)), TypeError,
         "object"),
    Case("asarray-str-ndarray", lambda m: m.np.asarray(np.array(["a"])), TypeError, "number and bool dtypes"),
    Case("vmap-str-argument", lambda m: m.T.vmap(lambda x: x)(np.array(["a", "b"])), TypeError, "<U1"),
    Case("jvp-str-argument", lambda m: m.T.jvp(lambda x: x, (np.array(["a"]),), (np.array(["a"]),)),
         TypeError, "<U1"),
    Case("ones-float-shape", lambda m: m.np.ones((2.5,)), TypeError, "2.5"),
    Case("zeros-str-dtype", lambda m: m.np.zeros(3, dtype=str), TypeError, "dtype"),
    # ---- fgrad.numpy shapes and axes ----------------------------------------------------------
    Case("sum-axis-out-of-range", lambda m: m.np.sum(m.np.ones((2, 3)), axis=2), np.exceptions.AxisError,
         "axis 2 is out of bounds for an array of dimension 2"),
    Case("moveaxis-out-of-range", lambda m: m.np.moveaxis(m.np.ones((2, 3)), 2, 0), np.exceptions.AxisError,
         "axis 2"),
    # fgrad's error is both TypeError (JAX's) and ValueError (NumPy's)
    Case("reshape-size", lambda m: m.np.reshape(m.np.ones(6), (4, 2)), ValueError, "(4, 2)"),
    # contracted axes of different lengths: TypeError (JAX's, from dot_general) and ValueError
    # (NumPy's) at once (ContractionShapeError)
    Case("matmul-shapes", lambda m: m.np.ones((2, 3)) @ m.np.ones((4, 5)), ValueError, "(2, 3) @ (4, 5)"),
    Case("matmul-shapes-typeerror", lambda m: m.np.matmul(m.np.ones((2, 3)), m.np.ones((2, 3))), TypeError,
         "(2, 3) @ (2, 3)"),
    Case("dot-shapes", lambda m: m.np.dot(m.np.ones(2), m.np.ones(3)), TypeError, "not aligned"),
    Case("vdot-shapes", lambda m: m.np.vdot(m.np.ones(2), m.np.ones(3)), TypeError, "different sizes"),
    Case("inner-shapes", lambda m: m.np.inner(m.np.ones(2), m.np.ones(3)), TypeError, "not aligned"),
    Case("tensordot-shapes", lambda m: m.np.tensordot(m.np.ones((2, 3)), m.np.ones((2, 3)), axes=([0], [1])),
         TypeError, "shape mismatch for sum"),
    Case("dot_general-shapes", lambda m: m.lax.dot_general(m.np.ones((2, 3)), m.np.ones((2, 3)),
                                                          (((1,), (0,)), ((), ()))),
         TypeError, "contracting dimensions must have equal sizes"),
    Case("concatenate-shapes", lambda m: m.np.concatenate([m.np.ones((2, 3)), m.np.ones((2, 4))]),
         ValueError, "concatenate", jax="JAX raises TypeError; fgrad raises NumPy's ValueError"),
    Case("stack-shapes", lambda m: m.np.stack([m.np.ones(2), m.np.ones(3)]), ValueError, "same shape"),
    Case("squeeze-not-one", lambda m: m.np.squeeze(m.np.ones((2, 3)), 0), ValueError, "squeeze"),
    Case("broadcast_to", lambda m: m.np.broadcast_to(m.np.ones(3), (4,)), ValueError, "(4,)"),
    Case("split-unequal", lambda m: m.np.split(m.np.ones(5), 2), ValueError, "equal division"),
    Case("mean-repeated-axis", lambda m: m.np.mean(m.np.ones(3), axis=(0, 0)), ValueError, "repeated axis"),
    Case("einsum-sizes", lambda m: m.np.einsum("ij,jk->ik", m.np.ones((2, 3)), m.np.ones((4, 5))),
         ValueError, "label 'j'"),
    Case("inv-not-square", lambda m: m.np.linalg.inv(m.np.ones((2, 3))), ValueError, "(2, 3)"),
    # ---- fgrad.random ----------------------------------------------------------------------------
    Case("random-key-shape", lambda m: m.random.normal(m.np.ones(3, dtype=np.uint32), (2,)), TypeError,
         "key"),
    Case("random-key-dtype", lambda m: m.random.normal(m.np.ones(2), (2,)), TypeError, "float64"),
    Case("random-float-shape", lambda m: m.random.normal(m.key(0), (2.5,)), TypeError, "(2.5,)"),
    Case("random-negative-shape", lambda m: m.random.normal(m.key(0), (-1,)), ValueError, "(-1,)",
         jax="JAX fails inside XLA (MLIRError)"),
    Case("random-split-float", lambda m: m.random.split(m.key(0), 2.5), TypeError, "2.5"),
    Case("random-normal-int-dtype", lambda m: m.random.normal(m.key(0), (2,), dtype=np.int32),
         ValueError, "float dtype"),
    Case("random-randint-float-dtype", lambda m: m.random.randint(m.key(0), (2,), 0, 5, dtype=np.float32),
         TypeError, "integer dtype"),
    Case("random-choice-too-many", lambda m: m.random.choice(m.key(0), 3, (5,), replace=False), ValueError,
         "5"),
    Case("random-choice-p-shape", lambda m: m.random.choice(m.key(0), 3, (2,), p=m.np.ones(4) / 4),
         ValueError, "(4,)"),
    Case("random-permutation-axis", lambda m: m.random.permutation(m.key(0), m.np.ones((2, 3)), axis=2),
         np.exceptions.AxisError, "axis 2"),
    Case("random-categorical-axis", lambda m: m.random.categorical(m.key(0), m.np.ones((2, 3)), axis=2),
         np.exceptions.AxisError, "axis 2"),
    Case("random-float-seed", lambda m: m.random.PRNGKey(1.5), TypeError, "seed"),
    # ---- dtype refusals of the generated faces (op specs' numpy_refuses) -----------------------
    Case("hypot-complex", lambda m: m.np.hypot(m.np.asarray([1j]), 1.0), ValueError, "complex-valued"),
    Case("signbit-complex", lambda m: m.np.signbit(m.np.asarray([1j])), ValueError, "not well defined"),
    Case("sign-bool", lambda m: m.np.sign(m.np.asarray([True])), TypeError, "dtype bool"),
    Case("sign-bool-jit", lambda m: m.T.jit(m.np.sign)(m.np.asarray([True])), TypeError, "dtype bool"),
    # ---- tree_util, nn ------------------------------------------------------------------------
    Case("tree_map-structures", lambda m: m.tree_util.tree_map(lambda a, b: a + b, (1, 2), (1,)), ValueError,
         "tree_map"),
    Case("tree_unflatten-too-few", lambda m: m.tree_util.tree_unflatten(
        m.tree_util.tree_structure((1, 2)), [1]),
         ValueError, "expected 2"),
    Case("softmax-axis", lambda m: m.nn.softmax(m.np.ones((2, 3)), axis=2), ValueError, "axis 2"),
    Case("one_hot-negative-classes", lambda m: m.nn.one_hot(m.np.asarray([1]), -3), TypeError, "-3"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fgrad_raises_clear_error(case):
    with pytest.raises(case.exc) as info:
        case.call(FGRAD)
    assert case.fragment in str(info.value), f"{case.id}: message lacks {case.fragment!r}: {info.value}"


@pytest.mark.parametrize("case", [c for c in CASES if c.jax == "same"],
                         ids=[c.id for c in CASES if c.jax == "same"])
def test_jax_raises_a_type_that_catches_fgrads(case, jax_ns):
    """Code written for JAX (``except <JAX's type>``) also catches fgrad's error."""
    with pytest.raises(Exception) as jax_info:
        case.call(jax_ns)
    with pytest.raises(case.exc) as ours:
        case.call(FGRAD)
    jax_type = type(jax_info.value)
    assert isinstance(ours.value, jax_type), (
        f"{case.id}: JAX raises {jax_type.__name__} ({jax_info.value}), fgrad {type(ours.value).__name__}")


def test_axis_errors_are_numpy_axis_errors():
    """``except IndexError`` (NumPy's AxisError base) and ``except ValueError`` (JAX) both work."""
    for exc in (IndexError, ValueError, np.exceptions.AxisError):
        with pytest.raises(exc):
            fnp.sum(fnp.ones((2, 3)), axis=-3)


# -- holomorphic=True: the complex derivative f'(z) --------------------------------------

Z = np.array([1 + 2j, 3 - 1j, -0.5 + 0.25j])
# stored from jax 0.10 (x64): jax.grad(jnp.sin, holomorphic=True)(1+2j) etc.
JAX_GRAD_SIN_1_2J = 2.0327230070196656 - 3.0518977991518j
JAX_VALUE_AND_GRAD_Z3 = (-11 - 2j, -9 + 12j)


def _fd_complex(f, z, h=1e-6):
    """Central difference along the real axis: equals f'(z) for a holomorphic f."""
    return (f(z + h) - f(z - h)) / (2 * h)


def test_grad_holomorphic_matches_jax_numbers():
    g = fgrad.grad(lambda z: z ** 2, holomorphic=True)(1 + 2j)
    assert complex(g) == 2 + 4j
    g = fgrad.grad(fnp.sin, holomorphic=True)(1 + 2j)
    np.testing.assert_allclose(complex(g), JAX_GRAD_SIN_1_2J, rtol=1e-14)
    v, g = fgrad.value_and_grad(lambda z: z ** 3, holomorphic=True)(1 + 2j)
    np.testing.assert_allclose([complex(v), complex(g)], JAX_VALUE_AND_GRAD_Z3, rtol=1e-14)


@pytest.mark.parametrize("f,df", [
    (lambda z: fnp.exp(z) * z, lambda z: np.exp(z) * (z + 1)),
    (lambda z: 1 / (z + 3), lambda z: -1 / (z + 3) ** 2),
    (lambda z: fnp.log(z) * fnp.cos(z), lambda z: np.cos(z) / z - np.log(z) * np.sin(z)),
], ids=["z-exp-z", "reciprocal", "log-cos"])
def test_grad_holomorphic_is_complex_derivative(f, df):
    for z in Z:
        g = complex(fgrad.grad(f, holomorphic=True)(complex(z)))
        np.testing.assert_allclose(g, df(z), rtol=1e-12)
        np.testing.assert_allclose(g, _fd_complex(lambda w: complex(f(w)), complex(z)), rtol=1e-6)


def _vec_fun(z):
    return fnp.stack([z[0] * z[1], fnp.sin(z[0]), z[2] ** 3])


def _vec_jacobian(z):
    return np.array([[z[1], z[0], 0], [np.cos(z[0]), 0, 0], [0, 0, 3 * z[2] ** 2]])


@pytest.mark.parametrize("jac", [fgrad.jacfwd, fgrad.jacrev], ids=["jacfwd", "jacrev"])
def test_jacobians_holomorphic(jac):
    got = np.asarray(jac(_vec_fun, holomorphic=True)(fnp.asarray(Z)))
    assert got.dtype == np.complex128
    np.testing.assert_allclose(got, _vec_jacobian(Z), rtol=1e-13)
    # stored from JAX: jacfwd/jacrev(lambda z: z**2, holomorphic=True)([1+2j, 3-1j])
    np.testing.assert_array_equal(np.asarray(jac(lambda z: z ** 2, holomorphic=True)(fnp.asarray(Z[:2]))),
                                  np.diag([2 + 4j, 6 - 2j]))


def test_hessian_holomorphic():
    h = np.asarray(fgrad.hessian(lambda z: (z ** 3).sum(), holomorphic=True)(fnp.asarray(Z)))
    np.testing.assert_allclose(h, np.diag(6 * Z), rtol=1e-13)


def test_non_holomorphic_complex_conventions_match_jax():
    """Without holomorphic, a real-valued function of complex inputs is fine (JAX's
    convention: grad of |z|^2 is 2*conj(z)); jacfwd R->C is fine too."""
    g = fgrad.grad(lambda z: (z * fnp.conj(z)).real)(1 + 2j)
    assert complex(g) == 2 - 4j  # stored from JAX
    j = np.asarray(fgrad.jacrev(lambda z: (z * z).real)(fnp.asarray(Z[:2])))
    np.testing.assert_array_equal(j, np.diag([2 + 4j, 6 - 2j]))  # stored from JAX
    j = np.asarray(fgrad.jacfwd(lambda x: x * (1 + 2j))(fnp.asarray([1.0, 2.0])))
    np.testing.assert_array_equal(j, np.diag([1 + 2j, 1 + 2j]))


def test_holomorphic_live_against_jax(jax_ns):
    jnp = jax_ns.np
    for f_name in ("sin",):
        ours = fgrad.grad(getattr(fnp, f_name), holomorphic=True)(complex(Z[1]))
        theirs = jax_ns.T.grad(getattr(jnp, f_name), holomorphic=True)(complex(Z[1]))
        np.testing.assert_allclose(complex(ours), complex(theirs), rtol=1e-13)
    for name in ("jacfwd", "jacrev"):
        ours = getattr(fgrad, name)(_vec_fun, holomorphic=True)(fnp.asarray(Z))
        theirs = getattr(jax_ns.T, name)(
            lambda z: jnp.stack([z[0] * z[1], jnp.sin(z[0]), z[2] ** 3]), holomorphic=True)(jnp.asarray(Z))
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-13)


# -- allow_int ------------------------------------------------------------------------------


def test_allow_int_gives_zero_gradients_for_integer_inputs():
    f = lambda x, y: (x * y).sum()  # noqa: E731
    gx, gy = fgrad.grad(f, argnums=(0, 1), allow_int=True)(fnp.arange(3, dtype=np.int32), fnp.ones(3))
    # JAX returns float0 zeros for integer inputs; fgrad has no float0 and returns zeros of
    # the input's own dtype
    assert gx.dtype == np.int32 and not np.asarray(gx).any()
    np.testing.assert_array_equal(np.asarray(gy), [0.0, 1.0, 2.0])
    j = fgrad.jacrev(lambda x, y: x * y, argnums=1, allow_int=True)(fnp.arange(2), fnp.ones(2))
    np.testing.assert_array_equal(np.asarray(j), np.diag([0.0, 1.0]))


# -- the dynamic_slice family: JAX's clamping, stored results -------------------------------

M = np.arange(12.0).reshape(3, 4)


@pytest.mark.parametrize("call,expected", [
    (lambda lax, x: lax.dynamic_slice(x, (8,), (4,)), [6.0, 7.0, 8.0, 9.0]),
    (lambda lax, x: lax.dynamic_slice(x, (-3,), (2,)), [7.0, 8.0]),
    (lambda lax, x: lax.dynamic_slice_in_dim(x, 20, 3), [7.0, 8.0, 9.0]),
    (lambda lax, x: lax.dynamic_index_in_dim(x, 12, keepdims=False), 9.0),
    (lambda lax, x: lax.dynamic_update_slice(x, x[:4] * 0, (8,)), [0, 1, 2, 3, 4, 5, 0, 0, 0, 0]),
], ids=["slice-end", "slice-negative", "in-dim", "index", "update-end"])
def test_dynamic_slices_clamp_like_jax(call, expected):
    x = fnp.arange(10.0)
    np.testing.assert_array_equal(np.asarray(call(fgrad.lax, x)), expected)
    traced = fgrad.jit(lambda x: call(fgrad.lax, x))(x)  # under jit the starts are still static
    np.testing.assert_array_equal(np.asarray(traced), expected)


def test_dynamic_slice_traced_starts_and_gradients():
    lax = fgrad.lax
    f = fgrad.jit(lambda i, j: lax.dynamic_slice(fnp.asarray(M), (i, j), (2, 2)))
    np.testing.assert_array_equal(np.asarray(f(2, -1)), [[6.0, 7.0], [10.0, 11.0]])  # stored from JAX
    g = fgrad.jit(lambda i, j: lax.dynamic_update_slice(fnp.asarray(M), fnp.zeros((2, 2)), (i, j)))
    np.testing.assert_array_equal(np.asarray(g(2, -1)), [[0, 1, 2, 3], [4, 5, 0, 0], [8, 9, 0, 0]])
    vm = fgrad.vmap(lambda i: lax.dynamic_slice(fnp.arange(10.0), (i,), (3,)))(fnp.asarray([0, 5, 9]))
    np.testing.assert_array_equal(np.asarray(vm), [[0, 1, 2], [5, 6, 7], [7, 8, 9]])
    dx = fgrad.grad(lambda x, i: (lax.dynamic_slice(x, (i,), (3,)) ** 2).sum())(fnp.arange(10.0), 8)
    np.testing.assert_array_equal(np.asarray(dx), [0, 0, 0, 0, 0, 0, 0, 14, 16, 18])
    du = fgrad.grad(lambda u, i: (lax.dynamic_update_slice(fnp.asarray(M), u, (i, 1)) ** 2).sum())(
        fnp.full((2, 2), 3.0), 5)
    np.testing.assert_array_equal(np.asarray(du), np.full((2, 2), 6.0))


def test_dynamic_slice_live_against_jax(jax_ns):
    ours = FGRAD.T.jit(lambda i, j: FGRAD.lax.dynamic_slice(FGRAD.np.asarray(M), (i, j), (2, 3)))
    theirs = jax_ns.T.jit(lambda i, j: jax_ns.lax.dynamic_slice(jax_ns.np.asarray(M), (i, j), (2, 3)))
    for i, j in [(0, 0), (2, 3), (-1, -2), (-7, 9), (1, 1)]:
        np.testing.assert_array_equal(np.asarray(ours(i, j)), np.asarray(theirs(i, j)))


# -- silently wrong before ----------------------------------------------------------------


@pytest.mark.parametrize("wrap", ["eager", "jit", "vmap"])
def test_cond_fractional_predicate_is_true(wrap):
    """A non-zero number is true (JAX): cond(0.5, ...) used to truncate to 0 and run false_fun."""
    f = lambda p: fgrad.lax.cond(p, lambda x: x + 1, lambda x: x - 1, 1.0)  # noqa: E731
    if wrap == "eager":
        assert float(f(0.5)) == 2.0 and float(f(0.0)) == 0.0
    elif wrap == "jit":
        assert float(fgrad.jit(f)(0.5)) == 2.0
    else:
        got = fgrad.vmap(f)(fnp.asarray([0.5, 0.0, -0.25]))
        np.testing.assert_array_equal(np.asarray(got), [2.0, 0.0, 2.0])


def test_grad_of_complex_output_no_longer_returns_a_number():
    with pytest.raises(TypeError, match="holomorphic"):
        fgrad.grad(lambda z: z ** 2)(1 + 2j)
    with pytest.raises(TypeError, match="jacfwd requires real-valued inputs"):
        fgrad.jacfwd(lambda z: (z * z).real)(fnp.asarray([1 + 2j]))  # used to drop the imaginary part


# -- properties: never a silently clamped static slice, always JAX's clamped dynamic one ----


@given(start=st.integers(-6, 8), limit=st.integers(-6, 8), stride=st.integers(0, 3))
@settings(max_examples=30)
def test_lax_slice_raises_exactly_when_out_of_range(start, limit, stride):
    x = np.arange(6.0)
    valid = 0 <= start <= limit <= 6 and stride >= 1
    if not valid:
        with pytest.raises(TypeError, match="slice"):
            fgrad.lax.slice(fnp.asarray(x), (start,), (limit,), (stride,))
    else:
        got = fgrad.lax.slice(fnp.asarray(x), (start,), (limit,), (stride,))
        np.testing.assert_array_equal(np.asarray(got), x[start:limit:stride])


@given(i=st.integers(-12, 12), j=st.integers(-12, 12), rows=st.integers(0, 3), cols=st.integers(0, 4))
@settings(max_examples=30)
def test_dynamic_slice_matches_clamped_reference(i, j, rows, cols):
    def ref_start(s, n, k):
        s = s + n if s < 0 else s
        return min(max(s, 0), n - k)

    a, b = ref_start(i, 3, rows), ref_start(j, 4, cols)
    expected = M[a:a + rows, b:b + cols]
    eager = fgrad.lax.dynamic_slice(fnp.asarray(M), (i, j), (rows, cols))
    traced = fgrad.jit(lambda p, q: fgrad.lax.dynamic_slice(fnp.asarray(M), (p, q), (rows, cols)))(i, j)
    np.testing.assert_array_equal(np.asarray(eager), expected)
    np.testing.assert_array_equal(np.asarray(traced), expected)
