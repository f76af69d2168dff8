"""fgrad with a GPU as the default device (``FGRAD_BACKEND=cupy``), checked on the CPU.

Each case installs the fake device (`fgrad.testing.fake_device`) as ``cuda`` *and* as the
default device for a block -- what ``FGRAD_BACKEND=cupy`` gives on a GPU machine, with the
fake's cupy-like strictness (host arrays meeting device arrays, ``np.asarray`` of a device
array and the ufunc methods cupy lacks all raise) -- and runs what failed on the first real
GPU run (an H200): the PyTorch shim's CPU tensors (PyTorch's default device is the CPU
whatever fgrad's is), functional mode on device arrays, scatter-multiply with repeated
indices.  The whole suite runs that way with ``FGRAD_BACKEND=fake pytest`` (docs/gpu.md).
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad import backends as B
from fgrad.testing import fake_device
from fgrad.torch import _device as shim_device
from fgrad.torch.func import _from_array as from_array, _to_array as to_array
from fgrad.torch.nn import functional as F


@contextlib.contextmanager
def gpu_default():
    """The fake device installed as ``cuda`` and made fgrad's default device."""
    if "cupy" in B._BACKENDS:
        pytest.skip("the real cupy backend is loaded (FGRAD_BACKEND=cupy runs this suite on the GPU)")
    with fake_device.installed(platform="cuda", default=True) as be:
        shim_device.backend()
        yield be
    shim_device.backend()


def _bce_and_grads():
    # shapes no other test uses: the forward and backward programs are staged here
    p = torch.tensor([0.2, 0.7, 0.4, 0.9, 0.3, 0.6, 0.1], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0], dtype=torch.float64)
    logits = torch.tensor([[0.5, -1.0, 2.0, 0.25, 0.0], [1.5, 0.0, -0.5, 1.0, -2.0]], requires_grad=True)
    loss = F.binary_cross_entropy(p, y) + F.cross_entropy(logits, torch.tensor([2, 4]))
    loss.backward()
    return [loss.item(), p.grad.numpy().copy(), logits.grad.numpy().copy(), p.device, logits.grad.device]


def test_shim_cpu_tensors_while_the_default_device_is_a_gpu():
    """The shim stages its forward and backward programs from abstract shapes; their
    constants were made on fgrad's default device (the GPU) and met the CPU tensors
    (``TypeError: Unsupported type numpy.ndarray`` on cupy)."""
    with gpu_default():  # first: the programs are cached per signature
        assert fgrad.backends.default_device() == "cuda:0" and torch.cuda.is_available()
        got = _bce_and_grads()
    want = _bce_and_grads()
    assert got[3] == torch.device("cpu") and got[4] == torch.device("cpu")
    assert got[0] == want[0]
    np.testing.assert_array_equal(got[1], want[1])
    np.testing.assert_array_equal(got[2], want[2])


def test_shim_functional_mode_on_device_arrays_of_the_default_device():
    """fgrad transforms over shim code on arrays of the default (GPU) device: the Python
    scalars of ``x * 2`` and in-place ``mul_`` are scalars there, not CPU arrays
    (DeviceMismatchError), and results wrap the device buffers (no implicit host copy)."""

    def f(a):
        t = from_array(a) * 2
        t.mul_(3.0)
        return to_array((t * t).sum())

    with gpu_default():
        x = fnp.asarray([1.0, 2.0, -0.5])
        g = fgrad.grad(f)(x)
        assert g.device == "cuda:0"
        np.testing.assert_allclose(np.asarray(g), 72.0 * np.array([1.0, 2.0, -0.5]))


