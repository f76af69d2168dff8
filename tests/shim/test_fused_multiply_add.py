"""``add``/``sub`` with ``alpha``, ``lerp``, ``addcmul`` and ``addcdiv`` compute PyTorch CPU's
fused multiply-add forms (`fgrad.torch._fma`), so their last bits, and an optimizer's
trajectory, are PyTorch's.  The unfused forms fgrad used before differed in 2 to 30 % of
elements; after 200 steps Adam/AdamW/SGD parameters differed from PyTorch's.

``STORED``: inputs ``(x, y, t2, result)`` (float hex) where PyTorch 2.13 (CPU, AVX2) differs
from the unfused form; ``TRAJECTORY``: PyTorch's parameters after 200 steps (a SHA-256 prefix
and the first four values)."""

from __future__ import annotations


import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.torch import _fma
from tests._peers import torch_or_none

OPS = {
    "add": lambda m, a, b, c: m.add(a, b, alpha=0.1),
    "sub": lambda m, a, b, c: m.sub(a, b, alpha=3.0),
    "lerp": lambda m, a, b, c: m.lerp(a, b, 0.1),
    "lerp_hi": lambda m, a, b, c: m.lerp(a, b, 0.7),
    "addcmul": lambda m, a, b, c: m.addcmul(a, b, c, value=0.1),
    "addcdiv": lambda m, a, b, c: m.addcdiv(a, b, c, value=0.1),
}
INPLACE = {
    "add": lambda a, b, c: a.add_(b, alpha=0.1),
    "sub": lambda a, b, c: a.sub_(b, alpha=3.0),
    "lerp": lambda a, b, c: a.lerp_(b, 0.1),
    "lerp_hi": lambda a, b, c: a.lerp_(b, 0.7),
    "addcmul": lambda a, b, c: a.addcmul_(b, c, value=0.1),
    "addcdiv": lambda a, b, c: a.addcdiv_(b, c, value=0.1),
}
STORED = {
    ('add', 'float32'): [
        ('0x1.181b6e0000000p-5', '-0x1.4d576c0000000p-2', '0x1.48cd740000000p+0', '0x1.ade2ea0000000p-10'),
        ('-0x1.311eec0000000p-2', '0x1.493e140000000p-1', '0x1.7685180000000p-1', '-0x1.de8b6a0000000p-3'),
        ('-0x1.17b0180000000p-3', '0x1.4966640000000p+0', '0x1.467fdc0000000p+0', '-0x1.02afb00000000p-7'),
    ],
    ('sub', 'float32'): [
        ('0x1.5c186a0000000p+0', '0x1.f85c6c0000000p-1', '0x1.18b11c0000000p-1', '-0x1.9872380000000p+0'),
        ('0x1.3987520000000p+0', '-0x1.52955e0000000p+0', '0x1.3839100000000p-1', '0x1.4c51dc0000000p+2'),
        ('-0x1.cb47a60000000p-5', '-0x1.618fa60000000p+0', '0x1.cd7f140000000p-1', '0x1.05952e0000000p+2'),
    ],
    ('lerp', 'float32'): [
        ('0x1.181b6e0000000p-5', '-0x1.4d576c0000000p-2', '0x1.48cd740000000p+0', '-0x1.d274e20000000p-10'),
        ('-0x1.cb47a60000000p-5', '-0x1.618fa60000000p+0', '0x1.cd7f140000000p-1', '-0x1.822fd60000000p-3'),
        ('-0x1.17b0180000000p-3', '0x1.4966640000000p+0', '0x1.467fdc0000000p+0', '0x1.79a10a0000000p-8'),
    ],
    ('lerp_hi', 'float32'): [
        ('0x1.3987520000000p+0', '-0x1.52955e0000000p+0', '0x1.3839100000000p-1', '-0x1.1de6520000000p-1'),
        ('-0x1.0546f80000000p-1', '0x1.5cd5880000000p-3', '0x1.1603220000000p-1', '-0x1.15652e0000000p-5'),
        ('-0x1.311eec0000000p-2', '0x1.493e140000000p-1', '0x1.7685180000000p-1', '0x1.71673a0000000p-2'),
    ],
    ('addcmul', 'float32'): [
        ('0x1.181b6e0000000p-5', '-0x1.4d576c0000000p-2', '0x1.48cd740000000p+0', '-0x1.f33b280000000p-8'),
        ('0x1.3987520000000p+0', '-0x1.52955e0000000p+0', '0x1.3839100000000p-1', '0x1.24e1a40000000p+0'),
        ('-0x1.17b0180000000p-3', '0x1.4966640000000p+0', '0x1.467fdc0000000p+0', '0x1.c3384e0000000p-6'),
    ],
    ('addcdiv', 'float32'): [
        ('-0x1.311eec0000000p-2', '0x1.493e140000000p-1', '0x1.7685180000000p-1', '-0x1.ae33640000000p-3'),
        ('-0x1.cb47a60000000p-5', '-0x1.618fa60000000p+0', '0x1.cd7f140000000p-1', '-0x1.ac9f4e0000000p-3'),
        ('-0x1.5754680000000p-1', '0x1.7ea9960000000p-1', '0x1.9d5b880000000p-1', '-0x1.27ee840000000p-1'),
    ],
    ('add', 'float64'): [
        ('0x1.095664c71ce75p+0', '0x1.d6654d7245238p+0', '0x1.04ac59d216421p+0', '0x1.3860861f57047p+0'),
        ('0x1.2b14079a3aeedp+0', '-0x1.a45c8a56e32c3p+0', '0x1.c3bd155c0d45ep-1', '0x1.010ac6918a9d9p+0'),
        ('0x1.02198a6699415p+1', '-0x1.b37b141788f12p-1', '0x1.77d40aa0d39e0p+0', '0x1.ee6ced659edcfp+0'),
    ],
    ('sub', 'float64'): [
        ('-0x1.a7d627e1f73adp+0', '0x1.659c9fb23e043p+0', '0x1.fb0334975dd24p+0', '-0x1.762b01be2c51ep+2'),
        ('-0x1.656b68f3ee3e6p-1', '-0x1.7d80e29dd52e3p-2', '0x1.3f12724bae554p+0', '0x1.adabd5f1a30ddp-2'),
        ('0x1.14dc57fe5ffffp+0', '0x1.9cac2cfa360e1p-1', '0x1.8531c25e55df4p+0', '-0x1.5625eb78f1152p+0'),
    ],
    ('lerp', 'float64'): [
        ('0x1.095664c71ce75p+0', '0x1.d6654d7245238p+0', '0x1.04ac59d216421p+0', '0x1.1dd7e271d4209p+0'),
        ('0x1.2b18a98d9150ap+1', '-0x1.5e481b58b5b01p-1', '0x1.0bebe02f87dfcp+1', '0x1.046dfe5064a43p+1'),
        ('-0x1.e0012bda958e0p-2', '0x1.428b7a5a3ef77p+0', '0x1.d280cd0c821a5p+0', '-0x1.2efc768707033p-2'),
    ],
    ('lerp_hi', 'float64'): [
        ('0x1.3b06142a632b2p+1', '-0x1.9c5e1a1828ce5p-1', '0x1.bfd977ff35891p+0', '0x1.657c17bb035a6p-3'),
        ('0x1.032de9725bf01p+0', '0x1.cb93b89573953p+0', '0x1.567e29be484a7p+0', '0x1.8f752da48616dp+0'),
        ('-0x1.a7d627e1f73adp+0', '0x1.659c9fb23e043p+0', '0x1.fb0334975dd24p+0', '0x1.ecb58f4a51c50p-2'),
    ],
    ('addcmul', 'float64'): [
        ('-0x1.01fd59c16223bp-2', '0x1.bd7c8ac3bbcfbp-3', '0x1.93de2b603cc28p+0', '-0x1.bdb2ef1e2e771p-3'),
        ('-0x1.e0012bda958e0p-2', '0x1.428b7a5a3ef77p+0', '0x1.d280cd0c821a5p+0', '-0x1.e9cbcd760bc42p-3'),
        ('-0x1.3acf104ba70c3p-1', '0x1.dc8b04dc68c9dp-1', '0x1.86fa8dd0cfe4ap+0', '-0x1.e40e7d28f1fe9p-2'),
    ],
    ('addcdiv', 'float64'): [
        ('-0x1.0e132b75422dap-1', '0x1.33bc0fd00a332p+0', '0x1.068a76c32fa19p-1', '-0x1.2c18746c8f156p-2'),
        ('-0x1.137453f8ed3d2p-2', '0x1.6d21c788e471ap+0', '0x1.71bf4bfd51ddep-1', '-0x1.24d7d7f83f512p-4'),
        ('0x1.46174a4495dc3p-7', '-0x1.4dcd82020ecafp-1', '0x1.25d124ac0b2ebp-1', '-0x1.a894d91faa5fep-4'),
    ],
}
TRAJECTORY = {
    ("Adam", "float32"): ("11602ac2c24282e2", ("-0x1.aabc320000000p-1", "-0x1.29931a0000000p-1")),
    ("Adam", "float64"): ("3809c14340970829", ("-0x1.aabc31c8b398ep-1", "-0x1.29931978b3264p-1")),
    ("AdamW", "float32"): ("593d565b578560c0", ("-0x1.a462020000000p-1", "-0x1.2626ac0000000p-1")),
    ("AdamW", "float64"): ("d06923bee9a4abe0", ("-0x1.a46200646acd3p-1", "-0x1.2626a6ad51d93p-1")),
    ("SGD", "float32"): ("db33167cd065361e", ("-0x1.aacea20000000p-1", "-0x1.2983340000000p-1")),
    ("SGD", "float64"): ("fe9b4cde4f34d09a", ("-0x1.aacea22b53551p-1", "-0x1.298334b457fadp-1")),
    ("SGD-nesterov", "float32"): ("cebc8a2d5b68f2d3", ("-0x1.aacfec0000000p-1", "-0x1.2981740000000p-1")),
    ("SGD-nesterov", "float64"): ("f9d6bbe59b142695", ("-0x1.aacfe9b1c34b9p-1", "-0x1.298174f162015p-1")),
}
OPTIMIZERS = {"Adam": ("Adam", dict(lr=0.01)), "AdamW": ("AdamW", dict(lr=0.01, weight_decay=0.1)),
              "SGD": ("SGD", dict(lr=0.01, momentum=0.9)),
              "SGD-nesterov": ("SGD", dict(lr=0.01, momentum=0.9, nesterov=True))}


