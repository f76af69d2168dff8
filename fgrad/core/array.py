"""`fgrad.Array`: an immutable n-dimensional array, and the `Tracer` base class.

`Array` is the abstract type users see (``isinstance(x, fgrad.Array)`` holds for concrete
arrays and for tracers alike, so jaxtyping annotations such as
``Float[fgrad.Array, "n d"]`` work inside transforms too).  `ArrayImpl` holds a backend
buffer (a numpy or cupy ndarray) that fgrad never writes to; `Tracer` subclasses stand for
values inside a transform.  Operators and methods forward to `fgrad.numpy`, so they work
the same on both.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .narrow_floats import dtype_kind
from .shape_poly import DimExpr

from ..backends import SingleDeviceSharding, backend_of_buffer, parse_device, put_buffer, to_host
from ..backends import dlpack as _dlpack
from ..backends import transfer_guard as _transfer_guard
from .trace import ConcretizationError, UnexpectedTracerError, caller_site, concretization_error_type
from . import x64_mode

# `fgrad.numpy`, installed by that package when it is imported (avoids an import cycle).
N: Any = None


def _set_numpy_api(module) -> None:
    global N
    N = module


class ShapedArray:
    """Abstract value: shape and dtype.  ``weak_type`` marks Python scalars, which take
    the dtype of the array they meet (NumPy 2 / NEP 50 rules).

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> fgrad.ShapedArray((2, 3), jnp.float32)
        ShapedArray(float32[2,3])
    """

    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape, dtype, weak_type: bool = False) -> None:
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.weak_type = weak_type

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, ShapedArray)
            and self.shape == other.shape
            and self.dtype == other.dtype
            and self.weak_type == other.weak_type
        )

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type))

    def str_short(self) -> str:
        return f"{self.dtype.name}[{','.join(map(str, self.shape))}]"

    __str__ = str_short

    def __repr__(self) -> str:  # JAX's: ShapedArray(float32[2,3]) (str gives float32[2,3])
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.str_short()}{weak})"


def aval_text(aval: ShapedArray, short_dtypes: bool = False) -> str:
    """An abstract value as JAX's tracer reprs print it: ``float32[2,3]``, ``~`` marking a weak
    type (``~float32[]``); with ``short_dtypes`` JAX's short names and no ``~`` (``f32[2,3]``,
    ``i32[]``, ``bf16[4]``).

    Example::

        >>> import numpy as np
        >>> aval_text(make_aval((2, 3), np.float32, True)), aval_text(make_aval((), np.int32), True)
        ('~float32[2,3]', 'i32[]')
    """
    dims = ",".join(map(str, aval.shape))
    if aval.dtype == FLOAT0:
        return f"float0[{dims}]"
    if short_dtypes:
        name = np.dtype(aval.dtype).name
        for long, short in (("bfloat", "bf"), ("complex", "c"), ("float", "f"), ("uint", "u"), ("int", "i")):
            if name.startswith(long):
                name = short + name[len(long):]
                break
        return f"{name}[{dims}]"
    return f"{'~' if aval.weak_type else ''}{np.dtype(aval.dtype).name}[{dims}]"


class ShapeDtypeStruct:
    """A shape and dtype standing in for an array (JAX's ``jax.ShapeDtypeStruct``): what
    `fgrad.eval_shape` returns, and an argument `fgrad.eval_shape`/`fgrad.make_jaxpr`
    accept without data.

    Example::

        >>> import numpy as np
        >>> s = ShapeDtypeStruct((2, 3), np.float32)
        >>> s, s.ndim, s.size
        (ShapeDtypeStruct(shape=(2, 3), dtype=float32), 2, 6)
    """

    __slots__ = ("shape", "dtype", "sharding", "weak_type")

    def __init__(self, shape, dtype, *, sharding=None, weak_type: bool = False) -> None:
        # a symbolic dimension (`fgrad.export.symbolic_shape`) stays symbolic
        self.shape = tuple(d if isinstance(d, DimExpr) else int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.sharding = sharding
        self.weak_type = bool(weak_type)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __eq__(self, other) -> bool:
        return (isinstance(other, ShapeDtypeStruct) and self.shape == other.shape
                and self.dtype == other.dtype and self.weak_type == other.weak_type)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type))

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{weak})"


_PY_SCALAR_DTYPE = {
    bool: np.dtype(bool),
    int: np.dtype(np.int64),
    float: np.dtype(np.float64),
    complex: np.dtype(np.complex128),
}


def make_aval(shape: tuple, dtype: np.dtype, weak_type: bool = False) -> ShapedArray:
    """Fast `ShapedArray` constructor for an already-normalized tuple and np.dtype."""
    a = object.__new__(ShapedArray)
    a.shape, a.dtype, a.weak_type = shape, dtype, weak_type
    return a


# Python int/float/complex are weakly typed; bool is not (as in JAX)
_PY_SCALAR_AVAL = {t: make_aval((), d, t is not bool) for t, d in _PY_SCALAR_DTYPE.items()}


def _on_x64_change(enabled: bool) -> None:
    """Python scalars' abstract values follow the 64-bit switch (a float is a weak float32
    while 64-bit types are off, as in JAX)."""
    for t, d in _PY_SCALAR_DTYPE.items():
        _PY_SCALAR_AVAL[t] = make_aval((), x64_mode.canonical_dtype(d), t is not bool)


x64_mode.on_change(_on_x64_change)


SUPPORTED_DTYPE_KINDS = "biufc"  # bool, signed/unsigned integer, floating, complex

# JAX's dtype of the (always zero) tangents and cotangents of integer and boolean values:
# accepted where JAX takes them (jvp tangents, custom_vjp cotangents) and read as zeros
FLOAT0 = np.dtype([("float0", np.void, 0)])


def is_float0(x) -> bool:
    """Whether ``x`` is an array of JAX's ``float0`` dtype (a zero (co)tangent of an integer)."""
    return getattr(x, "dtype", None) == FLOAT0


