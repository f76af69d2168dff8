"""Round 23's defects of ``fgrad.torch`` (docs/torch-programs-round23.md), each against
PyTorch 2.13's numbers or messages stored here (printed by the same code with ``import
torch``) and, when PyTorch is installed, live."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch

# ---- sum/prod/nansum with a narrow integer dtype ---------------------------------------------------

_INT_DTYPES = ("int8", "uint8", "int16", "int32")


def _reductions(lib, name):
    dt = getattr(lib, name)
    a = lib.tensor([[100, 27], [100, 3]], dtype=lib.int32)
    flags = lib.tensor([[True, False], [True, True]])
    return {
        "sum": (a.sum(dtype=dt), lib.sum(a, 0, dtype=dt), a.sum(1, dtype=dt)),
        "prod": (a.prod(dtype=dt), a.prod(1, dtype=dt)),
        "nansum": (lib.nansum(a, dtype=dt),),
        "bool sum": (flags.sum(dtype=dt), flags.sum(0, dtype=dt)),
    }


def _described(results):
    return {k: [(str(r.dtype).removeprefix("torch."), r.tolist()) for r in v] for k, v in results.items()}


# PyTorch 2.13: the result has the dtype asked for, the total wrapped in it
_STORED = {
    "int8": {"sum": [("int8", -26), ("int8", [-56, 30]), ("int8", [127, 103])],
             "prod": [("int8", 16), ("int8", [-116, 44])], "nansum": [("int8", -26)],
             "bool sum": [("int8", 3), ("int8", [2, 1])]},
    "uint8": {"sum": [("uint8", 230), ("uint8", [200, 30]), ("uint8", [127, 103])],
              "prod": [("uint8", 16), ("uint8", [140, 44])], "nansum": [("uint8", 230)],
              "bool sum": [("uint8", 3), ("uint8", [2, 1])]},
    "int16": {"sum": [("int16", 230), ("int16", [200, 30]), ("int16", [127, 103])],
              "prod": [("int16", 23568), ("int16", [2700, 300])], "nansum": [("int16", 230)],
              "bool sum": [("int16", 3), ("int16", [2, 1])]},
    "int32": {"sum": [("int32", 230), ("int32", [200, 30]), ("int32", [127, 103])],
              "prod": [("int32", 810000), ("int32", [2700, 300])], "nansum": [("int32", 230)],
              "bool sum": [("int32", 3), ("int32", [2, 1])]},
}


@pytest.mark.parametrize("name", _INT_DTYPES)
def test_integer_reduction_has_the_dtype_asked_for(name):
    """``a.sum(dtype=torch.int32)`` (an int8 model's int32 accumulator) returned int64: NumPy's
    sum and prod widen narrow integers; PyTorch accumulates in the ``dtype`` given."""
    assert _described(_reductions(torch, name)) == _STORED[name]


@pytest.mark.parametrize("name", _INT_DTYPES)
def test_integer_reduction_as_live_pytorch(name):
    real = pytest.importorskip("torch")
    assert _described(_reductions(torch, name)) == _described(_reductions(real, name))


# ---- torch.fake_quantize_per_tensor_affine / fake_quantize_per_channel_affine ----------------------

_X = [-1.3, -0.25, 0.0, 0.15, 0.25, 0.35, 2.0, 100.0]


def _per_tensor(lib, dtype_name):
    x = lib.tensor(_X, dtype=getattr(lib, dtype_name), requires_grad=True)
    y = lib.fake_quantize_per_tensor_affine(x, 0.1, 3, 0, 15)
    y.sum().backward()
    tensor_qparams = lib.fake_quantize_per_tensor_affine(x, lib.tensor(0.1), lib.tensor(3.7), 0, 15)
    return str(y.dtype), y.tolist(), x.grad.tolist(), tensor_qparams.tolist()


_PER_TENSOR = {  # PyTorch 2.13 (a float zero-point tensor is truncated: 3.7 -> 3)
    "float32": ("torch.float32",
                [-0.30000001192092896, -0.20000000298023224, 0.0, 0.20000000298023224, 0.20000000298023224,
                 0.4000000059604645, 1.2000000476837158, 1.2000000476837158],
                [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0],
                [-0.30000001192092896, -0.20000000298023224, 0.0, 0.20000000298023224, 0.20000000298023224,
                 0.4000000059604645, 1.2000000476837158, 1.2000000476837158]),
    "float64": ("torch.float64",
                [-0.30000001192092896, -0.20000000298023224, 0.0, 0.20000000298023224, 0.20000000298023224,
                 0.4000000059604645, 1.2000000476837158, 1.2000000476837158],
                [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0],
                [-0.30000001192092896, -0.20000000298023224, 0.0, 0.20000000298023224, 0.20000000298023224,
                 0.4000000059604645, 1.2000000476837158, 1.2000000476837158]),
}


@pytest.mark.parametrize("dtype_name", sorted(_PER_TENSOR))
def test_fake_quantize_per_tensor_affine(dtype_name):
    """``torch.fake_quantize_per_tensor_affine`` (QAT code's activation quantizer) was missing.
    PyTorch multiplies by the float32 reciprocal of the scale (float32(0.35) * 10 rounds to 3.5,
    then to 4 half to even) and dequantizes in float32, also for a float64 input; the gradient
    is 1 inside the range, 0 where clamped."""
    assert _per_tensor(torch, dtype_name) == _PER_TENSOR[dtype_name]


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "float16", "bfloat16"])
def test_fake_quantize_per_tensor_affine_as_live_pytorch(dtype_name):
    real = pytest.importorskip("torch")
    assert _per_tensor(torch, dtype_name) == _per_tensor(real, dtype_name)


def test_fake_quantize_matches_the_formula_on_many_values():
    """Against PyTorch's arithmetic written in NumPy: ``rint(x * float32(1 / scale))``."""
    x = np.random.default_rng(0).standard_normal(20000).astype(np.float32) * 3
    for scale, zp in ((0.037, 5), (1 / 3, -7), (0.1, 0)):
        inv = np.float32(1) / np.float32(scale)
        q = np.clip(np.rint(x * inv) + zp, -128, 127)
        want = (q - zp).astype(np.float32) * np.float32(scale)
        got = torch.fake_quantize_per_tensor_affine(torch.from_numpy(x), scale, zp, -128, 127).numpy()
        np.testing.assert_array_equal(got, want)


def test_fake_quantize_gradient_is_differentiable_again():
    x = torch.tensor([-3.0, -0.4, 0.7, 3.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(torch.fake_quantize_per_tensor_affine(x, 0.5, 0, -2, 2).pow(2).sum(), x,
                               create_graph=True)
    assert g.tolist() == [0.0, -1.0, 1.0, 0.0]  # 2 * fq(x) inside the range, 0 where clamped
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [0.0, 2.0, 2.0, 0.0]  # straight through again, the mask a constant (PyTorch's)


def _per_channel(lib):
    w = lib.tensor([[0.26, -0.9, 0.05, 2.0], [0.26, -0.9, 0.05, 2.0], [-0.33, 0.71, -1.2, 0.0]],
                   requires_grad=True)
    s = lib.tensor([0.1, 0.25, 0.2])
    zp = lib.tensor([0, 1, -2], dtype=lib.int32)
    y = lib.fake_quantize_per_channel_affine(w, s, zp, 0, -8, 7)
    y.sum().backward()
    float_zp = lib.fake_quantize_per_channel_affine(w.double(), s, zp.float() + 0.5, 0, -8, 7)
    along_1 = lib.fake_quantize_per_channel_affine(w.T.detach(), s, zp, 1, -8, 7)
    return y.tolist(), w.grad.tolist(), str(float_zp.dtype), float_zp.tolist(), along_1.tolist()


def test_fake_quantize_per_channel_affine():
    """``torch.fake_quantize_per_channel_affine`` (per-output-channel weight quantizer) was
    missing: an int32 zero point is added after rounding, a float one before."""
    y, grad, dtype, float_zp, along_1 = _per_channel(torch)
    assert grad == [[1.0, 0.0, 1.0, 0.0], [1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0]]  # PyTorch 2.13
    assert y == [[0.30000001192092896, -0.800000011920929, 0.0, 0.699999988079071], [0.25, -1.0, 0.0, 1.5],
                 [-0.4000000059604645, 0.800000011920929, -1.2000000476837158, 0.0]]
    assert dtype == "torch.float64"  # a float zero point: dequantized in float64, after adding it
    assert float_zp == [[0.2500000037252903, -0.850000012665987, 0.05000000074505806, 0.6500000096857548],
                        [0.375, -0.875, 0.125, 1.375],
                        [-0.30000000447034836, 0.7000000104308128, -1.3000000193715096, -0.10000000149011612]]
    assert along_1 == [list(r) for r in zip(*y)]


def test_fake_quantize_per_channel_affine_as_live_pytorch():
    real = pytest.importorskip("torch")
    assert _per_channel(torch) == _per_channel(real)


def _refusal(lib, call):
    try:
        call(lib)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e).__name__, str(e)
    return None


_W = lambda lib: lib.ones(3, 4)  # noqa: E731
_S = lambda lib: lib.tensor([0.1, 0.05, 0.2])  # noqa: E731
_Z = lambda lib: lib.tensor([0, 1, -2], dtype=lib.int32)  # noqa: E731
_REFUSALS = {
    "quant_min > quant_max": (lambda lib: lib.fake_quantize_per_tensor_affine(_W(lib), 0.1, 3, 15, 0),
                              ("RuntimeError", "`quant_min` should be less than or equal to `quant_max`.")),
    "zero point out of range": (
        lambda lib: lib.fake_quantize_per_tensor_affine(_W(lib), 0.1, 30, 0, 15),
        ("RuntimeError", "`zero_point` must be between `quant_min` and `quant_max`.")),
    "int64 zero points": (lambda lib: lib.fake_quantize_per_channel_affine(_W(lib), _S(lib), _Z(lib).long(),
                                                                          0, -8, 7),
                          ("RuntimeError", "Zero-point must be Int32, Float or Half, found Long")),
    "double scales": (lambda lib: lib.fake_quantize_per_channel_affine(_W(lib), _S(lib).double(), _Z(lib), 0,
                                                                      -8, 7),
                      ("RuntimeError", "Scale must be Float or BFloat16, found Double")),
    "wrong axis size": (lambda lib: lib.fake_quantize_per_channel_affine(_W(lib), _S(lib), _Z(lib), 1, -8, 7),
                        ("RuntimeError", "dimensions of scale and zero-point are not consistent with input "
                                         "tensor")),
    "axis past the end": (
        lambda lib: lib.fake_quantize_per_channel_affine(_W(lib), _S(lib), _Z(lib), 2, -8, 7),
        ("IndexError", "Dimension out of range (expected to be in range of [-2, 1], but got 2)")),
    "negative axis": (lambda lib: lib.fake_quantize_per_channel_affine(_W(lib), _S(lib), _Z(lib), -2, -8, 7),
                      ("RuntimeError", "`axis` must be between 0 and number of dimensions of input")),
    "2-d scale": (lambda lib: lib.fake_quantize_per_channel_affine(_W(lib), _S(lib)[None], _Z(lib), 0, -8, 7),
                  ("RuntimeError", "scale should be a 1-D tensor")),
}


@pytest.mark.parametrize("name", sorted(_REFUSALS))
def test_fake_quantize_refusals(name):
    call, want = _REFUSALS[name]
    assert _refusal(torch, call) == want


@pytest.mark.parametrize("name", sorted(_REFUSALS))
def test_fake_quantize_refusals_as_live_pytorch(name):
    real = pytest.importorskip("torch")
    call, _ = _REFUSALS[name]
    got, want = _refusal(torch, call), _refusal(real, call)
    assert got[0] == want[0]
    assert " ".join(got[1].split()) == " ".join(want[1].split())  # (PyTorch's stray spaces)


def test_fake_quantize_refuses_an_integer_input():
    with pytest.raises(NotImplementedError, match="fake_quantize_per_tensor_affine.*'Int'"):
        torch.fake_quantize_per_tensor_affine(torch.ones(3, dtype=torch.int32), 0.1, 0, 0, 15)


# ---- torch.autograd.grad(..., is_grads_batched=True) -------------------------------------------------

def _batched_grads(lib):
    x = lib.tensor([0.5, 1.0, 2.0], dtype=lib.float64, requires_grad=True)
    w = lib.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, -1.0]], dtype=lib.float64, requires_grad=True)
    u = lib.tensor(3.0, dtype=lib.float64, requires_grad=True)
    y = w @ x.sin()
    eye = lib.eye(2, dtype=lib.float64)
    jac = lib.autograd.grad(y, (x, w), eye, retain_graph=True, is_grads_batched=True)
    unused = lib.autograd.grad(y, (x, u), lib.eye(2, dtype=lib.float64), retain_graph=True,
                               is_grads_batched=True, materialize_grads=True)[1]
    (g,) = lib.autograd.grad((x ** 3).sum(), x, create_graph=True)
    (hess,) = lib.autograd.grad(g, x, lib.eye(3, dtype=lib.float64), is_grads_batched=True)
    try:
        lib.autograd.grad((x * 2, x * 3), x, (lib.ones(2, 3), lib.ones(4, 3)), is_grads_batched=True)
    except ValueError as e:
        sizes = str(e)
    return [j.tolist() for j in jac], (tuple(unused.shape), unused.item()), hess.tolist(), sizes


