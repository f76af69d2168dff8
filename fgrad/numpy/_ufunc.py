"""`ufunc`: JAX's ``jnp.ufunc`` objects — ``reduce``, ``accumulate``, ``outer``, ``at`` and
``reduceat`` on the binary elementwise functions (``fnp.add.reduce(x)``), their attributes
(``nin``, ``nout``, ``nargs``, ``identity``), the class itself for user-defined ufuncs and
`frompyfunc`.

The predefined ufuncs (``add``, ``multiply``, ``maximum``, ``logical_and`` ... the ones JAX
makes `ufunc` instances) stay the plain, fast functions `fgrad.numpy` generates from the op
specs: the methods are attached to them, and ``isinstance(fnp.add, fnp.ufunc)`` holds through
the class's metaclass, so calling ``fnp.add(x, y)`` costs nothing extra.  Where NumPy has a
dedicated reduction (``add.reduce`` is `sum`, ``maximum.accumulate`` is ``lax.cummax``,
``add.at`` is ``x.at[i].add``) the method uses it; otherwise (``subtract.reduce``, a
`frompyfunc` ufunc) it folds left to right with ``lax.scan``, so every method works under
`jit`, `vmap` and `grad`.

>>> import fgrad.numpy as fnp
>>> x = fnp.arange(1.0, 5.0)
>>> fnp.add.reduce(x), fnp.subtract.accumulate(x), isinstance(fnp.add, fnp.ufunc)
(Array(10., dtype=float64), Array([ 1., -1., -4., -8.], dtype=float64), True)
"""

from __future__ import annotations

import types
from typing import Any, Callable

import numpy as np

from ..core.array import Tracer
from ..core.trace import EVAL_TRACE, state
from ..ops.control_flow import scan
from ..ops.cumulative import cummax, cummin
from ..ops.shape import broadcast_to, expand_dims
from ..typing import Array, ArrayLike, DTypeLike
from . import _elementwise as _ew
from ._creation import arange, asarray, full, zeros
from ._indexing import concatenate
from ._math import where as where_
from ._reductions import all as _all, any as _any, max as _max, min as _min, prod, sum as _sum
from ._shape import moveaxis, ravel, reshape
from ._sorting import cumprod, cumsum
from ._vectorize import vectorize

__all__ = ["ufunc", "frompyfunc"]

_INPLACE_MESSAGE = (
    "Because JAX arrays are immutable, jnp.ufunc.at() cannot operate inplace like\n"
    "np.ufunc.at(). Instead, you can pass inplace=False and capture the result; e.g.\n"
    ">>> arr = jnp.add.at(arr, ind, val, inplace=False)\n")


class _UfuncType(type):
    """``isinstance(f, ufunc)`` also holds for the predefined ufunc functions (``fnp.add``):
    they carry their `ufunc` object as ``f.__fgrad_ufunc__``."""

    def __instancecheck__(cls, obj: Any) -> bool:
        if type(obj) is types.FunctionType:
            obj = obj.__dict__.get("__fgrad_ufunc__")
        return type.__instancecheck__(cls, obj)


def _axis_error(axis: int, ndim: int) -> np.exceptions.AxisError:
    return np.exceptions.AxisError(axis, ndim)


def _normalize_axis(axis: Any, ndim: int) -> int:
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"axis must be an int or None, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise _axis_error(int(axis), ndim)
    return int(axis) % ndim


