"""ReLU's backward is PyTorch's ``threshold_backward``, a select: the gradient where
``not x <= 0`` (it passes at a NaN input), 0 elsewhere -- also for an infinite or NaN
cotangent, where the product with a 0/1 mask that fgrad used before session 26 gave NaN.
Every face (``F.relu``, ``torch.relu``, ``Tensor.relu``, ``relu_``, ``nn.ReLU(inplace=True)``)
on small arrays (NumPy's code) and large ones (a native kernel), against the rule itself and
live PyTorch where installed."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.compile import passes
from fgrad.core import native_loops
from fgrad.torch.autograd import graph

FACES = {
    "F.relu": lambda m, v: m.nn.functional.relu(v),
    "torch.relu": lambda m, v: m.relu(v),
    "Tensor.relu": lambda m, v: v.relu(),
    "relu_": lambda m, v: m.relu_(v * 1),
    "ReLU(inplace)": lambda m, v: m.nn.ReLU(inplace=True)(v * 1),
}
SPECIAL_X = [-1.0, 0.0, -0.0, 2.0, np.nan, -np.inf, np.inf, -3.0]
SPECIAL_CT = [np.inf, np.nan, -np.inf, 1.5, 3.0, np.nan, -np.inf, np.inf]


def _data(n, dtype):
    rng = np.random.default_rng(26)
    x = rng.standard_normal(n).astype(dtype)
    ct = rng.standard_normal(n).astype(dtype)
    x[:8], ct[:8] = SPECIAL_X, SPECIAL_CT
    ct[8::7] = np.inf  # infinite cotangents at inputs of both signs
    ct[9::11] = np.nan
    return x, ct


def _grad(m, face, x, ct):
    t = m.tensor(x, requires_grad=True)
    FACES[face](m, t).backward(m.tensor(ct))
    return t.grad.numpy()


@pytest.mark.parametrize("face", sorted(FACES))
@pytest.mark.parametrize("n", [8, 64, 5000])  # (5,000: the backward runs as a native kernel)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_relu_gradient_is_a_select(face, n, dtype):
    """Fails before session 26: NaN where ``x <= 0`` meets an infinite or NaN cotangent."""
    x, ct = _data(n, dtype)
    for _ in range(4):  # (a native kernel is compiled on a later call)
        got = _grad(torch, face, x, ct)
    want = np.where(x <= 0, dtype(0), ct)  # PyTorch's threshold_backward (NaN x: passes)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == dtype


@pytest.mark.parametrize("face", sorted(FACES))
def test_relu_gradient_matches_live_pytorch(face):
    pt = pytest.importorskip("torch")
    x, ct = _data(5000, np.float32)
    for _ in range(4):
        got = _grad(torch, face, x, ct)
    np.testing.assert_array_equal(got, _grad(pt, face, x, ct))


def test_relu_double_backward_is_the_mask():
    """``create_graph``: the first gradient is a select of the cotangent, differentiable in it."""
    x = torch.tensor([-1.0, 0.0, 2.0, 3.0], requires_grad=True)
    g = torch.tensor([5.0, 6.0, 7.0, 8.0], requires_grad=True)
    (dx,) = torch.autograd.grad(torch.relu(x), x, g, create_graph=True)
    dx.sum().backward()
    np.testing.assert_array_equal(g.grad.numpy(), [0.0, 0.0, 1.0, 1.0])


def test_backward_select_reads_no_zeros_array():
    """The select's zeros become a literal in the shim's backward program (no constant array
    read per element), and a native kernel loads its inputs before the select (a vector
    blend, not a branch per element on conditional loads)."""
    x = torch.tensor(np.linspace(-1, 1, 4096, dtype=np.float32), requires_grad=True)
    graph._PROGS._d.clear()
    for _ in range(4):
        x.grad = None
        torch.relu(x).sum().backward()
    progs = [p for k, p in graph._PROGS._d.items() if k[0] in ("relu", ("relu",))]
    assert progs and all(not p.consts for p in progs)
    selects = [e for p in progs for e in p.jaxpr.eqns if e.prim.name == "select_n"]
    assert selects and all(type(e.invars[2]).__name__ == "Literal" for e in selects)
    sources = [k.c_source for p in progs for k in p.steps.native_kernels]
    if native_loops.available():
        assert sources
    assert all("? in" not in src and ": in" not in src for src in sources)


def test_uniform_constants_keep_their_bits():
    """A constant of mixed signed zeros is not one value; a -0.0 everywhere stays -0.0."""
    import fgrad.numpy as fnp

    from fgrad.torch._device import cpu_default

    def f(c, x, y):
        return fnp.where(c, x, y)

    with cpu_default():  # (host constants, as the shim's programs have)
        _check_uniform_constants(f)


def _check_uniform_constants(f):
    import fgrad

    cj = fgrad.make_jaxpr(lambda c, y: f(c, np.array([0.0, -0.0]), y))(np.array([True, False]), np.ones(2))
    j, consts = passes.inline_jit_calls(cj.jaxpr, cj.consts)
    j2, consts2 = passes.uniform_select_constants(j, consts)
    assert len(consts2) == len(consts)
    cj = fgrad.make_jaxpr(lambda c, y: f(c, np.array([-0.0, -0.0]), y))(np.array([True, False]), np.ones(2))
    j, consts = passes.inline_jit_calls(cj.jaxpr, cj.consts)
    j2, consts2 = passes.uniform_select_constants(j, consts)
    lits = [a for e in j2.eqns if e.prim.name == "select_n"
            for a in e.invars if type(a).__name__ == "Literal"]
    assert consts and not consts2 and lits and np.signbit(lits[0].val)
