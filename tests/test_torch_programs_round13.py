"""PyTorch programs in the style of pytorch.org's tutorials (the blitz, Learn the Basics,
forward-mode AD, word embeddings) and of course notebooks (tensors/autograd/module tours, loss,
pooling, normalization, convolution, attention, recurrent, scheduler, distribution, FFT,
mixed-precision and view/stride tours) in tests/torch_programs_round13/, run with ``import
torch`` changed to ``import fgrad.torch as torch`` (round 9's ``_swap.py``: the import lines
only) and compared with PyTorch 2.13's output, stored in ``torch_programs_round13/expected/``
(written by running each program with PyTorch: ``python tests/torch_programs_round13/NAME.py >
.../expected/NAME.txt``) and, by the slow tests, with the installed PyTorch: the same text and
the same numbers to one and a half units of their last printed digit.  Below them, the
regression tests of the defects the programs found (docs/torch-programs-round13.md), each
against PyTorch's numbers stored here and, when PyTorch is installed, live.

The default run runs two programs; ``pytest tests/test_torch_programs_round13.py -m slow`` runs
all of them against the stored and the live outputs.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import fgrad.torch as torch
import fgrad.torch.nn.functional as F
from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

from pathlib import Path

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round13"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST = {"tensors_tour", "indexing_scatter"}  # the default run's programs


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 27)


# ---- regression tests of what the programs found ----------------------------------------------

def _wrapping(lib):
    u = lib.tensor([1, 200], dtype=lib.uint8)
    i16 = lib.tensor([5], dtype=lib.int16)
    out = [u + 300, u - 300, u * 1000, u + (-1), 1000 - u, u % 300, u & 257, u // 1000, u < -1, u == 1001,
           u < 1000, i16 + 100000, lib.tensor([3], dtype=lib.int32) + 2 ** 40,
           lib.tensor([-100, 5, 127], dtype=lib.int8) + 1000,
           u.add(300, alpha=2), u.clone().add_(300), u.clone().mul_(1000)]
    return [t.tolist() for t in out]


# PyTorch 2.13
_WRAPPED = [[45, 244], [213, 156], [232, 64], [0, 199], [231, 32], [1, 24], [1, 0], [0, 0], [True, True],
            [False, False], [True, True], [-31067], [3], [-124, -19, 103], [89, 32], [45, 244], [232, 64]]


def test_python_int_operands_wrap_to_the_integer_result_dtype():
    """PyTorch converts a Python-int operand to the result's integer dtype modulo ``2**bits``:
    ``uint8 + 300`` adds 44, ``uint8 < -1`` compares with 255 (True).  fgrad raised NumPy's
    OverflowError for most, and compared the exact values (``uint8 < -1`` False: silently
    wrong)."""
    assert _wrapping(torch) == _WRAPPED


def test_python_int_wrapping_matches_live_pytorch():
    real = pytest.importorskip("torch")
    assert _wrapping(torch) == _wrapping(real)


def test_shift_operators():
    i = torch.tensor([1, 2, 3])
    assert (i << 2).tolist() == [4, 8, 12] and (torch.tensor([-16, 16]) >> 2).tolist() == [-4, 4]
    assert (1 << i).tolist() == [2, 4, 8] and (64 >> i).tolist() == [32, 16, 8]
    assert (torch.tensor([1, 2], dtype=torch.uint8) << 7).tolist() == [128, 0]  # PyTorch 2.13
    j = i.clone()
    j <<= 1
    j >>= 2
    assert j.tolist() == [0, 1, 1]


def test_group_norm_repr_shows_bias():
    assert repr(torch.nn.GroupNorm(2, 4)) == "GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)"
    assert repr(torch.nn.GroupNorm(2, 4, bias=False)) == "GroupNorm(2, 4, eps=1e-05, affine=True, bias=False)"
    with pytest.raises(ValueError, match=r"num_channels \(5\) must be divisible by num_groups \(2\)"):
        torch.nn.GroupNorm(2, 5)


def test_soft_target_cross_entropy_nodes():
    """PyTorch sums the soft-target products, negates (NegBackward0) and divides by a Scalar
    (DivBackward1); fgrad printed SumBackward0 and DivBackward0."""
    x = torch.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 0.3]], requires_grad=True)
    p = torch.tensor([[0.2, 0.5, 0.3], [1.0, 0.0, 0.0]])
    mean = F.cross_entropy(x, p)
    assert mean.grad_fn.name() == "DivBackward1"
    assert F.cross_entropy(x, p, reduction="sum").grad_fn.name() == "NegBackward0"
    assert F.cross_entropy(x, p, reduction="none").grad_fn.name() == "NegBackward0"
    np.testing.assert_allclose(mean.item(), 1.0260684490203857, rtol=1e-6)  # PyTorch 2.13
    g, = torch.autograd.grad(mean, x)
    np.testing.assert_allclose(g.numpy(), [[0.015611939132213593, 0.06426584720611572, -0.0798778161406517],
                                             [-0.30424964427948, 0.0651596337556839, 0.23909001052379608]],
                               rtol=1e-5, atol=1e-7)


_MM = [  # PyTorch 2.13: loss, d(loss.sum())/dx
    ({}, 0.36250001192092896, [[0.125, -0.25, 0.0, 0.125], [0.125, 0.0, -0.25, 0.125]]),
    ({"p": 2, "margin": 0.5, "weight": [1.0, 2.0, 0.5, 1.5]}, 0.06499999761581421,
     [[0.0, 0.0, 0.0, 0.0], [0.125, 0.0, -0.15000000596046448, 0.02500000037252903]]),
    ({"reduction": "none"}, [0.17500001192092896, 0.550000011920929],
     [[0.25, -0.5, 0.0, 0.25], [0.25, 0.0, -0.5, 0.25]]),
    ({"reduction": "sum"}, 0.7250000238418579, [[0.25, -0.5, 0.0, 0.25], [0.25, 0.0, -0.5, 0.25]]),
]


@pytest.mark.parametrize("kw, loss, grad", _MM)
def test_multi_margin_loss_is_one_node(kw, loss, grad):
    """``multi_margin_loss`` printed ``MeanBackward0`` (PyTorch: ``MultiMarginLossBackward0``,
    one node whatever the reduction); values and gradients stay PyTorch's."""
    x = torch.tensor([[0.1, 0.9, -0.3, 0.4], [1.0, -1.0, 0.5, 0.2]], requires_grad=True)
    kw = {k: torch.tensor(v) if k == "weight" else v for k, v in kw.items()}
    out = F.multi_margin_loss(x, torch.tensor([1, 2]), **kw)
    assert out.grad_fn.name() == "MultiMarginLossBackward0"
    np.testing.assert_allclose(out.tolist(), loss, rtol=1e-6)
    g, = torch.autograd.grad(out.sum(), x)
    np.testing.assert_allclose(g.numpy(), grad, rtol=1e-6, atol=1e-7)
    x64 = x.detach().double().requires_grad_()
    kw64 = {k: v.double() if k == "weight" else v for k, v in kw.items()}
    x64 = (x64 + 0.01).detach().requires_grad_()  # away from the hinge's kinks
    assert torch.autograd.gradcheck(lambda z: F.multi_margin_loss(z, torch.tensor([1, 2]), **kw64), (x64,))


