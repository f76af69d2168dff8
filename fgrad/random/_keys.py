"""Keys of `fgrad.random`: the Threefry-2x32 cipher, typed key arrays and key derivation.

A *typed key array* (`random.key`, `wrap_key_data`) is a `PRNGKeyArray`: an array of keys
whose shape excludes the two uint32 words of each key (``key(0).shape == ()``,
``split(key(0), 3).shape == (3,)``), whose ``dtype`` is the key dtype ``key<fry>``, and
which is a pytree over its raw ``uint32[..., 2]`` data, so it passes through ``jit``,
``vmap`` (over its leading axes), ``scan`` and ``tree_map`` like any array.  A *legacy key*
(`PRNGKey`) is that raw ``uint32[2]`` data itself; every function accepts both, and
`split`/`fold_in` return keys of the kind they were given (as in JAX).

Bits come from Threefry-2x32 (20 rounds, Salmon et al. 2011) over a counter: the flat
index of each output element, written with fgrad's uint32 primitives.  Key derivation is
JAX's "partitionable" scheme (``split(key, n)[i] == fold_in(key, i)``).
"""

from __future__ import annotations

from typing import Any, Union

import numpy as np
from ..core import x64_mode as _x64_mode
from ..core.narrow_floats import dtype_kind as _dtype_kind

from .. import numpy as fnp
from ..core import array as _array
from ..core.constants import constant_like as _constant_like
from ..core.constants import host_array as _host_array
from ..core.constants import is_device_buffer as _is_device_buffer
from ..ops import bits as _bits
from ..ops import elementwise as _ew
from ..ops import shape as _shp
from ..ops import sorting as _sorting
from ..ops.threefry import threefry2x32  # noqa: F401  (fgrad.random.threefry2x32)
from ..tree_util import register_array_node
from ..typing import Array, ArrayLike, Shape

_get_aval, _wrap = _array.get_aval, _array.wrap
_reshape, _take_static = _shp.reshape, _sorting.take_static

_U32 = np.dtype(np.uint32)
_UINT = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: _U32, 64: np.dtype(np.uint64)}
_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA
IMPL_NAME = "threefry2x32"


def _arr(x, like=None):
    """``x`` as an Array: an Array or tracer as it is; host data placed like ``like`` (a
    sampler's parameters follow its key's device) or, without one, on the default device."""
    if isinstance(x, (_array.Tracer, _array.ArrayImpl)):
        return x
    if like is None or _is_device_buffer(x):
        return _host_array(x)
    return _const(np.asarray(x), like)


def _const(value, like):
    """The host constant ``value`` on the device of ``like`` (a key or other operand)."""
    return _constant_like(value, like)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def static_shape(shape) -> tuple:
    """A static shape: an int or a sequence of non-negative ints (as in JAX, no floats)."""
    if shape is None:
        return ()
    if _is_int(shape):
        shape = (shape,)
    try:
        dims = tuple(shape)
    except TypeError:
        raise TypeError(
            f"fgrad.random: a shape must be an int or a sequence of ints, got {shape!r}") from None
    if not all(_is_int(d) for d in dims):
        raise TypeError(
            f"fgrad.random: shapes must be 1D sequences of concrete values of integer type, got {dims!r}")
    if any(d < 0 for d in dims):
        raise ValueError(f"fgrad.random: shape dimensions must be non-negative, got {dims!r}")
    return tuple(int(d) for d in dims)


# ---------------------------------------------------------------------------------------
# typed key arrays


class KeyDType:
    """The dtype of typed keys: ``key<fry>`` (Threefry-2x32 keys, two uint32 words each).

    Example::

        >>> import fgrad
        >>> dt = fgrad.random.key(0).dtype
        >>> isinstance(dt, fgrad.random.KeyDType), dt
        (True, key<fry>)
    """

    _fgrad_key_dtype = True  # fgrad.numpy.issubdtype's mark (fgrad.numpy stays below fgrad.random)
    name = "key<fry>"
    kind = "V"  # not a numeric kind: fgrad.numpy's numeric functions reject keys

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        return isinstance(other, KeyDType) or other == self.name

    def __hash__(self) -> int:
        return hash(self.name)


KEY_DTYPE = KeyDType()


