"""Sparse COO tensors in fgrad.torch against PyTorch 2.13: construction and printing,
coalescing (order, duplicates summed), PyTorch's merge for sparse + sparse, products with
dense matrices and their gradients in the values and the dense operand, ``torch.sparse.sum``,
``softmax``/``log_softmax``, ``nn.Embedding(sparse=True)`` gradients with ``SGD`` and
``SparseAdam``, and PyTorch's errors.  Each case runs against stored PyTorch numbers
(``tests/stored/torch_sparse.json``; regenerate with ``PYTHONPATH=. python
tests/shim/test_sparse.py``) and live when torch is installed."""

from __future__ import annotations

import json
import pathlib
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fgrad.torch as ftorch

STORED_PATH = pathlib.Path(__file__).parents[1] / "stored" / "torch_sparse.json"

_I = [[0, 1, 1, 0, 2], [2, 0, 2, 2, 1]]
_V = [3.0, 4.0, 5.0, 6.0, -1.5]


def _sparse_state(x):
    return {"indices": x._indices().tolist(), "values": x._values().detach().tolist(),
            "coalesced": x.is_coalesced(), "shape": list(x.shape)}


def _case_construct(t):
    s = t.sparse_coo_tensor(t.tensor(_I), t.tensor(_V), (3, 3))
    e = t.sparse_coo_tensor(t.zeros(2, 0, dtype=t.int64), t.zeros(0), (2, 3))
    h = t.sparse_coo_tensor(t.tensor([[0, 2]]), t.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=t.float64), (3, 2),
                            requires_grad=True)
    return {"repr": repr(s), "repr empty": repr(e), "repr hybrid": repr(h), "repr scaled": repr(h * 2),
            "state": _sparse_state(s), "dense": s.to_dense().tolist(), "nnz": s._nnz(),
            "dims": [s.sparse_dim(), s.dense_dim(), h.sparse_dim(), h.dense_dim()],
            "inferred size": list(t.sparse_coo_tensor(t.tensor(_I), t.tensor(_V)).shape)}


def _case_coalesce(t):
    s = t.sparse_coo_tensor(t.tensor([[2, 0, 2, 1, 0, 2], [1, 1, 1, 0, 1, 0]]),
                            t.tensor([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]), (3, 2))
    c = s.coalesce()
    return {"coalesced": _sparse_state(c), "t": _sparse_state(s.t()), "ct": _sparse_state(c.t()),
            "scaled flags": [(s * 2).is_coalesced(), (c * 2).is_coalesced(), (-c).is_coalesced()]}


def _case_to_sparse(t):
    d = t.tensor([[0.0, 1.5, 0.0], [0.0, 0.0, 0.0], [2.0, 0.0, -3.0]])
    return {"full": _sparse_state(d.to_sparse()), "rows": _sparse_state(d.to_sparse(1))}


def _case_add(t):
    def sp(i, v, c=None):
        return t.sparse_coo_tensor(t.tensor(i), t.tensor(v), (3, 3), is_coalesced=c)

    pairs = {
        "unsorted": (sp([[0, 1], [2, 0]], [1.0, 2.0]), sp([[1, 0], [0, 2]], [10.0, 20.0])),
        "swapped": (sp([[1, 0], [0, 2]], [10.0, 20.0]), sp([[0, 1], [2, 0]], [1.0, 2.0])),
        "reversed": (sp([[2, 0], [2, 0]], [1.0, 2.0]), sp([[0, 2], [0, 2]], [10.0, 20.0])),
        "coalesced": (sp([[0, 1], [0, 1]], [1.0, 2.0]).coalesce(),
                      sp([[1, 2], [1, 2]], [10.0, 20.0]).coalesce()),
    }
    out = {k: _sparse_state(a + b) for k, (a, b) in pairs.items()}
    a, b = pairs["coalesced"]
    out["alpha"] = _sparse_state(a.add(b, alpha=3))
    out["sub"] = _sparse_state(a - b)
    out["dense + sparse"] = (t.ones(3, 3) + pairs["unsorted"][1]).tolist()
    out["dense - sparse"] = (t.ones(3, 3) - pairs["unsorted"][1]).tolist()
    out["sparse * dense"] = _sparse_state(a * t.arange(9.0).reshape(3, 3))
    out["sparse * sparse"] = _sparse_state(a * b)
    return out


