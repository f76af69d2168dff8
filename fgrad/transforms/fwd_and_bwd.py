"""`fwd_and_bwd` (JAX's ``jax.fwd_and_bwd``): a function's forward and backward passes as two
functions, each jitted once, so a training loop that runs them apart does not recompile the
backward pass on every step (as ``jax.jit(f_vjp)`` of a fresh `vjp` function would).

The residuals that ``fwd`` returns are a pytree whose leaves are the primal arguments; ``bwd``
re-runs the forward pass from them inside its own jitted program and transposes it (JAX keeps
the linearization's intermediate values instead: the results are the same, fgrad's backward
pass costs one more forward pass).  They are callable, as JAX's: ``residuals(ct)`` is
``vjp_fun(ct)``.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> fwd, bwd = fgrad.fwd_and_bwd(fnp.multiply, argnums=(0, 1))
    >>> y, res = fwd(2.0, 3.0)
    >>> float(y), [float(g) for g in bwd(res, 1.0)]
    (6.0, [3.0, 2.0])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..tree_util import register_pytree_node
from .ad import _check_argnums, _check_callable, vjp
from .jit import jit


class FwdResiduals:
    """What ``fwd`` returns for ``bwd``: the primal arguments (the pytree's leaves) and, as
    static data, the function and ``argnums``.  Calling it with a cotangent gives the
    cotangents of all the function's positional arguments (as a `vjp` function does)."""

    __slots__ = ("fun", "args", "has_aux")

    def __init__(self, fun: Callable, args: tuple, has_aux: bool) -> None:
        self.fun, self.args, self.has_aux = fun, tuple(args), has_aux

    def vjp_of(self, argnums: tuple[int, ...]) -> Callable:
        """The `vjp` function with respect to the arguments ``argnums``."""
        args = self.args
        return vjp(lambda *dyn: self.fun(*_replace(args, argnums, dyn)),
                   *(args[i] for i in argnums), has_aux=self.has_aux)[1]

    def __call__(self, cotangent: Any) -> tuple:
        return self.vjp_of(tuple(range(len(self.args))))(cotangent)


register_pytree_node(FwdResiduals, lambda r: ((r.args,), (r.fun, r.has_aux)),
                     lambda aux, children: FwdResiduals(aux[0], children[0], aux[1]))


def fwd_and_bwd(fun: Callable, argnums: int | Sequence[int], has_aux: bool = False,
                jitted: bool = True) -> tuple[Callable, Callable]:
    """``(fwd, bwd)``: ``fwd(*args)`` is ``(fun(*args), residuals)`` (``(out, residuals,
    aux)`` with ``has_aux``) and ``bwd(residuals, ct)`` the cotangents of the arguments
    ``argnums`` (one array for an int ``argnums``, a tuple for a sequence); both jitted
    unless ``jitted=False``.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fwd, bwd = fgrad.fwd_and_bwd(lambda x: fnp.sum(x ** 2), argnums=0)
        >>> y, res = fwd(fnp.asarray([1.0, 2.0]))
        >>> bwd(res, 1.0)
        Array([2., 4.], dtype=float64)
    """
    _check_callable(fun, "fwd_and_bwd")
    single = not isinstance(argnums, (tuple, list))

    def fwd(*args):
        _check_argnums(argnums, len(args), "fwd_and_bwd")
        res = FwdResiduals(fun, args, has_aux)
        out = fun(*args)  # the backward pass (bwd) linearizes from the residuals
        return (out[0], res, out[1]) if has_aux else (out, res)

    def bwd(residuals: FwdResiduals, cotangent: Any):
        nums = _check_argnums(argnums, len(residuals.args), "fwd_and_bwd")
        g = residuals.vjp_of(nums)(cotangent)
        return g[0] if single else g

    if jitted:
        return jit(fwd), jit(bwd)
    return fwd, bwd


def _replace(args: tuple, nums: tuple[int, ...], dyn: tuple) -> list:
    full = list(args)
    for i, v in zip(nums, dyn):
        full[i] = v
    return full


__all__ = ["fwd_and_bwd", "FwdResiduals"]
