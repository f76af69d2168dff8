"""More of JAX's top-level API: name stacks of named_scope/named_call, print options and
Array repr, clear_caches / live_arrays / print_environment_info, random.multinomial and
typed keys in fgrad.numpy's stack/concatenate/where (stored JAX 0.10 facts; live when jax
is installed)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import fgrad
import fgrad.numpy as fnp
import fgrad.random as random


def _scoped(named_scope, named_call, np_mod):
    def g(x):
        with named_scope("block"):
            y = np_mod.cos(x)
            with named_scope("inner"):
                y = named_call(lambda z: z * 2, name="dbl")(y)
        return np_mod.sin(y)

    return g


def test_name_stacks_match_jax():
    # JAX 0.10.2: [str(e.source_info.name_stack) for e in make_jaxpr(g)(1.0).eqns]
    stored = ["block", "block/inner/dbl", ""]
    jx = fgrad.make_jaxpr(_scoped(fgrad.named_scope, fgrad.named_call, fnp))(1.0)
    assert [e.source_info.name_stack for e in jx.eqns] == stored
    text = jx.pretty_print(name_stack=True)
    assert "# [block/inner/dbl]" in text and "# [block]" in text
    assert "#" not in str(jx)  # the default print carries no names (as in JAX)


def test_name_stacks_match_live_jax():
    jax = pytest.importorskip("jax")
    want = [str(e.source_info.name_stack)
            for e in jax.make_jaxpr(_scoped(jax.named_scope, jax.named_call, jax.numpy))(1.0).eqns]
    got = [e.source_info.name_stack
           for e in fgrad.make_jaxpr(_scoped(fgrad.named_scope, fgrad.named_call, fnp))(1.0).eqns]
    assert got == want


def test_named_call_default_name_and_jit_values():
    def layer(x):
        return fnp.tanh(x)

    jx = fgrad.make_jaxpr(fgrad.named_call(layer))(0.5)
    assert [e.source_info.name_stack for e in jx.eqns] == ["layer"]
    f = fgrad.jit(_scoped(fgrad.named_scope, fgrad.named_call, fnp))
    assert float(f(0.3)) == pytest.approx(np.sin(2 * np.cos(0.3)), rel=1e-14)
    with pytest.raises(TypeError, match="name must be a string"):
        with fgrad.named_scope(3):
            pass


# -- print options -----------------------------------------------------------------------------

REPRS = {  # JAX 0.10.2, float32 values [1.123456789, 2.0, 3e-5]
    "default": "Array([1.1234568e+00, 2.0000000e+00, 2.9999999e-05], dtype=float32)",
    "precision2_suppress": "Array([1.12, 2.  , 0.  ], dtype=float32)",
    "precision3": "Array([1.123e+00, 2.000e+00, 3.000e-05], dtype=float32)",
}


def _on_cpu(x):
    return fgrad.device_put(x, fgrad.local_devices(backend="cpu")[0]) if isinstance(x, fgrad.Array) else x


def _reprs(np_mod):
    x = _on_cpu(np_mod.asarray(np.array([1.123456789, 2.0, 3e-5], np.float32)))
    out = {"default": repr(x)}
    with np_mod.printoptions(precision=2, suppress=True):
        out["precision2_suppress"] = repr(x)
    old = np_mod.get_printoptions()["precision"]
    np_mod.set_printoptions(precision=3)
    try:
        out["precision3"] = repr(x)
    finally:
        np_mod.set_printoptions(precision=old)
    return out


def test_printoptions_change_the_repr_as_jax():
    assert _reprs(fnp) == REPRS
    assert fnp.get_printoptions()["precision"] == 8  # restored


def test_printoptions_match_live_jax():
    jax = pytest.importorskip("jax")
    assert _reprs(fnp) == _reprs(jax.numpy)


def test_repr_of_long_arrays_is_summarized():
    r = repr(_on_cpu(fnp.arange(2000.0, dtype=np.float32)))
    assert r.startswith("Array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03")
    assert r.endswith("dtype=float32)")


# -- runtime utilities ----------------------------------------------------------------------------

def test_clear_caches_forces_a_new_trace():
    traces = []

    @fgrad.jit
    def f(x):
        traces.append(1)
        return x * 2

    f(fnp.ones(2))
    f(fnp.ones(2))
    assert len(traces) == 1
    fgrad.clear_caches()
    np.testing.assert_array_equal(np.asarray(f(fnp.ones(2))), [2.0, 2.0])
    assert len(traces) == 2


def test_live_arrays_and_environment_info(capsys):
    x = fnp.asarray([1.0, 2.0])
    assert any(a is x for a in fgrad.live_arrays())
    assert all(isinstance(a, fgrad.Array) for a in fgrad.live_arrays("cpu"))
    text = fgrad.print_environment_info(return_string=True)
    assert text.startswith("fgrad:") and "numpy:" in text and "devices (" in text
    assert fgrad.print_environment_info() is None
    assert capsys.readouterr().out.strip() == text


# -- random: multinomial, keys in fgrad.numpy ----------------------------------------------------

def test_multinomial_moments():
    p = np.array([0.1, 0.2, 0.3, 0.4])
    n = 20
    c = np.asarray(random.multinomial(random.key(3), n, fnp.asarray(p), shape=(20000, 4)))
    assert c.dtype == np.float64 and c.shape == (20000, 4)
    assert (c.sum(-1) == n).all() and (c >= 0).all() and (c == np.round(c)).all()
    se = np.sqrt(n * p * (1 - p) / len(c))
    assert (np.abs(c.mean(0) - n * p) < 5 * se).all(), (c.mean(0), n * p)
    np.testing.assert_allclose(c.var(0), n * p * (1 - p), rtol=0.06)
    cov = np.cov(c.T)
    np.testing.assert_allclose(cov[0, 1], -n * p[0] * p[1], atol=0.06)
    # each marginal is Binomial(n, p_i): chi-square goodness of fit on the first outcome
    k = np.arange(n + 1)
    observed = np.bincount(c[:, 0].astype(int), minlength=n + 1)
    expected = stats.binom.pmf(k, n, p[0]) * len(c)
    keep = expected > 5
    chi2 = stats.chisquare(observed[keep], expected[keep] * observed[keep].sum() / expected[keep].sum())
    assert chi2.pvalue > 1e-3


def test_multinomial_shapes_dtypes_and_batches():
    key = random.key(0)
    assert random.multinomial(key, 10, fnp.asarray([0.2, 0.3, 0.5])).shape == (3,)
    c = random.multinomial(key, fnp.asarray([5.0, 10.0]), fnp.asarray([0.2, 0.3, 0.5]), shape=(2, 3))
    np.testing.assert_array_equal(np.asarray(c).sum(-1), [5.0, 10.0])
    assert random.multinomial(key, 4, [0.5, 0.5], dtype=np.float32).dtype == np.float32
    assert random.multinomial(random.PRNGKey(1), 4, [0.5, 0.5], unroll=2).shape == (2,)
    np.testing.assert_array_equal(np.asarray(random.multinomial(key, 7, [0.0, 1.0, 0.0])), [0, 7, 0])
    with pytest.raises(ValueError, match="must end with the number of outcomes"):
        random.multinomial(key, 4, [0.5, 0.5], shape=(3,))
    batched = fgrad.vmap(lambda k: random.multinomial(k, 6, [0.5, 0.5]))(random.split(key, 3))
    assert batched.shape == (3, 2) and (np.asarray(batched).sum(-1) == 6).all()


def test_multinomial_shape_matches_live_jax():
    jax = pytest.importorskip("jax")
    for n, p, shape in [(10, [0.2, 0.3, 0.5], None), (10, [0.2, 0.3, 0.5], (4, 3)),
                        ([5.0, 10.0], [0.2, 0.3, 0.5], (2, 3))]:
        want = jax.random.multinomial(jax.random.key(0), jax.numpy.asarray(n), jax.numpy.asarray(p),
                                      shape=shape)
        got = random.multinomial(random.key(0), fnp.asarray(n), fnp.asarray(p), shape=shape)
        assert got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got).sum(-1), np.asarray(want).sum(-1))


def test_typed_keys_in_stack_concatenate_where():
    k0, k1 = random.key(0), random.key(1)
    s = fnp.stack([k0, k1])
    assert s.shape == (2,) and str(s.dtype) == "key<fry>"
    data = [np.asarray(random.key_data(k)) for k in (k0, k1)]
    np.testing.assert_array_equal(np.asarray(random.key_data(s)), np.stack(data))
    assert fnp.stack([random.split(k0), random.split(k1)], axis=-1).shape == (2, 2)
    c = fnp.concatenate([random.split(k0), random.split(k1, 3)])
    assert c.shape == (5,)
    w = fnp.where(fnp.asarray([True, False]), random.split(k0), random.split(k1))
    want = np.stack([np.asarray(random.key_data(random.split(k0)))[0],
                     np.asarray(random.key_data(random.split(k1)))[1]])
    np.testing.assert_array_equal(np.asarray(random.key_data(w)), want)
    # the stacked keys draw as the keys do
    draws = fgrad.vmap(lambda k: random.normal(k))(s)
    np.testing.assert_array_equal(np.asarray(draws), [float(random.normal(k0)), float(random.normal(k1))])
    with pytest.raises(TypeError, match="cannot combine typed key arrays"):
        fnp.stack([k0, fnp.zeros(2, dtype=np.uint32)])


def test_typed_key_shapes_match_live_jax():
    jax = pytest.importorskip("jax")
    jr = jax.random
    assert jax.numpy.stack([jr.key(0), jr.key(1)]).shape == fnp.stack([random.key(0), random.key(1)]).shape
    assert jax.numpy.concatenate([jr.split(jr.key(0)), jr.split(jr.key(1), 3)]).shape == \
        fnp.concatenate([random.split(random.key(0)), random.split(random.key(1), 3)]).shape
    assert random.split(random.key(0), (2, 3)).shape == jr.split(jr.key(0), (2, 3)).shape


def test_choice_with_p_without_replacement():
    p = fnp.asarray([0.05, 0.05, 0.1, 0.3, 0.5])
    keys = random.split(random.key(7), 4000)
    draws = fgrad.vmap(lambda k: random.choice(k, 5, (3,), replace=False, p=p))(keys)
    d = np.asarray(draws)
    assert all(len(set(row)) == 3 for row in d)
    first = np.bincount(d[:, 0], minlength=5) / len(d)
    np.testing.assert_allclose(first, np.asarray(p), atol=0.03)  # the first draw follows p
    never = np.bincount(d.ravel(), minlength=5)
    assert never[4] > never[0]
