"""fgrad stages the equations JAX 0.10.2 stages (issue 12): ``x ** 2`` is ``integer_pow``,
``jnp.square``/``lax.rsqrt`` are ``square``/``rsqrt``, static indexing is ``slice`` (+
``squeeze``, ``rev``, ``broadcast_in_dim``), reverse mode's seed is a literal and cotangents
are summed with ``add_any``; jaxpr interpreters written for JAX (the "Writing custom Jaxpr
interpreters" tutorial) see JAX's primitives, parameters and literals.  Values: JAX's bits
(``integer_pow`` by repeated squaring, stored below and compared live when jax is
installed)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.core.ir import Literal
from fgrad.test_util import check_grads

RNG = np.random.default_rng(12)


def _names(f, *args):
    return [e.primitive.name for e in fgrad.make_jaxpr(f)(*args).eqns]


def _f32(bits):
    return np.array(bits, np.uint32).view(np.float32)


# float32 inputs, exponents and JAX 0.10.2's results (bits) where NumPy's power (which fgrad
# called before) is an ulp off: JAX computes integer_pow by repeated squaring
JAX_INTEGER_POW_BITS = [
    (0xbf873644, 5, 0xbfa85bdb), (0xc0095709, 5, 0xc23607e6), (0x3fdd8b5b, 5, 0x417886eb),
    (0x404fea8d, 7, 0x456eb146), (0xbf9c9c11, 7, 0xc0835803), (0xbf873644, 7, 0xbfbbdd7a),
    (0x404fea8d, -3, 0x3ceeed3f), (0xbf873644, -3, 0xbf592eac), (0xc0934c69, -3, 0xbc27fc9d),
]


@pytest.mark.parametrize("x_bits,y,want_bits", JAX_INTEGER_POW_BITS)
def test_integer_pow_has_jaxs_float32_bits(x_bits, y, want_bits):
    x = fnp.asarray(_f32([x_bits]))
    want = _f32([want_bits])
    for got in (x ** y, fnp.power(x, y), lax.integer_pow(x, y), fgrad.jit(lambda v: v ** y)(x)):
        assert got.dtype == np.float32
        np.testing.assert_array_equal(np.asarray(got).view(np.uint32), want.view(np.uint32))


@pytest.mark.slow  # JAX compiles every exponent
def test_integer_pow_matches_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    x = (RNG.standard_normal(3000) * 2).astype(np.float32)
    z = (RNG.standard_normal(50) + 1j * RNG.standard_normal(50)).astype(np.complex128)
    i = RNG.integers(-9, 9, 50).astype(np.int32)
    with jax.enable_x64(True):
        for v, ys in ((x, range(-6, 14)), (z, range(0, 5)), (i, range(0, 9))):
            for y in ys:
                want = np.asarray(jnp.asarray(v) ** y)
                for got in (fnp.asarray(v) ** y, fgrad.jit(lambda a: a ** y)(fnp.asarray(v))):
                    assert got.dtype == want.dtype
                    np.testing.assert_array_equal(np.asarray(got), want, err_msg=f"{v.dtype} ** {y}")


def test_power_of_an_integer_to_a_negative_power_raises_jaxs_type_error():
    with pytest.raises(TypeError, match="Integers cannot be raised to negative powers"):
        fnp.arange(3) ** -1
    with pytest.raises(TypeError, match="Integers cannot be raised to negative powers"):
        fgrad.jit(lambda v: lax.integer_pow(v, -2))(fnp.arange(3))


@pytest.mark.parametrize("y", [-3, -1, 0, 1, 2, 3, 5])
def test_integer_pow_derivatives_to_second_order(y):
    x = fnp.asarray([0.7, 1.3, 2.1, -1.6])
    check_grads(lambda v: lax.integer_pow(v, y), (x,), order=2, modes=("fwd", "rev"))
    check_grads(lambda v: v ** y, (x,), order=2, modes=("fwd", "rev"))
    # JAX's rule: y * x ** (y - 1)
    np.testing.assert_allclose(np.asarray(fgrad.grad(lambda v: lax.integer_pow(v, y))(1.7)),
                               0.0 if y == 0 else y * 1.7 ** (y - 1), rtol=1e-14)


def test_square_and_rsqrt_derivatives_to_second_order():
    x = fnp.asarray([0.7, 1.3, 2.1])
    check_grads(fnp.square, (x,), order=2, modes=("fwd", "rev"))
    check_grads(lax.rsqrt, (x,), order=2, modes=("fwd", "rev"))


def test_vmap_of_integer_pow_and_static_indexing_is_a_loop():
    xs = fnp.asarray(RNG.standard_normal((4, 5, 3)))

    def f(x):
        return x[1] ** 3 + x[::-2, None, 0].sum() + lax.rsqrt(fnp.square(x[1:3, 2]) + 1.0).sum()

    got = fgrad.vmap(f)(xs)
    want = fnp.stack([f(xs[i]) for i in range(4)])
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    got = fgrad.vmap(f, in_axes=2)(xs)
    want = fnp.stack([f(xs[:, :, i]) for i in range(3)])
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


INDICES = [1, -1, (1, 2), (slice(None), 0), (Ellipsis, 1), (None, 1), (0, None), slice(None, None, -1),
           slice(None, None, -2), (slice(1, None), slice(None, 2)), slice(10, None), slice(-5, 2), (),
           Ellipsis, None, (1, Ellipsis, None, 2), (slice(None, None, 2), slice(2, 0, -1)), 5, (0, 5)]


@pytest.mark.parametrize("idx", INDICES, ids=repr)
def test_static_indexing_jit_grad_and_eager_agree(idx):
    x = fnp.asarray(RNG.standard_normal((2, 3, 4)))
    np_idx = next((c for i, c in ((5, 1), ((0, 5), (0, 2))) if i == idx), idx)  # clamped, as JAX
    want = np.asarray(x)[np_idx]
    np.testing.assert_array_equal(np.asarray(x[idx]), want)
    np.testing.assert_array_equal(np.asarray(fgrad.jit(lambda v: v[idx])(x)), want)
    g = fgrad.grad(lambda v: (v[idx] * 2.0).sum())(x)
    twos = np.zeros(x.shape)
    twos[np_idx] = 2.0
    np.testing.assert_array_equal(np.asarray(g), twos)


def test_programs_hold_jaxs_primitives():
    """Each of these programs was a different equation before (pow, mul, div of sqrt, gather,
    add): now JAX 0.10.2's."""
    v = fnp.arange(3.0)
    m = fnp.ones((2, 3))
    assert _names(lambda x: x ** 2, v) == ["integer_pow"]
    assert _names(lambda x: fnp.power(x, np.int32(3)), v) == ["integer_pow"]
    assert _names(fnp.square, v) == ["square"] and _names(lax.square, v) == ["square"]
    assert _names(lax.rsqrt, v) == ["rsqrt"] and _names(fnp.reciprocal, v) == ["integer_pow"]
    assert _names(lambda x: x[1], v) == ["slice", "squeeze"]
    assert _names(lambda x: x[1:], v) == ["slice"]
    assert _names(lambda x: x[:, ::-1], m) == ["rev"]
    assert _names(lambda x: x[None], m) == ["broadcast_in_dim"]
    assert _names(lambda x: x[0, None], m) == ["slice", "squeeze", "broadcast_in_dim"]
    assert _names(fgrad.grad(lambda x: x * x), 2.0) == ["mul", "mul", "mul", "add_any"]
    eqns = fgrad.make_jaxpr(fgrad.grad(fnp.exp))(2.0).eqns  # the seed is a literal 1.0
    assert type(eqns[-1].invars[0]) is Literal and eqns[-1].invars[0].val == 1.0
    assert str(fgrad.make_jaxpr(lambda x: x * np.float32(2.0))(fnp.ones(2, "float32"))) == \
        "{ lambda ; a:f32[2]. let b:f32[2] = mul a 2.0:f32[] in (b,) }"  # a NumPy scalar: a literal