def check_array_dtype(dtype, what: str) -> np.dtype:
    """``dtype`` as an ``np.dtype`` if fgrad arrays can hold it, else a ``TypeError`` (like
    JAX's) naming ``what`` was being converted: strings, bytes, objects, datetimes and
    structured dtypes are not numbers.

    Example::

        >>> check_array_dtype(np.float32, "asarray")
        dtype('float32')
    """
    dt = np.dtype(dtype)
    if dtype_kind(dt) not in SUPPORTED_DTYPE_KINDS:
        raise TypeError(
            f"{what}: fgrad only supports number and bool dtypes, got dtype {dt.str} "
            f"({dt.name}). Convert the data to numbers first (e.g. `np.asarray(x, dtype=float)`), "
            "or pass non-numeric values as static arguments / closure constants."
        )
    return dt


def get_aval(x) -> ShapedArray:
    """The abstract value of anything fgrad accepts as an array argument (numbers and
    bools; other dtypes raise a ``TypeError``)."""
    t = type(x)
    if t is ArrayImpl:
        b = x._buf
        return make_aval(b.shape, b.dtype, x._weak)
    if isinstance(x, Tracer):
        return x.aval
    av = _PY_SCALAR_AVAL.get(t)
    if av is not None:
        return av
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        dt = check_array_dtype(x.dtype, f"{type(x).__name__} argument")
        return ShapedArray(x.shape, x64_mode.canonical_dtype(dt), getattr(x, "weak_type", False) is True)
    try:
        x = np.asarray(x)
    except ValueError as e:  # ragged nested sequences
        raise TypeError(f"{type(x).__name__} argument is not an array: {e}") from None
    if dtype_kind(x.dtype) not in SUPPORTED_DTYPE_KINDS:
        shown = repr(x.item()) if x.ndim == 0 else f"an array of dtype {x.dtype.str}"
        raise TypeError(
            f"value {shown[:80]} of type {type(x.item() if x.ndim == 0 else x).__name__} is not "
            f"a valid fgrad array type: fgrad only supports number and bool dtypes, got dtype "
            f"{x.dtype.str}. Convert it to numbers, or pass it as a static argument / closure "
            "constant."
        )
    return ShapedArray(x.shape, x64_mode.canonical_dtype(x.dtype))


def is_python_scalar(x) -> bool:
    return type(x) in _PY_SCALAR_DTYPE


_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")


_COMPARABLE = (int, float, complex, np.generic, np.ndarray)


def _comparable(o, symbol: str) -> bool:
    """Whether ``x == o`` / ``x != o`` compares elementwise, as JAX's operators decide: arrays,
    scalars and ``__jax_array__`` objects do; a list, tuple, dict or set raises TypeError; any
    other object (None, a string, a type) is not comparable (the operator returns
    NotImplemented and Python compares identities: ``x == None`` is False)."""
    if isinstance(o, (Array, _COMPARABLE)) or hasattr(o, "__jax_array__"):
        return True
    if type(o) in (dict, list, set, tuple):
        raise TypeError(f"unsupported operand type(s) for {symbol}: 'ArrayImpl' and {type(o).__name__!r}")
    return False


