"""`fgrad.test_util`: JAX's ``jax.test_util.check_grads`` (derivatives of any order, forward
and reverse mode, against finite differences); see `fgrad.testing.check_grads`.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.test_util import check_grads
    >>> check_grads(fnp.sin, (fnp.asarray([0.2, 1.1]),), order=2, modes=("fwd", "rev"))
"""

from __future__ import annotations

from .testing.check_grads import check_grads, check_jvp, check_vjp

__all__ = ["check_grads", "check_jvp", "check_vjp"]
