"""Round 14a of the JAX programs (tests/jax_programs_round14a/): programs in the style of
JAX's own documentation pages -- the Quickstart, "Just-in-time compilation", "Automatic
vectorization", "Custom derivative rules", and more (docs/jax-programs-round14a.md) -- run
unchanged with ``import jax`` resolved to fgrad (``python -m fgrad.jax_alias``), in JAX's
default 32-bit mode and with ``JAX_ENABLE_X64=1``, their output compared with JAX 0.10.2's
(stored in ``jax_programs_round14a/expected/``; live JAX in the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).  Below them, the regression tests of the defects
the programs found.

The default run runs two programs in 32-bit mode; ``pytest tests/test_jax_programs_round14a.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round14a"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"quickstart", "vectorization"}  # the default run's programs (32-bit mode)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 17)


# ---- weak types under vmap ---------------------------------------------------------------------


def test_weak_cast_of_a_batched_value_is_weak():
    """``convert_element_type(x, dtype, weak_type=True)`` of a strongly typed *batched* value
    was strong: the batching rule bound the cast on the batch and the weak mark was set only
    for eager arrays.  So per-example gradients of a weakly typed parameter
    (``vmap(grad(loss), in_axes=(None, 0))(jnp.array(2.0), xs)``, the "Automatic
    vectorization" page) lost the primal's weak type, which JAX's keep."""
    from fgrad.ops.elementwise import convert_element_type

    x = fnp.arange(3.0)
    assert fgrad.vmap(lambda v: convert_element_type(v, v.dtype, weak_type=True))(x).weak_type
    p = fnp.array(2.0)  # weakly typed, as in JAX 0.10
    per_example = fgrad.vmap(fgrad.grad(lambda p, x: p * x), (None, 0))(p, x)
    assert per_example.weak_type and per_example.tolist() == [0.0, 1.0, 2.0]
    inner = fgrad.vmap(lambda v: fgrad.grad(lambda q: q * v)(p))(x)
    assert inner.weak_type and inner.tolist() == [0.0, 1.0, 2.0]
    # a strong primal keeps strong derivatives
    assert not fgrad.vmap(fgrad.grad(lambda p, x: p * x), (None, 0))(fnp.float32(2.0), x).weak_type


def test_weak_cast_of_a_batched_value_matches_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")

    def cases(g, n):
        p, x = n.array(2.0), n.arange(3.0)
        return [g.vmap(g.grad(lambda p, x: p * x), (None, 0))(p, x),
                g.vmap(lambda v: g.grad(lambda q: q * v)(p))(x),
                g.vmap(g.grad(lambda p, x: n.sin(p) * x), (None, 0))({"a": p}["a"], x)]

    with jax.enable_x64(True):
        for got, want in zip(cases(fgrad, fnp), cases(jax, jnp)):
            assert (got.dtype, got.weak_type) == (want.dtype, want.weak_type)
            np.testing.assert_allclose(np.asarray(got), np.asarray(want))


# ---- lists inside the sequence of concatenate/stack ----------------------------------------------


JOINERS = ["concatenate", "concat", "stack", "hstack", "vstack", "dstack", "column_stack"]


def test_joining_rejects_nested_lists_as_jax():
    """``jnp.concatenate([[1, 2], jnp.array([3])])`` ("Sharp bits": non-array inputs) raises
    JAX's TypeError for the list element; fgrad converted it.  Arrays (NumPy's too) in a list
    or tuple stay accepted."""
    x = fnp.array([3, 4])
    for name in JOINERS:
        fn = getattr(fnp, name)
        for bad in ([[1, 2], x], ((1, 2), x), [[1, 2], [3, 4]]):
            with pytest.raises(TypeError, match=f"^{name} requires ndarray or scalar arguments.* position 0"):
                fn(bad)
        assert fn([np.array([1, 2]), x]).tolist() == fn((fnp.array([1, 2]), x)).tolist()


def test_joining_rejects_nested_lists_as_live_jax():
    jnp = pytest.importorskip("jax.numpy")
    for name in JOINERS:
        for make in (lambda m: [[1, 2], m.array([3, 4])], lambda m: [np.array([1, 2]), m.array([3, 4])]):
            try:
                want = getattr(jnp, name)(make(jnp)).tolist()
            except TypeError as e:
                with pytest.raises(TypeError, match="requires ndarray"):
                    getattr(fnp, name)(make(fnp))
                assert "requires ndarray" in str(e)
            else:
                assert getattr(fnp, name)(make(fnp)).tolist() == want
