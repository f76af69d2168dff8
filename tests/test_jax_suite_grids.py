"""The case grids of JAX's own numerical tests run against fgrad (issue 12: other projects'
test suites run against fgrad found the gaps; these are JAX's).

``tests/jax_suite_grid_cases.py`` rewrites the records of JAX's ``lax_numpy_operators_test``
(one-to-one, compound, bitwise, operator overloads), ``lax_numpy_reducers_test`` (axis,
keepdims, dtype=, initial=, where=, ddof=, promote_integers=, nan-reducers, cumulative
reductions), ``lax_numpy_indexing_test`` (basic, advanced and mixed indexing, ``.at[]`` with
each mode), ``lax_numpy_test`` (shape ops, creation, sorting/searching, set ops, histograms,
pad modes, polynomials, statistics), ``lax_test`` (the lax ops over their dtypes) and
``lax_autodiff_test`` (gradients) as data; each case's outcome (result values, dtypes and
shapes, or the type of the raised error) is compared with JAX's:

* the stored outcomes (``tests/stored/jax_suite_grid.json``, JAX 0.10.2, written by
  ``tools/make_jax_suite_grid_table.py``): a third of the scaled-down grid with 64-bit types
  on, a twelfth with them off; always run;
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
from jax_suite_grid_cases import Case, all_cases, compare, outcome, stored_cases
from test_jax_dtype_sweep import x64  # the 64-bit switch as a context (one place)

_TABLE = json.loads((Path(__file__).parent / "stored" / "jax_suite_grid.json").read_text())
FAMILIES = ["operators", "bitwise", "overloads", "reducers", "lax", "autodiff", "indexing", "numpy", "fixes"]

# (case-id pattern, modes): what still differs from JAX, and why (docs/jax-numerics.md)
_BOTH = ("x64", "x32")
KNOWN: list[tuple[str, tuple[str, ...]]] = [
    # jnp.fix is gone from JAX 0.10 (AttributeError); fgrad keeps NumPy's name
    (r"^operators/fix/", _BOTH),
    # JAX's quantile(method="inverted_cdf") without weights raises TypeError inside; fgrad
    # does not implement the method (ValueError naming the methods it has)
    (r"method='inverted_cdf'", _BOTH),
    # nanmean/nanvar/nanstd take no where= yet (TypeError)
    (r"^reducers/nan(mean|var|std)/.*where=", _BOTH),
    # a weak Python scalar against float16/bfloat16: JAX keeps the narrow float, fgrad's
    # heaviside computes in float64
    (r"^operators/heaviside/default\[3x4:(float16|bfloat16),py:", _BOTH),
    (r"^operators/heaviside/default\[3x4:float32,(3x4:int32|py:float64)\]", ("x64",)),
    # polyval of mixed int/float coefficients and points: JAX keeps float32, fgrad float64
    (r"^operators/polyval/default\[3x4:(float16|float32),3x4:int32\]|polyval/default\[3x4:int32,3x4:float32\]",
     ("x64",)),
    # lcm with a weak Python int: JAX keeps the array's integer type, fgrad int64; gcd with a
    # Python float: JAX ValueError, fgrad TypeError
    (r"^operators/(lcm|gcd)/default\[3x4:\w+,py:", ("x64",)),
    # real/transpose of a Python scalar: JAX returns an Array, fgrad the number
    (r"^operators/(real|transpose)/\w+\[py:", _BOTH),
    # spacing of negative float16: JAX's magnitude, NumPy's (and fgrad's) negative sign
    (r"^operators/spacing/default\[3x4:float16\]", _BOTH),
    # median of a 0-d array with keepdims: JAX gives shape (1,), fgrad ()
    (r"^reducers/(nan)?median/\w+\[s:\w+\|axis=None, keepdims=True\]", _BOTH),
    # nanmedian of bfloat16 with a NaN: JAX ignores it, fgrad's bfloat16 path returns NaN
    (r"^reducers/nanmedian/some_nan\[3x4:bfloat16\|axis=1, keepdims=True\]", _BOTH),
    # linear_ramp of int32 with negative edges: JAX rounds toward zero, fgrad floors (NumPy)
    (r"mode='linear_ramp', end_values=\(1, 2\)\)\[int32\]", _BOTH),
    # linspace(retstep=True) with x64 off: JAX's step is float32, fgrad's a float64 array
    (r"retstep=True\)", ("x32",)),
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
    """A fiftieth of the scaled-down grid (other cases than the stored ones), x64 on."""
    cases = _sample(_family(all_cases(small=True), family), 50)
    bad = _live(live_jax, cases, "x64")
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
