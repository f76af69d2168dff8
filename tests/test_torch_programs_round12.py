"""PyTorch programs in the style of pytorch.org's tutorials and popular repositories
(tests/torch_programs_round12/), run with ``import torch`` changed to ``import fgrad.torch as
torch`` (round 9's ``_swap.py``: the import lines only) and compared with PyTorch 2.13's output,
stored in ``torch_programs_round12/expected/`` (written by running each program with PyTorch:
``python tests/torch_programs_round12/NAME.py > .../expected/NAME.txt``) and, by the slow tests,
with the installed PyTorch: the same text and the same numbers to one and a half units of their
last printed digit.  Below them, the regression tests of the defects the programs found
(docs/torch-programs-round12.md), each against PyTorch's numbers stored here and, when PyTorch
is installed, live.

The default run runs two programs; ``pytest tests/test_torch_programs_round12.py -m slow`` runs
all of them against the stored and the live outputs.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import fgrad.torch as torch
from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round12"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST = {"data_stats", "complex_autograd"}  # the default run's programs


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 21, device_rounding=frozenset({"complex_autograd"}))


# ---- regression tests of what the programs found ----------------------------------------------

_OPTIMIZERS = ["Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta", "ASGD", "Rprop",
               "SGD"]
# PyTorch 2.13: three steps from 0 towards [1+2j, -0.5+0.25j] on |w - target|^2 with lr=0.1
_COMPLEX_STEPS = {
    "Adam": [0.2984136939048767 + 0.29937660694122314j, -0.2951287627220154 + 0.2802083492279053j],
    "AdamW": [0.298115074634552 + 0.2990771532058716j, -0.294833242893219 + 0.2799290120601654j],
    "RMSprop": [1 + 1.6903126239776611j, -0.5763871669769287 + 0.2963991165161133j],
    "Adagrad": [0.21954379975795746 + 0.2241784930229187j, -0.20910082757472992 + 0.18347209692001343j],
    "Adamax": [0.28450050950050354 + 0.29235175251960754j, -0.2690902352333069 + 0.23943845927715302j],
    "NAdam": [0.24727071821689606 + 0.2524915039539337j, -0.23527295887470245 + 0.20481404662132263j],
    "RAdam": [0.5376966595649719 + 1.0753933191299438j, -0.26884832978248596 + 0.13442416489124298j],
    "Adadelta": [0.0009705849224701524 + 0.0009706683922559023j,
                 -0.0009704161202535033 + 0.0009700707159936428j],
    "ASGD": [0.48799189925193787 + 0.9759837985038757j, -0.24399594962596893 + 0.12199797481298447j],
    "Rprop": [0.36400002241134644 + 0.36400002241134644j, -0.36400002241134644 + 0.36400002241134644j],
    "SGD": [0.4880000352859497 + 0.9760000705718994j, -0.24400001764297485 + 0.12200000882148743j],
}


def _complex_steps(lib, name):
    w = lib.zeros(2, dtype=lib.cfloat, requires_grad=True)
    opt = getattr(lib.optim, name)([w], lr=0.1)
    target = lib.tensor([1 + 2j, -0.5 + 0.25j])
    for _ in range(3):
        opt.zero_grad()
        (w - target).abs().pow(2).sum().backward()
        opt.step()
    return np.asarray(w.detach().tolist())


@pytest.mark.parametrize("name", _OPTIMIZERS)
def test_complex_parameters_step_as_two_real_ones(name):
    """PyTorch's optimizers update a complex parameter through ``view_as_real``: Adam's second
    moment is ``re(g)**2`` and ``im(g)**2``.  fgrad computed ``g * g`` (complex), so the complex
    Adam/RMSprop/Adagrad/... fits of the complex-numbers tutorial went astray (the imaginary
    part hardly moved); Rprop's imaginary step size started at 0 instead of lr."""
    np.testing.assert_allclose(_complex_steps(torch, name), _COMPLEX_STEPS[name], rtol=1e-5, atol=1e-7)


def test_complex_parameter_steps_match_live_pytorch():
    real = pytest.importorskip("torch")
    for name in _OPTIMIZERS:
        want = _complex_steps(real, name)
        np.testing.assert_allclose(_complex_steps(torch, name), want, rtol=1e-5, atol=1e-7)


