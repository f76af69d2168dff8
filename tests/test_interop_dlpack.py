"""DLPack exchange: fgrad <-> NumPy (always), PyTorch and JAX (live when installed), the shim,
and device placement on the fake accelerator.  Memory sharing is checked with
``np.shares_memory``; values against NumPy."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as ft
from fgrad.backends.dlpack import _Capsule
from fgrad.errors import TracerArrayConversionError
from fgrad.testing import fake_device
from fgrad.torch.utils.dlpack import from_dlpack as shim_from_capsule
from fgrad.torch.utils.dlpack import to_dlpack


@pytest.fixture(autouse=True)
def _on_the_host():
    """DLPack exchange with NumPy, torch (CPU) and JAX (CPU): arrays are made on the CPU
    whatever fgrad's default device (the fake GPU has no DLPack device)."""
    with fgrad.default_device("cpu"):
        yield

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128]


def host(x) -> np.ndarray:
    return np.asarray(x)


# -- fgrad -> NumPy ----------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(hnp.arrays(st.sampled_from(DTYPES), hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)),
       st.booleans())
def test_numpy_round_trip_shares_memory_and_is_read_only(a, transposed):
    if transposed:
        a = a.T  # non-contiguous buffers export with their strides
    x = fnp.from_dlpack(a)
    assert x.dtype == a.dtype and x.shape == a.shape
    assert np.shares_memory(host(x), a) or a.size == 0
    y = np.from_dlpack(x)
    np.testing.assert_array_equal(y, a)
    assert y.dtype == a.dtype
    assert np.shares_memory(y, host(x)) or a.size == 0
    assert not y.flags.writeable  # the consumer is told the data is read-only
    with pytest.raises(ValueError, match="read-only"):
        y[...] = 0


def test_copy_true_never_shares():
    a = np.arange(4.0)
    x = fnp.from_dlpack(a, copy=True)
    assert not np.shares_memory(host(x), a)
    y = np.from_dlpack(x, copy=True)
    assert not np.shares_memory(y, host(x))
    assert y.flags.writeable  # a copy belongs to the consumer
    np.testing.assert_array_equal(y, a)
    assert not np.shares_memory(host(fnp.from_dlpack(x, copy=True)), host(x))


def test_legacy_consumer_gets_a_copy_or_buffer_error():
    x = fnp.arange(3.0)
    legacy = x.__dlpack__()  # no max_version: an unversioned "dltensor" capsule
    y = np.from_dlpack(_Capsule(legacy))
    np.testing.assert_array_equal(y, [0.0, 1.0, 2.0])
    assert not np.shares_memory(y, host(x))  # cannot signal read-only: copied, never exposed
    with pytest.raises(BufferError, match="immutable"):
        x.__dlpack__(copy=False)
    assert x.__dlpack__(max_version=(1, 0), copy=False) is not None


def test_device_and_stream_checks():
    x = fnp.ones(2)
    assert x.__dlpack_device__() == (1, 0)
    with pytest.raises(BufferError, match="DLPack device"):
        x.__dlpack__(max_version=(1, 0), dl_device=(2, 0))
    with pytest.raises(BufferError, match="stream"):
        x.__dlpack__(max_version=(1, 0), stream=1)
    np.testing.assert_array_equal(np.from_dlpack(x, device="cpu"), [1.0, 1.0])
    with pytest.raises(TypeError, match="__dlpack__"):
        fnp.from_dlpack([1, 2])


def test_from_dlpack_of_fgrad_array_and_scalar_buffer():
    x = fnp.arange(3)
    assert fnp.from_dlpack(x) is x  # immutable: sharing is the identity
    y = np.from_dlpack(fnp.asarray(np.float32(2)))
    assert y.dtype == np.float32 and y.shape == () and y == 2.0


