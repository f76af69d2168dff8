"""Round 13 of the JAX API (docs/jax-api-round13.md): JAX's primitives in staged programs
(``select_n``, ``rem``, ``clamp``, ``stack``/``unstack``, ``reduce_precision``, ``zeros``/``ones``/
``full`` as ``broadcast_in_dim`` of a literal), ``frexp`` of subnormals and ``lax.reduce`` with
the common monoids.  JAX 0.10.2's numbers are stored in the tests (compared live when jax is
installed, by the ``*_live`` tests); the jaxpr texts are in tests/jaxpr_text_cases.py."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.test_util import check_grads
from fgrad.testing.device_numerics import flushes_float32_subnormals


def _names(fn, *args) -> list[str]:
    return [e.primitive.name for e in fgrad.make_jaxpr(fn)(*args).eqns]


# ---- select_n, rem, clamp -----------------------------------------------------------------


def test_where_stages_select_n_in_jit_named_where():
    """JAX: ``jnp.where(c, x, y)`` is ``jit[name=_where]{select_n c y x}`` (the false case
    first); fgrad staged a ``select c x y`` primitive of its own."""
    args = (fnp.array([True, False]), fnp.ones(2), fnp.zeros(2))
    assert str(fgrad.make_jaxpr(lambda c, x, y: fnp.where(c, x, y))(*args)) == (  # JAX 0.10.2's text
        "{ lambda ; a:bool[2] b:f64[2] c:f64[2]. let\n    d:f64[2] = jit[\n      name=_where\n"
        "      jaxpr={ lambda ; a:bool[2] b:f64[2] c:f64[2]. let\n          d:f64[2] = select_n a c b\n"
        "        in (d,) }\n    ] a b c\n  in (d,) }")
    assert fnp.where(*args).tolist() == [1.0, 0.0]


def test_lax_select_and_select_n_stage_one_select_n():
    """``lax.select_n(pred, f, t)`` with a boolean predicate is one ``select_n`` (it was a chain
    of ``jnp.where``), ``lax.select(pred, t, f)`` binds ``select_n pred f t`` (JAX's texts)."""
    args = (fnp.array([True, False]), fnp.ones(2), fnp.zeros(2))
    assert str(fgrad.make_jaxpr(lax.select_n)(*args)) == (
        "{ lambda ; a:bool[2] b:f64[2] c:f64[2]. let d:f64[2] = select_n a b c in (d,) }")
    assert str(fgrad.make_jaxpr(lax.select)(*args)) == (
        "{ lambda ; a:bool[2] b:f64[2] c:f64[2]. let d:f64[2] = select_n a c b in (d,) }")
    assert lax.select_n(*args).tolist() == [0.0, 1.0] and lax.select(*args).tolist() == [1.0, 0.0]
    assert lax.select_n(fnp.array([0, 2, 1]), fnp.zeros(3), fnp.ones(3), fnp.full(3, 2.0)).tolist() == [
        0.0, 2.0, 1.0]
    assert fgrad.grad(lambda a: lax.select_n(args[0], a, args[2]).sum())(args[1]).tolist() == [0.0, 1.0]


def test_where_values_and_derivatives_unchanged():
    x = fnp.array([-2.0, 0.5, 3.0])
    f = lambda x: fnp.sum(fnp.where(x > 0, x * x, 3.0 * x))
    assert fgrad.grad(f)(x).tolist() == [3.0, 1.0, 6.0]
    assert fgrad.jit(fgrad.grad(f))(x).tolist() == [3.0, 1.0, 6.0]
    assert fgrad.vmap(lambda c, a, b: fnp.where(c, a, b))(x > 0, x, -x).tolist() == [2.0, 0.5, 3.0]
    # a weak scalar branch is cast inside jit[_where]: still the operand's dtype and value
    h = fnp.asarray([1.0, -1.0], fnp.float16)
    for g in (lambda v: fnp.where(v > 0, v, 0.1), lambda v: fnp.where(v > 0, v, -np.inf)):
        got, want = fgrad.jit(g)(h), g(h)
        assert got.dtype == want.dtype == np.float16 and np.array_equal(np.asarray(got), np.asarray(want))


def test_rem_primitive_is_named_rem():
    """``lax.rem`` (C's fmod) is JAX's ``rem`` primitive; NumPy's ``remainder`` (the sign of the
    divisor) is fgrad's ``remainder`` -- before, they were ``fmod`` and ``rem``."""
    a, b = fnp.array([-7.0, 7.0]), fnp.array([2.0, -3.0])
    assert _names(lax.rem, a, b) == ["rem"]
    assert "remainder" in _names(fnp.remainder, a, b)
    assert lax.rem(a, b).tolist() == [-1.0, 1.0] and fnp.remainder(a, b).tolist() == [1.0, -2.0]
    assert fgrad.jit(lax.rem)(a, b).tolist() == [-1.0, 1.0]
    assert lax.rem(fnp.array([7, -7, 7], fnp.int32), fnp.array([2, 2, 0], fnp.int32)).tolist() == [1, -1, 7]


# JAX 0.10.2: lax.clamp values and derivatives (zero at a tie, through lo/hi where they bind)
_CX = [-1.0, 0.0, 0.5, 2.0, 3.0]
_CLO, _CHI = [0.0, 0.0, 1.0, 1.0, 4.0], [1.0, 1.0, 2.0, 2.0, 3.0]
JAX_CLAMP = {"scalar": [0.0, 0.0, 0.5, 2.0, 2.0], "scalar_grad": [0.0, 0.0, 1.0, 0.0, 0.0],
             "arrays": [0.0, 0.0, 1.0, 2.0, 3.0], "grad_lo": [1.0, 0.0, 1.0, 0.0, 0.0],
             "grad_hi": [0.0, 0.0, 0.0, 0.0, 0.0]}


def _clamp_results(lax_, fnp_, grad):
    x, lo, hi = fnp_.array(_CX), fnp_.array(_CLO), fnp_.array(_CHI)
    return {"scalar": lax_.clamp(0.0, x, 2.0).tolist(),
            "scalar_grad": grad(lambda x: lax_.clamp(0.0, x, 2.0).sum())(x).tolist(),
            "arrays": lax_.clamp(lo, x, hi).tolist(),
            "grad_lo": grad(lambda lo: lax_.clamp(lo, x, hi).sum())(lo).tolist(),
            "grad_hi": grad(lambda hi: lax_.clamp(lo, x, hi).sum())(hi).tolist()}


def test_clamp_is_jaxs_primitive():
    """``lax.clamp`` was ``min(max(x, lo), hi)``: ``max`` + ``min`` in programs, with half the
    derivative at a tie.  JAX's ``clamp`` primitive gives none at a tie."""
    assert _clamp_results(lax, fnp, fgrad.grad) == JAX_CLAMP
    assert _names(lambda x: lax.clamp(0.0, x, 2.0), fnp.ones(3)) == ["clamp"]
    assert str(fgrad.make_jaxpr(lambda x: lax.clamp(0.0, x, 2.0))(fnp.ones(3, fnp.float32))) == (
        "{ lambda ; a:f32[3]. let b:f32[3] = clamp 0.0:f32[] a 2.0:f32[] in (b,) }")  # JAX's text
    x = fnp.array(_CX)
    assert fgrad.jit(lambda x: lax.clamp(0.0, x, 2.0))(x).tolist() == JAX_CLAMP["scalar"]
    assert np.isnan(np.asarray(lax.clamp(0.0, fnp.array([np.nan]), 2.0))).all()
    assert np.isnan(float(lax.clamp(np.nan, 1.0, 2.0))) and np.isnan(float(lax.clamp(0.0, 1.0, np.nan)))
    lo = fnp.array([0.0, 1.0])
    rows = fnp.array([[3.0, -1.0], [0.5, 1.5]])
    assert fgrad.vmap(lambda lo, x: lax.clamp(lo, x, 2.0))(lo, rows).tolist() == [
        lax.clamp(lo[i], rows[i], 2.0).tolist() for i in range(2)]
    check_grads(lambda lo, x, hi: lax.clamp(lo, x, hi), (fnp.array([-1.0, 0.2]), fnp.array([0.1, 0.9]),
                                                          fnp.array([0.5, 0.4])), order=2)


def test_clamp_errors_are_jaxs():
    with pytest.raises(TypeError, match=r"clamp requires min.shape == operand.shape or min.shape == \(\)"):
        lax.clamp(fnp.zeros(2), fnp.zeros(3), 1.0)
    with pytest.raises(TypeError, match="lax.clamp requires arguments to have the same dtypes"):
        lax.clamp(fnp.int32(0), fnp.zeros(3, fnp.float32), 1.0)


def test_switch_clamps_an_int32_index():
    """JAX: ``convert_element_type`` to int32, then ``clamp 0 i n-1``; fgrad clamped with max/min
    in int64 (and printed ``new_dtype=int64`` on an int32 result without x64)."""
    branches = [lambda: 0.0, lambda: 1.0, lambda: 2.0]
    names = _names(lambda i: lax.switch(i, branches), 1)
    assert names == ["convert_element_type", "clamp", "cond"]
    assert [float(lax.switch(i, branches)) for i in (-5, 1, 7)] == [0.0, 1.0, 2.0]
    assert float(fgrad.jit(lambda i: lax.switch(i, branches))(9)) == 2.0


@pytest.mark.slow
def test_clamp_live():
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True):
        assert _clamp_results(jax.lax, jax.numpy, jax.grad) == JAX_CLAMP