def _mixed_index(lib):
    a = lib.arange(24.0).reshape(2, 3, 4)
    got = [a[0, :, lib.tensor([1, 3])], a[1, [0, 2], 1:3], a[..., 0, [1, 2]], a[[0, 1], :, 0],
           a[0, None, :, [1, 2]], a[1, :, lib.tensor([True, False, True, False])]]
    b = a.clone()
    b[0, :, [1, 3]] = lib.tensor([[-1.0, -2.0]] * 3)
    w = a.clone().requires_grad_()
    (w[0, :, [1, 3]] * lib.arange(6.0).reshape(3, 2)).sum().backward()
    return [t.tolist() for t in got] + [b.tolist(), w.grad.tolist()]


def test_integer_and_tensor_indices_select_the_integers_first():
    """PyTorch applies the integers of an index first (a select), then the index tensors to
    what is left; NumPy broadcasts an integer with the index arrays, and when a slice separates
    them the advanced dims go first: ``a[0, :, [1, 3]]`` of a (2, 3, 4) tensor was fgrad's
    (2, 3) transpose of PyTorch's (3, 2) result, silently (and the same for assignments)."""
    got = _mixed_index(torch)
    assert got[0] == [[1.0, 3.0], [5.0, 7.0], [9.0, 11.0]]  # PyTorch 2.13
    assert np.asarray(got[4]).shape == (1, 3, 2) and np.asarray(got[2]).shape == (2, 2)
    assert got[6][0] == [[0.0, -1.0, 2.0, -2.0], [4.0, -1.0, 6.0, -2.0], [8.0, -1.0, 10.0, -2.0]]
    assert got[7][0] == [[0.0, 0.0, 0.0, 1.0], [0.0, 2.0, 0.0, 3.0], [0.0, 4.0, 0.0, 5.0]]


