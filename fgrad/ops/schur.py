"""The Schur decomposition and the principal matrix square root as primitives, ``schur`` and
``sqrtm`` (as ``jax.scipy.linalg``'s), computed by SciPy's LAPACK on the host (a matrix on a
GPU is copied there and the results back, explicitly, in the primitive).

* ``schur(a, output) -> (t, z)``: ``a = z t z^H``, ``t`` upper (quasi-)triangular; real
  output for real input unless ``output="complex"``.  Not differentiable (JAX has no rule
  either): its derivative raises NotImplementedError.
* ``sqrtm(a) -> x``: the principal square root, ``x @ x = a``, always complex (as JAX's).
  Derivative from the Sylvester equation ``x dx + dx x = da``, solved in ``x``'s eigenbasis
  (``x = v diag(d) v^-1``: ``dx = v [(v^-1 da v)_ij / (d_i + d_j)] v^-1``), written with the
  ``eig`` and ``solve`` primitives, so higher orders work; it needs ``x`` diagonalizable
  (the generic case; a defective ``x`` gives infinities).
"""

from __future__ import annotations

import numpy as np

from ..backends import backend_of_buffer, to_host
from ..core.array import ShapedArray
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp_rule
from .eig import eig
from .elementwise import add, convert_element_type, div
from .linalg import _batch_front, _check_float, _check_square, _dtype, _mm, _mT, _ndim, _shape, solve
from ._scipy import scipy_module
from .shape import broadcast_in_dim


def _need_scipy(name: str):
    sla = scipy_module("linalg")  # optional: SciPy's LAPACK wrappers
    if sla is None:
        raise ModuleNotFoundError(f"fgrad's {name} calls scipy.linalg.{name}, which is not installed; "
                                  "install scipy to use it")
    return sla


def _complex_of(dtype) -> np.dtype:
    single = np.dtype(dtype) in (np.float32, np.complex64)
    return np.dtype(np.complex64) if single else np.dtype(np.complex128)


def _on_host(xp, a, compute):
    """``compute(host_matrix_stack) -> [numpy arrays]``, moved back to ``a``'s device."""
    backend = None if xp is np else backend_of_buffer(a)
    out = compute(a if backend is None else to_host(a))
    if backend is not None:
        device = backend.device_of(a)
        out = [backend.from_host(o, device) for o in out]
    return out


def _schur_impl(xp, a, output):
    sla = _need_scipy("schur")
    dt = _complex_of(a.dtype) if output == "complex" else a.dtype

    def compute(host):
        t = np.full(host.shape, np.nan, dt)
        z = np.full(host.shape, np.nan, dt)
        for idx in np.ndindex(*host.shape[:-2]):
            if host.shape[-1]:
                t[idx], z[idx] = sla.schur(host[idx], output=output)
        return [t, z]

    return _on_host(xp, a, compute)


def _schur_abstract(a, output):
    _check_square("schur", a)
    _check_float("schur", a)
    if output not in ("real", "complex"):
        raise ValueError(f"schur: output must be 'real' or 'complex', got {output!r}")
    dt = _complex_of(a.dtype) if output == "complex" else a.dtype
    return [ShapedArray(a.shape, dt), ShapedArray(a.shape, dt)]


schur_p = Primitive("schur", _schur_impl, _schur_abstract, multiple_results=True, family="linalg")


def schur(a, output: str = "real"):
    """``[t, z]`` with ``a = z t z^H`` (see the module docstring).

    Example::

        >>> import numpy as np
        >>> from fgrad.core.array import wrap
        >>> schur(wrap(np.array([[4.0, 1.0], [0.0, 9.0]])))[0]
        Array([[4., 1.],
               [0., 9.]], dtype=float64)
    """
    return schur_p.bind(a, output=output)


def _schur_jvp(primals, tangents, output):
    raise NotImplementedError("schur: the Schur decomposition is not differentiable in fgrad (nor in JAX); "
                              "differentiate a function of it with a rule of its own (e.g. sqrtm)")


defjvp_rule(schur_p, _schur_jvp)
defbatch(schur_p, _batch_front(schur_p))


def _sqrtm_impl(xp, a):
    sla = _need_scipy("sqrtm")
    dt = _complex_of(a.dtype)

    def compute(host):
        x = np.full(host.shape, np.nan, dt)
        for idx in np.ndindex(*host.shape[:-2]):
            if host.shape[-1]:
                with np.errstate(all="ignore"):
                    x[idx] = sla.sqrtm(host[idx].astype(dt))
        return [x]

    return _on_host(xp, a, compute)[0]


def _sqrtm_abstract(a):
    _check_square("sqrtm", a)
    _check_float("sqrtm", a)
    return ShapedArray(a.shape, _complex_of(a.dtype))


sqrtm_p = Primitive("sqrtm", _sqrtm_impl, _sqrtm_abstract, family="linalg")


def sqrtm(a):
    """The principal matrix square root (complex), differentiable (module docstring).

    Example::

        >>> import numpy as np
        >>> from fgrad.core.array import wrap
        >>> sqrtm(wrap(np.array([[4.0, 0.0], [0.0, 9.0]])))
        Array([[2.+0.j, 0.+0.j],
               [0.+0.j, 3.+0.j]], dtype=complex128)
    """
    return sqrtm_p.bind(a)


def _sqrtm_jvp(primals, tangents):
    (a,), (ta,) = primals, tangents
    x = sqrtm_p.bind(a)
    d, v = eig(x, eigvec_derivs=True)
    n = _shape(x)[-1]
    nd = _ndim(d)
    di = broadcast_in_dim(d, _shape(d) + (n,), tuple(range(nd)))  # [..., i, j] = d_i
    dj = broadcast_in_dim(d, _shape(d)[:-1] + (n, n), tuple(range(nd - 1)) + (nd,))  # d_j
    m = solve(v, _mm(convert_element_type(ta, _dtype(v)), v))  # v^-1 da v
    y = div(m, add(di, dj))
    # dx = v y v^-1 = (v^-T (v y)^T)^T
    vy = _mm(v, y)
    dx = solve(_mT(v), _mT(vy))
    return x, _mT(dx)


defjvp_rule(sqrtm_p, _sqrtm_jvp)
defbatch(sqrtm_p, _batch_front(sqrtm_p))
__all__ = ["schur", "schur_p", "sqrtm", "sqrtm_p"]
