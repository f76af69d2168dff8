"""torch.masked: values and gradients against PyTorch 2.13 (stored, and live)."""

import math

import numpy as np
import pytest

import fgrad.torch as torch

X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
M = [[True, False, True], [False, False, False]]  # row 1 fully masked out
M2 = [[True, False, True], [True, True, False]]
nan, inf = math.nan, math.inf

# (name, args after input, kwargs) -> PyTorch 2.13's result with mask=M
STORED = {
    "sum": ((1,), {}, [4.0, 0.0]),
    "mean": ((1,), {}, [2.0, nan]),
    "amax": ((1,), {}, [3.0, -inf]),
    "amin": ((1,), {}, [1.0, inf]),
    "prod": ((1,), {}, [3.0, 1.0]),
    "argmax": ((1,), {}, [2.0, 0.0]),
    "argmin": ((1,), {}, [0.0, 0.0]),
    "var": ((1,), {"unbiased": False}, [1.0, nan]),
    "std": ((1,), {"unbiased": False}, [1.0, nan]),
    "norm": ((2.0, 1), {}, [3.16227766, 0.0]),
    "softmax": ((1,), {}, [[0.11920292, 0.0, 0.88079708], [nan, nan, nan]]),
    "log_softmax": ((1,), {}, [[-2.12692801, -inf, -0.12692801], [nan, nan, nan]]),
    "softmin": ((1,), {}, [[0.88079708, 0.0, 0.11920292], [nan, nan, nan]]),
    "logsumexp": ((1,), {}, [3.12692801, -inf]),
    "cumsum": ((1,), {}, [[1.0, 1.0, 4.0], [0.0, 0.0, 0.0]]),
    "cumprod": ((1,), {}, [[1.0, 1.0, 3.0], [1.0, 1.0, 1.0]]),
    "normalize": ((2.0, 1), {}, [[0.31622777, 0.0, 0.9486833], [0.0, 0.0, 0.0]]),
    "median": ((1,), {}, [1.0, nan]),
}

# more cases compared live: (name, args, kwargs, mask)
LIVE = [(n, a, k, M) for n, (a, k, _) in STORED.items()] + [
    ("sum", (), {}, M), ("sum", ((0, 1),), {}, M2), ("sum", (1,), {"keepdim": True}, M2),
    ("mean", (), {}, M2), ("var", (1,), {}, M2), ("var", (), {}, M2), ("var", (1,), {"correction": 0}, M2),
    ("std", (1,), {"unbiased": True}, M2), ("amax", ((0,),), {"keepdim": True}, M),
    ("prod", ((0, 1),), {}, M2), ("norm", (math.inf, 1), {}, M2), ("norm", (-math.inf, 1), {}, M2),
    ("norm", (0, 1), {}, M2), ("norm", (1,), {}, M2),
    ("softmax", (0,), {}, M2), ("logsumexp", ((0, 1),), {}, M2),
    ("median", (0,), {}, M2), ("sum", (1,), {}, [True, False, True]), ("mean", (1,), {}, [True, False, True]),
]
GRADS = ["sum", "mean", "amax", "prod", "var", "std", "norm", "softmax", "log_softmax", "logsumexp", "cumsum",
         "cumprod", "normalize", "softmin", "median", "amin"]


def _call(mod, name, args, kwargs, mask, x=None):
    x = mod.tensor(X) if x is None else x
    return getattr(mod.masked, name)(x, *args, mask=mod.tensor(mask), **kwargs)


@pytest.mark.parametrize("name", sorted(STORED))
def test_stored(name):
    args, kwargs, expected = STORED[name]
    np.testing.assert_allclose(_call(torch, name, args, kwargs, M).numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("case", LIVE, ids=[f"{c[0]}{i}" for i, c in enumerate(LIVE)])
def test_values_live(case):
    pt = pytest.importorskip("torch")
    name, args, kwargs, mask = case
    mine, theirs = _call(torch, name, args, kwargs, mask), _call(pt, name, args, kwargs, mask)
    assert str(mine.dtype) == str(theirs.dtype)
    assert tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6)


def _grad(mod, name, mask):
    args, kwargs, _ = STORED[name]
    x = mod.tensor(X, requires_grad=True)
    out = _call(mod, name, args, kwargs, mask, x)
    (out * mod.arange(out.numel(), dtype=out.dtype).reshape(out.shape).add(1)).nansum().backward()
    return x.grad.numpy()


@pytest.mark.parametrize("name", GRADS)
def test_gradients_live(name):
    pt = pytest.importorskip("torch")
    # var/std of a fully masked row: PyTorch's gradient there is nan (its masking multiplies, so the 0/0 of
    # the empty count reaches the input); fgrad's masking is a `where`, which gives 0
    # (docs/torch-modules-round10.md)
    for mask in (M2,) if name in ("var", "std") else (M, M2):
        np.testing.assert_allclose(_grad(torch, name, mask), _grad(pt, name, mask), rtol=1e-5, atol=1e-7)


