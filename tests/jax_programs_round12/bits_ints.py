"""Integer and bit-level programs: `lax.population_count`/`clz`, logical and arithmetic
shifts (out-of-range shift counts), `jnp.bitwise_count`, `packbits`/`unpackbits`, `gcd`/`lcm`,
floor division and remainder of negative numbers against `lax.div`/`lax.rem`, `frexp`/`ldexp`,
`nextafter`, `bitcast_convert_type`, integer overflow wrapping, and a xorshift generator."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

u = jnp.array([0, 1, 7, 255, 256, 2**31, 2**32 - 1], dtype=jnp.uint32)
print(lax.population_count(u), lax.clz(u))
i = jnp.array([-8, -1, 0, 1, 5, 2**30, -(2**31)], dtype=jnp.int32)
print(lax.population_count(i), lax.clz(i), jnp.bitwise_count(i))
s = jnp.array([0, 1, 3, 31, 32, 40], dtype=jnp.int32)
print(
    lax.shift_left(jnp.int32(3), s),
    lax.shift_right_logical(jnp.int32(-16), s),
    lax.shift_right_arithmetic(jnp.int32(-16), s),
)
print(
    jnp.left_shift(jnp.uint8(1), jnp.arange(10, dtype=jnp.uint8)),
    jnp.right_shift(jnp.int8(-128), jnp.arange(9, dtype=jnp.int8)),
)
print(
    jnp.bitwise_and(12, 10),
    jnp.bitwise_or(12, 10),
    jnp.bitwise_xor(12, 10),
    jnp.invert(jnp.uint8(12)),
    jnp.bitwise_not(jnp.int16(12)),
    ~jnp.array([True, False]),
)

bits = jnp.array([[1, 0, 1, 1, 0, 0, 1, 0, 1, 1], [0, 1, 1, 1, 1, 1, 1, 1, 0, 0]], dtype=jnp.uint8)
packed = jnp.packbits(bits, axis=1)
print(packed, jnp.packbits(bits, axis=1, bitorder="little"), jnp.packbits(bits))
print(jnp.unpackbits(packed, axis=1), jnp.unpackbits(packed, axis=1, count=10).shape)
print(jnp.unpackbits(jnp.array([200, 3], jnp.uint8), bitorder="little"))

a = jnp.array([12, -18, 0, 7, 100, -35])
b = jnp.array([18, 12, 5, 0, 75, -49])
print(jnp.gcd(a, b), jnp.lcm(a, b))
n = jnp.array([7, -7, 7, -7, 0, -1])
d = jnp.array([2, 2, -2, -2, 3, 3])
print(n // d, n % d, jnp.fmod(n, d), jnp.remainder(n, d), lax.div(n, d), lax.rem(n, d), jnp.divmod(n, d))
fx = jnp.array([7.5, -7.5, 7.5, -7.5, -0.0, 5.0])
fd = jnp.array([2.0, 2.0, -2.0, -2.0, 3.0, jnp.inf])
print(fx // fd, fx % fd, jnp.fmod(fx, fd), lax.rem(fx, fd))

m, e = jnp.frexp(jnp.array([0.0, 1.0, -3.0, 1024.5, 1e-30, jnp.inf]))
print(m, e, e.dtype)
print(jnp.ldexp(jnp.array([0.5, 0.75, -1.0, 3.0]), jnp.array([1, 4, -3, 127])))
print(
    jnp.nextafter(jnp.float32(1.0), jnp.float32(2.0)) - 1,
    jnp.nextafter(jnp.float32(0.0), jnp.float32(1.0)),
    jnp.nextafter(jnp.array([1.0, -1.0, 0.0], jnp.float32), jnp.float32(0.0)),
)
print(
    lax.bitcast_convert_type(jnp.float32(1.0), jnp.int32),
    lax.bitcast_convert_type(jnp.int32(-1), jnp.float32),
    lax.bitcast_convert_type(jnp.uint32(0x3F800000), jnp.float32),
    lax.bitcast_convert_type(jnp.array([1.0, -2.0], jnp.float32), jnp.uint8),
)
print(
    jnp.int8(127) + jnp.int8(1),
    jnp.uint8(0) - jnp.uint8(1),
    jnp.int32(2**31 - 1) * 2,
    jnp.abs(jnp.int8(-128)),
    -jnp.int32(-(2**31)),
    jnp.uint16(300) * jnp.uint16(300),
)


@partial(jax.jit, static_argnums=1)
def xorshift32(state, n):
    def body(s, _):
        s = s ^ (s << 13)
        s = s ^ (s >> 17)
        s = s ^ (s << 5)
        return s, s

    return lax.scan(body, state, None, length=n)[1]


out = xorshift32(jnp.uint32(2463534242), 8)
print(out, out.dtype, (out >> 24).astype(jnp.uint8))
print(jnp.argmax(jnp.unpackbits(jnp.array([0, 16, 1, 128], jnp.uint8).reshape(4, 1), axis=1), axis=1))
