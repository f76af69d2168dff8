"""The rest of ``jax.lax``'s public names that programs use: option types (`FftType`,
`DotAlgorithmPreset`, `DotAlgorithm`, `Tolerance`, `AccuracyMode`, `RaggedDotDimensionNumbers`
and the type aliases), `mulhi`, `broadcast_like`, `conv_general_permutations`,
`conv_general_dilated_local` (unshared convolution), `ragged_dot_general`, tokens
(`create_token`, `after_all`), `rng_uniform`, `stage`, `dce_sink` and `shape_as_value`.
Each is built on fgrad ops (no new primitive), so derivatives, batching and jit come from
those.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, NamedTuple, Union

import numpy as np

import fgrad.numpy as fnp

from ._lax_extras import ragged_dot
from ._lax_patches_topk import conv_general_dilated_patches
from .typing import Array, ArrayLike, DTypeLike
from .ops import shape as S
from .ops.convolution import ConvDimensionNumbers, conv_dimension_numbers


class FftType(enum.IntEnum):
    """Which FFT `fgrad.lax.fft` computes.

    Example::

        >>> from fgrad import lax
        >>> lax.FftType.RFFT.name
        'RFFT'
    """

    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3


class AccuracyMode(enum.Enum):
    """Accuracy request of a unary function (``accuracy=``): fgrad computes at full precision
    either way.

    Example::

        >>> from fgrad import lax
        >>> lax.AccuracyMode.HIGHEST.value
        1
    """

    HIGHEST = 1
    DEFAULT = 2


class Tolerance(NamedTuple):
    """Tolerances requested for a unary function's approximation (``accuracy=``).

    Example::

        >>> from fgrad import lax
        >>> lax.Tolerance(atol=1e-6).atol
        1e-06
    """

    atol: float = 0.0
    rtol: float = 0.0
    ulps: int = 0


class DotAlgorithmPreset(enum.Enum):
    """Named dot-product algorithms (``precision=``); on the CPU every product is computed in
    the inputs' precision (or the ``preferred_element_type``).

    Example::

        >>> from fgrad import lax
        >>> lax.DotAlgorithmPreset.F32_F32_F32.name
        'F32_F32_F32'
    """

    DEFAULT = enum.auto()
    ANY_F8_ANY_F8_F32 = enum.auto()
    ANY_F8_ANY_F8_F32_FAST_ACCUM = enum.auto()
    ANY_F8_ANY_F8_ANY = enum.auto()
    ANY_F8_ANY_F8_ANY_FAST_ACCUM = enum.auto()
    F16_F16_F16 = enum.auto()
    F16_F16_F32 = enum.auto()
    BF16_BF16_BF16 = enum.auto()
    BF16_BF16_F32 = enum.auto()
    BF16_BF16_F32_X3 = enum.auto()
    BF16_BF16_F32_X6 = enum.auto()
    BF16_BF16_F32_X9 = enum.auto()
    TF32_TF32_F32 = enum.auto()
    TF32_TF32_F32_X3 = enum.auto()
    F32_F32_F32 = enum.auto()
    F64_F64_F64 = enum.auto()


class DotAlgorithm(NamedTuple):
    """An explicit dot-product algorithm (``precision=``), accepted and computed in the
    inputs' precision on the CPU.

    Example::

        >>> import numpy as np
        >>> from fgrad import lax
        >>> lax.DotAlgorithm(np.float32, np.float32, np.float32).accumulation_type
        <class 'numpy.float32'>
    """

    lhs_precision_type: Any
    rhs_precision_type: Any
    accumulation_type: Any
    lhs_component_count: int = 1
    rhs_component_count: int = 1
    num_primitive_operations: int = 1
    allow_imprecise_accumulation: bool = False


class RaggedDotDimensionNumbers(NamedTuple):
    """Dot, ragged and group dimensions of `ragged_dot_general`.

    Example::

        >>> from fgrad import lax
        >>> lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0]).rhs_group_dimensions
        [0]
    """

    dot_dimension_numbers: Any
    lhs_ragged_dimensions: Sequence[int]
    rhs_group_dimensions: Sequence[int]


DotDimensionNumbers = tuple[tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]]
ConvGeneralDilatedDimensionNumbers = Union[tuple[str, str, str], ConvDimensionNumbers, None]
PrecisionLike = Any


def mulhi(x: ArrayLike, y: ArrayLike, /) -> Array:
    """The high half of the double-width product of two integer arrays (``lax.mulhi``).

    Example::

        >>> import numpy as np
        >>> from fgrad import lax
        >>> lax.mulhi(np.array([2**30, -7], np.int32), np.array([4, 3], np.int32))
        Array([ 1, -1], dtype=int32)
    """
    x, y = fnp.asarray(x), fnp.asarray(y)
    if x.dtype != y.dtype or not np.issubdtype(x.dtype, np.integer):
        raise TypeError(f"mulhi requires two integer arrays of one dtype, got {x.dtype} and {y.dtype}")
    bits = x.dtype.itemsize * 8
    if bits <= 32:
        wide = np.int64 if np.issubdtype(x.dtype, np.signedinteger) else np.uint64
        prod = x.astype(wide) * y.astype(wide)
        return fnp.right_shift(prod, bits).astype(x.dtype)
    # 64-bit: split into 32-bit halves (a * b = (ah 2^32 + al)(bh 2^32 + bl))
    u = np.uint64
    xu, yu = x.astype(u), y.astype(u)
    lo_mask, s = u(0xFFFFFFFF), u(32)
    xl, xh, yl, yh = xu & lo_mask, xu >> s, yu & lo_mask, yu >> s
    ll, lh, hl, hh = xl * yl, xl * yh, xh * yl, xh * yh
    mid = (ll >> s) + (lh & lo_mask) + (hl & lo_mask)
    high = hh + (lh >> s) + (hl >> s) + (mid >> s)
    if np.issubdtype(x.dtype, np.signedinteger):  # signed: subtract the sign corrections
        high = high - fnp.where(x < 0, yu, u(0)) - fnp.where(y < 0, xu, u(0))
    return high.astype(x.dtype)


def broadcast_like(arr: ArrayLike, like_arr: ArrayLike) -> Array:
    """``arr`` broadcast to the shape of ``like_arr``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> lax.broadcast_like(fnp.float32(1), fnp.zeros((2, 3))).shape
        (2, 3)
    """
    return fnp.broadcast_to(arr, fnp.shape(like_arr))


def conv_general_permutations(dimension_numbers: Any) -> tuple[tuple[int, ...], ...]:
    """The axis permutations that bring (lhs, rhs, out) from their ``dimension_numbers``
    layouts to NCHW/OIHW/NCHW order.

    Example::

        >>> from fgrad import lax
        >>> lax.conv_general_permutations(("NHWC", "HWIO", "NHWC"))
        ((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2))
    """
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    dn = conv_dimension_numbers((0,) * len(lhs_spec), (0,) * len(rhs_spec), (lhs_spec, rhs_spec, out_spec))
    return tuple(dn.lhs_spec), tuple(dn.rhs_spec), tuple(dn.out_spec)


def conv_general_dilated_local(lhs: ArrayLike, rhs: ArrayLike, window_strides: Sequence[int],
                               padding: str | Sequence[tuple[int, int]], filter_shape: Sequence[int],
                               lhs_dilation: Sequence[int] | None = None,
                               rhs_dilation: Sequence[int] | None = None,
                               dimension_numbers: Any = None, precision: Any = None) -> Array:
    """Unshared convolution (a locally connected layer): a separate kernel at each output
    position.  ``rhs``'s spatial axes are the output positions; its ``I`` axis holds the input
    channels times the receptive window, in the order ``"C"`` then ``rhs_spec``'s spatial axes.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> x = fnp.arange(4.0).reshape(1, 1, 4)
        >>> w = fnp.ones((1, 2, 3))  # (O, I = C * window, W_out)
        >>> lax.conv_general_dilated_local(x, w, (1,), "VALID", (2,), dimension_numbers=("NCH", "OIH", "NCH"))
        Array([[[1., 3., 5.]]], dtype=float64)
    """
    lhs, rhs = fnp.asarray(lhs), fnp.asarray(rhs)
    n = lhs.ndim - 2
    dn = conv_dimension_numbers(lhs.shape, rhs.shape, dimension_numbers)
    lhs_perm, rhs_perm, out_perm = dn.lhs_spec, dn.rhs_spec, dn.out_spec
    x = S.transpose(lhs, lhs_perm)  # N C spatial (in the lhs spec's spatial order)
    # patches: (N, C * prod(window), out spatial...) with features C-major, window in x's order
    patches = conv_general_dilated_patches(
        x, tuple(filter_shape), window_strides, padding, lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation, precision=precision)
    w = S.transpose(rhs, rhs_perm)  # O I out-spatial...
    spatial = "".join(chr(ord("a") + i) for i in range(n))
    out = fnp.einsum(f"ni{spatial},oi{spatial}->no{spatial}", patches, w, precision=precision)
    inverse = tuple(int(i) for i in np.argsort(out_perm))
    return S.transpose(out, inverse)


def ragged_dot_general(lhs: ArrayLike, rhs: ArrayLike, group_sizes: ArrayLike,
                       ragged_dot_dimension_numbers: RaggedDotDimensionNumbers, precision: Any = None,
                       preferred_element_type: DTypeLike | None = None, group_offset: ArrayLike | None = None,
                       out_sharding: Any = None) -> Array:
    """Ragged dot with explicit dimension numbers; the layout of `ragged_dot`
    (``lhs`` ``(m, k)`` ragged in rows, ``rhs`` ``(g, k, n)`` grouped on axis 0) is supported.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> dn = lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0])
        >>> lax.ragged_dot_general(fnp.ones((3, 2)), fnp.ones((2, 2, 1)), fnp.asarray([1, 2]), dn).shape
        (3, 1)
    """
    dims = ragged_dot_dimension_numbers
    (lc, rc), (lb, rb) = dims.dot_dimension_numbers
    lhs, rhs = fnp.asarray(lhs), fnp.asarray(rhs)
    standard = (lhs.ndim == 2 and rhs.ndim == 3 and list(lc) == [1] and list(rc) == [1] and not list(lb)
                and not list(rb) and list(dims.lhs_ragged_dimensions) == [0]
                and list(dims.rhs_group_dimensions) == [0])
    if not standard:
        raise NotImplementedError(
            f"ragged_dot_general: only ragged_dot's layout (lhs (m, k) ragged on axis 0, rhs (g, k, n) "
            f"grouped on axis 0, contracting k) is supported, got {dims} for shapes {lhs.shape}, {rhs.shape}")
    return ragged_dot(lhs, rhs, group_sizes, precision=precision,
                      preferred_element_type=preferred_element_type, group_offset=group_offset)


class _Token:
    """An ordering token (``lax.create_token``); fgrad runs effects in program order, so
    tokens carry no data.

    Example::

        >>> from fgrad import lax
        >>> lax.create_token()
        Token()
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "Token()"