class PRNGKeyArray(_array.Array):
    """An array of typed PRNG keys over raw ``uint32[*shape, 2]`` data (see the module
    docstring).  Indexing, ``len``, iteration, ``reshape``, ``ravel`` and ``T`` act on the key
    axes only.  It is an `fgrad.Array` (as JAX's key arrays are ``jax.Array``s) and a pytree
    leaf; the transforms trace its data.

    Example::

        >>> import fgrad.random as random
        >>> keys = random.split(random.key(0), 4)
        >>> keys.shape, str(keys.dtype), random.key_data(keys).shape
        ((4,), 'key<fry>', (4, 2))
    """

    __slots__ = ("_base",)
    __array_priority__ = 100
    _fgrad_key_array = True  # fgrad.numpy's stack/concatenate/where act on the key data

    def __init__(self, base) -> None:
        self._base = base

    # -- array-like metadata
    @property
    def shape(self) -> tuple:
        return tuple(_get_aval(self._base).shape[:-1])

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def dtype(self) -> KeyDType:
        return KEY_DTYPE

    @property
    def device(self):
        """The device holding the key data (JAX's ``key.device``)."""
        return self._base.device

    def devices(self) -> set:
        return {self.device}

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object (a scalar key array)")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d key array")
        return (self[i] for i in range(self.shape[0]))

    def __getitem__(self, idx) -> PRNGKeyArray:
        idx = idx if isinstance(idx, tuple) else (idx,)
        # the data axis stays whole: after an Ellipsis given by the user, or after one we add
        idx = idx + ((slice(None),) if any(i is Ellipsis for i in idx) else (Ellipsis, slice(None)))
        return PRNGKeyArray(self._base[idx])

    def reshape(self, *shape) -> PRNGKeyArray:
        shape = shape[0] if len(shape) == 1 and not _is_int(shape[0]) else shape
        return PRNGKeyArray(_reshape_keys(self._base, tuple(shape)))

    def ravel(self) -> PRNGKeyArray:
        return self.reshape(-1)

    @property
    def T(self) -> PRNGKeyArray:
        perm = tuple(range(self.ndim))[::-1] + (self.ndim,)
        return PRNGKeyArray(_shp.transpose(self._base, perm))

    def __eq__(self, other):
        if not isinstance(other, PRNGKeyArray):
            return NotImplemented
        return fnp.all(fnp.equal(self._base, other._base), axis=-1)

    __hash__ = None  # arrays are not hashable

    def __array__(self, dtype=None, copy=None):
        raise TypeError("fgrad.random: a typed key array has no NumPy equivalent; use "
                        "fgrad.random.key_data(keys) for its uint32 data")

    def __repr__(self) -> str:
        return f"Array({self.shape}, dtype={KEY_DTYPE}) overlaying:\n{self._base}"


