"""The case grids of JAX's own numerical tests run against fgrad (issue 12: other projects'
test suites run against fgrad found the gaps; these are JAX's).

``tests/jax_suite_grid_cases.py`` rewrites the records of JAX's ``lax_numpy_operators_test``
(one-to-one, compound, bitwise, operator overloads), ``lax_numpy_reducers_test`` (axis,
keepdims, dtype=, initial=, where=, ddof=, promote_integers=, nan-reducers, cumulative
reductions), ``lax_numpy_indexing_test`` (basic, advanced and mixed indexing, ``.at[]`` with
each mode), ``lax_numpy_test`` (shape ops, creation, sorting/searching, set ops, histograms,
pad modes, polynomials, statistics), ``lax_test`` (the lax ops over their dtypes),
``lax_autodiff_test`` (gradients), JAX's scipy tests (family ``scipy/``: special functions
and their gradients, stats, linalg, signal, fft, ndimage, interpolate, spatial, cluster)
and ``random_test`` (family ``random/``: each sampler's bits for a fixed key) as data;
each case's outcome (result values, dtypes and shapes, or the type of the raised error) is
compared with JAX's:

* the stored outcomes (``tests/stored/jax_suite_grid.json``, JAX 0.10.2, written by
  ``tools/make_jax_suite_grid_table.py``): a quarter of the scaled-down grid with 64-bit types
  on, a sixteenth with them off, every ``fixes/`` and ``random/`` case and (x64 on) every
  ``scipy/`` one; always run;
* live JAX, when installed: a sample of the scaled-down grid in the default run, the whole
  scaled-down grid and the full grids (every shape and dtype of the records) marked slow.

`KNOWN` lists what still differs (each entry is checked to differ: one that starts to agree
fails, to be removed).
"""

from __future__ import annotations

import contextlib
import json
import os
import warnings
import re
import zlib
from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.scipy.special as fsp
from jax_suite_grid_cases import Case, all_cases, compare, import_scipy, outcome, stored_cases
from test_jax_dtype_sweep import x64  # the 64-bit switch as a context (one place)

_TABLE = json.loads((Path(__file__).parent / "stored" / "jax_suite_grid.json").read_text())
FAMILIES = ["operators", "bitwise", "overloads", "reducers", "lax", "autodiff", "indexing", "numpy", "fixes",
            "scipy", "random"]
import_scipy("fgrad")

