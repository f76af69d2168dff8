"""A fake accelerator, so device placement can be tested on a machine without a GPU.

`install()` registers a backend named ``"fake"`` (devices ``fake:0``, ``fake:1``) whose
buffers are `FakeDeviceArray`, a NumPy ndarray subclass: NumPy computes on them and returns
them, so every primitive's ``xp``-generic implementation runs unchanged.  Like cupy, the fake
device is strict about where data lives:

* a plain ``numpy.ndarray`` meeting a device array in any NumPy function, ufunc or ``xp.*``
  call raises `HostArrayLeak` (cupy raises ``TypeError: Unsupported type`` there) — that is
  how tests catch host constants leaking into device computations (a silent transfer on a
  real GPU);
* arrays on ``fake:0`` and ``fake:1`` do not mix either;
* NumPy scalars and Python scalars are fine, as on cupy;
* its ``xp`` module (`fake_xp`) returns device arrays from creation functions, converts host
  data only in the explicit converters (``xp.asarray``/``xp.array``), and, when cupy is
  importable, offers only the names cupy offers (so an implementation using a NumPy-only
  function fails here as it would on the GPU);
* like cupy, it writes zero *bytes* when filling with a value equal to 0 (``ndarray.fill``,
  ``xp.full``, and ``xp.asarray`` of 0-d host data, which cupy copies with ``fill``), so a
  ``-0.0`` written that way arrives as ``+0.0``;
* with ``flushes_float32_subnormals`` on (``FGRAD_BACKEND=fake`` turns it on, as cupy
  has it), float32 subnormal inputs and results of ufuncs flush to zeros of their sign, as
  CUDA code compiled with ``-ftz=true`` does (bit tests such as ``signbit``/``copysign``/
  ``isnan`` excepted; ``nextafter`` skips the subnormals, as ``nextafterf`` does there);
  other functions (copies, ``where``, ``astype``, ...) are not emulated;
* `transfers` counts the host<->device copies: the explicit ones and the host reads of
  device values (``bool``, ``int``, ``float``, ``item``, ``tolist``: synchronisations on a
  GPU).

``install(platform="cuda")`` impersonates ``cuda`` (``device_put(x, "cuda")``,
``devices()`` listing ``cuda:0``) for code that hard-codes that name, such as the PyTorch
shim; only when the real cupy backend is not loaded.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad.testing import fake_device
    >>> with fake_device.installed():
    ...     x = fgrad.device_put(fnp.arange(3.0), "fake")
    ...     str((x * 2).device)
    'fake:0'
"""

from __future__ import annotations

import contextlib
import os
import threading
import types

import numpy as np

from .. import backends
from .device_numerics import F32, flush_subnormals, ftz_nextafter


class HostArrayLeak(TypeError):
    """A host (numpy) array met device arrays: an implicit transfer a real GPU would reject."""


_state = threading.local()


def _current() -> int:
    return getattr(_state, "device", 0)


