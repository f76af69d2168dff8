"""Cases shared by ``tests/shim/test_special_more.py`` and its recorder
(``python tests/shim/special_cases.py`` writes ``tests/stored/torch_special_edges.json`` from
live torch): every function of ``torch.special`` that fgrad defines over the gamma/Bessel
primitives, at the edge values (0, -0, negative integers, +-inf, NaN, tiny, large) and at
ordinary points with gradients."""

from __future__ import annotations

import json
import math
import pathlib

STORED = pathlib.Path(__file__).parent.parent / "stored" / "torch_special_edges.json"
INF, NAN = math.inf, math.nan
EDGES = [0.0, -0.0, -1.0, -2.0, -2.5, INF, -INF, NAN, 0.5, 1e-300, 30.0, 1.3, -0.7]
POINTS = [0.3, 0.9, 1.7, 3.2, 6.5]  # gradients here (PyTorch's derivative is finite)
SIGNED = [-2.2, -0.4, 0.6, 1.9, 4.0]

UNARY = [
    "gammaln",
    "digamma",
    "psi",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "erfcx",
    "bessel_j0",
    "bessel_j1",
    "polygamma0",
    "polygamma1",
    "polygamma2",
    "polygamma3",
    "multigammaln1",
    "multigammaln3",
    "modified_bessel_i0",
    "modified_bessel_i1",
]
DIFFERENTIABLE = {
    "gammaln",
    "digamma",
    "psi",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "erfcx",
    "polygamma0",
    "polygamma1",
    "polygamma2",
    "polygamma3",
    "multigammaln1",
    "multigammaln3",
}
BINARY = ["gammainc", "gammaincc", "zeta"]
BINARY_EDGES = (
    [0.0, 0.0, 1.0, -1.0, INF, 2.0, NAN, 1.0, 0.0, 3.0, 2.0, 2.0, 0.5, 3.0],
    [0.0, 1.0, 0.0, 1.0, 1.0, INF, 1.0, -1.0, INF, -2.5, -INF, INF, 2.0, -0.0],
)


def call(torch, name: str, x):
    sp = torch.special
    if name.startswith("polygamma"):
        return sp.polygamma(int(name[-1]), x)
    if name.startswith("multigammaln"):
        p = int(name[-1])
        return sp.multigammaln(x, p)
    return getattr(sp, name)(x)


def _domain(name: str, values):
    if name.startswith("multigammaln"):
        return [v + 2.0 for v in values]  # x > (p - 1) / 2
    return values


def run(torch, name: str, dtype: str = "float64") -> dict:
    dt = getattr(torch, dtype)
    out = {}
    if name in BINARY:
        a, x = (torch.tensor(v, dtype=dt) for v in BINARY_EDGES)
        out["edges"] = getattr(torch.special, name)(a, x).tolist()
        a = torch.tensor(POINTS, dtype=dt)
        x = torch.tensor(POINTS[::-1], dtype=dt, requires_grad=True)
        y = getattr(torch.special, name)(a, x)
        (y * torch.tensor(SIGNED, dtype=dt)).sum().backward()
        out.update(values=y.tolist(), grad=x.grad.tolist(), grad_fn=y.grad_fn.name())
        return out
    out["edges"] = call(torch, name, torch.tensor(_domain(name, EDGES), dtype=dt)).tolist()
    pts = POINTS if name.startswith(("gammaln", "digamma", "psi", "polygamma", "multigammaln")) else SIGNED
    x = torch.tensor(_domain(name, pts), dtype=dt, requires_grad=True)
    y = call(torch, name, x)
    out["values"] = y.tolist()
    out["requires_grad"] = y.requires_grad
    if y.requires_grad:
        (y * torch.tensor(SIGNED, dtype=dt)).sum().backward()
        out.update(grad=x.grad.tolist(), grad_fn=y.grad_fn.name())
    return out


if __name__ == "__main__":
    import torch as _torch

    STORED.write_text(json.dumps({n: run(_torch, n) for n in UNARY + BINARY}, indent=0))
    print(f"wrote {len(UNARY + BINARY)} functions to {STORED}")
