"""`fgrad.Array`: immutability, attributes, NumPy interop, operators with broadcasting,
NumPy dtype promotion (weak Python scalars), repr, methods, indexing updates, and jaxtyping
annotations (concrete arrays and tracers inside transforms)."""

from __future__ import annotations

import operator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fgrad
import fgrad.numpy as fnp

RNG = np.random.default_rng(0)


def eq(a, b, **kw):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    if a.dtype.kind in "fc":
        np.testing.assert_allclose(a, b, **kw)
    else:
        np.testing.assert_array_equal(a, b)


# --------------------------------------------------------------------------------------
# immutability and attributes


def test_buffer_is_never_written():
    src = np.arange(6.0).reshape(2, 3)
    x = fnp.asarray(src)
    src[0, 0] = 100.0  # asarray copies host data
    assert float(x[0, 0]) == 0.0
    view = np.asarray(x)
    assert not view.flags.writeable
    with pytest.raises(ValueError):
        view[0, 0] = 5.0
    copy = np.array(x)
    copy[0, 0] = 7.0  # a copy is the user's to write
    assert float(x[0, 0]) == 0.0
    with pytest.raises(TypeError, match=r"\.at\["):
        x[0, 0] = 1.0


def test_results_of_ops_are_read_only_views():
    y = fnp.ones(3) * 2.0
    assert not np.asarray(y).flags.writeable
    assert not np.asarray(y.T).flags.writeable


def test_attributes():
    x = fnp.asarray(RNG.normal(size=(2, 3, 4)).astype(np.float32))
    assert x.shape == (2, 3, 4) and x.ndim == 3 and x.size == 24 and x.dtype == np.float32
    assert isinstance(x.dtype, np.dtype)
    assert x.T.shape == (4, 3, 2)
    eq(x.T, np.asarray(x).T)
    eq(x.mT, np.swapaxes(np.asarray(x), -1, -2))
    assert len(x) == 2
    assert [r.shape for r in x] == [(3, 4), (3, 4)]
    assert isinstance(x, fgrad.Array)
    s = fnp.asarray(2.5)
    assert s.shape == () and s.ndim == 0 and s.size == 1
    assert float(s) == 2.5 and int(fnp.asarray(3)) == 3 and bool(fnp.asarray(True))
    assert s.item() == 2.5 and fnp.asarray([1, 2]).tolist() == [1, 2]
    assert [0, 1, 2, 3][fnp.asarray(2)] == 2  # __index__
    with pytest.raises(TypeError):
        len(s)
    with pytest.raises(TypeError):
        [0, 1][fnp.asarray(1.0)]


def test_array_protocol():
    x = fnp.asarray([1.0, 2.0])
    a = np.asarray(x)
    assert isinstance(a, np.ndarray) and a.dtype == np.float64
    assert np.asarray(x, dtype=np.float32).dtype == np.float32
    assert np.array(x, copy=True).flags.writeable
    np.testing.assert_allclose(x, [1.0, 2.0])  # numpy testing accepts Arrays
    assert np.stack([x, x]).shape == (2, 2)


def test_numpy_functions_accept_arrays_like_jax():
    """NumPy functions applied to an fgrad.Array compute in NumPy (as with a jax.Array)."""
    x = fnp.asarray([1.0, 2.0, 3.0])
    assert float(np.sum(x)) == 6.0
    assert float(np.mean(x)) == 2.0
    assert float(np.max(x)) == 3.0
    np.testing.assert_allclose(np.cos(x), np.cos([1.0, 2.0, 3.0]))
    assert bool(np.all(np.isfinite(x)))


def test_hash_and_truthiness():
    with pytest.raises(TypeError):
        hash(fnp.ones(2))
    with pytest.raises(ValueError):
        bool(fnp.ones(2))


# --------------------------------------------------------------------------------------
# operators


BINOPS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
          operator.pow, operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]


@pytest.mark.parametrize("op", BINOPS, ids=lambda o: o.__name__)
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3),
       seed=st.integers(0, 99))
