"""Saved-tensor hooks and the rest of ``torch.autograd.graph``: PyTorch's tutorial "Hooks for
autograd saved tensors" and pack/unpack call counts (custom Functions, double backward,
retain_graph, nested hooks, ``register_hooks``) print what PyTorch 2.13 prints (stored in
``tests/stored/torch_saved_hooks.json`` by ``saved_hooks_programs.py``, compared live when
PyTorch is installed); ``grad_fn._saved_*``, errors, ``register_multi_grad_hook``,
``GradientEdge``; non-reentrant checkpoint gives the unchecked model's gradients exactly and
holds fewer activation bytes (tracemalloc)."""

from __future__ import annotations

import gc
import json
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch.utils.checkpoint import CheckpointError, checkpoint
from saved_hooks_programs import counts, tutorial

STORED = json.loads((Path(__file__).parents[1] / "stored" / "torch_saved_hooks.json").read_text())
graph = torch.autograd.graph


def test_tutorial_prints_pytorchs_lines():
    assert tutorial(torch) == STORED["tutorial"]


def test_pack_unpack_counts_are_pytorchs():
    assert counts(torch) == STORED["counts"]


def test_stored_lines_are_pytorchs():
    torch_ = pytest.importorskip("torch")
    assert tutorial(torch_) == STORED["tutorial"]
    assert counts(torch_) == STORED["counts"]


def _logged(fn):
    log = []

    def pack(t):
        log.append(("pack", t.tolist()))
        return t

    def unpack(t):
        log.append(("unpack", t.tolist()))
        return t

    a = torch.tensor([1.0, 3.0], requires_grad=True)
    b = torch.tensor([1.0, 3.0], requires_grad=True) * 2
    with graph.saved_tensors_hooks(pack, unpack):
        y = fn(a, b)
    y.sum().backward()
    return log


# PyTorch 2.13's calls: two-operand ops pack and unpack their last operand first
@pytest.mark.parametrize("fn, expected", [
    (lambda a, b: a * b, [("pack", [2.0, 6.0]), ("pack", [1.0, 3.0]), ("unpack", [2.0, 6.0]),
                          ("unpack", [1.0, 3.0])]),
    (lambda a, b: a.pow(b), [("pack", [2.0, 6.0]), ("pack", [1.0, 3.0]), ("pack", [1.0, 729.0]),
                             ("unpack", [2.0, 6.0]), ("unpack", [1.0, 3.0]), ("unpack", [1.0, 729.0])]),
    (lambda a, b: a @ b, [("pack", [1.0, 3.0]), ("pack", [2.0, 6.0]), ("unpack", [1.0, 3.0]),
                          ("unpack", [2.0, 6.0])]),
    (lambda a, b: a[None] @ b[:, None], [("pack", [[2.0], [6.0]]), ("pack", [[1.0, 3.0]]),
                                         ("unpack", [[2.0], [6.0]]), ("unpack", [[1.0, 3.0]])]),
    (lambda a, b: a.sin(), [("pack", [1.0, 3.0]), ("unpack", [1.0, 3.0])]),
    (lambda a, b: a * 3, []),
    (lambda a, b: a - b, []),
])
def test_pack_order_is_pytorchs(fn, expected):
    assert _logged(fn) == expected


def test_saved_attributes():
    a = torch.randn(3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    y = a * b
    assert y.grad_fn._saved_self is a and y.grad_fn._saved_other is b
    y = a.exp()
    r = y.grad_fn._saved_result
    assert r is not y and r.equal(y) and r.grad_fn is y.grad_fn
    assert a.pow(2.5).grad_fn._saved_exponent == 2.5
    assert (a * torch.ones(3)).grad_fn._saved_self is None  # PyTorch saves self only for other's grad
    assert isinstance(a.sin().grad_fn._raw_saved_self, torch.autograd.saved_tensors.SavedTensor)
    with pytest.raises(AttributeError, match="_saved_self"):
        _ = (a + b).grad_fn._saved_self
    with pytest.raises(AttributeError, match="from other and the result"):
        _ = (a / b).grad_fn._saved_self
    with pytest.raises(AttributeError, match="_saved_self"):  # PyTorch's is _saved_condition: no guess
        _ = torch.where(a > 0, a, b).grad_fn._saved_self
    assert [n for n in dir((a * b).grad_fn) if n.startswith("_saved")] == ["_saved_other", "_saved_self"]
    y = a.sin()
    y.sum().backward()
    with pytest.raises(RuntimeError, match="already been freed"):
        _ = y.grad_fn._saved_self


def test_saved_attribute_through_hooks_keeps_the_graph_identity():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    with graph.saved_tensors_hooks(lambda t: t * 4, lambda t: t / 4):
        y = x.pow(2)
        z = h.exp()
    s = y.grad_fn._saved_self
    assert s is not x and s.requires_grad and s.is_leaf and s.equal(x)
    r = z.grad_fn._saved_result
    assert r.grad_fn is z.grad_fn and r.equal(z)


def test_raw_saved_register_hooks_and_its_errors():
    calls = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    raw = y.grad_fn._raw_saved_self
    raw.register_hooks(lambda t: calls.append("pack") or t, lambda t: calls.append("unpack") or t)
    assert calls == ["pack"]
    with pytest.raises(RuntimeError, match="hooks have already been set"):
        raw.register_hooks(lambda t: t, lambda t: t)
    y.sum().backward()
    assert calls == ["pack", "unpack"] and x.grad.tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError, match="after it has been freed"):
        raw.register_hooks(lambda t: t, lambda t: t)