class ufunc(metaclass=_UfuncType):
    """A universal function (JAX's ``jnp.ufunc``): ``func`` applied elementwise with
    broadcasting, plus the methods ``reduce``, ``accumulate``, ``outer``, ``at`` and
    ``reduceat`` for binary ufuncs.  ``call``/``reduce``/``accumulate``/``at``/``reduceat``
    override the generic implementations (which fold left to right with ``lax.scan``);
    without ``call`` the function is `vectorize`\\ d, so ``func`` may be written for scalars.

    >>> import fgrad.numpy as fnp
    >>> hypot = fnp.ufunc(lambda a, b: fnp.sqrt(a * a + b * b), 2, 1, name="hypot", identity=0.0)
    >>> hypot.reduce(fnp.asarray([3.0, 4.0, 12.0])), hypot
    (Array(13., dtype=float64), <fgrad.numpy.ufunc 'hypot'>)
    """

    def __init__(self, func: Callable[..., Any], /, nin: int, nout: int, *, name: str | None = None,
                 nargs: int | None = None, identity: Any = None,
                 call: Callable[..., Any] | None = None, reduce: Callable[..., Any] | None = None,
                 accumulate: Callable[..., Any] | None = None, at: Callable[..., Any] | None = None,
                 reduceat: Callable[..., Any] | None = None) -> None:
        if not callable(func):
            raise TypeError(f"ufunc: func must be callable, got {type(func).__name__}")
        self.__name__ = name if name is not None else getattr(func, "__name__", str(func))
        self.nin = int(nin)
        self.nout = int(nout)
        self.nargs = int(nargs if nargs is not None else nin)
        self.identity = identity
        self._func = func
        self._call = call if call is not None else vectorize(func)
        self._reduce = reduce
        self._accumulate = accumulate
        self._at = at
        self._reduceat = reduceat

    def __repr__(self) -> str:
        return f"<fgrad.numpy.ufunc '{self.__name__}'>"

    def __call__(self, *args: ArrayLike, out: None = None, where: None = None) -> Any:
        if out is not None:
            raise NotImplementedError(f"{self.__name__}: the 'out' argument is not supported "
                                      "(fgrad arrays are immutable: use the returned value)")
        if where is not None:
            raise NotImplementedError(f"{self.__name__}: the 'where' argument is not supported")
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional argument(s) but "
                            f"{len(args)} were given")
        return self._call(*args)

    # ---------------------------------------------------------------- helpers
    def _check_binary(self, method: str) -> None:
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary ufuncs")
        if self.nout != 1:
            raise ValueError(f"{method} only supported for functions returning a single value")

    def _check_out(self, method: str, out: Any) -> None:
        if out is not None:
            raise ValueError(f"{self.__name__}.{method}: the 'out' argument is not supported "
                             "(fgrad arrays are immutable: use the returned value)")

    def _result_dtype(self, dtype: np.dtype) -> np.dtype:
        """The dtype ``func`` gives for two operands of ``dtype`` (the fold's carry dtype)."""
        zero = zeros((), dtype)
        return asarray(self._call(zero, zero)).dtype

    def _step(self, dtype: np.dtype) -> Callable[[Array, Array], Array]:
        call = self._call

        def apply(a: Array, b: Array) -> Array:
            r = asarray(call(a, b))
            return r if r.dtype == dtype else r.astype(dtype)

        return apply

    # ---------------------------------------------------------------- methods
    def reduce(self, a: ArrayLike, axis: int | tuple[int, ...] | None = 0,
               dtype: DTypeLike | None = None, out: None = None, keepdims: bool = False,
               initial: ArrayLike | None = None, where: ArrayLike | None = None) -> Array:
        """Reduce ``a`` along ``axis`` (None: all axes) by the binary ufunc, left to right
        (``numpy.ufunc.reduce``).  ``where`` masks elements out; it needs ``initial`` when
        the ufunc has no identity.

        >>> import fgrad.numpy as fnp
        >>> fnp.subtract.reduce(fnp.asarray([[1.0, 2.0], [3.0, 5.0]]), axis=1)
        Array([-1., -2.], dtype=float64)
        """
        self._check_binary("reduce")
        self._check_out("reduce", out)
        if where is not None and initial is None and self.identity is None:
            raise ValueError(f"reduction operation '{self.__name__}' does not have an identity, so "
                             "to use a where mask one has to specify 'initial'.")
        if self._reduce is not None:
            return self._reduce(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial,
                                where=where)
        return self._reduce_by_fold(a, axis, dtype, keepdims, initial, where)

    def _reduce_by_fold(self, a: ArrayLike, axis: Any, dtype: DTypeLike | None, keepdims: bool,
                        initial: ArrayLike | None, where: ArrayLike | None) -> Array:
        a = asarray(a) if dtype is None else asarray(a).astype(dtype)
        if isinstance(axis, tuple):
            if len(axis) != 1:
                raise NotImplementedError(
                    f"{self.__name__}.reduce over a tuple of axes: reduce one axis at a time")
            axis = axis[0]
        in_shape, all_axes = a.shape, axis is None
        if where is not None:
            where = broadcast_to(asarray(where, dtype=bool), in_shape)
        if axis is None:
            a, axis = ravel(a), 0
            where = None if where is None else ravel(where)
        axis = _normalize_axis(axis, a.ndim)
        x = moveaxis(a, axis, 0)
        n = x.shape[0]
        if n == 0 and initial is None and self.identity is None:
            raise ValueError(f"zero-size array to reduction operation {self.__name__} which has "
                             "no identity")
        result_dtype = self._result_dtype(x.dtype)
        if x.dtype != result_dtype:
            x = x.astype(result_dtype)
        step = self._step(result_dtype)
        start = initial if initial is not None else self.identity
        if initial is None and where is None and n > 0:
            carry, xs = x[0], x[1:]
        else:
            carry, xs = full(x.shape[1:], start, result_dtype), x
        if where is None:
            result, _ = scan(lambda c, xi: (step(c, xi), None), carry, xs)
        else:
            mask = moveaxis(where, axis, 0)
            result, _ = scan(lambda c, xm: (where_(xm[1], step(c, xm[0]), c), None), carry,
                             (xs, mask))
        if keepdims:
            result = (reshape(result, (1,) * len(in_shape)) if all_axes
                      else expand_dims(result, (axis,)))
        return result

    def accumulate(self, a: ArrayLike, axis: int | None = 0, dtype: DTypeLike | None = None,
                   out: None = None) -> Array:
        """The running reduction of ``a`` along ``axis``, left to right
        (``numpy.ufunc.accumulate``); ``axis=None`` (the flattened array) only for ``add`` and
        ``multiply``, as in JAX.

        >>> import fgrad.numpy as fnp
        >>> fnp.maximum.accumulate(fnp.asarray([1, 3, 2, 5, 4]))
        Array([1, 3, 3, 5, 5], dtype=int64)
        """
        self._check_binary("accumulate")
        self._check_out("accumulate", out)
        if self._accumulate is not None:
            return self._accumulate(a, axis=axis, dtype=dtype)
        if axis is None or isinstance(axis, tuple):
            raise ValueError("accumulate does not allow multiple axes")
        a = asarray(a) if dtype is None else asarray(a).astype(dtype)
        axis = _normalize_axis(axis, a.ndim)
        x = moveaxis(a, axis, 0)
        result_dtype = self._result_dtype(x.dtype)
        if x.dtype != result_dtype:
            x = x.astype(result_dtype)
        if x.shape[0] == 0:
            return moveaxis(x, 0, axis)
        step = self._step(result_dtype)

        def body(c: Array, xi: Array) -> tuple[Array, Array]:
            c = step(c, xi)
            return c, c

        _, rest = scan(body, x[0], x[1:])
        return moveaxis(concatenate([x[:1], rest]), 0, axis)

    def outer(self, A: ArrayLike, B: ArrayLike, /) -> Array:
        """``func`` on every pair of elements: the result has shape ``A.shape + B.shape``
        (``numpy.ufunc.outer``).

        >>> import fgrad.numpy as fnp
        >>> fnp.multiply.outer(fnp.asarray([1, 2]), fnp.asarray([1, 10, 100]))
        Array([[  1,  10, 100],
               [  2,  20, 200]], dtype=int64)
        """
        if self.nin != 2:
            raise ValueError("outer only supported for binary ufuncs")
        A, B = asarray(A), asarray(B)
        return self._call(reshape(A, A.shape + (1,) * B.ndim), B)

    def at(self, a: ArrayLike, indices: Any, b: ArrayLike | None = None, /, *,
           inplace: bool = True) -> Array:
        """``a`` with ``func`` applied at ``indices`` (``a[indices] = func(a[indices], b)``,
        repeated indices applying again, as ``numpy.ufunc.at``; out-of-bounds indices are
        dropped, as in JAX).  fgrad arrays are immutable:
        pass ``inplace=False`` and use the result; differentiable in ``a`` and ``b``.

        >>> import fgrad.numpy as fnp
        >>> fnp.add.at(fnp.zeros(3), fnp.asarray([0, 0, 2]), 1.0, inplace=False)
        Array([2., 0., 1.], dtype=float64)
        """
        if inplace:
            raise NotImplementedError(_INPLACE_MESSAGE)
        if self.nout != 1:
            raise ValueError("at only supported for functions returning a single value")
        if self.nin == 2 and b is None:
            raise ValueError(f"{self.__name__}.at: the second operand b is required for a binary ufunc")
        if self.nin == 1 and b is not None:
            raise ValueError(f"{self.__name__}.at: a unary ufunc takes no second operand b")
        if self.nin not in (1, 2):
            raise ValueError("at only supported for unary and binary ufuncs")
        if self._at is not None:
            return self._at(a, indices, b)
        a = asarray(a)
        # out-of-bounds indices are dropped, as JAX's scatters do
        positions = reshape(arange(a.size), a.shape).at[indices].get(mode="fill", fill_value=a.size)
        flat_positions = ravel(positions)
        call = self._call
        dtype = a.dtype

        if self.nin == 1:
            def body(c: Array, p: Array) -> tuple[Array, None]:
                return c.at[p].set(asarray(call(c[p])).astype(dtype), mode="drop"), None

            result, _ = scan(body, ravel(a), flat_positions)
        else:
            values = ravel(broadcast_to(asarray(b), positions.shape))

            def body(c: Array, pv: tuple[Array, Array]) -> tuple[Array, None]:
                p, v = pv
                return c.at[p].set(asarray(call(c[p], v)).astype(dtype), mode="drop"), None

            result, _ = scan(body, ravel(a), (flat_positions, values))
        return reshape(result, a.shape)

    def reduceat(self, a: ArrayLike, indices: Any, axis: int = 0, dtype: DTypeLike | None = None,
                 out: None = None) -> Array:
        """Reductions over the slices ``a[indices[i]:indices[i+1]]`` along ``axis`` (the last
        to the end; ``a[indices[i]]`` where ``indices[i] >= indices[i+1]``), as
        ``numpy.ufunc.reduceat``.  ``indices`` may be traced; eager out-of-bounds indices raise
        IndexError (as NumPy), traced ones give NaN (as JAX).

        >>> import fgrad.numpy as fnp
        >>> fnp.add.reduceat(fnp.arange(8), fnp.asarray([0, 4, 1, 5]))
        Array([ 6,  4, 10, 18], dtype=int64)
        """
        self._check_binary("reduceat")
        self._check_out("reduceat", out)
        if self._reduceat is not None:
            return self._reduceat(a, indices, axis=axis, dtype=dtype)
        a = asarray(a) if dtype is None else asarray(a).astype(dtype)
        indices = asarray(indices)
        if indices.ndim != 1:
            raise ValueError(f"{self.__name__}.reduceat: indices must be a 1-D array of ints, got "
                             f"shape {indices.shape}")
        if not np.issubdtype(indices.dtype, np.integer):
            raise TypeError(f"{self.__name__}.reduceat: indices must be integers, got {indices.dtype}")
        axis = _normalize_axis(axis, a.ndim)
        x = moveaxis(a, axis, 0)
        n = x.shape[0]
        if state.trace is EVAL_TRACE and not isinstance(indices, Tracer) and indices.size and (
                int(indices.min()) < 0 or int(indices.max()) >= n):
            raise IndexError(f"{self.__name__}.reduceat: an index in {indices.tolist()} is out of "
                             f"bounds for axis {axis} with size {n}")
        result_dtype = self._result_dtype(x.dtype)
        if x.dtype != result_dtype:
            x = x.astype(result_dtype)
        step = self._step(result_dtype)
        starts = indices
        ends = concatenate([indices[1:], asarray([n], dtype=indices.dtype)])
        rest = (1,) * (x.ndim - 1)
        carry = x.at[starts].get(mode="fill")  # traced out-of-bounds starts: NaN, as JAX

        def body(c: Array, jx: tuple[Array, Array]) -> tuple[Array, None]:
            j, xj = jx
            inside = reshape((starts < j) & (j < ends), starts.shape + rest)
            return where_(inside, step(c, xj[None]), c), None

        result, _ = scan(body, carry, (arange(n, dtype=indices.dtype), x))
        return moveaxis(result, 0, axis)



