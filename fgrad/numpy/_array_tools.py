"""NumPy's array utilities that are not ops on their own: construction from functions and
buffers (`fromfunction`, `frombuffer`, `fromstring`, `geomspace`, `block`, `resize`),
in-place NumPy functions in their functional form (`place`, `put`: ``inplace=False``, as
JAX), index tricks (`r_`, `c_`, `s_`, `index_exp`, `mgrid`, `ogrid`, `mask_indices`),
queries (`array_equiv`, `isrealobj`, `isscalar`, `iterable`), printing (`array_repr`,
`array_str`, the print options), `einsum_path`, `rollaxis`, `copy` and the `.npy` files
(`save`, `savez`, `load`).

>>> import fgrad.numpy as fnp
>>> fnp.r_[0:3, 7]
Array([0, 1, 2, 7], dtype=int64)
"""

from __future__ import annotations

from typing import Any

from ..typing import ArrayLike, DTypeLike, Shape
from collections.abc import Sequence

from typing import Callable

import numpy as np

from ..core import narrow_floats
from ..core.inexact import to_inexact_dtype
from ..core.x64_mode import requested_dtype
from ._dtypes import result_type
from ..core.array import Array, Tracer, get_aval
from ..transforms.batching import vmap
import fgrad.numpy._building_blocks as fnp

__all__ = [
    "logspace",
    "array_equiv",
    "copy",
    "resize",
    "rollaxis",
    "place",
    "put",
    "block",
    "geomspace",
    "fromfunction",
    "frombuffer",
    "fromstring",
    "fromiter",
    "fromfile",
    "mask_indices",
    "isrealobj",
    "isscalar",
    "iterable",
    "einsum_path",
    "array_repr",
    "array_str",
    "printoptions",
    "get_printoptions",
    "set_printoptions",
    "save",
    "savez",
    "load",
    "r_",
    "c_",
    "s_",
    "index_exp",
    "mgrid",
    "ogrid",
    "double",
    "single",
    "cdouble",
    "csingle",
    "complex_",
    "uint",
    "character",
    "flexible",
    "object_",
    "ComplexWarning",
]

# NumPy's type names that JAX also exports
double, single, cdouble, csingle = np.double, np.single, np.cdouble, np.csingle
complex_, uint, character, flexible, object_ = np.complex128, np.uint, np.character, np.flexible, np.object_
ComplexWarning = np.exceptions.ComplexWarning

# printing and index helpers that only touch host values
printoptions, get_printoptions, set_printoptions = np.printoptions, np.get_printoptions, np.set_printoptions
s_, index_exp = np.s_, np.index_exp
iterable = np.iterable


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> Array:
    """``numpy.array_equiv``: whether the arrays broadcast to one shape and are equal there
    (a 0-d bool array).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.array_equiv(fnp.asarray([1, 2]), fnp.asarray([[1, 2], [1, 2]]))
        Array(True, dtype=bool)
    """
    a1, a2 = fnp.asarray(a1), fnp.asarray(a2)
    try:
        np.broadcast_shapes(get_aval(a1).shape, get_aval(a2).shape)
    except ValueError:
        return fnp.asarray(False)
    return fnp.all(fnp.equal(a1, a2))


def copy(a: ArrayLike | Sequence[Any], order: str | None = None) -> Array:
    """``numpy.copy``: an array with its own buffer.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.copy(fnp.array([1.0, 2.0]))
        Array([1., 2.], dtype=float64)
    """
    return fnp.array(a, copy=True)


