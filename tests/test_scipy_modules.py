"""fgrad.scipy's signal processing, fft (DCT), integrate, ndimage, interpolate, spatial.transform
and cluster modules against JAX and SciPy.

Each case is ``fn(m, x)`` with ``m`` a namespace holding ``numpy`` and ``scipy`` (fgrad's or
JAX's) and ``x`` one float64 array; the checked scalar is ``sum(sin(fn(m, x)))`` so every output
element matters.  Checked for every case: value, gradient and Hessian against stored JAX numbers
(jax 0.10.2, x64; ``tests/stored/jax_scipy_modules.json``, rewritten by ``python
tests/test_scipy_modules.py --store``) and live JAX (``-m slow``); derivatives against finite
differences to order 2 in both modes; ``vmap`` against a loop; ``jit`` against eager.  Then
SciPy comparisons over the options, the DCT's adjoint, the pytrees, and the errors.
"""

from __future__ import annotations

import json
import sys
import types
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fgrad
import fgrad.numpy as fnp
import fgrad.scipy
from fgrad.scipy import fft as ffft
from fgrad.scipy import signal as fsig
from fgrad.scipy.cluster.vq import vq
from fgrad.scipy.integrate import trapezoid
from fgrad.scipy.interpolate import RegularGridInterpolator
from fgrad.scipy.ndimage import map_coordinates
from fgrad.scipy.spatial.transform import Rotation, Slerp
from fgrad.testing import check_grads

F = types.SimpleNamespace(numpy=fnp, scipy=fgrad.scipy)
STORE = Path(__file__).parent / "stored" / "jax_scipy_modules.json"

_rng = np.random.default_rng(1414)
SIG = np.round(_rng.normal(size=12), 3)            # a short signal
SIG2 = np.round(_rng.normal(size=(2, 12)), 3)      # two signals (csd: x and y)
IMG = np.round(_rng.normal(size=(3, 4)), 3)
COORDS = np.array([[0.3, 1.7, -0.6, 2.4, 3.2], [0.2, 2.9, 1.3, -0.8, 4.6]])
GRID = (np.array([0.0, 0.5, 1.5, 3.0]), np.array([-1.0, 0.0, 2.0]))
VALUES = np.round(_rng.normal(size=(4, 3)), 3)
QUERY = np.array([[0.2, -0.5], [1.2, 1.1], [2.9, 0.4], [0.7, 1.9]])
QUATS = np.round(_rng.normal(size=(3, 4)), 3)
ROTVECS = np.array([[0.3, -0.2, 0.5], [1.0, 0.4, -0.7], [0.0, 0.0, 0.0004]])
EULER = np.array([[0.3, -0.4, 1.1], [-1.2, 0.2, 0.5]])
VEC3 = np.array([[1.0, 2.0, -0.5], [0.3, -1.0, 2.0], [0.0, 1.0, 1.0]])
OBS = np.array([[0.1, 0.9], [2.2, 2.8], [-1.0, 0.5]])
BOOK = np.array([[0.0, 1.0], [2.0, 3.0], [-1.2, 0.0]])


def _rot(m):
    return m.scipy.spatial.transform.Rotation


def _complex_parts(m, z):
    return m.numpy.concatenate([m.numpy.real(z).ravel(), m.numpy.imag(z).ravel()])


