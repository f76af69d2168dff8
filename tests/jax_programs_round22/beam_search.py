"""Beam-search decoding of a tiny GRU language model as sequence-to-sequence code writes it
in JAX: a hand-written GRU cell trained by teacher forcing over lax.scan with optax-free SGD
on a toy counting language, then greedy decoding and beam search in lax.while_loop: the
scores of all beam x vocab continuations flattened and ranked by lax.top_k, parents and
tokens by integer division and remainder, histories re-gathered with jnp.take_along_axis,
finished beams frozen by jnp.where on an EOS flag, length-normalised final ranking, and
beam search with beam 1 equal to greedy."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=4, suppress=True)
VOCAB, HIDDEN, BOS, EOS, MAXLEN = 8, 24, 0, 1, 9


def init(key):
    ks = jax.random.split(key, 5)
    s = 1.0 / jnp.sqrt(HIDDEN)
    return {
        "embed": jax.random.normal(ks[0], (VOCAB, HIDDEN)) * 0.3,
        "wx": jax.random.uniform(ks[1], (HIDDEN, 3 * HIDDEN), minval=-s, maxval=s),
        "wh": jax.random.uniform(ks[2], (HIDDEN, 3 * HIDDEN), minval=-s, maxval=s),
        "b": jnp.zeros(3 * HIDDEN),
        "out": jax.random.uniform(ks[3], (HIDDEN, VOCAB), minval=-s, maxval=s),
    }


def gru(params, h, token):
    x = params["embed"][token]
    gx = x @ params["wx"] + params["b"]
    gh = h @ params["wh"]
    r = jax.nn.sigmoid(gx[..., :HIDDEN] + gh[..., :HIDDEN])
    z = jax.nn.sigmoid(gx[..., HIDDEN : 2 * HIDDEN] + gh[..., HIDDEN : 2 * HIDDEN])
    n = jnp.tanh(gx[..., 2 * HIDDEN :] + r * gh[..., 2 * HIDDEN :])
    h = (1 - z) * n + z * h
    return h, jax.nn.log_softmax(h @ params["out"])


def make_sequence(start, length):
    """BOS, start, start+1, ... (mod 6, shifted past BOS/EOS), EOS, padding with EOS."""
    seq = [BOS] + [2 + (start + i) % 6 for i in range(length)] + [EOS]
    return seq + [EOS] * (MAXLEN + 1 - len(seq))


data = jnp.array([make_sequence(s, n) for s in range(6) for n in (3, 5)])
print("data", data.shape, data.dtype, "\n", data[:3])


def loss(params, seqs):
    def one(seq):
        def step(h, pair):
            inp, target = pair
            h, logp = gru(params, h, inp)
            return h, logp[target]

        _, lp = lax.scan(step, jnp.zeros(HIDDEN), (seq[:-1], seq[1:]))
        return -jnp.mean(lp)

    return jnp.mean(jax.vmap(one)(seqs))


@jax.jit
def sgd(params, seqs):
    value, g = jax.value_and_grad(loss)(params, seqs)
    return jax.tree.map(lambda p, d: p - 1.0 * d, params, g), value


params = init(jax.random.PRNGKey(42))
for it in range(400):
    params, value = sgd(params, data)
    if it % 100 == 0:
        print(f"step {it:3d} loss {float(value):.4f}")
print("final loss", f"{float(loss(params, data)):.4f}")


@partial(jax.jit, static_argnames="beam")
def beam_search(params, prefix, beam):
    # consume the prefix
    h = jnp.zeros(HIDDEN)
    for tok in prefix[:-1]:
        h, _ = gru(params, h, tok)
    hs = jnp.broadcast_to(h, (beam, HIDDEN))
    last = jnp.full((beam,), prefix[-1], jnp.int32)  # lax.top_k indices are int32
    scores = jnp.where(jnp.arange(beam) == 0, 0.0, -jnp.inf)  # one live beam at first
    history = jnp.full((beam, MAXLEN), EOS)
    done = jnp.zeros(beam, bool)
    lengths = jnp.zeros(beam, jnp.int32)

    def cond(state):
        t, *_, done, _ = state
        return (t < MAXLEN) & ~jnp.all(done)

    def body(state):
        t, hs, last, scores, history, done, lengths = state
        new_h, logp = jax.vmap(gru, in_axes=(None, 0, 0))(params, hs, last)
        # a finished beam only continues with EOS at no cost
        logp = jnp.where(done[:, None], jnp.where(jnp.arange(VOCAB) == EOS, 0.0, -jnp.inf), logp)
        cand = (scores[:, None] + logp).reshape(-1)
        top_scores, flat = lax.top_k(cand, beam)
        parent, token = flat // VOCAB, flat % VOCAB
        history = jnp.take_along_axis(history, parent[:, None], axis=0).at[:, t].set(token)
        was_done = done[parent]
        lengths = lengths[parent] + jnp.where(was_done, 0, 1)
        done = was_done | (token == EOS)
        return t + 1, new_h[parent], token, top_scores, history, done, lengths

    state = (0, hs, last, scores, history, done, lengths)
    t, _, _, scores, history, done, lengths = lax.while_loop(cond, body, state)
    normalised = scores / lengths
    order = jnp.argsort(-normalised)
    return history[order], scores[order], normalised[order], t


def greedy(params, prefix):
    h = jnp.zeros(HIDDEN)
    for tok in prefix[:-1]:
        h, _ = gru(params, h, tok)
    tok, out, total = prefix[-1], [], 0.0
    for _ in range(MAXLEN):
        h, logp = gru(params, h, tok)
        tok = int(jnp.argmax(logp))
        total += float(logp[tok])
        out.append(tok)
        if tok == EOS:
            break
    return out, total


for prefix in ([BOS, 4], [BOS, 6, 7]):
    seqs, raw, norm, steps = beam_search(params, jnp.array(prefix), beam=4)
    print("prefix", prefix, "steps", int(steps))
    for s, r, n in zip(seqs, raw, norm):
        print("  ", s, f"logp {float(r):8.4f} per token {float(n):.4f}")
    g_seq, g_score = greedy(params, prefix)
    b1, b1_score, _, _ = beam_search(params, jnp.array(prefix), beam=1)
    print(
        "  greedy",
        g_seq,
        f"{g_score:.4f}",
        "beam=1 agrees:",
        bool(jnp.array_equal(b1[0, : len(g_seq)], jnp.array(g_seq))),
        f"{float(b1_score[0]):.4f}",
    )