def resize(a: ArrayLike, new_shape: int | Shape) -> Array:
    """``numpy.resize``: the flattened ``a`` repeated (or cut) to fill ``new_shape``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.resize(fnp.arange(3), (2, 4))
        Array([[0, 1, 2, 0],
               [1, 2, 0, 1]], dtype=int64)
    """
    shape = (int(new_shape),) if np.ndim(new_shape) == 0 else tuple(int(s) for s in new_shape)
    if any(s < 0 for s in shape):
        raise ValueError("fgrad.numpy.resize: all elements of `new_shape` must be non-negative")
    flat = fnp.ravel(fnp.asarray(a))
    size, n = int(np.prod(shape, dtype=np.int64)), get_aval(flat).shape[0]
    if n == 0 or size == 0:
        return fnp.zeros(shape, get_aval(flat).dtype)
    reps = -(-size // n)
    return fnp.reshape(fnp.concatenate([flat] * reps)[:size], shape)


def rollaxis(a: ArrayLike, axis: int, start: int = 0) -> Array:
    """``numpy.rollaxis``: move ``axis`` to before position ``start`` (prefer `moveaxis`).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.rollaxis(fnp.ones((3, 4, 5)), 2).shape
        (5, 3, 4)
    """
    a = fnp.asarray(a)
    n = get_aval(a).ndim
    if not -n <= axis < n:
        raise ValueError(f"fgrad.numpy.rollaxis: axis {axis} is out of bounds for array of dimension {n}")
    axis %= n
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise ValueError(
            f"fgrad.numpy.rollaxis: 'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in"
        )
    if axis < start:
        start -= 1
    return a if axis == start else fnp.moveaxis(a, axis, start)


def _inplace_error(name: str):
    return ValueError(
        f"fgrad.numpy.{name} cannot modify arrays in place, because fgrad arrays are immutable. "
        "Pass inplace=False to get the updated array instead."
    )


def place(arr: ArrayLike, mask: ArrayLike, vals, *, inplace: bool = True) -> Array:
    """``numpy.place`` in functional form (``inplace=False`` required, as in JAX): the
    elements of ``arr`` where ``mask`` holds replaced by ``vals`` in order, cycling.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.place(fnp.zeros(5), fnp.asarray([1, 0, 1, 1, 0]) > 0, fnp.asarray([7.0, 8.0]), inplace=False)
        Array([7., 0., 8., 7., 0.], dtype=float64)
    """
    if inplace:
        raise _inplace_error("place")
    arr = fnp.asarray(arr)
    mask = fnp.astype(fnp.asarray(mask), bool)
    vals = fnp.ravel(fnp.asarray(vals))
    if get_aval(mask).shape != get_aval(arr).shape:
        raise ValueError(
            f"fgrad.numpy.place: mask {get_aval(mask).shape} and data {get_aval(arr).shape} must "
            "have the same shape"
        )
    nv = get_aval(vals).shape[0]
    flat, m = fnp.ravel(arr), fnp.ravel(mask)
    if nv == 0:
        if get_aval(m).shape[0] and bool(fnp.any(m)):
            raise ValueError("fgrad.numpy.place: cannot place values from an empty vals array")
        return arr
    order = fnp.remainder(fnp.subtract(fnp.cumsum(fnp.astype(m, np.int64)), 1), nv)
    out = fnp.where(m, fnp.astype(fnp.take(vals, order), get_aval(arr).dtype), flat)
    return fnp.reshape(out, get_aval(arr).shape)


def put(a: ArrayLike, ind: ArrayLike, v: ArrayLike, mode: str | None = None, *,
        inplace: bool = True) -> Array:
    """``numpy.put`` in functional form (``inplace=False`` required, as in JAX): ``a`` with
    ``a.flat[ind] = v`` (``v`` cycled).  ``mode``: ``"raise"`` (default for concrete
    indices: IndexError out of bounds; traced indices out of bounds are dropped, as JAX),
    ``"wrap"`` or ``"clip"``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.put(fnp.arange(5), fnp.asarray([0, 2]), fnp.asarray([-44, -55]), inplace=False)
        Array([-44,   1, -55,   3,   4], dtype=int64)
    """
    if inplace:
        raise _inplace_error("put")
    if mode not in (None, "raise", "wrap", "clip"):
        raise ValueError(f"fgrad.numpy.put: mode must be one of 'raise', 'wrap' or 'clip', got {mode!r}")
    a = fnp.asarray(a)
    flat = fnp.ravel(a)
    n = get_aval(flat).shape[0]
    ind = fnp.ravel(fnp.astype(fnp.asarray(ind), np.int64))
    k = get_aval(ind).shape[0]
    v = fnp.ravel(fnp.asarray(v))
    if k == 0:
        return a
    if get_aval(v).shape[0] == 0:
        raise ValueError("fgrad.numpy.put: cannot put values from an empty v")
    v = fnp.astype(resize(v, (k,)), get_aval(a).dtype)
    if mode == "wrap":
        ind = fnp.remainder(ind, n)
    elif mode == "clip":
        ind = fnp.clip(ind, 0, n - 1)
    else:
        if not isinstance(ind, Tracer):
            vals = np.asarray(ind)
            bad = (vals < -n) | (vals >= n)
            if bad.any():
                raise IndexError(
                    f"fgrad.numpy.put: index {int(vals[bad][0])} is out of bounds for axis 0 with size {n}"
                )
        ind = fnp.where(fnp.less(ind, 0), fnp.add(ind, n), ind)
    return fnp.reshape(flat.at[ind].set(v, mode="drop"), get_aval(a).shape)


def _block_depth(x, path=()) -> tuple[int, int]:
    """(list depth, max ndim of the leaves); raises for ragged nesting or tuples."""
    if isinstance(x, tuple):
        raise TypeError(
            f"fgrad.numpy.block: arrays{''.join(f'[{i}]' for i in path)} is a tuple. Only lists "
            "can be used to arrange blocks, and np.block does not allow implicit conversion from "
            "tuple to ndarray."
        )
    if isinstance(x, list):
        if not x:
            raise ValueError(
                f"fgrad.numpy.block: list at arrays{''.join(f'[{i}]' for i in path)} cannot be empty"
            )
        results = [_block_depth(e, path + (i,)) for i, e in enumerate(x)]
        depths = {r[0] for r in results}
        if len(depths) != 1:
            raise ValueError(
                "fgrad.numpy.block: list depths are mismatched; every block must be nested to the same depth"
            )
        return depths.pop() + 1, max(r[1] for r in results)
    return 0, get_aval(fnp.asarray(x)).ndim


def block(arrays: ArrayLike | Sequence[Any]) -> Array:
    """``numpy.block``: assemble an array from nested lists of blocks (the innermost lists
    join along the last axis, the next along the second-to-last, ...).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.block([[fnp.ones((1, 2)), fnp.zeros((1, 1))], [fnp.full((1, 3), 2.0)]])
        Array([[1., 1., 0.],
               [2., 2., 2.]], dtype=float64)
    """
    depth, max_nd = _block_depth(arrays)
    nd = max(depth, max_nd)

    def build(x, level):
        if isinstance(x, list):
            return fnp.concatenate([build(e, level + 1) for e in x], axis=-(depth - level))
        x = fnp.asarray(x)
        k = get_aval(x).ndim
        return fnp.reshape(x, (1,) * (nd - k) + get_aval(x).shape) if k < nd else x

    return build(arrays, 0) if depth else fnp.array(arrays, copy=True)


def logspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, base: ArrayLike = 10.0,
             dtype: DTypeLike | None = None, axis: int = 0) -> Array:
    """``base ** linspace(start, stop, num)``, as JAX computes it (the power of the
    `linspace` values in the endpoints' inexact dtype, then cast to ``dtype``).

    >>> import fgrad.numpy as fnp
    >>> fnp.logspace(0.0, 2.0, 3)
    Array([  1.,  10., 100.], dtype=float64)
    """
    if dtype is None:
        ends = [e if hasattr(e, "dtype") or isinstance(e, (int, float, complex)) else np.asarray(e)
                for e in (start, stop)]
        dtype = np.dtype(to_inexact_dtype(result_type(*ends)))
    else:
        dtype = requested_dtype(dtype, "logspace")
    work = np.dtype(to_inexact_dtype(dtype))
    start, stop = fnp.asarray(start).astype(work), fnp.asarray(stop).astype(work)
    lin = fnp.linspace(start, stop, num, endpoint=endpoint, axis=axis)
    return fnp.astype(fnp.power(base, lin), dtype)


def geomspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
              dtype: DTypeLike | None = None, axis: int = 0) -> Array:
    """``numpy.geomspace``: ``num`` numbers spaced evenly on a log scale from ``start`` to
    ``stop`` (same sign, nonzero; the ends exact).  Real inputs.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.geomspace(1, 1000, 4)
        Array([   1.,   10.,  100., 1000.], dtype=float64)
    """
    start, stop = fnp.asarray(start), fnp.asarray(stop)
    if get_aval(start).dtype.kind == "c" or get_aval(stop).dtype.kind == "c":
        raise NotImplementedError("fgrad.numpy.geomspace: complex endpoints are not supported")
    if dtype is None:
        dt = np.dtype(to_inexact_dtype(result_type(start, stop)))
    else:
        dt = requested_dtype(dtype, "geomspace")
    work = np.dtype(to_inexact_dtype(dt))
    start, stop = fnp.astype(start, work), fnp.astype(stop, work)
    for v in (start, stop):
        if not isinstance(v, Tracer):
            if bool(fnp.any(fnp.equal(v, 0))):
                raise ValueError("fgrad.numpy.geomspace: geometric sequence cannot include zero")
    # JAX's formula: sign(start) * 10 ** linspace(log10(start/sign), log10(stop/sign))
    sign = fnp.sign(start)
    out = sign * logspace(fnp.log10(start / sign), fnp.log10(stop / sign), num, endpoint=endpoint,
                              base=10.0, dtype=work, axis=0)
    if axis != 0:
        out = fnp.moveaxis(out, 0, axis)
    return fnp.astype(out, dt)


