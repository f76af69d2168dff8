"""Round-9 linear algebra of fgrad.torch (``*_ex`` with ``info``, triangular solves, the LU
and LDL^T families, ``eig``, Householder QR, ``tensorinv``/``tensorsolve``, ``vander``,
``matrix_rank``/``cond``/``vecdot``/``multi_dot``, ``svd_lowrank``/``pca_lowrank``) and the
``Tensor.H``/``mH`` fix: values, dtypes, gradients and errors equal PyTorch 2.13's -- stored
numbers (run without torch) and live comparisons (with torch) -- and gradients agree with
finite differences."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import fgrad.torch as torch

# PyTorch 2.13 (CPU), float64, on the matrices below
SOLVE_TRI_UPPER = [[-0.41666666666666663, -0.33333333333333337], [0.6666666666666666, 0.9333333333333332],
                   [1.0, 1.2000000000000002]]
SOLVE_TRI_LOWER_RIGHT_UNIT = [[-0.5, -7.0, 5.0], [0.0, -8.0, 6.0]]
TRIANGULAR_SOLVE_T = [[0.25, 0.5], [0.9166666666666666, 1.1666666666666665],
                      [0.7166666666666668, 0.7666666666666667]]
CHOLESKY_EX_L = [[2.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.5, 1.25, 2.0463381929681126]]
LU_FACTOR_LU = [[4.0, 1.0, 2.0], [0.125, 2.875, 0.75], [0.25, 0.6086956521739131, 4.043478260869565]]
LU_FACTOR_PIV = [1, 2, 3]
LU_P = [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
LU_L = [[1.0, 0.0], [0.2, 1.0], [0.6000000000000001, -0.33333333333333515]]
LU_U = [[5.0, 7.0], [0.0, 0.5999999999999999]]
LU_SOLVE_ADJ = [[-0.032258064516129004, 0.17204301075268819], [0.3870967741935485, 0.6021505376344086],
                [0.9354838709677418, 1.010752688172043]]
LU_SOLVE_RIGHT = [[-0.032258064516129004, 0.3870967741935485, 0.9354838709677418],
                  [0.17204301075268819, 0.6021505376344086, 1.010752688172043]]
EIG_W = [(-1 + 0j), (-2 + 0j)]
EIG_V = [[(0.7071067811865475 + 0j), (-0.4472135954999579 + 0j)],
         [(-0.7071067811865475 + 0j), (0.8944271909999159 + 0j)]]
EIGVALS_ROT = [1j, -1j]
GEQRF_A = [[-5.916079783099615, -8.282511696339462], [0.4337717455676132, 0.632455532033676],
           [0.7229529092793553, 0.39696565406256445]]
GEQRF_TAU = [1.1690308509457032, 1.72773977620305]
ORGQR = [[-0.16903085094570325, 0.9486832980505138], [-0.50709255283711, -0.31622776601683833],
         [-0.8451542547285166, 2.220446049250313e-16]]
ORMQR_RT = [[-0.26196258955714846, -3.9481654288398245, -2.3115720512643687],
            [2.494273226766264, -2.004013300206343, 0.11194535646059123],
            [0.39202953559320086, -5.148466713557152, 1.8274581643957282]]
LDL_LD = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.5, 0.5, -3.0]]
LDL_PIV = [-3, -3, 3]
LDL_SOLVE = [[2.0, 2.0], [0.3333333333333333, 0.6666666666666666], [0.33333333333333337, 0.6666666666666667]]
VANDER = [[1.0, 2.0, 4.0, 8.0], [1.0, -1.0, 1.0, -1.0], [1.0, 0.5, 0.25, 0.125]]
COND_PS = [None, "fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf]
COND = [3.0816088257709096, 4.501994008439942, 11.19986833361867, 4.473118279569892, 1.9516129032258063,
        3.0816088257709096, 0.3245058203485108, 3.8709677419354835, 1.8387096774193548]
RANK_KW = [{}, {"atol": 0.01}, {"rtol": 0.01}, {"atol": 1e-4, "rtol": 0.5}, {"hermitian": True}]
RANK = [2, 1, 1, 1, 2]
# torch.manual_seed(3) before each call
SVD_LOWRANK_S = [7.128670893175915, 3.2451733234861972, 2.8567631467945818]
SVD_LOWRANK_U = [[-0.46583300429774493, -0.025102508896561904, 0.6943745404677277],
                 [-0.3100441337600939, 0.12318139983381501, -0.02925694269619833],
                 [-0.23568351137774163, -0.3464964586169144, -0.47235806307782957],
                 [-0.33135071155140206, 0.1320577615288101, 0.18971124784151205],
                 [-0.4293589946726144, -0.7267659303630255, -0.05418739222787711],
                 [-0.36281278253934796, 0.41886614770219555, -0.039847679065412256],
                 [-0.4533761949713561, 0.3782321923642999, -0.5033402631806074]]
SVD_LOWRANK_V = [[-0.4222391470582866, -0.7358939031216019, -0.25432027101226795],
                 [-0.38268640179051916, 0.09737554118416, 0.4954280642097059],
                 [-0.41562200739526955, 0.5796829283750282, -0.6656554316513313],
                 [-0.4203464846329333, -0.24087147606207876, -0.17084375204570168],
                 [-0.5708173091292679, 0.23436467715458664, 0.4664627441132854]]
PCA_LOWRANK_S = [3.247309558574838, 2.911121344430163]
PCA_LOWRANK_V = [[0.7122729024626784, -0.0951657504233695], [-0.11896639555688882, 0.5407611623180608],
                 [-0.5865717570755171, -0.5557554781851206], [0.2288356617763443, -0.07072999721162392],
                 [-0.2864997780912182, 0.6202047736324254]]
RANDN_AFTER_LOWRANK = [-0.0798543208083965, 0.926410825415192, 0.8156775169219956]


def _t(lib, x, dtype=None):
    return lib.tensor(x, dtype=lib.float64 if dtype is None else dtype)


def A3(lib):
    return _t(lib, [[4.0, 1, 2], [0.5, 3, 1], [1, 2, 5]])


def S3(lib):
    return _t(lib, [[4.0, 2, 1], [2, 5, 3], [1, 3, 6]])


def B32(lib):
    return _t(lib, [[1.0, 2], [3, 4], [5, 6]])


def M32(lib):
    return _t(lib, [[1.0, 2], [3, 4], [5, 7]])


def IND(lib):
    return _t(lib, [[0.0, 1, 2], [1, 0, 3], [2, 3, 0]])


def X75(lib):
    return _t(lib, [[1.0, 2, 0, 1, 3], [0, 1, 1, 2, 1], [2, 0, 1, 1, 0], [1, 1, 1, 0, 2], [3, 1, 0, 2, 1],
                    [0, 2, 2, 1, 1], [1, 0, 3, 1, 2]])


def _close(x, expected, atol=1e-12):
    np.testing.assert_allclose(np.asarray(x.tolist() if hasattr(x, "tolist") else x), np.asarray(expected),
                               atol=atol, rtol=1e-10)


def _signs_close(x, expected, atol=1e-10):
    """Equal up to the sign of each column (the SVD's gauge: LAPACK builds differ in it)."""
    x, e = np.asarray(x.tolist()), np.asarray(expected)
    s = np.sign(np.sum(x * e, axis=0))
    np.testing.assert_allclose(x * s, e, atol=atol)


# -- stored numbers ----------------------------------------------------------------------


def test_triangular_solves_stored():
    _close(torch.linalg.solve_triangular(A3(torch), B32(torch), upper=True), SOLVE_TRI_UPPER)
    _close(torch.linalg.solve_triangular(A3(torch), B32(torch).T, upper=False, left=False,
                                         unitriangular=True),
           SOLVE_TRI_LOWER_RIGHT_UNIT)
    with pytest.warns(UserWarning, match="torch.triangular_solve is deprecated"):
        r = torch.triangular_solve(B32(torch), A3(torch), transpose=True)
    _close(r.solution, TRIANGULAR_SOLVE_T)
    _close(r.cloned_coefficient, A3(torch).tolist())


def test_factorizations_stored():
    L, info = torch.linalg.cholesky_ex(S3(torch))
    _close(L, CHOLESKY_EX_L)
    assert info.dtype == torch.int32 and info.item() == 0
    LU, piv = torch.linalg.lu_factor(A3(torch))
    _close(LU, LU_FACTOR_LU)
    assert piv.dtype == torch.int32 and piv.tolist() == LU_FACTOR_PIV
    P, L, U = torch.linalg.lu(M32(torch))
    _close(P, LU_P), _close(L, LU_L), _close(U, LU_U)
    _close(torch.linalg.lu_solve(LU, piv, B32(torch), adjoint=True), LU_SOLVE_ADJ)
    _close(torch.linalg.lu_solve(LU, piv, B32(torch).T, left=False), LU_SOLVE_RIGHT)
    a, tau = torch.geqrf(M32(torch))
    _close(a, GEQRF_A), _close(tau, GEQRF_TAU)
    _close(torch.orgqr(a, tau), ORGQR)
    _close(torch.linalg.householder_product(a, tau), ORGQR)
    _close(torch.ormqr(a, tau, A3(torch), left=False, transpose=True), ORMQR_RT)
    LD, pivots, info = torch.linalg.ldl_factor_ex(IND(torch))
    _close(LD, LDL_LD)
    assert pivots.tolist() == LDL_PIV and info.item() == 0
    _close(torch.linalg.ldl_solve(LD, pivots, B32(torch)), LDL_SOLVE)


def test_eig_stored():
    w, v = torch.linalg.eig(_t(torch, [[0.0, 1], [-2, -3]]))
    assert w.dtype == torch.complex128 and v.dtype == torch.complex128
    _close(w, EIG_W), _close(v, EIG_V)
    w32 = torch.linalg.eigvals(_t(torch, [[0.0, -1], [1, 0]], torch.float32))
    assert w32.dtype == torch.complex64
    _close(w32, EIGVALS_ROT, atol=1e-7)


def test_helpers_stored():
    _close(torch.linalg.vander(_t(torch, [2.0, -1, 0.5]), N=4), VANDER)
    assert torch.linalg.vander(torch.tensor([1, 2, 3])).tolist() == [[1, 1, 1], [1, 2, 4], [1, 3, 9]]
    for p, c in zip(COND_PS, COND):
        assert torch.linalg.cond(A3(torch), p).item() == pytest.approx(c, rel=1e-12)
    m = _t(torch, [[1.0, 2], [2, 4.001]])
    assert [torch.linalg.matrix_rank(m, **kw).item() for kw in RANK_KW] == RANK
    assert torch.linalg.matrix_rank(m, 0.01).item() == 1  # the old (input, tol) overload
    assert torch.linalg.matrix_rank(m).dtype == torch.int64
    v = torch.linalg.vecdot(torch.tensor([1 + 1j, 2]), torch.tensor([1j, 1]))
    assert v.item() == 3 + 1j  # the first argument conjugated
    r = torch.linalg.multi_dot([torch.ones(3), torch.ones(3, 2), torch.ones(2, 4), torch.ones(4)])
    assert r.shape == () and r.item() == 24.0
    x = torch.linalg.tensorsolve(2 * torch.eye(6, dtype=torch.float64).reshape(2, 3, 6), torch.ones(2, 3))
    _close(x, [0.5] * 6)
    assert torch.linalg.matrix_exp is torch.matrix_exp


def test_lowrank_stored():
    torch.manual_seed(3)
    U, S, V = torch.svd_lowrank(X75(torch), q=3)
    _close(S, SVD_LOWRANK_S, atol=1e-10)
    _signs_close(U, SVD_LOWRANK_U), _signs_close(V, SVD_LOWRANK_V)
    # the generator advanced as PyTorch's: the next draw is PyTorch's next draw
    _close(torch.randn(5, 3, dtype=torch.float64)[0], RANDN_AFTER_LOWRANK)
    torch.manual_seed(3)
    U, S, V = torch.pca_lowrank(X75(torch), q=2)
    _close(S, PCA_LOWRANK_S, atol=1e-10)
    _signs_close(V, PCA_LOWRANK_V)


# -- info and the *_ex variants ----------------------------------------------------------


def test_ex_info_singular_and_not_positive_definite():
    bad = _t(torch, [[1.0, 2, 0], [2, 1, 0], [0, 0, 1]])
    L, info = torch.linalg.cholesky_ex(torch.stack([S3(torch), bad]))
    assert info.tolist() == [0, 2]
    _close(L[0], CHOLESKY_EX_L)
    with pytest.raises(torch.linalg.LinAlgError, match=r"\(Batch element 1\).*leading minor of order 2"):
        torch.linalg.cholesky_ex(torch.stack([S3(torch), bad]), check_errors=True)
    upper = torch.linalg.cholesky_ex(S3(torch), upper=True)
    _close(upper.L, np.asarray(CHOLESKY_EX_L).T)
    sing = _t(torch, [[1.0, 2], [2, 4]])
    assert torch.linalg.inv_ex(sing).info.item() == 2
    assert torch.linalg.solve_ex(sing, torch.ones(2, dtype=torch.float64)).info.item() == 2
    LU, piv, info = torch.linalg.lu_factor_ex(sing)
    assert info.item() == 2 and piv.tolist() == [2, 2]
    _close(LU, [[2.0, 4.0], [0.5, 0.0]])
    with pytest.raises(torch.linalg.LinAlgError, match="The diagonal element 2 is zero"):
        torch.linalg.inv_ex(sing, check_errors=True)
    with pytest.raises(torch.linalg.LinAlgError, match="input matrix is singular"):
        torch.linalg.solve_ex(sing, torch.ones(2, dtype=torch.float64), check_errors=True)
    with pytest.raises(RuntimeError, match=r"U\[2,2\] is zero and using it on lu_solve"):
        torch.linalg.lu_factor(sing)
    assert torch.linalg.inv_ex(S3(torch)).info.item() == 0
    _close(torch.linalg.inv_ex(S3(torch)).inverse, np.linalg.inv(np.asarray(S3(torch).tolist())))
    LD, pivots, info = torch.linalg.ldl_factor_ex(torch.zeros(2, 2))
    assert info.item() == 1 and pivots.tolist() == [1, 2]
    with pytest.raises(torch.linalg.LinAlgError):
        torch.linalg.ldl_factor(torch.zeros(2, 2))


def test_solve_left_false():
    """linalg.solve honours ``left`` (the old definition ignored it)."""
    A, B = A3(torch), B32(torch).T
    x = torch.linalg.solve(A, B, left=False)
    _close(x @ A, B.tolist(), atol=1e-12)
    _close(torch.linalg.solve_ex(A, B, left=False).result, x.tolist())


def test_H_and_mH_conjugate():
    """Tensor.H and Tensor.mH are conjugate transposes (they were plain transposes)."""
    x = torch.tensor([[1 + 2j, 3j], [0, 1]])
    assert x.mH.tolist() == [[1 - 2j, 0], [-3j, 1]]
    assert x.H.tolist() == [[1 - 2j, 0], [-3j, 1]]
    assert torch.ones(2, 3).mH.shape == (3, 2)


# -- gradients ---------------------------------------------------------------------------


def _req(x):
    return x.clone().requires_grad_()


def _qr_factors():
    a, tau = torch.geqrf(M32(torch))
    return _req(a), _req(tau)


GRADCHECKS = {
    "solve_triangular": (lambda a, b: torch.linalg.solve_triangular(a, b, upper=True), lambda: (A3, B32)),
    "solve_triangular_right_unit": (
        lambda a, b: torch.linalg.solve_triangular(a, b.T, upper=False, left=False, unitriangular=True),
        lambda: (A3, B32)),
    "cholesky_ex": (lambda s: torch.linalg.cholesky_ex(s @ s.mT).L, lambda: (S3,)),
    "lu_factor_ex": (lambda a: torch.linalg.lu_factor_ex(a).LU, lambda: (A3,)),
    "lu": (lambda a: torch.linalg.lu(a)[1:], lambda: (M32,)),
    "lu_solve_adjoint": (
        lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b[:, :1], adjoint=True),
        lambda: (A3, B32)),
    "lu_solve_right": (lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b[:, :1].T, left=False),
                       lambda: (A3, B32)),
    "inv_ex": (lambda a: torch.linalg.inv_ex(a).inverse, lambda: (A3,)),
    "solve_ex": (lambda a, b: torch.linalg.solve_ex(a, b).result, lambda: (A3, B32)),
    "householder_product": (lambda x, t: torch.linalg.householder_product(x, t), _qr_factors),
    "ormqr": (lambda x, t, c: torch.ormqr(x, t, c, left=False, transpose=True),
              lambda: (*_qr_factors(), A3)),
    "eigvals": (lambda x: torch.linalg.eigvals(x).real, lambda: (A3,)),
    "vander": (lambda x: torch.linalg.vander(x, N=4), lambda: (lambda t: _t(t, [2.0, -1, 0.5]),)),
    "tensorinv": (lambda x: torch.linalg.tensorinv(x.reshape(3, 3, 1), ind=1), lambda: (A3,)),
    "cond": (lambda x: torch.linalg.cond(x) + torch.linalg.cond(x, "fro") + torch.linalg.cond(x, 1)
             + torch.linalg.cond(x, -2), lambda: (A3,)),
    "vecdot": (lambda x, y: torch.linalg.vecdot(x, y), lambda: (B32, M32)),
    "multi_dot": (lambda x, y: torch.linalg.multi_dot([x[:, 0], y, x]), lambda: (B32, A3)),
}


