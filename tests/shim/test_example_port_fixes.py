"""Shim fixes found by porting PyTorch programs (examples/torch_*.py), each checked against
PyTorch 2.13's numbers: stored in tests/stored/example_port_cases.json (regenerate with
``python tools/make_example_port_cases.py``) and live when torch is installed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.torch._stl_order import _introsort_loop, sort_order as std_sort_order

try:
    import torch as _torch
except Exception:  # noqa: BLE001
    _torch = None

needs_torch = pytest.mark.skipif(_torch is None, reason="torch is not installed")
STORED = json.loads((Path(__file__).resolve().parent.parent / "stored" / "example_port_cases.json")
                    .read_text())
F = ft.nn.functional


def _bits(t) -> list:
    return t.view(ft.int16).flatten().tolist()


# --- contiguous() of a 16-bit float view -------------------------------------------------

@pytest.mark.parametrize("dtype", [ft.bfloat16, ft.float16])
def test_contiguous_of_a_transposed_16bit_tensor_is_contiguous(dtype):
    # nanoGPT's `y.transpose(1, 2).contiguous().view(B, T, C)` on bfloat16 attention output
    x = ft.arange(24.0).reshape(2, 3, 4).to(dtype)
    c = x.transpose(1, 2).contiguous()
    assert c.is_contiguous() and c.stride() == (12, 3, 1)
    assert c.view(2, 12).tolist() == x.transpose(1, 2).reshape(2, 12).tolist()


# --- torch.dropout keeps the dtype -------------------------------------------------------

def test_torch_dropout_keeps_a_16bit_dtype_and_draws_pytorchs_mask():
    x = ft.ones(6, 5, dtype=ft.bfloat16)
    ft.manual_seed(3)
    y = ft.dropout(x, 0.1, True)
    assert y.dtype == ft.bfloat16
    # PyTorch: bernoulli_(0.9) then div_(0.9) in bfloat16: kept values are bf16(1/0.9) = 1.109375
    assert set(y.float().flatten().tolist()) <= {0.0, 1.109375}
    ft.manual_seed(3)
    assert (y == F.dropout(x, 0.1)).all()


# --- scaled_dot_product_attention in 16-bit floats ---------------------------------------

def _sdpa_input():
    return np.random.default_rng(0).standard_normal((1, 2, 7, 8)).astype(np.float32)


_EPS = {"bfloat16": 2.0 ** -7, "float16": 2.0 ** -10}


def _close_16bit(a_bits, b_bits, dtype: str, max_differing: float) -> None:
    """Equal within one rounding of the 16-bit type (eps * max(|a|, |b|, 1): outputs of size
    about 1 computed in float32 then rounded once), differing in at most ``max_differing``
    (a fraction) of the values."""
    a, b = (ft.tensor(np.asarray(x, dtype=np.int16)).view(getattr(ft, dtype)).float().numpy()
            for x in (a_bits, b_bits))
    bound = _EPS[dtype] * np.maximum(np.maximum(np.abs(a), np.abs(b)), 1.0)
    assert (np.abs(a - b) <= bound).all(), np.abs(a - b).max()
    assert (a != b).mean() <= max_differing


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_sdpa_16bit_matches_pytorch(dtype):
    """float32 compute, one rounding; the flash path (dropout 0) rounds the exponentials to
    the 16-bit type before the product with v, as PyTorch's CPU flash kernel does: within 1
    rounding of PyTorch (its kernel sums in blocks of its own; bfloat16 here is
    bit-identical, float16 differs in 3 of 112 values).  With dropout: PyTorch's math path (float32, the
    mask from bernoulli_), bit-identical."""
    q = ft.tensor(_sdpa_input()).to(getattr(ft, dtype))
    out = F.scaled_dot_product_attention(q, q * 0.5, q + 1, is_causal=True)
    assert out.dtype == q.dtype
    _close_16bit(_bits(out), STORED[f"sdpa_{dtype}_causal"], dtype, 0.0 if dtype == "bfloat16" else 0.05)
    ft.manual_seed(1)
    out = F.scaled_dot_product_attention(q, q * 0.5, q + 1, is_causal=True, dropout_p=0.25)
    assert out.dtype == q.dtype
    assert _bits(out) == STORED[f"sdpa_{dtype}_dropout"]


@needs_torch
@pytest.mark.parametrize("shape", [(2, 4, 32, 16), (3, 1, 40, 8)])
def test_sdpa_bfloat16_live_within_one_ulp(shape):
    """Larger cases: PyTorch's flash kernel blocks its sums differently; within one rounding,
    in a few percent of the values."""
    a = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    outs = []
    for lib in (_torch, ft):
        q = lib.tensor(a).to(lib.bfloat16)
        out = lib.nn.functional.scaled_dot_product_attention(q, q, q + 1, is_causal=True)
        outs.append(out.view(lib.int16).flatten().tolist())
    _close_16bit(*outs, "bfloat16", 0.05)


def test_sdpa_bfloat16_under_autocast_with_dropout_runs():
    # used to fail: dropout widened the bf16 weights to float32, then matmul refused
    q = ft.randn(2, 2, 5, 4, requires_grad=True)
    with ft.autocast("cpu", dtype=ft.bfloat16):
        y = F.scaled_dot_product_attention(q, q, q, dropout_p=0.2, is_causal=True)
    assert y.dtype == ft.bfloat16
    y.float().sum().backward()
    assert q.grad.dtype == ft.float32 and ft.isfinite(q.grad).all()


# --- torch.sort's order of ties, and pack_padded_sequence ----------------------------------

def test_std_sort_order_matches_pytorchs_stored_permutations():
    for keys, desc, asc in zip(STORED["sort_keys"], STORED["sort_desc"], STORED["sort_asc"]):
        assert std_sort_order(keys, descending=True) == desc
        assert std_sort_order(keys) == asc


@needs_torch
def test_std_sort_order_matches_live_torch_sort():
    rng = np.random.default_rng(11)
    for _ in range(60):
        keys = rng.integers(0, int(rng.integers(1, 20)), int(rng.integers(1, 200))).tolist()
        for desc in (True, False):
            assert std_sort_order(keys, desc) == _torch.sort(_torch.tensor(keys), descending=desc)[1].tolist()


def test_std_sort_order_sorts_past_the_depth_limit():
    rng = np.random.default_rng(2)
    keys = rng.integers(0, 5, 100).tolist()
    a = list(range(100))
    _introsort_loop(a, 0, 100, 0, lambda i, j: keys[i] < keys[j])  # heapsort at once
    assert [keys[i] for i in a] == sorted(keys) and sorted(a) == list(range(100))


def _packed_lstm(lib):
    x = np.random.default_rng(4).standard_normal((12, 6, 3)).astype(np.float32)
    lib.manual_seed(0)
    lstm = lib.nn.LSTM(3, 4, num_layers=2, dropout=0.3, bidirectional=True, batch_first=True)
    lib.manual_seed(7)
    packed = lib.nn.utils.rnn.pack_padded_sequence(lib.tensor(x), lib.tensor(STORED["lstm_lens"]),
                                                   batch_first=True, enforce_sorted=False)
    out, (h, _) = lstm(packed)
    (out.data.pow(2).sum() + h.sum()).backward()
    return packed, out, h, lstm


def test_packed_lstm_with_dropout_and_tied_lengths_matches_pytorch():
    """Tied lengths are ordered as PyTorch's sort orders them, and the dropout between layers
    is drawn over the packed rows: outputs, final states and gradients are PyTorch's."""
    packed, out, h, lstm = _packed_lstm(ft)
    assert packed.sorted_indices.tolist() == STORED["lstm_sorted_indices"]
    np.testing.assert_allclose(out.data.detach().numpy(), STORED["lstm_out_data"], atol=2e-6)
    np.testing.assert_allclose(h.detach().numpy(), STORED["lstm_h"], atol=2e-6)
    np.testing.assert_allclose(lstm.weight_ih_l1.grad.numpy(), STORED["lstm_grad_w_ih_l1"], atol=2e-5)