class FakeDeviceArray(np.ndarray):
    """An ndarray "on the fake device" ``_fake_device`` (an int id)."""

    _fake_device = 0

    def __array_finalize__(self, obj) -> None:
        self._fake_device = getattr(obj, "_fake_device", _current())

    @property
    def device(self):
        return types.SimpleNamespace(id=self._fake_device)

    def __getitem__(self, idx):
        res = super().__getitem__(_unwrap(idx))
        if isinstance(res, np.generic):  # cupy indexing gives 0-d arrays on the same device
            res = np.asarray(res).view(FakeDeviceArray)
            res._fake_device = self._fake_device
        return res

    def __setitem__(self, idx, value) -> None:
        """``a[idx] = v``.  With repeated targets in an advanced index cupy does not promise
        which update lands (its scatter kernel writes them in parallel); the fake applies
        them first-wins, so code relying on NumPy's last-wins order fails here too.  And
        cupy broadcasts ``v`` strictly (``broadcast_to``): a value with more dimensions than
        the selection is an error, where NumPy drops its leading size-1 axes."""
        idx, value = _unwrap(idx), _unwrap(value)
        plain = self.view(np.ndarray)
        if np.ndim(value) > plain[idx].ndim:  # NumPy drops leading size-1 axes of the value
            raise ValueError("input operand has more dimensions than allowed by the axis remapping "
                             f"(cupy: a value of shape {np.shape(value)} assigned to a selection of "
                             f"shape {plain[idx].shape})")
        if not _has_index_array(idx):
            plain[idx] = value
            return
        targets = np.arange(self.size).reshape(self.shape)[idx]
        flat = targets.reshape(-1)
        if np.unique(flat).size == flat.size:
            plain[idx] = value
            return
        vals = np.broadcast_to(np.asarray(value, dtype=self.dtype), targets.shape).reshape(-1)
        plain[np.unravel_index(flat[::-1], self.shape)] = vals[::-1]

    # reading a value on the host (``bool(x.any())``, ``float(x)``, ``x.item()``) is a
    # device->host copy and a synchronisation on a GPU: counted with the copies
    def __bool__(self) -> bool:
        _count("d2h")
        return super().__bool__()

    def __int__(self) -> int:
        _count("d2h")
        return super().__int__()

    def __float__(self) -> float:
        _count("d2h")
        return super().__float__()

    def __index__(self) -> int:
        _count("d2h")
        return super().__index__()

    def item(self, *args):
        _count("d2h")
        return super().item(*args)

    def tolist(self):
        _count("d2h")
        return super().tolist()

    def astype(self, dtype, *args, **kwargs):
        """``ndarray.astype``; a conversion from or to float32 flushes its subnormals where
        the backend flushes them (CUDA's ``cvt.ftz``; a same-dtype copy moves bits only)."""
        out = super().astype(dtype, *args, **kwargs)
        if (BACKEND is not None and BACKEND.flushes_float32_subnormals and np.dtype(dtype) != self.dtype
                and F32 in (self.dtype, out.dtype)):
            src = flush_subnormals(self.view(np.ndarray))
            out = _wrap(flush_subnormals(np.asarray(src).astype(dtype, *args, **kwargs)), self._fake_device)
        return out

    def fill(self, value) -> None:
        """cupy's ``fill``: zero bytes for any value equal to 0 (``-0.0`` becomes ``+0.0``)."""
        super().fill(_cupy_fill_value(value))

    def get(self) -> np.ndarray:
        """A host copy (like ``cupy.ndarray.get``)."""
        if BACKEND is not None:
            BACKEND.transfers["d2h"] += 1
        return np.array(self.view(np.ndarray), copy=True)

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        where = f"numpy.{ufunc.__name__}" + ("" if method == "__call__" else f".{method}")
        dev = _check((inputs, out), where)
        if ufunc is np.matmul and method == "__call__":
            _cupy_matmul_pointer_strides(*inputs[:2])
        elif ufunc.__name__ in _NO_COMPLEX_LOOPS:
            _cupy_no_complex_loop(ufunc.__name__, inputs)
        args = _unwrap(inputs)
        if out is not None:
            kwargs["out"] = _unwrap(out)
        res = _run_ufunc(ufunc, method, args, kwargs)
        if method == "at":
            return None
        if out is not None:
            return out[0] if len(out) == 1 else out
        return _wrap(res, dev)

    def __array_function__(self, func, types_, args, kwargs):
        where = f"numpy.{getattr(func, '__name__', func)}"
        if func is np.where:
            _cupy_where_condition(args, kwargs)
            _cupy_where_int_literal(args)
        dev = _check((args, kwargs), where)
        return _wrap(func(*_unwrap(args), **_unwrap(kwargs)), dev)

    def __reduce__(self):
        raise TypeError("fake device arrays cannot be pickled; use .get() for a host copy")


def _cupy_fill_value(value):
    """The value cupy's ``ndarray.fill`` actually writes: it memsets for ``value == 0``
    (a device array value is copied by a kernel instead)."""
    if isinstance(value, FakeDeviceArray):
        return value
    if isinstance(value, np.ndarray):
        value = value.item()
    if isinstance(value, (bool, np.bool_)):  # False - False is the int 0: full(s, False) was int64
        return value
    try:
        return value - value if value == 0 else value  # +0 of the value's own type
    except (TypeError, ValueError):
        return value


def _cupy_asarray_of_host(a: np.ndarray) -> np.ndarray:
    """A copy of host data as ``cupy.asarray`` makes it: 0-d data goes through ``fill``."""
    out = np.array(a, copy=True)
    if out.ndim == 0:
        out.fill(_cupy_fill_value(out))
    return out