@pytest.mark.parametrize("name", sorted(GRADCHECKS))
def test_gradcheck(name):
    """Gradients agree with finite differences."""
    fn, args = GRADCHECKS[name]
    inputs = tuple(a if isinstance(a, torch.Tensor) else _req(a(torch)) for a in args())
    assert torch.autograd.gradcheck(fn, inputs)


def test_gradcheck_triangular_solve():
    A, B = _req(A3(torch)), _req(B32(torch))
    with pytest.warns(UserWarning, match="deprecated"):
        assert torch.autograd.gradcheck(
            lambda b, a: torch.triangular_solve(b, a, upper=False, transpose=True).solution, (B, A))


def test_lowrank_gradient():
    """Gradients of ``svd_lowrank``'s singular values flow through QR and SVD (a full-rank
    ``q`` makes them the exact SVD's: ``d sum(S) / dA = U V^T``)."""
    x = _req(X75(torch))
    torch.manual_seed(0)
    _, S, _ = torch.svd_lowrank(x, q=5, niter=2)
    S.sum().backward()
    u, _, vh = np.linalg.svd(np.asarray(X75(torch).tolist()), full_matrices=False)
    np.testing.assert_allclose(x.grad.numpy(), u @ vh, atol=1e-8)


def test_no_derivative_raises():
    a = _req(M32(torch))
    qr, tau = torch.geqrf(a)
    with pytest.raises(NotImplementedError, match="the derivative for 'geqrf' is not implemented"):
        qr.sum().backward()
    s = _req(IND(torch))
    with pytest.raises(RuntimeError, match="derivative for aten::linalg_ldl_factor_ex is not implemented"):
        torch.linalg.ldl_factor(s).LD.sum().backward()
    LD, piv = torch.linalg.ldl_factor(IND(torch))
    with pytest.raises(RuntimeError, match="derivative for aten::linalg_ldl_solve is not implemented"):
        torch.linalg.ldl_solve(LD, piv, _req(B32(torch))).sum().backward()


