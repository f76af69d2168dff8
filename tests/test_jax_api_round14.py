"""Round 14 of the JAX API (docs/jax-api-round14.md): JAX's remaining ``lax.*_p`` and
``lax.linalg.*_p`` primitive objects (``bind`` takes JAX's operands and parameters).  JAX
0.10.2's numbers are stored in the tests; the slow ``*_live`` tests compare with the installed
JAX (they run JAX's own jaxprs through fgrad's primitive objects)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.test_util import check_grads

# ---- lax.*_p: JAX's parameters ------------------------------------------------------------


def test_views_take_jaxs_parameters_and_give_jaxs_numbers():
    """Each call is the bind ``jax.make_jaxpr`` records for the operation (its parameters as
    JAX 0.10.2 names them); the numbers are JAX 0.10.2's."""
    x = fnp.arange(6.0).reshape(2, 3)
    i = fnp.asarray([-7, 7, -8, 9])
    assert lax.div_p.bind(i, fnp.asarray(2)).tolist() == [-3, 3, -4, 4]  # C's truncation
    assert lax.rem_p.bind(i, fnp.asarray(4)).tolist() == [-3, 3, 0, 1]
    half = fnp.asarray([0.5, 1.5, 2.5, -0.5])
    assert lax.round_p.bind(half, rounding_method=1).tolist() == [0.0, 2.0, 2.0, -0.0]
    assert lax.round_p.bind(half, rounding_method=0).tolist() == [1.0, 2.0, 3.0, -1.0]
    assert lax.reduce_sum_p.bind(x, axes=(1,), out_sharding=None).tolist() == [3.0, 12.0]
    assert lax.reduce_max_p.bind(x, axes=(0,)).tolist() == [3.0, 4.0, 5.0]
    assert lax.reduce_xor_p.bind(fnp.asarray([[1, 2, 4], [3, 3, 1]]), axes=(1,)).tolist() == [7, 1]
    assert lax.argmax_p.bind(x, axes=(1,), index_dtype=np.int32).dtype == np.int32
    assert lax.cumsum_p.bind(x, axis=1, reverse=True).tolist() == [[3.0, 3.0, 2.0], [12.0, 9.0, 5.0]]
    np.testing.assert_allclose(lax.cumlogsumexp_p.bind(x[0], axis=0, reverse=False),
                               [0.0, 1.3132616875182228, 2.40760596444438], rtol=1e-14)
    assert lax.broadcast_in_dim_p.bind(x[0], shape=(2, 3), broadcast_dimensions=(1,),
                                       sharding=None).tolist() == [[0.0, 1.0, 2.0]] * 2
    assert lax.reshape_p.bind(x, new_sizes=(3, 2), dimensions=None, sharding=None).shape == (3, 2)
    assert lax.transpose_p.bind(x, permutation=(1, 0)).shape == (3, 2)
    assert lax.rev_p.bind(x, dimensions=(0,)).tolist() == [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]
    assert lax.pad_p.bind(x[0], 9.0, padding_config=((1, 0, 1),)).tolist() == [9.0, 0.0, 9.0, 1.0, 9.0, 2.0]
    assert lax.iota_p.bind(dtype=np.int32, shape=(2, 3), dimension=1, sharding=None).tolist() == [
        [0, 1, 2]] * 2
    assert lax.concatenate_p.bind(x, x, dimension=0).shape == (4, 3)
    assert [a.tolist() for a in lax.split_p.bind(x, sizes=(1, 2), axis=1)] == [
        [[0.0], [3.0]], [[1.0, 2.0], [4.0, 5.0]]]
    assert lax.tile_p.bind(x[0], reps=(2,)).tolist() == [0.0, 1.0, 2.0] * 2
    vals, idx = lax.top_k_p.bind(x, k=1, axis=0)  # JAX 0.10.2's top_k_p has an axis
    assert vals.tolist() == [[3.0, 4.0, 5.0]] and idx.tolist() == [[1, 1, 1]]
    c = lax.convert_element_type_p.bind(x, new_dtype=np.dtype(np.float32), weak_type=True,
                                        sharding=None)
    assert c.dtype == np.float32 and c.weak_type
    assert lax.not_p.bind(fnp.asarray([0, 5], np.int8)).tolist() == [-1, -6]
    assert lax.population_count_p.bind(fnp.asarray([7, 8], np.uint8)).tolist() == [3, 1]
    assert lax.clz_p.bind(fnp.asarray([1, 256], np.int32)).tolist() == [31, 23]
    assert lax.is_finite_p.bind(fnp.asarray([1.0, np.inf, np.nan])).tolist() == [True, False, False]
    assert lax.dynamic_slice_p.bind(x, 1, 1, slice_sizes=(1, 2)).tolist() == [[4.0, 5.0]]
    assert lax.dynamic_update_slice_p.bind(x, fnp.zeros((1, 1)), 0, 2).tolist() == [
        [0.0, 1.0, 0.0], [3.0, 4.0, 5.0]]
    s = lax.sort_p.bind(fnp.asarray([3.0, 1.0, 2.0]), fnp.asarray([0, 1, 2]), dimension=0,
                        is_stable=True, num_keys=1)
    assert [a.tolist() for a in s] == [[1.0, 2.0, 3.0], [1, 2, 0]]
    assert lax.reduce_window_max_p.bind(
        x, window_dimensions=(1, 2), window_strides=(1, 1), padding=((0, 0), (0, 1)),
        base_dilation=(1, 1), window_dilation=(1, 1)).tolist() == [[1.0, 2.0, 2.0], [4.0, 5.0, 5.0]]
    assert lax.reduce_window_sum_p.bind(
        fnp.asarray([1, 2, 3]), window_dimensions=(2,), window_strides=(1,), padding=((0, 0),),
        base_dilation=(1,), window_dilation=(1,)).tolist() == [3, 5]
    assert lax.dot_general_p.bind(x, x, dimension_numbers=(((1,), (1,)), ((), ())), precision=None,
                                  preferred_element_type=None, out_sharding=None).tolist() == [
        [5.0, 14.0], [14.0, 50.0]]
    assert lax.optimization_barrier_p.bind(x, 1.0)[0] is not None
    assert lax.regularized_incomplete_beta_p.bind(2.0, 3.0, 0.5).item() == pytest.approx(0.6875, rel=1e-14)
    assert lax.reduce_precision_p.bind(fnp.asarray(1.0 + 2.0 ** -12), exponent_bits=5,
                                       mantissa_bits=10).item() == 1.0


