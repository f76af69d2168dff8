"""Fast paths for small calls (data preparation: collate, corpus makers) give what the general
paths give: values, dtypes, errors (round 22b)."""
import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch import _ops as tensor_ops, _ops_creation as ops_creation, _ops_shape as ops_shape


def _general(monkeypatch):
    """Switch the join fast paths off: every call takes the general checks and ``apply_op``."""
    monkeypatch.setattr(ops_shape, "_plain_host_bufs", lambda ts: None)


def _joins():
    r = torch.arange(12.).reshape(3, 4)
    rows = [r[i] for i in range(3)]
    return [torch.stack(rows), torch.stack(rows, 1), torch.cat(rows), torch.cat([r, r], 0),
            torch.cat([torch.tensor([]), torch.tensor([1.0, 2.0])]), torch.stack([torch.tensor(1.5)] * 2),
            torch.cat([r, torch.zeros(0, 4)]), torch.cat([torch.tensor([1, 2]), torch.tensor([3])])]


def test_join_fast_paths_are_the_general_paths(monkeypatch):
    fast = _joins()
    _general(monkeypatch)
    slow = _joins()
    for a, b in zip(fast, slow):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a.numpy(), b.numpy())
        assert a._buf.flags.owndata


@pytest.mark.parametrize("make", [
    lambda: torch.stack([torch.zeros(3), torch.zeros(4)]),
    lambda: torch.stack([torch.zeros(2, 3), torch.zeros(2, 4)]),
    lambda: torch.stack([torch.zeros(2), torch.zeros(2, 1)]),
    lambda: torch.cat([torch.zeros(2, 3), torch.zeros(2, 4)]),
    lambda: torch.cat([torch.zeros(2), torch.tensor(1.0)]),
    lambda: torch.cat([torch.zeros(2, 3), torch.zeros(3)]),
])
def test_join_fast_path_errors_are_the_general_errors(make, monkeypatch):
    with pytest.raises(Exception) as fast:
        make()
    _general(monkeypatch)
    with pytest.raises(Exception) as slow:
        make()
    assert type(fast.value) is type(slow.value) and str(fast.value) == str(slow.value)


def test_join_fast_paths_leave_gradients_and_promotion_to_the_op():
    w = torch.ones(2, requires_grad=True)
    assert type(torch.stack([w, w]).grad_fn).__name__ == "StackBackward0"
    assert type(torch.cat([w, torch.zeros(2)]).grad_fn).__name__ == "CatBackward0"
    m = torch.cat([torch.tensor([1, 2]), torch.tensor([0.5])])
    assert m.dtype == torch.float32 and m.tolist() == [1.0, 2.0, 0.5]
    p = torch.nn.Parameter(torch.ones(2))
    assert torch.stack([p, p]).requires_grad


def test_int_tuple_index_is_the_general_index():
    x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
    for idx in [(1, 2), (-1, -3), (0,), (1, 2, 3), (-2, 0, -4)]:
        fast = x[idx]
        slow = x[idx + (Ellipsis,)]  # an Ellipsis takes the general path
        assert fast.shape == slow.shape and fast.tolist() == slow.tolist()
        assert type(fast.grad_fn).__name__ == type(slow.grad_fn).__name__ == "SelectBackward0"
        (fast.sum() * 2).backward()
        g = x.grad.clone()
        x.grad = None
        (slow.sum() * 2).backward()
        np.testing.assert_array_equal(g.numpy(), x.grad.numpy())
        x.grad = None
    y = torch.zeros(2, 3)
    v = y[1, 2]
    v.add_(5.0)  # a view: writes reach the base
    assert y[1, 2].item() == 5.0 and y._version == 1
    for bad in [(2, 0), (0, -4), (0, 0, 0)]:
        with pytest.raises(IndexError) as fast:
            y[bad]
        with pytest.raises(IndexError) as slow:
            y[bad + (Ellipsis,)] if len(bad) <= 2 else y[bad[0], bad[1], bad[2], ...]
        assert str(fast.value) == str(slow.value)
    assert y[True, 0].shape == (1, 3)  # bools are masks, not ints


@pytest.mark.parametrize("args", [(10,), (0,), (2, 11, 3), (5, 5), (-7, 4, 2), (3, 100, 7),
                                  (2**53 - 3, 2**53 - 1)])
def test_int_arange_fast_path_is_the_general_path(args):
    fast = torch.arange(*args)
    slow = torch.arange(*[np.int64(a) for a in args])  # NumPy ints take the general path
    assert fast.dtype == slow.dtype == torch.int64 and fast.tolist() == slow.tolist()
    assert fast.tolist() == list(range(*args))


def test_int_arange_leaves_keywords_and_errors_to_the_general_path():
    assert torch.arange(4, dtype=torch.float32).dtype == torch.float32
    assert torch.arange(4, requires_grad=False).tolist() == [0, 1, 2, 3]
    o = torch.empty(3, dtype=torch.int64)
    assert torch.arange(3, out=o) is o and o.tolist() == [0, 1, 2]
    with pytest.raises(RuntimeError, match="inconsistent with step sign"):
        torch.arange(5, 2)
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        torch.arange(0, 5, 0)
    with pytest.raises(RuntimeError, match="floating point"):
        torch.arange(3, requires_grad=True)
    assert torch.arange(5, 0, -2).tolist() == [5, 3, 1]


_FILL_VALUES = [0, 1, -3, 2**24 + 1, 2**53 - 1, 2**60 + 1, 0.1, -0.0, float("inf"), float("nan"), 1e300,
                True, False, 3.5]


@pytest.mark.parametrize("name", ["bool", "uint8", "int32", "int64", "float16", "float32", "float64",
                                  "complex64"])
