"""Sparse-aware transformations (JAX's ``sparse.grad``, ``value_and_grad``, ``jacfwd``,
``jacrev``, ``jacobian``): a BCOO argument is differentiated with respect to its ``data``
(its indices are integers), and its derivative is returned as a BCOO array with the same
indices -- the gradient restricted to the stored elements."""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import fgrad.numpy as fnp
from ...transforms import ad
from ._bcoo import BCOO

__all__ = ["grad", "jacfwd", "jacobian", "jacrev", "value_and_grad"]


def _argnums(argnums: int | Sequence[int]) -> tuple[int, ...]:
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def _on_data(
    transform: Callable[..., Any],
    fun: Callable[..., Any],
    argnums: int | Sequence[int],
    has_aux: bool,
    value: bool,
    **kwargs: Any,
) -> Callable[..., Any]:
    nums = _argnums(argnums)

    @functools.wraps(fun)
    def wrapped(*args: Any) -> Any:
        sparse_args = {i: args[i] for i in nums if isinstance(args[i], BCOO)}

        def on_data(*a):
            full = list(a)
            for i, s in sparse_args.items():
                full[i] = BCOO(
                    (a[i], s.indices),
                    shape=s.shape,
                    indices_sorted=s.indices_sorted,
                    unique_indices=s.unique_indices,
                )
            return fun(*full)

        data_args = [sparse_args[i].data if i in sparse_args else a for i, a in enumerate(args)]
        out = transform(on_data, argnums=argnums, has_aux=has_aux, **kwargs)(*data_args)

        def wrap(derivs):
            if isinstance(argnums, int):
                s = sparse_args.get(argnums)
                return _as_sparse(derivs, s) if s is not None else derivs
            return tuple(
                _as_sparse(d, sparse_args[i]) if i in sparse_args else d for i, d in zip(nums, derivs)
            )

        if value:
            (val, derivs) = out
            return val, wrap(derivs)
        if has_aux:
            derivs, aux = out
            return wrap(derivs), aux
        return wrap(out)

    return wrapped


def _as_sparse(deriv: Any, like: BCOO) -> Any:
    """A derivative with respect to ``like.data`` as a BCOO array; a Jacobian's leading
    (output) axes become batch dimensions, as in JAX."""
    shape = getattr(deriv, "shape", None)
    data_shape = tuple(like.data.shape)
    if shape is None or tuple(shape[len(shape) - len(data_shape) :]) != data_shape:
        return deriv
    lead = tuple(shape[: len(shape) - len(data_shape)])
    indices = fnp.broadcast_to(like.indices, lead + tuple(like.indices.shape)) if lead else like.indices
    return BCOO(
        (deriv, indices),
        shape=lead + like.shape,
        indices_sorted=like.indices_sorted,
        unique_indices=like.unique_indices,
    )


def grad(
    fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False, **kwargs: Any
) -> Callable[..., Any]:
    """``fgrad.grad`` where a BCOO argument's gradient is a BCOO array (with respect to its
    stored values, at its indices).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> M = sparse.BCOO.fromdense(fnp.array([[0., 2.], [3., 0.]]))
        >>> g = sparse.grad(lambda m: (m @ fnp.array([1., 10.])).sum())(M)
        >>> g, g.data.tolist()
        (BCOO(float64[2, 2], nse=2), [10.0, 1.0])
    """
    return _on_data(ad.grad, fun, argnums, has_aux, value=False, **kwargs)


def value_and_grad(
    fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False, **kwargs: Any
) -> Callable[..., tuple[Any, Any]]:
    """``fgrad.value_and_grad`` with BCOO gradients for BCOO arguments (see `grad`).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> M = sparse.BCOO.fromdense(fnp.array([0., 2.]))
        >>> v, g = sparse.value_and_grad(lambda m: (m * m).sum())(M)
        >>> v.item(), g.data.tolist()
        (4.0, [4.0])
    """
    return _on_data(ad.value_and_grad, fun, argnums, has_aux, value=True, **kwargs)


def jacfwd(
    fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False, **kwargs: Any
) -> Callable[..., Any]:
    """``fgrad.jacfwd`` with respect to BCOO arguments' stored values: the Jacobian is a BCOO
    array whose leading (output) axes are batch dimensions, as in JAX.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> M = sparse.BCOO.fromdense(fnp.array([[0., 2.], [3., 0.]]))
        >>> J = sparse.jacfwd(lambda m: m @ fnp.ones(2))(M)
        >>> J, J.todense().tolist()
        (BCOO(float64[2, 2, 2], nse=2, n_batch=1), [[[0.0, 1.0], [0.0, 0.0]], [[0.0, 0.0], [1.0, 0.0]]])
    """
    return _on_data(ad.jacfwd, fun, argnums, has_aux, value=False, **kwargs)


def jacrev(
    fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False, **kwargs: Any
) -> Callable[..., Any]:
    """``fgrad.jacrev`` with respect to BCOO arguments' stored values (see `jacfwd`).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> M = sparse.BCOO.fromdense(fnp.array([[0., 2.], [3., 0.]]))
        >>> J = sparse.jacrev(lambda m: m @ fnp.ones(2))(M)
        >>> J, J.todense().tolist()
        (BCOO(float64[2, 2, 2], nse=2, n_batch=1), [[[0.0, 1.0], [0.0, 0.0]], [[0.0, 0.0], [1.0, 0.0]]])
    """
    return _on_data(ad.jacrev, fun, argnums, has_aux, value=False, **kwargs)


jacobian = jacrev
