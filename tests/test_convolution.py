"""``lax.conv_general_dilated``, ``lax.conv_transpose``, ``lax.reduce_window`` and
``numpy.convolve``/``correlate``: values and VJPs against JAX (stored fingerprints, and live
arrays when JAX is installed), vmap in every in_axes pattern vs a loop, derivative programs
free of scatters, and bad-input errors.  The op table (fgrad/testing/op_table/convolution.py)
adds finite differences (orders 1-2, forward and reverse), jit vs eager and device rows."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest

import fgrad
import fgrad.lax as lax
import fgrad.numpy as fnp
from fgrad.ops import convolution as C
from fgrad.testing import check_grads
from fgrad.testing.op_table.convolution import np_conv

CONV = [
    ("valid", (2, 3, 7, 6), (4, 3, 3, 2), dict(window_strides=(1, 1), padding="VALID")),
    ("same_strided", (2, 3, 7, 6), (4, 3, 3, 2), dict(window_strides=(2, 1), padding="SAME")),
    (
        "dilations_negpad",
        (2, 3, 7, 6),
        (4, 3, 3, 2),
        dict(window_strides=(2, 3), padding=((1, 2), (0, -1)), lhs_dilation=(2, 1), rhs_dilation=(1, 2)),
    ),
    (
        "feature_groups",
        (2, 6, 7, 6),
        (4, 3, 3, 2),
        dict(window_strides=(2, 1), padding="SAME", feature_group_count=2),
    ),
    (
        "batch_groups",
        (4, 3, 7, 6),
        (4, 3, 3, 2),
        dict(window_strides=(2, 1), padding="SAME", batch_group_count=2),
    ),
    (
        "nhwc_same_lower",
        (2, 7, 6, 3),
        (3, 2, 3, 4),
        dict(window_strides=(1, 2), padding="SAME_LOWER", dimension_numbers=("NHWC", "HWIO", "NHWC")),
    ),
    (
        "nhwc_to_nchw_groups",
        (2, 7, 6, 6),
        (3, 2, 3, 4),
        dict(
            window_strides=(1, 2),
            padding="SAME",
            dimension_numbers=("NHWC", "HWIO", "NCHW"),
            feature_group_count=2,
        ),
    ),
    (
        "1d_lhs_dilation",
        (2, 3, 9),
        (4, 3, 3),
        dict(window_strides=(2,), padding=((1, 1),), lhs_dilation=(3,)),
    ),
    ("3d", (2, 3, 5, 4, 6), (4, 3, 2, 3, 2), dict(window_strides=(1, 2, 1), padding="SAME")),
]

# JAX 0.10.2 (x64): fingerprints sum(v * cos(arange(v.size))) of the output and of the VJP
# of ct = cos(arange(out.size)) with respect to lhs and rhs
CONV_STORED = {
    "valid": (45.607061610639, -18.98617503414, 57.664270123015),
    "same_strided": (14.981362717531, -36.990514953394, 7.715442963656),
    "dilations_negpad": (11.439646660398, 0.674357635658, 19.695172599577),
    "feature_groups": (-60.442709776513, -35.309983492032, -9.520047815785),
    "batch_groups": (-35.52666958975, 174.493530318117, -8.533357490625),
    "nhwc_same_lower": (2.347320652985, -1.362752073792, 25.495936009728),
    "nhwc_to_nchw_groups": (-14.484222036424, -1.240378978632, -4.294474732478),
    "1d_lhs_dilation": (-13.914046030965, 5.362439760566, -1.47128130033),
    "3d": (141.940698708318, -96.708684847278, -37.144670226489),
}


def _cos_like(a):
    a = np.asarray(a)
    return np.cos(np.arange(a.size)).reshape(a.shape)


def _fp(a) -> float:
    a = np.asarray(a)
    return float(np.sum(a * _cos_like(a)))


def _conv_arrays(i, xs, ws):
    rng = np.random.default_rng(i)
    return rng.standard_normal(xs), rng.standard_normal(ws)


def _force_algorithm(monkeypatch, algorithm: str) -> None:
    """Run the convolution impl with one algorithm: im2col with patches as columns or as
    rows, or GEMM + shift-and-add (where it applies)."""
    monkeypatch.setattr(C, "_ROWS_LAYOUT_MIN_P", 0 if algorithm == "columns" else 10**9)
    if algorithm == "shift_add":
        monkeypatch.setattr(
            C,
            "_prefer_shift_add",
            lambda xs, ws, strides, padding, ld, rd, g: all(s == 1 or d == 1 for s, d in zip(strides, ld)),
        )
    else:
        monkeypatch.setattr(C, "_prefer_shift_add", lambda *a: False)


@pytest.mark.parametrize("algorithm", ["auto", "columns", "rows", "shift_add"])
@pytest.mark.parametrize("i", range(len(CONV)), ids=[c[0] for c in CONV])
def test_conv_general_dilated_matches_stored_jax(i, algorithm, monkeypatch):
    if algorithm != "auto":
        _force_algorithm(monkeypatch, algorithm)
    name, xs, ws, kw = CONV[i]
    x, w = _conv_arrays(i, xs, ws)
    y, vjp = fgrad.vjp(lambda a, b: lax.conv_general_dilated(a, b, **kw), fnp.asarray(x), fnp.asarray(w))
    gx, gw = vjp(fnp.asarray(_cos_like(y)))
    np.testing.assert_allclose([_fp(y), _fp(gx), _fp(gw)], CONV_STORED[name], rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize("i", range(len(CONV)), ids=[c[0] for c in CONV])
def test_conv_general_dilated_matches_live_jax(i):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    name, xs, ws, kw = CONV[i]
    x, w = _conv_arrays(i, xs, ws)
    y, vjp = jax.vjp(lambda a, b: jax.lax.conv_general_dilated(a, b, **kw), x, w)
    gx, gw = vjp(_cos_like(y))
    fy, fvjp = fgrad.vjp(lambda a, b: lax.conv_general_dilated(a, b, **kw), fnp.asarray(x), fnp.asarray(w))
    fgx, fgw = fvjp(fnp.asarray(_cos_like(y)))
    for got, want in ((fy, y), (fgx, gx), (fgw, gw)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("i", [0, 2, 3, 4, 6, 7], ids=[CONV[j][0] for j in [0, 2, 3, 4, 6, 7]])
@pytest.mark.parametrize("in_axes", [(0, None), (None, 0), (0, 0), (2, 1)])
def test_conv_vmap_matches_loop(i, in_axes):
    """The batching rule folds the mapped axis into the batch axis or into feature/batch
    groups; every pattern agrees with a loop of unbatched convolutions."""
    name, xs, ws, kw = CONV[i]
    rng = np.random.default_rng(i)
    b = 3
    xb, wb = rng.standard_normal((b,) + xs), rng.standard_normal((b,) + ws)
    args = []
    for arr, ax, single in ((xb, in_axes[0], xb[0]), (wb, in_axes[1], wb[0])):
        args.append(single if ax is None else np.moveaxis(arr, 0, ax))
    f = lambda a, w: lax.conv_general_dilated(a, w, **kw)  # noqa: E731
    got = fgrad.vmap(f, in_axes)(*[fnp.asarray(a) for a in args])
    for k in range(b):
        a = xb[0] if in_axes[0] is None else xb[k]
        w = wb[0] if in_axes[1] is None else wb[k]
        np.testing.assert_allclose(
            np.asarray(got[k]), np.asarray(f(fnp.asarray(a), fnp.asarray(w))), rtol=1e-12, atol=1e-12
        )


def test_conv_second_derivatives_and_jit():
    _, xs, ws, kw = CONV[2]
    x, w = (fnp.asarray(a) for a in _conv_arrays(2, xs, ws))
    f = lambda a, b: fnp.sum(fnp.tanh(lax.conv_general_dilated(a, b, **kw)))  # noqa: E731
    check_grads(f, (x, w), order=2, modes=("fwd", "rev"))
    g_eager = fgrad.grad(f, argnums=(0, 1))(x, w)
    g_jit = fgrad.jit(fgrad.grad(f, argnums=(0, 1)))(x, w)
    for a, b in zip(g_eager, g_jit):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12)


def _primitive_names(jaxpr_text: str) -> set:
    return {
        tok.split("[")[0]
        for line in jaxpr_text.splitlines()
        if "=" in line
        for tok in [line.split("=", 1)[1].strip().split(" ")[0]]
    }


def test_derivative_programs_have_no_scatter():
    """Regression: the shim's old convolution and pooling gathered windows with ``take``,
    whose transpose is a scatter-add; the derivatives of the primitives are convolutions and
    select_and_scatter_add (strided writes)."""
    x, w = fnp.ones((2, 3, 8, 8)), fnp.ones((4, 3, 3, 3))

    def loss(x, w):
        h = lax.conv_general_dilated(x, w, (2, 2), "SAME")
        h = lax.reduce_window(h, -fnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 1, 1), "VALID")
        return fnp.sum(lax.reduce_window(h, 0.0, lax.add, (1, 1, 2, 2), (1, 1, 1, 1), "SAME"))

    text = str(fgrad.make_jaxpr(fgrad.grad(loss, argnums=(0, 1)))(x, w))
    names = _primitive_names(text)
    assert "conv_general_dilated" in names and "select_and_scatter_add" in names
    assert not {n for n in names if n in ("scatter", "scatter_add", "gather")}, names


CT_STORED = {
    (False, "SAME"): -10.200491700062,
    (False, "VALID"): -6.059039702735,
    (False, "((1, 2), (0, 1))"): 50.234603274624,
    (True, "SAME"): 44.145609473079,
    (True, "VALID"): 2.163296341343,
    (True, "((1, 2), (0, 1))"): -31.686089780592,
}


@pytest.mark.parametrize("transpose_kernel", [False, True])
@pytest.mark.parametrize("padding", ["SAME", "VALID", ((1, 2), (0, 1))])
def test_conv_transpose_matches_jax(transpose_kernel, padding):
    rng = np.random.default_rng(7)
    x, w = rng.standard_normal((2, 5, 6, 3)), rng.standard_normal((3, 2, 3, 4))
    dn = ("NHWC", "HWOI", "NHWC") if transpose_kernel else None
    y = lax.conv_transpose(
        fnp.asarray(x),
        fnp.asarray(w),
        (2, 1),
        padding,
        transpose_kernel=transpose_kernel,
        dimension_numbers=dn,
    )
    np.testing.assert_allclose(_fp(y), CT_STORED[(transpose_kernel, str(padding))], rtol=1e-10)
    try:
        import jax
    except ImportError:
        return
    jax.config.update("jax_enable_x64", True)
    want = jax.lax.conv_transpose(
        x, w, (2, 1), padding, transpose_kernel=transpose_kernel, dimension_numbers=dn
    )
    np.testing.assert_allclose(np.asarray(y), np.asarray(want), rtol=1e-10, atol=1e-10)


def test_conv_transpose_with_transpose_kernel_is_the_conv_gradient():
    rng = np.random.default_rng(3)
    x, w = fnp.asarray(rng.standard_normal((2, 3, 8, 6))), fnp.asarray(rng.standard_normal((5, 3, 3, 3)))
    dn = ("NCHW", "OIHW", "NCHW")
    y, vjp = fgrad.vjp(lambda a: lax.conv_general_dilated(a, w, (2, 2), "SAME", dimension_numbers=dn), x)
    ct = fnp.asarray(_cos_like(y))
    want = vjp(ct)[0]
    got = lax.conv_transpose(ct, w, (2, 2), "SAME", dimension_numbers=dn, transpose_kernel=True)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-12, atol=1e-12)


def test_conv_faces_and_dimension_numbers():
    x, w = fnp.asarray(np.arange(32.0).reshape(1, 2, 4, 4)), fnp.ones((3, 2, 2, 2))
    ref = lax.conv_general_dilated(x, w, (1, 1), "VALID")
    np.testing.assert_array_equal(np.asarray(lax.conv(x, w, (1, 1), "VALID")), np.asarray(ref))
    np.testing.assert_array_equal(
        np.asarray(lax.conv_with_general_padding(x, w, (1, 1), [(0, 0)] * 2, None, None)), np.asarray(ref)
    )
    dn = lax.conv_dimension_numbers((1, 4, 4, 2), (2, 2, 2, 3), ("NHWC", "HWIO", "NHWC"))
    assert dn == lax.ConvDimensionNumbers((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2))
    y = lax.conv_general_dilated(
        fnp.transpose(x, (0, 2, 3, 1)), fnp.transpose(w, (2, 3, 1, 0)), (1, 1), "VALID", dimension_numbers=dn
    )
    np.testing.assert_array_equal(np.asarray(y), np.transpose(np.asarray(ref), (0, 2, 3, 1)))
    assert float(ref[0, 0, 0, 0]) == 2 * (0 + 1 + 4 + 5) + 4 * 16  # both channels, 2x2 window
    y32 = lax.conv(
        x.astype(np.float32), w.astype(np.float32), (1, 1), "VALID", preferred_element_type=np.float64
    )
    assert y32.dtype == np.float64


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (
            lambda: lax.conv(fnp.ones((1, 3, 4, 4)), fnp.ones((2, 2, 3, 3)), (1, 1), "VALID"),
            TypeError,
            r"lhs feature dimension \(3\) must equal rhs input feature dimension \(2\)",
        ),
        (
            lambda: lax.conv(fnp.ones((1, 3, 4, 4)), fnp.ones((2, 3, 3)), (1, 1), "VALID"),
            TypeError,
            "same rank",
        ),
        (
            lambda: lax.conv(fnp.ones((1, 3, 4, 4)), fnp.ones((2, 3, 3, 3)), (1,), "VALID"),
            TypeError,
            "window_strides must have 2 entries",
        ),
        (
            lambda: lax.conv(fnp.ones((1, 3, 4, 4)), fnp.ones((2, 3, 3, 3)), (1, 1), "FULL"),
            ValueError,
            "unknown padding",
        ),
        (
            lambda: lax.conv_general_dilated(
                fnp.ones((1, 4, 4, 4)), fnp.ones((3, 2, 3, 3)), (1, 1), "VALID", feature_group_count=2
            ),
            ValueError,
            "multiple of feature_group_count",
        ),
        (
            lambda: lax.conv_general_dilated(
                fnp.ones((3, 2, 4, 4)), fnp.ones((4, 2, 3, 3)), (1, 1), "VALID", batch_group_count=2
            ),
            ValueError,
            "lhs batch dimension",
        ),
        (
            lambda: lax.conv_general_dilated(
                fnp.ones((1, 2, 4, 4)),
                fnp.ones((4, 2, 3, 3)),
                (1, 1),
                "VALID",
                dimension_numbers=("NCHW", "OIHW", "NCHX"),
            ),
            TypeError,
            "inconsistent",
        ),
        (
            lambda: lax.reduce_window(fnp.ones((4, 4)), 0.0, "prod", (2, 2), (1, 1), "VALID"),
            ValueError,  # (any function is a computation: test_jax_programs_round12)
            "computation given by name",
        ),
        (
            lambda: lax.reduce_window(fnp.ones((4, 4)), 0.0, lax.add, (2,), (1, 1), "VALID"),
            TypeError,
            "one entry per operand dimension",
        ),
        (lambda: fnp.convolve(fnp.ones((2, 2)), fnp.ones(2)), ValueError, "1-dimensional"),
    ],
)
def test_bad_inputs(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# -- reduce_window -------------------------------------------------------------------------------

RW = [
    ("pool2x2", (2, 3, 6, 7), (1, 1, 2, 2), (1, 1, 2, 2), "VALID", None, None),
    ("overlap_same", (2, 3, 6, 7), (1, 1, 3, 3), (1, 1, 2, 2), "SAME", None, None),
    (
        "base_dilation_pads",
        (2, 3, 6, 7),
        (1, 2, 3, 2),
        (1, 1, 2, 3),
        ((0, 0), (0, 1), (1, 2), (0, 1)),
        (1, 1, 2, 1),
        None,
    ),
]
RW_STORED = {  # JAX 0.10.2: fingerprints of the output and of the VJP of cos(arange)
    ("pool2x2", "max"): (-4.571267961345, -0.885582845479),
    ("pool2x2", "min"): (-0.189195189993, 4.640594452817),
    ("pool2x2", "sum"): (-5.603109444651, 3.391282719658),
    ("overlap_same", "max"): (4.326394474672, -1.38886102727),
    ("overlap_same", "min"): (-1.367950216697, -0.351438427393),
    ("overlap_same", "sum"): (-4.600846357339, 0.460017269899),
    ("base_dilation_pads", "max"): (-6.784118577687, 1.325645942998),
    ("base_dilation_pads", "min"): (-4.072576405204, 1.848354028276),
    ("base_dilation_pads", "sum"): (-14.684283612448, 0.115053235827),
}
_MONOIDS = {"max": (-np.inf, lax.max), "min": (np.inf, lax.min), "sum": (0.0, lax.add)}


@pytest.mark.parametrize("kind", ["max", "min", "sum"])
@pytest.mark.parametrize("i", range(len(RW)), ids=[r[0] for r in RW])
def test_reduce_window_matches_jax(i, kind):
    name, shape, wd, ws, pad, bd, wdl = RW[i]
    x = np.random.default_rng(100 + i).standard_normal(shape)
    init, op = _MONOIDS[kind]
    f = lambda a: lax.reduce_window(a, init, op, wd, ws, pad, bd, wdl)  # noqa: E731
    y, vjp = fgrad.vjp(f, fnp.asarray(x))
    g = vjp(fnp.asarray(_cos_like(y)))[0]
    np.testing.assert_allclose([_fp(y), _fp(g)], RW_STORED[(name, kind)], rtol=1e-10, atol=1e-10)
    check_grads(f, (fnp.asarray(x),), order=2)
    try:
        import jax
    except ImportError:
        return
    jax.config.update("jax_enable_x64", True)
    jop = {"max": jax.lax.max, "min": jax.lax.min, "sum": jax.lax.add}[kind]
    jy, jvjp = jax.vjp(lambda a: jax.lax.reduce_window(a, init, jop, wd, ws, pad, bd, wdl), x)
    np.testing.assert_allclose(np.asarray(y), np.asarray(jy), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(g), np.asarray(jvjp(_cos_like(jy))[0]), rtol=1e-12, atol=1e-12)


def test_max_window_gradient_goes_to_the_first_maximum_and_to_nans():
    x = fnp.asarray([[1.0, np.nan, 3.0, 2.0, np.nan, np.nan, 5.0, 5.0, 0.0, 0.0]])
    f = lambda a: fnp.sum(lax.reduce_window(a, -fnp.inf, lax.max, (1, 2), (1, 2), "VALID"))  # noqa: E731
    np.testing.assert_array_equal(np.asarray(fgrad.grad(f)(x)), [[0, 1, 1, 0, 1, 0, 1, 0, 1, 0]])
    # overlapping windows accumulate: the middle element is the max of both windows
    g = fgrad.grad(lambda a: fnp.sum(lax.reduce_window(a, -fnp.inf, lax.max, (3,), (1,), "VALID")))
    np.testing.assert_array_equal(np.asarray(g(fnp.asarray([0.0, 2.0, 1.0, 0.5]))), [0, 2, 0, 0])


def test_reduce_window_init_value_and_integers():
    x = fnp.asarray(np.arange(6.0))
    got = lax.reduce_window(x, 2.5, lax.max, (2,), (2,), "VALID")
    np.testing.assert_array_equal(np.asarray(got), [2.5, 3.0, 5.0])
    xi = fnp.asarray(np.array([3, -1, 4, 1, -5, 9], np.int32))
    got = lax.reduce_window(xi, np.iinfo(np.int32).min, lax.max, (3,), (1,), ((1, 1),))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(got), [3, 4, 4, 4, 9, 9])
    np.testing.assert_array_equal(
        np.asarray(lax.reduce_window(xi, 0, lax.add, (2,), (2,), "VALID")), [2, 5, 4]
    )


@pytest.mark.parametrize("in_axis", [0, 1, 2])
def test_reduce_window_vmap_and_grad_of_vmap(in_axis):
    name, shape, wd, ws, pad, bd, wdl = RW[1]
    xb = np.random.default_rng(5).standard_normal((3,) + shape)
    f = lambda a: lax.reduce_window(a, -fnp.inf, lax.max, wd, ws, pad, bd, wdl)  # noqa: E731
    got = fgrad.vmap(f, in_axis)(fnp.asarray(np.moveaxis(xb, 0, in_axis)))
    for k in range(3):
        np.testing.assert_array_equal(np.asarray(got[k]), np.asarray(f(fnp.asarray(xb[k]))))
    gv = fgrad.vmap(fgrad.grad(lambda a: fnp.sum(f(a) ** 2)))(fnp.asarray(xb))
    for k in range(3):
        np.testing.assert_allclose(
            np.asarray(gv[k]),
            np.asarray(fgrad.grad(lambda a: fnp.sum(f(a) ** 2))(fnp.asarray(xb[k]))),
            rtol=1e-12,
        )


# -- numpy.convolve / correlate ------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("n, m", [(5, 3), (3, 5), (6, 6), (2, 7), (4, 1)])
@pytest.mark.parametrize("complex_", [False, True])
def test_convolve_correlate_match_numpy(mode, n, m, complex_):
    rng = np.random.default_rng(n * 10 + m)
    a, v = rng.standard_normal(n), rng.standard_normal(m)
    if complex_:
        a, v = a + 1j * rng.standard_normal(n), v - 1j * rng.standard_normal(m)
    np.testing.assert_allclose(
        np.asarray(fnp.convolve(fnp.asarray(a), fnp.asarray(v), mode)), np.convolve(a, v, mode), atol=1e-12
    )
    np.testing.assert_allclose(
        np.asarray(fnp.correlate(fnp.asarray(a), fnp.asarray(v), mode)), np.correlate(a, v, mode), atol=1e-12
    )


# -- random configurations (hypothesis) --------------------------------------------------------

@st.composite
def _conv_configs(draw):
    nd = draw(st.integers(1, 2))
    g = draw(st.integers(1, 2))
    b = 1 if g > 1 else draw(st.integers(1, 2))
    n = b * draw(st.integers(1, 2))
    c = g * draw(st.integers(1, 2))
    o = g * b * draw(st.integers(1, 2))
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    strides = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    ld = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    rd = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    pads = tuple((draw(st.integers(-1, 2)), draw(st.integers(-1, 2))) for _ in range(nd))
    spatial = []
    for k, r, d, (lo, hi) in zip(kernel, rd, ld, pads):
        need = (k - 1) * r + 1 - lo - hi  # dilated input must hold one window
        m = max(1, -(-(need - 1) // d) + 1)
        spatial.append(draw(st.integers(m, m + 4)))
    return dict(xs=(n, c, *spatial), ws=(o, c // g, *kernel),
                kw=dict(window_strides=strides, padding=pads, lhs_dilation=ld, rhs_dilation=rd,
                        feature_group_count=g, batch_group_count=b))


@settings(max_examples=30, deadline=None)
@given(_conv_configs(), st.sampled_from(["auto", "columns", "rows", "shift_add"]))
def test_random_conv_configs_forward_and_adjoint(cfg, algorithm):
    """Forward vs the shift-and-accumulate reference of the op table; the VJP is the adjoint:
    <conv(x, w), ct> == <x, vjp_x(ct)> == <w, vjp_w(ct)> (conv is bilinear)."""
    with pytest.MonkeyPatch.context() as mp:
        if algorithm != "auto":
            _force_algorithm(mp, algorithm)
        rng = np.random.default_rng(0)
        x, w = rng.standard_normal(cfg["xs"]), rng.standard_normal(cfg["ws"])
        kw = cfg["kw"]
        y, vjp = fgrad.vjp(lambda a, b: lax.conv_general_dilated(a, b, **kw), fnp.asarray(x), fnp.asarray(w))
        np.testing.assert_allclose(np.asarray(y), np_conv(x, w, **kw), rtol=1e-10, atol=1e-10)
        ct = rng.standard_normal(y.shape)
        gx, gw = vjp(fnp.asarray(ct))
        inner = float(np.sum(np.asarray(y) * ct))
        np.testing.assert_allclose(float(np.sum(x * np.asarray(gx))), inner, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(float(np.sum(w * np.asarray(gw))), inner, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("args, want", [
    (((1, 5, 5, 3), (3, 3, 3, 8), (2, 2), "SAME", ("NHWC", "HWIO", "NHWC")), (1, 3, 3, 8)),
    (((2, 3, 7, 6), (4, 3, 3, 2), (2, 3), [(1, 2), (0, 1)], ("NCHW", "OIHW", "NCHW")), (2, 4, 4, 2)),
])
def test_conv_general_shape_tuple(args, want):
    """Values from jax.lax.conv_general_shape_tuple (stax's Conv init uses it)."""
    assert lax.conv_general_shape_tuple(*args) == want
    x, w = fnp.zeros(args[0]), fnp.zeros(args[1])
    assert lax.conv_general_dilated(x, w, args[2], args[3], dimension_numbers=args[4]).shape == want


@pytest.mark.parametrize("args, want", [
    (((1, 3, 3, 2), (2, 2, 2, 4), (2, 2), "SAME", ("NHWC", "HWIO", "NHWC")), (1, 6, 6, 4)),
    (((1, 3, 5, 2), (3, 2, 2, 4), (2, 3), "VALID", ("NHWC", "HWIO", "NHWC")), (1, 7, 15, 4)),
    (((1, 3, 5, 2), (3, 2, 2, 4), (2, 3), [(1, 0), (2, 1)], ("NHWC", "HWIO", "NHWC")), (1, 4, 15, 4)),
])
def test_conv_transpose_shape_tuple(args, want):
    """Values from jax.lax.conv_transpose_shape_tuple (stax's ConvTranspose init uses it)."""
    assert lax.conv_transpose_shape_tuple(*args) == want
    x, w = fnp.zeros(args[0]), fnp.zeros(args[1])
    assert lax.conv_transpose(x, w, args[2], args[3], dimension_numbers=args[4]).shape == want


# -- shift-and-add in the channels-last layout (short output rows) ------------------------------

SHORT_ROW_CASES = [
    # kernel, sin, strides, padding, lhs_dilation, rhs_dilation: transposed convolutions of
    # small planes (DCGAN's generator), a 1-D and a 3-D one, dilations
    ((4, 4), (4, 4), (1, 1), ((2, 2), (2, 2)), (2, 2), (1, 1)),
    ((4, 4), (1, 1), (1, 1), ((3, 3), (3, 3)), (1, 1), (1, 1)),
    ((3, 3), (5, 4), (1, 1), ((1, 2), (2, 1)), (2, 3), (1, 2)),
    ((3,), (6,), (1,), ((2, 2),), (2,), (1,)),
    ((2, 3, 2), (3, 2, 3), (1, 1, 1), ((1, 1), (2, 2), (1, 0)), (2, 1, 2), (1, 1, 1)),
]


@pytest.mark.parametrize("kernel,sin,strides,padding,ld,rd", SHORT_ROW_CASES)
def test_channels_last_shift_add_gives_the_slice_loops_bits(kernel, sin, strides, padding, ld, rd,
                                                           monkeypatch):
    out = C._out_spatial(sin, kernel, strides, padding, ld, rd)
    n, g, og = 5, 2, 4  # n * og >= the short-row bound: the channels-last layout
    assert out[-1] < C._SHORT_ROW <= n * og
    used = C._slice_plan(kernel, sin, out, strides, tuple(lo for lo, _ in padding), ld, rd)[1]
    assert 2 * used >= math.prod(kernel) * math.prod(sin)  # most products are added
    rng = np.random.default_rng(3)
    z = rng.standard_normal((n, g) + kernel + (og,) + sin).astype(np.float32)
    z.reshape(-1)[rng.integers(0, z.size, 30)] = np.inf
    z.reshape(-1)[rng.integers(0, z.size, 30)] = -0.0
    z.reshape(-1)[rng.integers(0, z.size, 10)] = np.nan
    got = np.zeros((n, g, og) + out, np.float32)
    C._shift_add_slices(np, z.copy(), got, kernel, sin, out, strides, padding, ld, rd)
    monkeypatch.setattr(C, "_SHORT_ROW", 0)  # the per-slice loop in the (N, G, Og, *out) layout
    want = np.zeros((n, g, og) + out, np.float32)
    C._shift_add_slices(np, z.copy(), want, kernel, sin, out, strides, padding, ld, rd)
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want))