class Array:
    """An immutable array.  Create one with `fgrad.numpy.asarray` (or any fgrad op).

    Example::

        >>> import fgrad.numpy as fnp
        >>> x = fnp.arange(3.0)
        >>> (x * 2 + 1).sum()
        Array(9., dtype=float64)
    """

    __slots__ = ()
    __array_priority__ = 1000
    # no __array_ufunc__: numpy functions compute on np.asarray(x) (as with jax.Array), while
    # the high __array_priority__ makes ndarray operators defer to our reflected ones

    # -- shape information (subclasses provide `aval` or faster properties) ----------
    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return int(np.dtype(self.dtype).itemsize)

    @property
    def nbytes(self) -> int:
        """Bytes of the elements (``size * itemsize``), as ``jax.Array.nbytes``."""
        return self.size * self.itemsize

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d fgrad.Array")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d fgrad.Array")
        return (self[i] for i in range(self.shape[0]))

    # -- immutability -----------------------------------------------------------------
    def __setitem__(self, idx, value):
        raise TypeError(
            "fgrad.Array is immutable: `x[idx] = v` is not supported. "
            "Use the functional form `x = x.at[idx].set(v)` (also .add, .multiply, .min, .max)."
        )

    @property
    def at(self):
        return _IndexUpdateHelper(self)

    # -- arithmetic -------------------------------------------------------------------
    def __add__(self, o): return N.add(self, o)
    def __radd__(self, o): return N.add(o, self)
    def __sub__(self, o): return N.subtract(self, o)
    def __rsub__(self, o): return N.subtract(o, self)
    def __mul__(self, o): return N.multiply(self, o)
    def __rmul__(self, o): return N.multiply(o, self)
    def __truediv__(self, o): return N.true_divide(self, o)
    def __rtruediv__(self, o): return N.true_divide(o, self)
    def __floordiv__(self, o): return N.floor_divide(self, o)
    def __rfloordiv__(self, o): return N.floor_divide(o, self)
    def __mod__(self, o): return N.mod(self, o)
    def __rmod__(self, o): return N.mod(o, self)
    def __divmod__(self, o): return N.floor_divide(self, o), N.mod(self, o)
    def __pow__(self, o): return N.power(self, o)
    def __rpow__(self, o): return N.power(o, self)
    def __matmul__(self, o): return N.matmul(self, o)
    def __rmatmul__(self, o): return N.matmul(o, self)
    def __neg__(self): return N.negative(self)
    def __pos__(self): return self
    def __abs__(self): return N.abs(self)

    def __round__(self, ndigits=None):
        """``round(x)`` (an integer array, as Python's round of a float) or ``round(x, n)``
        (``fnp.round(x, n)``), as JAX's arrays."""
        out = N.round(self, ndigits or 0)
        return out.astype(int) if ndigits is None else out
    def __invert__(self): return N.invert(self)
    def __and__(self, o): return N.bitwise_and(self, o)
    def __rand__(self, o): return N.bitwise_and(o, self)
    def __or__(self, o): return N.bitwise_or(self, o)
    def __ror__(self, o): return N.bitwise_or(o, self)
    def __xor__(self, o): return N.bitwise_xor(self, o)
    def __lshift__(self, o): return N.bitwise_left_shift(self, o)
    def __rlshift__(self, o): return N.bitwise_left_shift(o, self)
    def __rshift__(self, o): return N.bitwise_right_shift(self, o)
    def __rrshift__(self, o): return N.bitwise_right_shift(o, self)
    def __rxor__(self, o): return N.bitwise_xor(o, self)
    def __eq__(self, o):  # type: ignore[override]
        return N.equal(self, o) if _comparable(o, "==") else NotImplemented
    def __ne__(self, o):  # type: ignore[override]
        return N.not_equal(self, o) if _comparable(o, "!=") else NotImplemented
    def __lt__(self, o): return N.less(self, o)
    def __le__(self, o): return N.less_equal(self, o)
    def __gt__(self, o): return N.greater(self, o)
    def __ge__(self, o): return N.greater_equal(self, o)
    __hash__ = None  # type: ignore[assignment]

    def __getitem__(self, idx): return N._getitem(self, idx)

    # -- methods (NumPy names) ----------------------------------------------------------
    def sum(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        return N.sum(self, axis, dtype=dtype, out=_no_out(out), keepdims=keepdims, **kw)
    def mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
        return N.mean(self, axis, dtype=dtype, out=_no_out(out), keepdims=keepdims, where=where)
    def prod(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        return N.prod(self, axis, dtype=dtype, out=_no_out(out), keepdims=keepdims, **kw)
    def max(self, axis=None, out=None, keepdims=False, **kw):
        return N.max(self, axis, out=_no_out(out), keepdims=keepdims, **kw)
    def min(self, axis=None, out=None, keepdims=False, **kw):
        return N.min(self, axis, out=_no_out(out), keepdims=keepdims, **kw)
    def argmax(self, axis=None, out=None, keepdims=False):
        return N.argmax(self, axis, out=_no_out(out), keepdims=keepdims)
    def argmin(self, axis=None, out=None, keepdims=False):
        return N.argmin(self, axis, out=_no_out(out), keepdims=keepdims)
    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, correction=None):
        return N.var(self, axis, dtype=dtype, out=_no_out(out), ddof=ddof, keepdims=keepdims,
                     where=where, correction=correction)
    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, correction=None):
        return N.std(self, axis, dtype=dtype, out=_no_out(out), ddof=ddof, keepdims=keepdims,
                     where=where, correction=correction)
    def all(self, axis=None, out=None, keepdims=False, *, where=None):
        _no_out(out)
        return N.all(self, axis, keepdims=keepdims, where=where)
    def any(self, axis=None, out=None, keepdims=False, *, where=None):
        _no_out(out)
        return N.any(self, axis, keepdims=keepdims, where=where)
    def cumsum(self, axis=None, dtype=None, out=None): _no_out(out); return N.cumsum(self, axis, dtype=dtype)
    def cumprod(self, axis=None, dtype=None, out=None):
        _no_out(out)
        return N.cumprod(self, axis, dtype=dtype)
    def clip(self, min=None, max=None): return N.clip(self, min, max)
    def round(self, decimals=0, out=None): _no_out(out); return N.round(self, decimals)
    def dot(self, b, *, precision=None, preferred_element_type=None):
        return N.dot(self, b, precision=precision, preferred_element_type=preferred_element_type)
    def conj(self): return N.conjugate(self)
    def conjugate(self): return N.conjugate(self)
    def sort(self, axis=-1, *, kind=None, order=None, stable=True, descending=False):
        return N.sort(self, axis, kind=kind, order=order, stable=stable, descending=descending)
    def argsort(self, axis=-1, *, kind=None, order=None, stable=True, descending=False):
        return N.argsort(self, axis, kind=kind, order=order, stable=stable, descending=descending)
    def argpartition(self, kth, axis=-1): return N.argpartition(self, kth, axis)
    def searchsorted(self, v, side="left", sorter=None, *, method="scan"):
        return N.searchsorted(self, v, side=side, sorter=sorter, method=method)
    def nonzero(self, *, fill_value=None, size=None): return N.nonzero(self, size=size, fill_value=fill_value)
    def ptp(self, axis=None, out=None, keepdims=False):
        _no_out(out)
        return N.ptp(self, axis, keepdims=keepdims)
    def compress(self, condition, axis=None, *, out=None, size=None, fill_value=0):
        return N.compress(condition, self, axis, out=_no_out(out), size=size, fill_value=fill_value)
    def choose(self, choices, out=None, mode="raise"):
        return N.choose(self, choices, out=_no_out(out), mode=mode)
    def squeeze(self, axis=None): return N.squeeze(self, axis)
    def ravel(self, order="C", *, out_sharding=None): return N.ravel(self, order)
    def flatten(self, order="C", *, out_sharding=None): return N.ravel(self, order)
    def swapaxes(self, axis1, axis2): return N.swapaxes(self, axis1, axis2)
    def diagonal(self, offset=0, axis1=0, axis2=1): return N.diagonal(self, offset, axis1, axis2)
    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return N.trace(self, offset, axis1, axis2, dtype=dtype, out=_no_out(out))
    def take(self, indices, axis=None, out=None, mode=None, unique_indices=False, indices_are_sorted=False,
             fill_value=None):
        return N.take(self, indices, axis=axis, out=_no_out(out), mode=mode, unique_indices=unique_indices,
                      indices_are_sorted=indices_are_sorted, fill_value=fill_value)
    def repeat(self, repeats, axis=None, *, total_repeat_length=None, out_sharding=None):
        return N.repeat(self, repeats, axis=axis, total_repeat_length=total_repeat_length)
    def astype(self, dtype, copy=True, device=None): return N.astype(self, dtype, copy=copy, device=device)
    def view(self, dtype=None, type=None):
        """The array's bits as ``dtype`` (the last axis scales by the item sizes' ratio)."""
        return N._view(self, dtype, type)
    def byteswap(self):
        """The array with each element's bytes reversed (little- <-> big-endian)."""
        return N._byteswap(self)

    def to_device(self, device, /, *, stream=None): return N.to_device(self, device, stream=stream)

    def __array_namespace__(self, *, api_version=None):
        """`fgrad.numpy`, the array API namespace of fgrad arrays (versions 2021.12-2024.12)."""
        if api_version is not None and api_version not in _API_VERSIONS:
            raise ValueError(f"__array_namespace__: unsupported api_version {api_version!r}; "
                             f"fgrad.numpy follows {', '.join(_API_VERSIONS)}")
        return N

    def reshape(self, *shape, order="C", out_sharding=None):
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return N.reshape(self, shape, order=order, out_sharding=out_sharding)

    def transpose(self, *axes):
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = axes[0]
        return N.transpose(self, axes or None)

    @property
    def T(self): return N.transpose(self)

    @property
    def mT(self): return N.swapaxes(self, -1, -2)

    @property
    def real(self): return N.real(self)

    @property
    def imag(self): return N.imag(self)