CASES = [
    # fft: the DCT (type 2) and its inverse
    ("fft.dct", SIG[:6], lambda m, x: m.scipy.fft.dct(x)),
    ("fft.dct_ortho_n", SIG[:5], lambda m, x: m.scipy.fft.dct(x, n=7, norm="ortho")),
    ("fft.idct", SIG[:5], lambda m, x: m.scipy.fft.idct(x)),
    ("fft.idct_ortho_axis0", IMG, lambda m, x: m.scipy.fft.idct(x, axis=0, norm="ortho")),
    ("fft.dctn", IMG, lambda m, x: m.scipy.fft.dctn(x)),
    ("fft.dctn_s_axes", IMG, lambda m, x: m.scipy.fft.dctn(x, s=(5, 2), axes=(0, 1), norm="ortho")),
    ("fft.idctn", IMG, lambda m, x: m.scipy.fft.idctn(x)),
    ("fft.idctn_ortho", IMG, lambda m, x: m.scipy.fft.idctn(x, norm="ortho")),
    # integrate
    ("integrate.trapezoid_y", IMG, lambda m, y: m.scipy.integrate.trapezoid(y, dx=0.3, axis=0)),
    ("integrate.trapezoid_x", np.array([0.0, 0.4, 1.5, 2.0]),
     lambda m, x: m.scipy.integrate.trapezoid(m.numpy.asarray(IMG), x)),
    # ndimage
    *[(f"ndimage.map_coordinates_{mode}", IMG, (lambda mode: lambda m, a: m.scipy.ndimage.map_coordinates(
        a, [m.numpy.asarray(COORDS[0]), m.numpy.asarray(COORDS[1])], 1, mode=mode, cval=0.5))(mode))
      for mode in ("constant", "nearest", "wrap", "mirror", "reflect")],
    ("ndimage.map_coordinates_coords", COORDS, lambda m, c: m.scipy.ndimage.map_coordinates(
        m.numpy.asarray(IMG), [c[0], c[1]], 1, mode="mirror")),
    ("ndimage.map_coordinates_order0", IMG, lambda m, a: m.scipy.ndimage.map_coordinates(
        a, [m.numpy.asarray(COORDS[0]), m.numpy.asarray(COORDS[1])], 0, mode="wrap")),
    # interpolate
    ("interpolate.linear_values", VALUES, lambda m, v: m.scipy.interpolate.RegularGridInterpolator(
        tuple(m.numpy.asarray(g) for g in GRID), v, fill_value=None)(m.numpy.asarray(QUERY))),
    ("interpolate.linear_xi", QUERY, lambda m, q: m.scipy.interpolate.RegularGridInterpolator(
        tuple(m.numpy.asarray(g) for g in GRID), m.numpy.asarray(VALUES))(q)),
    ("interpolate.nearest_values", VALUES, lambda m, v: m.scipy.interpolate.RegularGridInterpolator(
        tuple(m.numpy.asarray(g) for g in GRID), v, method="nearest")(m.numpy.asarray(QUERY))),
    ("interpolate.linear_grid", GRID[0], lambda m, g: m.scipy.interpolate.RegularGridInterpolator(
        (g, m.numpy.asarray(GRID[1])), m.numpy.asarray(VALUES))(m.numpy.asarray(QUERY))),
    # cluster
    ("cluster.vq_dist", OBS, lambda m, o: m.scipy.cluster.vq.vq(o, m.numpy.asarray(BOOK))[1]),
    # signal
    ("signal.detrend_linear", SIG2, lambda m, x: m.scipy.signal.detrend(x)),
    ("signal.detrend_bp", SIG, lambda m, x: m.scipy.signal.detrend(x, bp=[4, 9])),
    ("signal.detrend_constant", SIG2, lambda m, x: m.scipy.signal.detrend(x, axis=0, type="constant")),
    ("signal.stft", SIG, lambda m, x: _complex_parts(m, m.scipy.signal.stft(x, nperseg=6)[2])),
    ("signal.stft_options", SIG, lambda m, x: _complex_parts(m, m.scipy.signal.stft(
        x, nperseg=5, noverlap=3, nfft=8, detrend="linear", boundary="odd", window="hamming")[2])),
    ("signal.welch", SIG, lambda m, x: m.scipy.signal.welch(x, nperseg=6)[1]),
    ("signal.welch_median_spectrum", SIG2, lambda m, x: m.scipy.signal.welch(
        x, nperseg=4, average="median", scaling="spectrum", fs=2.0)[1]),
    ("signal.csd", SIG2, lambda m, x: _complex_parts(m, m.scipy.signal.csd(x[0], x[1], nperseg=6)[1])),
    ("signal.istft", SIG2, lambda m, x: m.scipy.signal.istft(
        m.scipy.signal.stft(x[0], nperseg=6)[2] + 0.3j * m.scipy.signal.stft(x[1], nperseg=6)[2],
        nperseg=6)[1]),
    # spatial.transform
    ("spatial.from_quat_as_matrix", QUATS, lambda m, q: _rot(m).from_quat(q).as_matrix()),
    ("spatial.as_rotvec", QUATS, lambda m, q: _rot(m).from_quat(q).as_rotvec()),
    ("spatial.as_mrp", QUATS, lambda m, q: _rot(m).from_quat(q).as_mrp()),
    ("spatial.magnitude", QUATS, lambda m, q: _rot(m).from_quat(q).magnitude()),
    ("spatial.from_rotvec", ROTVECS, lambda m, v: _rot(m).from_rotvec(v).as_quat()),
    ("spatial.from_mrp", ROTVECS, lambda m, v: _rot(m).from_mrp(v).as_quat()),
    ("spatial.from_matrix", ROTVECS, lambda m, v: _rot(m).from_matrix(
        _rot(m).from_rotvec(v).as_matrix()).as_rotvec()),
    ("spatial.from_euler", EULER, lambda m, e: _rot(m).from_euler("xyz", e).as_quat()),
    ("spatial.from_euler_intrinsic_deg", EULER, lambda m, e: _rot(m).from_euler("ZXZ", 30 * e,
                                                                                degrees=True).as_quat()),
    ("spatial.as_euler", EULER, lambda m, e: _rot(m).from_rotvec(e).as_euler("zyx")),
    ("spatial.as_euler_symmetric", EULER, lambda m, e: _rot(m).from_rotvec(e).as_euler("XYX")),
    ("spatial.apply", VEC3, lambda m, v: _rot(m).from_rotvec(m.numpy.asarray(ROTVECS)).apply(v)),
    ("spatial.apply_inverse_in_rotation", ROTVECS, lambda m, r: _rot(m).from_rotvec(r).apply(
        m.numpy.asarray(VEC3), inverse=True)),
    ("spatial.mul_inv", QUATS,
     lambda m, q: (_rot(m).from_quat(q) * _rot(m).from_quat(q[::-1]).inv()).as_quat()),
    ("spatial.mean", QUATS, lambda m, q: _rot(m).from_quat(q).mean().as_matrix()),
    ("spatial.slerp", ROTVECS, lambda m, r: m.scipy.spatial.transform.Slerp.init(
        m.numpy.asarray([0.0, 1.0, 2.5]), _rot(m).from_rotvec(r))(
        m.numpy.asarray([0.2, 1.0, 2.0])).as_quat()),
]
IDS = [c[0] for c in CASES]