# ufuncs that test or move bits: no flushing under -ftz
_FTZ_EXEMPT = {"copysign", "signbit", "isnan", "isinf", "isfinite", "positive", "conjugate"}


def _run_ufunc(ufunc, method: str, args, kwargs):
    """``ufunc.method(*args, **kwargs)`` on host buffers, flushing float32 subnormals like
    CUDA's ``-ftz=true`` when the backend says it does."""
    if not (BACKEND is not None and BACKEND.flushes_float32_subnormals and method != "at"
            and ufunc.__name__ not in _FTZ_EXEMPT):
        return getattr(ufunc, method)(*args, **kwargs)
    args = [flush_subnormals(a) if isinstance(a, (np.ndarray, np.float32)) else a for a in args]
    if ufunc is np.nextafter and method == "__call__" and "out" not in kwargs:
        res = ftz_nextafter(*args)
        dt = kwargs.get("dtype")
        return res if dt is None else res.astype(dt)
    res = getattr(ufunc, method)(*args, **kwargs)
    out = kwargs.get("out")
    if out is not None:
        for o in (out if isinstance(out, tuple) else (out,)):
            if isinstance(o, np.ndarray) and o.dtype == np.float32:
                np.copyto(o, flush_subnormals(o))
        return res
    if isinstance(res, tuple):
        return tuple(flush_subnormals(r) for r in res)
    return flush_subnormals(res)


# cupy's logical ufuncs have no complex loops (cupy 14, seen on an H200 2026-11-27)
_NO_COMPLEX_LOOPS = {"logical_and", "logical_or", "logical_xor", "logical_not"}


def _cupy_no_complex_loop(name: str, args) -> None:
    dts = tuple(a.dtype for a in args if isinstance(a, (np.ndarray, np.generic)))
    if any(dt.kind == "c" for dt in dts):
        raise TypeError(f"Wrong type ({dts}) of arguments for cupy_{name}")


def _cupy_where_int_literal(args) -> None:
    """``cupy.where(c, x, y)`` converts a Python int operand to its array partner's integer
    dtype and refuses one out of that dtype's range, where NumPy wraps it."""
    if len(args) != 3:
        return
    for v, other in ((args[1], args[2]), (args[2], args[1])):
        if type(v) is int and isinstance(other, np.ndarray) and other.dtype.kind in "iu":
            info = np.iinfo(other.dtype)
            if not info.min <= v <= info.max:
                raise OverflowError(f"Python integer {v} out of bounds for {other.dtype}")


def _cupy_where_condition(args, kwargs) -> None:
    """``cupy.where(c, x, y)`` calls ``c.astype``: a Python bool condition fails there
    (``'bool' object has no attribute 'astype'``), where NumPy accepts it."""
    c = args[0] if args else kwargs.get("condition")
    if len(args) + len(kwargs) == 3 and not hasattr(c, "astype"):
        raise AttributeError(f"'{type(c).__name__}' object has no attribute 'astype' (cupy.where "
                             "needs a cupy.ndarray condition; the fake device likewise)")


def _has_index_array(idx) -> bool:
    """Whether a NumPy index has an advanced (integer-array or list) component."""
    parts = idx if type(idx) is tuple else (idx,)
    return any(isinstance(p, (np.ndarray, list)) and np.asarray(p).dtype.kind in "iu" for p in parts)


def _count(kind: str) -> None:
    if BACKEND is not None:
        BACKEND.transfers[kind] += 1


def _check(obj, where, dev=None, depth=0):
    """The device of the device arrays in ``obj`` (nested tuples/lists/dicts); raises on a
    host ndarray or on arrays from two devices."""
    if isinstance(obj, FakeDeviceArray):
        d = obj._fake_device
        if dev is not None and d != dev:
            raise ValueError(f"{where}: arrays on fake:{dev} and fake:{d} in one call "
                             "(no implicit peer copies)")
        return d
    if isinstance(obj, np.ndarray):
        raise HostArrayLeak(
            f"{where}: a host numpy.ndarray {obj.dtype}{list(obj.shape)} was passed to a fake-device "
            "computation (an implicit host->device transfer; a real GPU backend rejects it). "
            "Create constants on the operand's device (fgrad.numpy._creation.constant_like / "
            "zeros_like) or use the backend's explicit xp.asarray."
        )
    if depth < 4:
        if isinstance(obj, (tuple, list)):
            for o in obj:
                dev = _check(o, where, dev, depth + 1)
        elif isinstance(obj, dict):
            for o in obj.values():
                dev = _check(o, where, dev, depth + 1)
    return dev