def create_token(_: Any = None) -> _Token:
    """A new ordering token.

    Example::

        >>> from fgrad import lax
        >>> lax.create_token()
        Token()
    """
    return _Token()


def after_all(*operands: Any) -> _Token:
    """A token ordered after all ``operands`` (tokens).

    Example::

        >>> from fgrad import lax
        >>> lax.after_all(lax.create_token(), lax.create_token())
        Token()
    """
    for o in operands:
        if not isinstance(o, _Token):
            raise TypeError(f"after_all: operands must be tokens, got {type(o).__name__}")
    return _Token()


_RNG_STATE = np.random.default_rng(0)


def rng_uniform(a: ArrayLike, b: ArrayLike, shape: Sequence[int]) -> Array:
    """Uniform draws in ``[a, b)`` from a process-wide stateful generator (``lax.rng_uniform``,
    which JAX discourages: use `fgrad.random` for reproducible streams).

    Example::

        >>> from fgrad import lax
        >>> lax.rng_uniform(0.0, 1.0, (2,)).shape
        (2,)
    """
    a_, b_ = fnp.asarray(a), fnp.asarray(b)
    dtype = fnp.result_type(a_, b_)
    draws = _RNG_STATE.random(tuple(int(s) for s in shape))
    return (a_ + (b_ - a_) * fnp.asarray(draws, dtype)).astype(dtype)


