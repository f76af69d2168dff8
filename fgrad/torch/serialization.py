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

import contextlib
import io
import os
import pickle
import struct
import sys
import warnings
import zipfile
from collections import Counter, OrderedDict
from typing import Any

import numpy as np

import fgrad.torch as torch

from . import _device as _dev
from . import _dtypes as D
from ._storage import TypedStorage, UntypedStorage
from ._tensor import Tensor, _wrap, check_device

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals", "safe_globals",
           "DEFAULT_PROTOCOL"]

DEFAULT_PROTOCOL = 2
_ALIGNMENT = 64

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from "
    "`False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but "
    "it can result in arbitrary code execution. Do it only if you got the file from a trusted source.")
DOCS_MESSAGE = ("\n\nCheck the documentation of torch.load to learn more about types accepted by default "
                "with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


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
_STORAGE_BY_NAME["BFloat16Storage"] = _StorageType("BFloat16Storage", D.float32)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=False, backward_hooks=None,
                       metadata=None):
    """``torch._utils._rebuild_tensor_v2``: a tensor viewing ``storage``."""
    t = _view_of_storage(storage, int(storage_offset), tuple(int(s) for s in size),
                         tuple(int(s) for s in stride))
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_tensor(storage, storage_offset, size, stride):
    return _rebuild_tensor_v2(storage, storage_offset, size, stride)


def _rebuild_parameter(data, requires_grad, backward_hooks=None):
    from .nn.parameter import Parameter

    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    p = _rebuild_parameter(data, requires_grad)
    if state:
        _set_safe_state(p, state)
    return p


def _rebuild_from_type_v2(func, new_type, args, state):
    ret = func(*args)
    if new_type is not Tensor and type(ret) is not new_type:
        ret = Tensor._make_subclass(new_type, ret, ret.requires_grad) if isinstance(ret, Tensor) else ret
    if state:
        _set_safe_state(ret, state)
    return ret


def _set_safe_state(obj, state) -> None:
    if isinstance(state, tuple):  # (dict state, slots state)
        for s in state:
            if s:
                _set_safe_state(obj, s)
        return
    for k, v in state.items():
        if k.startswith("_"):
            raise pickle.UnpicklingError(f"refusing to set the private attribute {k!r} on a loaded tensor")
        setattr(obj, k, v)


def _get_layout(name):
    return getattr(torch, name.split(".")[-1], None)


def _encode(obj, encoding="latin1"):
    import codecs

    return codecs.encode(obj, encoding)


class _Loaded:
    """A storage read from a file: a flat array (host, or CUDA after ``map_location``) and its
    location."""

    __slots__ = ("flat", "location", "typed")

    def __init__(self, flat: np.ndarray, location: str) -> None:
        self.flat, self.location, self.typed = flat, location, None


def _torch_globals() -> dict:
    g = {
        ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
        ("torch._utils", "_rebuild_tensor"): _rebuild_tensor,
        ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
        ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter_with_state,
        ("torch._tensor", "_rebuild_from_type_v2"): _rebuild_from_type_v2,
        ("torch.serialization", "_get_layout"): _get_layout,
        ("collections", "OrderedDict"): OrderedDict,
        ("collections", "Counter"): Counter,
        ("_codecs", "encode"): _encode,
        ("builtins", "set"): set,
        ("builtins", "frozenset"): frozenset,
        ("builtins", "complex"): complex,
        ("builtins", "bytearray"): bytearray,
        ("builtins", "slice"): slice,
        ("torch", "Size"): torch.Size,
        ("torch", "device"): torch.device,
        ("torch", "Tensor"): Tensor,
        ("torch._tensor", "Tensor"): Tensor,
        ("torch.nn.parameter", "Parameter"): _param_class(),
    }
    for d in D.ALL:
        g[("torch", d.name)] = d
    for name, st in _STORAGE_BY_NAME.items():
        g[("torch", name)] = st
    return g


def _param_class():
    from .nn.parameter import Parameter

    return Parameter


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
_STORAGE_GLOBALS = {d: _GlobalName("torch", d._legacy + "Storage") for d in D.ALL}


class _StorageRef:
    """A storage to be written as its own record (persistent id)."""

    __slots__ = ("key", "flat", "dtype", "location")

    def __init__(self, key: str, flat: np.ndarray, dtype: D.dtype, location: str) -> None:
        self.key, self.flat, self.dtype, self.location = key, flat, dtype, location