def test_linalg_views_give_jaxs_result_order():
    """JAX's ``svd_p`` returns ``(s, u, vh)``, ``eigh_p`` ``(v, w)``, ``lu_p`` ``(lu, pivots,
    permutation)``; ``triangular_solve_p``'s ``left_side`` defaults as JAX's (False)."""
    from fgrad.lax import linalg as L

    a = fnp.asarray([[4.0, 1.0], [1.0, 3.0]])
    s, u, vh = L.svd_p.bind(a, full_matrices=True, compute_uv=True, subset_by_index=None,
                            algorithm=None)
    np.testing.assert_allclose(u @ fnp.diag(s) @ vh, a, atol=1e-14)
    (s_only,) = L.svd_p.bind(a, full_matrices=True, compute_uv=False, subset_by_index=None,
                             algorithm=None)
    np.testing.assert_allclose(s_only, s, rtol=1e-14)
    v, w = L.eigh_p.bind(a, lower=True, sort_eigenvalues=True, subset_by_index=None, algorithm=None)
    np.testing.assert_allclose(w, [2.381966011250105, 4.618033988749895], rtol=1e-14)  # (7 -+ sqrt 5)/2
    np.testing.assert_allclose(a @ v, v * w, atol=1e-14)
    lu, piv, perm = L.lu_p.bind(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]))
    assert piv.tolist() == [1, 1] and perm.tolist() == [1, 0]
    np.testing.assert_allclose(lu, [[3.0, 4.0], [1 / 3, 2 / 3]], rtol=1e-14)
    chol = L.cholesky_p.bind(a)
    np.testing.assert_allclose(fnp.tril(chol) @ fnp.tril(chol).T, a, rtol=1e-14)
    x = L.triangular_solve_p.bind(fnp.tril(a), fnp.ones((2, 2)), left_side=True, lower=True,
                                  transpose_a=False, conjugate_a=False, unit_diagonal=False)
    np.testing.assert_allclose(fnp.tril(a) @ x, fnp.ones((2, 2)), rtol=1e-14)
    assert L.lu_pivots_to_permutation_p.bind(fnp.asarray([1, 1], np.int32),
                                             permutation_size=3).tolist() == [1, 0, 2]
    q, r = L.qr_p.bind(a, pivoting=False, full_matrices=False, use_magma=None)
    np.testing.assert_allclose(q @ r, a, atol=1e-14)


def test_views_equal_fgrads_primitives_in_jaxprs():
    """A jaxpr interpreter keys rules on JAX's primitive objects: ``eqn.primitive ==
    lax.cumsum_p`` and dict lookups hold for fgrad's jaxprs."""
    x = fnp.ones((2, 3))
    eqns = fgrad.make_jaxpr(lambda v: lax.cumsum(lax.reduce_sum(v, (0,)), 0))(x).eqns
    assert [e.primitive == p for e, p in zip(eqns, (lax.reduce_sum_p, lax.cumsum_p))] == [True, True]
    rules = {lax.reduce_sum_p: "sum", lax.cumsum_p: "cumsum", lax.exp_p: "exp"}
    assert [rules[e.primitive] for e in eqns] == ["sum", "cumsum"]
    assert lax.reduce_sum_p != lax.cumsum_p and lax.reduce_sum_p.name == "reduce_sum"
    assert lax.scatter_add_p.name == "scatter-add" and repr(lax.div_p) == "div"
    assert lax.reduce_sum_p.fgrad_primitive is eqns[0].primitive
    assert lax.top_k_p.fgrad_primitive is None and not lax.top_k_p == eqns[0].primitive


def test_views_differentiate_vmap_and_jit():
    """bind runs fgrad's lax functions: JAX's derivative rules, vmap and jit come with them."""
    def f(v):
        c = lax.cumprod_p.bind(v, axis=1, reverse=False)
        s = lax.reduce_sum_p.bind(c * c, axes=(1,))
        return lax.dot_general_p.bind(s, s, dimension_numbers=(((0,), (0,)), ((), ())))

    x = fnp.asarray([[0.5, 1.5, -1.0], [2.0, 0.3, 0.7]])
    check_grads(f, (x,), order=2, modes=("fwd", "rev"))
    check_grads(lambda v: lax.linalg.svd_p.bind(v, full_matrices=False, compute_uv=False,
                                                subset_by_index=None, algorithm=None)[0], (x,), order=1)
    batched = fgrad.vmap(lambda r: lax.cumsum_p.bind(r, axis=0, reverse=True))(x)
    assert batched.tolist() == [lax.cumsum(r, 0, reverse=True).tolist() for r in x]
    assert fgrad.jit(f)(x).item() == pytest.approx(f(x).item(), rel=1e-14)


def test_collective_views_under_vmap():
    x = fnp.asarray([1.0, 2.0, 4.0])
    f = lambda v: lax.psum_p.bind(v, axes=("i",), axis_index_groups=None)
    assert fgrad.vmap(f, axis_name="i")(x).tolist() == [7.0, 7.0, 7.0]
    g = lambda v: lax.pmax_p.bind(v, axes=("i",), axis_index_groups=None)
    assert fgrad.vmap(g, axis_name="i")(x).tolist() == [4.0, 4.0, 4.0]


def test_jaxs_default_parameters_of_exported_primitives():
    """JAX 0.10.2 records ``accuracy=None`` on ``exp``/``sin``/... and ``out_dtype=None`` on
    ``mul``; fgrad's primitives (``lax.exp_p is`` the one ``fnp.exp`` binds) rejected them, so
    binding a JAX jaxpr's ``eqn.params`` failed."""
    x = fnp.asarray([0.5, 1.0])
    assert lax.mul_p.bind(x, x, out_dtype=None).tolist() == [0.25, 1.0]
    for p, f in ((lax.exp_p, fnp.exp), (lax.sin_p, fnp.sin), (lax.tanh_p, fnp.tanh),
                 (lax.logistic_p, fgrad.nn.sigmoid), (lax.rsqrt_p, lax.rsqrt)):
        assert p.bind(x, accuracy=None).tolist() == f(x).tolist()
    assert fgrad.grad(lambda v: lax.sin_p.bind(v, accuracy=None))(0.0) == 1.0
    assert "accuracy" not in str(fgrad.make_jaxpr(lambda v: lax.exp_p.bind(v, accuracy=None))(x))
    with pytest.raises(NotImplementedError, match="accuracy"):
        lax.exp_p.bind(x, accuracy="high")
    with pytest.raises(NotImplementedError, match="out_dtype"):
        lax.mul_p.bind(x, x, out_dtype=np.float32)


def test_dynamic_update_slice_of_a_numpy_operand():
    """``lax.dynamic_update_slice`` of a NumPy array raised AttributeError (no ``.at``)."""
    out = lax.dynamic_update_slice(np.zeros(4), np.ones(2), (1,))
    assert out.tolist() == [0.0, 1.0, 1.0, 0.0]
    assert lax.dynamic_update_slice(np.zeros((2, 2)), np.ones((1, 1)), (np.int32(1), 0)).tolist() == [
        [0.0, 0.0], [1.0, 0.0]]


