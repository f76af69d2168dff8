"""Round 12 of the JAX programs (tests/jax_programs_round12/): `jax.export` (export, the
`Exported` attributes, `call` under jit and grad), the persistent compilation cache's
configuration, `jax.experimental.jet`, checkify under every transformation and error set,
``jax_debug_nans``/``jax_debug_infs``, type promotion and the dtype helpers (float8 too),
integer and bit-level code, ufunc objects, NaN-aware order statistics and `unique(size=)`,
custom `lax.reduce`/`reduce_window` computations, `tree_util.Partial` and keyed pytrees,
`closure_convert` in implicit differentiation, `pmap` on one device, rotations
(`jax.scipy.spatial.transform`), k-means with `jax.scipy.cluster.vq` and sorting utilities,
and polynomials and quadrature -- run unchanged with ``import jax`` resolved to fgrad
(``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with ``JAX_ENABLE_X64=1``.
Their output is compared with JAX 0.10.2's, stored in ``jax_programs_round12/expected/``
(and with the installed JAX by the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).  Below them, the regression tests of the defects
the programs found (docs/jax-api-round12.md).

The default run runs two programs in 32-bit mode; ``pytest tests/test_jax_programs_round12.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import export, lax
from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round12"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"dtype_odds", "tree_partial"}  # the default run's programs (32-bit mode)
RTOL_PROGRAM = {
    # float32 programs in both modes: XLA's float32 sin/exp differ from NumPy's by an ulp
    ("export_call", "64"): 2e-5,
    # the third Taylor term of sqrt cancels in float32
    ("jet_taylor", "32"): 1e-4,
    # the SGD loss falls to 1e-4, where float32 rounding of the weights shows
    ("pmap_one_device", "32"): 2e-4,
    # float32 polyfit/roots/eigh (LAPACK against XLA's own eigensolver and root finder)
    ("polynomials", "32"): 1e-3,
}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 15)


# ---- jax.export -------------------------------------------------------------------------------


def _model(params, batch):
    h = fnp.tanh(batch["x"] @ params["w"] + params["b"])
    return {"mean": h.mean(axis=0), "out": h}, fnp.sum(h**2)


def _loop(x, n):
    def body(i, c):
        return lax.cond(i % 2 == 0, lambda v: v * 1.5, lambda v: fnp.cos(v), c)

    return lax.fori_loop(0, n, body, x), lax.cumsum(x)


def test_export_attributes_and_call():
    """``jax.export`` was missing (ImportError under the alias).  `export(jit(f))(*specs)`
    gives JAX's attributes; `call` checks the arguments and runs under jit, grad and vmap."""
    f32 = fnp.float32
    spec = fgrad.ShapeDtypeStruct((3,), f32)
    exp = export.export(fgrad.jit(lambda x, y: fnp.sin(x) * y + fnp.sum(x)))(spec, spec)
    assert (
        exp.fun_name == "<lambda>"
        and exp.nr_devices == 1
        and exp.platforms == (("cpu",) if fgrad.default_backend() == "cpu" else ("cuda",))
    )
    assert str(exp.in_avals) == "(ShapedArray(float32[3]), ShapedArray(float32[3]))"
    assert str(exp.out_avals) == "(ShapedArray(float32[3]),)"
    assert str(exp.in_tree) == "PyTreeDef(((*, *), {}))" and str(exp.out_tree) == "PyTreeDef(*)"
    x, y = fnp.array([0.5, 1.0, 2.0], f32), fnp.array([1.0, -2.0, 3.0], f32)
    want = np.sin(np.float32([0.5, 1, 2])) * np.float32([1, -2, 3]) + np.float32(3.5)
    np.testing.assert_allclose(exp.call(x, y), want, rtol=1e-6)
    np.testing.assert_allclose(fgrad.jit(exp.call)(x, y), want, rtol=1e-6)
    np.testing.assert_allclose(fgrad.vmap(exp.call)(fnp.stack([x, x]), fnp.stack([y, y]))[1], want, rtol=1e-6)
    with pytest.raises(ValueError, match="argument 0 has type float32\\[4\\]"):
        exp.call(fnp.ones(4, f32), fnp.ones(4, f32))
    with pytest.raises(ValueError, match="structure"):
        exp.call(x)
    g = export.export(fgrad.jit(lambda w: fnp.sum(fnp.exp(w) * fnp.sin(w))))(fnp.ones(3))
    w = fnp.array([0.1, 0.2, 0.3])
    np.testing.assert_allclose(fgrad.grad(g.call)(w), np.exp(w) * (np.sin(w) + np.cos(w)), rtol=1e-14)
    static = export.export(fgrad.jit(_loop, static_argnums=1))(fgrad.ShapeDtypeStruct((4,), f32), 5)
    assert str(static.in_tree) == "PyTreeDef(((*,), {}))" and len(static.out_avals) == 2
    v = fnp.array([0.1, 0.2, 0.3, 0.4], f32)
    np.testing.assert_array_equal(static.call(v)[0], _loop(v, 5)[0])
    with pytest.raises(TypeError, match="result of fgrad.jit"):
        export.export(lambda x: x)