def test_scatter_multiply_with_repeated_indices_on_a_device(backend):
    """cupy has no ``multiply.at``; the device path applies the updates of each target in
    rounds, in order, so it equals NumPy's ``multiply.at`` bit for bit."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((6, 3))
    v = rng.standard_normal((7, 3))
    idx = np.array([0, 2, 0, 5, 2, 0, 4])
    want = x.copy()
    np.multiply.at(want, (idx, slice(None)), v)
    got = backend.put(fnp.asarray(x)).at[idx].multiply(backend.put(fnp.asarray(v)))
    assert backend.on_device(got)
    np.testing.assert_array_equal(np.asarray(got), want)
    want2 = x.copy()
    np.multiply.at(want2, (slice(None), np.array([1, 1, 0])), 1.5)
    got2 = backend.put(fnp.asarray(x)).at[:, np.array([1, 1, 0])].multiply(1.5)
    np.testing.assert_array_equal(np.asarray(got2), want2)


def test_fake_device_refuses_what_cupy_lacks():
    with fake_device.installed() as be:
        a = fgrad.device_put(fnp.arange(4.0), "fake")._buf
        assert float(be.xp.add.reduce(a)) == 6.0
        for name in ("maximum", "minimum", "logical_and", "logical_or"):
            with pytest.raises(NotImplementedError, match=f"{name}.reduce is not supported"):
                getattr(be.xp, name).reduce(a)
        with pytest.raises(NotImplementedError, match="multiply.at"):
            be.xp.multiply.at(a, be.xp.asarray([0, 0]), 2.0)
        with pytest.raises(TypeError, match="implicit device->host copy"):
            np.asarray(a)


def test_swapping_fake_devices_keeps_the_configured_default_device():
    """``FGRAD_BACKEND=fake``: a test that installs another fake for a block must not leave
    the CPU as the default device for the rest of the run (nor with ``FGRAD_BACKEND=cupy``,
    where the real GPU is the one the fake cannot impersonate)."""
    real_gpu = "cupy" in B._BACKENDS
    gpu = (B.get_backend("cupy") if real_gpu else fake_device.install(platform="cuda")).devices()[0]
    saved = B._DEFAULT[0]
    try:
        B.set_default_device(gpu)
        with fake_device.installed(platform="fake"):
            pass
        assert B.default_device() == "cuda:0" and B.default_device() is gpu
    finally:
        B._DEFAULT[0] = saved
        if not real_gpu:
            fake_device.uninstall()
        shim_device.backend()


@pytest.mark.parametrize("make", [lambda: fnp.zeros(3, dtype=str), lambda: fnp.ones(2, dtype=object),
                                  lambda: fnp.full(2, 1.0, dtype="U3")])
def test_unsupported_dtypes_raise_fgrads_error_on_a_gpu_default(make):
    """cupy refuses string dtypes with its own ValueError; fgrad's TypeError comes first."""
    with gpu_default(), pytest.raises(TypeError, match="dtype"):
        make()


def test_jit_of_python_scalars_closing_over_a_device_array():
    """A jitted function whose inputs are Python scalars runs where its captured device
    constants live (it ran with NumPy on the device buffers: an implicit host copy)."""
    m = np.arange(12.0).reshape(3, 4)
    with gpu_default():
        f = fgrad.jit(lambda i, j: fgrad.lax.dynamic_slice(fnp.asarray(m), (i, j), (2, 2)))
        out = f(2, -1)
        assert out.device == "cuda:0"
        np.testing.assert_array_equal(np.asarray(out), [[6.0, 7.0], [10.0, 11.0]])  # stored from JAX


def test_random_keys_and_samples_live_on_the_default_device():
    """``key(0)`` was a CPU array whatever the default device, and host-array parameters of
    the samplers were CPU arrays meeting the key's device (DeviceMismatchError)."""
    with gpu_default():
        k = fgrad.random.key(0)
        assert k.device == "cuda:0"
        lo, hi = np.zeros(3), np.array([1.0, 2.0, 3.0])
        r = fgrad.random
        samples = [r.normal(k, (3,)), r.uniform(k, (4, 3), minval=lo, maxval=hi),
                   r.bernoulli(k, np.array([0.1, 0.9])), r.randint(k, (3,), lo.astype(int), 5),
                   r.choice(k, np.arange(5.0), (2,)), r.categorical(k, np.zeros((2, 3))),
                   r.truncated_normal(k, lo, hi), r.fold_in(k, np.uint32(3))]
        assert all(s.device == "cuda:0" for s in samples)
        on_device = np.asarray(samples[1])
    cpu = fgrad.random.uniform(fgrad.random.key(0), (4, 3), minval=lo, maxval=hi)
    np.testing.assert_array_equal(on_device, np.asarray(cpu))


