"""Models shared by several cases, written once against a module argument so the *same*
code runs on numpy, fgrad.numpy, jax.numpy, autograd.numpy, and torch / fgrad.torch."""

from __future__ import annotations

import numpy as np

SIZES = (784, 512, 512, 10)
BATCH = 128
LR = 0.01


def mlp_data(dtype=np.float32, seed=0):
    """PyTorch-default-initialised MLP parameters [(W (in, out), b), ...] and one batch."""
    rng = np.random.default_rng(seed)
    params = []
    for fan_in, fan_out in zip(SIZES[:-1], SIZES[1:], strict=True):
        bound = 1.0 / np.sqrt(fan_in)
        params.append((rng.uniform(-bound, bound, (fan_in, fan_out)).astype(dtype),
                       rng.uniform(-bound, bound, (fan_out,)).astype(dtype)))
    x = rng.standard_normal((BATCH, SIZES[0])).astype(dtype)
    y = rng.integers(0, SIZES[-1], BATCH)
    onehot = np.eye(SIZES[-1], dtype=dtype)[y]
    return params, x, y, onehot


def mlp_loss(m):
    """Softmax cross-entropy of a ReLU MLP, in the functional style (m = a numpy module)."""

    def loss(params, x, onehot):
        h = x
        for W, b in params[:-1]:
            h = m.maximum(h @ W + b, 0.0)
        W, b = params[-1]
        z = h @ W + b
        zmax = m.max(z, axis=1, keepdims=True)
        logp = z - zmax - m.log(m.sum(m.exp(z - zmax), axis=1, keepdims=True))
        return -m.sum(logp * onehot) / x.shape[0]

    return loss


def functional_step(m, value_and_grad, jit=None, lr=LR):
    """One SGD step: ``(params, x, onehot) -> (new_params, loss)``."""
    vg = value_and_grad(mlp_loss(m))

    def step(params, x, onehot):
        loss, grads = vg(params, x, onehot)
        new = [(W - lr * gW, b - lr * gb) for (W, b), (gW, gb) in zip(params, grads, strict=True)]
        return new, loss

    return jit(step) if jit is not None else step


def stateful(step, params, *args):
    """Wrap a functional step as a zero-argument callable that carries the parameters."""
    state = [params]

    def run():
        state[0], loss = step(state[0], *args)
        return loss

    return run


def numpy_mlp_step(params, x, onehot, lr=LR):
    """The same step written by hand in numpy: forward, backward, in-place SGD update."""
    params = [(W.copy(), b.copy()) for W, b in params]
    (W1, b1), (W2, b2), (W3, b3) = params
    n = x.shape[0]

    def step():
        a1 = x @ W1 + b1
        h1 = np.maximum(a1, 0)
        a2 = h1 @ W2 + b2
        h2 = np.maximum(a2, 0)
        z = h2 @ W3 + b3
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        s = e.sum(axis=1, keepdims=True)
        loss = -np.sum((z - np.log(s)) * onehot) / n
        dz = (e / s - onehot) / n
        dh2 = dz @ W3.T
        dh2 *= a2 > 0
        dh1 = dh2 @ W2.T
        dh1 *= a1 > 0
        for p, g in ((W3, h2.T @ dz), (b3, dz.sum(0)), (W2, h1.T @ dh2), (b2, dh2.sum(0)),
                     (W1, x.T @ dh1), (b1, dh1.sum(0))):
            p -= lr * g
        return loss

    return step