class Shard:
    """One shard of an array (JAX's ``jax.Shard``): its ``device``, its ``index`` into the
    global array (a tuple of slices; fgrad's one shard spans every axis), its ``data`` and
    ``replica_id``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.zeros((2, 3)).addressable_shards[0].index
        (slice(None, None, None), slice(None, None, None))
    """

    def __init__(self, device: Any, index: tuple, data: Any, replica_id: int = 0) -> None:
        self.device, self.index, self.data, self.replica_id = device, index, data, replica_id

    def __repr__(self) -> str:
        return f"Shard(device={self.device!r}, index={self.index}, replica_id={self.replica_id})"


class DeletedBuffer:
    """What the buffer of a deleted array becomes (`ArrayImpl.delete`; a buffer donated to
    ``jit``): its ``shape``, ``dtype``, ``ndim`` and ``size`` stay, any other use (reading,
    printing, computing with it) raises JAX's ``RuntimeError``.

    Example::

        >>> import numpy as np
        >>> b = DeletedBuffer((4,), np.dtype(np.int32))
        >>> np.asarray(b)
        Traceback (most recent call last):
        RuntimeError: Array has been deleted with shape=int32[4].
    """

    __slots__ = ("shape", "dtype")

    def __init__(self, shape: tuple, dtype: np.dtype) -> None:
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)

    ndim, size = ShapedArray.ndim, ShapedArray.size  # (from ``shape``, as an abstract value's)

    def _gone(self, *args: Any, **kwargs: Any):
        dims = ",".join(str(d) for d in self.shape)
        raise RuntimeError(f"Array has been deleted with shape={self.dtype.name}[{dims}].")

    def __getattr__(self, name: str):
        self._gone()

    __array__ = __array_ufunc__ = __array_function__ = __getitem__ = __len__ = __iter__ = _gone
    __float__ = __int__ = __index__ = __bool__ = __complex__ = __dlpack__ = _gone

    def __repr__(self) -> str:
        return f"DeletedBuffer({self.shape}, {self.dtype.name})"


