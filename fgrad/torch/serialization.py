"""``save`` / ``load`` in PyTorch's file format.

A file is a zip archive (stored, not compressed) as written by ``torch.save`` since PyTorch
1.6: ``<name>/data.pkl`` is a protocol-2 pickle of the object in which every tensor is
``torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks)`` and
every storage a persistent id ``('storage', torch.FloatStorage, key, location, numel)`` whose
bytes are the record ``<name>/data/<key>`` (64-byte aligned).  Views of one storage are
saved once and come back as views of one storage.  The names in the pickle are PyTorch's
(``torch.FloatStorage``, ``torch.Size``, classes of ``fgrad.torch.nn`` saved under
``torch.nn``...), so PyTorch can read files written here and fgrad.torch reads PyTorch's.

``load`` refuses to run code from a file by default (``weights_only=True``, as PyTorch >=
2.6): a restricted unpickler builds only tensors, parameters, storages, dtypes, devices,
sizes, (ordered) dicts, lists, tuples, sets and primitive values; anything else (a pickled
module, an arbitrary callable) raises ``pickle.UnpicklingError`` unless allowed with
`add_safe_globals` or loaded with ``weights_only=False`` (full pickle: only for trusted files).

Example::

    >>> import io, fgrad.torch as torch
    >>> buf = io.BytesIO()
    >>> torch.save({'w': torch.arange(3.)}, buf); _ = buf.seek(0)
    >>> torch.load(buf)
    {'w': tensor([0., 1., 2.])}
"""

from __future__ import annotations

import _compat_pickle
import contextlib
import io
import os
import pickle
import pickletools
import secrets
import stat
import struct
import sys
import types
import zipfile
import zlib
from collections import Counter, OrderedDict
from typing import Any

import numpy as np

import fgrad.torch as torch

import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from ._layout import layout, layout_by_name
from ._safe_unpickler import RestrictedUnpickler
from ._storage import TypedStorage, UntypedStorage, check_view
from ._tensor import Tensor, check_device
from .nn.parameter import Parameter
from .types import FileLike

__all__ = [
    "save",
    "load",
    "add_safe_globals",
    "get_safe_globals",
    "clear_safe_globals",
    "safe_globals",
    "DEFAULT_PROTOCOL",
]

DEFAULT_PROTOCOL = 2
_ALIGNMENT = 64

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from "
    "`False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but "
    "it can result in arbitrary code execution. Do it only if you got the file from a trusted source."
)
DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default "
    "with weights_only https://pytorch.org/docs/stable/generated/torch.load.html."
)


# ---------------------------------------------------------------------------------------
# names shared with PyTorch


class _StorageType:
    """What ``torch.FloatStorage`` etc. unpickle to: carries the element dtype."""

    def __init__(self, name: str, dtype: D.dtype) -> None:
        self.name, self.dtype = name, dtype

    def __repr__(self) -> str:
        return f"StorageType(dtype={self.dtype})"


_STORAGE_TYPES = {d: _StorageType(d._legacy + "Storage", d) for d in D.ALL}
_STORAGE_BY_NAME = {st.name: st for st in _STORAGE_TYPES.values()}


# ---------------------------------------------------------------------------------------
# saving


