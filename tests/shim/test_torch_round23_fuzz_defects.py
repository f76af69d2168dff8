"""Defects found in round 23 of differential testing of ``fgrad.torch`` against PyTorch 2.13
(``tools/torch_fuzz.py`` and the open list in docs/shim-conventions.md), each pinned by PyTorch's
numbers stored here; the live comparison runs where torch is installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad.torch as ft

inf, nan = math.inf, math.nan


def _live():
    return pytest.importorskip("torch")


def _close(mine, theirs, rtol=1e-12):
    for a, b in zip(mine, theirs, strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=1e-300)


# -- Beta/Dirichlet/Gamma rsample: PyTorch's approximate implicit gradients -----------------
# (fgrad differentiated through the two gamma draws of a Beta sample, another estimator whose
# numbers differed by up to a third, and used the exact gamma derivative: fifth digit)

def _rsample_grads(T):
    T.manual_seed(3)
    a = T.tensor([0.3, 2.0, 7.5, 12.0], dtype=T.float64, requires_grad=True)
    b = T.tensor([1.5, 0.2, 8.0, 11.0], dtype=T.float64, requires_grad=True)
    D = T.distributions
    w = T.tensor([1.0, -2.0, 0.5, 3.0], dtype=T.float64)
    x = D.Beta(a, b).rsample()
    ga, gb = T.autograd.grad((x * w).sum(), [a, b])
    c = T.tensor([[0.3, 2.0, 7.5], [12.0, 9.0, 0.05]], dtype=T.float64, requires_grad=True)
    y = D.Dirichlet(c).rsample()
    (gc,) = T.autograd.grad((y * T.tensor([[1.0, -2.0, 0.5], [3.0, 1.0, -1.0]], dtype=T.float64)).sum(), c)
    z = D.Gamma(a, b).rsample()
    gg = T.autograd.grad((z * w).sum(), [a, b])
    return [v.tolist() for v in (x, ga, gb, y, gc, z, *gg)]


RSAMPLE_WANT = [[0.12082778147153679, 0.9646153310964976, 0.4267173193087133, 0.5583462524917338],
 [0.7182558286398883, -0.0421676292805055, 0.018112070740364243, 0.06130264518028727],
 [-0.09325383898031425, 0.9236419598342973, -0.015130867838166124, -0.07203827062443503],
 [[1.1247448881250376e-05, 0.3320273473200144, 0.6679614052311044],
  [0.7353694550134254, 0.26463054498657457, 2.3157676604306216e-18]],
 [[0.0004486199751053415, -0.24305314607008693, 0.08359687699739314],
  [0.029362890439324225, -0.05622392239245064, -5.961516546346932e-15]],
 [0.9595077563448601, 10.472483112161388, 0.5730306987104075, 1.1568899810389892],
 [2.1087160126254774, -11.115482322312292, 0.049447042819141473, 0.2847315513884386],
 [-0.6396718375632401, 104.72483112161387, -0.035814418669400466, -0.3155154493742698]]


def test_beta_dirichlet_gamma_rsample_gradients_are_pytorchs():
    _close(_rsample_grads(ft), RSAMPLE_WANT, rtol=1e-10)


def test_beta_dirichlet_gamma_rsample_gradients_match_live_torch():
    _close(_rsample_grads(ft), _rsample_grads(_live()), rtol=1e-10)


# -- orderings of complex tensors: PyTorch looks at the sizes before the dtype ---------------
# (fgrad refused every complex call with the kernel's NotImplementedError)

def _outcome(T, call):
    try:
        r = call(T)
    except Exception as e:  # noqa: BLE001 - the type and words are what is compared
        return type(e).__name__, str(e)
    return "ok", [tuple(v.shape) for v in (r if isinstance(r, tuple) else (r,))]


def _c(T, shape):
    return T.zeros(shape, dtype=T.complex64)


_NO_IDENTITY = "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity."
_UNSPECIFIED = ("(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction "
                "dim with the 'dim' argument.")
SIZE_FIRST_CASES = {
    "max(2x0, 1)": (lambda T: _c(T, (2, 0)).max(1),
        ("IndexError", "max(): Expected reduction dim 1 to have non-zero size.")),
    "min(2x0, -1)": (lambda T: T.min(_c(T, (2, 0)), -1),
        ("IndexError", "min(): Expected reduction dim 1 to have non-zero size.")),
    "max(2x0)": (lambda T: _c(T, (2, 0)).max(), ("RuntimeError", "max" + _UNSPECIFIED)),
    "max(2x3, 0)": (lambda T: _c(T, (2, 3)).max(0),
        ("RuntimeError", "max(): does not support complex input")),
    "min(0x3, 1, True)": (lambda T: _c(T, (0, 3)).min(1, True),
        ("RuntimeError", "min(): does not support complex input")),
    "max(2x3)": (lambda T: _c(T, (2, 3)).max(),
        ("NotImplementedError", "\"max_all\" not implemented for 'ComplexFloat'")),
    "amax(2x0, -1)": (lambda T: _c(T, (2, 0)).amax(-1),
        ("IndexError", "amax(): Expected reduction dim -1 to have non-zero size.")),
    "amin(2x0, 0)": (lambda T: T.amin(_c(T, (2, 0)), 0), ("ok", [(0,)])),
    "amax(0x3)": (lambda T: _c(T, (0, 3)).amax(), ("RuntimeError", "amax" + _UNSPECIFIED)),
    "amax(2x3, 0)": (lambda T: _c(T, (2, 3)).amax(0),
        ("NotImplementedError", "\"max_values_cpu\" not implemented for 'ComplexFloat'")),
    "aminmax(2x0, dim=1)": (lambda T: T.aminmax(_c(T, (2, 0)), dim=1),
        ("IndexError", "aminmax: Expected reduction dim 1 to have non-zero size.")),
    "aminmax(0x3)": (lambda T: T.aminmax(_c(T, (0, 3))), ("RuntimeError", _NO_IDENTITY)),
    "aminmax(0x3, dim=1)": (lambda T: T.aminmax(_c(T, (0, 3)), dim=1),
        ("NotImplementedError", "\"aminmax_cpu\" not implemented for 'ComplexFloat'")),
    "aminmax(0-d, dim=0)": (lambda T: T.aminmax(_c(T, ()), dim=0),
        ("RuntimeError", "aminmax not implemented for ComplexFloat")),
    "mode(2x0)": (lambda T: _c(T, (2, 0)).mode(),
        ("IndexError", "mode(): Expected reduction dim 1 to have non-zero size.")),
    "mode(2x0, 0)": (lambda T: _c(T, (2, 0)).mode(0), ("ok", [(0,), (0,)])),
    "mode(0-d)": (lambda T: _c(T, ()).mode(), ("ok", [(), ()])),
    "cummax(2x0, 1)": (lambda T: _c(T, (2, 0)).cummax(1), ("ok", [(2, 0), (2, 0)])),
    "cummin(0x3, 1)": (lambda T: T.cummin(_c(T, (0, 3)), 1), ("ok", [(0, 3), (0, 3)])),
    "cummax(0-d, 0)": (lambda T: _c(T, ()).cummax(0), ("ok", [(), ()])),
    "cummax(2x3, 0)": (lambda T: _c(T, (2, 3)).cummax(0),
        ("NotImplementedError", "\"cummax_cpu\" not implemented for 'ComplexFloat'")),
    # the real dtypes' size errors, in PyTorch's words
    "aminmax(float 2x0)": (lambda T: T.aminmax(T.zeros(2, 0)), ("RuntimeError", _NO_IDENTITY)),
    "amin(float 2x0, (0, -1))": (lambda T: T.zeros(2, 0).amin((0, -1)),
        ("IndexError", "amin(): Expected reduction dim -1 to have non-zero size.")),
}


@pytest.mark.parametrize("name", sorted(SIZE_FIRST_CASES))
def test_complex_orderings_check_sizes_first(name):
    call, want = SIZE_FIRST_CASES[name]
    assert _outcome(ft, call) == want


@pytest.mark.parametrize("name", sorted(SIZE_FIRST_CASES))
def test_complex_orderings_match_live_torch(name):
    call, _ = SIZE_FIRST_CASES[name]
    assert _outcome(ft, call) == _outcome(_live(), call)


# -- floor_divide: PyTorch records a NotImplemented node whose backward raises ---------------
# (fgrad gave the zero derivative of the piecewise-constant function)

FLOOR_DIVIDE_CALLS = {
    "torch.floor_divide": (lambda T, x: T.floor_divide(x, 2.0), "floor_divide"),
    "x // 2": (lambda T, x: x // 2, "floor_divide"),
    "2 // x": (lambda T, x: 2 // x, "floor_divide"),
    "x.floor_divide(t)": (lambda T, x: x.floor_divide(T.full_like(x, 2.0)), "floor_divide"),
    "t // x (x the divisor)": (lambda T, x: T.full_like(x, 5.0) // x, "floor_divide"),
    "x.floor_divide_(2)": (lambda T, x: (x * 1).floor_divide_(2), "floor_divide_"),
    "y //= 2": (lambda T, x: x.__mul__(1).__ifloordiv__(2), "floor_divide_"),
    # the same refusal, other ops (fgrad differentiated them)
    "scatter(src, reduce='add')": (lambda T, x: x.scatter(0, T.tensor([0, 0]), x[:2] * 2, reduce="add"),
                                   "scatter"),
    "scatter(value, reduce='multiply')": (lambda T, x: T.scatter(x, 0, T.tensor([1]), 2.0, reduce="multiply"),
                                          "scatter"),
    "scatter_(src, reduce='add')": (lambda T, x: (x * 1).scatter_(0, T.tensor([2]), x[:1] * 1, reduce="add"),
                                    "scatter_"),
    "heaviside(x, values)": (lambda T, x: T.heaviside(x, T.ones(3)), "heaviside"),
    "heaviside(t, x)": (lambda T, x: T.heaviside(T.tensor([0.0, 1.0, -1.0]), x), "heaviside"),
}


def _floor_divide_outcome(T, call):
    x = T.tensor([7.0, -3.0, 0.5], requires_grad=True)
    y = call(x)
    seen = (y.detach().tolist(), y.requires_grad, y.grad_fn.name())
    try:
        y.sum().backward()
    except RuntimeError as e:
        return seen, str(e)
    return seen, x.grad.tolist()


@pytest.mark.parametrize("name", sorted(FLOOR_DIVIDE_CALLS))
def test_floor_divide_backward_raises_as_pytorch(name):
    call, aten = FLOOR_DIVIDE_CALLS[name]
    (value, requires_grad, node), outcome = _floor_divide_outcome(ft, lambda x: call(ft, x))
    assert requires_grad and node == "torch::autograd::NotImplemented"
    assert outcome == f"derivative for aten::{aten} is not implemented"
    with ft.no_grad():  # the value is unchanged
        assert value == call(ft, ft.tensor([7.0, -3.0, 0.5])).tolist()


@pytest.mark.parametrize("name", sorted(FLOOR_DIVIDE_CALLS))
def test_floor_divide_matches_live_torch(name):
    call, _ = FLOOR_DIVIDE_CALLS[name]
    torch = _live()
    mine = _floor_divide_outcome(ft, lambda x: call(ft, x))
    assert mine == _floor_divide_outcome(torch, lambda x: call(torch, x))


def test_floor_divide_without_grad_records_nothing():
    x = ft.tensor([7.0, -3.0])
    assert (x // 2).grad_fn is None
    assert ft.floor_divide(x, 2, out=ft.empty(2)).tolist() == [3.0, -2.0]


# -- ops PyTorch differentiates with a formula that fails for these operands -----------------
# (a bool exponent/operand: its derivative subtracts a bool tensor; ``where`` of a real tensor
# beside a complex tensor: the real one gets a complex gradient, which PyTorch's engine refuses)

_BOOL_SUB = "Subtraction, the `-` operator, with a bool tensor is not supported."
_REAL_GETS_COMPLEX = "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex)"

FAILING_BACKWARD = {
    "pow(x, bool)": (lambda T, x, b: T.pow(x, b), "PowBackward1", _BOOL_SUB),
    "x ** bool": (lambda T, x, b: x ** b, "PowBackward1", _BOOL_SUB),
    "logaddexp(bool, x)": (lambda T, x, b: T.logaddexp(b, x), "LogaddexpBackward0", _BOOL_SUB),
    "x.logaddexp2(bool)": (lambda T, x, b: x.logaddexp2(b), "Logaddexp2Backward0", _BOOL_SUB),
    "where(c, x, complex tensor)": (lambda T, x, b: T.where(b, x, T.tensor(1j)), "WhereBackward0",
                                    _REAL_GETS_COMPLEX),
    "where(c, complex(x), x)": (lambda T, x, b: T.where(b, x.to(T.complex64), x), "WhereBackward0",
                                _REAL_GETS_COMPLEX),
    "linalg.qr(tall, 'complete').R": (lambda T, x, b: T.linalg.qr(T.stack([x, x * x], 1), "complete")[1],
                                       "LinalgQrBackward0", "The QR decomposition is not differentiable"),
    "linalg.qr(tall, 'r').R": (lambda T, x, b: T.linalg.qr(T.stack([x, x * x], 1), "r")[1],
                               "LinalgQrBackward0", "The derivative of linalg.qr depends on Q"),
    # these differentiate (no refusal)
    "linalg.qr(wide, 'complete').R": (lambda T, x, b: T.linalg.qr(T.stack([x, x * x]), "complete")[1],
                                      "LinalgQrBackward0", None),
    "pow(bool, x)": (lambda T, x, b: T.pow(b, x), "PowBackward1", None),
    "where(c, x, 1j)": (lambda T, x, b: T.where(b, x, 1j), "WhereBackward0", None),
    "float_power(x, bool)": (lambda T, x, b: T.float_power(x, b), "PowBackward1", None),
}


def _failing_backward_outcome(T, call):
    x = T.tensor([1.5, -2.0, 3.0], requires_grad=True)
    y = call(T, x, T.tensor([True, False, True]))
    seen = (str(y.dtype), y.grad_fn.name(), y.detach().numpy())
    try:
        (y.abs() if y.is_complex() else y).sum().backward()
    except RuntimeError as e:
        return seen, str(e)
    return seen, x.grad.numpy()


@pytest.mark.parametrize("name", sorted(FAILING_BACKWARD))
def test_backward_fails_where_pytorchs_formula_does(name):
    call, node, message = FAILING_BACKWARD[name]
    (_, recorded, _), outcome = _failing_backward_outcome(ft, call)
    assert recorded == node
    if message is None:
        assert isinstance(outcome, np.ndarray)
    else:
        assert isinstance(outcome, str) and outcome.startswith(message)


@pytest.mark.parametrize("name", sorted(FAILING_BACKWARD))
def test_failing_backward_matches_live_torch(name):
    call, _, _ = FAILING_BACKWARD[name]
    (dtype, node, value), outcome = _failing_backward_outcome(ft, call)
    (want_dtype, want_node, want_value), want = _failing_backward_outcome(_live(), call)
    assert (dtype, node) == (want_dtype, want_node)
    np.testing.assert_allclose(value, want_value, rtol=1e-5)
    if isinstance(want, str):
        assert outcome == want
    else:
        np.testing.assert_allclose(outcome, want, rtol=1e-4)


# -- clamp with tensor bounds: the gradient still goes to ``max`` where the value is NaN ------
# (a NaN ``min``; fgrad sent NaN results no gradient, PyTorch's masks do not look at the value)

def _clamp_nan_grads(T):
    x = T.tensor([0.6, nan, 0.5, -3.0, nan, 2.0, 0.3], requires_grad=True)
    lo = T.tensor([nan, 1.0, 0.0, nan, 0.0, 1.0, -inf], requires_grad=True)
    hi = T.tensor([-1.8, 0.0, nan, 1.0, nan, -inf, nan], requires_grad=True)
    y = T.clamp(x, lo, hi)
    g = T.autograd.grad((y * T.arange(1.0, 8.0)).sum(), [x, lo, hi])
    return [np.asarray(y.detach().tolist(), np.float32)] + [v.tolist() for v in g]


CLAMP_NAN_WANT = [np.array([nan, nan, nan, nan, nan, -inf, nan], np.float32), [0.0] * 7, [0.0] * 7,
                  [1.0, 2.0, 0.0, 0.0, 0.0, 6.0, 0.0]]


def test_clamp_routes_the_gradient_at_nan_values_as_pytorch():
    got = _clamp_nan_grads(ft)
    np.testing.assert_array_equal(got[0], CLAMP_NAN_WANT[0])
    assert got[1:] == CLAMP_NAN_WANT[1:]


def test_clamp_nan_routing_matches_live_torch():
    got, want = _clamp_nan_grads(ft), _clamp_nan_grads(_live())
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1:] == want[1:]


# -- sum/nansum/prod of small integers with dtype=: NumPy's int64 accumulation leaked ----------

@pytest.mark.parametrize("op", ["sum", "nansum", "prod"])
@pytest.mark.parametrize("src,want", [("uint8", "int32"), ("int32", "int8"), ("int64", "int16")])
def test_integer_reductions_keep_the_asked_dtype(op, src, want):
    x = ft.tensor([1, 2, 3], dtype=getattr(ft, src))
    assert getattr(ft, op)(x, dtype=getattr(ft, want)).dtype == getattr(ft, want)
    assert getattr(ft, op)(x, 0, True, dtype=getattr(ft, want)).dtype == getattr(ft, want)
    assert getattr(ft, op)(x).dtype == ft.int64  # without dtype=: int64, as PyTorch


# -- F.threshold at NaN: PyTorch's kernel tests x <= threshold, so NaN passes through --------

def _threshold_at_nan(T):
    x = T.tensor([nan, 1.0, -1.0, 0.5], requires_grad=True)
    y = T.nn.functional.threshold(x, 0.5, -1.0)
    y.sum().backward()
    return np.asarray(y.detach().tolist()), x.grad.tolist()


def test_threshold_keeps_nan():
    y, g = _threshold_at_nan(ft)
    np.testing.assert_array_equal(y, [nan, 1.0, -1.0, -1.0])
    assert g == [1.0, 1.0, 0.0, 0.0]


def test_threshold_at_nan_matches_live_torch():
    (y, g), (ty, tg) = _threshold_at_nan(ft), _threshold_at_nan(_live())
    np.testing.assert_array_equal(y, ty)
    assert g == tg


# -- bernoulli of float64 probabilities: PyTorch draws a float64 uniform per element ----------
# (fgrad drew float32 uniforms for every dtype: another stream, and the generator advanced by
# half as much)

def _bernoulli_float64(T):
    p = T.linspace(0.05, 0.95, 12, dtype=T.float64)
    T.manual_seed(7)
    return T.bernoulli(p).int().tolist(), T.rand(1, dtype=T.float64).item()


BERNOULLI_WANT = ([0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1], 0.16744060179820508)


def test_bernoulli_float64_probabilities_draw_pytorchs_stream():
    assert _bernoulli_float64(ft) == BERNOULLI_WANT


def test_bernoulli_float64_matches_live_torch():
    assert _bernoulli_float64(ft) == _bernoulli_float64(_live())


@pytest.mark.parametrize("dims", [(0, 1), (1, 0), (-2, 0), (0, 2)])
def test_transpose_of_a_zero_dim_tensor_checks_its_dims(dims):
    """PyTorch wraps a 0-d tensor's dims in [-1, 0] and raises IndexError beyond; fgrad
    returned the tensor for any dims (round 23 fuzzing's open list)."""
    x = ft.ones(())
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\]"):
        x.transpose(*dims)
    with pytest.raises(IndexError, match="Dimension out of range"):
        ft.swapaxes(x, *dims)
    for ok in [(0, 0), (-1, 0), (0, -1), (-1, -1)]:
        assert x.transpose(*ok).shape == ()