# (case-id pattern, modes): what still differs from JAX, and why (docs/jax-numerics.md)
_BOTH = ("x64", "x32")
KNOWN: list[tuple[str, tuple[str, ...]]] = [
    # jnp.fix is gone from JAX 0.10 (AttributeError); fgrad keeps NumPy's name
    (r"^operators/fix/", _BOTH),
    # JAX's quantile(method="inverted_cdf") with a Python-float q and 64-bit types on raises
    # TypeError inside (lax.mul of float64 q and float32 weights: a JAX bug); fgrad computes
    # NumPy's (and JAX's x32) value
    (r"method='inverted_cdf'", ("x64",)),
    # spacing of negative float16: JAX's magnitude, NumPy's (and fgrad's) negative sign
    (r"^operators/spacing/default\[3x4:float16\]", _BOTH),
    # median of a 0-d array with keepdims: JAX gives shape (1,), fgrad ()
    (r"^reducers/(nan)?median/\w+\[s:\w+\|axis=None, keepdims=True\]", _BOTH),
    # nanmedian of bfloat16 with a NaN: JAX ignores it, fgrad's bfloat16 path returns NaN
    (r"^reducers/nanmedian/some_nan\[3x4:bfloat16\|axis=1, keepdims=True\]", _BOTH),
    # linear_ramp of int32 with negative edges: JAX rounds toward zero, fgrad floors (NumPy)
    (r"mode='linear_ramp', end_values=\(1, 2\)\)\[int32\]", _BOTH),
    # -- scipy (session 12) --
    # JAX rejects bfloat16 and float16 in ndtr/ndtri/log_ndtr/spence (TypeError; so norm's
    # and truncnorm's methods built on them); fgrad computes them
    (r"^scipy/special\.(ndtr|ndtri|log_ndtr|spence)/\w+\[(s|3x4|2x1x4):(bfloat16|float16)\]", _BOTH),
    (r"^scipy/stats\.(norm|truncnorm)\.\w+/\w+\[3x4:float16\]", _BOTH),
    # JAX's float16 expi/exp1/expn/sici give NaN for some x (their series in float16);
    # JAX's bfloat16 betaln is a bfloat16 series (values off by more than bfloat16's tolerance)
    (r"^scipy/special\.(expi|exp1|expn|sici)/positive\[\w+:float16\]", ("x64",)),  # full grid: x64 only
    (r"^scipy/special\.betaln/positive\[2x1x4:bfloat16", ("x64",)),
    # JAX's float16 poch overflows to inf below float16's top (poch(7.4, 4.2) = 8832) and
    # rounds its lgamma difference otherwise
    (r"^scipy/special\.poch/positive\[\w+:float16,", _BOTH),
    # JAX's betaln (so betabinom) and bernoulli are accurate to about 1e-7 only; fgrad's are
    # SciPy's (checked against SciPy in test_scipy_values_jax_gets_wrong)
    (r"^scipy/special_grad\.betaln/positive\[3x4:float64|^scipy/special\.bernoulli$", ("x64",)),
    (r"^scipy/stats\.betabinom\.\w+/int8\[3x4:(int32|float64)\]", ("x64",)),
    # owens_t of float32: JAX runs its series in float32 (float64 out); fgrad computes the
    # rounded inputs in float64 (SciPy's values)
    (r"^scipy/special\.owens_t/default\[(s|3x4|2x1x4):(bfloat16|float16|float32),", ("x64",)),
    # bessel_jn(x, v=3) of float32/float16/bfloat16: JAX gives NaN for most x; fgrad the values
    (r"^scipy/special\.bessel_jn/positive\[(s|3x4|2x1x4):(bfloat16|float16|float32)\]", ("x64",)),
    # lpmn/lpmn_values: deprecated in JAX 0.10 (m != n raises NotImplementedError); fgrad
    # has no such names (AttributeError)
    (r"^scipy/special\.lpmn", _BOTH),
    # d/da gamma.logpdf(float32 x, a) summed: JAX adds float32 terms, fgrad is closer to the
    # float64 value (4e-6 relative)
    (r"^scipy/stats\.gamma\.grad_logpdf_a\[float32\]", ("x64",)),
    # norm.ppf/isf of float32 with x64 on: both give the default float (float64), JAX from
    # its float32 ndtri, fgrad from a correctly rounded float32 one (1e-7 apart)
    (r"^scipy/stats\.norm\.(ppf|isf)/unit\[3x4:float32\]", ("x64",)),
    # Rotation.from_quat(float32).apply(float64 vectors): the float32 matrices round
    # differently (XLA divides by the quaternion's norm as a product with its reciprocal;
    # 2e-7 relative, at a float64 result's tolerance)
    (r"^scipy/spatial\.rotation_apply\[float32\]", ("x64",)),
]


# under FGRAD_BACKEND=fake (the GPU stand-in) only: nextafter(float32 array, Python int) is
# float64 there (the weak int is not cast on that device's path); real(Python int) is an Array
FAKE = os.environ.get("FGRAD_BACKEND") == "fake"
KNOWN_FAKE = [(r"^operators/nextafter/default\[3x4:float32,py:int64\]", ("x64",))]


def _known(case_id: str, mode: str) -> bool:
    entries = KNOWN + (KNOWN_FAKE if FAKE else [])
    return any(mode in modes and re.search(pat, case_id) for pat, modes in entries)


def _device_for(case: Case):
    """bfloat16 inputs live on the CPU (CuPy, and the fake device standing in for it, have no
    bfloat16); other cases on the configured default device."""
    bf16 = any(d == "bfloat16" for _, d, _ in case.inputs) or "bfloat16" in case.expr
    return fgrad.default_device("cpu") if bf16 else contextlib.nullcontext()


