"""What differs on a GPU, and fgrad's fixes for it (docs/gpu_numerics.md), on the fake device.

The fake device (`fgrad.testing.fake_device`) emulates the cupy behaviour these tests rely
on, so each failure seen on a real GPU reproduces on the CPU:

* cupy's ``ndarray.fill`` writes zero bytes for any value equal to 0, and ``cupy.asarray``
  of 0-d host data and ``cupy.full`` go through it: a ``-0.0`` arrives as ``+0.0`` unless
  fgrad uploads and fills around it (`fgrad.backends.upload` / `fgrad.backends.full`);
* float32 subnormals flush to zero (CUDA's ``-ftz=true``) where the backend says so
  (``Backend.flushes_float32_subnormals``).
"""

from __future__ import annotations

import math
import types

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import backends as B
from fgrad import lax
from fgrad.testing import device_numerics as DN
from fgrad.testing import fake_device


@pytest.fixture
def on_fake():
    """The fake device as the default device for the test."""
    with fake_device.installed(default=True) as be:
        yield be


def _host(x):
    """A host copy of an Array or a raw device buffer."""
    return x.get() if isinstance(x, fake_device.FakeDeviceArray) else fgrad.device_get(x)


def _signbits(x):
    return np.signbit(np.asarray(_host(x)))


# ---------------------------------------------------------------------------------------
# negative zero through cupy's fill


def test_the_fake_device_fills_zero_bytes_like_cupy(on_fake):
    """The emulated cupy behaviour itself: a 0-d upload through ``xp.asarray`` and ``xp.full``
    with ``-0.0`` give ``+0.0`` (what cupy's ``fill`` does), so fgrad must avoid them."""
    xp = on_fake.xp
    assert not _signbits(xp.asarray(np.array(-0.0)))
    assert not _signbits(xp.full(3, -0.0)).any()
    assert _signbits(xp.asarray(np.array([-0.0]))).all()  # 1-d data is copied byte for byte


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_negative_zero_survives_upload_and_fill_on_a_device(on_fake, dtype):
    """``fnp.asarray`` of 0-d host data, ``fnp.full``/``full_like`` and ``lax.pad`` keep the
    sign of ``-0.0`` on a device (on cupy they lost it: lax.atan2(-0., -0.) gave 0 and
    -0.785 / -0. gave -inf in the op table's GPU run)."""
    neg0 = np.array(-0.0, dtype)
    assert _signbits(fnp.asarray(neg0))
    assert _signbits(fnp.asarray(dtype(-0.0)))
    assert _signbits(fnp.full((), -0.0, dtype))
    assert _signbits(fnp.full(3, -0.0, dtype)).all()
    assert _signbits(fnp.full_like(fnp.ones(2, dtype), -0.0)).all()
    assert _signbits(lax.pad(fnp.ones(2, dtype), dtype(-0.0), [(1, 1, 0)]))[[0, 3]].all()
    y = lax.atan2(fnp.asarray(neg0), fnp.asarray(neg0))
    assert float(_host(y)) == pytest.approx(-math.pi)
    q = fnp.true_divide(fnp.asarray(np.array([-0.785], dtype)), fnp.asarray(neg0))
    assert _host(q)[0] == np.inf


def test_cupy_backend_uploads_0d_data_byte_for_byte():
    """`CupyBackend.from_host` on a stand-in cupy whose ``asarray`` fills 0-d data the way
    cupy does: ``-0.0`` (0-d, float32 and float64) keeps its sign."""
    from fgrad.backends.cupy_backend import CupyBackend

    runtime = types.SimpleNamespace(getDeviceCount=lambda: 1, getDevice=lambda: 0)
    stub = types.SimpleNamespace(
        asarray=lambda a: fake_device._cupy_asarray_of_host(np.asarray(a)), ndarray=np.ndarray,
        cuda=types.SimpleNamespace(runtime=runtime))
    assert not np.signbit(stub.asarray(np.array(-0.0)))  # what cupy itself does
    be = CupyBackend(stub)
    for dt in (np.float32, np.float64):
        out = be.from_host(np.array(-0.0, dt))
        assert out.shape == () and out.dtype == dt and np.signbit(out)
    assert be.flushes_float32_subnormals and not be.rounds_like_numpy


