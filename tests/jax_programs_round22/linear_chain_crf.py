"""A linear-chain CRF for sequence labelling as NLP tutorials write it in JAX: emission scores
from a tiny embedding + dense layer, the partition function by the forward algorithm in
lax.scan with jax.nn.logsumexp (and by brute-force enumeration with itertools), node
marginals as jax.grad of log Z checked against forward-backward, Viterbi decoding by a max-
product scan with argmax back-pointers and a reverse scan to backtrack, padding masks for
variable-length batches under vmap, and training by a jitted value_and_grad loop."""

import itertools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jnp.set_printoptions(precision=4, suppress=True)
NUM_TAGS, VOCAB, DIM, T = 4, 12, 8, 6

key = jax.random.PRNGKey(3)
k_emb, k_w, k_tr, k_data = jax.random.split(key, 4)
params = {
    "embed": 0.5 * jax.random.normal(k_emb, (VOCAB, DIM)),
    "w": jax.random.normal(k_w, (DIM, NUM_TAGS)) / jnp.sqrt(DIM),
    "b": jnp.zeros(NUM_TAGS),
    "trans": 0.1 * jax.random.normal(k_tr, (NUM_TAGS, NUM_TAGS)),
    "start": jnp.zeros(NUM_TAGS),
    "end": jnp.zeros(NUM_TAGS),
}
print(jax.tree.map(lambda a: (a.shape, str(a.dtype)), params))


def emissions(params, tokens):
    return jnp.tanh(params["embed"][tokens]) @ params["w"] + params["b"]


def log_partition(params, em, mask):
    alpha0 = params["start"] + em[0]

    def step(alpha, inputs):
        e, m = inputs
        nxt = jax.nn.logsumexp(alpha[:, None] + params["trans"], axis=0) + e
        alpha = jnp.where(m, nxt, alpha)
        return alpha, alpha

    alpha, alphas = lax.scan(step, alpha0, (em[1:], mask[1:]))
    return jax.nn.logsumexp(alpha + params["end"]), jnp.concatenate([alpha0[None], alphas])


def path_score(params, em, tags, mask):
    s = params["start"][tags[0]] + em[0, tags[0]]
    steps = params["trans"][tags[:-1], tags[1:]] + em[jnp.arange(1, em.shape[0]), tags[1:]]
    s = s + jnp.sum(jnp.where(mask[1:], steps, 0.0))
    last = tags[jnp.sum(mask) - 1]
    return s + params["end"][last]


def brute_log_z(params, em):
    scores = [
        path_score(params, em, jnp.array(p), jnp.ones(em.shape[0], bool))
        for p in itertools.product(range(NUM_TAGS), repeat=em.shape[0])
    ]
    return jax.nn.logsumexp(jnp.stack(scores))


def marginals_fb(params, em):
    _, alphas = log_partition(params, em, jnp.ones(em.shape[0], bool))

    def back(beta, e):
        beta = jax.nn.logsumexp(params["trans"] + (e + beta)[None, :], axis=1)
        return beta, beta

    _, betas = lax.scan(back, params["end"], em[1:], reverse=True)
    betas = jnp.concatenate([betas, params["end"][None]])
    logm = alphas + betas
    return jnp.exp(logm - jax.nn.logsumexp(logm, axis=1, keepdims=True))


def viterbi(params, em, mask):
    def step(delta, inputs):
        e, m = inputs
        cand = delta[:, None] + params["trans"]
        best_prev = jnp.argmax(cand, axis=0)
        nxt = jnp.max(cand, axis=0) + e
        delta = jnp.where(m, nxt, delta)
        pointers = jnp.where(m, best_prev, jnp.arange(NUM_TAGS))
        return delta, pointers

    delta, pointers = lax.scan(step, params["start"] + em[0], (em[1:], mask[1:]))
    final = delta + params["end"]
    last = jnp.argmax(final)

    def backtrack(tag, ptr):
        prev = ptr[tag]
        return prev, tag

    first, tags = lax.scan(backtrack, last, pointers, reverse=True)
    return jnp.concatenate([first[None], tags]), jnp.max(final)


tokens = jax.random.randint(k_data, (T,), 0, VOCAB)
em = emissions(params, tokens)
full = jnp.ones(T, bool)
log_z, _ = log_partition(params, em, full)
print(
    "tokens", tokens, "log Z", f"{float(log_z):.5f}", "brute force", f"{float(brute_log_z(params, em)):.5f}"
)
m_grad = jax.grad(lambda e: log_partition(params, e, full)[0])(em)
m_fb = marginals_fb(params, em)
print("marginals (grad of log Z)\n", m_grad)
print(
    "grad == forward-backward:",
    bool(jnp.allclose(m_grad, m_fb, atol=1e-5)),
    "rows sum to 1:",
    bool(jnp.allclose(m_grad.sum(1), 1.0, atol=1e-5)),
)
best, best_score = viterbi(params, em, full)
brute = max(
    itertools.product(range(NUM_TAGS), repeat=T),
    key=lambda p: float(path_score(params, em, jnp.array(p), full)),
)
print(
    "viterbi",
    best,
    f"{float(best_score):.5f}",
    "brute-force argmax",
    np.array(brute),
    "same:",
    bool(jnp.array_equal(best, jnp.array(brute))),
)

# a toy task: tag = token parity, with a transition pattern to learn; padded batch
rng = np.random.default_rng(0)
lengths = rng.integers(3, T + 1, size=32)
tok = rng.integers(0, VOCAB, size=(32, T))
tags = (tok % 2) * 2 + (np.arange(T)[None, :] % 2)
mask = np.arange(T)[None, :] < lengths[:, None]
batch = (jnp.asarray(tok), jnp.asarray(tags), jnp.asarray(mask))
print("batch", [a.shape for a in batch], "lengths", lengths[:8])


def nll(params, tok, tags, mask):
    def one(t, y, m):
        e = emissions(params, t)
        return log_partition(params, e, m)[0] - path_score(params, e, y, m)

    return jnp.mean(jax.vmap(one)(tok, tags, mask))


@jax.jit
def train_step(params, tok, tags, mask):
    value, g = jax.value_and_grad(nll)(params, tok, tags, mask)
    return jax.tree.map(lambda p, d: p - 0.5 * d, params, g), value


for it in range(60):
    params, value = train_step(params, *batch)
    if it % 20 == 0:
        print(f"step {it:2d} nll {float(value):.4f}")
print("final nll", f"{float(nll(params, *batch)):.4f}")
decode = jax.vmap(lambda t, m: viterbi(params, emissions(params, t), m)[0])(batch[0], batch[2])
acc = jnp.sum((decode == batch[1]) * batch[2]) / jnp.sum(batch[2])
print("viterbi token accuracy", f"{float(acc):.3f}")
print("learned transitions\n", params["trans"])