FGRAD_NAMES = {"jnp": fnp, "lax": fgrad.lax, "jax": fgrad}


def fgrad_outcome(case: Case) -> dict:
    with _device_for(case):
        return outcome(case, FGRAD_NAMES, fnp.asarray, fgrad.tree_util.tree_leaves,
                       lambda x: np.asarray(fgrad.device_get(x)))


def differences(cases, want: dict, mode: str, strict: bool = True) -> list[str]:
    """What differs from ``want`` (outcomes by case id) outside `KNOWN`, and (``strict``)
    the `KNOWN` entries that agree now."""
    bad = []
    with x64(mode == "x64"):
        for case in cases:
            if case.id not in want:
                continue
            diff = compare(case, want[case.id], fgrad_outcome(case))
            known = _known(case.id, mode)
            if diff and not known:
                bad.append(f"[{mode}] {diff}")
            elif known and not diff and strict and not FAKE:
                bad.append(f"[{mode}] {case.id}: listed in KNOWN but agrees with JAX now")
    return bad


def _family(cases, family):
    return [c for c in cases if c.id.split("/", 1)[0] == family]


@pytest.mark.parametrize("mode", ["x64", "x32"])
@pytest.mark.parametrize("family", FAMILIES)
def test_as_stored_jax(family, mode):
    cases = _family(stored_cases(mode == "x64"), family)
    assert cases, family
    bad = differences(cases, _TABLE[mode], mode)
    assert not bad, f"{len(bad)} differences:\n" + "\n".join(bad[:60])


def test_stored_table_covers_every_family():
    """The stored subset holds cases of every record family in both modes, errors included."""
    for mode in ("x64", "x32"):
        ids = list(_TABLE[mode])
        for family in FAMILIES:
            assert any(i.startswith(family + "/") for i in ids), (mode, family)
        assert any("error" in v for v in _TABLE[mode].values())
    assert _TABLE["jax"] == "0.10.2"


@pytest.fixture(scope="module")
def live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    import_scipy("jax")
    before = jax.config.jax_enable_x64
    yield jax, jnp
    jax.config.update("jax_enable_x64", before)


def _live(live_jax, cases, mode: str) -> list[str]:
    jax, jnp = live_jax
    jax.config.update("jax_enable_x64", mode == "x64")
    names = {"jnp": jnp, "lax": jax.lax, "jax": jax}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # JAX's ComplexWarning (cumsum(complex, dtype=float32))
        want = {c.id: outcome(c, names, jnp.asarray, jax.tree_util.tree_leaves) for c in cases}
    return differences(cases, want, mode, strict=False)


def _sample(cases, every: int, rest: int = 1):
    return [c for c in cases if zlib.crc32(c.id.encode()) % every == rest]


@pytest.mark.parametrize("family", FAMILIES)
def test_sample_as_live_jax(live_jax, family):
    """A fiftieth of the scaled-down grid (other cases than the stored ones), x64 on; the
    scipy and random families (stored whole with x64 on) with x64 off."""
    cases = _sample(_family(all_cases(small=True), family), 50)
    bad = _live(live_jax, cases, "x32" if family in ("scipy", "random") else "x64")
    assert not bad, f"{len(bad)} differences:\n" + "\n".join(bad[:60])


@pytest.mark.slow  # JAX compiles every case: about 10 minutes on one core
@pytest.mark.parametrize("mode", ["x64", "x32"])
@pytest.mark.parametrize("family", FAMILIES)
def test_scaled_grid_as_live_jax(live_jax, family, mode):
    cases = _family(all_cases(small=True), family)
    if mode == "x32":
        cases = _sample(cases, 4, 0)
    bad = _live(live_jax, cases, mode)
    assert not bad, f"{len(bad)} differences:\n" + "\n".join(bad[:60])