# -- errors ------------------------------------------------------------------------------

ERRORS = [
    (RuntimeError, "A must be batches of square matrices, but they are 2 by 3",
     lambda t: t.linalg.cholesky_ex(t.ones(2, 3))),
    (RuntimeError, "Expected a floating point or complex tensor as input. Got Long",
     lambda t: t.linalg.cholesky_ex(t.ones(2, 2, dtype=t.int64))),
    (RuntimeError, "Incompatible shapes of A and B for the equation AX = B \\(2x2 and 3x2\\)",
     lambda t: t.linalg.solve_triangular(t.eye(2), t.ones(3, 2), upper=True)),
    (RuntimeError, "A must be batches of square matrices, but they are 2 by 3",
     lambda t: t.linalg.solve_triangular(t.ones(2, 3), t.ones(2, 2), upper=True)),
    (NotImplementedError, "\"triangular_solve_cpu\" not implemented for 'Long'",
     lambda t: t.linalg.solve_triangular(t.eye(2, dtype=t.int64), t.ones(2, 2, dtype=t.int64), upper=True)),
    (TypeError, "upper", lambda t: t.linalg.solve_triangular(t.eye(2), t.ones(2, 2))),
    (RuntimeError, "Expected b to have at least 2 dimensions, but it has 1 dimensions instead",
     lambda t: t.triangular_solve(t.ones(2), t.eye(2))),
    (RuntimeError, "Expected b and A to have the same dtype, but found b of type Double and A of type Float",
     lambda t: t.triangular_solve(t.ones(2, 1, dtype=t.float64), t.eye(2))),
    (NotImplementedError, "\"lu_cpu\" not implemented for 'Int'",
     lambda t: t.linalg.lu_factor(t.ones(2, 2, dtype=t.int32))),
    (RuntimeError, "LU without pivoting is not implemented on the CPU",
     lambda t: t.linalg.lu_factor(t.ones(3, 2), pivot=False)),
    (RuntimeError, "linalg.lu_solve: The input tensor B must have at least 2 dimensions",
     lambda t: t.linalg.lu_solve(*t.linalg.lu_factor(t.eye(3)), t.ones(3))),
    (RuntimeError, "input must have at least 2 dimensions", lambda t: t.geqrf(t.ones(3))),
    (NotImplementedError, "\"geqrf_cpu\" not implemented for 'Long'",
     lambda t: t.geqrf(t.ones(3, 2, dtype=t.int64))),
    (RuntimeError, "input.shape\\[-2\\] must be greater than or equal to input.shape\\[-1\\]",
     lambda t: t.linalg.householder_product(t.ones(2, 3), t.ones(2))),
    (RuntimeError, "input.shape\\[-1\\] must be greater than or equal to tau.shape\\[-1\\]",
     lambda t: t.linalg.householder_product(t.ones(3, 2), t.ones(3))),
    (RuntimeError, "tau dtype Double does not match input dtype Float",
     lambda t: t.linalg.householder_product(t.ones(3, 2), t.ones(2, dtype=t.float64))),
    (RuntimeError, "other.shape\\[-2\\] must be equal to input.shape\\[-2\\]",
     lambda t: t.ormqr(t.ones(3, 2), t.ones(2), t.eye(2))),
    (RuntimeError, "must have at least 2 dimensions", lambda t: t.linalg.matrix_rank(t.ones(3))),
    (RuntimeError, "prod\\(self.shape\\[ind:\\]\\) == prod\\(self.shape\\[:ind\\]\\), but got 6 != 4",
     lambda t: t.linalg.tensorinv(t.ones(4, 2, 3), ind=1)),
    (RuntimeError, "Expected a strictly positive integer for 'ind', but got 0",
     lambda t: t.linalg.tensorinv(t.ones(4, 2, 2), ind=0)),
    (RuntimeError, "but got 6 != 4", lambda t: t.linalg.tensorsolve(t.ones(2, 3, 6), t.ones(2, 2))),
    (RuntimeError, "Expected x and y to have the same dtype, but found x of type Float and y of type Double",
     lambda t: t.linalg.vecdot(t.ones(3), t.ones(3, dtype=t.float64))),
    (RuntimeError, "N must be greater than 1.", lambda t: t.linalg.vander(t.tensor([1.0, 2]), N=0)),
    (RuntimeError, "linalg.vander supports floating point, complex, and integer tensors, but got Bool",
     lambda t: t.linalg.vander(t.tensor([True, False]))),
    (RuntimeError, "linalg.eig: A must be batches of square matrices, but they are 2 by 3",
     lambda t: t.linalg.eig(t.ones(2, 3))),
    (RuntimeError, "multi_dot\\(\\): expected at least 2 tensors but got 1",
     lambda t: t.linalg.multi_dot([t.ones(3)])),
    (RuntimeError, "multi_dot\\(\\): the first tensor must be 1D or 2D but got 3D",
     lambda t: t.linalg.multi_dot([t.ones(3, 2, 2), t.ones(2)])),
    (ValueError, "q\\(=7\\) must be non-negative integer and not greater than min\\(m, n\\)=2",
     lambda t: t.pca_lowrank(t.ones(3, 2), q=7)),
]


