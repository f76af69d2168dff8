"""JAX's configuration context managers at fgrad's top level (``fgrad.enable_x64``,
``numpy_rank_promotion``, ``numpy_dtype_promotion``, the transfer guards, ``log_compiles``
...): each is usable as a context manager, restores the previous value, checks its value
as JAX does, and matches the ``config.update`` option of the same name.  The promotion
checks and the transfer guards are compared with JAX live when it is installed."""

from __future__ import annotations

import logging
import warnings

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.backends.transfer_guard import TransferGuardError
from fgrad.dtypes import TypePromotionError

SCOPES = {  # fgrad scope -> (JAX option, a value to set)
    "enable_x64": ("jax_enable_x64", True),
    "check_tracer_leaks": ("jax_check_tracer_leaks", True),
    "log_compiles": ("jax_log_compiles", True),
    "explain_cache_misses": ("jax_explain_cache_misses", True),
    "debug_key_reuse": ("jax_debug_key_reuse", True),
    "default_matmul_precision": ("jax_default_matmul_precision", "highest"),
    "numpy_rank_promotion": ("jax_numpy_rank_promotion", "warn"),
    "numpy_dtype_promotion": ("jax_numpy_dtype_promotion", "strict"),
    "enable_checks": ("jax_enable_checks", True),
    "softmax_custom_jvp": ("jax_softmax_custom_jvp", True),
    "default_prng_impl": ("jax_default_prng_impl", "threefry2x32"),
}


@pytest.mark.parametrize("name", sorted(SCOPES))
def test_scope_sets_the_option_and_restores_it(name):
    option, value = SCOPES[name]
    before = fgrad.config.read(option)
    with getattr(fgrad, name)(value):
        assert fgrad.config.read(option) == value
    assert fgrad.config.read(option) == before


@pytest.mark.parametrize("name", ["default_matmul_precision", "numpy_rank_promotion", "numpy_dtype_promotion",
                                  "transfer_guard", "transfer_guard_host_to_device", "default_prng_impl"])
def test_bad_choice_is_a_value_error_as_in_jax(name):
    with pytest.raises(ValueError, match="new enum value must be in"):
        getattr(fgrad, name)("bogus")


def test_enable_x64_false_and_disable_x64_scope_32_bit_types():
    with fgrad.enable_x64(True):
        assert fnp.asarray(1.0).dtype == np.float64
    from fgrad.experimental import disable_x64, enable_x64

    with enable_x64():
        assert fnp.arange(2.0).dtype == np.float64
    for scope in (fgrad.enable_x64(False), disable_x64()):
        with scope:
            assert fnp.arange(2.0).dtype == np.float32 and fgrad.config.jax_enable_x64 is False
            with enable_x64():
                assert fnp.arange(2.0).dtype == np.float64
            assert fnp.arange(2).dtype == np.int32
    assert fgrad.config.jax_enable_x64 is True
    assert fnp.arange(2.0).dtype == np.float64


def test_other_prng_implementations_are_refused_not_ignored():
    with pytest.raises(NotImplementedError, match="threefry2x32"):
        fgrad.default_prng_impl("rbg")
    with pytest.raises(ValueError, match="new enum value"):
        fgrad.default_prng_impl("mersenne")


def test_checking_leaks_is_check_tracer_leaks_true():
    with fgrad.checking_leaks():
        assert fgrad.config.jax_check_tracer_leaks is True
    assert fgrad.config.jax_check_tracer_leaks is False


# -- rank and dtype promotion ----------------------------------------------------------------

def test_rank_promotion_raise_and_warn():
    a, b = fnp.ones(3), fnp.ones((2, 3))
    with fgrad.numpy_rank_promotion("raise"):
        with pytest.raises(ValueError, match=r"add on shapes \(3,\) \(2, 3\).*rank_promotion='raise'"):
            a + b
        with pytest.raises(ValueError, match="multiply"):
            fnp.multiply(b, a)
        # scalars and equal ranks are not rank promotion
        np.testing.assert_allclose(a + 1.0, [2.0, 2.0, 2.0])
        np.testing.assert_allclose(a + fnp.ones(()), [2.0, 2.0, 2.0])
        assert (b * fnp.ones((1, 3))).shape == (2, 3)
        # inside transforms too (the check reads shapes only)
        with pytest.raises(ValueError, match="rank_promotion"):
            fgrad.jit(lambda x, y: x - y)(a, b)
    with fgrad.numpy_rank_promotion("warn"):
        with pytest.warns(UserWarning, match=r"automatic rank promotion for add on shapes \(3,\) \(2, 3\)"):
            a + b
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (a + b).shape == (2, 3)  # "allow" again


