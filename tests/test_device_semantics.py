"""Where cupy's semantics differ from NumPy's, fgrad must give NumPy's (JAX's) numbers on every
backend.  The fake device (`fgrad.testing.fake_device`) emulates each cupy behaviour listed
here, so these run without a GPU; each one failed on a real H100 (cupy 14.2) before its fix.

* ``a[idx] = v`` with repeated targets: cupy lands any one of the updates (NumPy: the last);
* ``minimum.at`` / ``maximum.at``: cupy's CUDA atomics go through ``fminf``/``fmaxf``, so
  float64 results are rounded to float32 and NaNs are ignored;
* batched ``matmul`` with a broadcast batch axis: cupy raises ``OverflowError`` on a
  negative batch stride (left on a size-1 axis by a flip).
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from _set_checks import check_per_example_set_jacobian
from fgrad import lax
from fgrad.ops.segment import segment_max
from fgrad.testing import check_grads, fake_device

FD = fake_device.FakeDeviceArray


@pytest.fixture
def on_fake():
    """The fake device is the default device inside the test."""
    with fake_device.installed(default=True) as be:
        yield be


A = np.random.default_rng(7).normal


# ---------------------------------------------------------------------------------------
# the emulation itself


def test_fake_fancy_assignment_does_not_promise_last_wins(on_fake):
    a = on_fake.from_host(np.zeros(4))
    a[np.array([1, 1, 2, 1])] = on_fake.from_host(np.array([10.0, 11.0, 12.0, 13.0]))
    assert a.get().tolist() == [0.0, 10.0, 12.0, 0.0]  # first wins here; NumPy: 13 at 1
    b = on_fake.from_host(np.zeros((2, 3)))
    b[np.array([0, 0]), 1:] = 5.0  # scalars and basic parts still work
    assert b.get().tolist() == [[0.0, 5.0, 5.0], [0.0, 0.0, 0.0]]


def test_fake_min_max_at_round_float64_and_ignore_nans_like_cupys_atomics(on_fake):
    x = 1.0 + 2.0**-40
    a = on_fake.from_host(np.array([5.0, 5.0, 7.0]))
    on_fake.xp.minimum.at(a, on_fake.from_host(np.array([0, 1])), on_fake.from_host(np.array([x, np.nan])))
    assert a.get().tolist() == [1.0, 5.0, 7.0]  # rounded through float32; the NaN lost


def test_fake_batched_matmul_rejects_negative_batch_strides_like_cupy(on_fake):
    w = on_fake.from_host(np.arange(6.0).reshape(1, 3, 2))[::-1]  # stride < 0 on the size-1 axis
    assert w.strides[0] < 0 and w.flags.c_contiguous
    x = on_fake.from_host(np.ones((2, 1, 2, 4)))
    with pytest.raises(OverflowError, match="out of bounds for uint64"):
        on_fake.xp.matmul(w, x)
    with pytest.raises(OverflowError, match="out of bounds for uint64"):
        w @ x
    assert on_fake.xp.matmul(w.copy(), x).shape == (2, 1, 3, 4)


# ---------------------------------------------------------------------------------------
# .at[].set with repeated indices: the last update wins


def test_set_with_repeated_indices_is_last_wins_on_a_device(on_fake):
    idx = np.array([1, 1, 2, 1, 0])
    v = np.array([10.0, 11.0, 12.0, 13.0, 14.0])
    want = np.zeros(4)
    want[idx] = v
    got = fnp.zeros(4).at[idx].set(v)
    assert isinstance(got._buf, FD)
    np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(fgrad.jit(lambda z, u: z.at[idx].set(u))(fnp.zeros(4), v)), want)
    # two index arrays, a broadcast update row, a slice between
    x = A(size=(3, 2, 4))
    i0, i2 = np.array([[2, 0], [2, 2]]), np.array([[1, 3], [1, 1]])
    u = A(size=(2, 2, 2))
    want = x.copy()
    want[i0, :, i2] = u
    np.testing.assert_array_equal(np.asarray(fnp.asarray(x).at[i0, :, i2].set(u)), want)


def test_set_gradient_with_repeated_indices_goes_to_the_last_update_on_a_device(on_fake):
    idx = np.array([1, 1, 2, 1])
    g = fgrad.grad(lambda v: fnp.sum(fnp.zeros(4).at[idx].set(v) * fnp.arange(1.0, 5.0)))(fnp.ones(4))
    np.testing.assert_array_equal(np.asarray(g), [0.0, 0.0, 3.0, 2.0])
    check_per_example_set_jacobian()


# ---------------------------------------------------------------------------------------
# .at[].min / .max: exact, NaN-propagating, every dtype


@pytest.mark.parametrize("mode,ufunc", [("min", np.minimum), ("max", np.maximum)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32])
def test_min_max_with_repeated_indices_are_numpys_on_a_device(on_fake, mode, ufunc, dtype):
    x = (A(size=(6, 3)) * 10).astype(dtype)
    v = (A(size=(6, 3)) * 10).astype(dtype)
    idx = np.array([0, 2, 0, 5, 2, 0])
    want = x.copy()
    ufunc.at(want, (idx, slice(None)), v)
    got = getattr(fnp.asarray(x).at[idx], mode)(v)
    assert isinstance(got._buf, FD)
    np.testing.assert_array_equal(np.asarray(got), want)
    if np.dtype(dtype).kind == "f":  # NaN propagates (minimum, not fmin)
        v[1, 0] = np.nan
        want = x.copy()
        ufunc.at(want, (idx, slice(None)), v)
        np.testing.assert_array_equal(np.asarray(getattr(fnp.asarray(x).at[idx], mode)(v)), want)


@pytest.mark.parametrize("mode", ["min", "max"])
def test_min_max_gradients_on_a_device(on_fake, mode):
    idx = (np.array([0, 2, 0, 3]), slice(1, None))
    xn, vn = A(size=(4, 3)), A(size=(4, 2))
    check_grads(lambda x, v: getattr(fnp.asarray(x).at[idx], mode)(v) * fnp.cos(x), [xn, vn], order=2)
    check_grads(lambda x, v: getattr(fnp.asarray(x).at[np.array([3, 1])], mode)(v), [A(size=5), A(size=2)],
                order=1)


def test_segment_max_gradient_on_a_device(on_fake):
    data = np.array([[1.1, -2.3], [3.7, 0.55], [-4.1, 2.9], [0.25, 8.0], [5.3, -1.3]])  # not float32
    ids = np.array([2, 0, 2, 7, 0])  # 7: dropped
    np.testing.assert_array_equal(np.asarray(segment_max(data, ids, 4))[[0, 2]], [[5.3, 0.55], [1.1, 2.9]])

    def loss(d):
        return fnp.sum(segment_max(d, ids, 4)[np.array([0, 2])] * fnp.arange(1.0, 3.0))

    g = fgrad.grad(loss)(fnp.asarray(data))
    want = np.zeros_like(data)  # each maximum gets its column's weight
    want[4, 0] = want[0, 0] = 1.0  # segment 0: max(3.7, 5.3); segment 2: max(1.1, -4.1)
    want[1, 1] = want[2, 1] = 2.0  # segment 0: max(0.55, -1.3); segment 2: max(-2.3, 2.9)
    np.testing.assert_array_equal(np.asarray(g), want)


# ---------------------------------------------------------------------------------------
# batched matmul of a flipped kernel (convolve under vmap)


def test_convolve_under_vmap_of_derivatives_on_a_device(on_fake):
    rng = np.random.default_rng(31)
    a, vb = rng.normal(size=2), rng.normal(size=(4, 2))
    ta, tv, ct = rng.normal(size=(2, 2)), rng.normal(size=(4, 2)), rng.normal(size=(2, 5))

    def f(a, v):
        return fnp.convolve(a, v, "full")

    def jvp_fn(a, v, ta, tv):
        return fgrad.jvp(f, (a, v), (ta, tv))[1]

    def vjp_fn(a, v, ct):
        return fgrad.vjp(f, a, v)[1](ct)

    got = fgrad.vmap(jvp_fn, in_axes=(None, -1, 0, -1))(*map(fnp.asarray, (a, vb, ta, tv)))
    want = [np.convolve(ta[k], vb[:, k]) + np.convolve(a, tv[:, k]) for k in range(2)]
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)
    ga, gv = fgrad.vmap(vjp_fn, in_axes=(None, -1, 0))(*map(fnp.asarray, (a, vb, ct)))
    for k in range(2):
        np.testing.assert_allclose(np.asarray(ga)[k], np.correlate(ct[k], vb[:, k], "valid"), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(gv)[k], np.correlate(ct[k], a, "valid"), rtol=1e-12)


# ---------------------------------------------------------------------------------------
# jit: Python scalars in compiled programs (cupy's array functions take only cupy arrays)


def test_fake_array_functions_and_where_reject_python_scalars_like_cupy(on_fake):
    xp = on_fake.xp
    with pytest.raises(AttributeError, match="has no attribute 'reshape'"):
        xp.reshape(3, (1,))
    y = on_fake.from_host(np.ones(2))
    with pytest.raises(AttributeError, match="has no attribute 'astype'"):
        xp.where(True, y, y)
    with pytest.raises(AttributeError, match="has no attribute 'astype'"):
        np.where(True, y, y)
    assert xp.where(np.bool_(True), y, y).get().tolist() == [1.0, 1.0]


def test_jit_with_a_python_int_argument_reaching_array_functions_on_a_device(on_fake):
    f = fgrad.jit(lambda h, c: h * fgrad.nn.one_hot(c, 4))  # char_rnn.py's next_char
    got = f(fnp.ones(4), 2)
    assert isinstance(got._buf, FD)
    np.testing.assert_array_equal(np.asarray(got), [0.0, 0.0, 1.0, 0.0])
    np.testing.assert_array_equal(np.asarray(fgrad.jit(lambda c: fnp.reshape(c, (1, 1)))(3.5)), [[3.5]])


def test_jit_select_with_a_literal_condition_on_a_device(on_fake):
    def f(x):
        stop = fnp.asarray(False)
        return lax.while_loop(lambda s: ~s[1] & (s[0] < 3.0), lambda s: (s[0] + 1.0, s[1]), (x, stop))[0]

    np.testing.assert_array_equal(np.asarray(fgrad.jit(f)(fnp.asarray(0.5))), 3.5)
    got = fgrad.jit(lambda x: fnp.where(True, x, -x))(fnp.arange(3.0))
    np.testing.assert_array_equal(np.asarray(got), [0.0, 1.0, 2.0])
    # weakly typed 0-d values are Python scalars in a compiled program (minimize's status):
    # a comparison of one is a Python bool condition
    def g(x):
        status = fnp.where(x[1] > 0, 0, -1)
        return fnp.where(status < 0, fnp.where(x[2] > 0, 1, 2), status)

    assert int(fgrad.jit(g)(fnp.arange(3.0))) == 0
    assert int(fgrad.jit(g)(-fnp.arange(3.0))) == 2


@pytest.mark.parametrize("mode,ufunc", [("set", None), ("multiply", np.multiply), ("min", np.minimum),
                                        ("max", np.maximum)])
def test_scatter_into_a_transposed_operand_on_a_device(on_fake, mode, ufunc):
    """A device scatter pads its operand (for dropped indices); a transposed operand pads to
    a Fortran-ordered copy, whose ``reshape(-1)`` is a copy too: updates written through it
    were lost (``put_along_axis`` under vmap)."""
    x = A(size=(4, 3))
    idx = np.array([2, 0, 2, 1])
    v = A(size=(3, 4))
    xt = fnp.asarray(x).T  # (3, 4), not C-contiguous on the device
    assert not xt._buf.flags.c_contiguous
    want = x.T.copy()
    if ufunc is None:
        want[:, idx] = v
    else:
        ufunc.at(want, (slice(None), idx), v)
    got = getattr(xt.at[:, idx], mode)(v)
    np.testing.assert_array_equal(np.asarray(got), want)


def test_eager_array_functions_of_host_scalars_on_a_device(on_fake):
    """A NumPy scalar handed to a shape op on a device (``fnp.reshape(np.float64(t), (1,))``,
    as ``sph_harm_y``'s callers do): cupy's ``reshape`` calls the scalar's own method and
    returns a host array; the scalar goes to the device first."""
    got = fnp.reshape(np.float64(0.9), (1,))
    assert isinstance(got._buf, FD)
    np.testing.assert_array_equal(np.asarray(got), [0.9])
    got = fnp.broadcast_to(np.float32(2.0), (2, 2))
    assert isinstance(got._buf, FD) and got.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(got), np.full((2, 2), 2.0, np.float32))


# ---------------------------------------------------------------------------------------
# ``*_like(a, shape=())``: cupy returns ``a``'s shape (``shape if shape else a.shape``)


def test_fake_like_with_an_empty_shape_keeps_the_operands_shape_like_cupy(on_fake):
    a = on_fake.from_host(np.ones(5))
    assert on_fake.xp.zeros_like(a, shape=()).shape == (5,)  # cupy 14.2; NumPy gives ()


def test_grad_of_a_scan_with_an_unused_scalar_carry_on_a_device(on_fake):
    # the tape filled the unused carry's cotangent with zeros_like(ys_cotangent, shape=()),
    # which cupy makes (5,): the xs cotangent came out (5, 1) and the gradient (5, 5) (an H100)
    x = np.array([0.34558419, 0.82161814, 0.33043708, -1.30315723, 0.90535587])

    def g(v):
        _, ys = lax.scan(lambda cr, xi: (cr * xi, cr + xi), 1.0, v)
        return fnp.sum(ys)

    # d/dx_k sum_t (c_t + x_t) with c_t = x_0 ... x_{t-1}: 1 + sum_{t > k} prod_{s < t, s != k} x_s
    want = [1 + sum(np.prod(np.delete(x[:t], k)) for t in range(k + 1, 5)) for k in range(5)]
    got = fgrad.grad(g)(fnp.asarray(x))
    assert got.shape == (5,) and str(got.device).startswith("fake")
    np.testing.assert_allclose(np.asarray(fgrad.device_get(got)), np.asarray(want), rtol=1e-14)


def test_python_scalars_stay_weak_in_special_functions_on_a_device(on_fake):
    # eager device ops upload host scalars for cupy's array functions; an uploaded Python float
    # is a strong float64, so polygamma(1.0, float32) -- digamma's derivative -- became float64
    x = fnp.asarray(np.float32(0.7))
    assert fgrad.scipy.special.polygamma(1.0, x).dtype == np.float32
    _, t = fgrad.jvp(fgrad.scipy.special.digamma, (x,), (fnp.ones_like(x),))
    assert t.dtype == np.float32


def test_the_tape_never_broadcasts_a_wrong_shaped_gradient():
    # _cast used to broadcast any cotangent into the input's shape: a (1,) gradient for a (5,)
    # input would have come back replicated, silently; only an all-zero scalar may be expanded
    from fgrad.transforms.tape import _cast

    from fgrad.core.array import wrap

    primal = fnp.ones(5)  # on the default device; the cotangent buffers live there too

    def buf(x):
        return fnp.asarray(x)._buf

    def host(b):
        return np.asarray(fgrad.device_get(wrap(b)))

    with pytest.raises(RuntimeError, match="gradient of shape \\(1,\\) for an input of shape \\(5,\\)"):
        _cast(buf([2.0]), primal)
    np.testing.assert_array_equal(host(_cast(buf(0.0), primal)), np.zeros(5))
    np.testing.assert_array_equal(host(_cast(buf(np.arange(5.0)), primal)), np.arange(5.0))


def test_jit_of_weak_0d_device_data_returns_device_data(on_fake):
    """A weakly typed 0-d input makes jit's generated code compute with Python scalars; the
    result must go back to the program's device (it came back as a host NumPy scalar: a later
    op mixing it with device data raised DeviceMismatchError, found by checkify's tests).
    Literal outputs are placed there too, and a negative zero keeps its sign."""
    x = fnp.asarray(2.0)  # weak, on the (fake) device
    assert isinstance(x._buf, FD)
    y = fgrad.jit(lambda v: fnp.sin(v) * 2 + 1)(x)
    assert isinstance(y._buf, FD) and y.weak_type
    np.testing.assert_allclose(np.asarray(y), np.sin(2.0) * 2 + 1)
    neg, lit = fgrad.jit(lambda v: (v * 0.0 * -1.0, 3.0))(x)
    assert isinstance(neg._buf, FD) and isinstance(lit._buf, FD)
    assert np.signbit(np.asarray(neg)) and float(lit) == 3.0
    assert isinstance((y + fnp.ones(2))._buf, FD)  # usable with device arrays