def _reshape_keys(base, shape: tuple):
    n = int(np.prod(_get_aval(base).shape[:-1], dtype=np.int64))
    if -1 in shape:
        known = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
        shape = tuple(n // known if d == -1 else d for d in shape)
    return _reshape(base, shape + (2,))


# a leaf of the public tree functions (as JAX's key arrays); the transforms trace its data
register_array_node(PRNGKeyArray, lambda k: ((k._base,), None),
                    lambda _, children: PRNGKeyArray(children[0]))

# what the samplers accept as a key: a typed key array, or raw ``uint32[..., 2]`` key data
KeyArrayLike = Union[PRNGKeyArray, ArrayLike]


def is_typed_key(x) -> bool:
    return isinstance(x, PRNGKeyArray)


def key_words(key, name: str):
    """The raw ``uint32[2]`` data of one key (typed or legacy), checked."""
    if isinstance(key, PRNGKeyArray):
        if key.shape:
            raise TypeError(f"fgrad.random.{name}: expected a single key, got a key array of shape "
                            f"{key.shape}. For a batch of keys use fgrad.vmap over the leading axis.")
        return key._base
    k = _arr(key)
    av = _get_aval(k)
    if av.dtype != _U32 or av.shape != (2,):
        extra = (" For a batch of keys use fgrad.vmap over the leading axis."
                 if av.dtype == _U32 and av.ndim > 1 and av.shape[-1] == 2 else "")
        raise TypeError(f"fgrad.random.{name}: expected a key (uint32[2], from fgrad.random.key), got "
                        f"{av.str_short()}.{extra}")
    return k


def like_input(key, raw):
    """``raw`` (uint32[..., 2]) as the same kind of key as ``key``: typed or legacy."""
    return PRNGKeyArray(raw) if isinstance(key, PRNGKeyArray) else raw


# ---------------------------------------------------------------------------------------
# the cipher


def counters(shape, like):
    """High and low 32-bit words of the flat (row-major) index of each element."""
    n = int(np.prod(shape, dtype=np.int64))
    if n <= 2 ** 32:  # every high word is 0: one scalar (threefry2x32 broadcasts it)
        lo = np.arange(n, dtype=np.uint32).reshape(shape)
        return _const(np.zeros((), np.uint32), like), _const(lo, like)
    idx = np.arange(n, dtype=np.uint64).reshape(shape)
    hi = (idx >> np.uint64(32)).astype(np.uint32)
    lo = (idx & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    return _const(hi, like), _const(lo, like)


def words(k):
    return _reshape(_take_static(k, [0], 0), ()), _reshape(_take_static(k, [1], 0), ())


def stack_last(a, b):
    sel = _const(np.array([True, False]), a)
    return _ew.select(sel, _expand_last(a), _expand_last(b))


def _expand_last(x):
    return _reshape(x, _get_aval(x).shape + (1,))


def partitionable() -> bool:
    """Whether keys split and draw bits as JAX's ``jax_threefry_partitionable`` mode (the
    default): each element from its own counter.  Off, JAX's original stream applies
    (`flat_bits`)."""
    from .._config import config
    return bool(config.jax_threefry_partitionable)


def flat_bits(k1, k2, n: int):
    """JAX's original ``threefry_2x32(key, iota(n))``: the counters 0..n-1 (a 0 appended when
    n is odd) split in halves as the cipher's two words, the two outputs concatenated."""
    if n >= 0xFFFFFFFF:
        raise NotImplementedError(f"fgrad.random: {n} random words in one draw with "
                                  "jax_threefry_partitionable off (JAX splits the key there)")
    counts = np.zeros(n + n % 2, np.uint32)
    counts[:n] = np.arange(n, dtype=np.uint32)
    out = _threefry_halves(k1, k2, _const(counts, k1))
    return out[:n] if n % 2 else out


def _threefry_halves(k1, k2, counts):
    """The cipher on the two halves of the even-length uint32 vector ``counts`` (its first
    half the first word, its second half the second), the two outputs concatenated."""
    half = counts.shape[0] // 2
    b1, b2 = threefry2x32(k1, k2, counts[:half], counts[half:])
    return fnp.concatenate([b1, b2])


def threefry_2x32(keypair: Any, count: ArrayLike) -> Array:
    """JAX's ``jax.extend.random.threefry_2x32``: the Threefry-2x32 stream of the counters
    ``count`` (a uint32 array of any shape) under the key words ``keypair = (k1, k2)``; the
    flattened counters (a 0 appended when their number is odd) are split in halves as the
    cipher's two words, and the outputs concatenated and reshaped as ``count``.

    Example::

        >>> import numpy as np, fgrad.numpy as fnp
        >>> threefry_2x32(fnp.asarray([0, 42], np.uint32), fnp.arange(3, dtype=np.uint32))
        Array([2465931498,  430176367,  255383827], dtype=uint32)
    """
    k1, k2 = keypair
    count = fnp.asarray(count)
    if any(fnp.asarray(v).dtype != np.uint32 for v in (k1, k2, count)):
        raise TypeError("threefry_2x32 requires uint32 arguments (key words and counters), got "
                        f"{fnp.asarray(k1).dtype}, {fnp.asarray(k2).dtype} and {count.dtype}")
    flat = count.ravel()
    n = flat.shape[0]
    if n % 2:
        flat = fnp.concatenate([flat, fnp.zeros(1, np.uint32)])
    out = _threefry_halves(k1, k2, flat)
    return (out[:n] if n % 2 else out).reshape(count.shape)


def _original_bits(k1, k2, width: int, shape) -> Array:
    """JAX's ``_threefry_random_bits_original``: ``ceil(width * size / 32)`` words of the flat
    stream; 64-bit values pair the first half (high words) with the second; 8/16-bit values
    are the words' pieces, low bits first."""
    size = int(np.prod(shape, dtype=np.int64))
    words_needed = -(-width * size // 32)
    bits = flat_bits(k1, k2, words_needed)
    if width == 64:
        u64 = _UINT[64]
        hi = _ew.convert_element_type(bits[:size], u64)
        bits = _ew.or_p.bind(_bits.shift_left(hi, 32), _ew.convert_element_type(bits[size:], u64))
    elif width in (8, 16):
        per = 32 // width
        shifts = _const((np.arange(per, dtype=np.uint32) * np.uint32(width)).reshape(1, per), k1)
        pieces = _ew.and_p.bind(_bits.shift_right_logical(_reshape(bits, (words_needed, 1)), shifts),
                                np.uint32((1 << width) - 1))
        bits = _ew.convert_element_type(_reshape(pieces, (words_needed * per,))[:size], _UINT[width])
    return _reshape(bits, tuple(shape))


def random_bits(k, width, shape):
    """Uniform random unsigned integers of ``width`` bits from the raw key ``k``."""
    k1, k2 = words(k)
    if not partitionable():
        return _original_bits(k1, k2, width, shape)
    hi, lo = counters(shape, k1)
    b1, b2 = threefry2x32(k1, k2, hi, lo)
    if width == 64:
        u64 = _UINT[64]
        hi = _bits.shift_left(_ew.convert_element_type(b1, u64), 32)
        return _ew.or_p.bind(hi, _ew.convert_element_type(b2, u64))
    out = _ew.xor_p.bind(b1, b2)
    return out if width == 32 else _ew.convert_element_type(out, _UINT[width])


# ---------------------------------------------------------------------------------------
# making and deriving keys


def _raw_key(seed):
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        s = int(seed)
        if not -(2 ** 63) <= s < 2 ** 64:
            raise OverflowError(f"fgrad.random.key: seed {seed} does not fit in 64 bits")
        # 64-bit types off: the seed is an int32/uint32, its high word 0 (JAX without x64)
        s &= 0xFFFFFFFFFFFFFFFF if _x64_mode.enabled else 0xFFFFFFFF
        return _host_array(np.array([s >> 32, s & 0xFFFFFFFF], dtype=np.uint32))  # default device
    s = _arr(seed)
    av = _get_aval(s)
    if av.shape != () or _dtype_kind(av.dtype) not in "iu":
        raise TypeError(f"fgrad.random.key: seed must be a scalar integer, got {av.str_short()}")
    s64 = _ew.convert_element_type(s, np.uint64 if _dtype_kind(av.dtype) == "u" else np.int64)
    hi = _ew.convert_element_type(_bits.shift_right_logical(s64, 32), np.uint64)
    hi = _ew.convert_element_type(hi, _U32)
    lo = _ew.convert_element_type(_ew.and_p.bind(_ew.convert_element_type(s64, np.uint64), 0xFFFFFFFF), _U32)
    return stack_last(hi, lo)


def key(seed: ArrayLike, *, impl: str | None = None) -> PRNGKeyArray:
    """A typed key (shape ``()``, dtype ``key<fry>``) from an integer seed (a Python int
    or a scalar integer array, possibly traced): its data is the high and low 32-bit words
    of ``int64(seed)``.

    Example::

        >>> import fgrad.random as random
        >>> k = random.key(0)
        >>> k.shape, str(k.dtype)
        ((), 'key<fry>')
    """
    _check_impl(impl)
    return PRNGKeyArray(_raw_key(seed))


def PRNGKey(seed: ArrayLike, *, impl: str | None = None) -> Array:
    """A legacy key: the raw ``uint32[2]`` data of ``key(seed)``.

    Example::

        >>> import fgrad.random as random
        >>> random.PRNGKey(1)
        Array([0, 1], dtype=uint32)
    """
    _check_impl(impl)
    return _raw_key(seed)


def _check_impl(impl) -> None:
    impl = getattr(impl, "name", impl)  # a PRNGImpl (fgrad.extend.random.threefry_prng_impl)
    if impl not in (None, IMPL_NAME, "threefry"):
        raise ValueError(f"fgrad.random: PRNG implementation {impl!r} is not available; fgrad has "
                         f"{IMPL_NAME!r} only")


def key_data(keys: KeyArrayLike) -> Array:
    """The ``uint32[*keys.shape, 2]`` data of typed keys (legacy keys are returned as they are).

    Example::

        >>> import fgrad.random as random
        >>> random.key_data(random.key(7))
        Array([0, 7], dtype=uint32)
    """
    if isinstance(keys, PRNGKeyArray):
        return keys._base
    k = _arr(keys)
    av = _get_aval(k)
    if av.dtype != _U32 or not av.ndim or av.shape[-1] != 2:
        raise TypeError(f"fgrad.random.key_data: expected keys, got {av.str_short()}")
    return k


def wrap_key_data(key_bits_array: ArrayLike, *, impl: str | None = None,
                  dtype: KeyDType | str | None = None) -> PRNGKeyArray:
    """Typed keys over ``uint32[..., 2]`` data (the inverse of `key_data`); the implementation
    is named by ``impl`` or by a key ``dtype`` (``key.dtype``), not both.

    Example::

        >>> import numpy as np, fgrad.random as random
        >>> random.wrap_key_data(np.zeros((3, 2), np.uint32)).shape
        (3,)
        >>> random.wrap_key_data(np.zeros(2, np.uint32), dtype=random.key(0).dtype).dtype
        key<fry>
    """
    if dtype is not None:
        if impl is not None:
            raise ValueError("Cannot specify both `impl` and `dtype` arguments to "
                             "fgrad.random.wrap_key_data")
        if not isinstance(dtype, KeyDType) and dtype != KEY_DTYPE.name:
            raise ValueError(f"fgrad.random.wrap_key_data: dtype must be a key dtype such as "
                            f"{KEY_DTYPE.name} (a typed key's .dtype), got {dtype!r}")
    _check_impl(impl)
    d = _arr(key_bits_array)
    av = _get_aval(d)
    if av.dtype != _U32 or not av.ndim or av.shape[-1] != 2:
        raise TypeError(f"fgrad.random.wrap_key_data: expected uint32 data of shape [..., 2], got "
                        f"{av.str_short()}")
    return PRNGKeyArray(d)


def key_impl(keys: KeyArrayLike) -> str:
    """The name of the PRNG implementation of ``keys`` (always ``"threefry2x32"``).

    Example::

        >>> import fgrad.random as random
        >>> random.key_impl(random.key(0))
        'threefry2x32'
    """
    return IMPL_NAME


def key_dtype(impl_spec: str | None = None) -> KeyDType:
    """The dtype of the typed keys of PRNG implementation ``impl_spec`` (the default, and the
    only one fgrad has: ``"threefry2x32"``); ``ValueError`` for another.

    Example::

        >>> import fgrad.random as random
        >>> random.key_dtype() == random.key(0).dtype
        True
    """
    _check_impl(impl_spec)
    return KEY_DTYPE


def clone(key: KeyArrayLike) -> PRNGKeyArray | Array:
    """A copy of ``key`` (keys are immutable values here: returns ``key``).

    Example::

        >>> import fgrad.random as random
        >>> k = random.key(0)
        >>> random.clone(k) is k
        True
    """
    return key


def split(key: KeyArrayLike, num: int | Shape = 2) -> PRNGKeyArray | Array:
    """``num`` new keys (an int or a shape) of the same kind as ``key``, independent of
    each other and of ``key``.

    Example::

        >>> import fgrad.random as random
        >>> k1, k2 = random.split(random.key(0))
        >>> random.split(random.key(0), (2, 3)).shape
        (2, 3)
        >>> random.split(random.PRNGKey(0), 4).shape  # legacy keys: raw data
        (4, 2)
    """
    k1, k2 = words(key_words(key, "split"))
    shape = static_shape(num)
    if not partitionable():  # JAX's original split: the flat stream of 2 * n words, in pairs
        n = int(np.prod(shape, dtype=np.int64))
        return like_input(key, _reshape(flat_bits(k1, k2, 2 * n), tuple(shape) + (2,)))
    hi, lo = counters(shape, k1)
    b1, b2 = threefry2x32(k1, k2, hi, lo)
    return like_input(key, stack_last(b1, b2))


def fold_in(key: KeyArrayLike, data: ArrayLike) -> PRNGKeyArray | Array:
    """A new key from ``key`` and the integer ``data`` (a scalar, possibly traced).

    Example::

        >>> import fgrad.random as random
        >>> k = random.key(0)
        >>> bool((random.key_data(random.fold_in(k, 3)) == random.key_data(random.split(k, 5)[3])).all())
        True
    """
    raw = key_words(key, "fold_in")
    k1, k2 = words(raw)
    if _is_int(data):
        d = _const(np.asarray(int(data) & 0xFFFFFFFF, dtype=np.uint32), k1)
    else:
        d = _arr(data, k1)
        if _get_aval(d).ndim:
            raise TypeError(f"fgrad.random.fold_in: data must be a scalar, got shape {_get_aval(d).shape}")
        d = _ew.convert_element_type(d, _U32)
    b1, b2 = threefry2x32(k1, k2, _const(np.zeros((), np.uint32), k1), d)
    return like_input(key, stack_last(b1, b2))


def split2(raw):
    """Two raw keys from a raw key (internal)."""
    ks = split(raw, 2)
    return _reshape(_take_static(ks, [0], 0), (2,)), _reshape(_take_static(ks, [1], 0), (2,))