def test_transposed_convolution_of_small_planes_matches_the_direct_sum():
    # a DCGAN generator layer (4x4 -> 8x8, stride 2) through lax, against the NumPy reference
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 6, 4, 4)).astype(np.float32)
    w = rng.standard_normal((3, 6, 4, 4)).astype(np.float32)
    args = dict(window_strides=(1, 1), padding=((2, 2), (2, 2)), lhs_dilation=(2, 2))
    assert C._prefer_shift_add(x.shape, w.shape, (1, 1), args["padding"], (2, 2), (1, 1), 1)
    got = np.asarray(lax.conv_general_dilated(fnp.asarray(x), fnp.asarray(w), **args))
    want = np_conv(x.astype(np.float64), w.astype(np.float64), **args)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def _first_extremum_grad(x, ct, kind, k, s, pad):
    """Reference by loops: each window's cotangent goes to its first extremal cell in
    row-major window order (the first NaN where one occurs), padding never selected unless
    the whole window is padding."""
    fill = -np.inf if kind == "max" else np.inf
    xp_ = np.pad(x.astype(np.float64), ((0, 0), (0, 0)) + pad, constant_values=fill)
    g = np.zeros_like(xp_)
    for n, c, i, j in np.ndindex(*ct.shape):
        w = xp_[n, c, i * s:i * s + k, j * s:j * s + k].ravel()
        nan = np.isnan(w)
        q = int(np.argmax(nan)) if nan.any() else int(np.argmax(w) if kind == "max" else np.argmin(w))
        g[n, c, i * s + q // k, j * s + q % k] += ct[n, c, i, j]
    return g[:, :, pad[0][0]:g.shape[2] - pad[0][1], pad[1][0]:g.shape[3] - pad[1][1]]


@pytest.mark.parametrize("kind", ["max", "min"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
@pytest.mark.parametrize("k,s,pad", [(2, 2, ((0, 0), (0, 0))), (3, 3, ((1, 1), (0, 2))),
                                     (2, 3, ((0, 0), (1, 0)))])
def test_disjoint_window_gradient_ties_go_to_the_first_cell(kind, dtype, k, s, pad):
    """Pooling's backward on disjoint windows (the host's comparison-and-mask path): ReLU
    zeros and small integers tie inside most windows; the first cell of each gets it all,
    as in JAX and PyTorch's max_pool2d backward; a NaN takes the NaN-aware path."""
    rng = np.random.default_rng(0)
    x = np.maximum(rng.integers(-3, 3, (2, 3, 9, 10)), 0).astype(dtype)
    if dtype == np.float32:
        x[0, 1, 4, 4] = np.nan
    op = lax.max if kind == "max" else lax.min
    init = (-np.inf if kind == "max" else np.inf) if dtype == np.float32 else \
        (np.iinfo(dtype).min if kind == "max" else np.iinfo(dtype).max)
    f = lambda a: lax.reduce_window(a, init, op, (1, 1, k, k), (1, 1, s, s), ((0, 0), (0, 0)) + pad)  # noqa: E731
    y, vjp = fgrad.vjp(f, fnp.asarray(x)) if dtype == np.float32 else (f(fnp.asarray(x)), None)
    ct = rng.standard_normal(np.shape(y)).astype(np.float32)
    want = _first_extremum_grad(x, ct, kind, k, s, pad)
    if vjp is not None:
        np.testing.assert_array_equal(np.asarray(vjp(fnp.asarray(ct))[0]), want)
        np.testing.assert_array_equal(np.asarray(fgrad.jit(lambda c: vjp(c)[0])(fnp.asarray(ct))), want)
    from fgrad.ops.windowed import select_and_scatter_add_p

    params = dict(window_dimensions=(1, 1, k, k), window_strides=(1, 1, s, s), padding=((0, 0), (0, 0)) + pad,
                  base_dilation=(1,) * 4, window_dilation=(1,) * 4)
    got = select_and_scatter_add_p.impl(np, ct, x, select=kind, **params)
    np.testing.assert_array_equal(got, want.astype(np.float32))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))  # +0.0 where not selected


@pytest.mark.parametrize("x", [[1.0, 2.0, 3.0, 0.5, -1.0, -1.0], [1.0, np.nan, 3.0, 0.5, -1.0, -1.0]])
def test_max_window_gradient_of_an_infinite_cotangent_is_zero_elsewhere(x):
    """Regression: the cotangent was multiplied by the selection mask, so ``0 * inf`` put
    NaN (and a negative cotangent -0.0) into the cells a window did not select.  JAX
    (``jax.vjp`` of ``reduce_window``) and PyTorch (``max_pool1d`` backward) give
    ``[0, inf, -2, 0, -0.5, 0]`` with +0.0 in the unselected cells (a NaN, the first
    maximum, takes the cotangent in the second case: the same numbers)."""
    f = lambda a: lax.reduce_window(a, -fnp.inf, lax.max, (1, 2), (1, 2), "VALID")  # noqa: E731
    ct = fnp.asarray([[np.inf, -2.0, -0.5]])
    want = np.array([[0.0, np.inf, -2.0, 0.0, -0.5, 0.0]])
    for g in (fgrad.vjp(f, fnp.asarray([x]))[1](ct)[0],
              fgrad.jit(lambda a, c: fgrad.vjp(f, a)[1](c)[0])(fnp.asarray([x]), ct)):
        np.testing.assert_array_equal(np.asarray(g), want)
        np.testing.assert_array_equal(np.signbit(np.asarray(g)), np.signbit(want))
    torch = pytest.importorskip("torch")
    t = torch.tensor([x], dtype=torch.float64, requires_grad=True)
    ct_t = torch.tensor([[[np.inf, -2.0, -0.5]]], dtype=torch.float64)
    torch.nn.functional.max_pool1d(t[None], 2).backward(ct_t)
    if not np.isnan(x[1]):  # PyTorch's max_pool1d takes the NaN too; compare the plain case
        np.testing.assert_array_equal(t.grad.numpy(), want)
