"""JAX API round 7 (issue 12): ``jnp.ufunc`` objects and methods.  Checked against NumPy's own
ufunc methods (always installed), against JAX live (importorskip) and stored JAX 0.10.2
numbers; derivatives by finite differences (`fgrad.test_util.check_grads`), vmap against a
loop and jit against eager."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.test_util import check_grads

UFUNCS = ["add", "bitwise_and", "bitwise_or", "bitwise_xor", "logaddexp", "logaddexp2",
          "logical_and", "logical_or", "logical_xor", "maximum", "minimum", "multiply",
          "negative", "subtract"]
# JAX 0.10.2: [(u.nin, u.nout, u.identity) for each predefined ufunc]
STORED_ATTRS = {
    "add": (2, 1, 0), "bitwise_and": (2, 1, -1), "bitwise_or": (2, 1, 0), "bitwise_xor": (2, 1, 0),
    "logaddexp": (2, 1, -np.inf), "logaddexp2": (2, 1, -np.inf), "logical_and": (2, 1, True),
    "logical_or": (2, 1, False), "logical_xor": (2, 1, False), "maximum": (2, 1, None),
    "minimum": (2, 1, None), "multiply": (2, 1, 1), "negative": (1, 1, None),
    "subtract": (2, 1, None),
}
BINARY = [n for n in UFUNCS if n != "negative"]
INTEGER_ONLY = {"bitwise_and", "bitwise_or", "bitwise_xor"}


def _jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


def _operand(name: str, shape=(3, 4)) -> np.ndarray:
    rng = np.random.default_rng(0)
    if name in INTEGER_ONLY:
        return rng.integers(0, 16, size=shape)
    if name.startswith("logical"):
        return rng.integers(0, 2, size=shape).astype(bool)
    return rng.uniform(0.5, 1.5, size=shape)


def test_ufunc_attributes_and_instances():
    for name in UFUNCS:
        f = getattr(fnp, name)
        assert isinstance(f, fnp.ufunc), name
        assert (f.nin, f.nout, f.identity) == STORED_ATTRS[name], name
        assert f.__name__ == name and f.nargs == f.nin
    assert not isinstance(fnp.sin, fnp.ufunc) and not isinstance(len, fnp.ufunc)
    assert not isinstance(lambda a: a, fnp.ufunc)


def test_ufunc_attributes_match_live_jax():
    jax = _jax()
    for name in UFUNCS:
        j, f = getattr(jax.numpy, name), getattr(fnp, name)
        assert (f.nin, f.nout, f.identity, f.__name__) == (j.nin, j.nout, j.identity, j.__name__)
    assert {n for n in dir(jax.numpy) if isinstance(getattr(jax.numpy, n), jax.numpy.ufunc)} == set(UFUNCS)


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_reduce_and_accumulate_match_numpy(name, axis):
    x = _operand(name)
    f, ref = getattr(fnp, name), getattr(np, name)
    # axis=None: JAX folds the flattened array (NumPy refuses it for non-reorderable ufuncs)
    want = ref.reduce(x, axis=axis) if axis is not None else ref.reduce(x.ravel())
    np.testing.assert_allclose(np.asarray(f.reduce(fnp.asarray(x), axis=axis)), want, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(f.reduce(fnp.asarray(x), axis=axis, keepdims=True)),
                               np.reshape(want, (1, 1)) if axis is None else np.expand_dims(want, axis),
                               rtol=1e-13)
    if axis is not None:  # NumPy's accumulate needs an axis; JAX's flattens for None
        np.testing.assert_allclose(np.asarray(f.accumulate(fnp.asarray(x), axis=axis)),
                                   ref.accumulate(x, axis=axis), rtol=1e-13)
    elif name in ("add", "multiply"):
        np.testing.assert_allclose(np.asarray(f.accumulate(fnp.asarray(x), axis=None)),
                                   ref.accumulate(x.ravel()), rtol=1e-13)
    else:  # JAX 0.10.2: only add/multiply (cumsum/cumprod) flatten for axis=None
        with pytest.raises(ValueError, match="accumulate does not allow multiple axes"):
            f.accumulate(fnp.asarray(x), axis=None)


@pytest.mark.parametrize("name", BINARY)
def test_outer_reduceat_at_match_numpy(name):
    x = _operand(name, (8,))
    y = _operand(name, (2, 3))
    f, ref = getattr(fnp, name), getattr(np, name)
    np.testing.assert_allclose(np.asarray(f.outer(fnp.asarray(x), fnp.asarray(y))),
                               ref.outer(x, y), rtol=1e-13)
    idx = np.array([0, 4, 1, 5, 7])
    np.testing.assert_allclose(np.asarray(f.reduceat(fnp.asarray(x), fnp.asarray(idx))),
                               ref.reduceat(x, idx), rtol=1e-13)
    m = _operand(name, (3, 8))
    np.testing.assert_allclose(np.asarray(f.reduceat(fnp.asarray(m), fnp.asarray(idx), axis=1)),
                               ref.reduceat(m, idx, axis=1), rtol=1e-13)
    at_idx = np.array([0, 0, 2, 5, 2])
    vals = x[:5]
    want = x.copy()
    ref.at(want, at_idx, vals)
    np.testing.assert_allclose(
        np.asarray(f.at(fnp.asarray(x), fnp.asarray(at_idx), fnp.asarray(vals), inplace=False)),
        want, rtol=1e-13)


def test_where_initial_dtype_and_negative_at_match_numpy():
    x = np.arange(12.0).reshape(3, 4) - 5
    mask = x > -2
    for name, kw in [("add", {}), ("maximum", {"initial": -10.0}), ("subtract", {"initial": 1.0}),
                     ("logaddexp", {}), ("multiply", {"initial": 2.0})]:
        np.testing.assert_allclose(
            np.asarray(getattr(fnp, name).reduce(fnp.asarray(x), axis=1, where=fnp.asarray(mask), **kw)),
            getattr(np, name).reduce(x, axis=1, where=mask, **kw), rtol=1e-13, err_msg=name)
    np.testing.assert_allclose(np.asarray(fnp.subtract.reduce(fnp.asarray(x), axis=0, initial=3.0)),
                               np.subtract.reduce(x, axis=0, initial=3.0))
    assert fnp.add.reduce(fnp.arange(4), dtype="float32").dtype == np.float32
    assert fnp.subtract.reduce(fnp.arange(4), dtype="float32").dtype == np.float32
    want = x.copy()
    np.negative.at(want, [0, 0, 2])
    np.testing.assert_array_equal(
        np.asarray(fnp.negative.at(fnp.asarray(x), fnp.asarray([0, 0, 2]), inplace=False)), want)
    # identity fills empty reductions
    np.testing.assert_array_equal(np.asarray(fnp.logaddexp.reduce(fnp.zeros((0, 2)))), [-np.inf] * 2)
    np.testing.assert_array_equal(np.asarray(fnp.bitwise_and.reduce(fnp.zeros((0,), int))), -1)


def test_errors_match_jax():
    x = fnp.arange(6.0).reshape(2, 3)
    with pytest.raises(NotImplementedError, match="inplace=False"):
        fnp.add.at(x, (0, 1), 5.0)
    with pytest.raises(ValueError, match="zero-size array to reduction operation subtract which has no"):
        fnp.subtract.reduce(fnp.zeros((0, 3)))
    with pytest.raises(ValueError, match="'maximum' does not have an identity"):
        fnp.maximum.reduce(x, where=x > 1)
    with pytest.raises(ValueError, match="outer only supported for binary ufuncs"):
        fnp.negative.outer(x, x)
    with pytest.raises(ValueError, match="reduce only supported for binary ufuncs"):
        fnp.negative.reduce(x)
    with pytest.raises(ValueError, match="accumulate only supported for binary ufuncs"):
        fnp.negative.accumulate(x)
    with pytest.raises(ValueError, match="single value"):
        fnp.ufunc(lambda a, b: (a, b), 2, 2).reduce(x)
    with pytest.raises(NotImplementedError, match="tuple of axes"):
        fnp.subtract.reduce(x, axis=(0, 1))
    with pytest.raises(ValueError, match="out of bounds"):
        fnp.subtract.reduce(fnp.arange(4.0), axis=2)
    with pytest.raises(ValueError, match="'out' argument"):
        fnp.add.reduce(x, out=x)
    with pytest.raises(IndexError, match="out of bounds"):
        fnp.add.reduceat(fnp.arange(4.0), fnp.asarray([0, 7]))
    with pytest.raises(TypeError, match="takes 2 positional"):
        fnp.frompyfunc(lambda a, b: a + b, 2, 1)(x)


def _custom():
    return fnp.frompyfunc(lambda a, b: a * b + 1, 2, 1)


def test_frompyfunc_and_class_store_jax_numbers():
    # JAX 0.10.2 (x64) results of the same calls
    u = _custom()
    x = fnp.arange(6.0).reshape(2, 3)
    assert repr(u) == "<fgrad.numpy.ufunc '<lambda>'>" and (u.nin, u.nout, u.identity) == (2, 1, None)
    assert float(u.reduce(fnp.arange(1.0, 5.0))) == 41.0
    np.testing.assert_array_equal(np.asarray(u.accumulate(fnp.arange(1.0, 5.0))), [1, 3, 10, 41])
    np.testing.assert_array_equal(np.asarray(u.outer(fnp.arange(3.0), fnp.arange(2.0))),
                                  [[1, 1], [1, 2], [1, 3]])
    np.testing.assert_array_equal(
        np.asarray(u.at(fnp.arange(5.0), fnp.asarray([0, 0, 2]), 2.0, inplace=False)), [3, 1, 5, 3, 4])
    np.testing.assert_array_equal(np.asarray(u.reduceat(fnp.arange(8.0), fnp.asarray([0, 4, 1, 5]))),
                                  [10, 4, 41, 218])
    np.testing.assert_array_equal(np.asarray(u(fnp.arange(3.0), 2.0)), [1, 3, 5])
    assert float(u.reduce(x, axis=None)) == 206.0
    np.testing.assert_array_equal(np.asarray(u.reduce(x, axis=1, keepdims=True)), [[3], [66]])
    named = fnp.ufunc(lambda a, b: a * b + 1, 2, 1, name="foo")
    assert named.__name__ == "foo" and isinstance(named, fnp.ufunc)
    # the scalar function is vectorized (a Python `if` on a scalar works under the vmap)
    big = fnp.frompyfunc(lambda a, b: fnp.where(a > b, a, b), 2, 1)
    assert float(big.reduce(fnp.asarray([1.0, 7.0, 3.0]))) == 7.0


def test_frompyfunc_matches_live_jax():
    jax = _jax()
    f = lambda a, b: a * b + 1  # noqa: E731
    u, j = fnp.frompyfunc(f, 2, 1), jax.numpy.frompyfunc(f, 2, 1)
    x = np.random.default_rng(1).uniform(-1, 1, (3, 5))
    idx = np.array([0, 3, 1, 4])
    for method, args, kw in [("reduce", (x,), {"axis": 1}), ("reduce", (x,), {"axis": None}),
                             ("accumulate", (x,), {"axis": 0}), ("outer", (x[0], x[1]), {}),
                             ("reduceat", (x, idx), {"axis": 1}),
                             ("at", (x[0], idx, 0.5), {"inplace": False})]:
        got = getattr(u, method)(*args, **kw)
        want = getattr(j, method)(*args, **kw)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-13, err_msg=method)


def test_predefined_match_live_jax():
    jax = _jax()
    jnp = jax.numpy
    x = np.random.default_rng(2).uniform(-1, 1, (4, 5))
    idx = np.array([0, 2, 2, 4])
    for name in ["add", "multiply", "maximum", "minimum", "subtract", "logaddexp", "logaddexp2"]:
        f, j = getattr(fnp, name), getattr(jnp, name)
        for method, args, kw in [("reduce", (x,), {"axis": 1}), ("reduce", (x,), {"axis": None}),
                                 ("accumulate", (x,), {"axis": 1}),
                                 ("outer", (x[0], x[1]), {}), ("reduceat", (x, idx), {"axis": 1}),
                                 ("at", (x, (idx, 1), 0.25), {"inplace": False})]:
            np.testing.assert_allclose(np.asarray(getattr(f, method)(*args, **kw)),
                                       np.asarray(getattr(j, method)(*args, **kw)), rtol=1e-13,
                                       err_msg=f"{name}.{method}")
        if name in ("add", "multiply"):
            np.testing.assert_allclose(np.asarray(f.accumulate(x, axis=None)),
                                       np.asarray(j.accumulate(x, axis=None)), rtol=1e-13)
        else:
            for mod in (fnp, jnp):
                with pytest.raises(ValueError, match="multiple axes"):
                    getattr(mod, name).accumulate(x, axis=None)


def test_methods_differentiable_finite_differences():
    rng = np.random.default_rng(3)
    x = fnp.asarray(rng.uniform(0.5, 1.5, (3, 4)))
    b = fnp.asarray(rng.uniform(0.5, 1.5, (4,)))
    idx = fnp.asarray([0, 0, 2, 3])
    u = _custom()
    cases = [
        lambda x: fnp.subtract.reduce(x, axis=1),
        lambda x: fnp.logaddexp.accumulate(x, axis=0),
        lambda x: fnp.maximum.accumulate(x, axis=1),
        lambda x: u.reduce(x, axis=0),
        lambda x: u.accumulate(x, axis=1),
        lambda x: u.reduceat(x, fnp.asarray([0, 2, 1]), axis=1),
        lambda x: fnp.multiply.reduceat(x, fnp.asarray([0, 2]), axis=1),
        lambda x: fnp.subtract.outer(x[0], x[1]),
    ]
    for f in cases:
        check_grads(f, (x,), order=2, modes=("fwd", "rev"))
    # .at is differentiable in the array and in the values, like x.at[i].add
    check_grads(lambda x, b: fnp.add.at(x[0], idx, b, inplace=False), (x, b), order=2, modes=("fwd", "rev"))
    check_grads(lambda x, b: fnp.multiply.at(x[1], idx, b, inplace=False), (x, b), order=1,
                modes=("fwd", "rev"))
    check_grads(lambda x, b: u.at(x[2], idx, b, inplace=False), (x, b), order=2, modes=("fwd", "rev"))
    check_grads(lambda x: fnp.negative.at(x, (0, 1), inplace=False), (x,), order=1, modes=("rev",))
    # analytic: u(a, b) = a b + 1 applied twice at index 0 -> d/da0 = b0 * b1
    g = fgrad.grad(lambda x0: u.at(x0, idx, b, inplace=False)[0])(x[0])
    assert float(g[0]) == pytest.approx(float(b[0] * b[1]), rel=1e-14)


def test_methods_vmap_matches_loop_and_jit_matches_eager():
    rng = np.random.default_rng(4)
    xs = fnp.asarray(rng.uniform(-1, 1, (3, 2, 5)))
    u = _custom()
    idx = fnp.asarray([0, 3, 1])
    funcs = [
        lambda x: fnp.subtract.reduce(x, axis=1),
        lambda x: u.accumulate(x, axis=1),
        lambda x: u.reduceat(x, idx, axis=1),
        lambda x: fnp.add.at(x, (0, idx), 1.5, inplace=False),
        lambda x: u.at(x, (1, idx), x[0, :3], inplace=False),
        lambda x: fnp.maximum.reduce(x, axis=0, where=x > 0, initial=-2.0),
        lambda x: fnp.logical_xor.reduce(x > 0, axis=1),
    ]
    for f in funcs:
        loop = np.stack([np.asarray(f(xs[i])) for i in range(xs.shape[0])])
        np.testing.assert_allclose(np.asarray(fgrad.vmap(f)(xs)), loop, rtol=1e-14)
        np.testing.assert_allclose(np.asarray(fgrad.jit(f)(xs[0])), np.asarray(f(xs[0])), rtol=1e-14)
    # traced indices: reduceat under jit and vmap over the indices
    g = fgrad.jit(lambda x, i: u.reduceat(x, i))
    np.testing.assert_allclose(np.asarray(g(xs[0, 0], idx)), np.asarray(u.reduceat(xs[0, 0], idx)))
    many = fnp.asarray([[0, 2], [1, 4]])
    got = fgrad.vmap(lambda i: fnp.add.reduceat(xs[0, 0], i))(many)
    np.testing.assert_allclose(np.asarray(got), np.stack([np.add.reduceat(np.asarray(xs[0, 0]), np.asarray(i))
                                                          for i in many]), rtol=1e-14)


def test_add_call_path_unchanged():
    # the predefined ufuncs stay the generated functions (no wrapper object on the hot path)
    import types

    assert type(fnp.add) is types.FunctionType and fnp.add.__module__ == "fgrad.numpy._elementwise"
    assert fnp.add.reduce.__self__ is fnp.add.__fgrad_ufunc__