@pytest.mark.parametrize("error, message, call", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_errors(error, message, call):
    with pytest.raises(error, match=message):
        call(torch)


@pytest.mark.parametrize("error, message, call", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_errors_live(error, message, call):
    """The same calls raise the same error types in PyTorch, with messages that match."""
    pt = pytest.importorskip("torch")
    with warnings.catch_warnings(record=True):  # PyTorch's once-per-process deprecation warnings
        with pytest.raises(error, match=message):
            call(pt)


# -- live comparisons --------------------------------------------------------------------


def _np(x):
    return np.asarray(x.detach().cpu().numpy() if hasattr(x, "detach") else x)


LIVE = {
    "solve_triangular": lambda t: t.linalg.solve_triangular(t.stack([A3(t), 2 * A3(t)]), B32(t), upper=False),
    "solve_triangular_f32": lambda t: t.linalg.solve_triangular(A3(t).float(), B32(t), upper=True),
    "cholesky_ex_upper": lambda t: t.linalg.cholesky_ex(S3(t), upper=True),
    "lu_factor_wide": lambda t: t.linalg.lu_factor(M32(t).T),
    "lu_batch": lambda t: t.linalg.lu(t.stack([A3(t), A3(t).T])),
    "lu_unpack_flags": lambda t: t.lu_unpack(*t.linalg.lu_factor(M32(t)), unpack_data=False),
    "lu_solve_right_adj": lambda t: t.linalg.lu_solve(*t.linalg.lu_factor(A3(t)), B32(t).T, left=False,
                                                      adjoint=True),
    "eig": lambda t: t.linalg.eig(_t(t, [[2.0, 1], [1, 3]])),
    "geqrf_complex": lambda t: t.geqrf(M32(t) + 1j * M32(t).flip(0)),
    "geqrf_wide": lambda t: t.geqrf(M32(t).T),
    "ormqr_left": lambda t: t.ormqr(*t.geqrf(M32(t)), A3(t)),
    "ldl_indefinite": lambda t: t.linalg.ldl_factor_ex(
        _t(t, [[1.0, 3, -2, 0, 1], [3, -1, 4, 2, 0], [-2, 4, 0.5, 1, 3], [0, 2, 1, -3, 2],
               [1, 0, 3, 2, 0.25]])),
    "ldl_hermitian": lambda t: t.linalg.ldl_solve(
        *t.linalg.ldl_factor(_t(t, [[0.0, 2 + 1j, 1], [2 - 1j, 0, 3j], [1, -3j, 1]], t.complex128),
                             hermitian=True), _t(t, [[1.0], [2], [3]], t.complex128), hermitian=True),
    "tensorsolve_dims": lambda t: t.linalg.tensorsolve(
        (A3(t).repeat(2, 2) + 4 * t.eye(6, dtype=t.float64)).reshape(6, 2, 3), t.ones(2, 3, dtype=t.float64),
        dims=(0,)),
    "matrix_rank_batch": lambda t: t.linalg.matrix_rank(t.stack([A3(t), t.ones(3, 3, dtype=t.float64)]),
                                                        atol=t.tensor([0.1, 5.0], dtype=t.float64)),
    "pca_nocenter": lambda t: (t.manual_seed(1), t.pca_lowrank(X75(t), q=2, center=False)[1])[1],
    "svd_lowrank_wide_M": lambda t: (t.manual_seed(2), t.svd_lowrank(X75(t).T, q=3, M=X75(t).T[:1])[1])[1],
}


@pytest.mark.parametrize("name", sorted(LIVE))
def test_live(name):
    pt = pytest.importorskip("torch")
    ours, theirs = LIVE[name](torch), LIVE[name](pt)
    ours = ours if isinstance(ours, tuple) else (ours,)
    theirs = theirs if isinstance(theirs, tuple) else (theirs,)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert str(a.dtype) == str(b.dtype)
        assert tuple(a.shape) == tuple(b.shape)
        np.testing.assert_allclose(_np(a), _np(b), atol=1e-6 if a.dtype == torch.float32 else 1e-10)


def test_gradients_live():
    pt = pytest.importorskip("torch")

    def grads(t):
        a, b = _req(A3(t)), _req(B32(t))
        a2, tau = t.geqrf(M32(t))
        a2, tau = _req(a2), _req(tau)
        loss = (t.linalg.solve_triangular(a, b, upper=True).sum()
                + t.linalg.lu_solve(*t.linalg.lu_factor(a), b, adjoint=True).pow(2).sum()
                + t.linalg.cholesky_ex(a @ a.mT).L.sum()
                + t.ormqr(a2, tau, a).sum() + t.linalg.eigvals(a).real.sum()
                + t.linalg.vander(b[:, 0], N=3).sum() + t.linalg.cond(a, "nuc"))
        loss.backward()
        return [_np(x.grad) for x in (a, b, a2, tau)]

    for g, h in zip(grads(torch), grads(pt)):
        np.testing.assert_allclose(g, h, atol=1e-10)


# -- lobpcg ------------------------------------------------------------------------------

# torch.manual_seed(5) before each call, on LOB_A / LOB_B below
LOBPCG_E_LARGEST = [12.086325053622588, 11.003617777672178]
LOBPCG_E_SMALLEST_BASIC = [0.9136749463773766, 1.9963822223277772]
LOBPCG_E_NITER2 = [11.290104435320984, 8.730360880754047]  # stopped early: depends on every step and draw
LOBPCG_E_B = [12.08879668593943, 11.001805872575174]
LOBPCG_VEC_GRAD_LAST = [0.004048703944727392, 0.01257078347401415, -0.006189397584397988,
                        0.001244903514145569]
LOBPCG_GRAD_LAST = [-0.020280808932424184, -0.1196347943380797, -0.24029429894416815, 1.0742494737183044]


def LOB_A(lib):
    off = lib.diag(lib.ones(11, dtype=lib.float64), 1) + lib.diag(lib.ones(11, dtype=lib.float64), -1)
    return lib.diag(lib.arange(1.0, 13, dtype=lib.float64)) + 0.3 * off


def LOB_B(lib):
    off = lib.diag(lib.ones(11, dtype=lib.float64), 1) + lib.diag(lib.ones(11, dtype=lib.float64), -1)
    return lib.eye(12, dtype=lib.float64) + 0.05 * off


def _lobpcg(lib, **kw):
    lib.manual_seed(5)
    return lib.lobpcg(LOB_A(lib), **kw)


def test_lobpcg_stored():
    _close(_lobpcg(torch, k=2)[0], LOBPCG_E_LARGEST, atol=1e-10)
    _close(_lobpcg(torch, k=2, largest=False, method="basic")[0], LOBPCG_E_SMALLEST_BASIC, atol=1e-10)
    _close(_lobpcg(torch, k=2, niter=2)[0], LOBPCG_E_NITER2, atol=1e-10)
    _close(_lobpcg(torch, k=2, B=LOB_B(torch))[0], LOBPCG_E_B, atol=1e-10)
    E, X = _lobpcg(torch, k=2)
    A = np.asarray(LOB_A(torch).tolist())
    x = np.asarray(X.tolist())
    np.testing.assert_allclose(A @ x, x * np.asarray(E.tolist()), atol=1e-6)  # eigenpairs
    np.testing.assert_allclose(x.T @ x, np.eye(2), atol=1e-10)


def test_lobpcg_gradient():
    """Eigenvalue and eigenvector gradients are PyTorch's (``x x^T`` per eigenvalue; the
    eigenvectors' equal eigh's); a second derivative through the eigenvectors raises; with
    ``B`` the backward raises PyTorch's ValueError."""
    a = _req(LOB_A(torch))
    torch.manual_seed(5)
    E, X = torch.lobpcg(a, k=2)
    (E * torch.tensor([1.0, 2.0], dtype=torch.float64)).sum().backward()
    _close(a.grad[-1, -4:], LOBPCG_GRAD_LAST, atol=1e-8)
    x = np.asarray(X.tolist())
    np.testing.assert_allclose(a.grad.numpy(), np.outer(x[:, 0], x[:, 0]) + 2 * np.outer(x[:, 1], x[:, 1]),
                               atol=1e-8)
    # eigenvectors: PyTorch's gradient, and the one through the full eigh (the same derivative)
    W = torch.linspace(-1, 1, 24, dtype=torch.float64).reshape(12, 2)
    a = _req(LOB_A(torch))
    torch.manual_seed(5)
    E, X = torch.lobpcg(a, k=2)
    ((X ** 2) * W).sum().backward()
    _close(a.grad[-1, -4:], LOBPCG_VEC_GRAD_LAST, atol=1e-6)  # the eigenpairs converge to tol ~ 1.5e-8
    b = _req(LOB_A(torch))
    V = torch.linalg.eigh((b + b.mT) / 2).eigenvectors.flip(-1)[:, :2]
    ((V ** 2) * W).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=1e-6)
    a = _req(LOB_A(torch))
    E, X = torch.lobpcg(a, k=2)
    with pytest.raises(NotImplementedError, match="second derivative through the eigenvectors"):
        torch.autograd.grad((X ** 4).sum(), a, create_graph=True)
    E, X = torch.lobpcg(_req(LOB_A(torch)), k=2, B=LOB_B(torch))
    with pytest.raises(ValueError, match="does not support backward with B != I"):
        E.sum().backward()


def test_lobpcg_errors():
    with pytest.raises(ValueError, match="smaller than 3 x the number of requested eigenpairs"):
        torch.lobpcg(torch.eye(5, dtype=torch.float64), k=2)
    with pytest.raises(AssertionError, match="A must be square"):
        torch.lobpcg(torch.ones(6, 5), k=1)


@pytest.mark.parametrize("kw", [{"k": 3}, {"k": 2, "largest": False}, {"k": 1, "n": 3, "method": "basic"},
                                {"k": 2, "niter": 3}], ids=str)
def test_lobpcg_live(kw):
    pt = pytest.importorskip("torch")
    (E, X), (e, x) = _lobpcg(torch, **kw), _lobpcg(pt, **kw)
    np.testing.assert_allclose(E.numpy(), e.numpy(), atol=1e-10)
    np.testing.assert_allclose(np.abs(X.numpy()), np.abs(x.numpy()), atol=1e-7)  # eigh's signs differ


# -- sparse CSR basics and the COO methods -------------------------------------------------

CSR_REPR = """tensor(crow_indices=tensor([0, 1, 3]),
       col_indices=tensor([1, 0, 2]),
       values=tensor([2., 1., 3.]), size=(2, 3), nnz=3,
       layout=torch.sparse_csr)"""


def _csr(lib, values=None):
    v = lib.tensor([2.0, 1, 3]) if values is None else values
    return lib.sparse_csr_tensor(lib.tensor([0, 1, 3]), lib.tensor([1, 0, 2]), v, (2, 3))


def test_csr_basics():
    c = _csr(torch)
    assert repr(c) == CSR_REPR
    assert c.layout is torch.sparse_csr and c.is_sparse_csr and not c.is_sparse and c._nnz() == 3
    assert c.to_dense().tolist() == [[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]]
    d = torch.tensor([[0.0, 2, 0], [1, 0, 3]])
    assert not d.is_sparse_csr
    s = d.to_sparse_csr()
    assert s.crow_indices().tolist() == [0, 1, 3] and s.col_indices().tolist() == [1, 0, 2]
    assert s.crow_indices().dtype == torch.int64 and s.values().tolist() == [2.0, 1.0, 3.0]
    assert d.to_sparse(layout=torch.sparse_csr).layout is torch.sparse_csr
    coo = s.to_sparse()
    assert coo.layout is torch.sparse_coo and coo.indices().tolist() == [[0, 1, 1], [1, 0, 2]]
    assert (s @ torch.ones(3, 2)).tolist() == [[2.0, 2.0], [4.0, 4.0]]
    assert torch.sparse.mm(s, torch.ones(3, 1)).tolist() == [[2.0], [4.0]]
    assert torch.sparse_csr_tensor([0, 1, 3], [1, 0, 2], [2.0, 1, 3]).shape == (2, 3)
    with pytest.raises(RuntimeError, match="indices expected sparse coordinate tensor layout but got "
                       "SparseCsr"):
        s.indices()


def test_csr_gradient_through_values():
    v = torch.tensor([2.0, 1, 3], requires_grad=True)
    (_csr(torch, v).to_dense() * torch.tensor([[1.0, 2, 3], [4, 5, 6]])).sum().backward()
    assert v.grad.tolist() == [2.0, 4.0, 6.0]  # PyTorch's
    v = torch.tensor([2.0, 1, 3], requires_grad=True)
    (_csr(torch, v) @ torch.ones(3, 2)).sum().backward()
    assert v.grad.tolist() == [2.0, 2.0, 2.0]


CSR_ERRORS = [
    ("`crow_indices\\[..., -1\\] == nnz` is not satisfied", ([0, 1, 2], [1, 0, 2], (2, 3))),
    ("`0 <= col_indices < ncols` is not satisfied", ([0, 1, 3], [1, 0, 5], (2, 3))),
    ("col_indices.shape\\[-1\\] must be equal to nnz \\(=3\\)", ([0, 1, 3], [1, 0], (2, 3))),
    ("crow_indices.shape\\[-1\\] must be equal to the number of rows \\+ 1 \\(=4\\)",
     ([0, 1, 3], [1, 0, 2], (3, 3))),
    ("`crow_indices\\[..., 0\\] == 0` is not satisfied", ([1, 1, 3], [1, 0, 2], (2, 3))),
    ("are sorted and distinct", ([0, 2, 3], [1, 1, 2], (2, 3))),
]


@pytest.mark.parametrize("message, args", CSR_ERRORS, ids=[str(i) for i in range(len(CSR_ERRORS))])
def test_csr_invariants(message, args):
    crow, col, size = args
    with pytest.raises(RuntimeError, match=message):
        torch.sparse_csr_tensor(torch.tensor(crow), torch.tensor(col), torch.tensor([2.0, 1, 3]), size)
    pt = pytest.importorskip("torch")  # PyTorch raises the same with check_invariants=True
    with pytest.raises(RuntimeError, match=message):
        pt.sparse_csr_tensor(pt.tensor(crow), pt.tensor(col), pt.tensor([2.0, 1, 3]), size,
                             check_invariants=True)


def test_csr_live():
    pt = pytest.importorskip("torch")
    with warnings.catch_warnings(record=True):  # PyTorch's "CSR support is in beta" warning
        theirs = _csr(pt)
        assert repr(_csr(torch)) == repr(theirs)
        d = [[0.0, 2, 0, 1], [1, 0, 3, 0], [0, 0, 0, 0]]
        a, b = torch.tensor(d).to_sparse_csr(), pt.tensor(d).to_sparse_csr()
        for f in ("crow_indices", "col_indices", "values"):
            assert getattr(a, f)().tolist() == getattr(b, f)().tolist()


def test_coo_methods_live():
    """The COO surface the task lists, against PyTorch."""
    pt = pytest.importorskip("torch")

    def run(t):
        d = t.tensor([[0.0, 2, 0], [1, 0, 3], [0, 0, 4]])
        s = d.to_sparse()
        i, v = t.tensor([[0, 1, 1, 0], [2, 0, 2, 2]]), t.tensor([1.0, 2, 3, 4], requires_grad=True)
        c = t.sparse_coo_tensor(i, v, (2, 3))
        r = t.sparse.mm(c, t.ones(3, 2))
        r.sum().backward()
        return [s.indices(), s.values(), s._indices(), s._values(), s.is_coalesced(), s.sparse_dim(),
                s.dense_dim(),
                s.to_dense(), s.is_sparse, d.is_sparse, c.is_coalesced(), c.coalesce().indices(),
                c.coalesce().values(), r, v.grad, t.sparse.sum(c), t.sparse.sum(c, 1).to_dense(),
                t.sparse.softmax(c.coalesce(), 1).to_dense(), d.to_sparse(1).dense_dim()]

    for a, b in zip(run(torch), run(pt)):
        a, b = (a.tolist(), b.tolist()) if hasattr(a, "tolist") else (a, b)
        np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), atol=1e-6)


