"""Round 18 of the JAX programs (tests/jax_programs_round18/): research-style programs of kinds
the earlier rounds lacked -- Newton-Krylov on ``jvp`` operators with ``gmres``/``cg`` and an
implicit derivative by ``custom_linear_solve``, a hand-written pytree L-BFGS with a ring
buffer, ``fori_loop`` two-loop recursion, ``while_loop`` line search and ``donate_argnums``,
and the others listed in docs/jax-programs-round18.md -- run unchanged with ``import jax``
resolved to fgrad (``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with
``JAX_ENABLE_X64=1``, their output compared with JAX 0.10.2's (stored in
``jax_programs_round18/expected/``; live JAX in the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round18.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round18"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"switch_state_machine"}  # the default run's program (32-bit mode)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 6)


# ---- regression tests of what the programs found ----------------------------------------------

# JAX 0.10.2's einsum("i...,j...->ij", a, b) and friends for a = arange(30).reshape(5, 2, 3)
_A = np.arange(30.0).reshape(5, 2, 3)
_B = np.arange(12.0).reshape(2, 2, 3)
_ELLIPSIS_SUMMED_JAX = {
    ("i...,j...->ij", 2): [[55.0, 145.0], [145.0, 451.0], [235.0, 757.0], [325.0, 1063.0], [415.0, 1369.0]],
    ("i...->i", 1): [15.0, 51.0, 87.0, 123.0, 159.0],
    ("...->", 1): 435.0,
}


def test_einsum_sums_ellipsis_dimensions_left_out_of_the_output():
    """neural_tangent_kernel (the Jacobian-contraction NTK, ``tree.map(lambda a, b:
    jnp.einsum("i...,j...->ij", a, b), ja, jb)``): fgrad raised NumPy's ValueError "output
    has more dimensions than subscripts given ... no '...' ellipsis" where JAX (opt_einsum's
    parser) sums the ellipsis dimensions an explicit output leaves out."""
    for (spec, n), want in _ELLIPSIS_SUMMED_JAX.items():
        got = fnp.einsum(spec, *(_A, _B)[:n])
        assert np.array_equal(np.asarray(got), want), spec
    # broadcast ellipses of different ranks, under jit, and the gradient
    c = np.arange(6.0).reshape(2, 3)
    assert np.array_equal(np.asarray(fgrad.jit(lambda x, y: fnp.einsum("i...,j...->ij", x, y))(_A, c)),
                          np.einsum("ike,je->ij", _A, c))  # a's ellipsis (2, 3), c's (3,)
    g = fgrad.grad(lambda x: fnp.einsum("i...,j...->ij", x, _B).sum())(_A)
    assert np.array_equal(np.asarray(g), np.broadcast_to(_B.sum(0), _A.shape))


def test_einsum_ellipsis_summed_live_jax():
    pytest.importorskip("jax")
    import jax.numpy as jnp
    for (spec, n), want in _ELLIPSIS_SUMMED_JAX.items():
        assert np.array_equal(np.asarray(jnp.einsum(spec, *(_A, _B)[:n])), want), spec
