"""Regression tests of what round 22 of the JAX programs (tests/jax_programs_round22/,
docs/jax-programs-round22.md) found in fgrad, each compared with JAX 0.10.2's numbers (stored
here; live when JAX is installed)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp

SHAPE = (3, 4)
FLAT = [5, -1, -5, -12, -13, 11, 12, 40]
# JAX 0.10.2, jnp.unravel_index(..., (3, 4)): (values, dtype, weak_type) of each coordinate
WANT_UNRAVEL = {
    "int8 5": ([1, 1], "int8", False),
    "uint8 200 in (20, 20)": ([10, 0], "uint8", False),
    "python int 7": ([1, 3], "int32", True),
    "int32 array": ([[1, 2, 1, 0, 0, 2, 2, 2], [1, 3, 3, 0, 0, 3, 3, 3]], "int32", False),
}


def _unravel_cases(jnp):
    return {
        "int8 5": jnp.unravel_index(jnp.asarray(5, dtype=jnp.int8), SHAPE),
        "uint8 200 in (20, 20)": jnp.unravel_index(jnp.asarray(200, dtype=jnp.uint8), (20, 20)),
        "python int 7": jnp.unravel_index(7, SHAPE),
        "int32 array": jnp.unravel_index(jnp.asarray(FLAT, dtype=jnp.int32), SHAPE),
    }


def _check_unravel(got: dict) -> None:
    for name, (values, dtype, weak) in WANT_UNRAVEL.items():
        coords = got[name]
        assert [np.asarray(c).tolist() for c in coords] == values, name
        for c in coords:
            assert str(c.dtype) == dtype and bool(c.weak_type) == weak, (name, c.dtype, c.weak_type)


def test_unravel_index_keeps_dtype_and_weak_type_and_clips_as_jax():
    """kernel_ridge_cv.py (``jnp.unravel_index(jnp.argmin(table), table.shape)``) and the probes
    around it: fgrad's eager ``unravel_index`` was NumPy's -- every coordinate int64/int32
    whatever the indices' dtype (JAX keeps int8, uint8, ...), a Python int's coordinates strong
    where JAX's are weak (so ``unravel_index(7, s)[0] + jnp.int8(1)`` was int32, JAX's int8), and
    an out-of-range index raised ValueError eagerly while the traced path (and JAX, always)
    clipped it.  Now one computation, eager and traced: a ``divmod`` per axis and JAX's
    clipping."""
    with fgrad.enable_x64(False):
        _check_unravel(_unravel_cases(fnp))
        assert (fnp.unravel_index(7, SHAPE)[0] + fnp.int8(1)).dtype == np.int8
        traced = fgrad.jit(lambda i: fnp.stack(fnp.unravel_index(i, SHAPE)))(
            fnp.asarray(FLAT, dtype=fnp.int32)
        )
        assert np.asarray(traced).tolist() == WANT_UNRAVEL["int32 array"][0]
        looped = fgrad.vmap(lambda i: fnp.stack(fnp.unravel_index(i, SHAPE)))(
            fnp.asarray(FLAT, dtype=fnp.int32)
        )
        assert np.asarray(looped).T.tolist() == WANT_UNRAVEL["int32 array"][0]
    with pytest.raises(TypeError, match="unravel_index"):
        fnp.unravel_index([3, 4], SHAPE)  # a list is not array-like for jax.numpy (TypeError)


def test_unravel_index_live_jax():
    jax = pytest.importorskip("jax")
    with jax.enable_x64(False):
        _check_unravel(_unravel_cases(jax.numpy))