class _GlobalName:
    """An object that pickles as the global ``module.name`` (a PyTorch name)."""

    __slots__ = ("module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle checks that reduce functions are callable
        raise TypeError(f"{self.module}.{self.name} is a name for pickling only")


_REBUILD_V2 = _GlobalName("torch._utils", "_rebuild_tensor_v2")
_REBUILD_PARAM = _GlobalName("torch._utils", "_rebuild_parameter")
_TORCH_SIZE = _GlobalName("torch", "Size")
_TORCH_DEVICE = _GlobalName("torch", "device")
_GET_LAYOUT = _GlobalName("torch.serialization", "_get_layout")
_STORAGE_GLOBALS = {d: _GlobalName("torch", d._legacy + "Storage") for d in D.ALL}


class _StorageRef:
    """A storage to be written as its own record (persistent id)."""

    __slots__ = ("key", "flat", "dtype", "location")

    def __init__(self, key: str, flat: np.ndarray, dtype: D.dtype, location: str) -> None:
        self.key, self.flat, self.dtype, self.location = key, flat, dtype, location


def _torch_module_name(mod: str) -> str:
    """``fgrad.torch.nn.modules.linear`` -> ``torch.nn.modules.linear`` (PyTorch's name)."""
    if mod == "fgrad.torch" or mod.startswith("fgrad.torch."):
        return mod[len("fgrad.") :]
    return mod


class _Pickler(pickle._Pickler):
    """A protocol-2 pickler that writes PyTorch's names and puts storages in records."""

    def __init__(self, file, protocol) -> None:
        super().__init__(file, protocol)
        self.storages: dict = {}  # identity -> _StorageRef
        self.order: list = []

    def _storage_ref(self, t: Tensor) -> tuple:
        st = t.untyped_storage()
        nbytes = st.nbytes()
        ident = (st.data_ptr(), nbytes, t.dtype)
        ref = self.storages.get(ident)
        if ref is None:
            flat = np.frombuffer(_storage_bytes(st), dtype=t.dtype.np) if nbytes else np.empty(0, t.dtype.np)
            ref = _StorageRef(str(len(self.order)), flat, t.dtype, str(t.device))
            self.storages[ident] = ref
            self.order.append(ref)
        return ref

    def reducer_override(self, obj):

        if isinstance(obj, Tensor):
            if isinstance(obj, Parameter):
                return (_REBUILD_PARAM, (obj.data, obj.requires_grad, OrderedDict()))
            t = obj.detach() if obj.requires_grad else obj
            ref = self._storage_ref(t)
            return (
                _REBUILD_V2,
                (
                    ref,
                    t.storage_offset(),
                    tuple(t.size()),
                    tuple(t.stride()),
                    bool(obj.requires_grad),
                    OrderedDict(),
                ),
            )
        if isinstance(obj, torch.Size):
            return (_TORCH_SIZE, (tuple(obj),))
        if isinstance(obj, torch.device):
            return (_TORCH_DEVICE, (str(obj),))
        if isinstance(obj, layout):
            return (_GET_LAYOUT, (repr(obj),))
        return NotImplemented

    def persistent_id(self, obj):
        t = type(obj)
        if t is _StorageRef:
            return ("storage", _STORAGE_GLOBALS[obj.dtype], obj.key, obj.location, int(obj.flat.size))
        if t is not TypedStorage and not isinstance(obj, (TypedStorage, UntypedStorage)):
            return None
        if isinstance(obj, UntypedStorage):
            obj = TypedStorage(obj._bytes)
        ref = self._storage_ref(torch.Tensor(obj))
        return ("storage", _STORAGE_GLOBALS[ref.dtype], ref.key, ref.location, int(ref.flat.size))

    def save(self, obj, save_persistent_id=True):
        t = type(obj)
        if t is _GlobalName:
            self._write_global(obj, obj.module, obj.name)
            return
        if t is D.dtype:
            self._write_global(obj, "torch", obj.name)
            return
        super().save(obj, save_persistent_id)

    def _write_global(self, obj, module: str, name: str) -> None:
        memo = self.memo.get(id(obj))
        if memo is not None:
            self.write(self.get(memo[0]))
            return
        self.write(pickle.GLOBAL + module.encode("utf-8") + b"\n" + name.encode("utf-8") + b"\n")
        self.memoize(obj)

    def save_global(self, obj, name=None):
        if name is None:
            name = getattr(obj, "__qualname__", None) or obj.__name__
        module = getattr(obj, "__module__", None)
        if isinstance(obj, (type, types.FunctionType)) and module is not None \
                and _torch_module_name(module) != module:
            # fgrad.torch classes and functions (a transformer layer's ``activation=F.relu``) are
            # written under PyTorch's module names (fgrad maps them back)
            self._check_importable(obj, module, name)
            self._write_global(obj, _torch_module_name(module), name)
            return
        super().save_global(obj, name)

    @staticmethod
    def _check_importable(obj, module: str, name: str) -> None:
        __import__(module)
        mod = sys.modules[module]
        cur = mod
        for part in name.split("."):
            cur = getattr(cur, part, None)
        if cur is not obj:
            raise pickle.PicklingError(f"Can't pickle {obj!r}: it's not the same object as {module}.{name}")

    dispatch = pickle._Pickler.dispatch.copy()
    dispatch[types.FunctionType] = save_global  # the base table holds the base class's save_global


def _storage_bytes(st: UntypedStorage) -> np.ndarray:
    """The bytes of an untyped storage (no copy on the host; a copy to the host for a CUDA
    storage)."""
    if st.nbytes() == 0:
        return np.empty(0, np.uint8)
    b = st._bytes
    if _dev.is_dev(b):
        return _dev.to_host(b)
    return np.ascontiguousarray(b)


def _aligned_extra(offset: int, name: str, size: int) -> bytes:
    """An extra field padding the local header so the data starts on a 64-byte boundary."""
    zip64 = 20 if size * 1.05 > zipfile.ZIP64_LIMIT else 0
    start = offset + 30 + len(name.encode("utf-8")) + 4 + zip64
    pad = (-start) % _ALIGNMENT
    return b"FB" + struct.pack("<H", pad) + b"Z" * pad


def _archive_name(f) -> str:
    if isinstance(f, (str, os.PathLike)):
        base = os.path.basename(os.fspath(f))
        stem = os.path.splitext(base)[0]
        return stem or "archive"
    return "archive"


def _write_archive(obj_pickle: bytes, order: list, prefix: str, target, disable_byteorder: bool) -> None:
    """The zip archive (pickle, version records, one aligned record per storage) into the
    seekable binary file ``target``."""
    base = target.tell()
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:

        def put(name: str, payload, align: bool = False) -> None:
            full = f"{prefix}/{name}"
            info = zipfile.ZipInfo(full, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            info.create_system = 0
            if align:
                info.extra = _aligned_extra(target.tell() - base, full, len(payload))
            zf.writestr(info, payload)

        put("data.pkl", obj_pickle)
        put(".format_version", b"1")
        put(".storage_alignment", str(_ALIGNMENT).encode())
        if not disable_byteorder:
            put("byteorder", sys.byteorder.encode())
        for ref in order:
            # a byte view of the storage: zipfile streams it without a copy
            payload = memoryview(np.ascontiguousarray(ref.flat).reshape(-1).view(np.uint8))
            put(f"data/{ref.key}", payload, align=True)
        put("version", b"3\n")
        put(".data/serialization_id", str(abs(hash((id(obj_pickle), len(order))))).zfill(40)[:40].encode())


def _save_to_path(path: str, write) -> None:
    """Atomically create ``path``: ``write(fh)`` fills a new file beside it, which is flushed,
    fsync'ed and renamed over ``path`` (a crash leaves the old file or the new one, never a
    torn one).  A symlink is followed (its target is replaced); an existing non-regular file
    (``/dev/null``, a FIFO) is written in place, never replaced."""
    try:
        existing = os.stat(path)
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with open(path, "wb") as fh:
            write(fh)
        return
    path = os.path.realpath(path)
    directory = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        if existing is not None:  # keep the permissions the old file had, as open(path, "wb") would
            with contextlib.suppress(OSError):
                os.chmod(fd, stat.S_IMODE(existing.st_mode))
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if hasattr(os, "O_DIRECTORY"):  # make the rename itself durable
        with contextlib.suppress(OSError):
            dfd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)


def save(obj: Any, f: FileLike, pickle_module: Any = pickle,
         pickle_protocol: int = DEFAULT_PROTOCOL, _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    """Save ``obj`` (tensors, state dicts, whole modules, any picklable object holding
    tensors) to the path or binary file ``f`` in PyTorch's zip format.

    Saving to a path is atomic: the archive is written to a temporary file in the same
    directory, flushed to disk and renamed over ``f``.  A file object is written directly.

    Example::

        >>> import io, fgrad.torch as torch
        >>> buf = io.BytesIO()
        >>> torch.save({'w': torch.ones(2)}, buf)
        >>> buf.getvalue()[:2]
        b'PK'
    """
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("fgrad.torch.save writes only the zip-file format (PyTorch >= 1.6)")
    data = io.BytesIO()
    pickler = _Pickler(data, pickle_protocol)
    pickler.dump(obj)
    prefix = _archive_name(f)

    def write(fh) -> None:
        if getattr(fh, "seekable", lambda: False)():
            _write_archive(data.getvalue(), pickler.order, prefix, fh, _disable_byteorder_record)
        else:  # zipfile needs to seek back to fill in the headers
            target = io.BytesIO()
            _write_archive(data.getvalue(), pickler.order, prefix, target, _disable_byteorder_record)
            fh.write(target.getbuffer())

    if isinstance(f, (str, os.PathLike)):
        _save_to_path(os.fspath(f), write)
    else:
        write(f)


# ---------------------------------------------------------------------------------------
# loading: what a file may name


_safe_globals: dict = {}


def add_safe_globals(safe_globals: list) -> None:
    """Allow these classes/functions in ``load(weights_only=True)`` (entries may be objects or
    ``(object, "module.name")`` pairs).  An allowed class may be created (``__new__``/REDUCE)
    and filled (``__setstate__`` or its ``__dict__``) by a file: only add classes you trust.

    Example::

        >>> import fgrad.torch as torch
        >>> class Cfg: pass
        >>> torch.serialization.add_safe_globals([Cfg]); Cfg in torch.serialization.get_safe_globals()
        True
        >>> torch.serialization.clear_safe_globals()
    """
    for g in safe_globals:
        if isinstance(g, tuple):
            obj, full = g
            _safe_globals[full] = obj
            continue
        _safe_globals[f"{_torch_module_name(g.__module__)}.{g.__qualname__}"] = g
        _safe_globals[f"{g.__module__}.{g.__qualname__}"] = g


def get_safe_globals() -> list:
    """The objects allowed with `add_safe_globals`.

    Example::

        >>> import fgrad.torch as torch
        >>> class Point:
        ...     pass
        ...
        >>> torch.serialization.add_safe_globals([Point])
        >>> Point in torch.serialization.get_safe_globals()
        True
        >>> torch.serialization.clear_safe_globals()
    """
    return list({id(v): v for v in _safe_globals.values()}.values())


def clear_safe_globals() -> None:
    """Forget every `add_safe_globals` entry.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.serialization.clear_safe_globals()
        >>> torch.serialization.get_safe_globals()
        []
    """
    _safe_globals.clear()


@contextlib.contextmanager
def safe_globals(safe_globals: list) -> Any:
    """Context manager: `add_safe_globals` for the duration of the block.

    Example::

        >>> import fgrad.torch as torch
        >>> import io, fractions
        >>> buf = io.BytesIO(); torch.save({'p': fractions.Fraction(1, 3)}, buf); _ = buf.seek(0)
        >>> with torch.serialization.safe_globals([fractions.Fraction]):
        ...     print(torch.load(buf)['p'])
        ...
        1/3
        >>> fractions.Fraction in torch.serialization.get_safe_globals()
        False
    """
    saved = dict(_safe_globals)
    add_safe_globals(safe_globals)
    try:
        yield
    finally:
        _safe_globals.clear()
        _safe_globals.update(saved)


def _weights_only_error(message: str) -> pickle.UnpicklingError:
    """The error for a well-formed file that uses something not allowed by default: it says how
    to opt in (and what that means)."""
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, do those "
        "steps only if you trust the source of the checkpoint. \n\t(1) " + UNSAFE_MESSAGE + "\n\t(2) "
        "Alternatively, to load with `weights_only=True` please check the recommended steps in the "
        "following error message.\n\tWeightsUnpickler error: " + message + DOCS_MESSAGE
    )


def _blocked_module_error(full: str, module: str) -> pickle.UnpicklingError:
    """PyTorch's error for a global of a module it never loads from a file (sys, os)."""
    return pickle.UnpicklingError(
        f"Weights only load failed. {UNSAFE_MESSAGE}\n\n\nTrying to load unsupported GLOBAL {full} whose "
        f"module {module} is blocked." + DOCS_MESSAGE
    )


def _fgrad_name(module: str) -> str:
    """PyTorch module names -> fgrad.torch module names (``torch.nn.x`` -> ``fgrad.torch.nn.x``)."""
    if module == "torch" or module.startswith("torch."):
        return "fgrad." + module
    return module


def _safe_bytearray(*args) -> bytearray:
    """``bytearray`` as protocol 2 pickles it (``(str, 'latin-1')`` or bytes), never ``bytearray(n)``."""
    if len(args) == 0:
        return bytearray()
    if len(args) == 1 and isinstance(args[0], (bytes, bytearray)):
        return bytearray(args[0])
    if len(args) == 2 and isinstance(args[0], str) and args[1] in ("latin-1", "latin1"):
        return bytearray(args[0], args[1])
    raise pickle.UnpicklingError("bytearray: expected bytes or (str, 'latin-1') in the file")


def _safe_encode(text, encoding="latin1") -> bytes:
    """``_codecs.encode`` as protocol 2 pickles bytes: ``encode(str, 'latin1')`` only."""
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1", "utf-8", "utf8", "ascii"):
        raise pickle.UnpicklingError("_codecs.encode: only str with a latin1/utf-8/ascii encoding is allowed")
    return text.encode(encoding)


_PLAIN = (list, tuple, dict, OrderedDict, set, frozenset, str, bytes)


def _plain_ctor(cls):
    """``cls(iterable)`` for a plain container or string only: iterating a tensor from the file
    (possibly 2**62 elements of stride 0) or any other object is refused."""

    def make(*args):
        if len(args) > 1 or (args and type(args[0]) not in _PLAIN):
            raise pickle.UnpicklingError(f"{cls.__name__}: expected a plain container in the file")
        return cls(*args)

    make.__name__ = make.__qualname__ = cls.__name__
    return make


def _safe_complex(real=0.0, imag=0.0) -> complex:
    if type(real) not in (int, float, str) or type(imag) not in (int, float):
        raise pickle.UnpicklingError("complex: expected numbers in the file")
    return complex(real, imag)


def _get_layout(name) -> layout:
    """``torch.serialization._get_layout("torch.strided")``: how PyTorch writes a layout."""
    if type(name) is not str:
        raise pickle.UnpicklingError("_get_layout: expected a layout's name in the file")
    try:
        return layout_by_name(name)
    except ValueError as e:
        raise pickle.UnpicklingError(f"_get_layout: {e}") from None


def _safe_device(*args) -> torch.device:
    if not 1 <= len(args) <= 2 or not all(type(a) in (str, int) for a in args):
        raise pickle.UnpicklingError("torch.device: expected (str) or (str, int) in the file")
    return torch.device(*args)


def _safe_size(dims=()) -> torch.Size:
    if type(dims) not in (tuple, list) or not all(type(d) is int for d in dims):
        raise pickle.UnpicklingError("torch.Size: expected a tuple of ints in the file")
    return torch.Size(dims)


def _param_class():

    return Parameter


def _check_int(value, what: str) -> int:
    if type(value) is not int:
        raise RuntimeError(f"{what} must be an int, got {type(value).__name__}")
    return value


def _check_ints(values, what: str) -> tuple:
    if not isinstance(values, (tuple, list)):
        raise RuntimeError(f"{what} must be a tuple of ints, got {type(values).__name__}")
    return tuple(_check_int(v, what) for v in values)


def _set_public_state(obj, state) -> None:
    """Instance attributes from a file (a tensor's ``__dict__``): public names that the class
    does not define (no property, method or internal slot is ever replaced)."""
    if state is None:
        return
    if type(state) is tuple and len(state) == 2:  # (dict state, slots state)
        for s in state:
            _set_public_state(obj, s)
        return
    if type(state) not in (dict, OrderedDict):
        raise pickle.UnpicklingError(
            f"the state of a loaded {type(obj).__name__} must be a dict, got {type(state).__name__}"
        )
    for k in state:
        if type(k) is not str or not k.isidentifier() or k.startswith("_") or hasattr(type(obj), k):
            raise pickle.UnpicklingError(
                f"refusing to set the attribute {k!r} on a loaded "
                f"{type(obj).__name__}: only new public attributes can come from a file"
            )
    obj.__dict__.update(state)


class _Loader:
    """One load: reads the storage records of the zip file, builds tensors over them, and
    is the policy of the restricted unpickler (what a file may name, call and build)."""

    _BUILTINS = {
        ("collections", "OrderedDict"): _plain_ctor(OrderedDict),
        ("collections", "Counter"): _plain_ctor(Counter),
        ("builtins", "set"): _plain_ctor(set),
        ("builtins", "complex"): _safe_complex,
        ("builtins", "bytearray"): _safe_bytearray,
        ("_codecs", "encode"): _safe_encode,
        ("torch", "Size"): _safe_size,
        ("torch", "device"): _safe_device,
        ("torch.serialization", "_get_layout"): _get_layout,
    }  # PyTorch's default allow-list (not slice, frozenset, range: add_safe_globals allows them)

    def __init__(self, records: "_Records", map_location, trusted: bool = False) -> None:
        self.records, self.map_location, self.trusted = records, map_location, trusted
        self.storages: dict = {}  # record key -> TypedStorage
        self.bases: dict = {}  # id(TypedStorage) -> the flat tensor its views are made from
        Parameter = _param_class()
        self.parameter = Parameter
        rebuilds = {
            ("torch._utils", "_rebuild_tensor_v2"): self.rebuild_tensor_v2,
            ("torch._utils", "_rebuild_tensor"): self.rebuild_tensor,
            ("torch._utils", "_rebuild_parameter"): self.rebuild_parameter,
            ("torch._utils", "_rebuild_parameter_with_state"): self.rebuild_parameter_with_state,
            ("torch._tensor", "_rebuild_from_type_v2"): self.rebuild_from_type_v2,
        }
        # what REDUCE may call: exactly these objects (by identity)
        self.callables = {id(f): f for f in (*rebuilds.values(), *self._BUILTINS.values())}
        self.tensor_rebuilds = {id(f): f for f in rebuilds.values()}
        self.names = {
            **rebuilds,
            **self._BUILTINS,
            ("torch", "Tensor"): Tensor,
            ("torch._tensor", "Tensor"): Tensor,
            ("torch.nn.parameter", "Parameter"): Parameter,
            ("torch.nn", "Parameter"): Parameter,
        }
        for d in D.ALL:
            self.names[("torch", d.name)] = d
        for name, st in _STORAGE_BY_NAME.items():
            self.names[("torch", name)] = st

    # -- the policy of the restricted unpickler --------------------------------------------
    def find_class(self, module: str, name: str):
        module, name = _python3_name(module, name)
        g = self.names.get((module, name))
        if g is not None:
            return g
        full = f"{module}.{name}"
        if full in _safe_globals:
            return _safe_globals[full]
        if module in ("sys", "os", "posix", "nt"):
            raise _blocked_module_error(full, module)
        shown = name if module == "builtins" else full  # PyTorch's message: "GLOBAL slice", "[slice]"
        raise _weights_only_error(
            f"Unsupported global: GLOBAL {shown} was not an allowed global by default. Please use "
            f"`torch.serialization.add_safe_globals([{shown}])` or the "
            f"`torch.serialization.safe_globals([{shown}])` context manager to allowlist this global if you "
            "trust this class/function."
        )

    def _user_allowed(self, obj) -> bool:
        return any(obj is v for v in _safe_globals.values())

    def call(self, func, args: tuple):
        if self.callables.get(id(func)) is func or self._user_allowed(func):
            return func(*args)
        raise pickle.UnpicklingError(f"Trying to call reduce for unrecognized function {func!r:.100}")

    def new_object(self, cls, args: tuple):
        if cls is self.parameter:
            return self.rebuild_parameter(*args)
        if isinstance(cls, type) and self._user_allowed(cls):
            return cls.__new__(cls, *args)
        raise pickle.UnpicklingError(
            "Can only create new object for nn.Parameter or classes allowlisted via "
            f"`add_safe_globals` but got {cls!r:.100}"
        )

    def build(self, obj, state) -> None:
        if type(obj) is OrderedDict:  # a state dict's _metadata, nothing else (no method shadowing)
            if type(state) is not dict or set(state) - {"_metadata"}:
                raise pickle.UnpicklingError(
                    f"the state of an OrderedDict may only set _metadata, got {state!r:.100}"
                )
            obj.__dict__.update(state)
        elif isinstance(obj, Tensor) and (
            type(obj) in (Tensor, self.parameter) or self._user_allowed(type(obj))
        ):
            _set_public_state(obj, state)
        elif self._user_allowed(type(obj)):
            setstate = getattr(obj, "__setstate__", None)
            if setstate is not None and getattr(type(obj), "__setstate__", None) is not None:
                setstate(state)
            else:
                if type(state) is tuple and len(state) == 2:
                    state, slots = state
                    for k, v in (slots or {}).items():
                        setattr(obj, k, v)
                if state:
                    obj.__dict__.update(state)
        else:
            raise pickle.UnpicklingError(
                "Can only build Tensor, Parameter, OrderedDict or types allowlisted via "
                f"`add_safe_globals`, but got {type(obj)}"
            )

    def persistent_load(self, pid):
        if type(pid) is not tuple or len(pid) != 5:
            raise pickle.UnpicklingError(f"Only persistent_load of storage is allowed, but got {pid!r:.100}")
        tag, storage_type, key, location, numel = pid
        if isinstance(tag, bytes):
            tag = tag.decode("ascii", "replace")
        if tag != "storage" or not isinstance(storage_type, _StorageType):
            raise pickle.UnpicklingError(f"Only persistent_load of storage is allowed, but got {pid!r:.100}")
        if type(key) is not str or type(location) is not str or type(numel) is not int or numel < 0:
            raise RuntimeError(f"malformed storage id {pid!r:.200}")
        got = self.storages.get(key)
        if got is not None:
            if got.dtype is not storage_type.dtype:
                raise RuntimeError(f"storage data/{key} is read as both {got.dtype} and {storage_type.dtype}")
            return got
        flat = self.records.read_storage(key, storage_type, numel)
        st = TypedStorage(self._restore(flat, location), storage_type.dtype)
        self.storages[key] = st
        return st

    # -- the rebuild functions a file may call ---------------------------------------------
    def _base(self, storage) -> Tensor:
        if not isinstance(storage, TypedStorage):
            raise RuntimeError(f"_rebuild_tensor: expected a storage, got {type(storage).__name__}")
        base = self.bases.get(id(storage))
        if base is None:
            base = self.bases[id(storage)] = torch.Tensor(storage)
        return base

    def rebuild_tensor_v2(
        self, storage, storage_offset, size, stride, requires_grad=False, backward_hooks=None, metadata=None
    ):
        """``torch._utils._rebuild_tensor_v2``: a validated view of ``storage``."""
        base = self._base(storage)
        offset = _check_int(storage_offset, "storage_offset")
        size, stride = _check_ints(size, "size"), _check_ints(stride, "stride")
        check_view(size, stride, offset, storage.size(), storage.element_size(), "_rebuild_tensor")
        t = base.as_strided(size, stride, offset)
        if type(requires_grad) is not bool:
            raise RuntimeError(f"requires_grad must be a bool, got {type(requires_grad).__name__}")
        if requires_grad:
            t.requires_grad_(True)
        return t

    def rebuild_tensor(self, storage, storage_offset, size, stride):
        return self.rebuild_tensor_v2(storage, storage_offset, size, stride)

    def rebuild_parameter(self, data, requires_grad=True, backward_hooks=None):
        if not isinstance(data, Tensor) or type(requires_grad) is not bool:
            raise pickle.UnpicklingError("_rebuild_parameter: expected (Tensor, bool) in the file")
        return self.parameter(data, requires_grad)

    def rebuild_parameter_with_state(self, data, requires_grad, backward_hooks, state):
        p = self.rebuild_parameter(data, requires_grad)
        _set_public_state(p, state)
        return p

    def rebuild_from_type_v2(self, func, new_type, args, state):
        """A tensor with attributes (or an allow-listed Tensor subclass): ``func`` must be one of
        the rebuild functions above, ``new_type`` Tensor, Parameter or allow-listed."""
        if self.tensor_rebuilds.get(id(func)) is not func or type(args) is not tuple:
            raise pickle.UnpicklingError(
                f"_rebuild_from_type_v2: {func!r:.100} is not a tensor rebuild function"
            )
        subclass = isinstance(new_type, type) and issubclass(new_type, Tensor)
        allowed = new_type in (Tensor, self.parameter) or (
            subclass and (self.trusted or self._user_allowed(new_type))
        )
        if not allowed:
            raise pickle.UnpicklingError(
                f"_rebuild_from_type_v2: {new_type!r:.100} is not an allowed tensor type"
            )
        ret = func(*args)
        if type(ret) is not new_type:
            ret = Tensor._make_subclass(new_type, ret, ret.requires_grad)
        if self.trusted and state:  # weights_only=False: the file's own __setstate__ semantics
            for part in state if type(state) is tuple else (state,):
                for k, v in (part or {}).items():
                    setattr(ret, k, v)
        else:
            _set_public_state(ret, state)
        return ret

    def _restore(self, flat: np.ndarray, location: str):
        """The storage ``flat`` (host memory read from the file) placed where ``map_location``
        says: on the host, or copied to a CUDA device."""
        ml = self.map_location
        target = location
        if ml is None:
            pass
        elif isinstance(ml, dict):
            target = ml.get(location, location)
        elif isinstance(ml, (str, torch.device)):
            target = str(ml)
        elif callable(ml):
            res = ml(UntypedStorage(flat.view(np.uint8)), location)
            if res is not None:
                if isinstance(res, TypedStorage):
                    return res._flat.view(flat.dtype)
                if isinstance(res, UntypedStorage):
                    return res._bytes.view(flat.dtype)
                raise TypeError(f"map_location should return a storage, got {type(res).__name__}")
        else:
            raise ValueError(f"Unsupported map_location type {type(ml).__name__}")
        try:
            dev = torch.device(target)
        except Exception as e:  # noqa: BLE001 - a file's location string is untrusted
            raise RuntimeError(f"don't know how to restore data location {target!r:.100}") from e
        if dev.type == "cuda":
            if not torch.cuda.is_available():
                raise RuntimeError(
                    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
                    "False. If you are running on a CPU-only machine, please use torch.load with "
                    "map_location=torch.device('cpu') to map your storages to the CPU."
                )
            idx = 0 if dev.index is None else dev.index
            if idx >= torch.cuda.device_count():
                raise RuntimeError(
                    f"Attempting to deserialize object on CUDA device {idx} but torch.cuda.device_count() is "
                    f"{torch.cuda.device_count()}. Please use torch.load with map_location to map your "
                    "storages to an existing device."
                )
            return _dev.to_dev(flat, check_device(f"cuda:{idx}"))
        if dev.type != "cpu":
            raise RuntimeError(f"don't know how to restore data location {target!r:.100}")
        return flat


def _python3_name(module: str, name: str) -> tuple:
    """A protocol-2 pickle's Python 2 global as Python 3 names it (``__builtin__.xrange`` ->
    ``builtins.range``), as pickle's and PyTorch's unpicklers read it."""
    if (module, name) in _compat_pickle.NAME_MAPPING:
        return _compat_pickle.NAME_MAPPING[(module, name)]
    return _compat_pickle.IMPORT_MAPPING.get(module, module), name


class _FullUnpickler(pickle.Unpickler):
    """weights_only=False: any global (trusted files only); PyTorch's names map to fgrad.torch's."""

    def __init__(self, file, loader: _Loader) -> None:
        super().__init__(file, encoding="utf-8")
        self.loader = loader

    def persistent_load(self, pid):
        return self.loader.persistent_load(pid)

    def find_class(self, module, name):
        module, name = _python3_name(module, name)
        g = self.loader.names.get((module, name))
        if g is not None and (module, name) not in _Loader._BUILTINS:  # trusted: the real builtins
            return g
        return super().find_class(_fgrad_name(module), name)


# ---------------------------------------------------------------------------------------
# loading: the zip archive


_CHUNK = 1 << 24
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
_DEFLATE_MAX_RATIO = 1100  # deflate cannot expand data more than ~1032x


def _corrupt(message: str) -> RuntimeError:
    return RuntimeError(
        f"PytorchStreamReader failed reading zip archive: {message} (the file is truncated or corrupted)"
    )


class _Records:
    """The records of a torch zip archive, read straight into the arrays that hold them."""

    def __init__(self, fh, zf: zipfile.ZipFile, prefix: str) -> None:
        self.fh, self.zf, self.prefix = fh, zf, prefix
        fh.seek(0, os.SEEK_END)
        self.archive_size = fh.tell()
        order = self.read_small("byteorder", 16)
        self.swap = order is not None and order.decode("ascii", "replace").strip() not in ("", sys.byteorder)

    def info(self, name: str) -> zipfile.ZipInfo:
        try:
            info = self.zf.getinfo(f"{self.prefix}/{name}")
        except KeyError:
            raise RuntimeError(f"PytorchStreamReader failed locating file {name}: file not found") from None
        if info.flag_bits & 0x1:
            raise _corrupt(f"record {name} is encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise _corrupt(f"record {name} uses the unsupported compression method {info.compress_type}")
        if info.compress_type == zipfile.ZIP_STORED:
            if info.compress_size != info.file_size:
                raise _corrupt(
                    f"record {name} declares {info.file_size} bytes but stores {info.compress_size}"
                )
        elif info.file_size > _DEFLATE_MAX_RATIO * info.compress_size + 1024:
            raise _corrupt(
                f"record {name} declares {info.file_size} bytes from {info.compress_size} compressed"
            )
        if info.header_offset + info.compress_size > self.archive_size:
            raise _corrupt(f"record {name} of {info.compress_size} bytes runs past the end of the file")
        return info

    def read_small(self, name: str, limit: int) -> bytes | None:
        """A small text record (``byteorder``, ``version``), or None if there is none."""
        if f"{self.prefix}/{name}" not in self.zf.NameToInfo:
            return None
        info = self.info(name)
        if info.file_size > limit:
            raise _corrupt(f"record {name} is {info.file_size} bytes")
        return self.read_bytes(info)

    def read_bytes(self, info: zipfile.ZipInfo) -> bytes:
        try:
            return self.zf.read(info)
        except RuntimeError:
            raise
        except Exception as e:  # noqa: BLE001 - zipfile reports corruption with many types
            raise _corrupt(f"{info.filename}: {type(e).__name__}: {e}") from e

    def _data_offset(self, info: zipfile.ZipInfo) -> int:
        self.fh.seek(info.header_offset)
        head = self.fh.read(_LOCAL_HEADER.size)
        if len(head) != _LOCAL_HEADER.size or head[:4] != b"PK\x03\x04":
            raise _corrupt(f"bad local header of {info.filename}")
        fields = _LOCAL_HEADER.unpack(head)
        start = info.header_offset + _LOCAL_HEADER.size + fields[-2] + fields[-1]
        if start + info.file_size > self.archive_size:
            raise _corrupt(f"record {info.filename} runs past the end of the file")
        return start

    def read_into(self, info: zipfile.ZipInfo, out: np.ndarray) -> None:
        """The record's bytes into ``out`` (uint8, exactly the record's size), CRC-checked."""
        view = memoryview(out)
        readinto = getattr(self.fh, "readinto", None)
        if info.compress_type == zipfile.ZIP_STORED and readinto is not None:
            self.fh.seek(self._data_offset(info))
            done = 0
            while done < len(view):
                n = readinto(view[done : done + _CHUNK])
                if not n:
                    raise _corrupt(f"record {info.filename} is truncated")
                done += n
            crc = 0
            for i in range(0, len(view), _CHUNK):
                crc = zlib.crc32(view[i : i + _CHUNK], crc)
            if crc != info.CRC:
                raise _corrupt(f"CRC-32 mismatch in record {info.filename}")
            return
        try:
            with self.zf.open(info) as src:  # compressed (or no readinto): chunk by chunk
                done = 0
                while done < len(view):
                    chunk = src.read(min(_CHUNK, len(view) - done))
                    if not chunk:
                        raise _corrupt(f"record {info.filename} is truncated")
                    view[done : done + len(chunk)] = chunk
                    done += len(chunk)
                src.read(1)  # reaching the end makes zipfile check the CRC
        except RuntimeError:
            raise
        except Exception as e:  # noqa: BLE001 - zipfile reports corruption with many types
            raise _corrupt(f"{info.filename}: {type(e).__name__}: {e}") from e

    def read_storage(self, key: str, storage_type: _StorageType, numel: int) -> np.ndarray:
        """The flat host array of storage ``key`` (``numel`` elements of ``storage_type``)."""
        name = f"data/{key}"
        info = self.info(name)
        itemsize = storage_type.dtype.np.itemsize
        if info.file_size != numel * itemsize:
            raise RuntimeError(
                f"PytorchStreamReader: record {name} has {info.file_size} bytes but its storage "
                f"declares {numel} elements of {itemsize} bytes (the file is corrupted)"
            )
        flat = np.empty(numel, storage_type.dtype.np)
        self.read_into(info, flat.view(np.uint8))
        if self.swap and itemsize > 1:
            flat.byteswap(inplace=True)
        return flat


_LEGACY_MAGIC = b"\x80\x02\x8a\x0al\xfc\x9cF\xf9 j\xa8P\x19."


def _open_archive(fh) -> zipfile.ZipFile:
    head = fh.read(len(_LEGACY_MAGIC))
    fh.seek(0)
    if head == _LEGACY_MAGIC:
        raise RuntimeError(
            "fgrad.torch.load reads the zip-file format written by torch.save since PyTorch 1.6; "
            "this file is in the legacy format (torch.save(..., "
            "_use_new_zipfile_serialization=False)): load and re-save it with PyTorch"
        )
    try:
        return zipfile.ZipFile(fh)
    except zipfile.BadZipFile as e:
        if head[:4] == b"PK\x03\x04":
            raise _corrupt(f"failed finding central directory ({e})") from e
        raise RuntimeError(
            "fgrad.torch.load reads the zip-file format written by torch.save since PyTorch 1.6 "
            "(and by fgrad.torch.save); this file is not a zip archive"
        ) from e
    except Exception as e:  # noqa: BLE001 - zipfile reports corruption with many types
        raise _corrupt(f"{type(e).__name__}: {e}") from e


def _valid_pickle_rest(data: bytes) -> bool:
    """Whether ``data`` is a well-formed pickle up to its STOP (parsed, never run)."""
    try:
        for _ in pickletools.genops(data):
            pass
    except Exception:  # noqa: BLE001 - any parse failure means "not well-formed"
        return False
    return True


def _default_weights_only(pickle_module) -> bool:
    if os.environ.get("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0") in ("1", "true", "True"):
        return False
    if os.environ.get("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0") in ("1", "true", "True"):
        return True
    return pickle_module is None


def load(f: FileLike, map_location: Any = None, pickle_module: Any = None, *,
         weights_only: bool | None = None, mmap: bool | None = None, **pickle_load_args: Any) -> Any:
    """Load an object saved with `save` (or with PyTorch's ``torch.save``).

    ``map_location``: None (keep each storage's location), a device or string, a dict
    ``{'cuda:1': 'cuda:0'}``, or a callable ``(storage, location) -> storage``.
    ``weights_only`` (default True): build only tensors, parameters, storages, dtypes, sizes,
    devices and plain containers, never calling anything else (see docs/security.md); pass
    False only for files you trust (it runs pickle's full machinery, i.e. arbitrary code).

    Example::

        >>> import io, fgrad.torch as torch
        >>> buf = io.BytesIO(); torch.save([torch.tensor([1, 2])], buf); _ = buf.seek(0)
        >>> torch.load(buf)
        [tensor([1, 2])]
    """
    if weights_only is None:
        weights_only = _default_weights_only(pickle_module)
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    with contextlib.ExitStack() as stack:
        if isinstance(f, (str, os.PathLike)):
            fh = stack.enter_context(open(f, "rb"))
        elif getattr(f, "seekable", lambda: False)():
            fh = f
            fh.seek(0)
        else:  # a pipe or socket: zip needs random access
            fh = io.BytesIO(f.read())
        zf = stack.enter_context(_open_archive(fh))
        names = zf.namelist()
        pkl = next((n for n in names if n.endswith("/data.pkl") and n.count("/") == 1), None)
        if pkl is None:
            raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
        records = _Records(fh, zf, pkl.split("/", 1)[0])
        data = records.read_bytes(records.info("data.pkl"))
        loader = _Loader(records, map_location, trusted=not weights_only)
        if not weights_only:
            return _FullUnpickler(io.BytesIO(data), loader).load()
        try:
            return RestrictedUnpickler(data, loader).load()
        except pickle.UnpicklingError as e:
            if "Weights only load failed" in str(e) and not _valid_pickle_rest(data):
                raise pickle.UnpicklingError(
                    f"the pickle in this file is corrupted: {e.args[0].splitlines()[-1]}"
                ) from None
            raise