# -- pinv with atol / rtol / hermitian (they were ignored) -----------------------------------

PINV_ATOL = [[0.03998080511912967, 0.07997760319992314], [0.07997760319992313, 0.15998719872061434]]
PINV_DEFAULT = [[4000.9999999933066, -1999.9999999966535], [-1999.999999996654, 999.9999999983271]]


def _near_singular(lib):
    return _t(lib, [[1.0, 2], [2, 4.001]])


def test_pinv_tolerances():
    _close(torch.linalg.pinv(_near_singular(torch), atol=1e-2), PINV_ATOL, atol=1e-12)
    _close(torch.linalg.pinv(_near_singular(torch)), PINV_DEFAULT, atol=1e-6)
    _close(torch.linalg.pinv(_near_singular(torch), rtol=1e-2, hermitian=True), PINV_ATOL, atol=1e-12)
    # one tolerance per matrix of a batch
    b = torch.stack([_near_singular(torch), 1e-3 * torch.eye(2, dtype=torch.float64)])
    r = torch.linalg.pinv(b, atol=torch.tensor([1e-2, 1e-4], dtype=torch.float64))
    _close(r[0], PINV_ATOL), _close(r[1], (1e3 * np.eye(2)).tolist(), atol=1e-9)
    assert torch.autograd.gradcheck(lambda x: torch.linalg.pinv(x, atol=1e-2), (_req(_near_singular(torch)),))


