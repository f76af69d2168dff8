"""`fgrad.io`: save and load pytrees of arrays (checkpoints), safely.

``fgrad.io.save(path, tree)`` writes a ``.npz`` (NumPy's zip of ``.npy`` files) or, when the
path ends in ``.safetensors``, a safetensors file; ``fgrad.io.load(path, like=None)`` reads
either back.  Leaves are stored under their key paths (``"layers.0.w"``), the structure as
JSON.  Nothing is pickled and loading never runs code: object arrays, pickles and
malformed files are refused with `UnsafeCheckpointError` / `ValueError`.  Without ``like``
the tree comes back as dicts, lists and tuples (namedtuples and dataclasses as dicts of
their fields); with ``like`` (a tree of the same structure, e.g. freshly initialised
parameters) it comes back with ``like``'s exact types, shapes and dtypes checked.

A file without fgrad's structure (``np.savez``, a PyTorch ``state_dict`` written by
``safetensors.torch.save_file``) loads as a flat ``{name: Array}`` dict.

Example::

    >>> import os, tempfile, fgrad.numpy as fnp, fgrad.io
    >>> params = {"layers": [{"w": fnp.ones((2, 2)), "b": fnp.zeros(2)}], "step": 3}
    >>> path = os.path.join(tempfile.mkdtemp(), "ckpt.npz")
    >>> fgrad.io.save(path, params)
    >>> back = fgrad.io.load(path)
    >>> back["step"], back["layers"][0]["w"].shape
    (3, (2, 2))
"""

from __future__ import annotations

import io as _bytes_io
import json
import os
import zipfile

import numpy as np

from ..core.narrow_floats import dtype_kind as _dtype_kind

from ..core.array import ArrayImpl, Tracer
from ..numpy import asarray
from ..tree_util import tree_flatten_with_path, tree_unflatten
from . import safetensors_format
from .safetensors_format import SafetensorsError
from .tree_json import decode, encode, leaf_name

_TREE_ENTRY = "__fgrad_tree__"
_FORMAT = {"format": "fgrad.io", "version": 1}


class UnsafeCheckpointError(ValueError):
    """A checkpoint holds something loading would have to execute or unpickle.

    Example::

        >>> import fgrad
        >>> issubclass(fgrad.io.UnsafeCheckpointError, Exception)
        True
    """


def save(path: str | os.PathLike, tree, *, format: str | None = None) -> None:  # noqa: A002
    """Write the pytree ``tree`` of arrays and numbers to ``path``.

    ``format``: ``"npz"`` or ``"safetensors"``; by default from the suffix
    (``.safetensors``), else npz.  Leaves: fgrad Arrays (copied to the host), NumPy arrays,
    Python and NumPy numbers, of bool, integer, float or complex dtype; containers: dicts
    with str/int keys, lists, tuples, None, namedtuples, registered dataclasses and nodes.

    Example::

        >>> import os, tempfile, fgrad.numpy as fnp
        >>> save(os.path.join(tempfile.mkdtemp(), "w.safetensors"), {"w": fnp.ones(3)})
    """
    fmt = _format(path, format)
    spec, names, leaves = encode(tree)
    seen: dict[str, int] = {}
    arrays = {}
    for name, leaf in zip(names, leaves):
        if name in seen or name == _TREE_ENTRY:
            raise ValueError(
                f"fgrad.io.save: two leaves (or a reserved name) share the flat name {name!r}; rename a "
                "dict key so that key paths joined by '.' are unique"
            )
        seen[name] = 1
        arrays[name] = _host_leaf(name, leaf)
    meta = json.dumps({**_FORMAT, "tree": spec}, separators=(",", ":"))
    if fmt == "safetensors":
        safetensors_format.save_file(arrays, path, metadata={"fgrad_tree": meta})
        return
    for name, arr in arrays.items():
        if arr.dtype.kind not in "biufc":  # NumPy's .npy format stores bfloat16 as raw bytes ('V2')
            raise TypeError(f"fgrad.io.save: leaf {name!r} is {arr.dtype}, which .npz cannot describe; "
                            "save to a '.safetensors' path (BF16), or convert the leaf with .astype(float32)")
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as z:
        _write_npy(z, _TREE_ENTRY, np.frombuffer(meta.encode(), np.uint8))
        for name, arr in arrays.items():
            _write_npy(z, name, arr)


def load(path: str | os.PathLike, like=None):
    """Read a pytree written by `save` (or any safe ``.npz`` / ``.safetensors`` of arrays).

    With ``like``, the result has ``like``'s structure and leaf types, and every stored leaf
    must match its shape and dtype (`ValueError` names the first mismatch); arrays come back
    as fgrad Arrays on the default device, saved Python numbers as Python numbers.

    Example::

        >>> import os, tempfile, fgrad.numpy as fnp
        >>> p = os.path.join(tempfile.mkdtemp(), "t.npz")
        >>> save(p, (fnp.arange(2.0), 1.5))
        >>> load(p, like=(fnp.zeros(2), 0.0))
        (Array([0., 1.], dtype=float64), 1.5)
    """
    with open(path, "rb") as f:
        blob = f.read()
    arrays, meta = _read(blob, path)
    if meta is None:
        leaves = {name: asarray(a) for name, a in arrays.items()}
        return leaves if like is None else _into_like(like, leaves, path)
    try:
        spec = json.loads(meta)["tree"]
    except (json.JSONDecodeError, KeyError, TypeError) as e:
        raise ValueError(f"fgrad.io.load: {path}: the stored tree structure is not valid: {e}") from None
    py_types = _python_types(spec)
    leaves = {name: _from_host(a, py_types.get(name)) for name, a in arrays.items()}
    if like is not None:
        return _into_like(like, leaves, path)
    return decode(spec, leaves)