def fromfunction(function: Callable, shape: int | Shape, *, dtype: DTypeLike = float, **kwargs) -> Any:
    """``numpy.fromfunction`` as in JAX: ``function`` called on the index grids of ``shape``
    through nested `vmap` (it sees scalars per element; results of any shape stack).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fromfunction(lambda i, j: i + 10 * j, (2, 3), dtype=int)
        Array([[ 0, 10, 20],
               [ 1, 11, 21]], dtype=int64)
    """
    shape = tuple(int(s) for s in shape)
    f = function
    for i in range(len(shape)):
        in_axes = [0 if i == j else None for j in range(len(shape))]
        f = vmap(f, in_axes=tuple(in_axes[::-1]))
    return f(*(fnp.arange(s, dtype=dtype) for s in shape), **kwargs)


def frombuffer(buffer, dtype: DTypeLike = float, count: int = -1, offset: int = 0) -> Array:
    """``numpy.frombuffer``: a 1-D array from the bytes of ``buffer`` (copied).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.frombuffer(b"\\x01\\x02", dtype=fnp.uint8)
        Array([1, 2], dtype=uint8)
    """
    return fnp.asarray(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset).copy())


def fromstring(string: str, dtype: DTypeLike = float, count: int = -1, *, sep: str) -> Array:
    """``numpy.fromstring`` with a separator (text mode, as JAX requires).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fromstring("1 2 3", dtype=int, sep=" ")
        Array([1, 2, 3], dtype=int64)
    """
    return fnp.asarray(np.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromiter(*args: Any, **kwargs: Any) -> Array:
    """Not supported, as in JAX (impure); use ``fnp.asarray(np.fromiter(...))``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.asarray(__import__("numpy").fromiter(range(3), int))
        Array([0, 1, 2], dtype=int64)
    """
    raise NotImplementedError(
        "fgrad.numpy.fromiter is not implemented (as in JAX): it consumes an iterator; "
        "use fnp.asarray(np.fromiter(...)) instead."
    )


def fromfile(*args: Any, **kwargs: Any) -> Array:
    """Not supported, as in JAX (impure); use ``fnp.asarray(np.fromfile(...))``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> callable(fnp.fromfile)
        True
    """
    raise NotImplementedError(
        "fgrad.numpy.fromfile is not implemented (as in JAX): it reads a file; "
        "use fnp.asarray(np.fromfile(...)) instead."
    )


def mask_indices(n: int, mask_func: Callable, k: int = 0, *, size: int | None = None) -> tuple[Array, Array]:
    """``numpy.mask_indices``: the indices where ``mask_func(ones((n, n)), k)`` is nonzero
    (``size`` for a fixed length, as JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.mask_indices(3, fnp.triu, 1)
        (Array([0, 0, 1], dtype=int64), Array([1, 2, 2], dtype=int64))
    """
    a = mask_func(fnp.ones((n, n), np.int64), k)
    return fnp.nonzero(fnp.not_equal(a, 0), size=size)


def _dtype_of(x) -> np.dtype:
    if isinstance(x, Array):
        return get_aval(x).dtype
    return np.asarray(x).dtype


def isrealobj(x: ArrayLike) -> bool:
    """``numpy.isrealobj``: whether ``x``'s dtype is not complex.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.isrealobj(fnp.asarray([1.0])), fnp.isrealobj(1j)
        (True, False)
    """
    return _dtype_of(x).kind != "c"


def isscalar(element: Any) -> bool:
    """``numpy.isscalar``, as in JAX: also True for 0-d arrays (fgrad's and NumPy's); what
    ``numpy.isscalar`` calls a scalar (strings and bytes too) is one.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.isscalar(fnp.asarray(1.0)), fnp.isscalar(fnp.ones(2)), fnp.isscalar("a")
        (True, False, True)
    """
    if np.isscalar(element):
        return True
    if isinstance(element, (Array, np.ndarray)):
        return get_aval(element).ndim == 0 if isinstance(element, Array) else element.ndim == 0
    return False


def einsum_path(subscripts: str, *operands: ArrayLike, optimize: Any = "auto") -> tuple[list[Any], str]:
    """``jax.numpy.einsum_path``: ``(path, report)``, the contraction order (a list of
    operand-index tuples, as ``jnp.einsum(..., optimize=path)`` takes) for the operands'
    shapes (no data is read), and NumPy's text report.  As JAX (opt_einsum): ``"auto"``
    and ``True`` search the optimal order for up to four operands and greedily above;
    ``False`` contracts left to right.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.einsum_path("ij,jk,kl->il", fnp.ones((2, 3)), fnp.ones((3, 100)), fnp.ones((100, 5)))[0]
        [(1, 2), (0, 1)]
    """
    stand_ins = [
        np.broadcast_to(np.zeros((), get_aval(fnp.asarray(o)).dtype), get_aval(fnp.asarray(o)).shape)
        if not isinstance(o, str)
        else o
        for o in operands
    ]
    n = sum(not isinstance(o, str) for o in operands)
    if optimize is False:
        path = [(0, 1)] * max(n - 1, 0)
        return path, np.einsum_path(subscripts, *stand_ins, optimize=["einsum_path", *path])[1]
    if optimize is True or optimize == "auto":
        optimize = "optimal" if n <= 4 else "greedy"
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] != "einsum_path":
        optimize = ["einsum_path", *optimize]
    path, report = np.einsum_path(subscripts, *stand_ins, optimize=optimize)
    return [tuple(step) for step in path[1:]], report