def test_programs_print_as_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    cases = [(lambda np_, x: x ** 3, (3,)), (lambda np_, x: np_.square(x) + x ** -2, (3,)),
             (lambda np_, x: x[1, ::2, None], (2, 3, 4)), (lambda np_, x: x[..., ::-1, 0], (2, 3, 4))]
    with jax.enable_x64(True):
        for f, shp in cases:
            x = np.ones(shp)
            want = str(jax.make_jaxpr(lambda v: f(jnp, v))(x))
            assert str(fgrad.make_jaxpr(lambda v: f(fnp, v))(x)) == want
            g = lambda np_, v: (f(np_, v) * v.sum()).sum()  # noqa: E731
            assert str(fgrad.make_jaxpr(fgrad.grad(lambda v: g(fnp, v)))(x)) == \
                str(jax.make_jaxpr(jax.grad(lambda v: g(jnp, v)))(x))


# ---- a custom interpreter written for JAX ("Writing custom Jaxpr interpreters") ----------

def _inverse(make_jaxpr, literal_type, np_):
    """The tutorial's ``inverse`` transformation, keyed on ``eqn.primitive.name`` and reading
    ``eqn.params`` and literal operands; written once for either library."""
    def inv_mul(out, a, b):
        return out / (a.val if type(a) is literal_type else b.val)

    def inv_add(out, a, b):
        return out - (a.val if type(a) is literal_type else b.val)

    registry = {
        "exp": lambda out, eqn: np_.log(out),
        "tanh": lambda out, eqn: np_.arctanh(out),
        "integer_pow": lambda out, eqn: np_.power(out, 1.0 / eqn.params["y"]),
        "mul": lambda out, eqn: inv_mul(out, *eqn.invars),
        "add": lambda out, eqn: inv_add(out, *eqn.invars),
    }

    def inverse(fun):
        def wrapped(*args):
            closed = make_jaxpr(fun)(*args)
            jaxpr = closed.jaxpr
            env = {}
            for v, a in zip(jaxpr.outvars, args):
                env[v] = a
            for eqn in jaxpr.eqns[::-1]:
                outval = env[eqn.outvars[0]]
                new = registry[eqn.primitive.name](outval, eqn)
                for v in eqn.invars:
                    if type(v) is not literal_type:
                        env[v] = new
            return env[jaxpr.invars[0]]
        return wrapped

    return inverse


