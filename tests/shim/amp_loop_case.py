"""A small training loop with loss scaling and an injected overflow, run the same under
PyTorch and fgrad.torch (tests/shim/test_amp.py, tools/make_autocast_table.py)."""

from __future__ import annotations

import numpy as np

STEPS = 7
OVERFLOW_AT = (2, 5)  # iterations whose loss is multiplied by inf: the step is skipped


def run(t, use_autocast: bool) -> dict:
    """Per iteration: the scale after ``update()``, whether the step ran, the weights."""
    rng = np.random.default_rng(0)
    w0 = rng.normal(size=(2, 3)).astype(np.float32)
    b0 = rng.normal(size=(2,)).astype(np.float32)
    xs = rng.normal(size=(STEPS, 4, 3)).astype(np.float32)
    ys = rng.normal(size=(STEPS, 4, 2)).astype(np.float32)
    lin = t.nn.Linear(3, 2)
    with t.no_grad():
        lin.weight.copy_(t.tensor(w0))
        lin.bias.copy_(t.tensor(b0))
    opt = t.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)
    scaler = t.amp.GradScaler("cpu", init_scale=2.0 ** 10, growth_interval=2)
    out = {"scale": [], "stepped": [], "weight": [], "bias": [], "grad_dtype": []}
    for i in range(STEPS):
        opt.zero_grad()
        with t.autocast("cpu", dtype=t.bfloat16, enabled=use_autocast):
            pred = lin(t.tensor(xs[i]))
            loss = t.nn.functional.mse_loss(pred, t.tensor(ys[i]))
        if i in OVERFLOW_AT:
            loss = loss * float("inf")
        scaler.scale(loss).backward()
        before = lin.weight.detach().numpy().copy()
        scaler.step(opt)
        scaler.update()
        out["scale"].append(scaler.get_scale())
        out["stepped"].append(bool((lin.weight.detach().numpy() != before).any()))
        out["weight"].append(lin.weight.detach().numpy().tolist())
        out["bias"].append(lin.bias.detach().numpy().tolist())
        out["grad_dtype"].append(str(lin.weight.grad.dtype))
    out["state_dict"] = scaler.state_dict()
    return out