def test_gradients_stored():
    # PyTorch 2.13: masked.mean(x, 1, mask=M).nansum().backward() and masked.softmax(x, 1, mask=M2)**2
    x = torch.tensor(X, requires_grad=True)
    torch.masked.mean(x, 1, mask=torch.tensor(M)).nansum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0.5, 0, 0.5], [0, 0, 0]])
    x = torch.tensor(X, requires_grad=True)
    torch.masked.softmax(x, 1, mask=torch.tensor(M2)).pow(2).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[-0.1599, 0, 0.1599], [-0.1817, 0.1817, 0]], atol=1e-4)


def test_under_torch_func_vmap_is_the_loop():
    x, m = torch.tensor(X), torch.tensor(M2)
    out = torch.func.vmap(lambda r, k: torch.masked.var(r, mask=k))(x, m)
    loop = torch.stack([torch.masked.var(x[i], mask=m[i]) for i in range(2)])
    np.testing.assert_allclose(out.numpy(), loop.numpy())
    g = torch.func.grad(lambda r: torch.masked.logsumexp(r, 0, mask=m[1]))(x[1])
    e = np.exp(np.array(X[1][:2]))
    np.testing.assert_allclose(g.numpy(), [*(e / e.sum()), 0.0], rtol=1e-6)


def test_errors_and_dtypes():
    with pytest.raises(ValueError, match="mean\\(\\): Could not infer output dtype"):
        torch.masked.mean(torch.tensor([1, 2]), mask=torch.tensor([True, True]))
    with pytest.raises(RuntimeError):
        torch.masked.sum(torch.tensor(X), 1, mask=torch.ones(3, 3, dtype=torch.bool))
    i = torch.tensor(X).int()
    assert torch.masked.amax(i, 1, mask=torch.tensor(M)).tolist() == [3, -2147483648]
    assert torch.masked.argmax(i, 1, mask=torch.tensor(M2)).dtype == torch.int32
    out = torch.masked.sum(torch.tensor(X), 1, mask=torch.tensor(M), dtype=torch.float64)
    assert out.dtype == torch.float64


MT_SCRIPT = '''
d = torch.tensor([[1., 2., 3.], [4., 5., 6.]]); m = torch.tensor([[True, False, True], [False, False, True]])
mt = torch.masked.masked_tensor(d, m)
out.append(repr(mt)); out += [repr(mt.sum()), repr(mt.sum(1)), repr(mt.amax()), repr(mt.mean())]
out += [repr(mt + mt), repr(mt * 2), repr(mt.exp()), repr(mt.softmax(1)), repr(mt.to_tensor(0.0))]
mt2 = torch.masked.masked_tensor(d, m, requires_grad=True); mt2.sum().backward(); out.append(repr(mt2.grad))
out.append(repr(torch.masked.masked_tensor(torch.tensor(2.), torch.tensor(False))))
out.append(repr(torch.masked.sum(mt, 1)))
try:
    mt + torch.masked.masked_tensor(d, ~m)
except ValueError as e:
    out.append(str(e))
'''

STORED_MT_REPR = """MaskedTensor(
  [
    [  1.0000,       --,   3.0000],
    [      --,       --,   6.0000]
  ]
)"""


def _run_mt(mod):
    import warnings

    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch warns that MaskedTensor is a prototype
        exec(MT_SCRIPT, {"torch": mod, "out": out})
    return out


def test_masked_tensor_stored():
    out = _run_mt(torch)
    assert out[0] == STORED_MT_REPR
    assert out[1:5] == ["MaskedTensor( 10.0000, True)", "MaskedTensor(\n  [  4.0000,   6.0000]\n)",
                        "MaskedTensor(  6.0000, True)", "MaskedTensor(  3.3333, True)"]
    assert out[-3] == "MaskedTensor(--, False)"
    assert out[-1] == "Input masks must match. If you need support for this, please open an issue on Github."


def test_masked_tensor_matches_pytorch_live():
    pt = pytest.importorskip("torch")
    assert _run_mt(torch) == _run_mt(pt)


def test_as_masked_tensor_is_differentiable_in_its_data():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    torch.masked.as_masked_tensor(x, torch.tensor([True, False, True])).mean().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.5, 0.0, 0.5])
    assert torch.masked.is_masked_tensor(torch.masked.as_masked_tensor(x, x > 1))
    with pytest.raises(ValueError, match="same shape"):
        torch.masked.masked_tensor(torch.ones(2), torch.ones(3, dtype=torch.bool))