def _arrays(case, dtype):
    return [np.array([float.fromhex(t[i]) for t in STORED[case, dtype]], dtype) for i in range(4)]


@pytest.mark.parametrize("case, dtype", sorted(STORED))
def test_pytorchs_last_bits(case, dtype):
    a, b, c, want = _arrays(case, dtype)
    got = OPS[case](ft, *[ft.tensor(x) for x in (a, b, c)]).numpy()
    np.testing.assert_array_equal(got, want)
    got = INPLACE[case](*[ft.tensor(x) for x in (a, b, c)]).numpy()
    np.testing.assert_array_equal(got, want)
    # with autograd recording, the value is the same (the definition serves the backward only)
    ta = ft.tensor(a, requires_grad=True)
    np.testing.assert_array_equal(OPS[case](ft, ta, ft.tensor(b), ft.tensor(c)).detach().numpy(), want)


def test_float32_fma_rounds_once():
    """(1 + 2**-12)**2 + 2**-60: the float64 sum lies on a float32 midpoint; PyTorch's fused
    value rounds up (1.0004884004592896), rounding the float64 sum rounds to even (1.00048828125)."""
    a, c = np.float32(1 + 2 ** -12), np.float32(2.0 ** -60)
    assert float(_fma.fma32(a, a, c)) == 1.0004884004592896
    assert ft.addcmul(ft.tensor([c]), ft.tensor([a]), ft.tensor([a])).item() == 1.0004884004592896
    assert float(_fma.fma32(a, a, -c)) == 1.00048828125
    grid = np.full((3, 4), a, np.float32)  # arrays and broadcast numbers take the same path
    assert (_fma.fma32(grid, a, c) == np.float32(1.0004884004592896)).all()
    assert (_fma.fma32(a, grid, np.full((3, 4), c)) == np.float32(1.0004884004592896)).all()


