"""The shim's per-op fast paths (docs/speed-eager.md): a host float Tensor's unary ufunc is
called inline (NumPy's error reports switched inline where they may fire), a float Tensor
times a Python float takes the Tensor's dtype without the promotion calls, and ``record``
leaves a single output's ``_oi`` at the class default.

Each is checked against what it replaces (the general promotion rule, the wrapped ufunc) and
PyTorch (stored numbers; live when installed): values bit for bit, dtypes, requires_grad and
grad_fn, gradients, hooks, anomaly mode, version counters and in-place checks.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch._promotion import binary_result_dtype

X = np.array([-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, 700.0])
SPECIAL = np.array([np.inf, -np.inf, np.nan, 0.0, -1.0, 1e300, -1e-300, 2.0])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("name", ["sin", "exp", "log", "sqrt", "tanh", "neg", "abs", "reciprocal"])
def test_unary_inline_ufunc_is_the_ufunc(dtype, name):
    ufunc = {"neg": np.negative}.get(name, getattr(np, name, None))
    for data in (X, SPECIAL):
        with np.errstate(over="ignore"):
            a = data.astype(dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # log(0), sqrt(-1), exp(700): silent, as in PyTorch
            got = getattr(torch, name)(torch.from_numpy(a.copy()))
            meth = getattr(torch.from_numpy(a.copy()), name)()
        with np.errstate(all="ignore"):
            want = ufunc(a)
        assert got.dtype == torch.from_numpy(want).dtype and not got.requires_grad and got.grad_fn is None
        np.testing.assert_array_equal(got.numpy(), want, strict=True)
        np.testing.assert_array_equal(meth.numpy(), want, strict=True)


def test_unary_general_paths_unchanged():
    # integers are computed in the default float dtype, bfloat16 in float32 then rounded
    i = torch.tensor([1, 2, 3])
    assert torch.sin(i).dtype == torch.float32
    np.testing.assert_array_equal(torch.sin(i).numpy(), np.sin(np.array([1, 2, 3], np.float32)))
    b = torch.tensor([0.5, 1.5], dtype=torch.bfloat16)
    assert torch.exp(b).dtype == torch.bfloat16
    # PyTorch 2.13: torch.exp(torch.tensor([0.5, 1.5], dtype=torch.bfloat16)) == [1.6484375, 4.46875]
    np.testing.assert_array_equal(torch.exp(b).float().numpy(), np.array([1.6484375, 4.46875], np.float32))


def test_unary_inline_path_records_gradients_hooks_and_anomaly():
    x = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
    seen = []
    y = torch.sin(x)
    assert y.requires_grad and type(y.grad_fn).__name__ == "SinBackward0"
    y.register_hook(lambda g: seen.append(g.clone()))
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.cos(np.array([0.3, -1.2, 2.0], np.float32)), rtol=1e-6)
    assert len(seen) == 1
    with torch.autograd.detect_anomaly():
        z = torch.sqrt(torch.tensor([-1.0, 4.0], requires_grad=True))
        assert np.isnan(z.detach().numpy()[0])
    with torch.no_grad():
        assert torch.sin(x).grad_fn is None
    with torch.inference_mode():
        assert torch.sin(x).is_inference()
    out = torch.empty(3)
    assert torch.sin(x.detach(), out=out) is out


def test_unary_inline_path_live_pytorch():
    pt = pytest.importorskip("torch")
    a = np.linspace(-3, 3, 8).astype(np.float32)
    for name in ("sin", "exp", "tanh"):
        got = getattr(torch, name)(torch.from_numpy(a.copy())).numpy()
        want = getattr(pt, name)(pt.from_numpy(a.copy())).numpy()
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "complex64", "int32",
                                   "uint8", "bool"])
def test_tensor_times_python_float_dtype_is_the_promotion_rule(dtype):
    a = torch.ones(3, dtype=getattr(torch, dtype))
    want = binary_result_dtype(a, 1.0001)  # the general rule
    ops = [lambda t: t * 1.0001, lambda t: t + 0.5, lambda t: t / 3.0, lambda t: 1.5 * t]
    if dtype == "bool":  # PyTorch refuses a subtraction with a bool tensor
        with pytest.raises(RuntimeError, match="Subtraction"):
            a - 2.0
    else:
        ops.append(lambda t: t - 2.0)
    if dtype != "complex64":  # PyTorch refuses to order complex numbers ("lt_cpu" not implemented)
        ops.append(lambda t: t < 0.5)
    for op in ops:
        r = op(a)
        assert r.dtype == (torch.bool if r.dtype == torch.bool else torch.from_numpy(np.zeros(0, want)).dtype)
    # stored PyTorch 2.13: (torch.ones(3, dtype) * 1.0001).dtype
    stored = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
              "float64": torch.float64, "complex64": torch.complex64, "int32": torch.float32,
              "uint8": torch.float32, "bool": torch.float32}
    assert (a * 1.0001).dtype == stored[dtype]


def test_tensor_times_python_float_values_and_gradients():
    x = torch.tensor([1.0, -2.0, 3.5], requires_grad=True)
    y = x
    for _ in range(5):
        y = y * 1.0001
    assert type(y.grad_fn).__name__ == "MulBackward0"
    y.sum().backward()
    want = np.float32(1.0)
    for _ in range(5):
        want = np.float32(want * np.float32(1.0001))
    np.testing.assert_array_equal(x.grad.numpy(), np.full(3, want, np.float32))
    pt = pytest.importorskip("torch")
    t = pt.tensor([1.0, -2.0, 3.5], requires_grad=True)
    u = t
    for _ in range(5):
        u = u * 1.0001
    u.sum().backward()
    np.testing.assert_array_equal(y.detach().numpy(), u.detach().numpy())
    np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy())


def test_output_index_of_multi_output_nodes():
    # outputs after the first keep their index (the class default 0 is left only for output 0)
    x = torch.tensor([[1.0, 5.0], [4.0, 2.0]], requires_grad=True)
    a, b = torch.unbind(x * 1.0, 1)
    assert a._oi == 0 and b._oi == 1 and "_oi" not in vars(a)
    (a * 2.0 + b * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.array([[2.0, 3.0], [2.0, 3.0]], np.float32))
    v, i = torch.max(x, 1)
    v.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.array([[2.0, 4.0], [3.0, 3.0]], np.float32))


def test_version_counter_and_inplace_checks_still_fire():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2.0
    z = y * y  # saves y
    y.mul_(3.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
    w = torch.tensor([0.5, 0.25], requires_grad=True)
    s = torch.exp(w)  # ExpBackward0 saves its result
    s.add_(1.0)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
        s.sum().backward()


def test_unary_entry_errors_and_torch_function_protocol():
    # PyTorch 2.13's messages (stored); the entry of an (input, *, out=None) op gives them as the
    # general entry does
    x = torch.ones(2)
    for call, msg in [(lambda: torch.sin(x, x), "sin() takes 1 positional argument but 2 were given"),
                      (lambda: torch.sin("a"),
                       "sin(): argument 'input' (position 1) must be Tensor, not str"),
                      (lambda: torch.sin(x, out="a"), "sin(): argument 'out' must be Tensor, not str")]:
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value) == msg
    with pytest.raises(TypeError, match="sin()"):
        torch.sin()
    seen = []

    class Mode(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append((func, len(args), dict(kwargs or {})))
            return func(*args, **(kwargs or {}))

    o = torch.empty(2)
    with Mode():
        torch.sin(x)
        torch.sin(x, out=o)
        torch.sin(x, out=None)
        torch.sin(input=x)
    sins = [(n, k) for f, n, k in seen if f is torch.sin]
    # the arguments as passed (PyTorch 2.13 hands input=x to a mode as a keyword too)
    assert sins == [(1, {}), (1, {"out": o}), (1, {"out": None}), (0, {"input": x})]

    class Sub(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append(("sub", func))
            return super().__torch_function__(func, types, args, kwargs or {})

    seen.clear()
    torch.sin(x.as_subclass(Sub))
    assert ("sub", torch.sin) in seen