def test_view_errors():
    x = fnp.ones(3)
    with pytest.raises(TypeError, match=r"cumsum_p.bind: .*axis, reverse"):
        lax.cumsum_p.bind(x, axis=0, bogus=1)
    with pytest.raises(TypeError):
        lax.reduce_sum_p.bind(x)  # axes is required, as in JAX
    with pytest.raises(NotImplementedError, match=r"cond_p.bind: .*lax.cond"):
        lax.cond_p.bind(0, x, branches=())
    with pytest.raises(NotImplementedError, match="sharding"):
        lax.reduce_sum_p.bind(x, axes=(0,), out_sharding=object())


# ---- live: JAX's jaxprs, run through fgrad's primitive objects ----------------------------


def _jax_programs(jax):
    jnp, jl = jax.numpy, jax.lax
    x = np.arange(6.0).reshape(2, 3) + 0.5
    i = np.arange(6).reshape(2, 3) - 2
    spd = x @ x.T + np.eye(2)
    return [
        (lambda: jl.argmax(x, 1, jnp.int32)), (lambda: jnp.argmin(x, 0)),
        (lambda: jl.broadcast_in_dim(x[0], (2, 3), (1,))), (lambda: jl.clz(i)),
        (lambda: jl.concatenate([x, x], 0)), (lambda: jl.conj(x + 1j)),
        (lambda: jl.convert_element_type(x, jnp.int32)), (lambda: jl.cumsum(x, 1, reverse=True)),
        (lambda: jl.cumlogsumexp(x, 1)), (lambda: jl.cummax(x, 0)), (lambda: jl.cumprod(x, 1)),
        (lambda: jl.div(i, 2)), (lambda: jl.rem(i, 4)),
        (lambda: jl.dot_general(x, x, (((1,), (1,)), ((), ())))),
        (lambda: jl.dynamic_slice(x, (0, 1), (2, 2))),
        (lambda: jl.dynamic_update_slice(x, x[:, :1], (0, 1))), (lambda: jnp.fft.fft(x)),
        (lambda: jnp.fft.rfft(x)), (lambda: jl.iota(jnp.int32, 4)), (lambda: jl.is_finite(x)),
        (lambda: jl.bitwise_not(i)), (lambda: jl.pad(x, 0.0, [(1, 0, 0), (0, 1, 1)])),
        (lambda: jl.population_count(i)), (lambda: jl.reduce_max(x, (1,))),
        (lambda: jl.reduce_min(x, (0,))), (lambda: jl.reduce_prod(x, (0, 1))),
        (lambda: jl.reduce_sum(x, (1,))), (lambda: jl.reduce_and(x > 1, (1,))),
        (lambda: jl.reduce_or(x > 4, (1,))), (lambda: jl.reduce_xor(i, (1,))),
        (lambda: jl.reshape(x, (3, 2))), (lambda: jl.rev(x, (0,))),
        (lambda: jl.round(x, jl.RoundingMethod.TO_NEAREST_EVEN)), (lambda: jl.round(x)),
        (lambda: jl.select_n(i > 0, x, -x)), (lambda: jl.sort((x[::-1], i), num_keys=1)),
        (lambda: jl.split(x, (1, 2), axis=1)), (lambda: jnp.tile(x, (2, 1))),
        (lambda: jl.top_k(x, 2)), (lambda: jl.transpose(x, (1, 0))),
        (lambda: jl.bitcast_convert_type(x, jnp.int64)), (lambda: jnp.array(x, copy=True)),
        (lambda: jl.reduce_precision(x, 5, 10)), (lambda: x[np.array([1, 0, 1])]),
        (lambda: jnp.asarray(x).at[np.array([1, 0, 1])].add(1.0)),
        (lambda: jnp.asarray(x).at[np.array([1, 0])].set(1.0)),
        (lambda: jnp.asarray(x).at[np.array([1, 1])].multiply(2.0)),
        (lambda: jnp.asarray(x).at[np.array([0, 1])].min(1.0)),
        (lambda: jnp.asarray(x).at[np.array([0, 1])].max(3.0)),
        (lambda: jl.reduce_window(x, 0.0, jl.add, (1, 2), (1, 1), "VALID")),
        (lambda: jl.reduce_window(x, -jnp.inf, jl.max, (2, 2), (1, 1), "SAME")),
        (lambda: jl.reduce_window(x, jnp.inf, jl.min, (1, 2), (1, 1), "VALID")),
        (lambda: jl.conv(x[None, None], x[None, None, :, :2], (1, 1), "VALID")),
        (lambda: jl.optimization_barrier((x, i))),
        (lambda: jax.grad(lambda v: jl.reduce_window(v, -jnp.inf, jl.max, (2, 2), (1, 1), "VALID").sum())(x)),
        (lambda: jax.jvp(lambda v: jl.reduce_window(v, jnp.inf, jl.min, (1, 2), (1, 1), "SAME"), (x,),
                         (x * 2,))), (lambda: jl.betainc(2.0, 3.0, x / 6)),
        (lambda: jnp.linalg.cholesky(spd)), (lambda: jnp.linalg.eigh(spd)),
        (lambda: jnp.linalg.qr(x.T)), (lambda: jnp.linalg.svd(x)),
        (lambda: jnp.linalg.svd(x, compute_uv=False)),
        (lambda: jax.scipy.linalg.lu_factor(spd)), (lambda: jnp.linalg.slogdet(spd)),
        (lambda: jax.scipy.linalg.solve_triangular(np.tril(spd), x, lower=True)),
        (lambda: jl.linalg.lu_pivots_to_permutation(np.array([1, 1], np.int32), 3)),
    ]


def _eval_jaxpr(jax, jaxpr, consts, args):
    """JAX's "custom interpreter" tutorial: each equation's primitive looked up by name in
    fgrad.lax / fgrad.lax.linalg and bound with the equation's (JAX's) parameters."""
    from fgrad.lax import linalg

    env = {}

    def read(v):
        return v.val if type(v).__name__ == "Literal" else env[v]

    for v, a in zip(jaxpr.constvars, consts):
        env[v] = a
    for v, a in zip(jaxpr.invars, args):
        env[v] = a
    for e in jaxpr.eqns:
        ins = [read(v) for v in e.invars]
        name = e.primitive.name
        if name in ("jit", "pjit", "custom_jvp_call", "custom_vjp_call"):
            inner = e.params.get("jaxpr", e.params.get("call_jaxpr"))
            outs = _eval_jaxpr(jax, inner.jaxpr, inner.consts, ins)
        else:
            prim = getattr(lax, name.replace("-", "_") + "_p", None) or getattr(linalg, name + "_p")
            outs = prim.bind(*ins, **e.params)
            outs = outs if e.primitive.multiple_results else [outs]
        for v, o in zip(e.outvars, outs):
            env[v] = o
    return [read(v) for v in jaxpr.outvars]


