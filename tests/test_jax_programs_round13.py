"""Round 13 of the JAX programs (tests/jax_programs_round13/): a stax ResNet with BatchNorm
and residual blocks, grid simulations (heat, wave, game of life) with roll and scan, LSTM/GRU
cells in scan, a spring-mass chain with odeint on a pytree state, complex fractals and
holomorphic derivatives, Lagrangian mechanics by hessian/pinv, the jax.Array object's
attributes and methods, an Autodidax-style JVP interpreter over jaxprs (jax.extend.core),
scientific jax.numpy routines, NumPy-style indexing, jax.numpy.linalg beyond the basics,
sorting and ranking, segment reductions and word2vec, Krylov solvers and Newton-Krylov,
dynamic programming with scan/fori_loop, and the "Thinking in JAX" errors -- run unchanged
with ``import jax`` resolved to fgrad (``python -m fgrad.jax_alias``), in JAX's default
32-bit mode and with ``JAX_ENABLE_X64=1``, their output compared with JAX 0.10.2's (stored
in ``jax_programs_round13/expected/``; live JAX in the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).  Below them, the regression tests of the defects
the programs found (docs/jax-programs-round13.md).

The default run runs two programs in 32-bit mode; ``pytest tests/test_jax_programs_round13.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax, ops
from fgrad.example_libraries import stax
from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round13"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"complex_fractals", "thinking_in_jax"}  # the default run's programs (32-bit mode)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 15)


# ---- 64-bit types off: operands computed in 32 bits -------------------------------------------


F32_SIN_PI = float(np.sin(np.float32(np.pi)))  # -8.742278e-08: sin of pi rounded to float32


def test_x32_python_and_numpy_float64_operands_are_computed_in_float32():
    """With 64-bit types off JAX converts a Python float or a NumPy float64 operand to
    float32 before computing; fgrad computed in float64 and rounded the result, so
    ``jnp.sin(np.pi)`` was 1.2e-16 (JAX: -8.7e-8) and ``jnp.exp(1j * jnp.pi)`` had the
    wrong sign of its imaginary part -- eagerly, and under jit for a Python-float argument."""
    with fgrad.enable_x64(False):
        for got in [fnp.sin(np.pi), lax.sin(np.pi), fnp.sin(np.float64(np.pi)),
                    fnp.sin(np.array([np.pi]))[0], fgrad.jit(fnp.sin)(np.pi),
                    fgrad.jit(fnp.sin)(np.pi),  # the call path's cache
                    fgrad.jit(lambda x, y: fnp.sin(x) * y)(np.pi, fnp.ones(2))[0],
                    fgrad.vmap(lambda x, y: fnp.sin(y) * x, (0, None))(fnp.ones(2), np.pi)[1]]:
            assert got.dtype == np.float32 and float(got) == F32_SIN_PI
        z = fnp.exp(1j * np.pi)
        assert z.dtype == np.complex64 and float(z.imag) == F32_SIN_PI
        # a Python float beside a narrower array still takes the array's type
        assert (fnp.ones(2, fnp.float16) + np.pi).dtype == np.float16
        assert fgrad.jit(lambda x: x + fnp.ones(2, fnp.float16))(0.1).dtype == np.float16
    assert float(fnp.sin(np.pi)) == float(np.sin(np.pi))  # 64-bit mode: float64 as before


def test_x32_operands_match_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    with jax.enable_x64(False), fgrad.enable_x64(False):
        for g, j in [(fnp.sin(np.pi), jnp.sin(np.pi)), (fnp.exp(1j * np.pi), jnp.exp(1j * np.pi)),
                     (fgrad.jit(fnp.cos)(0.1), jax.jit(jnp.cos)(0.1)),
                     (fnp.sqrt(np.float64(2.0)), jnp.sqrt(np.float64(2.0)))]:
            assert g.dtype == j.dtype and np.asarray(g).tolist() == np.asarray(j).tolist()


# ---- jax.Array methods -------------------------------------------------------------------------


def test_array_all_any_where_is_not_ignored():
    """``x.all(where=m)`` and ``x.any(where=m)`` dropped ``where`` silently (the methods took
    ``**kw`` and ignored it): ``[True, False].all(where=[True, False])`` was False."""
    x = fnp.array([True, False])
    assert bool(x.all(where=fnp.array([True, False])))
    assert not bool(x.any(where=fnp.array([False, True])))
    v = fnp.arange(4.0)
    mask = v < 2
    assert float(v.mean(where=mask)) == 0.5
    np.testing.assert_allclose(float(v.std(where=mask)), 0.5)
    np.testing.assert_allclose(float(v.var(where=mask, ddof=1)), 0.5)
    with pytest.raises(TypeError):
        v.clip(0.0, 1.0, a_min=0.0)  # clip swallowed unknown keywords too


def test_array_methods_jax_has():
    """jax.Array's methods fgrad's lacked or whose JAX keywords it refused: searchsorted,
    nonzero, ptp, compress, choose, argpartition, conjugate, sort/argsort(descending),
    take(mode, fill_value), repeat(total_repeat_length), trace(dtype), dot(precision)."""
    x = fnp.array([3.0, 1.0, 2.0])
    assert x.sort(descending=True).tolist() == [3.0, 2.0, 1.0]
    assert x.argsort(descending=True).tolist() == [0, 2, 1]
    assert int(fnp.arange(5).searchsorted(2.5)) == 3
    assert fnp.arange(5).searchsorted(2, side="right").tolist() == 3
    assert x.nonzero(size=4)[0].tolist() == [0, 1, 2, 0]
    assert float(x.ptp()) == 2.0 and x.compress(x > 1).tolist() == [3.0, 2.0]
    assert fnp.array([0, 1]).choose([fnp.arange(2), fnp.arange(2) * 10]).tolist() == [0, 10]
    assert x.argpartition(1)[:2].tolist() in ([1, 2], [2, 1])
    assert (x * 1j).conjugate().tolist() == [-3j, -1j, -2j]
    assert x.take(fnp.array([0, 5]), mode="fill", fill_value=-1).tolist() == [3.0, -1.0]
    assert x.repeat(2, total_repeat_length=5).tolist() == [3.0, 3.0, 1.0, 1.0, 2.0]
    assert fnp.eye(2).trace(dtype=fnp.int32).dtype == np.int32
    assert float(x.dot(x, precision="highest")) == 14.0


def test_array_methods_signatures_match_live_jax():
    """Every keyword of a jax.Array method that fgrad's Array has is accepted by fgrad's."""
    jax = pytest.importorskip("jax")
    import inspect

    from fgrad.core.array import ArrayImpl
    names = ["all", "any", "argsort", "choose", "clip", "compress", "dot", "mean", "nonzero", "ptp",
             "repeat", "searchsorted", "sort", "std", "take", "trace", "var", "argpartition", "conjugate"]
    for name in names:
        want = [p for p in inspect.signature(getattr(jax.Array, name)).parameters
                if p not in ("self", "args")]
        got = inspect.signature(getattr(ArrayImpl, name)).parameters
        assert all(p in got for p in want), (name, want, list(got))


def test_empty_array_repr_shows_its_shape():
    """JAX's repr of an empty array names its shape: ``Array([], shape=(0, 3), dtype=float32)``."""
    # (a GPU array's repr ends with its device)
    assert repr(fnp.zeros((0, 3), fnp.float32)).startswith("Array([], shape=(0, 3), dtype=float32")
    assert repr(fnp.zeros((0,), fnp.int32)).startswith("Array([], shape=(0,), dtype=int32")
    assert repr(fnp.zeros(2, fnp.float32)).startswith("Array([0., 0.], dtype=float32")


