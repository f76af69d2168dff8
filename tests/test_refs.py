"""Mutable array references (`fgrad.Ref`, `new_ref`, ...): JAX's results (stored from JAX
0.10.2 and live), JAX's errors, and the rules under jit/grad/vmap (the effects ``ref_load`` and ``ref_store``
of jit-compiled programs, their JVP and batching rules' errors)."""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.ops.refs import RefEffectError

sys.path.insert(0, os.path.dirname(__file__))
import ref_cases as cases  # noqa: E402

STORED = json.load(open(os.path.join(os.path.dirname(__file__), "stored", "jax_refs.json")))
NS = cases.Namespace(fgrad, fnp)


def _close(got, want):
    np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float),
                               rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_matches_stored_jax(name):
    got = [np.asarray(v).tolist() for v in cases._leaves(cases.CASES[name](NS))]
    want = STORED["values"][name]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _close(g, w)


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_errors_match_jax(name):
    got = cases.ERRORS[name]
    with pytest.raises(Exception) as info:
        got(NS)
    builtin = [c.__name__ for c in type(info.value).__mro__ if c.__module__ == "builtins"][0]
    assert builtin == STORED["errors"][name]


def test_matches_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    jax.config.update("jax_enable_x64", True)
    live = cases.run_all(cases.Namespace(jax, jnp))
    assert live["errors"] == STORED["errors"]
    for name, want in live["values"].items():
        for g, w in zip(STORED["values"][name], want):
            _close(g, w)


def test_grad_through_a_local_ref_by_finite_differences():
    def loss(x):
        r = fgrad.new_ref(fnp.zeros(3))
        for i in range(3):
            r[i] = fnp.sin(x * (i + 1))
        r[...] = r[...] * r[...]
        return fnp.sum(r[...])

    x, eps = 0.37, 1e-6
    fd = (float(loss(x + eps)) - float(loss(x - eps))) / (2 * eps)
    np.testing.assert_allclose(float(fgrad.grad(loss)(x)), fd, rtol=1e-7)
    np.testing.assert_allclose(float(fgrad.jit(fgrad.grad(loss))(x)), fd, rtol=1e-7)


def test_jit_program_reads_the_current_value_not_a_traced_constant():
    """A jitted function closing over a Ref re-reads it each call (a regression guard: a
    captured constant would keep the first value)."""
    c = fgrad.new_ref(fnp.ones(2))
    f = fgrad.jit(lambda x: x + c[...])
    for k in range(1, 4):
        c[...] = fnp.full((2,), float(k))
        np.testing.assert_array_equal(np.asarray(f(fnp.zeros(2))), [k, k])


def test_pytree_leaf_and_types():
    r = fgrad.new_ref(fnp.arange(3.0))
    assert fgrad.tree_util.tree_leaves({"a": r, "b": 1.0})[0] is r
    assert isinstance(r, fgrad.Ref) and fgrad.ref.Ref is fgrad.Ref
    assert repr(r.aval) == "Ref{float64[3]}"
    assert len(r) == 3 and r.ndim == 1 and r.size == 3
    with pytest.raises(TypeError):
        bool(r)
    with pytest.raises(TypeError):
        np.asarray(r)
    with pytest.raises(NotImplementedError):
        _ = r.at


def test_weak_python_scalars_cast_within_their_kind():
    r = fgrad.new_ref(fnp.zeros(2, dtype=np.float32))
    r[0] = 7.0
    assert r[...].dtype == np.float32 and float(r[0]) == 7.0
    u = fgrad.new_ref(fnp.zeros(2, dtype=np.uint8))
    u[1] = 3
    assert int(u[1]) == 3 and u.dtype == np.uint8
    with pytest.raises(ValueError, match="Invalid dtype"):
        r[0] = np.float64(1.0)


def test_tree_map_over_refs_reads_each():
    refs = {"w": fgrad.new_ref(fnp.ones(2)), "b": fgrad.new_ref(fnp.zeros(()))}
    vals = fgrad.tree_util.tree_map(lambda r: r[...], refs)
    np.testing.assert_array_equal(np.asarray(vals["w"]), [1.0, 1.0])


def test_writing_a_mapped_ref_argument_under_vmap_is_not_supported():
    r = fgrad.new_ref(fnp.zeros((2, 3)))
    with pytest.raises(NotImplementedError, match="mapped argument"):
        fgrad.vmap(lambda ref: ref.__setitem__(..., fnp.ones(3)))(r)
    # unmapped (in_axes=None): unbatched writes reach the caller's Ref
    fgrad.vmap(lambda ref, x: ref.__setitem__(0, fnp.full((3,), 4.0)), in_axes=(None, 0))(r, fnp.arange(2.0))
    np.testing.assert_array_equal(np.asarray(r[0]), [4.0, 4.0, 4.0])


def test_jit_called_in_a_loop_accumulates():
    total = fgrad.new_ref(fnp.zeros(()))
    add = fgrad.jit(lambda x: total.addupdate(fnp.sum(x)))
    for k in range(5):
        add(fnp.full((3,), float(k)))
    assert float(total[...]) == 3.0 * sum(range(5))


def test_effect_error_is_an_exception_like_jax():
    assert issubclass(RefEffectError, Exception) and not issubclass(RefEffectError, (TypeError, ValueError))
    c = fgrad.new_ref(fnp.zeros(()))
    with pytest.raises(Exception, match="differentiated value"):
        fgrad.grad(lambda x: (c.__setitem__(..., x), x)[1])(1.0)


def test_empty_ref_and_errors():
    e = fgrad.empty_ref(fgrad.ShapeDtypeStruct((2, 2), np.float32))
    assert e.shape == (2, 2) and e.dtype == np.float32
    with pytest.raises(TypeError):
        fgrad.new_ref([1.0, 2.0])
    with pytest.raises(TypeError):
        fgrad.freeze(fnp.ones(2))