def test_hook_errors_are_pytorchs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with graph.saved_tensors_hooks(lambda t: 1, lambda p: p):
        y = x * x
    with pytest.raises(TypeError, match="unpack_hook expected to be a Tensor but got result of type int"):
        y.sum().backward()
    z = x * 1
    with pytest.raises(RuntimeError, match="pack hook is modifying its input in place"):
        with graph.saved_tensors_hooks(lambda t: t.add_(1), lambda p: p):
            z * z
    with graph.disable_saved_tensors_hooks("no hooks here"):
        with pytest.raises(RuntimeError, match="no hooks here"):
            with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
    with graph.saved_tensors_hooks(lambda t: t, lambda t: t):  # enabled again
        pass


def test_hooks_replace_the_saved_tensor():
    # the graph keeps only what pack returns: the value read back is what unpack makes of it
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with graph.saved_tensors_hooks(lambda t: t.detach() * 0 + 5, lambda p: p):
        y = x * x
    y.sum().backward()
    assert x.grad.tolist() == [10.0, 10.0]  # d(x*x)/dx read as 5 + 5


def test_version_checks_are_off_under_hooks_as_in_pytorch():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    with graph.saved_tensors_hooks(lambda t: t.clone(), lambda p: p):
        y = h * h
    with torch.no_grad():
        h.add_(10)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]  # the clone the hook kept


def test_save_on_cpu_and_allow_mutation():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    with graph.save_on_cpu(pin_memory=True):
        loss = (w * w.exp()).sum()
    loss.backward()
    np.testing.assert_allclose(w.grad.numpy(), (np.exp([1.0, 2.0]) * (1 + np.array([1.0, 2.0]))), rtol=1e-6)
    with graph.allow_mutation_on_saved_tensors():
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = a.clone()
        out = (b ** 2).sum()
        b.sin_()
        out.backward()
    assert a.grad.tolist() == [2.0, 4.0]  # PyTorch's
    with graph.allow_mutation_on_saved_tensors():
        out = (a.clone() ** 2).sum()
    with pytest.raises(AssertionError, match="outside of the 'allow_mutation_on_saved_tensors'"):
        out.backward()


def test_save_on_cpu_moves_saved_tensors_to_the_host(cuda_device):
    seen = []
    w = torch.tensor([1.0, 2.0], device="cuda", requires_grad=True)
    hooks = graph.save_on_cpu()
    pack, unpack = hooks.pack_hook, hooks.unpack_hook
    with graph.saved_tensors_hooks(lambda t: seen.append(pack(t)) or seen[-1], unpack):
        loss = (w * w).sum()
    loss.backward()
    assert [p[1].device.type for p in seen] == ["cpu", "cpu"]
    assert w.grad.device.type == "cuda" and w.grad.tolist() == [2.0, 4.0]


def test_custom_function_saved_output_goes_through_hooks_and_keeps_its_node():
    class Exp(torch.autograd.Function):  # saves its output: unpacked with this node as grad_fn
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with graph.saved_tensors_hooks(lambda t: ("box", t * 2), lambda p: p[1] / 2):
        y = Exp.apply(x)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    g.sum().backward()  # d(exp x)/dx through the saved output's node
    np.testing.assert_allclose(g.detach().numpy(), np.exp([0.0, 1.0]), rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.0, 1.0]), rtol=1e-6)


