"""`jax_debug_nans`/`jax_debug_infs` with provenance (`fgrad/core/provenance.py`): the error
names the primitive that produced the NaN/inf, the pass (forward, forward-mode derivative,
backward pass of the forward operation) and the user's source line, eagerly, under jit
(run op by op while the checks are on), vmap, grad/vjp/jvp and custom rules."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.core.ir import Eqn

HERE = os.path.abspath(__file__)


def line_of(marker: str) -> int:
    """The line number of the line of this file that ends with ``# <marker>``."""
    with open(HERE) as fh:
        for i, text in enumerate(fh, 1):
            if text.rstrip().endswith(f"# {marker}") and "line_of(" not in text:
                return i
    raise AssertionError(marker)


def at(marker: str) -> str:
    return re.escape(f"{HERE}:{line_of(marker)}")


@pytest.fixture(autouse=True)
def checks_off_after():
    yield
    fgrad.config.update("jax_debug_nans", False)
    fgrad.config.update("jax_debug_infs", False)


def inf_then_nan(x):
    y = fnp.log(x)  # LOG
    z = y - y  # SUB
    return z


TRANSFORMS = {"eager": lambda f: f, "jit": fgrad.jit, "vmap": fgrad.vmap,
              "jit_vmap": lambda f: fgrad.jit(fgrad.vmap(f))}


@pytest.mark.parametrize("how", TRANSFORMS)
def test_nan_producer_is_the_subtraction_not_the_log(how):
    # log(0) = -inf is no NaN; the NaN is made by -inf - -inf, one line later
    with fgrad.debug_nans(True):
        with pytest.raises(FloatingPointError) as info:
            TRANSFORMS[how](inf_then_nan)(fnp.zeros(3))
    msg = str(info.value)
    assert msg.startswith("invalid value (nan) encountered in sub (forward pass")
    assert "produced by: sub, from inputs without nan" in msg
    assert re.search(at("SUB"), msg) and "z = y - y" in msg
    assert str(line_of("LOG")) not in msg.split(HERE + ":")[1][:6]
    assert ("under vmap" in msg) == ("vmap" in how)


@pytest.mark.parametrize("how", TRANSFORMS)
def test_inf_producer_is_the_log(how):
    with fgrad.debug_infs(True):
        with pytest.raises(FloatingPointError) as info:
            TRANSFORMS[how](inf_then_nan)(fnp.zeros(3))
    msg = str(info.value)
    assert msg.startswith("invalid value (inf) encountered in log (forward pass")
    assert re.search(at("LOG"), msg) and "y = fnp.log(x)" in msg


def test_jit_runs_op_by_op_only_while_checks_are_on():
    calls = []

    @fgrad.jit
    def f(x):
        calls.append(1)  # a Python side effect runs once per trace, or per call when eager
        return fnp.sin(x)

    x = fnp.ones(2)
    f(x), f(x)
    assert len(calls) == 1  # traced once, then the compiled program
    with fgrad.debug_nans(True):
        f(x), f(x)
        assert fgrad.disable_jit.eager
    assert len(calls) == 3  # each call ran the Python function op by op
    assert not fgrad.disable_jit.eager
    f(x)
    assert len(calls) == 3  # the compiled program again


def sqrt_times_zero(x):
    y = fnp.sqrt(x)  # SQRT
    return (y * 0.0).sum()  # TIMES_ZERO


GRADS = {"grad": fgrad.grad, "jit_grad": lambda f: fgrad.jit(fgrad.grad(f)),
         "vmap_grad": lambda f: fgrad.vmap(fgrad.grad(f))}


@pytest.mark.parametrize("how", GRADS)
def test_nan_first_produced_in_the_backward_pass(how):
    # forward: sqrt(0) * 0 = 0; linearize: d sqrt = 0.5 / sqrt(0) = inf (not a NaN);
    # backward: the cotangent 0 (from * 0.0) times inf in sqrt's transposed derivative
    x = fnp.zeros((2, 3)) if how == "vmap_grad" else fnp.zeros(3)
    with fgrad.debug_nans(True):
        assert np.isfinite(float(sqrt_times_zero(fnp.zeros(3))))  # forward is clean
        with pytest.raises(FloatingPointError) as info:
            GRADS[how](sqrt_times_zero)(x)
    msg = str(info.value)
    assert msg.startswith("invalid value (nan) encountered in mul (backward pass of sqrt")
    assert "the forward operation's line: " in msg
    assert re.search(at("SQRT"), msg) and "y = fnp.sqrt(x)" in msg
    assert str(line_of("TIMES_ZERO")) not in msg


