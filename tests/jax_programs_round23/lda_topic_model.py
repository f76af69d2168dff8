"""Latent Dirichlet allocation by variational EM (Blei, Ng and Jordan) as topic-model code writes
it in JAX: a synthetic corpus drawn with jax.random.dirichlet and jax.random.categorical,
documents as bag-of-words count vectors (jnp.bincount under vmap), the per-document E-step
(gamma and phi updates with jax.scipy.special.digamma, softmax-normalised in log space) in a
lax.fori_loop vmapped over documents, the M-step for the topic-word matrix, the evidence lower
bound with gammaln, a Newton update of the symmetric Dirichlet prior alpha from jax.grad and
jax.hessian of the ELBO, topic recovery by matching topics with a Hungarian-free greedy
argmax, and held-out perplexity."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.special import digamma, gammaln, logsumexp

jnp.set_printoptions(precision=4, suppress=True)
K, V, D, N = 3, 18, 40, 60

key = random.PRNGKey(0)
k_topics, k_theta, k_words, k_test = random.split(key, 4)
# each true topic puts most of its mass on six words
base = jnp.full((K, V), 0.05).at[jnp.arange(K)[:, None], jnp.arange(V).reshape(K, 6)].set(2.0)
true_beta = random.dirichlet(k_topics, base)
true_theta = random.dirichlet(k_theta, jnp.full((K,), 0.3), (D,))


def sample_doc(k, theta):
    kz, kw = random.split(k)
    z = random.categorical(kz, jnp.log(theta), shape=(N,))
    w = random.categorical(kw, jnp.log(true_beta[z]))
    return jnp.bincount(w, length=V)


counts = jax.vmap(sample_doc)(random.split(k_words, D), true_theta).astype(jnp.float32)
train = counts
print("corpus", counts.shape, "tokens per doc", counts.sum(1)[:5], "total", counts.sum())


def e_step_doc(log_beta, alpha, n_w):
    def body(_, gamma):
        log_phi = log_beta + digamma(gamma)[:, None]  # (K, V)
        phi = jax.nn.softmax(log_phi, axis=0)
        return alpha + phi @ n_w

    gamma = lax.fori_loop(0, 50, body, alpha + jnp.sum(n_w) / K * jnp.ones(K))
    phi = jax.nn.softmax(log_beta + digamma(gamma)[:, None], axis=0)
    return gamma, phi


def elbo(alpha, log_beta, gamma, phi, n):
    e_log_theta = digamma(gamma) - digamma(gamma.sum(-1, keepdims=True))  # (D, K)
    term_prior = (gammaln(K * alpha) - K * gammaln(alpha) + (alpha - 1) * e_log_theta.sum(-1)).sum()
    term_z = jnp.einsum("dkv,dv,dk->", phi, n, e_log_theta)
    term_w = jnp.einsum("dkv,dv,kv->", phi, n, log_beta)
    term_q_theta = (
        gammaln(gamma.sum(-1)) - gammaln(gamma).sum(-1) + ((gamma - 1) * e_log_theta).sum(-1)
    ).sum()
    term_q_z = jnp.einsum("dkv,dv->", phi * jnp.log(phi + 1e-30), n)
    return term_prior + term_z + term_w - term_q_theta - term_q_z


@jax.jit
def em_step(log_beta, alpha):
    gamma, phi = jax.vmap(e_step_doc, in_axes=(None, None, 0))(log_beta, alpha, train)
    expected = jnp.einsum("dkv,dv->kv", phi, train) + 0.01
    new_log_beta = jnp.log(expected) - jnp.log(expected.sum(1, keepdims=True))
    # Newton on log alpha with the ELBO's alpha-terms (the rest is constant in alpha)
    f = lambda la: elbo(jnp.exp(la), new_log_beta, gamma, phi, train)
    la = jnp.log(alpha)
    g, h = jax.grad(f)(la), jax.hessian(f)(la)
    new_alpha = jnp.exp(jnp.clip(la - g / h, la - 1.0, la + 1.0))
    return new_log_beta, new_alpha, elbo(alpha, new_log_beta, gamma, phi, train)


log_beta = jnp.log(random.dirichlet(random.PRNGKey(7), jnp.ones(V), (K,)))
alpha = jnp.asarray(1.0)
for it in range(30):
    log_beta, alpha, bound = em_step(log_beta, alpha)
    if it % 6 == 0 or it == 29:
        print(f"iter {it:2d}: ELBO {float(bound):.3f} alpha {float(alpha):.4f}")

beta = jnp.exp(log_beta)
overlap = beta @ true_beta.T / jnp.linalg.norm(beta, axis=1)[:, None] / jnp.linalg.norm(true_beta, axis=1)
print("cosine(learned, true topics)\n", overlap)
match = jnp.argmax(overlap, axis=1)
print("matched topics", match, "is a permutation:", bool(jnp.unique(match).size == K))
print("top words per topic", jnp.argsort(-beta, axis=1)[:, :4])

# held-out perplexity of fresh documents under the fitted model (E-step only)
fresh = jax.vmap(sample_doc)(random.split(k_test, 10), true_theta[:10]).astype(jnp.float32)
gamma, _ = jax.vmap(e_step_doc, in_axes=(None, None, 0))(log_beta, alpha, fresh)
theta_hat = gamma / gamma.sum(1, keepdims=True)
log_p = jnp.sum(fresh * logsumexp(jnp.log(theta_hat)[:, :, None] + log_beta[None], axis=1))
print(
    f"held-out perplexity {float(jnp.exp(-log_p / fresh.sum())):.3f}",
    f"uniform {V}, true-topic",
    f"{float(jnp.exp(-jnp.sum(fresh * jnp.log(true_theta[:10] @ true_beta)) / fresh.sum())):.3f}",
)