def _unwrap(obj, depth=0):
    if isinstance(obj, FakeDeviceArray):
        return obj.view(np.ndarray)
    if depth < 4:
        if type(obj) is tuple:
            return tuple(_unwrap(o, depth + 1) for o in obj)
        if type(obj) is list:
            return [_unwrap(o, depth + 1) for o in obj]
        if type(obj) is dict:
            return {k: _unwrap(v, depth + 1) for k, v in obj.items()}
    return obj


def _wrap(res, dev=None):
    if dev is None:
        dev = _current()
    if isinstance(res, np.ndarray):
        if res.dtype.kind in "USOV":  # cupy has numbers and bools only
            raise ValueError(f"Unsupported dtype {res.dtype}")
        if type(res) is not FakeDeviceArray:
            res = res.view(FakeDeviceArray)
        res._fake_device = dev
        return res
    if isinstance(res, np.generic):  # cupy returns 0-d arrays, never NumPy scalars
        r = np.asarray(res).view(FakeDeviceArray)
        r._fake_device = dev
        return r
    if isinstance(res, tuple):
        vals = [_wrap(r, dev) for r in res]
        return tuple(vals) if type(res) is tuple else type(res)(*vals)  # namedtuples (svd, eigh)
    if type(res) is list:
        return [_wrap(r, dev) for r in res]
    return res


# -- the array module -------------------------------------------------------------------

_CONVERTERS = {"asarray", "array", "asanyarray", "ascontiguousarray", "asfortranarray"}


def _cupy_names():
    try:
        import cupy
    except Exception:  # noqa: BLE001 - no cupy: do not restrict
        return None, None
    return set(dir(cupy)), set(dir(cupy.linalg))


# the ufunc methods cupy implements, and for which ufuncs (cupy 14: ``cupy.maximum.reduce`` raises
# NotImplementedError; ``ufunc.at`` exists only where a CUDA atomic does the scatter)
_CUPY_UFUNC_METHODS = {
    "reduce": {"add", "multiply"},
    "accumulate": {"add", "multiply"},
    "reduceat": {"add"},
    "at": {"add", "subtract", "maximum", "minimum", "bitwise_and", "bitwise_or", "bitwise_xor"},
}


def _cupy_float_extreme_at(name: str, a: np.ndarray, idx, b) -> None:
    """cupy 14's ``minimum.at`` / ``maximum.at`` on floats, as its CUDA atomics compute them
    (``cupy/_core/include/cupy/atomics.cuh``): a compare-and-swap loop around ``fminf`` /
    ``fmaxf``, so NaNs are ignored (``fmin``, not ``minimum``) and float64 targets that are
    touched come back rounded to float32."""
    np.fmin.at(a, idx, b) if name == "minimum" else np.fmax.at(a, idx, b)
    if a.dtype == np.float64:
        touched = np.zeros(a.shape, dtype=bool)
        touched[idx] = True
        a[touched] = a[touched].astype(np.float32).astype(np.float64)


def _cupy_matmul_pointer_strides(a, b) -> None:
    """cupy 14's ``matmul`` of operands with more than 2 dimensions and a broadcast batch
    axis builds per-matrix pointers with an unsigned kernel (``_mat_ptrs``) from the batch
    strides; a negative batch stride left by ``ascontiguousarray`` (which keeps a view whose
    negative stride sits on a size-1 axis: it counts as contiguous) raises there."""
    nd = max(np.ndim(a), np.ndim(b))
    if nd <= 2 or not np.size(a) or not np.size(b):
        return
    ops = []
    for x, vec in ((a, (1, -1)), (b, (-1, 1))):
        x = np.asarray(_unwrap(x))
        x = x.reshape(vec) if x.ndim == 1 else x
        if not x.flags.c_contiguous:
            x = np.ascontiguousarray(x)
        ops.append(([1] * (nd - x.ndim) + list(x.shape), [0] * (nd - x.ndim) + list(x.strides)))
    (sa, ta), (sb, tb) = ops
    broadcast = False
    for i in range(nd - 2):
        c = max(sa[i], sb[i])
        for shp, st in ((sa, ta), (sb, tb)):
            if shp[i] == 1 and c > 1:
                st[i], broadcast = 0, True
    for st in (ta[:nd - 2], tb[:nd - 2]):
        for s in st:
            if broadcast and s < 0:
                raise OverflowError(f"Python integer {s} out of bounds for uint64")


