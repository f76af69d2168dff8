"""Regression tests of what the round-26b JAX programs (tests/jax_programs_round26b/: AOT
stages, ``jax.export``, one-device sharding, ``jax.profiler``, ``jax.dtypes``) found
(docs/jax-programs-round26b.md).  Each failed on the code before the fix."""

from __future__ import annotations

import json
import os

import ml_dtypes
import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import export, profiler, stages
from fgrad.sharding import Mesh, NamedSharding, PartitionSpec as P


def _loss(params, x, y):
    return fnp.mean((x @ params["w"] + params["b"] - y) ** 2)


SPECS = ({"w": fgrad.ShapeDtypeStruct((3, 1), np.float32), "b": fgrad.ShapeDtypeStruct((1,), np.float32)},
         fgrad.ShapeDtypeStruct((4, 3), np.float32), fgrad.ShapeDtypeStruct((4, 1), np.float32))


# ---- AOT stages ---------------------------------------------------------------------------


def test_args_info_is_jax_stages_arg_info_with_donations():
    """``Lowered.args_info`` held a second ``ArgInfo`` class, not ``jax.stages.ArgInfo``
    (``isinstance`` failed), printed ``ArgInfo(shape=..., dtype=...)`` instead of JAX's
    ``ArgInfo(_aval=ShapedArray(float32[3,1]), donated=False)`` and never said ``donated=True``."""
    lowered = fgrad.jit(_loss, donate_argnums=0).lower(*SPECS)
    params_info, x_info, _ = lowered.args_info[0]
    assert isinstance(x_info, stages.ArgInfo)
    assert repr(params_info["w"]) == "ArgInfo(_aval=ShapedArray(float32[3,1]), donated=True)"
    assert repr(x_info) == "ArgInfo(_aval=ShapedArray(float32[4,3]), donated=False)"
    assert (x_info.shape, x_info.dtype, x_info.donated) == ((4, 3), np.float32, False)
    by_name = fgrad.jit(lambda a, *, scale: a * scale, donate_argnames="scale").lower(fnp.ones(2), scale=2.0)
    assert repr(by_name.args_info[1]["scale"]) == (
        "ArgInfo(_aval=ShapedArray(float64[], weak_type=True), donated=True)")
    assert fgrad.jit(_loss).lower(*SPECS).args_info == fgrad.jit(_loss).lower(*SPECS).args_info


def test_args_info_repr_matches_live_jax():
    jax = pytest.importorskip("jax")
    jspecs = jax.tree.map(lambda s: jax.ShapeDtypeStruct(s.shape, s.dtype), SPECS,
                          is_leaf=lambda s: isinstance(s, fgrad.ShapeDtypeStruct))

    def step(lib):  # a step whose results reuse the donated parameters' buffers
        return lambda params, x, y: lib.tree_util.tree_map(lambda p: p - 0.1 * (x.sum() - y.sum()), params)
    want = repr(jax.jit(step(jax), donate_argnums=0).lower(*jspecs).args_info)
    assert repr(fgrad.jit(step(fgrad), donate_argnums=0).lower(*SPECS).args_info) == want


def test_traced_lower_keeps_the_argument_tree_and_the_compiled_type_check():
    """``jit(f).trace(*args).lower()`` built a `Lowered` from the flat leaves: ``in_tree`` was
    ``((*, *, *, *), {})`` instead of the call's tree, and its `Compiled` ran arguments of other
    shapes (retracing) instead of raising JAX's TypeError."""
    jitted = fgrad.jit(_loss)
    lowered = jitted.trace(*SPECS).lower()
    assert str(lowered.in_tree) == "PyTreeDef((({'b': *, 'w': *}, *, *), {}))"
    assert lowered.in_tree == jitted.lower(*SPECS).in_tree
    compiled = lowered.compile()
    params = {"w": fnp.ones((3, 1), np.float32), "b": fnp.zeros(1, np.float32)}
    x, y = fnp.ones((4, 3), np.float32), fnp.ones((4, 1), np.float32)
    assert float(compiled(params, x, y)) == 4.0
    with pytest.raises(TypeError, match="Argument types differ"):
        compiled(params, x[:2], y[:2])
    static = fgrad.jit(lambda a, n: a ** n, static_argnums=1).trace(fnp.float32(2), 3).lower().compile()
    assert float(static(fnp.float32(2))) == 8.0


def test_as_text_takes_a_dialect_and_stages_names_compiler_options():
    """``Lowered.as_text(dialect="hlo")`` raised TypeError (no ``dialect``); ``jax.stages``
    lacked ``CompilerOptions``."""
    lowered = fgrad.jit(fnp.sin).lower(fnp.ones(3))
    assert "sin" in lowered.as_text() and "sin" in lowered.as_text(dialect="hlo")
    assert isinstance(lowered.compile().as_text(debug_info=True), str)
    assert "CompilerOptions" in stages.__all__ and stages.CompilerOptions is not None