def test_inside_transforms():
    def f(x):
        return fnp.sum(fnp.from_dlpack(x) ** 2)

    np.testing.assert_allclose(fgrad.grad(f)(fnp.arange(3.0)), [0.0, 2.0, 4.0])
    with pytest.raises(TracerArrayConversionError):
        fgrad.jit(lambda x: fnp.asarray(np.from_dlpack(x)))(fnp.arange(3.0))


# -- the fake accelerator: placement through device= -------------------------------------

def test_fake_device_placement():
    with fake_device.installed():
        a = np.arange(3.0)
        x = fnp.from_dlpack(a, device="fake")
        assert str(x.device) == "fake:0"
        np.testing.assert_array_equal(fgrad.device_get(x), a)
        with pytest.raises(BufferError, match="copy=False"):
            fnp.from_dlpack(a, device="fake", copy=False)
        with pytest.raises(BufferError, match="fake"):
            x.__dlpack__(max_version=(1, 0))  # DLPack cannot describe this device
        back = fnp.from_dlpack(x, device="cpu")
        assert str(back.device) == "cpu:0"
        np.testing.assert_array_equal(host(back), a)
        with pytest.raises(BufferError, match="copy=False"):
            fnp.from_dlpack(x, device="cpu", copy=False)


# -- the shim ----------------------------------------------------------------------------

def test_shim_capsules_share_writable_memory():
    t = ft.arange(3.0)
    r = shim_from_capsule(to_dlpack(t))
    r.add_(1.0)
    assert t.tolist() == [1.0, 2.0, 3.0]
    a = np.from_dlpack(t)
    assert a.flags.writeable and np.shares_memory(a, t.numpy())
    assert t.__dlpack_device__() == (1, 0)


def test_shim_export_refuses_requires_grad():
    t = ft.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="detach"):
        t.__dlpack__()
    assert np.from_dlpack(t.detach()).tolist() == [1.0, 1.0]


def test_shim_from_fgrad_array_never_writes_the_array():
    x = fnp.arange(3.0)
    for t in (ft.from_dlpack(x), ft.as_tensor(x), ft.tensor(x)):
        t.add_(1.0)
        assert t.tolist() == [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(host(x), [0.0, 1.0, 2.0])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.bool_, np.complex64])
def test_shim_tensor_of_fgrad_array_keeps_dtype(dtype):
    x = fnp.asarray(np.array([1, 0, 1], dtype=dtype))
    for t in (ft.tensor(x), ft.as_tensor(x), ft.from_dlpack(x)):
        assert t.numpy().dtype == dtype
    back = fnp.asarray(ft.tensor(x))
    assert back.dtype == dtype
    np.testing.assert_array_equal(host(back), host(x))
    if np.dtype(dtype).kind != "c":
        assert ft.tensor(x, dtype=ft.float16).dtype == ft.float16


def test_fgrad_array_of_shim_tensor():
    t = ft.tensor([[1.0, 2.0], [3.0, 4.0]])
    x = fnp.asarray(t)  # a copy: the tensor is mutable, the Array is not
    t.add_(1.0)
    np.testing.assert_array_equal(host(x), [[1.0, 2.0], [3.0, 4.0]])
    y = fnp.from_dlpack(t)  # shares: the producer may write (documented)
    assert np.shares_memory(host(y), t.numpy())


# -- live peers --------------------------------------------------------------------------

TORCH_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64",
                "complex64", "complex128"]


@pytest.mark.parametrize("name", TORCH_DTYPES)
def test_torch_round_trip(name):
    torch = pytest.importorskip("torch")
    a = (np.arange(6).reshape(2, 3) % 2).astype(name)
    x = fnp.asarray(a)
    t = torch.from_dlpack(x)
    assert t.dtype == getattr(torch, name) and tuple(t.shape) == (2, 3)
    assert t.data_ptr() == host(x).ctypes.data  # zero-copy
    np.testing.assert_array_equal(t.numpy(), a)
    src = torch.from_numpy(a.copy())
    y = fnp.from_dlpack(src)
    assert y.dtype == np.dtype(name) and np.shares_memory(host(y), src.numpy())
    t2 = torch.from_dlpack(x, copy=True)
    assert t2.data_ptr() != host(x).ctypes.data