# ---- stack / unstack ----------------------------------------------------------------------


def test_stack_is_jaxs_primitive_and_unstack_its_transpose():
    """JAX 0.10.2 stages ``jnp.stack`` as ``stack[axis=0]``, transposed to ``unstack``; fgrad
    staged a reshape per operand and a concatenate."""
    x = fnp.arange(3.0)
    assert str(fgrad.make_jaxpr(lambda x: fnp.stack([x, 2 * x]).sum())(x)) == (
        "{ lambda ; a:f64[3]. let\n    b:f64[3] = mul 2.0:f64[] a\n    c:f64[2,3] = stack[axis=0] a b\n"
        "    d:f64[] = reduce_sum[axes=(0, 1) out_sharding=None] c\n  in (d,) }")
    assert "unstack" in _names(fgrad.grad(lambda x: fnp.stack([x, 2 * x]).sum()), x)
    assert _names(lambda x: fnp.unstack(x, axis=1), fnp.ones((2, 3))) == ["unstack"]
    assert fgrad.grad(lambda x: (fnp.stack([x, 2 * x]) ** 2).sum())(x).tolist() == [0.0, 10.0, 20.0]
    check_grads(lambda a: fnp.stack([a, a ** 2], 1), (x + 1,), order=2)
    check_grads(lambda a: fnp.unstack(a ** 2, axis=1)[1], (fnp.arange(6.0).reshape(2, 3),), order=2)


