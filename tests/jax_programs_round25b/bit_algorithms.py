"""Integer and bit algorithms as JAX simulation and hashing code writes them: a xorshift32
generator in lax.fori_loop (uint32 wrap-around) against a Python reference, the Murmur3
finaliser vmapped over keys with its avalanche measured by lax.population_count, Morton
(Z-order) codes by bit spreading with a round trip and a Z-order sort, Gray codes and their
inverse by a prefix XOR in lax.while_loop, the bit-reversal permutation driving an iterative
radix-2 FFT against jnp.fft.fft, integer log2 by lax.clz, CRC-32 with a table built in
fori_loop against zlib, jnp.packbits/unpackbits (both bit orders), jnp.bitwise_count, and
the shift operators at and beyond the word size."""

import zlib

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

u32 = jnp.uint32


def xorshift32(state):
    state = state ^ (state << u32(13))
    state = state ^ (state >> u32(17))
    state = state ^ (state << u32(5))
    return state


def xorshift_stream(seed, n):
    def body(i, carry):
        s, out = carry
        s = xorshift32(s)
        return s, out.at[i].set(s)
    return lax.fori_loop(0, n, body, (u32(seed), jnp.zeros(n, u32)))[1]


def xorshift_python(seed, n):
    s, out = seed, []
    for _ in range(n):
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        out.append(s)
    return out


stream = xorshift_stream(2463534242, 8)
print("xorshift32", stream)
print("matches Python:", [int(v) for v in stream] == xorshift_python(2463534242, 8))
floats = jax.jit(lambda s: (xorshift_stream(s, 1000) >> u32(8)).astype(jnp.float32) / 2.0 ** 24)(u32(7))
print("uniforms mean", floats.mean(), "var", floats.var(), "min < 0.01:", bool(floats.min() < 0.01))


def fmix32(h):
    h = h ^ (h >> 16)
    h = h * u32(0x85EBCA6B)
    h = h ^ (h >> 13)
    h = h * u32(0xC2B2AE35)
    return h ^ (h >> 16)


keys = jnp.arange(16, dtype=u32)
hashes = jax.vmap(fmix32)(keys)
print("fmix32(0..3)", hashes[:4], "hex of fmix32(1):", hex(int(hashes[1])))
buckets = jnp.bincount((fmix32(jnp.arange(4096, dtype=u32)) & u32(15)).astype(jnp.int32), length=16)
print("bucket counts (4096 keys, 16 buckets)", buckets)
flips = jnp.left_shift(u32(1), jnp.arange(32, dtype=u32))
x_base = jnp.arange(1, 257, dtype=u32) * u32(2654435761)
changed = lax.population_count(fmix32(x_base[:, None]) ^ fmix32(x_base[:, None] ^ flips[None, :]))
print("avalanche: mean bits changed per input-bit flip", changed.astype(jnp.float32).mean(),
      "min", changed.min(), "max", changed.max())


def spread_bits(v):
    v = v & u32(0x0000FFFF)
    v = (v | (v << 8)) & u32(0x00FF00FF)
    v = (v | (v << 4)) & u32(0x0F0F0F0F)
    v = (v | (v << 2)) & u32(0x33333333)
    return (v | (v << 1)) & u32(0x55555555)


def compact_bits(v):
    v = v & u32(0x55555555)
    v = (v | (v >> 1)) & u32(0x33333333)
    v = (v | (v >> 2)) & u32(0x0F0F0F0F)
    v = (v | (v >> 4)) & u32(0x00FF00FF)
    return (v | (v >> 8)) & u32(0x0000FFFF)


def morton(ix, iy):
    return spread_bits(ix) | (spread_bits(iy) << 1)


gx, gy = jnp.meshgrid(jnp.arange(4, dtype=u32), jnp.arange(4, dtype=u32), indexing="xy")
codes = morton(gx.ravel(), gy.ravel())
print("Morton codes of a 4x4 grid\n", codes.reshape(4, 4))
pts = jax.random.randint(jax.random.PRNGKey(0), (6, 2), 0, 1000).astype(u32)
z = morton(pts[:, 0], pts[:, 1])
back = jnp.stack([compact_bits(z), compact_bits(z >> 1)], axis=1)
print("round trip:", bool(jnp.all(back == pts)), "Z-order of random points", jnp.argsort(z))

n_gray = jnp.arange(16, dtype=u32)
gray = n_gray ^ (n_gray >> 1)