def test_promotion_modes_apply_to_a_function_jitted_before(caplog):
    f = fgrad.jit(lambda x, y: x + y)
    a, b = fnp.ones(3), fnp.ones((2, 3))
    assert f(a, b).shape == (2, 3)  # compiled under "allow"
    with fgrad.numpy_rank_promotion("raise"):
        with pytest.raises(ValueError, match="rank_promotion"):  # traced again (JAX: the same)
            f(a, b)
    with caplog.at_level(logging.INFO, logger="fgrad.jit"), fgrad.numpy_dtype_promotion("strict"):
        assert f(a, a).shape == (3,)
    assert any("tracing options changed" in r.getMessage() for r in caplog.records)
    assert f(a, b).shape == (2, 3)  # "allow" again: the first compile is reused
    assert f.stats["traces"] == 3


def test_dtype_promotion_strict():
    f32, f64 = fnp.ones(3, "float32"), fnp.ones(3, "float64")
    with fgrad.numpy_dtype_promotion("strict"):
        with pytest.raises(TypePromotionError, match="float32.*float64.*strict"):
            f32 + f64
        with pytest.raises(TypePromotionError):
            fnp.ones(3, "int32") * f32
        assert (f32 * 2.0).dtype == np.float32  # a Python scalar is weak: allowed
        assert (f32 + f32).dtype == np.float32
    assert (f32 + f64).dtype == np.float64
    assert issubclass(TypePromotionError, ValueError)


def test_promotion_checks_live_against_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    jax.config.update("jax_enable_x64", True)
    cases = [((3,), (2, 3)), ((), (2, 3)), ((1, 3), (2, 3)), ((2, 1, 3), (3,))]
    for sa, sb in cases:
        with jax.numpy_rank_promotion("raise"):
            try:
                jnp.ones(sa) + jnp.ones(sb)
                jax_raises = False
            except ValueError:
                jax_raises = True
        with fgrad.numpy_rank_promotion("raise"):
            try:
                fnp.ones(sa) + fnp.ones(sb)
                ours = False
            except ValueError:
                ours = True
        assert ours == jax_raises, (sa, sb)
    for da, db in [("float32", "float64"), ("int32", "float32"), ("float32", "float32"), ("int64", "int64")]:
        with jax.numpy_dtype_promotion("strict"):
            try:
                jnp.ones(2, da) + jnp.ones(2, db)
                jax_raises = False
            except jax.dtypes.TypePromotionError:
                jax_raises = True
        with fgrad.numpy_dtype_promotion("strict"):
            try:
                fnp.ones(2, da) + fnp.ones(2, db)
                ours = False
            except TypePromotionError:
                ours = True
        assert ours == jax_raises, (da, db)


# -- transfer guards ---------------------------------------------------------------------------

def test_transfer_guard_host_to_device_on_every_backend(backend):
    with fgrad.transfer_guard("disallow"):
        with pytest.raises(TransferGuardError, match="Disallowed host-to-device transfer"):
            fnp.asarray(np.ones(3))
        with pytest.raises(RuntimeError, match="host-to-device"):  # JAX raises a RuntimeError
            fgrad.jit(lambda a: a * 2)(np.ones(3))
        x = fgrad.device_put(np.arange(3.0))  # explicit: allowed
        assert backend.on_device(x)
        y = fgrad.jit(lambda a: fnp.sin(a) * 2.0 + 1.0)(x)  # data already there: no transfer
        g = fgrad.grad(lambda a: fnp.sum(a ** 2))(x)
        assert backend.on_device([y, g])
        print(x)  # printing is never guarded
        repr(x)
    assert fnp.asarray(np.ones(2)).shape == (2,)  # allowed again


def test_transfer_guard_device_to_host_only_for_device_arrays(backend):
    x = backend.put(fnp.arange(3.0))
    with fgrad.transfer_guard_device_to_host("disallow"):
        if backend.is_host:  # host arrays are already on the host (JAX's CPU: the same)
            assert float(x[1]) == 1.0 and np.asarray(x).shape == (3,)
        else:
            for read in (lambda: float(x[1]), lambda: x[1].item(), lambda: np.asarray(x), lambda: x.tolist(),
                         lambda: bool(x[1] > 0)):
                with pytest.raises(TransferGuardError, match="Disallowed device-to-host transfer"):
                    read()
        np.testing.assert_allclose(fgrad.device_get(x), [0.0, 1.0, 2.0])  # explicit: allowed
        str(x)