def test_complex_sgd_momentum_buffer_stays_complex():
    w = torch.zeros(2, dtype=torch.cfloat, requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
    (w - torch.tensor([1j, 1.0])).abs().pow(2).sum().backward()
    opt.step()
    assert opt.state[w]["momentum_buffer"].dtype == torch.complex64
    assert opt.state[w]["momentum_buffer"].tolist() == [-2j, -2 + 0j]  # step one's gradient (PyTorch 2.13)


def test_quantile_ranks_are_computed_in_the_input_dtype():
    """PyTorch computes ``q * (n - 1)`` in the input's dtype: in float32 ``0.1 * 100`` is 10
    exactly, so lower, higher and midpoint all pick entry 10; fgrad computed the rank in float64
    (10.0000001) and ``higher`` took entry 11."""
    x = torch.arange(101.0)
    for how in ("higher", "lower", "midpoint", "nearest"):
        assert torch.quantile(x, torch.tensor([0.1, 0.9]), interpolation=how).tolist() == [10.0, 90.0]
    y = torch.linspace(0, 1, 101) ** 2
    got = torch.quantile(y, torch.tensor([0.1, 0.3, 0.7, 0.9]), interpolation="higher").tolist()
    assert got == [0.009999998845160007, 0.09610000252723694, 0.4899999797344208, 0.809999942779541]


def test_linspace_is_pytorchs_fused_multiply_add_formula():
    """PyTorch's CPU linspace is ``fma(step, i, start)`` (first half) and ``fma(-step, n-1-i,
    end)``: fgrad rounded the product first, one ulp off in places (which moves quantiles,
    bucketize and == comparisons of linspace grids)."""
    assert torch.linspace(-3.0, 7.0, 13)[3].item() == -0.5000000596046448
    assert torch.linspace(0, 1, 10)[6].item() == 0.6666666865348816
    assert torch.linspace(0, 1, 101, dtype=torch.float64)[65].item() == 0.65
    assert torch.linspace(0.3, 123.7, 5, dtype=torch.int64).tolist() == [0, 30, 61, 92, 123]


def test_linspace_matches_live_pytorch():
    real = pytest.importorskip("torch")
    for args in [(0, 1, 101), (-1, 1, 1000), (0.3, 123.7, 77), (-5, 5, 100001), (1e-3, 1e3, 999)]:
        for dt in ("float32", "float64", "int64"):
            want = real.linspace(*args, dtype=getattr(real, dt)).numpy()
            np.testing.assert_array_equal(torch.linspace(*args, dtype=getattr(torch, dt)).numpy(), want)


def test_searchsorted_uses_the_sorter():
    """``sorter=`` was ignored: the unsorted sequence was searched as if sorted."""
    u = torch.tensor([0.5, -1.0, 1.0, 0.0])
    v = torch.tensor([-2.0, 0.2, 0.5, 3.0])
    assert torch.searchsorted(u, v, sorter=torch.argsort(u)).tolist() == [0, 2, 2, 4]
    assert torch.searchsorted(u, v, sorter=torch.argsort(u), side="right").tolist() == [0, 2, 3, 4]
    rows = torch.tensor([[3.0, 1.0, 2.0], [0.0, 2.0, 1.0]])
    got = torch.searchsorted(rows, torch.tensor([[1.5], [1.5]]), sorter=torch.argsort(rows, dim=1))
    assert got.tolist() == [[1], [2]]


def test_integer_median_keeps_the_dtype():
    """``median`` of an integer tensor returned a float64 mean of the tied entries."""
    m = torch.median(torch.tensor([5, 3, 9, 1]))
    assert m.dtype == torch.int64 and m.item() == 3
    n = torch.nanmedian(torch.tensor([5, 3, 9, 1], dtype=torch.int32))
    assert n.dtype == torch.int32 and n.item() == 3
    assert torch.median(torch.tensor([2, 7, 7], dtype=torch.uint8)).dtype == torch.uint8


def test_bincount_with_float32_weights_is_float32():
    r = torch.bincount(torch.tensor([0, 2, 2]), torch.tensor([0.5, 0.25, 1.0]))
    assert r.dtype == torch.float32 and r.tolist() == [0.5, 0.0, 1.25]
    ones = torch.tensor([0, 1])
    assert torch.bincount(ones, torch.tensor([1, 2])).dtype == torch.float64  # PyTorch: double
    assert torch.bincount(ones, torch.tensor([1.0, 2.0], dtype=torch.float16)).dtype == torch.float64


def test_lstsq_reports_what_the_driver_reports():
    """The CPU default driver ``gelsy`` returns no residuals and no singular values; fgrad filled
    both whatever the driver, and ``gels`` returned a rank (PyTorch: an empty tensor)."""
    A = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    B = torch.tensor([[1.0], [2.0], [4.0]])
    r = torch.linalg.lstsq(A, B)
    assert r.residuals.shape == (0,) and r.singular_values.shape == (0,) and r.rank.item() == 2
    np.testing.assert_allclose(r.solution.flatten().numpy(), [4 / 3, 7 / 3], rtol=1e-6)
    g = torch.linalg.lstsq(A, B, driver="gels")
    assert g.rank.shape == (0,) and g.rank.dtype == torch.int64 and g.singular_values.shape == (0,)
    np.testing.assert_allclose(g.residuals.numpy(), [1 / 3], rtol=1e-5)
    d = torch.linalg.lstsq(A, B, driver="gelsd")
    np.testing.assert_allclose(d.singular_values.numpy(), [np.sqrt(3), 1.0], rtol=1e-6)
    rank_one = torch.tensor([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    deficient = torch.linalg.lstsq(rank_one, torch.ones(3, 2), driver="gelsd")
    assert deficient.residuals.shape == (0,) and deficient.rank.item() == 1  # not full rank: no residuals
    with pytest.raises(RuntimeError, match="driver` should be one of"):
        torch.linalg.lstsq(A, B, driver="gelsx")


def test_lstsq_metadata_matches_live_pytorch():
    real = pytest.importorskip("torch")
    a = np.random.default_rng(0).standard_normal((6, 3)).astype(np.float32)
    b = np.random.default_rng(1).standard_normal((6, 2)).astype(np.float32)
    for drv in ("gels", "gelsy", "gelsd", "gelss"):
        mine = torch.linalg.lstsq(torch.tensor(a), torch.tensor(b), driver=drv)
        want = real.linalg.lstsq(real.tensor(a), real.tensor(b), driver=drv)
        for x, y in zip(mine, want, strict=True):
            assert tuple(x.shape) == tuple(y.shape) and str(x.dtype) == str(y.dtype)
            np.testing.assert_allclose(x.numpy(), y.numpy(), rtol=1e-4, atol=1e-5)


def _encoder(lib, **kw):
    lib.manual_seed(0)
    layer = lib.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=kw.pop("batch_first", True))
    return lib.nn.TransformerEncoder(layer, 2, **kw)


_PAD = [[False, False, False, True, True], [False, False, False, False, False]]


def _encoder_outputs(lib):
    with warnings.catch_warnings():  # PyTorch warns that the sequence-first layer has no fast
        warnings.simplefilter("ignore")  # path, and that its nested tensors are a prototype
        enc, seq_first = _encoder(lib).eval(), _encoder(lib, batch_first=False).eval()
        off = _encoder(lib, enable_nested_tensor=False).eval()
        src = lib.randn(2, 5, 8)
        pad = lib.tensor(_PAD)
        with lib.no_grad():
            fast, plain = enc(src, src_key_padding_mask=pad), off(src, src_key_padding_mask=pad)
            right_pad = enc(src, src_key_padding_mask=lib.tensor([[True, False, False, False, False]] * 2))
            seq = seq_first(src.transpose(0, 1), src_key_padding_mask=pad).transpose(0, 1)
        graded = enc(src, src_key_padding_mask=pad)  # grad enabled and the weights require it
    return fast, plain, right_pad, seq, graded


def test_transformer_encoder_fast_path_zeroes_padded_positions():
    """In eval mode, with a (left-aligned) key padding mask and nothing to differentiate,
    PyTorch runs the batch as a nested tensor and pads the result with zeros: the padded
    positions of ``TransformerEncoder``'s output are 0, not the values the masked computation
    gives there.  fgrad returned those values (every pooled or printed output differed)."""
    fast, plain, right_pad, seq, graded = _encoder_outputs(torch)
    assert fast[0, 3:].abs().max().item() == 0.0 and fast[1].abs().min().item() > 0
    assert plain[0, 3:].abs().min().item() > 0  # enable_nested_tensor=False: no fast path
    np.testing.assert_allclose(fast[:, :3].numpy(), plain[:, :3].numpy(), rtol=1e-5, atol=1e-6)
    assert right_pad[:, 0].abs().min().item() > 0  # padding first: not left aligned, no fast path
    assert seq[0, 3:].abs().min().item() > 0  # sequence-first layers have no fast path
    assert graded[0, 3:].abs().min().item() > 0  # grad enabled: no fast path
    torch.backends.mha.set_fastpath_enabled(False)
    try:
        assert _encoder_outputs(torch)[0][0, 3:].abs().min().item() > 0
    finally:
        torch.backends.mha.set_fastpath_enabled(True)


def test_transformer_encoder_fast_path_matches_live_pytorch():
    real = pytest.importorskip("torch")
    for mine, want in zip(_encoder_outputs(torch), _encoder_outputs(real), strict=True):
        np.testing.assert_allclose(mine.detach().numpy(), want.detach().numpy(), rtol=1e-4, atol=1e-5)


def _dropout_draws(lib):
    lib.manual_seed(0)
    a = lib.nn.functional.dropout(lib.ones(3, 4).t(), 0.5)
    lib.manual_seed(0)
    b = lib.empty(4, 3).t().bernoulli_(0.5)
    lib.manual_seed(0)
    c = lib.nn.functional.dropout(lib.ones(2, 3, 4).permute(2, 0, 1), 0.5)
    return [a.tolist(), b.tolist(), c.tolist()]


def test_dropout_of_a_transposed_view_draws_in_memory_order():
    """PyTorch's dropout noise is ``empty_like(input)`` (the input's layout) filled by a kernel
    that walks memory order, so a transposed view (nn.MultiheadAttention's batch_first output,
    which every TransformerEncoderLayer drops out) gets its draws transposed; fgrad drew in
    logical order, so training a batch_first Transformer with dropout differed from the first
    step."""
    a, b, _ = _dropout_draws(torch)
    assert a == [[0.0, 0.0, 0.0], [0.0, 0.0, 2.0], [2.0, 2.0, 2.0], [0.0, 2.0, 2.0]]  # PyTorch 2.13
    assert b == [[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 0.0, 1.0]]


def test_dropout_draw_order_matches_live_pytorch():
    real = pytest.importorskip("torch")
    assert _dropout_draws(torch) == _dropout_draws(real)


def test_sparse_mm_is_one_sparse_addmm_node():
    s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3.0, 4.0, 5.0], (2, 3), requires_grad=True)
    w = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    out = torch.sparse.mm(s, w)
    assert type(out.grad_fn).__name__ == "SparseAddmmBackward0"
    out.pow(2).sum().backward()
    # d/dW sum((S W)^2) = 2 S^T (S W), d/dv = 2 (S W)[r] . W[c]
    sw = np.array([[15.0, 18.0], [29.0, 38.0]])
    dense = np.array([[0.0, 0.0, 3.0], [4.0, 0.0, 5.0]])
    np.testing.assert_allclose(w.grad.numpy(), 2 * dense.T @ sw)
    np.testing.assert_allclose(s.grad.coalesce().values().numpy(), [2 * sw[0] @ [5, 6], 2 * sw[1] @ [1, 2],
                                                                      2 * sw[1] @ [5, 6]])


