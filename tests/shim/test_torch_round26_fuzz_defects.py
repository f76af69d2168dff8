"""Defects found in round 26 of differential testing of ``fgrad.torch`` against PyTorch 2.13
(round 25's open list in docs/shim-conventions.md and ``tools/torch_fuzz.py`` seed 10), each
pinned by PyTorch's numbers stored here; the live comparison runs where torch is installed."""

from __future__ import annotations

import math

import numpy as np

import fgrad.torch as ft
from tests._stored_torch import stored_and_live

inf, nan = math.inf, math.nan


def _value_and_grad(T, f, *xs):
    """``f``'s value and the gradient of its weighted sum (weights 1, 2, ...) in each ``xs``
    (a complex value as (real, imaginary) pairs)."""
    ts = [T.tensor(x, dtype=T.float64, requires_grad=True) for x in xs]
    y = f(T, *ts)
    w = T.arange(1.0, y.numel() + 1, dtype=T.float64).reshape(y.shape)
    loss = (T.view_as_real(y) * w.unsqueeze(-1)).sum() if y.is_complex() else (y * w).sum()
    value = T.view_as_real(y) if y.is_complex() else y
    return [value.tolist()] + [g.tolist() for g in T.autograd.grad(loss, ts)]


# -- empty tensors: cummax/cummin take any dim, median keeps the history ---------------------
# (fgrad checked the dim of an empty tensor, PyTorch does not; the median of an empty tensor
# did not require grad, and an integer one raised ValueError where PyTorch converts NaN)

def _cum_extreme_empty(op, shape, dim):
    def call(T):
        x = T.zeros(shape, dtype=T.float64, requires_grad=True)
        v, i = getattr(T, op)(x, dim)
        (g,) = T.autograd.grad(v.sum(), x, allow_unused=True)
        return [list(v.shape), list(i.shape), str(i.dtype), v.requires_grad,
                None if g is None else list(g.shape)]
    return call


def _median_empty(T):
    x = T.zeros(0, dtype=T.float64, requires_grad=True)
    m = T.median(x)
    (g,) = T.autograd.grad(m, x)
    return [math.isnan(m.item()), m.requires_grad, type(m.grad_fn).__name__, list(g.shape)]


_EMPTY = {
    "cummax (0,) dim 5": _cum_extreme_empty("cummax", (0,), 5),
    "cummax (0,) dim -3": _cum_extreme_empty("cummax", (0,), -3),
    "cummin (0, 3) dim 2": _cum_extreme_empty("cummin", (0, 3), 2),
    "cummin (0, 3) dim 1": _cum_extreme_empty("cummin", (0, 3), 1),
    "cummax (2, 0) dim 0": _cum_extreme_empty("cummax", (2, 0), 0),
    "median of an empty float64 tensor": _median_empty,
    "median of empty int64, int32, int8": lambda T: [
        T.median(T.zeros(0, dtype=d)).item() for d in (T.int64, T.int32, T.int8)],
}

EMPTY_WANT = {'cummax (0,) dim -3': ('ok', [[0], [0], 'torch.int64', True, [0]]),
 'cummax (0,) dim 5': ('ok', [[0], [0], 'torch.int64', True, [0]]),
 'cummax (2, 0) dim 0': ('ok', [[2, 0], [2, 0], 'torch.int64', True, [2, 0]]),
 'cummin (0, 3) dim 1': ('ok', [[0, 3], [0, 3], 'torch.int64', True, [0, 3]]),
 'cummin (0, 3) dim 2': ('ok', [[0, 3], [0, 3], 'torch.int64', True, [0, 3]]),
 'median of an empty float64 tensor': ('ok', [True, True, 'MedianBackward0', [0]]),
 'median of empty int64, int32, int8': ('ok', [-9223372036854775808, -2147483648, 0])}


(
    test_empty_tensors_cum_extremes_and_median,
    test_empty_tensors_cum_extremes_and_median_as_live_torch,
) = stored_and_live(_EMPTY, EMPTY_WANT)