@pytest.mark.slow
def test_views_run_jaxs_jaxprs_live():
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True):
        for k, f in enumerate(_jax_programs(jax)):
            closed = jax.make_jaxpr(f)()
            want = jax.tree_util.tree_leaves(f())
            got = _eval_jaxpr(jax, closed.jaxpr, closed.consts, [])
            assert len(got) == len(want), k
            for g, w in zip(got, want):
                g, w = np.asarray(g), np.asarray(w)
                assert g.dtype == w.dtype and g.shape == w.shape, (k, g.dtype, w.dtype, g.shape, w.shape)
                np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12, err_msg=str(k))


@pytest.mark.slow
def test_view_names_are_jaxs_live():
    jax = pytest.importorskip("jax")
    from fgrad.lax import linalg

    for ours, theirs in ((lax, jax.lax), (linalg, jax.lax.linalg)):
        for n in dir(theirs):
            if n.endswith("_p") and hasattr(ours, n):
                assert getattr(ours, n).name == getattr(theirs, n).name, n
                assert getattr(ours, n).multiple_results == getattr(theirs, n).multiple_results, n


# ---- jnp.int4 / uint4 / int2 / uint2 / int1 / uint1 ---------------------------------------

SUB_BYTE = ("int1", "int2", "int4", "uint1", "uint2", "uint4")
# JAX 0.10.2: jnp.iinfo(t) (min, max, bits) and jnp.issubdtype(t, signedinteger/unsignedinteger)
JAX_SUB_BYTE = {"int1": (-1, 0, 1, True), "int2": (-2, 1, 2, True), "int4": (-8, 7, 4, True),
                "uint1": (0, 1, 1, False), "uint2": (0, 3, 2, False), "uint4": (0, 15, 4, False)}


def _sub_byte_facts(jnp):
    out = {}
    for n in SUB_BYTE:
        t = getattr(jnp, n)
        i = jnp.iinfo(t)
        assert jnp.issubdtype(t, jnp.integer) and jnp.issubdtype(t, jnp.number)
        assert not jnp.issubdtype(t, jnp.floating) and not jnp.issubdtype(t, jnp.int8)
        assert jnp.issubdtype(t, jnp.unsignedinteger) != jnp.issubdtype(t, jnp.signedinteger)
        assert jnp.dtype(t).name == n and jnp.promote_types(t, t) == jnp.dtype(t)
        out[n] = (int(i.min), int(i.max), int(i.bits), bool(jnp.issubdtype(t, jnp.signedinteger)))
    return out


def test_sub_byte_integer_dtypes():
    """``jnp.int4`` and kin (``ml_dtypes``' types, as JAX's): iinfo, issubdtype, dtype arguments.
    iinfo and issubdtype raised or answered False before (NumPy sees a void dtype)."""
    assert _sub_byte_facts(fnp) == JAX_SUB_BYTE
    assert fgrad.dtypes.iinfo(fnp.int4).max == 7 and fnp.iinfo(np.int16).max == 32767
    assert fnp.iinfo(fnp.ones(2, np.int8)).min == -128  # an array's dtype
    assert fnp.can_cast(fnp.int4, fnp.int8) and not fnp.can_cast(fnp.int8, fnp.int4)


def test_sub_byte_integer_errors():
    """JAX refuses implicit promotion of the sub-byte integers (TypePromotionError) and
    ``finfo`` of an integer (ValueError); fgrad computes on no arrays of them (TypeError)."""
    with pytest.raises(fgrad.dtypes.TypePromotionError, match="4-bit integers do not support"):
        fnp.promote_types(fnp.int4, fnp.int8)
    with pytest.raises(fgrad.dtypes.TypePromotionError, match="implicit promotion"):
        fnp.result_type(fnp.uint2, np.float32)
    with pytest.raises(ValueError, match="not inexact"):
        fnp.finfo(fnp.int4)
    with pytest.raises(TypeError, match="int4"):
        fnp.zeros(2, fnp.int4)
    with pytest.raises(TypeError, match="uint4"):
        fnp.uint4(3)


@pytest.mark.slow
def test_sub_byte_integer_dtypes_live():
    jax = pytest.importorskip("jax")
    assert _sub_byte_facts(jax.numpy) == JAX_SUB_BYTE
    with pytest.raises(jax.dtypes.TypePromotionError):
        jax.numpy.promote_types(jax.numpy.int4, jax.numpy.int8)


# ---- jax.export: symbolic shapes ----------------------------------------------------------


def _concat_sum(jnp):
    return lambda x: jnp.concatenate([x, 2 * x]).sum(1)


def test_symbolic_shape_text_and_arithmetic():
    """JAX 0.10.2's texts for the same specifications (``str`` of each dimension)."""
    from fgrad import export

    cases = {"b, 4": "(b, 4)", "a, 2*a + 1, a*b": "(a, 2*a + 1, a*b)", "3*b + 2*c - 1": "(2*c + 3*b - 1,)",
             "b*b": "(b^2,)", "b ^ 2": "(b^2,)", "(b, 4)": "(b, 4)", "": "()", "b,": "(b,)",
             "b - 1": "(b - 1,)"}
    assert {k: str(export.symbolic_shape(k)) for k in cases} == cases
    assert export.symbolic_shape("b, _, ...", like=(5, 3, 6, 7))[1:] == (3, 6, 7)
    b, c = export.symbolic_shape("b, c")
    assert export.is_symbolic_dim(b) and not export.is_symbolic_dim(3)
    assert (b - b, (b + 1) - b, b * 0) == (0, 1, 0)
    assert b >= 1 and b > 0 and b - 1 >= 0 and not (b < 1) and b == b and b != c and b != 3
    assert str(2 * b * c - c) == "2*b*c - c" and (b + c).evaluate({"b": 2, "c": 5}) == 7