# ---- jax.numpy / jax.ops -----------------------------------------------------------------------


def test_where_one_argument_size_and_fill_value():
    """``jnp.where(cond, size=n, fill_value=v)`` (the static-shape one-argument form) was a
    TypeError; it is ``nonzero(cond, size=n, fill_value=v)``, under jit too."""
    c = fnp.array([0, 3, 0, 5]) > 0
    assert fnp.where(c, size=3, fill_value=-1)[0].tolist() == [1, 3, -1]
    assert fgrad.jit(lambda c: fnp.where(c, size=2)[0])(c).tolist() == [1, 3]
    with pytest.raises(ValueError, match="three-term where"):
        fnp.where(c, 1, 2, size=3)


def test_compress_with_size_is_static_shape():
    """``jnp.compress(cond, a, size=, fill_value=)`` (and ``Array.compress``), JAX's form that
    works under jit, was a TypeError (no ``size``)."""
    m = fnp.arange(6).reshape(3, 2)
    got = fnp.compress(fnp.asarray([1, 0, 1]), m, axis=0, size=3, fill_value=-7)
    assert got.tolist() == [[0, 1], [4, 5], [-7, -7]]
    assert fnp.compress(fnp.array([1, 0, 1, 1]), fnp.arange(6), size=2).tolist() == [0, 2]
    assert fnp.arange(4.0).compress(fnp.arange(4) > 1, size=3).tolist() == [2.0, 3.0, 0.0]
    jitted = fgrad.jit(lambda c, a: fnp.compress(c, a, size=2))(fnp.array([0, 1, 1]), fnp.arange(3.0))
    assert jitted.tolist() == [1.0, 2.0]
    g = fgrad.grad(lambda a: fnp.compress(fnp.array([0, 1, 1]), a, size=3).sum())(fnp.arange(3.0))
    assert g.tolist() == [0.0, 1.0, 1.0]


