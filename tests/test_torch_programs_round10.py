"""Twenty-one PyTorch programs in the style of pytorch.org's tutorials, pytorch/examples and
published training scripts (tests/torch_programs_round10/), run with ``import torch`` changed to
``import fgrad.torch as torch`` (round 9's ``_swap.py``: the import lines only) and compared with PyTorch
2.13's output, stored in ``torch_programs_round10/expected/`` (written by running each program
with PyTorch: ``python tests/torch_programs_round10/NAME.py > .../expected/NAME.txt``) and, by the
slow tests, with the installed PyTorch: the same text (reprs, dtypes, shapes, words) and the
same numbers to one and a half units of their last printed digit.  Below them, the regression
tests of the defects the programs found (docs/torch-programs-round10.md).

The default run runs two programs; ``pytest tests/test_torch_programs_round10.py -m slow`` runs
all of them against the stored and the live outputs (about a minute).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

import fgrad.torch as torch
import fgrad.torch.nn.utils.prune as prune
from fgrad.torch.utils.checkpoint import checkpoint
from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round10"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST = {"legacy_nn", "actor_critic"}  # the default run's programs


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 12)


# ---- regression tests of what the programs found ----------------------------------------------


def _lrn_input():
    return torch.arange(2 * 5 * 2 * 1, dtype=torch.float64).reshape(2, 5, 2, 1).sin().requires_grad_()


def test_cross_map_lrn2d_prints_pytorchs_numbers_forward_and_backward():
    """``nn.CrossMapLRN2d`` (missing before): PyTorch's running channel window never drops
    channel 0 and its hand-written backward sums a window one channel off centre; the stored
    numbers are PyTorch 2.13's."""
    x = _lrn_input()
    y = torch.nn.CrossMapLRN2d(3, alpha=0.5, beta=0.75, k=1.0)(x)
    y.backward(torch.linspace(-1, 1, y.numel(), dtype=torch.float64).reshape(y.shape))
    want_y = [0.0, 0.7722157652769106, 0.7769882607192176, 0.11764172723209304,
              -0.6416118366031722, -0.7671376149527347, -0.23333793420821183, 0.5183897401664836,
              0.8760046590850259, 0.3554002342817747]
    want_g = [-0.9077150001694052, -0.691475573233126, -0.5615309243395539, -0.5464112917123266,
              -0.5285415679550809, -0.47710552737663, -0.3168676390253168, -0.22525778126115845,
              -0.20115922948557088, -0.06136242200721261]
    np.testing.assert_allclose(y.detach().flatten()[:10].numpy(), want_y, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(x.grad.flatten()[:10].numpy(), want_g, rtol=1e-12, atol=1e-15)
    assert repr(torch.nn.CrossMapLRN2d(3)) == "CrossMapLRN2d(3, alpha=0.0001, beta=0.75, k=1)"


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("channels", [1, 4, 7])
def test_cross_map_lrn2d_matches_live_pytorch(size, channels):
    real = pytest.importorskip("torch")
    x = np.random.default_rng(size * 10 + channels).standard_normal((2, channels, 3, 2))
    g = np.random.default_rng(1).standard_normal(x.shape)
    outs = []
    for lib in (real, torch):
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.CrossMapLRN2d(size, alpha=0.3, beta=0.75, k=1.5)(t)
        y.backward(lib.tensor(g))
        outs.append((y.detach().numpy(), t.grad.numpy()))
    np.testing.assert_allclose(outs[1][0], outs[0][0], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(outs[1][1], outs[0][1], rtol=1e-12, atol=1e-14)


def test_cross_map_lrn2d_errors():
    with pytest.raises(ValueError, match="Expected input to be 4D, got 3D"):
        torch.nn.CrossMapLRN2d(3)(torch.ones(1, 3, 2))
    x = torch.ones(1, 2, 1, 1, requires_grad=True)
    with pytest.raises(RuntimeError, match="size >= 2"):  # PyTorch's backward fails too (narrow)
        torch.nn.CrossMapLRN2d(1)(x).sum().backward()


def test_nll_loss2d_and_container_are_the_deprecated_names():
    """``nn.NLLLoss2d`` and ``nn.Container`` (missing before): FutureWarnings as PyTorch, the
    loss is NLLLoss's, the container adds its keyword modules."""
    logp = torch.log_softmax(torch.randn(2, 3, 4, 4), dim=1)
    target = torch.randint(0, 3, (2, 4, 4))
    with pytest.warns(FutureWarning, match="NLLLoss2d` has been deprecated"):
        crit = torch.nn.NLLLoss2d(ignore_index=1, reduction="sum")
    assert isinstance(crit, torch.nn.NLLLoss)
    want = torch.nn.NLLLoss(ignore_index=1, reduction="sum")(logp, target)
    assert torch.equal(crit(logp, target), want)
    with pytest.warns(FutureWarning, match="nn.Container` is deprecated"):
        c = torch.nn.Container(conv=torch.nn.Conv2d(1, 2, 3), act=torch.nn.ReLU())
    assert [n for n, _ in c.named_children()] == ["conv", "act"]
    assert list(c.state_dict()) == ["conv.weight", "conv.bias"]


def _pruned_masks(lib):
    p = importlib.import_module(lib.__name__ + ".nn.utils.prune")
    lib.manual_seed(0)
    m = lib.nn.Linear(6, 4)
    conv = lib.nn.Conv2d(3, 4, 2)
    p.random_unstructured(m, "weight", amount=0.3)
    p.l1_unstructured(m, "weight", amount=3)
    p.random_structured(m, "weight", amount=1, dim=1)
    p.ln_structured(conv, "weight", amount=0.5, n=2, dim=0)
    p.l1_unstructured(conv, "bias", amount=1, importance_scores=lib.arange(4.0))
    p.global_unstructured([(m, "bias"), (conv, "weight")], pruning_method=p.L1Unstructured, amount=0.25)
    masks = [m.weight_mask, m.bias_mask, conv.weight_mask, conv.bias_mask]
    out = m(lib.ones(2, 6)).sum() + conv(lib.ones(1, 3, 3, 3)).sum()
    out.backward()
    return [t.detach().numpy().copy() for t in masks] + [m.weight_orig.grad.numpy().copy()]


def test_prune_chooses_pytorchs_entries():
    """``torch.nn.utils.prune`` (missing before): the same masks as PyTorch under one seed
    (random draws, |w| ranks, channel norms, containers over earlier masks, global pruning),
    and gradients masked through the pre-hook."""
    torch.manual_seed(0)
    m = torch.nn.Linear(4, 3)
    prune.random_unstructured(m, "weight", amount=0.5)
    assert m.weight_mask.tolist() == [[1.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]]
    prune.random_structured(m, "weight", amount=1, dim=1)  # PyTorch 2.13's masks
    assert m.weight_mask.tolist() == [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]]
    hook = next(iter(m._forward_pre_hooks.values()))
    assert isinstance(hook, prune.PruningContainer) and len(hook) == 2
    assert torch.equal(m.weight, m.weight_orig * m.weight_mask)
    prune.remove(m, "weight")
    assert sorted(n for n, _ in m.named_parameters()) == ["bias", "weight"] and not prune.is_pruned(m)
    assert int((m.weight == 0).sum()) == 8


def test_prune_matches_live_pytorch():
    real = pytest.importorskip("torch")
    for got, want in zip(_pruned_masks(torch), _pruned_masks(real)):
        np.testing.assert_array_equal(got, want)


def test_prune_errors_are_pytorchs():
    with pytest.raises(ValueError, match="should either be a float in the range"):
        prune.L1Unstructured(1.5)
    with pytest.raises(TypeError, match="Invalid type for amount"):
        prune.L1Unstructured("half")
    m = torch.nn.Linear(2, 2)
    with pytest.raises(ValueError, match="should be smaller than the number of parameters"):
        prune.l1_unstructured(m, "weight", amount=5)
    assert sorted(n for n, _ in m.named_parameters()) == ["bias", "weight"]  # rolled back
    with pytest.raises(ValueError, match="Structured pruning can only be applied to multidimensional"):
        prune.ln_structured(m, "bias", amount=1, n=1, dim=0)
    with pytest.raises(ValueError, match="has to be pruned before pruning can be removed"):
        prune.remove(m, "weight")


def test_non_reentrant_checkpoint_works_with_autograd_grad():
    """``checkpoint(..., use_reentrant=False)`` then ``torch.autograd.grad`` (the activation
    checkpointing program): fgrad raised "incompatible with .grad()"; PyTorch's non-reentrant
    variant gives the gradients, closed-over parameters included, and double backward."""
    torch.manual_seed(1)
    lin = torch.nn.Linear(3, 3)
    x = torch.randn(4, 3, requires_grad=True)
    plain = torch.autograd.grad(torch.tanh(lin(x)).pow(2).sum(), [x, lin.weight], create_graph=True)
    out = checkpoint(lambda t: torch.tanh(lin(t)), x, use_reentrant=False).pow(2).sum()
    ck = torch.autograd.grad(out, [x, lin.weight], create_graph=True)
    for a, b in zip(plain, ck):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6)
    (h,) = torch.autograd.grad(ck[0].sum(), x)
    (h0,) = torch.autograd.grad(plain[0].sum(), x)
    np.testing.assert_allclose(h.numpy(), h0.numpy(), rtol=1e-6)