def test_symbolic_shape_errors():
    from fgrad import export
    from fgrad.errors import InconclusiveDimensionOperation

    for bad in ("b, 4+", "b, c)", "2b", "b // 2", "b**2"):  # JAX: ValueError (syntax error)
        with pytest.raises(ValueError, match="syntax error in symbolic shape"):
            export.symbolic_shape(bad)
    with pytest.raises(NotImplementedError, match="max"):  # JAX has max/min/floordiv/mod
        export.symbolic_shape("b, max(b, 2)")
    b, c = export.symbolic_shape("b, c")
    with pytest.raises(InconclusiveDimensionOperation, match="'b' > '3' is inconclusive"):
        bool(b > 3)
    with pytest.raises(InconclusiveDimensionOperation):
        bool(b < c)
    with pytest.raises(InconclusiveDimensionOperation, match="requires a constant"):
        int(b)
    with pytest.raises(ValueError, match="Invalid mixing of symbolic scopes"):
        b + export.symbolic_shape("a")[0]


def test_export_with_a_symbolic_batch_dimension():
    """``export`` of ``ShapeDtypeStruct(symbolic_shape("b, 4"))``: JAX's symbolic types; calls
    with any concrete ``b`` (the function staged per size, cached), under grad and jit too."""
    from fgrad import export

    spec = fgrad.ShapeDtypeStruct(export.symbolic_shape("b, 4"), np.float32)
    exp = export.export(fgrad.jit(_concat_sum(fnp)))(spec)
    assert str(exp.in_avals) == "(ShapedArray(float32[b,4]),)"  # JAX 0.10.2's
    assert str(exp.out_avals) == "(ShapedArray(float32[2*b]),)"
    for n in (1, 3, 7):
        x = fnp.arange(4.0 * n, dtype=np.float32).reshape(n, 4)
        assert exp.call(x).tolist() == _concat_sum(fnp)(x).tolist()
    assert fgrad.grad(lambda x: exp.call(x).sum())(fnp.ones((2, 4), np.float32)).tolist() == [[3.0] * 4] * 2
    assert fgrad.jit(exp.call)(fnp.ones((5, 4), np.float32)).shape == (10,)
    b, = export.symbolic_shape("b")
    two = export.export(fgrad.jit(lambda x, y: x[1:] * y))(
        fgrad.ShapeDtypeStruct((b + 1, 3), np.float64), fgrad.ShapeDtypeStruct((b, 3), np.float64))
    assert [str(a) for a in two.in_avals] == ["float64[b + 1,3]", "float64[b,3]"]
    assert str(two.out_avals[0]) == "float64[b,3]"
    assert two.call(fnp.ones((3, 3)), fnp.full((2, 3), 2.0)).tolist() == [[2.0] * 3] * 2


def test_export_symbolic_call_errors():
    """JAX's ValueErrors (its texts) for a constant dimension that differs, a variable < 1 and
    sizes that disagree; a symbolic export cannot be serialized (the Python function is staged
    per size)."""
    from fgrad import export

    exp = export.export(fgrad.jit(_concat_sum(fnp)))(
        fgrad.ShapeDtypeStruct(export.symbolic_shape("b, 4"), np.float32))
    with pytest.raises(ValueError, match=r"Shape mismatch for args\[0\].shape\[1\] \(expected same "
                                         r"constant\): expected \(b, 4\) and called with \(3, 5\)"):
        exp.call(fnp.ones((3, 5), np.float32))
    with pytest.raises(ValueError, match="Expected value >= 1 for dimension variable 'b'"):
        exp.call(fnp.ones((0, 4), np.float32))
    b, = export.symbolic_shape("b")
    add = export.export(fgrad.jit(lambda x, y: x + y))(fgrad.ShapeDtypeStruct((b,), np.float32),
                                                     fgrad.ShapeDtypeStruct((b,), np.float32))
    with pytest.raises(ValueError, match=r"inconsistency between dimension size args\[1\].shape\[0\] "
                                         r"\(= 4\) and the specification 'b' \(= 3\)"):
        add.call(fnp.ones(3, np.float32), fnp.ones(4, np.float32))
    with pytest.raises(export.SerializationError, match="symbolic shapes"):
        exp.serialize()
    with pytest.raises(ValueError, match="Invalid mixing of symbolic scopes"):
        export.export(fgrad.jit(lambda x, y: x))(
            fgrad.ShapeDtypeStruct(export.symbolic_shape("b"), np.float32),
            fgrad.ShapeDtypeStruct(export.symbolic_shape("b"), np.float32))
    sq = export.symbolic_shape("b")
    with pytest.raises(NotImplementedError, match="degree 1"):  # JAX allows b^2: fgrad does not
        export.export(fgrad.jit(lambda x: fnp.outer(x, x).ravel()))(fgrad.ShapeDtypeStruct(sq, np.float32))
    scoped = export.symbolic_shape("a, c", constraints=("a >= c",))
    sub = export.export(fgrad.jit(lambda x, y: x[: y.shape[0]] - y))(
        fgrad.ShapeDtypeStruct(scoped[:1], np.float32), fgrad.ShapeDtypeStruct(scoped[1:], np.float32))
    assert sub.call(fnp.ones(3, np.float32), fnp.ones(2, np.float32)).tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="constraint 'a >= c'"):
        sub.call(fnp.ones(2, np.float32), fnp.ones(3, np.float32))


def test_symbolic_args_specs_and_export_constants():
    from fgrad import export

    specs = export.symbolic_args_specs((fnp.ones((3, 4), np.float32), fnp.ones(3)), ("b, ...", "b"))
    assert str(specs) == ("(ShapeDtypeStruct(shape=(b, 4), dtype=float32), "
                          "ShapeDtypeStruct(shape=(b,), dtype=float64))")
    assert specs[0].shape[0] == specs[1].shape[0]  # one scope
    assert str(export.symbolic_args_specs(fnp.ones((3, 4)), "(b, _)").shape) == "(b, 4)"
    assert (export.minimum_supported_calling_convention_version,
            export.maximum_supported_calling_convention_version) == (9, 10)  # JAX 0.10.2's
    assert export.default_export_platform() == "cpu" or fgrad.default_backend() != "cpu"
    assert export.DisabledSafetyCheck.custom_call("t").is_custom_call() == "t"
    assert export.DisabledSafetyCheck.platform() == export.DisabledSafetyCheck.platform()
    assert isinstance(export.SymbolicScope(), export.SymbolicScope)


