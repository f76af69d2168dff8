"""PyTorch's CPU random streams, reproduced: the Mersenne Twister engine of ``torch.Generator``
and the transformations PyTorch's CPU kernels apply to its output, so a program seeded with
``torch.manual_seed`` draws the same numbers here as under PyTorch.

The engine is MT19937 seeded with the low 32 bits of the seed (NumPy's `MT19937` with its
legacy seeding is the same generator; its raw 32-bit outputs are PyTorch's ``random()``, and
``random64()`` joins two of them, the first as the high half).  The transformations follow
PyTorch 2.x's CPU kernels:

* uniform ``[a, b)``: float32 (and, rounded, float16/bfloat16) from the low 24 bits of
  ``random()``, float64 from the low 53 bits of ``random64()``, then ``x * (b - a) + a`` as one
  fused multiply-add;
* normal: tensors of 16 or more contiguous elements are filled with uniforms, then each block
  of 16 becomes 8 Box-Muller pairs (``u1 = 1 - x[j]``, ``u2 = x[j + 8]``; the last partial
  block redraws 16 uniforms); float32 blocks use the vectorized single-precision ``log`` and
  ``sincos`` of PyTorch's AVX2 kernel (Cephes polynomials, fused multiply-adds where the
  compiler contracts them).  Smaller tensors draw one float64 Box-Muller pair per two values,
  keeping the second for the next draw (PyTorch caches it in the generator);
* integers ``[lo, hi)``: ``random() % (hi - lo) + lo`` (``random64()`` when the range needs
  more than 32 bits); ``randperm``: a forward Fisher-Yates shuffle with ``random() % (n - i)``;
* Bernoulli and dropout: a float64 uniform below ``p`` (scalar ``p``) or a float32 uniform
  below ``p`` (tensor ``p``); exponential: ``-log1p(-u) / lambda`` with a float64 uniform;
  multinomial: a float64 uniform located in the normalized cumulative sum (with replacement,
  two or more samples), or the top ``n`` of ``p / exponential`` (without, or one sample).

States have PyTorch's byte layout (5056 bytes: the seed, the engine's position and its 624
words, the cached normal sample), so ``torch.get_rng_state()`` from PyTorch can be loaded here
and the other way round.

Example::

    >>> e = Engine(1)
    >>> [round(float(v), 4) for v in e.normal(3, np.float32)]   # torch.manual_seed(1); torch.randn(3)
    [0.6614, 0.2669, 0.0617]
"""

from __future__ import annotations

import math
import struct

import numpy as np
from numpy.random.bit_generator import ISeedSequence

from ..core import native_rng as _native_rng
from ..core.narrow_floats import dtype_kind
from ._fma import fma32 as _fma32, fma64 as _fma64

_N = 624                      # words of MT19937 state
STATE_BYTES = 5056            # sizeof(CPUGeneratorImplState) in PyTorch
_LEGACY = struct.Struct("<QiiQ" + "Q" * _N + "dddi4x")  # CPUGeneratorImplStateLegacy
_TAIL = struct.Struct("<f?3x")                           # next float normal sample, valid flag
_F32 = np.float32
# the float32 uniform's constants as 0-d arrays: a ufunc takes a 0-d array operand faster than
# a NumPy scalar (same values, same result dtype)
_MASK24_A = np.array((1 << 24) - 1, np.uint64)
_SCALE24_A = np.array(2.0 ** -24, _F32)
_MASK24 = np.uint64((1 << 24) - 1)
_PY_REAL = (float, int)
_MASK53 = np.uint64((1 << 53) - 1)
_MASK53_A = np.array((1 << 53) - 1, np.uint64)
# from this many 64-bit draws on, `Engine._wide_draws` (NumPy's Generator, ~6 us a call more)
# beats joining raw words in NumPy passes (24576 draws: ~205 -> ~158 us of CPU)
_WIDE_MIN = 4096
_MASK21 = np.uint64((1 << 21) - 1)
_NATIVE_MIN = 64  # float32 uniforms and integers from this many on: `core.native_rng`'s loops
_U32 = np.uint64(32)
_MANTISSA_BITS = {np.dtype(np.float16): 11, np.dtype(np.float32): 24, np.dtype(np.float64): 53}  # random_()


class _Unseeded(ISeedSequence):
    """Zeros for the state of NumPy's ``MT19937`` constructor, which `Engine.seed` replaces
    at once (PyTorch's seeding, ``_legacy_seeding``): the constructor's hashing of a real seed
    sequence costs ~85 us, its start from this ~30 (a ``RandomSampler`` makes a generator
    every epoch)."""

    def generate_state(self, n_words: int, dtype=np.uint32) -> np.ndarray:
        return np.zeros(n_words, dtype)


