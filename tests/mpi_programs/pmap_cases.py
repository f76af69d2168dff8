"""The pmap programs that tests/mpi_programs/mpi_pmap.py runs on every process and compares
with references over the concatenated data: the same functions under a one-process map over
all ``n`` slices (fgrad's ``vmap(axis_name=)``, and live JAX's ``pmap`` over ``n`` CPU
devices when run as ``python pmap_cases.py N OUT.npz`` with
``XLA_FLAGS=--xla_force_host_platform_device_count=N``).

``run(api, rows)`` returns {name: array with a leading axis of ``rows``' slices}; ``api``
holds ``pmap``, ``lax``, ``grad``, ``jit``, ``vmap`` and ``np`` (the array module).

(``psum`` inside a pmap over processes binds ``psum_pmap``, the self-transposing
process all-reduce: its values and derivatives are these cases'.)
"""

import sys

import numpy as np

D = 3  # features per slice


def data(n):
    """Global inputs: n slices (one per device) of a (4, D) batch, targets, parameters."""
    x = np.sin(np.arange(n * 4 * D, dtype=np.float64).reshape(n, 4, D) * 0.37) + 0.5
    y = np.cos(np.arange(n * 4, dtype=np.float64).reshape(n, 4))
    w = np.array([0.3, -0.2, 0.1])
    v = np.arange(n * D, dtype=np.float64).reshape(n, D) * 0.25 - 1.0
    return x, y, w, v


def run(api, lo, hi, n, with_jax=False):
    """The cases, for slices lo..hi-1 of the n global ones (those JAX runs, ``with_jax``)."""
    pmap, lax, grad, jit, vmap, xp = api["pmap"], api["lax"], api["grad"], api["jit"], api["vmap"], api["np"]
    X, Y, W, V = data(n)
    x, y, v = X[lo:hi], Y[lo:hi], V[lo:hi]
    out = {}
    out["psum"] = pmap(lambda a: lax.psum(a, "i"), axis_name="i")(v)
    out["pmean"] = pmap(lambda a: lax.pmean(a, "i"), axis_name="i")(v)
    out["pmax"] = pmap(lambda a: lax.pmax(a, "i"), axis_name="i")(v)
    out["pmin"] = pmap(lambda a: lax.pmin(a, "i"), axis_name="i")(v)
    out["psum_one"] = pmap(lambda a: lax.psum(1, "i") + 0 * a, axis_name="i")(v)
    out["axis_index"] = pmap(lambda a: lax.axis_index("i") + 0 * a, axis_name="i")(v)
    out["all_gather"] = pmap(lambda a: lax.all_gather(a, "i"), axis_name="i")(v)
    out["all_gather_axis1"] = pmap(lambda a: lax.all_gather(a, "i", axis=1), axis_name="i")(v)
    out["all_gather_tiled"] = pmap(lambda a: lax.all_gather(a, "i", tiled=True), axis_name="i")(v)
    sq = X[lo:hi, :, 0][:, :1] * np.arange(1.0, n + 1)  # (slices, n): one row per device
    out["psum_scatter"] = pmap(lambda a: lax.psum_scatter(a, "i"), axis_name="i")(sq)
    tl = np.stack([np.concatenate([sq, 2 * sq], axis=1), -sq.repeat(2, axis=1)], axis=1)  # (slices, 2, 2n)
    out["psum_scatter_tiled"] = pmap(lambda a: lax.psum_scatter(a, "i", scatter_dimension=1, tiled=True),
                                     axis_name="i")(tl)
    ring = [(s, (s + 1) % n) for s in range(n)]
    far = [(s, (s + 3) % n) for s in range(n)]
    part = [(0, n - 1), (n - 1, 1)]
    out["ppermute_ring"] = pmap(lambda a: lax.ppermute(a, "i", ring), axis_name="i")(v)
    out["ppermute_far"] = pmap(lambda a: lax.ppermute(a, "i", far), axis_name="i")(v)
    out["ppermute_partial"] = pmap(lambda a: lax.ppermute(a, "i", part), axis_name="i")(v)
    rev = [(s, n - 1 - s) for s in range(n)]  # several slices between the same two processes
    out["ppermute_reverse"] = pmap(lambda a: lax.ppermute(a, "i", rev), axis_name="i")(v)
    a2a = np.repeat(v[:, None, :], n, axis=1) * np.arange(1.0, n + 1)[None, :, None]  # (slices, n, D)
    out["all_to_all"] = pmap(lambda a: lax.all_to_all(a, "i", 0, 0), axis_name="i")(a2a)
    # derivatives: JAX's pmap pairing (psum transposes to psum)
    out["grad_in_psum"] = pmap(grad(lambda a: (lax.psum(a ** 2, "i") * a).sum()), axis_name="i")(v)
    gathered = lambda a: (lax.all_gather(a, "i")[0] * 3 + lax.all_gather(a, "i")[-1]).sum()  # noqa: E731
    out["grad_in_gather"] = pmap(grad(gathered), axis_name="i")(v)
    out["grad_in_ppermute"] = pmap(grad(lambda a: (lax.ppermute(a, "i", far) * W).sum()), axis_name="i")(v)
    out["grad_in_scatter"] = pmap(grad(lambda a: (lax.psum_scatter(a, "i") ** 2).sum()), axis_name="i")(sq)
    # jit and vmap inside pmap
    scaled = jit(lambda b: lax.psum(b, "i") * lax.axis_index("i"))
    out["jit_inside"] = pmap(lambda a: scaled(a), axis_name="i")(v)
    inner = vmap(lambda b: lax.psum(b, "i") - lax.pmean(b, "j"), axis_name="j")
    out["vmap_inside"] = pmap(inner, axis_name="i")(v)
    both = vmap(lambda b: lax.psum(b, ("i", "j")), axis_name="j")
    out["both_axes"] = pmap(both, axis_name="i")(v)
    # collectives inside control flow inside the map
    out["scan_inside"] = pmap(lambda a: lax.scan(lambda c, _: (c * 0.5 + lax.psum(a * c, "i"), None), a, None,
                                                 length=3)[0], axis_name="i")(v)
    branches = (lambda a: lax.pmax(a, "i") * 10, lambda a: lax.psum(a, "i"))
    out["cond_inside"] = pmap(lambda a: lax.cond(lax.psum(a.sum(), "i") > 0, branches[1], branches[0], a),
                              axis_name="i")(v)
    if not with_jax:  # (a branch per device: JAX pairs the different branches' collectives)
        out["cond_per_device"] = pmap(lambda a: lax.cond(a.sum() > 0, branches[1], branches[0], a),
                                      axis_name="i")(v)

    def loop(a, stop):
        return lax.while_loop(lambda c: c[0] < stop, lambda c: (c[0] + 1, c[1] + lax.psum(a * c[0], "i")),
                              (0, a))[1]

    out["while_inside"] = pmap(lambda a: loop(a, lax.psum(1, "i") - 1), axis_name="i")(v)
    if not with_jax:  # (a trip count per device: JAX's devices wait for each other forever)
        out["while_per_device"] = pmap(lambda a: loop(a, lax.axis_index("i") % 3), axis_name="i")(v)
    out["grad_fori_inside"] = pmap(grad(lambda a: lax.fori_loop(0, 2, lambda i, c: c + lax.psum(a ** 2, "i"),
                                                                0.0 * a).sum()), axis_name="i")(v)
    # control flow and jit none of whose operands varies along the axis
    out["unmapped_operands"] = pmap(lambda a: lax.fori_loop(0, 3, lambda i, c: c + lax.axis_index("i"), 0)
                                    + jit(lambda: lax.psum(1, "i"))() * a, axis_name="i")(v)
    # vmap and jit around the map
    mapped = pmap(lambda a: lax.psum(a, "i") * lax.axis_index("i") + lax.all_gather(a, "i")[-1],
                  axis_name="i")
    out["vmap_outside"] = vmap(mapped, in_axes=1, out_axes=1)(v)
    out["jit_outside"] = jit(mapped)(v)

    # data-parallel training: pmap(grad(loss)) + pmean, parameters replicated
    def loss(w, xb, yb):
        return xp.mean((xp.tanh(xb @ w) - yb) ** 2)

    def update(w, xb, yb):
        g = lax.pmean(grad(loss)(w, xb, yb), "i")
        return w - 0.5 * g, lax.pmean(loss(w, xb, yb), "i")

    step = pmap(update, axis_name="i", in_axes=(None, 0, 0), out_axes=(None, None))
    w, losses = W, []
    for _ in range(4):
        w, lval = step(w, x, y)
        losses.append(lval)
    out["train_w"] = xp.broadcast_to(w, (hi - lo, D))
    out["train_loss"] = xp.broadcast_to(xp.stack(losses), (hi - lo, 4))
    return {k: np.asarray(val) for k, val in out.items()}