def test_export_serialize_round_trip():
    """`Exported.serialize`/`deserialize` write and read the program (control flow, nested
    jit, custom_jvp/custom_vjp rules, constants, pytrees); the read-back function computes
    the same values and derivatives."""
    params = {"w": fnp.linspace(-1.0, 1.0, 6).reshape(3, 2), "b": fnp.array([0.1, -0.2])}
    batch = {"x": fnp.arange(12.0).reshape(4, 3) / 10}
    exp = export.export(fgrad.jit(_model))(params, batch)
    blob = exp.serialize()
    assert isinstance(blob, bytearray) and bytes(blob[:9]) == b"FGRADEXP\x01"
    back = export.deserialize(blob)
    assert (back.fun_name, back.in_avals, back.out_avals) == (exp.fun_name, exp.in_avals, exp.out_avals)
    assert back.in_tree == exp.in_tree and back.out_tree == exp.out_tree
    assert fgrad.tree.all(
        fgrad.tree.map(
            lambda a, b: bool(fnp.array_equal(a, b)), back.call(params, batch), _model(params, batch)
        )
    )

    def energy(call, w):
        return call({"w": w, "b": params["b"]}, batch)[1]

    np.testing.assert_allclose(
        fgrad.grad(lambda w: energy(back.call, w))(params["w"]),
        fgrad.grad(lambda w: energy(_model, w))(params["w"]),
        rtol=1e-14,
    )
    k = fnp.arange(4.0)
    for fn in [
        lambda x: fnp.sort(x)[::-1] * k + x[1],
        lambda x: fgrad.nn.relu(x) + fnp.where(x > 0, 1.0, 2.0),  # custom_jvp, nested jit
        lambda x: lax.scan(lambda c, y: (c + y, c * y), 0.0, x),
        lambda x: _loop(x, 3),
    ]:
        e = export.export(fgrad.jit(fn))(fnp.ones(4))
        r = export.deserialize(e.serialize())
        x = fnp.array([3.0, -1.0, 2.0, 0.5])
        assert fgrad.tree.all(fgrad.tree.map(lambda a, b: bool(fnp.array_equal(a, b)), r.call(x), fn(x)))
    relu = export.deserialize(export.export(fgrad.jit(fgrad.nn.relu))(fnp.ones(3)).serialize())
    assert fgrad.grad(lambda x: relu.call(x).sum())(fnp.array([-1.0, 0.0, 2.0])).tolist() == [0.0, 0.0, 1.0]

    @fgrad.custom_vjp
    def clip(x):
        return x

    clip.defvjp(lambda x: (x, None), lambda _, g: (fnp.clip(g, -1.0, 1.0),))
    c = export.deserialize(export.export(fgrad.jit(lambda x: clip(x) * 5.0))(1.0).serialize())
    assert float(fgrad.grad(c.call)(2.0)) == 1.0