def test_full_keeps_negative_zero_on_every_backend():
    """`fgrad.backends.full` is ``xp.full`` with the sign of a zero fill value kept."""
    assert np.signbit(B.full(np, (2,), -0.0, np.float32)).all()
    assert not np.signbit(B.full(np, (2,), 0.0)).any()
    assert B.full(np, (2,), -0, np.int32).tolist() == [0, 0]
    assert B.is_negative_zero(np.float32(-0.0)) and not B.is_negative_zero(np.float32(0.0))


# ---------------------------------------------------------------------------------------
# exact powers of two (frexp / ldexp)


@pytest.fixture
def exp2_one_ulp_low(monkeypatch, on_fake):
    """A device whose ``exp2`` is one ulp below the exact value, as CUDA's ``exp2`` may be
    (its documented error is up to 2 ulps, also at integer arguments)."""
    plain = fake_device.FakeDeviceArray.__array_ufunc__

    def sloppy(self, ufunc, method, *inputs, **kwargs):
        out = plain(self, ufunc, method, *inputs, **kwargs)
        if ufunc is np.exp2 and method == "__call__":
            host = out.get()
            out = on_fake.from_host(np.nextafter(host, np.zeros_like(host)))
        return out

    monkeypatch.setattr(fake_device.FakeDeviceArray, "__array_ufunc__", sloppy)
    x = fnp.asarray(np.array([-512.0]))
    assert _host(fnp.exp2(x))[0] < 2.0 ** -512  # the emulation is active


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_frexp_and_ldexp_do_not_rely_on_an_exact_exp2(exp2_one_ulp_low, dtype):
    """frexp/ldexp build their powers of two from bits: on cupy, exp2(-512) was an ulp off and
    frexp(2.0**1023) gave (0.9999999999999999, 1023) instead of (0.5, 1024)."""
    fi = np.finfo(dtype)
    x = np.array([fi.max, 2.0 ** (fi.maxexp - 1), fi.tiny, 0.75, -3.0, fi.smallest_subnormal], dtype)
    m, e = fnp.frexp(x)
    np.testing.assert_array_equal(_host(m), np.frexp(x)[0])
    np.testing.assert_array_equal(_host(e), np.frexp(x)[1])
    ex = np.array([-5, 3, 40, -1, 7, 2])
    np.testing.assert_array_equal(_host(fnp.ldexp(x[2:5], ex[2:5])), np.ldexp(x[2:5], ex[2:5]))


# ---------------------------------------------------------------------------------------
# the references tests use on a device (fgrad.testing.device_numerics)


def test_backends_say_whether_they_flush_and_round_like_numpy(on_fake):
    assert not B.NUMPY.flushes_float32_subnormals and B.NUMPY.rounds_like_numpy
    assert not DN.flushes_float32_subnormals("numpy") and DN.rounds_like_numpy("numpy")
    assert DN.rounds_like_numpy("fake")  # the fake device computes with NumPy's loops


def test_flush_subnormals_only_touches_float32_subnormals():
    x = np.array([1e-40, -1e-40, 1e-45, -0.0, 1.2e-38, 3.0, np.nan], np.float32)
    out = DN.flush_subnormals(x)
    np.testing.assert_array_equal(out, [0, 0, 0, 0, np.float32(1.2e-38), 3, np.nan])
    np.testing.assert_array_equal(np.signbit(out), [False, True, False, True, False, False, False])
    d = np.array([1e-310, 5e-324])
    assert DN.flush_subnormals(d) is d  # float64 subnormals survive -ftz


def test_ftz_nextafter_and_spacing_skip_the_subnormals():
    tiny = np.finfo(np.float32).tiny
    x = np.array([0.0, -0.0, tiny, -tiny, 1.0, 1e-40], np.float32)
    y = np.array([1.0, -1.0, 0.0, 0.0, 2.0, 1.0], np.float32)
    got = DN.ftz_nextafter(x, y)
    np.testing.assert_array_equal(got, [tiny, -tiny, 0.0, -0.0, np.nextafter(np.float32(1), np.float32(2)),
                                        tiny])
    assert np.signbit(got[3]) and not np.signbit(got[2])
    np.testing.assert_array_equal(DN.ftz_spacing(np.array([0.0, -0.0, 1.0, np.inf], np.float32)),
                                  [tiny, tiny, np.spacing(np.float32(1)), np.nan])
    np.testing.assert_array_equal(DN.ftz_nextafter(np.array([0.0]), np.array([1.0])), [5e-324])