# -- cumsum/cumprod to a bool result: PyTorch's CPU kernel has none ---------------------------

_BOOL = [True, False, True]

_CUMULATIVE_BOOL = {
    "cumsum dtype=bool": lambda T: T.cumsum(T.tensor(_BOOL), 0, dtype=T.bool).tolist(),
    "cumprod dtype=bool": lambda T: T.cumprod(T.tensor([1.5, 0.0]), 0, dtype=T.bool).tolist(),
    "cumsum out=bool": lambda T: T.cumsum(T.tensor(_BOOL), 0, out=T.zeros(3, dtype=T.bool)).tolist(),
    "cumprod out=bool": lambda T: T.cumprod(T.tensor(_BOOL), 0, out=T.zeros(3, dtype=T.bool)).tolist(),
    "cumsum_ of bool": lambda T: T.tensor(_BOOL).cumsum_(0).tolist(),
    "cumsum_ of int8 wraps": lambda T: T.tensor([100, 100, 100], dtype=T.int8).cumsum_(0).tolist(),
    "cumsum dtype=bool, requires grad": lambda T: T.cumsum(
        T.tensor([1.5], requires_grad=True), 0, dtype=T.bool).tolist(),
    "cumsum of an empty bool tensor to bool": lambda T: T.cumsum(
        T.zeros(0, dtype=T.bool), 0, dtype=T.bool).tolist(),
    "cumsum of bool (int64)": lambda T: T.cumsum(T.tensor(_BOOL), 0).tolist(),
}

CUMULATIVE_BOOL_WANT = {  # noqa: E501
    'cumprod dtype=bool': ('NotImplementedError', '"cumprod_out_cpu" not implemented for \'Bool\''),
 'cumprod out=bool': ('NotImplementedError', '"cumprod_out_cpu" not implemented for \'Bool\''),
 'cumsum dtype=bool': ('NotImplementedError', '"cumsum_out_cpu" not implemented for \'Bool\''),
 'cumsum dtype=bool, requires grad': ('NotImplementedError', '"cumsum_out_cpu" not implemented for \'Bool\''),
 'cumsum of an empty bool tensor to bool': ('ok', []),
 'cumsum of bool (int64)': ('ok', [1, 1, 2]),
 'cumsum out=bool': ('NotImplementedError', '"cumsum_out_cpu" not implemented for \'Bool\''),
 'cumsum_ of bool': ('NotImplementedError', '"cumsum_out_cpu" not implemented for \'Bool\''),
 'cumsum_ of int8 wraps': ('ok', [100, -56, 44])}


(
    test_cumsum_cumprod_to_bool_raise_pytorchs_error,
    test_cumsum_cumprod_to_bool_raise_pytorchs_error_as_live_torch,
) = stored_and_live(_CUMULATIVE_BOOL, CUMULATIVE_BOOL_WANT)


# -- igamma/igammac under their own names ---------------------------------------------------

_IGAMMA_ERRORS = {
    "torch.igamma(tensor, 2.0)": lambda T: T.igamma(T.tensor([1.0]), 2.0),
    "torch.igammac(2.0, tensor)": lambda T: T.igammac(2.0, T.tensor([1.0])),
    "Tensor.igamma(2.0)": lambda T: T.tensor([1.0]).igamma(2.0),
    "Tensor.igammac(2.0)": lambda T: T.tensor([1.0]).igammac(2.0),
    "special.gammainc(tensor, 2.0)": lambda T: T.special.gammainc(T.tensor([1.0]), 2.0),
    "torch.igamma values": lambda T: T.igamma(T.tensor([1.0, 2.5]), T.tensor([2.0, 0.5])).tolist(),
}