def stage(x: ArrayLike, /) -> Array:
    """``x`` as an array of the current trace (under ``jit``, a staged value).

    Example::

        >>> from fgrad import lax
        >>> lax.stage(2.0)
        Array(2., dtype=float64, weak_type=True)
    """
    return fnp.asarray(x)


def dce_sink(val: Any, *, prevent_mlir_dce: bool = False) -> None:
    """Keep ``val`` alive against dead-code elimination (a no-op outside XLA; returns None).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> lax.dce_sink(fnp.ones(2)) is None
        True
    """
    return None


def shape_as_value(shape: Sequence[int]) -> np.ndarray:
    """A shape as an integer array.

    Example::

        >>> from fgrad import lax
        >>> lax.shape_as_value((2, 3))
        array([2, 3], dtype=int32)
    """
    return np.asarray(tuple(int(d) for d in shape), dtype=np.int32)


__all__ = ["AccuracyMode", "ConvGeneralDilatedDimensionNumbers", "DotAlgorithm", "DotAlgorithmPreset",
           "DotDimensionNumbers", "FftType", "PrecisionLike", "RaggedDotDimensionNumbers",
           "Tolerance", "after_all", "broadcast_like", "conv_general_dilated_local",
           "conv_general_permutations", "create_token", "dce_sink", "mulhi", "ragged_dot_general",
           "rng_uniform", "shape_as_value", "stage"]
