"""Round 16 of the JAX programs (tests/jax_programs_round16/): research-style programs of kinds
the earlier rounds lacked -- REINFORCE on a pure-JAX CartPole, a Fourier neural operator with
complex weights, a WGAN with gradient penalty built with stax, a VQ-VAE with a
straight-through estimator and EMA codebook, and the others listed in
docs/jax-programs-round16.md -- run unchanged with ``import jax`` resolved to fgrad
(``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with ``JAX_ENABLE_X64=1``,
their output compared with JAX 0.10.2's (stored in ``jax_programs_round16/expected/``; live
JAX in the slow tests), as in round 8 (`test_jax_programs_round8.same_output`).  Below them,
the regression tests of the defects the programs found.

The default run runs two programs in 32-bit mode; ``pytest tests/test_jax_programs_round16.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.core.executor import straight_line
from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round16"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"vq_vae", "wgan_gp"}  # the default run's programs (32-bit mode)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 8)


# ---- regression tests of what the programs found ----------------------------------------------


def _both_broadcast(a, b):
    return fnp.broadcast_to(a, (3,)) - fnp.broadcast_to(b, (3,))


def test_jit_keeps_one_of_two_broadcast_operands_full():
    """wgan_gp (``random.randint`` inside a ``fori_loop``): an elementwise op both of whose
    operands were ``broadcast_in_dim`` of scalars.  jit's pass that lets NumPy broadcast an
    operand (``unbroadcast_operands``) judged each operand against the others' shapes before
    any was replaced, so both lost their broadcast: ``jit`` returned a 0-d array for a
    (3,) result (silently), and a loop body using it failed in NumPy (``return arrays must
    be of ArrayType``)."""
    got = fgrad.jit(_both_broadcast)(fnp.float32(1.0), fnp.float32(2.0))
    assert got.shape == (3,) and np.array_equal(np.asarray(got), [-1.0, -1.0, -1.0])
    where = fgrad.jit(lambda c, a, b: fnp.where(fnp.broadcast_to(c, (3,)), fnp.broadcast_to(a, (3,)),
                                                 fnp.broadcast_to(b, (3,))))(True, 1.0, 2.0)
    assert where.shape == (3,) and np.array_equal(np.asarray(where), [1.0, 1.0, 1.0])
    assert float(fgrad.jit(lambda a, b: _both_broadcast(a, b).sum())(1.0, 2.0)) == -3.0
    step = lambda a, b: lambda i, c: c + _both_broadcast(a, b) * c  # noqa: E731
    looped = fgrad.jit(lambda a, b: lax.fori_loop(0, 2, step(a, b), fnp.ones(3)))
    assert np.array_equal(np.asarray(looped(1.0, 2.0)), np.zeros(3))


def test_host_executor_keeps_one_of_two_broadcast_operands_full():
    """The straight-line executor's own version of the same shortcut (a ``broadcast_in_dim``
    read only by ufuncs becomes a reshape, NumPy broadcasting it) took the other operand's
    shape as full even when that operand was itself such a reshape: ``[-1.]`` for
    ``[-1., -1., -1.]``."""
    jaxpr = fgrad.make_jaxpr(_both_broadcast)(1.0, 2.0).jaxpr
    out = straight_line(jaxpr)(np, [np.float64(1.0), np.float64(2.0)])[0]
    assert np.array_equal(out, [-1.0, -1.0, -1.0])
