"""Random-number cores compiled to native code: Threefry-2x32 (`fgrad.random`'s keys and bits),
float32 ``erf_inv`` as XLA computes it (`fgrad.random.normal`), and PyTorch's float32
uniforms, integers, Bernoulli draws and Box-Muller blocks (``torch.rand``/``randint``/``randn``,
``bernoulli_``/dropout in the shim),
each the same computation as its NumPy twin written as one C loop, so a million values take
one pass instead of ~5-115 array passes.

The C code is compiled and cached as `native_loops` does (its compiler, flags and private
0700 cache, its switch: ``config.update("native_loops", False)`` or ``FGRAD_NATIVE_LOOPS=0``);
where no library can be had, the callers keep their NumPy code.  Bits: Threefry is uint32
arithmetic (exact).  The float kernels use IEEE float/double arithmetic without contraction
(``-ffp-contract=off``; the AVX2 clone has no FMA), of the C library only ``sqrtf``
(correctly rounded), ``nextafter`` and ``fmaf`` (exact by definition); ``erf_inv``'s double
``log1p`` stays NumPy's (its SIMD ``log1p`` is not the C library's on every machine).  PyTorch's
fused multiply-adds, emulated in NumPy by `fgrad.torch._fma.fma32` (a fused operation except
for float32 subnormal results), are that emulation in C where a result may be anything, and
``fmaf`` inside ``log``/``sincos``, whose every possible input `tests/test_native_rng.py`
runs against the NumPy functions (2**24 of each); it also compares the other kernels with
their NumPy twins bit for bit (every one of the 2**23 uniforms ``normal`` can feed
``erf_inv``, dense probe values, many keys and shapes).

Example::

    >>> import numpy as np
    >>> out = threefry2x32(np.uint32(0), np.uint32(0), np.uint32(0), np.uint32(0))
    >>> out is None or hex(int(out[0])) == "0x6b200159"   # Random123's known answer
    True
"""

from __future__ import annotations

import ctypes
import functools
import threading

import numpy as np

from . import native_loops as _nl

_U32 = np.dtype(np.uint32)
_F32 = np.dtype(np.float32)
_P = ctypes.c_void_p
_L = ctypes.c_long

# GCC: vectorize these loops (-O3) with an AVX2 clone chosen at load time on CPUs that have
# it (no FMA: it is a separate target feature, so float operations stay unfused; only
# `fill16_f32`'s explicit ``fmaf`` calls get the instruction, from its x86-64-v3 clone)
_HEADER = _nl.PRELUDE + r"""
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#pragma GCC optimize("O3")
#define CLONES __attribute__((target_clones("avx2", "default")))
#define CLONES_FMA __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define CLONES
#define CLONES_FMA
#endif
#define INLINE static inline __attribute__((always_inline))
"""

_THREEFRY = _HEADER + r"""
INLINE uint32_t rotl(uint32_t v, int r) { return (v << r) | (v >> (32 - r)); }
#define MIX(r) a += b; b = rotl(b, r) ^ a;
#define ROUNDS4_0 MIX(13) MIX(15) MIX(26) MIX(6)
#define ROUNDS4_1 MIX(17) MIX(29) MIX(16) MIX(24)
INLINE void tf(uint32_t k0, uint32_t k1, uint32_t x0, uint32_t x1, uint32_t *o0, uint32_t *o1) {
    uint32_t k2 = k0 ^ k1 ^ 0x1BD11BDAu;
    uint32_t a = x0 + k0, b = x1 + k1;
    ROUNDS4_0 a += k1; b += k2 + 1u;
    ROUNDS4_1 a += k2; b += k0 + 2u;
    ROUNDS4_0 a += k0; b += k1 + 3u;
    ROUNDS4_1 a += k1; b += k2 + 4u;
    ROUNDS4_0 a += k2; b += k0 + 5u;
    *o0 = a; *o1 = b;
}
/* operands: a pointer and a stride of 0 (one value) or 1 (n values) */
CLONES void threefry2x32(const uint32_t *k0, long s0, const uint32_t *k1, long s1, const uint32_t *x0,
                         long s2, const uint32_t *x1, long s3, uint32_t *o0, uint32_t *o1, long n) {
    if (!s0 && !s1 && !s2 && s3) {          /* one key, the high counter word a scalar */
        uint32_t K0 = k0[0], K1 = k1[0], X0 = x0[0];
        for (long i = 0; i < n; i++) tf(K0, K1, X0, x1[i], o0 + i, o1 + i);
    } else if (!s0 && !s1 && s2 && s3) {
        uint32_t K0 = k0[0], K1 = k1[0];
        for (long i = 0; i < n; i++) tf(K0, K1, x0[i], x1[i], o0 + i, o1 + i);
    } else {
        for (long i = 0; i < n; i++) tf(k0[i * s0], k1[i * s1], x0[i * s2], x1[i * s3], o0 + i, o1 + i);
    }
}
"""

