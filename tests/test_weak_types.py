"""JAX's weak types on fgrad arrays and tracers.

Each expression of ``tests/weak_type_cases.py`` must give JAX's dtype and weak type: the
stored numbers (``tests/stored/weak_types_jax.json``, JAX 0.10.2 with x64, written by
``tools/make_weak_type_table.py``) always, and JAX's live output when JAX is installed
(hypothesis draws a sample of the dtype grid).  The optax regressions (``MultiSteps``'s
``1 - bool_array`` counter, ``b1=jnp.asarray(0.9)``) are written out on their own.
"""

from __future__ import annotations

import contextlib
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from weak_type_cases import BINARY, STRONG, WEAK

STORED = json.loads((Path(__file__).parent / "stored" / "weak_types_jax.json").read_text())["cases"]
FGRAD_NAMES = {"jnp": fnp, "lax": lax, "jax": fgrad, "np": np}


def _on_a_device_for(expr: str):
    """bfloat16 arrays live on the CPU (CuPy, and the fake device standing in for it, have no
    bfloat16); other cases run on the configured default device."""
    return fgrad.default_device("cpu") if "bfloat16" in expr else contextlib.nullcontext()


def fgrad_result(expr: str) -> list:
    try:
        with _on_a_device_for(expr):
            r = eval(expr, dict(FGRAD_NAMES))  # noqa: S307 - the expressions of weak_type_cases
    except TypeError as e:
        return ["TypeError", str(e)]
    return [r.dtype.name, bool(r.weak_type)]


def _same(got: list, want: list) -> bool:
    if want[0] == "TypeError":
        return got[0] == "TypeError"
    return got == want


@pytest.mark.parametrize("expr", sorted(STORED))
def test_dtype_and_weak_type_as_jax(expr):
    got = fgrad_result(expr)
    assert _same(got, STORED[expr]), f"{expr}: fgrad gives {got}, JAX {STORED[expr]}"


@pytest.fixture(scope="module")
def live_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    return {"jnp": jnp, "lax": jax.lax, "jax": jax, "np": np}


@settings(max_examples=25, deadline=None)
@given(d=st.sampled_from(STRONG), w=st.sampled_from(WEAK), op=st.sampled_from(BINARY),
       scale=st.sampled_from([1, 3, -2]))
def test_dtype_grid_against_live_jax(live_jax, d, w, op, scale):
    """A sample of the grid, with other values than the stored ones: the values as well as
    dtype and weak type agree."""
    expr = op.format(a=f"(jnp.ones(2, '{d}') * {scale})", w=w)
    want = eval(expr, dict(live_jax))  # noqa: S307
    with _on_a_device_for(expr):
        got = eval(expr, dict(FGRAD_NAMES))  # noqa: S307
    assert (got.dtype.name, bool(got.weak_type)) == (want.dtype.name, bool(want.weak_type)), expr
    np.testing.assert_allclose(np.asarray(got).astype(np.complex128),
                               np.asarray(want).astype(np.complex128), rtol=1e-2)


def test_optax_multisteps_counter_stays_int32():
    # optax.MultiSteps: gradient_step = emit * (step + 1) + (1 - emit) * step, with int32 steps;
    # inside lax.cond both branches must give int32 (JAX: int32)
    step = fnp.asarray(4, fnp.int32)

    def update(step, emit):
        return emit * (step + 1) + (1 - emit) * step

    for emit in (fnp.asarray(True), fnp.asarray(False)):
        out = update(step, emit)
        assert (out.dtype, out.weak_type, int(out)) == (np.int32, False, 4 + bool(emit))
    out = lax.cond(True, lambda s: update(s, s == 4), lambda s: s, step)
    assert (out.dtype, int(out)) == (np.int32, 5)
    out = fgrad.jit(update)(step, fnp.asarray(True))
    assert (out.dtype, int(out)) == (np.int32, 5)


def test_weak_concrete_array_takes_the_parameters_dtype():
    # optax's inject_hyperparams test: b1 = jnp.asarray(0.9) with float32 parameters
    b1 = fnp.asarray(0.9)
    p = fnp.ones(3, fnp.float32)
    assert b1.weak_type and (b1 * p).dtype == np.float32
    assert not (b1 * p).weak_type
    assert fgrad.jit(lambda b, p: b * p)(b1, p).dtype == np.float32
    assert fgrad.grad(lambda p: fnp.sum(b1 * p))(p).dtype == np.float32


def test_weak_flag_survives_pickle_copy_and_shows_in_repr():
    import pickle

    x = fnp.asarray(2.5)
    assert pickle.loads(pickle.dumps(x)).weak_type and x.copy().weak_type
    with fgrad.default_device("cpu"):  # (a device array's repr also names its device)
        assert repr(fnp.asarray(2.5)) == "Array(2.5, dtype=float64, weak_type=True)"
        assert repr(fnp.asarray(np.float64(2.5))) == "Array(2.5, dtype=float64)"