def test_stack_unstack_vmap_and_jit_against_loops():
    a, b = fnp.arange(6.0).reshape(2, 3), fnp.arange(3.0)
    got = fgrad.vmap(lambda u, v: fnp.stack([u, v], axis=1), in_axes=(0, None))(a, b)
    assert got.tolist() == [np.stack([np.asarray(a[i]), np.asarray(b)], 1).tolist() for i in range(2)]
    t = fnp.arange(24.0).reshape(2, 3, 4)
    pieces = fgrad.vmap(lambda u: fnp.unstack(u, axis=1), in_axes=1)(t)
    assert [p.tolist() for p in pieces] == [[np.asarray(t)[:, j, k].tolist() for j in range(3)]
                                            for k in range(4)]
    f = lambda u: fnp.unstack(fnp.stack([u, u * 3], 1), axis=0)
    assert [p.tolist() for p in fgrad.jit(f)(b)] == [p.tolist() for p in f(b)]
    assert fnp.stack([fnp.ones(2, fnp.int32), fnp.ones(2, fnp.float32)]).dtype == np.float32
    assert fnp.stack([fnp.ones(2)], dtype=fnp.int32).tolist() == [[1, 1]]


# ---- zeros / ones / full under a trace ------------------------------------------------------


def test_creation_under_a_trace_is_a_broadcast_literal():
    """JAX stages ``jnp.ones((2, 3))`` as ``broadcast_in_dim 1.0:f32[]``; fgrad made a constant
    array of the whole shape (a constvar)."""
    with fgrad.enable_x64(False):
        text = str(fgrad.make_jaxpr(lambda x: x + fnp.ones((2, 3)) + fnp.zeros((2, 3), fnp.int32)
                                    + fnp.full((2, 3), 2.5))(fnp.ones((2, 3), fnp.float32)))
        assert text == (  # JAX 0.10.2's text
            "{ lambda ; a:f32[2,3]. let\n    b:f32[2,3] = broadcast_in_dim 1.0:f32[]\n"
            "    c:f32[2,3] = add a b\n"
            "    d:i32[2,3] = broadcast_in_dim 0:i32[]\n"
            "    e:f32[2,3] = convert_element_type[new_dtype=float32 weak_type=False] d\n"
            "    f:f32[2,3] = add c e\n    g:f32[2,3] = broadcast_in_dim 2.5:f32[]\n"
            "    h:f32[2,3] = convert_element_type[new_dtype=float32 weak_type=False] g\n"
            "    i:f32[2,3] = add f h\n  in (i,) }")
        make = lambda: (fnp.full((2,), 2.5), fnp.zeros(2, int), fnp.ones(2), fnp.full(2, True))
        made, eager = fgrad.jit(lambda x: make())(1.0), make()
    for m, e in zip(made, eager):
        assert (m.dtype, m.weak_type, m.tolist()) == (e.dtype, e.weak_type, e.tolist())