def _torch_module_name(mod: str) -> str:
    """``fgrad.torch.nn.modules.linear`` -> ``torch.nn.modules.linear`` (PyTorch's name)."""
    if mod == "fgrad.torch" or mod.startswith("fgrad.torch."):
        return mod[len("fgrad."):]
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
        from .nn.parameter import Parameter

        if isinstance(obj, Tensor):
            if isinstance(obj, Parameter):
                return (_REBUILD_PARAM, (obj.data, obj.requires_grad, OrderedDict()))
            t = obj.detach() if obj.requires_grad else obj
            ref = self._storage_ref(t)
            return (_REBUILD_V2, (ref, t.storage_offset(), tuple(t.size()), tuple(t.stride()),
                                  bool(obj.requires_grad), OrderedDict()))
        if isinstance(obj, torch.Size):
            return (_TORCH_SIZE, (tuple(obj),))
        if isinstance(obj, torch.device):
            return (_TORCH_DEVICE, (str(obj),))
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
        if isinstance(obj, type) and module is not None and _torch_module_name(module) != module:
            # fgrad.torch classes are written under PyTorch's module names (fgrad maps them back)
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


def _open_for_write(f):
    if isinstance(f, (str, os.PathLike)):
        return open(f, "wb"), True
    return f, False


def _archive_name(f) -> str:
    if isinstance(f, (str, os.PathLike)):
        base = os.path.basename(os.fspath(f))
        stem = os.path.splitext(base)[0]
        return stem or "archive"
    return "archive"


def save(obj: Any, f, pickle_module: Any = pickle, pickle_protocol: int = DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization: bool = True, _disable_byteorder_record: bool = False) -> None:
    """Save ``obj`` (tensors, state dicts, whole modules, any picklable object holding
    tensors) to the path or binary file ``f`` in PyTorch's zip format."""
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("fgrad.torch.save writes only the zip-file format (PyTorch >= 1.6)")
    data = io.BytesIO()
    pickler = _Pickler(data, pickle_protocol)
    pickler.dump(obj)
    prefix = _archive_name(f)
    fh, close = _open_for_write(f)
    try:
        seekable = getattr(fh, "seekable", lambda: False)()
        target = fh if seekable else io.BytesIO()
        base = target.tell() if seekable else 0
        with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
            def put(name: str, payload, align: bool = False) -> None:
                full = f"{prefix}/{name}"
                info = zipfile.ZipInfo(full, date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_STORED
                info.create_system = 0
                if align:
                    info.extra = _aligned_extra(target.tell() - base, full, len(payload))
                zf.writestr(info, payload)

            put("data.pkl", data.getvalue())
            put(".format_version", b"1")
            put(".storage_alignment", str(_ALIGNMENT).encode())
            if not _disable_byteorder_record:
                put("byteorder", sys.byteorder.encode())
            for ref in pickler.order:
                put(f"data/{ref.key}", ref.flat.tobytes(), align=True)
            put("version", b"3\n")
            put(".data/serialization_id", str(abs(hash((id(obj),
                                                        len(pickler.order))))).zfill(40)[:40].encode())
        if not seekable:
            fh.write(target.getvalue())
    finally:
        if close:
            fh.close()


# ---------------------------------------------------------------------------------------
# loading


_safe_globals: dict = {}


def add_safe_globals(safe_globals: list) -> None:
    """Allow these classes/functions in ``load(weights_only=True)`` (entries may be objects or
    ``(object, "module.name")`` pairs)."""
    for g in safe_globals:
        if isinstance(g, tuple):
            obj, full = g
        else:
            obj, full = g, f"{_torch_module_name(g.__module__)}.{g.__qualname__}"
        _safe_globals[full] = obj
        own = f"{g.__module__}.{g.__qualname__}" if not isinstance(g, tuple) else None
        if own:
            _safe_globals[own] = obj


def get_safe_globals() -> list:
    return list(dict.fromkeys(_safe_globals.values()))


def clear_safe_globals() -> None:
    _safe_globals.clear()


@contextlib.contextmanager
def safe_globals(globals_list: list):
    """Context manager: `add_safe_globals` for the duration of the block."""
    saved = dict(_safe_globals)
    add_safe_globals(globals_list)
    try:
        yield
    finally:
        _safe_globals.clear()
        _safe_globals.update(saved)


def _weights_only_error(message: str) -> pickle.UnpicklingError:
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, do those "
        "steps "
        f"only if you trust the source of the checkpoint. \n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to "
        "load "
        "with `weights_only=True` please check the recommended steps in the following error message.\n\t"
        "WeightsUnpickler error: " + message + DOCS_MESSAGE)


def _fgrad_name(module: str) -> str:
    """PyTorch module names -> fgrad.torch module names (``torch.nn.x`` -> ``fgrad.torch.nn.x``)."""
    if module == "torch" or module.startswith("torch."):
        return "fgrad." + module
    return module