def test_cost_analysis_counts_transcendentals_apart_from_flops():
    """XLA counts ``exp``/``tanh``/``sin``... as ``transcendentals``, not flops; fgrad counted
    them as flops and had no ``"transcendentals"`` entry (a KeyError in a program)."""
    cost = fgrad.jit(lambda w, x: fnp.tanh(x @ w)).lower(fnp.ones((5, 3), np.float32),
                                                        fnp.ones((7, 5), np.float32)).cost_analysis()
    assert (cost["flops"], cost["transcendentals"]) == (2 * 7 * 5 * 3, 7 * 3)
    loop = fgrad.jit(lambda x: fgrad.lax.fori_loop(0, 3, lambda i, c: fnp.exp(c) + 1.0, x))
    inner = loop.lower(fnp.ones(4)).cost_analysis()
    assert (inner["flops"], inner["transcendentals"]) >= (4.0, 4.0)  # the body's, counted once


def test_cost_analysis_matches_live_jax_for_matmuls_and_transcendentals():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    for f, g in ((lambda w, x: jnp.tanh(x @ w), lambda w, x: fnp.tanh(x @ w)),
                 (lambda w, x: jnp.exp(x @ w) + 1.0, lambda w, x: fnp.exp(x @ w) + 1.0)):
        want = jax.jit(f).lower(jnp.ones((5, 3)), jnp.ones((7, 5))).compile().cost_analysis()
        got = fgrad.jit(g).lower(fnp.ones((5, 3), np.float32), fnp.ones((7, 5), np.float32)).cost_analysis()
        assert (got["flops"], got["transcendentals"]) == (want["flops"], want["transcendentals"])


# ---- export -------------------------------------------------------------------------------


def test_export_keeps_weak_types_of_its_arguments():
    """JAX's ``Exported.in_avals`` keep a weakly typed argument's ``weak_type=True`` (what
    ``jnp.full(shape, 0.5)`` makes); fgrad's dropped it, here and in a serialized export."""
    w = fnp.full((3, 2), 0.5)
    assert w.weak_type
    exp = export.export(fgrad.jit(lambda x, w: x @ w))(fnp.ones((4, 3)), w)
    assert repr(exp.in_avals[1]) == "ShapedArray(float64[3,2], weak_type=True)"
    assert not exp.in_avals[0].weak_type
    assert export.deserialize(exp.serialize()).in_avals == exp.in_avals
    b, = export.symbolic_shape("b")
    poly = export.export(fgrad.jit(lambda x, w: x @ w))(fgrad.ShapeDtypeStruct((b, 3), np.float64), w)
    assert poly.in_avals[1].weak_type and str(poly.out_avals[0]) == "float64[b,2]"


def test_export_for_several_platforms_and_refusal_elsewhere():
    """``export(f, platforms=["cpu", "cuda"])`` raised NotImplementedError; JAX exports one
    program for several platforms and refuses a call on a platform not among them."""
    f = fgrad.jit(lambda x: fnp.sin(x) * 2)
    here = export.default_export_platform()
    exp = export.export(f, platforms=["cpu", "cuda"])(fnp.ones(3))
    assert exp.platforms == ("cpu", "cuda")
    np.testing.assert_allclose(np.asarray(exp.call(fnp.ones(3))), 2 * np.sin(np.ones(3)))
    tpu = export.export(f, platforms=["tpu"])(fnp.ones(3))
    refused = rf"exported for platforms \('tpu',\) but it is used on \('{here}',\)"
    with pytest.raises(ValueError, match=refused):
        tpu.call(fnp.ones(3))
    with pytest.raises(ValueError, match="platforms="):
        export.export(f, platforms=["metal"])
    assert b"sin" in exp.mlir_module_serialized


