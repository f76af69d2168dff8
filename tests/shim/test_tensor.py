"""fgrad.torch Tensor basics: creation, dtypes and PyTorch promotion, printing, conversions.

Where PyTorch is installed, snippets run under both libraries and their printed output must
match (object addresses blanked); the recorded expectations below were produced by
torch 2.13.0 (CPU) and keep the checks meaningful without it.
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings

import numpy as np
import pytest

import fgrad.torch as ft
from _peers import comparable_text, torch_or_none

_ADDR = re.compile(r"0x[0-9a-fA-F]+")


def _run(code: str, lib) -> str:
    buf = io.StringIO()
    g = {"t": lib, "np": np}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with contextlib.redirect_stdout(buf):
                exec(code, g)
        except Exception as e:  # noqa: BLE001 - the error message is part of the behaviour
            buf.write(f"EXC {type(e).__name__}: {e}\n")
    return _ADDR.sub("0x?", buf.getvalue())


def _torch():
    return torch_or_none()


def same_as_torch(code: str, expected: str | None = None, cpu_only: bool = False) -> None:
    """``code`` prints the same under fgrad.torch as under PyTorch (live when installed,
    else the recorded ``expected``; ``cpu_only``: the recorded output is a CPU-only
    PyTorch's, the reference also where the installed PyTorch has CUDA)."""
    ours = _run(code, ft)
    torch = _torch()
    if cpu_only and torch is not None and torch.cuda.is_available():
        torch = None
    if torch is not None:  # another release's messages differ: then the types and values
        assert comparable_text(ours, torch) == comparable_text(_run(code, torch), torch), code
    elif expected is not None:
        assert ours == expected, code
    else:
        pytest.skip("torch not installed and no recorded expectation")


# ---------------------------------------------------------------------------------------
# printing


REPRS = [
    ("print(t.tensor([1., 2.]))", "tensor([1., 2.])\n"),
    ("print(t.tensor(3.14159))", "tensor(3.1416)\n"),
    ("print(t.tensor([[1, 2]]))", "tensor([[1, 2]])\n"),
    ("print(t.tensor([1, 2.5]))", "tensor([1.0000, 2.5000])\n"),
    ("print(t.tensor([True, False]))", "tensor([ True, False])\n"),
    ("print(t.tensor([1e10, 1.]))", "tensor([1.0000e+10, 1.0000e+00])\n"),
    ("print(t.tensor([1e-5, 1.]))", "tensor([1.0000e-05, 1.0000e+00])\n"),
    ("print(t.tensor([1.5, float('nan'), float('inf')]))", "tensor([1.5000,    nan,    inf])\n"),
    ("print(t.tensor([100., 2.]))", "tensor([100.,   2.])\n"),
    ("print(t.tensor([-0., 1.]))", "tensor([-0., 1.])\n"),
    ("print(t.tensor([1.123456789, 1000.]))", "tensor([   1.1235, 1000.0000])\n"),
    (
        "print(t.tensor([[0.11111, 0.222222, 0.3333333]], dtype=t.float64))",
        "tensor([[0.1111, 0.2222, 0.3333]], dtype=torch.float64)\n",
    ),
    (
        "print(t.ones(2, 3, dtype=t.float64, requires_grad=True))",
        "tensor([[1., 1., 1.],\n        [1., 1., 1.]], dtype=torch.float64, requires_grad=True)\n",
    ),
    (
        "print(t.tensor([1, 2], dtype=t.int32), t.tensor(2, dtype=t.uint8))",
        "tensor([1, 2], dtype=torch.int32) tensor(2, dtype=torch.uint8)\n",
    ),
    (
        "print(t.empty(0, 3), t.empty(0), t.empty(2, 0, dtype=t.int64))",
        "tensor([], size=(0, 3)) tensor([]) tensor([], size=(2, 0), dtype=torch.int64)\n",
    ),
    (
        "print(t.tensor([[1., 2.], [3., 4.]], dtype=t.float16))",
        "tensor([[1., 2.],\n        [3., 4.]], dtype=torch.float16)\n",
    ),
    (
        "print(t.arange(12).view(3, 4))",
        "tensor([[ 0,  1,  2,  3],\n        [ 4,  5,  6,  7],\n        [ 8,  9, 10, 11]])\n",
    ),
    ("print(t.tensor(1+2j))", "tensor(1.+2.j)\n"),
    (
        "x = t.ones(2, requires_grad=True); print(x * 2, (x * 2).sum())",
        "tensor([2., 2.], grad_fn=<MulBackward0>) tensor(4., grad_fn=<SumBackward0>)\n",
    ),
]


@pytest.mark.parametrize("code,expected", REPRS)
def test_repr_matches_pytorch(code, expected):
    same_as_torch(code, expected)


def test_repr_summarizes_large_tensors():
    same_as_torch("print(t.arange(2000.)); print(t.arange(3000.).view(1000, 3))")
    s = repr(ft.arange(2000.0))
    assert "..." in s and s.startswith("tensor([0.0000e+00,")


def test_repr_wraps_long_rows_at_80_columns():
    same_as_torch("print(t.arange(30.).view(2, 15) * 1.23456)")
    lines = repr(ft.arange(30.0).view(2, 15) * 1.23456).splitlines()
    assert max(len(line) for line in lines) <= 80


def test_print_options_change_precision():
    try:
        ft.set_printoptions(precision=2)
        assert repr(ft.tensor([1.12345])) == "tensor([1.12])"
    finally:
        ft.set_printoptions(profile="default")
    assert repr(ft.tensor([1.12345])) == "tensor([1.1235])"


def test_format_of_scalars():
    assert f"{ft.tensor(2.5):.2f}" == "2.50"
    assert "%s" % ft.tensor(3.14159) == "tensor(3.1416)"


# ---------------------------------------------------------------------------------------
# creation and dtypes


def test_default_dtypes():
    assert ft.tensor([1.0, 2.0]).dtype is ft.float32
    assert ft.tensor([1, 2]).dtype is ft.int64
    assert ft.tensor([True]).dtype is ft.bool
    assert ft.tensor([1, 2.0]).dtype is ft.float32
    assert ft.tensor(np.array([1.0, 2.0])).dtype is ft.float64
    assert ft.tensor(np.float64(2)).dtype is ft.float64
    assert ft.Tensor([1, 2]).dtype is ft.float32
    assert ft.zeros(2).dtype is ft.float32
    assert ft.arange(3).dtype is ft.int64 and ft.arange(3.0).dtype is ft.float32
    assert ft.full((2,), 7).dtype is ft.int64 and ft.full((2,), 1.5).dtype is ft.float32
    assert ft.randperm(4).dtype is ft.int64 and ft.randint(0, 3, (2,)).dtype is ft.int64


def test_set_default_dtype():
    try:
        ft.set_default_dtype(ft.float64)
        assert ft.tensor([1.0]).dtype is ft.float64
        assert (ft.tensor([1, 2]) / 2).dtype is ft.float64
        assert repr(ft.tensor([1.5])) == "tensor([1.5000])"
    finally:
        ft.set_default_dtype(ft.float32)
    assert ft.tensor([1.0]).dtype is ft.float32


@pytest.mark.parametrize(
    "expr,dtype",
    [
        ("t.tensor([1, 2]) + 2.5", "float32"),
        ("t.tensor([1, 2]) / 2", "float32"),
        ("t.tensor([1, 2]) // 2", "int64"),
        ("t.tensor([1, 2], dtype=t.int32) * True", "int32"),
        ("t.tensor([1, 2], dtype=t.int32) + t.tensor(2.5, dtype=t.float64)", "float64"),
        ("t.tensor([1.]) + t.tensor(1., dtype=t.float64)", "float32"),
        ("t.tensor([1.]) + t.tensor([1.], dtype=t.float64)", "float64"),
        ("t.tensor([True]) + 1", "int64"),
        ("t.tensor(1, dtype=t.int8) + t.tensor([1], dtype=t.uint8)", "uint8"),
        ("t.tensor([1.], dtype=t.float16) + t.tensor(1., dtype=t.float64)", "float16"),
        ("t.tensor([1, 2], dtype=t.int32) + (1 + 2j)", "complex64"),
        ("t.ones(2) * np.float64(2)", "float32"),
        ("t.tensor([1, 2]).sqrt()", "float32"),
        ("t.tensor([1, 2]).sum()", "int64"),
        ("t.tensor([True, False]).sum()", "int64"),
        ("t.tensor([1, 2]) ** 2", "int64"),
        ("t.tensor([1, 2]) ** 2.0", "float32"),
        ("2 ** t.tensor([1, 2])", "int64"),
        ("t.tensor([1, 2]) > 1", "bool"),
    ],
)
def test_pytorch_promotion(expr, dtype):
    res = eval(expr, {"t": ft, "np": np})
    assert str(res.dtype) == "torch." + dtype
    torch = _torch()
    if torch is not None:
        assert str(eval(expr, {"t": torch, "np": np}).dtype) == "torch." + dtype


def test_promote_types_and_result_type():
    assert ft.promote_types(ft.uint8, ft.int8) is ft.int16
    assert ft.promote_types(ft.float16, ft.int64) is ft.float16
    assert ft.promote_types(ft.complex64, ft.float64) is ft.complex128
    assert ft.result_type(ft.tensor([1, 2]), 1.0) is ft.float32
    assert ft.can_cast(ft.float32, ft.int32) is False and ft.can_cast(ft.int32, ft.float32) is True


def test_dtype_objects():
    assert repr(ft.float32) == "torch.float32" and ft.float is ft.float32 and ft.double is ft.float64
    assert ft.long is ft.int64 and ft.int is ft.int32 and ft.half is ft.float16
    assert ft.float32.is_floating_point and not ft.int64.is_floating_point and ft.float32.itemsize == 4
    assert ft.finfo(ft.float32).eps == np.finfo(np.float32).eps
    assert ft.iinfo(ft.int8).max == 127


def test_legacy_constructors():
    same_as_torch(
        "a = t.Tensor(2, 3); b = t.Tensor([[1, 2, 3], [4, 5, 6]]); print(a.shape, b.tolist(), b.numel(), "
        "b.nelement(), t.Tensor(b.size()).shape, t.Tensor((2, 3)))\n"
        "print(t.FloatTensor([1, 2]), t.LongTensor([1, 2]), t.DoubleTensor(2).shape, t.IntTensor([1]), "
        "t.ByteTensor([1, 2]), t.LongTensor(2, 3).shape, repr(t.Tensor()))",
        "torch.Size([2, 3]) [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] 6 6 torch.Size([2, 3]) tensor([2., 3.])\n"
        "tensor([1., 2.]) tensor([1, 2]) torch.Size([2]) tensor([1], dtype=torch.int32) "
        "tensor([1, 2], dtype=torch.uint8) torch.Size([2, 3]) tensor([])\n",
    )
    x = ft.ones(2)
    assert isinstance(x, ft.FloatTensor) and not isinstance(x, ft.DoubleTensor)
    assert x.type() == "torch.FloatTensor" and x.long().type() == "torch.LongTensor"
    assert x.type(ft.float64).dtype is ft.float64 and x.type("torch.IntTensor").dtype is ft.int32


def test_conversions_and_casts():
    x = ft.tensor([[1.7, -2.2]], dtype=ft.float64)
    assert x.float().dtype is ft.float32 and x.long().tolist() == [[1, -2]]
    assert x.int().dtype is ft.int32 and x.to(ft.float16).dtype is ft.float16
    assert x.to("cpu") is x and x.cpu() is x and x.to(ft.float64) is x
    assert x.to(ft.ones(1)).dtype is ft.float32
    assert x.double() is x and x.type_as(ft.ones(1, dtype=ft.int64)).dtype is ft.int64
    assert x.bool().tolist() == [[True, True]]


def test_size_and_metadata():
    x = ft.zeros(5, 3)
    s = x.size()
    assert isinstance(s, tuple) and isinstance(s, ft.Size)
    assert repr(s) == "torch.Size([5, 3])" and s[1] == x.size(1) == 3 and x.size(-1) == 3
    assert x.shape == (5, 3) and x.dim() == 2 and x.ndim == 2 and x.numel() == 15 and x.nelement() == 15
    assert x.element_size() == 4 and ft.Size([2, 3]).numel() == 6
    assert isinstance(s[0:1], ft.Size)
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.size(2)


def test_item_tolist_and_scalar_conversions():
    assert ft.tensor([2]).item() == 2 and isinstance(ft.tensor([2]).item(), int)
    assert ft.tensor(2.5).item() == 2.5 and float(ft.tensor(2.5)) == 2.5 and int(ft.tensor(3.9)) == 3
    assert ft.arange(4).view(2, 2).tolist() == [[0, 1], [2, 3]]
    with pytest.raises(RuntimeError, match="a Tensor with 6 elements cannot be converted to Scalar"):
        ft.ones(2, 3).item()
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        bool(ft.ones(2))
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(ft.tensor(1.0))
    assert [1, 2, 3][ft.tensor(1)] == 2


def test_device_objects_and_cuda(no_cuda):
    same_as_torch(
        "print(t.device('cuda:0'), repr(t.device('cuda:0')), repr(t.device('cpu')), repr(t.device('cuda', "
        "0)), "
        "t.randn(3, 4).device, t.cuda.is_available())",
        "cuda:0 device(type='cuda', index=0) device(type='cpu') device(type='cuda', index=0) cpu False\n",
        cpu_only=True,
    )
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        ft.ones(2).cuda()
    with pytest.raises(AssertionError, match="CUDA"):
        ft.ones(2).to(ft.device("cuda:0"))
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda"):
        ft.device("gpu")
    assert ft.device("cpu") == ft.device("cpu") and ft.ones(1, device="cpu").device == ft.device("cpu")


def test_requires_grad_rules():
    x = ft.ones(2)
    assert not x.requires_grad and x.is_leaf
    assert x.requires_grad_() is x and x.requires_grad
    x.requires_grad = False
    assert not x.requires_grad
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
        ft.ones(2, dtype=ft.int64).requires_grad_()
    y = ft.ones(2, requires_grad=True) * 1
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        y.requires_grad_(False)
    with pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        ft.ones(2, dtype=ft.int64, requires_grad=True)


def test_numpy_bridge_requires_detach():
    x = ft.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires grad"):
        x.numpy()
    assert x.detach().numpy().tolist() == [1.0, 1.0]
    with ft.no_grad():
        assert x.numpy().tolist() == [1.0, 1.0]


def test_tensor_constructor_copies_and_warns():
    old = ft.tensor([3, 4])
    with pytest.warns(UserWarning, match="To copy construct from a tensor"):
        new = ft.tensor(old)
    new[0] = 1111
    assert old.tolist() == [3, 4] and new.tolist() == [1111, 4]


def test_creation_functions():
    same_as_torch(
        "print(t.ones(2, 3), t.zeros(2, 3), t.arange(1, 6, 2), t.linspace(1, 10, 3), t.eye(2, 3, "
        "dtype=t.int))\n"
        "print(t.arange(0, 1, 0.25), t.linspace(0, 1, 7).tolist(), t.arange(-1, 1.4, 0.2).tolist())\n"
        "print(t.zeros_like(t.ones(2)), t.ones_like(t.ones(2, dtype=t.int32)), t.full_like(t.ones(2), 3), "
        "t.empty(2, 3).shape, t.eye(3), t.tensor([]).shape, t.zeros((2, 1)).shape, t.ones([3]).shape)\n"
        "a = t.ones(2, dtype=t.float64); print(a.new_zeros(3), a.new_ones(2, 2), a.new_tensor([1, 2]), "
        "a.new_full((2,), 3.), a.new_empty(1).dtype)"
    )


def test_random_generator_is_seeded_and_stateful():
    ft.manual_seed(1000)
    a = ft.rand(5, 3)
    b = ft.randn(4)
    ft.manual_seed(1000)
    assert ft.equal(a, ft.rand(5, 3)) and ft.equal(b, ft.randn(4))
    assert not ft.equal(ft.rand(5, 3), a)  # the generator advanced
    assert 0 <= float(a.min()) and float(a.max()) < 1 and a.dtype is ft.float32
    g = ft.Generator().manual_seed(3)
    s = g.get_state()
    x = ft.rand(3, generator=g)
    g.set_state(s)
    assert ft.equal(x, ft.rand(3, generator=g))
    assert sorted(ft.randperm(6).tolist()) == list(range(6))
    r = ft.randint(2, 5, (100,))
    assert int(r.min()) >= 2 and int(r.max()) <= 4
    n = ft.normal(2.0, 3.0, size=(20000,))
    assert abs(float(n.mean()) - 2.0) < 0.1 and abs(float(n.std()) - 3.0) < 0.1
    u = ft.empty(10000).uniform_(-1, 1)
    assert -1 <= float(u.min()) and float(u.max()) < 1
    z = ft.empty(20000, dtype=ft.float64).normal_(1.0, 0.5)
    assert abs(float(z.mean()) - 1.0) < 0.05 and z.dtype is ft.float64
    assert ft.rand_like(ft.ones(2, dtype=ft.float64)).dtype is ft.float64


def test_misc_predicates():
    x = ft.ones(2)
    assert ft.is_tensor(x) and not ft.is_tensor(np.ones(2)) and ft.numel(x) == 2
    assert ft.is_floating_point(x) and not ft.is_complex(x) and ft.ones(1).is_nonzero()
    assert ft.is_storage(x.untyped_storage())