def test_filled_array_is_numpys_full(name):
    npd = np.dtype(name)
    for v in _FILL_VALUES:
        with np.errstate(all="ignore"):
            try:
                want = np.full((2, 3), v, npd)
            except (OverflowError, ValueError):
                continue
            got = ops_creation._filled_array((2, 3), v, npd)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))  # bit for bit


def test_full_and_ones_keep_dtypes_and_errors():
    assert torch.full((2,), 7).dtype == torch.int64 and torch.full((2,), 7).tolist() == [7, 7]
    assert torch.full((2,), True).dtype == torch.bool
    assert torch.full((1,), 0.1, dtype=torch.float16).item() == float(np.float16(0.1))
    assert torch.full((1,), 2**24 + 1, dtype=torch.float32).item() == float(np.float32(2**24 + 1))
    assert torch.ones(2, 3, dtype=torch.bfloat16).tolist() == [[1.0] * 3] * 2
    assert torch.ones(2, dtype=torch.complex64).tolist() == [1 + 0j, 1 + 0j]
    with pytest.raises(RuntimeError, match="overflow"):
        torch.full((1,), 300, dtype=torch.int8)
    with pytest.raises(RuntimeError, match="overflow"):
        torch.full((1,), 1e300, dtype=torch.float32)


def test_join_fast_paths_write_out():
    rows = [torch.arange(3.) + i for i in range(4)]
    o = torch.empty(4, 3)
    assert torch.stack(rows, out=o) is o
    assert o.tolist() == [[float(i + j) for j in range(3)] for i in range(4)]
    c = torch.empty(12)
    assert torch.cat(rows, out=c) is c and c.tolist() == [float(i + j) for i in range(4) for j in range(3)]
    assert torch.cat(rows, dim=-1).shape == (12,) and torch.stack(rows, dim=-1).shape == (3, 4)


def _wheres():
    c = torch.tensor([[True, False, True], [False, True, False]])
    a, b = torch.arange(6.).reshape(2, 3), -torch.arange(6.).reshape(2, 3)
    ints = torch.arange(6).reshape(2, 3)
    return [torch.where(c, a, b), torch.where(c, ints, ints * 10), torch.where(c, a.t().t(), b[0]),
            torch.where(c, a[:, ::2].repeat(1, 2)[:, :3], b), torch.where(c[0], torch.tensor(1.5), b),
            torch.where(c, c, ~c), torch.where(c, a, b.T.T)]


def test_where_fast_path_is_the_general_path(monkeypatch):
    fast = _wheres()
    monkeypatch.setattr(tensor_ops, "_plain_where", lambda cb, x, y: None)
    slow = _wheres()
    for a, b in zip(fast, slow):
        assert a.dtype == b.dtype and a.shape == b.shape and not a.requires_grad
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_where_fast_path_leaves_gradients_promotion_and_errors():
    c = torch.tensor([True, False])
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    r = torch.where(c, x, torch.zeros(2))
    assert r.grad_fn is not None and r.grad_fn.name() == "WhereBackward0"
    r.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0]
    assert torch.where(c, torch.tensor([1, 2]), torch.tensor([0.5, 0.5])).dtype == torch.float32
    assert torch.where(c, torch.ones(2, dtype=torch.bfloat16), torch.zeros(2, dtype=torch.bfloat16)).dtype \
        == torch.bfloat16
    with pytest.raises(RuntimeError, match="must match the size"):
        torch.where(c, torch.ones(3), torch.zeros(3))


@pytest.mark.parametrize("low, high, n", [(0, 10, 17), (-5, 5, 17), (3, 1 << 40, 9), (0, 7, 1)])
def test_randint_draws_keep_pytorchs_formula(low, high, n):
    """``word % span + low`` on the generator's raw words (the add skipped for ``low == 0``)."""
    torch.manual_seed(11)
    got = torch.randint(low, high, (n,)).tolist()
    torch.manual_seed(11)
    eng = torch.default_generator._engine
    span = high - low
    words = eng.random64(n) if span >= 1 << 32 else eng._bits.random_raw(n)
    if n == 1 and span < 1 << 32:
        assert got == [int(words[0]) % span + low]
    else:
        assert got == [(int(w) % span + low + (1 << 63)) % (1 << 64) - (1 << 63) for w in words]


def test_rand_of_one_dim_owns_its_memory():
    r = torch.rand(5)
    assert r.shape == (5,) and r._buf.flags.owndata and r._buf.flags.writeable
    assert torch.rand(()).shape == () and torch.rand(2, 3).shape == (2, 3)


def test_reseeded_generator_is_a_fresh_one():
    """`Engine.seed` reseeds its MT19937 in place (made once, from zeros): after draws of every
    kind (cached normals, wide draws through NumPy's Generator) a reseed gives the stream of a
    generator made with that seed, and a new generator PyTorch's default stream (stored:
    ``torch.rand(2, generator=torch.Generator())``)."""
    def draws(g):
        return [torch.rand(3, generator=g).tolist(), torch.randn(3, generator=g).tolist(),
                torch.randint(0, 1 << 40, (5000,), generator=g)[-3:].tolist(),
                torch.randperm(9, generator=g).tolist(),
                torch.randn(1, dtype=torch.float64, generator=g).tolist()]

    used = torch.Generator().manual_seed(5)
    draws(used)
    used.manual_seed(9)
    assert draws(used) == draws(torch.Generator().manual_seed(9))
    assert used.initial_seed() == 9
    fresh = torch.rand(2, generator=torch.Generator())
    np.testing.assert_allclose(fresh.numpy(), [0.2673, 0.8725], atol=1e-4)
