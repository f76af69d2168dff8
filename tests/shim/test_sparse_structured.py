"""``torch.sparse.spdiags`` and ``torch.sparse.sampled_addmm``: entries, layouts, gradients and
errors equal PyTorch 2.13's (stored numbers, and live when torch is installed); gradients agree
with the dense formulas and finite differences."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import fgrad.torch as torch

# PyTorch 2.13 (CPU): spdiags(arange(1, 13).reshape(3, 4), offsets, shape) -> (_indices, _values)
SPDIAGS_CASES = [
    ([0, -1, 2], (4, 4), [[0, 1, 2, 3, 1, 2, 3, 0, 1], [0, 1, 2, 3, 0, 1, 2, 2, 3]],
     [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 11.0, 12.0]),
    ([1, -2, 0], (3, 5), [[0, 1, 2, 2, 0, 1, 2], [1, 2, 3, 0, 0, 1, 2]],
     [2.0, 3.0, 4.0, 5.0, 9.0, 10.0, 11.0]),
    ([0, 1, -1], (6, 5), [[0, 1, 2, 3, 0, 1, 2, 1, 2, 3, 4], [0, 1, 2, 3, 1, 2, 3, 0, 1, 2, 3]],
     [1.0, 2.0, 3.0, 4.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0]),
]
# PyTorch 2.13 (CPU), float64, the inputs of `_sampled_inputs`, beta=0.25, alpha=-2, loss sum(values**2)
SAMPLED_VALUES = [1.2746268684737334, -0.20236348586387004, -2.2356669318445723, -1.64263293636958]
SAMPLED_GRAD_VALUES = [0.6373134342368667, -0.10118174293193502, -1.1178334659222862, -0.82131646818479]
SAMPLED_GRAD_MAT1 = [[-4.6611576417518785, 1.3203744260087724, 3.5622183608692803, -4.285186229940567],
                     [0.0, 0.0, 0.0, 0.0],
                     [12.492741180240039, -10.226240011739263, -3.9815063189258257, 13.540022530366143]]
SAMPLED_GRAD_MAT2 = [[15.667114788069275, 6.955719937564353], [16.715522129928374, 8.96844330727357],
                     [17.76392947178747, 10.981166676982788], [18.812336813646567, 12.993890046692007]]


def _peer():
    return pytest.importorskip("torch")


def _diagonals(lib, requires_grad=False):
    return lib.arange(1.0, 13.0, dtype=lib.float64).reshape(3, 4).requires_grad_(requires_grad)


@pytest.mark.parametrize("offsets,shape,indices,values", SPDIAGS_CASES)
def test_spdiags_matches_stored_pytorch(offsets, shape, indices, values):
    s = torch.sparse.spdiags(_diagonals(torch), torch.tensor(offsets), shape)
    assert s.layout is torch.sparse_coo and not s.is_coalesced() and s.shape == shape
    assert s._indices().tolist() == indices and s._values().tolist() == values


@pytest.mark.parametrize("offsets,shape",
                         [(c[0], c[1]) for c in SPDIAGS_CASES] + [([2], (3, 3)), (0, (2, 4))])
@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_spdiags_matches_live_pytorch(offsets, shape, layout):
    peer = _peer()

    def diagonals(lib):  # one offset: a single diagonal, as a 1-row matrix or a vector
        d = _diagonals(lib)
        if not isinstance(offsets, list):
            return d[1]
        return d if len(offsets) == 3 else d[1:2]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's "CSR support is in beta" notice
        want = peer.sparse.spdiags(diagonals(peer), peer.tensor(offsets), shape,
                                   layout=peer.sparse_csr if layout == "csr" else None)
    got = torch.sparse.spdiags(diagonals(torch), torch.tensor(offsets), shape,
                               layout=torch.sparse_csr if layout == "csr" else None)
    np.testing.assert_array_equal(got.to_dense().numpy(), want.to_dense().numpy())
    if layout == "csr":
        assert got.layout is torch.sparse_csr
        assert got.crow_indices().tolist() == want.crow_indices().tolist()
        assert got.col_indices().tolist() == want.col_indices().tolist()
        assert got.values().tolist() == want.values().tolist()
    else:
        assert got._indices().tolist() == want._indices().tolist()
        assert got._values().tolist() == want._values().tolist()


def test_spdiags_gradient_reaches_the_used_diagonal_entries():
    # PyTorch has no derivative for spdiags; fgrad's is the gather's: weight of the entry each
    # diagonal value lands on, zero for the values that fall outside the matrix
    d = _diagonals(torch, requires_grad=True)
    weights = torch.arange(20.0, dtype=torch.float64).reshape(4, 5)
    (torch.sparse.spdiags(d, torch.tensor([0, -1, 2]), (4, 5)).to_dense() * weights).sum().backward()
    expected = np.zeros((3, 4))
    w = weights.numpy()
    for k, off in enumerate([0, -1, 2]):
        for col in range(4):
            row = col - off
            if 0 <= row < 4 and col < 5:
                expected[k, col] = w[row, col]
    np.testing.assert_array_equal(d.grad.numpy(), expected)


def test_spdiags_offsets_outside_the_matrix_give_empty_diagonals():
    # PyTorch 2.13 fails here (negative-size tensor error, or a crash): SciPy's answer
    s = torch.sparse.spdiags(_diagonals(torch), torch.tensor([3, -3, 0]), (2, 2))
    np.testing.assert_array_equal(s.to_dense().numpy(), [[9.0, 0.0], [0.0, 10.0]])


@pytest.mark.parametrize("call,kind,message", [
    (lambda t, d: t.sparse.spdiags(d, t.tensor([0, 0, 1]), (4, 4)), RuntimeError,
     "Offset tensor contains duplicate values"),
    (lambda t, d: t.sparse.spdiags(d, t.tensor([0]), (4, 4)), RuntimeError,
     "Number of diagonals (3) does not match the number of offsets (1)"),
    (lambda t, d: t.sparse.spdiags(d, t.tensor([0.0, 1.0, 2.0]), (4, 4)), RuntimeError,
     "Offset Tensor must have dtype Long but got Float"),
    (lambda t, d: t.sparse.spdiags(d, t.tensor([[0, 1, 2]]), (4, 4)), RuntimeError,
     "Offsets must be scalar or vector"),
    (lambda t, d: t.sparse.spdiags(d, t.tensor([0, 1, 2]), (4, 4, 4)), RuntimeError,
     "Output shape must be 2d"),
    (lambda t, d: t.sparse.spdiags(d[None], t.tensor([0, 1, 2]), (4, 4)), RuntimeError,
     "Diagonals must be vector or matrix"),
    (lambda t, d: t.sparse.spdiags(d, t.tensor([0, 1, 2]), (4, 4), layout=t.strided), RuntimeError,
     "Only output layouts (Sparse, SparseCsc, SparseCsr) are supported, got Strided"),
])
def test_spdiags_errors_match_pytorch(call, kind, message):
    with pytest.raises(kind) as got:
        call(torch, _diagonals(torch))
    assert message in str(got.value)
    try:
        import torch as peer
    except ImportError:
        return
    with pytest.raises(kind) as want:
        call(peer, _diagonals(peer))
    assert message in str(want.value)


def _sampled_inputs(lib):
    m1 = lib.linspace(-1, 2, 12, dtype=lib.float64).reshape(3, 4).requires_grad_()
    m2 = lib.cos(lib.arange(8.0, dtype=lib.float64)).reshape(4, 2).requires_grad_()
    vals = lib.tensor([0.5, -1.5, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
    inp = lib.sparse_csr_tensor(lib.tensor([0, 2, 2, 4]), lib.tensor([0, 1, 0, 1]), vals, (3, 2))
    return inp, vals, m1, m2


def _sampled_run(lib):
    inp, vals, m1, m2 = _sampled_inputs(lib)
    r = lib.sparse.sampled_addmm(inp, m1, m2, beta=0.25, alpha=-2.0)
    (r.values() ** 2).sum().backward()
    return r, vals.grad, m1.grad, m2.grad


def test_sampled_addmm_matches_stored_pytorch():
    r, g_vals, g_m1, g_m2 = _sampled_run(torch)
    assert r.layout is torch.sparse_csr
    assert r.crow_indices().tolist() == [0, 2, 2, 4] and r.col_indices().tolist() == [0, 1, 0, 1]
    np.testing.assert_allclose(r.values().detach().numpy(), SAMPLED_VALUES, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(g_vals.numpy(), SAMPLED_GRAD_VALUES, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(g_m1.numpy(), SAMPLED_GRAD_MAT1, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(g_m2.numpy(), SAMPLED_GRAD_MAT2, rtol=1e-14, atol=1e-14)


def test_sampled_addmm_matches_live_pytorch():
    peer = _peer()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's sparse-invariants notice
        peer_run = _sampled_run(peer)
    for got, want in zip(_sampled_run(torch), peer_run):
        got = got.values() if got.layout is torch.sparse_csr else got
        want = want.values() if want.layout is peer.sparse_csr else want
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-14, atol=1e-14)


def test_sampled_addmm_is_the_masked_dense_formula_and_its_gradient():
    inp, vals, m1, m2 = _sampled_inputs(torch)
    mask = inp.detach().to_dense() != 0
    r = torch.sparse.sampled_addmm(inp, m1, m2, beta=0.25, alpha=-2.0)
    dense = torch.where(mask, 0.25 * inp.to_dense() - 2.0 * (m1 @ m2), torch.zeros(3, 2, dtype=torch.float64))
    np.testing.assert_allclose(r.to_dense().detach().numpy(), dense.detach().numpy(), rtol=1e-15)
    assert torch.autograd.gradcheck(
        lambda a, b: torch.sparse.sampled_addmm(inp.detach(), a, b, alpha=-2.0).values(), (m1, m2))


@pytest.mark.parametrize("call,kind,message", [
    (lambda t, inp, m1, m2: t.sparse.sampled_addmm(inp.to_dense(), m1, m2), NotImplementedError,
     "Could not run 'aten::sparse_sampled_addmm' with arguments from the 'CPU' backend"),
    (lambda t, inp, m1, m2: t.sparse.sampled_addmm(inp.to_dense().to_sparse(), m1, m2), NotImplementedError,
     "Could not run 'aten::sparse_sampled_addmm' with arguments from the 'SparseCPU' backend"),
    (lambda t, inp, m1, m2: t.sparse.sampled_addmm(inp, m1, m2[:3]), RuntimeError,
     "sampled_addmm: mat1 and mat2 shapes cannot be multiplied (3x4 and 3x2)"),
    (lambda t, inp, m1, m2: t.sparse.sampled_addmm(inp, m1, m2.float()), RuntimeError,
     "sampled_addmm: Expected mat1 and mat2 to have the same dtype, but got Double and Float"),
    (lambda t, inp, m1, m2: t.sparse.sampled_addmm(inp, m1.to_sparse_csr(), m2), RuntimeError,
     "sampled_addmm: Expected mat1 to have strided layout, but got SparseCsr"),
    (lambda t, inp, m1, m2: t.sparse.sampled_addmm(inp, m1[:2], m2), RuntimeError,
     "sampled_addmm: self.shape[-2] must match mat1.shape[-2]"),
    (lambda t, inp, m1, m2: t.sparse.sampled_addmm(inp, m1, m2[:, :1]), RuntimeError,
     "sampled_addmm: self.shape[-1] must match mat2.shape[-1]"),
    (lambda t, inp, m1, m2: t.sparse.sampled_addmm(inp, m1[0], m2), RuntimeError,
     "sampled_addmm: Expected mat1 to be a matrix, got 1-D tensor"),
])
def test_sampled_addmm_errors_match_pytorch(call, kind, message):
    def raised(lib):
        inp, _, m1, m2 = _sampled_inputs(lib)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PyTorch's "CSR support is in beta" notice, not fgrad's
            with pytest.raises(kind) as info:
                call(lib, inp.detach(), m1.detach(), m2.detach())
        return str(info.value)

    assert message in raised(torch)
    try:
        import torch as peer
    except ImportError:
        return
    assert message in raised(peer)


def test_csr_copies_keep_the_csr_layout():
    # regression: detach/clone/to of a CSR matrix returned a COO tensor (PyTorch keeps CSR)
    inp, vals, _, _ = _sampled_inputs(torch)
    for copy in (inp.detach(), inp.clone(), inp.to(torch.float32)):
        assert copy.layout is torch.sparse_csr and copy.crow_indices().tolist() == [0, 2, 2, 4]
    assert not inp.detach().requires_grad and inp.clone().requires_grad
    assert inp.to(torch.float32).values().dtype == torch.float32


# spsolve: PyTorch 2.13's CPU build has no kernel for it, so the stored and live references
# are torch.linalg.solve on the dense matrix (float64), loss sum(x * [1, 2, 3, 4])
SPSOLVE_CROW, SPSOLVE_COL = [0, 2, 5, 6, 8], [0, 1, 0, 1, 3, 2, 1, 3]
SPSOLVE_VALUES = [4.0, 1.0, 1.0, 3.0, 0.5, 2.0, 0.5, 5.0]
SPSOLVE_X = [0.46296296296296297, -0.8518518518518519, 1.5, 0.1851851851851852]
SPSOLVE_GRAD_VALUES = [-0.05787037037037037, 0.10648148148148148, -0.23148148148148148, 0.42592592592592593,
                       -0.0925925925925926, -2.25, 0.6388888888888888, -0.1388888888888889]
SPSOLVE_GRAD_OTHER = [0.125, 0.5, 1.5, 0.7499999999999999]


def _spsolve_inputs(lib):
    vals = lib.tensor(SPSOLVE_VALUES, dtype=lib.float64, requires_grad=True)
    b = lib.tensor([1.0, -2.0, 3.0, 0.5], dtype=lib.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's sparse-invariants notice
        a = lib.sparse_csr_tensor(lib.tensor(SPSOLVE_CROW), lib.tensor(SPSOLVE_COL), vals, (4, 4))
    return a, vals, b


def test_spsolve_matches_stored_solution_and_gradients():
    a, vals, b = _spsolve_inputs(torch)
    x = torch.sparse.spsolve(a, b)
    np.testing.assert_allclose(x.detach().numpy(), SPSOLVE_X, rtol=1e-14)
    (x * torch.arange(1.0, 5.0, dtype=torch.float64)).sum().backward()
    np.testing.assert_allclose(vals.grad.numpy(), SPSOLVE_GRAD_VALUES, rtol=1e-13)
    np.testing.assert_allclose(b.grad.numpy(), SPSOLVE_GRAD_OTHER, rtol=1e-13)


def test_spsolve_matches_live_dense_solve_and_pytorch_cpu_refuses():
    peer = _peer()
    a, _, b = _spsolve_inputs(peer)
    want = peer.linalg.solve(a.to_dense(), b)
    got = torch.sparse.spsolve(_spsolve_inputs(torch)[0], _spsolve_inputs(torch)[2])
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-14)
    with pytest.raises(NotImplementedError, match="aten::_spsolve"):
        peer.sparse.spsolve(a.detach(), b.detach())


def test_spsolve_matrix_right_hand_side_and_errors():
    a, _, b = _spsolve_inputs(torch)
    rhs = torch.stack([b.detach(), 2 * b.detach()], 1)
    x = torch.sparse.spsolve(a.detach(), rhs)
    np.testing.assert_allclose((a.detach().to_dense() @ x).numpy(), rhs.numpy(), rtol=1e-13, atol=1e-14)
    with pytest.raises(NotImplementedError, match="aten::_spsolve.*to_sparse_csr"):
        torch.sparse.spsolve(a.detach().to_dense(), b)
    with pytest.raises(RuntimeError, match="only left=True"):
        torch.sparse.spsolve(a, b, left=False)
    with pytest.raises(RuntimeError, match="must be a square matrix, got 2x3"):
        torch.sparse.spsolve(torch.ones(2, 3, dtype=torch.float64).to_sparse_csr(), b[:2])
    with pytest.raises(RuntimeError, match="other.shape\\[0\\] must be 4"):
        torch.sparse.spsolve(a, b[:3])
    with pytest.raises(RuntimeError, match="same dtype, but got Double and Float"):
        torch.sparse.spsolve(a, b.float())