def array_repr(arr: ArrayLike, max_line_width=None, precision: Any = None, suppress_small=None) -> str:
    """``numpy.array_repr``: the array's repr (``Array([...], dtype=...)``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.array_repr(fnp.asarray([1.0, 2.0]))
        'Array([1., 2.], dtype=float64)'
    """
    if max_line_width is None and precision is None and suppress_small is None:
        return repr(fnp.asarray(arr))
    text = np.array_repr(np.asarray(arr), max_line_width, precision, suppress_small)
    return "Array" + text[len("array") :] if text.startswith("array") else text


def array_str(a: ArrayLike, max_line_width=None, precision: Any = None, suppress_small=None) -> str:
    """``numpy.array_str``: the array's data as text.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.array_str(fnp.asarray([1.0, 2.0]))
        '[1. 2.]'
    """
    return np.array_str(np.asarray(a), max_line_width, precision, suppress_small)


def save(file: Any, arr: ArrayLike, allow_pickle: bool = True) -> None:
    """``numpy.save``: write one array to a ``.npy`` file (a host copy).

    Example::

        >>> import io, fgrad.numpy as fnp
        >>> buf = io.BytesIO(); fnp.save(buf, fnp.arange(3)); _ = buf.seek(0)
        >>> fnp.load(buf)
        Array([0, 1, 2], dtype=int64)
    """
    np.save(file, np.asarray(arr), allow_pickle=allow_pickle)


def savez(file: Any, *args: ArrayLike, **kwds: ArrayLike) -> None:
    """``numpy.savez``: write several arrays to an uncompressed ``.npz`` file.

    Example::

        >>> import io, fgrad.numpy as fnp
        >>> buf = io.BytesIO(); fnp.savez(buf, x=fnp.ones(2)); _ = buf.seek(0)
        >>> fnp.load(buf)["x"]
        Array([1., 1.], dtype=float64)
    """
    np.savez(file, *[np.asarray(a) for a in args], **{k: np.asarray(v) for k, v in kwds.items()})


class _NpzArrays(dict):
    """The arrays of an ``.npz`` file, read eagerly into fgrad arrays."""


