"""The safetensors file format, read and written with NumPy alone (no pickle, no code).

A file is an 8-byte little-endian header length ``N``, ``N`` bytes of JSON (for each tensor
``{"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}``, plus an optional
``"__metadata__"`` of string pairs), then the raw little-endian C-order data.  The files are
those of the ``safetensors`` package (``safetensors.numpy`` / ``safetensors.torch``), which
need not be installed.

Example::

    >>> import numpy as np
    >>> blob = dumps({"w": np.ones((2, 2), np.float32)}, metadata={"step": "3"})
    >>> tensors, meta = loads(blob)
    >>> tensors["w"].dtype, tensors["w"].shape, meta
    (dtype('float32'), (2, 2), {'step': '3'})
"""

from __future__ import annotations

import json
import math
import os
import struct

import numpy as np

from ..core.narrow_floats import bfloat16 as _bfloat16

_CODES = {
    "BOOL": np.bool_, "U8": np.uint8, "I8": np.int8, "U16": np.uint16, "I16": np.int16,
    "U32": np.uint32, "I32": np.int32, "U64": np.uint64, "I64": np.int64, "F16": np.float16,
    "F32": np.float32, "F64": np.float64, "C64": np.complex64, "C128": np.complex128, "BF16": _bfloat16,
}
_NAMES = {np.dtype(t): code for code, t in _CODES.items()}
_MAX_HEADER = 100 * 1024 * 1024  # the safetensors package's own limit


class SafetensorsError(ValueError):
    """A file is not valid safetensors, or holds something fgrad cannot read.

    Example::

        >>> from fgrad.io import safetensors_format
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), 'bad.safetensors')
        >>> _ = open(path, 'wb').write(b'not a safetensors file')
        >>> try:
        ...     safetensors_format.load_file(path)
        ... except safetensors_format.SafetensorsError:
        ...     print('not valid safetensors')
        ...
        not valid safetensors
    """


def dumps(tensors: dict[str, np.ndarray], metadata: dict[str, str] | None = None) -> bytes:
    """The safetensors bytes of a flat ``{name: ndarray}`` mapping.

    Example::

        >>> len(dumps({"b": np.zeros(1, np.uint8)})) > 8
        True
    """
    header: dict = {}
    if metadata:
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
            raise TypeError("safetensors: metadata must map str to str")
        header["__metadata__"] = dict(metadata)
    chunks, offset = [], 0
    for name in sorted(tensors):
        if not isinstance(name, str) or name == "__metadata__":
            raise TypeError(f"safetensors: tensor names must be str other than '__metadata__', got {name!r}")
        arr = np.asarray(tensors[name])
        code = _NAMES.get(arr.dtype.newbyteorder("=") if arr.dtype.byteorder == ">" else arr.dtype)
        if code is None:
            raise TypeError(
                f"safetensors: tensor {name!r} has dtype {arr.dtype}, which safetensors cannot store; "
                f"supported: {', '.join(np.dtype(t).name for t in _CODES.values())}"
            )
        data = arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes(order="C")
        header[name] = {"dtype": code, "shape": list(arr.shape), "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned
    return struct.pack("<Q", len(text)) + text + b"".join(chunks)


def loads(blob: bytes) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """``({name: ndarray}, metadata)`` from safetensors bytes; every offset, shape and dtype
    is checked before any data is read.

    Example::

        >>> loads(dumps({"x": np.arange(3)}))[0]["x"].tolist()
        [0, 1, 2]
    """
    if len(blob) < 8:
        raise SafetensorsError("safetensors: the file is shorter than its 8-byte header length")
    (n,) = struct.unpack("<Q", blob[:8])
    if n > _MAX_HEADER or 8 + n > len(blob):
        raise SafetensorsError(f"safetensors: header length {n} exceeds the file ({len(blob)} bytes)")
    try:
        header = json.loads(blob[8:8 + n].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SafetensorsError(f"safetensors: the header is not valid JSON: {e}") from None
    if not isinstance(header, dict):
        raise SafetensorsError("safetensors: the header is not a JSON object")
    metadata = header.pop("__metadata__", None) or {}
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise SafetensorsError("safetensors: __metadata__ must map str to str")
    data = memoryview(blob)[8 + n:]
    out = {}
    for name, info in header.items():
        out[name] = _tensor(name, info, data)
    return out, metadata


def _tensor(name: str, info, data: memoryview) -> np.ndarray:
    try:
        code, shape, (begin, end) = info["dtype"], info["shape"], info["data_offsets"]
    except (TypeError, KeyError, ValueError):
        raise SafetensorsError(f"safetensors: entry {name!r} lacks dtype/shape/data_offsets") from None
    if code not in _CODES:
        raise SafetensorsError(
            f"safetensors: tensor {name!r} has dtype {code!r}, which NumPy cannot hold (BF16 and FP8 "
            "need converting to F32 first, e.g. tensor.float() before saving)"
        )
    if not (isinstance(shape, list) and all(isinstance(s, int) and s >= 0 for s in shape)):
        raise SafetensorsError(f"safetensors: tensor {name!r} has an invalid shape {shape!r}")
    dtype = np.dtype(_CODES[code]).newbyteorder("<")
    if not (isinstance(begin, int) and isinstance(end, int) and 0 <= begin <= end <= len(data)):
        raise SafetensorsError(f"safetensors: tensor {name!r} has offsets {[begin, end]} outside the data")
    if end - begin != math.prod(shape) * dtype.itemsize:
        raise SafetensorsError(
            f"safetensors: tensor {name!r} has {end - begin} bytes for shape {shape} of {code}"
        )
    flat = np.frombuffer(data[begin:end], dtype=dtype)
    return flat.astype(dtype.newbyteorder("="), copy=True).reshape(shape)


def save_file(tensors: dict[str, np.ndarray], filename: str | os.PathLike,
              metadata: dict[str, str] | None = None) -> None:
    """Write ``tensors`` to a .safetensors file (``safetensors.numpy.save_file``).

    Example::

        >>> from fgrad.io import safetensors_format
        >>> import os, tempfile, numpy as np
        >>> path = os.path.join(tempfile.mkdtemp(), 'w.safetensors')
        >>> tensors = {'w': np.array([1.0, 2.0], np.float32)}
        >>> safetensors_format.save_file(tensors, path, metadata={'step': '3'})
        >>> safetensors_format.load_file(path)
        ({'w': array([1., 2.], dtype=float32)}, {'step': '3'})
    """
    with open(filename, "wb") as f:
        f.write(dumps(tensors, metadata))


def load_file(filename: str | os.PathLike) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """``({name: ndarray}, metadata)`` from a .safetensors file.

    Example::

        >>> from fgrad.io import safetensors_format
        >>> import os, tempfile, numpy as np
        >>> path = os.path.join(tempfile.mkdtemp(), 'w.safetensors')
        >>> safetensors_format.save_file({'b': np.zeros((1, 2), np.int64)}, path)
        >>> tensors, metadata = safetensors_format.load_file(path)
        >>> tensors['b'], metadata
        (array([[0, 0]]), {})
    """
    with open(filename, "rb") as f:
        return loads(f.read())