# ---- reduce_precision -------------------------------------------------------------------------

_RP_IN = [1.0009766, -3.1415927, 1e5, 1e-6, 65504.0, 3.3895314e38]
# JAX 0.10.2's float32 results, as bit patterns
JAX_RP_BITS = {(8, 7): [1065353216, 3226009600, 1203961856, 897974272, 1199570944, 2139029504],
               (5, 10): [1065361408, 3226009600, 2139095040, 0, 1199562752, 2139095040],
               (2, 0): [1065353216, 4286578688, 2139095040, 0, 2139095040, 2139095040]}


def test_reduce_precision_is_jaxs_primitive_bit_for_bit():
    """A primitive (``reduce_precision[exponent_bits=8 mantissa_bits=7]``) where fgrad staged a
    ``custom_jvp_call`` of bit operations; and NaN stays NaN with 0 mantissa bits (fgrad's
    rounding turned it into -0.0 there)."""
    x = fnp.asarray(np.array(_RP_IN, np.float32))
    for (e, m), bits in JAX_RP_BITS.items():
        for f in (lax.reduce_precision, fgrad.jit(lax.reduce_precision, static_argnums=(1, 2))):
            assert np.asarray(f(x, e, m)).view(np.uint32).tolist() == bits, (e, m)
    for dt in (np.float16, ml_dtypes.bfloat16, np.float32, np.float64):
        with fgrad.default_device("cpu"):  # (CuPy and its fake stand-in have no bfloat16)
            assert np.isnan(float(lax.reduce_precision(fnp.asarray(np.array(np.nan, dt)), 2, 0)))
    assert _names(lambda v: lax.reduce_precision(v, 8, 7), x) == ["reduce_precision"]
    t = fgrad.jvp(lambda v: lax.reduce_precision(v, 8, 7), (np.float32(1.0),), (np.float32(1.0009766),))
    assert (float(t[0]), float(t[1])) == (1.0, 1.0)  # JAX: the tangent is rounded the same way
    assert fgrad.grad(lambda v: lax.reduce_precision(v * 3.0, 8, 7).sum())(fnp.ones(2)).tolist() == [3.0, 3.0]
    rows = fnp.asarray(np.array([_RP_IN[:3], _RP_IN[3:]], np.float32))
    assert fgrad.vmap(lambda r: lax.reduce_precision(r, 5, 10))(rows).tolist() == \
        lax.reduce_precision(rows, 5, 10).tolist()


@pytest.mark.slow
def test_reduce_precision_live():
    jax = pytest.importorskip("jax")
    rng = np.random.default_rng(0)
    for dt in (np.float16, ml_dtypes.bfloat16, np.float32, np.float64):
        x = (rng.normal(size=64) * np.exp(rng.normal(size=64) * 2)).astype(dt)
        x[:5] = [np.nan, np.inf, -np.inf, 0.0, -0.0]
        for e, m in ((8, 7), (5, 10), (3, 2), (4, 3), (2, 0), (1, 0)):
            with jax.enable_x64(True):
                want = np.asarray(jax.lax.reduce_precision(x, e, m))
            got = np.asarray(lax.reduce_precision(fnp.asarray(x), e, m))
            assert got.view(np.uint8).tolist() == want.view(np.uint8).tolist(), (dt, e, m)


