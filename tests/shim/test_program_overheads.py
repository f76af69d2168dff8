"""The shortcuts taken for the published programs' small per-call costs (docs/speed-programs.md)
give the values of the paths they skip: creation sizes (`_ops_creation._sizes`' plain-int
fast path), the random draws' element count (`_random._count`), the fill-value range check's
cached bound (`check_fill_value`) and integer sums (`ops.shape._sum_impl` calling
``np.add.reduce`` for every host array).  PyTorch 2.13's numbers are stored here and compared
live when torch is installed."""

from __future__ import annotations

import enum

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.ops.shape import _sum_impl

# PyTorch 2.13 after manual_seed(3): randint(0, 100, (2, 3)), randint(5, 9, [4]),
# rand(Size([2])), randn(2, 1), randint(3, (2,))
DRAWS_PT = ([[86, 48, 37], [67, 60, 80]], [5, 6, 6, 8], [0.45103132724761963, 0.7994906306266785],
            [[0.3374950885772705], [1.0111159086227417]], [0, 0])


def _draws(t):
    t.manual_seed(3)
    return (t.randint(0, 100, (2, 3)).tolist(), t.randint(5, 9, [4]).tolist(), t.rand(t.Size([2])).tolist(),
            t.randn(2, 1).tolist(), t.randint(3, (2,)).tolist())


def test_draws_with_every_size_form_are_pytorchs():
    ours = _draws(torch)
    assert ours[0] == DRAWS_PT[0] and ours[1] == DRAWS_PT[1] and ours[4] == DRAWS_PT[4]
    np.testing.assert_array_equal(np.float32(ours[2]), np.float32(DRAWS_PT[2]))
    np.testing.assert_array_equal(np.float32(ours[3]), np.float32(DRAWS_PT[3]))
    pt = pytest.importorskip("torch")
    assert _draws(pt) == DRAWS_PT


def test_sizes_of_other_types_still_take_the_checked_path():
    assert torch.zeros(2, np.int64(3)).shape == (2, 3)  # NumPy integers
    assert torch.zeros((2, torch.tensor(3))).shape == (2, 3)  # 0-d tensors
    assert torch.rand(0, 3).shape == (0, 3) and torch.randint(0, 7, (0, 3)).shape == (0, 3)
    assert torch.rand(()).shape == ()
    with pytest.raises(RuntimeError, match="negative dimension"):
        torch.zeros(2, -1)
    with pytest.raises(RuntimeError, match="negative dimension"):
        torch.rand(-1)
    with pytest.raises(TypeError, match="must be tuple of ints"):
        torch.zeros(2, 1.5)


def test_fill_values_beyond_the_dtype_still_raise():
    for _ in range(2):  # the second time from the cached bound
        with pytest.raises(RuntimeError, match="without overflow"):
            torch.full((2,), 65536.0, dtype=torch.float16)
        with pytest.raises(RuntimeError, match="without overflow"):
            torch.full((2,), 1e39)
    assert torch.full((1,), 3e38, dtype=torch.bfloat16).dtype == torch.bfloat16
    assert torch.full((1,), float("inf"), dtype=torch.float16).isinf().all()


@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                                "uint64"])
def test_integer_sums_are_numpys_sums(dt):
    x = np.array([[1, 0, 1], [1, 1, 0]]).astype(dt)
    for axes in [(0,), (1,), (0, 1), ()]:
        a, b = _sum_impl(np, x, axes), np.sum(x, axis=axes)
        assert type(a) is type(b) and a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.parametrize("dt", ["bool", "uint8", "int8", "int16", "int32", "int64"])
def test_shim_integer_sums_are_pytorchs(dt):
    x = torch.tensor([[1, 0, 1], [1, 1, 0]]).to(getattr(torch, dt))
    assert x.sum().dtype == torch.int64 and x.sum().item() == 4
    assert x.sum(0).tolist() == [2, 1, 1] and x.sum(1, keepdim=True).tolist() == [[2], [2]]


class _Small(enum.IntEnum):
    A = 3


