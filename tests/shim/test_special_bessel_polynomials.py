"""torch.special's Bessel functions of the second kind, modified K, Airy's Ai and orthogonal
polynomials (`fgrad/ops/bessel_polynomials.py`): PyTorch's values (stored from PyTorch 2.13,
and live over a grid when torch is installed), dtypes, degree conventions (truncation,
negative degrees give 0), no derivative (as in PyTorch), ``out=``, and the same values
on the fake GPU device."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.ops import bessel_polynomials as bp

X = np.array([0.3, -0.7, 2.5])
UNARY = ["airy_ai", "bessel_y0", "bessel_y1", "modified_bessel_k0", "modified_bessel_k1",
         "scaled_modified_bessel_k0", "scaled_modified_bessel_k1"]

# PyTorch 2.13: unary functions at |X| + 0.1, polynomials at X / 3 with n = 5 (float64)
STORED = {
    "airy_ai": [0.25474235429567627, 0.1698463174443649, 0.013289282529671478],
    "bessel_y0": [-0.6060245684270096, -0.08680227965660679, 0.4813305905881007],
    "bessel_y1": [-1.7808720442700516, -0.9781441766833591, 0.18836354435052333],
    "modified_bessel_k0": [1.1145291345244346, 0.5653471052658958, 0.05539830328632195],
    "modified_bessel_k1": [2.184354424732687, 0.8617816344721803, 0.06528404505853148],
    "scaled_modified_bessel_k0": [1.6626820891243013, 1.2582031215739906, 0.745868243030612],
    "scaled_modified_bessel_k1": [3.258673879218212, 1.9179302989409723, 0.8789672805333146],
    "chebyshev_polynomial_t": [0.48016, -0.9236589300411523, -0.977366255144033],
    "shifted_chebyshev_polynomial_t": [0.99712, -52.82088823045266, -0.4855967078189305],
    "chebyshev_polynomial_u": [0.5683199999999999, -1.0156141563786008, -0.6584362139917688],
    "shifted_chebyshev_polynomial_u": [1.0982399999999997, -125.01481349794233, -1.2674897119341568],
    "chebyshev_polynomial_v": [-0.3132800000000001, -1.4097079835390947, -1.0411522633744856],
    "shifted_chebyshev_polynomial_v": [1.2246399999999984, -174.23794436213987, -0.09465020576131743],
    "chebyshev_polynomial_w": [1.4499199999999999, -0.6215203292181068, -0.2757201646090518],
    "shifted_chebyshev_polynomial_w": [0.97184, -75.79168263374483, -2.440329218106996],
    "hermite_polynomial_h": [11.840319999999998, -25.989540082304526, 20.267489711934154],
    "hermite_polynomial_he": [1.4900099999999998, -3.3736546090534976, 7.1148405349794235],
    "laguerre_polynomial_l": [0.5483540833333334, 2.4606850332647463, -0.5618302040466392],
    "legendre_polynomial_p": [0.17882874999999998, -0.3317893055555555, -0.3363715277777776],
}


@pytest.mark.parametrize("name", sorted(STORED))
def test_matches_stored_pytorch_values(name):
    x = ft.tensor(np.abs(X) + 0.1 if name in UNARY else X / 3, dtype=ft.float64)
    f = getattr(ft.special, name)
    got = f(x) if name in UNARY else f(x, 5)
    assert got.dtype == ft.float64
    # PyTorch's y0/y1 are ~1e-12 relative off SciPy's (fgrad's) near x = 2.6
    np.testing.assert_allclose(got.numpy(), STORED[name], rtol=1e-11, atol=1e-14)


def test_airy_ai_exact_where_pytorch_is_not():
    """Ai(x) to 1e-15 against mpmath's 30-digit values; PyTorch's is ~1.1e-6 off at -2.25."""
    got = ft.special.airy_ai(ft.tensor([-2.25, -3.0, -2.0], dtype=ft.float64)).numpy()
    exact = [0.061598658777005277517, -0.37881429367765807435, 0.22740742820168557599]
    np.testing.assert_allclose(got, exact, rtol=1e-14)
    y = ft.special.bessel_y0(ft.tensor([4.0], dtype=ft.float64)).item()
    assert abs(y - -0.016940739325064991904) < 1e-15  # mpmath; PyTorch's: -0.0169407396853


def test_live_pytorch_over_a_grid():
    torch = pytest.importorskip("torch")
    x = np.concatenate([np.linspace(-4.0, 4.0, 33), [0.0, 1.0, -1.0, 1e-3, 30.0, np.nan]])
    for name in UNARY:
        got = getattr(ft.special, name)(ft.tensor(x)).numpy()
        want = getattr(torch.special, name)(torch.tensor(x)).numpy()
        # PyTorch's airy_ai is up to ~1.2e-6 off for x in [-2.5, -2], its y0/y1 ~4e-10 near
        # x = 4 (fgrad's: SciPy's, within 1e-15 of mpmath)
        tol = {"airy_ai": 2e-6, "bessel_y0": 1e-9, "bessel_y1": 1e-9}.get(name, 1e-11)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True, err_msg=name)
    xs, ns = np.meshgrid(np.linspace(-1.5, 1.5, 13), np.array([0, 1, 2, 3, 4, 6, 9, 12, -1, -3, 2.7, 5.5]))
    for name in bp.POLYNOMIALS:
        got = getattr(ft.special, name)(ft.tensor(xs), ft.tensor(ns)).numpy()
        want = getattr(torch.special, name)(torch.tensor(xs), torch.tensor(ns)).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-11, atol=1e-11, err_msg=name)


def test_dtypes_degrees_and_no_derivative():
    x = ft.tensor([0.5, -0.25], requires_grad=True)
    for name in bp.POLYNOMIALS:
        y = getattr(ft.special, name)(x, 3)
        assert y.dtype == ft.float32 and not y.requires_grad and y.grad_fn is None
        # a negative degree gives 0; a fractional one is truncated toward zero
        assert getattr(ft.special, name)(x, -2).tolist() == [0.0, 0.0]
        np.testing.assert_array_equal(getattr(ft.special, name)(x, 3.9).numpy(), y.numpy())
    # an integer tensor degree with a float64 input: float64; a number input: the default dtype
    x64 = ft.tensor([0.5], dtype=ft.float64)
    assert ft.special.chebyshev_polynomial_t(x64, ft.tensor([3])).dtype == ft.float64
    assert ft.special.hermite_polynomial_h(2.0, ft.tensor([3])).dtype == ft.float32
    assert ft.special.hermite_polynomial_h(2.0, ft.tensor([3])).tolist() == [40.0]  # 8x^3 - 12x
    for name in UNARY:
        y = getattr(ft.special, name)(x)
        assert not y.requires_grad and y.dtype == ft.float32
    assert ft.special.bessel_y0(ft.tensor([2])).dtype == ft.float32  # integers: the default dtype
    assert np.isnan(ft.special.bessel_y0(ft.tensor([-1.0])).item())
    assert ft.special.modified_bessel_k0(ft.tensor([0.0])).item() == np.inf


def test_out_and_functional_face_has_no_derivative():
    o = ft.empty(2)
    r = ft.special.legendre_polynomial_p(ft.tensor([0.5, 1.0]), 2, out=o)
    assert r is o
    np.testing.assert_allclose(o.numpy(), [-0.125, 1.0], rtol=1e-6)
    import fgrad

    with pytest.raises(NotImplementedError, match="bessel_y0: the derivative is not implemented"):
        fgrad.grad(lambda v: bp.bessel("bessel_y0", v))(1.0)


def test_same_values_on_the_fake_device(backend):
    """The primitives on a device buffer (the fake GPU; cupyx.scipy.special on cupy, SciPy on
    the host where cupy lacks a function, e.g. ``airy``)."""
    import fgrad
    import fgrad.numpy as fnp

    x = np.linspace(0.1, 3.0, 7)
    xd = backend.put(fnp.asarray(x))
    got = bp.airy_ai(xd)
    assert backend.on_device(got)
    np.testing.assert_allclose(np.asarray(fgrad.device_get(got)), np.asarray(bp.airy_ai(x)), rtol=1e-12)
    got = bp.polynomial("chebyshev_polynomial_w", xd, backend.put(fnp.asarray(np.full(7, 4.0))))
    assert backend.on_device(got)
    want = bp.polynomial("chebyshev_polynomial_w", x, np.full(7, 4.0))
    np.testing.assert_allclose(np.asarray(fgrad.device_get(got)), np.asarray(want), rtol=1e-12)