def test_grad_with_batched_grad_outputs():
    """``autograd.grad(..., is_grads_batched=True)`` (a Jacobian's rows in one call) ignored the
    flag and refused the batched grad_outputs' shape."""
    jac, unused, hess, sizes = _batched_grads(torch)
    cos = np.cos([0.5, 1.0, 2.0])
    np.testing.assert_allclose(jac[0], [[1, 2, 3], [0, 1, -1]] * cos, rtol=1e-15)  # d(w @ sin x)/dx
    sin = np.sin([0.5, 1.0, 2.0])
    np.testing.assert_allclose(jac[1], [[sin, [0, 0, 0]], [[0, 0, 0], sin]], rtol=1e-15)
    assert unused == ((), 0.0)  # materialized without the batch dimension, as PyTorch's
    assert hess == [[3.0, 0.0, 0.0], [0.0, 6.0, 0.0], [0.0, 0.0, 12.0]]  # 6 x on the diagonal
    assert sizes == ("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                     "[2, 4] for the mapped dimension")


def test_grad_with_batched_grad_outputs_as_live_pytorch():
    real = pytest.importorskip("torch")
    got, want = _batched_grads(torch), _batched_grads(real)
    np.testing.assert_allclose(got[0][0], want[0][0], rtol=1e-15)
    np.testing.assert_allclose(got[0][1], want[0][1], rtol=1e-15)
    assert got[1:] == want[1:]


def test_grad_with_batched_grad_outputs_refuses_an_unbatched_one():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"interpret the first dimension of each grad_output as the batch "
                                           r"dimension.*grad_output\[0\] has a shape of "
                                           r"torch.Size\(\[\]\) and output\[0\] has a shape of "
                                           r"torch.Size\(\[2\]\)"):
        torch.autograd.grad(x * 2, x, torch.ones(2), is_grads_batched=True)


# ---- torch._assert -----------------------------------------------------------------------------------

def _asserted(lib):
    out = [lib._assert(lib.tensor(True), "fine"), lib._assert(3 > 2, "fine")]
    for condition in (lib.tensor(False), False, lib.tensor([True, True])):
        try:
            lib._assert(condition, "expected (N, S, E)")
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            out.append((type(e).__name__, str(e)))
    return out


def test_torch_assert():
    """``torch._assert`` (torchvision's VisionTransformer checks its input's shape with it) was
    missing."""
    ambiguous = "Boolean value of Tensor with more than one value is ambiguous"
    assert _asserted(torch) == [None, None, ("AssertionError", "expected (N, S, E)"),
                                ("AssertionError", "expected (N, S, E)"), ("RuntimeError", ambiguous)]


def test_torch_assert_as_live_pytorch():
    real = pytest.importorskip("torch")
    assert _asserted(torch) == _asserted(real)