@pytest.mark.slow  # the records' whole grids: over an hour
@pytest.mark.parametrize("family", FAMILIES)
def test_full_grid_as_live_jax(live_jax, family):
    bad = _live(live_jax, _family(all_cases(small=False), family), "x64")
    assert not bad, f"{len(bad)} differences:\n" + "\n".join(bad[:60])


# -- the leftovers: complex arguments JAX computes, narrow floats ------------------
# JAX 0.10.2's values (x64 on) for z = [0.5+0.25j, -1+2j] (complex64) and, for the binary
# functions, the second argument z / 2 + 1
_Z = np.array([0.5 + 0.25j, -1.0 + 2j], np.complex64)
_COMPLEX_JAX = {
    "arctan2": [0.401789 + 0.13545053j, -1.9081668 + 0.37908688j],
    "logaddexp": [1.635168 + 0.16507721j, 0.6276708 + 1.1660149j],
    "logaddexp2": [1.9219311 + 0.1716013j, 0.86946344 + 1.2535849j],
    "softplus": [0.96671736 + 0.15576553j, -0.09367618 + 0.37617135j],
    "log_sigmoid": [-0.4667174 + 0.09423447j, -0.9063238 + 1.6238286j],
    "mish": [0.36054114 + 0.22302473j, -0.67417586 - 0.6066582j],
    "gamma": [1.3851134 - 0.6731814j, -0.03236128 + 0.01122941j],
    "loggamma": [0.4318061 - 0.45239455j, -3.3739448 - 3.4755938j],
    "erfcx": [0.5937089 - 0.12476491j, -0.2053256 - 0.1468555j],
}


def _complex_fns(np_mod, nn, special):
    return {
        "arctan2": lambda z: np_mod.arctan2(z, z * 0.5 + 1),
        "logaddexp": lambda z: np_mod.logaddexp(z, z * 0.5 + 1),
        "logaddexp2": lambda z: np_mod.logaddexp2(z, z * 0.5 + 1),
        "softplus": nn.softplus,
        "log_sigmoid": nn.log_sigmoid,
        "mish": nn.mish,
        "gamma": special.gamma,
        "loggamma": special.loggamma,
        "erfcx": special.erfcx,
    }


@pytest.mark.parametrize("name", sorted(_COMPLEX_JAX))
def test_complex_arguments_as_jax(name):
    """Complex arguments JAX computes (fgrad raised TypeError/NotImplementedError): the
    values and dtype of JAX 0.10.2."""
    import fgrad.nn

    f = _complex_fns(fnp, fgrad.nn, fsp)[name]
    out = f(fnp.asarray(_Z))
    assert out.dtype == np.complex64
    np.testing.assert_allclose(
        np.asarray(out), np.array(_COMPLEX_JAX[name], np.complex64), rtol=2e-6, atol=2e-6
    )


@pytest.mark.parametrize("name", sorted(set(_COMPLEX_JAX) - {"loggamma"}))
def test_complex_derivatives_as_live_jax(live_jax, name):
    """The gradients of the real part at complex128 points, as JAX's (JAX cannot
    differentiate its complex loggamma: a fori_loop with traced bounds)."""
    jax, jnp = live_jax
    import fgrad.nn

    jax_nn = pytest.importorskip("jax.nn")
    jax_special = pytest.importorskip("jax.scipy.special")
    jax.config.update("jax_enable_x64", True)
    z = np.complex128(0.5 + 0.25j)
    want = jax.grad(lambda v: jnp.real(_complex_fns(jnp, jax_nn, jax_special)[name](v)))(jnp.asarray(z))
    got = fgrad.grad(lambda v: fnp.real(_complex_fns(fnp, fgrad.nn, fsp)[name](v)))(fnp.asarray(z))
    np.testing.assert_allclose(complex(got), complex(want), rtol=1e-10)


