"""A character-level recurrent network (a GRU cell unrolled with ``lax.scan``) trained with
a hand-written Adam optimizer (the optax recipe, no optax): it learns to continue a short
text, then writes a greedy continuation of a prompt.

It is written against JAX's API.  To run it with JAX, change the three fgrad imports below to

    import jax
    import jax.numpy as jnp
    from jax import lax

and nothing else (``tests/test_examples_jax_more.py`` checks that and compares the output).

Run: ``python examples/char_rnn.py`` (a few seconds).  It saves its loss curve to
``examples/plots/char_rnn.png`` with matplotlib installed (``--plot FILE.png``, ``--no-plot``).
"""

import numpy as np

import fgrad as jax
import fgrad.numpy as jnp
from fgrad import lax
from _training_plot import TrainingCurves, plot_arguments  # examples/_training_plot.py

jax.config.update("jax_enable_x64", True)  # float64, as NumPy

TEXT = "the quick brown fox jumps over the lazy dog. " * 4
VOCAB = sorted(set(TEXT))
INDEX = {c: i for i, c in enumerate(VOCAB)}
HIDDEN, SEQ = 48, 24


def init_params(rng):
    v, h = len(VOCAB), HIDDEN

    def mat(m, n):
        return jnp.asarray(rng.standard_normal((m, n)) / np.sqrt(m))

    return {"wx": mat(v, 3 * h), "wh": mat(h, 3 * h), "b": jnp.zeros(3 * h),
            "wo": mat(h, v), "bo": jnp.zeros(v)}


def gru_step(params, h, x_onehot):
    """One GRU step: update gate z, reset gate r, candidate state n."""
    gx = x_onehot @ params["wx"] + params["b"]
    gh = h @ params["wh"]
    zx, rx, nx = jnp.split(gx, 3, axis=-1)
    zh, rh, nh = jnp.split(gh, 3, axis=-1)
    z = jax.nn.sigmoid(zx + zh)
    r = jax.nn.sigmoid(rx + rh)
    n = jnp.tanh(nx + r * nh)
    return (1.0 - z) * n + z * h


def logits_of_sequence(params, chars):
    """Next-character logits at every position of ``chars`` (int[T]), by lax.scan."""
    def step(h, c):
        h = gru_step(params, h, jax.nn.one_hot(c, len(VOCAB)))
        return h, h @ params["wo"] + params["bo"]

    _, logits = lax.scan(step, jnp.zeros(HIDDEN), chars)
    return logits


def loss(params, batch):
    """Mean cross-entropy of predicting batch[:, 1:] from batch[:, :-1]."""
    logits = jax.vmap(logits_of_sequence, in_axes=(None, 0))(params, batch[:, :-1])
    logp = jax.nn.log_softmax(logits, axis=-1)
    target = jax.nn.one_hot(batch[:, 1:], len(VOCAB))
    return -jnp.mean(jnp.sum(logp * target, axis=-1))


def adam_init(params):
    zeros = jax.tree.map(jnp.zeros_like, params)
    return {"m": zeros, "v": zeros, "t": jnp.zeros((), jnp.int32)}


def adam_update(grads, state, lr=0.01, b1=0.9, b2=0.999, eps=1e-8):
    """optax.adam's update: bias-corrected first and second moments."""
    t = state["t"] + 1
    m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
    v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
    m_hat = jax.tree.map(lambda m: m / (1 - b1 ** t), m)
    v_hat = jax.tree.map(lambda v: v / (1 - b2 ** t), v)
    updates = jax.tree.map(lambda m, v: -lr * m / (jnp.sqrt(v) + eps), m_hat, v_hat)
    return updates, {"m": m, "v": v, "t": t}


@jax.jit
def train_step(params, opt_state, batch):
    value, grads = jax.value_and_grad(loss)(params, batch)
    updates, opt_state = adam_update(grads, opt_state)
    params = jax.tree.map(lambda p, u: p + u, params, updates)
    return params, opt_state, value


@jax.jit
def next_char(params, h, c):
    h = gru_step(params, h, jax.nn.one_hot(c, len(VOCAB)))
    return h, jnp.argmax(h @ params["wo"] + params["bo"])


def generate(params, prompt, n):
    h = jnp.zeros(HIDDEN)
    out = list(prompt)
    for ch in prompt:
        h, nxt = next_char(params, h, INDEX[ch])
    for _ in range(n):
        out.append(VOCAB[int(nxt)])
        h, nxt = next_char(params, h, int(nxt))
    return "".join(out)


def main():
    args = plot_arguments()
    rng = np.random.default_rng(0)
    data = np.array([INDEX[c] for c in TEXT])
    starts = np.arange(0, len(TEXT) - SEQ - 1, 3)
    batch = jnp.asarray(np.stack([data[s:s + SEQ + 1] for s in starts]))
    params = init_params(rng)
    opt_state = adam_init(params)
    print(f"vocabulary {len(VOCAB)}, batch {batch.shape}")
    curves = TrainingCurves("char_rnn: GRU under lax.scan, Adam")
    for step in range(101):
        params, opt_state, value = train_step(params, opt_state, batch)
        curves.add("loss", "train", step, float(value))
        if step % 50 == 0:
            print(f"step {step:4d}  loss {float(value):.6f}")
    print("sample:", generate(params, "the quick", 36))
    curves.save("char_rnn", args)


if __name__ == "__main__":
    main()
