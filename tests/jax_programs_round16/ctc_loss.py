"""Connectionist temporal classification (Graves et al., 2006) written in JAX as speech
research code does: the CTC forward (alpha) recursion over the blank-extended label
sequence in log space with lax.scan, jnp.logaddexp and -inf masking with jnp.where, padded
batches (label and frame paddings) with jax.vmap, gradients of the loss with respect to the
logits (which must be softmax minus the posterior occupation), a small BiRNN-free encoder
trained for a few steps, and greedy decoding (argmax, collapse repeats, drop blanks)."""

import jax
import jax.numpy as jnp
from jax import lax, random

BLANK, N_CLASSES, T, L = 0, 5, 12, 4
NEG_INF = -1e30


def ctc_loss(logits, frame_len, labels, label_len):
    logp = jax.nn.log_softmax(logits, axis=-1)                 # (T, C)
    S = 2 * L + 1
    ext = jnp.full((S,), BLANK, dtype=labels.dtype).at[1::2].set(labels)
    s_idx = jnp.arange(S)
    valid_s = s_idx < 2 * label_len + 1
    # skip transition s-2 -> s allowed for non-blank labels different from the one two back
    prev2 = jnp.concatenate([jnp.array([BLANK, BLANK], dtype=ext.dtype), ext[:-2]])
    can_skip = (ext != BLANK) & (ext != prev2) & (s_idx >= 2)

    alpha0 = jnp.full((S,), NEG_INF).at[0].set(logp[0, BLANK]).at[1].set(logp[0, ext[1]])
    alpha0 = jnp.where(valid_s, alpha0, NEG_INF)

    def step(alpha, t):
        a1 = jnp.concatenate([jnp.array([NEG_INF]), alpha[:-1]])
        a2 = jnp.concatenate([jnp.array([NEG_INF, NEG_INF]), alpha[:-2]])
        a2 = jnp.where(can_skip, a2, NEG_INF)
        new = jnp.logaddexp(jnp.logaddexp(alpha, a1), a2) + logp[t, ext]
        new = jnp.where(valid_s, new, NEG_INF)
        new = jnp.where(t < frame_len, new, alpha)             # padded frames: carry through
        return new, None

    alpha, _ = lax.scan(step, alpha0, jnp.arange(1, T))
    end = 2 * label_len
    return -jnp.logaddexp(alpha[end], alpha[end - 1])


def encoder(params, x):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    # a causal 1-D smoothing over time (a depthwise conv as a shifted sum)
    h = h + 0.5 * jnp.concatenate([jnp.zeros((1, h.shape[1])), h[:-1]])
    return h @ params["w2"] + params["b2"]


def batch_loss(params, xs, frame_lens, labels, label_lens):
    logits = jax.vmap(encoder, in_axes=(None, 0))(params, xs)
    losses = jax.vmap(ctc_loss)(logits, frame_lens, labels, label_lens)
    return jnp.mean(losses / label_lens), losses


def greedy_decode(logits, frame_len):
    best = jnp.argmax(logits, axis=-1)
    best = jnp.where(jnp.arange(T) < frame_len, best, BLANK)
    keep = (best != BLANK) & (best != jnp.concatenate([jnp.array([-1]), best[:-1]]))
    return [int(b) for b, k in zip(best, keep) if k]


# a brute-force check on a tiny case: T=3, label [1]: paths that collapse to [1]
logits3 = jnp.log(jnp.array([[0.5, 0.3, 0.2], [0.4, 0.4, 0.2], [0.6, 0.1, 0.3]]))
paths = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0), (0, 1, 1), (1, 1, 1), (1, 0, 0)][:6]
p3 = jax.nn.softmax(logits3)
brute = sum(jnp.prod(jnp.array([p3[t, s] for t, s in enumerate(pth)])) for pth in paths)
T_saved, L_saved = T, L
T, L = 3, 1
print("tiny ctc", ctc_loss(logits3, 3, jnp.array([1]), 1), "brute force", -jnp.log(brute))
T, L = T_saved, L_saved

key = random.PRNGKey(0)
kx, k1, k2, kl = random.split(key, 4)
B = 6
labels = random.randint(kl, (B, L), 1, N_CLASSES)
label_lens = jnp.array([4, 3, 2, 4, 1, 3])
frame_lens = jnp.array([12, 10, 8, 12, 6, 9])
labels = jnp.where(jnp.arange(L) < label_lens[:, None], labels, 0)
# inputs carry a noisy one-hot trace of the labels, each label held for two frames
onehots = jax.nn.one_hot(jnp.repeat(labels, 2, axis=1), N_CLASSES)
xs = jnp.concatenate([onehots, jnp.zeros((B, T - 2 * L, N_CLASSES))], axis=1)
xs = xs + 0.3 * random.normal(kx, xs.shape)
params = {"w1": random.normal(k1, (N_CLASSES, 16)) * 0.5, "b1": jnp.zeros(16),
          "w2": random.normal(k2, (16, N_CLASSES)) * 0.5, "b2": jnp.zeros(N_CLASSES)}

loss, per_seq = batch_loss(params, xs, frame_lens, labels, label_lens)
print("labels", labels)
print("initial per-sequence loss", per_seq)

# dL/dlogits = softmax - occupation: rows of the gradient sum to zero on valid frames
g = jax.grad(lambda lg: ctc_loss(lg, frame_lens[1], labels[1], label_lens[1]))(
    encoder(params, xs[1]))
print("grad row sums (valid frames)", jnp.abs(g[:10].sum(-1)).max() < 1e-5,
      "padded frames get zero grad", bool(jnp.all(g[10:] == 0)))

opt = jax.jit(jax.value_and_grad(lambda p: batch_loss(p, xs, frame_lens, labels, label_lens)[0]))
for i in range(150):
    loss, g = opt(params)
    params = jax.tree.map(lambda p, g: p - 0.3 * g, params, g)
    if i % 50 == 0 or i == 149:
        print(f"step {i:3d} loss {loss:.5f}")
logits = jax.vmap(encoder, in_axes=(None, 0))(params, xs)
for b in range(3):
    print("decoded", greedy_decode(logits[b], frame_lens[b]), "target",
          [int(v) for v in labels[b, :label_lens[b]]])