def outer_grad(api, lo, hi, n):
    """``grad`` of a pmap's summed outputs: JAX transposes the whole map, so each process's
    gradient is that of the sum of every process's outputs (the seeds of all processes meet
    in psum's transpose)."""
    pmap, lax, grad = api["pmap"], api["lax"], api["grad"]
    V = data(n)[3]
    f = pmap(lambda a: lax.psum(a ** 2, "i") * a + lax.all_gather(a, "i")[0], axis_name="i")
    return np.asarray(grad(lambda vs: f(vs).sum())(V[lo:hi]))


def full_batch_training(n, steps=4):
    """The same training on one process over the whole batch, plain NumPy-style fgrad."""
    import fgrad
    import fgrad.numpy as fnp

    X, Y, W, _ = data(n)
    xa, ya = X.reshape(-1, D), Y.reshape(-1)

    def loss(w):
        return fnp.mean((fnp.tanh(xa @ w) - ya) ** 2)

    w, losses = fnp.asarray(W), []
    for _ in range(steps):
        losses.append(loss(w))
        w = w - 0.5 * fgrad.grad(loss)(w)
    return np.asarray(w), np.asarray(fnp.stack(losses))


if __name__ == "__main__":  # live JAX over n CPU devices
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    n, path = int(sys.argv[1]), sys.argv[2]
    assert jax.local_device_count() == n, jax.devices()
    api = dict(pmap=jax.pmap, lax=jax.lax, grad=jax.grad, jit=jax.jit, vmap=jax.vmap, np=jnp)
    res = run(api, 0, n, n, with_jax=True)
    res["outer_grad"] = outer_grad(api, 0, n, n)
    np.savez(path, **res)
