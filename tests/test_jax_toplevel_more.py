"""More of JAX's top level: process/host queries, the ``make_array_from_*`` constructors
(single-device shardings), ``copy_to_host_async``, ``effects_barrier``, ``fgrad.dlpack``,
``fgrad.version``.  Each behaves as JAX 0.10.2 does on one process and one device (stored
expectations; compared with JAX live when it is installed)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.sharding import NamedSharding, PartitionSpec, SingleDeviceSharding


def test_process_and_host_queries():
    assert fgrad.process_indices() == [0]
    assert fgrad.host_id() == fgrad.process_index() == 0
    assert fgrad.host_count() == fgrad.process_count() == 1


def _shardings():
    dev = fgrad.devices()[0]
    return [SingleDeviceSharding(dev), NamedSharding(fgrad.make_mesh((1,), ("d",)), PartitionSpec("d"))]


@pytest.mark.parametrize("which", [0, 1], ids=["single", "named"])
def test_make_array_from_callback(which, backend):
    sharding = _shardings()[which]
    data = np.arange(6.0).reshape(2, 3)
    seen = []

    def cb(index):
        seen.append(index)
        return data[index]

    out = fgrad.make_array_from_callback((2, 3), sharding, cb)
    np.testing.assert_array_equal(fgrad.device_get(out), data)
    assert seen == [(slice(None), slice(None))]  # JAX 0.10.2: one call, the whole array
    assert out.device == next(iter(sharding.device_set))
    assert fgrad.make_array_from_callback((), sharding, lambda i: 3.0).shape == ()
    assert fgrad.make_array_from_callback((2,), sharding, lambda i: np.ones(2, "float32"),
                                          dtype="float64").dtype == np.float64
    with pytest.raises(ValueError, match=r"expected shard shape \(2, 3\) doesn't match the single device "
                                         r"array shape \(4,\)"):
        fgrad.make_array_from_callback((2, 3), sharding, lambda i: np.arange(4.0))


def test_make_array_from_single_device_arrays_and_process_local_data():
    s = _shardings()[0]
    out = fgrad.make_array_from_single_device_arrays((2,), s, [fnp.ones(2)])
    np.testing.assert_array_equal(out, [1.0, 1.0])
    with pytest.raises(ValueError, match=r"shard shape \(3,\) doesn't match the single device array shape"):
        fgrad.make_array_from_single_device_arrays((3,), s, [fnp.ones(2)])
    with pytest.raises(ValueError, match="1 device, but 2 arrays"):
        fgrad.make_array_from_single_device_arrays((2,), s, [fnp.ones(2), fnp.ones(2)])
    np.testing.assert_array_equal(fgrad.make_array_from_process_local_data(s, np.ones(3)), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(fgrad.make_array_from_process_local_data(s, np.ones(3), (3,)), np.ones(3))
    with pytest.raises(ValueError, match=r"global_shape should be None or equal to local_data.shape.*\(4,\)"):
        fgrad.make_array_from_process_local_data(s, np.ones(3), (4,))
    with pytest.raises(TypeError, match="expected a Sharding"):
        fgrad.make_array_from_process_local_data("cpu", np.ones(3))


def test_make_array_functions_live_against_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    js = jax.sharding.SingleDeviceSharding(jax.devices()[0])
    fs = _shardings()[0]
    data = np.arange(12.0).reshape(3, 4)
    for ours, theirs in [
        (fgrad.make_array_from_callback((3, 4), fs, lambda i: data[i]),
         jax.make_array_from_callback((3, 4), js, lambda i: data[i])),
        (fgrad.make_array_from_process_local_data(fs, data),
         jax.make_array_from_process_local_data(js, data)),
        (fgrad.make_array_from_single_device_arrays((3, 4), fs, [fnp.asarray(data)]),
         jax.make_array_from_single_device_arrays((3, 4), js, [jax.numpy.asarray(data)])),
    ]:
        np.testing.assert_array_equal(fgrad.device_get(ours), np.asarray(theirs))
        assert ours.dtype == theirs.dtype
    assert fgrad.process_indices() == jax.process_indices()


def test_copy_to_host_async_and_effects_barrier(backend, capsys):
    tree = {"w": backend.put(fnp.ones(2)), "n": 3}
    assert fgrad.copy_to_host_async(tree) is tree
    assert tree["w"].copy_to_host_async() is None

    @fgrad.jit
    def f(x):
        fgrad.debug.print("x0={}", x[0])
        return x * 2

    f(backend.put(fnp.arange(2.0)))
    assert fgrad.effects_barrier() is None
    assert capsys.readouterr().out == "x0=0.0\n"  # printed by the time the barrier returns


def test_dlpack_module():
    a = np.arange(4.0)
    x = fgrad.dlpack.from_dlpack(a)
    assert np.shares_memory(np.asarray(x), a)
    y = fgrad.dlpack.from_dlpack(a, device=SingleDeviceSharding(fgrad.devices("cpu")[0]))
    np.testing.assert_array_equal(y, a)
    assert fgrad.dlpack.is_supported_dtype("float64") and fgrad.dlpack.is_supported_dtype(np.int8)
    assert not fgrad.dlpack.is_supported_dtype("float8_e4m3fn")
    assert not fgrad.dlpack.is_supported_dtype(object)


def test_dlpack_live_against_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    np.testing.assert_array_equal(fgrad.dlpack.from_dlpack(jax.numpy.arange(3.0)), [0.0, 1.0, 2.0])
    host = fgrad.device_put(fnp.arange(3.0), "cpu")  # a host array (FGRAD_BACKEND=fake has no DLPack)
    np.testing.assert_array_equal(jax.dlpack.from_dlpack(host), [0.0, 1.0, 2.0])
    for dt in ("float32", "complex128", "bool", "uint16"):
        assert fgrad.dlpack.is_supported_dtype(dt) == jax.dlpack.is_supported_dtype(np.dtype(dt))


def test_version():
    assert fgrad.version.__version__ == fgrad.__version__
    assert fgrad.__version_info__ == fgrad.version.__version_info__
    assert fgrad.__version_info__ == tuple(int(p) for p in fgrad.__version__.split(".")[:3])


def test_experimental_is_an_attribute():
    assert fgrad.experimental.ode.odeint is not None