@needs_torch
def test_packed_lstm_with_dropout_live():
    ours, theirs = _packed_lstm(ft), _packed_lstm(_torch)
    assert ours[0].sorted_indices.tolist() == theirs[0].sorted_indices.tolist()
    np.testing.assert_allclose(ours[1].data.detach().numpy(), theirs[1].data.detach().numpy(), atol=2e-6)
    for a, b in zip(ours[3].parameters(), theirs[3].parameters()):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=2e-5)


# --- embedding: scale_grad_by_freq ------------------------------------------------------

def _embedding_case(lib, **kw):
    w = lib.tensor(np.asarray(STORED["embedding_weight"], np.float32), requires_grad=True)
    out = lib.nn.functional.embedding(lib.tensor(STORED["embedding_idx"]), w, **kw)
    out.backward(lib.tensor(np.asarray(STORED["embedding_ct"], np.float32)))
    return out, w


@pytest.mark.parametrize("name,kw", [("freq", dict(scale_grad_by_freq=True)),
                                     ("freq_pad", dict(scale_grad_by_freq=True, padding_idx=2))])
def test_embedding_scale_grad_by_freq_matches_pytorch(name, kw):
    """Each looked-up row's gradient is divided by how often its index occurs in the batch
    (PyTorch's rule); the forward values are the weight's rows exactly (bit for bit; the
    earlier formula ``rows * s + sg(rows * (1 - s))`` could be an ulp off)."""
    out, w = _embedding_case(ft, **kw)
    np.testing.assert_allclose(w.grad.numpy(), STORED[f"embedding_grad_{name}"], rtol=1e-6, atol=1e-7)
    idx = np.asarray(STORED["embedding_idx"])
    assert (out.detach().numpy() == np.asarray(STORED["embedding_weight"], np.float32)[idx]).all()
    m = ft.nn.Embedding(6, 3, scale_grad_by_freq=True, **{k: v for k, v in kw.items() if k == "padding_idx"})
    with ft.no_grad():
        m.weight.copy_(ft.tensor(np.asarray(STORED["embedding_weight"], np.float32)))
    m(ft.tensor(STORED["embedding_idx"])).backward(ft.tensor(np.asarray(STORED["embedding_ct"], np.float32)))
    np.testing.assert_allclose(m.weight.grad.numpy(), STORED[f"embedding_grad_{name}"], rtol=1e-6, atol=1e-7)


