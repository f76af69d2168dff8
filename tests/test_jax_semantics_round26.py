"""JAX semantics where fgrad differed (round 26: the joint type of joined and selected
arrays, `arange`'s dtype, the new fuzz runs). Each test runs the same program on fgrad and
-- when installed -- on JAX (x64 mode, fgrad's default), and compares both with the answer
stored here (taken from JAX 0.10.2 by running the same snippet). See docs/jax-semantics.md
"Round 26"."""

from __future__ import annotations

import numpy as np
import pytest

from _peers import jax_faces

FACES = jax_faces()
face = pytest.mark.parametrize("name,jax,jnp,lax", FACES, ids=[f[0] for f in FACES])
COND = np.array([True, False])


# -- the joint type of joined/selected arrays: JAX's promote_dtypes, weak type included --------


def _u64(jnp):
    return jnp.asarray(np.array([8, 4], np.uint64))


def _i64(jnp):
    return jnp.asarray(np.array([4, -8], np.int64))


def _i32(jnp):
    return jnp.asarray(np.array([1, 2], np.int32))


JOINS = {  # name -> (program of (jax, jnp), JAX 0.10.2's dtype and weak type)
    "where_u64_i64": (lambda jax, jnp: jnp.where(COND, _u64(jnp), _i64(jnp)), ("float64", True)),
    "where_u64_i64_jit": (lambda jax, jnp: jax.jit(lambda a, b: jnp.where(COND, a, b))(_u64(jnp), _i64(jnp)),
                          ("float64", True)),
    "concatenate_u64_i64": (lambda jax, jnp: jnp.concatenate([_u64(jnp), _i64(jnp)]), ("float64", True)),
    "concatenate_u64_i64_jit": (lambda jax, jnp: jax.jit(lambda a, b: jnp.concatenate([a, b]))(
        _u64(jnp), _i64(jnp)), ("float64", True)),
    "stack_u64_i64": (lambda jax, jnp: jnp.stack([_u64(jnp), _i64(jnp)]), ("float64", True)),
    "hstack_u64_i64": (lambda jax, jnp: jnp.hstack([_u64(jnp), _i64(jnp)]), ("float64", True)),
    "vstack_u64_i64": (lambda jax, jnp: jnp.vstack([_u64(jnp), _i64(jnp)]), ("float64", True)),
    "column_stack_u64_i64": (lambda jax, jnp: jnp.column_stack([_u64(jnp), _i64(jnp)]), ("float64", True)),
    "append_u64_i64": (lambda jax, jnp: jnp.append(_u64(jnp), _i64(jnp)), ("float64", True)),
    "block_u64_i64": (lambda jax, jnp: jnp.block([_u64(jnp), _i64(jnp)]), ("float64", True)),
    "diff_prepend_u64_i64": (lambda jax, jnp: jnp.diff(_u64(jnp), prepend=_i64(jnp)), ("float64", True)),
    "select_u64_i64": (lambda jax, jnp: jnp.select([COND], [_u64(jnp)], _i64(jnp)), ("float64", True)),
    "select_u64_i64_jit": (lambda jax, jnp: jax.jit(lambda a, b: jnp.select([COND], [a], b))(
        _u64(jnp), _i64(jnp)), ("float64", True)),
    "dot_u64_i64": (lambda jax, jnp: jnp.dot(_u64(jnp), _i64(jnp)), ("float64", True)),
    "union1d_u64_i64": (lambda jax, jnp: jnp.union1d(_u64(jnp), _i64(jnp)), ("float64", True)),
    "intersect1d_u64_i64": (lambda jax, jnp: jnp.intersect1d(_u64(jnp), _i64(jnp)), ("float64", True)),
    "isin_u64_i64": (lambda jax, jnp: jnp.isin(_u64(jnp), _i64(jnp)), ("bool", False)),
    # weak, so a float32 operand keeps float32 (fgrad gave float64)
    "concatenate_u64_i64_plus_f32": (lambda jax, jnp: jnp.concatenate([_u64(jnp), _i64(jnp)])
                                     + jnp.ones(4, "float32"), ("float32", False)),
    # an integer or bool array joined with a Python float/int: JAX's weak join
    "stack_i32_weak_float": (lambda jax, jnp: jnp.stack([_i32(jnp)[0], jnp.asarray(2.5)]), ("float64", True)),
    "concatenate_i32_weak_float": (lambda jax, jnp: jnp.concatenate([_i32(jnp), jnp.atleast_1d(2.5)]),
                                   ("float64", True)),
    "concatenate_i32_weak_complex_jit": (lambda jax, jnp: jax.jit(lambda a, b: jnp.concatenate(
        [a, jnp.atleast_1d(b)]))(_i32(jnp), jnp.asarray(1j)), ("complex128", True)),
    "concatenate_bool_weak_int": (lambda jax, jnp: jnp.concatenate([jnp.asarray(COND), jnp.atleast_1d(3)]),
                                  ("int64", True)),
    "select_int8_python_float_default": (lambda jax, jnp: jnp.select([COND], [jnp.ones(2, "int8")], 1.5),
                                         ("float64", True)),
    "select_int8_python_int_default": (lambda jax, jnp: jnp.select([COND], [jnp.ones(2, "int8")], 3),
                                       ("int8", False)),
    "stack_same_dtypes_strong": (lambda jax, jnp: jnp.stack([jnp.ones(2, "int8"), jnp.ones(2, "int8")]),
                                 ("int8", False)),
    "stack_python_floats": (lambda jax, jnp: jnp.stack([1.0, 2.5]), ("float64", True)),
    # JAX's arange takes its bounds' dtype (fgrad's was the default int whatever the bounds)
    "arange_int32_bound": (lambda jax, jnp: jnp.arange(jnp.asarray(np.int32(5))), ("int32", False)),
    "arange_numpy_uint8_bound": (lambda jax, jnp: jnp.arange(np.uint8(1), 5), ("uint8", False)),
    "arange_int16_int8_bounds": (lambda jax, jnp: jnp.arange(jnp.asarray(np.int16(1)),
                                                             jnp.asarray(np.int8(5))), ("int16", False)),
    "arange_u64_i64_bounds": (lambda jax, jnp: jnp.arange(jnp.asarray(np.uint64(7)),
                                                          jnp.asarray(np.int64(3)), -1), ("float64", False)),
    "arange_python_ints": (lambda jax, jnp: jnp.arange(1, 5), ("int64", False)),
}