def test_mixed_indices_match_live_pytorch():
    real = pytest.importorskip("torch")
    assert _mixed_index(torch) == _mixed_index(real)


def test_scatter_reduce_mean_is_one_node():
    v = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
    r = torch.zeros(2).scatter_reduce(0, torch.tensor([0, 0, 1]), v, "mean", include_self=False)
    assert r.grad_fn.name() == "ScatterReduceBackward0" and r.tolist() == [1.5, 4.0]
    r.sum().backward()
    assert v.grad.tolist() == [0.5, 0.5, 1.0]


# PyTorch 2.13, torch.manual_seed(0); nn.LSTM(2, 3, proj_size=1) on [[[0.5, -1]], [[1, 0.25]]]
_PROJ_OUT = [0.007588399574160576, -0.05465122312307358]
_PROJ_C = [0.04973924532532692, -0.6652086973190308, -0.11390304565429688]
_PROJ_GRAD_HR = [[0.06468750536441803, -0.5288419127464294, -0.17311087250709534]]


def test_lstm_with_projections():
    """``nn.LSTM(proj_size=)`` raised NotImplementedError; now ``h_t = W_hr (o * tanh(c_t))``
    with PyTorch's parameter order (so its initialisation) and state shapes."""
    torch.manual_seed(0)
    m = torch.nn.LSTM(2, 3, proj_size=1)
    assert [n for n, _ in m.named_parameters()][-1] == "weight_hr_l0" and m.weight_hh_l0.shape == (12, 1)
    o, (h, c) = m(torch.tensor([[[0.5, -1.0]], [[1.0, 0.25]]]))
    np.testing.assert_allclose(o.flatten().tolist(), _PROJ_OUT, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(h.flatten().tolist(), _PROJ_OUT[-1:], rtol=1e-5)
    np.testing.assert_allclose(c.flatten().tolist(), _PROJ_C, rtol=1e-5)
    o.sum().backward()
    np.testing.assert_allclose(m.weight_hr_l0.grad.tolist(), _PROJ_GRAD_HR, rtol=1e-5)
    with pytest.raises(RuntimeError, match=r"Expected hidden\[0\] size \(1, 1, 1\), got \[1, 1, 3\]"):
        m(torch.zeros(2, 1, 2), (torch.zeros(1, 1, 3), torch.zeros(1, 1, 3)))
    with pytest.raises(ValueError, match="only supported for LSTM"):
        torch.nn.GRU(2, 3, proj_size=1)


def _proj_run(lib):
    lib.manual_seed(3)
    m = lib.nn.LSTM(3, 5, proj_size=2, num_layers=2, bidirectional=True, batch_first=True)
    x = lib.randn(2, 4, 3)
    o, (h, c) = m(x, (lib.randn(4, 2, 2), lib.randn(4, 2, 5)))
    (o.pow(2).sum() + c.sum()).backward()
    packed = lib.nn.utils.rnn.pack_padded_sequence(x, [4, 2], batch_first=True)
    po, (ph, pc) = m(packed)
    return [t.detach().numpy() for t in (o, h, c, m.weight_hr_l1_reverse.grad, m.weight_ih_l1.grad, ph, pc)]


def test_lstm_with_projections_matches_live_pytorch():
    real = pytest.importorskip("torch")
    import warnings
    with warnings.catch_warnings():  # PyTorch: "LSTM with projections is not supported with oneDNN"
        warnings.simplefilter("ignore")
        want = _proj_run(real)
    for g, w in zip(_proj_run(torch), want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-6)


def test_nanmedian_after_median_of_the_same_shape():
    """``median`` and ``nanmedian`` (no dim) shared an op cache key with two different
    definitions (``x * 0`` vs zeros where the mask is off): a ``nanmedian`` after a ``median``
    of a same-shaped tensor reused median's program, whose ``NaN * 0`` leaked: NaN instead of
    the median of the other entries, silently."""
    torch.median(torch.tensor([1.0, 2.0, 3.0, 4.0]))
    assert torch.nanmedian(torch.tensor([1.0, float("nan"), 3.0, 2.0])).item() == 2.0
    x = torch.tensor([1.0, 2.0, 2.0, 4.0], requires_grad=True)
    torch.median(x).backward()
    assert x.grad.tolist() == [0.0, 0.5, 0.5, 0.0]  # PyTorch 2.13: shared by the tied entries


def test_unique_keeps_every_nan():
    x = torch.tensor([2.0, float("nan"), 2.0, float("nan")])
    u, inv, cnt = torch.unique(x, return_inverse=True, return_counts=True)
    assert np.isnan(u.numpy()).sum() == 2 and inv.tolist() == [0, 1, 0, 2] and cnt.tolist() == [2, 1, 1]


def _ties(lib):
    ti = lib.tensor([[4, 1, 4, 2, 1, 4], [0, 0, 5, 5, 3, 3]])
    big = lib.arange(200) % 7
    return [lib.topk(ti, 3).indices.tolist(), lib.topk(ti, 2, largest=False).indices.tolist(),
            lib.topk(lib.tensor([1.0, 5.0, 3.0, 2.0, 4.0]), 3, sorted=False).indices.tolist(),
            lib.topk(lib.tensor([1.0, float("nan"), 3.0, float("nan")]), 3).indices.tolist(),
            lib.topk(big, 4).indices.tolist(), lib.topk(big, 4, largest=False).indices.tolist(),
            lib.kthvalue(lib.tensor([2.0, 1.0, 2.0, 1.0]), 3).indices.item(),
            lib.kthvalue(lib.tensor([3.0, 1.0, 3.0, 2.0, 1.0]), 2).indices.item(),
            lib.kthvalue(ti.float(), 4, dim=1).indices.tolist()]


# PyTorch 2.13 (CPU): libstdc++'s nth_element/sort/partial_sort for topk, ATen's quickselect for
# kthvalue
_TIES = [[[2, 0, 5], [2, 3, 5]], [[1, 4], [1, 0]], [4, 1, 2], [1, 3, 2], [76, 153, 27, 83],
         [126, 133, 42, 35], 2, 1, [2, 5]]


def test_topk_and_kthvalue_pick_tied_entries_as_pytorch():
    """Among equal values PyTorch's CPU ``topk`` returns the indices its unstable libstdc++
    selection leaves (``sorted=False``: in that selection's order), and ``kthvalue`` the one
    ATen's quickselect leaves; fgrad returned the first indices in sorted order, so a top-k
    decode or a gradient through a tie went to another entry."""
    assert _ties(torch) == _TIES


def test_tied_selection_matches_live_pytorch():
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    for trial in range(300):
        n = int(rng.choice([3, 6, 17, 40, 130]))
        v = rng.integers(0, 4, (2, n)).astype(np.float32)
        if trial % 4 == 0:
            v[0, rng.integers(0, n)] = np.nan
        k = int(rng.integers(1, n + 1))
        largest, srt = bool(trial % 2), bool(trial % 3)
        mine = torch.topk(torch.tensor(v), k, 1, largest, srt).indices.tolist()
        assert mine == real.topk(real.tensor(v), k, 1, largest, srt).indices.tolist()
        want = real.kthvalue(real.tensor(v), k, 1).indices.tolist()
        assert torch.kthvalue(torch.tensor(v), k, 1).indices.tolist() == want


def test_einsum_sublist_form():
    """``torch.einsum(a, [0, 1], b, [1, 2], [0, 2])`` (PyTorch's sublist form) raised
    TypeError."""
    a = torch.arange(6.0).reshape(2, 3)
    b = torch.arange(12.0).reshape(3, 4)
    assert torch.einsum(a, [0, 1], b, [1, 2], [0, 2]).tolist() == (a @ b).tolist()
    assert torch.einsum(a, [Ellipsis, 1], torch.ones(3), [1]).tolist() == [3.0, 12.0]  # PyTorch 2.13
    assert torch.einsum(torch.eye(2), [0, 0]).item() == 2.0
    assert torch.einsum(a, [0, 27], [27, 0]).tolist() == a.t().tolist()
    with pytest.raises(ValueError, match="not within the valid range"):
        torch.einsum(a, [0, 52])


def test_error_messages_name_what_pytorch_names():
    """matmul names the C++ element types (``float != double``), a class-index loss a float
    target ``expected target dtype to be Long or Byte, but got Float`` (int32 targets too),
    and a 2-D target of a 2-D input the multi-target error, as PyTorch 2.13."""
    cases = [
        (lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64), "but got: float != double"),
        (lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.int64), "but got: float != long int"),
        (lambda: torch.ones(2, 2, dtype=torch.float16) @ torch.ones(2, 2, dtype=torch.bfloat16),
         "but got: c10::Half != c10::BFloat16"),
        (lambda: F.cross_entropy(torch.ones(4, 3), torch.ones(4)),
         "expected target dtype to be Long or Byte, but got Float"),
        (lambda: F.nll_loss(torch.ones(4, 3), torch.ones(4, dtype=torch.int32)), "Long or Byte, but got Int"),
        (lambda: F.cross_entropy(torch.ones(2, 3), torch.ones(2, 4)), "0D or 1D target tensor expected"),
    ]
    for call, fragment in cases:
        with pytest.raises(RuntimeError, match=re.escape(fragment)):
            call()