def _f(np_):
    return lambda x: np_.tanh(np_.exp(x) ** 3 * 0.25 + 0.1)


def test_inverse_interpreter_walks_the_new_primitives():
    x = fnp.asarray([0.1, 0.2, 0.3])
    y = _f(fnp)(x)
    eqns = fgrad.make_jaxpr(_f(fnp))(x).eqns
    assert [e.primitive.name for e in eqns] == ["exp", "integer_pow", "mul", "add", "tanh"]
    assert eqns[1].params == {"y": 3} and type(eqns[2].invars[1]) is Literal
    inv = _inverse(fgrad.make_jaxpr, Literal, fnp)(_f(fnp))(y)
    np.testing.assert_allclose(np.asarray(inv), np.asarray(x), rtol=1e-12)


def test_inverse_interpreter_agrees_with_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    from jax.extend import core as jcore
    x = np.array([0.1, 0.2, 0.3])
    with jax.enable_x64(True):
        y = np.asarray(_f(jnp)(x))
        want = np.asarray(_inverse(jax.make_jaxpr, jcore.Literal, jnp)(_f(jnp))(y))
        jax_eqns = [(e.primitive.name, e.params.get("y")) for e in jax.make_jaxpr(_f(jnp))(x).eqns]
    got = np.asarray(_inverse(fgrad.make_jaxpr, Literal, fnp)(_f(fnp))(fnp.asarray(y)))
    np.testing.assert_allclose(got, want, rtol=1e-12)  # (log and arctanh: XLA's, NumPy's)
    assert [(e.primitive.name, e.params.get("y")) for e in fgrad.make_jaxpr(_f(fnp))(x).eqns] == jax_eqns


def _eval_jaxpr(jaxpr, consts, *args):
    """The tutorial's evaluator: ``eqn.primitive.bind(*invals, **eqn.params)``."""
    env = {}

    def read(v):
        return v.val if type(v) is Literal else env[v]

    for v, c in zip(jaxpr.constvars, consts):
        env[v] = c
    for v, a in zip(jaxpr.invars, args):
        env[v] = a
    for eqn in jaxpr.eqns:
        out = eqn.primitive.bind(*[read(v) for v in eqn.invars], **eqn.params)
        for v, o in zip(eqn.outvars, out if eqn.primitive.multiple_results else [out]):
            env[v] = o
    return [read(v) for v in jaxpr.outvars]


def test_evaluating_interpreter_runs_the_new_primitives():
    x = fnp.asarray(RNG.standard_normal((3, 4)))

    def f(v):
        return (v[1] ** 3 + fnp.square(v[:, ::-2]).sum() + lax.rsqrt(v[0, 1:3] ** 2 + 1.0).sum(),
                fgrad.grad(lambda u: (u[1:, None] ** 2).sum() * u[0, 0])(v))

    closed = fgrad.make_jaxpr(f)(x)
    names = {e.primitive.name for e in closed.eqns}
    assert {"slice", "squeeze", "rev", "integer_pow", "square", "rsqrt", "add_any", "pad"} <= names
    got = _eval_jaxpr(closed.jaxpr, closed.consts, x)
    for g, w in zip(got, f(x)):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