def test_pytree_node_serialization():
    """Registered custom nodes and namedtuples round-trip through ``serialize`` (a
    SerializationError before); an unregistered name in a blob is refused."""
    import collections

    from fgrad import export

    Pt = collections.namedtuple("Pt", "x y")
    export.register_namedtuple_serialization(Pt, serialized_name="test14.Pt")

    class Box:
        def __init__(self, v, tag):
            self.v, self.tag = v, tag

    fgrad.tree_util.register_pytree_node(Box, lambda b: ((b.v,), b.tag), lambda tag, c: Box(c[0], tag))
    export.register_pytree_node_serialization(Box, serialized_name="test14.Box",
                                              serialize_auxdata=lambda tag: tag.encode(),
                                              deserialize_auxdata=lambda data: data.decode())
    exp = export.export(fgrad.jit(lambda p, b: Box(p.x * b.v + p.y, b.tag + "!")))(
        Pt(fnp.ones(2), 1.0), Box(fnp.full(2, 3.0), "t"))
    back = export.deserialize(exp.serialize())
    out = back.call(Pt(fnp.ones(2), 1.0), Box(fnp.full(2, 3.0), "t"))
    assert type(out) is Box and out.tag == "t!" and out.v.tolist() == [4.0, 4.0]
    with pytest.raises(ValueError, match="already registered"):
        export.register_namedtuple_serialization(Pt, serialized_name="test14.Pt2")
    with pytest.raises(ValueError, match="not a namedtuple"):
        export.register_namedtuple_serialization(Box, serialized_name="test14.Box2")
    blob = exp.serialize().replace(b"test14.Box", b"test14.Nop")
    with pytest.raises(export.SerializationError, match="no serialization is registered"):
        export.deserialize(blob)


@pytest.mark.slow
def test_export_symbolic_live():
    jax = pytest.importorskip("jax")
    from fgrad import export

    theirs = jax.export.export(jax.jit(_concat_sum(jax.numpy)))(
        jax.ShapeDtypeStruct(jax.export.symbolic_shape("b, 4"), np.float32))
    ours = export.export(fgrad.jit(_concat_sum(fnp)))(
        fgrad.ShapeDtypeStruct(export.symbolic_shape("b, 4"), np.float32))
    assert str(ours.in_avals) == str(theirs.in_avals) and str(ours.out_avals) == str(theirs.out_avals)
    x = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(ours.call(fnp.asarray(x)), theirs.call(x))
    for spec in ("a, 2*a + 1, a*b", "3*b + 2*c - 1", "b*b", "b - 1", "-b", "b,"):
        assert str(export.symbolic_shape(spec)) == str(jax.export.symbolic_shape(spec)), spec
    with pytest.raises(ValueError) as theirs_err:
        theirs.call(np.ones((3, 5), np.float32))
    with pytest.raises(ValueError) as ours_err:
        ours.call(fnp.ones((3, 5), np.float32))
    assert str(ours_err.value) == str(theirs_err.value)


# ---- smaller names ------------------------------------------------------------------------


def test_policy_answers_saveable_recompute_offloadable():
    """A custom checkpoint policy may answer ``Saveable``/``Recompute``/``Offloadable(...)``
    (JAX's values); what reverse mode keeps follows, and gradients are unchanged."""
    from fgrad.ad_checkpoint import Offloadable, Recompute, Saveable, saved_residuals

    w, x = fnp.asarray([[1.0, 2.0], [0.5, -1.0]]), fnp.asarray([0.3, 0.7])
    f = lambda w, x: fnp.sin(fnp.sin(w @ x)).sum()
    kept = {}
    for name, answer in (("save", Saveable), ("recompute", Recompute),
                         ("offload", Offloadable("device", "pinned_host"))):
        g = fgrad.checkpoint(f, policy=lambda prim, *_, a=answer, **__: a if prim.name == "dot_general"
                             else Recompute)
        kept[name] = sum("dot_general" in why for _, why in saved_residuals(g, w, x))
        np.testing.assert_allclose(fgrad.grad(g)(w, x), fgrad.grad(f)(w, x), rtol=1e-15)
    assert kept == {"save": 1, "recompute": 0, "offload": 1}
    assert repr(Saveable) == "Saveable" and Offloadable(src="a", dst="b").dst == "b"


def test_small_sharding_stages_profiler_multihost_names():
    import fgrad.profiler
    import fgrad.stages
    from fgrad.experimental import multihost_utils

    dev = fgrad.devices()[0]
    s = fgrad.sharding.make_single_device_sharding(dev)
    assert s.device_set == {dev}
    with pytest.raises(TypeError, match="expected a device"):
        fgrad.sharding.make_single_device_sharding("cpu")
    assert repr(fgrad.sharding.AbstractDevice("cpu", None, "cpu")) == (
        "AbstractDevice(device_kind=cpu, num_cores=None, platform=cpu)")  # JAX 0.10.2's
    info = fgrad.stages.ArgInfo(fgrad.ShapedArray((2, 3), np.float32), True)
    assert (info.shape, info.dtype, info.donated) == ((2, 3), np.float32, True)
    o = fgrad.profiler.ProfileOptions()
    assert (o.host_tracer_level, o.python_tracer_level, o.duration_ms, o.enable_hlo_proto) == (2, 1, 0, True)
    with pytest.raises(RuntimeError, match="no profiler server"):
        fgrad.profiler.register_subprocess(1, 2)
    mesh = fgrad.sharding.Mesh(fgrad.devices()[:1], ("x",))
    P = fgrad.sharding.PartitionSpec
    g = multihost_utils.host_local_array_to_global_array({"a": np.arange(3.0)}, mesh, P("x"))
    assert g["a"].tolist() == [0.0, 1.0, 2.0] and not isinstance(g["a"], np.ndarray)
    assert multihost_utils.global_array_to_host_local_array(g, mesh, P("x"))["a"].tolist() == [0.0, 1.0, 2.0]
    with multihost_utils.live_devices(fgrad.devices()) as alive:
        assert alive == list(fgrad.devices())


def test_visualize_sharding(capsys):
    fgrad.debug.visualize_sharding((4, 4), fgrad.sharding.SingleDeviceSharding(fgrad.devices()[0]))
    out = capsys.readouterr().out
    assert "0 │" in out and out.count("\n") == 3
    with pytest.raises(ValueError, match="rank <= 2"):
        fgrad.debug.visualize_sharding((2, 2, 2), fgrad.sharding.SingleDeviceSharding(fgrad.devices()[0]))
    with pytest.raises(TypeError, match="expected a Sharding"):
        fgrad.debug.visualize_sharding((2,), "cpu")


@pytest.mark.slow
def test_small_names_live():
    jax = pytest.importorskip("jax")
    o = jax.profiler.ProfileOptions()
    ours = fgrad.profiler.ProfileOptions()
    for k in ("advanced_configuration", "duration_ms", "enable_hlo_proto", "host_tracer_level",
              "include_dataset_ops", "python_tracer_level", "raise_error_on_start_failure",
              "repository_path", "session_id", "start_timestamp_ns"):
        assert getattr(ours, k) == getattr(o, k), k
    assert repr(fgrad.sharding.AbstractDevice("cpu", None, "cpu")) == repr(
        jax.sharding.AbstractDevice("cpu", None, "cpu"))
    import jax.ad_checkpoint

    assert bool(jax.ad_checkpoint.Offloadable("device", "pinned_host"))


