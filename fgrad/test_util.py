"""`fgrad.test_util`: JAX's ``jax.test_util.check_grads`` (derivatives of any order, forward
and reverse mode, against finite differences); see `fgrad.testing.check_grads`.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.test_util import check_grads
    >>> check_grads(fnp.sin, (fnp.asarray([0.2, 1.1]),), order=2, modes=("fwd", "rev"))
"""

from __future__ import annotations

from typing import Callable, Sequence

from .testing.check_grads import check_grads
from .testing.check_grads import check_jvp as _check_jvp, check_vjp as _check_vjp

__all__ = ["check_grads", "check_jvp", "check_vjp"]


def check_jvp(f: Callable, f_jvp: Callable, args: Sequence, atol: float | None = None,
              rtol: float | None = None, eps: float | None = None, err_msg: str = "") -> None:
    """JAX's ``jax.test_util.check_jvp``: ``f_jvp(primals, tangents)`` (such as
    ``functools.partial(fgrad.jvp, f)``) must return ``f``'s outputs and tangents that agree
    with central finite differences along random tangents; AssertionError otherwise.

    Example::

        >>> import functools, fgrad
        >>> import fgrad.numpy as jnp
        >>> from fgrad import test_util
        >>> test_util.check_jvp(jnp.sin, functools.partial(fgrad.jvp, jnp.sin), (jnp.array([0.5, 1.0]),))
        >>> wrong = lambda primals, tangents: (jnp.sin(*primals), jnp.sin(*tangents))
        >>> try:
        ...     test_util.check_jvp(jnp.sin, wrong, (jnp.array([0.5, 1.0]),))
        ... except AssertionError:
        ...     print("tangents differ")
        tangents differ
    """
    _check_jvp(f, args, eps=eps, atol=atol, rtol=rtol, err_msg=err_msg, f_jvp=f_jvp)


def check_vjp(f: Callable, f_vjp: Callable, args: Sequence, atol: float | None = None,
              rtol: float | None = None, eps: float | None = None, err_msg: str = "") -> None:
    """JAX's ``jax.test_util.check_vjp``: ``f_vjp(*primals)`` (such as
    ``functools.partial(fgrad.vjp, f)``) must return ``f``'s outputs and a pullback whose
    cotangents agree with central finite differences (``<vjp(u), v> == <u, J v>``).

    Example::

        >>> import functools, fgrad
        >>> import fgrad.numpy as jnp
        >>> from fgrad import test_util
        >>> test_util.check_vjp(jnp.sin, functools.partial(fgrad.vjp, jnp.sin), (jnp.array([0.5, 1.0]),))
    """
    _check_vjp(f, args, eps=eps, atol=atol, rtol=rtol, err_msg=err_msg, against_jvp=False, f_vjp=f_vjp)