# ---- literals ---------------------------------------------------------------------------------


def test_float32_literal_prints_its_shortest_repr():
    """``1.67`` in a float32 program prints as ``1.67:f32[]`` (JAX), not as the float64 value of
    its float32 rounding (``1.6699999570846558``)."""
    with fgrad.enable_x64(False):
        assert str(fgrad.make_jaxpr(lambda x: x * 1.67)(1.0)) == \
            "{ lambda ; a:f32[]. let b:f32[] = mul a 1.67:f32[] in (b,) }"


# ---- frexp of subnormals -----------------------------------------------------------------------

_SUBNORMALS = {np.float16: [6e-8, 1e-5, -3e-6, 6.1e-5],
               np.float32: [1e-40, -3e-45, 1.4e-45, 1e-38, 1.1754942e-38],
               np.float64: [5e-324, 1e-310, -2.2e-308],
               ml_dtypes.bfloat16: [1e-39, 5e-40, -1e-40]}


@pytest.mark.parametrize("dt", list(_SUBNORMALS), ids=lambda d: np.dtype(d).name)
def test_frexp_of_subnormals_is_exact(dt):
    """``frexp`` of a subnormal: mantissa in [0.5, 1), exponent below the normal range, and
    ``x == m * 2**e`` exactly (NumPy's results).  XLA on the CPU flushes subnormals, so JAX
    gives (0.5, -149) for float32's 1e-40 (0.5 * 2**-149 is 1.4e-45): fgrad keeps the exact
    answer, eagerly, under jit and under vmap.  (A device that flushes float32 subnormals, as
    CUDA code compiled with -ftz does, sees zeros: frexp(0) is (0, 0) there.)"""
    if dt is np.float32 and flushes_float32_subnormals():
        pytest.skip("the default device flushes float32 subnormals to zero")
    if dt is ml_dtypes.bfloat16:  # bfloat16 arrays live on the CPU (CuPy has none)
        with fgrad.default_device("cpu"):
            _check_frexp_exact(dt)
        return
    _check_frexp_exact(dt)


def _check_frexp_exact(dt):
    x = np.array(_SUBNORMALS[dt], dt)
    wide = x.astype(np.float64) if dt is not np.float64 else x
    want_m, want_e = np.frexp(wide)  # exact in float64 for the narrower types
    for f in (fnp.frexp, fgrad.jit(fnp.frexp), fgrad.vmap(fnp.frexp)):
        m, e = f(fnp.asarray(x))
        assert m.dtype == np.dtype(dt) and e.dtype == np.int32
        assert np.asarray(m).astype(np.float64).tolist() == want_m.tolist()
        assert np.asarray(e).tolist() == want_e.tolist()
        assert np.all((np.abs(np.asarray(m).astype(np.float64)) >= 0.5) & (np.abs(np.asarray(m)) < 1))
        assert np.ldexp(np.asarray(m).astype(np.float64), np.asarray(e)).tolist() == wide.tolist()


@pytest.mark.slow
def test_frexp_of_normal_numbers_live():
    """On normal numbers (and 0, inf, NaN) fgrad's frexp is JAX's."""
    jax = pytest.importorskip("jax")
    x = np.array([1.5, -10.0, 1.2e-38, 3e38, 0.0, -0.0, np.inf, np.nan], np.float32)
    wm, we = (np.asarray(a) for a in jax.numpy.frexp(x))
    gm, ge = (np.asarray(a) for a in fnp.frexp(fnp.asarray(x)))
    assert np.array_equal(gm, wm, equal_nan=True) and ge.tolist() == we.tolist()


# ---- lax.reduce with the common monoids ------------------------------------------------------


def _argmax_pair(a, b, lax_):
    (av, ai), (bv, bi) = a, b
    pick = (av > bv) | ((av == bv) & (ai < bi))
    return lax_.select(pick, av, bv), lax_.select(pick, ai, bi)