def test_complex_logaddexp_wraps_the_phase():
    """The imaginary part is wrapped into [-pi, pi) (JAX's rule), and the derivative is
    ``exp(x - out)``: checked by finite differences."""
    x = fnp.asarray(np.array([1.0 + 3.0j, -2.0 - 3.1j]))
    y = fnp.asarray(np.array([0.5 + 3.0j, -2.0 - 3.1j]))
    out = np.asarray(fnp.logaddexp(x, y))
    assert np.all(out.imag >= -np.pi) and np.all(out.imag < np.pi)
    np.testing.assert_allclose(np.exp(out), np.exp(np.asarray(x)) + np.exp(np.asarray(y)), rtol=1e-12)
    # holomorphic: the JVP along v is f'(x) v = exp(x - out) v, also by central differences
    v = np.array([0.3 - 0.2j, -0.1 + 0.4j])
    _, tangent = fgrad.jvp(lambda a: fnp.logaddexp(a, y), (x,), (fnp.asarray(v),))
    np.testing.assert_allclose(np.asarray(tangent), np.exp(np.asarray(x) - out) * v, rtol=1e-12)
    eps = 1e-6
    fd = (np.asarray(fnp.logaddexp(fnp.asarray(np.asarray(x) + eps * v), y))
          - np.asarray(fnp.logaddexp(fnp.asarray(np.asarray(x) - eps * v), y))) / (2 * eps)
    np.testing.assert_allclose(np.asarray(tangent), fd, rtol=1e-6)


def test_unwrap_bfloat16_computes_in_bfloat16():
    """``jnp.unwrap`` of bfloat16 stays bfloat16 (fgrad computed float64: bfloat16's NumPy
    kind is "V", not "f"); JAX 0.10.2's values."""
    with fgrad.default_device("cpu"):
        p = fnp.asarray(np.array([0.1, 3.0, -2.5, 6.0]), fnp.bfloat16)
        out = fnp.unwrap(p)
    assert out.dtype == fnp.bfloat16
    np.testing.assert_allclose(np.asarray(out, np.float32), [0.100098, 3.0, 3.78125, 5.96875], rtol=1e-5)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32", "int8"])
@pytest.mark.parametrize("mode", ["x64", "x32"])
def test_owens_t_narrow_floats_compute_wide(dtype, mode):
    """``owens_t`` of narrow floats (and integers) gives float64 with 64-bit types on, float32
    off, as JAX's float64 constants make it; the values are those of the rounded inputs."""
    with x64(mode == "x64"), fgrad.default_device("cpu"):
        h, a = fnp.asarray([0.5, 1.0], dtype), fnp.asarray([0.3, 2.0], dtype)
        out = fsp.owens_t(h, a)
        assert out.dtype == (np.float64 if mode == "x64" else np.float32)
        import scipy.special

        want = scipy.special.owens_t(np.asarray(h, np.float64), np.asarray(a, np.float64))
        np.testing.assert_allclose(np.asarray(out), want, rtol=1e-6)


def test_complex_loggamma_and_digamma_primitives():
    """``loggamma_complex`` / ``digamma_complex`` (the primitives under complex ``gamma`` and
    ``loggamma``): SciPy's values, the JVP ``digamma(z) t`` by central differences, vmap as a
    Python loop, jit as eager."""
    scipy_special = pytest.importorskip("scipy.special")
    from fgrad.ops.special_functions import digamma_complex_p, loggamma_complex_p

    z = np.array([0.5 + 0.25j, 3.0 - 2.0j, -1.5 + 0.5j])
    lg = np.asarray(loggamma_complex_p.bind(fnp.asarray(z)))
    dg = np.asarray(digamma_complex_p.bind(fnp.asarray(z)))
    np.testing.assert_allclose(lg, scipy_special.loggamma(z), rtol=1e-12)
    np.testing.assert_allclose(dg, scipy_special.psi(z), rtol=1e-12)
    t = np.array([1.0 - 0.5j, 0.2j, 0.3])
    _, tangent = fgrad.jvp(lambda a: loggamma_complex_p.bind(a), (fnp.asarray(z),), (fnp.asarray(t),))
    eps = 1e-6
    fd = (scipy_special.loggamma(z + eps * t) - scipy_special.loggamma(z - eps * t)) / (2 * eps)
    np.testing.assert_allclose(np.asarray(tangent), fd, rtol=1e-6)
    batched = np.asarray(fgrad.vmap(lambda a: loggamma_complex_p.bind(a))(fnp.asarray(z)))
    np.testing.assert_array_equal(batched, [np.asarray(loggamma_complex_p.bind(fnp.asarray(v))) for v in z])
    jitted = fgrad.jit(lambda a: digamma_complex_p.bind(a))
    np.testing.assert_array_equal(np.asarray(jitted(fnp.asarray(z))), dg)