# JAX's uniform floats (`fgrad.random.uniform`): the cipher on counters (0, i), the 32-bit
# word ``a ^ b`` (float32) or ``a << 32 | b`` (float64), its top mantissa bits under the
# exponent of 1.0, minus 1; then, with ``affine``, ``max(f * span + lo, lo)`` (no contraction)
_UNIFORM = _THREEFRY + r"""
#define UNIFORM(NAME, T, WORD, SHIFT, ONE_BITS, FROM_BITS) \
CLONES void NAME(uint32_t K0, uint32_t K1, T *out, long n, int affine, T span, T lo) { \
    if (affine) { \
        for (long i = 0; i < n; i++) { \
            uint32_t a, b; \
            tf(K0, K1, 0u, (uint32_t)i, &a, &b); \
            T v = FROM_BITS(((WORD) >> SHIFT) | ONE_BITS) - (T)1; \
            v = v * span; \
            v = v + lo; \
            out[i] = NP_MAX(v, lo); \
        } \
    } else { \
        for (long i = 0; i < n; i++) { \
            uint32_t a, b; \
            tf(K0, K1, 0u, (uint32_t)i, &a, &b); \
            out[i] = FROM_BITS(((WORD) >> SHIFT) | ONE_BITS) - (T)1; \
        } \
    } \
}
UNIFORM(uniform_f32, float, (a ^ b), 9, 0x3F800000u, F32)
UNIFORM(uniform_f64, double, (((uint64_t)a << 32) | b), 12, 0x3FF0000000000000ull, F64)
"""
_UNIFORM_KERNELS = {np.dtype(np.float32): ("uniform_f32", ctypes.c_float),
                    np.dtype(np.float64): ("uniform_f64", ctypes.c_double)}

_lock = threading.Lock()
_kernels: dict = {}


def _kernel(source: str, name: str, argtypes: list):
    """The compiled function ``name`` of C ``source`` (None without a compiler or library),
    looked up once; None whenever the ``native_loops`` switch is off."""
    if not _nl.enabled():
        return None
    key = (source, name)
    fn = _kernels.get(key, False)
    if fn is False:
        with _lock:
            lib = _nl.load(source)
            fn = None
            if lib is not None:
                fn = getattr(lib, name)
                fn.restype, fn.argtypes = None, argtypes
            _kernels[key] = fn
    return fn


def _operand(x, shape) -> tuple[np.ndarray, int]:
    """A uint32 operand as the kernel reads it: one value (stride 0) or ``shape``'s values
    in row-major order (stride 1)."""
    x = np.asarray(x, _U32)
    if x.size == 1:
        return np.ascontiguousarray(x.reshape(1)), 0
    return np.ascontiguousarray(np.broadcast_to(x, shape)), 1


def threefry2x32(k1, k2, x0, x1) -> list | None:
    """Threefry-2x32 (20 rounds) of uint32 operands broadcasting together, as
    `fgrad.ops.threefry`'s NumPy passes compute it, in one native loop; None where the
    kernel is not available (switched off, no compiler) or an operand is not uint32.

    Example::

        >>> z = np.uint32(0)
        >>> out = threefry2x32(z, z, z, z)
        >>> out is None or [hex(int(w)) for w in out] == ["0x6b200159", "0x99ba4efe"]
        True
    """
    fn = _kernel(_THREEFRY, "threefry2x32", [_P, _L] * 4 + [_P, _P, _L])
    if fn is None or any(np.asarray(v).dtype != _U32 for v in (k1, k2, x0, x1)):
        return None  # (another dtype: the caller's code says what is wrong)
    shape = np.broadcast_shapes(*(np.shape(v) for v in (k1, k2, x0, x1)))
    ops = [_operand(v, shape) for v in (k1, k2, x0, x1)]
    a = np.empty(shape, _U32)
    b = np.empty(shape, _U32)
    args = []
    for arr, stride in ops:
        args += [arr.ctypes.data, stride]
    fn(*args, a.ctypes.data, b.ctypes.data, a.size)
    return [a, b]


def uniform_floats(key: np.ndarray, n: int, dtype, span: float | None = None,
                   lo: float = 0.0) -> np.ndarray | None:
    """``n`` of `fgrad.random.uniform`'s float32/float64 values (JAX's partitionable stream)
    for the raw key ``key`` (uint32[2]) in one native loop: Threefry on the counters
    ``(0, i)``, the unit float of each word, and with ``span`` ``max(f * span + lo, lo)``
    (``span`` and ``lo`` rounded to ``dtype`` first, as the ops' weak scalars are); the
    same operations as the sampler's chain of primitives.  None where the kernel is not
    available, for another dtype or size (``n`` from 1 to 2**32), or where ``span`` or
    ``lo`` is not finite in ``dtype``.

    Example::

        >>> out = uniform_floats(np.zeros(2, np.uint32), 3, np.float32)
        >>> out is None or bool(((0 <= out) & (out < 1)).all())
        True
    """
    spec = _UNIFORM_KERNELS.get(np.dtype(dtype))
    if spec is None or not 1 <= n <= 1 << 32:
        return None
    name, ct = spec
    fn = _kernel(_UNIFORM, name, [ctypes.c_uint32, ctypes.c_uint32, _P, _L, ctypes.c_int, ct, ct])
    if fn is None:
        return None
    dt = np.dtype(dtype).type
    affine = span is not None
    with np.errstate(all="ignore"):
        span_t, lo_t = dt(span if affine else 1.0), dt(lo)
    if not (np.isfinite(span_t) and np.isfinite(lo_t)):
        return None  # (the ops say what an overflowing bound gives)
    k0, k1 = (int(w) for w in np.asarray(key, _U32).reshape(2))
    out = np.empty(n, dtype)
    fn(k0, k1, out.ctypes.data, n, int(affine), float(span_t), float(lo_t))
    return out