def _reductions(lax_, np_x, np_i, np_b) -> dict:
    out = {}
    for dims in ((0,), (1,), (0, 1)):
        out[f"add{dims}"] = lax_.reduce(np_i, np.int32(0), lax_.add, dims)
        out[f"mul{dims}"] = lax_.reduce(np_i, np.int32(1), lax_.mul, dims)
        out[f"max{dims}"] = lax_.reduce(np_x, np.float32(-np.inf), lax_.max, dims)
        out[f"min{dims}"] = lax_.reduce(np_i, np.int32(2 ** 31 - 1), lax_.min, dims)
        out[f"and{dims}"] = lax_.reduce(np_b, True, lax_.bitwise_and, dims)
        out[f"or{dims}"] = lax_.reduce(np_b, False, lax_.bitwise_or, dims)
        idx = lax_.broadcasted_iota(np.int32, np_x.shape, dims[0])
        v, i = lax_.reduce((np_x, idx), (np.float32(-np.inf), np.int32(0)),
                           lambda a, b: _argmax_pair(a, b, lax_), dims)
        out[f"argmax{dims}"] = [v, i]
        s, m = lax_.reduce((np_i, np_x), (np.int32(0), np.float32(-np.inf)),
                           lambda a, b: (a[0] + b[0], lax_.max(a[1], b[1])), dims)
        out[f"sum_and_max{dims}"] = [s, m]
    return out


def _lists(out: dict) -> dict:
    """The results as Python lists, keyed as JAX_REDUCE."""
    def tl(v):
        return [tl(a) for a in v] if isinstance(v, (list, tuple)) else np.asarray(v).tolist()
    return {k.replace(", )", ",)"): tl(v) for k, v in out.items()}


_RX = np.array([[3.0, 1.0, 3.0, -2.0], [0.5, 3.0, 3.0, 7.0], [3.0, -1.0, 0.0, 7.0]], np.float32)  # ties
_RI = np.array([[2, -3, 4, 1], [5, 0, -1, 2], [-2, 2, 3, -4]], np.int32)
_RB = np.array([[True, False, True, True], [True, True, True, False], [True, False, True, True]])
# JAX 0.10.2's results
JAX_REDUCE = {
    "add(0,)": [5, -1, 6, -1], "mul(0,)": [-20, 0, -12, -8], "max(0,)": [3.0, 3.0, 3.0, 7.0],
    "min(0,)": [-2, -3, -1, -4], "and(0,)": [True, False, True, False], "or(0,)": [True, True, True, True],
    "argmax(0,)": [[3.0, 3.0, 3.0, 7.0], [0, 1, 0, 1]],
    "sum_and_max(0,)": [[5, -1, 6, -1], [3.0, 3.0, 3.0, 7.0]],
    "add(1,)": [4, 6, -1], "mul(1,)": [-24, 0, 48], "max(1,)": [3.0, 7.0, 7.0], "min(1,)": [-3, -1, -4],
    "and(1,)": [False, False, False], "or(1,)": [True, True, True],
    "argmax(1,)": [[3.0, 7.0, 7.0], [0, 3, 3]], "sum_and_max(1,)": [[4, 6, -1], [3.0, 7.0, 7.0]],
    "add(0, 1)": 9, "mul(0, 1)": 0, "max(0, 1)": 7.0, "min(0, 1)": -4, "and(0, 1)": False,
    "or(0, 1)": True, "argmax(0, 1)": [7.0, 1], "sum_and_max(0, 1)": [9, 7.0],
}


def test_reduce_with_monoids_and_variadic_computations_gives_jaxs_results():
    """Each monoid, an argmax over two operands (ties to the lower index) and a sum-and-max
    pair, over every axis set: JAX's results exactly (integers, and maxima of floats)."""
    args = (fnp.asarray(_RX), fnp.asarray(_RI), fnp.asarray(_RB))
    assert _lists(_reductions(lax, *args)) == JAX_REDUCE
    assert _lists(fgrad.jit(lambda x, i, b: _reductions(lax, x, i, b))(*args)) == JAX_REDUCE


@pytest.mark.slow
def test_reduce_live():
    jax = pytest.importorskip("jax")
    got = _reductions(jax.lax, jax.numpy.asarray(_RX), jax.numpy.asarray(_RI), jax.numpy.asarray(_RB))
    assert _lists(got) == JAX_REDUCE


# ---- names programs import -----------------------------------------------------------------


