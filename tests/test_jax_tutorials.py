"""JAX's own documentation tutorials, cell by cell (tests/jax_tutorials/, one script per
tutorial, rewritten with the same operations), run unchanged with ``import jax`` resolved to
fgrad (``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with
``JAX_ENABLE_X64=1``.  Their printed output is compared with JAX 0.10.2's, stored in
``jax_tutorials/expected/`` (and with the installed JAX by the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).  Below them, the regression tests of the defects
the tutorials found (docs/jax-tutorials.md).

The default run runs two tutorials in 32-bit mode; ``pytest tests/test_jax_tutorials.py -m
slow`` runs all of them in both modes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import fgrad
import fgrad.numpy as fnp
from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_tutorials"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"automatic_differentiation", "custom_interpreters"}  # the default run's (32-bit mode)
RTOL_PROGRAM: dict = {}

(
    test_tutorial_prints_what_jax_prints_32bit,
    test_tutorial_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_tutorial_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 3)


# ---- jaxpr variables and literals print as JAX's -------------------------------------------------


def _foo_and_bar(g, n):
    foo = g.make_jaxpr(lambda x: x + 1)(5).jaxpr
    bar = g.make_jaxpr(lambda w, b: n.dot(w, b) + n.ones(2))(n.ones((2, 3)), n.ones(3)).jaxpr
    return foo, bar


def test_jaxpr_variables_and_literals_print_as_jax():
    """"Writing custom Jaxpr interpreters" prints ``jaxpr.invars`` and ``eqn.invars``: JAX
    shows ``[Var(id=...):int32[]]`` and ``Literal(1.0)``; fgrad showed
    ``<fgrad.core.ir.Var object at 0x...>`` and the bare value ``1.0``."""
    with fgrad.enable_x64(False):
        foo, bar = _foo_and_bar(fgrad, fnp)
    v = foo.invars[0]
    assert repr(v) == f"Var(id={id(v)}):int32[]"
    assert str(foo.invars) == f"[Var(id={id(v)}):int32[]]"
    assert repr(foo.eqns[0].invars[1]) == "Literal(1)"
    ones = next(e for e in bar.eqns if e.primitive.name == "broadcast_in_dim")
    assert repr(ones.invars[0]) == "Literal(1.0)"
    assert repr(bar.outvars[0]).endswith(":float32[2]")


def test_jaxpr_variables_print_as_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")

    def masked(jaxprs):
        text = str([(j.invars, j.outvars, [e.invars for e in j.eqns]) for j in jaxprs])
        return re.sub(r"TypedInt\((\d+), dtype=\w+\)", r"\1", re.sub(r"id=\d+", "id=_", text))

    with fgrad.enable_x64(False):
        ours = masked(_foo_and_bar(fgrad, fnp))
    with jax.enable_x64(False):
        assert ours == masked(_foo_and_bar(jax, jnp))