IGAMMA_ERRORS_WANT = {  # noqa: E501
    'Tensor.igamma(2.0)': ('TypeError', "igamma(): argument 'other' (position 1) must be Tensor, not float"),
 'Tensor.igammac(2.0)': ('TypeError', "igammac(): argument 'other' (position 1) must be Tensor, not float"),
 'special.gammainc(tensor, 2.0)': ('TypeError',
                                   "special_gammainc(): argument 'other' (position 2) must be Tensor, not "
                                   'float'),
 'torch.igamma values': ('ok', [0.8646647334098816, 0.037434227764606476]),
 'torch.igamma(tensor, 2.0)': ('TypeError',
                               "igamma(): argument 'other' (position 2) must be Tensor, not float"),
 'torch.igammac(2.0, tensor)': ('TypeError',
                                "igammac(): argument 'input' (position 1) must be Tensor, not float")}


(
    test_igamma_errors_name_igamma,
    test_igamma_errors_name_igamma_as_live_torch,
) = stored_and_live(_IGAMMA_ERRORS, IGAMMA_ERRORS_WANT)


# -- grid_sample with an infinite or NaN grid -----------------------------------------------
# (fgrad's taps converted a NaN coordinate to an integer index: RuntimeError "index
# -9223372036854775808 is out of bounds"; nearest mode gave the grid no gradient at all)

_IMAGE = [[[[1.0, 2.0, 5.0], [3.0, 4.0, -1.0]]]]
_BAD_GRID = [[[[inf, 0.2], [nan, 0.3], [-inf, 0.1], [0.5, -inf], [0.25, -0.5]]]]


def _grid_sample(mode, padding_mode="zeros", align_corners=False, grid=_BAD_GRID):
    return lambda T: _value_and_grad(T, lambda T, a, g: T.nn.functional.grid_sample(
        a, g, mode=mode, padding_mode=padding_mode, align_corners=align_corners), _IMAGE, grid)


_GRID_SAMPLE = {
    "bicubic zeros": _grid_sample("bicubic"),
    "bicubic zeros, corners": _grid_sample("bicubic", align_corners=True),
    "bilinear zeros": _grid_sample("bilinear"),
    "nearest zeros": _grid_sample("nearest"),
    "nearest zeros, corners": _grid_sample("nearest", align_corners=True),
    "bicubic border, infinite": _grid_sample("bicubic", "border", grid=[[[[inf, 0.2], [0.5, -inf]]]]),
}

