"""Round 17 of the JAX programs (tests/jax_programs_round17/): research-style programs of kinds
the earlier rounds lacked -- a Kalman filter with an RTS smoother, a 1-D U-Net score model
with ``conv_transpose``, a Mamba selective scan by ``associative_scan``, a Llama-style decoder
scanned over stacked layers with grouped-query attention and checkpoint policies, typed PRNG
keys through every transform, ``jax.debug.print``/``callback`` in loops, pytree key paths, and
the others listed in docs/jax-programs-round17.md -- run unchanged with ``import jax``
resolved to fgrad (``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with
``JAX_ENABLE_X64=1``, their output compared with JAX 0.10.2's (stored in
``jax_programs_round17/expected/``; live JAX in the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).  Below them, the regression tests of the defects the
programs found.

The default run runs two programs in 32-bit mode; ``pytest tests/test_jax_programs_round17.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round17"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"debug_print_order", "pytree_keypaths"}  # the default run's programs (32-bit mode)
RTOL_PROGRAM: dict = {
    # the rotary embedding is computed in float32 and the attention softmax runs in float32
    # for float64 inputs too (as JAX's dot_product_attention does): XLA's float32 cos/sin/exp
    # are an ulp from NumPy's, so the 64-bit run agrees to float32's precision
    ("llama_scan_layers", "64"): 1e-6,
    # A = -exp(A_log) with A_log float32 by the program's choice: XLA's float32 exp is not
    # NumPy's (exp(float32(log 5)) is 5.0 in XLA, 5.0000005 in NumPy; ~40% of float32 inputs
    # differ by an ulp), so one entry of A differs by 1e-7 relative, and the 64-bit layer output
    # printed 7.63008490e-05 (a cancellation of terms ~1e-2) agrees to 1.3e-9; from the same
    # parameters every float64 intermediate before A agrees with JAX's to 3e-14 relative and
    # the sequential and associative scans differ from JAX's by the same amount (not the order)
    ("mamba_selective_scan", "64"): 1e-7,
}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 10)


# ---- regression tests of what the programs found ----------------------------------------------


def _seen(*args, **kwargs):
    seen = []
    fgrad.debug.callback(lambda *a, **k: seen.append((a, k)), *args, **kwargs)
    return seen[0]


def test_debug_callback_passes_python_numbers_as_weak_arrays():
    """debug_print_order (``jax.debug.print("{t}", t={"b": (1.5, x)})``): JAX hands every
    Python number in a debug callback's arguments to the callback as an Array of its canonical
    dtype, weakly typed (``Array(1.5, dtype=float32, weak_type=True)``; a bool strongly typed);
    fgrad passed the Python number through (and in 32-bit mode a float32 NumPy scalar for a
    float), so a printed pytree read ``1.5`` where JAX's reads ``Array(1.5, ..., weak_type=True)``."""
    (a, k) = _seen(1.5, 2, True, 1j, "s", None, y=[0.5])
    fl, i, b, c, s, n = a
    for v, kind, weak in ((fl, "f", True), (i, "i", True), (b, "b", False), (c, "c", True),
                          (k["y"][0], "f", True)):
        assert isinstance(v, fgrad.Array) and v.dtype.kind == kind and v.weak_type is weak, (v, kind, weak)
    assert fl.dtype == fnp.asarray(1.5).dtype and s == "s" and n is None
    arr = fnp.arange(2.0)
    (a2, _) = _seen(arr)
    assert a2[0].weak_type is False and np.array_equal(np.asarray(a2[0]), [0.0, 1.0])
    # the same under vmap (the unbatched number) and in a printed pytree
    seen = []
    fgrad.vmap(lambda v: fgrad.debug.callback(lambda x, y: seen.append(y), v, 2.5))(arr)
    assert [float(y) for y in seen] == [2.5, 2.5] and all(y.weak_type for y in seen)


def test_debug_print_of_a_pytree_with_numbers_reads_as_jax(capsys):
    with fgrad.default_device("cpu"):  # JAX's reprs, which name no device on the host
        fgrad.debug.print("t {t}", t=(1.5, True))
    dt = fnp.asarray(1.5).dtype.name
    want = f"t (Array(1.5, dtype={dt}, weak_type=True), Array(True, dtype=bool))"
    assert capsys.readouterr().out.strip() == want


def test_debug_print_of_numbers_live_jax():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    got = []
    jax.debug.callback(lambda *a: got.extend(a), 1.5, 2, True)
    jax.effects_barrier()
    assert [(type(v).__name__ != "float", v.dtype.kind, v.weak_type) for v in got] == \
        [(True, "f", True), (True, "i", True), (True, "b", False)]
    assert got[0].dtype == jnp.asarray(1.5).dtype


