"""`fgrad.debug.print` / `fgrad.debug.callback` (debug_callback) and `fgrad.pure_callback`
(pure_callback): concrete values under jit, vmap and grad, in program order, never dropped by
the compiler; JAX's output for the same programs is stored (JAX 0.10.2) and compared live."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp


def _program(m):
    def f(x):
        m.debug.print("first {}", x, ordered=True)
        y = m.numpy.sin(x) * 0.0 + 1.5
        m.debug.print("second {y:.2f} {z}", y=y, z=x * 2, ordered=True)
        m.debug.print("unused result {}", x + 100.0, ordered=True)  # nothing depends on it: still printed
        return y * x

    return f


# what JAX 0.10.2 prints for each case (ordered=True: JAX keeps program order only for ordered
# callbacks; fgrad always does)
STORED = {
    "eager": ["first 1.0", "second 1.50 2.0", "unused result 101.0"],
    "jit": ["first 1.0", "second 1.50 2.0", "unused result 101.0"],
    "vmap": ["first 0.0", "first 1.0", "second 1.50 0.0", "second 1.50 2.0", "unused result 100.0",
             "unused result 101.0"],
    "grad": ["first 1.0", "second 1.50 2.0", "unused result 101.0"],
    "jit-grad": ["first 1.0", "second 1.50 2.0", "unused result 101.0"],
}


def _run(m, case):
    f = _program(m)
    x1 = m.numpy.asarray(1.0)
    if case == "eager":
        f(x1)
    elif case == "jit":
        m.jit(f)(x1)
    elif case == "vmap":
        m.jit(m.vmap(f))(m.numpy.arange(2.0))
    elif case == "grad":
        m.grad(f)(x1)
    else:
        m.jit(m.grad(f))(x1)


@pytest.mark.parametrize("case", sorted(STORED))
def test_debug_print_order_and_values(case, capsys):
    _run(fgrad, case)
    assert capsys.readouterr().out.splitlines() == STORED[case]


@pytest.mark.parametrize("case", sorted(STORED))
def test_debug_print_live_jax(case, capsys):
    jax = pytest.importorskip("jax")
    _run(jax, case)
    jax.effects_barrier()
    assert capsys.readouterr().out.splitlines() == STORED[case]


def test_debug_print_runs_on_every_call_of_a_cached_jit(capsys):
    f = fgrad.jit(lambda x: fgrad.debug.print("x={}", x) or x + 1)
    for v in (1.0, 2.0, 3.0):
        f(fnp.asarray(v))
    assert capsys.readouterr().out.splitlines() == ["x=1.0", "x=2.0", "x=3.0"]


def test_debug_print_without_array_arguments_is_not_folded_away(capsys):
    f = fgrad.jit(lambda x: fgrad.debug.print("tick") or x * 2)
    f(fnp.asarray(1.0))
    f(fnp.asarray(2.0))
    assert capsys.readouterr().out.splitlines() == ["tick", "tick"]


def test_debug_callback_gets_arrays_and_static_leaves():
    seen = []
    fgrad.jit(lambda x: fgrad.debug.callback(lambda a, tag: seen.append((np.asarray(a).tolist(), tag)),
                                             x, "t") or x)(fnp.arange(2.0))
    assert seen == [([0.0, 1.0], "t")]
    with pytest.raises(TypeError, match="callable"):
        fgrad.debug.callback(3, fnp.ones(2))


def test_debug_print_inside_scan_and_fori_loop(capsys):
    fgrad.lax.fori_loop(0, 3, lambda i, c: fgrad.debug.print("i={} c={}", i, c) or c + i, 0)
    assert capsys.readouterr().out.splitlines() == ["i=0 c=0", "i=1 c=0", "i=2 c=1"]


def test_debug_print_gradient_is_unchanged():
    f = lambda x: (fgrad.debug.print("{}", x), fnp.sin(x) * x)[1]  # noqa: E731
    g = fgrad.grad(f)(0.7)
    assert abs(float(g) - (np.cos(0.7) * 0.7 + np.sin(0.7))) < 1e-12


# ---- pure_callback ---------------------------------------------------------------------------

S3 = fgrad.ShapeDtypeStruct((3,), np.float32)


def _sin_host(x):
    assert isinstance(x, fgrad.Array)  # callbacks get concrete Arrays, as in JAX
    return np.sin(np.asarray(x))


@pytest.mark.parametrize("wrap", ["eager", "jit"])
def test_pure_callback_values_and_dtype(wrap):
    f = lambda x: fgrad.pure_callback(_sin_host, S3, x)  # noqa: E731
    out = (fgrad.jit(f) if wrap == "jit" else f)(fnp.asarray([0.0, 1.0, 2.0]))
    assert out.dtype == np.float32  # the declared dtype (JAX 0.10.2 casts the same way)
    np.testing.assert_allclose(np.asarray(out), np.sin([0.0, 1.0, 2.0]), rtol=1e-6)


@pytest.mark.parametrize("method", ["sequential", "expand_dims", "broadcast_all"])
def test_pure_callback_vmap_methods(method):
    calls = []

    def host(x, k):
        calls.append(np.shape(x))
        k = np.asarray(k)  # (), (1,) with expand_dims, (2,) with broadcast_all
        return np.sin(np.asarray(x)) * k.reshape(k.shape + (1,) * (np.ndim(x) - k.ndim))

    xs = fnp.asarray(np.arange(6.0).reshape(2, 3))
    out = fgrad.vmap(lambda x: fgrad.pure_callback(host, S3, x, fnp.asarray(2.0), vmap_method=method))(xs)
    np.testing.assert_allclose(np.asarray(out), 2 * np.sin(np.arange(6.0).reshape(2, 3)), rtol=1e-6)
    assert calls == ([(3,), (3,)] if method == "sequential" else [(2, 3)])


def test_pure_callback_errors_as_jax():
    with pytest.raises(NotImplementedError, match="vmap_method"):
        fgrad.vmap(lambda x: fgrad.pure_callback(_sin_host, S3, x))(fnp.ones((2, 3)))
    with pytest.raises(ValueError, match="do not support JVP"):
        fgrad.grad(lambda x: fgrad.pure_callback(_sin_host, S3, x).sum())(fnp.ones(3))
    with pytest.raises(RuntimeError, match=r"shape \(2,\)"):
        fgrad.pure_callback(lambda x: np.ones(2), S3, fnp.ones(3))


def test_pure_callback_with_custom_jvp_is_differentiable():
    @fgrad.custom_jvp
    def host_sin(x):
        return fgrad.pure_callback(lambda v: np.sin(np.asarray(v)), fgrad.ShapeDtypeStruct((), np.float64), x)

    @host_sin.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        return host_sin(x), fnp.cos(x) * t

    assert abs(float(fgrad.grad(host_sin)(0.3)) - np.cos(0.3)) < 1e-12
    assert abs(float(fgrad.jit(fgrad.grad(host_sin))(0.3)) - np.cos(0.3)) < 1e-12


# JAX 0.10.2 (the pure_callback docstring example): the shapes the callback sees for a batched
# arange(4) and an unbatched operand, per vmap_method, and the result
_EXPAND_DIMS_STORED = {("expand_dims", "1.0"): ("(4,) (1,)", [1.0, 2.0, 3.0, 4.0], "float32"),
                       ("expand_dims", "2"): ("(4,) (1,)", [2, 3, 4, 5], "int32"),
                       ("broadcast_all", "1.0"): ("(4,) (4,)", [1.0, 2.0, 3.0, 4.0], "float32")}


def _shapes_program(m, method, y, jit):
    seen = []

    def callback(a, b):
        seen.append(f"{np.shape(a)} {np.shape(b)}")
        return np.asarray(a) + np.asarray(b)

    def fun(a, b):
        out = m.ShapeDtypeStruct(m.numpy.broadcast_shapes(m.numpy.shape(a), m.numpy.shape(b)),
                                 m.numpy.result_type(a, b))
        return m.pure_callback(callback, out, a, b, vmap_method=method)

    f = m.vmap(fun, in_axes=(0, None))
    out = (m.jit(f) if jit else f)(m.numpy.arange(4), eval(y))  # noqa: S307 - "1.0" or "2"
    return seen[0], np.asarray(out).tolist(), str(out.dtype)


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("method, y", list(_EXPAND_DIMS_STORED))
def test_expand_dims_gives_python_number_operands_a_batch_axis(method, y, jit):
    """vmap_method="expand_dims" left an unbatched Python-number operand as it was, so the
    callback saw shape () where JAX's sees (1,) (JAX's pure_callback docstring example)."""
    with fgrad.enable_x64(False):
        assert _shapes_program(fgrad, method, y, jit) == _EXPAND_DIMS_STORED[method, y]
    jax = pytest.importorskip("jax")
    with jax.enable_x64(False):
        assert _shapes_program(jax, method, y, jit) == _EXPAND_DIMS_STORED[method, y]