def _case_mm(t):
    t.manual_seed(0)
    d = t.randn(3, 4, dtype=t.float64, requires_grad=True)
    s = t.sparse_coo_tensor(t.tensor(_I), t.tensor(_V, dtype=t.float64), (3, 3), requires_grad=True)
    w = t.randn(3, 4, dtype=t.float64)
    y = t.sparse.mm(s, d)
    (y * w).sum().backward()
    out = {"sparse.mm": y.tolist(), "grad values": s.grad.coalesce()._values().tolist(),
           "grad indices": s.grad.coalesce()._indices().tolist(), "grad dense": d.grad.tolist()}
    m = t.randn(2, 3, dtype=t.float64)
    out["torch.mm"] = t.mm(s, d).tolist()
    out["@"] = (s @ d).tolist()
    out["matmul vector"] = t.matmul(s, d[:, 0]).tolist()
    out["mv"] = t.mv(s, d[:, 1]).tolist()
    out["dense @ sparse"] = (m @ s).tolist()
    out["torch.mm dense sparse"] = t.mm(m, s).tolist()
    out["sparse @ sparse"] = _sparse_state(t.sparse.mm(s, s.t()).detach())
    out["addmm"] = t.sparse.addmm(t.ones(3, 4, dtype=t.float64), s, d, beta=0.5, alpha=2.0).tolist()
    return out


def _case_sum(t):
    s = t.sparse_coo_tensor(t.tensor(_I), t.tensor(_V), (3, 3))
    h = t.sparse_coo_tensor(t.tensor([[0, 2, 0]]), t.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), (3, 2))
    return {"all": t.sparse.sum(s).item(), "dim0": _sparse_state(t.sparse.sum(s, dim=0)),
            "dim1": _sparse_state(t.sparse.sum(s, dim=1)), "both": t.sparse.sum(s, dim=(0, 1)).tolist(),
            "hybrid dense dim": _sparse_state(t.sparse.sum(h, dim=1)),
            "hybrid sparse dim": t.sparse.sum(h, dim=0).tolist(), "method": s.sum().item()}


def _case_softmax(t):
    s = t.sparse_coo_tensor(t.tensor(_I), t.tensor(_V, dtype=t.float64), (3, 3), requires_grad=True)
    w = t.tensor([0.3, -1.0, 2.0, 0.5], dtype=t.float64)
    out = {}
    for name, fn in (("softmax", t.sparse.softmax), ("log_softmax", t.sparse.log_softmax)):
        for dim in (0, 1):
            s.grad = None
            r = fn(s, dim)
            (r.values() * w).sum().backward()
            out[f"{name} {dim}"] = _sparse_state(r.detach())
            out[f"{name} {dim} grad"] = s.grad.coalesce()._values().tolist()
    return out


def _case_embedding(t):
    t.manual_seed(0)
    e = t.nn.Embedding(6, 3, sparse=True, padding_idx=5).double()
    out = e(t.tensor([[1, 1, 3], [0, 5, 1]]))
    (out ** 2).sum().backward()
    first = repr(e.weight.grad)
    e(t.tensor([4])).sum().backward()
    res = {"grad repr": first, "accumulated": _sparse_state(e.weight.grad),
           "grad_fn": type(out.grad_fn).__name__.startswith("Embedding")}
    for name, kw in (("SGD", dict(lr=0.1)), ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True)),
                     ("SparseAdam", dict(lr=0.05, betas=(0.8, 0.99)))):
        t.manual_seed(0)
        e = t.nn.Embedding(6, 3, sparse=True).double()
        opt = getattr(t.optim, name)(e.parameters(), **kw)
        for _ in range(4):
            opt.zero_grad()
            (e(t.tensor([[1, 1, 3], [0, 5, 1]])) ** 2).sum().backward()
            opt.step()
        res[f"{name} {sorted(kw)}"] = e.weight.detach().tolist()
    return res