def _scalar(m, fn):
    return lambda x: m.numpy.sum(m.numpy.sin(fn(m, x)))


def _fgrad_results(fn, x):
    x = fnp.asarray(x)
    f = _scalar(F, fn)
    return fn(F, x), fgrad.grad(f)(x), fgrad.hessian(f)(x)


def _jax_results(jax, fn, x):
    import jax.numpy as jnp

    jm = types.SimpleNamespace(numpy=jnp, scipy=jax.scipy)
    x = jnp.asarray(x)
    f = _scalar(jm, fn)
    return fn(jm, x), jax.grad(f)(x), jax.hessian(f)(x)


def _close(actual, expected, what, rtol=1e-9, atol=1e-11):
    np.testing.assert_allclose(np.asarray(actual), np.asarray(expected), rtol=rtol, atol=atol, err_msg=what)


def _load_jax_x64():
    import importlib

    import jax

    for sub in ("signal", "fft", "integrate", "interpolate", "ndimage", "spatial.transform", "cluster.vq"):
        importlib.import_module(f"jax.scipy.{sub}")
    jax.config.update("jax_enable_x64", True)
    return jax


@pytest.fixture(scope="module")
def jax_x64():
    pytest.importorskip("jax")
    import jax

    before = jax.config.jax_enable_x64
    yield _load_jax_x64()
    jax.config.update("jax_enable_x64", before)


@pytest.fixture(scope="module")
def stored():
    return json.loads(STORE.read_text())


def test_stored_numbers_cover_every_case(stored):
    assert sorted(stored) == sorted(IDS)


@pytest.mark.parametrize("name,x,fn", CASES, ids=IDS)
def test_value_grad_hessian_match_stored_jax(name, x, fn, stored):
    sv, sg, sh = stored[name]
    for what, a, e in zip(("value", "gradient", "Hessian"), _fgrad_results(fn, x), (sv, sg, sh)):
        _close(a, e, f"{name} {what}")


@pytest.mark.slow  # jax compiles 3 programs per case
@pytest.mark.parametrize("name,x,fn", CASES, ids=IDS)
def test_value_grad_hessian_match_live_jax(name, x, fn, jax_x64):
    expected = _jax_results(jax_x64, fn, x)
    for what, a, e in zip(("value", "gradient", "Hessian"), _fgrad_results(fn, x), expected):
        _close(a, e, f"{name} {what} vs live jax")


@pytest.mark.parametrize("name,x,fn", CASES, ids=IDS)
def test_derivatives_match_finite_differences(name, x, fn):
    check_grads(lambda v: fn(F, v), (fnp.asarray(x),), order=2, modes=("fwd", "rev"), err_msg=name)


@pytest.mark.parametrize("name,x,fn", CASES, ids=IDS)
def test_vmap_matches_a_loop_and_jit_matches_eager(name, x, fn):
    f = lambda v: fn(F, v)  # noqa: E731
    x = np.asarray(x)
    xs = np.stack([x, x * 0.9 + 0.01])
    batched = fgrad.vmap(f)(fnp.asarray(xs))
    for i in range(2):
        _close(batched[i], f(fnp.asarray(xs[i])), f"{name} vmap row {i}", rtol=1e-12, atol=1e-13)
    _close(fgrad.jit(f)(fnp.asarray(x)), f(fnp.asarray(x)), f"{name} jit", rtol=1e-12, atol=1e-13)
    g = fgrad.grad(_scalar(F, fn))
    _close(fgrad.jit(g)(fnp.asarray(x)), g(fnp.asarray(x)), f"{name} jit(grad)", rtol=1e-12, atol=1e-13)


