"""Regression tests of what the round-24b JAX programs (tests/jax_programs_round24b/) found
(docs/jax-programs-round24b.md)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.numpy as fnp
from fgrad import lax, random
from fgrad.example_libraries import stax


@pytest.mark.parametrize("layer", [stax.SumPool, stax.MaxPool, stax.AvgPool])
def test_pooling_init_of_an_any_size_batch_is_zero_as_in_jax(layer):
    """JAX's pooling layers compute their output shape by ``core.stride_dim``, which is never
    negative: the batch axis ``-1`` of ``init_fun(rng, (-1, 8, 8, 1))`` comes out ``0``; fgrad's
    said ``-1`` (a window of 1 over a length of -1), so a shape printed after a pooling layer
    differed from JAX's."""
    init_fun, _ = layer((2, 2), strides=(2, 2))
    assert init_fun(random.key(0), (-1, 8, 8, 1))[0] == (0, 4, 4, 1)
    assert init_fun(random.key(0), (3, 8, 8, 1))[0] == (3, 4, 4, 1)
    assert init_fun(random.key(0), (3, 1, 1, 1))[0] == (3, 0, 0, 1)  # a window larger than the input


def test_conv_shape_tuple_takes_a_padding_name():
    """``lax.conv_shape_tuple(lhs, rhs, strides, "SAME")`` resolves the name as JAX does (by
    ``padtype_to_pads``); fgrad raised TypeError."""
    assert lax.conv_shape_tuple((-1, 1, 8, 8), (8, 1, 3, 3), (1, 1), "SAME") == (-1, 8, 8, 8)
    assert lax.conv_shape_tuple((2, 1, 7, 9), (4, 1, 3, 2), (2, 3), "SAME") == (2, 4, 4, 3)
    assert lax.conv_shape_tuple((2, 1, 7, 9), (4, 1, 3, 2), (2, 3), "VALID") == (2, 4, 3, 3)
    explicit = lax.padtype_to_pads((7, 9), (3, 2), (2, 3), "SAME_LOWER")
    assert (lax.conv_shape_tuple((2, 1, 7, 9), (4, 1, 3, 2), (2, 3), "SAME_LOWER")
            == lax.conv_shape_tuple((2, 1, 7, 9), (4, 1, 3, 2), (2, 3), explicit))
    out = fnp.zeros((2, 1, 7, 9))
    conv = lax.conv_general_dilated(out, fnp.zeros((4, 1, 3, 2)), (2, 3), "SAME")
    assert conv.shape == tuple(int(d) for d in lax.conv_shape_tuple(out.shape, (4, 1, 3, 2), (2, 3), "SAME"))
    assert isinstance(lax.conv_shape_tuple((2, 1, 7, 9), (4, 1, 3, 2), (2, 3), "SAME")[2], np.integer)


def test_loop_and_branch_equations_answer_jax_parameter_names():
    """A jaxpr interpreter written for JAX reads ``eqn.params["jaxpr"]`` of a scan (a
    ``ClosedJaxpr``), ``["body_jaxpr"]``/``["cond_jaxpr"]`` of a while and ``["branches"]`` of a
    cond; fgrad's equations had only their own keys (``body``, ``n_carry``...): KeyError."""
    import fgrad
    cj = fgrad.make_jaxpr(lambda xs: lax.scan(lambda c, x: (c + x, c * c), 0.0, xs))(fnp.arange(5.0))
    p = cj.eqns[0].params
    assert (p["length"], p["num_carry"], p["num_consts"], p["reverse"]) == (5, 1, 0, False)
    assert "jaxpr" in p and "unroll" in p and "nonsense" not in p and p.get("nonsense", 7) == 7
    body = p["jaxpr"]
    assert [e.primitive.name for e in body.eqns][-2:] == ["add", "mul"] and body.consts == []
    assert [a.shape for a in body.in_avals] == [(), ()]
    from fgrad.extend.core import jaxpr_as_fun
    fun = jaxpr_as_fun(body)
    assert [float(v) for v in fun(fnp.float64(2.0), fnp.float64(3.0))] == [5.0, 4.0]
    with pytest.raises(KeyError):
        p["nonsense"]
    # re-binding the equation with its own parameters still works (the keys stay fgrad's)
    assert "body" in dict(p) and "jaxpr" not in dict(p)
    doubling = lambda n: lax.while_loop(lambda c: c < n, lambda c: c * 2.0, 1.0)  # noqa: E731
    w = fgrad.make_jaxpr(doubling)(5.0).eqns[0].params
    assert [e.primitive.name for e in w["cond_jaxpr"].eqns] == ["lt"]
    assert [e.primitive.name for e in w["body_jaxpr"].eqns] == ["mul"]
    assert (w["cond_nconsts"], w["body_nconsts"]) == (1, 0)
    c = fgrad.make_jaxpr(lambda p, x: lax.cond(p, fnp.sin, fnp.cos, x))(True, 1.0).eqns[-1].params
    assert [[e.primitive.name for e in b.eqns] for b in c["branches"]] == [["cos"], ["sin"]]


# JAX 0.10.2's betaln in 64-bit mode (its algorithm: cdflib's algdiv series once max(a, b) >= 8)
def test_heaviside_of_nan_is_nan():
    """``jnp.heaviside(nan, h0)`` is NaN in JAX (and NumPy); fgrad's gave 1 (everything not
    negative or zero counted as positive), eagerly and under jit."""
    import fgrad
    x = fnp.asarray([np.nan, -0.0, 0.0, 2.0, -1.0, np.inf, -np.inf])
    h0 = fnp.asarray([0.5, 0.5, np.nan, 0.5, 0.5, 0.5, 0.5])
    want = np.heaviside(np.asarray(x), np.asarray(h0))
    np.testing.assert_array_equal(np.asarray(fnp.heaviside(x, h0)), want)
    np.testing.assert_array_equal(np.asarray(fgrad.jit(fnp.heaviside)(x, h0)), want)
    assert np.isnan(float(fnp.heaviside(float("nan"), 0.5)))


def test_pytreedef_compose_flatten_one_level_and_is_tree_node_as_jax():
    """``PyTreeDef.compose`` was missing (AttributeError); ``flatten_one_level`` of a dict gave
    its keys as a list (JAX: a tuple); ``is_tree_node`` took a value where JAX takes a type
    (``is_tree_node((1,))`` is False in JAX, ``is_tree_node(tuple)`` True)."""
    import collections

    from fgrad import tree_util as tu
    composed = tu.tree_structure((0, 0)).compose(tu.tree_structure({"x": 0, "y": 0}))
    assert composed == tu.tree_structure(({"x": 0, "y": 0}, {"x": 0, "y": 0})) and composed.num_leaves == 4
    assert tu.tree_structure(1.0).compose(tu.tree_structure([0, 0])) == tu.tree_structure([0, 0])
    assert tu.flatten_one_level({"b": 1, "a": 2}) == ([2, 1], ("a", "b"))
    point = collections.namedtuple("point", "x y")
    assert [tu.is_tree_node(t) for t in (tuple, dict, list, type(None), point, int, float)] == [
        True, True, True, True, True, False, False]
    assert not tu.is_tree_node((1,)) and not tu.is_tree_node(point(1, 2))
    with pytest.raises(TypeError):
        tu.is_tree_node(None)