def _case_gcn(t):
    """pygcn's two-layer graph convolution (a sparse normalised adjacency built with the legacy
    ``torch.sparse.FloatTensor``, ``torch.spmm``, dropout, Adam): the training losses."""
    import math

    F = t.nn.functional

    class GraphConvolution(t.nn.Module):
        def __init__(self, n_in, n_out):
            super().__init__()
            self.weight = t.nn.Parameter(t.empty(n_in, n_out))
            self.bias = t.nn.Parameter(t.empty(n_out))
            stdv = 1.0 / math.sqrt(n_out)
            self.weight.data.uniform_(-stdv, stdv)
            self.bias.data.uniform_(-stdv, stdv)

        def forward(self, x, adj):
            return t.spmm(adj, t.mm(x, self.weight)) + self.bias

    n = 10
    a = np.eye(n, dtype=np.float32)
    for i in range(n):
        a[i, (i + 1) % n] = a[(i + 1) % n, i] = 1.0
    a[0, 5] = a[5, 0] = a[2, 7] = a[7, 2] = 1.0
    a = a / a.sum(1, keepdims=True)
    rows, cols = np.nonzero(a)
    adj = t.sparse.FloatTensor(t.from_numpy(np.vstack((rows, cols)).astype(np.int64)),
                               t.from_numpy(a[rows, cols]), t.Size(a.shape))
    t.manual_seed(0)
    x = t.randn(n, 6)
    labels = t.tensor([0, 1, 2, 0, 1, 2, 0, 1, 2, 0])
    gc1, gc2 = GraphConvolution(6, 8), GraphConvolution(8, 3)
    opt = t.optim.Adam(list(gc1.parameters()) + list(gc2.parameters()), lr=0.05, weight_decay=5e-4)
    losses = []
    for _ in range(6):
        opt.zero_grad()
        h = F.dropout(F.relu(gc1(x, adj)), 0.5, training=True)
        loss = F.nll_loss(F.log_softmax(gc2(h, adj), dim=1), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return {"losses": losses, "weight": gc2.weight.detach().tolist()}


CASES = {f.__name__[6:]: f for f in (_case_construct, _case_coalesce, _case_to_sparse, _case_add, _case_mm,
                                     _case_sum, _case_softmax, _case_embedding, _case_gcn)}


def _compare(got, want, path=""):
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), path
        for k in want:
            _compare(got[k], want[k], f"{path}/{k}")
    elif isinstance(want, (str, bool, int)):
        assert got == want, f"{path}: {got!r} != {want!r}"
    else:
        np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=1e-5,
                                   atol=1e-7, err_msg=path)