def store() -> None:
    """Rewrite the stored JAX numbers (needs jax)."""
    jax = _load_jax_x64()
    out = {}
    for name, x, fn in CASES:
        out[name] = [np.asarray(r).tolist() for r in _jax_results(jax, fn, x)]
    STORE.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(out)} cases to {STORE}")


if __name__ == "__main__":
    if "--store" in sys.argv:
        store()


# -- SciPy over the options -----------------------------------------------------------------------

scipy_fft = pytest.importorskip("scipy.fft")
scipy_signal = pytest.importorskip("scipy.signal")


@pytest.mark.parametrize("n", [1, 2, 5, 8])
@pytest.mark.parametrize("norm", [None, "ortho"])
def test_dct_matches_scipy(n, norm):
    x = np.random.default_rng(n).normal(size=(3, n))
    _close(ffft.dct(fnp.asarray(x), norm=norm), scipy_fft.dct(x, norm=norm), "dct", rtol=1e-12, atol=1e-13)
    _close(ffft.idct(fnp.asarray(x), norm=norm), scipy_fft.idct(x, norm=norm), "idct", rtol=1e-12, atol=1e-13)
    _close(ffft.dct(fnp.asarray(x), axis=0, n=4, norm=norm), scipy_fft.dct(x, axis=0, n=4, norm=norm),
           "dct n")
    _close(ffft.idctn(ffft.dctn(fnp.asarray(x), norm=norm), norm=norm), x, "round trip", atol=1e-12)


