"""The Python array API standard's names and signatures on `fgrad.numpy`, checked against
NumPy 2 (which follows the standard) and against the standard's own wording.  These are the
cases the standard's test suite (data-apis/array-api-tests, docs/conformance.md) found
missing; `test_conformance_subset` runs part of that suite itself when it is beside the
project.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.testing.device_numerics import flushes_float32_subnormals, ftz_nextafter

INT_DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def test_namespace_dunders():
    x = fnp.ones(2)
    assert x.__array_namespace__() is fnp
    assert x.__array_namespace__(api_version="2024.12") is fnp
    with pytest.raises(ValueError, match="api_version"):
        x.__array_namespace__(api_version="1999.01")
    assert fnp.__array_api_version__ == "2024.12"


@pytest.mark.parametrize("kind", ["bool", "signed integer", "unsigned integer", "integral",
                                  "real floating", "complex floating", "numeric",
                                  ("bool", "real floating"), np.float32])
@pytest.mark.parametrize("dtype", [np.bool_, *INT_DTYPES, np.float32, np.float64, np.complex64,
                                   np.complex128])
def test_isdtype_matches_numpy(dtype, kind):
    assert fnp.isdtype(dtype, kind) == np.isdtype(np.dtype(dtype), kind)


def test_isdtype_bad_kind():
    with pytest.raises(ValueError, match="unknown kind"):
        fnp.isdtype(np.float32, "floating")


def test_namespace_info():
    info = fnp.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] is True and caps["data-dependent shapes"] is True
    assert caps["max dimensions"] == 64
    assert info.default_dtypes() == {"real floating": np.float64, "complex floating": np.complex128,
                                     "integral": np.int64, "indexing": np.int64}
    assert set(info.dtypes()) == set(np.__array_namespace_info__().dtypes())
    assert set(info.dtypes(kind="integral")) == set(np.__array_namespace_info__().dtypes(kind="integral"))
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64", "complex128"}
    assert info.default_device() == fgrad.backends.default_device()  # the CPU unless configured
    assert isinstance(info.devices(), list) and "cpu:0" in [str(d) for d in info.devices()]


def test_astype_copy_and_device():
    x = fnp.asarray([1.5, -2.5])
    assert fnp.astype(x, np.float64, copy=False) is x
    y = fnp.astype(x, np.float64)  # copy=True: a new array
    assert y is not x and np.array_equal(np.asarray(y), np.asarray(x))
    assert x.astype(np.float64, copy=False) is x
    np.testing.assert_array_equal(np.asarray(x.astype(np.int32, device="cpu")), [1, -2])
    # still differentiable
    assert float(fgrad.grad(lambda v: fnp.sum(fnp.astype(v, np.float32) * 2.0))(x)[0]) == 2.0


def test_asarray_copy():
    x = fnp.asarray([1.0, 2.0])
    assert fnp.asarray(x, copy=False) is x
    assert fnp.asarray(x) is x
    c = fnp.asarray(x, copy=True)
    assert c is not x and c._buf is not x._buf
    with pytest.raises(ValueError, match="copy=False"):
        fnp.asarray([1, 2], copy=False)


@pytest.mark.parametrize("make", [
    lambda d: fnp.zeros(2, device=d), lambda d: fnp.ones(2, device=d), lambda d: fnp.empty(2, device=d),
    lambda d: fnp.full(2, 3.0, device=d), lambda d: fnp.arange(2, device=d),
    lambda d: fnp.linspace(0, 1, 2, device=d), lambda d: fnp.eye(2, device=d),
    lambda d: fnp.asarray([1, 2], device=d), lambda d: fnp.zeros_like(fnp.ones(2), device=d),
    lambda d: fnp.ones_like(fnp.ones(2), device=d), lambda d: fnp.full_like(fnp.ones(2), 2, device=d),
    lambda d: fnp.empty_like(fnp.ones(2), device=d), lambda d: fnp.fft.fftfreq(4, device=d),
    lambda d: fnp.fft.rfftfreq(4, device=d),
])
def test_creation_device_keyword(make):
    assert str(make("cpu").device) == "cpu:0"
    assert str(make(fgrad.devices("cpu")[0]).device) == "cpu:0"


def test_to_device():
    x = fnp.arange(3.0)
    assert str(fnp.to_device(x, "cpu").device) == "cpu:0"
    assert str(x.to_device("cpu").device) == "cpu:0"
    with pytest.raises(ValueError, match="stream"):
        x.to_device("cpu", stream=1)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(INT_DTYPES), st.lists(st.integers(0, 100), min_size=1, max_size=5),
       st.integers(0, 6))
def test_shifts_match_numpy(dtype, values, amount):
    info = np.iinfo(dtype)
    a = np.asarray([min(v, info.max) for v in values], dtype)
    s = np.asarray(amount, dtype)
    np.testing.assert_array_equal(np.asarray(fnp.bitwise_left_shift(fnp.asarray(a), fnp.asarray(s))),
                                  np.left_shift(a, s))
    np.testing.assert_array_equal(np.asarray(fnp.asarray(a) >> amount), np.right_shift(a, s))
    np.testing.assert_array_equal(np.asarray(fnp.asarray(a) << amount), np.left_shift(a, s))


def test_shift_signed_negative_and_scalar_dtypes():
    a = np.asarray([-8, 8, -1], np.int16)
    np.testing.assert_array_equal(np.asarray(fnp.bitwise_right_shift(fnp.asarray(a), 2)), a >> 2)
    # a Python int takes the array's dtype (array API scalar rule); arrays promote
    assert fnp.bitwise_right_shift(1, fnp.asarray([1], dtype=np.int32)).dtype == np.int32
    assert (1 << fnp.asarray([1], dtype=np.int8)).dtype == np.int8
    assert fnp.bitwise_left_shift(fnp.asarray([1], np.uint8), fnp.asarray([1], np.int8)).dtype == np.int16
    with pytest.raises(TypeError, match="integer operands"):
        fnp.bitwise_left_shift(fnp.asarray([1.0]), 1)


def test_bitwise_invert():
    a = np.asarray([0, 1, -5], np.int8)
    np.testing.assert_array_equal(np.asarray(fnp.bitwise_invert(fnp.asarray(a))), np.bitwise_invert(a))
    np.testing.assert_array_equal(np.asarray(fnp.bitwise_invert(fnp.asarray([True, False]))), [False, True])


@pytest.mark.parametrize("name", ["acos", "acosh", "asin", "asinh", "atan", "atanh"])
def test_inverse_trig_array_api_names(name):
    x = fnp.asarray([0.5, 0.75]) + (1.0 if name == "acosh" else 0.0)
    np.testing.assert_allclose(np.asarray(getattr(fnp, name)(x)), getattr(np, name)(np.asarray(x)))
    g = fgrad.grad(lambda v: fnp.sum(getattr(fnp, name)(v)))(x)
    np.testing.assert_allclose(np.asarray(g), np.asarray(fgrad.grad(
        lambda v: fnp.sum(getattr(fnp, "arc" + name[1:])(v)))(x)))
    np.testing.assert_allclose(float(fnp.atan2(1.0, 2.0)), np.arctan2(1.0, 2.0))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([np.float32, np.float64]),
       st.lists(st.floats(-1e6, 1e6, width=32), min_size=1, max_size=4),
       st.floats(-1e6, 1e6, width=32) | st.sampled_from([np.inf, -np.inf, 0.0, -0.0, np.nan]))
@example(np.float32, [1.1754943508222875e-38, 0.0, -1e-42], -0.0)  # to and from the subnormals
@example(np.float32, [0.0, -0.0], 1.0)
def test_nextafter_matches_numpy(dtype, xs, y):
    a = np.asarray(xs, dtype)
    b = np.asarray(y, dtype)
    out = fnp.nextafter(fnp.asarray(a), fnp.asarray(b))
    assert out.dtype == dtype
    # on a device that flushes float32 subnormals (cupy), nextafter skips them as CUDA's does
    want = ftz_nextafter(a, b) if flushes_float32_subnormals() else np.nextafter(a, b)
    np.testing.assert_array_equal(np.asarray(out), want)


def test_nextafter_derivative():
    # nextafter(x, y) = x + a step constant between binades: d/dx = 1, d/dy = 0
    gx, gy = fgrad.grad(lambda x, y: fnp.sum(fnp.nextafter(x, y)), argnums=(0, 1))(
        fnp.asarray([1.5, -3.0]), fnp.asarray([2.0, 0.0]))
    np.testing.assert_array_equal(np.asarray(gx), [1.0, 1.0])
    np.testing.assert_array_equal(np.asarray(gy), [0.0, 0.0])


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(0, 3), st.integers(0, 1), st.booleans(), st.booleans())
def test_diff_matches_numpy(length, n, axis, prepend, append):
    a = np.arange(2 * length * 3, dtype=np.float64).reshape(2, length * 3) ** 2
    kw = {}
    if prepend:
        kw["prepend"] = 1.5
    if append:
        kw["append"] = np.ones((2, 1) if axis == 1 else (1, length * 3))
    np.testing.assert_array_equal(np.asarray(fnp.diff(fnp.asarray(a), n, axis, **kw)),
                                  np.diff(a, n, axis, **kw))


def test_diff_gradient_and_errors():
    # d/dx sum(diff(x)**2) for x = [1, 3, 2]: diffs [2, -1] -> [-4, 4 + 2, -2]
    g = fgrad.grad(lambda x: fnp.sum(fnp.diff(x) ** 2))(fnp.asarray([1.0, 3.0, 2.0]))
    np.testing.assert_array_equal(np.asarray(g), [-4.0, 6.0, -2.0])
    with pytest.raises(ValueError, match="non-negative"):
        fnp.diff(fnp.ones(3), -1)
    with pytest.raises(ValueError, match="scalar"):
        fnp.diff(fnp.asarray(1.0))


def test_std_var_correction():
    a = np.asarray([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]])
    x = fnp.asarray(a)
    np.testing.assert_allclose(np.asarray(fnp.var(x, axis=1, correction=1)), np.var(a, axis=1, correction=1))
    np.testing.assert_allclose(np.asarray(fnp.std(x, correction=1.5)), np.std(a, correction=1.5))
    np.testing.assert_allclose(np.asarray(x.std(axis=0, correction=1)), a.std(axis=0, ddof=1))
    with pytest.raises(ValueError, match="not both"):
        fnp.var(x, ddof=1, correction=1)


def test_signatures_follow_the_standard():
    assert list(inspect.signature(fnp.clip).parameters)[:3] == ["a", "min", "max"]
    assert list(inspect.signature(fnp.reshape).parameters)[:2] == ["a", "shape"]
    assert "copy" in inspect.signature(fnp.reshape).parameters
    np.testing.assert_array_equal(np.asarray(fnp.clip(fnp.asarray([-2.0, 0.5, 3.0]), -1.0, 1.0)),
                                  [-1.0, 0.5, 1.0])
    np.testing.assert_array_equal(np.asarray(fnp.clip(fnp.asarray([-2.0, 3.0]), a_min=0.0)), [0.0, 3.0])
    assert fnp.reshape(fnp.arange(6), shape=(2, 3)).shape == (2, 3)
    assert fnp.reshape(fnp.arange(6), newshape=(3, 2)).shape == (3, 2)
    assert fnp.reshape(fnp.arange(6), (2, 3), copy=True).shape == (2, 3)


def test_unique_named_results_nan_distinct():
    a = np.asarray([np.nan, 1.0, np.nan, 1.0, 0.5])
    x = fnp.asarray(a)
    for name, fields in (("unique_all", ("values", "indices", "inverse_indices", "counts")),
                         ("unique_counts", ("values", "counts")),
                         ("unique_inverse", ("values", "inverse_indices"))):
        got, want = getattr(fnp, name)(x), getattr(np, name)(a)
        assert got._fields == fields
        for f in fields:
            np.testing.assert_array_equal(np.asarray(getattr(got, f)), getattr(want, f))
    np.testing.assert_array_equal(np.asarray(fnp.unique_values(x)), np.unique_values(a))
    values, counts = fnp.unique_counts(fnp.asarray([2, 1, 2]))  # still a tuple
    np.testing.assert_array_equal(np.asarray(counts), [1, 2])


# beside the project (CI's clone and the main checkout have ../shared); FGRAD_CONFORMANCE_DIR overrides
@pytest.mark.parametrize("idx", [False, (False,), (Ellipsis, False), (0, False), (None, False, 1),
                                 (np.bool_(False), slice(None)), "array False"])
def test_scalar_false_index_selects_nothing(idx):
    a = np.arange(6.0).reshape(2, 3)
    x = fnp.asarray(a)
    fidx, nidx = (fnp.asarray(False), np.asarray(False)) if idx == "array False" else (idx, idx)
    out = x[fidx]
    assert out.shape == a[nidx].shape and out.dtype == a.dtype
    assert fgrad.jit(lambda v: v[fidx])(x).shape == a[nidx].shape
    # an empty selection contributes nothing to the gradient
    g = fgrad.grad(lambda v: fnp.sum(v[fidx]) + fnp.sum(v))(x)
    np.testing.assert_array_equal(np.asarray(g), np.ones_like(a))
    assert fgrad.vmap(lambda v: v[False])(x).shape == a[:, False].shape


CONFORMANCE = Path(os.environ.get("FGRAD_CONFORMANCE_DIR")
                   or Path(__file__).resolve().parents[2] / "shared" / "conformance") / "array-api-tests"


def _suite_deps_present() -> bool:
    try:
        import ndindex  # noqa: F401
        import pytest_jsonreport  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not CONFORMANCE.is_dir() or not _suite_deps_present(),
                    reason="the array API test suite (../shared/conformance) or its deps "
                           "(ndindex, pytest-json-report) are absent")
def test_conformance_subset():
    """The fast modules of the standard's suite (names, signatures, inspection, set and
    data-type functions), few examples: every test passes."""
    modules = ["test_has_names.py", "test_signatures.py", "test_inspection_functions.py",
               "test_set_functions.py", "test_data_type_functions.py"]
    # the ones NumPy fails too (finfo's eps as a NumPy scalar, dlpack: built elsewhere)
    deselect = "not finfo and not dlpack"
    env = dict(os.environ, ARRAY_API_TESTS_MODULE="fgrad.numpy", ARRAY_API_TESTS_VERSION="2024.12",
               PYTHONPATH=os.pathsep.join([str(Path(fgrad.__file__).parents[1]),
                                           os.environ.get("PYTHONPATH", "")]),
               HYPOTHESIS_STORAGE_DIRECTORY=os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                         "fgrad-array-api-subset"))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-W", "ignore", "--max-examples=5",
         "--disable-deadline", "--derandomize", "-k", deselect, *[f"array_api_tests/{m}" for m in modules]],
        cwd=CONFORMANCE, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:]
