"""Cases shared by ``tests/shim/test_nn_more.py`` and its recorder
(``python tests/shim/nn_more_cases.py`` writes ``tests/stored/torch_nn_more.json`` from live
torch).  Each case runs one functional on deterministic inputs and returns the output, the
gradients of ``sum(out * cotangent)`` and the ``grad_fn`` name, for any torch-like module."""

from __future__ import annotations

import json
import pathlib

import numpy as np

STORED = pathlib.Path(__file__).parent.parent / "stored" / "torch_nn_more.json"


def data(shape, seed: float = 0.0) -> np.ndarray:
    """Deterministic, distinct values (no RNG: the recorder and the tests agree exactly)."""
    n = int(np.prod(shape))
    return np.sin(np.arange(n) * 0.7 + seed).reshape(shape) * 1.5 + 0.1


def _interp(shape, **kw):
    return ("interpolate", {"shape": shape, "kw": kw})


CASES = {}
for _mode, _shape in [
    ("nearest", (2, 2, 5)),
    ("nearest", (1, 2, 4, 5)),
    ("nearest", (1, 1, 3, 4, 2)),
    ("nearest-exact", (1, 2, 4, 5)),
    ("linear", (2, 2, 5)),
    ("bilinear", (1, 2, 4, 5)),
    ("bicubic", (1, 2, 4, 5)),
    ("trilinear", (1, 1, 3, 4, 2)),
    ("area", (2, 2, 5)),
    ("area", (1, 2, 4, 5)),
]:
    _nd = len(_shape) - 2
    for _ac in [None] if _mode in ("nearest", "nearest-exact", "area") else [False, True]:
        for _kwname, _kw in [
            ("x2", {"scale_factor": 2}),
            ("x1.5", {"scale_factor": 1.5}),
            ("x0.6", {"scale_factor": 0.6}),
            ("x1.7r", {"scale_factor": 1.7, "recompute_scale_factor": True}),
            ("size", {"size": [7, 3, 5][:_nd]}),
        ]:
            CASES[f"interpolate[{_mode},{_nd}d,ac={_ac},{_kwname}]"] = _interp(
                _shape, mode=_mode, align_corners=_ac, **_kw
            )
for _mode in ("bilinear", "bicubic"):
    for _ac in (False, True):
        for _kwname, _kw in [("x0.37", {"scale_factor": 0.37}), ("size", {"size": [3, 2]}),
                             ("x2.3", {"scale_factor": 2.3})]:
            CASES[f"interpolate[{_mode},antialias,ac={_ac},{_kwname}]"] = _interp(
                (1, 2, 9, 7), mode=_mode, align_corners=_ac, antialias=True, **_kw
            )
CASES["pixel_shuffle"] = ("pixel_shuffle", {"shape": (2, 8, 2, 3), "r": 2})
CASES["pixel_unshuffle"] = ("pixel_unshuffle", {"shape": (1, 2, 4, 6), "r": 2})
for _mode in ("sum", "mean", "max"):
    for _pad in (None, 2):
        CASES[f"embedding_bag[{_mode},1d,pad={_pad}]"] = (
            "embedding_bag",
            {"input": [1, 2, 4, 5, 4, 3, 2, 6], "offsets": [0, 2, 2, 5], "mode": _mode, "padding_idx": _pad},
        )
        CASES[f"embedding_bag[{_mode},2d,pad={_pad}]"] = (
            "embedding_bag",
            {"input": [[1, 2, 0], [6, 2, 2]], "offsets": None, "mode": _mode, "padding_idx": _pad},
        )
    CASES[f"embedding_bag[{_mode},last_offset]"] = (
        "embedding_bag",
        {"input": [1, 2, 4, 5, 4, 3], "offsets": [0, 3, 6], "mode": _mode, "include_last_offset": True},
    )
CASES["embedding_bag[sum,per_sample_weights]"] = (
    "embedding_bag",
    {
        "input": [1, 2, 4, 5, 4, 3, 2, 6],
        "offsets": [0, 2, 2, 5],
        "mode": "sum",
        "psw": True,
        "padding_idx": 4,
    },
)
for _shape in [(2, 5, 3), (2, 5, 3, 2), (1, 4, 2, 2, 2)]:
    CASES[f"local_response_norm{list(_shape)}"] = ("local_response_norm", {"shape": _shape})


def run(torch, F, name: str, dtype: str = "float64") -> dict:
    """Run case ``name`` with a torch-like module; numbers as nested lists."""
    kind, p = CASES[name]
    dt = getattr(torch, dtype)
    grads = []
    if kind == "embedding_bag":
        w = torch.tensor(data((7, 3)), dtype=dt, requires_grad=True)
        inp = torch.tensor(p["input"])
        psw = None
        if p.get("psw"):
            psw = torch.tensor(data((len(p["input"]),), 1.0), dtype=dt, requires_grad=True)
        off = None if p["offsets"] is None else torch.tensor(p["offsets"])
        out = F.embedding_bag(
            inp,
            w,
            off,
            mode=p["mode"],
            padding_idx=p.get("padding_idx"),
            per_sample_weights=psw,
            include_last_offset=p.get("include_last_offset", False),
        )
        leaves = [w] + ([psw] if psw is not None else [])
    else:
        x = torch.tensor(data(p["shape"]), dtype=dt, requires_grad=True)
        leaves = [x]
        if kind == "interpolate":
            out = F.interpolate(x, **p["kw"])
        elif kind == "local_response_norm":
            out = F.local_response_norm(x, 3, alpha=0.3, beta=0.75, k=1.5)
        else:
            out = getattr(F, kind)(x, p["r"])
    ct = torch.tensor(data(tuple(out.shape), 2.0), dtype=dt)
    (out * ct).sum().backward()
    grads = [leaf.grad.detach().numpy().tolist() for leaf in leaves]
    return {"out": out.detach().numpy().tolist(), "grads": grads, "grad_fn": out.grad_fn.name()}


if __name__ == "__main__":
    import torch as _torch
    import torch.nn.functional as _F

    STORED.write_text(json.dumps({name: run(_torch, _F, name) for name in CASES}, indent=0))
    print(f"wrote {len(CASES)} cases to {STORED}")