# ------------------------------------------------------- PyTorch's float32 uniforms (MT19937)

_MT_DRAWS = _HEADER + r"""
typedef uint32_t (*next32_fn)(void *);
/* the low 24 bits of each 32-bit draw times 2**-24 (both steps exact), drawn with NumPy's own
   MT19937 step (its `next_uint32`, as `random_raw` calls it) */
void uniform24_f32(next32_fn next, void *state, float *out, long n) {
    for (long i = 0; i < n; i++) out[i] = (float)(next(state) & 0xFFFFFFu) * F32(0x33800000u);
}
/* the low 53 bits of each 64-bit draw (NumPy's MT19937 ``next_uint64``: two 32-bit words,
   the first the high half) below ``threshold``: a float64 uniform below p, compared as integers */
typedef uint64_t (*next64_fn)(void *);
void bernoulli53(next64_fn next, void *state, uint8_t *out, long n, uint64_t threshold) {
    for (long i = 0; i < n; i++) out[i] = (next(state) & 0x1FFFFFFFFFFFFFull) < threshold;
}
/* ``word % span + low`` in wrapping 64-bit arithmetic (1 <= span < 2**32) */
void randint32(next32_fn next, void *state, int64_t *out, long n, uint32_t span, uint64_t low) {
    for (long i = 0; i < n; i++) out[i] = (int64_t)((uint64_t)(next(state) % span) + low);
}
/* ``randperm(n)``: ``0 .. n-1`` shuffled forward, step ``i`` (of ``n - 1``) swapping positions ``i`` and
   ``i + word % (n - i)`` (PyTorch's CPU loop; 2 <= n < 2**32) */
void randperm32(next32_fn next, void *state, int64_t *out, long n) {
    for (long i = 0; i < n; i++) out[i] = i;
    for (long i = 0; i + 1 < n; i++) {
        long j = i + (long)(next(state) % (uint32_t)(n - i));
        int64_t t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
}
"""


def _draw(name: str, bits: np.random.BitGenerator, out: np.ndarray, *extra) -> bool:
    """Run ``name`` of `_MT_DRAWS` on ``bits``' MT19937 words into ``out`` (under the
    generator's lock); False where the kernel is not available."""
    argtypes = {"uniform24_f32": [], "randperm32": [], "randint32": [ctypes.c_uint32, ctypes.c_uint64],
                "bernoulli53": [ctypes.c_uint64]}[name]
    fn = _kernel(_MT_DRAWS, name, [_P, _P, _P, _L, *argtypes])
    if fn is None:
        return False
    iface = bits.ctypes
    step = iface.next_uint64 if name == "bernoulli53" else iface.next_uint32
    with bits.lock:
        fn(ctypes.cast(step, _P).value, iface.state_address, out.ctypes.data, out.size, *extra)
    return True


def randint32(bits: np.random.BitGenerator, n: int, low: int, span: int) -> np.ndarray | None:
    """``n`` int64 ``word % span + low`` (wrapping; ``1 <= span < 2**32``) of the next 32-bit
    words of NumPy's MT19937 ``bits`` (PyTorch's ``randint``/``random_(lo, hi)``), in one
    native loop; None where the kernel is not available.

    Example::

        >>> x = randint32(np.random.MT19937(0), 3, -5, 10)
        >>> x is None or bool(((-5 <= x) & (x < 5)).all())
        True
    """
    if not 1 <= span < 1 << 32:
        raise ValueError(f"randint32: span {span} must lie in [1, 2**32)")
    out = np.empty(n, np.int64)
    return out if _draw("randint32", bits, out, span, low % (1 << 64)) else None


def randperm32(bits: np.random.BitGenerator, n: int) -> np.ndarray | None:
    """``0 .. n-1`` (int64) shuffled by a forward Fisher-Yates pass: step ``i`` swaps positions
    ``i`` and ``i + word % (n - i)`` for the next 32-bit word of NumPy's MT19937 ``bits``
    (PyTorch's CPU ``randperm``; ``n - 1`` words drawn), in one native loop; None where the
    kernel is not available.

    Example::

        >>> x = randperm32(np.random.MT19937(0), 5)
        >>> x is None or sorted(x.tolist()) == [0, 1, 2, 3, 4]
        True
    """
    if not 2 <= n < 1 << 32:
        raise ValueError(f"randperm32: n {n} must lie in [2, 2**32)")
    out = np.empty(n, np.int64)
    return out if _draw("randperm32", bits, out) else None