def test_tree_static_declares_a_static_dataclass_field():
    """``jax.tree.static`` was missing."""
    import dataclasses

    @fgrad.tree_util.register_dataclass
    @dataclasses.dataclass
    class Op:
        x: object
        op: str = fgrad.tree.static(default="add")

    assert fgrad.tree.leaves(Op(1.0, "mul")) == [1.0]
    doubled = fgrad.jit(lambda o: o.x * 2 if o.op == "mul" else o.x)(Op(fnp.ones(2), "mul"))
    assert doubled.tolist() == [2.0, 2.0]
    field = fgrad.tree.static(default=3, metadata={"doc": "n"})
    assert dict(field.metadata) == {"static": True, "doc": "n"} and field.default == 3


_NEW_FLOATS = ("float8_e3m4", "float8_e4m3", "float8_e8m0fnu", "float4_e2m1fn", "float6_e2m3fn",
               "float6_e3m2fn")


def test_narrow_float_dtype_names():
    """``jnp.float8_e3m4`` and the 4/6-bit floats were missing; like the other float8 names
    they are dtypes (finfo, issubdtype), and arrays of them raise fgrad's TypeError."""
    for name in _NEW_FLOATS:
        t = getattr(fnp, name)
        assert fnp.dtype(t) == np.dtype(getattr(ml_dtypes, name)) and fnp.issubdtype(t, fnp.floating)
        assert fnp.finfo(t).bits == int(name[5])
    with pytest.raises(TypeError, match="only supports number and bool dtypes"):
        fnp.zeros(2, fnp.float4_e2m1fn)


@pytest.mark.slow
def test_new_names_live():
    jax = pytest.importorskip("jax")
    for name in _NEW_FLOATS:
        jt, ft = getattr(jax.numpy, name), getattr(fnp, name)
        assert jax.numpy.dtype(jt) == fnp.dtype(ft)
        assert jax.numpy.finfo(jt).bits == fnp.finfo(ft).bits
        assert float(jax.numpy.finfo(jt).max) == float(fnp.finfo(ft).max)
    jf, ff = jax.tree.static(default=1), fgrad.tree.static(default=1)
    assert dict(jf.metadata) == dict(ff.metadata) and jf.default == ff.default


# ---- jax_threefry_partitionable off: JAX's original random stream ------------------------------

# JAX 0.10.2 with jax_threefry_partitionable off (32-bit mode), key(42)
JAX_ORIGINAL_STREAM = {
    "split": [[3134548294, 3733159049], [3746501087, 894150801], [801545058, 2363201431]],
    "uniform5": [0.7298188209533691, 0.8691937923431396, 0.19643795490264893, 0.20818567276000977,
                 0.1866241693496704],
    "randint": [12, 43, 7, 29, 84], "bits8": [45, 179, 215, 3, 244], "bits16": [45869, 983, 33780],
    "perm": [3, 0, 2, 1, 5, 4],
    "vmap": [[0.12108182907104492, 0.16522455215454102], [0.41392219066619873, 0.504086971282959],
             [0.5706942081451416, 0.40605950355529785]],
    "jit_uniform": [0.5741443634033203, 0.1001582145690918, 0.059461116790771484],
}


def _original_stream(jax_, jnp_) -> dict:
    r = jax_.random
    k = r.key(42)
    return {"split": r.key_data(r.split(k, 3)).tolist(), "uniform5": r.uniform(k, (5,)).tolist(),
            "randint": r.randint(k, (5,), 0, 100).tolist(), "bits8": r.bits(k, (5,), jnp_.uint8).tolist(),
            "bits16": r.bits(k, (3,), jnp_.uint16).tolist(), "perm": r.permutation(k, 6).tolist(),
            "vmap": jax_.vmap(lambda kk: r.uniform(kk, (2,)))(r.split(k, 3)).tolist(),
            "jit_uniform": jax_.jit(lambda kk: r.uniform(kk, (3,)))(k).tolist()}