def test_transfer_guard_numpy_operand_of_a_device_op(backend):
    if backend.is_host:
        pytest.skip("on the host a NumPy operand is not a transfer")
    x = backend.put(fnp.arange(3.0))
    with fgrad.transfer_guard_host_to_device("disallow"):
        with pytest.raises(TransferGuardError, match="NumPy operand float64\\[3\\] of add"):
            x + np.ones(3)
        np.testing.assert_allclose(fgrad.device_get(x + 1.0), [1.0, 2.0, 3.0])  # scalars are embedded


def test_transfer_guard_log_and_explicit_levels(backend, caplog):
    with caplog.at_level(logging.WARNING, logger="fgrad.transfer_guard"):
        with fgrad.transfer_guard("log"):
            fnp.asarray(np.ones(2))
    assert any("implicit host-to-device transfer" in r.getMessage() for r in caplog.records)
    with fgrad.transfer_guard("disallow_explicit"):
        with pytest.raises(TransferGuardError, match="explicit"):
            fgrad.device_put(np.ones(2))


def test_transfer_guard_config_update_and_thread_local_scopes():
    fgrad.config.update("jax_transfer_guard_host_to_device", "disallow")
    try:
        with pytest.raises(TransferGuardError):
            fnp.asarray(np.ones(2))
        with fgrad.transfer_guard_host_to_device("allow"):  # a scope overrides the global value
            fnp.asarray(np.ones(2))
    finally:
        fgrad.config.update("jax_transfer_guard_host_to_device", None)
    fnp.asarray(np.ones(2))
    with pytest.raises(ValueError, match="new enum value"):
        fgrad.config.update("jax_transfer_guard", "sometimes")


def test_transfer_guard_scope_in_one_thread_survives_another_threads_scope():
    import threading

    entered, leave = threading.Event(), threading.Event()

    def other():
        with fgrad.transfer_guard("allow"):
            pass
        with fgrad.transfer_guard("log"):
            entered.set()
            leave.wait(5)

    with fgrad.transfer_guard("disallow"):
        t = threading.Thread(target=other)
        t.start()
        entered.wait(5)
        leave.set()
        t.join()
        with pytest.raises(TransferGuardError):  # still guarded here after the other thread left
            fnp.asarray(np.ones(2))
    fnp.asarray(np.ones(2))


def test_transfer_guard_live_against_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    jax.config.update("jax_enable_x64", True)
    x = jnp.arange(3.0)
    # the same outcomes on JAX's CPU device and fgrad's host backend (also under FGRAD_BACKEND=fake)
    cases = {"asarray(numpy)": (lambda m: m.asarray(np.ones(3)), True),
             "device_put": (lambda m: (jax if m is jnp else fgrad).device_put(np.ones(3)), False),
             "np.asarray(array)": (lambda m: np.asarray(x if m is jnp else fnp.arange(3.0)), False)}
    for name, (fn, raises) in cases.items():
        for lib, guard in ((jnp, jax.transfer_guard), (fnp, fgrad.transfer_guard)):
            with guard("disallow"), fgrad.default_device("cpu"):
                try:
                    fn(lib)
                    got = False
                except RuntimeError:  # JaxRuntimeError / TransferGuardError
                    got = True
            assert got == raises, (name, lib.__name__)


# -- log_compiles -----------------------------------------------------------------------------

def test_log_compiles_logs_each_compile_and_stops_after_the_scope(caplog):
    from fgrad.core import logs

    caplog.set_level(logging.DEBUG, logger="fgrad")
    f = fgrad.jit(lambda x: x * 3.0)
    had_handler = logs._handler is not None
    with fgrad.log_compiles(True):
        f(fnp.ones(2))
        f(fnp.ones(3))  # a new shape: a second compile
        assert logs._handler is not None
    compiles = [r for r in caplog.records if r.name == "fgrad.jit" and "compiled" in r.getMessage()]
    assert len(compiles) >= 2
    assert (logs._handler is not None) == had_handler  # the stderr handler leaves with the scope


def test_jax_environment_variables_set_the_choice_options():
    from fgrad._config import apply_environment

    try:
        apply_environment({"JAX_NUMPY_RANK_PROMOTION": "raise", "JAX_TRANSFER_GUARD": "log"})
        assert fgrad.config.jax_numpy_rank_promotion == "raise"
        with pytest.raises(ValueError, match="rank_promotion"):
            fnp.ones(2) + fnp.ones((3, 2))
        with pytest.warns(UserWarning, match="JAX_NUMPY_DTYPE_PROMOTION='sloppy' ignored"):
            apply_environment({"JAX_NUMPY_DTYPE_PROMOTION": "sloppy"})  # never fails the import
    finally:
        fgrad.config.update("jax_numpy_rank_promotion", "allow")
        fgrad.config.update("jax_transfer_guard", None)