def uniform24_f32(bits: np.random.BitGenerator, n: int) -> np.ndarray | None:
    """``n`` float32 uniforms ``(word & (2**24 - 1)) * 2**-24`` of the next 32-bit words of
    NumPy's MT19937 ``bits`` (PyTorch's float32 ``uniform_`` on [0, 1)), drawn and converted
    in one native loop (under the generator's lock); None where the kernel is not available.

    Example::

        >>> g = np.random.MT19937(0)
        >>> x = uniform24_f32(g, 3)
        >>> x is None or x.dtype == np.float32
        True
    """
    out = np.empty(n, _F32)
    return out if _draw("uniform24_f32", bits, out) else None


def bernoulli53(bits: np.random.BitGenerator, n: int, threshold: int) -> np.ndarray | None:
    """``n`` booleans ``(draw & (2**53 - 1)) < threshold`` of the next 64-bit draws of NumPy's
    MT19937 ``bits`` (each two 32-bit words, the first the high half, as its ``next_uint64``;
    PyTorch's ``bernoulli_(p)`` and dropout masks with ``threshold = ceil(p * 2**53)``), in one
    native loop; None where the kernel is not available.

    Example::

        >>> x = bernoulli53(np.random.MT19937(0), 4, 2 ** 53)
        >>> x is None or x.tolist() == [True] * 4
        True
    """
    if not 0 <= threshold <= 1 << 53:
        raise ValueError(f"bernoulli53: threshold {threshold} must lie in [0, 2**53]")
    out = np.empty(n, np.bool_)
    return out if _draw("bernoulli53", bits, out, threshold) else None


# ------------------------------------------------------------------------ float32 erf_inv

def _f32(v: float) -> str:
    return _nl.literal(np.float32(v), _F32)


def _f64(v: float) -> str:
    return _nl.literal(np.float64(v), np.dtype(np.float64))


_ERF_INV_BLOCK = 16384  # values per round trip through NumPy's log1p (its doubles stay in L2)


@functools.cache
def _erf_inv_source(central: tuple, tail: tuple) -> str:
    """`fgrad.ops.special._erf_inv_single` as C, around NumPy's own double ``log1p`` (whose
    SIMD bits the C library need not have): ``erf_inv_pre`` writes ``double(-(x*x))``,
    NumPy takes its ``log1p`` in place, ``erf_inv_post`` rounds ``w = float32(-log1p)`` and
    runs Giles' polynomials with each Horner step ``float32(double(p) * t + c)``."""
    def horner(var, coefs):
        steps = [f"p = {_f32(coefs[0])};"]
        steps += [f"p = (float)((double)p * {var} + {_f64(np.float32(c))});" for c in coefs[1:]]
        return " ".join(steps)

    # the central polynomial step by step over a chunk of values, each step one vectorized
    # pass of independent lanes, in float32 fused multiply-adds: for every float32 ``w`` in
    # [0, 5) (its whole domain) ``fmaf(p, t, c)`` equals ``float32(double(p) * t + c)``
    # (checked exhaustively, docs/speed-random.md, session 26); the tail keeps the doubles
    chunk_steps = "\n".join(f"        for (long j = 0; j < m; j++) p[j] = fmaf(p[j], t[j], {_f32(c)});"
                            for c in central[1:])
    return _HEADER + f"""
CLONES void erf_inv_pre(const float *y, double *d, long n) {{
    for (long i = 0; i < n; i++) {{ float x = y[i]; d[i] = (double)(-(x * x)); }}
}}
static void erf_inv_tails(const float *y, const double *d, float *out, long n) {{
    float p;
    for (long i = 0; i < n; i++) {{        /* the tail polynomial and +-1 on the few others */
        float x = y[i], w = (float)(-d[i]);
        if (w >= {_f32(5.0)}) {{
            double t = (double)(sqrtf(w) - {_f32(3.0)});
            {horner("t", tail)}
            out[i] = p * x;
        }}
        if (fabsf(x) == {_f32(1.0)}) out[i] = x * F32(0x7f800000u);
    }}
}}
#define ERF_INV_CHUNK 256
CLONES_FMA void erf_inv_post(const float *y, const double *d, float *out, long n) {{
    float p[ERF_INV_CHUNK], t[ERF_INV_CHUNK];
    for (long s = 0; s < n; s += ERF_INV_CHUNK) {{   /* the central polynomial everywhere */
        const long m = n - s < ERF_INV_CHUNK ? n - s : ERF_INV_CHUNK;
        const double *ds = d + s;
        for (long j = 0; j < m; j++) {{ t[j] = (float)(-ds[j]) - {_f32(2.5)}; p[j] = {_f32(central[0])}; }}
{chunk_steps}
        for (long j = 0; j < m; j++) out[s + j] = p[j] * y[s + j];
        for (long b = 0; b < m; b += 16) {{    /* groups of 16 with a tail value or +-1 */
            const long e = m - b < 16 ? m - b : 16;
            int special = 0;
            for (long j = b; j < b + e; j++)
                special |= ((float)(-ds[j]) >= {_f32(5.0)}) | (fabsf(y[s + j]) == {_f32(1.0)});
            if (special) erf_inv_tails(y + s + b, ds + b, out + s + b, e);
        }}
    }}
}}
"""


