"""Result dtypes of the functional face against JAX's (issue 12, "JAX programs run unchanged").

Also the result types of the expressions of ``jax_dtype_sweep_cases.EXPRESSIONS`` (weakly
typed Python scalars meeting arrays, loop carries, ``has_aux`` outputs, which JAX returns as
they are: Python scalars stay Python scalars outside ``jit``).

Every public function of ``fgrad.numpy``, ``fgrad.numpy.linalg``/``fft``,
``fgrad.scipy.special``, ``fgrad.nn`` and the unary math of ``fgrad.lax`` is called on each
input dtype (``tests/jax_dtype_sweep_cases.py``), with 64-bit types on and off, and its output
dtypes are compared with JAX's: the stored table (``tests/stored/jax_dtypes.json``, JAX 0.10.2,
written by ``tools/make_jax_dtype_table.py``) always, and live JAX when it is installed.  Only
calls JAX accepts are compared (JAX's errors are its own checks, tested elsewhere).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.nn
import fgrad.numpy as fnp
import fgrad.scipy.special
from fgrad.core import x64_mode
from jax_dtype_sweep_cases import DTYPES, decode_row, evaluate, make_input, result

_TABLE = json.loads((Path(__file__).parent / "stored" / "jax_dtypes.json").read_text())
STORED = _TABLE["cases"]
STORED_EXPRESSIONS = _TABLE["expressions"]
FGRAD_NAMES = {"jnp": fnp, "lax": fgrad.lax, "jax": fgrad, "np": np}
MODULES = {"numpy": fnp, "linalg": fnp.linalg, "fft": fnp.fft, "special": fgrad.scipy.special,
           "lax": fgrad.lax, "nn": fgrad.nn}

_COMPLEX = ("complex64",)
_BOTH = ("x64", "x32")
# (function, x64 modes, input dtypes) where fgrad still differs from JAX: each entry is checked
# to differ (an entry that starts to agree fails, to be removed from here)
_KNOWN = [
    # complex arguments JAX computes something for and fgrad rejects (TypeError): owens_t (JAX
    # runs its real-argument series on them and returns complex128)
    ("special.owens_t", _BOTH, _COMPLEX),
    # jnp.select(array, array) takes the arrays' rows as the lists; fgrad wants lists (bool
    # rows agree since round 26: their join with the weak default 0 is the default int)
    ("numpy.select", _BOTH, tuple(d for d in DTYPES if d != "bool")),
]
KNOWN = {(key, mode, dt) for key, modes, dts in _KNOWN for mode in modes for dt in dts}


@contextlib.contextmanager
def x64(enabled: bool):
    before = x64_mode.enabled
    fgrad.config.update("jax_enable_x64", enabled)
    try:
        yield
    finally:
        fgrad.config.update("jax_enable_x64", before)


def _device_for(dtype: str):
    """bfloat16 arrays live on the CPU (CuPy, and the fake device standing in for it, have no
    bfloat16); other inputs on the configured default device."""
    return fgrad.default_device("cpu") if dtype == "bfloat16" else contextlib.nullcontext()


def fgrad_row(key: str, arity: int, mode: str, dtypes=DTYPES) -> dict:
    group, name = key.split(".", 1)
    f = getattr(MODULES[group], name, None)
    if f is None:
        return {dt: "missing" for dt in dtypes}
    out = {}
    with x64(mode == "x64"):
        for dt in dtypes:
            with _device_for(dt):
                x = make_input(fnp.asarray, dt, fnp.bfloat16)
                out[dt] = result(f, x, arity, fgrad.tree_util.tree_leaves)
    return out


def differences(key: str, mode: str, want: dict, got: dict) -> list[str]:
    bad = []
    for dt, w in want.items():
        if w == "error":
            continue
        known = (key, mode, dt) in KNOWN
        if (got[dt] != w) != known:
            bad.append(f"{key}({dt}) [{mode}]: fgrad {got[dt]}, JAX {w}"
                       + (" (listed in KNOWN but agrees now)" if known else ""))
    return bad


@pytest.mark.parametrize("mode", ["x64", "x32"])
@pytest.mark.parametrize("key", sorted(STORED))
def test_result_dtypes_as_stored_jax(key, mode):
    entry = STORED[key]
    want = decode_row(entry[mode])
    if all(w == "error" for w in want.values()):
        pytest.skip("JAX takes none of the swept inputs")
    got = fgrad_row(key, entry["arity"], mode)
    bad = differences(key, mode, want, got)
    assert not bad, "\n".join(bad)


@pytest.fixture(scope="module")
def live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    special = pytest.importorskip("jax.scipy.special")
    nn = pytest.importorskip("jax.nn")
    before = jax.config.jax_enable_x64
    yield jax, {"numpy": jnp, "linalg": jnp.linalg, "fft": jnp.fft, "special": special, "lax": jax.lax,
                "nn": nn}
    jax.config.update("jax_enable_x64", before)


# the live check covers the float-only families (a sample; the stored table has the rest)
LIVE = ["numpy.sin", "numpy.exp", "numpy.sqrt", "numpy.true_divide", "numpy.mean", "numpy.var",
        "numpy.std", "numpy.average", "numpy.arctan2", "numpy.sinc", "numpy.i0",
        "linalg.inv", "linalg.norm", "fft.fft", "special.erf", "special.gammaln", "nn.sigmoid",
        "nn.softmax", "lax.sin"]


@pytest.mark.slow  # JAX compiles each function for each dtype: seconds a case
@pytest.mark.parametrize("mode", ["x64", "x32"])
@pytest.mark.parametrize("key", LIVE)
def test_result_dtypes_as_live_jax(live_jax, key, mode):
    jax, modules = live_jax
    group, name = key.split(".", 1)
    f = getattr(modules[group], name)
    jax.config.update("jax_enable_x64", mode == "x64")
    arity = STORED[key]["arity"]
    want = {dt: result(f, make_input(jax.numpy.asarray, dt, fnp.bfloat16), arity, jax.tree_util.tree_leaves)
            for dt in DTYPES}
    bad = differences(key, mode, want, fgrad_row(key, arity, mode))
    assert not bad, "\n".join(bad)


def test_issue_examples():
    """The dtypes the issue measured, with the values: float-only functions of integers
    compute in float32 (64-bit integers in float64), and so do true division and mean."""
    for dt, want in [("int8", "float32"), ("uint8", "float32"), ("bool", "float32"), ("int16", "float32"),
                     ("int32", "float32"), ("int64", "float64")]:
        x = fnp.asarray(np.array([1, 0, 1], dt))
        for f in (fnp.sin, fnp.exp, fnp.sqrt):
            y = f(x)
            assert y.dtype == want, (f.__name__, dt, y.dtype)
            want_values = getattr(np, f.__name__)(np.array([1.0, 0.0, 1.0]))
            np.testing.assert_allclose(np.asarray(y), want_values, rtol=1e-6)
        quotient = fnp.true_divide(x, fnp.ones(3, dt))
        assert quotient.dtype == want
        np.testing.assert_array_equal(np.asarray(quotient), [1.0, 0.0, 1.0])
        assert fnp.mean(x).dtype == want
        np.testing.assert_allclose(float(fnp.mean(x)), 2 / 3, rtol=1e-6)
    for dt in ("int8", "int16", "int32", "uint8"):
        assert (fnp.ones(3, dt) / 2).dtype == np.float32
    b = fnp.asarray(np.array([True, False]))
    half = b / 2  # the weak int 2 promotes bool to the default int first: float64, weak
    assert (half.dtype, half.weak_type) == (np.float64, True)
    np.testing.assert_array_equal(np.asarray(half), [0.5, 0.0])
    with x64(False):
        assert (fnp.asarray(np.array([True, False])) / 2).dtype == np.float32
        assert fnp.sin(fnp.ones(3, np.int32)).dtype == np.float32


@pytest.mark.parametrize("mode", ["x64", "x32"])
@pytest.mark.parametrize("expr", sorted(STORED_EXPRESSIONS))
def test_expression_types_as_stored_jax(expr, mode):
    with x64(mode == "x64"):
        got = evaluate(expr, FGRAD_NAMES, fgrad.tree_util.tree_leaves)
    want = STORED_EXPRESSIONS[expr][mode]
    assert got == want, f"{expr} [{mode}]: fgrad {got}, JAX {want}"


@pytest.mark.slow  # JAX compiles each expression
@pytest.mark.parametrize("mode", ["x64", "x32"])
def test_expression_types_as_live_jax(live_jax, mode):
    jax, modules = live_jax
    jax.config.update("jax_enable_x64", mode == "x64")
    names = {"jnp": modules["numpy"], "lax": jax.lax, "jax": jax, "np": np}
    bad = []
    for expr in sorted(STORED_EXPRESSIONS):
        want = evaluate(expr, names, jax.tree_util.tree_leaves)
        with x64(mode == "x64"):
            got = evaluate(expr, FGRAD_NAMES, fgrad.tree_util.tree_leaves)
        if got != want:
            bad.append(f"{expr}: fgrad {got}, JAX {want}")
    assert not bad, "\n".join(bad)


def test_bool_conj_diff_and_numeric_ops_as_jax():
    """conj and diff of bools stay bool (NumPy: int8 and TypeError), Python scalars included;
    numeric-only functions compute bools as int32 (JAX's to_numeric_dtype), values too."""
    b = fnp.asarray(np.array([True, False, True]))
    assert fnp.conj(b).dtype == np.bool_ and fnp.conj(True).dtype == np.bool_
    assert complex(fnp.conj(1 + 2j)) == 1 - 2j
    assert fgrad.jit(fnp.conj)(b).dtype == np.bool_
    np.testing.assert_array_equal(np.asarray(fnp.diff(b)), [True, True])
    for f in (fnp.square, lambda x: x ** 2, lambda x: fnp.power(x, x), lambda x: fnp.mod(x, True)):
        y = f(b)
        assert y.dtype == np.int32, y.dtype
    np.testing.assert_array_equal(np.asarray(b ** 2), [1, 0, 1])
    assert fnp.cumsum(fnp.ones(3, np.int8)).dtype == np.int8  # JAX keeps the integer dtype