# torch.tensor(data): PyTorch 2.13's dtype and values (flat lists of Python numbers take the
# type-set shortcut of `_infer_np_dtype` and `to_nested`; the others the element walk)
TENSOR_CASES = [
    ([1, 2], "int64", [1, 2]),
    ([True, False], "bool", [True, False]),
    ([True, 2], "int64", [1, 2]),
    ([1, 2.5], "float32", [1.0, 2.5]),
    ([1, 1j], "complex64", [1, 1j]),
    ((3, 4), "int64", [3, 4]),
    ([], "float32", []),
    ([_Small.A, 1], "int64", [3, 1]),
    ([np.int32(2), 1], "int64", [2, 1]),
    ([np.float32(1.5), 1], "float32", [1.5, 1.0]),
    ([[1, 2], [3, 4]], "int64", [[1, 2], [3, 4]]),
]


@pytest.mark.parametrize("data,dtype,values", TENSOR_CASES)
def test_tensor_of_a_list_infers_pytorchs_dtype(data, dtype, values):
    t = torch.tensor(data)
    assert t.dtype == getattr(torch, dtype) and t.tolist() == values
    pt = pytest.importorskip("torch")
    r = pt.tensor(data)
    assert r.dtype == getattr(pt, dtype) and r.tolist() == values


def test_tensor_of_a_list_holding_tensors():
    t = torch.tensor([torch.tensor(2), 3])
    assert t.dtype == torch.int64 and t.tolist() == [2, 3]
    t = torch.tensor([torch.tensor(2.5), 3])
    assert t.dtype == torch.float32 and t.tolist() == [2.5, 3.0]


# PyTorch 2.13: manual_seed(5), the TensorDataset below, DataLoader(batch_size=4, shuffle=True)
LOADER_PT = [([[4.0, 5.0], [6.0, 7.0], [8.0, 9.0], [10.0, 11.0]], [0, 1, 0, 1]),
             ([[2.0, 3.0], [0.0, 1.0]], [1, 0])]


def _loader_batches(t, **kw):
    t.manual_seed(5)
    ds = t.utils.data.TensorDataset(t.arange(12.).reshape(6, 2), t.tensor([0, 1, 0, 1, 0, 1]))
    return list(t.utils.data.DataLoader(ds, batch_size=4, shuffle=True, **kw))


def test_tensor_dataset_batches_are_pytorchs():
    batches = _loader_batches(torch)
    assert [(x.tolist(), y.tolist()) for x, y in batches] == LOADER_PT
    assert all(type(b) is list for b in batches)
    assert [(x.dtype, y.dtype) for x, y in batches] == [(torch.float32, torch.int64)] * 2
    assert all(x.is_contiguous() and x._base is None for x, _ in batches)
    # the per-item path (a collate_fn of one's own) gives the very same batches
    slow = _loader_batches(torch, collate_fn=lambda b: torch.utils.data.default_collate(b))
    for (x, y), (sx, sy) in zip(batches, slow, strict=True):
        assert torch.equal(x, sx) and torch.equal(y, sy) and x.stride() == sx.stride()
    pt = pytest.importorskip("torch")
    assert [(x.tolist(), y.tolist()) for x, y in _loader_batches(pt)] == LOADER_PT


def test_tensor_dataset_batches_keep_the_stack_where_it_matters():
    w = torch.arange(6.).requires_grad_()
    (x,) = next(iter(torch.utils.data.DataLoader(torch.utils.data.TensorDataset(w), batch_size=3)))
    assert type(x.grad_fn).__name__ == "StackBackward0"  # as PyTorch: stacked rows of w
    ds = torch.utils.data.TensorDataset(torch.arange(6.))
    with pytest.raises(IndexError, match="index 7 is out of bounds for dimension 0 with size 6"):
        list(torch.utils.data.DataLoader(ds, batch_size=4, sampler=[5, 0, 7]))