def erf_inv_f32(y: np.ndarray, central: tuple, tail: tuple) -> np.ndarray | None:
    """float32 ``erf_inv`` of a float32 array as `fgrad.ops.special._erf_inv_single`
    computes it (Giles' ``central``/``tail`` coefficients): two native loops per block
    around NumPy's ``log1p``; None where the kernels are not available.

    Example::

        >>> out = erf_inv_f32(np.float32([0.5]), (1.0,), (1.0,))
        >>> out is None or out.dtype == np.float32
        True
    """
    source = _erf_inv_source(tuple(central), tuple(tail))
    pre = _kernel(source, "erf_inv_pre", [_P, _P, _L])
    post = _kernel(source, "erf_inv_post", [_P, _P, _P, _L])
    if pre is None or post is None:
        return None
    flat = np.ascontiguousarray(y, _F32).reshape(-1)
    out = np.empty(flat.size, _F32)
    d = np.empty(min(flat.size, _ERF_INV_BLOCK))
    base, out_base, d_addr = flat.ctypes.data, out.ctypes.data, d.ctypes.data
    with np.errstate(all="ignore"):
        for start in range(0, flat.size, _ERF_INV_BLOCK):
            m = min(_ERF_INV_BLOCK, flat.size - start)
            pre(base + 4 * start, d_addr, m)
            np.log1p(d[:m], out=d[:m])
            post(base + 4 * start, d_addr, out_base + 4 * start, m)
    return out.reshape(np.shape(y))


# ------------------------------------------------------------------------ float64 erf_inv

# SciPy's float64 ``erfinv`` (Boost.Math's ``erf_inv`` at 64 bits of precision: no root
# refinement for doubles) is a rational function of ``p = |y|`` for ``p <= 0.5``, of
# ``q - 0.25`` (``q = 1 - p``) for ``q >= 0.25``, and of ``sqrt(-log(q)) - B`` on five
# ranges below: (numerator, denominator, Y, B) per range, coefficients as decimal strings
# (written as long double literals, as Boost's tables are, then rounded to double)
ERF_INV_F64_RANGES = (
    (("-0.000508781949658280665617", "-0.00836874819741736770379", "0.0334806625409744615033",
      "-0.0126926147662974029034", "-0.0365637971411762664006", "0.0219878681111168899165",
      "0.00822687874676915743155", "-0.00538772965071242932965"),
     ("1.0", "-0.970005043303290640362", "-1.56574558234175846809", "1.56221558398423026363",
      "0.662328840472002992063", "-0.71228902341542847553", "-0.0527396382340099713954",
      "0.0795283687341571680018", "-0.00233393759374190016776", "0.000886216390456424707504"),
     0.0891314744949340820313, 0.0),
    (("-0.202433508355938759655", "0.105264680699391713268", "8.37050328343119927838",
      "17.6447298408374015486", "-18.8510648058714251895", "-44.6382324441786960818",
      "17.445385985570866523", "21.1294655448340526258", "-3.67192254707729348546"),
     ("1.0", "6.24264124854247537712", "3.9713437953343869095", "-28.6608180499800029974",
      "-20.1432634680485188801", "48.5609213108739935468", "10.8268667355460159008",
      "-22.6436933413139721736", "1.72114765761200282724"),
     2.249481201171875, 0.25),
    (("-0.131102781679951906451", "-0.163794047193317060787", "0.117030156341995252019",
      "0.387079738972604337464", "0.337785538912035898924", "0.142869534408157156766",
      "0.0290157910005329060432", "0.00214558995388805277169", "-0.679465575181126350155e-6",
      "0.285225331782217055858e-7", "-0.681149956853776992068e-9"),
     ("1.0", "3.46625407242567245975", "5.38168345707006855425", "4.77846592945843778382",
      "2.59301921623620271374", "0.848854343457902036425", "0.152264338295331783612",
      "0.01105924229346489121"),
     0.807220458984375, 1.125),
    (("-0.0350353787183177984712", "-0.00222426529213447927281", "0.0185573306514231072324",
      "0.00950804701325919603619", "0.00187123492819559223345", "0.000157544617424960554631",
      "0.460469890584317994083e-5", "-0.230404776911882601748e-9", "0.266339227425782031962e-11"),
     ("1.0", "1.3653349817554063097", "0.762059164553623404043", "0.220091105764131249824",
      "0.0341589143670947727934", "0.00263861676657015992959", "0.764675292302794483503e-4"),
     0.93995571136474609375, 3.0),
    (("-0.0167431005076633737133", "-0.00112951438745580278863", "0.00105628862152492910091",
      "0.000209386317487588078668", "0.149624783758342370182e-4", "0.449696789927706453732e-6",
      "0.462596163522878599135e-8", "-0.281128735628831791805e-13", "0.99055709973310326855e-16"),
     ("1.0", "0.591429344886417493481", "0.138151865749083321638", "0.0160746087093676504695",
      "0.000964011807005165528527", "0.275335474764726041141e-4", "0.282243172016108031869e-6"),
     0.98362827301025390625, 6.0),
    (("-0.0024978212791898131227", "-0.779190719229053954292e-5", "0.254723037413027451751e-4",
      "0.162397777342510920873e-5", "0.396341011304801168516e-7", "0.411632831190944208473e-9",
      "0.145596286718675035587e-11", "-0.116765012397184275695e-17"),
     ("1.0", "0.207123112214422517181", "0.0169410838120975906478", "0.000690538265622684595676",
      "0.145007359818232637924e-4", "0.144437756628144157666e-6", "0.509761276599778486139e-9"),
     0.99714565277099609375, 18.0),
    (("-0.000539042911019078575891", "-0.28398759004727721098e-6", "0.899465114892291446442e-6",
      "0.229345859265920864296e-7", "0.225561444863500149219e-9", "0.947846627503022684216e-12",
      "0.135880130108924861008e-14", "-0.348890393399948882918e-21"),
     ("1.0", "0.0845746234001899436914", "0.00282092984726264681981", "0.468292921940894236786e-4",
      "0.399968812193862100054e-6", "0.161809290887904476097e-8", "0.231558608310259605225e-11"),
     0.99941349029541015625, 44.0),
)