@pytest.mark.parametrize("numpy_raises", [RuntimeError, BufferError])
def test_a_dtype_numpy_cannot_hold_names_the_fix(monkeypatch, numpy_raises):
    """NumPy refuses a DLPack dtype it lacks (bfloat16) with RuntimeError before 2.5 and
    BufferError from 2.5 on: either way fgrad's BufferError names the dtype and the fix."""
    def refuse(x, copy=None):
        raise numpy_raises("Unsupported dtype in DLTensor.")

    monkeypatch.setattr(np, "from_dlpack", refuse)
    with pytest.raises(BufferError, match=r"NumPy cannot hold the dtype .*float32.*Convert it first"):
        fnp.from_dlpack(np.ones(2, np.float32))


def test_real_torch_tensor_into_fgrad_and_shim():
    torch = pytest.importorskip("torch")
    src = torch.tensor([[1.5, 2.0]], dtype=torch.float32)
    for x in (fnp.asarray(src), fnp.from_dlpack(src)):
        assert x.dtype == np.float32 and x.shape == (1, 2)
    for t in (ft.tensor(src), ft.as_tensor(src)):
        assert t.dtype == ft.float32 and t.tolist() == [[1.5, 2.0]]
    assert ft.tensor(torch.tensor([1, 2])).dtype == ft.int64
    assert ft.tensor(src.t()).shape == (2, 1)
    with pytest.raises(BufferError, match="bfloat16"):
        fnp.from_dlpack(torch.ones(2, dtype=torch.bfloat16))  # NumPy has no bfloat16 in DLPack
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # torch's __array__ lacks copy=: read through DLPack instead
        assert fnp.asarray(src, dtype=np.float64).dtype == np.float64


def test_torch_and_shim_exchange():
    torch = pytest.importorskip("torch")
    s = ft.arange(4.0).reshape(2, 2)
    t = torch.from_dlpack(s)
    t.add_(1.0)  # shared both ways, as between two PyTorch tensors
    assert s.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    back = ft.from_dlpack(torch.arange(3))
    assert back.dtype == ft.int64 and back.tolist() == [0, 1, 2]


def test_jax_round_trip():
    jnp = pytest.importorskip("jax.numpy")
    x = fnp.arange(6.0).reshape(2, 3)
    j = jnp.from_dlpack(x)
    np.testing.assert_array_equal(np.asarray(j), host(x))
    assert j.dtype == np.float64 or j.dtype == np.float32  # jax without x64 narrows on import
    y = fnp.from_dlpack(jnp.arange(3, dtype=jnp.int32))
    assert y.dtype == np.int32 and host(y).tolist() == [0, 1, 2]


def test_cupy_round_trip():
    """The cupy backend exports and imports through cupy's own DLPack (GPU machines only)."""
    cp = pytest.importorskip("cupy")
    if not _has_gpu():
        pytest.skip("no CUDA device")
    x = fgrad.device_put(fnp.arange(4.0), "cuda")
    assert x.__dlpack_device__()[0] == 2
    c = cp.from_dlpack(x)
    assert c.data.ptr == x._buf.data.ptr  # zero-copy on the device
    y = fnp.from_dlpack(cp.arange(3.0))
    assert str(y.device).startswith("cuda")
    h = fnp.from_dlpack(x, device="cpu")
    np.testing.assert_array_equal(host(h), [0.0, 1.0, 2.0, 3.0])
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        t = torch.from_dlpack(x)
        assert t.is_cuda and t.data_ptr() == x._buf.data.ptr


def _has_gpu() -> bool:
    try:
        fgrad.devices("cuda")
    except Exception:  # noqa: BLE001 - no cupy or no driver
        return False
    return True