def test_export_serialization_is_data_only():
    """The format is JSON data: a program holding a Python callback is refused when written,
    and bytes that are not the format -- a pickle, an unknown primitive or kind of value,
    arrays whose bytes do not match -- are refused when read (never executed)."""
    exp = export.export(
        fgrad.jit(lambda x: fgrad.pure_callback(np.sin, fgrad.ShapeDtypeStruct((3,), fnp.float64), x))
    )(fnp.ones(3))
    with pytest.raises(export.SerializationError, match="HostCallback"):
        exp.serialize()
    import pickle

    class Boom:
        def __reduce__(self):
            return (exec, ("raise SystemExit('pickle ran')",))

    for blob in [
        pickle.dumps(Boom()),
        b"FGRADEXP\x01" + pickle.dumps(Boom()),
        b"FGRADEXP\x02{}",
        b"FGRADEXP",
    ]:
        with pytest.raises(export.SerializationError):
            export.deserialize(blob)
    good = json.loads(bytes(export.export(fgrad.jit(fnp.sin))(1.0).serialize()[9:]))

    def tampered(change):
        doc = json.loads(json.dumps(good))
        change(doc)
        return b"FGRADEXP\x01" + json.dumps(doc).encode()

    def set_prim(d):
        d["program"]["jaxpr"]["eqns"][0]["prim"] = "os.system"

    def set_param(d):
        d["program"]["jaxpr"]["eqns"][0]["params"] = {"f": {"function": "os.system"}}

    def set_array(d):
        d["program"]["consts"] = [
            {"array": base64.b64encode(b"abc").decode(), "dtype": "float64", "shape": [4]}
        ]
        d["program"]["jaxpr"]["constvars"] = [[[4], "float64", False]]

    def set_dtype(d):
        d["in_avals"] = [[[], "object", False]]

    for change, words in [
        (set_prim, "unknown primitive 'os.system'"),
        (set_param, "unknown kind of parameter"),
        (set_array, "bytes do not match"),
        (set_dtype, "unsupported dtype"),
    ]:
        with pytest.raises(export.SerializationError, match=words):
            export.deserialize(tampered(change))


# ---- the other defects ------------------------------------------------------------------------


def test_closure_convert_hoists_traced_values_only():
    """JAX hoists closed-over *tracers* only; fgrad also hoisted concrete arrays, so
    ``len(consts)`` and the converted function's arity differed from JAX's."""
    w = fnp.array([1.0, 2.0])
    fn, consts = fgrad.closure_convert(lambda x: x * w + fnp.sin(x), 1.0)
    assert consts == [] and fn(2.0).tolist() == (2.0 * np.array([1.0, 2.0]) + np.sin(2.0)).tolist()

    def outer(a):
        g, cs = fgrad.closure_convert(lambda x: fnp.sin(a * x) * w[0], 1.0)
        assert len(cs) == 1  # ``a`` (traced by grad); ``w`` stays inside
        return g(0.5, *cs)

    assert float(fgrad.grad(outer)(2.0)) == pytest.approx(0.5 * np.cos(1.0), rel=1e-15)


def test_compilation_cache_module_and_options():
    """``jax.experimental.compilation_cache.compilation_cache`` was missing, and the cache
    thresholds (``jax_persistent_cache_min_entry_size_bytes`` ...) were unknown options."""
    from fgrad.experimental.compilation_cache import compilation_cache as cc

    before = fgrad.config.jax_compilation_cache_dir
    try:
        cc.set_cache_dir("/tmp/fgrad-cache-test")
        assert fgrad.config.jax_compilation_cache_dir == "/tmp/fgrad-cache-test"
        cc.reset_cache()
        fgrad.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
        assert fgrad.config.jax_persistent_cache_min_entry_size_bytes == -1
        assert fgrad.config.jax_compilation_cache_max_size == -1
    finally:
        fgrad.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
        fgrad.config.update("jax_compilation_cache_dir", before)


def test_float8_dtypes_and_promotion():
    """``jnp.float8_e4m3fn`` and the other float8 types were missing; ``finfo`` of them and
    ``issubdtype(..., floating)`` failed (NumPy stores them as void user types), and
    ``result_type`` used NumPy's lattice (int16 + float16 -> float32; JAX: float16) and
    missed the bfloat16 scalar type (``result_type(jnp.bfloat16, 2.0)`` gave float64).
    Values: JAX 0.10.2."""
    assert [float(fnp.finfo(t).eps) for t in (fnp.float8_e4m3fn, fnp.float8_e5m2, fnp.float8_e4m3fnuz)] == [
        0.125,
        0.25,
        0.125,
    ]
    assert float(fnp.finfo(fnp.float8_e4m3fn).max) == 448.0 and fnp.finfo(fnp.float8_e5m2).nexp == 5
    assert fnp.issubdtype(fnp.float8_e4m3fn, fnp.floating) and not fnp.issubdtype(
        fnp.float8_e5m2, fnp.integer
    )
    assert fnp.result_type(fnp.int16, fnp.float16) == np.float16
    assert fnp.result_type(fnp.bfloat16, 2.0) == fnp.bfloat16
    assert fnp.result_type(fnp.ones(2, fnp.int8), fnp.ones(2, fnp.float16), 2.0) == np.float16
    assert fnp.result_type(fnp.int8, 3) == np.int8 and fnp.result_type(fnp.uint8, fnp.int8) == np.int16
    with pytest.raises(TypeError, match="number and bool dtypes"):
        fnp.ones(2, fnp.float8_e4m3fn)  # never an array of void bytes