def _poly2(coefs: tuple, x: str) -> str:
    """C for the polynomial ``sum(coefs[k] * x**k)`` evaluated as Boost's unrolled
    second-order Horner rule does it (five or more coefficients): the even and the odd
    coefficients each by Horner's rule in ``x*x``, then ``even + odd * x``."""
    c = [f"(double){v}L" for v in coefs]
    def horner(ks):
        e = c[ks[-1]]
        for k in reversed(ks[:-1]):
            e = f"({e} * {x}2 + {c[k]})"
        return e
    n = len(c)
    even, odd = horner(list(range(0, n, 2))), horner(list(range(1, n, 2)))
    return f"({even} + {odd} * {x})"


_checked: dict = {}  # kernel name -> whether it gave the reference's bits on the probe values


def _erf_inv_f64_probe() -> np.ndarray:
    """Values reaching every branch of `_erf_inv_f64_source`: uniform on (-1, 1), ``1 - q``
    for ``q`` log-uniform down to 1e-17, the range boundaries, bit patterns and the special
    values."""
    rng = np.random.default_rng(0)
    x = np.linspace(-0.01, 0.01, 257)
    edges = [np.exp(-(b + x) ** 2) for b in (3.0, 6.0, 18.0, 44.0)]  # q around sqrt(-log q) = b
    tail = 1 - np.concatenate([10.0 ** rng.uniform(-17, 0, 8192), *edges])
    bits = rng.integers(0, 0x3FF0000000000000, 8192, dtype=np.uint64).view(np.float64)
    special = np.array([0.0, 0.5, 0.75, 1.0, 2.0, np.inf, np.nan, 5e-324, np.nextafter(0.5, 1.0),
                        np.nextafter(0.75, 1.0), np.nextafter(1.0, 0.0), np.nextafter(0.25, 0.0)])
    pos = np.concatenate([rng.uniform(0, 1, 16384), tail, bits, special])
    return np.concatenate([pos, -pos])