def test_ulp_distance_counts_representable_floats():
    one = np.float32(1)
    up = [one]
    for _ in range(3):
        up.append(np.nextafter(up[-1], np.float32(2)))
    assert DN.ulp_distance(one, up[3]) == 3
    assert DN.ulp_distance(np.float32(-0.0), np.float32(0.0)) == 0
    assert DN.ulp_distance(np.float32(-1e-45), np.float32(1e-45)) == 2  # across zero
    assert DN.ulp_distance(np.nan, np.nan) == 0 and DN.ulp_distance(np.nan, 1.0) > 10**9


def test_equal_up_to_device_ulps_is_exact_unless_the_backend_says_otherwise(on_fake, monkeypatch):
    a = np.array([1.0, 2.0])
    b = np.nextafter(a, 3.0)
    DN.assert_equal_up_to_device_ulps(a, a.copy())
    with pytest.raises(AssertionError):  # the fake device rounds like NumPy: exact
        DN.assert_equal_up_to_device_ulps(a, b)
    monkeypatch.setattr(on_fake, "rounds_like_numpy", False)  # as cupy's backend says
    DN.assert_equal_up_to_device_ulps(fnp.asarray(a), b, ulps=1)
    with pytest.raises(AssertionError, match="ulps apart"):
        DN.assert_equal_up_to_device_ulps(a, np.nextafter(b, 3.0), ulps=1)
    with pytest.raises(AssertionError):  # integers stay exact
        DN.assert_equal_up_to_device_ulps(np.array([1, 2]), np.array([1, 3]))


def test_fake_device_flushes_float32_subnormals_when_it_stands_in_for_cupy(on_fake, monkeypatch):
    monkeypatch.setattr(on_fake, "flushes_float32_subnormals", True)
    x = on_fake.from_host(np.array([1e-42, -1e-42, 1.0], np.float32))
    np.testing.assert_array_equal(_host(np.ceil(x)), [0.0, -0.0, 1.0])
    np.testing.assert_array_equal(_host(x > 0), [False, False, True])
    np.testing.assert_array_equal(_host(x.astype(np.float64)), [0.0, 0.0, 1.0])
    assert _host(np.signbit(x)).tolist() == [False, True, False]  # a bit test: no flush
    y = on_fake.from_host(np.array([1e-42], np.float64))
    assert _host(y * 1.0)[0] == 1e-42  # float64 keeps its subnormals


def test_equal_up_to_summation_order_is_exact_unless_the_backend_says_otherwise(on_fake, monkeypatch):
    """A product with cancellation: an entry near zero is many ulps off on a GPU (seen on an
    H200: a CNN gradient 64 ulps apart) while the whole is exact to rounding in norm."""
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((8, 64)).astype(np.float32), rng.standard_normal(64).astype(np.float32)
    want = a @ b
    other_order = (a[:, ::-1] @ b[::-1]).astype(np.float32)  # the same sums added backwards
    DN.assert_equal_up_to_summation_order(want, want.copy())
    if not np.array_equal(other_order, want):
        with pytest.raises(AssertionError):  # the fake device rounds like NumPy: exact
            DN.assert_equal_up_to_summation_order(other_order, want)
    monkeypatch.setattr(on_fake, "rounds_like_numpy", False)  # as cupy's backend says
    DN.assert_equal_up_to_summation_order(fnp.asarray(other_order), want)
    with pytest.raises(AssertionError, match="relative difference"):
        DN.assert_equal_up_to_summation_order(want * 1.001, want)
    with pytest.raises(AssertionError):  # a NaN or infinity must sit where the reference has it
        DN.assert_equal_up_to_summation_order(np.array([1.0, np.inf]), np.array([1.0, 2.0]))
    with pytest.raises(AssertionError):  # integers stay exact
        DN.assert_equal_up_to_summation_order(np.array([1, 2]), np.array([1, 3]))