class _FakeUfunc:
    """A NumPy ufunc whose results are device arrays and which rejects host arrays."""

    def __init__(self, uf) -> None:
        self._uf = uf
        self.__name__ = uf.__name__

    def _apply(self, fn, where, args, kwargs, method="__call__"):
        dev = _check((args, kwargs), where)
        res = _run_ufunc(self._uf, method, _unwrap(args), _unwrap(kwargs))
        return _wrap(res, dev)

    def __call__(self, *args, **kwargs):
        if self.__name__ == "matmul":
            _cupy_matmul_pointer_strides(*args[:2])
        elif self.__name__ in _NO_COMPLEX_LOOPS:
            _cupy_no_complex_loop(self.__name__, args)
        return self._apply(self._uf, f"xp.{self.__name__}", args, kwargs)

    def _supported(self, method: str) -> None:
        if self.__name__ not in _CUPY_UFUNC_METHODS[method]:
            raise NotImplementedError(
                f"{self.__name__}.{method} is not supported yet (cupy offers ufunc.{method} only for "
                f"{', '.join(sorted(_CUPY_UFUNC_METHODS[method]))})")

    def reduce(self, *args, **kwargs):
        self._supported("reduce")
        return self._apply(self._uf.reduce, f"xp.{self.__name__}.reduce", args, kwargs, "reduce")

    def accumulate(self, *args, **kwargs):
        self._supported("accumulate")
        return self._apply(self._uf.accumulate, f"xp.{self.__name__}.accumulate", args, kwargs, "accumulate")

    def outer(self, *args, **kwargs):
        return self._apply(self._uf.outer, f"xp.{self.__name__}.outer", args, kwargs, "outer")

    def reduceat(self, *args, **kwargs):
        self._supported("reduceat")
        return self._apply(self._uf.reduceat, f"xp.{self.__name__}.reduceat", args, kwargs, "reduceat")

    def at(self, a, indices, b=None):
        self._supported("at")
        if not isinstance(a, FakeDeviceArray):
            raise HostArrayLeak(f"xp.{self.__name__}.at: the target is not a device array")
        _check((a, b), f"xp.{self.__name__}.at")
        idx = _unwrap(indices)
        if b is None:
            self._uf.at(a.view(np.ndarray), idx)
        elif self.__name__ in ("minimum", "maximum") and a.dtype.kind == "f":
            _cupy_float_extreme_at(self.__name__, a.view(np.ndarray), idx, _unwrap(b))
        else:
            self._uf.at(a.view(np.ndarray), idx, _unwrap(b))

    def __getattr__(self, name):
        return getattr(self._uf, name)

    def __repr__(self) -> str:
        return f"<fake ufunc {self.__name__}>"


class _FakeModule(types.ModuleType):
    """``xp`` of the fake backend: NumPy's namespace with device-array results."""

    def __init__(self, name: str, np_mod, allowed=None) -> None:
        super().__init__(name)
        self._np_mod = np_mod
        self._allowed = allowed

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        if self._allowed is not None and name not in self._allowed:
            raise AttributeError(f"the fake device's xp (like cupy) has no attribute {name!r}")
        attr = getattr(self._np_mod, name)
        if name == "ndarray":
            w = FakeDeviceArray
        elif isinstance(attr, np.ufunc):
            w = _FakeUfunc(attr)
        elif isinstance(attr, types.ModuleType):
            sub = _SUBMODULE_NAMES.get(name)
            w = _FakeModule(f"{self.__name__}.{name}", attr, sub)
        elif self._np_mod is np.linalg and name in _SILENT_FACTORIZATIONS:
            w = _silent_factorization(_function(attr, name), name)
        elif isinstance(attr, type) or not callable(attr):
            w = attr
        elif name in _CONVERTERS:
            w = _converter(attr, name)
        elif name == "asnumpy":
            w = _asnumpy
        elif name in ("full", "full_like"):
            w = _filler(attr, name) if name == "full" else _falsy_shape_like(_filler(attr, name))
        elif name in ("zeros_like", "ones_like", "empty_like"):
            w = _falsy_shape_like(_function(attr, name))
        else:
            w = _function(attr, name)
        object.__setattr__(self, name, w)
        return w