@functools.cache
def _erf_inv_f64_source() -> str:
    """SciPy's float64 ``erfinv`` (Boost's ``erf_inv``) as C: the same rational functions,
    evaluated in the same order, around the C library's ``log`` and ``sqrt``.  Three loops,
    none with a data-dependent branch on the common path: the ``|y| <= 0.5`` function
    everywhere (vectorized); the positions with ``|y| > 0.5`` (NaN included) gathered; on
    those, one ``log`` and both functions that can follow it (``q >= 0.25`` and
    ``sqrt(-log q) < 3``, every ``|y| < 1 - 1.2e-4``), the right one selected, and the rare
    others (the far tail, +-1, ``|y| > 1``, NaN) computed apart."""
    def ratio(k, var):
        num, den = ERF_INV_F64_RANGES[k][:2]
        return f"{_poly2(num, var)} / {_poly2(den, var)}"
    y = [_f64(np.float32(r[2])) for r in ERF_INV_F64_RANGES]
    far = ""
    for k, bound in zip(range(3, 7), ("6", "18", "44", None)):
        b = _f64(ERF_INV_F64_RANGES[k][3])
        head = f"if (x < {bound}) " if bound else ""
        far += f"""{"else " if k > 3 else ""}{head}{{ double xs = x - {b}, xs2 = xs * xs;
        r = {y[k]} * x + ({ratio(k, "xs")}) * x; }}
    """
    return _HEADER + f"""
/* |y| > 0.5 away from the common ranges: +-1, |y| > 1, NaN, sqrt(-log q) >= 3 */
static double erf_inv_rare(double p) {{
    if (p == 1) return INFINITY;
    if (!(p < 1)) return NAN;               /* |y| > 1 or NaN */
    double x = sqrt(-log(1 - p)), r;
    {far}return r;
}}
/* copysign(erf_inv(y), y), as SciPy's erfinv (+-0 -> +-0, +-1 -> +-inf, |y| > 1 -> NaN);
   idx: scratch for n positions */
CLONES void erf_inv_f64(const double *in, double *out, long *idx, long n) {{
    for (long i = 0; i < n; i++) {{
        double z = in[i], p = fabs(z), p2 = p * p, g = p * (p + 10);
        out[i] = copysign(g * {y[0]} + g * ({ratio(0, "p")}), z);
    }}
    long m = 0;
    for (long i = 0; i < n; i++) {{
        idx[m] = i;
        m += !(fabs(in[i]) <= 0.5);
    }}
    for (long j = 0; j < m; j++) {{
        long i = idx[j];
        double z = in[i], p = fabs(z), q = 1 - p, l = log(q);
        double g = sqrt(-2 * l), x = sqrt(-l);
        double xs = q - 0.25, xs2 = xs * xs;
        double r = g / ({y[1]} + ({ratio(1, "xs")}));
        xs = x - {_f64(ERF_INV_F64_RANGES[2][3])};
        xs2 = xs * xs;
        double r3 = {y[2]} * x + ({ratio(2, "xs")}) * x;
        r = q >= 0.25 ? r : r3;
        if (__builtin_expect(!(x < 3) || !(p < 1), 0)) r = erf_inv_rare(p);
        out[i] = copysign(r, z);
    }}
}}
"""


def erf_inv_f64(y: np.ndarray, reference) -> np.ndarray | None:
    """SciPy's float64 ``erfinv`` (with ``copysign``: ``-0.0`` stays ``-0.0``) of a float64
    array as Boost's rational approximations compute it, the same operations in the same
    order, in native loops; None where the kernel is not available or did not give
    ``reference``'s bits (SciPy's function, checked once per process on
    `_erf_inv_f64_probe`: another SciPy or C library keeps SciPy).

    Example::

        >>> from scipy.special import erfinv
        >>> out = erf_inv_f64(np.array([0.0, 0.5, -1.0]), lambda v: np.copysign(erfinv(v), v))
        >>> out is None or out.tolist()[::2] == [0.0, -float("inf")]
        True
    """
    fn = _kernel(_erf_inv_f64_source(), "erf_inv_f64", [_P, _P, _P, _L])
    if fn is None:
        return None

    def run(v):
        flat = np.ascontiguousarray(v, np.float64).reshape(-1)
        out = np.empty(flat.size)
        idx = np.empty(flat.size, np.int64)
        fn(flat.ctypes.data, out.ctypes.data, idx.ctypes.data, flat.size)
        return out.reshape(np.shape(v))

    ok = _checked.get("erf_inv_f64")
    if ok is None:
        probe = _erf_inv_f64_probe()
        with np.errstate(all="ignore"):
            ok = _checked["erf_inv_f64"] = _nl.same_bits(run(probe), np.asarray(reference(probe)))
    return run(y) if ok else None


# ------------------------------------------------------- PyTorch's float32 Box-Muller blocks

_FMA32 = r"""
/* `fgrad.torch._fma.fma32`: the exact double product plus c, made round-to-odd where the
   double sum lies on a float32 rounding midpoint (one step towards the exact sum, whose error
   TwoSum gives), then rounded to float32: a fused multiply-add, except that a float32
   subnormal result may round twice.  (`fmaf` is the fused operation itself, with the FMA
   instruction in the x86-64-v3 clone: the same bits wherever the result is normal.) */
INLINE float fma32(float a, float b, float c) {
    double p = (double)a * (double)b;
    double s = p + (double)c;
    uint64_t u; memcpy(&u, &s, 8);
    if (__builtin_expect((u & 0x1FFFFFFFull) == 0x10000000ull, 0)) {
        double bb = s - p;
        double e = (p - (s - bb)) + ((double)c - bb);
        if (e != 0) s = nextafter(s, copysign(INFINITY, e));
    }
    return (float)s;
}
INLINE uint32_t BITS(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
"""