_ZERO_D_DIM_CALLS = {
    "topk": lambda T, x, d: T.topk(x, 1, dim=d),
    "kthvalue": lambda T, x, d: T.kthvalue(x, 1, dim=d),
    "median": lambda T, x, d: T.median(x, dim=d),
    "mode": lambda T, x, d: T.mode(x, dim=d),
    "cumsum": lambda T, x, d: T.cumsum(x, d),
    "cumprod": lambda T, x, d: T.cumprod(x, d),
    "cummax": lambda T, x, d: T.cummax(x, d),
    "cummin": lambda T, x, d: T.cummin(x, d),
    "logcumsumexp": lambda T, x, d: T.logcumsumexp(x, d),
    "index_select": lambda T, x, d: T.index_select(x, d, T.tensor([0])),
    "index_add": lambda T, x, d: T.index_add(x, d, T.tensor([0]), T.tensor([1.0])),
    "index_add_": lambda T, x, d: x.clone().index_add_(d, T.tensor([0]), T.tensor([1.0])),
    "index_copy": lambda T, x, d: T.index_copy(x, d, T.tensor([0]), T.tensor([1.0])),
    "index_copy_": lambda T, x, d: x.clone().index_copy_(d, T.tensor([0]), T.tensor([1.0])),
    "index_fill_": lambda T, x, d: x.clone().index_fill_(d, T.tensor([0]), 1.0),
}


@pytest.mark.parametrize("name", sorted(_ZERO_D_DIM_CALLS))
def test_dim_of_a_zero_dim_tensor_is_checked_as_pytorch(name):
    """A 0-d tensor's dim must be -1 or 0 (PyTorch's IndexError, cummax/cummin in their own
    words); fgrad took any dim for these 15 calls (or failed inside NumPy)."""
    call = _ZERO_D_DIM_CALLS[name]
    words = (f"{name}\\(\\): Expected reduction dim -1 or 0 for scalar but got"
             if name in ("cummax", "cummin")
             else r"Dimension out of range \(expected to be in range of \[-1, 0\]")
    for bad in (1, -2):
        with pytest.raises(IndexError, match=words):
            call(ft, ft.tensor(2.0), bad)
    if not name.startswith(("index_add", "index_copy", "index_fill")):  # (open: these fail on 0-d)
        for ok in (0, -1):
            call(ft, ft.tensor(2.0), ok)
    torch = pytest.importorskip("torch")
    for bad in (1, -2):
        with pytest.raises(IndexError, match=words):
            call(torch, torch.tensor(2.0), bad)