def test_segment_reductions_drop_negative_ids():
    """A negative segment id is out of range (JAX: dropped), not counted from the end:
    ``segment_sum(x, [.., -1], 3)`` added that row to the last segment silently."""
    d = fnp.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    s = fnp.array([0, 0, 1, 1, 5, -1])
    assert ops.segment_sum(d, s, num_segments=3).tolist() == [3.0, 7.0, 0.0]
    assert ops.segment_max(d, s, num_segments=3).tolist() == [2.0, 4.0, -np.inf]
    assert ops.segment_prod(d, s, num_segments=3).tolist() == [2.0, 12.0, 1.0]
    assert ops.segment_sum(d, s, num_segments=3, mode="clip").tolist() == [9.0, 7.0, 5.0]  # -1 -> 0
    assert fgrad.jit(lambda d, s: ops.segment_sum(d, s, 3))(d, s).tolist() == [3.0, 7.0, 0.0]
    assert fgrad.grad(lambda d: ops.segment_sum(d, s, 3).sum())(d).tolist() == [1, 1, 1, 1, 0, 0]


def test_segment_negative_ids_match_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    d, s = np.array([1.0, 2.0, 3.0, 4.0]), np.array([-1, 0, -2, 1])
    for mode in [None, "clip"]:
        for name in ["segment_sum", "segment_min"]:
            want = getattr(jax.ops, name)(jnp.asarray(d), jnp.asarray(s), 2, mode=mode)
            got = getattr(ops, name)(fnp.asarray(d), fnp.asarray(s), 2, mode=mode)
            assert np.asarray(got).tolist() == np.asarray(want).tolist(), (name, mode)


def test_traced_slice_bound_is_an_index_error():
    """JAX raises IndexError for ``v[i:i + 2]`` with a traced ``i``; fgrad raised only a
    ConcretizationTypeError (a TypeError), which ``except IndexError`` missed."""
    with pytest.raises(IndexError, match="static"):
        fgrad.jit(lambda i, v: v[i:i + 2])(1, fnp.arange(5))
    with pytest.raises(fgrad.errors.ConcretizationTypeError):
        fgrad.jit(lambda i, v: v[:i])(1, fnp.arange(5))


# ---- stax shapes, jaxpr parameters ---------------------------------------------------------------


def test_jax_core_eval_jaxpr_takes_args_unpacked():
    """``jax.core.eval_jaxpr(jaxpr, consts, *args)`` (JAX's signature): fgrad's took the
    arguments as one list, so JAX code passing an array bound its first element to the
    input silently (a (3,) input gave a scalar result)."""
    cj = fgrad.make_jaxpr(lambda z: fnp.cos(z) * z)(fnp.ones(3))
    x = fnp.array([0.1, 0.2, 0.3])
    out = fgrad.core.eval_jaxpr(cj.jaxpr, cj.consts, x)
    assert len(out) == 1 and out[0].shape == (3,)
    np.testing.assert_allclose(out[0], np.cos(x) * x)
    with pytest.raises(TypeError, match="unpacked"):
        fgrad.core.eval_jaxpr(cj.jaxpr, cj.consts)
    jax = pytest.importorskip("jax")
    jc = jax.make_jaxpr(lambda z: jax.numpy.cos(z) * z)(np.ones(3))
    np.testing.assert_allclose(jax.core.eval_jaxpr(jc.jaxpr, jc.consts, np.asarray(x))[0], out[0], rtol=1e-6)



