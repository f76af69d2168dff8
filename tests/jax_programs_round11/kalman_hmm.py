"""State-space inference with lax.scan (as in dynamax and the "Kalman filter in JAX"
notebooks): a linear-Gaussian Kalman filter and Rauch-Tung-Striebel smoother on a tracked
particle, the log marginal likelihood and its gradient with respect to the noise scale,
an HMM forward algorithm in log space with logsumexp, Viterbi decoding with argmax and a
reverse scan, and forward-backward posteriors, with the sequence simulated by jax.random."""

import numpy as np

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp
from jax.scipy.stats import multivariate_normal

dt = 0.1
F = jnp.array([[1.0, dt], [0.0, 1.0]])
H = jnp.array([[1.0, 0.0]])
Q = 0.01 * jnp.eye(2)


def simulate(key, T, r):
    def step(z, k):
        k1, k2 = jax.random.split(k)
        z = F @ z + jax.random.multivariate_normal(k1, jnp.zeros(2), Q)
        y = H @ z + jnp.sqrt(r) * jax.random.normal(k2, (1,))
        return z, (z, y)
    _, (zs, ys) = jax.lax.scan(step, jnp.array([0.0, 1.0]), jax.random.split(key, T))
    return zs, ys


def kalman_filter(ys, r):
    R = r * jnp.eye(1)

    def step(carry, y):
        m, P, ll = carry
        m_pred, P_pred = F @ m, F @ P @ F.T + Q
        S = H @ P_pred @ H.T + R
        ll = ll + multivariate_normal.logpdf(y, H @ m_pred, S)
        K = jnp.linalg.solve(S, H @ P_pred).T
        m_new = m_pred + K @ (y - H @ m_pred)
        P_new = (jnp.eye(2) - K @ H) @ P_pred
        return (m_new, P_new, ll), (m_new, P_new, m_pred, P_pred)
    (_, _, ll), out = jax.lax.scan(step, (jnp.zeros(2), jnp.eye(2), 0.0), ys)
    return ll, out


def rts_smoother(ms, Ps, m_preds, P_preds):
    def step(carry, inp):
        m_s, P_s = carry
        m, P, m_p, P_p = inp
        G = P @ F.T @ jnp.linalg.inv(P_p)
        m_new = m + G @ (m_s - m_p)
        P_new = P + G @ (P_s - P_p) @ G.T
        return (m_new, P_new), m_new
    inputs = (ms[:-1], Ps[:-1], m_preds[1:], P_preds[1:])
    _, smoothed = jax.lax.scan(step, (ms[-1], Ps[-1]), inputs, reverse=True)
    return jnp.concatenate([smoothed, ms[-1:]])


zs, ys = simulate(jax.random.key(0), 40, 0.25)
ll, (ms, Ps, mp, Pp) = jax.jit(kalman_filter)(ys, 0.25)
sm = rts_smoother(ms, Ps, mp, Pp)
print("log-likelihood", round(float(ll), 6))
print("filter rmse", round(float(jnp.sqrt(jnp.mean((ms[:, 0] - zs[:, 0]) ** 2))), 6))
print("smoother rmse", round(float(jnp.sqrt(jnp.mean((sm[:, 0] - zs[:, 0]) ** 2))), 6))
print("dll/dr", round(float(jax.grad(lambda r: kalman_filter(ys, r)[0])(0.25)), 6))
rs = jnp.array([0.05, 0.25, 1.0])
print("ll over r", np.round(np.asarray(jax.vmap(lambda r: kalman_filter(ys, r)[0])(rs)), 5))

# a 3-state HMM with Gaussian emissions
A = jnp.array([[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.05, 0.15, 0.8]])
pi = jnp.array([0.5, 0.3, 0.2])
mus = jnp.array([-2.0, 0.0, 2.5])
k1, k2 = jax.random.split(jax.random.key(1))


def sample_hmm(key, T):
    def step(s, k):
        ka, kb = jax.random.split(k)
        s = jax.random.categorical(ka, jnp.log(A[s]))
        return s, (s, mus[s] + 0.7 * jax.random.normal(kb))
    return jax.lax.scan(step, 0, jax.random.split(key, T))[1]


states, obs = sample_hmm(k1, 30)
log_em = jax.scipy.stats.norm.logpdf(obs[:, None], mus[None, :], 0.7)


def forward(log_A, log_pi, log_em):
    def step(alpha, le):
        alpha = logsumexp(alpha[:, None] + log_A, axis=0) + le
        return alpha, alpha
    a0 = log_pi + log_em[0]
    aT, alphas = jax.lax.scan(step, a0, log_em[1:])
    return logsumexp(aT), jnp.concatenate([a0[None], alphas])


def backward(log_A, log_em):
    def step(beta, le):
        beta = logsumexp(log_A + (le + beta)[None, :], axis=1)
        return beta, beta
    _, betas = jax.lax.scan(step, jnp.zeros(3), log_em[1:], reverse=True)
    return jnp.concatenate([betas, jnp.zeros((1, 3))])


def viterbi(log_A, log_pi, log_em):
    def step(delta, le):
        scores = delta[:, None] + log_A
        return jnp.max(scores, axis=0) + le, jnp.argmax(scores, axis=0)
    delta, back = jax.lax.scan(step, log_pi + log_em[0], log_em[1:])
    last = jnp.argmax(delta)

    def trace(s, b):
        prev = b[s]
        return prev, prev
    _, path = jax.lax.scan(trace, last, back, reverse=True)
    return jnp.concatenate([path, last[None]])


evidence, alphas = forward(jnp.log(A), jnp.log(pi), log_em)
post = jax.nn.softmax(alphas + backward(jnp.log(A), log_em), axis=1)
path = viterbi(jnp.log(A), jnp.log(pi), log_em)
print("HMM log evidence", round(float(evidence), 6))
print("posterior[:3]", np.round(np.asarray(post[:3]), 5).tolist())
print("viterbi accuracy", float(jnp.mean(path == states)), path[:12].tolist())
g = jax.grad(lambda m: forward(jnp.log(A), jnp.log(pi),
                               jax.scipy.stats.norm.logpdf(obs[:, None], m, 0.7))[0])(mus)
print("d evidence / d mus", np.round(np.asarray(g), 5))