def test_fma64_special_values():
    inf = np.inf
    r = _fma.fma64(np.array([inf, 2.0, 1e300]), np.array([1.0, inf, 1e10]), np.array([1.0, 1.0, 0.0]))
    assert r.tolist() == [inf, inf, inf]


def test_broadcast_operands():
    """Each operand may broadcast the others (the fused value per element is the same)."""
    b, c = np.float32([0.3, -1.7, 2.9, 0.11]), np.float32([[0.7], [-0.2], [1.3], [5.0]])
    want = (np.float64(b) * 10 + np.float64(c)).astype(np.float32)  # exact product: one rounding
    np.testing.assert_array_equal(ft.add(ft.tensor(c), ft.tensor(b), alpha=10).numpy(), want)
    np.testing.assert_array_equal(ft.add(ft.tensor(b), ft.tensor(c), alpha=10).numpy(),
                                  (np.float64(c) * 10 + np.float64(b)).astype(np.float32))
    got = ft.addcmul(ft.tensor(c), ft.tensor(b), ft.tensor([[2.0]]), value=0.5).numpy()
    assert got.shape == (4, 4)
    for dt in (ft.float32, ft.float64):
        x = ft.tensor([[1.0], [2.0]], dtype=dt)
        assert ft.lerp(x, ft.tensor([3.0, 5.0], dtype=dt), 0.25).tolist() == [[1.5, 2.0], [2.25, 2.75]]