class ArrayImpl(Array):
    """A concrete array over a backend buffer that is never written.  ``_weak`` marks a
    weakly typed array (JAX's ``weak_type``: it takes the dtype of the arrays it meets).

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> x = jnp.array([1.0, 2.0])
        >>> isinstance(x, fgrad.ArrayImpl), isinstance(x, fgrad.Array)
        (True, True)
    """

    __slots__ = ("_buf", "_weak", "_sharding")

    def __init__(self, buf, weak_type: bool = False) -> None:
        self._buf = buf if x64_mode.enabled else x64_mode.narrow_buffer(buf)
        self._weak = weak_type

    @property
    def weak_type(self) -> bool:
        """Whether this array is weakly typed (as ``jax.Array.weak_type``)."""
        return self._weak

    @property
    def shape(self) -> tuple:
        return self._buf.shape

    @property
    def dtype(self) -> np.dtype:
        return self._buf.dtype

    @property
    def ndim(self) -> int:
        return self._buf.ndim

    @property
    def size(self) -> int:
        return int(self._buf.size)

    @property
    def aval(self) -> ShapedArray:
        return ShapedArray(self._buf.shape, self._buf.dtype, self._weak)

    @property
    def device(self):
        """The `fgrad.Device` this array lives on (``str(x.device)`` is ``"cpu"`` or
        ``"cuda:0"``; it compares equal to that string)."""
        b = self._buf
        return backend_of_buffer(b).device_of(b)

    def devices(self) -> set:
        """``{self.device}`` (as ``jax.Array.devices()``)."""
        return {self.device}

    @property
    def sharding(self) -> Any:
        """The sharding `device_put` (or a jit's ``out_shardings``) placed the array with (a
        `NamedSharding` over a one-device mesh), else the whole array on its device
        (``x.sharding.device == x.device``)."""
        recorded = getattr(self, "_sharding", None)
        return recorded if recorded is not None else SingleDeviceSharding(self.device)

    def with_sharding(self, sharding: Any) -> "ArrayImpl":
        """This array (the same buffer) recording ``sharding`` as its `sharding`."""
        out = wrap(self._buf, self._weak)
        out._sharding = sharding
        return out

    @property
    def is_fully_addressable(self) -> bool:
        """Always True: this process holds all of the array."""
        return True

    def addressable_data(self, index: int) -> "ArrayImpl":
        """The data of shard ``index``; an fgrad array is one shard, ``index`` 0."""
        if index not in (0, -1):
            raise IndexError(f"addressable_data: index {index} out of range: the array has one shard")
        return self

    @property
    def addressable_shards(self) -> list:
        """The shards this process holds: one `Shard`, the whole array."""
        return [Shard(self.device, (slice(None),) * self.ndim, self)]

    def copy(self) -> "ArrayImpl":
        """A new array with its own buffer: ``x.copy()``."""
        return wrap(self._buf.copy(), self._weak)

    def delete(self) -> None:
        """Free the buffer (``jax.Array.delete``): the array keeps its shape and dtype, and
        reading it raises ``RuntimeError`` (what a buffer donated to ``jit`` becomes).

        Example::

            >>> import fgrad.numpy as fnp
            >>> x = fnp.ones(2)
            >>> x.delete()
            >>> x.is_deleted(), x.shape
            (True, (2,))
        """
        if type(self._buf) is not DeletedBuffer:
            self._buf = DeletedBuffer(self._buf.shape, self._buf.dtype)

    def is_deleted(self) -> bool:
        """Whether `delete` (or a donation to ``jit``) freed the buffer.

        Example::

            >>> import fgrad.numpy as fnp
            >>> fnp.ones(2).is_deleted()
            False
        """
        return type(self._buf) is DeletedBuffer

    def copy_to_host_async(self) -> None:
        """Start copying the data to the host (``jax.Array.copy_to_host_async``): a no-op,
        fgrad copies synchronously when the host value is read.

        Example::

            >>> import fgrad.numpy as fnp
            >>> fnp.ones(2).copy_to_host_async()
        """

    def __array__(self, dtype=None, copy=None):
        buf = self._buf
        if type(buf) is not np.ndarray:
            if isinstance(buf, np.generic):
                buf = np.asarray(buf)
            else:  # a device buffer (or a host ndarray subclass): an explicit copy to the host
                if _transfer_guard.active:
                    self._read_on_host("numpy.asarray()")
                buf = to_host(buf)
                if type(buf) is not np.ndarray:
                    buf = buf.view(np.ndarray)
        if dtype is not None and np.dtype(dtype) != buf.dtype:
            return buf.astype(dtype)
        if copy:
            return buf.copy()
        view = buf.view()
        view.flags.writeable = False
        return view

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule of this array (array API 2024.12): zero-copy and flagged read-only
        for DLPack >= 1.0 consumers, a copy for legacy ones (``copy=False`` then raises
        ``BufferError``).  ``torch.from_dlpack(x)``, ``np.from_dlpack(x)`` and
        ``jax.dlpack.from_dlpack(x)`` call it.

        Example::

            >>> import numpy as np, fgrad.numpy as fnp
            >>> x = fnp.arange(3.0)
            >>> y = np.from_dlpack(x)
            >>> np.shares_memory(y, np.asarray(x)), y.flags.writeable
            (True, False)
        """
        return _dlpack.export(self._buf, stream=stream, max_version=max_version, dl_device=dl_device,
                              copy=copy)

    def __dlpack_device__(self) -> tuple:
        """``(device_type, device_id)`` in DLPack's numbering: ``(1, 0)`` on the CPU, ``(2, i)``
        on ``cuda:i``."""
        return _dlpack.device_of(self._buf)

    def _read_on_host(self, what: str) -> None:
        """The device-to-host transfer guard (`fgrad.transfer_guard`) for reading a device
        buffer with ``what``; host buffers are already there."""
        buf = self._buf
        if type(buf) is not np.ndarray and not isinstance(buf, np.generic):
            _transfer_guard.check("device_to_host", f"{what} of {self.aval.str_short()} on "
                                                    f"{backend_of_buffer(buf).device_of(buf)}")

    def __bool__(self) -> bool:
        if _transfer_guard.active:
            self._read_on_host("bool()")
        return bool(self._buf)

    def __int__(self) -> int:
        if _transfer_guard.active:
            self._read_on_host("int()")
        return int(self._buf)

    def __float__(self) -> float:
        if _transfer_guard.active:
            self._read_on_host("float()")
        return float(self._buf)

    def __complex__(self) -> complex:
        if _transfer_guard.active:
            self._read_on_host("complex()")
        return complex(self._buf)

    def __index__(self) -> int:
        if self._buf.ndim != 0 or dtype_kind(self._buf.dtype) not in "iub":
            raise TypeError(f"only integer scalar arrays can be converted to an index, got {self.aval}")
        if _transfer_guard.active:
            self._read_on_host("an index")
        return int(self._buf)

    def item(self, *args):
        if _transfer_guard.active:
            self._read_on_host(".item()")
        return self._buf.item(*args)

    def tolist(self):
        if _transfer_guard.active:
            self._read_on_host(".tolist()")
        return self._buf.tolist()

    def block_until_ready(self):
        return self

    def __format__(self, spec):
        if self._buf.ndim == 0:
            return format(self._buf.item(), spec)
        return format(str(self), spec)

    def __repr__(self) -> str:
        if _transfer_guard.active:  # printing is not a guarded transfer
            with _transfer_guard.printing():
                return self._repr()
        return self._repr()

    def _repr(self) -> str:
        # JAX's layout: the body wraps as if followed by ",", and when the dtype does not fit
        # on the last line it follows len("Array(") spaces (not a new line)
        buf = np.asarray(self)
        prefix = "Array("
        dtype = f"dtype={buf.dtype.name}" + (", weak_type=True" if self._weak else "")
        if buf.size == 0:
            body = f"[], shape={buf.shape}"  # JAX's: Array([], shape=(0, 3), ...)
        else:
            body = np.array2string(buf, separator=", ", prefix=prefix, suffix=",")
        last_line = len(body) - body.rfind("\n") + 1
        sep = " " * len(prefix) if last_line + len(dtype) + 2 > np.get_printoptions()["linewidth"] else " "
        return f"{prefix}{body},{sep}{dtype}{self._device_suffix()})"

    def _device_suffix(self) -> str:
        t = type(self._buf)
        if t is np.ndarray or issubclass(t, np.generic):
            return ""
        d = self.device
        return "" if d.platform == "cpu" else f", device={d}"

    def __str__(self) -> str:
        if _transfer_guard.active:  # printing is not a guarded transfer
            with _transfer_guard.printing():
                return str(np.asarray(self))
        return str(np.asarray(self))

    def __reduce__(self):
        suffix = self._device_suffix()
        if not suffix:
            return (_rebuild, (np.asarray(self).copy(), None, self._weak))
        return (_rebuild, (np.asarray(self).copy(), str(self.device), self._weak))


def _rebuild(buf, device=None, weak_type=False):
    if device is None:
        return ArrayImpl(buf, weak_type)
    return ArrayImpl(put_buffer(buf, parse_device(device)), weak_type)


def wrap(buf, weak_type: bool = False) -> ArrayImpl:
    """Wrap a backend buffer (no copy); ``weak_type`` marks it weakly typed."""
    a = object.__new__(ArrayImpl)
    a._buf = buf if x64_mode.enabled else x64_mode.narrow_buffer(buf)
    a._weak = weak_type
    return a


class Tracer(Array):
    """A value inside a transform.  Subclasses set ``_trace`` and provide ``aval``.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> def f(x):
        ...     print(isinstance(x, fgrad.Tracer))
        ...     return x
        ...
        >>> _ = fgrad.jit(f)(jnp.array(1.0))
        True
    """

    __slots__ = ("_trace",)
    staged = False  # a value of a program being staged (jit, make_jaxpr): StagingTracer

    @property
    def aval(self) -> ShapedArray:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def shape(self) -> tuple:
        return self.aval.shape

    @property
    def dtype(self) -> np.dtype:
        return self.aval.dtype

    @property
    def weak_type(self) -> bool:
        """Whether the traced value is weakly typed (as ``jax.Array.weak_type``)."""
        return self.aval.weak_type

    def _concrete(self, what: str):
        return self._trace.concretize(self, what)

    def __bool__(self) -> bool:
        return bool(self._concrete("bool()"))

    def __int__(self) -> int:
        return int(self._concrete("int()"))

    def __float__(self) -> float:
        return float(self._concrete("float()"))

    def __complex__(self) -> complex:
        return complex(self._concrete("complex()"))

    def __index__(self) -> int:
        return self._concrete("an index").__index__()

    def item(self, *args):
        return self._concrete(".item()").item(*args)

    def tolist(self):
        return self._concrete(".tolist()").tolist()

    def __array__(self, dtype=None, copy=None):
        return self._concrete("numpy.asarray()").__array__(dtype, copy)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return self._concrete("a DLPack export (__dlpack__)").__dlpack__(
            stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)

    def __dlpack_device__(self) -> tuple:
        return self._concrete("a DLPack export (__dlpack__)").__dlpack_device__()

    def copy(self):
        """``x.copy()``: values are immutable, so a traced copy is the value itself."""
        return self

    def __repr__(self) -> str:
        return f"Traced<{self.aval.str_short()}>with<{type(self._trace).__name__}>"

    @staticmethod
    def _part_text(x: Any) -> str:
        """A value inside a tracer's repr, as JAX prints it: a tracer's repr, else ``str``."""
        return repr(x) if isinstance(x, Tracer) else str(x)

    __str__ = __repr__


def concretization_error(tracer: Tracer, what: str, extra: str = "") -> ConcretizationError:
    return concretization_error_type(what)(
        f"Abstract tracer value {tracer.aval.str_short()} encountered where a concrete value is "
        f"needed ({what}) at {caller_site()}.\n"
        f"The value is traced by {tracer._trace.origin}: its value is not known while "
        f"tracing.{extra}"
    )


def escaped_tracer_error(tracer: Tracer, prim_name: str) -> UnexpectedTracerError:
    return UnexpectedTracerError(
        f"`{prim_name}` received a tracer ({tracer.aval.str_short()}) that escaped its "
        f"transform: it was created by {tracer._trace.origin} and used after that transform "
        "returned (e.g. stored in a global or closure). Return values from the transformed "
        "function instead of leaking them."
    )


def _no_out(out):
    if out is not None:
        raise TypeError(
            "fgrad.Array is immutable: the out= argument is not supported; use the returned "
            "array instead"
        )


class _IndexUpdateHelper:
    """``x.at[idx]`` — functional indexed updates, as in JAX."""

    __slots__ = ("array",)

    def __init__(self, array) -> None:
        self.array = array

    def __getitem__(self, idx):
        return _IndexUpdateRef(self.array, idx)


class _IndexUpdateRef:
    """``x.at[idx]``: JAX's methods.  Every update takes ``mode`` (out-of-bounds indices:
    None/``"drop"``/``"fill"``/``"promise_in_bounds"`` skip the update, ``"clip"`` clamps),
    ``indices_are_sorted`` and ``unique_indices`` (hints; ``unique_indices=True`` is a
    promise that lets ``apply``/``power`` skip handling repeated indices).  Repeated indices
    accumulate: ``add``/``multiply``/``divide``/``power``/``apply`` apply once per update."""

    __slots__ = ("array", "idx")

    def __init__(self, array, idx) -> None:
        self.array, self.idx = array, idx

    def _index(self, wrap_negative_indices):
        """The index; without wrapping, negative entries are out of bounds (JAX's
        ``wrap_negative_indices=False``: dropped by ``mode="drop"``, clamped to 0 by "clip")."""
        return self.idx if wrap_negative_indices else N._no_wrap_index(self.array, self.idx)

    def _update(self, values, op, mode, wrap_negative_indices=True):
        return N._scatter(self.array, self._index(wrap_negative_indices), values, op,
                          N._at_mode(mode, N._SET_MODES, "scatter"))

    def get(self, *, indices_are_sorted=False, unique_indices=False, mode=None, fill_value=None,
            wrap_negative_indices=True):
        """The indexed values; out of bounds: clamped (default), or ``fill_value`` with
        ``mode="fill"`` (NaN for inexact dtypes)."""
        return N._at_get(self.array, self._index(wrap_negative_indices), mode, fill_value)

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
            wrap_negative_indices=True):
        return self._update(values, "set", mode, wrap_negative_indices)

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
            wrap_negative_indices=True):
        return self._update(values, "add", mode, wrap_negative_indices)

    def subtract(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
            wrap_negative_indices=True):
        return self._update(N.negative(values), "add", mode, wrap_negative_indices)

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
            wrap_negative_indices=True):
        return self._update(values, "mul", mode, wrap_negative_indices)

    mul = multiply

    def divide(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
            wrap_negative_indices=True):
        # JAX's formula: x divided by ones scatter-multiplied by the values (an integer x gives
        # a float quotient; a repeated index divides once per update)
        ones = N._scatter(N.ones_like(self.array), self._index(wrap_negative_indices), values, "mul",
                          N._at_mode(mode, N._SET_MODES, "scatter"))
        return N.true_divide(self.array, ones)

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
            wrap_negative_indices=True):
        return self._update(values, "min", mode, wrap_negative_indices)

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
            wrap_negative_indices=True):
        return self._update(values, "max", mode, wrap_negative_indices)

    def power(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
            wrap_negative_indices=True):
        return N._at_power(self.array, self._index(wrap_negative_indices), values, mode, unique_indices)

    def apply(self, func, *, indices_are_sorted=False, unique_indices=False, mode=None,
            wrap_negative_indices=True):
        """``func`` (elementwise) applied to the indexed elements, once per index."""
        return N._at_apply(self.array, self._index(wrap_negative_indices), func, mode,
                           unique_indices)