def test_bitcast_between_widths():
    """``bitcast_convert_type`` to a narrower type appends an axis of the size ratio, to a
    wider one consumes it (XLA); fgrad refused different widths.  Values: JAX 0.10.2."""
    x = fnp.array([1.0, -2.0], fnp.float32)
    assert lax.bitcast_convert_type(x, fnp.uint8).tolist() == [[0, 0, 128, 63], [0, 0, 0, 192]]
    assert lax.bitcast_convert_type(x, fnp.int16).tolist() == [[0, 16256], [0, -16384]]
    assert fgrad.jit(lambda v: lax.bitcast_convert_type(v, fnp.int16))(x).tolist() == [
        [0, 16256],
        [0, -16384],
    ]
    back = lax.bitcast_convert_type(fnp.array([[0, 0, 128, 63]], fnp.uint8), fnp.float32)
    assert back.dtype == np.float32 and back.tolist() == [1.0]
    cols = lax.bitcast_convert_type(x, fnp.uint8).T  # vmap over the bytes' axis
    assert fgrad.vmap(lambda b: lax.bitcast_convert_type(b, fnp.float32), in_axes=1)(cols).tolist() == [
        1.0,
        -2.0,
    ]
    with pytest.raises(ValueError, match="last axis of size 4"):
        lax.bitcast_convert_type(fnp.ones(3, fnp.uint8), fnp.float32)


def test_reduce_window_any_computation_and_same_with_base_dilation():
    """``reduce_window`` with ``lax.mul`` or a user function raised NotImplementedError; and
    'SAME' padding with base dilation was computed on the dilated shape (JAX: the operand's),
    so the result had another shape.  Values: JAX 0.10.2 and a Python loop."""
    x = fnp.arange(1.0, 13.0).reshape(3, 4)
    got = lax.reduce_window(x, 1.0, lax.mul, (1, 2), (1, 1), "VALID")
    xn = np.arange(1.0, 13.0).reshape(3, 4)
    assert got.tolist() == [[xn[i, j] * xn[i, j + 1] for j in range(3)] for i in range(3)]
    assert lax.reduce_window(x, 1.0, lax.mul, (2, 2), (1, 2), "SAME", base_dilation=(1, 2)).tolist() == [
        [5.0, 12.0, 21.0],
        [45.0, 60.0, 77.0],
        [9.0, 10.0, 11.0],
    ]
    assert lax.reduce_window(x, -fnp.inf, lax.max, (2, 2), (1, 2), "SAME", base_dilation=(1, 2)).tolist() == [
        [5.0, 6.0, 7.0],
        [9.0, 10.0, 11.0],
        [9.0, 10.0, 11.0],
    ]
    assert lax.reduce_window(
        x, 0.0, lax.add, (3, 2), (2, 3), "SAME", base_dilation=(2, 2), window_dilation=(1, 2)
    ).tolist() == [[0.0, 5.0, 0.0], [0.0, 13.0, 0.0], [0.0, 21.0, 0.0]]
    logsum = lax.reduce_window(x, -fnp.inf, fnp.logaddexp, (2, 2), (1, 1), "VALID")
    want = [[np.log(np.exp(xn[i : i + 2, j : j + 2]).sum()) for j in range(3)] for i in range(2)]
    np.testing.assert_allclose(logsum, want, rtol=1e-14)
    g = fgrad.grad(lambda v: lax.reduce_window(v, 1.0, lax.mul, (1, 2), (1, 1), "VALID").sum())(x)
    np.testing.assert_allclose(g, fgrad.grad(lambda v: (v[:, :-1] * v[:, 1:]).sum())(x))


