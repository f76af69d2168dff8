"""Names JAX programs import that fgrad lacked: ``stax``'s re-exported activations,
``dtypes.bfloat16``/``itemsize_bits``, JAX's error classes (a traced boolean mask raises
``NonConcreteBooleanIndexError``, an IndexError), ``experimental.mesh_utils``,
``monitoring``, ``debug.log``/``breakpoint`` and ``debug.print``'s two-call form and
argument checks."""

from __future__ import annotations

import logging
import os

import ml_dtypes
import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import monitoring
from fgrad.example_libraries import stax
from fgrad.experimental import mesh_utils


def test_stax_reexports():
    x = fnp.asarray([-1.0, 0.5])
    assert stax.relu(x).tolist() == [0.0, 0.5]
    assert stax.logsoftmax is stax.log_softmax and stax.glorot is stax.glorot_normal
    assert stax.randn is stax.normal
    np.testing.assert_allclose(stax.softplus(x), fgrad.nn.softplus(x))


def test_dtypes_names():
    # JAX 0.10.2: jax.dtypes.bfloat16 is ml_dtypes' scalar type, jax.numpy.bfloat16 the array-making one
    assert fgrad.dtypes.bfloat16 is ml_dtypes.bfloat16 and fnp.bfloat16 is not ml_dtypes.bfloat16
    assert np.dtype(fgrad.dtypes.bfloat16) == np.dtype(fnp.bfloat16)
    assert fgrad.dtypes.itemsize_bits("float32") == 32 and fgrad.dtypes.itemsize_bits(bool) == 8
    with pytest.raises(ValueError):
        fgrad.dtypes.itemsize_bits(fgrad.dtypes.float0)


def test_traced_boolean_mask_is_jaxs_index_error():
    with pytest.raises(IndexError) as info:
        fgrad.jit(lambda x: x[x > 0])(fnp.ones(3))
    assert isinstance(info.value, fgrad.errors.NonConcreteBooleanIndexError)
    assert isinstance(info.value, fgrad.errors.JAXIndexError)
    assert isinstance(info.value, fgrad.errors.ConcretizationTypeError)  # as fgrad raised before
    assert issubclass(fgrad.errors.KeyReuseError, TypeError)
    assert issubclass(fgrad.errors.JaxRuntimeError, RuntimeError)


def test_mesh_utils():
    assert mesh_utils.create_device_mesh((1, 1)).shape == (1, 1)
    with pytest.raises(ValueError, match="Number of devices 1 must equal"):
        mesh_utils.create_device_mesh((2, 2))
    with _pmap_any_size():
        grid = mesh_utils.create_device_mesh((2, 2))
        assert grid.shape == (2, 2) and len({id(d) for d in grid.ravel()}) == 1
        assert mesh_utils.create_hybrid_device_mesh((2, 1), (1, 3)).shape == (2, 3)


class _pmap_any_size:
    def __enter__(self):
        fgrad.config.update("pmap_any_size", True)

    def __exit__(self, *exc):
        fgrad.config.update("pmap_any_size", False)


def test_monitoring_listeners():
    events, durations, spans, scalars = [], [], [], []
    monitoring.register_event_listener(lambda e, **kw: events.append((e, kw)))
    monitoring.register_event_duration_secs_listener(lambda e, d, **kw: durations.append((e, d)))
    monitoring.register_event_time_span_listener(lambda e, s, t, **kw: spans.append((e, t - s)))
    listener = lambda e, v, **kw: scalars.append((e, v, kw))  # noqa: E731
    monitoring.register_scalar_listener(listener)
    try:
        monitoring.record_event("/a", k=1)
        monitoring.record_event_duration_secs("/b", 0.5)
        monitoring.record_event_time_span("/c", 1.0, 3.0)
        monitoring.record_scalar("/d", 7, step=2)
        monitoring.unregister_scalar_listener(listener)
        monitoring.record_scalar("/d", 8)
        with pytest.raises(AssertionError):
            monitoring.unregister_scalar_listener(listener)
    finally:
        monitoring.clear_event_listeners()
    assert events == [("/a", {"k": 1})] and durations == [("/b", 0.5)] and spans == [("/c", 2.0)]
    assert scalars == [("/d", 7, {"step": 2})]


def test_debug_print_two_call_form_and_argument_checks(capsys):
    fgrad.jit(lambda x: fgrad.debug.print(ordered=True)("x={}", x) or x)(fnp.ones(2))
    assert capsys.readouterr().out == "x=[1. 1.]\n"
    with pytest.raises(ValueError, match="Unused positional arguments"):
        fgrad.debug.print("value:", 1.0)  # JAX refuses arguments the format does not use
    with pytest.raises(ValueError, match="f-string"):
        fgrad.debug.print("value", x=1.0)
    with pytest.raises(KeyError):
        fgrad.debug.print("a {x}", y=1)
    with pytest.raises(TypeError, match="two-call form"):
        fgrad.debug.print(None, 1.0)


def test_debug_log_is_a_record_at_the_users_line(caplog):
    with caplog.at_level(logging.INFO, logger="fgrad.debug"):
        fgrad.jit(lambda x: fgrad.debug.log("loss = {:.2f}", x) or x)(0.25)
    (record,) = [r for r in caplog.records if r.name == "fgrad.debug"]
    assert record.getMessage() == "loss = 0.25" and record.levelno == logging.INFO
    assert os.path.basename(record.pathname) == "test_jax_names_round8.py"


def test_debug_breakpoint_runs_the_hook_with_concrete_values(monkeypatch):
    seen = []
    monkeypatch.setattr("sys.breakpointhook", lambda *a, **k: seen.append(True))
    fgrad.jit(lambda x: (fgrad.debug.breakpoint(x=x), x * 2)[1])(1.0)
    assert seen == [True]


def test_names_exist_in_jax_too():
    jax = pytest.importorskip("jax")
    from jax.experimental import mesh_utils as jmu
    for name in ["create_device_mesh", "create_hybrid_device_mesh"]:
        assert hasattr(jmu, name)
    for name in monitoring.__all__:
        assert hasattr(jax.monitoring, name), name
    for name in ["log", "breakpoint"]:
        assert hasattr(jax.debug, name)
