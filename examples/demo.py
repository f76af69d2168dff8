"""fgrad demo: the functional API on a small real task.

A 2-layer MLP classifies the "two moons" (generated with numpy, no extra packages):

1. per-example gradients with ``vmap(grad(loss))``, checked against the batch gradient;
2. training with per-example gradient clipping (the core of DP-SGD) -- each step is
   ``vmap`` of a function that calls ``grad`` and clips that example's gradient;
3. curvature at the trained point: Hessian-vector products as ``jvp`` of ``grad``
   (forward-over-reverse), checked against the full ``hessian``, and the top Hessian
   eigenvalue by power iteration on HVPs vs numpy's ``eigvalsh`` of the full matrix.

Run: ``python examples/demo.py`` (a second or two; it saves the training curves to
``examples/plots/demo.png`` with matplotlib installed: ``--plot FILE.png``, ``--no-plot``).
Swap ``fgrad`` for ``jax`` and it is a JAX program.
"""

from __future__ import annotations

import time

import numpy as np

import fgrad
import fgrad.numpy as fnp
from fgrad.tree_util import tree_leaves, tree_map
from _training_plot import TrainingCurves, plot_arguments  # examples/_training_plot.py


def two_moons(n: int, noise: float = 0.15, seed: int = 0):
    """n points on two interleaved half circles; labels +1 / -1."""
    rng = np.random.default_rng(seed)
    t = rng.uniform(0.0, np.pi, n)
    upper = rng.random(n) < 0.5
    x = np.where(upper, np.cos(t), 1.0 - np.cos(t))
    y = np.where(upper, np.sin(t), 0.5 - np.sin(t))
    pts = np.stack([x, y], axis=1) + noise * rng.standard_normal((n, 2))
    pts = (pts - pts.mean(0)) / pts.std(0)
    return pts, np.where(upper, 1.0, -1.0)


def init_params(hidden: int = 16, seed: int = 1):
    rng = np.random.default_rng(seed)
    return {"W1": fnp.asarray(rng.standard_normal((2, hidden)) / np.sqrt(2.0)),
            "b1": fnp.zeros(hidden),
            "w2": fnp.asarray(rng.standard_normal(hidden) / np.sqrt(hidden)),
            "b2": fnp.asarray(0.0)}