def test_quantile_inverted_cdf_and_nearest_ties():
    """``method="inverted_cdf"`` raised ValueError (JAX has it), and ``"nearest"`` broke
    ties to the even index (NumPy) where JAX takes the lower value.  Values: NumPy for
    inverted_cdf, JAX 0.10.2 for the ties."""
    x = np.array([3.0, 1, 4, 1, 5, 9, 2, 6])
    for q in [0.0, 0.1, 0.125, 0.25, 0.3, 0.5, 0.99, 1.0]:
        assert float(fnp.quantile(x, q, method="inverted_cdf")) == np.quantile(x, q, method="inverted_cdf")
    y = np.array([3.0, np.nan, 4, 1, np.nan])
    for q in [0.0, 0.2, 1 / 3, 0.5, 0.9, 1.0]:
        assert float(fnp.nanquantile(y, q, method="inverted_cdf")) == np.nanquantile(
            y, q, method="inverted_cdf"
        )
    assert fnp.quantile(
        fnp.array([0.5, 4.0, 6.0, 8.0]), fnp.array([0.5, 1 / 6, 0.25]), method="nearest"
    ).tolist() == [4.0, 0.5, 4.0]
    assert fnp.quantile(
        fnp.arange(5.0), fnp.array([0.125, 0.375, 0.625, 0.875]), method="nearest"
    ).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert fnp.nanquantile(fnp.array([0.5, 4.0, fnp.nan, 6.0, 8.0]), 0.5, method="nearest").tolist() == 4.0


def test_unique_with_size_under_jit():
    """``unique(..., size=)`` raised ConcretizationTypeError under jit (JAX traces it), and
    padded the first-index output with 0 where JAX repeats the smallest value's index; the
    result named tuples are JAX's ``_UniqueCountsResult`` ...  Values: JAX 0.10.2."""
    labels = fnp.array([3, 1, 2, 3, 3, 1, 7])
    with fgrad.enable_x64(False):
        vals, idx, inv, counts = fgrad.jit(
            lambda a: fnp.unique(a, size=6, return_index=True, return_inverse=True, return_counts=True)
        )(labels)
        assert vals.dtype == np.int32 and counts.dtype == np.int32
    assert (vals.tolist(), idx.tolist(), inv.tolist(), counts.tolist()) == (
        [1, 2, 3, 7, 1, 1],
        [1, 2, 0, 6, 1, 1],
        [2, 0, 1, 2, 2, 0, 3],
        [2, 1, 3, 1, 0, 0],
    )
    short = fnp.unique(labels, size=2, return_counts=True)
    assert [a.tolist() for a in short] == [[1, 2], [2, 1]]
    vals, inv = fgrad.jit(lambda a: fnp.unique(a, size=6, fill_value=-1, return_inverse=True))(
        labels.reshape(7, 1)
    )
    assert vals.tolist() == [1, 2, 3, 7, -1, -1] and inv.shape == (7, 1)
    nan = fnp.array([1.0, fnp.nan, fnp.nan, 0.0])
    assert str(fnp.unique(nan, size=6, return_counts=True)[1].tolist()) == "[1, 1, 2, 0, 0, 0]"
    assert fnp.unique(nan, size=6, return_counts=True, equal_nan=False)[1].tolist() == [1, 1, 1, 1, 0, 0]
    assert fgrad.vmap(lambda a: fnp.unique(a, size=3))(fnp.array([[1, 1, 2], [3, 0, 3]])).tolist() == [
        [1, 2, 1],
        [0, 3, 0],
    ]
    assert type(fnp.unique_counts(labels)).__name__ == "_UniqueCountsResult"


def test_jet_python_number_terms_are_weak():
    """JAX keeps a Python-number series term weakly typed (so are the outputs it alone
    reaches); fgrad made every term strong, so printed series showed another type."""
    from fgrad.experimental.jet import jet

    with fgrad.enable_x64(False):
        _, s = jet(fnp.exp, (0.5,), ((1.0, 0.0),))
        assert [t.weak_type for t in s] == [True, True]
        _, s = jet(fnp.exp, (fnp.float32(0.5),), ((1.0, 0.0),))
        assert [t.weak_type for t in s] == [False, False] and s[0].dtype == np.float32
        _, s = jet(fnp.exp, (fnp.float32(0.5),), ((fnp.float32(1.0), fnp.float32(0.0)),))
        assert [t.weak_type for t in s] == [False, False]
    _, s = jet(fnp.sin, (0.3,), ((1.0, 0.0, 0.0),))
    np.testing.assert_allclose([float(t) for t in s], [np.cos(0.3), -np.sin(0.3), -np.cos(0.3)], rtol=1e-15)