def test_weak_operand_is_cast_in_the_traced_program():
    # the staged program converts the weak operand, so the compiled code computes in int32
    jaxpr = fgrad.make_jaxpr(lambda b, c: (1 - b) * c)(fnp.asarray(True), fnp.asarray(3, fnp.int32))
    names = [e.primitive.name for e in jaxpr.eqns]
    assert names == ["sub", "convert_element_type", "mul"]
    assert jaxpr.out_avals[0].dtype == np.int32


def test_is_weakly_typed_and_convert_element_type_weak_type():
    from fgrad import dtypes

    assert dtypes.is_weakly_typed(1.0) and dtypes.is_weakly_typed(fnp.asarray(1))
    assert not dtypes.is_weakly_typed(True) and not dtypes.is_weakly_typed(fnp.ones(2))
    assert not dtypes.is_weakly_typed(np.float64(1.0))
    w = lax._convert_element_type(fnp.ones(2, fnp.float32), np.float64, weak_type=True)
    assert (w.dtype, w.weak_type) == (np.float64, True)
    assert (w * fnp.ones(2, fnp.float32)).dtype == np.float32
    traced = fgrad.jit(lambda x: lax._convert_element_type(x, np.float64, weak_type=True))(
        fnp.ones(2, fnp.float32))
    assert traced.weak_type
    s = lax._convert_element_type(fnp.asarray(1.0), weak_type=False)
    assert (s.dtype, s.weak_type) == (np.float64, False)


def test_gradient_through_weak_cast():
    # d/dx of (weak 0.5 * x) for float32 x: the weak constant is cast, the derivative is 0.5
    g = fgrad.grad(lambda x: fnp.sum(fnp.asarray(0.5) * x ** 2))(fnp.asarray([1.0, 2.0], fnp.float32))
    assert g.dtype == np.float32 and np.allclose(np.asarray(g), [1.0, 2.0])
    # vmap over a weak batch keeps it weak (JAX: float64, weak_type=True)
    out = fgrad.vmap(lambda x: x * 2)(fnp.full(3, 2.0))
    assert out.weak_type and math.isclose(float(out[0]), 4.0)


# (expression, JAX 0.10.2's repr with x64 off): vmap broadcasts an unmapped output made from
# Python numbers as a weakly typed array
_VMAP_UNMAPPED_OUTPUTS = [
    ("jax.vmap(lambda x, y: (x + y, y * 2.), in_axes=(0, None), out_axes=0)(jnp.arange(2.), 4.)",
     "(Array([4., 5.], dtype=float32), Array([8., 8.], dtype=float32, weak_type=True))"),
    ("jax.vmap(lambda x: 3)(jnp.arange(2.))", "Array([3, 3], dtype=int32, weak_type=True)"),
    ("jax.vmap(lambda x: 3.)(jnp.arange(2.))", "Array([3., 3.], dtype=float32, weak_type=True)"),
    ("jax.vmap(lambda x: True)(jnp.arange(2.))", "Array([ True,  True], dtype=bool)"),
]


@pytest.mark.parametrize("expr, jax_repr", _VMAP_UNMAPPED_OUTPUTS)
def test_vmap_unmapped_python_number_outputs_are_weak(expr, jax_repr):
    """jax.vmap's docstring example printed ``Array([8., 8.], dtype=float32)``: the unmapped
    Python-float output lost its weak type when broadcast over the batch."""
    with fgrad.enable_x64(False), fgrad.default_device("cpu"):  # (a repr names other devices)
        assert repr(eval(expr, {"jax": fgrad, "jnp": fnp})) == jax_repr  # noqa: S307
    jax = pytest.importorskip("jax")
    with jax.enable_x64(False):
        assert repr(eval(expr, {"jax": jax, "jnp": jax.numpy})) == jax_repr  # noqa: S307


# ---------------------------------------------------------------------------------------------
# session 15: differences found by running JAX's jax.numpy docstring examples on fgrad
# (tools/jax_docstring_examples.py); snippets and JAX's output in tests/stored/jax_docstring_fixes.json
from jax_snippets import snippet_tests  # noqa: E402

test_jax_docstring_fixes_weak, test_jax_docstring_fixes_weak_live = snippet_tests("weak")

# session 16: linear_call of Python numbers computes with weak values, and linear_transpose's
# Python-number cotangent is weak where the function's output is (JAX's linear_call example)
test_jax_weak_linear, test_jax_weak_linear_live = snippet_tests("weak_linear")
