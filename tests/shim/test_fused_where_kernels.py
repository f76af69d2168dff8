"""The shim's forward and backward programs splice nested jit calls (``fnp.where``'s,
``fnp.clip``'s) into the op's own program, so that a leaky ReLU is one native kernel instead
of a kernel for ``x > 0`` and ``x * s`` and another for the select (session 25: 76 -> 18 us on
(32, 16, 8, 8)); and the native kernels are compiled with ``-fno-trapping-math``, so a select
is a vector blend, not a branch per element.  Neither may change a bit: values and
gradients are compared with the NumPy code (native loops off) on data with signed zeros,
infinities and NaN."""

from __future__ import annotations

import re

import numpy as np
import pytest

import fgrad
import fgrad.torch as torch
import fgrad.torch.nn.functional as F
from fgrad.core import native_loops
from fgrad.torch import _dispatch
from fgrad.torch.autograd import graph

RNG = np.random.default_rng(2525)

OPS = {
    "relu": lambda v: F.relu(v),
    "leaky_relu": lambda v: F.leaky_relu(v, 0.2),
    "leaky_relu_slope_3": lambda v: F.leaky_relu(v, 3.0),
    "clamp": lambda v: v.clamp(-0.5, 0.75),
    "hardtanh": lambda v: F.hardtanh(v),
    "relu6": lambda v: F.relu6(v),
    "elu": lambda v: F.elu(v),
    "where": lambda v: torch.where(v > 0.1, v * 2.0, -v),
}


def _data(dtype):
    x = RNG.standard_normal((16, 8, 8, 8)).astype(dtype)
    flat = x.reshape(-1)
    flat[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-40, -1e-40]
    return x


def _run(op, x, ct):
    t = torch.tensor(x, requires_grad=True)
    out = OPS[op](t)
    (out * torch.tensor(ct)).sum().backward()
    return out.detach().numpy(), t.grad.numpy()


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_native_and_numpy_give_the_same_bits(op, dtype):
    if not native_loops.available():
        pytest.skip("no C compiler: only the NumPy code runs")
    x = _data(dtype)
    ct = RNG.standard_normal(x.shape).astype(dtype)
    for _ in range(native_loops_compile_after()):  # compiled on a later call
        native = _run(op, x, ct)
    fgrad.config.update("native_loops", False)
    try:
        numpy_code = _run(op, x, ct)
    finally:
        fgrad.config.update("native_loops", None)
    for a, b in zip(native, numpy_code, strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


def native_loops_compile_after() -> int:
    from fgrad.compile.native_kernels import COMPILE_AFTER

    return COMPILE_AFTER + 1


def test_leaky_relu_is_one_kernel():
    """Fails before session 25: the forward ran ``fnp.where``'s nested jit program (a second
    kernel) and the clamp's backward kept a ``jit`` equation."""
    x = torch.tensor(_data(np.float32), requires_grad=True)
    F.leaky_relu(x, 0.2)
    fwd = next(f for k, f in _dispatch._FORWARDS._d.items() if k[0] == ("leaky_relu", 0.2))
    # a nested program is called as ``r, = f7(xp, ...)`` in the generated code; the select is
    # now one of the program's own ufunc lines, and the three fuse into one kernel
    assert re.search(r"= f[a-z]*\d+\(xp", fwd.run.source) is None, fwd.run.source
    assert len(fwd.run.native_kernels) == 1
    graph._PROGS._d.clear()
    x.clamp(-0.5, 0.75).sum().backward()
    progs = [p for k, p in graph._PROGS._d.items() if isinstance(k[0], tuple) and k[0][0] == "clamp"]
    assert progs and all(e.prim.name != "jit" for p in progs for e in p.jaxpr.eqns)


def test_vector_flags_keep_ieee_arithmetic():
    """The kernels' flags: no fast math, no contraction into fused multiply-adds, and traps
    assumed off only after ``-fno-fast-math`` (which would switch them back on)."""
    flags = native_loops.VECTOR_FLAGS
    assert "-ffp-contract=off" in flags and "-fno-fast-math" in flags
    assert flags.index("-fno-trapping-math") > flags.index("-fno-fast-math")
    assert not any(f.startswith("-ffast-math") or f.startswith("-Ofast") for f in flags)