def load(file: Any, *args: Any, **kwargs: Any) -> Any:
    """``numpy.load``: an ``.npy`` file as an fgrad array, an ``.npz`` file as a dict of
    them (read at once).  Never unpickles: ``allow_pickle=True`` raises ValueError, and a
    file holding pickled objects raises NumPy's ValueError.

    Example::

        >>> import io, fgrad.numpy as fnp
        >>> buf = io.BytesIO(); fnp.save(buf, fnp.ones(2)); _ = buf.seek(0)
        >>> fnp.load(buf)
        Array([1., 1.], dtype=float64)
    """
    kwargs.update(zip(("mmap_mode", "allow_pickle", "fix_imports", "encoding"), args))
    if kwargs.pop("allow_pickle", False):
        raise ValueError("fgrad.numpy.load: allow_pickle=True is not supported: loading a pickle can run "
                         "arbitrary code; save numeric arrays (.npy/.npz) instead")
    out = np.load(file, allow_pickle=False, **kwargs)
    if isinstance(out, np.ndarray) and out.dtype == "V2":
        out = out.view(narrow_floats.bfloat16)  # NumPy saves bfloat16 as void16 (JAX reads it back)
    if isinstance(out, np.ndarray) and narrow_floats.dtype_kind(out.dtype) in "biufc":
        return fnp.asarray(out)
    if hasattr(out, "files"):
        with out:
            return _NpzArrays(
                {k: fnp.asarray(out[k]) if out[k].dtype.kind in "biufc" else out[k] for k in out.files}
            )
    return out


# ---------------------------------------------------------------------------------------
# index tricks


def _slice_values(s: slice):
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    if isinstance(step, complex):
        return fnp.linspace(start, s.stop, int(abs(step)))
    if s.stop is None:
        raise ValueError("fgrad.numpy.r_: a slice needs a stop value")
    return fnp.arange(start, s.stop, step)


class _AxisConcatenator:
    """``numpy.r_``/``numpy.c_``: concatenate slices (as `arange`/`linspace`), scalars and
    arrays along an axis; a leading string ``"axis[,ndmin[,trans1d]]"`` sets the layout."""

    def __init__(self, axis: int, ndmin: int, trans1d: int, name: str) -> None:
        self.axis, self.ndmin, self.trans1d, self.name = axis, ndmin, trans1d, name

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        parts = []
        for i, item in enumerate(items):
            if isinstance(item, str):
                if i != 0:
                    raise ValueError(f"fgrad.numpy.{self.name}: a string directive must come first")
                if item in ("r", "c"):
                    raise NotImplementedError(
                        f"fgrad.numpy.{self.name}: matrix directives ('r', 'c') are not supported (as in JAX)"
                    )
                try:
                    vals = [int(v) for v in item.split(",")]
                except ValueError:
                    raise ValueError(f"fgrad.numpy.{self.name}: unknown directive {item!r}") from None
                axis = vals[0]
                if len(vals) > 1:
                    ndmin = vals[1]
                if len(vals) > 2:
                    trans1d = vals[2]
                continue
            x = _slice_values(item) if isinstance(item, slice) else fnp.asarray(item)
            k = get_aval(x).ndim
            if k < ndmin:
                x = fnp.reshape(x, (1,) * (ndmin - k) + get_aval(x).shape)
                if trans1d != -1:
                    k2 = ndmin - k
                    k1 = trans1d if trans1d >= 0 else trans1d + k2 + 1
                    axes = list(range(ndmin))
                    x = fnp.transpose(x, axes[:k1] + axes[k2:] + axes[k1:k2])
            parts.append(x)
        if not parts:
            return fnp.zeros(0)
        return fnp.concatenate(parts, axis=axis)

    def __len__(self) -> int:
        return 0


r_ = _AxisConcatenator(0, 1, -1, "r_")
c_ = _AxisConcatenator(-1, 2, 0, "c_")


class _Grid:
    """``numpy.mgrid``/``numpy.ogrid``: coordinate grids from static slices."""

    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, key):
        grid = (np.ogrid if self.sparse else np.mgrid)[key]
        if self.sparse:
            return [fnp.asarray(g) for g in grid] if isinstance(grid, (list, tuple)) else fnp.asarray(grid)
        return fnp.asarray(grid)


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)
