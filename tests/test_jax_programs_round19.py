"""Round 19 of the JAX programs (tests/jax_programs_round19/): research-style programs of kinds
the earlier rounds lacked -- a Linear Recurrent Unit by ``lax.associative_scan`` over complex
pairs, image registration with ``jax.scipy.ndimage.map_coordinates`` and ``jax.image``, a Cox
model by ``lax.cumlogsumexp``, int8 quantization-aware training with integer ``dot_general``,
``jnp.piecewise``/``vectorize``/``histogram``/``quantile``, a ``register_dataclass``
transformer with grouped-query ``jax.nn.dot_product_attention``, Lorenz sensitivities and
Lyapunov exponents, cubic splines by ``tridiagonal_solve``, and the others listed in
docs/jax-programs-round19.md -- run unchanged with ``import jax`` resolved to fgrad
(``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with ``JAX_ENABLE_X64=1``,
their output compared with JAX 0.10.2's (stored in ``jax_programs_round19/expected/``; live
JAX in the slow tests), as in round 8 (`test_jax_programs_round8.same_output`).

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round19.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round19"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"int8_quantization"}  # the default run's program (32-bit mode, ~3 s)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 8)


# ---- regression tests of what the programs found ----------------------------------------------

# JAX 0.10.2 (x64): random.gumbel(random.key(2), (4,), float64, mode="high") and
# random.categorical(random.key(3), [0.1, 0.5, -1.0, 2.0], ..., mode=...)
_GUMBEL_HIGH_F64 = [0.5947775976169221, 1.828664919945607, -0.09185041243418483, 0.5500437621940742]
_GUMBEL_HIGH_F32 = [-0.023571044206619263, -0.8366512656211853, 1.3416683673858643, -0.7578914761543274]
_LOGITS = [0.1, 0.5, -1.0, 2.0]
_CATEGORICAL = {("high", True): [3, 3, 3, 3, 3, 1, 1, 3], ("low", True): [0, 3, 0, 0, 0, 3, 3, 3],
                ("high", False): [3, 1, 2], ("low", False): [0, 3, 1]}


def _draws(random, jnp):
    g64 = random.gumbel(random.key(2), (4,), jnp.float64, mode="high")
    g32 = random.gumbel(random.key(2), (4,), jnp.float32, mode="high")
    cat = {(m, r): random.categorical(random.key(3), jnp.asarray(_LOGITS), shape=(8,) if r else (3,),
                                      replace=r, mode=m).tolist() for m, r in _CATEGORICAL}
    return g64, g32, cat


def test_gumbel_and_categorical_high_mode_are_jax_draws():
    """the probe of round 19 (``jax.random.gumbel(key, shape, mode="high")``, real code's
    high-dynamic-range Gumbel): fgrad's gumbel had no ``mode`` (TypeError), and categorical
    accepted ``mode="high"`` but drew with "low" -- different classes from JAX's, silently.
    The draws agree with JAX's within a few ulps (XLA's ``log``/``log1p``)."""
    import fgrad.random as random
    with fgrad.enable_x64(True):
        g64, g32, cat = _draws(random, fnp)
    # the uniforms are JAX's bit for bit; XLA's log/log1p round differently from NumPy's in the
    # last bit (docs/jax-programs-round18.md), so the draws agree within a few ulps
    np.testing.assert_allclose(np.asarray(g64), _GUMBEL_HIGH_F64, rtol=1e-15)
    np.testing.assert_allclose(np.asarray(g32), _GUMBEL_HIGH_F32, rtol=3e-7)
    assert cat == _CATEGORICAL
    with pytest.raises(ValueError, match="mode"):
        random.gumbel(random.key(0), (2,), mode="medium")
    with pytest.raises(NotImplementedError, match="highest"):
        random.gumbel(random.key(0), (2,), np.float32, mode="highest")


def test_gumbel_high_mode_live_jax():
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True):
        g64, g32, cat = _draws(jax.random, jax.numpy)
        assert np.asarray(g64).tolist() == _GUMBEL_HIGH_F64
        assert np.asarray(g32).tolist() == _GUMBEL_HIGH_F32
        assert cat == _CATEGORICAL


# JAX 0.10.2: the weak type of jax.scipy.special's several-argument functions on Python scalars
_SPECIAL_WEAK = {"polygamma": ((2, 1.5), True), "betainc": ((2.0, 3.0, 0.4), True),
                 "gammainc": ((2.5, 1.0), True), "gammaincc": ((2.5, 1.0), True), "zeta": ((3.0, 1.0), True),
                 "xlogy": ((2.0, 3.0), True), "xlog1py": ((2.0, 3.0), True), "betaln": ((2.0, 3.0), True),
                 "boxcox": ((2.0, 0.5), True), "boxcox1p": ((2.0, 0.5), True), "kl_div": ((2.0, 3.0), True),
                 "rel_entr": ((2.0, 3.0), True), "comb": ((5.0, 2.0), True),
                 "expn": ((2, 1.5), False), "hyp1f1": ((1.0, 2.0, 0.5), False),
                 "hyp2f1": ((1.0, 1.0, 2.0, 0.5), False), "beta": ((2.0, 3.0), False),
                 "owens_t": ((0.5, 0.3), False), "poch": ((2.0, 3.0), False)}


def _special_weak(special, jnp):
    got = {name: bool(getattr(special, name)(*args).weak_type) for name, (args, _) in _SPECIAL_WEAK.items()}
    # a strong operand makes the result strong
    got["betainc strong x"] = bool(special.betainc(2.0, 3.0, jnp.float32(0.4)).weak_type)
    return got


def test_special_functions_of_python_scalars_are_weak_as_in_jax():
    """the probe of round 19 (printing ``betainc(2.0, 3.0, 0.4)``, ``polygamma(2, 1.5)`` and
    other several-argument special functions of Python numbers): JAX's results are weakly
    typed (``promote_args_inexact``), fgrad's were strong (its common-dtype cast dropped the
    weak type), so reprs printed without ``weak_type=True`` and later float32 arithmetic with
    them could promote differently.  The functions whose JAX results are strong all the same
    stay strong."""
    import fgrad.scipy.special as special
    want = {name: w for name, (_, w) in _SPECIAL_WEAK.items()} | {"betainc strong x": False}
    assert _special_weak(special, fnp) == want
    # the dtype a weak result takes in float32 arithmetic
    with fgrad.enable_x64(True):
        assert (special.xlogy(2.0, 3.0) * fnp.ones(2, fnp.float32)).dtype == np.float32


def test_special_functions_weak_types_live_jax():
    jax = pytest.importorskip("jax")
    want = {name: w for name, (_, w) in _SPECIAL_WEAK.items()} | {"betainc strong x": False}
    assert _special_weak(jax.scipy.special, jax.numpy) == want