def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int, *, identity: Any = None) -> ufunc:
    """A `ufunc` from a Python function of scalars (JAX's ``jnp.frompyfunc``): it is
    `vectorize`\\ d, and gets the ufunc methods.

    >>> import fgrad.numpy as fnp
    >>> f = fnp.frompyfunc(lambda a, b: a * b + 1, 2, 1)
    >>> f.reduce(fnp.asarray([1.0, 2.0, 3.0])), f.outer(fnp.arange(2.0), fnp.arange(2.0))
    (Array(10., dtype=float64), Array([[1., 1.],
           [1., 2.]], dtype=float64))
    """
    return ufunc(func, nin=nin, nout=nout, identity=identity)


# ---------------------------------------------------------------- the predefined ufuncs
def _by_reduction(reduction: Callable[..., Array], takes_initial: bool = True):
    def reduce(a, *, axis, dtype, keepdims, initial, where):
        if takes_initial:
            return reduction(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial,
                             where=where)
        a = asarray(a) if dtype is None else asarray(a).astype(dtype)
        return reduction(a, axis=axis, keepdims=keepdims)

    return reduce


def _by_cumulative(cumulative: Callable[..., Array], takes_dtype: bool = True):
    def accumulate(a, *, axis, dtype):
        if takes_dtype:
            return cumulative(a, axis=axis, dtype=dtype)
        if axis is None or isinstance(axis, tuple):
            raise ValueError("accumulate does not allow multiple axes")
        a = asarray(a) if dtype is None else asarray(a).astype(dtype)
        return cumulative(a, axis=_normalize_axis(axis, a.ndim))

    return accumulate


