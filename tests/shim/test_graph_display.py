"""The autograd graph as PyTorch shows it: ``grad_fn`` names and ``next_functions`` (order,
``None`` entries, ``AccumulateGrad`` leaves) of small programs equal PyTorch's, stored in
``tests/stored/torch_autograd_graphs.json`` (made by ``graph_programs.py`` with PyTorch 2.13)
and compared live when PyTorch is installed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import fgrad.torch as torch
from graph_programs import graphs, programs

STORED = json.loads((Path(__file__).parents[1] / "stored" / "torch_autograd_graphs.json").read_text())

# composites whose PyTorch graph is a decomposition fgrad records differently (one node, or
# other views); their gradients are equal, only the drawn graph differs
DIFFERENT = {
    "einsum": "one EinsumBackward0 node (PyTorch: its bmm/permute/view decomposition)",
    "outer": "MulBackward0 over UnsqueezeBackward0(ViewBackward0) and ViewBackward0 (PyTorch: "
             "MulBackward0 over ViewBackward0 and the vector)",
    "sdpa": "the math path's nodes (SoftmaxBackward0, MulBackward0, UnsafeViewBackward0) instead of "
            "PyTorch's (SafeSoftmaxBackward0, BmmBackward0, ExpandBackward0, ...)",
}

FGRAD = graphs(torch)


@pytest.mark.parametrize("name", sorted(STORED))
def test_graph_matches_pytorch(name):
    if name in DIFFERENT:
        assert FGRAD[name] != STORED[name], f"{name} now matches PyTorch: remove it from DIFFERENT"
        return
    assert FGRAD[name] == STORED[name]


def test_stored_graphs_are_pytorchs():
    torch_ = pytest.importorskip("torch")
    assert graphs(torch_) == STORED


def test_every_program_is_stored():
    assert set(programs(torch)) == set(STORED)


def _linear():
    x = torch.randn(4, 3, requires_grad=True)
    lin = torch.nn.Linear(3, 2)
    return x, lin, lin(x)


def test_shown_nodes_are_stable_and_lead_to_the_leaves():
    x, lin, out = _linear()
    g = out.grad_fn
    assert g.next_functions is g.next_functions  # the same objects on each access
    t_node = g.next_functions[2][0]
    assert t_node.name() == "TBackward0"
    assert t_node.next_functions[0][0].variable is lin.weight
    assert g.next_functions[0][0].variable is lin.bias
    assert g.next_functions[1][0].variable is x


def test_shown_nodes_refuse_hooks_and_calls_but_gradients_are_unchanged():
    x, lin, out = _linear()
    t_node = out.grad_fn.next_functions[2][0]
    with pytest.raises(RuntimeError, match="graph structure only"):
        t_node.register_hook(lambda gi, go: None)
    with pytest.raises(RuntimeError, match="graph structure only"):
        t_node.register_prehook(lambda go: None)
    with pytest.raises(RuntimeError, match="graph structure only"):
        t_node(torch.ones(3, 2))
    out.sum().backward()
    np.testing.assert_allclose(lin.weight.grad.numpy(), np.tile(x.detach().numpy().sum(0), (2, 1)), rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), np.tile(lin.weight.detach().numpy().sum(0), (4, 1)), rtol=1e-6)


def test_nll_loss_and_embedding_list_no_integer_edge_and_still_differentiate():
    emb = torch.nn.Embedding(5, 3)
    idx = torch.tensor([0, 2, 2])
    out = emb(idx)
    assert len(out.grad_fn.next_functions) == 1
    out.sum().backward()
    assert emb.weight.grad[2].tolist() == [2.0, 2.0, 2.0]
    logits = torch.randn(3, 4, requires_grad=True)
    loss = torch.nn.functional.nll_loss(logits.log_softmax(1), torch.tensor([0, 1, 3]))
    assert len(loss.grad_fn.next_functions) == 1
    loss.backward()
    np.testing.assert_allclose(logits.grad.sum(1).numpy(), 0.0, atol=1e-6)