@pytest.mark.parametrize("shape", [(7, 3), (4, 5, 6), (3, 4, 5, 6), (2, 3, 2, 3, 4)])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_batch_norm_statistics_are_numpys_mean_and_var(shape, dt):
    from fgrad.torch.nn.functional import _batch_stats64

    x = (np.random.default_rng(0).standard_normal(shape) * 3 + 1).astype(dt)
    axes = (0,) + tuple(range(2, x.ndim))
    mean, var = _batch_stats64(x, axes, x.size // x.shape[1])
    assert mean.tobytes() == x.mean(axis=axes, dtype=np.float64).tobytes()
    assert var.tobytes() == x.var(axis=axes, dtype=np.float64).tobytes()


# PyTorch 2.13: BatchNorm2d(3) in training on the input below, twice (running statistics)
BN_RUNNING_PT = ([0.2944999933242798, 0.4465000033378601, 0.5985000133514404],
                 [1.1124799251556396, 1.1124800443649292, 1.1124799251556396])


def _bn_running(t):
    bn = t.nn.BatchNorm2d(3)
    x = t.arange(48, dtype=t.float32).reshape(2, 3, 2, 4) / 10
    bn(x)
    bn(x)
    return bn.running_mean.tolist(), bn.running_var.tolist()


def test_batch_norm_running_statistics_are_pytorchs():
    """The means equal PyTorch's; the variances are within one float32 ulp (one of the three
    here is one ulp below PyTorch's, as before `_batch_stats64`: PyTorch's CPU kernel
    accumulates the variance its own way, Welford's)."""
    mean, var = _bn_running(torch)
    np.testing.assert_array_equal(np.float32(mean), np.float32(BN_RUNNING_PT[0]))
    np.testing.assert_allclose(np.float32(var), np.float32(BN_RUNNING_PT[1]), rtol=1.5e-7, atol=0)
    pt = pytest.importorskip("torch")
    assert _bn_running(pt) == BN_RUNNING_PT


# PyTorch 2.13's pad_sequence of a, b, c = tensor([1, 2, 3]), tensor([4]), tensor([5, 6]) and
# of x = arange(6.).reshape(3, 2), y = arange(2.).reshape(1, 2) + 10
PAD_PT = ([[1, 2, 3], [4, -1, -1], [5, 6, -1]], [[1, 0, 0], [2, 0, 5], [3, 4, 6]],
          [[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[10.0, 11.0], [0.5, 0.5], [0.5, 0.5]]])


def _pads(t):
    pad = t.nn.utils.rnn.pad_sequence
    a, b, c = t.tensor([1, 2, 3]), t.tensor([4]), t.tensor([5, 6])
    x, y = t.arange(6.).reshape(3, 2), t.arange(2.).reshape(1, 2) + 10
    return (pad([a, b, c], batch_first=True, padding_value=-1).tolist(),
            pad([a, b, c], padding_side="left").tolist(),
            pad([x, y], batch_first=True, padding_value=0.5).tolist())


def test_pad_sequence_and_cat_of_new_shapes_are_pytorchs():
    """`cat` of host tensors of its result dtype (NumPy's concatenate at once) and
    pad_sequence's gather without grad (NumPy's indexing at once)."""
    assert _pads(torch) == PAD_PT
    for lens in ([3, 1, 2], [5, 4], [1]):  # new shapes each time
        seqs = [torch.arange(n) + 10 * i for i, n in enumerate(lens)]
        padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True)
        assert padded.dtype == torch.int64 and padded.is_contiguous()
        assert padded.tolist() == [s.tolist() + [0] * (max(lens) - len(s)) for s in seqs]
        both = torch.cat(seqs)
        assert both.tolist() == [v for s in seqs for v in s.tolist()] and both._buf.flags.owndata
    mixed = torch.cat([torch.tensor([1, 2]), torch.tensor([3.5])])  # promotion: the op's path
    assert mixed.dtype == torch.float32 and mixed.tolist() == [1.0, 2.0, 3.5]
    pt = pytest.importorskip("torch")
    assert _pads(pt) == PAD_PT


def test_pad_sequence_and_cat_still_record_gradients():
    x = torch.arange(6.).reshape(3, 2).requires_grad_()
    y = torch.ones(1, 2, requires_grad=True)
    c = torch.cat([x, y])
    assert type(c.grad_fn).__name__ == "CatBackward0"
    p = torch.nn.utils.rnn.pad_sequence([x, y], batch_first=True, padding_value=7.0)
    (p * torch.arange(12.).reshape(2, 3, 2)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.arange(6.).reshape(3, 2))
    np.testing.assert_array_equal(y.grad.numpy(), [[6.0, 7.0]])
    with torch.no_grad():
        assert torch.cat([x, y]).grad_fn is None and not torch.cat([x, y]).requires_grad
    with torch.inference_mode():
        assert torch.cat([torch.ones(2), torch.zeros(1)]).is_inference()