def test_view_made_under_no_grad_keeps_requires_grad():
    """A view of a tensor requiring grad made under ``no_grad`` (``model.transitions[:3, :3]``
    in the Bi-LSTM CRF program) requires grad in PyTorch, with no grad_fn and printed with
    ``requires_grad=True``; gradients reaching it go nowhere and modifying it in place with
    grad mode on is an error.  fgrad made it a plain tensor."""
    w = torch.nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    with torch.no_grad():
        views = [w[:1], w.view(4), w.t(), w[0], w.unsqueeze(0), w.unbind()[1], w.split(1)[0], w.diagonal()]
        copies = [w[[0]], w + 1, w.detach(), w.clone()]
        assert (views[0] * 2).requires_grad is False
    assert all(v.requires_grad and v.grad_fn is None and v.is_leaf for v in views)
    assert not any(c.requires_grad for c in copies)
    assert repr(views[0]) == "tensor([[1., 2.]], requires_grad=True)"
    y = (views[0] * 3).sum()
    assert y.requires_grad and y.grad_fn is not None
    y.backward()
    assert w.grad is None and views[0].grad is None
    with pytest.raises(RuntimeError, match="view was created in no_grad mode and is being modified inplace"):
        views[0].mul_(2)
    with torch.no_grad():
        views[0].mul_(2)  # allowed there, writes through
    assert w.tolist() == [[2.0, 4.0], [3.0, 4.0]]
    assert views[0][0].requires_grad and views[0][0].grad_fn is not None  # a view of it in grad mode