def test_constants_of_roll_matrix_power_and_iota_follow_the_device():
    """Host constants built with NumPy met device operands (DeviceMismatchError): roll's
    index base with a traced shift, matrix_power's identity, lax.iota on the default device."""
    x = np.arange(5.0)
    a = np.array([[2.0, 1.0], [0.0, 3.0]])
    with gpu_default():
        rolled = fgrad.vmap(lambda s: fnp.roll(fnp.asarray(x), s))(fnp.asarray([0, 1, -2]))
        eye = fnp.linalg.matrix_power(fnp.asarray(a), 0)
        iota = fgrad.lax.iota(np.int32, 4)
        assert rolled.device == eye.device == iota.device == "cuda:0"
        got = [np.asarray(rolled), np.asarray(eye), np.asarray(iota)]
    np.testing.assert_array_equal(got[0], [np.roll(x, s) for s in (0, 1, -2)])
    np.testing.assert_array_equal(got[1], np.eye(2))
    np.testing.assert_array_equal(got[2], np.arange(4, dtype=np.int32))


def test_integer_scatter_add_along_axis_on_a_device(backend):
    """The integer path called ``cupyx.scatter_add`` on any non-NumPy backend."""
    from fgrad.ops import sorting

    idx = np.array([[0, 2, 2, 1], [3, 3, 3, 0]])
    got = sorting.scatter_add_along_axis(backend.put(fnp.ones((2, 4), np.int32)), idx, 1, 5)
    assert backend.on_device(got) and got.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(got), [[1, 1, 2, 0, 0], [1, 0, 0, 3, 0]])


def test_out_of_bounds_gathers_read_nothing_on_the_host(backend):
    """``take`` / ``take_along_axis`` in fill mode checked their indices on the host (a
    device->host synchronisation per gather on a GPU); the device path masks instead."""
    x = np.arange(12.0).reshape(3, 4)
    idx = np.array([0, 5, -1, -7, 3])
    xd, idd = backend.put(fnp.asarray(x)), backend.put(fnp.asarray(idx))
    with backend.transfers() as moved:
        got = [fnp.take(xd, idd, axis=1), fnp.take(xd, idd, axis=0, fill_value=-1.0),
               fnp.take_along_axis(xd, backend.put(fnp.asarray([[4], [0], [-9]])), axis=1)]
    if backend.counts_transfers:  # the fake device (cupy's stand-in) counts them; cupy cannot
        assert moved.get("d2h") == 0, moved
    assert all(backend.on_device(g) for g in got)
    want_cols = np.where((idx >= -4) & (idx < 4), np.take(x, np.clip(idx, -4, 3), axis=1), np.nan)
    np.testing.assert_array_equal(np.asarray(got[0]), want_cols)
    want_rows = np.where(((idx >= -3) & (idx < 3))[:, None], np.take(x, np.clip(idx, -3, 2), axis=0), -1.0)
    np.testing.assert_array_equal(np.asarray(got[1]), want_rows)
    np.testing.assert_array_equal(np.asarray(got[2]), [[np.nan], [4.0], [np.nan]])


def test_fft_frequencies_on_the_host_while_the_default_is_a_gpu():
    """fftfreq/rfftfreq(device="cpu") divided by d * n made on the default device (a GPU):
    DeviceMismatchError."""
    with gpu_default():
        f = fnp.fft.fftfreq(4, device="cpu")
        r = fnp.fft.rfftfreq(4, 0.5, device="cpu")
    assert f.device == r.device == "cpu"
    np.testing.assert_allclose(np.asarray(f), np.fft.fftfreq(4))
    np.testing.assert_allclose(np.asarray(r), np.fft.rfftfreq(4, 0.5))


# -- found on the H200 on 2026-11-27 (FGRAD_BACKEND=cupy, cupy 14.2) ---------------------------


