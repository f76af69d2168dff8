"""Checks shared by the indexing tests on the host and on a (fake) device."""

from __future__ import annotations

import numpy as np

import fgrad
import fgrad.numpy as fnp


def check_per_example_set_jacobian() -> None:
    """``vmap(jacrev(zeros(4).at[i].set(v)))`` with per-example indices that repeat: the last
    update landing in a slot is the one that counts (the others get zero derivative)."""
    ib = np.array([[1, 1, 2], [0, 3, 3]])
    jac = fgrad.vmap(fgrad.jacrev(lambda v, i: fnp.zeros(4).at[i].set(v)), in_axes=(None, 0))(
        fnp.ones(3), fnp.asarray(ib))
    ref = np.zeros((2, 4, 3))
    ref[0, 1, 1] = ref[0, 2, 2] = ref[1, 0, 0] = ref[1, 3, 2] = 1.0
    np.testing.assert_array_equal(np.asarray(jac), ref)