def torch_mlp_step(t, params, x, y, lr=LR):
    """PyTorch-style training step; ``t`` is ``torch`` or ``fgrad.torch`` (same code)."""
    nn = t.nn
    model = nn.Sequential(nn.Linear(SIZES[0], SIZES[1]), nn.ReLU(), nn.Linear(SIZES[1], SIZES[2]),
                          nn.ReLU(), nn.Linear(SIZES[2], SIZES[3]))
    with t.no_grad():
        for lin, (W, b) in zip((model[0], model[2], model[4]), params, strict=True):
            lin.weight.copy_(t.from_numpy(np.ascontiguousarray(W.T)))
            lin.bias.copy_(t.from_numpy(b.copy()))
    opt = t.optim.SGD(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    xt, yt = t.from_numpy(x), t.from_numpy(y)

    def step():
        opt.zero_grad()
        loss = loss_fn(model(xt), yt)
        loss.backward()
        opt.step()
        return loss.item()

    return step


# -- a small CNN (issue 16): conv-relu-pool x2, linear --------------------------------------

CNN_BATCH = 64
CNN_SHAPES = {"c1": (16, 1, 3, 3), "c2": (32, 16, 3, 3), "fc": (32 * 7 * 7, 10)}


def cnn_data(dtype=np.float32, seed=0):
    """PyTorch-default-initialised CNN parameters {c1: (W, b), c2: (W, b), fc: (W (in, out), b)}
    and one batch of 1x28x28 images."""
    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in CNN_SHAPES.items():
        fan_in = int(np.prod(shape[1:])) if name != "fc" else shape[0]
        bound = 1.0 / np.sqrt(fan_in)
        nout = shape[0] if name != "fc" else shape[1]
        params[name] = (rng.uniform(-bound, bound, shape).astype(dtype),
                        rng.uniform(-bound, bound, (nout,)).astype(dtype))
    x = rng.standard_normal((CNN_BATCH, 1, 28, 28)).astype(dtype)
    y = rng.integers(0, 10, CNN_BATCH)
    onehot = np.eye(10, dtype=dtype)[y]
    return params, x, y, onehot


def cnn_loss(m, lax):
    """Softmax cross-entropy of the CNN in the functional style: ``m`` is a numpy module
    (fgrad.numpy, jax.numpy) and ``lax`` its lax (fgrad.lax, jax.lax)."""

    def block(h, W, b):
        h = lax.conv_general_dilated(h, W, (1, 1), ((1, 1), (1, 1)),
                                     dimension_numbers=("NCHW", "OIHW", "NCHW"))
        h = m.maximum(h + b[None, :, None, None], 0.0)
        return lax.reduce_window(h, -m.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    def loss(params, x, onehot):
        h = block(x, *params["c1"])
        h = block(h, *params["c2"])
        W, b = params["fc"]
        z = h.reshape(h.shape[0], -1) @ W + b
        zmax = m.max(z, axis=1, keepdims=True)
        logp = z - zmax - m.log(m.sum(m.exp(z - zmax), axis=1, keepdims=True))
        return -m.sum(logp * onehot) / x.shape[0]

    return loss


def cnn_functional_step(m, lax, value_and_grad, jit=None, lr=LR):
    """One SGD step of the CNN: ``(params, x, onehot) -> (new_params, loss)``."""
    vg = value_and_grad(cnn_loss(m, lax))

    def step(params, x, onehot):
        loss, grads = vg(params, x, onehot)
        new = {k: (W - lr * grads[k][0], b - lr * grads[k][1]) for k, (W, b) in params.items()}
        return new, loss

    return jit(step) if jit is not None else step


def torch_cnn_step(t, params, x, y, lr=LR):
    """The CNN's PyTorch-style training step; ``t`` is ``torch`` or ``fgrad.torch``."""
    nn = t.nn
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(32 * 7 * 7, 10))
    with t.no_grad():
        for layer, key in ((model[0], "c1"), (model[3], "c2"), (model[7], "fc")):
            W, b = params[key]
            W = W.T if key == "fc" else W
            layer.weight.copy_(t.from_numpy(np.ascontiguousarray(W)))
            layer.bias.copy_(t.from_numpy(b.copy()))
    opt = t.optim.SGD(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    xt, yt = t.from_numpy(x), t.from_numpy(y)

    def step():
        opt.zero_grad()
        loss = loss_fn(model(xt), yt)
        loss.backward()
        opt.step()
        return loss.item()

    return step
