"""`fgrad.scipy.cluster.vq`: assign observations to their nearest code (``scipy.cluster.vq.vq``).

The codes are integers (not differentiable); the distances are differentiable in both the
observations and the code book (the gradient flows through the chosen code only).

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.scipy.cluster.vq import vq
    >>> code, dist = vq(fnp.asarray([[0.0, 1.0], [3.0, 3.0]]), fnp.asarray([[0.0, 0.0], [3.0, 4.0]]))
    >>> code, dist
    (Array([0, 1], dtype=int64), Array([1., 1.], dtype=float64))
"""

from __future__ import annotations

from ...typing import Array, ArrayLike

from ... import numpy as fnp
from .._dtypes import inexact_dtype as _inexact_dtype

__all__ = ["vq"]


def vq(obs: ArrayLike, code_book: ArrayLike, check_finite: bool = True) -> tuple[Array, Array]:
    """For each row of ``obs`` (``(M, N)``, or ``(M,)`` of scalars) the index of the nearest row
    of ``code_book`` (``(K, N)`` or ``(K,)``) in Euclidean distance, and that distance:
    ``(code, dist)``, both of shape ``(M,)``.  ``check_finite`` is accepted and ignored (JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> obs = fnp.asarray([[1.1, 2.1, 3.1], [5.9, 4.8, 6.2]])
        >>> book = fnp.asarray([[1., 2., 3.], [2., 3., 4.], [3., 4., 5.], [4., 5., 6.]])
        >>> vq(obs, book)[0]
        Array([0, 3], dtype=int64)
    """
    del check_finite
    dt = _inexact_dtype(obs, code_book)
    obs, code_book = fnp.asarray(obs).astype(dt), fnp.asarray(code_book).astype(dt)
    if obs.ndim != code_book.ndim:
        raise ValueError(f"fgrad.scipy.cluster.vq.vq: observation and code_book should have the same "
                         f"rank, got shapes {obs.shape} and {code_book.shape}")
    if obs.ndim == 1:
        obs, code_book = obs[:, None], code_book[:, None]
    if obs.ndim != 2:
        raise ValueError(f"fgrad.scipy.cluster.vq.vq: ndim different than 1 or 2 are not supported, got "
                         f"shapes {obs.shape} and {code_book.shape}")
    if obs.shape[1] != code_book.shape[1]:
        raise ValueError(f"fgrad.scipy.cluster.vq.vq: observations have {obs.shape[1]} features but the "
                         f"codes {code_book.shape[1]} (shapes {obs.shape} and {code_book.shape})")
    squared = fnp.sum((obs[:, None, :] - code_book[None, :, :]) ** 2, axis=-1)
    code = fnp.argmin(squared, axis=-1)
    nearest = fnp.take_along_axis(squared, code[:, None], axis=-1)[:, 0]
    # sqrt with a finite derivative where an observation sits on its code (distance 0)
    positive = nearest > 0
    dist = fnp.where(positive, fnp.sqrt(fnp.where(positive, nearest, 1.0)), 0.0)
    return code, dist
