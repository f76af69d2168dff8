"""Train an MLP classifier on scikit-learn's bundled handwritten digits, with fgrad's
functional API and ``jit``.

The data: 1797 8×8 grey-scale images of the digits 0-9 (``sklearn.datasets.load_digits``,
shipped inside scikit-learn, no download).  A fixed random split keeps 360 images for testing.

The model: a 64-128-64-10 ReLU MLP, softmax cross-entropy, trained with minibatch SGD with
momentum.  The whole training step — forward pass, ``value_and_grad``, momentum and parameter
update — is one ``fgrad.jit``-compiled function: traced once, optimized and fused, then every
later call runs the compiled program.  Evaluation is jitted too.

Run: ``python examples/mlp_digits.py`` (a few seconds; needs ``pip install scikit-learn``; with
matplotlib it saves the loss and accuracy curves to ``examples/plots/mlp_digits.png``:
``--plot FILE.png``, ``--no-plot``).
Swap ``fgrad`` for ``jax`` (and ``fgrad.nn`` for ``jax.nn``) and it is a JAX program.
"""

from __future__ import annotations

import sys
import time

import numpy as np

import fgrad
import fgrad.numpy as fnp
from _training_plot import TrainingCurves, plot_arguments  # examples/_training_plot.py

SIZES = (64, 128, 64, 10)
BATCH = 64
EPOCHS = 30
LR = 0.05
MOMENTUM = 0.9


def load_data(seed: int = 0):
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        sys.exit("this example needs scikit-learn for its bundled digits dataset: pip install scikit-learn")
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)  # pixel values 0..16 -> 0..1
    y = digits.target.astype(np.int64)
    perm = np.random.default_rng(seed).permutation(len(y))
    test, train = perm[:360], perm[360:]
    return x[train], y[train], x[test], y[test]


def init_params(seed: int = 0):
    """He-initialised [(W, b), ...] in float32."""
    rng = np.random.default_rng(seed)
    params = []
    for fan_in, fan_out in zip(SIZES[:-1], SIZES[1:]):
        W = rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)
        params.append((fnp.asarray(W.astype(np.float32)), fnp.zeros(fan_out, dtype=np.float32)))
    return params


def predict(params, x):
    h = x
    for W, b in params[:-1]:
        h = fgrad.nn.relu(h @ W + b)
    W, b = params[-1]
    return h @ W + b  # logits


def loss_fn(params, x, y):
    logp = fgrad.nn.log_softmax(predict(params, x))
    onehot = fgrad.nn.one_hot(y, SIZES[-1], dtype=np.float32)
    return -fnp.mean(fnp.sum(logp * onehot, axis=1))


@fgrad.jit
def train_step(params, velocity, x, y):
    loss, grads = fgrad.value_and_grad(loss_fn)(params, x, y)
    velocity = fgrad.tree_map(lambda v, g: MOMENTUM * v + g, velocity, grads)
    params = fgrad.tree_map(lambda p, v: p - LR * v, params, velocity)
    return params, velocity, loss


@fgrad.jit
def accuracy(params, x, y):
    return fnp.mean(fnp.argmax(predict(params, x), axis=1) == y)


def main():
    args = plot_arguments()
    x_train, y_train, x_test, y_test = load_data()
    print(f"digits: {len(y_train)} training and {len(y_test)} test images of {x_train.shape[1]} pixels")
    params = init_params()
    velocity = fgrad.tree_map(fnp.zeros_like, params)
    xt, yt = fnp.asarray(x_train), fnp.asarray(y_train)
    xs, ys = fnp.asarray(x_test), fnp.asarray(y_test)
    rng = np.random.default_rng(1)
    n_batches = len(y_train) // BATCH  # full batches only: one compiled signature

    t0 = time.perf_counter()
    params_c, velocity_c, _ = train_step(params, velocity, xt[:BATCH], yt[:BATCH])
    compile_s = time.perf_counter() - t0
    print(f"first call of the jitted training step (trace + compile): {compile_s * 1e3:.0f} ms")

    steps, t_steps = 0, 0.0
    curves = TrainingCurves("digits: 64-128-64-10 MLP, jitted SGD with momentum", xlabel="epoch")
    for epoch in range(1, EPOCHS + 1):
        perm = rng.permutation(len(y_train))
        total = 0.0
        for i in range(n_batches):
            idx = perm[i * BATCH:(i + 1) * BATCH]
            xb, yb = fnp.asarray(x_train[idx]), fnp.asarray(y_train[idx])
            t = time.perf_counter()
            params, velocity, loss = train_step(params, velocity, xb, yb)
            t_steps += time.perf_counter() - t
            steps += 1
            total += float(loss)
        train_acc, test_acc = float(accuracy(params, xt, yt)), float(accuracy(params, xs, ys))
        curves.add("loss", "train", epoch, total / n_batches)
        curves.add("accuracy", "train", epoch, train_acc)
        curves.add("accuracy", "test", epoch, test_acc)
        if epoch == 1 or epoch % 5 == 0:
            print(f"epoch {epoch:2d}  loss {total / n_batches:.4f}  "
                  f"train accuracy {train_acc:.4f}  test accuracy {test_acc:.4f}")
    print(f"{steps} steps, {t_steps / steps * 1e6:.0f} µs per jitted step; "
          f"traced {train_step.stats['traces']} time(s)")
    print(f"final test accuracy: {float(accuracy(params, xs, ys)):.4f}")
    curves.save("mlp_digits", args)


if __name__ == "__main__":
    main()