def test_register_multi_grad_hook_is_pytorchs():
    a = torch.rand(2, 3, requires_grad=True)
    b = torch.rand(2, 3, requires_grad=True)
    c = a * b
    d = a * b
    seen = []
    h = graph.register_multi_grad_hook((a, b, c, d), lambda gs: seen.append([g is not None for g in gs]))
    c.sum().backward(retain_graph=True)
    c.sum().backward(inputs=(a,), retain_graph=True)
    (c + d).sum().backward(retain_graph=True)
    h.remove()
    (c + d).sum().backward(retain_graph=True)
    # PyTorch 2.13's output (its docstring example, then both outputs)
    assert seen == [[True, True, True, False], [True, False, True, False], [True, True, True, True]]
    firsts = []
    graph.register_multi_grad_hook((a, b), lambda g: firsts.append(tuple(g.shape)), mode="any")
    (c + d).sum().backward(retain_graph=True)
    (c + d).sum().backward(retain_graph=True)
    assert firsts == [(2, 3), (2, 3)]
    with pytest.raises(ValueError, match="Expects mode to be one of"):
        graph.register_multi_grad_hook((a,), print, mode="some")


def test_leaf_hooks_run_only_for_the_inputs_asked_for():
    # regression: backward(inputs=(a,)) ran b's tensor hook (PyTorch runs a's only)
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    seen = []
    b.register_hook(lambda g: seen.append("b"))
    a.register_hook(lambda g: seen.append("a"))
    (a * b).sum().backward(inputs=(a,))
    assert seen == ["a"] and b.grad is None


def test_gradient_edge_and_increment_version():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    e = graph.get_gradient_edge(y)
    assert (e.node, e.output_nr) == (y.grad_fn, 0) and e == (y.grad_fn, 0)
    assert graph.get_gradient_edge(x).node.name() == "torch::autograd::AccumulateGrad"
    with pytest.raises(RuntimeError, match="does not require gradients"):
        graph.get_gradient_edge(torch.ones(2))
    graph.increment_version(x.detach())
    assert x._version == 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


# -- non-reentrant checkpoint ---------------------------------------------------------------


def _chain(n=8, width=32, seed=0):
    torch.manual_seed(seed)
    return [torch.nn.Linear(width, width) for _ in range(n)]


def _block(x, layers):
    for lin in layers:
        x = torch.tanh(lin(x))
    return x


def _forward(layers, x, ckpt, seg=2):
    h = x
    for i in range(0, len(layers), seg):
        part = layers[i:i + seg]
        h = checkpoint(_block, h, part, use_reentrant=False) if ckpt else _block(h, part)
    return (h ** 2).sum()


def _grads(ckpt, mode):
    layers = _chain()
    torch.manual_seed(3)
    x = torch.randn(5, 32, requires_grad=True)
    loss = _forward(layers, x, ckpt)
    params = [p for lin in layers for p in lin.parameters()]
    if mode == "backward":
        loss.backward()
        return [x.grad] + [p.grad for p in params]
    if mode == "grad_inputs":
        return list(torch.autograd.grad(loss, [x, params[3]]))
    if mode == "retain":
        loss.backward(retain_graph=True)
        loss.backward()
        return [x.grad] + [p.grad for p in params]
    (gx,) = torch.autograd.grad(loss, x, create_graph=True)
    (gx ** 2).sum().backward()
    return [gx, x.grad] + [p.grad for p in params]


@pytest.mark.parametrize("mode", ["backward", "grad_inputs", "retain", "double"])
def test_checkpoint_gradients_equal_the_unchecked_model(mode):
    for g, h in zip(_grads(True, mode), _grads(False, mode), strict=True):
        assert np.array_equal(g.detach().numpy(), h.detach().numpy())


def test_checkpoint_recomputes_with_the_same_dropout_mask():
    torch.manual_seed(0)
    lin = torch.nn.Linear(6, 6)
    calls = []

    def f(x):
        calls.append(1)
        return torch.nn.functional.dropout(torch.tanh(lin(x)), 0.5, training=True)

    x = torch.randn(4, 6, requires_grad=True)
    torch.manual_seed(5)
    y = checkpoint(f, x, use_reentrant=False)
    y.sum().backward()
    g = x.grad.clone()
    x.grad = None
    torch.manual_seed(5)
    f(x).sum().backward()
    assert len(calls) == 3  # forward, recomputation, plain run
    assert np.array_equal(g.numpy(), x.grad.numpy())


def _bytes(ckpt):
    layers = _chain(n=32, width=16)
    torch.manual_seed(1)
    x = torch.randn(512, 16, requires_grad=True)
    _forward(layers, x, ckpt, seg=4).backward()  # warm the program cache
    for lin in layers:
        for p in lin.parameters():
            p.grad = torch.zeros_like(p)  # so backward allocates no parameter gradients
    x.grad = None
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        loss = _forward(layers, x, ckpt, seg=4)
        held = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.reset_peak()
        loss.backward()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return held, peak