@pytest.mark.parametrize("kw", [{}, {"atol": 1e-2}, {"rtol": 1e-2}, {"atol": 1e-4, "rtol": 0.5},
                                {"hermitian": True}], ids=str)
def test_pinv_live(kw):
    pt = pytest.importorskip("torch")
    for dt in ("float32", "float64"):
        a = torch.linalg.pinv(_near_singular(torch).to(getattr(torch, dt)), **kw)
        b = pt.linalg.pinv(_near_singular(pt).to(getattr(pt, dt)), **kw)
        assert str(a.dtype) == str(b.dtype)
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-3 if dt == "float32" else 1e-9)


# -- the removed torch.matrix_rank, sparse methods on other layouts ---------------------------


def test_removed_matrix_rank():
    with pytest.raises(RuntimeError, match="deprecated since version 1.9 and is now removed"):
        torch.matrix_rank(torch.eye(2))


@pytest.mark.parametrize("name", ["indices", "values", "coalesce", "is_coalesced", "crow_indices",
                                  "col_indices"])
def test_sparse_methods_of_a_dense_tensor(name):
    with pytest.raises(RuntimeError, match=f"{name} expected .* layout but got Strided"):
        getattr(torch.ones(2, 2), name)()
    pt = pytest.importorskip("torch")
    with pytest.raises(RuntimeError, match=f"{name} expected .* layout but got Strided"):
        getattr(pt.ones(2, 2), name)()