def test_binary_operators_broadcast_like_numpy(op, shapes, seed):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.5, 2.0, shapes.input_shapes[0])
    b = rng.uniform(0.5, 2.0, shapes.input_shapes[1])
    with np.errstate(all="ignore"):
        ref = op(a, b)
    eq(op(fnp.asarray(a), fnp.asarray(b)), ref, rtol=1e-12)
    eq(op(fnp.asarray(a), b), ref, rtol=1e-12)  # numpy array on the right
    eq(op(a, fnp.asarray(b)), ref, rtol=1e-12)  # numpy array on the left defers to fgrad
    assert isinstance(op(a, fnp.asarray(b)), fgrad.Array)
    eq(op(fnp.asarray(a), 1.5), op(a, 1.5), rtol=1e-12)  # Python scalars both sides
    eq(op(1.5, fnp.asarray(b)), op(1.5, b), rtol=1e-12)


def test_unary_and_bitwise_operators():
    x = fnp.asarray([-1.5, 0.0, 2.0])
    eq(-x, -np.asarray(x))
    eq(+x, np.asarray(x))
    eq(abs(x), np.abs(np.asarray(x)))
    i, j = np.array([1, 6, 3]), np.array([3, 5, 2])
    fi, fj = fnp.asarray(i), fnp.asarray(j)
    eq(fi & fj, i & j)
    eq(fi | fj, i | j)
    eq(fi ^ fj, i ^ j)
    eq(~fi, ~i)
    b = fnp.asarray([True, False])
    eq(~b, np.array([False, True]))
    q, r = divmod(fnp.asarray([7.0, -7.0]), 3.0)
    eq(q, np.array([2.0, -3.0]))
    eq(r, np.array([1.0, 2.0]))


def test_matmul_operator():
    a, b = RNG.normal(size=(2, 3, 4)), RNG.normal(size=(4, 5))
    eq(fnp.asarray(a) @ fnp.asarray(b), a @ b, rtol=1e-12)
    eq(a @ fnp.asarray(b), a @ b, rtol=1e-12)
    v = RNG.normal(size=4)
    eq(fnp.asarray(b.T) @ fnp.asarray(v), b.T @ v, rtol=1e-12)


def test_inplace_operators_make_new_arrays():
    x = fnp.ones(2)
    orig = x
    x += 1
    x *= 3.0
    eq(x, np.array([6.0, 6.0]))
    eq(orig, np.ones(2))


# --------------------------------------------------------------------------------------
# dtype promotion (NumPy's rules where they agree with JAX's lattice, JAX's where not; Python
# scalars are weak)

DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.float32, np.float64]


def _jax_true_divide(joint) -> np.dtype:
    """JAX's true division of bool/integer operands whose join is ``joint``
    (``dtypes.to_inexact_dtype``, x64 on): float32 up to 32 bits, float64 for 64-bit integers
    (NumPy: float16/float64 by range).  tests/test_jax_dtype_sweep.py checks it against JAX."""
    return np.dtype(np.float64 if np.dtype(joint).itemsize == 8 else np.float32)


@pytest.mark.parametrize("op", [operator.add, operator.mul, operator.sub, operator.truediv, operator.lt],
                         ids=lambda o: o.__name__)
@given(da=st.sampled_from(DTYPES), db=st.sampled_from(DTYPES))
def test_array_array_promotion_matches_numpy(op, da, db):
    if op is operator.sub and da is np.bool_ and db is np.bool_:
        return  # NumPy refuses boolean subtraction
    a, b = np.ones(2, da), np.ones(2, db)
    with np.errstate(all="ignore"):
        ref = op(a, b)
    out = op(fnp.asarray(a), fnp.asarray(b))
    what = f"{np.dtype(da)} {op.__name__} {np.dtype(db)}"
    want = ref.dtype
    kinds = {np.dtype(da).kind, np.dtype(db).kind}
    if kinds & {"i", "u"} and "f" in kinds and want.kind == "f":
        # JAX's lattice: an integer meeting a float takes the float's type (NumPy widens
        # int32 + float32 to float64); tests/test_jax_programs_round8.py checks it against JAX
        want = np.dtype(da if np.dtype(da).kind == "f" else db)
    if op is operator.truediv and kinds <= {"b", "i", "u"}:
        want = _jax_true_divide(np.promote_types(da, db))
    assert out.dtype == want, f"{what}: {out.dtype} vs {want} (NumPy {ref.dtype})"