def test_logical_ops_of_complex_arrays_on_a_gpu():
    """cupy's logical ufuncs have no complex loops (``Wrong type ... for cupy_logical_not``):
    ``fnp.logical_*`` of complex arrays raised on a GPU, eagerly and under ``jit``; a complex
    operand is now read as ``z != 0`` first (NumPy's and JAX's truth of a complex number)."""
    z = np.array([0, 1j, 2, 0, -0.5 + 0j], np.complex64)
    i = np.array([1, 0, 3, 0, 1], np.int32)
    want = [np.logical_not(z), np.logical_and(z, i), np.logical_or(z, z), np.logical_xor(z, 1)]
    with gpu_default():
        zd, idd = fnp.asarray(z), fnp.asarray(i)
        got = [fnp.logical_not(zd), fnp.logical_and(zd, idd), fnp.logical_or(zd, zd), fnp.logical_xor(zd, 1)]
        jitted = fgrad.jit(lambda a, b: (fnp.logical_not(a), fnp.logical_and(a, b)))(zd, idd)
        assert all(g.device == "cuda:0" for g in got)
        got = [np.asarray(g) for g in got]
        jitted = [np.asarray(g) for g in jitted]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    np.testing.assert_array_equal(jitted[0], want[0])
    np.testing.assert_array_equal(jitted[1], want[1])


def test_where_with_an_int_literal_out_of_its_partners_range_on_a_gpu():
    """``cupy.where(c, -1, uint8)`` raises OverflowError where NumPy (and JAX) wrap the
    Python int to the array's dtype: ``nn.hard_tanh`` of unsigned integers raised on a GPU."""
    x = np.arange(5, dtype=np.uint8)
    want = np.array([255, 255, 1, 1, 1], np.uint8)  # JAX 0.10.2: -1 wraps to 255 (uint8)
    with gpu_default():
        xd = fnp.asarray(x)
        got = [fgrad.nn.hard_tanh(xd), fgrad.jit(fgrad.nn.hard_tanh)(xd), fnp.where(xd > 1, -1, xd)]
        got = [(np.asarray(g), g.dtype) for g in got]
    for g, dt in got[:2]:
        assert dt == np.uint8
        np.testing.assert_array_equal(g, want)
    np.testing.assert_array_equal(got[2][0], [0, 1, 255, 255, 255])


def test_sign_of_bool_refused_by_the_jax_faces_kept_by_pytorchs():
    """``cupy.sign`` of a bool array returns int8 where NumPy has no bool loop: ``lax.sign``
    of bools returned on a GPU where JAX raises TypeError.  The JAX faces now check the dtype
    themselves (JAX's message); PyTorch's ``sign`` of a bool tensor keeps it."""
    b = np.array([True, False])
    with pytest.raises(TypeError, match="sign does not accept dtype bool"):
        fnp.sign(fnp.asarray(b))
    with pytest.raises(TypeError, match="lax.sign does not accept dtype bool"):
        fgrad.lax.sign(fnp.asarray(b))
    with pytest.raises(TypeError, match="sign does not accept dtype bool"):
        fnp.sign(True)
    t = torch.sign(torch.tensor([True, False]))
    assert t.dtype == torch.bool and t.tolist() == [True, False]
    assert torch.tensor([True]).sign().tolist() == [True]
    with gpu_default():
        with pytest.raises(TypeError, match="sign does not accept dtype bool"):
            fgrad.lax.sign(fnp.asarray(b))


def test_devices_lists_the_default_platforms_devices():
    """``jax.devices()`` lists the default backend's devices: with a GPU as the default device
    ``fgrad.devices()`` listed the CPU too, so ``np.array(jax.devices()).reshape(1, 1)`` (a
    program's one-device mesh) failed on a GPU machine."""
    if fgrad.backends.default_device().platform == "cpu":
        assert [d.platform for d in fgrad.devices()] == ["cpu"]
    with gpu_default():
        assert [str(d) for d in fgrad.devices()] == ["cuda:0", "cuda:1"]
        assert fgrad.devices() == fgrad.local_devices()
        assert [str(d) for d in fgrad.devices("cpu")] == ["cpu:0"]
        assert [str(d) for d in fgrad.devices("gpu")] == ["cuda:0", "cuda:1"]