def test_backward_inf_names_the_linearization_with_debug_infs():
    with fgrad.debug_infs(True), pytest.raises(FloatingPointError) as info:
        fgrad.grad(sqrt_times_zero)(fnp.zeros(3))
    msg = str(info.value)
    # 0.5 / sqrt(0): computed by sqrt's derivative rule while linearizing, at sqrt's line
    assert "forward-mode derivative (JVP rule) of sqrt" in msg
    assert re.search(at("SQRT"), msg)


def test_vjp_function_checks_its_cotangents():
    with fgrad.debug_nans(True):
        _, f_vjp = fgrad.vjp(lambda x: fnp.sqrt(x), fnp.zeros(2))  # SQRT_VJP
        with pytest.raises(FloatingPointError) as info:
            f_vjp(fnp.zeros(2))
    msg = str(info.value)
    assert "backward pass of sqrt" in msg and re.search(at("SQRT_VJP"), msg)


def test_tangent_nan_under_jvp():
    with fgrad.debug_nans(True), pytest.raises(FloatingPointError) as info:
        fgrad.jvp(sqrt_times_zero, (fnp.zeros(3),), (fnp.ones(3),))
    msg = str(info.value)
    # the tangent of sqrt at 0 is inf; mul's tangent rule makes inf * 0.0 = nan
    assert "encountered in mul (forward-mode derivative (JVP rule) of mul" in msg
    assert re.search(at("TIMES_ZERO"), msg)


@fgrad.custom_vjp
def log_grad_rule(x):
    return x


def log_grad_fwd(x):
    return x, x


def log_grad_bwd(x, g):
    return (g * fnp.log(x - x),)  # BWD_RULE


log_grad_rule.defvjp(log_grad_fwd, log_grad_bwd)


def uses_custom_rule(x):
    y = log_grad_rule(x)  # CUSTOM_CALL
    return (y * 0.0).sum()


@pytest.mark.parametrize("how", GRADS)
def test_custom_vjp_bwd_that_produces_nan_is_named(how):
    x = fnp.ones((2, 3)) if how == "vmap_grad" else fnp.ones(3)
    with fgrad.debug_nans(True), pytest.raises(FloatingPointError) as info:
        GRADS[how](uses_custom_rule)(x)
    msg = str(info.value)
    assert "backward pass of custom_vjp function log_grad_rule (bwd rule log_grad_bwd)" in msg
    assert re.search("in the rule, at: " + at("BWD_RULE"), msg)
    assert re.search("the forward operation's line: " + at("CUSTOM_CALL"), msg)


def test_nan_in_the_input_is_not_blamed_on_an_operation():
    x = fnp.asarray([1.0, float("nan")])
    with fgrad.debug_nans(True), pytest.raises(FloatingPointError) as info:
        fnp.exp(x) + 1.0  # INPUT_NAN
    msg = str(info.value)
    assert "not produced by exp: its input 0 (float64[2]) already had nan values" in msg
    assert "produced by: exp" not in msg
    assert re.search(at("INPUT_NAN"), msg)
    with fgrad.debug_nans(True), pytest.raises(FloatingPointError, match="its input 1 .* already"):
        fgrad.grad(lambda w, v: (w * v).sum())(fnp.ones(2), x)


def test_config_update_and_nesting_restore():
    fgrad.config.update("jax_debug_nans", True)
    with pytest.raises(FloatingPointError, match=r"encountered in log \(forward pass\)"):
        fnp.log(-1.0)
    with fgrad.debug_nans(False):
        assert np.isnan(float(fnp.log(-1.0)))
    assert fgrad.config.jax_debug_nans is True
    fgrad.config.update("jax_debug_nans", False)
    assert np.isnan(float(fnp.log(-1.0)))


def test_nothing_is_recorded_while_checks_are_off():
    seen = []
    orig = Eqn.__init__

    def spy(self, *a, **k):
        orig(self, *a, **k)
        seen.append(self)

    Eqn.__init__ = spy
    try:
        fgrad.vmap(fgrad.grad(sqrt_times_zero))(fnp.ones((2, 3)))
        assert seen and all(e.source is None for e in seen)
        seen.clear()
        with fgrad.debug_nans(True):
            fgrad.vmap(fgrad.grad(sqrt_times_zero))(fnp.ones((2, 3)))
        assert any(e.source is not None and e.source.label == "sqrt" for e in seen)
    finally:
        Eqn.__init__ = orig


@pytest.mark.parametrize("var", ["FGRAD_DEBUG_NANS", "JAX_DEBUG_NANS"])
def test_environment_variable_turns_the_checks_on(var):
    code = ("import fgrad, fgrad.numpy as fnp\n"
            "assert fgrad.config.jax_debug_nans\n"
            "try:\n    fnp.log(-1.0)\nexcept FloatingPointError as e:\n    print(e)\n")
    env = dict(os.environ, **{var: "1"})
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(HERE))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "invalid value (nan) encountered in log (forward pass)" in out.stdout
    assert "<string>:4" in out.stdout