@needs_torch
def test_embedding_scale_grad_by_freq_live():
    for kw in (dict(scale_grad_by_freq=True), dict(scale_grad_by_freq=True, padding_idx=4)):
        ours, theirs = _embedding_case(ft, **kw)[1], _embedding_case(_torch, **kw)[1]
        np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-6, atol=1e-7)


def test_embedding_scale_grad_by_freq_under_transforms_and_compile():
    w = ft.tensor(np.asarray(STORED["embedding_weight"], np.float32), requires_grad=True)
    idx = ft.tensor(STORED["embedding_idx"])
    want = _embedding_case(ft, scale_grad_by_freq=True)[1].grad

    def loss(weight):
        out = F.embedding(idx, weight, scale_grad_by_freq=True)
        return (out * ft.tensor(np.asarray(STORED["embedding_ct"], np.float32))).sum()

    np.testing.assert_allclose(ft.func.grad(loss)(w.detach()).numpy(), want.numpy(), rtol=1e-6)
    ft.compile(loss, fullgraph=True)(w).backward()
    np.testing.assert_allclose(w.grad.numpy(), want.numpy(), rtol=1e-6)


def test_embedding_scale_grad_by_freq_large_batch_is_linear_in_memory():
    # the counts used to be an (N, N) comparison matrix: 40000 indices needed 1.6 GB
    idx = ft.randint(0, 50, (200, 200))
    w = ft.randn(50, 4, requires_grad=True)
    F.embedding(idx, w, scale_grad_by_freq=True).sum().backward()
    counts = np.bincount(idx.numpy().ravel(), minlength=50)
    # each row: the sum of count copies of 1/count (float32 rounding)
    np.testing.assert_allclose(w.grad.numpy(), np.where(counts[:, None] > 0, 1.0, 0.0) * np.ones((50, 4)),
                               rtol=1e-4)