def test_integer_fill_values_are_range_checked_and_wrapped():
    """``masked_fill``/``masked_fill_``/``fill_``/``full`` of an integer dtype refuse a Python
    int out of its range with PyTorch's RuntimeError (``masked_fill`` wrapped it silently:
    100000 stored as 160 in uint8; the others raised NumPy's OverflowError), and store a
    negative int into an unsigned dtype wrapped, as c10 allows (``-1`` is 255)."""
    mask = torch.tensor([True, False])
    for call in (lambda: torch.zeros(2, dtype=torch.uint8).masked_fill(mask, 100000),
                 lambda: torch.zeros(2, dtype=torch.uint8).masked_fill_(mask, 256),
                 lambda: torch.zeros(2, dtype=torch.uint8).fill_(-300),
                 lambda: torch.full((2,), 100000, dtype=torch.uint8)):
        with pytest.raises(RuntimeError, match="value cannot be converted to type uint8_t without overflow"):
            call()
    with pytest.raises(RuntimeError, match="int16_t without overflow"):
        torch.zeros(2, dtype=torch.int16).masked_fill(mask, 100000)
    assert torch.zeros(2, dtype=torch.uint8).masked_fill_(mask, -1).tolist() == [255, 0]  # PyTorch 2.13
    assert torch.zeros(2, dtype=torch.uint8).fill_(-3).tolist() == [253, 253]
    assert torch.full((2,), -2, dtype=torch.uint8).tolist() == [254, 254]
    assert torch.full_like(torch.zeros(2, dtype=torch.uint8), -1).tolist() == [255, 255]
    assert torch.scalar_tensor(-1, dtype=torch.uint8).item() == 255
    assert torch.zeros(2, dtype=torch.int32).masked_fill(mask, 100000).tolist() == [100000, 0]