def test_sparse_dims_of_a_dense_tensor():
    assert (torch.ones(2, 3).sparse_dim(), torch.ones(2, 3).dense_dim()) == (0, 2)
    with pytest.raises(RuntimeError, match="crow_indices expected sparse row compressed tensor layout but "
                       "got Sparse"):
        torch.ones(2, 2).to_sparse().crow_indices()


def test_lobpcg_gradient_live():
    pt = pytest.importorskip("torch")

    def grad(t):
        a = LOB_A(t).requires_grad_()
        t.manual_seed(7)
        E, X = t.lobpcg(a, k=2, largest=False)
        (E.sum() + (X ** 2 * t.linspace(-1, 1, 24, dtype=t.float64).reshape(12, 2)).sum()).backward()
        return a.grad.numpy()

    np.testing.assert_allclose(grad(torch), grad(pt), atol=1e-6)


def test_linalg_qr_mode_r_gives_empty_q_and_r():
    # torch.linalg.qr's docstring: qr(A, mode='r') (fgrad gave Q = R's first row, R = its second)
    import fgrad.torch as ft

    A = [[12.0, -51, 4], [6, 167, -68], [-4, 24, -41]]
    want_r = [[-14.0, -21.0, 14.0], [0.0, -175.0, 70.0], [0.0, 0.0, -35.0]]  # PyTorch 2.13
    q, r = ft.linalg.qr(ft.tensor(A), mode="r")
    assert q.shape == (0,) and q.dtype == ft.float32
    np.testing.assert_allclose(r.numpy(), want_r, atol=2e-5)
    assert ft.equal(r, ft.linalg.qr(ft.tensor(A)).R)
    torch = pytest.importorskip("torch")
    tq, tr = torch.linalg.qr(torch.tensor(A), mode="r")
    assert tq.shape == (0,)
    np.testing.assert_allclose(tr.numpy(), want_r, atol=2e-5)


