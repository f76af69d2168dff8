"""Complex arithmetic in jax.numpy (as in the Mandelbrot/Newton-fractal demos and the
"complex numbers and autodiff" FAQ): a Mandelbrot escape-time count on a grid with
lax.fori_loop and jnp.where, the same with lax.while_loop per point under vmap, Newton's
method for z**3 - 1 on complex starting points with the derivative from jax.grad(...,
holomorphic=True), basins by jnp.angle, complex dtypes (complex64 vs complex128 under x64),
real/imag/conj/abs, jnp.roots, and the gradient of |f(z)|**2 with respect to a complex z."""

import jax
import jax.numpy as jnp
from jax import lax

re = jnp.linspace(-2.0, 0.5, 11)
im = jnp.linspace(-1.0, 1.0, 9)
C = re[None, :] + 1j * im[:, None]
print(C.dtype, C.shape, C[0, 0])


def mandelbrot(c, iters=30):
    def body(i, state):
        z, count = state
        z = jnp.where(jnp.abs(z) <= 2.0, z * z + c, z)
        return z, count + (jnp.abs(z) <= 2.0)

    return lax.fori_loop(0, iters, body, (jnp.zeros_like(c), jnp.zeros(c.shape, jnp.int32)))[1]


counts = jax.jit(mandelbrot)(C)
print(counts)


def escape_time(c, iters=30):
    def cond(s):
        z, n = s
        return (jnp.abs(z) <= 2.0) & (n < iters)

    def body(s):
        z, n = s
        return z * z + c, n + 1

    return lax.while_loop(cond, body, (jnp.zeros((), c.dtype), 0))[1]


et = jax.vmap(jax.vmap(escape_time))(C)
print("while == fori", jnp.array_equal(jnp.minimum(et, 30), jnp.minimum(counts + 1, 30)), et.dtype)


def f(z):
    return z ** 3 - 1.0


df = jax.grad(f, holomorphic=True)


def newton(z0, steps=25):
    return lax.fori_loop(0, steps, lambda i, z: z - f(z) / df(z), z0)


starts = jnp.array([1.5 + 0.1j, -1.0 + 1.0j, -1.0 - 1.0j, 0.3 + 2.0j, -0.5 - 0.2j], jnp.complex64)
roots = jax.vmap(newton)(starts)
print("roots", jnp.round(roots, 4))
print("basins", jnp.round(jnp.angle(roots) / (2 * jnp.pi / 3)).astype(jnp.int32))
print("residual", bool(jnp.max(jnp.abs(f(roots))) < 1e-5))
print("np roots", jnp.sort_complex(jnp.round(jnp.roots(jnp.array([1.0, 0.0, 0.0, -1.0])), 4)))

z = jnp.array([1.0 + 2.0j, -0.5 + 0.25j])
print(z.real, z.imag, jnp.conj(z), jnp.abs(z), z.dtype, (z * 1j).dtype)
print(jnp.exp(1j * jnp.pi), jnp.sqrt(jnp.array(-4.0 + 0j)), jnp.log(jnp.array(-1.0 + 0j)))
print(jnp.array(3, jnp.int32) * (1 + 1j), (jnp.float32(2.0) + 1j).dtype, jnp.complex64(1 + 2j) * 2)


def power(z):
    return jnp.abs(f(z)) ** 2


print("grad |f|^2", jnp.round(jax.grad(power)(1.0 + 1.0j), 4))
print("jacfwd holomorphic", jax.jacfwd(f, holomorphic=True)(jnp.array([1j, 2.0 + 0j])))
print("vjp", jax.vjp(f, 2.0 + 1j)[1](1.0 + 0j))
