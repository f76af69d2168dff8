"""The one per-signature backward-program builder (fgrad/transforms/backward_program.py),
shared by the reverse-mode tape and the fgrad.torch autograd graph, and the one
straight-line executor (fgrad/core/executor.py)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad.compile import passes
from fgrad.core.array import ShapedArray
from fgrad.core.executor import straight_line
from fgrad.core.primitive import PRIMITIVES, Primitive
from fgrad.ops.elementwise import exp_p, sin_p
from fgrad.transforms import backward_program as BP

F64 = np.float64


def _jvp_of(prim, **params):
    def jvp(primals, tangents):
        out, t = prim.jvp(primals, tangents, **params)
        return [out], [t]

    return jvp


def test_stage_splits_and_transposes_sin():
    x = np.array([0.3, -1.2, 2.0])
    bp = BP.stage(_jvp_of(sin_p), [ShapedArray((3,), F64)], [True])
    outs = bp.primal_run()(np, [*bp.consts, x])
    np.testing.assert_allclose(outs[0], np.sin(x))
    res = outs[bp.n_out:]
    ct = np.array([1.0, 2.0, -0.5])
    (g,) = bp.backward_run()(np, [*bp.bwd_consts, *res, ct])
    np.testing.assert_allclose(g, ct * np.cos(x))
    assert bp.ct_mask == [True] and bp.in_mask == [True]


def test_recompute_reads_the_output_instead_of_recomputing_it():
    """exp's backward reads exp(x) (the saved output, as PyTorch does), not x."""
    bp = BP.stage(_jvp_of(exp_p), [ShapedArray((2,), F64)], [True])
    jaxpr, consts, in_used, out_used, ct_used = bp.recompute()
    assert (in_used, out_used, ct_used) == ((), (0,), (0,))
    assert all(e.prim is not exp_p for e in jaxpr.eqns)
    y, ct = np.exp(np.array([0.5, 1.5])), np.array([2.0, 3.0])
    np.testing.assert_allclose(straight_line(jaxpr)(np, [*consts, y, ct])[0], ct * y)


def test_dead_equations_of_a_rule_are_pruned():
    """A jvp rule that computes a value nothing reads: the one DCE drops it from the
    primal program (and the backward program has nothing dead either)."""
    p = Primitive("_test_dead_work", lambda xp, x: x * 2,
                  lambda x: ShapedArray(x.shape, x.dtype), family="test")

    def jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        unused = fnp.sin(x) * 3.0  # noqa: F841 - dead on purpose
        return p.bind(x), t * 2.0

    p.jvp = jvp
    try:
        bp = BP.stage(_jvp_of(p), [ShapedArray((2,), F64)], [True])
        assert [e.prim.name for e in bp.primal.eqns] == ["_test_dead_work"]
        prog = passes.Program(list(bp.backward.constvars), dict(zip(bp.backward.constvars, bp.bwd_consts)),
                              list(bp.backward.invars), list(bp.backward.eqns), list(bp.backward.outvars))
        assert not passes.dce(prog)  # already pruned
        np.testing.assert_allclose(np.asarray(fgrad.grad(lambda x: fnp.sum(p.bind(x)))(fnp.ones(2))),
                                   [2.0, 2.0])
    finally:
        PRIMITIVES.pop("_test_dead_work", None)


def test_tape_and_shim_share_the_builder(monkeypatch):
    calls = []
    real = BP.stage

    def counting(jvp, args, diff, where="backward program"):
        calls.append(where)
        return real(jvp, args, diff, where)

    monkeypatch.setattr(BP, "stage", counting)
    import fgrad.transforms.tape as tape_mod
    import fgrad.torch.autograd.graph as graph_mod

    monkeypatch.setattr(tape_mod, "stage", counting)
    monkeypatch.setattr(graph_mod, "stage", counting)
    shape = (7, 1, 3)  # a signature no other test uses, so both caches miss
    g = fgrad.grad(lambda x: fnp.sum(fnp.cosh(x)))(fnp.full(shape, 0.5))
    np.testing.assert_allclose(np.asarray(g), np.full(shape, np.sinh(0.5)))
    assert calls, "the tape did not use the shared builder"
    n = len(calls)
    t = torch.full(shape, 0.5, requires_grad=True)
    torch.cosh(t).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), np.full(shape, np.sinh(0.5)), rtol=1e-6)
    assert len(calls) > n, "the shim did not use the shared builder"


@pytest.mark.parametrize("op", ["sign", "floor"])
def test_shim_zero_cotangent_is_a_zero_gradient(op):
    """An op whose derivative is zero gives the leaf a zero gradient (PyTorch: zeros, not
    None), also with create_graph."""
    x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    getattr(torch, op)(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros(3, np.float32))
    (g,) = torch.autograd.grad(getattr(torch, op)(x).sum(), x, create_graph=True)
    np.testing.assert_array_equal(g.detach().numpy(), np.zeros(3, np.float32))


def test_straight_line_source_and_liveness():
    run = straight_line(fgrad.make_jaxpr(lambda x: fnp.sin(x) * 2.0 + x)(fnp.zeros(2)))
    assert "del " in run.source  # values are freed after their last use
    np.testing.assert_allclose(run(np, [np.array([0.0, 1.0])])[0], [0.0, np.sin(1.0) * 2 + 1])
