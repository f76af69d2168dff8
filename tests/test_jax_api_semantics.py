"""JAX semantics that ported programs rely on: the tracer error classes, lax's refusal to
promote dtypes, weak Python scalars, and vjp linearizing once."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.errors as E
import fgrad.lax as lax
import fgrad.numpy as fnp

# (what the traced function does, the JAX error class name); the class names are JAX 0.10.2's
CONVERSIONS = [
    ("bool", lambda x: 1.0 if x > 0 else 2.0, "TracerBoolConversionError"),
    ("float", lambda x: float(x), "ConcretizationTypeError"),
    ("item", lambda x: x.item(), "ConcretizationTypeError"),
    ("index", lambda x: [1.0, 2.0][x.astype(int)], "TracerIntegerConversionError"),
    ("range", lambda x: sum(range(x.astype(int))), "TracerIntegerConversionError"),
    ("numpy", lambda x: np.asarray(x), "TracerArrayConversionError"),
]


@pytest.mark.parametrize("what,fn,cls", CONVERSIONS, ids=[c[0] for c in CONVERSIONS])
@pytest.mark.parametrize("transform", ["jit", "vmap"])
def test_tracer_conversion_errors_are_jax_classes(what, fn, cls, transform):
    x = fnp.asarray([1.0]) if transform == "vmap" else fnp.asarray(1.0)
    wrapped = fgrad.jit(fn) if transform == "jit" else fgrad.vmap(fn)
    with pytest.raises(getattr(E, cls)) as info:
        wrapped(x)
    assert type(info.value).__name__ == cls
    assert isinstance(info.value, TypeError) and isinstance(info.value, fgrad.ConcretizationError)


@pytest.mark.parametrize("what,fn,cls", CONVERSIONS, ids=[c[0] for c in CONVERSIONS])
def test_tracer_conversion_errors_live_jax(what, fn, cls):
    jax = pytest.importorskip("jax")
    jfn = fn if what != "numpy" else (lambda x: np.asarray(x))
    with pytest.raises(getattr(jax.errors, cls)):
        jax.jit(jfn)(jax.numpy.asarray(1.0))


def test_error_hierarchy_matches_jax():
    names = ["ConcretizationTypeError", "TracerBoolConversionError", "TracerIntegerConversionError",
             "TracerArrayConversionError", "UnexpectedTracerError"]
    # stored from JAX 0.10.2: which of these each one subclasses
    stored = {"ConcretizationTypeError": set(), "TracerBoolConversionError": {"ConcretizationTypeError"},
              "TracerIntegerConversionError": set(), "TracerArrayConversionError": set(),
              "UnexpectedTracerError": set()}
    for n in names:
        cls = getattr(E, n)
        assert issubclass(cls, TypeError), n
        assert {m for m in names if m != n and issubclass(cls, getattr(E, m))} == stored[n], n
    jax = pytest.importorskip("jax")
    for n in names:
        live = {m for m in names if m != n and issubclass(getattr(jax.errors, n), getattr(jax.errors, m))}
        assert live == stored[n], n


F32, I32 = fnp.ones(2, "float32"), fnp.ones(2, "int32")
MIXED = [
    ("add", lambda m, x, y: m.lax.add(x, y), "float32", "int32"),
    ("mul", lambda m, x, y: m.lax.mul(x, y), "float32", "float16"),
    ("max", lambda m, x, y: m.lax.max(x, y), "int32", "float32"),
    ("eq", lambda m, x, y: m.lax.eq(x, y), "float32", "int32"),
    ("atan2", lambda m, x, y: m.lax.atan2(x, y), "float32", "float16"),
    ("div", lambda m, x, y: m.lax.div(x, y), "float32", "int32"),
    ("int-array+float-scalar", lambda m, x, y: m.lax.add(x, 2.5), "int32", "int32"),
]


def _jax_or_none():
    try:
        import jax
    except ImportError:
        return None
    return jax


@pytest.mark.parametrize("name,fn,dx,dy", MIXED, ids=[m[0] for m in MIXED])
def test_lax_binary_ops_do_not_promote(name, fn, dx, dy):
    with pytest.raises(TypeError, match=r"lax\.\w+ requires arguments to have the same dtypes"):
        fn(fgrad, fnp.ones(2, dx), fnp.ones(2, dy))
    jax = _jax_or_none()
    if jax is not None:
        with pytest.raises(TypeError):
            fn(jax, jax.numpy.ones(2, dx), jax.numpy.ones(2, dy))


def test_lax_binary_ops_accept_weak_scalars_and_same_dtypes():
    assert lax.add(F32, 2.0).dtype == np.float32
    assert lax.mul(F32, np.float32(3.0)).dtype == np.float32
    assert lax.add(I32, 3).dtype == np.int32
    assert lax.add(2.0, 3.0) == 5.0
    np.testing.assert_allclose(np.asarray(lax.sub(F32, F32)), [0.0, 0.0])
    assert fnp.add(F32, I32).dtype == np.float32  # fgrad.numpy promotes (JAX's lattice)


def test_lax_pow_keeps_the_base_dtype():
    # JAX 0.10.2: lax.pow(float32, int32) is float32
    out = lax.pow(fnp.asarray([2.0, 3.0], "float32"), fnp.asarray([3, 2], "int32"))
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.asarray(out), [8.0, 9.0])
    assert float(fgrad.grad(lambda x: lax.pow(x, fnp.asarray(3)))(2.0)) == 12.0


def test_python_scalars_are_weak():
    x = fnp.ones(3, "float32")
    for y in (x * 2.0, 2.0 * x, x + 1, x / 3.0, fgrad.jit(lambda a: a * 0.5)(x)):
        assert y.dtype == np.float32


def test_vjp_does_not_rerun_f_when_the_pullback_is_called():
    calls = []

    def f(x):
        calls.append(1)
        return fnp.sin(x) * x

    x = fnp.asarray([0.5, 1.5])
    y, pullback = fgrad.vjp(f, x)
    assert len(calls) == 1
    (g1,) = pullback(fnp.ones(2))
    (g2,) = pullback(fnp.asarray([2.0, 0.0]))
    assert len(calls) == 1  # JAX linearizes once; the pullback closes over residuals
    d = np.cos([0.5, 1.5]) * [0.5, 1.5] + np.sin([0.5, 1.5])
    np.testing.assert_allclose(np.asarray(g1), d)
    np.testing.assert_allclose(np.asarray(g2), [2 * d[0], 0.0])


@pytest.mark.parametrize("wrap", ["eager", "jit", "grad", "traced-bound"])
def test_fori_loop_index_does_not_widen_a_float32_carry(wrap):
    def loop(c, hi=3):
        return lax.fori_loop(0, hi, lambda i, c: c * 1.5 + i, c)

    c0 = fnp.asarray(1.0, "float32")
    if wrap == "eager":
        out = loop(c0)
    elif wrap == "jit":
        out = fgrad.jit(loop)(c0)
    elif wrap == "traced-bound":
        out = fgrad.jit(lambda c, n: loop(c, n))(c0, 3)
    else:
        out = fgrad.grad(loop)(c0)
    assert out.dtype == np.float32  # JAX 0.10.2: float32 (the index is int32, float32 wins)
    expected = 1.5 ** 3 if wrap == "grad" else ((1.0 * 1.5 + 0) * 1.5 + 1) * 1.5 + 2  # 6.875
    np.testing.assert_allclose(float(out), expected, rtol=1e-6)


def test_fori_loop_still_rejects_a_real_carry_dtype_change():
    with pytest.raises(TypeError, match="carry"):
        lax.fori_loop(0, 3, lambda i, c: c + fnp.ones((), "float64"), fnp.asarray(1.0, "float32"))