# cupy functions that start by calling a method of (or are typed on) their array argument,
# so a Python or NumPy scalar there fails (``cupy.reshape(3, (1,))``: AttributeError)
_ARRAY_FIRST = {"reshape", "transpose", "broadcast_to", "moveaxis", "squeeze", "expand_dims", "ravel",
                "swapaxes", "flip", "rollaxis"}


def _function(fn, name):
    where = f"xp.{name}"
    array_first = name in _ARRAY_FIRST

    def f(*args, **kwargs):
        if array_first and args and not isinstance(args[0], FakeDeviceArray):
            if isinstance(args[0], np.generic) and hasattr(args[0], name):
                # cupy calls the NumPy scalar's own method: a host array comes back
                return getattr(args[0], name)(*args[1:], **kwargs)
            raise AttributeError(f"'{type(args[0]).__name__}' object has no attribute '{name}' "
                                 f"(cupy.{name} needs a cupy.ndarray; the fake device likewise)")
        if name == "where":
            _cupy_where_condition(args, kwargs)
            _cupy_where_int_literal(args)
        dev = _check((args, kwargs), where)
        return _wrap(fn(*_unwrap(args), **_unwrap(kwargs)), dev)

    f.__name__ = name
    return f


# cupy's factorizations do not check cuSOLVER's status unless asked (``cupyx.errstate(linalg=
# "raise")``, the backend's `linalg_errors`): a singular or non-positive-definite input gives
# unspecified values, not LinAlgError.  The fake gives zeros there (never NaN: a caller that
# relies on an exception or on NaN notices).
_SILENT_FACTORIZATIONS = {"cholesky", "solve", "inv"}


def _silent_factorization(f, name):
    def g(*args, **kwargs):
        checked = getattr(_state, "linalg_raise", False)
        if checked:
            _count("d2h")  # the status is read on the host
        try:
            return f(*args, **kwargs)
        except np.linalg.LinAlgError:
            if checked:
                raise
            a = _unwrap(args[0])
            shape = a.shape
            if name == "solve":  # the shape of the solution of a regular system
                eye = np.broadcast_to(np.eye(a.shape[-1]), a.shape)
                shape = np.linalg.solve(eye, _unwrap(args[1])).shape
            dtype = np.result_type(*[np.dtype(x.dtype) for x in args[:2]])
            return _wrap(np.zeros(shape, dtype), args[0]._fake_device)

    g.__name__ = name
    return g


def _filler(fn, name):
    """``xp.full`` / ``xp.full_like``: cupy fills with ``ndarray.fill`` (zero bytes for 0)."""
    inner = _function(fn, name)

    def f(*args, **kwargs):
        args = list(args)
        pos = 1 if len(args) > 1 else None
        if "fill_value" in kwargs:
            kwargs["fill_value"] = _cupy_fill_value(kwargs["fill_value"])
        elif pos is not None:
            args[pos] = _cupy_fill_value(args[pos])
        return inner(*args, **kwargs)

    f.__name__ = name
    return f


def _falsy_shape_like(f):
    """``xp.zeros_like``/``ones_like``/``empty_like``/``full_like``: cupy's ``shape=()`` means
    ``a``'s shape (it tests ``shape if shape else a.shape``), where NumPy's gives a 0-d array."""

    def g(a, *args, **kwargs):
        if "shape" in kwargs and kwargs["shape"] is not None and not kwargs["shape"]:
            kwargs["shape"] = None
        return f(a, *args, **kwargs)

    g.__name__ = f.__name__
    return g


def _converter(fn, name):
    """``xp.asarray`` and friends: the explicit host->device copy (as in cupy)."""

    def f(a, *args, **kwargs):
        if isinstance(a, FakeDeviceArray):
            return _wrap(fn(a.view(np.ndarray), *args, **kwargs), a._fake_device)
        _check((args, kwargs), f"xp.{name}")
        if BACKEND is not None and (isinstance(a, np.ndarray) or isinstance(a, (list, tuple))):
            BACKEND.transfers["h2d"] += 1
        res = _cupy_asarray_of_host(fn(_unwrap(a), *args, **kwargs))
        return _wrap(res)

    f.__name__ = name
    return f