def test_checkpoint_holds_fewer_activations():
    act = 512 * 16 * 4  # one activation's bytes
    held_plain, peak_plain = _bytes(False)
    held_ckpt, peak_ckpt = _bytes(True)
    # plain: every layer's tanh output is saved (32 activations); checkpointed: the 8
    # segment outputs (and their RNG states), then one segment's recomputation at a time
    assert held_plain > 31 * act
    assert held_ckpt < 16 * act
    assert peak_ckpt < 0.65 * peak_plain


def test_checkpoint_errors():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    state = {"n": 0}

    def changes(t):  # saves 4 tensors, then 1 when recomputed (PyTorch's error)
        state["n"] += 1
        return t.sin() * (t.cos() if state["n"] == 1 else 2.0)

    with pytest.raises(CheckpointError, match="during forward: 4\nNumber of tensors saved during "
                                              "recomputation: 1"):
        checkpoint(changes, x, use_reentrant=False).sum().backward()
    state["n"] = 0

    def shape(t):  # recomputed on another shape (PyTorch's error)
        state["n"] += 1
        return (t if state["n"] == 1 else t[:2]).sin().sum()

    with pytest.raises(CheckpointError, match=r"saved metadata: \{'shape': torch.Size\(\[3\]\), 'dtype': "
                       r"torch.float32, 'device': device\(type='cpu'\)\}"):
        checkpoint(shape, x, use_reentrant=False).backward()
    h = x * 1
    y = checkpoint(torch.sin, h, use_reentrant=False)
    with torch.no_grad():
        h.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
    with pytest.raises(ValueError, match="determinism_check"):
        checkpoint(torch.sin, x, use_reentrant=False, determinism_check="strict")


def test_checkpoint_saved_values_are_placeholders_until_read():
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    y = checkpoint(lambda t: t.sin().exp(), x, use_reentrant=False)
    raw = y.grad_fn._raw_saved_result
    assert raw._packed.vals == {}  # nothing kept: recomputed on demand
    assert y.grad_fn._saved_result.equal(y)  # read outside backward: recomputed


def _nested(lib, ckpt):
    lib.manual_seed(0)
    l1, l2 = lib.nn.Linear(4, 4), lib.nn.Linear(4, 4)
    drop = lib.nn.Dropout(0.5)

    def inner(x):
        return drop(lib.tanh(l2(x)))

    def outer(x):
        h = lib.sin(l1(x))
        return (lib.utils.checkpoint.checkpoint(inner, h, use_reentrant=False) if ckpt else inner(h)) * x

    x = lib.randn(3, 4, requires_grad=True)
    lib.manual_seed(1)
    y = lib.utils.checkpoint.checkpoint(outer, x, use_reentrant=False) if ckpt else outer(x)
    (g,) = lib.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    g.sum().backward()
    return [y.sum().item(), g.sum().item(), x.grad.sum().item(), l1.weight.grad.sum().item()]


def test_nested_checkpoints_with_dropout_and_double_backward():
    got = _nested(torch, True)
    assert got == _nested(torch, False)
    # PyTorch 2.13 (the same program, float32 sums)
    np.testing.assert_allclose(got, [2.9669792652130127, 15.398141860961914, 8.652917861938477,
                                     -33.88967514038086], rtol=1e-6)
    torch_ = pytest.importorskip("torch")
    np.testing.assert_allclose(got, _nested(torch_, True), rtol=1e-6)


def test_grad_with_respect_to_gradient_edges_is_pytorchs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    y = (h ** 2).sum()
    edges = (graph.get_gradient_edge(x), graph.get_gradient_edge(h))
    gx, gh = torch.autograd.grad(y, edges, retain_graph=True)
    assert gx.tolist() == [18.0, 36.0] and gh.tolist() == [6.0, 12.0]  # PyTorch's
    assert torch.autograd.grad(y, graph.get_gradient_edge(x), retain_graph=True)[0].tolist() == [18.0, 36.0]
    z = graph.get_gradient_edge(torch.ones(2, requires_grad=True))
    assert torch.autograd.grad(y, (z,), retain_graph=True, allow_unused=True) == (None,)
    with pytest.raises(RuntimeError, match="materialize_grads cannot be used when the given input is a "
                                           "GradientEdge"):
        torch.autograd.grad(y, (z,), retain_graph=True, materialize_grads=True)
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad(y, (z,), retain_graph=True)