def test_debug_nans_prints_jax_message(capsys):
    """With ``jax_debug_nans`` on, JAX prints "Invalid nan value encountered in the output of
    a jax.jit function. Calling the de-optimized version." once for the failing operation
    and once more for each jitted function around it, before raising; programs' output has
    these lines."""
    from fgrad.core.primitive import JIT_NAN_MESSAGE

    x = fnp.array([1.0, -1.0])
    with fgrad.debug_nans(True):
        with pytest.raises(FloatingPointError):
            fnp.log(x)
        assert capsys.readouterr().out.splitlines() == [JIT_NAN_MESSAGE]
        with pytest.raises(FloatingPointError):
            fgrad.jit(lambda v: fgrad.jit(fnp.sqrt)(v) * 2)(x)
        assert capsys.readouterr().out.splitlines() == [JIT_NAN_MESSAGE] * 3
        fgrad.jit(lambda v: fnp.sqrt(fnp.abs(v)))(x)
        assert capsys.readouterr().out == ""
    with pytest.raises(FloatingPointError), fgrad.disable_jit(), fgrad.debug_nans(True):
        fgrad.jit(fnp.log)(x)  # jit disabled by the user: the operation's line only
    assert capsys.readouterr().out.splitlines() == [JIT_NAN_MESSAGE]


# ---- live JAX ----------------------------------------------------------------------------------


@pytest.mark.slow  # JAX compiles each case
def test_bitcast_quantile_unique_match_live_jax():
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    with jax.enable_x64(True), fgrad.enable_x64(True):
        a = np.array([[1.5, -2.25], [3.0, 1e-3]], np.float32)
        for dt in (np.uint8, np.int16, np.uint16):
            np.testing.assert_array_equal(
                lax.bitcast_convert_type(a, dt), jax.lax.bitcast_convert_type(a, dt)
            )
        b = np.arange(24, dtype=np.uint8)
        for dt in (np.float32, np.float64, np.int16):  # the last axis: the bytes of one dt
            bb = b.reshape(3, -1, np.dtype(dt).itemsize)
            want = jax.lax.bitcast_convert_type(bb, dt)
            np.testing.assert_array_equal(lax.bitcast_convert_type(bb, dt), want)
        x = np.random.default_rng(0).normal(size=(5, 7)).round(1)
        x[1, 2] = np.nan
        q = np.array([0.0, 0.1, 0.5, 0.7, 1.0])
        for m in ("nearest", "inverted_cdf"):
            np.testing.assert_array_equal(
                fnp.quantile(x[2:], q, axis=1, method=m), jnp.quantile(x[2:], q, axis=1, method=m)
            )
            np.testing.assert_array_equal(
                fnp.nanquantile(x, q, axis=1, method=m), jnp.nanquantile(x, q, axis=1, method=m)
            )
        lab = np.array([4, 4, 0, 9, 2, 2, 2, 0])
        for size in (2, 4, 7):
            got = fgrad.jit(
                lambda v, s=size: fnp.unique(
                    v, size=s, return_index=True, return_inverse=True, return_counts=True
                )
            )(lab)
            want = jax.jit(
                lambda v, s=size: jnp.unique(
                    v, size=s, return_index=True, return_inverse=True, return_counts=True
                )
            )(lab)
            for g, w in zip(got, want):
                np.testing.assert_array_equal(g, w)
        xr = np.arange(1.0, 21.0).reshape(4, 5)
        for args in [
            ((2, 3), (1, 2), "SAME", (1, 2), (1, 1)),
            ((3, 2), (2, 1), "SAME", (2, 1), (1, 2)),
            ((2, 2), (1, 1), [(1, 0), (0, 2)], (2, 2), (1, 1)),
        ]:
            win, st, pad, bd, wd = args
            for comp, init in ((lax.mul, 1.0), (lax.max, -np.inf), (lax.add, 0.0)):
                got = lax.reduce_window(xr, init, comp, win, st, pad, base_dilation=bd, window_dilation=wd)
                want = jax.lax.reduce_window(
                    xr,
                    init,
                    getattr(jax.lax, comp.__name__),
                    win,
                    st,
                    pad,
                    base_dilation=bd,
                    window_dilation=wd,
                )
                np.testing.assert_array_equal(got, want)
