"""Grid simulations with jnp.roll and lax.scan (as in the "JAX for physics" notebooks): the
2-D heat equation by explicit finite differences with periodic (roll) and Dirichlet (.at[]
and jnp.pad) boundaries, heat conservation, snapshots saved by scan, the gradient of the
final temperature with respect to the diffusivity against a finite difference, the 1-D wave
equation by leapfrog, and Conway's game of life by a 3x3 neighbour sum
(jax.scipy.signal.convolve2d) with a glider that moves."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.signal import convolve2d


def laplacian_periodic(u):
    return (jnp.roll(u, 1, 0) + jnp.roll(u, -1, 0) + jnp.roll(u, 1, 1) + jnp.roll(u, -1, 1)
            - 4.0 * u)


def laplacian_dirichlet(u):
    p = jnp.pad(u, 1, mode="constant")
    return p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4.0 * u


n = 16
x = jnp.linspace(0.0, 1.0, n)
X, Y = jnp.meshgrid(x, x, indexing="ij")
u0 = jnp.exp(-40.0 * ((X - 0.5) ** 2 + (Y - 0.4) ** 2))


def simulate(alpha, u0, steps=60, lap=laplacian_periodic):
    def step(u, _):
        u = u + alpha * lap(u)
        return u, u.sum()

    return lax.scan(step, u0, None, length=steps)


u_end, totals = simulate(0.2, u0)
print("heat conserved", jnp.allclose(totals, u0.sum(), rtol=1e-5), round(float(u0.sum()), 4))
print("peak", round(float(u0.max()), 4), "->", round(float(u_end.max()), 4))
print("argmax", jnp.unravel_index(jnp.argmax(u_end), u_end.shape))
u_dir, tot_dir = jax.jit(simulate, static_argnames=("steps", "lap"))(0.2, u0, lap=laplacian_dirichlet)
print("dirichlet loses heat", bool(tot_dir[-1] < tot_dir[0]), jnp.round(tot_dir[::15], 3))
print("corner rows", jnp.round(u_dir[0, :4], 5))

snap = jax.jit(lambda a: lax.scan(lambda u, _: (u + a * laplacian_periodic(u),) * 2, u0, None,
                                  length=5)[1])(0.1)
print("snapshots", snap.shape, jnp.round(snap[:, 6, 6], 4))


def centre(alpha):
    return simulate(alpha, u0, steps=20)[0][8, 6]


g = jax.grad(centre)(0.15)
fd = (centre(0.15 + 1e-3) - centre(0.15 - 1e-3)) / 2e-3
print("d centre / d alpha", round(float(g), 4), "fd agrees", bool(jnp.abs(g - fd) < 1e-2))

# 1-D wave equation, leapfrog, fixed ends
m, c, dt = 50, 1.0, 0.01
xs = jnp.linspace(0.0, 1.0, m)
dx = xs[1] - xs[0]
w0 = jnp.sin(jnp.pi * xs)
w_prev = w0
r2 = (c * dt / dx) ** 2


def wave_step(carry, _):
    prev, cur = carry
    lap = jnp.zeros_like(cur).at[1:-1].set(cur[2:] - 2 * cur[1:-1] + cur[:-2])
    nxt = 2 * cur - prev + r2 * lap
    return (cur, nxt), nxt[m // 2]


(_, w_end), mid = lax.scan(wave_step, (w_prev, w0), None, length=100)
print("wave mid", jnp.round(mid[::20], 3))
print("wave vs exact", round(float(jnp.max(jnp.abs(w_end - jnp.sin(jnp.pi * xs) *
                                                    jnp.cos(jnp.pi * c * 100 * dt)))), 3))

# game of life
board = jnp.zeros((8, 8), jnp.int32).at[1, 2].set(1).at[2, 3].set(1).at[3, 1:4].set(1)
kernel = jnp.ones((3, 3), jnp.int32).at[1, 1].set(0)


def life(b, _):
    nb = convolve2d(b, kernel, mode="same")
    b = jnp.where((nb == 3) | ((b == 1) & (nb == 2)), 1, 0).astype(b.dtype)
    return b, b.sum()


b4, pop = lax.scan(life, board, None, length=4)
print("population", pop, b4.dtype)
print("glider moved", jnp.argwhere(b4).tolist())
print(jnp.array_equal(b4, jnp.roll(board, (1, 1), (0, 1))))
