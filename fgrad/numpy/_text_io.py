"""Text and archive I/O (NumPy's ``loadtxt``, ``savetxt``, ``genfromtxt``, ``fromregex``,
``savez_compressed``): NumPy parses and formats on the host, fgrad holds the numbers.

Only numeric data comes in: a dtype whose values are not numbers (strings, objects, records,
datetimes) raises TypeError, so nothing loaded is ever unpickled or kept as Python objects.
Writing copies a device array to the host explicitly.

Example::

    >>> import io, fgrad.numpy as fnp
    >>> buf = io.StringIO(); fnp.savetxt(buf, fnp.asarray([[1.0, 2.0], [3.0, 4.0]]), fmt="%g")
    >>> _ = buf.seek(0); fnp.loadtxt(buf)
    Array([[1., 2.],
           [3., 4.]], dtype=float64)
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..backends import to_host
from ..core.array import ArrayImpl, Tracer
from ._creation import asarray
from ..typing import Array, ArrayLike, DTypeLike


@runtime_checkable
class SupportsRead(Protocol):
    """A text or binary file open for reading (anything with ``read``)."""

    def read(self, size: int = -1, /) -> Any: ...


@runtime_checkable
class SupportsWrite(Protocol):
    """A text or binary file open for writing (anything with ``write``)."""

    def write(self, data: Any, /) -> Any: ...


def _host(x, fn: str):
    """A NumPy copy of ``x`` on the host (a device array is copied explicitly)."""
    if type(x) is ArrayImpl:
        return to_host(x._buf)
    if isinstance(x, Tracer):
        return x.__array__()  # raises TracerArrayConversionError under jit, naming the fix
    return np.asarray(x)


def _numeric_dtype(dtype, fn: str):
    if dtype is None:
        return None
    dt = np.dtype(dtype)
    if dt.names is not None or dt.kind not in "biufc":
        raise TypeError(f"fgrad.numpy.{fn}: only numeric dtypes (bool, integers, floats, complex) can be "
                        f"loaded into fgrad arrays, got {dt}; read records or text with numpy.{fn} itself")
    return dt


def _numeric_result(out, fn: str):
    if not isinstance(out, np.ndarray) or out.dtype.names is not None or out.dtype.kind not in "biufc":
        kind = type(out).__name__ if not isinstance(out, np.ndarray) else str(out.dtype)
        raise TypeError(f"fgrad.numpy.{fn}: the file holds non-numeric data ({kind}); pass a numeric dtype, "
                        f"or read it with numpy.{fn} itself")
    return asarray(out)


def loadtxt(fname, dtype=float, comments="#", delimiter=None, converters=None, skiprows: int = 0,
            usecols=None, unpack: bool = False, ndmin: int = 0, encoding=None, max_rows=None, *,
            quotechar=None, like=None):
    """``numpy.loadtxt``: a numeric text table as an fgrad array (``unpack=True``: transposed,
    so ``x, y = loadtxt(..., unpack=True)`` unpacks the columns).

    Example::

        >>> import io, fgrad.numpy as fnp
        >>> fnp.loadtxt(io.StringIO("1,2\\n3,4"), delimiter=",", dtype=int)
        Array([[1, 2],
               [3, 4]], dtype=int64)
    """
    dt = _numeric_dtype(dtype, "loadtxt")
    out = np.loadtxt(fname, dtype=dt, comments=comments, delimiter=delimiter, converters=converters,
                     skiprows=skiprows, usecols=usecols, unpack=unpack, ndmin=ndmin, encoding=encoding,
                     max_rows=max_rows, quotechar=quotechar)
    return _numeric_result(out, "loadtxt")


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header: int = 0, skip_footer: int = 0,
               converters=None, missing_values=None, filling_values=None, usecols=None, names=None,
               excludelist=None, deletechars=" !#$%&'()*+,-./:;<=>?@[\\]^{|}~", replace_space="_",
               autostrip: bool = False, case_sensitive=True, defaultfmt="f%i", unpack=None,
               usemask: bool = False, loose: bool = True, invalid_raise: bool = True, max_rows=None,
               encoding=None, *, ndmin: int = 0, like=None):
    """``numpy.genfromtxt`` for numeric tables: missing entries become ``filling_values``
    (NaN for floats by default).  Named columns (``names``) and masked results
    (``usemask=True``) are records and masked arrays, which fgrad has not: they raise.

    Example::

        >>> import io, fgrad.numpy as fnp
        >>> fnp.genfromtxt(io.StringIO("1,,3\\n4,5,6"), delimiter=",")
        Array([[ 1., nan,  3.],
               [ 4.,  5.,  6.]], dtype=float64)
    """
    if names is not None:
        raise TypeError("fgrad.numpy.genfromtxt: names= gives a structured (record) array, which fgrad has "
                        "not; read the columns by position (usecols=)")
    if usemask:
        raise NotImplementedError("fgrad.numpy.genfromtxt: usemask=True gives a masked array, which fgrad "
                                  "has not; use filling_values= and fnp.isnan instead")
    dt = _numeric_dtype(dtype, "genfromtxt")
    out = np.genfromtxt(fname, dtype=dt, comments=comments, delimiter=delimiter, skip_header=skip_header,
                        skip_footer=skip_footer, converters=converters, missing_values=missing_values,
                        filling_values=filling_values, usecols=usecols, excludelist=excludelist,
                        deletechars=deletechars, replace_space=replace_space, autostrip=autostrip,
                        case_sensitive=case_sensitive, defaultfmt=defaultfmt, unpack=unpack, loose=loose,
                        invalid_raise=invalid_raise, max_rows=max_rows, encoding=encoding, ndmin=ndmin)
    return _numeric_result(out, "genfromtxt")


def fromregex(file: str | os.PathLike | SupportsRead, regexp: str | bytes | re.Pattern, dtype: DTypeLike,
              encoding: str | None = None) -> Array:
    """``numpy.fromregex`` for a numeric result: each match's groups become a row (one group:
    a 1-d array).  ``dtype`` is a numeric dtype (NumPy's needs a record dtype; records
    are not fgrad arrays).

    Example::

        >>> import io, fgrad.numpy as fnp
        >>> fnp.fromregex(io.StringIO("x=1 y=2 x=3 y=4"), r"x=(\\d+) y=(\\d+)", int)
        Array([[1, 2],
               [3, 4]], dtype=int64)
    """
    dt = _numeric_dtype(dtype, "fromregex")
    pattern = regexp if hasattr(regexp, "findall") else re.compile(regexp)
    own = not hasattr(file, "read")
    handle = open(file, encoding=encoding) if own else file  # noqa: SIM115
    try:
        content = handle.read()
    finally:
        if own:
            handle.close()
    if isinstance(content, bytes) and isinstance(pattern.pattern, str):
        content = content.decode(encoding or "latin1")
    elif isinstance(content, str) and isinstance(pattern.pattern, bytes):
        content = content.encode(encoding or "latin1")
    rows = pattern.findall(content)
    if pattern.groups <= 1:
        return asarray(np.asarray(rows, dtype=dt).reshape(-1))
    return asarray(np.asarray(rows, dtype=dt).reshape(-1, pattern.groups))


def savetxt(fname: str | os.PathLike | SupportsWrite, X: ArrayLike, fmt: str | Sequence[str] = "%.18e",
            delimiter: str = " ", newline: str = "\n", header: str = "", footer: str = "",
            comments: str = "# ", encoding: str | None = None) -> None:
    """``numpy.savetxt``: write a 1-d or 2-d array as text (a host copy).

    Example::

        >>> import io, fgrad.numpy as fnp
        >>> buf = io.StringIO(); fnp.savetxt(buf, fnp.asarray([1, 2]), fmt="%d")
        >>> buf.getvalue()
        '1\\n2\\n'
    """
    np.savetxt(fname, _host(X, "savetxt"), fmt=fmt, delimiter=delimiter, newline=newline, header=header,
               footer=footer, comments=comments, encoding=encoding)


def savez_compressed(file, *args, allow_pickle: bool = True, **kwds):
    """``numpy.savez_compressed``: several arrays in a compressed ``.npz`` file (host copies);
    read it back with `load`.

    Example::

        >>> import io, fgrad.numpy as fnp
        >>> buf = io.BytesIO(); fnp.savez_compressed(buf, w=fnp.ones(2)); _ = buf.seek(0)
        >>> fnp.load(buf)["w"]
        Array([1., 1.], dtype=float64)
    """
    np.savez_compressed(file, *[_host(a, "savez_compressed") for a in args],
                        **{k: _host(v, "savez_compressed") for k, v in kwds.items()})


__all__ = ["loadtxt", "genfromtxt", "fromregex", "savetxt", "savez_compressed"]