OPS = [fnp.sin, fnp.tanh, fnp.exp, lambda x: fnp.log(1.0 + x * x), lambda x: fnp.sqrt(1.0 + x * x),
       lambda x: x / (2.0 + fnp.cos(x)), lambda x: fnp.maximum(x, 0.5) ** 2]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(-3, 3), min_size=1, max_size=4), st.integers(0, len(OPS) - 1),
       st.sampled_from(["eager", "jit", "grad", "vmap_grad"]))
def test_no_false_positives_on_valid_inputs(values, k, how):
    op = OPS[k]

    def f(x):
        return op(x).sum()

    run = {"eager": f, "jit": fgrad.jit(f), "grad": fgrad.grad(f),
           "vmap_grad": lambda x: fgrad.vmap(fgrad.grad(lambda v: op(v)))(x)}[how]
    x = fnp.asarray(values)
    expected = np.asarray(run(x))
    with fgrad.debug_nans(True), fgrad.debug_infs(True):
        checked = np.asarray(run(x))
    np.testing.assert_allclose(checked, expected, rtol=1e-12, atol=0)


def scan_body(c, x):
    y = fnp.log(x)
    return c + (y - y), None  # SCAN_BODY


def run_scan(xs):
    return fgrad.lax.scan(scan_body, 0.0, xs)[0]  # SCAN_CALL


@pytest.mark.parametrize("how", ["eager", "jit"])
def test_nan_inside_a_scan_body_names_the_body_line(how):
    with fgrad.debug_nans(True), pytest.raises(FloatingPointError) as info:
        TRANSFORMS[how](run_scan)(fnp.zeros(3))
    msg = str(info.value)
    assert msg.startswith("invalid value (nan) encountered in sub (forward pass)")
    assert re.search("in a traced body .*, at: " + at("SCAN_BODY"), msg)
    assert re.search(r"\n  at: " + at("SCAN_CALL"), msg)


def cond_of_log(x):
    return fgrad.lax.cond(x > 0, lambda v: v * 2.0,
                          lambda v: fnp.sqrt(v - 1.0), x)  # COND_BRANCH


def test_nan_inside_a_cond_branch():
    with fgrad.debug_nans(True):
        assert float(cond_of_log(fnp.asarray(2.0))) == 4.0
        with pytest.raises(FloatingPointError) as info:
            cond_of_log(fnp.asarray(-1.0))
    msg = str(info.value)
    assert "encountered in sqrt (forward pass)" in msg
    assert re.search("in a traced body .*, at: " + at("COND_BRANCH"), msg)


def sqrt_scan(xs):
    def body(c, x):
        return c + fnp.sqrt(x) * 0.0, None

    return fgrad.lax.scan(body, 0.0, xs)[0]  # SQRT_SCAN


def test_nan_in_the_backward_pass_of_a_scan():
    with fgrad.debug_nans(True):
        assert float(sqrt_scan(fnp.zeros(3))) == 0.0
        with pytest.raises(FloatingPointError) as info:
            fgrad.grad(sqrt_scan)(fnp.zeros(3))
    msg = str(info.value)
    assert "(backward pass of scan)" in msg
    assert re.search("the forward operation's line: " + at("SQRT_SCAN"), msg)
    assert "in a traced body" not in msg  # the reverse sweep's body is not the user's code


def test_control_flow_results_unchanged_while_checked():
    xs = fnp.linspace(0.5, 2.0, 4)

    def f(xs):
        c = fgrad.lax.scan(lambda c, x: (c * 0.5 + fnp.sin(x), c), 1.0, xs)
        w = fgrad.lax.fori_loop(0, 3, lambda i, s: (s[0] + 1, s[1] * 1.5), (0, c[0]))
        return w[1] + fgrad.lax.cond(c[0] > 0, fnp.exp, fnp.cos, c[0]) + c[1].sum()

    def g(x):  # a while loop (forward mode only)
        return fgrad.lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1] * 1.5), (0, x))[1]

    expected = (float(f(xs)), np.asarray(fgrad.grad(f)(xs)), fgrad.jvp(g, (2.0,), (1.0,)))
    with fgrad.debug_nans(True), fgrad.debug_infs(True):
        assert float(f(xs)) == expected[0]
        np.testing.assert_allclose(fgrad.grad(f)(xs), expected[1], rtol=1e-14)
        assert fgrad.jvp(g, (2.0,), (1.0,)) == expected[2]