# ---- jax.extend.random ------------------------------------------------------------------

# JAX 0.10.2: jax.extend.random.threefry_2x32(uint32[0, 42], count)
JAX_THREEFRY_2X32 = {
    (3,): [2465931498, 430176367, 255383827],
    (2,): [64467757, 2916123636],
    (2, 3): [[3134548294, 3733159049, 3746501087], [894150801, 801545058, 2363201431]],
    (): 2655618431,
}


def _threefry_cases(xr, asarray):
    out = {}
    for shape in JAX_THREEFRY_2X32:
        count = np.arange(int(np.prod(shape)), dtype=np.uint32).reshape(shape) if shape else np.uint32(7)
        out[shape] = np.asarray(xr.threefry_2x32(asarray(np.array([0, 42], np.uint32)), count)).tolist()
    return out


def test_extend_random_threefry_2x32():
    from fgrad.extend import random as xr

    assert _threefry_cases(xr, fnp.asarray) == JAX_THREEFRY_2X32
    key = fnp.asarray([0, 42], np.uint32)
    counts = fnp.arange(6, dtype=np.uint32).reshape(2, 3)
    assert fgrad.jit(xr.threefry_2x32)(key, counts).tolist() == JAX_THREEFRY_2X32[(2, 3)]
    keys = fnp.asarray([[0, 42], [1, 2]], np.uint32)
    batched = fgrad.vmap(xr.threefry_2x32, in_axes=(0, None))(keys, counts)
    assert batched.tolist() == [xr.threefry_2x32(k, counts).tolist() for k in keys]
    with pytest.raises(TypeError, match="requires uint32"):
        xr.threefry_2x32(key, fnp.arange(3))
    b1, b2 = xr.threefry2x32_p.bind(*[fnp.asarray(np.uint32(0))] * 4)  # Random123's known answer
    assert (hex(int(b1)), hex(int(b2))) == ("0x6b200159", "0x99ba4efe")
    assert xr.threefry2x32_p.name == "threefry2x32" and xr.threefry2x32_p.multiple_results


def test_extend_random_keys_of_an_impl():
    from fgrad.extend import random as xr

    impl = xr.threefry_prng_impl
    assert (impl.name, impl.key_shape, impl.tag) == ("threefry2x32", (2,), "fry")  # JAX's
    k = xr.seed_with_impl(impl, 3)
    assert str(k.dtype) == "key<fry>" and fgrad.random.key_data(k).tolist() == [0, 3]
    ks = xr.random_seed(fnp.asarray([[1, 2]]), impl)
    assert ks.shape == (1, 2) and fgrad.random.key_data(ks).tolist() == [[[0, 1], [0, 2]]]
    assert fgrad.random.key_data(fgrad.random.key(5, impl=impl)).tolist() == [0, 5]


@pytest.mark.slow
def test_extend_random_live():
    jax = pytest.importorskip("jax")
    import jax.extend.random as jxr

    assert _threefry_cases(jxr, jax.numpy.asarray) == JAX_THREEFRY_2X32
    impl = jxr.threefry_prng_impl
    assert (impl.name, tuple(impl.key_shape), impl.tag) == ("threefry2x32", (2,), "fry")
    np.testing.assert_array_equal(jax.random.key_data(jxr.random_seed(np.array([[1, 2]]), impl)),
                                  [[[0, 1], [0, 2]]])


# ---- jax.random.random_gamma_p ------------------------------------------------------------

GAMMA_A = np.array([0.5, 1.0, 3.0], np.float32)
# JAX 0.10.2: random_gamma_p.bind(split(key(0), 3), GAMMA_A, log_space=...) and its gradient
JAX_RANDOM_GAMMA = [0.9106433, 2.3589952, 3.189435]
JAX_RANDOM_LOG_GAMMA = [-0.09360394, 0.85823584, 1.1598438]
JAX_RANDOM_GAMMA_GRAD = [1.7991906, 1.7532437, 1.0897757]
JAX_RANDOM_GAMMA_ONE_KEY = [0.8845648, 0.7262849, 1.9683666]  # bind(key(0), GAMMA_A)


def test_random_gamma_p():
    from fgrad import random

    ks = random.split(random.key(0), 3)
    a = fnp.asarray(GAMMA_A)
    np.testing.assert_allclose(random.random_gamma_p.bind(ks, a, log_space=False), JAX_RANDOM_GAMMA,
                               rtol=1e-6)
    np.testing.assert_allclose(random.random_gamma_p.bind(ks, a, log_space=True), JAX_RANDOM_LOG_GAMMA,
                               rtol=1e-6)
    np.testing.assert_allclose(random.random_gamma_p.bind(random.key(0), a, log_space=False),
                               JAX_RANDOM_GAMMA_ONE_KEY, rtol=1e-6)
    np.testing.assert_allclose(random.random_gamma_p.bind(random.key_data(ks), a, log_space=False),
                               JAX_RANDOM_GAMMA, rtol=1e-6)  # raw key data
    g = fgrad.grad(lambda v: random.random_gamma_p.bind(ks, v, log_space=False).sum())(a)
    np.testing.assert_allclose(g, JAX_RANDOM_GAMMA_GRAD, rtol=1e-5)
    jitted = fgrad.jit(lambda k, v: random.random_gamma_p.bind(k, v, log_space=False))(ks, a)
    np.testing.assert_allclose(jitted, JAX_RANDOM_GAMMA, rtol=1e-6)
    with pytest.raises(TypeError, match="leading shape"):
        random.random_gamma_p.bind(random.split(random.key(0), 2), a, log_space=False)
    assert random.random_gamma_p.name == "random_gamma" and not random.random_gamma_p.multiple_results


@pytest.mark.slow
def test_random_gamma_p_live():
    jax = pytest.importorskip("jax")
    jr = jax.random
    ks = jr.split(jr.key(0), 3)
    np.testing.assert_allclose(jr.random_gamma_p.bind(ks, GAMMA_A, log_space=False), JAX_RANDOM_GAMMA,
                               rtol=1e-6)
    np.testing.assert_allclose(jr.random_gamma_p.bind(ks, GAMMA_A, log_space=True), JAX_RANDOM_LOG_GAMMA,
                               rtol=1e-6)
    np.testing.assert_allclose(jr.random_gamma_p.bind(jr.key(0), GAMMA_A, log_space=False),
                               JAX_RANDOM_GAMMA_ONE_KEY, rtol=1e-6)
    g = jax.grad(lambda v: jr.random_gamma_p.bind(ks, v, log_space=False).sum())(GAMMA_A)
    np.testing.assert_allclose(g, JAX_RANDOM_GAMMA_GRAD, rtol=1e-6)