# -- session 12: the nan-reducers' where=, quantile's inverted_cdf, JAX's int/float lattice --
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_quantile_inverted_cdf_as_numpy(axis):
    """``method="inverted_cdf"`` (with and without ``weights``) gives NumPy's values; the
    weights of one reduced axis broadcast along it; ``nanquantile`` skips NaNs (NumPy's
    ``nanquantile``); a negative weight makes the slice NaN (JAX)."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(5, 6))
    q = np.array([0.0, 0.1, 0.37, 0.5, 0.9, 1.0])
    w = rng.uniform(0.1, 2.0, size=x.shape if axis is None else x.shape[axis])
    got = fnp.quantile(fnp.asarray(x), fnp.asarray(q), axis=axis, method="inverted_cdf")
    np.testing.assert_array_equal(np.asarray(got), np.quantile(x, q, axis=axis, method="inverted_cdf"))
    got_w = fnp.quantile(fnp.asarray(x), fnp.asarray(q), axis=axis, method="inverted_cdf",
                         weights=fnp.asarray(w))
    wb = w if axis is None else np.expand_dims(w, 1 - axis) * np.ones_like(x)
    np.testing.assert_array_equal(
        np.asarray(got_w), np.quantile(x, q, axis=axis, method="inverted_cdf", weights=wb)
    )
    xn = x.copy()
    xn[1, 2] = xn[3, 0] = np.nan
    got_n = fnp.nanquantile(fnp.asarray(xn), fnp.asarray(q), axis=axis, method="inverted_cdf")
    np.testing.assert_array_equal(np.asarray(got_n), np.nanquantile(xn, q, axis=axis, method="inverted_cdf"))
    bad = w.copy()
    bad.reshape(-1)[0] = -1.0
    out = np.asarray(fnp.quantile(fnp.asarray(x), 0.5, axis=axis, method="inverted_cdf",
                                  weights=fnp.asarray(bad)))
    assert np.isnan(out).any()


def test_quantile_weights_need_inverted_cdf():
    with pytest.raises(NotImplementedError, match="inverted_cdf"):
        fnp.quantile(fnp.ones(3), 0.5, weights=fnp.ones(3))
    with pytest.raises(ValueError, match="method"):
        fnp.quantile(fnp.ones(3), 0.5, method="hazen")


def test_nan_reducers_where_as_numpy():
    """``where=`` of ``nanmean``/``nanvar``/``nanstd``: NumPy's values (NaN and unselected
    entries both left out); fewer than ``ddof + 1`` entries give NaN."""
    rng = np.random.default_rng(4)
    x = rng.normal(size=(4, 5))
    x[0, 1] = x[2, 3] = np.nan
    where = rng.random(size=x.shape) > 0.3
    where[3] = [True, False, False, False, False]
    for name, kw in [("nanmean", {}), ("nanvar", {"ddof": 1}), ("nanstd", {})]:
        for axis in (None, 0, 1):
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = getattr(np, name)(x, axis=axis, where=where, **kw)
            got = getattr(fnp, name)(fnp.asarray(x), axis=axis, where=fnp.asarray(where), **kw)
            np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, equal_nan=True,
                                       err_msg=f"{name} {axis}")


def test_nanmean_where_gradient_by_finite_differences():
    from fgrad.test_util import check_grads

    x = fnp.asarray(np.array([[1.0, 2.0, 4.0], [0.5, -1.0, 3.0]]))
    where = fnp.asarray(np.array([[True, False, True], [True, True, False]]))
    check_grads(lambda a: fnp.nanvar(a, axis=1, where=where), (x,), order=2)


@pytest.mark.parametrize("mode", ["x64", "x32"])
def test_integer_meeting_float_takes_the_float_type(mode):
    """JAX's lattice puts every integer below every float: ``where``, ``result_type``,
    ``dot``/``einsum``/``cross``, ``polyval`` and ``heaviside`` of int32 (or int64) with
    float32 are float32 (NumPy's rule, which fgrad followed, gives float64)."""
    i, f = fnp.asarray(np.arange(1, 4, dtype=np.int32)), fnp.asarray(np.ones(3, np.float32))
    with x64(mode == "x64"):
        assert fnp.result_type(i, f) == np.float32
        assert fnp.where(True, i, f).dtype == np.float32
        assert fnp.dot(i, f).dtype == np.float32
        assert fnp.einsum("i,i->", i, f).dtype == np.float32
        assert fnp.cross(i, f).dtype == np.float32
        assert fnp.polyval(i, f).dtype == np.float32
        assert fnp.heaviside(i, f).dtype == np.float32
        assert fnp.heaviside(fnp.asarray(np.ones(2, np.float16)), 2).dtype == np.float16
        assert fnp.lcm(fnp.asarray(np.array([4, 6], np.int16)), 6).dtype == np.int16
        np.testing.assert_array_equal(np.asarray(fnp.dot(i, f)), 6.0)


def test_functions_of_python_scalars_are_arrays():
    """``real``/``imag``/``transpose`` of a Python number are 0-d Arrays (``real(3)`` was an
    Array wrapping the int: its ``.dtype`` raised ``AttributeError``)."""
    r = fnp.real(3)
    assert r.dtype == fnp.asarray(3).dtype and int(r) == 3
    assert float(fnp.imag(2.5)) == 0.0
    t = fnp.transpose(2.0)
    assert isinstance(t, fgrad.Array) and t.shape == () and float(t) == 2.0
    with pytest.raises(ValueError, match="integer"):
        fnp.gcd(fnp.asarray([4, 6]), 2.5)


def test_scipy_values_jax_gets_wrong():
    """Where JAX 0.10.2's numbers are off (`KNOWN`), fgrad's are SciPy's: betaln's
    derivative (digamma(b) - digamma(a + b)), betabinom's pmf, the Bernoulli numbers,
    owens_t of float32 inputs (computed from the rounded inputs), bessel_jn of float32."""
    import fgrad.scipy.stats as fst
    import scipy.special as ssp
    import scipy.stats as sst

    a, b = np.array([0.7, 2.5, 10.0]), np.array([1.3, 0.4, 3.0])
    got = fgrad.grad(lambda v: fsp.betaln(fnp.asarray(a), v).sum())(fnp.asarray(b))
    np.testing.assert_allclose(np.asarray(got), ssp.digamma(b) - ssp.digamma(a + b), rtol=1e-12)
    k = np.arange(8.0)
    np.testing.assert_allclose(np.asarray(fst.betabinom.pmf(fnp.asarray(k), 7, 2.0, 3.0)),
                               sst.betabinom.pmf(k, 7, 2.0, 3.0), rtol=1e-12)
    bernoulli = [1, -1 / 2, 1 / 6, 0, -1 / 30, 0, 1 / 42, 0]  # SciPy's B_4 is 2e-12 off
    np.testing.assert_allclose(np.asarray(fsp.bernoulli(7)), bernoulli, rtol=1e-15)
    h, t = np.array([0.3, -1.2, 2.0], np.float32), np.array([0.5, 1.5, -0.7], np.float32)
    with x64(True):
        np.testing.assert_allclose(np.asarray(fsp.owens_t(fnp.asarray(h), fnp.asarray(t))),
                                   ssp.owens_t(h.astype(float), t.astype(float)), rtol=1e-12)
    x = np.array([0.5, 2.0, 7.5], np.float32)
    jn = np.asarray(fsp.bessel_jn(fnp.asarray(x), v=3))  # J_0 .. J_3
    want = np.stack([ssp.jv(n, x.astype(float)) for n in range(4)])
    np.testing.assert_allclose(jn, want, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16"])
def test_randint_narrow_dtypes_draw_at_32_bits(dtype):
    """8- and 16-bit ``randint`` is the int32 draw (bounds clipped to the dtype, ``maxval``
    to one past it) cast down: JAX 0.10.2's values for the key (fgrad drew at 8/16 bits)."""
    import fgrad.random as fr

    k = fr.key(42)
    info = np.iinfo(dtype)
    got = fr.randint(k, (6,), -300, 300, dtype)
    want = fr.randint(k, (6,), max(-300, int(info.min)), min(300, int(info.max) + 1), "int32")
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want).astype(dtype))
    if dtype == "uint8":  # JAX 0.10.2, x64 on and off
        out = np.asarray(fr.randint(k, (6,), 0, 255, dtype))
        np.testing.assert_array_equal(out, [189, 9, 6, 19, 194, 159])