@pytest.mark.parametrize("name", sorted(CASES))
def test_stored_pytorch_numbers(name):
    _compare(CASES[name](ftorch), json.loads(STORED_PATH.read_text())[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_live_pytorch(name):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = json.loads(json.dumps(CASES[name](torch)))
    _compare(json.loads(json.dumps(CASES[name](ftorch))), want)


def test_mm_gradients_are_the_analytic_ones():
    """d/dv sum(W * (S @ D)) = (W @ D^T)[r, c] per entry; d/dD = S^T @ W."""
    rs = np.random.default_rng(0)
    ind = np.array(_I)
    vals = ftorch.tensor(_V, dtype=ftorch.float64, requires_grad=True)
    d = ftorch.tensor(rs.normal(size=(3, 4)), requires_grad=True)
    w = rs.normal(size=(3, 4))
    s = ftorch.sparse_coo_tensor(ind, vals, (3, 3))
    (ftorch.sparse.mm(s, d) * ftorch.tensor(w)).sum().backward()
    dense_s = np.zeros((3, 3))
    np.add.at(dense_s, tuple(ind), _V)
    np.testing.assert_allclose(d.grad.numpy(), dense_s.T @ w, rtol=1e-12)
    np.testing.assert_allclose(vals.grad.numpy(), (w @ d.detach().numpy().T)[tuple(ind)], rtol=1e-12)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(0, 12), st.integers(0, 2**31 - 1))
def test_random_sparse_matches_dense_arithmetic(rows, cols, nnz, seed):
    rs = np.random.default_rng(seed)
    ind = np.stack([rs.integers(0, rows, nnz), rs.integers(0, cols, nnz)])
    vals = rs.normal(size=nnz)
    dense = np.zeros((rows, cols))
    np.add.at(dense, tuple(ind), vals)
    s = ftorch.sparse_coo_tensor(ind, vals, (rows, cols))
    np.testing.assert_allclose(s.to_dense().numpy(), dense, atol=1e-12)
    c = s.coalesce()
    np.testing.assert_allclose(c.to_dense().numpy(), dense, atol=1e-12)
    lin = np.ravel_multi_index(tuple(c.indices().numpy()), (rows, cols))
    assert (np.diff(lin) > 0).all()
    m = rs.normal(size=(cols, 3))
    np.testing.assert_allclose((s @ ftorch.tensor(m)).numpy(), dense @ m, atol=1e-12)
    np.testing.assert_allclose((s + s.t().t()).to_dense().numpy(), 2 * dense, atol=1e-12)
    np.testing.assert_allclose(ftorch.sparse.sum(s, 1).to_dense().numpy(), dense.sum(1), atol=1e-12)
    back = ftorch.tensor(dense).to_sparse()
    np.testing.assert_allclose(back.to_dense().numpy(), dense)


def test_unsupported_ops_raise_pytorchs_errors():
    s = ftorch.sparse_coo_tensor(_I, _V, (3, 3))
    with pytest.raises(NotImplementedError, match="Could not run 'aten::exp' with arguments from the "
                                                  "'SparseCPU'"):
        s.exp()
    with pytest.raises(RuntimeError, match="Could not run 'aten::sigmoid'"):
        ftorch.sigmoid(s)
    with pytest.raises(RuntimeError, match=r"add\(sparse, dense\) is not supported. Use "
                                           r"add\(dense, sparse\)"):
        s + ftorch.ones(3, 3)
    with pytest.raises(RuntimeError, match="Cannot get values on an uncoalesced tensor"):
        s.values()
    with pytest.raises(TypeError, match="can't convert Sparse layout tensor to numpy"):
        s.numpy()
    with pytest.raises(RuntimeError, match="size is inconsistent with indices: for dim 0, size is 3 but "
                                           "found index 5"):
        ftorch.sparse_coo_tensor([[0, 5]], [1.0, 2.0], (3,))
    with pytest.raises(RuntimeError, match="indices and values must have same nnz"):
        ftorch.sparse_coo_tensor([[0, 1]], [1.0, 2.0, 3.0], (3,))
    with pytest.raises(RuntimeError, match=r"Expected dim 0 size 3, got 4"):
        ftorch.sparse.mm(s, ftorch.ones(4, 2))
    emb = ftorch.nn.Embedding(4, 2, sparse=True)
    emb(ftorch.tensor([1])).sum().backward()
    with pytest.raises(RuntimeError, match="Adam does not support sparse gradients, please consider "
                                           "SparseAdam"):
        ftorch.optim.Adam(emb.parameters()).step()
    with pytest.raises(RuntimeError, match="SparseAdam does not support dense gradients"):
        w = ftorch.ones(2, requires_grad=True)
        (w * 2).sum().backward()
        ftorch.optim.SparseAdam([w]).step()


def test_sparse_embedding_refuses_scale_grad_by_freq_as_pytorch():
    emb = ftorch.nn.Embedding(4, 2, sparse=True, scale_grad_by_freq=True)
    out = emb(ftorch.tensor([1, 1]))
    with pytest.raises(RuntimeError, match="scale_grad_by_freq not supported with sparse gradients"):
        out.sum().backward()


def test_autograd_grad_through_a_sparse_embedding_is_dense():
    emb = ftorch.nn.Embedding(4, 2, sparse=True)
    (g,) = ftorch.autograd.grad(emb(ftorch.tensor([1, 1, 3])).sum(), emb.weight)
    np.testing.assert_array_equal(g.numpy(), [[0, 0], [2, 2], [0, 0], [1, 1]])
    assert emb.weight.grad is None


def test_metadata_methods_and_deepcopy():
    import copy

    s = ftorch.sparse_coo_tensor(_I, _V, (3, 3), requires_grad=True)
    assert s.is_floating_point() and not s.is_complex() and s.get_device() == -1
    c = copy.deepcopy(s)
    assert c.is_sparse and c.requires_grad and c._nnz() == 5
    np.testing.assert_array_equal(c.to_dense().detach().numpy(), s.to_dense().detach().numpy())
    assert s.data.is_sparse and not s.data.requires_grad


def test_sparse_leaf_gradient_and_layout():
    s = ftorch.sparse_coo_tensor(_I, _V, (3, 3), requires_grad=True)
    assert s.is_sparse and s.layout is ftorch.sparse_coo and s.is_leaf and s.requires_grad
    assert isinstance(s, ftorch.Tensor)
    s.to_dense().sum().backward()
    assert s.grad.is_sparse
    np.testing.assert_array_equal(s.grad.coalesce()._values().numpy(), np.ones(4))  # one per position


if __name__ == "__main__":
    import torch

    warnings.simplefilter("ignore")
    STORED_PATH.write_text(json.dumps({k: f(torch) for k, f in CASES.items()}, indent=1) + "\n")
    print(f"wrote {STORED_PATH}")


@pytest.fixture
def cuda_device():
    """The fake device installed as ``cuda`` (a strict CuPy stand-in), unless a GPU is there."""
    import fgrad.backends as B
    import fgrad.torch._device as _dev
    from fgrad.testing import fake_device

    try:
        real = bool(B.get_backend("cupy").devices())
    except Exception:  # noqa: BLE001
        real = False
    if real:
        yield
        return
    prev = fake_device.BACKEND
    prev_platform = prev.platform if prev is not None else None
    fake_device.install(platform="cuda")
    try:
        yield
    finally:
        fake_device.uninstall()
        if prev_platform is not None:
            fake_device.install(platform=prev_platform)
        _dev.backend()


def test_sparse_ops_on_the_cuda_device_agree_with_the_cpu(cuda_device):
    """Values stay on the device (indices are host bookkeeping); results equal the CPU's."""
    rs = np.random.default_rng(0)
    d = rs.normal(size=(3, 4))
    results = {}
    for dev in ("cpu", "cuda"):
        vals = ftorch.tensor(_V, dtype=ftorch.float64, device=dev, requires_grad=True)
        dense = ftorch.tensor(d, device=dev, requires_grad=True)
        s = ftorch.sparse_coo_tensor(_I, vals, (3, 3))
        assert str(s.device).startswith(dev)
        y = ftorch.sparse.mm(s, dense) + ftorch.sparse.softmax(s, 1).to_dense() @ dense
        y.sum().backward()
        assert str(y.device).startswith(dev) and str(s._values().device).startswith(dev)
        assert (type(y._buf) is np.ndarray) == (dev == "cpu")
        emb = ftorch.nn.Embedding(5, 2, sparse=True).double().to(dev)
        emb(ftorch.tensor([1, 1, 4], device=dev)).sum().backward()
        ftorch.optim.SGD(emb.parameters(), lr=0.1).step()
        results[dev] = [y.detach().cpu().numpy(), vals.grad.cpu().numpy(), dense.grad.cpu().numpy(),
                        emb.weight.grad._values().cpu().numpy()]
    for a, b in zip(results["cpu"], results["cuda"]):
        np.testing.assert_allclose(a, b, rtol=1e-12)