def test_threefry_partitionable_off_is_jaxs_original_stream():
    """``jax_threefry_partitionable=False`` was accepted and ignored: the random numbers were
    the partitionable stream's, silently not JAX's for that setting.  ``jax.threefry_partitionable``
    (the context manager) was missing."""
    f = fgrad.jit(lambda k: fgrad.random.uniform(k, (3,)))
    with fgrad.enable_x64(False):
        on = f(fgrad.random.key(42)).tolist()
        with fgrad.threefry_partitionable(False):
            assert _original_stream(fgrad, fnp) == JAX_ORIGINAL_STREAM
            assert f(fgrad.random.key(42)).tolist() == JAX_ORIGINAL_STREAM["jit_uniform"]  # retraced
        assert f(fgrad.random.key(42)).tolist() == on != JAX_ORIGINAL_STREAM["jit_uniform"]
        fgrad.config.update("jax_threefry_partitionable", False)
        try:
            drawn = fgrad.random.uniform(fgrad.random.key(42), (5,)).tolist()
            assert drawn == JAX_ORIGINAL_STREAM["uniform5"]
        finally:
            fgrad.config.update("jax_threefry_partitionable", True)


@pytest.mark.slow
def test_threefry_original_stream_live():
    """Both modes, 32- and 64-bit values (uint64 bits: the first half of the words are the high
    halves), against JAX."""
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True), fgrad.enable_x64(True):
        for on in (False, True):
            with jax.threefry_partitionable(on), fgrad.threefry_partitionable(on):
                for shape in ((3,), (2, 3), (7,)):
                    for dt in ("uint8", "uint16", "uint32", "uint64"):
                        want = jax.random.bits(jax.random.key(3), shape, dt)
                        got = fgrad.random.bits(fgrad.random.key(3), shape, dt)
                        assert got.tolist() == want.tolist(), (on, shape, dt)
                assert (fgrad.random.key_data(fgrad.random.split(fgrad.random.key(3), (2, 3))).tolist()
                        == jax.random.key_data(jax.random.split(jax.random.key(3), (2, 3))).tolist())
    with jax.enable_x64(False), fgrad.enable_x64(False), jax.threefry_partitionable(False), \
            fgrad.threefry_partitionable(False):
        assert _original_stream(jax, jax.numpy) == _original_stream(fgrad, fnp)


# ---- explicit-sharding names on one device ------------------------------------------------------


def test_reshard_get_mesh_and_axes_scopes():
    """``jax.sharding.reshard``/``jax.reshard``, ``get_mesh``, ``use_abstract_mesh``,
    ``auto_axes`` and ``explicit_axes`` were missing (JAX's explicit-sharding tutorial uses
    them); on fgrad's one device they keep values, and raise JAX's errors."""
    from fgrad import sharding as sh
    x = fnp.arange(4.0)
    mesh = fgrad.make_mesh((1,), ("d",))
    with fgrad.set_mesh(mesh):
        assert fgrad.reshard(x, fgrad.P("d")).tolist() == [0.0, 1.0, 2.0, 3.0]
        assert sh.get_mesh() is mesh and sh.get_mesh().axis_names == ("d",)
        assert fgrad.jit(lambda v: sh.reshard(v * 2, fgrad.P("d")))(x).tolist() == [0.0, 2.0, 4.0, 6.0]
    assert sh.get_mesh().empty
    with pytest.raises(ValueError, match="non-None"):
        sh.reshard(x, None)
    with pytest.raises(ValueError, match="not under a mesh context"):
        sh.reshard(x, fgrad.P("d"))
    with pytest.raises(ValueError, match="can only be used outside of `jax.jit`"):
        fgrad.jit(lambda v: sh.get_mesh())(x)
    with sh.use_abstract_mesh(mesh.abstract_mesh):
        assert sh.get_abstract_mesh().axis_names == ("d",)
    assert sh.auto_axes(lambda v: v + 1, out_sharding=fgrad.P())(x).tolist() == [1.0, 2.0, 3.0, 4.0]
    assert sh.explicit_axes(axes="d")(lambda v: v * 3)(x).tolist() == [0.0, 3.0, 6.0, 9.0]


@pytest.mark.slow
def test_reshard_errors_live():
    jax = pytest.importorskip("jax")
    for bad in (None, jax.P("d")):
        with pytest.raises(ValueError) as want:
            jax.sharding.reshard(jax.numpy.ones(2), bad)
        with pytest.raises(ValueError) as got:
            fgrad.sharding.reshard(fnp.ones(2), None if bad is None else fgrad.P("d"))
        assert str(got.value) == str(want.value)