def test_one_node_with_alphas_gradient():
    a, b = ft.tensor([1.0, 2.0], requires_grad=True), ft.tensor([3.0, 4.0], requires_grad=True)
    y = ft.sub(a, b, alpha=0.5)
    assert type(y.grad_fn).__name__ == "SubBackward0"
    assert type(ft.add(a, b, alpha=2).grad_fn).__name__ == "AddBackward0"
    y.sum().backward()
    assert a.grad.tolist() == [1.0, 1.0] and b.grad.tolist() == [-0.5, -0.5]


def test_alpha_checks():
    i, f, t = ft.tensor([1, 2]), ft.tensor([1.0, 2.0]), ft.tensor([True])
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a"):
        ft.add(i, i, alpha=0.5)
    with pytest.raises(RuntimeError, match="Boolean alpha only supported for Boolean results"):
        ft.add(f, f, alpha=True)
    assert ft.add(t, t, alpha=2).dtype == ft.bool and ft.add(t, t, alpha=2).tolist() == [True]
    assert ft.add(i, i, alpha=2).tolist() == [3, 6] and i.clone().sub_(i, alpha=3).tolist() == [-2, -4]


def _trajectory(m, name, dtype, steps=200, n=64, foreach=False):
    cls, kw = OPTIMIZERS[name]
    rng = np.random.default_rng(7)
    p0, c = rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)
    p = m.nn.Parameter(m.tensor(p0))
    opt = getattr(m.optim, cls)([p], foreach=foreach, **kw)
    for _ in range(steps):
        x = p.detach().numpy()
        p.grad = m.tensor((x * x * x - c).astype(dtype))  # one NumPy gradient for both libraries
        opt.step()
    return p.detach().numpy().copy()