def logit(params, x):
    """Works for one example x: (2,) or a batch x: (n, 2)."""
    h = fnp.tanh(x @ params["W1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def example_loss(params, x, y):
    """Logistic loss of one example (y = +1 or -1): log(1 + exp(-y * logit))."""
    return fnp.logaddexp(0.0, -y * logit(params, x))


def loss(params, X, Y):
    return fnp.mean(fnp.logaddexp(0.0, -Y * logit(params, X)))


def accuracy(params, X, Y: np.ndarray) -> float:
    return float(np.mean(np.sign(np.asarray(logit(params, X))) == Y))


def max_abs_diff(a, b) -> float:
    return max(float(np.max(np.abs(np.asarray(u) - np.asarray(v))))
               for u, v in zip(tree_leaves(a), tree_leaves(b), strict=True))


def clipped_grad(params, x, y, clip: float):
    """One example's gradient, rescaled to norm <= clip (vmapped over the batch below)."""
    g = fgrad.grad(example_loss)(params, x, y)
    norm = fnp.sqrt(sum(fnp.sum(leaf ** 2) for leaf in tree_leaves(g)))
    scale = fnp.minimum(1.0, clip / (norm + 1e-12))
    return tree_map(lambda leaf: leaf * scale, g)


def flatten_hessian(H, params) -> np.ndarray:
    """The pytree-of-pytrees from fgrad.hessian as one (P, P) numpy matrix."""
    keys = sorted(params)
    sizes = [int(np.size(params[k])) for k in keys]
    return np.block([[np.asarray(H[a][b]).reshape(sa, sb) for b, sb in zip(keys, sizes, strict=True)]
                     for a, sa in zip(keys, sizes, strict=True)])


def flatten(tree) -> np.ndarray:
    return np.concatenate([np.ravel(np.asarray(tree[k])) for k in sorted(tree)])


def main() -> None:
    args = plot_arguments()
    t0 = time.perf_counter()
    Xn, Yn = two_moons(200)
    X, Y = fnp.asarray(Xn), fnp.asarray(Yn)
    params = init_params()
    n_params = sum(int(np.size(p)) for p in tree_leaves(params))
    print(f"fgrad demo: 2-layer MLP ({n_params} parameters) on {len(Yn)} two-moons points")

    # 1. per-example gradients: vmap over the examples of grad of one example's loss
    per_example = fgrad.vmap(fgrad.grad(example_loss), in_axes=(None, 0, 0))
    G = per_example(params, X, Y)
    print("[1] per-example gradients with vmap(grad(loss)): dloss/dW1 has shape",
          tuple(G["W1"].shape))
    batch_grad = fgrad.grad(loss)(params, X, Y)
    mean_of_per_example = tree_map(lambda g: fnp.mean(g, axis=0), G)
    print(f"    mean of per-example grads vs grad of the mean loss: max |diff| = "
          f"{max_abs_diff(mean_of_per_example, batch_grad):.1e}")
    i = 7
    single = fgrad.grad(example_loss)(params, fnp.asarray(Xn[i]), Yn[i])
    print(f"    example {i} vs grad on that example alone:          max |diff| = "
          f"{max_abs_diff(tree_map(lambda g: np.asarray(g)[i], G), single):.1e}")
    norms = np.sqrt(sum(np.sum(np.asarray(g).reshape(len(Yn), -1) ** 2, axis=1) for g in tree_leaves(G)))
    print(f"    per-example gradient norms: min {norms.min():.3f}, median {np.median(norms):.3f}, "
          f"max {norms.max():.3f}")

    # 2. training with per-example clipping: vmap of (grad + clip), averaged, SGD step
    clip, lr, steps = 1.0, 3.0, 300
    clipped = fgrad.vmap(clipped_grad, in_axes=(None, 0, 0, None))

    def train_step(params):
        g = tree_map(lambda leaf: fnp.mean(leaf, axis=0), clipped(params, X, Y, clip))
        return tree_map(lambda p, d: p - lr * d, params, g)

    print(f"[2] training: per-example gradients clipped to norm {clip} (DP-SGD style, no noise), "
          f"lr {lr}")
    curves = TrainingCurves("two moons: MLP trained with per-example clipped gradients")
    for step in range(steps + 1):
        if step % 10 == 0:
            value, acc = float(loss(params, X, Y)), accuracy(params, X, Yn)
            curves.add("loss", "train", step, value)
            curves.add("accuracy", "train", step, acc)
        if step % 100 == 0:
            print(f"    step {step:4d}  loss {value:.4f}  accuracy {acc:.3f}")
        if step < steps:
            params = train_step(params)

    # 3. curvature: Hessian-vector products (forward-over-reverse) vs the full Hessian
    f = lambda p: loss(p, X, Y)  # noqa: E731
    hvp = lambda p, v: fgrad.jvp(fgrad.grad(f), (p,), (v,))[1]  # noqa: E731
    rng = np.random.default_rng(2)
    v = tree_map(lambda p: fnp.asarray(rng.standard_normal(np.shape(p))), params)
    H = flatten_hessian(fgrad.hessian(f)(params), params)
    print(f"[3] curvature at the trained parameters (Hessian {H.shape[0]}x{H.shape[1]})")
    print(f"    HVP jvp(grad(loss)) vs hessian(loss) @ v: max |diff| = "
          f"{np.max(np.abs(flatten(hvp(params, v)) - H @ flatten(v))):.1e}")
    print(f"    Hessian symmetry: max |H - H.T| = {np.max(np.abs(H - H.T)):.1e}")
    u = tree_map(lambda leaf: leaf / np.linalg.norm(flatten(v)), v)
    lam = 0.0
    for _ in range(100):
        Hu = hvp(params, u)
        lam = float(np.dot(flatten(Hu), flatten(u)))
        nrm = np.linalg.norm(flatten(Hu))
        u = tree_map(lambda leaf, n=nrm: leaf / n, Hu)
    eig = np.linalg.eigvalsh(H)
    top = eig[np.argmax(np.abs(eig))]
    print(f"    top Hessian eigenvalue: power iteration on HVPs {lam:.6f}, "
          f"numpy eigvalsh of the full Hessian {top:.6f}")
    print(f"done in {time.perf_counter() - t0:.2f} s")
    curves.save("demo", args)


if __name__ == "__main__":
    main()
