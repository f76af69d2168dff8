"""Transform API semantics, checked against JAX's conventions and analytic derivatives.

grad / value_and_grad (argnums, has_aux), pytrees in arguments and outputs, jvp /
linearize / vjp structure, jacfwd / jacrev / hessian shapes and values, vmap axes
(in_axes / out_axes incl. None, negative axes, pytree prefixes, axis_size, nesting,
keyword arguments), custom_jvp / custom_vjp (under vmap, nested grad, nondiff_argnums),
stop_gradient, Python control flow on concrete values, dtype preservation and weak scalars.
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.testing import check_grads
from fgrad.testing.device_numerics import assert_equal_up_to_device_ulps

RNG = np.random.default_rng(0)


def A(*shape, dtype=np.float64, lo=-1.0, hi=1.0):
    return fnp.asarray(RNG.uniform(lo, hi, size=shape).astype(dtype))


N = np.asarray


def close(a, b, atol=1e-10, rtol=1e-10):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=atol, rtol=rtol)


Point = namedtuple("Point", ["x", "y"])

# --------------------------------------------------------------------------------------
# grad / value_and_grad


def test_grad_scalar_analytic():
    x = A(5)
    close(fgrad.grad(lambda x: fnp.sum(fnp.sin(x) * x))(x), np.cos(N(x)) * x + np.sin(N(x)))


def test_grad_argnums_int_and_tuple():
    f = lambda x, y, z: fnp.sum(x * y ** 2 + z)
    x, y, z = A(3), A(3), A(3)
    gx = fgrad.grad(f)(x, y, z)
    gy = fgrad.grad(f, argnums=1)(x, y, z)
    assert isinstance(gx, fgrad.Array) and isinstance(gy, fgrad.Array)
    close(gx, np.asarray(y) ** 2)
    close(gy, 2 * np.asarray(x) * np.asarray(y))
    g = fgrad.grad(f, argnums=(0, 2))(x, y, z)
    assert isinstance(g, tuple) and len(g) == 2
    close(g[0], np.asarray(y) ** 2)
    close(g[1], np.ones(3))
    g1 = fgrad.grad(f, argnums=(1,))(x, y, z)
    assert isinstance(g1, tuple) and len(g1) == 1
    close(g1[0], gy)


def test_grad_argnums_out_of_range():
    with pytest.raises((ValueError, IndexError, TypeError)):
        fgrad.grad(lambda x: x, argnums=2)(1.0)


def test_grad_has_aux():
    def f(x):
        y = fnp.sum(x ** 2)
        return y, {"y": y, "x2": x * 2, "note": None}

    x = A(4)
    g, aux = fgrad.grad(f, has_aux=True)(x)
    close(g, 2 * np.asarray(x))
    assert set(aux) == {"y", "x2", "note"} and aux["note"] is None
    close(aux["y"], np.sum(np.asarray(x) ** 2))
    close(aux["x2"], 2 * np.asarray(x))
    assert isinstance(aux["x2"], fgrad.Array) and not isinstance(aux["x2"], fgrad.Tracer)


@pytest.mark.parametrize("transform", ["grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev"])
def test_aux_comes_back_concrete(transform):
    """aux is not differentiated: it must come back as plain arrays usable after the call."""
    f = lambda x: (fnp.sum(x ** 2), {"double": x * 2.0})
    x = A(3)
    if transform == "grad":
        _, aux = fgrad.grad(f, has_aux=True)(x)
    elif transform == "value_and_grad":
        (_, aux), _ = fgrad.value_and_grad(f, has_aux=True)(x)
    elif transform == "vjp":
        _, _, aux = fgrad.vjp(f, x, has_aux=True)
    elif transform == "jvp":
        _, _, aux = fgrad.jvp(f, (x,), (fnp.ones(3),), has_aux=True)
    else:
        _, aux = getattr(fgrad, transform)(f, has_aux=True)(x)
    d = aux["double"]
    assert not isinstance(d, fgrad.Tracer), f"{transform} returned aux as a leaked {type(d).__name__}"
    close(d + 1.0, 2 * N(x) + 1)  # usable in later computations


def test_value_and_grad():
    f = lambda x, y: fnp.sum(fnp.exp(x) * y)
    x, y = A(3), A(3)
    v, g = fgrad.value_and_grad(f)(x, y)
    close(v, np.sum(np.exp(N(x)) * N(y)))
    close(g, np.exp(N(x)) * y)
    v, (gx, gy) = fgrad.value_and_grad(f, argnums=(0, 1))(x, y)
    close(gy, np.exp(N(x)))
    (v2, aux), g2 = fgrad.value_and_grad(lambda x: (fnp.sum(x ** 3), x.shape), has_aux=True)(x)
    close(v2, np.sum(np.asarray(x) ** 3))
    close(g2, 3 * np.asarray(x) ** 2)
    assert aux == (3,)


def test_grad_kwargs_are_not_differentiated():
    f = lambda x, scale=1.0: fnp.sum(x * scale)
    close(fgrad.grad(f)(A(3), scale=3.0), 3 * np.ones(3))


def test_grad_of_constant_function_is_zero():
    x = A(3)
    g = fgrad.grad(lambda x: fnp.asarray(2.0))(x)
    assert g.shape == (3,) and g.dtype == x.dtype
    close(g, np.zeros(3))
    g = fgrad.grad(lambda x, y: fnp.sum(y), argnums=0)(x, A(2))
    close(g, np.zeros(3))


def test_grad_python_scalar_input():
    g = fgrad.grad(lambda x: x ** 3)(2.0)
    assert isinstance(g, fgrad.Array)
    close(g, 12.0)
    assert g.dtype == np.float64


def test_grad_with_integer_nondiff_argument():
    f = lambda x, n: fnp.sum(x ** n)
    x = A(3)
    close(fgrad.grad(f)(x, 3), 3 * np.asarray(x) ** 2)
    close(fgrad.grad(f)(x, fnp.asarray(2)), 2 * np.asarray(x))


# --------------------------------------------------------------------------------------
# pytrees


def test_grad_pytree_arguments():
    params = {"w": A(3, 2), "b": A(2), "extra": [A(2), (A(1),)], "none": None,
              "pt": Point(A(2), A(2))}

    def loss(p, x):
        h = fnp.tanh(x @ p["w"] + p["b"])
        return fnp.sum(h * p["extra"][0]) + fnp.sum(p["extra"][1][0] ** 2) + fnp.sum(p["pt"].x * p["pt"].y)

    x = A(4, 3)
    g = fgrad.grad(loss)(params, x)
    assert set(g) == set(params) and g["none"] is None
    assert isinstance(g["extra"], list) and isinstance(g["extra"][1], tuple)
    assert isinstance(g["pt"], Point)
    assert g["w"].shape == (3, 2) and g["b"].shape == (2,)
    # compare every leaf with finite differences
    check_grads(lambda p: loss(p, x), (params,), order=1, modes=("rev",))
    close(g["pt"].x, params["pt"].y)


def test_grad_ordered_dict_and_tuple_output_of_vjp():
    p = OrderedDict([("b", A(2)), ("a", A(2))])
    g = fgrad.grad(lambda p: fnp.sum(p["a"] * p["b"]))(p)
    assert isinstance(g, OrderedDict) and list(g) == ["b", "a"]
    close(g["a"], p["b"])


def test_jvp_structure_and_values():
    f = lambda x, y: {"s": fnp.sin(x) * y, "t": (x + y, fnp.sum(x))}
    x, y, tx, ty = A(3), A(3), A(3), A(3)
    out, t_out = fgrad.jvp(f, (x, y), (tx, ty))
    assert set(out) == {"s", "t"} and set(t_out) == {"s", "t"}
    assert isinstance(t_out["t"], tuple)
    xn, yn, txn, tyn = map(np.asarray, (x, y, tx, ty))
    close(out["s"], np.sin(xn) * yn)
    close(t_out["s"], np.cos(xn) * txn * yn + np.sin(xn) * tyn)
    close(t_out["t"][0], txn + tyn)
    close(t_out["t"][1], np.sum(txn))


def test_jvp_pytree_primals_and_has_aux():
    f = lambda p: (p["a"] * p["b"], {"aux": p["a"]})
    p = {"a": A(2), "b": A(2)}
    t = {"a": A(2), "b": A(2)}
    out, t_out, aux = fgrad.jvp(f, (p,), (t,), has_aux=True)
    close(t_out, np.asarray(t["a"]) * p["b"] + np.asarray(p["a"]) * t["b"])
    close(aux["aux"], p["a"])


def test_jvp_requires_matching_structure_and_shapes():
    with pytest.raises((TypeError, ValueError)):
        fgrad.jvp(fnp.sin, (A(3),), (A(3), A(3)))
    with pytest.raises((TypeError, ValueError)):
        fgrad.jvp(fnp.sin, (A(3),), (A(2),))
    with pytest.raises(TypeError):
        fgrad.jvp(fnp.sin, A(3), A(3))


def test_linearize():
    f = lambda x: fnp.sin(x) * fnp.exp(x)
    x = A(4)
    y, f_jvp = fgrad.linearize(f, x)
    close(y, f(x))
    t = A(4)
    ref = fgrad.jvp(f, (x,), (t,))[1]
    close(f_jvp(t), ref)
    close(f_jvp(t * 2.0), 2 * np.asarray(ref))  # linear
    close(f_jvp(t), ref)  # callable many times


def test_linearize_multiple_args_and_pytree_output():
    f = lambda x, y: (x * y, {"z": fnp.sum(x)})
    x, y = A(3), A(3)
    out, f_jvp = fgrad.linearize(f, x, y)
    tx, ty = A(3), A(3)
    t = f_jvp(tx, ty)
    assert isinstance(t, tuple) and set(t[1]) == {"z"}
    close(t[0], np.asarray(tx) * y + np.asarray(x) * ty)
    close(t[1]["z"], np.sum(N(tx)))


def test_vjp_structure():
    f = lambda x, y: (x * y, fnp.sum(x))
    x, y = A(3), A(3)
    out, f_vjp = fgrad.vjp(f, x, y)
    cts = f_vjp((fnp.ones(3), 2.0))
    assert isinstance(cts, tuple) and len(cts) == 2
    close(cts[0], np.asarray(y) + 2.0)
    close(cts[1], x)
    # one primal -> a 1-tuple
    _, f_vjp1 = fgrad.vjp(fnp.sin, x)
    c = f_vjp1(fnp.ones(3))
    assert isinstance(c, tuple) and len(c) == 1
    close(c[0], np.cos(N(x)))


def test_vjp_has_aux_and_pytree_primal():
    f = lambda p: (fnp.sum(p["w"] ** 2), p["w"].shape)
    out, f_vjp, aux = fgrad.vjp(f, {"w": A(2, 2)}, has_aux=True)
    assert aux == (2, 2)
    (g,) = f_vjp(fnp.asarray(1.0))
    assert set(g) == {"w"} and g["w"].shape == (2, 2)


def test_vjp_rejects_wrong_cotangent():
    _, f_vjp = fgrad.vjp(fnp.sin, A(3))
    with pytest.raises((TypeError, ValueError)):
        f_vjp(fnp.ones(4))
    with pytest.raises((TypeError, ValueError)):
        f_vjp((fnp.ones(3), fnp.ones(3)))


# --------------------------------------------------------------------------------------
# jacobians and hessians


def test_jacfwd_jacrev_shapes_and_values():
    W = np.asarray(A(4, 3))
    f = lambda x: fnp.tanh(fnp.asarray(W) @ x)
    x = A(3)
    J_ref = (1 - np.tanh(W @ np.asarray(x)) ** 2)[:, None] * W
    for jac in (fgrad.jacfwd, fgrad.jacrev):
        J = jac(f)(x)
        assert J.shape == (4, 3)
        close(J, J_ref)


def test_jacobian_of_matrix_input_and_output():
    f = lambda X: X @ X  # (2,2) -> (2,2)
    X = A(2, 2)
    for jac in (fgrad.jacfwd, fgrad.jacrev):
        J = jac(f)(X)
        assert J.shape == (2, 2, 2, 2)
        Xn = np.asarray(X)
        # d(XX)_ij / dX_kl = delta_ik X_lj + X_ik delta_jl
        ref = np.zeros((2, 2, 2, 2))
        for i in range(2):
            for j in range(2):
                for k in range(2):
                    for l in range(2):
                        ref[i, j, k, l] = (i == k) * Xn[l, j] + Xn[i, k] * (j == l)
        close(J, ref)


def test_jacobian_argnums_tuple_and_pytree_output():
    f = lambda x, y: {"p": x * y, "s": fnp.sum(x) * y}
    x, y = A(3), A(3)
    for jac in (fgrad.jacfwd, fgrad.jacrev):
        J = jac(f, argnums=(0, 1))(x, y)
        assert set(J) == {"p", "s"}
        assert isinstance(J["p"], tuple) and len(J["p"]) == 2
        assert J["p"][0].shape == (3, 3) and J["s"][1].shape == (3, 3)
        close(J["p"][0], np.diag(N(y)))
        close(J["p"][1], np.diag(N(x)))
        close(J["s"][0], np.outer(np.asarray(y), np.ones(3)))
        close(J["s"][1], np.sum(N(x)) * np.eye(3))


def test_jacobian_scalar_in_and_out():
    for jac in (fgrad.jacfwd, fgrad.jacrev):
        j = jac(fnp.sin)(0.5)
        assert np.shape(j) == ()
        close(j, np.cos(0.5))
        j = jac(lambda x: fnp.sum(x ** 2))(A(3))
        assert j.shape == (3,)


def test_jacobian_has_aux():
    f = lambda x: (x ** 2, {"n": fnp.sum(x)})
    x = A(3)
    for jac in (fgrad.jacfwd, fgrad.jacrev):
        J, aux = jac(f, has_aux=True)(x)
        close(J, np.diag(2 * np.asarray(x)))
        close(aux["n"], np.sum(N(x)))


def test_hessian_values():
    # f(x) = sum(x_i^3) + x0 * x1 ; H = diag(6x) + [[0,1],[1,0]] block
    f = lambda x: fnp.sum(x ** 3) + x[0] * x[1]
    x = A(3)
    H = fgrad.hessian(f)(x)
    ref = np.diag(6 * np.asarray(x))
    ref[0, 1] = ref[1, 0] = 1.0
    assert H.shape == (3, 3)
    close(H, ref)


def test_hessian_matrix_input_and_argnums():
    f = lambda X, y: fnp.sum((X @ y) ** 2)
    X, y = A(2, 3), A(3)
    H = fgrad.hessian(f, argnums=1)(X, y)
    close(H, 2 * np.asarray(X).T @ np.asarray(X))
    HX = fgrad.hessian(f)(X, y)
    assert HX.shape == (2, 3, 2, 3)
    yn = np.asarray(y)
    ref = 2 * np.einsum("ik,j,l->ijkl", np.eye(2), yn, yn)
    close(HX, ref)


def test_jacfwd_equals_jacrev_on_random_function():
    f = lambda x: fnp.concatenate([fnp.sin(x) * x[::-1], fnp.cumsum(x)])
    x = A(5)
    close(fgrad.jacfwd(f)(x), fgrad.jacrev(f)(x), atol=1e-12)


# --------------------------------------------------------------------------------------
# vmap


def test_vmap_in_axes_variants():
    f = lambda a, b: fnp.sum(a * b)
    a, b = A(3, 4), A(4, 3)
    close(fgrad.vmap(f, in_axes=(0, 1))(a, b), np.sum(np.asarray(a) * np.asarray(b).T, axis=1))
    close(fgrad.vmap(f, in_axes=(0, -1))(a, b), np.sum(np.asarray(a) * np.asarray(b).T, axis=1))
    v = A(4)
    close(fgrad.vmap(f, in_axes=(0, None))(a, v), np.asarray(a) @ np.asarray(v))
    close(fgrad.vmap(f, in_axes=[None, 1])(v, b), np.asarray(v) @ np.asarray(b))


def test_vmap_out_axes():
    f = lambda x: (x * 2, fnp.sum(x))
    x = A(3, 4)
    y, s = fgrad.vmap(f, out_axes=(1, 0))(x)
    assert y.shape == (4, 3) and s.shape == (3,)
    close(y, 2 * np.asarray(x).T)
    y, s = fgrad.vmap(f, out_axes=-1)(x)
    assert y.shape == (4, 3)
    # an unbatched output may be returned with out_axes=None
    c, y2 = fgrad.vmap(lambda x: (fnp.ones(2), x + 1), out_axes=(None, 0))(x)
    assert c.shape == (2,) and y2.shape == (3, 4)
    # an unbatched output with an int out_axes is broadcast
    c = fgrad.vmap(lambda x: fnp.ones(2))(x)
    assert c.shape == (3, 2)
    with pytest.raises(ValueError):
        fgrad.vmap(lambda x: x, out_axes=None)(x)


def test_vmap_pytree_in_axes_prefix():
    def f(p, x):
        return p["w"] @ x + p["b"]

    p = {"w": A(5, 2, 3), "b": A(2)}
    x = A(3)
    out = fgrad.vmap(f, in_axes=({"w": 0, "b": None}, None))(p, x)
    ref = np.einsum("nij,j->ni", np.asarray(p["w"]), np.asarray(x)) + np.asarray(p["b"])
    close(out, ref)
    # a tuple prefix covering a whole pytree
    out = fgrad.vmap(lambda t: t[0] + t[1][0], in_axes=((0, (1,)),))((A(3, 2), (A(2, 3),)))
    assert out.shape == (3, 2)


def test_vmap_pytree_output_and_namedtuple():
    f = lambda x: Point(x.sum(), {"sq": x ** 2})
    x = A(4, 2)
    out = fgrad.vmap(f)(x)
    assert isinstance(out, Point) and out.x.shape == (4,) and out.y["sq"].shape == (4, 2)


def test_vmap_axis_size_with_unmapped_inputs():
    out = fgrad.vmap(lambda x: x * 2, in_axes=None, axis_size=3)(A(2))
    assert out.shape == (3, 2)
    with pytest.raises(ValueError):
        fgrad.vmap(lambda x: x, in_axes=None)(A(2))


def test_vmap_nested_outer_product():
    a, b = A(3), A(4)
    out = fgrad.vmap(fgrad.vmap(lambda x, y: x * y, in_axes=(None, 0)), in_axes=(0, None))(a, b)
    close(out, np.outer(N(a), N(b)))
    out = fgrad.vmap(fgrad.vmap(lambda x, y: x * y, in_axes=(0, None)), in_axes=(None, 0))(a, b)
    close(out, np.outer(N(b), N(a)))


def test_vmap_nested_three_levels_with_axes():
    x = A(2, 3, 4)
    f = fgrad.vmap(fgrad.vmap(fgrad.vmap(lambda v: v * 2 + 1, in_axes=0), in_axes=1), in_axes=2)
    out = f(x)
    # outermost maps axis 2 (size 4), then axis 1 of the rest (size 3), then axis 0 (size 2)
    close(out, np.transpose(2 * np.asarray(x) + 1, (2, 1, 0)))


def test_vmap_kwargs_are_mapped_over_axis_0():
    out = fgrad.vmap(lambda x, y=None: x + y)(A(3, 2), y=A(3, 2))
    assert out.shape == (3, 2)


def test_vmap_inconsistent_sizes():
    with pytest.raises(ValueError, match="size"):
        fgrad.vmap(lambda a, b: a + b)(A(3), A(4))


def test_vmap_of_matrix_vector_and_python_scalars():
    M = A(5, 3, 3)
    v = A(3)
    out = fgrad.vmap(lambda m: m @ v * 2.0 + 1)(M)
    close(out, np.einsum("nij,j->ni", np.asarray(M), np.asarray(v)) * 2 + 1)


def test_vmap_of_grad_per_example():
    w = A(3)
    xs = A(6, 3)
    g = fgrad.vmap(fgrad.grad(lambda w, x: fnp.sum(fnp.tanh(w * x))), in_axes=(None, 0))(w, xs)
    wn, xn = np.asarray(w), np.asarray(xs)
    close(g, (1 - np.tanh(wn * xn) ** 2) * xn)


# --------------------------------------------------------------------------------------
# custom_jvp


def _make_log1pexp():
    @fgrad.custom_jvp
    def log1pexp(x):
        return fnp.log(1.0 + fnp.exp(x))

    @log1pexp.defjvp
    def _jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return log1pexp(x), t * (1.0 - 1.0 / (1.0 + fnp.exp(x)))

    return log1pexp


def test_custom_jvp_used_by_jvp_and_grad():
    f = _make_log1pexp()
    x = fnp.asarray([0.0, 1.0, 100.0])
    g = fgrad.grad(lambda x: fnp.sum(f(x)))(x)
    close(g, 1 / (1 + np.exp(-np.asarray(x))))  # stable at 100 thanks to the rule
    assert np.all(np.isfinite(np.asarray(g)))
    _, t = fgrad.jvp(f, (x,), (fnp.ones(3),))
    close(t, g)


def test_custom_jvp_rule_is_actually_used():
    @fgrad.custom_jvp
    def f(x):
        return fnp.sin(x)

    f.defjvp(lambda p, t: (f(p[0]), 3.0 * t[0]))
    close(fgrad.grad(f)(0.3), 3.0)
    close(fgrad.jvp(f, (0.3,), (1.0,))[1], 3.0)
    close(f(0.3), np.sin(0.3))


def test_custom_jvp_nested_grad():
    f = _make_log1pexp()
    x = 0.7
    sig = lambda v: 1 / (1 + np.exp(-v))
    close(fgrad.grad(fgrad.grad(f))(x), sig(x) * (1 - sig(x)))
    close(fgrad.grad(fgrad.grad(fgrad.grad(f)))(x), sig(x) * (1 - sig(x)) * (1 - 2 * sig(x)))


def test_custom_jvp_under_vmap():
    f = _make_log1pexp()
    xs = A(5)
    close(fgrad.vmap(f)(xs), np.log1p(np.exp(N(xs))))
    g = fgrad.vmap(fgrad.grad(f))(xs)
    close(g, 1 / (1 + np.exp(-np.asarray(xs))))
    g2 = fgrad.grad(lambda x: fnp.sum(fgrad.vmap(f)(x)))(xs)
    close(g2, g)


def test_custom_jvp_nondiff_argnums():
    scaled = fgrad.custom_jvp(lambda n, x: x ** n, nondiff_argnums=(0,))

    @scaled.defjvp
    def _jvp(n, primals, tangents):
        (x,), (t,) = primals, tangents
        return scaled(n, x), 2.0 * n * x ** (n - 1) * t  # doubled: proves the rule is used

    close(fgrad.grad(scaled, argnums=1)(3, 2.0), 24.0)
    close(fgrad.vmap(lambda x: scaled(2, x))(fnp.asarray([1.0, 2.0, 3.0])), [1.0, 4.0, 9.0])
    close(fgrad.vmap(fgrad.grad(lambda x: scaled(2, x)))(fnp.asarray([1.0, 2.0])), [4.0, 8.0])
    close(fgrad.grad(fgrad.grad(lambda x: scaled(3, x)))(2.0), 2.0 * 3 * 2 * 2.0)


def test_custom_jvp_defjvps():
    @fgrad.custom_jvp
    def f(x, y):
        return x * y

    f.defjvps(lambda t, ans, x, y: t * y * 10.0, lambda t, ans, x, y: t * x)
    gx, gy = fgrad.grad(f, argnums=(0, 1))(2.0, 3.0)
    close(gx, 30.0)
    close(gy, 2.0)


def test_custom_jvp_pytree_io():
    @fgrad.custom_jvp
    def f(p):
        return {"out": p["a"] * p["b"]}

    @f.defjvp
    def _jvp(primals, tangents):
        (p,), (t,) = primals, tangents
        return f(p), {"out": t["a"] * p["b"] + p["a"] * t["b"]}

    p = {"a": A(3), "b": A(3)}
    g = fgrad.grad(lambda p: fnp.sum(f(p)["out"]))(p)
    close(g["a"], p["b"])
    close(g["b"], p["a"])


# --------------------------------------------------------------------------------------
# custom_vjp (under reverse mode its bwd rule becomes a `custom_lin` primitive in the linear
# program: grad, vmap of grad and nested grad below all go through custom_lin's rules)


def _make_custom_sin():
    @fgrad.custom_vjp
    def f(x):
        return fnp.sin(x)

    def fwd(x):
        return fnp.sin(x), fnp.cos(x)

    def bwd(cos_x, g):
        return (g * cos_x,)

    f.defvjp(fwd, bwd)
    return f


def test_custom_vjp_grad_and_rule_used():
    @fgrad.custom_vjp
    def clip_gradient(x):
        return x

    clip_gradient.defvjp(lambda x: (x, None), lambda _, g: (fnp.clip(g, -1.0, 1.0),))
    close(fgrad.grad(lambda x: 5.0 * clip_gradient(x))(2.0), 1.0)
    close(fgrad.grad(lambda x: 0.5 * clip_gradient(x))(2.0), 0.5)
    close(clip_gradient(2.0), 2.0)


def test_custom_vjp_nested_grad():
    f = _make_custom_sin()
    x = 0.4
    close(fgrad.grad(f)(x), np.cos(N(x)))
    close(fgrad.grad(fgrad.grad(f))(x), -np.sin(N(x)))


def test_custom_vjp_under_vmap():
    f = _make_custom_sin()
    xs = A(5)
    close(fgrad.vmap(f)(xs), np.sin(N(xs)))
    close(fgrad.vmap(fgrad.grad(f))(xs), np.cos(N(xs)))
    close(fgrad.grad(lambda x: fnp.sum(fgrad.vmap(f)(x)))(xs), np.cos(N(xs)))


def test_custom_vjp_nondiff_argnums():
    def f_(n, x):
        return x ** n

    f = fgrad.custom_vjp(f_, nondiff_argnums=(0,))
    f.defvjp(lambda n, x: (x ** n, x), lambda n, x, g: (g * n * x ** (n - 1) * 2.0,))
    close(fgrad.grad(f, argnums=1)(3, 2.0), 24.0)  # the rule's (doubled) value, not the true 12


def test_custom_vjp_multiple_args_and_pytrees():
    @fgrad.custom_vjp
    def f(a, p):
        return a * p["b"], fnp.sum(p["c"])

    def fwd(a, p):
        return f(a, p), (a, p)

    def bwd(res, cts):
        a, p = res
        g1, g2 = cts
        return g1 * p["b"], {"b": g1 * a, "c": g2 * fnp.ones_like(p["c"])}

    f.defvjp(fwd, bwd)
    a, p = A(3), {"b": A(3), "c": A(2)}
    ga, gp = fgrad.grad(lambda a, p: fnp.sum(f(a, p)[0]) + 2 * f(a, p)[1], argnums=(0, 1))(a, p)
    close(ga, p["b"])
    close(gp["b"], a)
    close(gp["c"], 2 * np.ones(2))


def test_custom_vjp_forward_mode_is_a_clear_error():
    f = _make_custom_sin()
    with pytest.raises(TypeError, match="custom_vjp"):
        fgrad.jvp(f, (0.3,), (1.0,))


# --------------------------------------------------------------------------------------
# stop_gradient


def test_stop_gradient():
    sg = fgrad.stop_gradient
    x = A(3)
    close(fgrad.grad(lambda x: fnp.sum(x * sg(x)))(x), x)
    close(fgrad.jvp(lambda x: sg(x) * 2, (x,), (fnp.ones(3),))[1], np.zeros(3))
    close(fgrad.vmap(lambda x: sg(x) ** 2)(x), np.asarray(x) ** 2)
    close(fgrad.vmap(fgrad.grad(lambda x: x * sg(x)))(x), x)
    p = sg({"a": x, "b": (x, x)})
    assert set(p) == {"a", "b"}
    g = fgrad.grad(lambda x: fnp.sum(fgrad.grad(lambda y: fnp.sum(sg(y) * y ** 2))(x)))(x)
    # inner grad: y**2 * sg(y) -> 2 y sg(y); outer: d/dx sum(2 x sg(x)) = 2 sg(x) -> 2x
    close(g, 2 * np.asarray(x))


def test_stop_gradient_from_lax():
    import fgrad.lax as lax

    close(fgrad.grad(lambda x: x * lax.stop_gradient(x))(3.0), 3.0)


# --------------------------------------------------------------------------------------
# Python control flow on concrete values


def test_python_control_flow_under_grad_and_jvp():
    def f(x):
        if x > 0:
            return x ** 2
        return -x ** 3

    close(fgrad.grad(f)(2.0), 4.0)
    close(fgrad.grad(f)(-2.0), -12.0)
    close(fgrad.jvp(f, (2.0,), (1.0,))[1], 4.0)
    close(fgrad.grad(fgrad.grad(f))(-1.0), 6.0)


def test_python_loops_and_conversions_under_grad():
    def f(x):
        y = x
        while float(y) < 10.0:
            y = y * 2.0
        return y + int(x) * 0.0

    # y = x * 2**n with n fixed by the (concrete) loop
    x = 1.5
    n = int(np.ceil(np.log2(10.0 / x)))
    close(fgrad.grad(f)(x), 2.0 ** n)
    close(fgrad.jvp(f, (x,), (1.0,))[1], 2.0 ** n)


def test_asarray_of_traced_list_under_grad_and_vmap():
    f = lambda x: fnp.sum(fnp.asarray([x, 2.0 * x, x ** 2]))
    close(fgrad.grad(f)(1.5), 1 + 2 + 3.0)
    close(fgrad.vmap(lambda x: fnp.asarray([x, -x]))(fnp.asarray([1.0, 2.0])), [[1.0, -1.0], [2.0, -2.0]])


def test_data_dependent_indexing_under_grad():
    def f(x):
        i = int(fnp.argmax(x))
        return x[i] ** 2

    x = fnp.asarray([0.1, 3.0, 0.2])
    close(fgrad.grad(f)(x), [0.0, 6.0, 0.0])


# --------------------------------------------------------------------------------------
# dtypes


def test_float32_stays_float32_through_transforms():
    x = A(3, dtype=np.float32)
    f = lambda x: fnp.sum(fnp.tanh(x) ** 2 * fnp.exp(-x) * 2.0 + 1)
    assert f(x).dtype == np.float32
    assert fgrad.grad(f)(x).dtype == np.float32
    assert fgrad.value_and_grad(f)(x)[0].dtype == np.float32
    out, t = fgrad.jvp(f, (x,), (fnp.ones_like(x),))
    assert out.dtype == np.float32 and t.dtype == np.float32
    _, f_jvp = fgrad.linearize(f, x)
    assert f_jvp(fnp.ones_like(x)).dtype == np.float32
    assert fgrad.jacfwd(fnp.sin)(x).dtype == np.float32
    assert fgrad.jacrev(fnp.sin)(x).dtype == np.float32
    assert fgrad.hessian(f)(x).dtype == np.float32
    assert fgrad.vmap(fgrad.grad(f))(fnp.ones((2, 3), dtype=np.float32)).dtype == np.float32
    x0 = fnp.asarray(np.float32(0.5))
    assert fgrad.grad(fgrad.grad(lambda x: fnp.sin(x) * 3.0))(x0).dtype == np.float32


def test_weak_python_scalars_keep_float32():
    x = fnp.asarray(np.float32(1.5))
    g = fgrad.grad(lambda x: x * 2.0 + 3 - x ** 2 / 4.0)(x)
    assert g.dtype == np.float32
    close(g, 2.0 - 1.5 / 2.0, rtol=1e-6)
    # jvp with a Python-scalar tangent for a float32 primal
    _, t = fgrad.jvp(lambda x: x * 3.0, (x,), (1.0,))
    assert t.dtype == np.float32


def test_float64_inputs_stay_float64():
    x = A(3)
    assert fgrad.grad(lambda x: fnp.sum(x.astype(np.float32) * 1.0).astype(np.float64))(x).dtype == np.float64
    assert fgrad.vmap(lambda x: x * 2)(x).dtype == np.float64


def test_mixed_float32_float64_promotes():
    x32, x64 = A(3, dtype=np.float32), A(3)
    g32, g64 = fgrad.grad(lambda a, b: fnp.sum(a * b), argnums=(0, 1))(x32, x64)
    assert g32.dtype == np.float32 and g64.dtype == np.float64
    close(g32, x64, rtol=1e-6)


# --------------------------------------------------------------------------------------
# no perturbation confusion (nested derivatives keep their tags apart)


def test_no_perturbation_confusion():
    # d/dx [ x * d/dy (x + y) ] = d/dx [x * 1] = 1
    f = lambda x: x * fgrad.grad(lambda y: x + y)(1.0)
    close(fgrad.grad(f)(2.0), 1.0)
    # forward-mode version
    g = lambda x: x * fgrad.jvp(lambda y: x * y, (1.0,), (1.0,))[1]
    close(fgrad.jvp(g, (3.0,), (1.0,))[1], 6.0)  # d/dx (x * x) = 2x


def test_closure_over_outer_tracer_in_vmap_of_grad():
    xs = A(4)
    out = fgrad.grad(lambda a: fnp.sum(fgrad.vmap(lambda x: a * x ** 2)(xs)))(0.5)
    close(out, np.sum(np.asarray(xs) ** 2))


# --------------------------------------------------------------------------------------
# fgrad.random under transforms (explicit keys: same key, same numbers, under every transform)


def test_random_under_vmap_matches_loop():
    random = pytest.importorskip("fgrad.random")
    keys = random.split(random.key(0), 4)
    batched = fgrad.vmap(lambda k: random.normal(k, (3,)))(keys)
    loop = np.stack([np.asarray(random.normal(keys[i], (3,))) for i in range(4)])
    close(batched, loop, atol=0, rtol=0)
    u = fgrad.vmap(lambda k, m: random.uniform(k, (2,), minval=m, maxval=m + 1.0))(keys, fnp.arange(4.0))
    assert u.shape == (4, 2)
    assert np.all((np.asarray(u) >= np.arange(4.0)[:, None]) & (np.asarray(u) < np.arange(4.0)[:, None] + 1))


def test_random_under_jit_matches_eager():
    random = pytest.importorskip("fgrad.random")
    k = random.key(42)
    f = lambda k: (random.normal(k, (2, 3)), random.randint(random.fold_in(k, 1), (4,), 0, 10))
    eager, jitted = f(k), fgrad.jit(f)(k)
    assert_equal_up_to_device_ulps(jitted, eager)  # exact on NumPy (docs/gpu_numerics.md)


def test_random_differentiable_in_parameters():
    random = pytest.importorskip("fgrad.random")
    k = random.key(1)
    # uniform(minval=m, maxval=m+1) = m + u: the derivative with respect to m is 1 per sample
    g = fgrad.grad(lambda m: fnp.sum(random.uniform(k, (5,), minval=m, maxval=m + 1.0)))(0.0)
    close(g, 5.0)
    # a permutation moves the cotangent back
    x, w = A(6), A(6)
    perm_x = random.permutation(k, x)
    g = fgrad.grad(lambda x: fnp.sum(random.permutation(k, x) * w))(x)
    order = np.argsort(np.asarray(x))  # recover the permutation from the values
    perm = order[np.searchsorted(np.asarray(x)[order], np.asarray(perm_x))]
    ref = np.zeros(6)
    ref[perm] = np.asarray(w)
    close(g, ref)
    # samples do not depend on differentiable inputs: zero tangent
    _, t = fgrad.jvp(lambda s: random.normal(k, (3,)) * 0.0 + s, (1.0,), (1.0,))
    close(t, np.ones(3))