def test_randint_full_range_is_not_constant():
    """``maxval`` one past the dtype's top makes the span 2**32, which wraps to 0: JAX's
    remainders by 0 leave the bits as they are (fgrad returned ``minval`` everywhere)."""
    import fgrad.random as fr

    with x64(True):
        out = np.asarray(fr.randint(fr.key(42), (3,), 0, 2 ** 32, "uint32"))
    np.testing.assert_array_equal(out, [3125294276, 3383865362, 780371127])  # JAX 0.10.2
    with x64(False), pytest.raises(OverflowError):
        fr.randint(fr.key(0), (2,), 0, 2 ** 40)


def test_f_and_geometric_follow_jax_key_use():
    """``f`` draws its numerator from the second half of the split key and ``geometric``
    takes ``log(u)`` (u = 0 mapped to 1): JAX 0.10.2's samples for the key."""
    import fgrad.random as fr

    with x64(True):
        k = fr.key(42)
        np.testing.assert_allclose(np.asarray(fr.f(k, 3.0, 5.0, (5,))),
                                   [1.15864162, 0.43349014, 6.86956497, 1.26318087, 0.5982881], rtol=1e-7)
        np.testing.assert_array_equal(np.asarray(fr.geometric(k, 0.3, (5,))), [3, 12, 2, 1, 2])


