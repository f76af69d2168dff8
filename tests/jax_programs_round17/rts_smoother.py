"""A linear-Gaussian state-space model as in dynamax-style research code: a Kalman filter
in lax.scan with Cholesky-based updates (jax.scipy.linalg.cho_factor / cho_solve and
solve_triangular), the Rauch-Tung-Striebel smoother as a reverse scan, the marginal
log-likelihood and its gradient with respect to the noise scales (checked by central
differences), and sampling the model with random.multivariate_normal inside a scan."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.linalg import cho_factor, cho_solve, solve_triangular

DT = 0.1
F = jnp.array([[1.0, DT], [0.0, 1.0]])
H = jnp.array([[1.0, 0.0]])


def model(log_q, log_r):
    q = jnp.exp(log_q)
    Q = q * jnp.array([[DT ** 3 / 3, DT ** 2 / 2], [DT ** 2 / 2, DT]])
    R = jnp.exp(log_r) * jnp.eye(1)
    return Q, R


def sample(key, Q, R, T):
    def step(x, k):
        k1, k2 = random.split(k)
        x = F @ x + random.multivariate_normal(k1, jnp.zeros(2), Q)
        y = H @ x + random.multivariate_normal(k2, jnp.zeros(1), R)
        return x, (x, y)
    _, (xs, ys) = lax.scan(step, jnp.array([0.0, 1.0]), random.split(key, T))
    return xs, ys


def kalman_filter(params, ys, m0, P0):
    Q, R = model(*params)

    def step(carry, y):
        m, P, ll = carry
        m_pred = F @ m
        P_pred = F @ P @ F.T + Q
        S = H @ P_pred @ H.T + R
        c, low = cho_factor(S, lower=True)
        resid = y - H @ m_pred
        K = cho_solve((c, low), H @ P_pred).T
        m_new = m_pred + K @ resid
        P_new = P_pred - K @ S @ K.T
        z = solve_triangular(c, resid, lower=True)
        ll_t = -0.5 * (z @ z) - jnp.sum(jnp.log(jnp.diag(c))) - 0.5 * jnp.log(2 * jnp.pi)
        return (m_new, P_new, ll + ll_t), (m_new, P_new, m_pred, P_pred)

    (m, P, ll), hist = lax.scan(step, (m0, P0, 0.0), ys)
    return ll, hist


def rts_smoother(hist):
    ms, Ps, m_preds, P_preds = hist

    def step(carry, inp):
        m_s, P_s = carry
        m, P, m_pred_next, P_pred_next = inp
        L, low = cho_factor(P_pred_next, lower=True)
        G = cho_solve((L, low), F @ P).T
        m_new = m + G @ (m_s - m_pred_next)
        P_new = P + G @ (P_s - P_pred_next) @ G.T
        return (m_new, P_new), (m_new, P_new)

    inputs = (ms[:-1], Ps[:-1], m_preds[1:], P_preds[1:])
    _, (sm, sP) = lax.scan(step, (ms[-1], Ps[-1]), inputs, reverse=True)
    return jnp.concatenate([sm, ms[-1:]]), jnp.concatenate([sP, Ps[-1:]])


true = (jnp.log(0.5), jnp.log(0.05))
Q, R = model(*true)
xs, ys = sample(random.PRNGKey(3), Q, R, 60)
print("first states:", xs[:3])
print("first obs:", ys[:3, 0])

m0, P0 = jnp.array([0.0, 1.0]), jnp.eye(2)
ll, hist = jax.jit(kalman_filter)(true, ys, m0, P0)
print("log-likelihood at truth:", ll)
sm, sP = rts_smoother(hist)
rmse_f = jnp.sqrt(jnp.mean((hist[0][:, 0] - xs[:, 0]) ** 2))
rmse_s = jnp.sqrt(jnp.mean((sm[:, 0] - xs[:, 0]) ** 2))
print("filter rmse:", rmse_f, "smoother rmse:", rmse_s, "smoother better:", bool(rmse_s < rmse_f))
print("smoothed var (first, mid, last):", sP[0, 0, 0], sP[30, 0, 0], sP[-1, 0, 0])

loss = lambda p: -kalman_filter(p, ys, m0, P0)[0]
g = jax.grad(loss)(true)
print("grad wrt (log q, log r):", g)
eps = 1e-3
fd = [(loss(tuple(v + eps * (i == j) for j, v in enumerate(true)))
       - loss(tuple(v - eps * (i == j) for j, v in enumerate(true)))) / (2 * eps) for i in range(2)]
print("finite differences agree:", bool(jnp.allclose(jnp.array(fd), jnp.array(g), rtol=1e-2)))

params = (jnp.array(0.0), jnp.array(0.0))
vg = jax.jit(jax.value_and_grad(loss))
for it in range(60):
    val, gr = vg(params)
    params = jax.tree_util.tree_map(lambda p, d: p - 0.02 * d, params, gr)
    if it % 20 == 0:
        print(f"iter {it}: nll {val:.5f}")
print("fitted q, r:", jnp.exp(params[0]), jnp.exp(params[1]))