@pytest.mark.parametrize("scalar", [2, 2.0, True, 2.5], ids=["int", "float", "bool", "float2"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", [operator.add, operator.mul, operator.truediv, operator.pow],
                         ids=lambda o: o.__name__)
def test_weak_python_scalar_promotion_matches_numpy(op, dtype, scalar):
    if op is operator.pow and dtype is np.bool_:
        pytest.skip("NumPy's `bool_array ** k` fast path squares to int8: a NumPy quirk, not a rule")
    a = np.ones(2, dtype)
    try:
        with np.errstate(all="ignore"):
            ref = op(a, scalar)
            ref_r = op(scalar, a)
    except (TypeError, ValueError, OverflowError):
        pytest.skip("NumPy rejects this combination")
    x = fnp.asarray(a)
    want, want_r = ref.dtype, ref_r.dtype
    if op is operator.truediv and a.dtype.kind in "biu" and type(scalar) in (int, bool):
        # JAX: a weak int lifts a bool array to the default int first; then the width rule
        joint = np.int64 if a.dtype.kind == "b" and type(scalar) is int else a.dtype
        want = want_r = _jax_true_divide(joint)
    assert op(x, scalar).dtype == want, f"{np.dtype(dtype)} {op.__name__} {scalar!r}"
    assert op(scalar, x).dtype == want_r, f"{scalar!r} {op.__name__} {np.dtype(dtype)}"


def test_weak_scalar_examples():
    x32 = fnp.ones(3, dtype=np.float32)
    assert (x32 * 2.0).dtype == np.float32
    assert (2.0 * x32 + 1).dtype == np.float32
    assert (x32 ** 2).dtype == np.float32
    assert (x32 / 3).dtype == np.float32
    assert fnp.sin(x32 * 3.14).dtype == np.float32
    assert (x32 * np.float64(2.0)).dtype == np.float64  # NumPy scalars are not weak (NEP 50)
    assert (x32 + fnp.ones(3)).dtype == np.float64
    i32 = fnp.ones(3, dtype=np.int32)
    assert (i32 + 1).dtype == np.int32
    assert (i32 * 2.5).dtype == np.float64
    assert (i32 / 2).dtype == np.float32  # JAX's to_inexact_dtype (NumPy: float64)
    assert (fnp.asarray([True]) + 1).dtype == np.int64


def test_float64_stays_float64():
    x = fnp.asarray([1.0, 2.0])
    assert x.dtype == np.float64
    for y in (x * 2, fnp.exp(x), x.sum(), x.mean(), x @ x, fnp.sqrt(x), x / 3):
        assert y.dtype == np.float64


# --------------------------------------------------------------------------------------
# repr


def test_repr():
    with fgrad.default_device("cpu"):  # a device array's repr also names its device (below)
        _check_host_reprs()
    dev = fgrad.backends.default_device()
    if dev.platform != "cpu":
        assert repr(fnp.asarray([1.0, 2.5])) == f"Array([1. , 2.5], dtype=float64, device={dev})"


def _check_host_reprs():
    assert repr(fnp.asarray([1.0, 2.5])) == "Array([1. , 2.5], dtype=float64)"
    assert repr(fnp.asarray(3)) == "Array(3, dtype=int64, weak_type=True)"  # as JAX (weak)
    assert repr(fnp.asarray(np.int64(3))) == "Array(3, dtype=int64)"
    assert repr(fnp.asarray([True, False])) == "Array([ True, False], dtype=bool)"
    r = repr(fnp.ones((2, 2), dtype=np.float32))
    assert r.startswith("Array([[1., 1.],") and r.endswith("dtype=float32)")
    assert "\n       [1., 1.]]" in r  # continuation lines aligned under the first row
    assert str(fnp.asarray([1.0, 2.0])) == str(np.array([1.0, 2.0]))
    assert f"{fnp.asarray(2.5):.2f}" == "2.50"


def test_tracer_repr_names_shape_and_transform():
    seen = []
    fgrad.vmap(lambda x: seen.append(repr(x)) or x)(fnp.ones((3, 2), dtype=np.float32))
    assert "float32[2]" in seen[0]


# --------------------------------------------------------------------------------------
# methods

X = RNG.normal(size=(3, 4))
METHODS = {
    "sum": (lambda a: a.sum(), lambda a: a.sum()),
    "sum_axis": (lambda a: a.sum(axis=1), lambda a: a.sum(axis=1)),
    "sum_keepdims": (lambda a: a.sum(0, keepdims=True), lambda a: a.sum(0, keepdims=True)),
    "mean": (lambda a: a.mean(axis=0), lambda a: a.mean(axis=0)),
    "prod": (lambda a: a.prod(axis=-1), lambda a: a.prod(axis=-1)),
    "max": (lambda a: a.max(), lambda a: a.max()),
    "min_axis": (lambda a: a.min(axis=1), lambda a: a.min(axis=1)),
    "argmax": (lambda a: a.argmax(), lambda a: a.argmax()),
    "argmin_axis": (lambda a: a.argmin(axis=0), lambda a: a.argmin(axis=0)),
    "var": (lambda a: a.var(axis=1), lambda a: a.var(axis=1)),
    "std_ddof": (lambda a: a.std(ddof=1), lambda a: a.std(ddof=1)),
    "all": (lambda a: (a > -5).all(), lambda a: (a > -5).all()),
    "any_axis": (lambda a: (a > 1).any(axis=0), lambda a: (a > 1).any(axis=0)),
    "cumsum": (lambda a: a.cumsum(axis=1), lambda a: a.cumsum(axis=1)),
    "cumprod": (lambda a: a.cumprod(), lambda a: a.cumprod()),
    "clip": (lambda a: a.clip(-0.5, 0.5), lambda a: a.clip(-0.5, 0.5)),
    "round": (lambda a: a.round(1), lambda a: a.round(1)),
    "dot": (lambda a: a.dot(a.T), lambda a: a.dot(a.T)),
    "sort": (lambda a: a.sort(), lambda a: np.sort(a)),
    "argsort": (lambda a: a.argsort(axis=0), lambda a: a.argsort(axis=0)),
    "squeeze": (lambda a: a.reshape(1, 3, 1, 4).squeeze(), lambda a: a.reshape(1, 3, 1, 4).squeeze()),
    "ravel": (lambda a: a.ravel(), lambda a: a.ravel()),
    "flatten": (lambda a: a.flatten(), lambda a: a.flatten()),
    "swapaxes": (lambda a: a.swapaxes(0, 1), lambda a: a.swapaxes(0, 1)),
    "diagonal": (lambda a: a.diagonal(), lambda a: a.diagonal()),
    "trace": (lambda a: a.trace(), lambda a: a.trace()),
    "take": (lambda a: a.take(np.array([0, 2])), lambda a: a.take(np.array([0, 2]))),
    "take_axis": (lambda a: a.take(np.array([3, 0]), axis=1), lambda a: a.take(np.array([3, 0]), axis=1)),
    "repeat": (lambda a: a.repeat(2, axis=0), lambda a: a.repeat(2, axis=0)),
    "astype": (lambda a: a.astype(np.float32), lambda a: a.astype(np.float32)),
    "astype_int": (lambda a: a.astype(np.int32), lambda a: a.astype(np.int32)),
    "reshape_tuple": (lambda a: a.reshape((4, 3)), lambda a: a.reshape((4, 3))),
    "reshape_args": (lambda a: a.reshape(2, -1), lambda a: a.reshape(2, -1)),
    "transpose": (lambda a: a.transpose(), lambda a: a.transpose()),
    "transpose_args": (lambda a: a.reshape(3, 2, 2).transpose(2, 0, 1),
                       lambda a: a.reshape(3, 2, 2).transpose(2, 0, 1)),
    "transpose_tuple": (lambda a: a.reshape(3, 2, 2).transpose((1, 2, 0)),
                        lambda a: a.reshape(3, 2, 2).transpose((1, 2, 0))),
    "real": (lambda a: a.real, lambda a: a.real),
    "imag": (lambda a: a.imag, lambda a: a.imag),
    "conj": (lambda a: a.conj(), lambda a: a.conj()),
    "getitem_basic": (lambda a: a[1:, ::2], lambda a: a[1:, ::2]),
    "getitem_int": (lambda a: a[-1, 2], lambda a: a[-1, 2]),
    "getitem_newaxis": (lambda a: a[None, :, None, 0], lambda a: a[None, :, None, 0]),
    "getitem_ellipsis": (lambda a: a[..., 1], lambda a: a[..., 1]),
    "getitem_advanced": (lambda a: a[np.array([2, 0, 2]), 1:3], lambda a: a[np.array([2, 0, 2]), 1:3]),
    "getitem_bool": (lambda a: a[np.asarray(a) > 0], lambda a: a[a > 0]),
}


@pytest.mark.parametrize("name", list(METHODS))
def test_methods_match_numpy(name):
    f, ref = METHODS[name]
    eq(f(fnp.asarray(X)), ref(X.copy()), rtol=1e-12, atol=1e-14)


AT_UPDATES = {
    "set": (lambda a: a.at[1].set(9.0), lambda a: _set(a, 1, 9.0)),
    "set_slice": (lambda a: a.at[:, 1:3].set(0.0), lambda a: _set(a, (slice(None), slice(1, 3)), 0.0)),
    "add_repeated": (lambda a: a.at[np.array([0, 0, 2])].add(1.0),
                     lambda a: _ufunc_at(np.add, a, [0, 0, 2], 1.0)),
    "multiply": (lambda a: a.at[0, 0].multiply(3.0), lambda a: _ufunc_at(np.multiply, a, (0, 0), 3.0)),
    "min": (lambda a: a.at[2].min(0.0), lambda a: _ufunc_at(np.minimum, a, 2, 0.0)),
    "max": (lambda a: a.at[2].max(0.0), lambda a: _ufunc_at(np.maximum, a, 2, 0.0)),
    "get": (lambda a: a.at[1, ::2].get(), lambda a: a[1, ::2]),
    "subtract": (lambda a: a.at[-1].subtract(1.0), lambda a: _ufunc_at(np.subtract, a, -1, 1.0)),
    "divide": (lambda a: a.at[0].divide(2.0), lambda a: _ufunc_at(np.divide, a, 0, 2.0)),
    "power": (lambda a: a.at[1].power(2), lambda a: _ufunc_at(np.power, a, 1, 2)),
}


def _set(a, idx, v):
    a = a.copy()
    a[idx] = v
    return a


def _ufunc_at(uf, a, idx, v):
    a = a.copy()
    uf.at(a, idx if not isinstance(idx, list) else np.array(idx), v)
    return a


@pytest.mark.parametrize("name", list(AT_UPDATES))
def test_at_updates_are_functional(name):
    f, ref = AT_UPDATES[name]
    x = fnp.asarray(X)
    eq(f(x), ref(X.copy()), rtol=1e-12)
    eq(x, X)  # the original is unchanged


def test_at_update_differentiable():
    g = fgrad.grad(lambda a: fnp.sum(a.at[0].set(0.0) ** 2))(fnp.asarray(X))
    ref = 2 * X.copy()
    ref[0] = 0.0
    eq(g, ref, rtol=1e-12)
    g = fgrad.grad(lambda v: fnp.sum(fnp.zeros(4).at[np.array([1, 1, 3])].add(v) ** 2))(2.0)
    eq(g, np.asarray(2 * (2 * 2.0 * 2) + 2 * 2.0), rtol=1e-12)  # d/dv [(2v)^2 + v^2] = 10 v


# --------------------------------------------------------------------------------------
# jaxtyping

jaxtyping = pytest.importorskip("jaxtyping")
Float, Int, Shaped, jaxtyped = jaxtyping.Float, jaxtyping.Int, jaxtyping.Shaped, jaxtyping.jaxtyped


def _typechecker():
    try:
        from beartype import beartype

        return beartype
    except ImportError:  # pragma: no cover - depends on the environment
        try:
            from typeguard import typechecked

            return typechecked
        except ImportError:
            pytest.skip("no runtime type checker (beartype or typeguard) installed")


def _annotated():
    @jaxtyped(typechecker=_typechecker())
    def affine(x: Float[fgrad.Array, "n d"], w: Float[fgrad.Array, "d k"],  # noqa: F722
               b: Float[fgrad.Array, " k"]) -> Float[fgrad.Array, "n k"]:  # noqa: F722
        return x @ w + b

    return affine


def test_jaxtyping_isinstance():
    x = fnp.ones((2, 3))
    assert isinstance(x, Float[fgrad.Array, "2 3"])
    assert isinstance(x, Float[fgrad.Array, "n d"])
    assert isinstance(x, Shaped[fgrad.Array, "..."])
    assert not isinstance(x, Float[fgrad.Array, "3"])
    assert not isinstance(x, Int[fgrad.Array, "2 3"])
    assert isinstance(fnp.arange(3), Int[fgrad.Array, "3"])
    assert isinstance(fnp.ones(3, dtype=np.float32), Float[fgrad.Array, "3"])


def test_jaxtyping_runtime_checking():
    affine = _annotated()
    out = affine(fnp.ones((2, 3)), fnp.ones((3, 4)), fnp.ones(4))
    assert out.shape == (2, 4)
    with pytest.raises(Exception, match="(?i)type|shape|dim"):
        affine(fnp.ones((2, 3)), fnp.ones((5, 4)), fnp.ones(4))  # d mismatch
    with pytest.raises(Exception, match="(?i)type|shape|dim"):
        affine(fnp.ones((2, 3)), fnp.ones((3, 4)), fnp.ones(3))  # k mismatch
    with pytest.raises(Exception, match="(?i)type|dtype|float"):
        affine(fnp.ones((2, 3), dtype=np.int32), fnp.ones((3, 4)), fnp.ones(4))
    with pytest.raises(Exception):  # noqa: B017
        affine(np.ones((2, 3)), fnp.ones((3, 4)), fnp.ones(4))  # a numpy array is not an fgrad.Array


def test_jaxtyping_tracers_satisfy_annotations():
    affine = _annotated()
    x, w, b = fnp.ones((2, 3)), fnp.ones((3, 4)), fnp.ones(4)
    loss = lambda x, w, b: fnp.sum(affine(x, w, b) ** 2)
    gx, gw, gb = fgrad.grad(loss, argnums=(0, 1, 2))(x, w, b)
    assert gx.shape == (2, 3) and gw.shape == (3, 4) and gb.shape == (4,)
    _, t = fgrad.jvp(affine, (x, w, b), (x, w, b))
    assert t.shape == (2, 4)
    out = fgrad.vmap(affine, in_axes=(0, None, None))(fnp.ones((5, 2, 3)), w, b)  # per-example "n d"
    assert out.shape == (5, 2, 4)
    h = fgrad.hessian(lambda b: loss(x, w, b))(b)
    assert h.shape == (4, 4)
    with pytest.raises(Exception, match="(?i)type|shape|dim"):
        fgrad.vmap(affine, in_axes=(0, None, None))(fnp.ones((5, 2, 7)), w, b)


def test_equality_with_non_arrays_follows_jax():
    """JAX's ``==``/``!=`` compare elementwise only with arrays and scalars: ``x == None`` is
    False and ``x != "a"`` True (Python's fallback), and a list or tuple operand raises
    TypeError.  fgrad's ``x == None`` was an array of False (so ``if x == None:`` raised the
    ambiguous-truth error) and ``x != fnp.float16`` raised an internal TypeError."""
    x = fnp.ones(2)
    assert (x == None) is False and (x != None) is True  # noqa: E711
    assert (x == "a") is False and (x != fnp.float16) is True and (None == x) is False  # noqa: E711
    for bad in ([1.0, 1.0], (1.0, 1.0), {1.0}):
        with pytest.raises(TypeError, match="unsupported operand type"):
            x == bad  # noqa: B015
    assert (x == np.ones(2)).tolist() == [True, True] and (x != np.float32(1)).tolist() == [False, False]
    assert (x == fnp.arange(2.0)).tolist() == [False, True]
    assert fgrad.jit(lambda a, b: a == b)(x, x).tolist() == [True, True]


# JAX 0.10.2 (x64 off): Array.view and Array.byteswap (their docstring examples and the bool
# and complex paths); the methods were missing (AttributeError)
_BIT_VIEW_CASES = [  # (expression, JAX's values as a list, JAX's dtype)
    ("jnp.zeros([1, 2, 3], dtype=jnp.int16).view(jnp.int8).shape", (1, 2, 6), None),
    ("jnp.zeros([1, 2, 4], dtype=jnp.int8).view(jnp.int16).shape", (1, 2, 2), None),
    ("jnp.array([1, 0, 1], dtype=jnp.int8).view(jnp.bool_)", [True, False, True], "bool"),
    ("jnp.array([True, False]).view(jnp.int8)", [1, 0], "int8"),
    ("jnp.asarray(1.0, jnp.float32).view(jnp.int32)", 1065353216, "int32"),
    ("jnp.array([1 + 2j, 3 - 4j], jnp.complex64).view(jnp.float32)", [1.0, 2.0, 3.0, -4.0], "float32"),
    ("jnp.array([1.0, 2.0, 3.0, 4.0], jnp.float32).view(jnp.complex64)", [1 + 2j, 3 + 4j], "complex64"),
    ("jnp.arange(5, dtype='int32').byteswap()", [0, 16777216, 33554432, 50331648, 67108864], "int32"),
    ("jnp.arange(5, dtype='int32').byteswap().byteswap()", [0, 1, 2, 3, 4], "int32"),
    ("jax.jit(lambda a: a.view(jnp.uint8))(jnp.arange(2, dtype=jnp.int16))", [0, 0, 1, 0], "uint8"),
    ("jax.vmap(lambda a: a.byteswap())(jnp.arange(4, dtype=jnp.int16).reshape(2, 2))",
     [[0, 256], [512, 768]], "int16"),
]


@pytest.mark.parametrize("expr, values, dtype", _BIT_VIEW_CASES)
def test_array_view_and_byteswap_as_jaxs(expr, values, dtype):
    def run(m):
        out = eval(expr, {"jax": m, "jnp": m.numpy})  # noqa: S307
        return (out, None) if isinstance(out, tuple) else (np.asarray(out).tolist(), str(out.dtype))

    with fgrad.enable_x64(False):
        assert run(fgrad) == (values, dtype)
    jax = pytest.importorskip("jax")
    with jax.enable_x64(False):
        assert run(jax) == (values, dtype)
    with pytest.raises(ValueError, match="0d array"):
        fnp.asarray(1.0, np.float32).view(np.int8)
    with pytest.raises(ValueError, match="divisor"):
        fnp.zeros(3, np.int8).view(np.int16)
