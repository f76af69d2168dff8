"""The shortcuts of session 18 for the published programs' per-call costs
(docs/speed-programs.md) give the values of the paths they skip.  PyTorch 2.13's numbers are
stored here (printed by the same functions under PyTorch) and compared live when torch is
installed."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch
import fgrad.torch._ops_shape as ops_shape


def _stacks(t):
    """``stack`` of rows, strided column views, 0-d tensors, integers, along dims 0, 1 and -1,
    and with promotion (int64 and float32: the op's path)."""
    x = t.arange(24.).reshape(4, 6)
    rows = [x[i] for i in range(4)]
    cols = [x[:, j] for j in range(0, 6, 2)]  # strided views
    s0 = t.stack(rows)
    mixed = t.stack([t.tensor([1, 2]), t.tensor([0.5, 1.5])])
    ints = t.stack([t.arange(3), t.arange(3) * 2])
    halves = x.reshape(2, 2, 6)
    return [s0.tolist(), t.stack(cols, 1).tolist(), t.stack(rows, -1).tolist(),
            t.stack([t.tensor(1.5), t.tensor(2.5)]).tolist(), ints.tolist(), str(ints.dtype),
            t.stack([halves[0], halves[1]], 1).tolist(), mixed.tolist(), str(mixed.dtype),
            list(s0.stride()), s0.is_contiguous()]


_R = [[float(6 * i + j) for j in range(6)] for i in range(4)]
STACKS_PT = [
    _R, [[r[0], r[2], r[4]] for r in _R], [list(c) for c in zip(*_R)], [1.5, 2.5],
    [[0, 1, 2], [0, 2, 4]], "torch.int64", [[_R[0], _R[2]], [_R[1], _R[3]]],
    [[1.0, 2.0], [0.5, 1.5]], "torch.float32", [6, 1], True,
]


def test_stack_is_pytorchs():
    assert _stacks(torch) == STACKS_PT
    pt = pytest.importorskip("torch")
    assert _stacks(pt) == STACKS_PT


def test_stack_of_plain_host_tensors_skips_the_op(monkeypatch):
    """Host tensors of the result dtype with nothing to record are stacked by NumPy at once
    (the old code staged a program per count and shape of operands: ~240 us for a collate of
    64 rows); a new, contiguous array that shares nothing with the operands."""
    def refuse(*args, **kwargs):
        raise AssertionError("apply_op called")

    x = torch.arange(12.).reshape(3, 4)
    rows = [x[i] for i in range(3)]
    monkeypatch.setattr(ops_shape, "apply_op", refuse)
    for d in (0, 1, -1):
        s = torch.stack(rows, d)
        np.testing.assert_array_equal(s.numpy(), np.stack([r.numpy() for r in rows], d))
        assert s.is_contiguous() and s._buf.flags.owndata
    s = torch.stack(rows)
    s[0, 0] = 100.0
    assert x[0, 0].item() == 0.0
    with torch.no_grad():  # nothing to record for a tensor requiring grad either
        w = torch.ones(2, requires_grad=True)
        assert torch.stack([w, w]).grad_fn is None
    with pytest.raises(AssertionError, match="apply_op called"):  # promotion: the op's path
        torch.stack([torch.tensor([1, 2]), torch.tensor([0.5, 1.5])])


def test_stack_still_records_gradients_and_modes():
    x = torch.arange(6.).reshape(3, 2).requires_grad_()
    y = torch.ones(3, 2, requires_grad=True)
    s = torch.stack([x, y], 1)
    assert type(s.grad_fn).__name__ == "StackBackward0"
    (s * torch.arange(12.).reshape(3, 2, 2)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 1.0], [4.0, 5.0], [8.0, 9.0]])
    np.testing.assert_array_equal(y.grad.numpy(), [[2.0, 3.0], [6.0, 7.0], [10.0, 11.0]])
    with torch.inference_mode():
        assert torch.stack([torch.ones(2), torch.zeros(2)]).is_inference()
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        torch.stack([torch.ones(2), torch.ones(3)])


