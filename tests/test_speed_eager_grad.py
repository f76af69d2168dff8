"""Eager reverse mode without per-call overhead (docs/speed-eager.md):

* ``grad``/``value_and_grad`` of one concrete inexact argument at the top level go straight
  to the tape (`fgrad.transforms.ad._tape_value_and_grad`), skipping the pytree and argument
  handling of the general path;
* the tape's forward and backward programs run under one inline switch of NumPy's error
  reports, its tracers make their abstract value once, and its bookkeeping is one pass;
* ``fgrad.numpy.sum`` asks NumPy for its accumulator dtype once per dtype.

Each fast path is checked against the general path (the same function with the fast path
switched off): the same numbers bit for bit, dtypes, weak types, errors and their messages,
in 64- and 32-bit mode, and against analytic derivatives and PyTorch (stored numbers, live
when installed).
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.backends
import fgrad.numpy as fnp
from fgrad.transforms import ad

RNG = np.random.default_rng(16)
X16 = RNG.standard_normal(16)


def _loss(x):
    return fnp.sum(fnp.tanh(x) ** 2 * fnp.exp(-x))


def _general(monkeypatch):
    """Switch the fast path off: every call takes the general `vjp` path."""
    monkeypatch.setattr(ad, "_tape_value_and_grad", lambda *a, **k: None)


def _same(a, b):
    """Bit-identical results: structure, values (NaNs where NaNs), dtypes and weak types."""
    la, ta = fgrad.tree_util.tree_flatten(a)
    lb, tb = fgrad.tree_util.tree_flatten(b)
    assert ta == tb
    for x, y in zip(la, lb):
        assert type(x) is type(y)
        if isinstance(x, fgrad.Array):
            assert x.dtype == y.dtype and x.shape == y.shape and x.weak_type == y.weak_type
            np.testing.assert_array_equal(np.asarray(x), np.asarray(y), strict=True)
        else:
            assert x == y


def _both(monkeypatch, make, *args, **kwargs):
    """(fast, general) results of ``make()(*args, **kwargs)``, or their exceptions."""
    def call():
        try:
            return make()(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - compared below
            return (type(e), str(e))

    fast = call()
    with monkeypatch.context() as m:
        _general(m)
        general = call()
    return fast, general


# the gradient of sum(tanh(x)**2 * exp(-x)): (2 t (1 - t^2) - t^2) e^{-x}
def _analytic(x):
    t = np.tanh(x)
    return (2 * t * (1 - t * t) - t * t) * np.exp(-x)


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16"])
def test_grad_fast_path_equals_general_path(monkeypatch, dtype):
    if dtype == "bfloat16" and fgrad.backends.default_backend().name != "numpy":
        pytest.skip("a GPU array module has no bfloat16 arrays")
    x = fnp.asarray(X16.astype(np.float32)).astype(dtype)
    fast, general = _both(monkeypatch, lambda: fgrad.grad(_loss), x)
    _same(fast, general)
    assert fast.dtype == np.dtype(dtype) or str(fast.dtype) == dtype
    tol = {"float64": 1e-13, "float32": 1e-5}.get(dtype, 3e-2)
    np.testing.assert_allclose(np.asarray(fast, np.float64), _analytic(np.asarray(x, np.float64)),
                               rtol=tol, atol=tol)


def test_grad_matches_pytorch():
    # PyTorch 2.13 CPU, float64: x.grad after sum(tanh(x)**2 * exp(-x)).backward(), X16[:4]
    stored = np.array([-1.8988739179082255, 0.24297506933663882, 0.0035593163781857395, 0.007376486749181066])
    g = fgrad.grad(_loss)(fnp.asarray(X16))
    np.testing.assert_allclose(np.asarray(g)[:4], stored, rtol=1e-12)
    torch = pytest.importorskip("torch")
    t = torch.tensor(X16, requires_grad=True)
    (torch.tanh(t) ** 2 * torch.exp(-t)).sum().backward()
    np.testing.assert_allclose(np.asarray(g), t.grad.numpy(), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("case", [
    "weak", "argnum1", "negative", "kwargs", "aux", "complex_in", "weak_out", "constant",
    "python_float_out", "int_out", "complex_out", "vector_out", "tuple_out", "unused",
    "bad_argnum", "aux_not_pair", "int_in", "list_in", "scalar_in",
])
def test_grad_cases_equal_general_path(monkeypatch, case):
    x = fnp.asarray(X16[:3])
    y = fnp.asarray(2.5)  # weakly typed
    make = {
        "weak": lambda: fgrad.value_and_grad(lambda a: a * a * 3.0),
        "argnum1": lambda: fgrad.value_and_grad(lambda a, b: fnp.sum(a * b), argnums=1),
        "negative": lambda: fgrad.value_and_grad(lambda a, b: fnp.sum(a * b ** 3), argnums=-1),
        "kwargs": lambda: fgrad.value_and_grad(lambda a, *, s: fnp.sum(fnp.sin(a) * s)),
        "aux": lambda: fgrad.value_and_grad(lambda a: (fnp.sum(a ** 2), {"m": a.mean(), "k": 3}),
                                            has_aux=True),
        "complex_in": lambda: fgrad.grad(lambda a: fnp.sum(fnp.abs(a * (1 + 2j)) ** 2)),
        "weak_out": lambda: fgrad.value_and_grad(lambda a: a * 2.0),
        "constant": lambda: fgrad.value_and_grad(lambda a: fnp.asarray(1.0)),
        "python_float_out": lambda: fgrad.value_and_grad(lambda a: 1.5),
        "int_out": lambda: fgrad.grad(lambda a: fnp.sum(a).astype(int)),
        "complex_out": lambda: fgrad.grad(lambda a: fnp.sum(a) * 1j),
        "vector_out": lambda: fgrad.grad(lambda a: a * 2),
        "tuple_out": lambda: fgrad.grad(lambda a: (fnp.sum(a), fnp.sum(a))),
        "unused": lambda: fgrad.value_and_grad(lambda a, b: fnp.sum(b * 2.0)),
        "bad_argnum": lambda: fgrad.grad(lambda a: fnp.sum(a), argnums=3),
        "aux_not_pair": lambda: fgrad.grad(lambda a: fnp.sum(a), has_aux=True),
        "int_in": lambda: fgrad.grad(lambda a: fnp.sum(a * 1.0)),
        "list_in": lambda: fgrad.grad(lambda a: a[0] * a[1]),
        "scalar_in": lambda: fgrad.value_and_grad(lambda a: a ** 3),
    }[case]
    args = {
        "weak": (y,), "argnum1": (x, x * 2), "negative": (x, x + 1), "aux": (x,),
        "complex_in": (x.astype(complex),), "unused": (x, x), "int_in": (fnp.arange(3),),
        "list_in": ([x[0], x[1]],), "scalar_in": (2.0,),
    }.get(case, (x,))
    kwargs = {"s": fnp.asarray(3.0)} if case == "kwargs" else {}
    fast, general = _both(monkeypatch, make, *args, **kwargs)
    if isinstance(general, tuple) and len(general) == 2 and isinstance(general[0], type):
        assert fast == general  # the same exception type and message
    else:
        _same(fast, general)


def test_weak_scalar_gradient_is_weak_and_exact():
    # JAX: grad(lambda a: a * a * 3.0)(2.5) == 15.0, weakly typed float64 (x64)
    g = fgrad.grad(lambda a: a * a * 3.0)(fnp.asarray(2.5))
    assert g.weak_type and g.dtype == np.float64 and float(g) == 15.0


@pytest.mark.parametrize("x64", [True, False])
def test_grad_fast_path_in_32_bit_mode(monkeypatch, x64):
    fgrad.config.update("jax_enable_x64", x64)
    try:
        x = fnp.asarray(X16)
        fast, general = _both(monkeypatch, lambda: fgrad.value_and_grad(_loss), x)
        _same(fast, general)
        assert fast[1].dtype == (np.float64 if x64 else np.float32)
    finally:
        fgrad.config.update("jax_enable_x64", True)


def test_grad_fast_path_is_taken_only_at_the_top_level(monkeypatch):
    calls = []
    real = ad._tape_value_and_grad
    monkeypatch.setattr(ad, "_tape_value_and_grad", lambda *a: calls.append(1) or real(*a))
    g = fgrad.grad(_loss)
    x = fnp.asarray(X16)
    g(x)
    assert calls == [1]
    # under jit and vmap the general path runs (a tracer is not a concrete array) -- same numbers
    np.testing.assert_allclose(np.asarray(fgrad.jit(g)(x)), np.asarray(g(x)), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(fgrad.vmap(g)(x[None])[0]), np.asarray(g(x)), rtol=1e-14)
    # the second-order gradient: the outer grad is on the fast path, the inner one is not
    h = fgrad.grad(lambda a: fnp.sum(fgrad.grad(_loss)(a) ** 2))(x)
    with monkeypatch.context() as m:
        _general(m)
        h2 = fgrad.grad(lambda a: fnp.sum(fgrad.grad(_loss)(a) ** 2))(x)
    _same(h, h2)
    fd = fgrad.test_util.check_grads
    fd(lambda a: fnp.sum(fgrad.grad(_loss)(a) ** 2), (x,), order=1, modes=("rev",))


def test_tape_weak_operands_give_weak_outputs_as_eager():
    # a weakly typed operand meeting a weakly typed one: the result is weak, eagerly and on the tape
    def f(a):
        r = a * fnp.asarray(3.0)
        assert r.weak_type
        return r
    assert f(fnp.asarray(2.0)).weak_type
    g = fgrad.grad(f)(fnp.asarray(2.0))
    assert g.weak_type and float(g) == 3.0


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "int64", "float16", "float32",
                                   "complex64"])
def test_sum_accumulator_dtype_is_numpys(dtype):
    a = np.ones(3, dtype)
    for _ in range(2):  # computed, then from the cache
        assert fnp.sum(fnp.asarray(a)).dtype == np.sum(a).dtype


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "bfloat16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("case", [((), (16,), ()), ((3,), (2, 3), (1,)), ((3, 1), (3, 4), (0, 1)),
                                  ((1,), (1024,), (0,)), ((1,), (1025,), (0,)), ((2,), (2, 2, 2), (1,))])
def test_small_broadcast_host_kernel_equals_the_impl(dtype, case):
    from fgrad.core.executor import straight_line
    from fgrad.ops.shape import _bid_impl, broadcast_in_dim

    in_shape, shape, dims = case
    vals = np.array([-0.0, np.nan, 1.5, -2.0, np.inf, 3.0]) if dtype not in ("bool", "int8") else np.arange(6)
    x = np.resize(vals, in_shape).astype(dtype)
    jx = fgrad.make_jaxpr(lambda a: broadcast_in_dim(a, shape, dims))(fnp.asarray(x)).jaxpr
    run = straight_line(jx)
    got = run(np, [x])[0]
    want = _bid_impl(np, x, shape, dims)
    assert got.dtype == want.dtype and got.shape == want.shape
    bits = [np.ascontiguousarray(a).view(np.uint8) for a in (got, want)]
    np.testing.assert_array_equal(*bits)  # bit for bit (-0.0, NaN)
    assert (got.base is None) == (int(np.prod(shape)) <= 1024)  # a view beyond 1024 elements


def test_tape_tracer_aval_is_its_primals():
    from fgrad.core.array import get_aval

    seen = []

    def f(a):
        seen.append((a.aval, get_aval(a.primal)))
        b = a * 2.0
        seen.append((b.aval, get_aval(b.primal)))
        return fnp.sum(b)

    fgrad.grad(f)(fnp.asarray(X16[:3]))
    fgrad.grad(f)(fnp.asarray(2.0))  # weakly typed
    for av, want in seen:
        assert (av.shape, av.dtype, av.weak_type) == (want.shape, want.dtype, want.weak_type)
    assert seen[-1][0].weak_type
