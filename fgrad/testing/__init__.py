"""Test utilities: `check_grads` (derivatives vs finite differences, any order, forward and
reverse mode) and the shared op table (`fgrad.testing.op_table`) that drives the per-op
forward / gradient / vmap / dtype tests.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.testing import check_grads
    >>> check_grads(fnp.exp, (fnp.asarray([0.5, 1.0]),), order=2)
"""

from .check_grads import check_grads, check_jvp, check_vjp, default_tolerance, numerical_jvp

__all__ = ["check_grads", "check_jvp", "check_vjp", "default_tolerance", "numerical_jvp"]