def test_dct_dtypes_and_complex():
    x32 = fnp.asarray(np.arange(4.0, dtype=np.float32))
    assert ffft.dct(x32).dtype == np.float32 and ffft.idctn(x32).dtype == np.float32
    assert ffft.dct(fnp.asarray([1, 2, 3])).dtype == np.float64
    z = np.array([1.0 + 2.0j, -0.5j, 3.0])
    _close(ffft.dct(fnp.asarray(z)), scipy_fft.dct(z), "complex dct", rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("norm", [None, "ortho"])
def test_dct_transpose_is_the_adjoint(norm):
    """<ct, D x> == <D^T ct, x>; for 'ortho' the transpose is the inverse (an orthogonal map)."""
    rng = np.random.default_rng(3)
    x, ct = rng.normal(size=6), rng.normal(size=6)
    dct = lambda v: ffft.dct(v, norm=norm)  # noqa: E731
    (t,) = fgrad.linear_transpose(dct, fnp.asarray(x))(fnp.asarray(ct))
    lhs = float(fnp.sum(fnp.asarray(ct) * dct(fnp.asarray(x))))
    np.testing.assert_allclose(lhs, float(np.sum(np.asarray(t) * x)), rtol=1e-12)
    if norm == "ortho":
        _close(t, scipy_fft.idct(ct, norm="ortho"), "ortho transpose = inverse", rtol=1e-12, atol=1e-13)
    else:  # unnormalized: D^T ct = 2 sum_k ct[k] cos(...), SciPy's DCT-III plus the k = 0 term again
        _close(t, scipy_fft.dct(ct, type=3) + ct[0], "transpose = DCT-III", rtol=1e-12, atol=1e-13)


def test_dct_errors():
    with pytest.raises(NotImplementedError, match="type 2"):
        ffft.dct(fnp.ones(3), type=1)
    with pytest.raises(ValueError, match="norm"):
        ffft.idct(fnp.ones(3), norm="forward")
    with pytest.raises(ValueError, match="out of bounds"):
        ffft.dct(fnp.ones(3), axis=2)
    with pytest.raises(ValueError, match="same length"):
        ffft.dctn(fnp.ones((2, 2)), s=(2,), axes=(0, 1))


@pytest.mark.parametrize("kw", [{}, {"type": "constant"}, {"bp": [10, 30]}, {"axis": 0}])
def test_detrend_matches_scipy(kw):
    x = np.random.default_rng(0).normal(size=(3, 40))
    _close(fsig.detrend(fnp.asarray(x), **kw), scipy_signal.detrend(x, **kw), f"detrend {kw}", atol=1e-12)


def _close_all(got, want, what):
    for i, (a, b) in enumerate(zip(got, want)):
        _close(a, b, f"{what} output {i}", rtol=1e-10, atol=1e-12)


STFT_OPTIONS = [
    {"nperseg": 16}, {"nperseg": 16, "noverlap": 4, "nfft": 20},
    {"nperseg": 15, "window": "hamming", "boundary": "even"},
    {"nperseg": 8, "detrend": "linear", "boundary": "odd", "padded": False},
    {"nperseg": 10, "return_onesided": False, "boundary": None},
    {"nperseg": 7, "boundary": "constant", "window": "blackman", "fs": 3.0},
    {"nperseg": 6, "window": "bartlett"}, {"nperseg": 6, "window": "boxcar", "axis": 0},
]


@pytest.mark.parametrize("kw", STFT_OPTIONS, ids=range(len(STFT_OPTIONS)))
def test_stft_and_istft_match_scipy(kw):
    x = np.random.default_rng(1).normal(size=(3, 40))
    if kw.get("axis") == 0:
        x = x.T
    _close_all(fsig.stft(fnp.asarray(x), **kw), scipy_signal.stft(x, **kw), f"stft {kw}")
    inverse = {k: v for k, v in kw.items() if k in ("nperseg", "noverlap", "nfft", "window", "fs")}
    if kw.get("return_onesided") is False:
        inverse["input_onesided"] = False
    if kw.get("boundary", "zeros") is None:
        inverse["boundary"] = False
    if kw.get("axis") == 0:
        inverse.update(time_axis=-1, freq_axis=0)
    z = scipy_signal.stft(x, **kw)[2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # SciPy's NOLA/COLA notes
        want = scipy_signal.istft(z, **inverse)
    _close_all(fsig.istft(fnp.asarray(z), **inverse), want, f"istft {inverse}")


WELCH_OPTIONS = [
    {"nperseg": 16}, {"nperseg": 16, "noverlap": 4, "nfft": 20, "scaling": "spectrum"},
    {"nperseg": 15, "window": "hamming", "average": "median"}, {"nperseg": 8, "detrend": "linear"},
    {"nperseg": 10, "return_onesided": False}, {}, {"nperseg": 16, "detrend": False, "fs": 3.0},
]


@pytest.mark.parametrize("kw", WELCH_OPTIONS, ids=range(len(WELCH_OPTIONS)))
def test_welch_and_csd_match_scipy(kw):
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=(3, 300)), rng.normal(size=(3, 300))  # > 256: SciPy's default nperseg
    _close_all(fsig.welch(fnp.asarray(x), **kw), scipy_signal.welch(x, **kw), f"welch {kw}")
    _close_all(fsig.csd(fnp.asarray(x), fnp.asarray(y), **kw), scipy_signal.csd(x, y, **kw), f"csd {kw}")


def test_istft_inverts_stft_and_differentiates_through_both():
    x = fnp.asarray(np.random.default_rng(4).normal(size=32))
    roundtrip = lambda v: fsig.istft(fsig.stft(v, nperseg=8)[2], nperseg=8)[1]  # noqa: E731
    _close(roundtrip(x), x, "istft(stft(x))", atol=1e-12)
    _close(fgrad.jacfwd(roundtrip)(x), np.eye(32), "d istft(stft(x)) / dx", atol=1e-12)


def test_signal_errors():
    x = fnp.ones(20)
    with pytest.raises(ValueError, match="noverlap"):
        fsig.stft(x, nperseg=8, noverlap=8)
    with pytest.raises(ValueError, match="nfft"):
        fsig.welch(x, nperseg=8, nfft=4)
    with pytest.raises(ValueError, match="boundary"):
        fsig.stft(x, nperseg=8, boundary="wrap")
    with pytest.raises(ValueError, match="average"):
        fsig.csd(x, x, nperseg=8, average="mode")
    with pytest.raises(ValueError, match="trend type"):
        fsig.detrend(x, type="quadratic")
    with pytest.raises(ValueError, match="breakpoints"):
        fsig.detrend(x, bp=[25])
    with pytest.raises(ValueError, match="differing"):
        fsig.istft(fnp.ones((5, 4), dtype=np.complex128), time_axis=0, freq_axis=0)
    with pytest.raises(ValueError, match="window must be 1-D"):
        fsig.welch(x, window=fnp.ones((2, 2)))
    with pytest.warns(UserWarning, match="nperseg"):
        fsig.stft(x, nperseg=64)


def test_map_coordinates_matches_scipy_modes():
    import scipy.ndimage as sndi

    rng = np.random.default_rng(5)
    a, c = rng.normal(size=(4, 5)), rng.uniform(-6.0, 9.0, size=(2, 30))
    scipy_mode = {"constant": "grid-constant", "wrap": "grid-wrap"}
    for order in (0, 1):
        for mode in ("constant", "nearest", "wrap", "mirror", "reflect"):
            got = map_coordinates(fnp.asarray(a), [fnp.asarray(c[0]), fnp.asarray(c[1])], order, mode,
                                  cval=0.3)
            want = sndi.map_coordinates(a, c, order=order, mode=scipy_mode.get(mode, mode), cval=0.3)
            _close(got, want, f"order {order} mode {mode}", rtol=1e-12, atol=1e-12)
    ints = fnp.asarray(np.arange(12).reshape(3, 4))
    got = map_coordinates(ints, [fnp.asarray([0.5, 1.3]), fnp.asarray([0.5, 2.6])], 1)
    assert got.dtype == ints.dtype and got.tolist() == [3, 8]  # JAX: rounded back to the integer dtype
    with pytest.raises(NotImplementedError, match="order"):
        map_coordinates(fnp.asarray(a), list(fnp.asarray(c)), 3)
    with pytest.raises(NotImplementedError, match="mode"):
        map_coordinates(fnp.asarray(a), list(fnp.asarray(c)), 1, mode="grid-mirror")
    with pytest.raises(ValueError, match="length"):
        map_coordinates(fnp.asarray(a), [fnp.asarray(c[0])], 1)


def test_regular_grid_interpolator_matches_scipy_and_is_a_pytree():
    import scipy.interpolate as sint

    rng = np.random.default_rng(6)
    grid = (np.sort(rng.uniform(0.0, 3.0, 4)), np.sort(rng.uniform(-1.0, 1.0, 5)))
    values = rng.normal(size=(4, 5, 2))
    query = np.stack([rng.uniform(-0.5, 3.5, 20), rng.uniform(-1.2, 1.2, 20)], axis=-1)
    for method in ("linear", "nearest"):
        for fill in (np.nan, None, 1.5):
            ours = RegularGridInterpolator(tuple(map(fnp.asarray, grid)), fnp.asarray(values), method,
                                           fill_value=fill)
            want = sint.RegularGridInterpolator(grid, values, method, bounds_error=False,
                                                fill_value=fill)(query)
            _close(ours(fnp.asarray(query)), want, f"{method} fill={fill}", rtol=1e-12, atol=1e-12)
    interp = RegularGridInterpolator(tuple(map(fnp.asarray, grid)), fnp.asarray(values))
    leaves, tree = fgrad.tree_util.tree_flatten(interp)
    assert len(leaves) == 4  # two grid axes, the values, the fill value
    q = fnp.asarray(query[:3])
    _close(fgrad.jit(lambda f, x: f(x))(interp, q), interp(q), "jit through the pytree")
    grads = fgrad.grad(lambda f: fnp.sum(f(q)))(interp)
    assert isinstance(grads, RegularGridInterpolator) and grads.values.shape == values.shape
    # a tuple of coordinate arrays works as query points too
    _close(interp((q[:, 0], q[:, 1])), interp(q), "tuple query")
    with pytest.raises(NotImplementedError, match="bounds_error"):
        RegularGridInterpolator(tuple(map(fnp.asarray, grid)), fnp.asarray(values), bounds_error=True)
    with pytest.raises(ValueError, match="method"):
        RegularGridInterpolator(tuple(map(fnp.asarray, grid)), fnp.asarray(values), method="cubic")
    with pytest.raises(ValueError, match="dimension"):
        interp(fnp.ones((2, 3)))


def test_vq_matches_scipy():
    import scipy.cluster.vq as svq

    rng = np.random.default_rng(7)
    obs, book = rng.normal(size=(20, 3)), rng.normal(size=(5, 3))
    code, dist = vq(fnp.asarray(obs), fnp.asarray(book))
    want_code, want_dist = svq.vq(obs, book)
    assert code.tolist() == want_code.tolist()
    _close(dist, want_dist, "vq distances", rtol=1e-12)
    code1, _ = vq(fnp.asarray(obs[:, 0]), fnp.asarray(book[:, 0]))
    assert code1.tolist() == svq.vq(obs[:, :1], book[:, :1])[0].tolist()
    # an observation on its code: distance 0 with a finite (zero) gradient
    g = fgrad.grad(lambda o: fnp.sum(vq(o, fnp.asarray(book))[1]))(fnp.asarray(book[:2]))
    assert np.all(np.isfinite(np.asarray(g)))
    with pytest.raises(ValueError, match="same rank"):
        vq(fnp.ones((2, 3)), fnp.ones(3))


def test_trapezoid_matches_scipy():
    import scipy.integrate as sig

    y, x = np.random.default_rng(8).normal(size=(3, 7)), np.sort(np.random.default_rng(9).uniform(size=7))
    _close(trapezoid(fnp.asarray(y), fnp.asarray(x)), sig.trapezoid(y, x), "trapezoid x")
    _close(trapezoid(fnp.asarray(y), dx=0.2, axis=0), sig.trapezoid(y, dx=0.2, axis=0), "trapezoid dx")


def test_rotation_matches_scipy():
    from scipy.spatial.transform import Rotation as SR
    from scipy.spatial.transform import Slerp as SS

    rng = np.random.default_rng(10)
    q = rng.normal(size=(6, 4))
    ours, ref = Rotation.from_quat(fnp.asarray(q)), SR.from_quat(q)
    _close(ours.as_quat(canonical=True), ref.as_quat(canonical=True), "quat")
    _close(ours.as_quat(scalar_first=True), ref.as_quat(scalar_first=True), "scalar first")
    _close(ours.as_matrix(), ref.as_matrix(), "matrix")
    _close(Rotation.from_matrix(fnp.asarray(ref.as_matrix())).as_matrix(), ref.as_matrix(), "from_matrix")
    _close(ours.as_rotvec(degrees=True), ref.as_rotvec(degrees=True), "rotvec")
    _close(ours.as_mrp(), ref.as_mrp(), "mrp")
    _close(ours.magnitude(), ref.magnitude(), "magnitude")
    _close((ours * ours[::-1].inv()).as_matrix(), (ref * ref[::-1].inv()).as_matrix(), "mul/inv")
    _close((ours[0] * ours).as_matrix(), (ref[0] * ref).as_matrix(), "single * stack")
    v = rng.normal(size=(6, 3))
    _close(ours.apply(fnp.asarray(v)), ref.apply(v), "apply")
    _close(ours[1].apply(fnp.asarray(v), inverse=True), ref[1].apply(v, inverse=True), "apply inverse")
    for seq in ("xyz", "zyx", "xyx", "zxz", "XYZ", "ZYX", "XYX", "ZXZ", "yzx", "YXY"):
        _close(ours.as_euler(seq), ref.as_euler(seq), f"as_euler {seq}")
        _close(Rotation.from_euler(seq, fnp.asarray(ref.as_euler(seq))).as_matrix(), ref.as_matrix(),
               f"from_euler {seq}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # SciPy warns at gimbal lock
        for seq, middle in (("xyz", np.pi / 2), ("XYZ", -np.pi / 2), ("zxz", 0.0), ("ZXZ", np.pi)):
            locked = SR.from_euler(seq, [0.3, middle, 0.2])
            _close(Rotation.from_quat(fnp.asarray(locked.as_quat())).as_euler(seq), locked.as_euler(seq),
                   f"gimbal lock {seq}", atol=1e-7)
    w = np.arange(1.0, 7.0)
    _close(ours.mean(fnp.asarray(w)).as_matrix(), ref.mean(w).as_matrix(), "weighted mean")
    times = np.array([0.0, 1.0, 3.0, 4.0, 6.0, 7.0])
    query = np.array([0.0, 0.5, 2.0, 3.0, 5.9, 7.0])
    _close(Slerp.init(fnp.asarray(times), ours)(fnp.asarray(query)).as_matrix(),
           SS(times, ref)(query).as_matrix(), "slerp")
    assert Slerp.init(fnp.asarray(times), ours)(2.0).single
    tiny = np.array([1e-5, 0.0, 2e-5])
    _close(Rotation.from_rotvec(fnp.asarray(tiny)).as_rotvec(), SR.from_rotvec(tiny).as_rotvec(),
           "tiny angle", rtol=1e-12, atol=1e-20)


def test_rotation_is_a_pytree_under_jit_vmap_and_grad():
    r = Rotation.from_rotvec(fnp.asarray(ROTVECS))
    leaves, _ = fgrad.tree_util.tree_flatten(r)
    assert len(leaves) == 1
    apply = fgrad.jit(lambda rot, v: rot.apply(v))
    _close(apply(r, fnp.asarray(VEC3)), r.apply(fnp.asarray(VEC3)), "jit")
    single = fgrad.vmap(lambda rot, v: rot.apply(v))(r, fnp.asarray(VEC3))
    _close(single, r.apply(fnp.asarray(VEC3)), "vmap over a stack of rotations")
    g = fgrad.grad(lambda rot: fnp.sum(rot.as_rotvec()))(r)
    assert isinstance(g, Rotation) and g.quat.shape == (3, 4)
    # the identity: rotvec <-> quaternion round trip has derivative 1 at 0 (no 0/0)
    jac = fgrad.jacfwd(lambda v: Rotation.from_rotvec(v).as_rotvec())(fnp.zeros(3))
    _close(jac, np.eye(3), "d as_rotvec(from_rotvec(v)) at 0", atol=1e-12)
    d_angle = fgrad.grad(lambda v: Rotation.from_rotvec(v).magnitude())(fnp.zeros(3))
    assert np.all(np.isfinite(np.asarray(d_angle)))


def test_rotation_random_identity_concatenate_and_errors():
    r = Rotation.random(fgrad.random.key(0), 2000)
    norms = np.linalg.norm(np.asarray(r.quat), axis=-1)
    np.testing.assert_allclose(norms, 1.0, rtol=1e-12)
    # uniform on SO(3): E[R] = 0 and E[trace R] = 0 (uniformity, roughly: 2000 samples)
    mats = np.asarray(r.as_matrix())
    assert np.abs(mats.mean(axis=0)).max() < 0.06
    assert Rotation.random(fgrad.random.key(1)).single
    assert len(Rotation.identity(3)) == 3 and Rotation.identity().single
    both = Rotation.concatenate([Rotation.identity(), Rotation.identity(2)])
    assert len(both) == 3
    with pytest.raises(TypeError, match="not subscriptable"):
        Rotation.identity()[0]
    with pytest.raises(TypeError, match="no len"):
        len(Rotation.identity())
    with pytest.raises(ValueError, match="consecutive"):
        Rotation.from_euler("xxz", fnp.zeros(3))
    with pytest.raises(ValueError, match="3 axes"):
        Rotation.identity().as_euler("xy")
    with pytest.raises(ValueError, match="from_quat"):
        Rotation.from_quat(fnp.ones(3))
    with pytest.raises(ValueError, match="weights"):
        Rotation.identity(2).mean(fnp.ones(3))
    with pytest.raises(ValueError, match="at least 2"):
        Slerp.init(fnp.asarray([0.0]), Rotation.identity(1))


# -- hypothesis: shapes, axes, sizes and values ------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6), data=st.data())
def test_dct_family_matches_scipy_on_random_shapes(shape, data):
    x = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-10, 10)))
    norm = data.draw(st.sampled_from([None, "ortho"]))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = data.draw(st.one_of(st.none(), st.integers(1, 7)))
    for ours, ref in ((ffft.dct, scipy_fft.dct), (ffft.idct, scipy_fft.idct)):
        _close(ours(fnp.asarray(x), n=n, axis=axis, norm=norm), ref(x, n=n, axis=axis, norm=norm),
               f"{ref.__name__} n={n} axis={axis} norm={norm}", rtol=1e-10, atol=1e-10)
    axes = data.draw(st.lists(st.integers(0, len(shape) - 1), min_size=1, max_size=len(shape), unique=True))
    s = data.draw(st.one_of(st.none(), st.lists(st.integers(1, 6), min_size=len(axes), max_size=len(axes))))
    for ours, ref in ((ffft.dctn, scipy_fft.dctn), (ffft.idctn, scipy_fft.idctn)):
        _close(ours(fnp.asarray(x), s=s, axes=axes, norm=norm), ref(x, s=s, axes=axes, norm=norm),
               f"{ref.__name__} s={s} axes={axes} norm={norm}", rtol=1e-10, atol=1e-10)