@face
@pytest.mark.parametrize("case", sorted(JOINS))
def test_joined_and_selected_arrays_take_jax_joint_type(case, name, jax, jnp, lax):
    """``concatenate``/``stack``/``select``/``where``/set operations promote their operands
    together as JAX's ``promote_dtypes``, weak type included: ``uint64`` with a signed
    integer is the weak float ``f*``, an integer array with a Python float a weak float; fgrad
    made the joint dtype strong (and ``where``'s eagerly), so a later float32 operand widened
    to float64. ``arange`` takes its bounds' dtype."""
    program, (dtype, weak) = JOINS[case]
    out = program(jax, jnp)
    assert (out.dtype.name, bool(out.weak_type)) == (dtype, weak)


@face
def test_joined_values_are_unchanged(name, jax, jnp, lax):
    """The joint type changes no value: uint64 and int64 entries become their float64s."""
    np.testing.assert_array_equal(np.asarray(jnp.concatenate([_u64(jnp), _i64(jnp)])), [8.0, 4.0, 4.0, -8.0])
    np.testing.assert_array_equal(np.asarray(jnp.where(COND, _u64(jnp), _i64(jnp))), [8.0, -8.0])
    down = jnp.arange(jnp.asarray(np.uint64(7)), jnp.asarray(np.int64(3)), -1)
    np.testing.assert_array_equal(np.asarray(down), [7.0, 6.0, 5.0, 4.0])


@face
@pytest.mark.parametrize("op", ["concatenate", "stack", "select"])
def test_joined_types_in_32_bit_mode(op, name, jax, jnp, lax):
    """In 32-bit mode an int32 array joined with a Python float is a weak float32, and
    uint32 with int32 a strong int32 (JAX canonicalizes their int64 join)."""
    join = {"concatenate": lambda a, b: jnp.concatenate([a, jnp.atleast_1d(b)]),
            "stack": lambda a, b: jnp.stack([a[0], jnp.asarray(b)]),
            "select": lambda a, b: jnp.select([COND], [a], b)}[op]
    with jax.enable_x64(False):
        x = jnp.asarray(np.array([1, 2], np.int32))
        out = join(x, 2.5)
        assert (out.dtype.name, bool(out.weak_type)) == ("float32", True)
        out = join(x.astype("uint32"), jnp.asarray(np.array([3, 4], np.int32)) if op != "stack" else
                   jnp.asarray(np.int32(3)))
        assert (out.dtype.name, bool(out.weak_type)) == ("int32", False)


# -- slogdet's tangent at a 1x1/2x2 matrix: tr(adj(A) dA) / det(A) -----------------------------