def _asnumpy(a, *args, **kwargs):
    if isinstance(a, FakeDeviceArray):
        return a.get()
    return np.asarray(a, *args, **kwargs)


_CUPY_NAMES, _CUPY_LINALG = _cupy_names()
_SUBMODULE_NAMES = {"linalg": _CUPY_LINALG}
if _CUPY_NAMES is not None:
    _CUPY_NAMES |= {"asnumpy"}
fake_xp = _FakeModule("fgrad_fake_xp", np, _CUPY_NAMES)
fake_xp.asnumpy = _asnumpy  # type: ignore[attr-defined]
# what cupyx.scipy.special (cupy 14.2) lacks: ops over these functions take their host path on
# the fake device too, so CI runs it (fgrad.ops.special_integrals)
fake_xp.special_missing = frozenset(  # type: ignore[attr-defined]
    {"dawsn", "fresnel", "spence", "owens_t", "hyp1f1", "hyp2f1", "wofz"})


# -- the backend ------------------------------------------------------------------------

class FakeBackend(backends.Backend):
    """Backend ``"fake"``: `FakeDeviceArray` buffers on ``n_devices`` fake devices."""

    def __init__(self, platform: str = "fake", n_devices: int = 2) -> None:
        super().__init__("fake", fake_xp, (FakeDeviceArray,), platform=platform)
        self._devices = [backends.Device(platform, i, "fake") for i in range(n_devices)]
        self.multi_device = n_devices > 1
        self.transfers = {"h2d": 0, "d2h": 0}
        # cupy's kernels are built with -ftz=true; the plain fake keeps NumPy's subnormals
        # unless asked (`load` turns this on for ``FGRAD_BACKEND=fake``)
        self.flushes_float32_subnormals = False

    def devices(self) -> list:
        return list(self._devices)

    def current_device(self) -> backends.Device:
        return self._devices[_current()]

    def device_of(self, buf) -> backends.Device:
        return self._devices[buf._fake_device]

    def to_host(self, buf) -> np.ndarray:
        return buf.get()

    def from_host(self, arr, device=None):
        self.transfers["h2d"] += 1
        out = backends.upload(_cupy_asarray_of_host, np.asarray(arr)).view(FakeDeviceArray)
        out._fake_device = _current() if device is None else device.id
        return out

    def put(self, buf, device):
        if buf._fake_device == device.id:
            return buf
        out = np.array(buf.view(np.ndarray), copy=True).view(FakeDeviceArray)
        out._fake_device = device.id
        return out

    @contextlib.contextmanager
    def device_scope(self, device):
        saved = _current()
        _state.device = device.id
        try:
            yield
        finally:
            _state.device = saved

    def reset_counters(self) -> None:
        self.transfers = {"h2d": 0, "d2h": 0}

    @contextlib.contextmanager
    def linalg_errors(self):
        """Factorizations raise LinAlgError inside (each checked call reads the status on
        the host, as cupy's ``errstate(linalg="raise")`` does: counted as a d2h copy)."""
        saved = getattr(_state, "linalg_raise", False)
        _state.linalg_raise = True
        try:
            yield
        finally:
            _state.linalg_raise = saved


BACKEND: FakeBackend | None = None
_saved_platforms: dict = {}


def install(platform: str = "fake", n_devices: int = 2) -> FakeBackend:
    """Register the fake backend (idempotent) and return it.  ``platform="cuda"`` makes
    ``"cuda"``/``"gpu"`` resolve to it (refused while the real cupy backend is loaded)."""
    global BACKEND
    if BACKEND is not None:
        if BACKEND.platform != platform or len(BACKEND._devices) != n_devices:
            uninstall()
        else:
            return BACKEND
    aliases: tuple = ()
    if platform != "fake":
        if "cupy" in backends._BACKENDS:
            raise RuntimeError("the real cupy backend is loaded; the fake device cannot impersonate it")
        aliases = (platform, "gpu") if platform == "cuda" else (platform,)
        _saved_platforms.clear()
        _saved_platforms.update({a: backends._PLATFORMS.get(a) for a in aliases})
    BACKEND = FakeBackend(platform, n_devices)
    backends.register_backend(BACKEND, aliases=aliases)
    for a in aliases:
        backends._PLATFORMS[a] = "fake"
    return BACKEND