@settings(max_examples=25, deadline=None)
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=5), data=st.data())
def test_map_coordinates_matches_scipy_on_random_shapes(shape, data):
    import scipy.ndimage as sndi

    a = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-10, 10)))
    npoints = data.draw(st.integers(1, 6))
    coords = data.draw(hnp.arrays(np.float64, (len(shape), npoints), elements=st.floats(-8, 8)))
    coords = np.round(coords * 8) / 8 + 1 / 16  # off the rounding ties (order 0 rounds them differently)
    mode = data.draw(st.sampled_from(["constant", "nearest", "wrap", "mirror", "reflect"]))
    order = data.draw(st.sampled_from([0, 1]))
    scipy_mode = {"constant": "grid-constant", "wrap": "grid-wrap"}.get(mode, mode)
    got = map_coordinates(fnp.asarray(a), [fnp.asarray(c) for c in coords], order, mode=mode, cval=-1.5)
    want = sndi.map_coordinates(a, coords, order=order, mode=scipy_mode, cval=-1.5)
    _close(got, want, f"order {order} mode {mode}", rtol=1e-10, atol=1e-10)


def test_rotations_with_more_leading_dimensions_match_the_flat_stack():
    """Like JAX's vectorized functions, conversions accept any leading dimensions."""
    q = np.random.default_rng(11).normal(size=(2, 3, 4))
    v = np.random.default_rng(12).normal(size=(2, 3, 3))
    r, flat = Rotation.from_quat(fnp.asarray(q)), Rotation.from_quat(fnp.asarray(q.reshape(6, 4)))
    for name in ("as_matrix", "as_rotvec", "as_mrp", "magnitude"):
        got, want = np.asarray(getattr(r, name)()), np.asarray(getattr(flat, name)())
        _close(got.reshape(want.shape), want, name, rtol=1e-14, atol=1e-15)
    _close(np.asarray(r.as_euler("zyz")).reshape(6, 3), flat.as_euler("zyz"), "as_euler")
    applied = np.asarray(r.apply(fnp.asarray(v))).reshape(6, 3)
    _close(applied, flat.apply(fnp.asarray(v.reshape(6, 3))), "apply")


def test_spectra_are_differentiable_in_the_sampling_frequency():
    x = fnp.sin(0.7 * fnp.arange(32.0))
    for fn in (lambda fs: fsig.welch(x, fs=fs, nperseg=8)[1], lambda fs: fsig.stft(x, fs=fs, nperseg=8)[1],
               lambda fs: fsig.welch(x, fs=fs, nperseg=8)[0]):
        check_grads(fn, (fnp.asarray(2.0),), order=2, modes=("fwd", "rev"))
