"""The shim's flat graph layout and float constants (docs/speed-eager.md, session 16).

A recorded op leaves one object for the garbage collector (its node: edges in slots, saved
entries in one flat tuple) instead of three or more; the engine, ``next_functions``,
``_saved_*``, saved-tensor hooks, version checks and releases read the flat fields.  A
Python float operand of a binary op becomes a read-only 0-d array of the Tensor's dtype
once per float object (NumPy's weak-scalar value), used by the ufunc and recorded.

Each is checked against what it replaces: the tuples of edges and entries PyTorch shows,
NumPy's weak-scalar ufunc bit for bit, analytic and second-order gradients, and PyTorch
(stored numbers; live when installed).
"""

from __future__ import annotations

import gc
import warnings

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch._faces import BINOPS
from fgrad.torch.autograd import graph as G

from _peers import torch_or_none


def _new_tracked_per_op(build, n=400):
    """Objects the collector tracks that ``build(n)``'s result keeps alive, per op."""
    keep = build(5)
    gc.collect()
    gc.collect()
    before = {id(o) for o in gc.get_objects()}
    keep = build(n)
    gc.collect()
    gc.collect()
    new = [o for o in gc.get_objects() if id(o) not in before]
    del keep
    return len(new) / n


@pytest.mark.slow  # scans every object of the process twice: 10-40 s in a long test run
def test_a_recorded_op_leaves_one_tracked_object():
    def chain(n):
        y = torch.ones(3, requires_grad=True)
        for _ in range(n):
            y = y * 1.0001
        return y

    # the node only (before: the node, its tuple of edges and an edge tuple per input)
    assert _new_tracked_per_op(chain) < 1.1


@pytest.mark.slow  # scans every object of the process twice: 10-40 s in a long test run
def test_saved_tensors_add_one_flat_tuple_per_node():
    w = torch.ones(3, requires_grad=True)

    def layers(n):
        y = torch.ones(3, requires_grad=True)
        for _ in range(n):
            y = torch.tanh(y * w + 0.5)
        return y

    # per step: 3 nodes, the saved tuples of Mul and Tanh, the saved Tensor y and its
    # version counter (before: 17, with a tuple per edge and per saved entry)
    assert _new_tracked_per_op(layers) < 7.1


def _edges(node):
    return [(None if n is None else n.name(), i) for n, i in node.next_functions]


def test_next_functions_from_flat_edges():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    c = torch.tensor([5.0, 6.0])
    assert x.grad_fn is None
    assert _edges((x * 2).grad_fn) == [("torch::autograd::AccumulateGrad", 0), (None, 0)]
    assert _edges((x * w).grad_fn) == [("torch::autograd::AccumulateGrad", 0)] * 2
    assert _edges(torch.exp(x).grad_fn) == [("torch::autograd::AccumulateGrad", 0)]
    y = torch.cat([x, c, x * w, torch.exp(w)])  # more than two edges (the rest in `_nr`)
    assert _edges(y.grad_fn) == [("torch::autograd::AccumulateGrad", 0), (None, 0), ("MulBackward0", 0),
                                 ("ExpBackward0", 0)]
    a, b = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).unbind(0)  # output indices
    assert _edges((a * b).grad_fn) == [("UnbindBackward0", 0), ("UnbindBackward0", 1)]
    # the tuple the setter takes back is the one the getter gives
    node = (x * w).grad_fn
    for edges in [(), ((None, 0),), ((x.grad_fn, 0),) * 3, tuple(node.next_functions) * 2]:
        node._next = edges
        assert node._next == tuple(edges) and node.next_functions == tuple(edges)
    # F.linear shows PyTorch's AddmmBackward0 -> TBackward0 over the folded weight edge
    lin = torch.nn.functional.linear(x[None], torch.ones(3, 2, requires_grad=True), torch.zeros(3))
    names = _edges(lin.grad_fn)
    assert ("TBackward0", 0) in names