def test_conv_shape_helpers_give_numpy_ints_as_jax():
    """JAX computes convolution output shapes with NumPy: `lax.conv_general_shape_tuple` and
    `conv_transpose_shape_tuple` give np.int64 entries, `conv_shape_tuple` its spatial ones,
    and stax's Conv/ConvTranspose output shapes print so (``(np.int64(4), ...)``);
    `stax.parallel` gives tuples (JAX's ``zip(*...)``), not lists."""
    got = lax.conv_general_shape_tuple((4, 12, 12, 3), (3, 3, 3, 8), (2, 2), "SAME", ("NHWC", "HWIO", "NHWC"))
    assert got == (4, 6, 6, 8) and all(type(d) is np.int64 for d in got)
    got = lax.conv_shape_tuple((4, 3, 12, 12), (8, 3, 3, 3), (1, 1), [(1, 1), (1, 1)])
    assert repr(got) == "(4, 8, np.int64(12), np.int64(12))"
    got = lax.conv_transpose_shape_tuple((1, 3, 3, 2), (2, 2, 2, 4), (2, 2), "SAME", ("NHWC", "HWIO", "NHWC"))
    assert repr(got) == "(np.int64(1), np.int64(6), np.int64(6), np.int64(4))"
    key = fgrad.random.PRNGKey(0)
    assert repr(stax.Conv(8, (3, 3), padding="SAME")[0](key, (4, 12, 12, 3))[0]) == \
        "(np.int64(4), np.int64(12), np.int64(12), np.int64(8))"
    assert stax.ConvTranspose(8, (3, 3))[0](key, (4, 12, 12, 3))[0] == (4, 14, 14, 8)
    shapes, params = stax.parallel(stax.Dense(2), stax.Identity)[0](key, [(3, 4), (3, 5)])
    assert type(shapes) is tuple and type(params) is tuple and shapes == ((3, 2), (3, 5))
    with pytest.raises(ValueError, match="padding"):
        stax.ConvTranspose(8, (3, 3), padding=[(1, 1), (1, 1)])[0](key, (4, 12, 12, 3))


@pytest.mark.slow  # compiles JAX's convolution initializers (about 4 s)
def test_conv_shapes_match_live_jax():
    jax = pytest.importorskip("jax")
    from jax.example_libraries import stax as jstax
    key = jax.random.PRNGKey(0)
    for layer, flayer in [(jstax.Conv(8, (3, 3), (2, 2), padding="SAME"),
                           stax.Conv(8, (3, 3), (2, 2), padding="SAME")),
                          (jstax.GeneralConv(("NCHW", "OIHW", "NCHW"), 4, (2, 2)),
                           stax.GeneralConv(("NCHW", "OIHW", "NCHW"), 4, (2, 2))),
                          (jstax.ConvTranspose(3, (2, 2), (2, 2)), stax.ConvTranspose(3, (2, 2), (2, 2)))]:
        want = layer[0](key, (2, 6, 6, 3))[0]
        got = flayer[0](fgrad.random.PRNGKey(0), (2, 6, 6, 3))[0]
        assert repr(got) == repr(want)


def test_jit_equation_params_answer_jax_names():
    """A jit equation's parameters answer JAX's ``params["jaxpr"]`` (the inner program as a
    ClosedJaxpr) and ``params["name"]``, so an interpreter written for JAX recurses into
    nested jits; re-binding ``**eqn.params`` is unchanged."""
    def f(x):
        return fgrad.jit(lambda z: fnp.cos(z) * z)(x).sum()

    closed = fgrad.make_jaxpr(f)(fnp.ones(3))
    eqn = closed.eqns[0]
    assert "jaxpr" in eqn.params and "name" in eqn.params and "nope" not in eqn.params
    assert eqn.params["name"] == "<lambda>" and eqn.params.get("missing", 7) == 7
    inner = eqn.params["jaxpr"]
    assert [e.primitive.name for e in inner.jaxpr.eqns] == ["cos", "mul"]
    x = fnp.array([0.1, 0.2, 0.3])
    np.testing.assert_allclose(fgrad.core.eval_jaxpr(inner.jaxpr, inner.consts, x)[0], np.cos(x) * x)
    with pytest.raises(TypeError, match="takes 1 arguments, got 2"):
        fgrad.core.eval_jaxpr(inner.jaxpr, inner.consts, x, x)
    out = eqn.primitive.bind(x, **eqn.params)  # fgrad's own parameters only
    np.testing.assert_allclose(out[0], np.cos(x) * x)
    with pytest.raises(KeyError):
        eqn.params["nope"]
