"""The shortcuts of session 17 for the published programs' small per-call costs
(docs/speed-programs.md) give the values of the paths they skip.  PyTorch 2.13's numbers are
stored here and compared live when torch is installed."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch._cpu_rng import Engine


def _draws(t):
    """Single integer draws (the engine's one-word path), wide and negative ranges, ``rand`` and
    ``uniform_`` with other bounds, after ``manual_seed(11)``."""
    t.manual_seed(11)
    out = []
    for lo, hi, n in [(0, 4, 1), (-5, 3, 1), (6, 25, 1), (0, 2**40, 1), (-2**63, 2**63 - 1, 1),
                      (-2**63, 2**63 - 1, 3), (0, 2**32, 1), (-100, -3, 5), (0, 200, 6),
                      (2**62, 2**63 - 1, 2)]:
        out.append(t.randint(lo, hi, (n,)).tolist())
    out.append(t.rand(3).tolist())
    out.append(t.empty(4).uniform_(-2.0, 3.0).tolist())
    out.append(t.empty(3).uniform_(0, 1).tolist())
    out.append(t.rand(2, dtype=t.float64).tolist())
    return out


DRAWS_PT = [[1], [2], [21], [392831532369], [-5642570838863166195],
            [7863532667727410849, -7283232885081574574, -5059707216798049683], [2093245104],
            [-11, -51, -39, -84, -86], [108, 162, 68, 49, 162, 53],
            [6588333002541057258, 7656996590994934865],
            [0.8775078654289246, 0.16262197494506836, 0.2438044548034668],
            [-0.30913037061691284, 2.4236955642700195, -1.6187382936477661, 2.9501547813415527],
            [0.1944190263748169, 0.42555153369903564, 0.4382133483886719],
            [0.3901967626947086, 0.8279268316804317]]


def test_small_draws_are_pytorchs():
    assert _draws(torch) == DRAWS_PT
    pt = pytest.importorskip("torch")
    assert _draws(pt) == DRAWS_PT


@pytest.mark.parametrize("lo, hi", [(0, 4), (-5, 3), (7, 8), (-2**63, -2**63 + 9), (2**62, 2**63 - 1),
                                    (0, 2**32 - 1)])
def test_one_integer_draw_is_the_array_paths_draw(lo, hi):
    # the one-word path (Python integers) against the same draws taken two at a time (arrays)
    one, two = Engine(5), Engine(5)
    singles = [int(one.integers(1, lo, hi)[0]) for _ in range(6)]
    pairs = [int(v) for _ in range(3) for v in two.integers(2, lo, hi)]
    assert singles == pairs
    assert one.integers(1, lo, hi).dtype == np.int64


def test_rand_bounds_other_than_zero_one_still_transform():
    a, b = Engine(2), Engine(2)
    x = a.uniform(6, np.float32)
    y = b.uniform(6, np.float32, -0.0, 1.0)  # -0.0 takes the fused path: the same values
    np.testing.assert_array_equal(x, y)
    assert not np.signbit(y).any()
    z = Engine(2).uniform(6, np.float32, 0.5, 1.5)
    np.testing.assert_array_equal(z, (x.astype(np.float64) + 0.5).astype(np.float32))


@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "int32", "uint8", "bool", "float16",
                                "bfloat16", "complex64"])
@pytest.mark.parametrize("dims", [(0, 0), (0, 1), (1, 1)])
def test_two_tensors_of_one_dtype_promote_to_it(dt, dims):
    from fgrad.torch._promotion import result_dtype

    dtype = getattr(torch, dt)
    a, b = (torch.ones((2,) * d, dtype=dtype) for d in dims)
    assert result_dtype(a, b) == dtype.np == result_dtype(a, b, None)  # the fast path, the general loop
    assert torch.where(torch.ones(2, dtype=torch.bool), a, b).dtype == dtype


def test_wrapped_int_bounds_are_cached_iinfo():
    from fgrad.torch._promotion import wrapped_int

    for dt in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        info = np.iinfo(dt)
        for x in (0, -1, 1, int(info.min), int(info.max), int(info.max) + 1, int(info.min) - 1, 2**70 + 11):
            want = (x - int(info.min)) % 2**info.bits + int(info.min)  # modulo 2**bits into range
            assert wrapped_int(x, np.dtype(dt)) == want
    u8 = torch.tensor([250], dtype=torch.uint8)
    assert (u8 + 300).tolist() == [38] and (u8 < -1).tolist() == [True]  # PyTorch: 300 -> 44, -1 -> 255


class _CountingDict(dict):
    def __init__(self, d):
        super().__init__(d)
        self.gets = 0

    def get(self, k, default=None):
        self.gets += 1
        return super().get(k, default)


def test_a_loop_of_one_binary_op_skips_the_signature_lookup(monkeypatch):
    from fgrad.torch.autograd import graph as G

    counting = _CountingDict(G._PROGS_D)
    monkeypatch.setattr(G, "_PROGS_D", counting)
    x = torch.ones(3, requires_grad=True)
    y = x * 1.0001
    before = counting.gets
    for _ in range(10):
        y = y * 1.0001
    assert counting.gets == before  # the memo of the last signature answered
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full(3, np.float32(1.0001) ** 11), rtol=1e-6)


def test_the_last_signature_memo_tells_shapes_positions_and_dtypes_apart():
    # one op (one key object per dtype), alternating shapes, differentiable positions and dtypes:
    # each recorded node must get its own signature's program
    w = torch.tensor([1.5, -2.0, 3.0], requires_grad=True)
    v = torch.tensor([0.5, 4.0, -1.0])
    s = torch.tensor(2.0, requires_grad=True)
    d = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    terms = [w * v, v * w, w * w, w * s, s * w, v * s, d * d, w * v]
    loss = sum(t.sum().double() for t in terms)
    loss.backward()
    wv, vv, sv = w.detach().numpy(), v.numpy(), float(s.detach())
    np.testing.assert_allclose(w.grad.numpy(), 3 * vv + 2 * wv + 2 * sv, rtol=1e-6)
    np.testing.assert_allclose(float(s.grad), 2 * wv.sum() + vv.sum(), rtol=1e-6)
    np.testing.assert_allclose(d.grad.numpy(), 2 * d.detach().numpy())
    pt = pytest.importorskip("torch")
    W, S = pt.tensor(wv, requires_grad=True), pt.tensor(sv, requires_grad=True)
    D, V = pt.tensor([1.0, 2.0, 3.0], dtype=pt.float64, requires_grad=True), pt.tensor(vv)
    pts = [W * V, V * W, W * W, W * S, S * W, V * S, D * D, W * V]
    sum(t.sum().double() for t in pts).backward()
    np.testing.assert_array_equal(w.grad.numpy(), W.grad.numpy())
    np.testing.assert_array_equal(s.grad.numpy(), S.grad.numpy())


def test_a_device_change_forgets_the_last_signature():
    from fgrad.torch import _dispatch
    from fgrad.torch.autograd import graph as G

    x = torch.ones(2, requires_grad=True)
    _ = x * 2.0
    assert G._LAST[3] is not None
    _dispatch._drop_device_caches()
    assert G._LAST == [None, None, None, None]
