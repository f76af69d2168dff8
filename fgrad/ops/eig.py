"""The general (non-symmetric) eigendecomposition as a primitive, ``eig`` (as JAX's
``lax.linalg.eig`` with right eigenvectors only).

``eig(a) -> (w, v)`` for square ``a`` (leading batch axes allowed): complex eigenvalues
``w`` and the unit-norm right eigenvectors in the columns of ``v`` (LAPACK's ``geev``
through NumPy), ``a v = v diag(w)``.  The outputs are always complex (JAX; NumPy returns
real arrays when every eigenvalue is real).  LAPACK runs on the host: a matrix on a GPU is
copied there and the results back (explicitly, in the primitive).

Derivative (JAX's rule): with ``M = v^-1 da v`` and ``U = v (F o M)``, where
``F_ij = 1 / (w_j - w_i)`` off the diagonal and 0 on it, ``dw = diag(M)`` and
``dv_j = U_j + c_j v_j`` with ``c_j`` fixed by LAPACK's normalization (unit norm, the
largest-magnitude component real): ``c_j = -Re(v_j^H U_j) - i Im(U_kj) / Re(v_kj)``.
Repeated eigenvalues give infinities.
"""

from __future__ import annotations

import numpy as np

from ..backends import backend_of_buffer, to_host
from ..core.array import ShapedArray
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp_rule
from ..core.constants import constant_like
from .elementwise import abs_, add, conj, convert_element_type, div, eq, imag, mul, neg, real, sub
from .linalg import _batch_front, _check_float, _check_square, _diag, _dtype, _eye, _mm, _ndim, _shape, solve
from .reductions import argmax_p, reduce_sum
from .shape import broadcast_in_dim


def _complex_of(dtype) -> np.dtype:
    return (
        np.dtype(np.complex64) if np.dtype(dtype) in (np.float32, np.complex64) else np.dtype(np.complex128)
    )


def _eig_impl(xp, a, vectors, eigvec_derivs):
    # LAPACK's geev through NumPy; a device matrix makes an explicit round trip to the host
    # (as JAX's eig on a GPU calls LAPACK on the host)
    backend = None if xp is np else backend_of_buffer(a)
    host = a if backend is None else to_host(a)
    cdt = _complex_of(host.dtype)
    n = host.shape[-1]
    w = np.full(host.shape[:-1], np.nan, cdt)
    v = np.full(host.shape, np.nan, cdt)
    for idx in np.ndindex(*host.shape[:-2]):
        if n == 0:
            continue
        try:
            wi, vi = np.linalg.eig(host[idx])
        except np.linalg.LinAlgError:
            continue  # NaN, as JAX returns for a failed factorization
        w[idx], v[idx] = wi, vi
    out = [w, v] if vectors else [w]
    if backend is not None:
        device = backend.device_of(a)
        out = [backend.from_host(o, device) for o in out]
    return out


def _eig_abstract(a, vectors, eigvec_derivs):
    _check_square("eig", a)
    _check_float("eig", a)
    cdt = _complex_of(a.dtype)
    w = ShapedArray(a.shape[:-1], cdt)
    return [w, ShapedArray(a.shape, cdt)] if vectors else [w]


eig_p = Primitive("eig", _eig_impl, _eig_abstract, multiple_results=True, family="linalg")


def eig(a, vectors: bool = True, eigvec_derivs: bool = False):
    """Eigenvalues and right eigenvectors (columns, unit norm) of the square matrices in the
    last two axes of ``a``: returns ``[w, v]``, both complex (``[w]`` when not ``vectors``).
    Derivatives of the eigenvectors raise unless ``eigvec_derivs`` (JAX's
    ``enable_eigvec_derivs``): they are only meaningful for phase-invariant functions of
    ``v`` and distinct eigenvalues.

    Example::

        >>> import numpy as np
        >>> from fgrad.core.array import wrap
        >>> w, v = eig(wrap(np.array([[2.0, 0.0], [0.0, 3.0]])))
        >>> w
        Array([2.+0.j, 3.+0.j], dtype=complex128)
    """
    return eig_p.bind(a, vectors=bool(vectors), eigvec_derivs=bool(eigvec_derivs))


def _gap_inverse(w):
    """F[..., i, j] = 1 / (w_j - w_i) off the diagonal, 0 on it."""
    n = _shape(w)[-1]
    nd = _ndim(w)
    wi = broadcast_in_dim(w, _shape(w) + (n,), tuple(range(nd)))  # [..., i, j] = w_i
    wj = broadcast_in_dim(w, _shape(w)[:-1] + (n, n), tuple(range(nd - 1)) + (nd,))  # w_j
    eye = _eye(n, _dtype(w), w)
    return sub(div(1.0, add(sub(wj, wi), eye)), eye)


def _eig_jvp(primals, tangents, vectors, eigvec_derivs):
    (a,), (ta,) = primals, tangents
    if vectors and not eigvec_derivs:
        raise NotImplementedError(
            "eig: derivatives of non-symmetric eigenvectors are only valid for functions invariant "
            "to each eigenvector's phase and for distinct eigenvalues, which fgrad cannot check (as in "
            "JAX). Differentiate eigvals, or opt in with fgrad.ops.eig.eig(a, eigvec_derivs=True)."
        )
    # the eigenvalues' own derivative needs v's (second order): always allowed internally
    w, v = eig_p.bind(a, vectors=True, eigvec_derivs=True)
    m = _mm(solve(v, convert_element_type(ta, _dtype(v))), v)  # v^-1 da v
    du = _mm(v, mul(_gap_inverse(w), m))
    # dv_j = du_j + c_j v_j, c_j fixed by LAPACK's normalization (unit norm, largest-magnitude
    # component k_j real): c_j = -Re(v_j^H du_j) - i Im(du_kj) / Re(v_kj)
    nd = _ndim(v)
    k = argmax_p.bind(abs_(v), axis=nd - 2, index_dtype=np.dtype(np.int64))  # (..., n)
    rows = constant_like(np.arange(_shape(v)[-2]).reshape(-1, 1), k)
    mask = convert_element_type(
        eq(rows, broadcast_in_dim(k, _shape(v), tuple(range(nd - 2)) + (nd - 1,))), _dtype(v)
    )
    norm_part = neg(real(reduce_sum(mul(conj(v), du), (nd - 2,))))
    phase_part = neg(
        div(imag(reduce_sum(mul(mask, du), (nd - 2,))), real(reduce_sum(mul(mask, v), (nd - 2,))))
    )
    c = add(convert_element_type(norm_part, _dtype(v)), mul(convert_element_type(phase_part, _dtype(v)), 1j))
    dv = add(du, mul(v, broadcast_in_dim(c, _shape(v), tuple(range(nd - 2)) + (nd - 1,))))
    if not vectors:
        return [w], [_diag(m)]
    return [w, v], [_diag(m), dv]


defjvp_rule(eig_p, _eig_jvp)
defbatch(eig_p, _batch_front(eig_p))