def gray_inverse(g):
    def cond(c):
        return c[1] != 0

    def body(c):
        n, shift = c
        return n ^ shift, shift >> 1
    return lax.while_loop(cond, body, (g, g >> 1))[0]


print("Gray codes", gray)
print("neighbours differ in one bit:", bool(jnp.all(lax.population_count(gray[1:] ^ gray[:-1]) == 1)),
      "inverse:", bool(jnp.all(jax.vmap(gray_inverse)(gray) == n_gray)))


def bit_reverse(k, bits):
    def body(i, r):
        return (r << 1) | ((k >> i) & 1)
    return lax.fori_loop(0, bits, body, jnp.zeros_like(k))


N, bits = 16, 4
perm = jax.vmap(bit_reverse, in_axes=(0, None))(jnp.arange(N), bits)
print("bit-reversal permutation", perm)


def fft_radix2(x):
    x = x[perm].astype(jnp.complex64 if x.dtype == jnp.float32 else jnp.complex128)
    size = 2
    while size <= N:
        half = size // 2
        tw = jnp.exp(-2j * jnp.pi * jnp.arange(half) / size).astype(x.dtype)
        blocks = x.reshape(N // size, size)
        even, odd = blocks[:, :half], blocks[:, half:] * tw
        x = jnp.concatenate([even + odd, even - odd], axis=1).ravel()
        size *= 2
    return x


sig = jnp.cos(2 * jnp.pi * 3 * jnp.arange(N) / N) + 0.5 * jnp.sin(2 * jnp.pi * 5 * jnp.arange(N) / N)
print("radix-2 FFT = jnp.fft.fft:", bool(jnp.allclose(fft_radix2(sig), jnp.fft.fft(sig), atol=1e-4)),
      "|X| peaks at", jnp.sort(jnp.argsort(-jnp.abs(fft_radix2(sig)))[:4]))

vals = jnp.array([1, 2, 3, 1000, 65536, 2 ** 31 - 1], dtype=jnp.int32)
log2 = 31 - lax.clz(vals)
next_pow2 = jnp.left_shift(1, 32 - lax.clz(vals - 1))
print("clz", lax.clz(vals), "floor log2", log2, "next power of two", next_pow2)


def crc_table():
    def entry(n):
        def step(_, c):
            return jnp.where(c & u32(1), u32(0xEDB88320) ^ (c >> 1), c >> 1)
        return lax.fori_loop(0, 8, step, n)
    return jax.vmap(entry)(jnp.arange(256, dtype=u32))


table = crc_table()


def crc32(data):
    def step(c, byte):
        return table[(c ^ byte.astype(u32)) & u32(0xFF)] ^ (c >> 8), None
    c, _ = lax.scan(step, u32(0xFFFFFFFF), data)
    return c ^ u32(0xFFFFFFFF)


msg = b"The quick brown fox jumps over the lazy dog"
ours = crc32(jnp.array(np.frombuffer(msg, dtype=np.uint8)))
print("CRC-32", hex(int(ours)), "zlib", hex(zlib.crc32(msg)), "equal:", int(ours) == zlib.crc32(msg))

flags = jnp.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1], dtype=jnp.uint8)
packed = jnp.packbits(flags)
print("packbits", packed, "little", jnp.packbits(flags, bitorder="little"),
      "unpacked", jnp.unpackbits(packed, count=11))
words = jnp.array([[0, 255], [170, 7]], dtype=jnp.uint8)
print("unpackbits axis=1\n", jnp.unpackbits(words, axis=1), "\nbitwise_count", jnp.bitwise_count(words))
print("bitwise_count (of |x|, as NumPy) of int32 -1 and int8 -128", jnp.bitwise_count(jnp.int32(-1)),
      jnp.bitwise_count(jnp.int8(-128)))

w = jnp.array([1, -8, 2 ** 30], dtype=jnp.int32)
sh = jnp.array([31, 32, 33], dtype=jnp.int32)
print("left_shift at/over width", jnp.left_shift(w, sh), "right_shift", jnp.right_shift(w, sh))
print("lax logical vs arithmetic", lax.shift_right_logical(w, jnp.int32(2)),
      lax.shift_right_arithmetic(w, jnp.int32(2)))
print("uint8 wrap", (jnp.arange(250, 256, dtype=jnp.uint8) + jnp.uint8(10)), "invert", ~jnp.uint8(5),
      "int8 negate -128", -jnp.int8(-128))