def test_embedding_refuses_negative_indices_as_pytorch():
    with pytest.raises(IndexError, match="index out of range in self"):
        F.embedding(ft.tensor([0, -1]), ft.ones(3, 2))


# --- torch.dropout (and SDPA's dropout) under torch.compile --------------------------------

def test_torch_dropout_and_sdpa_dropout_draw_new_masks_per_compiled_call():
    """The mask used to be drawn once, while tracing, and baked into the compiled program."""
    x = ft.ones(2, 3, 8, 8)
    for fn in (lambda q: ft.dropout(q, 0.5, True),
               lambda q: F.scaled_dot_product_attention(q, q, q, dropout_p=0.5)):
        compiled = ft.compile(fn, fullgraph=True)
        ft.manual_seed(0)
        a, b = compiled(x), compiled(x)
        assert not ft.equal(a, b)
        ft.manual_seed(0)
        assert ft.equal(compiled(x), a)  # reproducible from the seed
    kept = ft.compile(lambda q: ft.dropout(q, 0.25, True))(ft.ones(4000))
    assert set(kept.unique().tolist()) == {0.0, float(np.float32(1.0) / np.float32(0.75))}
    assert 0.2 < (kept == 0).float().mean().item() < 0.3


# --- torch.compile keeps the shim's custom derivative rules ---------------------------------

def test_compiled_gradients_keep_custom_rules():
    """The backward used to be staged from the traced program, where custom_jvp/custom_vjp
    functions are inlined: relu's PyTorch derivative at 0 (0; the primal max(x, 0) gives 1)
    and a straight-through Function's backward were lost under torch.compile."""
    x0 = [-1.0, 0.0, 2.0]
    eager = ft.tensor(x0, requires_grad=True)
    F.relu(eager).sum().backward()
    comp = ft.tensor(x0, requires_grad=True)
    ft.compile(lambda x: F.relu(x).sum(), fullgraph=True)(comp).backward()
    assert comp.grad.tolist() == eager.grad.tolist() == [0.0, 0.0, 1.0]  # PyTorch's

    class StraightThrough(ft.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.round()

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = ft.tensor([0.3, 1.7], requires_grad=True)
    ft.compile(lambda x: StraightThrough.apply(x).sum(), fullgraph=True)(x).backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_compile_runs_the_traced_code_once_per_signature_with_grad():
    calls = []
    w = ft.ones(3, requires_grad=True)

    @ft.compile
    def f(x):
        calls.append(1)
        return (x * w).sum()

    f(ft.ones(3)).backward()
    f(ft.ones(3)).backward()
    assert len(calls) == 1 and w.grad.tolist() == [2.0, 2.0, 2.0]


# --- nanoGPT under torch.compile: no graph break in attention with dropout --------------------

def test_all_any_masked_fill_and_sdpa_dropout_trace_without_graph_break():
    """torch.all/any and masked_fill with a traced mask used to need concrete values, so
    scaled_dot_product_attention with a causal mask and dropout (its all-masked-rows check)
    was a graph break: torch.compile(model) of a GPT ran eagerly."""
    x = ft.tensor([[0.5, -1.0, 2.0], [1.0, 3.0, 0.25]])

    def f(x):
        return (x > 0).all(dim=1).float().sum() + (x > 0).any().float() + x.masked_fill(x > 0.6, 0.0).sum()

    assert ft.compile(f, fullgraph=True)(x).item() == f(x).item() == 1.0 + 1.0 + 0.5 - 1.0 + 0.25
    assert ft.func.vmap(lambda r: r.all())(ft.tensor([[True, False], [True, True]])).tolist() == [False, True]
    q = ft.randn(2, 2, 4, 3, requires_grad=True)
    sdpa = ft.compile(lambda q: F.scaled_dot_product_attention(q, q, q, is_causal=True, dropout_p=0.1).sum(),
                      fullgraph=True)
    sdpa(q).backward()
    assert q.grad.shape == (2, 2, 4, 3) and ft.isfinite(q.grad).all()
