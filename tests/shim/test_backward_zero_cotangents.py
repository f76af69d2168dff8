"""Issue 16: a node whose outputs partly get no cotangent runs a backward program staged with
those cotangents as symbolic zeros (no zero arrays filled in and carried through), with the
same gradients as with explicit zeros."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch.nn import functional as F


@pytest.mark.parametrize("used", [c for r in (1, 2, 3) for c in itertools.combinations(range(3), r)])
@pytest.mark.parametrize("create_graph", [False, True])
def test_split_gradient_with_some_pieces_unused(used, create_graph):
    xn = np.arange(12.0).reshape(6, 2)
    x = torch.tensor(xn, requires_grad=True)
    pieces = x.split(2, dim=0)
    weights = {0: 1.0, 1: 2.0, 2: 3.0}
    loss = sum(weights[k] * (pieces[k] ** 2).sum() for k in used)
    (g,) = torch.autograd.grad(loss, x, create_graph=create_graph)
    want = np.zeros_like(xn)
    for k in used:
        want[2 * k: 2 * k + 2] = 2 * weights[k] * xn[2 * k: 2 * k + 2]
    np.testing.assert_array_equal(g.detach().numpy(), want)
    if create_graph:  # d/dx of sum(g) = 2 * weight on the used rows
        (h,) = torch.autograd.grad(g.sum(), x)
        np.testing.assert_array_equal(h.numpy(), _second(used, weights, xn))


def _second(used, weights, xn):
    out = np.zeros_like(xn)
    for k in used:
        out[2 * k: 2 * k + 2] = 2 * weights[k]
    return out


def test_gelu_backward_program_takes_no_cotangent_for_the_saved_cdf():
    x = torch.randn(64, requires_grad=True)
    y = F.gelu(x)
    y.sum().backward()
    prog = y.grad_fn._prog
    assert prog.ct_used == (0, 1)  # the node's program for both outputs' cotangents ...
    (variant,) = prog.variants.values()  # ... and the one that ran: the cdf's is a symbolic zero
    assert variant.ct_used == (0,)
    assert (variant.in_used, variant.out_used) == (prog.in_used, prog.out_used)
    assert len(variant.jaxpr.eqns) < len(prog.jaxpr.eqns)