class _Loader:
    """State shared by the unpicklers: the zip file, the storages read so far, map_location."""

    def __init__(self, zf: zipfile.ZipFile, prefix: str, map_location) -> None:
        self.zf, self.prefix, self.map_location = zf, prefix, map_location
        self.storages: dict = {}

    def persistent_load(self, pid):
        if not isinstance(pid, tuple) or not pid or pid[0] != "storage":
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        _, storage_type, key, location, numel = pid
        got = self.storages.get(key)
        if got is not None:
            return got
        dtype = storage_type.dtype if isinstance(storage_type, _StorageType) else D.float32
        raw = bytearray(self.zf.read(f"{self.prefix}/data/{key}"))
        if isinstance(storage_type, _StorageType) and storage_type.name == "BFloat16Storage":
            # NumPy has no bfloat16: widen to float32 (exact: bfloat16 is the top half of a float32)
            warnings.warn("fgrad.torch has no bfloat16; bfloat16 tensors are loaded as float32", UserWarning,
                          stacklevel=4)
            halves = np.frombuffer(raw, dtype="<u2") if raw else np.empty(0, "<u2")
            raw = bytearray((halves.astype("<u4") << 16).tobytes())
        flat = np.frombuffer(raw, dtype=dtype.np) if raw else np.empty(0, dtype.np)
        if flat.size != int(numel):
            flat = flat[: int(numel)]
        flat = self._restore(flat, str(location))
        st = _Loaded(flat, str(location))
        self.storages[key] = st
        return st

    def _restore(self, flat: np.ndarray, location: str):
        """The storage ``flat`` (host bytes read from the file) placed where ``map_location``
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
        dev = torch.device(target)
        if dev.type == "cuda":
            if not torch.cuda.is_available():
                raise RuntimeError(
                    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
                    "False. If you are running on a CPU-only machine, please use torch.load with "
                    "map_location=torch.device('cpu') to map your storages to the CPU.")
            idx = 0 if dev.index is None else dev.index
            if idx >= torch.cuda.device_count():
                raise RuntimeError(
                    f"Attempting to deserialize object on CUDA device {idx} but torch.cuda.device_count() is "
                    f"{torch.cuda.device_count()}. Please use torch.load with map_location to map your "
                    "storages to an existing device.")
            return _dev.to_dev(flat, check_device(f"cuda:{idx}"))
        return flat


class _FullUnpickler(pickle.Unpickler):
    """weights_only=False: any global; PyTorch's names are mapped to fgrad.torch's."""

    def __init__(self, file, loader: _Loader) -> None:
        super().__init__(file, encoding="utf-8")
        self.loader = loader
        self.torch_globals = _torch_globals()

    def persistent_load(self, pid):
        return self.loader.persistent_load(pid)

    def find_class(self, module, name):
        if module == "__builtin__":
            module = "builtins"
        g = self.torch_globals.get((module, name))
        if g is not None:
            return g
        return super().find_class(_fgrad_name(module), name)


class _WeightsOnlyUnpickler(pickle._Unpickler):
    """weights_only=True: only the globals of `_torch_globals` and `add_safe_globals`, and
    BUILD only on containers and tensors with public attributes."""

    def __init__(self, file, loader: _Loader) -> None:
        super().__init__(file, encoding="utf-8")
        self.loader = loader
        self.torch_globals = _torch_globals()

    def persistent_load(self, pid):
        return self.loader.persistent_load(pid)

    def find_class(self, module, name):
        if module == "__builtin__":
            module = "builtins"
        g = self.torch_globals.get((module, name))
        if g is not None:
            return g
        full = f"{module}.{name}"
        if full in _safe_globals:
            return _safe_globals[full]
        raise _weights_only_error(
            f"Unsupported global: GLOBAL {full} was not an allowed global by default. Please use "
            f"`torch.serialization.add_safe_globals([{name}])` or the "
            f"`torch.serialization.safe_globals([{name}])` context manager to allowlist this global if you "
            "trust this class/function.")

    def load_build(self):
        stack = self.stack
        state = stack.pop()
        inst = stack[-1]
        if isinstance(inst, OrderedDict) and isinstance(state, dict):
            for k, v in state.items():
                if k != "_metadata":
                    raise _weights_only_error(f"cannot set attribute {k!r} of an OrderedDict")
                setattr(inst, k, v)
            return
        if isinstance(inst, Tensor) and (isinstance(state, dict) or isinstance(state, tuple)):
            _set_safe_state(inst, state)
            return
        if type(inst) in _safe_globals.values() or type(inst) in set(_safe_globals.values()):
            setstate = getattr(inst, "__setstate__", None)
            if setstate is not None:
                setstate(state)
            else:
                inst.__dict__.update(state)
            return
        raise _weights_only_error(f"Can only build Tensor, Parameter or OrderedDict objects, but got "
                                  f"{type(inst)}")

    dispatch = pickle._Unpickler.dispatch.copy()
    dispatch[pickle.BUILD[0]] = load_build

    def load_reduce(self):
        stack = self.stack
        args = stack.pop()
        func = stack[-1]
        if not callable(func) or type(func) is _StorageType:
            raise _weights_only_error(f"Trying to call a non-allowed object {func!r}")
        stack[-1] = func(*args)

    dispatch[pickle.REDUCE[0]] = load_reduce

    def load_ext(self, *a):  # pragma: no cover - copyreg extensions are never allowed
        raise _weights_only_error("copyreg extension codes are not allowed")

    for _op in (pickle.EXT1, pickle.EXT2, pickle.EXT4):
        dispatch[_op[0]] = load_ext


def _view_of_storage(st, offset: int, size: tuple, stride: tuple) -> Tensor:
    """A tensor over a loaded storage, sharing memory with the other tensors of that storage."""
    if isinstance(st, _Loaded):
        if st.typed is None:
            st.typed = TypedStorage(st.flat, D.from_np(st.flat.dtype))
        base = torch.Tensor(st.typed)
    elif isinstance(st, Tensor):
        base = st
    else:
        base = torch.Tensor(st)
    if hasattr(base, "as_strided"):
        return base.as_strided(size, stride, offset)
    flat = base._buf
    item = flat.itemsize
    arr = _dev.as_strided(flat[offset:], size, tuple(s * item for s in stride))
    return _wrap(arr)


def _default_weights_only(pickle_module) -> bool:
    if os.environ.get("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0") in ("1", "true", "True"):
        return False
    if os.environ.get("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0") in ("1", "true", "True"):
        return True
    return pickle_module is None


def load(f, map_location=None, pickle_module: Any = None, *, weights_only: bool | None = None,
         mmap: bool | None = None, **pickle_load_args: Any) -> Any:
    """Load an object saved with `save` (or with PyTorch's ``torch.save``).

    ``map_location``: None (keep each storage's location), a device or string, a dict
    ``{'cuda:1': 'cuda:0'}``, or a callable ``(storage, location) -> storage``.
    ``weights_only`` (default True): refuse anything but tensors and plain containers; pass
    False only for files you trust (it runs pickle's full machinery, i.e. arbitrary code).
    """
    if weights_only is None:
        weights_only = _default_weights_only(pickle_module)
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    close = False
    if isinstance(f, (str, os.PathLike)):
        fh = open(f, "rb")
        close = True
    else:
        fh = f
    try:
        if not zipfile.is_zipfile(fh):
            raise RuntimeError("fgrad.torch.load reads the zip-file format written by torch.save since "
                               "PyTorch "
                               "1.6 (and by fgrad.torch.save); this file is not a zip archive")
        fh.seek(0)
        with zipfile.ZipFile(fh) as zf:
            names = zf.namelist()
            pkl = next((n for n in names if n.endswith("/data.pkl") and n.count("/") == 1), None)
            if pkl is None:
                raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
            prefix = pkl.split("/", 1)[0]
            loader = _Loader(zf, prefix, map_location)
            data = io.BytesIO(zf.read(pkl))
            unpickler = _WeightsOnlyUnpickler(data, loader) if weights_only else _FullUnpickler(data, loader)
            try:
                result = unpickler.load()
            except pickle.UnpicklingError:
                raise
            except RuntimeError:
                raise
            except Exception as e:  # noqa: BLE001 — restricted unpickling fails with UnpicklingError
                if weights_only:
                    raise _weights_only_error(f"{type(e).__name__}: {e}") from e
                raise
    finally:
        if close:
            fh.close()
    return _storages_out(result)


def _storages_out(obj):
    """Loaded storages that are not under a tensor become TypedStorages."""
    if type(obj) is _Loaded:
        if obj.typed is None:
            obj.typed = TypedStorage(obj.flat, D.from_np(obj.flat.dtype))
        return obj.typed
    if type(obj) in (dict, OrderedDict):
        for k, v in obj.items():
            if type(v) in (_Loaded, dict, OrderedDict, list):
                obj[k] = _storages_out(v)
    elif type(obj) is list:
        for i, v in enumerate(obj):
            if type(v) in (_Loaded, dict, OrderedDict, list):
                obj[i] = _storages_out(v)
    return obj


