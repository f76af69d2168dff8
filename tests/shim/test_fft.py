"""``fgrad.torch.fft``: PyTorch's names, arguments, dtypes, values and gradients (stored
torch 2.13 numbers; live comparisons over transforms x options x dtypes when torch is
installed), finite differences, errors."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch

X = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]

# torch 2.13: value and gradient of sum(real(y) * w) + 0.5 * sum(imag(y) * w),
# w = linspace(0.5, 1.5) over y, for float64 X (complex128 X for hfft and irfft2)
STORED = [
    ("fft", {}, "complex128",
     [[1.5, 2.59807621j, -2.59807621j], [1, 1.75 - 0.8660254j, 1.75 + 0.8660254j]],
     [[2.1, -0.21339746, -0.38660254], [3.9, -0.21339746, -0.38660254]]),
    ("rfft", {"n": 4}, "complex128",
     [[1.5, -1.5 + 1j, 3.5], [1, 2.25 - 0.25j, 0.5]], [[2.1, -0.75, 0.7], [3.9, -1.05, 1.3]]),
    ("ihfft", {"norm": "ortho"}, "complex128",
     [[0.8660254, -1.5j], [0.57735027, 1.01036297 + 0.5j]],
     [[0.76980036, 0.25644586, -0.16022081], [1.53960072, 0.61556261, -0.13443739]]),
    ("fft2", {}, "complex128",
     [[2.5, 1.75 + 1.73205081j, 1.75 - 1.73205081j], [0.5, -1.75 + 3.46410162j, -1.75 - 3.46410162j]],
     [[6.0, -0.42679492, -0.77320508], [-1.8, 0.0, 0.0]]),
    ("rfftn", {"s": (2, 4)}, "complex128",
     [[2.5, 0.75 + 0.75j, 4], [0.5, -3.75 + 1.25j, 3]], [[6.0, -1.8, 2.0], [-1.8, 0.3, -0.6]]),
    ("hfft", {"n": 5}, "float64",
     [[2.5, -3.35410197, 3.35410197, 3.35410197, -3.35410197],
      [0.5, 2.86803399, 0.63196601, 0.63196601, 2.86803399]],
     [[3.61111111, -0.55555556, -0.55555556], [6.38888889, -0.55555556, -0.55555556]]),
    ("irfft2", {}, "float64",
     [[0.21875, 0.09375, 0.59375, 0.09375], [-0.09375, -0.46875, 0.53125, -0.46875]],
     [[1.0, -0.14285714, -0.07142857], [-0.28571429, 0.0, 0.0]]),
]


def _value_and_grad(lib, name, x, kw, complex_input=False):
    t = lib.tensor(x, dtype=lib.float64, requires_grad=True)
    y = getattr(lib.fft, name)(t.to(lib.complex128) if complex_input else t, **kw)
    w = lib.linspace(0.5, 1.5, y.numel(), dtype=lib.float64).reshape(tuple(y.shape))
    loss = (y.real * w).sum() + ((y.imag * w).sum() * 0.5 if y.is_complex() else 0)
    (g,) = lib.autograd.grad(loss, t)
    y = y.detach()
    if hasattr(y, "resolve_conj"):
        y = y.resolve_conj()
    return y, g


@pytest.mark.parametrize("name, kw, dtype, value, grad", STORED, ids=[c[0] for c in STORED])
def test_stored_torch_values_and_gradients(name, kw, dtype, value, grad):
    y, g = _value_and_grad(torch, name, X, kw, complex_input=name in ("hfft", "irfft2"))
    assert str(y.dtype) == f"torch.{dtype}"
    np.testing.assert_allclose(y.numpy(), np.array(value), atol=1e-7)
    np.testing.assert_allclose(g.numpy(), np.array(grad), atol=1e-7)


ONE_DIM = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
MANY_DIM = ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn",
            "hfftn", "ihfftn"]
REAL_ONLY = {"rfft", "ihfft", "rfft2", "ihfft2", "rfftn", "ihfftn"}
CASES = ([(n, kw, (4, 6)) for n in ONE_DIM
          for kw in [{}, {"n": 5}, {"n": 3, "norm": "ortho"}, {"dim": 0, "norm": "forward"}]]
         + [(n, kw, (3, 4, 6)) for n in MANY_DIM
            for kw in [{}, {"s": (3, 5)}, {"dim": (0, 2), "norm": "ortho"}, {"s": (4,), "norm": "forward"}]])


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("name, kw, shape", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_live_torch(name, kw, shape, dtype):
    real_torch = pytest.importorskip("torch")
    if dtype == "complex128" and name in REAL_ONLY:
        pytest.skip("real-input transform")
    rng = np.random.default_rng(abs(hash((name, str(kw), dtype))) % 2**32)
    x = rng.normal(size=shape).astype(dtype)
    if dtype == "complex128":
        x = x + 1j * rng.normal(size=shape)

    def run(lib):
        t = lib.tensor(x, requires_grad=True)
        y = getattr(lib.fft, name)(t, **kw)
        w = lib.tensor(np.linspace(0.3, 1.7, y.numel()).reshape(tuple(y.shape)), dtype=t.real.dtype)
        loss = (y.real * w).sum() + ((y.imag * w * 0.5).sum() if y.is_complex() else 0)
        (g,) = lib.autograd.grad(loss, t)
        y, g = y.detach(), g.detach()
        if lib is real_torch:
            y, g = y.resolve_conj(), g.resolve_conj()
        return y.numpy(), str(y.dtype), g.numpy()

    try:
        ref = run(real_torch)
    except Exception as exc:  # PyTorch refuses these arguments: so must we, with its error type
        with pytest.raises(type(exc)):
            run(torch)
        return
    ours = run(torch)
    tol = 2e-4 if dtype == "float32" else 1e-10
    assert ours[1] == ref[1]
    assert ours[0].shape == ref[0].shape
    np.testing.assert_allclose(ours[0], ref[0], rtol=tol, atol=tol)
    np.testing.assert_allclose(ours[2], ref[2], rtol=tol, atol=tol)


@pytest.mark.parametrize("name", ["fft", "rfft", "ihfft", "fft2", "irfftn", "hfft"])
def test_finite_differences(name):
    x = torch.tensor(np.random.default_rng(3).normal(size=(3, 4)), requires_grad=True)
    fn = getattr(torch.fft, name)

    def f(t):
        y = fn(t.to(torch.complex128) if name in ("irfftn", "hfft") else t)
        return (y.real * 1.3 + y.imag * 0.7) if y.is_complex() else y

    assert torch.autograd.gradcheck(f, (x,))
    assert torch.autograd.gradgradcheck(f, (x,))


def test_dtypes_and_freqs():
    assert torch.fft.fft(torch.arange(4)).dtype == torch.complex64  # ints: default float first
    assert torch.fft.fft(torch.ones(4, dtype=torch.float32)).dtype == torch.complex64
    assert torch.fft.irfft(torch.ones(3, dtype=torch.complex64)).dtype == torch.float32
    np.testing.assert_allclose(torch.fft.fftfreq(5, d=0.5).numpy(), np.fft.fftfreq(5, d=0.5), rtol=1e-6)
    assert torch.fft.rfftfreq(6).dtype == torch.float32
    np.testing.assert_allclose(torch.fft.rfftfreq(6, dtype=torch.float64).numpy(), np.fft.rfftfreq(6))
    x = torch.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(torch.fft.fftshift(x).numpy(), np.fft.fftshift(x.numpy()))
    np.testing.assert_array_equal(torch.fft.ifftshift(x, dim=1).numpy(), np.fft.ifftshift(x.numpy(), axes=1))
    out = torch.empty(0, dtype=torch.complex128)
    torch.fft.fft(torch.ones(3, dtype=torch.float64), out=out)
    np.testing.assert_allclose(out.numpy(), [3, 0, 0])


def test_errors_are_pytorchs():
    with pytest.raises(RuntimeError, match="rfft expects a real input"):
        torch.fft.rfft(torch.ones(3, dtype=torch.complex64))
    with pytest.raises(ValueError, match="Invalid normalization mode"):
        torch.fft.fft(torch.ones(3), norm="bogus")
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.fft.fft(torch.ones(3), dim=2)
    with pytest.raises(RuntimeError, match="Invalid number of data points"):
        torch.fft.fft(torch.ones(3), n=0)
    with pytest.raises(TypeError, match="must be Tensor"):
        torch.fft.fft([1.0, 2.0])


def test_out_goes_through_the_shims_write_out():
    """``out=`` follows PyTorch's rules (the shared write_out): a resized non-empty ``out``
    warns, an ``out`` that requires grad is refused."""
    out = torch.empty(2, dtype=torch.complex128)
    with pytest.warns(UserWarning, match="was resized"):
        torch.fft.fft(torch.ones(3, dtype=torch.float64), out=out)
    np.testing.assert_allclose(out.numpy(), [3, 0, 0])
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        torch.fft.fft(torch.ones(3, dtype=torch.float64, requires_grad=True),
                      out=torch.empty(0, dtype=torch.complex128))
