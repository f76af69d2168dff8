"""Defects found by ``tools/torch_fuzz.py`` (differential fuzzing of ``fgrad.torch`` against
PyTorch 2.13), each pinned by analytic numbers, finite differences or PyTorch's numbers stored
here; the live comparison runs where torch is installed. See docs/shim-conventions.md."""

from __future__ import annotations

import cmath
import math

import numpy as np
import pytest

import fgrad.torch as ft

inf, nan = math.inf, math.nan


def test_complex_acosh_gradient_is_the_principal_branchs():
    # d/dz acosh z = 1 / (sqrt(z - 1) sqrt(z + 1)); 1 / sqrt(z^2 - 1) has the wrong sign where Re z < 0.
    # PyTorch's gradient of a real loss is the conjugate of the derivative.
    zs = [-2.9173183 + 0.8973695j, 0.3 - 0.2j, 2 + 1j, -0.5 - 3j]
    z = ft.tensor(zs, dtype=ft.complex128, requires_grad=True)
    (g,) = ft.autograd.grad(ft.acosh(z).real.sum(), z)
    want = [(1 / (cmath.sqrt(w - 1) * cmath.sqrt(w + 1))).conjugate() for w in zs]
    h = 1e-6
    fd = [((cmath.acosh(w + h) - cmath.acosh(w - h)) / (2 * h)).conjugate() for w in zs]
    np.testing.assert_allclose(g.numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(g.numpy(), fd, rtol=1e-8)
    assert abs(g.numpy()[0] - (-0.32418340678574964 + 0.11157381685222845j)) < 1e-7  # PyTorch's


def test_real_acosh_gradient_keeps_pytorchs_formula():
    x = ft.tensor([-2.0, -0.5, 1.0, 3.0], dtype=ft.float64, requires_grad=True)
    (g,) = ft.autograd.grad(ft.acosh(x).sum(), x)
    np.testing.assert_allclose(g.numpy(), [1 / math.sqrt(3), nan, inf, 1 / math.sqrt(8)])  # PyTorch's


HARDSWISH_X = [inf, -inf, 3.0, -3.0, 1.0, nan, -4.0, 2.9]
# PyTorch 2.13's value, gradient and second derivative at HARDSWISH_X
HARDSWISH_Y = [inf, nan, 3.0, -0.0, 2 / 3, nan, -0.0, 2.9 * 5.9 / 6]
HARDSWISH_G = [1.0, 0.0, 1.0, 0.0, 5 / 6, 1.0, 0.0, 2.9 / 3 + 0.5]
HARDSWISH_GG = [0.0, 0.0, 0.0, 0.0, 1 / 3, 0.0, 0.0, 1 / 3]


def _hardswish_numbers(T):
    x = T.tensor(HARDSWISH_X, dtype=T.float64, requires_grad=True)
    y = T.nn.functional.hardswish(x)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return y.detach().numpy(), g.detach().numpy(), gg.numpy()


def test_hardswish_at_infinities_nan_and_minus_three():
    # the gradient at +inf was NaN (the middle branch's inf derivative times a zero cotangent),
    # the value at -inf 0 and at -3 +0 (PyTorch's kernel x * clamp(x + 3, 0, 6) / 6: NaN, -0)
    y, g, gg = _hardswish_numbers(ft)
    np.testing.assert_allclose(y, HARDSWISH_Y, rtol=1e-15)
    assert np.signbit(y[3]) and np.signbit(y[6])
    np.testing.assert_allclose(g, HARDSWISH_G, rtol=1e-15)
    np.testing.assert_allclose(gg, HARDSWISH_GG, rtol=1e-15)


def test_hardswish_numbers_match_live_torch():
    torch = pytest.importorskip("torch")
    for mine, theirs in zip(_hardswish_numbers(ft), _hardswish_numbers(torch)):
        np.testing.assert_array_equal(mine, theirs)


def test_angle_of_real_input_keeps_nan_and_is_recorded():
    x = ft.tensor([nan, -inf, inf, -0.0, -2.0, 3.0], requires_grad=True)
    y = ft.angle(x)
    np.testing.assert_array_equal(y.detach().numpy(), np.float32([nan, math.pi, 0, 0, math.pi, 0]))
    assert y.requires_grad and y.grad_fn is not None  # as PyTorch: recorded, gradient zero
    (g,) = ft.autograd.grad((2 * y).sum(), x)
    np.testing.assert_array_equal(g.numpy(), np.zeros(6, np.float32))
    assert ft.angle(ft.tensor([-1, 2, 0])).dtype == ft.float32


@pytest.mark.parametrize("shape", [(0,), (2, 0), (2, 0, 3)])
def test_in_place_ops_on_empty_tensors(shape):
    # NumPy gives empty arrays zero strides; the overlap check took them for broadcast views
    x = ft.zeros(shape).clone()
    assert x.floor_() is x and x.add_(1) is x and x.shape == shape
    assert x._version == 2


def test_empty_tensors_report_pytorchs_contiguous_strides():
    assert ft.empty(2, 0, 3).stride() == (3, 3, 1)  # PyTorch's
    assert ft.empty(0, 3).stride() == (3, 1)
    assert ft.tensor([[], []]).stride() == (1, 1)
    assert ft.empty(2, 0, 3).is_contiguous()


def _blocks_input():
    a = np.arange(16.0).reshape(1, 1, 4, 4)
    a[0, 0, 1, 1] = inf
    return a


def test_unfold_keeps_an_inf_in_its_own_blocks():
    # unfold was a convolution with a one-hot kernel: inf * 0 made NaN of every block near an inf
    a = _blocks_input()
    x = ft.tensor(a, requires_grad=True)
    y = ft.nn.functional.unfold(x, 2, padding=1, stride=2)
    # im2col by hand: the zero-padded input's 2x2 windows at stride 2, offsets as rows
    padded = np.pad(a[0, 0], 1)
    want = np.stack([padded[i:i + 5:2, j:j + 5:2].ravel() for i in range(2) for j in range(2)])
    np.testing.assert_array_equal(y.detach().numpy()[0], want)
    assert not np.isnan(y.detach().numpy()).any()
    (g,) = ft.autograd.grad(y.sum(), x)  # each input element lies in exactly one window here
    np.testing.assert_array_equal(g.numpy(), np.ones_like(a))


def test_fold_keeps_an_inf_where_it_lands():
    cols = np.arange(16.0).reshape(1, 4, 4)
    cols[0, 0, 1] = inf  # offset (0, 0) of block 1, which lands at (0, 1)
    y = ft.nn.functional.fold(ft.tensor(cols), (3, 3), 2).numpy()[0, 0]
    want = np.zeros((3, 3))
    for b in range(4):  # col2im by hand: block b at (b // 2, b % 2), offsets (i, j)
        for i in range(2):
            for j in range(2):
                want[b // 2 + i, b % 2 + j] += cols[0, 2 * i + j, b]
    np.testing.assert_array_equal(y, want)
    assert np.isinf(y[0, 1]) and not np.isnan(y).any()


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8"])
def test_unfold_and_fold_of_integers_raise_pytorchs_error(dtype):
    dt = getattr(ft, dtype)
    with pytest.raises(NotImplementedError, match="im2col_out_cpu"):
        ft.nn.functional.unfold(ft.ones(1, 1, 2, 2, dtype=dt), 2)
    with pytest.raises(NotImplementedError, match="col2im_out_cpu"):
        ft.nn.functional.fold(ft.ones(1, 4, 4, dtype=dt), (3, 3), 2)
    assert ft.nn.functional.unfold(ft.ones(1, 1, 2, 2, dtype=ft.bool), 2).dtype == ft.bool


def test_chunk_of_an_empty_dimension_gives_chunks_pieces():
    assert len(ft.tensor([]).chunk(2)) == 2  # PyTorch: 2 (fgrad gave 1)
    assert [tuple(t.shape) for t in ft.zeros(2, 0).chunk(3, 1)] == [(2, 0)] * 3


def test_cat_records_and_promotes_skipped_empty_tensors():
    # PyTorch skips 1-D empty tensors in cat's shape checks only: they still promote the
    # dtype and are recorded (the result requires grad; their gradients are empty)
    a = ft.tensor([], dtype=ft.complex64, requires_grad=True)
    b = ft.tensor([], dtype=ft.float64, requires_grad=True)
    r = ft.cat([a, b])
    assert r.dtype == ft.complex128 and r.requires_grad
    assert ft.cat([ft.tensor([], dtype=ft.complex64), ft.ones(1, dtype=ft.float64)]).dtype == ft.complex128
    e, x = ft.zeros(0, requires_grad=True), ft.ones(2, 3, requires_grad=True)
    y = ft.cat([e, x, e], 1)
    ge, gx = ft.autograd.grad((y * 2).sum(), [e, x])
    assert y.shape == (2, 3) and ge.shape == (0,)
    np.testing.assert_array_equal(gx.numpy(), np.full((2, 3), 2.0, np.float32))


def test_addmm_family_truncates_float_scalars_for_integer_tensors():
    # PyTorch casts beta/alpha to the integer type: 0.5 -> 0, 1.5 -> 1, 0.7 -> 0 (fgrad gave float64 3.5)
    M, a = ft.full((2, 2), 3), ft.ones(2, 2, dtype=ft.int64)
    r = ft.addmm(M, a, a, beta=0.5)
    assert r.dtype == ft.int64 and r.tolist() == [[2, 2], [2, 2]]
    assert ft.addmm(M, a, a, beta=1.5, alpha=0.7).tolist() == [[3, 3], [3, 3]]
    assert ft.addmv(M[0], a, a[0], beta=0.5).tolist() == [2, 2]
    assert ft.baddbmm(M[None], a[None], a[None], beta=0.5).dtype == ft.int64
    assert ft.addmm(M.float(), a.float(), a.float(), beta=0.5).tolist() == [[3.5, 3.5], [3.5, 3.5]]


def test_addr_refuses_float_scalars_for_integer_tensors():
    M, v = ft.full((2, 2), 3), ft.ones(2, dtype=ft.int64)
    with pytest.raises(RuntimeError, match="argument alpha must not be a floating point"):
        ft.addr(M, v, v, alpha=1.5)
    with pytest.raises(RuntimeError, match="argument beta must not be a floating point"):
        ft.addr(M, v, v, beta=1.5)
    assert ft.addr(M, v, v, beta=2).tolist() == [[7, 7], [7, 7]]


ZERO_D_DIM_OPS = {  # PyTorch takes dim 0 or -1 of a 0-d tensor: (f, PyTorch's value at x = 2.0)
    "sum": (lambda T, x: T.sum(x, 0), 2.0), "sum_keepdim": (lambda T, x: T.sum(x, -1, keepdim=True), 2.0),
    "mean": (lambda T, x: T.mean(x, (0,)), 2.0), "prod": (lambda T, x: T.prod(x, 0), 2.0),
    "amax": (lambda T, x: T.amax(x, 0), 2.0), "amin": (lambda T, x: T.amin(x, (-1,)), 2.0),
    "any": (lambda T, x: T.any(x, 0), True), "all": (lambda T, x: T.all(x, 0), True),
    "count_nonzero": (lambda T, x: T.count_nonzero(x, 0), 1), "nansum": (lambda T, x: T.nansum(x, 0), 2.0),
    "nanmean": (lambda T, x: T.nanmean(x, 0), 2.0), "logsumexp": (lambda T, x: T.logsumexp(x, 0), 2.0),
    "var_unbiased": (lambda T, x: T.var(x, 0, correction=0), 0.0),
    "norm": (lambda T, x: T.linalg.vector_norm(x, dim=0), 2.0),
    "normalize": (lambda T, x: T.nn.functional.normalize(x, dim=0), 1.0),
    "softmax": (lambda T, x: T.softmax(x, 0), 1.0), "log_softmax": (lambda T, x: T.log_softmax(x, -1), 0.0),
    "softmin": (lambda T, x: T.nn.functional.softmin(x, 0), 1.0),
    "flip": (lambda T, x: T.flip(x, (0,)), 2.0), "movedim": (lambda T, x: T.movedim(x, 0, -1), 2.0),
    "quantile": (lambda T, x: T.quantile(x, 0.3, 0), 2.0),
}


@pytest.mark.parametrize("name", sorted(ZERO_D_DIM_OPS))
def test_dim_zero_of_a_zero_d_tensor(name):
    # fgrad passed axis 0 on to NumPy (IndexError/AxisError) where PyTorch reduces over nothing
    f, want = ZERO_D_DIM_OPS[name]
    x = ft.tensor(2.0, requires_grad=name not in ("any", "all", "count_nonzero"))
    y = f(ft, x)
    assert y.shape == () and y.item() == want


@pytest.mark.parametrize("name", sorted(ZERO_D_DIM_OPS))
def test_dim_zero_of_a_zero_d_tensor_as_live_torch(name):
    torch = pytest.importorskip("torch")
    f, _ = ZERO_D_DIM_OPS[name]
    mine, theirs = f(ft, ft.tensor(2.0)), f(torch, torch.tensor(2.0))
    assert str(mine.dtype) == str(theirs.dtype) and mine.item() == theirs.item()


def test_zero_d_refusals_have_pytorchs_types():
    x = ft.tensor(2.0)
    for f, err, msg in [(lambda: x.narrow(0, 0, 1), RuntimeError, "narrow.. cannot be applied to a 0-dim"),
                        (lambda: x.split(1), RuntimeError, "split expects at least a 1-dimensional"),
                        (lambda: ft.diff(x), RuntimeError, "diff expects input to be at least one-dim"),
                        (lambda: x.select(0, 0), IndexError, "select\\(\\) cannot be applied to a 0-dim"),
                        (lambda: x.unbind(0), IndexError, "tensor has no dimensions")]:
        with pytest.raises(err, match=msg):
            f()


def test_in_place_div_with_rounding_mode_refuses_to_narrow_the_result():
    # x.div_(float, rounding_mode=...) on an integer tensor wrote the float result truncated
    x = ft.tensor([3, 4], dtype=ft.int32)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Int"):
        x.div_(ft.tensor([2.0, 3.0]), rounding_mode="floor")
    with pytest.raises(RuntimeError, match="can't be cast"):
        x.div_(2.5, rounding_mode="trunc")
    assert x.tolist() == [3, 4]
    assert x.div_(2, rounding_mode="trunc").tolist() == [1, 2]


TENSOR_OTHER_ONLY = ["atan2", "arctan2", "hypot", "maximum", "minimum", "fmax", "fmin", "logical_and",
                     "logical_or", "logical_xor", "logaddexp", "logaddexp2", "nextafter", "heaviside",
                     "ldexp", "isclose", "dist"]


@pytest.mark.parametrize("name", TENSOR_OTHER_ONLY)
def test_functions_without_a_scalar_overload_refuse_a_python_number(name):
    # PyTorch has no Scalar overload for these: TypeError (fgrad computed with the number)
    x = ft.tensor([1.5, 2.0])
    with pytest.raises(TypeError, match="must be Tensor, not float"):
        getattr(ft, name)(x, 2.0)
    with pytest.raises(TypeError, match="must be Tensor, not int"):
        getattr(x, name)(2)
    getattr(ft, name)(x, ft.tensor(1.0))  # a 0-d tensor is fine


def test_cummax_cummin_of_an_empty_dim():
    # fgrad raised NumPy's IndexError; PyTorch returns empty values and indices
    x = ft.zeros(2, 0, requires_grad=True)
    r = ft.cummax(x, 1)
    assert r.values.shape == (2, 0) and r.indices.dtype == ft.int64 and r.values.requires_grad
    assert ft.cummin(ft.zeros(0), 0).indices.shape == (0,)


@pytest.mark.parametrize("case", ["b - i", "i - b", "b - 1", "1 - b", "f - True", "True - f", "sub_alpha",
                                  "rsub", "sub_"])
def test_subtraction_with_one_bool_operand_raises(case):
    # PyTorch refuses `-` with any bool operand ("If you are trying to invert a mask, use ~"); fgrad
    # refused only two bool operands
    b, i, f = ft.tensor([True, False]), ft.tensor([1, 2]), ft.tensor([1.0, 2.0])
    run = {"b - i": lambda: b - i, "i - b": lambda: i - b, "b - 1": lambda: b - 1, "1 - b": lambda: 1 - b,
           "f - True": lambda: f - True, "True - f": lambda: True - f,
           "sub_alpha": lambda: ft.sub(f, b, alpha=2), "rsub": lambda: ft.rsub(f, b),
           "sub_": lambda: f.clone().sub_(b)}[case]
    with pytest.raises(RuntimeError, match="with a bool tensor is not supported"):
        run()
    assert (2 - i).tolist() == [1, 0] and (f - 1).tolist() == [0.0, 1.0]


@pytest.mark.parametrize("name", ["argmax", "argmin", "kthvalue", "median", "nanmedian", "mode", "amax",
                                  "amin"])
def test_reductions_over_an_empty_dim_raise_pytorchs_index_error(name):
    # fgrad raised NumPy's ValueError/IndexError, a RuntimeError or NotImplementedError
    x = ft.zeros(0, 3)
    f = {"kthvalue": lambda: ft.kthvalue(x, 1, 0)}.get(name, lambda: getattr(ft, name)(x, 0))
    shown = "median" if name == "nanmedian" else name  # (PyTorch's wording)
    with pytest.raises(IndexError, match=f"{shown}\\(\\): Expected reduction dim 0 to have non-zero size"):
        f()
    other = getattr(ft, "argmax" if name == "kthvalue" else name)(x, 1)  # the other dim is fine
    assert (other[0] if isinstance(other, tuple) else other).shape == (0,)


def test_amax_of_an_empty_tensor_over_every_dim_raises_runtime_error():
    with pytest.raises(RuntimeError, match="Expected reduction dim to be specified"):
        ft.amin(ft.zeros(0, 3))
