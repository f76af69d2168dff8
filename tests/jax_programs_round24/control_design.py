"""Linear control design as control-engineering notebooks write it in JAX: a mass-spring-damper
chain in state space, zero-order-hold discretisation by jax.scipy.linalg.expm of a block
matrix (Van Loan), controllability and observability by jnp.linalg.matrix_rank, the
controllability Gramian by a Kronecker-product Lyapunov solve, pole placement by Ackermann's
formula (jnp.poly, jnp.linalg.matrix_power), the discrete LQR gain by Riccati iteration in
lax.while_loop checked against the algebraic equation, the Bode magnitude and phase by a
vmapped complex solve, step responses by lax.scan, a steady-state Kalman filter gain, and the
gradient of a closed-loop quadratic cost with respect to the LQR weights."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.linalg import expm, solve

jnp.set_printoptions(precision=4, suppress=True)

# two masses, springs k1 (wall) and k2 (between), dampers; force on mass 1, position 2 measured
m1, m2, k1, k2, c1, c2 = 1.0, 0.5, 2.0, 1.0, 0.2, 0.1
A = jnp.array([[0.0, 1.0, 0.0, 0.0],
               [-(k1 + k2) / m1, -(c1 + c2) / m1, k2 / m1, c2 / m1],
               [0.0, 0.0, 0.0, 1.0],
               [k2 / m2, c2 / m2, -k2 / m2, -c2 / m2]])
B = jnp.array([[0.0], [1.0 / m1], [0.0], [0.0]])
C = jnp.array([[0.0, 0.0, 1.0, 0.0]])
n = A.shape[0]
print("open-loop poles (real parts)", jnp.sort(jnp.linalg.eigvals(A).real))

dt = 0.1
block = jnp.zeros((n + 1, n + 1)).at[:n, :n].set(A).at[:n, n:].set(B)
Phi = expm(block * dt)
Ad, Bd = Phi[:n, :n], Phi[:n, n:]
print("discrete A (ZOH) row 2", Ad[1], "B", Bd.ravel())

ctrb = jnp.concatenate([jnp.linalg.matrix_power(Ad, k) @ Bd for k in range(n)], axis=1)
obsv = jnp.concatenate([C @ jnp.linalg.matrix_power(Ad, k) for k in range(n)], axis=0)
print("controllable:", int(jnp.linalg.matrix_rank(ctrb)) == n, "observable:",
      int(jnp.linalg.matrix_rank(obsv)) == n)

# continuous controllability Gramian over a horizon: A W + W A^T + B B^T = 0 needs a stable A
K_lyap = jnp.kron(jnp.eye(n), A) + jnp.kron(A, jnp.eye(n))
W = jnp.linalg.solve(K_lyap, -(B @ B.T).reshape(-1)).reshape(n, n)
print("Gramian eigenvalues", jnp.linalg.eigvalsh(0.5 * (W + W.T)),
      "Lyapunov residual small:", bool(jnp.max(jnp.abs(A @ W + W @ A.T + B @ B.T)) < 1e-4))

# Ackermann on the continuous model (its controllability matrix is far better scaled than the
# discrete one's), used on the sampled plant by emulation
desired = jnp.array([-1.0, -1.2, -1.5, -2.0])
coeffs = jnp.poly(desired)
ctrb_c = jnp.concatenate([jnp.linalg.matrix_power(A, k) @ B for k in range(n)], axis=1)
phi_A = sum(c * jnp.linalg.matrix_power(A, n - i) for i, c in enumerate(coeffs))
K_place = (solve(ctrb_c, phi_A)[-1])[None, :]
closed = jnp.sort(jnp.linalg.eigvals(A - B @ K_place).real)
print("Ackermann gain", K_place.ravel(), "closed-loop poles", jnp.round(closed, 3), "target", desired)
print("sampled closed loop stable:", bool(jnp.max(jnp.abs(jnp.linalg.eigvals(Ad - Bd @ K_place))) < 1))


def dlqr(Q, R, tol=1e-9, max_iter=2000):
    def step(state):
        P, _, i = state
        BtP = Bd.T @ P
        P_new = Q + Ad.T @ P @ Ad - Ad.T @ P @ Bd @ jnp.linalg.solve(R + BtP @ Bd, BtP @ Ad)
        return P_new, jnp.max(jnp.abs(P_new - P)), i + 1

    P, _, iters = lax.while_loop(lambda s: (s[1] > tol * jnp.max(jnp.abs(s[0]))) & (s[2] < max_iter),
                                 step, (Q, jnp.inf, 0))
    K = jnp.linalg.solve(R + Bd.T @ P @ Bd, Bd.T @ P @ Ad)
    return K, P, iters


Q, R = jnp.diag(jnp.array([1.0, 0.1, 10.0, 0.1])), jnp.array([[0.5]])
K_lqr, P, iters = dlqr(Q, R)
riccati = Q + Ad.T @ P @ Ad - Ad.T @ P @ Bd @ K_lqr - P
print("LQR gain", K_lqr.ravel(), "Riccati residual small:",
      bool(jnp.max(jnp.abs(riccati)) < 1e-3 * jnp.max(P)),
      "closed loop stable:", bool(jnp.max(jnp.abs(jnp.linalg.eigvals(Ad - Bd @ K_lqr))) < 1))


def frequency_response(w):
    G = C @ jnp.linalg.solve(1j * w * jnp.eye(n) - A, B.astype(jnp.complex64))
    return G[0, 0]


ws = jnp.array([0.1, 0.5, 1.0, 2.0, 5.0])
G = jax.vmap(frequency_response)(ws)
print("Bode magnitude (dB)", 20 * jnp.log10(jnp.abs(G)))
print("phase (deg)", jnp.degrees(jnp.unwrap(jnp.angle(G))))
print(f"DC gain {float(jnp.abs(frequency_response(0.0))):.4f} (1/k1 = {1 / k1})")


def step_response(K, steps=150, ref=1.0):
    # reference tracking of mass 2 with a feed-forward scaling N
    Acl = Ad - Bd @ K
    N = 1.0 / (C @ jnp.linalg.solve(jnp.eye(n) - Acl, Bd))[0, 0]

    def step(x, _):
        u = -K @ x + N * ref
        x = Ad @ x + Bd @ u
        return x, (C @ x)[0]

    _, y = lax.scan(step, jnp.zeros(n), None, length=steps)
    return y


y_lqr = step_response(K_lqr)
y_place = step_response(K_place)
for name, y in (("LQR", y_lqr), ("placement", y_place)):
    rise = int(jnp.argmax(y > 0.9))
    print(f"{name}: final {float(y[-1]):.4f}, overshoot {float(jnp.maximum(y.max() - 1, 0) * 100):.2f}%,",
          f"90% rise after {rise} steps")

# steady-state Kalman gain by duality: the LQR of (A^T, C^T)
Wn, Vn = 0.01 * jnp.eye(n), jnp.array([[0.04]])
P_f = Wn
for _ in range(300):
    S = C @ P_f @ C.T + Vn
    P_f = Ad @ (P_f - P_f @ C.T @ jnp.linalg.solve(S, C @ P_f)) @ Ad.T + Wn
L_kf = P_f @ C.T @ jnp.linalg.inv(C @ P_f @ C.T + Vn)
print("Kalman gain", L_kf.ravel(), "observer stable:",
      bool(jnp.max(jnp.abs(jnp.linalg.eigvals(Ad - Ad @ L_kf @ C))) < 1))


def closed_loop_cost(log_r):
    K, _, _ = dlqr(Q, jnp.exp(log_r)[None, None])
    y = step_response(K, steps=100)
    return jnp.sum((y - 1.0) ** 2) * dt


val = closed_loop_cost(jnp.log(0.5))
d_val = jax.jacfwd(closed_loop_cost)(jnp.log(0.5))
fd = (closed_loop_cost(jnp.log(0.5) + 1e-2) - closed_loop_cost(jnp.log(0.5) - 1e-2)) / 2e-2
print(f"tracking cost {float(val):.4f}, d cost / d log R {float(d_val):.4f} (central difference "
      f"{float(fd):.3f})")