def test_no_grad_view_matches_live_pytorch():
    real = pytest.importorskip("torch")

    def probe(lib):
        w = lib.ones(2, 3, requires_grad=True)
        with lib.no_grad():
            vs = [w[0], w.T, w.reshape(6), w.chunk(3, 1)[1], w.expand(2, 2, 3), w.narrow(1, 0, 1), w[[1]]]
        return [(v.requires_grad, v.grad_fn is None, v.is_leaf) for v in vs]

    assert probe(torch) == probe(real)


def test_unbind_and_iteration_in_grad_mode_still_record():
    """The regression the no_grad views first caused: ``for row in feats`` (unbind, whose
    views one node records) must stay on the graph."""
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    total = sum((row * torch.tensor([1.0, 10.0])).sum() for row in x)
    total.backward()
    assert x.grad.tolist() == [[1.0, 10.0], [1.0, 10.0]]


def test_custom_function_returning_a_view_of_its_input():
    """``Function.forward`` runs under no_grad: a view it returns gets the Function's node."""

    class First(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x[0]

        @staticmethod
        def backward(ctx, g):
            out = torch.zeros(3, 2)
            out[0] = g * 5
            return out

    x = torch.ones(3, 2, requires_grad=True)
    y = First.apply(x)
    assert type(y.grad_fn).__name__ == "FirstBackward"
    (y * 1).sum().backward()
    assert x.grad.tolist() == [[5.0, 5.0], [0.0, 0.0], [0.0, 0.0]]


def _conv_grads(lib):
    g = np.random.default_rng(0)
    x = lib.tensor(g.standard_normal((2, 4, 7, 6)))
    w = lib.tensor(g.standard_normal((6, 2, 3, 2)))
    go = lib.tensor(g.standard_normal((2, 6, 4, 6)))
    kw = dict(stride=(2, 1), padding=1, dilation=(1, 2), groups=2)
    x1, w1, go1 = (lib.tensor(g.standard_normal(s)) for s in ((2, 3, 9), (4, 3, 3), (2, 4, 4)))
    x3, w3, go3 = (lib.tensor(g.standard_normal(s))
                   for s in ((1, 2, 4, 4, 4), (3, 2, 2, 2, 2), (1, 3, 3, 3, 3)))
    nn_grad = importlib.import_module(lib.__name__ + ".nn.grad")
    return [t.numpy() for t in (
        lib.nn.functional.grad.conv2d_input(x.shape, w, go, **kw),
        nn_grad.conv2d_weight(x, w.shape, go, **kw),
        nn_grad.conv1d_input(x1.shape, w1, go1, stride=2),
        nn_grad.conv1d_weight(x1, w1.shape, go1, stride=2),
        nn_grad.conv3d_input(x3.shape, w3, go3), nn_grad.conv3d_weight(x3, w3.shape, go3))]


def test_nn_grad_is_the_convolutions_derivative():
    """``torch.nn.grad`` / ``F.grad`` (missing before): each equals ``autograd.grad`` of the
    convolution (and PyTorch's ``convolution_backward`` when installed)."""
    x = torch.randn(2, 4, 7, 6, dtype=torch.float64, requires_grad=True)
    w = torch.randn(6, 2, 3, 2, dtype=torch.float64, requires_grad=True)
    kw = dict(stride=(2, 1), padding=1, dilation=(1, 2), groups=2)
    out = torch.nn.functional.conv2d(x, w, **kw)
    go = torch.randn(out.shape, dtype=torch.float64)
    gx, gw = torch.autograd.grad(out, (x, w), go)
    gi = torch.nn.grad.conv2d_input(x.shape, w, go, **kw)
    assert gi.requires_grad  # w requires grad: differentiable, as PyTorch's
    np.testing.assert_allclose(gi.detach().numpy(), gx.numpy(), rtol=1e-12)
    gwt = torch.nn.grad.conv2d_weight(x, w.shape, go, **kw)
    np.testing.assert_allclose(gwt.detach().numpy(), gw.numpy(), rtol=1e-12)
    with pytest.raises(RuntimeError, match=r"grad_output has shape \(2, 6, 3, 5\) but the convolution"):
        torch.nn.grad.conv2d_input(x.shape, w, torch.ones(2, 6, 3, 5, dtype=torch.float64), **kw)
    real = pytest.importorskip("torch")
    for got, want in zip(_conv_grads(torch), _conv_grads(real)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_sdpa_kernel_sets_and_restores_the_backend_flags():
    """``torch.nn.attention`` (missing before; the SDPA tutorial's ``sdpa_kernel``)."""
    from fgrad.torch.nn.attention import SDPBackend, sdpa_kernel

    cuda = torch.backends.cuda
    q = torch.randn(1, 2, 3, 4)
    want = torch.nn.functional.scaled_dot_product_attention(q, q, q)
    with sdpa_kernel([SDPBackend.MATH, SDPBackend.EFFICIENT_ATTENTION]):
        assert (cuda.flash_sdp_enabled(), cuda.math_sdp_enabled(), cuda.mem_efficient_sdp_enabled(),
                cuda.cudnn_sdp_enabled()) == (False, True, True, False)
        assert torch.equal(torch.nn.functional.scaled_dot_product_attention(q, q, q), want)
    assert cuda.flash_sdp_enabled() and cuda.cudnn_sdp_enabled()
    assert repr(SDPBackend.EFFICIENT_ATTENTION) == "<SDPBackend.EFFICIENT_ATTENTION: 2>"
    assert [int(b) for b in SDPBackend] == [-1, 0, 1, 2, 3, 4]
    with pytest.raises(AssertionError, match="Backend must be an instance of SDPBackend"):
        with sdpa_kernel("math"):
            pass