def test_collate_functions_import_from_the_private_path():
    from fgrad.torch.utils.data._utils.collate import default_collate, default_convert

    assert default_collate([(torch.ones(2), 1), (torch.zeros(2), 0)])[1].tolist() == [1, 0]
    assert default_convert(np.array([1, 2])).tolist() == [1, 2]


def _channels_last_layouts(lib):
    lib.manual_seed(0)
    x = lib.randn(2, 3, 4, 5)
    y = x.to(memory_format=lib.channels_last)
    conv = lib.nn.Conv2d(3, 4, 3).to(memory_format=lib.channels_last)
    out = conv(y)
    return [y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=lib.channels_last),
            x.is_contiguous(memory_format=lib.channels_last), conv.weight.stride(), out.stride(),
            out.is_contiguous(memory_format=lib.channels_last), y.contiguous().stride(), lib.relu(y).stride(),
            (y + 1).stride(), lib.empty(2, 3, 4, 5, memory_format=lib.channels_last).stride(),
            lib.randn(2, 1, 4, 4).is_contiguous(memory_format=lib.channels_last),
            bool(lib.equal(y, x)), bool(lib.allclose(conv(x), out, atol=1e-6))]


def test_channels_last_is_a_layout():
    """``to(memory_format=torch.channels_last)`` returned the NCHW-contiguous tensor and
    ``is_contiguous(memory_format=torch.channels_last)`` was True for every contiguous tensor:
    the channels-last recipe printed PyTorch's strides wrongly and its layout checks lied.  Now
    the buffer is NHWC (PyTorch's strides), elementwise ops keep it, a convolution of an NHWC
    input or weight returns NHWC, and the values are unchanged."""
    got = _channels_last_layouts(torch)
    assert got == [(60, 1, 15, 3), False, True, False, (27, 1, 9, 3), (24, 1, 12, 4), True, (60, 20, 5, 1),
                   (60, 1, 15, 3), (60, 1, 15, 3), (60, 1, 15, 3), True, True, True]  # PyTorch 2.13
    with pytest.raises(RuntimeError, match="required rank 4 tensor"):
        torch.randn(2, 3, 4).contiguous(memory_format=torch.channels_last)


def test_channels_last_matches_live_pytorch():
    real = pytest.importorskip("torch")
    assert _channels_last_layouts(torch) == _channels_last_layouts(real)