@pytest.mark.parametrize("name, dtype", sorted(TRAJECTORY))
@pytest.mark.parametrize("foreach", [None, False])  # the NumPy fast step and the per-op step
def test_optimizer_trajectory_is_pytorchs_to_ulps(name, dtype, foreach):
    """PyTorch's optimizers step with its fused kernels (``lerp_``, ``addcmul_``, ``add_`` with
    ``alpha``); fgrad's keep the unfused forms (the exact fused ones cost NumPy five float64
    passes each: a third of an MLP step), so after 200 steps the parameters are PyTorch's to a
    few ulps (``TRAJECTORY``: PyTorch's), not bit for bit; the two fgrad steps agree exactly
    (tests/shim/test_optim_fused.py)."""
    got = _trajectory(ft, name, np.dtype(dtype), foreach=foreach)
    _, first = TRAJECTORY[name, dtype]
    np.testing.assert_array_max_ulp(got[:2], np.array([float.fromhex(h) for h in first], dtype), 64)
    if torch_or_none() is not None:
        want = _trajectory(torch_or_none(), name, np.dtype(dtype))
        np.testing.assert_array_max_ulp(got, want, 64)


def test_live_random_inputs():
    torch = torch_or_none()
    if torch is None:
        pytest.skip("PyTorch is not installed")
    rng = np.random.default_rng(0)
    differ = {}
    for dname in ("float32", "float64", "float16", "bfloat16"):
        for n in (10_000, 7):
            xs = [rng.standard_normal(n) for _ in range(3)]
            tt = [torch.tensor(x).to(getattr(torch, dname)) for x in xs]
            tt[2] = tt[2].abs() + 0.5
            ff = [ft.tensor(t.double().numpy()).to(getattr(ft, dname)) for t in tt]
            for case, f in OPS.items():
                if case in ("add", "sub") and dname in ("float16", "bfloat16"):
                    continue  # PyTorch's scalar tail rounds alpha * y first (not emulated)
                want, got = f(torch, *tt).double().numpy(), f(ft, *ff).double().numpy()
                if (want != got).any():
                    differ[case, dname, n] = int((want != got).sum())
    assert not differ, differ


def test_fma64_of_huge_operands_is_exact():
    """Veltkamp's split of a value over 2**995 overflowed (``134217729 * v`` = inf), so the
    product's error term was NaN and lerp/addcmul of huge float64 values gave NaN where
    PyTorch's fused result is finite (RAdam diverging on Rosenbrock: NaN, PyTorch 2.4e101)."""
    from fractions import Fraction

    rng = np.random.default_rng(21)
    for _ in range(2000):
        ea = int(rng.integers(900, 1020))
        a = float(rng.uniform(1, 2) * 2.0 ** ea * rng.choice([-1, 1]))
        b = float(rng.uniform(1, 2) * 2.0 ** int(rng.integers(-900, 1020 - ea)) * rng.choice([-1, 1]))
        c = -a * b * (1 + float(rng.normal()) * 1e-9) if rng.random() < 0.5 else float(rng.normal()) * 1e300
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        assert float(_fma.fma64(np.float64(a), np.float64(b), np.float64(c))) == float(exact), (a, b, c)


def test_lerp_of_huge_float64_is_pytorchs():
    m = ft.tensor([-1.0e300, 1e300, 3e307], dtype=ft.float64)
    g = ft.tensor([5.43382032e306, -5.4e306, -1.7e308], dtype=ft.float64)
    # PyTorch 2.13's bits (float.hex)
    want_01 = ["0x1.8c2f917bcda7bp+1015", "-0x1.89b84d8503d08p+1015", "-inf"]
    want_07 = ["0x1.5aa9c322aebebp+1018", "-0x1.588167aabe227p+1018", "inf"]
    assert [float(v).hex() for v in m.lerp(g, 0.1).tolist()] == want_01
    assert [float(v).hex() for v in m.lerp(g, 0.7).tolist()] == want_07
