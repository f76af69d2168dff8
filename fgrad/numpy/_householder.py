"""Householder QR, as LAPACK's ``geqrf`` stores it: ``R`` on and above the diagonal and the
reflectors' vectors below it, with their ``tau``s.  What ``jnp.linalg.qr(a, mode="raw")``
returns (transposed), ``torch.geqrf`` returns, and `fgrad.lax.linalg.householder_product` /
``ormqr`` take back; ``larfg`` (one reflector) is shared with the Hessenberg and Schur
reductions of `fgrad.lax.linalg`.

Example::

    >>> import fgrad.numpy as fnp
    >>> a, taus = geqrf(fnp.asarray([[3.0], [4.0]]))
    >>> a, taus
    (Array([[-5. ],
           [ 0.5]], dtype=float64), Array([1.6], dtype=float64))
"""

from __future__ import annotations

import numpy as np

from ..core.array import Array
from ..core.narrow_floats import dtype_kind
from ._creation import zeros
from ._elementwise import abs, conj, imag, real, sqrt
from ._indexing import concatenate, stack
from ._math import where
from ._reductions import sum

__all__ = ["geqrf", "larfg"]


def larfg(x: Array, k: int, idx: np.ndarray, complex_input: bool) -> tuple[Array, Array, Array]:
    """LAPACK's ``larfg`` on column vector ``x`` (..., n) at pivot ``k``: ``(v, tau, beta)``
    with ``(I - tau v v^H)^H x = beta e_k`` (entries above ``k`` untouched).

    Example::

        >>> import numpy as np, fgrad.numpy as fnp
        >>> v, tau, beta = larfg(fnp.asarray([3.0, 4.0]), 0, np.arange(2), False)
        >>> float(tau), float(beta)
        (1.6, -5.0)
    """
    alpha = x[..., k]
    below = idx > k
    tail = where(below, x, 0.0)
    tail2 = sum(abs(tail) ** 2, axis=-1)
    skip = tail2 == 0
    if complex_input:
        skip = skip & (imag(alpha) == 0)
    safe = where(skip, 1.0, tail2)
    sign = where(real(alpha) >= 0, 1.0, -1.0)
    beta = where(skip, real(alpha), -sign * sqrt(abs(alpha) ** 2 + safe))
    safe_beta = where(skip, 1.0, beta)
    tau = where(skip, 0.0, (safe_beta - alpha) / safe_beta)
    scale = where(skip, 0.0, 1.0 / where(skip, 1.0, alpha - safe_beta))
    v = where(below, x * scale[..., None], 0.0)
    v = where(idx == k, 1.0, v).astype(x.dtype)
    return v, tau.astype(x.dtype), beta


def geqrf(a: Array) -> tuple[Array, Array]:
    """LAPACK ``geqrf`` (unblocked ``geqr2``) of ``a`` (..., m, n): ``(packed, taus)`` with
    ``R`` on and above the diagonal of ``packed``, the reflectors' vectors below it (their
    unit leading entries implicit) and ``taus`` (..., min(m, n)).  Built from differentiable
    operations.

    Example::

        >>> import fgrad.numpy as fnp
        >>> geqrf(fnp.asarray([[3.0], [4.0]]))[1]
        Array([1.6], dtype=float64)
    """
    m, n = a.shape[-2:]
    idx = np.arange(m)
    cidx = np.arange(n)
    complex_input = dtype_kind(a.dtype) == "c"
    r, vs, taus = a, [], []
    for j in range(min(m, n)):
        v, tau, beta = larfg(r[..., :, j], j, idx, complex_input)
        vh_r = sum(conj(v)[..., :, None] * r, axis=-2)
        r = r - (conj(tau)[..., None, None] * v[..., :, None]) * vh_r[..., None, :]
        col = where(idx == j, beta.astype(a.dtype)[..., None], where(idx > j, 0.0, r[..., :, j]))
        r = where(cidx == j, col.astype(a.dtype)[..., :, None], r)
        vs.append(v)
        taus.append(tau)
    if not taus:
        return a, zeros(a.shape[:-2] + (0,), a.dtype)
    v = stack(vs, axis=-1)
    below = idx[:, None] > np.arange(len(vs))[None, :]
    packed_v = where(below, v, 0.0)
    if n > len(vs):
        packed_v = concatenate([packed_v, zeros(a.shape[:-1] + (n - len(vs),), a.dtype)], axis=-1)
    lower = idx[:, None] > cidx[None, :]
    return where(lower, packed_v, r).astype(a.dtype), stack(taus, axis=-1)