def test_float16_special_functions_do_not_warn():
    """The full scipy grid found float16 ``erfcx`` (a value beyond float16: the cast warned)
    and ``poch`` (``gammasgn`` formed Gamma(x), which overflows float16 from x = 9) raising
    ``RuntimeWarning``; JAX gives inf and the values. ``gammasgn`` is JAX's rule (NaN at the
    poles, -1 at -0.0)."""
    with fgrad.default_device("cpu"):
        out = fsp.erfcx(fnp.asarray(np.array([-4.0, 0.5], np.float16)))
        assert out.dtype == np.float16 and np.isinf(np.asarray(out)[0])
        z, m = np.array([5.0, 6.2], np.float16), np.array([4.0, 3.5], np.float16)
        p = fsp.poch(fnp.asarray(z), fnp.asarray(m))
        scipy_special = pytest.importorskip("scipy.special")
        want = scipy_special.poch(z.astype(float), m.astype(float))
        # the exponential of a float16 lgamma difference: 1% of float16 rounding
        np.testing.assert_allclose(np.asarray(p, np.float64), want, rtol=2e-2)
    x = np.array([-3.0, -2.5, -0.5, -0.0, 0.0, 0.5, 11.2, np.nan, -7.3])
    np.testing.assert_array_equal(np.asarray(fsp.gammasgn(fnp.asarray(x))),
                                  [np.nan, -1, -1, -1, 1, 1, 1, np.nan, 1])