def _by_at(method: str):
    def at(a, indices, b):
        return getattr(asarray(a).at[indices], method)(b)

    return at


def _logical_reduce(reduction, name):
    def reduce(a, *, axis, dtype, keepdims, initial, where):
        if initial is not None or where is not None:
            return _PREDEFINED[name]._reduce_by_fold(a, axis, dtype, keepdims, initial, where)
        result = reduction(asarray(a), axis=axis, keepdims=keepdims)
        return result if dtype is None else result.astype(dtype)

    return reduce


# name -> (identity, reduce, accumulate, at): JAX's predefined ufuncs
_SPECIALIZED: dict[str, tuple[Any, Any, Any, Any]] = {
    "add": (0, _by_reduction(_sum), _by_cumulative(cumsum), _by_at("add")),
    "multiply": (1, _by_reduction(prod), _by_cumulative(cumprod), _by_at("multiply")),
    "maximum": (None, _by_reduction(_max), _by_cumulative(cummax, False), _by_at("max")),
    "minimum": (None, _by_reduction(_min), _by_cumulative(cummin, False), _by_at("min")),
    "subtract": (None, None, None, None),
    "logaddexp": (-np.inf, None, None, None),
    "logaddexp2": (-np.inf, None, None, None),
    "logical_and": (True, _logical_reduce(_all, "logical_and"), None, None),
    "logical_or": (False, _logical_reduce(_any, "logical_or"), None, None),
    "logical_xor": (False, None, None, None),
    "bitwise_and": (-1, None, None, None),
    "bitwise_or": (0, None, None, None),
    "bitwise_xor": (0, None, None, None),
    "negative": (None, None, None, None),
}

_PREDEFINED: dict[str, ufunc] = {}


def _attach() -> None:
    """Give each predefined ufunc function its `ufunc` object and methods (the function itself
    stays what ``fnp.add`` is: nothing changes on its call path)."""
    for name, (identity, reduce, accumulate, at) in _SPECIALIZED.items():
        f = getattr(_ew, name)
        u = ufunc(f, 2 if name != "negative" else 1, 1, name=name, identity=identity, call=f,
                  reduce=reduce, accumulate=accumulate, at=at)
        _PREDEFINED[name] = u
        f.__fgrad_ufunc__ = u
        f.nin, f.nout, f.nargs, f.identity = u.nin, u.nout, u.nargs, u.identity
        f.reduce, f.accumulate, f.outer, f.at, f.reduceat = (
            u.reduce, u.accumulate, u.outer, u.at, u.reduceat)


_attach()