def _format(path, fmt: str | None) -> str:
    if fmt is None:
        return "safetensors" if str(path).endswith(".safetensors") else "npz"
    if fmt not in ("npz", "safetensors"):
        raise ValueError(f"fgrad.io.save: format must be 'npz' or 'safetensors', got {fmt!r}")
    return fmt


def _host_leaf(name: str, leaf) -> np.ndarray:
    if isinstance(leaf, Tracer):
        raise TypeError(f"fgrad.io.save: leaf {name!r} is a traced value; save concrete arrays, outside "
                        "jit/grad/vmap")
    if isinstance(leaf, ArrayImpl) or isinstance(leaf, (np.ndarray, np.generic, bool, int, float, complex)):
        arr = np.asarray(leaf)
    else:
        raise TypeError(
            f"fgrad.io.save: leaf {name!r} is a {type(leaf).__name__}; checkpoints hold arrays and numbers "
            "(keep other values out of the tree, or register them as static fields)"
        )
    if _dtype_kind(arr.dtype) not in "biufc":
        raise TypeError(f"fgrad.io.save: leaf {name!r} has dtype {arr.dtype}; only bool, integer, float and "
                        "complex arrays can be saved")
    return arr


def _write_npy(z: zipfile.ZipFile, name: str, arr: np.ndarray) -> None:
    buf = _bytes_io.BytesIO()
    np.lib.format.write_array(buf, arr, allow_pickle=False)
    z.writestr(name + ".npy", buf.getvalue())


def _read(blob: bytes, path) -> tuple[dict[str, np.ndarray], str | None]:
    if blob[:2] == b"PK":
        return _read_npz(blob, path)
    if blob[:1] == b"\x80" or blob[:6] == b"\x93NUMPY":
        raise UnsafeCheckpointError(
            f"fgrad.io.load: {path} is a pickle or a bare .npy file, not a checkpoint; fgrad never "
            "unpickles (loading a pickle can run arbitrary code)"
        )
    try:
        arrays, metadata = safetensors_format.loads(blob)
    except SafetensorsError as e:
        raise ValueError(
            f"fgrad.io.load: {path} is neither an .npz nor a valid safetensors file ({e})"
        ) from None
    return arrays, metadata.get("fgrad_tree")


def _read_npz(blob: bytes, path) -> tuple[dict[str, np.ndarray], str | None]:
    arrays, meta = {}, None
    with zipfile.ZipFile(_bytes_io.BytesIO(blob)) as z:
        for member in z.namelist():
            if not member.endswith(".npy"):
                raise UnsafeCheckpointError(
                    f"fgrad.io.load: {path} holds {member!r}, which is not an .npy array; refusing it"
                )
            name = member[:-4]
            with z.open(member) as f:
                try:
                    arr = np.lib.format.read_array(f, allow_pickle=False)
                except ValueError as e:
                    raise UnsafeCheckpointError(
                        f"fgrad.io.load: {path}: entry {name!r} is an object array (pickled Python objects), "
                        f"which loading would have to unpickle; refused ({e})"
                    ) from None
            if arr.dtype.kind not in "biufc":
                raise UnsafeCheckpointError(f"fgrad.io.load: {path}: entry {name!r} has dtype {arr.dtype}; "
                                            "checkpoints hold only numeric and bool arrays")
            if name == _TREE_ENTRY:
                meta = arr.astype(np.uint8).tobytes().decode("utf-8", errors="replace")
            else:
                arrays[name] = arr
    return arrays, meta


def _python_types(spec) -> dict[str, str]:
    out: dict[str, str] = {}
    stack = [spec]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        if node.get("t") == "leaf" and isinstance(node.get("py"), str):
            out[str(node.get("name"))] = node["py"]
        stack.extend(node.get("c") or [])
    return out


_PY = {"bool": bool, "int": int, "float": float, "complex": complex}


def _from_host(arr: np.ndarray, py_type: str | None):
    if py_type in _PY and arr.ndim == 0:
        return _PY[py_type](arr.item())
    return asarray(arr)


def _into_like(like, leaves: dict, path):
    flat, treedef = tree_flatten_with_path(like)
    names = [leaf_name(p) for p, _ in flat]
    missing = [n for n in names if n not in leaves]
    extra = sorted(set(leaves) - set(names))
    if missing or extra:
        raise ValueError(
            f"fgrad.io.load: {path} does not match like=: missing {missing[:5]}"
            f"{'...' if len(missing) > 5 else ''}, unexpected {extra[:5]}{'...' if len(extra) > 5 else ''}"
        )
    out = []
    for name, (_, ref) in zip(names, flat):
        got = leaves[name]
        if isinstance(ref, (bool, int, float, complex)):
            if np.ndim(got) != 0:
                raise ValueError(f"fgrad.io.load: {path}: leaf {name!r} has shape {np.shape(got)}, like= "
                                 f"has a Python {type(ref).__name__}")
            out.append(type(ref)(np.asarray(got).item()))
            continue
        got = asarray(got)
        want_shape, want_dtype = tuple(np.shape(ref)), getattr(ref, "dtype", None)
        if got.shape != want_shape or (want_dtype is not None and np.dtype(want_dtype) != got.dtype):
            raise ValueError(
                f"fgrad.io.load: {path}: leaf {name!r} is {got.dtype}{list(got.shape)} but like= has "
                f"{np.dtype(want_dtype) if want_dtype is not None else '?'}{list(want_shape)}"
            )
        out.append(got)
    return tree_unflatten(treedef, out)


__all__ = ["UnsafeCheckpointError", "load", "save"]