def test_exported_call_solves_linear_dimension_expressions():
    """An argument of symbolic shape ``(2*k, 4)`` could not be called: fgrad read each
    dimension variable only from a dimension that is the variable alone (NotImplementedError).
    It now solves a dimension linear in one unknown variable, with JAX's ValueErrors for a
    remainder and for a value below 1."""
    spec = fgrad.ShapeDtypeStruct(export.symbolic_shape("2*k + 1, 3"), np.float32)
    exp = export.export(fgrad.jit(lambda x: x[: x.shape[0] // 2].sum(0)))(spec)
    assert exp.call(fnp.ones((7, 3), np.float32)).tolist() == [3.0, 3.0, 3.0]
    with pytest.raises(ValueError, match="Division had remainder 1 when computing the value of 'k'"):
        exp.call(fnp.ones((6, 3), np.float32))
    with pytest.raises(ValueError, match="Expected value >= 1 for dimension variable 'k'"):
        exp.call(fnp.ones((1, 3), np.float32))
    a, b = export.symbolic_shape("a, b")
    two = export.export(fgrad.jit(lambda x, y: x.sum() + y.sum()))(
        fgrad.ShapeDtypeStruct((a, 2 * b), np.float32), fgrad.ShapeDtypeStruct((a + b,), np.float32))
    assert float(two.call(fnp.ones((2, 4), np.float32), fnp.ones(4, np.float32))) == 12.0
    with pytest.raises(ValueError, match="inconsistency"):
        two.call(fnp.ones((2, 4), np.float32), fnp.ones(5, np.float32))


# ---- sharding -----------------------------------------------------------------------------


def test_shardings_report_device_indices():
    """``Sharding.devices_indices_map``/``addressable_devices_indices_map`` were missing (an
    AttributeError); on one device each maps the device to the whole array."""
    mesh = Mesh(np.array(fgrad.devices()[:1]).reshape(1, 1), ("data", "model"))
    whole = (slice(None), slice(None))
    for s in (NamedSharding(mesh, P("data", None)), fgrad.sharding.SingleDeviceSharding(fgrad.devices()[0])):
        assert s.devices_indices_map((8, 4)) == {fgrad.devices()[0]: whole}
        assert s.addressable_devices_indices_map((8, 4)) == {fgrad.devices()[0]: whole}
        assert s.shard_shape((8, 4)) == (8, 4)
    assert NamedSharding(mesh, P()).is_equivalent_to(fnp.ones(2).sharding, 1)


def test_mesh_repr_and_str_are_jax_s():
    """JAX 0.10.2: ``repr(mesh)`` is ``Mesh(axis_sizes=(1, 1), axis_names=('x', 'y'),
    axis_types=...)`` and ``str(mesh)`` (what NamedSharding shows) the short form; fgrad's
    repr was the short form."""
    mesh = Mesh(np.array(fgrad.devices()[:1]).reshape(1, 1), ("x", "y"))
    assert repr(mesh) == "Mesh(axis_sizes=(1, 1), axis_names=('x', 'y'), axis_types=(Auto, Auto))"
    assert str(mesh) == "Mesh('x': 1, 'y': 1, axis_types=(Auto, Auto))"
    assert repr(NamedSharding(mesh, P("x"))) == (
        "NamedSharding(mesh=Mesh('x': 1, 'y': 1, axis_types=(Auto, Auto)), spec=P('x',), memory_kind=device)")


def test_mesh_repr_matches_live_jax():
    jax = pytest.importorskip("jax")
    want = jax.sharding.Mesh(np.array(jax.devices()[:1]).reshape(1, 1), ("x", "y"))
    got = Mesh(np.array(fgrad.devices()[:1]).reshape(1, 1), ("x", "y"))
    assert (repr(got), str(got)) == (repr(want), str(want))


def test_typeof_is_a_shaped_array_with_a_sharding():
    """``jax.typeof(x)`` is a ShapedArray (``float32[8,4]`` printed); fgrad's was a
    ShapeDtypeStruct (``ShapeDtypeStruct(shape=(8, 4), ...)`` printed)."""
    t = fgrad.typeof(fnp.ones((8, 4), np.float32))
    assert str(t) == "float32[8,4]" and repr(t) == "ShapedArray(float32[8,4])"
    assert isinstance(t, fgrad.ShapedArray) and t.sharding.spec == P()
    assert repr(fgrad.typeof(1.0)) == "ShapedArray(float64[], weak_type=True)"
    seen = []
    fgrad.jit(lambda x: seen.append(str(fgrad.typeof(x))) or x)(fnp.ones(3, np.int32))
    assert seen == ["int32[3]"]


# ---- profiler -----------------------------------------------------------------------------


def test_profiler_errors_are_jax_s_and_annotations_reach_the_trace(tmp_path):
    """``stop_trace()`` with no trace and a second ``start_trace`` raise JAX's RuntimeError
    messages (programs print them); the trace file holds the step and annotation spans."""
    with pytest.raises(RuntimeError, match="^No profile started$"):
        profiler.stop_trace()
    profiler.start_trace(tmp_path)
    try:
        with pytest.raises(RuntimeError, match="^Profile has already been started. Only one profile may"):
            profiler.start_trace(tmp_path)
        with profiler.StepTraceAnnotation("train", step_num=2):
            with profiler.TraceAnnotation("forward"):
                fnp.sin(fnp.ones(3))
    finally:
        profiler.stop_trace()
    events = json.loads((tmp_path / "fgrad.trace.json").read_text())["traceEvents"]
    names = {e["name"]: e.get("args") for e in events}
    assert names["train"] == {"step_num": "2"} and "forward" in names and "sin" in names
    assert os.path.getsize(tmp_path / "fgrad.trace.json") > 0


# ---- dtypes -------------------------------------------------------------------------------


def test_dtypes_bfloat16_is_ml_dtypes_scalar_type():
    """``jax.dtypes.bfloat16`` is ``ml_dtypes.bfloat16`` (``jax.numpy.bfloat16`` is the
    array-making type); fgrad's was fgrad.numpy's."""
    assert fgrad.dtypes.bfloat16 is ml_dtypes.bfloat16
    assert np.dtype(fgrad.dtypes.bfloat16) == np.dtype(fnp.bfloat16)  # the same dtype
    assert fgrad.dtypes.canonicalize_dtype(fgrad.dtypes.bfloat16) == np.dtype(ml_dtypes.bfloat16)