def uninstall() -> None:
    """Unregister the fake backend (and restore any names it impersonated)."""
    global BACKEND
    if BACKEND is None:
        return
    backends.unregister_backend("fake")
    for a, v in _saved_platforms.items():
        if v is not None:
            backends._PLATFORMS[a] = v
    _saved_platforms.clear()
    BACKEND = None


_strict_for_good: list = []  # the process-wide strict_host_conversion entered by load()


def load() -> FakeBackend:
    """Entry point for ``get_backend("fake")`` and ``FGRAD_BACKEND=fake``.

    With ``FGRAD_BACKEND=fake`` the fake stands in for the GPU as the default device: it
    impersonates ``cuda`` (devices ``cuda:0``, ``cuda:1``; the shim's CUDA device too, as
    cupy is on a GPU machine) and NumPy's converters stay strict for the rest of the process
    (`strict_host_conversion`, as cupy's implicit conversion is), so
    ``FGRAD_BACKEND=fake pytest`` behaves like a run with ``FGRAD_BACKEND=cupy`` on a GPU.
    Otherwise it installs the plain ``fake`` backend.
    """
    if BACKEND is not None:
        return BACKEND
    if os.environ.get("FGRAD_BACKEND", "").strip().lower().partition(":")[0] != "fake":
        return install()  # get_backend("fake") in a normal run: a plain fake, not strict
    be = install(platform="cuda")
    be.flushes_float32_subnormals = True  # stand in for cupy's -ftz=true kernels
    if not _strict_for_good:
        block = strict_host_conversion()
        block.__enter__()
        _strict_for_good.append(block)
    return be


_NUMPY_CONVERTERS = ("asarray", "array", "ascontiguousarray", "asanyarray")


@contextlib.contextmanager
def strict_host_conversion():
    """Inside the block ``np.asarray(a)`` / ``np.array(a)`` / ... of a fake device array raise
    `HostArrayLeak`, as cupy's implicit conversion does (NumPy itself never calls
    ``__array__`` on an ndarray subclass, so only these names, looked up on the numpy module
    at call time, can catch it).  Host copies go through ``.get()`` / the backend's ``to_host``.
    ``installed()`` applies it inside its block.

    Example::

        >>> import numpy as np
        >>> with installed() as be:
        ...     x = be.from_host(np.arange(3.0))
        ...     try:
        ...         np.asarray(x)
        ...     except HostArrayLeak:
        ...         print("refused; host copy:", x.get())
        refused; host copy: [0. 1. 2.]
    """
    saved = {name: getattr(np, name) for name in _NUMPY_CONVERTERS}

    def strict(name, fn):
        def convert(a, *args, **kwargs):
            # ``subok=True`` keeps the device array (NumPy's own helpers, e.g. as_strided)
            if isinstance(a, FakeDeviceArray) and not kwargs.get("subok"):
                raise HostArrayLeak(
                    f"numpy.{name} of a fake-device array {a.dtype}{list(a.shape)}: an implicit "
                    "device->host copy (cupy raises TypeError here); use the backend's to_host")
            return fn(a, *args, **kwargs)

        convert.__wrapped__ = fn
        return convert

    for name, fn in saved.items():
        setattr(np, name, strict(name, fn))
    try:
        yield
    finally:
        for name, fn in saved.items():
            setattr(np, name, fn)


@contextlib.contextmanager
def installed(platform: str = "fake", n_devices: int = 2, default: bool = False):
    """``with installed():`` the fake backend is registered inside the block (and, with
    ``default=True``, it is the default device there); whatever was installed before is
    restored on exit."""
    prev = None if BACKEND is None else (BACKEND.platform, len(BACKEND._devices))
    configured_default = backends._DEFAULT[0]  # FGRAD_BACKEND=fake: survives a swap below
    be = install(platform, n_devices) if prev != (platform, n_devices) else BACKEND
    try:
        with strict_host_conversion():
            if default:
                with backends.default_device_scope(be.devices()[0]):
                    yield be
            else:
                yield be
    finally:
        if prev != (platform, n_devices):
            uninstall()
            if prev is not None:
                install(*prev)
            if configured_default.backend_name in backends._BACKENDS:
                backends._DEFAULT[0] = configured_default


__all__ = ["BACKEND", "FakeBackend", "FakeDeviceArray", "HostArrayLeak", "fake_xp", "install",
           "installed", "load", "strict_host_conversion", "uninstall"]
