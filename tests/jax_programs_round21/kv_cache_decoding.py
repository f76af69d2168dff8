"""Autoregressive decoding of a small mixture-of-experts transformer with a key/value cache,
as JAX inference code (minGPT/nanoGPT ports, gemma-style samplers) writes it: a prefill of the
prompt, then a lax.scan of single-token steps that write the new key and value into a
preallocated cache by lax.dynamic_update_slice and read the step's positional embedding by
lax.dynamic_slice_in_dim; causal masking of unwritten slots; a top-2 router over four expert
MLPs (jax.lax.top_k, jax.nn.softmax, one-hot dispatch by einsum); greedy decoding checked
against recomputing the whole prefix each step; temperature sampling by jax.random.categorical
with fold_in per step; and the log-likelihood gradient of a sequence through the cached path."""

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=4, suppress=True)
VOCAB, DM, HEADS, EXPERTS, MAXLEN = 17, 16, 2, 4, 24
DH = DM // HEADS


def init(key):
    ks = jax.random.split(key, 8)
    n = lambda k, s, scale: scale * jax.random.normal(k, s)
    return {"emb": n(ks[0], (VOCAB, DM), 0.5), "head": n(ks[7], (DM, VOCAB), 1.0),
            "pos": n(ks[1], (MAXLEN, DM), 0.1),
            "wqkv": n(ks[2], (DM, 3 * DM), DM**-0.5), "wo": n(ks[3], (DM, DM), DM**-0.5),
            "router": n(ks[4], (DM, EXPERTS), 0.3),
            "w_in": n(ks[5], (EXPERTS, DM, 2 * DM), DM**-0.5), "w_out": n(ks[6], (EXPERTS, 2 * DM, DM), 0.1),
            "ln": jnp.ones(DM)}


def rms_norm(x, g):
    return x * lax.rsqrt(jnp.mean(x**2, axis=-1, keepdims=True) + 1e-6) * g


def moe(p, x):
    logits = x @ p["router"]
    top_vals, top_idx = lax.top_k(logits, 2)
    gates = jax.nn.softmax(top_vals, axis=-1)
    dispatch = jnp.einsum("tk,tke->te", gates, jax.nn.one_hot(top_idx, EXPERTS))
    h = jax.nn.gelu(jnp.einsum("td,edf->tef", x, p["w_in"]), approximate=True)
    out = jnp.einsum("tef,efd->ted", h, p["w_out"])
    return jnp.einsum("te,ted->td", dispatch, out), dispatch


def attend(q, k, v, q_pos, k_valid):
    """q: (T, H, DH) at positions q_pos; k, v: (S, H, DH); k_valid: (S,) positions or -1."""
    scores = jnp.einsum("thd,shd->hts", q, k) / jnp.sqrt(DH).astype(q.dtype)
    mask = (k_valid[None, :] <= q_pos[:, None]) & (k_valid[None, :] >= 0)
    scores = jnp.where(mask[None], scores, jnp.finfo(scores.dtype).min)
    return jnp.einsum("hts,shd->thd", jax.nn.softmax(scores, axis=-1), v)


def block(p, x, positions, cache, start):
    """Run positions [start, start + T) against the cache; returns logits and the new cache."""
    T = x.shape[0]
    h = rms_norm(x, p["ln"])
    q, k, v = jnp.split(h @ p["wqkv"], 3, axis=-1)
    q, k, v = (a.reshape(T, HEADS, DH) for a in (q, k, v))
    ck = lax.dynamic_update_slice(cache["k"], k, (start, 0, 0))
    cv = lax.dynamic_update_slice(cache["v"], v, (start, 0, 0))
    valid = lax.dynamic_update_slice(cache["pos"], positions, (start,))
    x = x + attend(q, ck, cv, positions, valid).reshape(T, DM) @ p["wo"]
    y, dispatch = moe(p, rms_norm(x, p["ln"]))
    x = x + y
    return x @ p["head"], {"k": ck, "v": cv, "pos": valid}, dispatch


def empty_cache(dtype):
    return {"k": jnp.zeros((MAXLEN, HEADS, DH), dtype), "v": jnp.zeros((MAXLEN, HEADS, DH), dtype),
            "pos": jnp.full((MAXLEN,), -1, jnp.int32)}