def test_backward_through_flat_nodes_matches_the_analytic_gradient():
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    w = torch.tensor([1.5, 0.25, -3.0], requires_grad=True)
    parts = [x * w, torch.exp(x), x + 1.0, w * 2.0]
    y = torch.cat(parts).sum()
    y.backward()
    xv, wv = x.detach().numpy(), w.detach().numpy()
    np.testing.assert_allclose(x.grad.numpy(), wv + np.exp(xv) + 1.0, rtol=1e-6)
    np.testing.assert_allclose(w.grad.numpy(), xv + 2.0, rtol=1e-6)
    # the chain's gradient: 1.0001 ** n (float32 products, as PyTorch computes them)
    z = torch.ones(3, requires_grad=True)
    y = z
    for _ in range(1000):
        y = y * 1.0001
    y.sum().backward()
    want = np.float32(1.0)
    for _ in range(1000):
        want = want * np.float32(1.0001)
    np.testing.assert_array_equal(z.grad.numpy(), np.full(3, want, np.float32))


def test_saved_entries_decode_and_release():
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    w = torch.tensor([1.5, 0.25, -3.0], requires_grad=True)
    m = (x * w).grad_fn
    assert [e[0] for e in m._saved] == [1, 1] and m._saved[0][1] is x and m._saved[1][1] is w
    assert m._saved_self is x and m._saved_other is w
    e = torch.exp(x)
    assert [k[0] for k in e.grad_fn._saved] == [2]
    np.testing.assert_array_equal(e.grad_fn._saved_result.detach().numpy(), e.detach().numpy())
    assert (x * 2.5).grad_fn._saved_other == 2.5  # a constant: PyTorch keeps the Python scalar
    r = torch.relu(x)
    assert r.grad_fn._saved[-1][0] == 3  # the result PyTorch saves, version-checked only
    s = (e * r).sum()
    s.backward(retain_graph=True)
    s.backward()
    xv = np.array([0.5, -1.0, 2.0])
    # d/dx sum(exp(x) relu(x)) = exp(x) (relu(x) + step(x)), accumulated over the two passes
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp(xv) * (np.maximum(xv, 0) + (xv > 0)), rtol=1e-6)
    with pytest.raises(RuntimeError, match="second time"):
        s.backward()
    with pytest.raises(RuntimeError, match="freed"):
        _ = e.grad_fn._saved_result


@pytest.mark.parametrize("case", ["input", "output", "result"])
def test_version_checks_read_the_flat_entries(case):
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    if case == "input":
        a = x * 1.0
        y = a * a
        a.add_(1)
        who = "output 0 of MulBackward0"
    elif case == "output":
        a = torch.exp(x)
        y = a
        a.add_(1)
        who = "output 0 of Exp,"
    else:
        a = torch.relu(x)
        y = a
        a.add_(1)
        who = "output 0 of Relu,"
    with pytest.raises(RuntimeError, match="modified by an inplace operation") as e:
        y.sum().backward()
    if case != "input":
        assert who in str(e.value)
    assert "is at version 1; expected version 0" in str(e.value)


def test_saved_tensor_hooks_see_the_flat_entries_in_pytorchs_order():
    packed = []

    def pack(t):
        packed.append(t.detach().numpy().copy())
        return t

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = (x * w).exp()
    # MulBackward0 packs other, then self (PyTorch's order); ExpBackward0 its result
    want = [[3.0, 4.0], [1.0, 2.0], np.exp(np.array([3.0, 8.0], np.float32)).tolist()]
    assert [p.tolist() for p in packed] == want
    y.sum().backward()
    e = np.exp(np.array([3.0, 8.0], np.float32))
    np.testing.assert_allclose(x.grad.numpy(), e * [3.0, 4.0], rtol=1e-6)


def _refused(op, dtype) -> bool:
    """Whether PyTorch refuses ``op`` for ``dtype`` (the op spec's ``torch_refuses``)."""
    try:
        op.refuse is None or op.refuse(np.dtype(dtype))
    except RuntimeError:  # NotImplementedError is one
        return True
    return False