_UNSEEDED = _Unseeded()


class Engine:
    """One generator's stream: ``random32``/``random64`` raw draws and PyTorch's
    transformations of them (``uniform``, ``normal``, ``integers``, ``permutation``, ...)."""

    def __init__(self, seed: int) -> None:
        self.seed(seed)

    def seed(self, seed: int) -> None:
        self.initial_seed = int(seed) & 0xFFFF_FFFF_FFFF_FFFF
        bits = getattr(self, "_bits", None)
        if bits is None:  # (made once: NumPy's constructor hashes a seed sequence, ~85 us; a sampler
            bits = self._bits = np.random.MT19937(_UNSEEDED)  # seeds a new generator every epoch)
        bits._legacy_seeding(self.initial_seed & 0xFFFF_FFFF)  # (its buffered values are reset too)
        self._gen: np.random.Generator | None = None  # `_wide_draws`' view of ``_bits``
        self.next_double_normal: float | None = None
        self.next_float_normal: float | None = None

    # -- raw draws ------------------------------------------------------------------------
    def random32(self, n: int) -> np.ndarray:
        """``n`` raw 32-bit outputs (as uint64)."""
        return self._bits.random_raw(n)

    def random64(self, n: int) -> np.ndarray:
        """``n`` 64-bit draws, each from two 32-bit ones (the first is the high half)."""
        if n >= _WIDE_MIN:
            return self._wide_draws(n)
        r = self._bits.random_raw(2 * n)
        return (r[0::2] << np.uint64(32)) | r[1::2]

    def _wide_draws(self, n: int) -> np.ndarray:
        """`random64` for many draws: NumPy's full-range uint64 integers on this engine, whose
        MT19937 ``next_uint64`` is the same join (first word high) done in C, without the
        strided passes over ``2n`` raw words (tested against them, values and stream position).
        The `Generator` is made again when the engine was replaced (a new seed, a copy)."""
        g = self._gen
        if g is None or g.bit_generator is not self._bits:
            g = self._gen = np.random.Generator(self._bits)
        return g.integers(0, 1 << 64, n, dtype=np.uint64)

    # -- PyTorch's transformations ------------------------------------------------------
    def uniform(self, n: int, dtype, low: float = 0.0, high: float = 1.0) -> np.ndarray:
        """``n`` uniforms in ``[low, high)`` of ``dtype``, as ``Tensor.uniform_``."""
        dt = np.dtype(dtype)
        kind = dt.type  # (a type test: ``dt == np.float64`` converts the type to a dtype each time)
        if kind is np.float64:
            x = (self.random64(n) & _MASK53).astype(np.float64) * 2.0 ** -53
            return _fma64_scale(x, np.float64(high) - np.float64(low), np.float64(low))
        x = _native_rng.uniform24_f32(self._bits, n) if n >= _NATIVE_MIN else None  # one native loop
        if x is None:
            raw = self._bits.random_raw(n)
            np.bitwise_and(raw, _MASK24_A, out=raw)
            x = raw.astype(_F32)
            np.multiply(x, _SCALE24_A, out=x)  # exact: a 24-bit integer times 2**-24
        if kind is np.float32:
            if type(low) in _PY_REAL and low == 0 and high == 1 and math.copysign(1.0, low) > 0:
                return x  # ``rand``: [+0, 1) is x itself (below's check, without NumPy scalars)
            lo, hi = _F32(low), _F32(high)
            if lo == 0 and not np.signbit(lo) and hi == 1:  # x * 1 + 0 is x (x >= +0): exact
                return x
        else:  # float16/bfloat16: float32 arithmetic on bounds rounded to the dtype, then rounded
            lo, hi = _F32(np.asarray(low).astype(dt)), _F32(np.asarray(high).astype(dt))
        return _fma32(x, hi - lo, lo).astype(dt)

    def normal(self, n: int, dtype, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
        """``n`` normal samples of ``dtype``, as ``Tensor.normal_`` on a contiguous tensor."""
        dt = np.dtype(dtype)
        if n >= 16:
            work = _F32 if dt != np.float64 else np.float64
            d = self.uniform(n, work)
            fill = _fill16_f32 if work is _F32 else _fill16_f64
            full = n - n % 16
            fill(d[:full], mean, std)
            if n % 16:
                d[n - 16:] = self.uniform(16, work)
                fill(d[n - 16:], mean, std)
            return d.astype(dt, copy=False)
        return self.serial_normal(n, dt, mean, std)

    def serial_normal(self, n: int, dtype, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
        """``n`` normals as PyTorch's element-by-element kernel draws them (a tensor of fewer
        than 16 elements, or not contiguous, in memory order): one float64 Box-Muller value
        at a time, ``fma(z, std, mean)``, rounded to ``dtype``."""
        z = np.array([self.double_normal() for _ in range(n)], np.float64)
        return _fma64_scale(z, std, mean).astype(np.dtype(dtype))

    def double_normal(self) -> float:
        """One float64 standard normal (Box-Muller pair, the second cached), as PyTorch's
        ``normal_distribution<double>``."""
        cached = self.next_double_normal
        if cached is not None:
            self.next_double_normal = None
            return cached
        u1, u2 = self.uniform(2, np.float64)
        r = math.sqrt(-2.0 * math.log1p(-float(u2)))
        theta = 2.0 * math.pi * float(u1)
        self.next_double_normal = r * math.sin(theta)
        return r * math.cos(theta)

    def integers(self, n: int, low: int, high: int) -> np.ndarray:
        """``n`` integers in ``[low, high)`` (int64), as ``random_(low, high)``/``randint``:
        ``(word % span + low)`` in wrapping 64-bit arithmetic, as PyTorch's kernel."""
        low = int(low)
        span = int(high) - low
        if n == 1 and span < 1 << 32 and -(1 << 63) <= low:
            # one draw (``randint(lo, hi, (1,))`` in a Python loop): Python's exact integers
            # give the wrapped result, which lies in [low, high), inside int64
            return np.array([self._bits.random_raw() % span + low], np.int64)
        if n >= _NATIVE_MIN and 1 <= span < 1 << 32:
            out = _native_rng.randint32(self._bits, n, low, span)  # one native loop
            if out is not None:
                return out
        raw = self.random64(n) if span >= 1 << 32 else self._bits.random_raw(n)
        np.remainder(raw, np.array(span, np.uint64), out=raw)
        if low:  # (``randint(0, n)``: nothing to add)
            np.add(raw, np.array(low % (1 << 64), np.uint64), out=raw)  # wraps modulo 2**64
        return raw.view(np.int64)

    def full_range(self, n: int, dtype) -> np.ndarray:
        """``random_()`` without bounds: ``[0, 2**mantissa]`` for floats, ``[0, max]`` for
        integers (64-bit draws for int64 and float64, 32-bit ones otherwise)."""
        dt = np.dtype(dtype)
        if dtype_kind(dt) == "f":
            bits = _MANTISSA_BITS.get(dt, 8)  # bfloat16: 8
            raw = self.random64(n) if dt == np.float64 else self.random32(n)
            return (raw % np.uint64((1 << bits) + 1)).astype(dt)
        if dt == np.bool_:
            return (self.random32(n) % np.uint64(2)).astype(dt)
        top = int(np.iinfo(dt).max) + 1
        raw = self.random64(n) if dt.itemsize == 8 else self.random32(n)
        return (raw % np.uint64(top)).astype(dt)

    def permutation(self, n: int) -> np.ndarray:
        """``randperm(n)``: a forward Fisher-Yates shuffle with ``random() % (n - i)`` (step
        ``i`` swaps positions ``i`` and ``j[i] = i + random() % (n - i)``), run as PyTorch's
        loop in C (`core.native_rng.randperm32`), or, without a compiler, computed without
        running the swaps one by one (`_fisher_yates`)."""
        if n < (1 << 32) // 20:
            if n < 2:
                return np.arange(n, dtype=np.int64)
            out = _native_rng.randperm32(self._bits, n)  # the swaps run one by one in C
            if out is not None:
                return out
            picks = (self.random32(n - 1) % np.arange(n, 1, -1, dtype=np.uint64)).astype(np.int64)
            return _fisher_yates(picks)
        r = list(range(n))
        picks = [int(v) % (i + 1) for i, v in enumerate(self.random64(n))]  # inside-out variant
        for i, z in enumerate(picks):
            r[i] = r[z]
            r[z] = i
        return np.array(r, dtype=np.int64)

    def bernoulli_scalar(self, n: int, p: float) -> np.ndarray:
        """``bernoulli_(p)`` with a Python ``p`` (and dropout's mask): float64 uniforms < p,
        i.e. ``uniform(n, float64) < p``, compared as integers: the uniform is ``m * 2**-53``
        for the low 53 bits ``m`` of a 64-bit draw (``* 1 + 0``, exact), and ``m * 2**-53 < p``
        exactly when ``m < ceil(p * 2**53)`` (a power-of-two scaling is exact).  This skips
        the float64 conversion and arithmetic passes."""
        if n >= _NATIVE_MIN:  # dropout's masks: draws, join and comparison in one native loop
            threshold = math.ceil(float(p) * 2.0 ** 53)
            if 0 <= threshold <= 1 << 53:
                out = _native_rng.bernoulli53(self._bits, n, threshold)
                if out is not None:
                    return out
        if n >= _WIDE_MIN:  # the 64-bit draws joined in C, then their low 53 bits
            m = self._wide_draws(n)
            np.bitwise_and(m, _MASK53_A, out=m)
            return m < np.uint64(math.ceil(float(p) * 2.0 ** 53))
        r = self._bits.random_raw(2 * n)
        m = np.bitwise_and(r[0::2], _MASK21)  # the high word's low 21 bits ...
        np.left_shift(m, _U32, out=m)
        np.bitwise_or(m, r[1::2], out=m)  # ... above the low word: the low 53 bits
        return m < np.uint64(math.ceil(float(p) * 2.0 ** 53))

    def bernoulli_tensor(self, p: np.ndarray) -> np.ndarray:
        """``bernoulli(probs)``: a uniform per element below its probability, float64 (from a
        64-bit draw) for float64 probabilities, else float32 (PyTorch's CPU kernel)."""
        wide = p.dtype == np.float64
        return self.uniform(p.size, np.float64 if wide else _F32).reshape(p.shape) < p

    def exponential(self, n: int, lambd: float) -> np.ndarray:
        """``exponential_(lambd)``: ``-log1p(-u) / lambd`` with float64 uniforms."""
        return -np.log1p(-self.uniform(n, np.float64)) / lambd

    def multinomial(self, probs: np.ndarray, n: int, replacement: bool) -> np.ndarray:
        """``torch.multinomial`` over the rows of ``probs`` (2-d): with replacement, a float64
        uniform per sample located in the row's normalized cumulative sum (binary search);
        without, or for a single sample, the top ``n`` of ``probs / exponential`` (one
        exponential per element: PyTorch's fast path for ``n == 1`` even with replacement)."""
        if replacement and n > 1:
            acc = np.float64 if probs.dtype == np.float64 else _F32
            out = np.empty((probs.shape[0], n), np.int64)
            for i, row in enumerate(probs):
                cum = np.cumsum(row, dtype=acc)
                cum = (cum / cum[-1]).astype(acc)
                out[i] = np.searchsorted(cum, self.uniform(n, np.float64), side="left")
            return np.minimum(out, probs.shape[1] - 1)
        q = probs / self.exponential(probs.size, 1.0).astype(probs.dtype).reshape(probs.shape)
        return np.argsort(-q, axis=1, kind="stable")[:, :n].astype(np.int64)

    def numpy_generator(self) -> np.random.Generator:
        """A NumPy generator seeded from this stream, for the draws PyTorch's exact
        transformation is not reproduced for (they stay reproducible under a seed)."""
        return np.random.Generator(np.random.PCG64(self.random64(2)))

    # -- state in PyTorch's byte layout ---------------------------------------------------
    def get_state(self) -> bytes:
        st = self._bits.state["state"]
        pos = int(st["pos"])
        key = [int(k) for k in st["key"]]
        dn = self.next_double_normal
        legacy = _LEGACY.pack(self.initial_seed, _N + 1 - pos, 1, pos % _N, *key,
                              0.0, 0.0 if dn is None else dn, 0.0, int(dn is not None))
        fn = self.next_float_normal
        out = legacy + _TAIL.pack(0.0 if fn is None else fn, fn is not None)
        return out + bytes(STATE_BYTES - len(out))

    def set_state(self, data: bytes) -> None:
        if len(data) != STATE_BYTES:
            raise RuntimeError(f"Expected either a THGeneratorState of size {_LEGACY.size} or a "
                               f"CPUGeneratorImplState of size {STATE_BYTES} but found the input RNG "
                               f"state size to be {len(data)}")
        fields = _LEGACY.unpack_from(data, 0)
        seed, left = fields[0], fields[1]
        key = np.array(fields[4:4 + _N], np.uint64)
        normal_y, normal_valid = fields[4 + _N + 1], fields[4 + _N + 3]
        fn, fn_valid = _TAIL.unpack_from(data, _LEGACY.size)
        if not 1 <= left <= _N + 1:
            raise RuntimeError(f"set_rng_state: the engine position {left} is out of range "
                               "(the state is corrupt or not a torch RNG state)")
        self.initial_seed = seed
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": key.astype(np.uint32), "pos": min(_N + 1 - left, _N)}}
        self.next_double_normal = float(normal_y) if normal_valid else None
        self.next_float_normal = float(fn) if fn_valid else None


def _fisher_yates(picks: np.ndarray) -> np.ndarray:
    """The arrangement of ``0 .. n-1`` after the swaps ``(i, i + picks[i])`` for ``i = 0 ..
    n-2`` in turn, in O(n log n) array operations instead of ``n`` Python steps.

    Step ``i`` fixes position ``i`` to the value then at position ``j[i]`` and moves the value
    at ``i`` to ``j[i] >= i``.  So the value at a position ``p >= i`` before step ``i`` is the
    one the last earlier step ``m`` with ``j[m] == p`` moved there, which is the value at
    position ``m`` before step ``m`` (or ``p`` itself when no step moved one there).  Call
    ``moved[k]`` the value at ``k`` before step ``k``: it follows links ``k -> m`` to a root,
    and the result at ``i`` is ``moved`` of the last earlier step swapping with ``j[i]`` (or
    ``j[i]``).  Grouping the steps by ``j`` (one sort) gives the links, and pointer jumping
    (``root = root[root]``, about ``log2`` of the longest chain rounds) gives the roots.

    Example::

        >>> _fisher_yates(np.array([2, 0, 1])).tolist()   # swaps (0, 2), (1, 1), (2, 3)
        [2, 1, 3, 0]
    """
    n = picks.size + 1
    idx = np.arange(n)
    j = np.empty(n, np.intp)
    np.add(picks, idx[:-1], out=j[:-1])
    j[-1] = n - 1  # the last position is not swapped
    bits = n.bit_length()
    key = j << bits
    key |= idx
    key.sort()                         # the steps by the position they swap with, then in turn
    order = key & ((1 << bits) - 1)    # those steps
    key >>= bits                       # their positions
    before = np.empty(n, np.intp)      # sorted: the previous step with the same position, or -1
    before[0] = -1
    before[1:] = _pick(key[1:] == key[:-1], order[:-1], -1)
    prev = np.empty(n, np.intp)
    prev[order] = before
    # link k -> the last step before k that swapped with position k: the last of k's group
    # (all its steps are <= k), or the one before it when step k itself is (j[k] == k)
    counts = np.bincount(j, minlength=n)
    end = np.cumsum(counts)
    last = end - 1 - (j == idx)
    root = _pick(last >= end - counts, order.take(last), idx)  # (last = -1 only where masked)
    # pointer jumping; a step whose link is a root keeps it, so each round after the first
    # jumps only the steps still moving (a quarter of them after one round, then fewer)
    nxt = root.take(root)
    moving = np.flatnonzero(nxt != root)
    root = nxt
    while moving.size:
        at = root.take(moving)
        nxt = root.take(at)
        root[moving] = nxt
        moving = moving[nxt != at]
    return _pick(prev >= 0, root.take(prev), j).astype(np.int64, copy=False)


def _pick(mask, a, b):
    """``np.where(mask, a, b)`` for integer arrays (``b`` may be a scalar), without a branch
    per element (NumPy's ``where`` mispredicts one on random masks): ``b + mask * (a - b)``."""
    d = np.subtract(a, b)
    d *= mask
    d += b
    return d


# -- arithmetic as PyTorch's compiled kernels do it ------------------------------------------

def _fma64_scale(x, s, c):
    """`_fma64` of an array ``x`` and scalars ``s``, ``c``, with the common cases done in one
    operation, which rounds once as the fused operation does (the bernoulli / dropout masks
    and ``rand`` draw ``[0, 1)``: ``x * 1 + 0``): ``c = +0.0``: the product (plus ``+0.0``, the
    fused sum's sign for a zero product); ``s = 1``: the sum."""
    if c == 0 and not np.signbit(c):
        return x * s + 0.0
    if s == 1:
        return x + c
    return _fma64(x, s, c)


# the float32 constants of PyTorch's AVX2 ``log`` and ``sincos`` (Cephes), by name (shared
# with the compiled kernel `core.native_rng.fill16_f32`)
_CEPHES = {
    "sqrt_half": 0.707106781186547524, "log_p0": 7.0376836292e-2,
    "log_p": (-1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1,
              2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1),
    "log_q1": -2.12194440e-4, "log_q2": 0.693359375,
    "four_over_pi": 1.27323954473516, "dp1": -0.78515625, "dp2": -2.4187564849853515625e-4,
    "dp3": -3.77489497744594108e-8, "cos0": 2.443315711809948e-5, "cos1": -1.388731625493765e-3,
    "cos2": 4.166664568298827e-2, "sin0": -1.9515295891e-4, "sin1": 8.3321608736e-3,
    "sin2": -1.6666654611e-1, "two_pi": 2 * math.pi,
}
_C = {k: _F32(v) for k, v in _CEPHES.items() if k != "log_p"}


def _logf(x: np.ndarray) -> np.ndarray:
    """float32 natural log of positive normal ``x`` by the Cephes polynomial (AVX2 kernel)."""
    bits = np.ascontiguousarray(x, _F32).view(np.int32)
    e = (((bits >> 23) & 0xFF) - 0x7F).astype(_F32) + _F32(1)
    m = ((bits & ~0x7F800000) | 0x3F000000).view(_F32)  # mantissa in [0.5, 1)
    small = m < _C["sqrt_half"]
    m = m - _F32(1)
    e = e - small.astype(_F32)
    m = m + (m + _F32(1)) * small.astype(_F32)  # m + (m + 1 if small else +0): exact, branch-free
    z = m * m
    y = np.full_like(m, _C["log_p0"])
    w = np.empty(m.shape)
    for p in _CEPHES["log_p"]:
        y = _fma32(y, m, _F32(p), w)
    y = y * m
    y = _fma32(y, z, e * _C["log_q1"], w)
    y = _fma32(z, _F32(-0.5), y, w)
    return _fma32(e, _C["log_q2"], m + y, w)


def _sincosf(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """float32 sine and cosine of ``x >= 0`` by the Cephes polynomials (AVX2 kernel)."""
    j = (x * _C["four_over_pi"]).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(_F32)
    sin_negative = (j & 4) != 0
    cos_negative = (~(j - 2) & 4) != 0
    sin_poly = (j & 2) == 0
    w = np.empty(x.shape)
    r = _fma32(y, _C["dp1"], x, w)
    r = _fma32(y, _C["dp2"], r, w)
    r = _fma32(y, _C["dp3"], r, w)
    z = r * r
    c = _fma32(_C["cos0"], z, _C["cos1"], w)
    c = _fma32(c, z, _C["cos2"], w)
    c = _fma32(c * z, z, -(z * _F32(0.5)), w) + _F32(1)
    s = _fma32(_C["sin0"], z, _C["sin1"], w)
    s = _fma32(s, z, _C["sin2"], w)
    s = _fma32(s * z, r, r, w)
    # the selections and sign flips on the bits (NumPy's `where` with a random mask is slow)
    take_s = -sin_poly.astype(np.int32)  # all ones where the sine polynomial applies
    sb, cb = s.view(np.int32), c.view(np.int32)
    sin = (sb & take_s) | (cb & ~take_s)
    cos = (cb & take_s) | (sb & ~take_s)
    sin ^= sin_negative.astype(np.int32) << 31
    cos ^= cos_negative.astype(np.int32) << 31
    return sin.view(_F32), cos.view(_F32)


def _fill16_f32(d: np.ndarray, mean: float, std: float) -> None:
    """Box-Muller over blocks of 16 float32 uniforms, in place (PyTorch's AVX2 kernel): the
    compiled `core.native_rng.fill16_f32` where it is available, else `_fill16_f32_numpy`."""
    if not _native_rng.fill16_f32(d, mean, std, _CEPHES):
        _fill16_f32_numpy(d, mean, std)


def _fill16_f32_numpy(d: np.ndarray, mean: float, std: float) -> None:
    """`_fill16_f32` in NumPy passes."""
    blocks = d.reshape(-1, 16)
    u1 = _F32(1) - blocks[:, :8]
    u2 = blocks[:, 8:]
    radius = np.sqrt(_F32(-2) * _logf(u1))
    sin, cos = _sincosf(_C["two_pi"] * u2)
    if _F32(std) == 1:  # fma(x, 1, mean) rounds x + mean once: the float32 sum
        np.add(radius * cos, _F32(mean), out=blocks[:, :8])
        np.add(radius * sin, _F32(mean), out=blocks[:, 8:])
        return
    blocks[:, :8] = _fma32(radius * cos, _F32(std), _F32(mean))
    blocks[:, 8:] = _fma32(radius * sin, _F32(std), _F32(mean))


def _fill16_f64(d: np.ndarray, mean: float, std: float) -> None:
    """Box-Muller over blocks of 16 float64 uniforms, in place (PyTorch's scalar kernel;
    log/cos/sin correctly rounded, as the C library's)."""
    blocks = d.reshape(-1, 16)
    u1 = 1.0 - blocks[:, :8].astype(np.longdouble)
    u2 = blocks[:, 8:]
    radius = np.sqrt((-2.0 * np.log(u1)).astype(np.float64))
    theta = (2.0 * math.pi) * u2
    cos = np.cos(theta.astype(np.longdouble)).astype(np.float64)
    sin = np.sin(theta.astype(np.longdouble)).astype(np.float64)
    blocks[:, :8] = _fma64(radius * cos, std, mean)
    blocks[:, 8:] = _fma64(radius * sin, std, mean)


# -- scalar rejection samplers (PyTorch's ``_standard_gamma``, ``poisson``, ``binomial``) ----
#
# PyTorch's CPU kernels for these draw one element at a time, each rejection loop taking as
# many float64 uniforms (``random64``-based) and cached Box-Muller normals as it needs.  The
# loops below follow the kernels' arithmetic step by step, including where the C++ code
# computes in single precision (``scalar_t`` = float) before widening to double.

_THIRD_F32 = float(_F32(1.0) / _F32(3.0))        # 1.0f / 3.0f
_SQUEEZE_F32 = float(_F32(0.0331))                # 0.0331f
_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                  0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                  0.00925546218271273, 0.00833056343336287)


def _f32(v: float) -> float:
    """``v`` rounded to single precision (one rounding of the exact double result equals the
    float operation for +, -, *, / and sqrt of float operands)."""
    return float(_F32(v))


class ScalarDraws:
    """A cursor over an engine's float64 uniforms and double normals for scalar rejection
    loops: words are drawn in vectorized chunks, and `close` leaves the engine exactly after
    the words that were used (as if they had been drawn one by one)."""

    def __init__(self, engine: Engine, expected: int) -> None:
        self._engine = engine
        self._start = engine._bits.state
        self._chunk = int(min(max(expected, 64), 1 << 16))
        self._buf: list = []
        self._pos = 0
        self._used = 0

    def uniform(self) -> float:
        """One ``uniform_real_distribution<double>(0, 1)`` draw."""
        if self._pos == len(self._buf):
            words = self._engine.random64(self._chunk) & _MASK53
            self._buf = (words.astype(np.float64) * 2.0 ** -53).tolist()
            self._pos = 0
        self._pos += 1
        self._used += 1
        return self._buf[self._pos - 1]

    def normal(self) -> float:
        """One ``normal_distribution<double>(0, 1)`` draw (the generator's cached second
        Box-Muller value first)."""
        eng = self._engine
        if eng.next_double_normal is not None:
            v, eng.next_double_normal = eng.next_double_normal, None
            return v
        u1 = self.uniform()
        u2 = self.uniform()
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        eng.next_double_normal = r * math.sin(theta)
        return r * math.cos(theta)

    def close(self) -> None:
        """Rewind the engine to just after the words used."""
        bits = self._engine._bits
        bits.state = self._start
        if self._used:
            bits.random_raw(2 * self._used)


def sample_gamma(draws: ScalarDraws, alpha: float, single: bool) -> float:
    """One Gamma(alpha, 1) sample by Marsaglia and Tsang's method with PyTorch's boost for
    ``alpha < 1`` (``x * u**(1/alpha)`` with ``alpha + 1``); ``single``: ``alpha`` is a float32
    value and the kernel's ``scalar_t`` steps round to float32.  Negative or NaN ``alpha``
    gives NaN (PyTorch's loop would not end)."""
    if not alpha >= 0.0:
        return math.nan
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        exponent = _f32(1.0 / alpha) if single else 1.0 / alpha
        scale *= math.pow(1.0 - draws.uniform(), exponent)
        alpha = _f32(alpha + 1.0) if single else alpha + 1.0
    d = _f32(alpha - _THIRD_F32) if single else alpha - _THIRD_F32
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        while True:
            x = draws.normal()
            y = 1.0 + c * x
            if y > 0.0:
                break
        v = y * y * y
        u = 1.0 - draws.uniform()
        xx = x * x
        if u < 1.0 - _SQUEEZE_F32 * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def sample_poisson(draws: ScalarDraws, lam: float) -> int:
    """One Poisson(lam) sample: Hörmann's transformed rejection (PTRS) for ``lam >= 10``,
    otherwise the product of uniforms against ``exp(-lam)``."""
    if not lam >= 0.0:
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    if lam >= 10.0:
        slam = math.sqrt(lam)
        loglam = math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        log_invalpha = math.log(1.1239 + 1.1328 / (b - 3.4))
        vr = 0.9277 - 3.6224 / (b - 2.0)
        while True:
            u = draws.uniform() - 0.5
            v = draws.uniform()
            us = 0.5 - abs(u)
            k = math.floor((2.0 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if (math.log(v) + log_invalpha - math.log(a / (us * us) + b)) <= (
                    -lam + k * loglam - math.lgamma(k + 1.0)):
                return k
    if lam == 0.0:
        return 0
    enlam = math.exp(-lam)
    count, prod = 0, 1.0
    while True:
        prod *= draws.uniform()
        if prod > enlam:
            count += 1
        else:
            return count


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _binomial_inversion(draws: ScalarDraws, count: float, prob: float, single: bool) -> float:
    logprob = float(np.log1p(_F32(-prob))) if single else math.log1p(-prob)
    geom_sum, successes = 0.0, 0.0
    while True:
        geom_sum += math.ceil(math.log(draws.uniform()) / logprob)
        if geom_sum > count:
            return successes
        successes += 1


def _btrs(draws: ScalarDraws, count: float, prob: float, single: bool) -> float:
    """Hörmann's BTRS as PyTorch writes it (``scalar_t`` steps rounded when ``single``)."""
    rnd = _f32 if single else float
    stddev = math.sqrt(rnd(rnd(count * prob) * rnd(1.0 - prob)))
    if single:
        stddev = _f32(stddev)
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = rnd(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = rnd(prob / rnd(1.0 - prob))
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor(rnd(rnd(count + 1) * prob))
    while True:
        u = draws.uniform() - 0.5
        v = draws.uniform()
        us = 0.5 - abs(u)
        k = float(math.floor((2 * a / us + b) * u + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        upper = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
                 + (count + 1) * math.log((count - m + 1) / (count - k + 1))
                 + (k + 0.5) * math.log(r * (count - k + 1) / (k + 1))
                 + _stirling_tail(m) + _stirling_tail(count - m)
                 - _stirling_tail(k) - _stirling_tail(count - k))
        if v <= upper:
            return k


def sample_binomial(draws: ScalarDraws, count: float, prob: float, single: bool) -> float:
    """One Binomial(count, prob) sample: BTRS when the mean of the smaller tail is at least
    10, otherwise inversion by geometric waiting times (PyTorch's ``sample_binomial``)."""
    rnd = _f32 if single else float
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if rnd(count * prob) >= 10.0:
            return _btrs(draws, count, prob, single)
        return _binomial_inversion(draws, count, prob, single)
    if prob > 0.5:
        q = rnd(1.0 - prob)
        if rnd(count * q) >= 10.0:
            return count - _btrs(draws, count, q, single)
        return count - _binomial_inversion(draws, count, q, single)
    return math.nan


def _elementwise(engine: Engine, sampler, *params: np.ndarray) -> list:
    """``sampler(draws, *element_params)`` over the elements in C order, one stream."""
    flat = [np.ascontiguousarray(p).ravel().tolist() for p in params]
    draws = ScalarDraws(engine, 4 * len(flat[0]))
    try:
        return [sampler(draws, *vals) for vals in zip(*flat)]
    finally:
        draws.close()


def standard_gamma(engine: Engine, alpha: np.ndarray) -> np.ndarray:
    """``torch._standard_gamma(alpha)`` (float32 or float64 ``alpha``), clamped below at the
    dtype's smallest normal number as PyTorch does.

    Example::

        >>> [round(float(v), 4) for v in standard_gamma(Engine(0), np.array([0.5, 2.0], np.float32))]
        [0.0008, 0.6315]
    """
    single = alpha.dtype == np.float32
    out = np.array(_elementwise(engine, lambda d, a: sample_gamma(d, a, single), alpha), np.float64)
    out = out.astype(alpha.dtype).reshape(alpha.shape)
    return np.maximum(out, np.finfo(alpha.dtype).tiny)


def dirichlet_gammas(engine: Engine, alpha: np.ndarray) -> np.ndarray:
    """The float64 gamma draws of ``torch._sample_dirichlet(alpha)`` (``alpha`` widened to
    float64 first, each draw at least the smallest normal float64)."""
    a64 = alpha.astype(np.float64)
    out = np.array(_elementwise(engine, lambda d, a: sample_gamma(d, a, False), a64), np.float64)
    return np.maximum(out.reshape(alpha.shape), np.finfo(np.float64).tiny)


def poisson(engine: Engine, rate: np.ndarray) -> np.ndarray:
    """``torch.poisson(rate)`` (float64 rates; the result in ``rate``'s dtype).

    Example::

        >>> poisson(Engine(0), np.array([0.5, 3.0, 12.0, 100.0])).tolist()
        [2.0, 4.0, 13.0, 99.0]
    """
    vals = _elementwise(engine, sample_poisson, rate.astype(np.float64))
    return np.array(vals, np.float64).astype(rate.dtype).reshape(rate.shape)


def binomial(engine: Engine, count: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """``torch.binomial(count, prob)`` of one broadcast shape and float dtype.

    Example::

        >>> n, p = np.array([5., 100., 1000.], np.float32), np.array([0.3, 0.6, 0.2], np.float32)
        >>> binomial(Engine(0), n, p).tolist()
        [3.0, 58.0, 187.0]
    """
    single = count.dtype == np.float32
    vals = _elementwise(engine, lambda d, n, p: sample_binomial(d, n, p, single), count, prob)
    return np.array(vals, np.float64).astype(count.dtype).reshape(count.shape)