SINGULAR_2X2 = [[1.0, 2.0], [2.0, 4.0]]
TANGENTS = [[[1.0, 0.0], [0.0, 0.0]], [[0.3, -0.2], [0.5, 1.0]], [[-1.0, 0.0], [0.0, -1.0]],
            [[0.0, 0.0], [0.0, 1.0]], [[2.0, -1.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]]
# JAX 0.10.2: sign(tr(adj(A) dA)) * inf (det(A) = +0.0); 0/0 for the zero tangent
JVP_AT_SINGULAR = [np.inf, np.inf, -np.inf, np.inf, np.inf, np.nan]


@face
def test_slogdet_tangent_at_a_singular_2x2_matrix_is_infinite(name, jax, jnp, lax):
    """``d log|det(A + eps dA)| / d eps`` is ``1/eps`` where ``tr(adj(A) dA) != 0``: the tangent
    at a singular matrix is infinite, as JAX's closed form ``tr(adj(A) dA) / det(A)`` gives;
    fgrad's ``tr(solve(A, dA))`` was NaN (a zero column of ``dA`` solved to 0/0), though its
    gradient was already infinite."""
    a = jnp.asarray(SINGULAR_2X2)
    got = [float(jax.jvp(lambda m: jnp.linalg.slogdet(m)[1], (a,), (jnp.asarray(t),))[1]) for t in TANGENTS]
    np.testing.assert_array_equal(got, JVP_AT_SINGULAR)
    zero = jnp.asarray([[0.0]])
    assert float(jax.jvp(lambda m: jnp.linalg.slogdet(m)[1], (zero,), (jnp.asarray([[-2.0]]),))[1]) == -np.inf
    # the gradient is the same closed form, transposed: cof(A) / (+0)
    g = jax.grad(lambda m: jnp.linalg.slogdet(m)[1])(a)
    np.testing.assert_array_equal(np.asarray(g), [[np.inf, -np.inf], [-np.inf, np.inf]])


@face
def test_slogdet_tangent_of_an_ill_conditioned_2x2_matrix(name, jax, jnp, lax):
    """Away from singular matrices the closed form is the analytic tangent to the accuracy
    the problem allows: within ``cond * eps`` relatively, ``cond = (|a00 a11| + |a01 a10|) /
    |det|`` (~1e9 here; the exact values are rational, computed with Fractions). On these
    matrices the closed form's largest error is 0.29 of that bound, the LU solve's was 0.42
    (JAX's, with fused multiply-adds, 0.22)."""
    from fractions import Fraction
    rng = np.random.default_rng(7)
    a = rng.normal(size=(40, 2, 2))
    a[:, 1] = a[:, 0] * (1 + 1e-9 * rng.normal(size=(40, 1))) + 1e-10 * rng.normal(size=(40, 2))
    t = rng.normal(size=(40, 2, 2))
    got = np.asarray(jax.vmap(lambda m, d: jax.jvp(lambda x: jnp.linalg.slogdet(x)[1], (m,), (d,))[1])(
        jnp.asarray(a), jnp.asarray(t)))
    for k in range(40):
        (a00, a01), (a10, a11) = [[Fraction(float(v)) for v in row] for row in a[k]]
        (t00, t01), (t10, t11) = [[Fraction(float(v)) for v in row] for row in t[k]]
        det = a00 * a11 - a01 * a10
        exact = float((t00 * a11 - t01 * a10 - t10 * a01 + t11 * a00) / det)
        cond = float((abs(a00 * a11) + abs(a01 * a10)) / abs(det))
        assert abs(got[k] - exact) <= cond * np.finfo(float).eps * abs(exact), k


# -- floating arange with a step: start + step * iota, each operation rounded once -------------

ARANGES = {  # (args, dtype, x64) -> JAX 0.10.2's values
    "x32": ((-1.42, 3.0, 0.862), None, False,
            [-1.4199999570846558, -0.5579999685287476, 0.30400002002716064, 1.1660000085830688,
             2.0279998779296875, 2.8899998664855957]),
    "x32_float16_descending": ((0.3, -2.0, -0.35), "float16", False,
                               [0.300048828125, -0.04998779296875, -0.39990234375, -0.75, -1.099609375,
                                -1.4501953125, -1.7998046875]),
    "x64": ((-1.42, 3.0, 0.862), None, True,
            [-1.42, -0.5579999999999999, 0.30400000000000005, 1.166, 2.028, 2.8899999999999997]),
}


@face
@pytest.mark.parametrize("case", sorted(ARANGES))
def test_float_arange_with_a_step_is_jax_values(case, name, jax, jnp, lax):
    """JAX's ``arange(start, stop, step)`` of floats is ``start + step * iota`` in the dtype
    (float32 for narrower ones); fgrad's NumPy ``arange`` steps by ``(start + step) - start``
    rounded, whose error grows along the range (in 32-bit mode 203 of 300 random ranges differed
    from JAX, by up to 26 ulps of the largest value, where JAX's values are within 2)."""
    args, dtype, x64, want = ARANGES[case]
    with jax.enable_x64(x64):
        out = jnp.arange(*args, dtype=dtype)
        assert out.dtype == np.dtype(dtype or ("float64" if x64 else "float32"))
        np.testing.assert_array_equal(np.asarray(out).astype(float), want)