def embed(p, tokens, start):
    pos = lax.dynamic_slice_in_dim(p["pos"], start, tokens.shape[0])
    return p["emb"][tokens] + pos


def prefill(p, prompt):
    T = prompt.shape[0]
    positions = jnp.arange(T, dtype=jnp.int32)
    logits, cache, dispatch = block(p, embed(p, prompt, 0), positions, empty_cache(p["emb"].dtype), 0)
    return logits, cache, dispatch


def decode(p, prompt, steps, key=None, temperature=1.0):
    logits, cache, _ = prefill(p, prompt)
    first = jnp.argmax(logits[-1]).astype(jnp.int32)

    def step(carry, i):
        token, cache = carry
        pos = prompt.shape[0] + i
        lg, cache, _ = block(p, embed(p, token[None], pos), pos[None].astype(jnp.int32), cache, pos)
        if key is None:
            nxt = jnp.argmax(lg[0]).astype(jnp.int32)
        else:
            nxt = jax.random.categorical(jax.random.fold_in(key, i), lg[0] / temperature).astype(jnp.int32)
        return (nxt, cache), (token, jax.nn.log_softmax(lg[0])[nxt])

    (_, cache), (tokens, logps) = lax.scan(step, (first, cache), jnp.arange(steps))
    return tokens, logps, cache


def decode_no_cache(p, prompt, steps):
    seq = prompt
    for _ in range(steps):
        T = seq.shape[0]
        logits, _, _ = block(p, embed(p, seq, 0), jnp.arange(T, dtype=jnp.int32),
                             empty_cache(p["emb"].dtype), 0)
        seq = jnp.concatenate([seq, jnp.argmax(logits[-1]).astype(jnp.int32)[None]])
    return seq[prompt.shape[0]:]


params = init(jax.random.PRNGKey(3))
prompt = jnp.array([1, 5, 2, 9, 4], dtype=jnp.int32)
logits, cache, dispatch = prefill(params, prompt)
print("prefill logits shape", logits.shape, "cache positions", cache["pos"][:8])
print("expert load", dispatch.sum(axis=0), "gates sum to one:", bool(jnp.allclose(dispatch.sum(axis=1), 1.0)))
tokens, logps, cache = jax.jit(decode, static_argnums=2)(params, prompt, 8)
print("greedy (cached)   ", tokens)
print("greedy (recompute)", decode_no_cache(params, prompt, 8))
print("log probs", logps)
print("cache filled to", int(jnp.max(cache["pos"])), "unwritten slots", int(jnp.sum(cache["pos"] < 0)))

key = jax.random.PRNGKey(7)
for temp in [0.5, 1.0, 2.0]:
    sampled, lp, _ = decode(params, prompt, 8, key=key, temperature=temp)
    print(f"T={temp}: {sampled} mean logp {float(lp.mean()):.4f}")


def token_logps(p, seq):
    T = seq.shape[0]
    logits, _, _ = block(p, embed(p, seq[:-1], 0), jnp.arange(T - 1, dtype=jnp.int32),
                         empty_cache(p["emb"].dtype), 0)
    return jnp.take_along_axis(jax.nn.log_softmax(logits), seq[1:, None], axis=1)[:, 0]


def sequence_nll(p, seq):
    return -jnp.sum(token_logps(p, seq))


seq = jnp.concatenate([prompt, tokens])
value, grads = jax.value_and_grad(sequence_nll)(params, seq)
first_logp = jax.nn.log_softmax(logits[-1])[tokens[0]]
print("nll", f"{float(value):.4f}", "generated part matches the cached log probs:",
      bool(jnp.allclose(token_logps(params, seq)[prompt.shape[0] - 1:],
                        jnp.concatenate([first_logp[None], logps[:-1]]), atol=1e-5)))
print("grad norms", {k: round(float(jnp.linalg.norm(g)), 4) for k, g in sorted(grads.items())})
print("unused positions get no gradient:", bool(jnp.all(grads["pos"][seq.shape[0] - 1:] == 0)))
