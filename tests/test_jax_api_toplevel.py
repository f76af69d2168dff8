"""The top level of the JAX API: `.at[]` (every method, modes), Array attributes, check_grads,
eval_shape / make_jaxpr / ShapeDtypeStruct, ensure_compile_time_eval, device functions,
named_call / named_scope, ravel_pytree, jacobian.  JAX numbers are stored (JAX 0.10.2) and
compared live when JAX is installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.flatten_util import ravel_pytree
from fgrad.test_util import check_grads


def at_cases(np_, I):
    x = np_.arange(5.0) - 1.0  # [-1, 0, 1, 2, 3]
    return {
        "get-oob-clamped": lambda: x.at[7].get(),
        "get-array-clamped": lambda: x.at[I([1, 7, -9])].get(),
        "get-fill": lambda: x.at[I([1, 7])].get(mode="fill", fill_value=-5.0),
        "get-drop-nan": lambda: x.at[I([1, 7])].get(mode="drop"),
        "get-clip": lambda: x.at[I([1, 7])].get(mode="clip"),
        "set-oob-dropped": lambda: x.at[I([1, 7])].set(9.0),
        "set-clip": lambda: x.at[I([1, 7])].set(9.0, mode="clip"),
        "set-promise": lambda: x.at[I([1, 2])].set(9.0, mode="promise_in_bounds", unique_indices=True),
        "add-repeated": lambda: x.at[I([1, 1, 3])].add(2.0, indices_are_sorted=True),
        "multiply-repeated": lambda: x.at[I([2, 2])].multiply(3.0),
        "divide-repeated": lambda: x.at[I([3, 3])].divide(2.0),
        "power-repeated": lambda: x.at[I([3, 3, 4])].power(2.0),
        "power-slice": lambda: x.at[1:3].power(3.0),
        "min": lambda: x.at[I([0, 4])].min(0.5),
        "max": lambda: x.at[I([0, 4])].max(0.5),
        "apply-repeated": lambda: x.at[I([2, 2, 4])].apply(lambda v: v * 10.0 + 1.0),
        "apply-slice": lambda: x.at[::2].apply(lambda v: -v),
        "apply-2d": lambda: (np_.arange(6.0).reshape(2, 3)).at[I([0, 0]), I([1, 1])].apply(lambda v: v + 1.0),
    }


# JAX 0.10.2 (x64) results
AT_STORED = {
    'get-oob-clamped': 3.0,
    'get-array-clamped': [0.0, 3.0, -1.0],
    'get-fill': [0.0, -5.0],
    'get-drop-nan': [0.0, math.nan],
    'get-clip': [0.0, 3.0],
    'set-oob-dropped': [-1.0, 9.0, 1.0, 2.0, 3.0],
    'set-clip': [-1.0, 9.0, 1.0, 2.0, 9.0],
    'set-promise': [-1.0, 9.0, 9.0, 2.0, 3.0],
    'add-repeated': [-1.0, 4.0, 1.0, 4.0, 3.0],
    'multiply-repeated': [-1.0, 0.0, 9.0, 2.0, 3.0],
    'divide-repeated': [-1.0, 0.0, 1.0, 0.5, 3.0],
    'power-repeated': [-1.0, 0.0, 1.0, 16.0, 9.0],
    'power-slice': [-1.0, 0.0, 1.0, 2.0, 3.0],
    'min': [-1.0, 0.0, 1.0, 2.0, 0.5],
    'max': [0.5, 0.0, 1.0, 2.0, 3.0],
    'apply-repeated': [-1.0, 0.0, 111.0, 2.0, 31.0],
    'apply-slice': [1.0, 0.0, -1.0, 2.0, -3.0],
    'apply-2d': [[0.0, 3.0, 2.0], [3.0, 4.0, 5.0]],
}


@pytest.mark.parametrize("name", sorted(AT_STORED))
def test_at_methods_match_stored_jax(name):
    got = at_cases(fnp, fnp.asarray)[name]()
    np.testing.assert_array_equal(np.asarray(got), np.asarray(AT_STORED[name]))


@pytest.mark.parametrize("name", sorted(AT_STORED))
def test_at_methods_match_live_jax(name):
    jax = pytest.importorskip("jax")
    want = at_cases(jax.numpy, jax.numpy.asarray)[name]()  # float32 in JAX's default mode
    np.testing.assert_allclose(np.asarray(at_cases(fnp, fnp.asarray)[name]()), np.asarray(want),
                               rtol=1e-6)


@pytest.mark.parametrize("transform", ["jit", "grad"])
def test_at_apply_and_power_under_transforms(transform):
    idx = fnp.asarray([1, 1, 2])

    def f(x):
        return fnp.sum(x.at[idx].apply(fnp.sin) + x.at[idx].power(2.0))

    x = fnp.asarray([0.3, 0.7, 1.1])
    if transform == "jit":
        s1 = math.sin(math.sin(0.7))
        expected = 0.3 + s1 + math.sin(1.1) + 0.3 + 0.7 ** 4 + 1.1 ** 2
        np.testing.assert_allclose(float(fgrad.jit(f)(x)), expected)
    else:
        g = fgrad.grad(f)(x)
        d1 = math.cos(math.sin(0.7)) * math.cos(0.7) + 4 * 0.7 ** 3
        np.testing.assert_allclose(np.asarray(g), [2.0, d1, math.cos(1.1) + 2 * 1.1])


def test_at_rejects_unknown_modes():
    x = fnp.zeros(3)
    with pytest.raises(ValueError, match="Unknown scatter mode 'bogus'"):
        x.at[0].set(1.0, mode="bogus")
    with pytest.raises(ValueError, match="Unknown gather mode"):
        x.at[0].get(mode="wrap-around")


def test_at_get_fill_defaults_follow_jax():
    assert np.asarray(fnp.arange(3).at[fnp.asarray([5])].get(mode="fill"))[0] == np.iinfo(np.int64).min
    assert np.asarray(fnp.arange(3, dtype="uint8").at[fnp.asarray([5])].get(mode="fill"))[0] == 255


def test_array_attributes():
    x = fnp.arange(3.0)
    assert x.sharding.device == x.device and x.sharding.device_set == x.devices() == {x.device}
    assert x.is_fully_addressable and x.sharding.is_fully_addressable
    assert x.addressable_data(0) is x
    with pytest.raises(IndexError):
        x.addressable_data(1)
    y = x.copy()
    assert y is not x and np.shares_memory(np.asarray(y), np.asarray(x)) is False
    np.testing.assert_array_equal(np.asarray(y), [0.0, 1.0, 2.0])
    assert x.block_until_ready() is x and x[2].item() == 2.0
    assert fgrad.jit(lambda v: v.copy() * 2)(x)[1] == 2.0


# ---- check_grads -------------------------------------------------------------------------------

def _tree_fn(m):
    def f(params, x):
        return m.numpy.tanh(params["w"] * x + params["b"]) ** 2

    return f


def test_check_grads_passes_on_correct_derivatives():
    params = {"w": fnp.asarray([0.5, -1.2]), "b": fnp.asarray(0.3)}
    check_grads(_tree_fn(fgrad), (params, fnp.asarray([1.0, 2.0])), order=2, modes=("fwd", "rev"))
    check_grads(lambda x: x ** 3, (1.5,), 3, modes=["rev"], atol=1e-4, rtol=1e-4, eps=1e-4)


def _wrong_sin(m):
    @m.custom_jvp
    def f(x):
        return m.numpy.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return m.numpy.sin(x), 1.1 * m.numpy.cos(x) * t  # 10% off

    return f


@pytest.mark.parametrize("modes", [("fwd",), ("rev",)])
def test_check_grads_catches_a_wrong_derivative(modes):
    with pytest.raises(AssertionError):
        check_grads(_wrong_sin(fgrad), (fnp.asarray([0.3, 0.9]),), order=1, modes=modes)
    jax = pytest.importorskip("jax")
    from jax.test_util import check_grads as jax_check_grads

    with pytest.raises(AssertionError):
        jax_check_grads(_wrong_sin(jax), (jax.numpy.asarray([0.3, 0.9]),), order=1, modes=modes)


# ---- tracing to shapes and programs --------------------------------------------------------------

def test_eval_shape_and_shape_dtype_struct():
    a = fgrad.ShapeDtypeStruct((2, 3), np.float32)
    out = fgrad.eval_shape(lambda a, b: {"mm": a @ b, "s": a.sum()}, a, fnp.ones((3, 4), "float32"))
    # JAX 0.10.2 prints: {'mm': ShapeDtypeStruct(shape=(2, 4), dtype=float32),
    #                     's': ShapeDtypeStruct(shape=(), dtype=float32)}
    assert repr(out) == ("{'mm': ShapeDtypeStruct(shape=(2, 4), dtype=float32), "
                         "'s': ShapeDtypeStruct(shape=(), dtype=float32)}")
    assert a == fgrad.ShapeDtypeStruct((2, 3), "float32") and (a.ndim, a.size) == (2, 6)
    jax = pytest.importorskip("jax")
    ja = jax.ShapeDtypeStruct((2, 3), np.float32)
    jout = jax.eval_shape(lambda a, b: {"mm": a @ b, "s": a.sum()}, ja, jax.numpy.ones((3, 4), "float32"))
    assert repr(jout) == repr(out)


def test_make_jaxpr_is_a_closed_jaxpr():
    c = fnp.asarray([1.0, 2.0, 3.0])
    cj = fgrad.make_jaxpr(lambda x: fnp.sin(x) * c)(fnp.zeros(3))
    assert [e.primitive.name for e in cj.eqns] == ["sin", "mul"]
    assert [a.shape for a in cj.in_avals] == [(3,)] and [str(a.dtype) for a in cj.out_avals] == ["float64"]
    assert len(cj.consts) == 1 and np.asarray(cj.consts[0]).tolist() == [1.0, 2.0, 3.0]
    assert cj.jaxpr.eqns == cj.eqns and "sin" in str(cj)
    cj2, shapes = fgrad.make_jaxpr(lambda x: (x, x.sum()), return_shape=True)(
        fgrad.ShapeDtypeStruct((4,), "float32"))
    assert repr(shapes) == ("(ShapeDtypeStruct(shape=(4,), dtype=float32), "
                            "ShapeDtypeStruct(shape=(), dtype=float32))")  # as JAX 0.10.2


def test_ensure_compile_time_eval_makes_constants_concrete_under_jit():
    def f(x):
        with fgrad.ensure_compile_time_eval():
            n = int(fnp.sum(fnp.arange(4)))
        return x * n

    assert float(fgrad.jit(f)(fnp.asarray(2.0))) == 12.0
    assert float(fgrad.grad(fgrad.jit(f))(fnp.asarray(2.0))) == 6.0
    with pytest.raises(fgrad.errors.ConcretizationTypeError):
        fgrad.jit(lambda x: x * int(fnp.sum(fnp.arange(4))))(fnp.asarray(2.0))


# ---- devices, processes, names -------------------------------------------------------------------

def test_device_functions_single_process():
    x = {"w": fnp.arange(3.0), "n": 2}
    got = fgrad.device_get(x)
    assert type(got["w"]) is np.ndarray and got["n"] == 2
    assert fgrad.block_until_ready(x) is x
    assert (fgrad.process_index(), fgrad.process_count()) == (0, 1)
    platform = fgrad.backends.default_device().platform  # cpu, or the (stand-in) GPU
    assert fgrad.default_backend() == {"cpu": "cpu", "cuda": "gpu"}.get(platform, platform)
    assert fgrad.local_device_count() == len(fgrad.local_devices()) >= 1
    devs = fgrad.local_devices()[:1]
    assert fgrad.device_put_replicated(fnp.arange(2.0), devs).shape == (1, 2)
    stacked = fgrad.device_put_sharded([{"a": fnp.zeros(2)}], devs)
    assert stacked["a"].shape == (1, 2)
    with pytest.raises(ValueError, match="2 shards"):
        fgrad.device_put_sharded([fnp.zeros(2)] * 2, devs)


def test_named_call_and_scope_keep_the_program():
    f = fgrad.named_call(lambda x: fnp.sin(x) * x, name="layer")
    with fgrad.named_scope("block"):
        g = fgrad.grad(f)(0.5)
    assert abs(float(g) - (math.cos(0.5) * 0.5 + math.sin(0.5))) < 1e-12
    assert str(fgrad.make_jaxpr(f)(0.5)) == str(fgrad.make_jaxpr(lambda x: fnp.sin(x) * x)(0.5))


def test_ravel_pytree_round_trip_dtypes_and_grad():
    tree = {"a": fnp.ones(2, "float32"), "b": fnp.arange(3), "c": (fnp.asarray(True),)}
    flat, unravel = ravel_pytree(tree)
    assert flat.shape == (6,) and flat.dtype == np.float32  # JAX's lattice: int64 with float32 is float32
    back = unravel(fnp.arange(6.0))
    dtypes = [str(back["a"].dtype), str(back["b"].dtype), str(back["c"][0].dtype)]
    assert dtypes == ["float32", "int64", "bool"]
    np.testing.assert_array_equal(np.asarray(back["b"]), [2, 3, 4])
    with pytest.raises(ValueError, match=r"shape \(6,\)"):
        unravel(fnp.zeros(5))
    params = {"w": fnp.asarray([1.0, 2.0]), "b": fnp.asarray(0.5)}
    v, un = ravel_pytree(params)
    g = fgrad.grad(lambda v: fnp.sum(un(v)["w"] ** 2) + un(v)["b"])(v)
    np.testing.assert_array_equal(np.asarray(g), [1.0, 2.0, 4.0])  # leaves in key order: b, w
    assert ravel_pytree({})[0].shape == (0,)


def test_jacobian_is_jacrev():
    f = lambda x: fnp.stack([x[0] * x[1], fnp.sin(x[1])])  # noqa: E731
    x = fnp.asarray([2.0, 0.5])
    np.testing.assert_allclose(np.asarray(fgrad.jacobian(f)(x)), np.asarray(fgrad.jacfwd(f)(x)))
    assert fgrad.jacobian is fgrad.jacrev


# JAX 0.10.2's reprs of the values a function sees while jit/make_jaxpr trace it (x64 off)
_JIT_TRACER_REPRS = [("jit", "arange3", "JitTracer(int32[3])"),
                     ("jit", "py_float", "JitTracer(~float32[])"),
                     ("make_jaxpr", "py_float", "JitTracer(~float32[])"),
                     ("jit", "bool", "JitTracer(bool[])"),
                     ("jit", "bf16", "JitTracer(bfloat16[2,3])")]


def _traced_repr(m, transform, arg):
    seen = []

    def f(x):
        seen.append((repr(x), str(x), f"{x}"))
        return x

    args = {"arange3": lambda: m.numpy.arange(3), "py_float": lambda: 1.0, "bool": lambda: True,
            "bf16": lambda: m.numpy.ones((2, 3), m.numpy.bfloat16)}
    getattr(m, transform)(f)(args[arg]())
    return seen[0]


@pytest.mark.parametrize("transform, arg, expected", _JIT_TRACER_REPRS)
def test_jit_tracer_repr_is_jaxs(transform, arg, expected):
    """``print(y)`` inside a jitted function (jax.disable_jit's docstring example) printed
    ``Traced<int32[3]>with<StagingTrace>``; JAX prints ``JitTracer(int32[3])``."""
    with fgrad.enable_x64(False), fgrad.default_device("cpu"):  # (bfloat16 lives on the CPU)
        assert _traced_repr(fgrad, transform, arg) == (expected,) * 3
    jax = pytest.importorskip("jax")
    with jax.enable_x64(False):
        assert _traced_repr(jax, transform, arg) == (expected,) * 3


def test_fwd_and_bwd_matches_vjp_and_traces_once():
    """``jax.fwd_and_bwd`` (missing: its docstring example raised AttributeError): bwd's
    cotangents are vjp's (analytic here), both passes are traced once across steps, and
    ``has_aux``/an int ``argnums`` return JAX's structures."""
    calls = []

    def f(x, w):
        calls.append(1)
        return fnp.sin(x) @ w

    x = fnp.arange(12.0).reshape(3, 4) / 10
    w = fnp.ones((4, 2))
    ct = fnp.ones((3, 2))
    fwd, bwd = fgrad.fwd_and_bwd(f, argnums=(0, 1))
    for _ in range(3):
        y, res = fwd(x, w)
        gx, gw = bwd(res, ct)
    assert len(calls) == 2  # one trace of fwd, one of bwd
    np.testing.assert_allclose(np.asarray(y), np.sin(np.asarray(x)) @ np.ones((4, 2)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gx), np.cos(np.asarray(x)) * 2.0, rtol=1e-12)  # ct @ w.T = 2
    np.testing.assert_allclose(np.asarray(gw), np.sin(np.asarray(x)).T @ np.ones((3, 2)), rtol=1e-12)
    fwd1, bwd1 = fgrad.fwd_and_bwd(lambda a, b: (fnp.sum(a * b), a), argnums=1, has_aux=True,
                                   jitted=False)
    y1, res1, aux = fwd1(fnp.arange(3.0), fnp.ones(3))
    assert float(y1) == 3.0 and np.asarray(aux).tolist() == [0.0, 1.0, 2.0]
    assert np.asarray(bwd1(res1, 1.0)).tolist() == [0.0, 1.0, 2.0]  # d/db sum(a b) = a
    jax = pytest.importorskip("jax")
    jfwd, jbwd = jax.fwd_and_bwd(lambda a, b: (jax.numpy.sum(a * b), a), argnums=1, has_aux=True)
    jy, jres, jaux = jfwd(jax.numpy.arange(3.0), jax.numpy.ones(3))
    assert np.asarray(jbwd(jres, 1.0)).tolist() == [0.0, 1.0, 2.0]


# session 16 (JAX's docstring examples): a buffer donated to ``jit`` is deleted when a result can
# reuse it (reading it raises RuntimeError), ``Array.delete``/``is_deleted``, a donated array also
# passed undonated raises, ``Lowered.cost_analysis()``, and the vmap/JVP/grad tracers' reprs;
# snippets and JAX 0.10.2's output in tests/stored/jax_docstring_fixes.json
from jax_snippets import snippet_tests  # noqa: E402

test_jax_stages_donation_tracers, test_jax_stages_donation_tracers_live = snippet_tests(
    "stages_donation_tracers")