FLOATS = [1.0001, 0.5, -0.0, 0.0, np.nan, np.inf, -np.inf, 1e300, 1e-300, -2.5, 1e-40, 65504.0, 7e4]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("name", sorted(k for k, v in BINOPS.items() if v.kind != "c"))
def test_float_operand_is_numpys_weak_scalar_bit_for_bit(name, dtype):
    op = BINOPS[name]
    data = np.array([1.5, -2.0, 0.0, -0.0, np.inf, np.nan, 1e-3, 3.0, 65000.0])
    if dtype.startswith("complex"):
        data = data + np.array([0.5, -1.0, 0.0, 0.0, 1.0, 0.0, 1e3, -2.0, 1.0]) * 1j
    with np.errstate(all="ignore"):
        a = data.astype(dtype)
    for b in FLOATS:
        with np.errstate(all="ignore"):
            try:
                want = np.asarray(op.uf_raw(a, b))  # the path before: the ufunc with the float
                if dtype == "float16" and name in ("multiply", "divide"):
                    # PyTorch's opmath: the number stays float32, computed in float32, rounded
                    # once (torchprog18; NumPy rounds the number to float16 first: inf * 1e-40
                    # was NaN where PyTorch gives inf)
                    want = op.uf_raw(a.astype(np.float32), np.float32(b)).astype(np.float16)
            except TypeError:
                want = None
        for rg in (False, True):
            t = torch.from_numpy(a.copy()).requires_grad_(rg and name not in ("bitwise_and", "bitwise_or",
                                                                              "bitwise_xor"))
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # 1e300 in float16: inf, silently, as PyTorch
                try:
                    got = op(t, b)
                except (TypeError, RuntimeError):
                    assert want is None or name.startswith("bitwise") or _refused(op, a.dtype)
                    continue
            assert want is not None
            g = got.detach().numpy()
            assert g.dtype == want.dtype and g.tobytes() == want.tobytes(), (name, dtype, b)


def test_float_constant_is_shared_read_only_and_signed_zeros_stay_apart():
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    c = 1.0001
    n1, n2 = (x * c).grad_fn, (x * c).grad_fn
    k1, k2 = n1._saved[0][1], n2._saved[0][1]
    assert k1 is k2 and not k1.flags.writeable and k1.dtype == np.float32 and k1 == np.float32(c)
    with pytest.raises(ValueError):
        k1[()] = 2.0
    for z in (0.0, -0.0, 0.0, -0.0):
        r = (x * z).detach().numpy()
        assert list(np.signbit(r)) == [np.signbit(z), not np.signbit(z)]


def test_float_overflow_is_silent_with_and_without_grad():
    # before: recording `y * 1e300` warned "overflow encountered in cast" (PyTorch: silent inf)
    for rg in (False, True):
        y = torch.ones(2, requires_grad=rg)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            z = y * 1e300
            s = y + 1e300
        assert np.isinf(z.detach().numpy()).all() and np.isinf(s.detach().numpy()).all()
        if rg:
            z.sum().backward()
            assert np.isinf(y.grad.numpy()).all()  # PyTorch 2.13: tensor([inf, inf])
    peer = torch_or_none()
    if peer is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            pz = peer.ones(2, requires_grad=True) * 1e300
        assert np.isinf(pz.detach().numpy()).all()


def test_second_order_through_a_float_constant():
    x = torch.tensor([0.5, -1.5], dtype=torch.float64, requires_grad=True)
    y = ((x * 1.5) ** 3).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), 3 * 1.5 ** 3 * np.array([0.5, -1.5]) ** 2, rtol=1e-12)
    (h,) = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), 6 * 1.5 ** 3 * np.array([0.5, -1.5]), rtol=1e-12)


def test_engine_helpers_read_flat_edges():
    x = torch.tensor([1.0], requires_grad=True)
    w = torch.tensor([2.0], requires_grad=True)
    n = torch.cat([x * w, x, w * 3.0]).grad_fn
    assert [m.name() for m in G._nodes_of(n)] == ["MulBackward0", "torch::autograd::AccumulateGrad",
                                                    "MulBackward0"]
    assert G._nodes_of(G.grad_accumulator(x)) == ()


def test_inplace_op_marks_its_aliased_saved_input_in_the_flat_entries():
    # PyTorch 2.13: a.mul_(a) then backward raises "... which is output 0 of Mul, is at
    # version 1; expected version 0 instead"; a.mul_(w) differentiates
    x = torch.tensor([1.5, 2.0], requires_grad=True)
    a = x * 1.0
    a.mul_(a)
    with pytest.raises(RuntimeError, match="output 0 of Mul, is at version 1; expected version 0"):
        a.sum().backward()
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    a = x * 1.0
    a.mul_(w)
    a.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(w.grad.numpy(), [1.5, 2.0])