# JAX 0.10.2's X.T @ X for this X: nse, data, indices (sum_duplicates of all pairs)
_SPDOT_JAX = (4, [10.0, 0.0, 0.0, 4.0], [[0, 0], [0, 1], [1, 0], [1, 1]])


def test_sparse_sparse_product_sums_duplicates_as_jax():
    """sparse_logreg (``sparse.sparsify(lambda A: A.T @ A)``): the product of two BCOO arrays
    kept every pair of stored elements (nse = 3 * 3 = 9 for a 2 x 2 result, unmatched pairs as
    padding), where JAX sums the duplicates into ``min(nse_l * nse_r, result size)`` stored
    elements, sorted, explicit zeros kept: ``.nse``, ``.data`` and ``.indices`` differed (the
    dense values agreed)."""
    from fgrad.experimental import sparse
    X = sparse.BCOO.fromdense(fnp.array([[1.0, 0.0], [0.0, 2.0], [3.0, 0.0]]))
    for G in (X.T @ X, sparse.sparsify(lambda A: A.T @ A)(X), fgrad.jit(lambda A: A.T @ A)(X)):
        assert (G.nse, G.data.tolist(), G.indices.tolist()) == _SPDOT_JAX
    # padding and out-of-bound rows drop out; the result size caps the nse
    M = sparse.BCOO((fnp.array([1.0, 2.0, 3.0]), fnp.array([[0, 0], [3, 3], [0, 0]])), shape=(3, 3))
    Q = M @ M
    assert Q.nse == 9 and Q.data.tolist()[:2] == [16.0, 0.0] and Q.indices.tolist()[:2] == [[0, 0], [3, 3]]
    # batched: every batch keeps the same nse
    Y = sparse.BCOO.fromdense(fnp.arange(24.0).reshape(2, 3, 4) % 3, n_batch=1)
    Z = sparse.BCOO.fromdense(fnp.arange(24.0).reshape(2, 4, 3) % 2, n_batch=1)
    P = sparse.bcoo_dot_general(Y, Z, dimension_numbers=(((2,), (1,)), ((0,), (0,))))
    assert P.nse == 9 and np.array_equal(np.asarray(P.todense()), np.asarray(Y.todense() @ Z.todense()))
    # differentiable (JAX has no transpose rule for this product; fgrad's is the composition's)
    g = fgrad.grad(lambda d: (sparse.BCOO((d, X.indices), shape=X.shape).T
                              @ sparse.BCOO((d, X.indices), shape=X.shape)).data.sum())(X.data)
    assert np.allclose(np.asarray(g), 2 * np.asarray(X.data))


def test_sparse_sparse_product_live_jax():
    pytest.importorskip("jax")
    from jax.experimental import sparse as jsparse
    import jax.numpy as jnp
    X = jsparse.BCOO.fromdense(jnp.array([[1.0, 0.0], [0.0, 2.0], [3.0, 0.0]]))
    G = X.T @ X
    assert (G.nse, G.data.tolist(), G.indices.tolist()) == _SPDOT_JAX


def test_mean_and_var_divide_by_the_reciprocal_of_the_count():
    """sparse_logreg (``y.mean()`` of 21 ones and 19 zeros): JAX's ``mean``/``var`` divide by
    a constant count, which XLA computes as a product with the reciprocal, so a float32 mean
    is ``sum * float32(1 / n)``: 0.52500004 where fgrad's true division gave 0.525 (about half
    of all float32/float64 means differed by an ulp); float16/bfloat16 sum and divide in
    float32 (JAX's computation dtype) and round once."""
    y = fnp.asarray(np.r_[np.ones(21), np.zeros(19)].astype(np.float32))
    assert float(fnp.mean(y)) == float(np.float32(21) * np.float32(1 / 40)) != 0.525
    assert float(fnp.mean(y)) == float(np.float32(0.52500004))
    x = np.random.default_rng(0).normal(size=(200, 7))
    got = np.asarray(fnp.mean(fnp.asarray(x), axis=1))
    assert np.array_equal(got, x.sum(1) * (1 / 7))
    h = np.random.default_rng(1).normal(size=(50, 7)).astype(np.float16)
    want = (h.astype(np.float32).sum(1) * np.float32(1 / 7)).astype(np.float16)
    assert np.array_equal(np.asarray(fnp.mean(fnp.asarray(h), axis=1)), want)
    assert np.allclose(np.asarray(fgrad.grad(lambda v: fnp.mean(v))(fnp.ones(4))), 0.25)