GRID_SAMPLE_WANT = {'bicubic border, infinite': ('ok',
                              [[[[[nan, nan]]]],
                               [[[[nan, nan, nan], [0.0, 0.0, nan]]]],
                               [[[[nan, nan], [nan, nan]]]]]),
 'bicubic zeros': ('ok',
                   [[[[[nan, nan, nan, nan, 3.5205078125]]]],
                    [[[[-0.54931640625, 3.74755859375, 2.13134765625], [0.0, 0.0, 0.0]]]],
                    [[[[nan, nan], [nan, nan], [nan, nan], [nan, nan], [33.57421875, 8.408203125]]]]]),
 'bicubic zeros, corners': ('ok',
                            [[[[[nan, nan, nan, nan, 3.371185302734375]]]],
                             [[[[-0.4634857177734375, 3.8623809814453125, 1.1501312255859375],
                                [-0.1380157470703125, 1.1501312255859375, 0.3424835205078125]]]],
                             [[[[nan, nan],
                                [nan, nan],
                                [nan, nan],
                                [nan, nan],
                                [12.4932861328125, 2.70172119140625]]]]]),
 'bilinear zeros': ('ok',
                    [[[[[nan, nan, nan, nan, 3.125]]]],
                     [[[[0.0, 3.125, 1.875], [0.0, 0.0, 0.0]]]],
                     [[[[0.0, nan], [0.0, nan], [0.0, nan], [nan, 0.0], [22.5, -5.0]]]]]),
 'nearest zeros': ('ok',
                   [[[[[0.0, 0.0, 0.0, 0.0, 2.0]]]],
                    [[[[0.0, 5.0, 0.0], [0.0, 0.0, 0.0]]]],
                    [[[[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]]]]),
 'nearest zeros, corners': ('ok',
                            [[[[[0.0, 0.0, 0.0, 0.0, 2.0]]]],
                             [[[[0.0, 5.0, 0.0], [0.0, 0.0, 0.0]]]],
                             [[[[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]]]])}


(
    test_grid_sample_with_an_infinite_or_nan_grid,
    test_grid_sample_with_an_infinite_or_nan_grid_as_live_torch,
) = stored_and_live(_GRID_SAMPLE, GRID_SAMPLE_WANT, rtol=1e-12)


# -- complex from parts: polar and torch.complex at infinities and -0 ------------------------
# (fgrad built ``re + 1j * im``: an infinite or NaN imaginary part made the real part NaN,
# and a -0 imaginary part became +0)

_COMPLEX_PARTS = {
    "polar(inf, 0)": lambda T: T.view_as_real(T.polar(
        T.tensor([inf, inf, -0.0, 2.0], dtype=T.float64),
        T.tensor([0.0, 1.0, 0.5, nan], dtype=T.float64))).tolist(),
    "complex(inf, nan)": lambda T: T.view_as_real(T.complex(
        T.tensor([1.0, inf, -inf], dtype=T.float64), T.tensor([nan, 2.0, inf], dtype=T.float64))).tolist(),
    "complex float32 (-0 imaginary)": lambda T: T.view_as_real(T.complex(T.tensor([inf, 1.0]),
                                                                         T.tensor([-0.0, inf]))).tolist(),
    "polar value and gradient": lambda T: _value_and_grad(
        T, lambda T, a, t: T.polar(a, t), [2.0, 0.5], [1.0, -2.0]),
}

COMPLEX_PARTS_WANT = {'complex float32 (-0 imaginary)': ('ok', [[inf, -0.0], [1.0, inf]]),
 'complex(inf, nan)': ('ok', [[1.0, nan], [inf, 2.0], [-inf, inf]]),
 'polar value and gradient': ('ok',
                              [[[1.0806046117362795, 1.682941969615793],
                                [-0.2080734182735712, -0.45464871341284085]],
                               [1.3817732906760363, -2.650888526745648],
                               [-0.6023373578795135, 0.4931505902785393]]),
 'polar(inf, 0)': ('ok', [[inf, nan], [inf, inf], [-0.0, -0.0], [nan, nan]])}


(
    test_complex_from_parts_keeps_infinities_and_signed_zeros,
    test_complex_from_parts_keeps_infinities_and_signed_zeros_as_live_torch,
) = stored_and_live(_COMPLEX_PARTS, COMPLEX_PARTS_WANT, rtol=1e-12)


# -- the orthogonal polynomials at infinities and exact points ------------------------------
# (fgrad gave NaN for the degree-0 polynomial at ±inf and NaN, NaN for T_1(inf) and
# P_2(-inf), and SciPy's H_n/P_n a few ulps off at exact points: H_1(1) = 2.0000000000000004)

_POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
                "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
                "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
                "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p"]
_AT = [inf, -inf, nan, 0.0, 1.0, -1.0, 0.5, 2.0, -2.0, 1.5]


def _polynomial(op, degrees):
    def call(T):
        x = T.tensor(_AT, dtype=T.float64)
        return [getattr(T.special, op)(x, T.tensor(float(n), dtype=T.float64)).tolist() for n in degrees]
    return call


def _finite_points(op, degrees):
    def call(T):
        x = T.tensor([v for v in _AT if math.isfinite(v)], dtype=T.float64)
        return [getattr(T.special, op)(x, T.tensor(float(n), dtype=T.float64)).tolist() for n in degrees]
    return call


_POLYNOMIAL_VALUES = {
    **{f"{op} n=0, 1": _polynomial(op, (0, 1)) for op in _POLYNOMIALS},
    **{f"{op} n=2": _polynomial(op, (2,)) for op in _POLYNOMIALS if op not in (
        # PyTorch's legendre/laguerre skip their loop at a NaN input and return an
        # uninitialized value; chebyshev_u/w at NaN: see test_polynomials_at_infinity_are_their_limits
        "legendre_polynomial_p", "laguerre_polynomial_l", "chebyshev_polynomial_u", "chebyshev_polynomial_w",
        "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_w")},
    "hermite_polynomial_h exact points": _finite_points("hermite_polynomial_h", (2, 3, 5, 6, 7)),
    "legendre_polynomial_p exact points": _finite_points("legendre_polynomial_p", (2, 3, 5, 6, 7)),
}

POLYNOMIAL_VALUES_WANT = {'chebyshev_polynomial_t n=0, 1': ('ok',
                                   [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                    [inf, -inf, nan, 0.0, 1.0, -1.0, 0.5, 2.0, -2.0, 1.5]]),
 'chebyshev_polynomial_t n=2': ('ok', [[inf, inf, nan, -1.0, 1.0, 1.0, -0.5, 7.0, 7.0, 3.5]]),
 'chebyshev_polynomial_u n=0, 1': ('ok',
                                   [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                    [inf, -inf, nan, 0.0, 2.0, -2.0, 1.0, 4.0, -4.0, 3.0]]),
 'chebyshev_polynomial_v n=0, 1': ('ok',
                                   [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                    [inf, -inf, nan, -1.0, 1.0, -3.0, 0.0, 3.0, -5.0, 2.0]]),
 'chebyshev_polynomial_v n=2': ('ok', [[inf, inf, nan, -1.0, 1.0, 5.0, -1.0, 11.0, 19.0, 5.0]]),
 'chebyshev_polynomial_w n=0, 1': ('ok',
                                   [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                    [inf, -inf, nan, 1.0, 3.0, -1.0, 2.0, 5.0, -3.0, 4.0]]),
 'hermite_polynomial_h exact points': ('ok',
                                       [[-2.0, 2.0, 2.0, -1.0, 14.0, 14.0, 7.0],
                                        [-0.0, -4.0, 4.0, -5.0, 40.0, -40.0, 9.0],
                                        [0.0, -8.0, 8.0, 41.0, -16.0, 16.0, -117.0],
                                        [-120.0, 184.0, 184.0, 31.0, -824.0, -824.0, -201.0],
                                        [-0.0, 464.0, -464.0, -461.0, -3104.0, 3104.0, 801.0]]),
 'hermite_polynomial_h n=0, 1': ('ok',
                                 [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                  [inf, -inf, nan, 0.0, 2.0, -2.0, 1.0, 4.0, -4.0, 3.0]]),
 'hermite_polynomial_h n=2': ('ok', [[inf, inf, nan, -2.0, 2.0, 2.0, -1.0, 14.0, 14.0, 7.0]]),
 'hermite_polynomial_he n=0, 1': ('ok',
                                  [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                   [inf, -inf, nan, 0.0, 1.0, -1.0, 0.5, 2.0, -2.0, 1.5]]),
 'hermite_polynomial_he n=2': ('ok', [[inf, inf, nan, -1.0, 0.0, 0.0, -0.75, 3.0, 3.0, 1.25]]),
 'laguerre_polynomial_l n=0, 1': ('ok',
                                  [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                   [-inf, inf, nan, 1.0, 0.0, 2.0, 0.5, -1.0, 3.0, -0.5]]),
 'legendre_polynomial_p exact points': ('ok',
                                        [[-0.5, 1.0, 1.0, -0.125, 5.5, 5.5, 2.875],
                                         [-0.0, 1.0, -1.0, -0.4375, 17.0, -17.0, 6.1875],
                                         [0.0, 1.0, -1.0, 0.08984375, 185.75, -185.75, 33.08203125],
                                         [-0.3125, 1.0, 1.0, 0.3232421875, 634.9375, 634.9375, 79.2373046875],
                                         [-0.0,
                                          1.0,
                                          -1.0,
                                          0.22314453125,
                                          2199.125,
                                          -2199.125,
                                          192.37646484375]]),
 'legendre_polynomial_p n=0, 1': ('ok',
                                  [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                   [inf, -inf, nan, 0.0, 1.0, -1.0, 0.5, 2.0, -2.0, 1.5]]),
 'shifted_chebyshev_polynomial_t n=0, 1': ('ok',
                                           [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                            [inf, -inf, nan, -1.0, 1.0, -3.0, 0.0, 3.0, -5.0, 2.0]]),
 'shifted_chebyshev_polynomial_t n=2': ('ok', [[inf, inf, nan, 1.0, 1.0, 17.0, -1.0, 17.0, 49.0, 7.0]]),
 'shifted_chebyshev_polynomial_u n=0, 1': ('ok',
                                           [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                            [inf, -inf, nan, -2.0, 2.0, -6.0, 0.0, 6.0, -10.0, 4.0]]),
 'shifted_chebyshev_polynomial_v n=0, 1': ('ok',
                                           [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                            [inf, -inf, nan, -3.0, 1.0, -7.0, -1.0, 5.0, -11.0, 3.0]]),
 'shifted_chebyshev_polynomial_v n=2': ('ok', [[inf, inf, nan, 5.0, 1.0, 41.0, -1.0, 29.0, 109.0, 11.0]]),
 'shifted_chebyshev_polynomial_w n=0, 1': ('ok',
                                           [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                                            [inf, -inf, nan, -1.0, 3.0, -5.0, 1.0, 7.0, -9.0, 5.0]])}


(
    test_polynomials_at_special_and_exact_points,
    test_polynomials_at_special_and_exact_points_as_live_torch,
) = stored_and_live(_POLYNOMIAL_VALUES, POLYNOMIAL_VALUES_WANT, rtol=0.0)


# -- kept on purpose (docs/shim-conventions.md, round 26) -------------------------------------

def test_polynomials_at_infinity_are_their_limits():
    """Degree >= 1 at ±inf: the infinity of the leading term (``(-1)^n`` for Laguerre's),
    where PyTorch's recurrences give NaN from ``inf - inf`` for n >= 3; NaN stays NaN (PyTorch's
    Legendre/Laguerre/Chebyshev U, W return an uninitialized value there)."""
    x = ft.tensor([inf, -inf, nan], dtype=ft.float64)
    for op in _POLYNOMIALS:
        for n in (1, 2, 3, 4, 7):
            got = getattr(ft.special, op)(x, n).tolist()
            lead = (-1.0) ** n if op == "laguerre_polynomial_l" else 1.0
            want = [lead * inf, lead * (-1.0) ** n * inf]
            assert got[:2] == want and math.isnan(got[2]), (op, n, got)


def test_polynomials_recurrences_stay_accurate():
    """Hermite H and Legendre P by their recurrences agree with the closed forms to a few ulps
    over [-1, 1] and beyond (H_4 = 16x^4 - 48x^2 + 12, P_4 = (35x^4 - 30x^2 + 3) / 8)."""
    x = np.linspace(-3.0, 3.0, 241)
    h4 = ft.special.hermite_polynomial_h(ft.tensor(x), 4).numpy()
    np.testing.assert_allclose(h4, 16 * x**4 - 48 * x**2 + 12, rtol=1e-13, atol=1e-12)
    p4 = ft.special.legendre_polynomial_p(ft.tensor(x), 4).numpy()
    np.testing.assert_allclose(p4, (35 * x**4 - 30 * x**2 + 3) / 8, rtol=1e-13, atol=1e-13)
    assert ft.special.hermite_polynomial_h(ft.tensor([1.0], dtype=ft.float64), 1).item() == 2.0


def test_nearest_grid_sample_gives_the_grid_a_zero_gradient():
    """``autograd.grad(out, grid)`` works in nearest mode (PyTorch's gradient: zeros)."""
    image = ft.rand(1, 1, 3, 3, requires_grad=True)
    grid = ft.rand(1, 2, 2, 2, requires_grad=True) * 2 - 1
    out = ft.nn.functional.grid_sample(image, grid, mode="nearest", align_corners=False)
    g_image, g_grid = ft.autograd.grad(out.sum(), (image, grid))
    assert g_grid.shape == grid.shape and not g_grid.any()
    assert g_image.sum().item() == 4.0


# -- float_power with a complex exponent ------------------------------------------------------
# (fgrad cast the exponent to float64, dropping its imaginary part: a silently wrong value)

_Z = [-0.15602532 - 2.1855524j, 1.5 + 0.5j]
_W = [2.5 - 0.509452j, -1.0 + 2.0j]


def _float_power_grads(T):
    x = T.tensor([2.0, 0.5], dtype=T.float64, requires_grad=True)
    e = T.tensor(_W, dtype=T.complex128, requires_grad=True)
    gx, ge = T.autograd.grad(T.view_as_real(T.float_power(x, e)).sum(), (x, e))
    return [gx.tolist(), T.view_as_real(ge).tolist()]


_FLOAT_POWER = {
    "complex64 ** complex64": lambda T: T.view_as_real(T.float_power(
        T.tensor(_Z, dtype=T.complex64), T.tensor(_W, dtype=T.complex64))).tolist(),
    "real ** complex": lambda T: T.view_as_real(T.float_power(
        T.tensor([2.0, 0.5]), T.tensor(_W, dtype=T.complex64))).tolist(),
    "complex ** real": lambda T: T.view_as_real(T.float_power(
        T.tensor(_Z, dtype=T.complex64), T.tensor([2.0, 0.5]))).tolist(),
    "number ** complex": lambda T: T.view_as_real(T.float_power(2.0, T.tensor(_W))).tolist(),
    "real ** complex number": lambda T: T.view_as_real(T.float_power(T.tensor([2.0, 0.5]), 1j)).tolist(),
    "float_power_ in place": lambda T: T.view_as_real(
        T.tensor(_Z, dtype=T.complex128).float_power_(T.tensor(_W))).tolist(),
    "gradients": _float_power_grads,
}

FLOAT_POWER_WANT = {'complex ** real': ('ok',
                     [[-4.752295211729367, 0.6820030135374247], [1.2411967672541269, 0.20141850719855617]]),
 'complex64 ** complex64': ('ok',
                            [[-0.6345575454895798, 3.0124859354495865],
                             [0.2752988056218552, 0.18614364580610435]]),
 'float_power_ in place': ('ok',
                           [[-0.6345575580655278, 3.0124860832310585],
                            [0.2752988056218552, 0.18614364580610435]]),
 'gradients': ('ok',
               [[2.33899551879617, 12.530160783908132],
                [[2.3230730929299748, 5.035109164225703], [1.1084404437617814, -1.6170911829512882]]]),
 'number ** complex': ('ok',
                       [[5.307806546031027, -1.9563204415202995], [0.09172848737165086, 0.4915138702056219]]),
 'real ** complex': ('ok',
                     [[5.307806546031027, -1.9563204415202995], [0.36691394948660344, -1.9660554808224875]]),
 'real ** complex number': ('ok',
                            [[0.7692389013639721, 0.6389612763136348],
                             [0.7692389013639721, -0.6389612763136348]])}


(
    test_float_power_keeps_a_complex_exponent,
    test_float_power_keeps_a_complex_exponent_as_live_torch,
) = stored_and_live(_FLOAT_POWER, FLOAT_POWER_WANT, rtol=1e-12)  # complex ** real: a last bit


# -- error types: copysign to a complex result, vector_norm of an integer input with dtype= ----

_ERRORS = {
    "copysign(float, complex)": lambda T: T.copysign(T.tensor([1.0]), T.tensor([1j])).tolist(),
    "copysign(float64, complex number)": lambda T: T.copysign(T.tensor([1.0], dtype=T.float64), 1j).tolist(),
    "norm of bool with dtype=complex128": lambda T: T.norm(T.tensor([True, False]), dim=0,
                                                           dtype=T.complex128).tolist(),
    "vector_norm of int64 with dtype=float64": lambda T: T.linalg.vector_norm(
        T.tensor([1, 2]), dtype=T.float64).tolist(),
    "vector_norm of float32 with dtype=float64": lambda T: T.linalg.vector_norm(
        T.tensor([3.0, 4.0]), dtype=T.float64).tolist(),
}

ERRORS_WANT = {
    'copysign(float, complex)': ('NotImplementedError',
                                 '"copysign_cpu" not implemented for \'ComplexFloat\''),
 'copysign(float64, complex number)': ('NotImplementedError',
                                       '"copysign_cpu" not implemented for \'ComplexDouble\''),
 'norm of bool with dtype=complex128': ('RuntimeError',
                                        'linalg.vector_norm: Expected a floating point or complex tensor as '
                                        'input. Got Bool'),
 'vector_norm of float32 with dtype=float64': ('ok', 5.0),
 'vector_norm of int64 with dtype=float64': ('RuntimeError',
                                             'linalg.vector_norm: Expected a floating point or complex '
                                             'tensor as input. Got Long')}


(
    test_copysign_and_vector_norm_raise_pytorchs_errors,
    test_copysign_and_vector_norm_raise_pytorchs_errors_as_live_torch,
) = stored_and_live(_ERRORS, ERRORS_WANT)


# -- cumprod_ runs in self's dtype (a bool tensor: PyTorch's NotImplementedError, not a cast error)

_CUMPROD_INPLACE = {
    "cumprod_ of bool": lambda T: T.tensor(_BOOL).cumprod_(0).tolist(),
    "cumprod_ of int8 wraps": lambda T: T.tensor([100, 3, 2], dtype=T.int8).cumprod_(0).tolist(),
    "cumprod_ of float32": lambda T: T.tensor([1.5, 2.0, -1.0]).cumprod_(0).tolist(),
}

CUMPROD_INPLACE_WANT = {
    'cumprod_ of bool': ('NotImplementedError', '"cumprod_out_cpu" not implemented for \'Bool\''),
 'cumprod_ of float32': ('ok', [1.5, 3.0, -3.0]),
 'cumprod_ of int8 wraps': ('ok', [100, 44, 88])}


(
    test_cumprod_inplace_runs_in_self_dtype,
    test_cumprod_inplace_runs_in_self_dtype_as_live_torch,
) = stored_and_live(_CUMPROD_INPLACE, CUMPROD_INPLACE_WANT)


# -- integer division of an empty tensor by a zero divides nothing ----------------------------
# (fgrad raised its ZeroDivisionError RuntimeError from the broadcast divisor)

_EMPTY_DIVISION = {
    "fmod of an empty int32 by bools": lambda T: T.fmod(
        T.zeros(2, 0, dtype=T.int32), T.tensor([[False], [True]])).tolist(),
    "remainder of empty by 0": lambda T: T.remainder(T.zeros(0, dtype=T.int64), 0).tolist(),
    "div trunc of empty by a zero tensor": lambda T: T.div(
        T.zeros(0, dtype=T.int64), T.zeros(1, dtype=T.int64), rounding_mode="trunc").tolist(),
    "fmod of non-empty by 0 still raises": lambda T: _error_type(
        lambda: T.fmod(T.tensor([1, 2]), T.tensor([0, 1]))),
}


def _error_type(call):
    """The type name of the exception ``call`` raises (the words differ: fgrad's name the fix)."""
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e).__name__
    return None

EMPTY_DIVISION_WANT = {'div trunc of empty by a zero tensor': ('ok', []),
 'fmod of an empty int32 by bools': ('ok', [[], []]),
 'fmod of non-empty by 0 still raises': ('ok', 'RuntimeError'),
 'remainder of empty by 0': ('ok', [])}


(
    test_integer_division_of_an_empty_tensor,
    test_integer_division_of_an_empty_tensor_as_live_torch,
) = stored_and_live(_EMPTY_DIVISION, EMPTY_DIVISION_WANT)