def _box_muller_source(c: dict) -> str:
    """`fgrad.torch._cpu_rng._fill16_f32` (with its ``_logf`` and ``_sincosf``) as C; ``c``:
    the float32 constants by name, ``log_p`` the log polynomial's coefficients."""
    k = {name: _f32(v) for name, v in c.items() if name != "log_p"}
    log_steps = " ".join(f"y = fmaf(y, m, {_f32(p)});" for p in c["log_p"])
    return _HEADER + _FMA32 + f"""
INLINE float logf_cephes(float x) {{
    int32_t bits = (int32_t)BITS(x);
    float e = (float)(((bits >> 23) & 0xFF) - 0x7F) + {_f32(1)};
    float m = F32(((uint32_t)bits & ~0x7F800000u) | 0x3F000000u);
    float small = F32(-(uint32_t)(m < {k["sqrt_half"]}) & 0x3f800000u);  /* 1 or +0, branch-free */
    m = m - {_f32(1)};
    e = e - small;
    m = m + (m + {_f32(1)}) * small;
    float z = m * m;
    float y = {k["log_p0"]};
    {log_steps}
    y = y * m;
    y = fmaf(y, z, e * {k["log_q1"]});
    y = fmaf(z, {_f32(-0.5)}, y);
    return fmaf(e, {k["log_q2"]}, m + y);
}}
INLINE void sincosf_cephes(float x, float *sin_out, float *cos_out) {{
    int32_t j = (int32_t)(x * {k["four_over_pi"]});
    j = (j + 1) & ~1;
    float y = (float)j;
    uint32_t sin_negative = (j & 4) != 0, cos_negative = (~(j - 2) & 4) != 0, sin_poly = (j & 2) == 0;
    float r = fmaf(y, {k["dp1"]}, x);
    r = fmaf(y, {k["dp2"]}, r);
    r = fmaf(y, {k["dp3"]}, r);
    float z = r * r;
    float c = fmaf({k["cos0"]}, z, {k["cos1"]});
    c = fmaf(c, z, {k["cos2"]});
    c = fmaf(c * z, z, -(z * {_f32(0.5)})) + {_f32(1)};
    float s = fmaf({k["sin0"]}, z, {k["sin1"]});
    s = fmaf(s, z, {k["sin2"]});
    s = fmaf(s * z, r, r);
    uint32_t take = -sin_poly, sb = BITS(s), cb = BITS(c);
    uint32_t sn = ((sb & take) | (cb & ~take)) ^ (sin_negative << 31);
    uint32_t cs = ((cb & take) | (sb & ~take)) ^ (cos_negative << 31);
    *sin_out = F32(sn);
    *cos_out = F32(cs);
}}
/* blocks of 16 uniforms in place: 8 pairs (u1 = 1 - d[j], u2 = d[j + 8]) -> 16 normals; the
   float32 log and sincos use `fmaf` (their every input is tested exhaustively against NumPy's
   `_logf`/`_sincosf`), the final ``fma(x, std, mean)`` the emulation (any std and mean) */
CLONES_FMA void fill16_f32(float *d, long blocks, float mean, float stdev, int unit_std) {{
    for (long blk = 0; blk < blocks; blk++) {{
        float *q = d + 16 * blk;
        float rr[8], sn[8], cs[8], rc[8], rs[8];
        for (int j = 0; j < 8; j++) {{     /* (vectorized) */
            rr[j] = {_f32(-2)} * logf_cephes({_f32(1)} - q[j]);
            sincosf_cephes({k["two_pi"]} * q[j + 8], sn + j, cs + j);
        }}
        for (int j = 0; j < 8; j++) {{     /* (sqrtf's errno check is a branch: not vectorized) */
            float radius = sqrtf(rr[j]);
            rc[j] = radius * cs[j];
            rs[j] = radius * sn[j];
        }}
        if (unit_std) {{
            for (int j = 0; j < 8; j++) {{ q[j] = rc[j] + mean; q[j + 8] = rs[j] + mean; }}
        }} else {{
            for (int j = 0; j < 8; j++) {{
                q[j] = fma32(rc[j], stdev, mean);
                q[j + 8] = fma32(rs[j], stdev, mean);
            }}
        }}
    }}
}}
"""


def fill16_f32(d: np.ndarray, mean: float, std: float, constants: dict) -> bool:
    """PyTorch's float32 Box-Muller over the blocks of 16 uniforms of the contiguous float32
    array ``d``, in place, as `fgrad.torch._cpu_rng._fill16_f32` computes it (its
    ``constants``); False (``d`` untouched) where the kernel is not available.

    Example::

        >>> d = np.full(16, 0.5, np.float32)
        >>> fill16_f32(d, 0.0, 1.0, {}) in (True, False)   # (no constants: no kernel)
        True
    """
    if not constants:
        return False
    fn = _kernel(_box_muller_source(constants), "fill16_f32",
                 [_P, _L, ctypes.c_float, ctypes.c_float, ctypes.c_int])
    if fn is None or d.dtype != _F32 or not d.flags.c_contiguous or d.size % 16:
        return False
    mean32, std32 = np.float32(mean), np.float32(std)
    fn(d.ctypes.data, d.size // 16, float(mean32), float(std32), int(std32 == 1))
    return True


__all__ = ["threefry2x32", "uniform_floats", "erf_inv_f32", "erf_inv_f64", "fill16_f32", "uniform24_f32",
           "randint32", "randperm32"]
