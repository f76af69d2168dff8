"""Op-table rows for the second half of ``fgrad.scipy.linalg`` (structured matrices, polar,
hessenberg, qr_multiply, eigh_tridiagonal, solve_sylvester -- the last reaches the
``custom_linear_solve`` primitive): values against SciPy, derivatives of orders 1-2 against
finite differences, vmap against a loop, jit against eager."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from ._base import F64

ROWS: list = []

try:
    import scipy.linalg as _sla
except ImportError:  # pragma: no cover - SciPy is a test extra
    _sla = None

if _sla is not None:
    from .scipy_rows import _la, _N, _rand, _small, _sq, _tri_matrix_rect

    import fgrad.scipy as _fs

    _LA = _fs.linalg

    def _lead(rng, shape, dt):
        """Polynomial coefficients with a leading one away from zero."""
        a = rng.uniform(-1, 1, shape)
        a[..., 0] = 1.5 + rng.uniform(0, 0.5)
        return a.astype(dt)

    def _spread(rng, shape, dt):
        """Well-separated values (|a_i - a_j| and eigenvalue gaps stay away from 0)."""
        n = shape[-1]
        return (np.linspace(-1.5, 1.5, n) * 1.0 + rng.uniform(-0.1, 0.1, shape)).astype(dt)

    def _shifted(rng, shape, dt):
        """A matrix with its spectrum around 3 (so eig(A)_i + eig(B)_j stays away from 0)."""
        return (3.0 * np.eye(shape[-1]) + rng.uniform(-0.5, 0.5, shape)).astype(dt)

    def _distinct_sv(rng, shape, dt):
        m, n = shape
        u, _ = np.linalg.qr(rng.normal(size=(m, m)))
        v, _ = np.linalg.qr(rng.normal(size=(n, n)))
        s = np.zeros((m, n))
        k = min(m, n)
        s[np.arange(k), np.arange(k)] = 1.0 + np.arange(k) * 0.7 + rng.uniform(0, 0.1, k)
        return (u @ s @ v.T).astype(dt)

    _VEC = _N.map(lambda n: ((n,),))
    _TWO_VECS = st.tuples(_N, _N).map(lambda t: ((t[0],), (t[1],)))
    ROWS += [
        _la("toeplitz", lambda c, r: _LA.toeplitz(c, r), _sla.toeplitz, _TWO_VECS, [_rand, _rand],
            ((3,), (2,))),
        _la("hankel", lambda c, r: _LA.hankel(c, r), _sla.hankel, _TWO_VECS, [_rand, _rand], ((3,), (2,))),
        _la("circulant", lambda c: _LA.circulant(c), _sla.circulant, _VEC, [_rand], ((3,),)),
        _la("leslie", lambda f, s: _LA.leslie(f, s), _sla.leslie,
            st.integers(2, 4).map(lambda n: ((n,), (n - 1,))), [_rand, _rand], ((3,), (2,))),
        _la("companion", lambda a: _LA.companion(a), _sla.companion, st.integers(2, 5).map(lambda n: ((n,),)),
            [_lead], ((4,),)),
        _la("fiedler", lambda a: _LA.fiedler(a), _sla.fiedler, _VEC, [_spread], ((3,),)),
        _la("fiedler_companion", lambda a: _LA.fiedler_companion(a), _sla.fiedler_companion,
            st.integers(2, 6).map(lambda n: ((n,),)), [_lead], ((5,),)),
        _la("convolution_matrix", lambda a, mode: _LA.convolution_matrix(a, 3, mode),
            lambda a, mode: _sla.convolution_matrix(a, 3, mode), _VEC, [_rand], ((2,),),
            kwargs=lambda s: st.fixed_dictionaries({"mode": st.sampled_from(["full", "same", "valid"])}),
            example_kwargs={"mode": "same"}),
        _la("polar", lambda a: _LA.polar(a), _sla.polar,
            st.tuples(_N, _N).map(lambda t: ((max(t), min(t)),)), [_distinct_sv], ((3, 2),), dtypes=(F64,)),
        _la("polar[left]", lambda a: _LA.polar(a, "left", method="svd"), lambda a: _sla.polar(a, "left"),
            _N.map(_sq), [_distinct_sv], ((3, 3),), dtypes=(F64,)),
        _la("hessenberg", lambda a: _LA.hessenberg(a, calc_q=True), lambda a: _sla.hessenberg(a, calc_q=True),
            st.integers(1, 5).map(_sq), [_rand], ((4, 4),), dtypes=(F64,)),
        _la("qr_multiply", lambda a, c: _LA.qr_multiply(a, c), _sla.qr_multiply,
            st.tuples(_N, _N).map(lambda t: ((max(t), min(t)), (2, max(t)))), [_tri_matrix_rect, _rand],
            ((3, 2), (2, 3)), dtypes=(F64,)),
        _la("eigh_tridiagonal", lambda d, e: _LA.eigh_tridiagonal(d, e, eigvals_only=True),
            lambda d, e: _sla.eigh_tridiagonal(d, e, eigvals_only=True),
            st.integers(2, 5).map(lambda n: ((n,), (n - 1,))), [_spread, _small], ((4,), (3,)),
            dtypes=(F64,)),
        _la("solve_sylvester", lambda a, b, c: _LA.solve_sylvester(a, b, c), _sla.solve_sylvester,
            st.tuples(_N, _N).map(lambda t: ((t[0], t[0]), (t[1], t[1]), (t[0], t[1]))),
            [_shifted, _shifted, _rand], ((3, 3), (2, 2), (3, 2)), dtypes=(F64,)),
    ]