def test_linalg_lstsq_broadcasts_batches():
    # torch.linalg.lstsq's docstring: A [1, 3, 3] with B [2, 3, 3] (fgrad raised "a must be two-dimensional")
    import fgrad.torch as ft

    A = [[[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]]
    want = [[[-0.2222224, 0.2222222], [0.4444447, 0.5555556], [0.8888891, 1.1111112]],
            [[2.4444437, 2.8888881], [1.1111113, 1.2222222], [2.2222226, 2.4444447]]]  # PyTorch 2.13
    want_grad = [[[-2.370369, -1.481480, -2.962961], [-0.592589, -0.370370, -0.740739],
                  [-1.185182, -0.740740, -1.481479]]]
    a = ft.tensor(A, requires_grad=True)
    r = ft.linalg.lstsq(a, ft.arange(12.0).reshape(2, 3, 2), driver="gelsd")
    np.testing.assert_allclose(r.solution.detach().numpy(), want, rtol=1e-5, atol=1e-5)
    assert r.rank.tolist() == [3] and r.singular_values.shape == (1, 3)  # of A's own batch
    np.testing.assert_allclose(r.singular_values.numpy(), [[4.7320504, 3.0, 1.2679492]], rtol=1e-5)
    r.solution.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), want_grad, rtol=1e-4, atol=1e-5)
    torch = pytest.importorskip("torch")
    t = torch.linalg.lstsq(torch.tensor(A), torch.arange(12.0).reshape(2, 3, 2), driver="gelsd")
    np.testing.assert_allclose(t.solution.numpy(), want, rtol=1e-5, atol=1e-5)