# ---- lax.linalg.qdwh --------------------------------------------------------------------------

QDWH_X = np.array([[4.0, 1.0], [2.0, 3.0], [0.5, -1.0]])
# JAX 0.10.2 (float32): u, h of qdwh(QDWH_X)
JAX_QDWH_U = [[0.9498073, -0.07357492], [0.1948322, 0.89956117], [0.24475807, -0.43055373]]
JAX_QDWH_H = [[4.311272, 1.2895458], [1.2895458, 3.0556622]]


def test_qdwh_polar_decomposition():
    u, h, iters, ok = lax.linalg.qdwh(fnp.asarray(QDWH_X))
    np.testing.assert_allclose(u, JAX_QDWH_U, rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(h, JAX_QDWH_H, rtol=2e-6)
    np.testing.assert_allclose(u @ h, QDWH_X, atol=1e-13)
    np.testing.assert_allclose(u.T @ u, np.eye(2), atol=1e-14)
    assert bool(ok) and int(iters) == 0 and iters.dtype == np.int32
    check_grads(lambda a: lax.linalg.qdwh(a)[1], (fnp.asarray(QDWH_X),), order=1, modes=("fwd", "rev"))
    pair = fnp.stack([fnp.asarray(QDWH_X), 2 * fnp.asarray(QDWH_X)])
    batched = fgrad.vmap(lambda a: lax.linalg.qdwh(a)[0])(pair)
    np.testing.assert_allclose(batched[1], lax.linalg.qdwh(2 * fnp.asarray(QDWH_X))[0], atol=1e-14)
    with pytest.raises(ValueError, match="M >= N"):
        lax.linalg.qdwh(fnp.asarray(QDWH_X.T))


@pytest.mark.slow
def test_qdwh_live():
    jax = pytest.importorskip("jax")
    u, h, _, ok = jax.lax.linalg.qdwh(QDWH_X.astype(np.float32))
    np.testing.assert_allclose(u, JAX_QDWH_U, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(h, JAX_QDWH_H, rtol=1e-6)
    assert bool(ok)


# ---- pbroadcast, pswapaxes, mulhi_p / stage_p / dce_sink_p -------------------------------------

MULHI_U32 = (np.array([1, 7, 4000000000, 123456789], np.uint32),
             np.array([5, 4000000000, 4000000000, 987654321], np.uint32))
MULHI_I32 = (np.array([-5, 7, -2000000000, 123456789], np.int32),
             np.array([5, -2000000000, 2000000000, 987654321], np.int32))
JAX_MULHI = {"u32": [0, 6, 3725290298, 28389652], "i32": [-1, -4, -931322575, 28389652]}  # JAX 0.10.2


def test_pbroadcast_and_pswapaxes():
    """``pbroadcast`` is JAX's documented equivalent (the psum of ``x`` masked to the source
    example; JAX 0.10.2's own batching rule of it fails under vmap); ``pswapaxes`` is
    ``all_to_all(x, name, axis, axis)`` (JAX's numbers below)."""
    x = fnp.arange(6.0).reshape(3, 2)
    bcast = lambda a: fgrad.vmap(lambda v: lax.pbroadcast(v, "i", 1), axis_name="i")(a)
    assert bcast(x).tolist() == [[2.0, 3.0]] * 3
    masked = fgrad.vmap(lambda v: lax.psum(fnp.where(lax.axis_index("i") == 1, v, 0.0), "i"),
                        axis_name="i")(x)
    assert bcast(x).tolist() == masked.tolist()
    assert fgrad.grad(lambda a: (bcast(a) * fnp.arange(6.0).reshape(3, 2)).sum())(x).tolist() == [
        [0.0, 0.0], [6.0, 9.0], [0.0, 0.0]]
    check_grads(bcast, (x,), order=2)
    assert fgrad.jit(bcast)(x).tolist() == bcast(x).tolist()
    with pytest.raises(ValueError, match="source must be an index"):
        fgrad.vmap(lambda v: lax.pbroadcast(v, "i", 3), axis_name="i")(x)
    y = fnp.arange(9.0).reshape(3, 3)
    swapped = fgrad.vmap(lambda v: lax.pswapaxes(v, "i", 0), axis_name="i")(y)
    assert swapped.tolist() == [[0.0, 3.0, 6.0], [1.0, 4.0, 7.0], [2.0, 5.0, 8.0]]  # JAX 0.10.2's
    swap_sq = fgrad.vmap(lambda v: lax.pswapaxes(v, "i", 0) ** 2, axis_name="i")
    check_grads(swap_sq, (y,), order=1)


def test_mulhi_stage_dce_sink_views():
    assert lax.mulhi_p.bind(*map(fnp.asarray, MULHI_U32)).tolist() == JAX_MULHI["u32"]
    assert lax.mulhi_p.bind(*map(fnp.asarray, MULHI_I32)).tolist() == JAX_MULHI["i32"]
    x = fnp.arange(3.0)
    assert lax.stage_p.bind(x).tolist() == [0.0, 1.0, 2.0] and lax.dce_sink_p.bind(x) == []
    assert lax.dce_sink_p.multiple_results and not lax.stage_p.multiple_results


@pytest.mark.slow
def test_pswapaxes_mulhi_live():
    jax = pytest.importorskip("jax")
    y = np.arange(9.0).reshape(3, 3)
    theirs = jax.vmap(lambda v: jax.lax.pswapaxes(v, "i", 0), axis_name="i")(y)
    ours = fgrad.vmap(lambda v: lax.pswapaxes(v, "i", 0), axis_name="i")(fnp.asarray(y))
    np.testing.assert_array_equal(ours, theirs)
    assert np.asarray(jax.lax.mulhi_p.bind(*MULHI_U32)).tolist() == JAX_MULHI["u32"]
    assert np.asarray(jax.lax.mulhi_p.bind(*MULHI_I32)).tolist() == JAX_MULHI["i32"]


def test_numpy_scalar_parameters_round_trip():
    """Regression: an equation parameter that is a NumPy float scalar (``np.float64`` is a
    ``float`` subclass, whose repr ``np.float64(4.0)`` is no number) could not be deserialized;
    ``jnp.mean`` binds its count as one (the reciprocal division, as XLA)."""
    from fgrad import export

    x = fnp.arange(8.0, dtype=fnp.float64).reshape(2, 4)
    exp = export.export(fgrad.jit(lambda a: fnp.mean(a, axis=1)))(x)
    back = export.deserialize(exp.serialize())
    np.testing.assert_array_equal(np.asarray(back.call(x)), np.asarray(fnp.mean(x, axis=1)))
