"""`fgrad.experimental.checkify` against JAX: the same programs, written once for either
library, give the same error messages (stored from JAX 0.10.2 with x64, and compared live
when JAX is installed), under jit, vmap, grad and control flow; plus the behaviour outside
`checkify` (eager checks raise), the pytree `Error` and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.experimental import checkify as fck


def _fgrad_mods():
    return fgrad, fnp, fck


def _jax_mods():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    from jax.experimental import checkify

    return jax, jax.numpy, checkify


# ---- programs, each written against (jax, jnp, checkify) of either library ------------------

def _positive(ck, jnp):
    def f(x):
        ck.check(x > 0, "x must be positive, got {}", x)
        return jnp.log(x)
    return f


def _msg(err):
    return err.get()


def p_user(jax, jnp, ck):
    return _msg(ck.checkify(_positive(ck, jnp))(jnp.asarray(-1.0))[0])


def p_user_ok(jax, jnp, ck):
    return _msg(ck.checkify(_positive(ck, jnp))(jnp.asarray(2.0))[0])


def p_format_kwargs(jax, jnp, ck):
    def f(x):
        ck.check(x > 0, "x={x:.2f} y={y} z={}", x * 2, x=x, y=jnp.arange(3))
        return x
    return _msg(ck.checkify(f)(jnp.asarray(-1.0))[0])


def p_vector_payload(jax, jnp, ck):
    def f(x):
        ck.check(jnp.all(x > 0), "bad x {}", x)
        return x
    return _msg(ck.checkify(f)(jnp.asarray([1.0, -1.0]))[0])


def p_first_error_wins(jax, jnp, ck):
    def f(x):
        ck.check(x > 0, "first {}", x)
        ck.check(x > -10, "second {}", x)
        return x
    return _msg(ck.checkify(f)(jnp.asarray(-20.0))[0])


def p_jit_of_checkify(jax, jnp, ck):
    return _msg(jax.jit(ck.checkify(_positive(ck, jnp)))(jnp.asarray(-1.0))[0])


def p_checkify_of_jit(jax, jnp, ck):
    return _msg(ck.checkify(jax.jit(_positive(ck, jnp)))(jnp.asarray(-1.0))[0])


def p_checkify_of_vmap(jax, jnp, ck):  # one error over the batch: JAX reports the last failing
    xs = jnp.asarray([1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0])
    return _msg(ck.checkify(jax.vmap(_positive(ck, jnp)))(xs)[0])


def p_vmap_of_checkify(jax, jnp, ck):  # an error per example
    return _msg(jax.vmap(ck.checkify(_positive(ck, jnp)))(jnp.asarray([1.0, -2.0, 3.0, -4.0]))[0])


def p_vmap_two_sites(jax, jnp, ck):
    def h(x):
        ck.check(x > -3, "A {}", x)
        ck.check(x > 0, "B {}", x)
        return x
    xs = jnp.asarray([1.0, -1.0, -5.0])
    return [_msg(jax.vmap(ck.checkify(h))(xs)[0]), _msg(ck.checkify(jax.vmap(h))(xs)[0])]


def p_nested_vmap(jax, jnp, ck):
    def f(x):
        ck.check(x > 0, "neg {}", x)
        return x
    return _msg(jax.vmap(jax.vmap(ck.checkify(f)))(jnp.asarray([[1.0, -1.0], [-2.0, 3.0]]))[0])


def p_checkify_of_grad(jax, jnp, ck):
    return _msg(ck.checkify(jax.grad(_positive(ck, jnp)))(jnp.asarray(-1.0))[0])


def p_grad_of_checkified(jax, jnp, ck):
    g = jax.grad(lambda x: ck.checkify(_positive(ck, jnp))(x)[1])
    return float(g(2.0))


def p_scan(jax, jnp, ck):
    def loop(x):
        def body(c, i):
            ck.check(c < 10, "carry too big: {} at step {}", c, i)
            return c * 2, c
        return jax.lax.scan(body, x, jnp.arange(6))
    err, (c, _) = ck.checkify(loop)(jnp.asarray(1.0))
    return [_msg(err), float(c)]


def p_while(jax, jnp, ck):
    def wl(x):
        def body(c):
            ck.check(c < 10, "while carry {}", c)
            return c * 2
        return jax.lax.while_loop(lambda c: c < 100, body, x)
    err, out = ck.checkify(wl)(jnp.asarray(1.0))
    return [_msg(err), float(out)]


def p_cond(jax, jnp, ck):
    def cd(x):
        return jax.lax.cond(x > 0, lambda x: jnp.log(x - 5), lambda x: x, x)
    f = ck.checkify(cd, errors=ck.float_checks)
    return [_msg(f(jnp.asarray(1.0))[0]), _msg(f(jnp.asarray(-1.0))[0])]


def p_fori_index(jax, jnp, ck):
    f = ck.checkify(lambda x: jax.lax.fori_loop(0, 5, lambda i, c: c * x[i], 1.0), errors=ck.index_checks)
    return _msg(f(jnp.arange(3.0))[0])


def p_check_error(jax, jnp, ck):
    def ce(x):
        e, y = ck.checkify(_positive(ck, jnp))(x)
        ck.check_error(e)
        return y
    return [_msg(ck.checkify(ce)(jnp.asarray(-1.0))[0]), _msg(jax.jit(ck.checkify(ce))(jnp.asarray(-1.0))[0])]


def p_nan(jax, jnp, ck):
    f = lambda g, *a: _msg(ck.checkify(g, errors=ck.nan_checks)(*a)[0])  # noqa: E731
    return [f(jnp.sin, jnp.asarray(jnp.inf)), f(lambda x: x + 1, jnp.asarray(jnp.nan)),
            f(lambda x: x * 0, jnp.asarray(jnp.inf)), f(jnp.log1p, jnp.asarray(-2.0)),
            f(lambda a, b: a ** b, jnp.asarray(-2.0), jnp.asarray(0.5)), f(jnp.arcsin, jnp.asarray(-2.0)),
            f(jnp.sum, jnp.asarray([jnp.inf, -jnp.inf])),
            f(lambda a, b: a % b, jnp.asarray(1.0), jnp.asarray(0.0)),
            f(jnp.exp, jnp.asarray(1000.0)),
            f(lambda x: jnp.where(x > 0, jnp.log(x), 0.0), jnp.asarray(-1.0))]


def p_nan_in_backward_pass(jax, jnp, ck):
    g = jax.jit(jax.grad(lambda x: jnp.sum(jnp.sqrt(x))))
    err, _ = ck.checkify(g, errors=ck.all_checks)(jnp.asarray([1.0, -1.0]))
    return [_msg(err), type(err.get_exception()).__name__]


def p_index(jax, jnp, ck):
    f = lambda g, *a: _msg(ck.checkify(g, errors=ck.index_checks)(*a)[0])  # noqa: E731
    x = jnp.arange(3.0)
    return [f(lambda x, i: x[i], x, jnp.asarray(5)), f(lambda x, i: x[i], x, jnp.asarray(-5)),
            f(lambda x, i: x[i], x, jnp.asarray(-3)),
            f(lambda x, i: x[i, 1], jnp.ones((3, 4)), jnp.asarray(7)),
            f(lambda x, i: x[i], x, jnp.asarray([0, 4, 7])),
            f(lambda x, i: jnp.take(x, i), x, jnp.asarray(4)),
            f(lambda x, i: x.at[i].set(1.0), x, jnp.asarray(5)),
            f(lambda x, i: x.at[i].get(mode="fill"), x, jnp.asarray(4))]


def p_index_under_vmap(jax, jnp, ck):
    x, i = jnp.arange(3.0), jnp.asarray([1, 7, 9])
    inner = ck.checkify(lambda x, i: jax.vmap(lambda j: x[j])(i), errors=ck.index_checks)
    outer = jax.vmap(ck.checkify(lambda x, i: x[i], errors=ck.index_checks), in_axes=(None, 0))
    return [_msg(inner(x, i)[0]), _msg(outer(x, i)[0])]


def p_div(jax, jnp, ck):
    f = lambda g, *a: _msg(ck.checkify(g, errors=ck.div_checks)(*a)[0])  # noqa: E731
    one, zero = jnp.asarray(1), jnp.asarray(0)
    return [f(lambda a, b: a // b, one, zero), f(lambda a, b: a / b, one, zero),
            f(lambda a, b: a % b, one, zero),
            f(lambda a, b: a / b, jnp.asarray([1.0, 2.0]), jnp.asarray([1.0, 0.0])),
            _msg(ck.checkify(lambda a, b: a / b, errors=ck.float_checks)(
                jnp.asarray(1.0), jnp.asarray(0.0))[0])]


def p_div_mean_of_empty(jax, jnp, ck):
    # the mean of an empty axis is 0 / 0 in JAX, a division by zero (round 26a: fgrad divided
    # by NaN, so div_checks missed it)
    f = lambda a: _msg(ck.checkify(jnp.mean, errors=ck.div_checks)(a)[0])  # noqa: E731
    return [f(jnp.zeros(0)), f(jnp.zeros(3)), _msg(ck.checkify(lambda a: jnp.mean(a, axis=0),
                                                               errors=ck.div_checks)(jnp.zeros((0, 2)))[0])]


def p_custom_jvp_functions(jax, jnp, ck):
    f = ck.checkify(lambda x: jax.nn.softplus(x) * jnp.log(x), errors=ck.all_checks)
    g = jax.grad(lambda x: ck.checkify(jnp.linalg.norm, errors=ck.all_checks)(x)[1])
    return [_msg(f(jnp.asarray(-1.0))[0]), np.round(np.asarray(g(jnp.asarray([3.0, 4.0]))), 12).tolist()]


def p_debug_check(jax, jnp, ck):
    def f(x):
        ck.debug_check(x != 0, "cannot be zero! {}", x)
        ck.check(x != 0, "dbg {}", x, debug=True)
        return x
    zero = jnp.asarray(0.0)
    return [float(f(zero)), float(jax.jit(f)(zero)), _msg(jax.jit(ck.checkify(f))(zero)[0]),
            ck.init_error.get()]



def p_dynamic_slices(jax, jnp, ck):
    f = lambda g, *a: _msg(ck.checkify(g, errors=ck.index_checks)(*a)[0])  # noqa: E731
    x = jnp.arange(3.0)

    def ds(x, i):
        return jax.lax.dynamic_slice(x, (i,), (2,))

    def dus(x, i):
        return jax.lax.dynamic_update_slice(x, jnp.ones(2), (i,))

    def loop(x):
        return jax.lax.fori_loop(0, 3, lambda i, c: c + jax.lax.dynamic_slice_in_dim(x, i * 2, 2).sum(), 0.0)

    out = [f(ds, x, jnp.asarray(i)) for i in (5, 2, -1, 1, -3)]
    out += [f(dus, x, jnp.asarray(2)), f(lambda x, i: jax.lax.dynamic_index_in_dim(x, i), x, jnp.asarray(5)),
            f(lambda m, i: jax.lax.dynamic_slice(m, (1, i), (2, 2)), jnp.ones((3, 4)), jnp.asarray(3)),
            f(loop, jnp.arange(5.0)), f(lambda x: jax.lax.dynamic_slice(x, (2,), (2,)), x)]
    jf = jax.jit(ds)  # compiled outside checkify first: checkify must not reuse that program
    out += [float(jf(x, jnp.asarray(5))[0]), f(jf, x, jnp.asarray(5)), float(jf(x, jnp.asarray(5))[0])]
    return out


def p_jit_inside(jax, jnp, ck):  # a jitted function inside checkify, under vmap, grad and jit
    def f(x):  # (1-element vectors: fgrad's jit returns 0-d results on the host under the fake device)
        ck.check(x[0] > 0, "x must be positive, got {}", x[0])
        return jnp.log(x) * jnp.sqrt(x)
    jf = jax.jit(f)
    c = ck.checkify(jf, errors=ck.all_checks)
    nested = jax.jit(ck.checkify(lambda x: jax.jit(lambda y: jf(y) * 2)(x), errors=ck.nan_checks))
    one = lambda v: jnp.asarray([v])  # noqa: E731
    return [jax.vmap(c)(jnp.asarray([[1.0], [-2.0], [3.0], [-4.0]]))[0].get(), c(one(-1.0))[0].get(),
            c(one(2.0))[0].get(), round(float(jax.grad(lambda x: c(x)[1].sum())(one(2.0))[0]), 12),
            ck.checkify(lambda x: jf(x) + jf(-x), errors=ck.all_checks)(one(1.0))[0].get(),
            nested(one(-1.0))[0].get()]

def p_outside_checkify_under_transforms(jax, jnp, ck):  # a failing check raises when it runs
    def f(x):
        ck.check(x > 0, "neg {}", x)
        return x * x

    def outcome(fn):
        try:
            return float(fn())
        except ck.JaxRuntimeError as e:
            return str(e)
    return [outcome(lambda: jax.vmap(f)(jnp.asarray([1.0, -2.0, 3.0, -4.0]))[0]),
            outcome(lambda: jax.grad(f)(-1.0)), outcome(lambda: jax.grad(f)(2.0))]


def p_switch_map_and_batched_cond(jax, jnp, ck):
    def f(x):
        return jax.lax.cond(x > 0, lambda x: jnp.log(x), lambda x: x, x)

    def g(i, x):
        return jax.lax.switch(i, [lambda x: x, lambda x: jnp.sqrt(x), lambda x: x[None][i]], x)

    def h(x):
        ck.check(x < 5, "big {}", x)
        return x
    xs = jnp.asarray([1.0, -2.0, 3.0])
    # a cond with a batched predicate computes both branches (in JAX too): the NaN is reported
    return [ck.checkify(jax.vmap(f), errors=ck.nan_checks)(xs)[0].get(),
            jax.vmap(ck.checkify(f, errors=ck.nan_checks))(xs)[0].get(),
            ck.checkify(g, errors=ck.all_checks)(jnp.asarray(1), jnp.asarray(-1.0))[0].get(),
            ck.checkify(g, errors=ck.all_checks)(jnp.asarray(2), jnp.asarray(-1.0))[0].get(),
            ck.checkify(lambda xs: jax.lax.map(h, xs))(jnp.arange(8.0))[0].get()]


PROGRAMS = {name[2:]: fn for name, fn in sorted(globals().items()) if name.startswith("p_")}

# JAX 0.10.2 (x64) on each program
_OOB = "out-of-bounds indexing for array of shape ({}): index {} is out of bounds for axis {} with size {}. "
STORED = {
    "user": "x must be positive, got -1.0 (`check` failed)",
    "user_ok": None,
    "format_kwargs": "x=-1.00 y=[0 1 2] z=-2.0 (`check` failed)",
    "vector_payload": "bad x [ 1. -1.] (`check` failed)",
    "first_error_wins": "first -20.0 (`check` failed)",
    "jit_of_checkify": "x must be positive, got -1.0 (`check` failed)",
    "checkify_of_jit": "x must be positive, got -1.0 (`check` failed)",
    "checkify_of_vmap": "x must be positive, got -6.0 (`check` failed)",
    "vmap_of_checkify": "at mapped index 1: x must be positive, got -2.0 (`check` failed)\n"
                        "at mapped index 3: x must be positive, got -4.0 (`check` failed)",
    "vmap_two_sites": ["at mapped index 1: B -1.0 (`check` failed)\n"
                       "at mapped index 2: A -5.0 (`check` failed)",
                       "A -5.0 (`check` failed)"],
    "nested_vmap": "at mapped index 0, 1: neg -1.0 (`check` failed)\n"
                   "at mapped index 1, 0: neg -2.0 (`check` failed)",
    "checkify_of_grad": "x must be positive, got -1.0 (`check` failed)",
    "grad_of_checkified": 0.5,
    "scan": ["carry too big: 16.0 at step 4 (`check` failed)", 64.0],
    "while": ["while carry 16.0 (`check` failed)", 128.0],
    "cond": ["nan generated by primitive: log.", None],
    "fori_index": _OOB.format("3,", 3, 0, 3),
    "check_error": ["x must be positive, got -1.0 (`check` failed)"] * 2,
    "nan": ["nan generated by primitive: sin.", "nan generated by primitive: add.",
            "nan generated by primitive: mul.", "nan generated by primitive: log1p.",
            "nan generated by primitive: pow.", "nan generated by primitive: asin.",
            "nan generated by primitive: reduce_sum.", "nan generated by primitive: rem.", None,
            "nan generated by primitive: log."],
    "nan_in_backward_pass": ["nan generated by primitive: sqrt.", "NaNError"],
    "index": [_OOB.format("3,", 5, 0, 3), _OOB.format("3,", -2, 0, 3), None, _OOB.format("3, 4", 7, 0, 3),
              _OOB.format("3,", 4, 0, 3), _OOB.format("3,", 4, 0, 3), _OOB.format("3,", 5, 0, 3),
              _OOB.format("3,", 4, 0, 3)],
    "index_under_vmap": [_OOB.format("3,", 7, 0, 3),
                         "at mapped index 1: " + _OOB.format("3,", 7, 0, 3) + "\nat mapped index 2: "
                         + _OOB.format("3,", 9, 0, 3)],
    "div": ["division by zero", "division by zero", None, "division by zero", "division by zero"],
    "div_mean_of_empty": ["division by zero", None, "division by zero"],
    "custom_jvp_functions": ["nan generated by primitive: log.", [0.6, 0.8]],
    "debug_check": [0.0, 0.0, "cannot be zero! 0.0 (`check` failed)", None],
    "outside_checkify_under_transforms": ["neg -4.0 (`check` failed)", "neg -1.0 (`check` failed)", 4.0],
    "switch_map_and_batched_cond": ["nan generated by primitive: log.", None,
                                    "nan generated by primitive: sqrt.", _OOB.format("1,", 2, 0, 1),
                                    "big 5.0 (`check` failed)"],
    "jit_inside": ["at mapped index 1: x must be positive, got -2.0 (`check` failed)\n"
                   "at mapped index 3: x must be positive, got -4.0 (`check` failed)",
                   "x must be positive, got -1.0 (`check` failed)", None, 0.952171317054,
                   "x must be positive, got -1.0 (`check` failed)", "nan generated by primitive: log."],
    "dynamic_slices": [_OOB.format("3,", 5, 0, 3), _OOB.format("3,", 2, 0, 3), _OOB.format("3,", 2, 0, 3),
                       None, None, _OOB.format("3,", 2, 0, 3), _OOB.format("3,", 5, 0, 3),
                       _OOB.format("3, 4", 3, 1, 4), _OOB.format("5,", 4, 0, 5), _OOB.format("3,", 2, 0, 3),
                       1.0, _OOB.format("3,", 5, 0, 3), 1.0],
}


def test_every_program_has_a_stored_result():
    assert sorted(STORED) == sorted(PROGRAMS)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_checkify_matches_stored_jax(name):
    got = PROGRAMS[name](*_fgrad_mods())
    assert got == pytest.approx(STORED[name]) if isinstance(STORED[name], float) else got == STORED[name]


# JAX compiles each program (about half a second each): a sample runs by default, all of them
# with ``-m slow``
_LIVE_SAMPLE = {"user", "vmap_of_checkify", "checkify_of_vmap", "scan", "nan", "index", "div"}


@pytest.mark.parametrize("name", [n if n in _LIVE_SAMPLE else pytest.param(n, marks=pytest.mark.slow)
                                  for n in sorted(PROGRAMS)])
def test_stored_results_are_jax_live(name):
    got = PROGRAMS[name](*_jax_mods())
    assert got == pytest.approx(STORED[name]) if isinstance(STORED[name], float) else got == STORED[name]


# ---- behaviour outside checkify, the Error object, bad input -------------------------------

def test_failing_check_outside_checkify_raises_jax_runtime_error():
    with pytest.raises(fck.JaxRuntimeError, match=r"^eager 3 \(`check` failed\)$"):
        fck.check(fnp.asarray(False), "eager {}", fnp.asarray(3))
    with pytest.raises(ValueError):  # JaxRuntimeError is a ValueError, as JAX's
        fck.check(False, "plain")
    assert fck.check(True, "fine") is None


def test_check_error_outside_checkify_raises_and_passes():
    f = fck.checkify(_positive(fck, fnp))
    err, _ = f(fnp.asarray(-1.0))
    with pytest.raises(fck.JaxRuntimeError, match="got -1.0"):
        fck.check_error(err)
    fck.check_error(f(fnp.asarray(1.0))[0])  # no error: nothing raised


def test_error_object_api():
    err, y = fck.checkify(_positive(fck, fnp))(fnp.asarray(-1.0))
    assert np.isnan(float(y))
    assert str(err) == "Error(x must be positive, got -1.0 (`check` failed))"
    exc = err.get_exception()
    assert isinstance(exc, fck.FailedCheckError) and isinstance(exc, fck.JaxException)
    with pytest.raises(fck.JaxRuntimeError, match="x must be positive"):
        err.throw()
    ok, _ = fck.checkify(_positive(fck, fnp))(fnp.asarray(1.0))
    assert ok.get() is None and ok.get_exception() is None and ok.throw() is None
    leaves = fgrad.tree_util.tree_leaves(err)
    assert [np.asarray(v).tolist() for v in leaves[:1]] == [True]


def test_error_sets_are_unions():
    assert fck.float_checks == fck.nan_checks | fck.div_checks
    assert fck.automatic_checks == fck.float_checks | fck.index_checks
    assert fck.all_checks == fck.automatic_checks | fck.user_checks


def test_user_checks_off_ignores_checks():
    err, _ = fck.checkify(_positive(fck, fnp), errors=fck.nan_checks)(fnp.asarray(-1.0))
    assert err.get() == "nan generated by primitive: log."  # the check itself is not reported


def test_bad_input_errors():
    with pytest.raises(TypeError, match="check takes a scalar pred"):
        fck.checkify(lambda x: fck.check(x > 0, "vec"))(fnp.ones(2))
    with pytest.raises(TypeError, match="check takes a scalar pred"):
        fck.check(1, "int pred")
    with pytest.raises(TypeError, match="need to be PyTrees of arrays"):
        fck.check(fnp.asarray(True), "x {}", 3)
    with pytest.raises(TypeError, match="errors must be a set of checkify error kinds"):
        fck.checkify(lambda x: x, errors={ValueError})


def test_jit_of_checkify_is_cached_and_checks_every_call():
    calls = []

    def f(x):
        calls.append(1)
        fck.check(x < 3, "too big {}", x)
        return x + 1

    g = fgrad.jit(fck.checkify(f))
    msgs = [g(fnp.asarray(float(v)))[0].get() for v in (1, 5, 2, 7)]
    assert msgs == [None, "too big 5.0 (`check` failed)", None, "too big 7.0 (`check` failed)"]
    assert len(calls) == 1  # traced once


def test_python_scalar_arguments_stay_static_as_in_jax():
    def f(x, n):
        if n > 2:  # a Python int: usable in Python control flow, as with JAX's checkify
            fck.check(x > 0, "neg {}", x)
        return x * n
    err, y = fck.checkify(f)(fnp.asarray(-1.0), 3)
    assert err.get() == "neg -1.0 (`check` failed)" and float(y) == -3.0


def test_derivative_through_checkified_scan_and_cond():
    def f(x):
        def body(c, _):
            fck.check(c > 0, "c={}", c)
            return fgrad.lax.cond(c > 1, lambda c: c * x, lambda c: c + x, c), None
        return fgrad.lax.scan(body, x, None, length=3)[0]

    def checked(x):
        return fck.checkify(f, errors=fck.all_checks)(x)[1]

    x = 1.3
    eps = 1e-6
    fd = (float(checked(x + eps)) - float(checked(x - eps))) / (2 * eps)
    assert float(fgrad.grad(checked)(x)) == pytest.approx(fd, rel=1e-6)
    assert float(fgrad.grad(checked)(x)) == pytest.approx(float(fgrad.grad(f)(x)))


def test_fake_device_state_follows_the_operands():
    # the error state is created like the first argument: no device mismatch on any backend
    err, y = fgrad.jit(fck.checkify(lambda x: fnp.log(x), errors=fck.nan_checks))(fnp.asarray([-1.0]))
    assert err.get() == "nan generated by primitive: log."



def test_unfunctionalized_check_under_jit_raises_when_it_runs():
    # JAX refuses to trace this (ValueError); fgrad stages it and raises when it fails
    f = fgrad.jit(_positive(fck, fnp))
    assert float(f(fnp.asarray(1.0))) == 0.0
    with pytest.raises(fck.JaxRuntimeError, match="got -1.0"):
        f(fnp.asarray(-1.0))


@settings(max_examples=15, deadline=None)
@given(n=st.integers(1, 5), idx=st.lists(st.integers(-9, 9), min_size=1, max_size=4),
       batched=st.booleans())
def test_hypothesis_index_messages(n, idx, batched):
    x = fnp.arange(float(n))
    bad = [i for i in idx if not -n <= i < n]

    def expected(i):
        shown = i + n if i < 0 else i
        return _OOB.format(f"{n},", shown, 0, n)

    if not batched:  # one gather of all the indices: the first bad one is reported
        err, y = fck.checkify(lambda x, i: x[i], errors=fck.index_checks)(x, fnp.asarray(idx))
        assert err.get() == (expected(bad[0]) if bad else None)
        # the value is still computed (clamped), as without checkify
        assert np.asarray(y).tolist() == np.asarray(x[fnp.asarray(idx)]).tolist()
    else:  # vmapped over the indices: one line per bad example
        err, _ = fgrad.vmap(fck.checkify(lambda i: x[i], errors=fck.index_checks))(fnp.asarray(idx))
        lines = [f"at mapped index {k}: {expected(i)}" for k, i in enumerate(idx) if not -n <= i < n]
        assert err.get() == ("\n".join(lines) if lines else None)


@pytest.mark.parametrize("mods", [_fgrad_mods, _jax_mods], ids=["fgrad", "jax"])
@pytest.mark.parametrize("shape,index", [((3,), 5), ((3,), -5), ((3,), 2), ((3,), -3), ((2, 3), (1, 7)),
                                         ((2, 3), (-3, 0))])
def test_static_integer_index_out_of_bounds_is_reported(mods, shape, index):
    """``x[5]`` with a Python int (a static index, clamped) is an OOB error under
    ``index_checks``, as JAX reports it (fgrad checked only traced indices)."""
    jax, jnp, ck = mods()
    x = jnp.arange(float(np.prod(shape))).reshape(shape)
    err, y = ck.checkify(lambda x: x[index], errors=ck.index_checks)(x)
    idx = index if isinstance(index, tuple) else (index,)
    bad = [(axis, i) for axis, i in enumerate(idx) if not -shape[axis] <= i < shape[axis]]
    if not bad:
        assert err.get() is None
    else:
        axis, i = bad[0]
        assert err.get() == _OOB.format(", ".join(map(str, shape)) + ("," if len(shape) == 1 else ""),
                                        i + shape[axis] if i < 0 else i, axis, shape[axis])
    clamped = tuple(min(max(i + s if i < 0 else i, 0), s - 1) for i, s in zip(idx, shape))
    assert float(y) == float(np.arange(float(np.prod(shape))).reshape(shape)[clamped])