class _Rows(torch.utils.data.Dataset):
    """A map-style dataset of (features, target) rows, as the regression program's."""

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def test_default_collate_of_rows_is_the_stack_of_rows():
    x = torch.arange(40.).reshape(10, 4)
    y = torch.arange(10).unsqueeze(1)
    batches = list(torch.utils.data.DataLoader(_Rows(x, y), batch_size=4))
    assert [b[0].shape for b in batches] == [(4, 4), (4, 4), (2, 4)]
    assert torch.cat([b[0] for b in batches]).tolist() == x.tolist()
    assert torch.cat([b[1] for b in batches]).tolist() == y.tolist()
    assert batches[0][1].dtype == torch.int64 and batches[0][0].is_contiguous()


def _big_draws(t):
    """Draws of 4096 or more 64-bit words (`Engine._wide_draws`): ``bernoulli_(p)``, dropout's
    mask, float64 ``rand``, ``randint`` over 40 bits, then a small draw (the stream's position)."""
    t.manual_seed(5)
    b = t.empty(5000).bernoulli_(0.3)
    d = t.nn.functional.dropout(t.ones(4, 1200), p=0.25, training=True)
    u = t.rand(4500, dtype=t.float64)
    k = t.randint(0, 2**40, (4200,))
    after = t.randint(0, 100, (3,))
    return [int(b.sum().item()), b[:12].tolist(), int((d == 0).sum().item()), d[0, :8].tolist(),
            float(u.sum().item()), u[:3].tolist(), int(k[:5].sum().item()), k[-2:].tolist(),
            after.tolist()]


_Q = 1.3333333730697632  # 1 / 0.75 in float32
BIG_DRAWS_PT = [
    1482, [0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], 1201,
    [_Q, _Q, _Q, _Q, _Q, _Q, 0.0, _Q], 2234.91954250245,
    [0.5785481185686481, 0.0959528679601831, 0.10900106070400517], 2447369161082,
    [543336511193, 24440403838], [26, 78, 2],
]


def test_many_wide_draws_are_pytorchs():
    assert _big_draws(torch) == BIG_DRAWS_PT
    pt = pytest.importorskip("torch")
    assert _big_draws(pt) == BIG_DRAWS_PT


def _joined(raw):
    """The 64-bit draws from raw 32-bit words, the first of each pair high (PyTorch's random64)."""
    return (raw[0::2] << np.uint64(32)) | raw[1::2]


@pytest.mark.parametrize("n", [4096, 5001, 40000])
def test_wide_draws_are_the_joined_raw_words(n):
    """NumPy's full-range uint64 integers on the engine's MT19937 (the fast path) give the raw
    words joined first-high and leave the stream where ``2n`` raw words leave it; the
    Bernoulli mask is ``uniform(float64) < p`` on them.  A reseeded or copied engine draws
    from its own stream."""
    import copy

    from fgrad.torch._cpu_rng import _WIDE_MIN, Engine

    assert n >= _WIDE_MIN
    a, b = Engine(7), Engine(7)
    np.testing.assert_array_equal(a.random64(n), _joined(b._bits.random_raw(2 * n)))
    np.testing.assert_array_equal(a.random32(3), b.random32(3))
    words = _joined(b._bits.random_raw(2 * n))
    u = (words & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53
    for p in (0.0, 0.1, 0.5, 0.9, 1.0):
        c = copy.deepcopy(a)
        np.testing.assert_array_equal(c.bernoulli_scalar(n, p), u < p)
    assert a.bernoulli_scalar(n, 0.5).tolist() == (u < 0.5).tolist()
    a.seed(7)
    b.seed(7)
    np.testing.assert_array_equal(a.random64(n), _joined(b._bits.random_raw(2 * n)))
    state = a.get_state()
    first = a.random64(n)
    a.set_state(state)
    np.testing.assert_array_equal(a.random64(n), first)
