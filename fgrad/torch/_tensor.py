"""`Tensor`: a mutable, strided view over a storage, with autograd metadata.

A tensor's data is a real NumPy array ``_buf`` -- a view into a flat 1-D storage -- so
views (``view``, slicing, ``t()``, ``expand``, ``detach``...), ``from_numpy`` and
``.numpy()`` share memory exactly as in PyTorch, and in-place ops are visible through every
alias.  All views of one storage share a version counter (``_vc``) that in-place ops bump;
autograd compares it with the version recorded when a tensor was saved for backward.

Autograd metadata: ``_rg`` (requires_grad of a leaf), ``_gfn`` (the node that made the
tensor, or None for a leaf) and ``_oi`` (which output of that node it is).  Operations
themselves live in `_ops` and are attached to the class there; the tape machinery lives in
`autograd.graph`.

In functional mode (``fgrad.torch.func.functional_call`` under ``fgrad.grad``/``vmap``)
``_buf`` may be an `fgrad.Array` or tracer instead of a NumPy array; ops then run their
fgrad definitions instead of the NumPy fast path.
"""

from __future__ import annotations

import copy as _copy
import math
import warnings
from typing import Any

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind

import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from ._device import DEV as _DEV
from ._device import _state as _DEV_STATE
from . import _meta
from ._layout import strided
from ._storage import TypedStorage, UntypedStorage, VersionCounter as _VC, _data_ptr, flat_of
from ..core.array import ArrayImpl
from ..core.array import wrap as _awrap
from ._dual_state import LEVEL as _DUAL
from ..ops.bits import stop_gradient as _stop_gradient
from ..core import x64_mode as _x64_mode
from ._storage import warn_typed as _warn_typed
from ._inference import INFERENCE
from ..core.array import Tracer

_ndarray = np.ndarray


# ---------------------------------------------------------------------------------------
# Size and device


def _channels_last_strides(b: np.ndarray) -> bool:
    """Whether the 4-D buffer ``b`` is laid out NHWC (PyTorch's channels-last contiguity: the
    strides of C, W, H, N grow as a contiguous layout's, size-1 dimensions ignored).

    Example::

        >>> import numpy as np
        >>> _channels_last_strides(np.zeros((2, 4, 5, 3)).transpose(0, 3, 1, 2))
        True
    """
    if b.ndim != 4:
        return False
    expect = b.itemsize
    for d in (1, 3, 2, 0):
        if b.shape[d] != 1:
            if b.strides[d] != expect:
                return False
            expect *= b.shape[d]
    return True


class memory_format:  # noqa: N801 (PyTorch's name)
    """A memory format (``torch.contiguous_format``, ``torch.channels_last``, ...).

    >>> import fgrad.torch as torch
    >>> torch.channels_last
    torch.channels_last
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return "torch." + self.name


class Size(tuple):
    """``torch.Size``: a tuple of ints with PyTorch's repr.

    Example::

        >>> import fgrad.torch as torch
        >>> s = torch.zeros(2, 3).shape
        >>> s, s.numel(), s[1:]
        (torch.Size([2, 3]), 6, torch.Size([3]))
    """

    def __new__(cls, sizes=()):
        return super().__new__(cls, (int(s) for s in sizes))

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        return math.prod(self)

    def __getitem__(self, i):
        r = tuple.__getitem__(self, i)
        return Size(r) if isinstance(i, slice) else r

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))

    def __reduce__(self):
        return (Size, (tuple(self),))


_DEVICE_TYPES = ("cpu", "cuda", "mps", "xpu", "meta", "hip", "xla", "lazy", "ipu", "mtia")


class device:
    """``torch.device('cpu')``, ``torch.device('cuda:0')``, ``torch.device('cuda', 0)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.device('cuda', 1)
        device(type='cuda', index=1)
        >>> torch.device('cpu').type, torch.zeros(1).device
        ('cpu', device(type='cpu'))
    """

    __slots__ = ("type", "index")

    def __init__(self, type: Any, index: int | None = None) -> None:  # noqa: A002
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int):
            self.type, self.index = "cuda", type
            return
        s = str(type)
        if ":" in s:
            s, idx = s.split(":", 1)
            if index is not None:
                raise RuntimeError(
                    f"type (string) must not include an index because index was passed explicitly: {type}"
                )
            if not idx.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(idx)
        if s not in _DEVICE_TYPES:
            raise RuntimeError(
                "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, "
                f"xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device "
                f"string: {type}"
            )
        self.type = s
        self.index = None if index is None else int(index)

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        return isinstance(other, device) and self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))

    def __enter__(self):
        """``with torch.device('cuda'):`` -- factory functions create tensors there (PyTorch)."""
        check_device(self)
        st = _DEV_STATE.setdefault("default_stack", [])
        st.append((_DEV_STATE["default"], _DEV_STATE.get("meta", False)))
        _dev.set_default(str(self))
        return self

    def __exit__(self, *exc) -> None:
        _DEV_STATE["default"], _DEV_STATE["meta"] = _DEV_STATE["default_stack"].pop()


CPU = device("cpu")



def check_device(dev):
    """The CUDA device index asked for by ``dev`` (None for the CPU): PyTorch's errors
    when there is no CUDA device (see `_device`)."""
    if dev is None:
        return _DEV_STATE["default"]
    d = dev if isinstance(dev, device) else device(dev)
    if d.type == "cuda":
        _dev.require(d.index)
        return 0 if d.index is None else d.index
    if d.type not in ("cpu", "meta"):
        raise RuntimeError(f"fgrad.torch supports the cpu and cuda devices only, got {d}")
    return None


def to_device_buf(buf, index):
    """``buf`` moved to CUDA device ``index`` (None: the host); no copy when already there."""
    if index is None:
        return _dev.to_host(buf) if type(buf) in _DEV else buf
    return _dev.to_dev(buf, index)


def device_of_buf(buf) -> device:
    if type(buf) is _ndarray:
        return CPU
    if type(buf) in _DEV:
        return _cuda_device(_dev.index_of(buf))

    if type(buf) is ArrayImpl and type(buf._buf) in _DEV:
        return _cuda_device(_dev.index_of(buf._buf))
    return CPU


_CUDA_DEVICES: dict = {}


def _cuda_device(i: int) -> device:
    d = _CUDA_DEVICES.get(i)
    if d is None:
        d = _CUDA_DEVICES[i] = device("cuda", i)
    return d


# ---------------------------------------------------------------------------------------
# the Tensor class


class _TensorMeta(type):
    pass


class Tensor(metaclass=_TensorMeta):
    """A multi-dimensional array with PyTorch semantics (see the module docstring).

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.Tensor([[1, 2], [3, 4]])
        >>> x.t().stride()
        (1, 2)
    """

    __slots__ = ("_buf", "_gfn", "_rg", "_vc", "__dict__", "__weakref__")
    __array_priority__ = 1000

    # rarely-set metadata lives in the instance __dict__, with class-level defaults
    _st = None  # TypedStorage object (shared by views), made lazily
    _oi = 0  # output index in _gfn
    _grad = None
    _inf = False  # made under inference_mode
    _base = None  # autograd view base (the root tensor), for views
    _vfn = None  # fgrad function: base value -> this view's value
    _vver = 0  # version when the view's grad_fn was set
    _nograd_view = False  # a view made under no_grad of a tensor requiring grad (PyTorch: requires_grad
    # stays True, no grad_fn, gradients reaching it go nowhere, in-place with grad on is an error)
    _hooks = None  # hooks of a leaf (list of callables) / of a non-leaf (dict)
    _retains = False
    _acc = None  # weakref to this leaf's AccumulateGrad
    _stsrc = None  # tensor whose storage this alias shares (detach, .data)
    _conj_of = None  # Tensor.conj() of a complex tensor: the tensor it conjugates (the conj bit)
    _post_acc_hooks = None
    _is_param = False
    # functional mode (tensors hold tracers): a view's base, its view chain and the base's
    # write count it has read; a base's write count (`_dispatch.functional_write`)
    _fbase = None
    _fvfn = ()
    _fver = 0

    def __new__(cls, *args, device=None, dtype=None):
        idx = check_device(device)
        dt = D.get_default_dtype() if dtype is None else D.canonical(dtype)
        buf = legacy_new(args, dt)
        if isinstance(buf, Tensor):
            if device is not None and buf.device != _device_norm(device):
                raise RuntimeError(
                    f"Attempted to create a tensor on {_device_norm(device)} from a tensor on {buf.device}")
            return buf if cls is Tensor else _alias(buf, cls)
        t = object.__new__(cls)
        _init(t, to_device_buf(buf, idx))
        return t

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        from .overrides import install_subclass  # the __torch_function__ protocol (imports this module)

        install_subclass(cls)

    @staticmethod
    def _make_subclass(cls, data, require_grad=False):
        """An instance of ``cls`` sharing ``data``'s memory (what ``nn.Parameter`` uses)."""
        t = _alias(data, cls)
        if _meta.is_marked(data):
            _meta.mark(t)
        if require_grad:
            _check_can_require_grad(t)
        t._rg = bool(require_grad)
        return t

    # -- basic metadata -----------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._buf.shape)

    def size(self, dim: int | None = None) -> Size | int:
        if dim is None:
            return Size(self._buf.shape)
        return self._buf.shape[wrap_dim(dim, self._buf.ndim)]

    @property
    def dtype(self) -> D.dtype:
        return D.from_np(self._buf.dtype)

    @property
    def device(self) -> device:
        b = self._buf
        if type(b) is _ndarray:
            return CPU
        return device_of_buf(b)

    @property
    def is_cuda(self) -> bool:
        return self.device.type == "cuda"

    @property
    def is_cpu(self) -> bool:
        return self.device.type == "cpu"

    @property
    def is_sparse(self) -> bool:
        return False

    @property
    def is_quantized(self) -> bool:
        return False

    @property
    def is_meta(self) -> bool:
        return _meta.is_marked(self)

    @property
    def is_mps(self) -> bool:
        return False

    @property
    def is_nested(self) -> bool:
        return False

    @property
    def is_xpu(self) -> bool:
        return False

    @property
    def is_mkldnn(self) -> bool:
        return False

    @property
    def is_vulkan(self) -> bool:
        return False

    @property
    def is_ipu(self) -> bool:
        return False

    @property
    def is_mtia(self) -> bool:
        return False

    @property
    def is_maia(self) -> bool:
        return False

    @property
    def layout(self) -> Any:
        return strided

    def get_device(self) -> int:
        d = self.device
        return -1 if d.type == "cpu" else d.index

    def dim(self) -> int:
        return self._buf.ndim

    ndimension = dim

    @property
    def ndim(self) -> int:
        return self._buf.ndim

    def numel(self) -> int:
        return int(self._buf.size)

    nelement = numel

    def element_size(self) -> int:
        return self._buf.itemsize

    @property
    def itemsize(self) -> int:
        return self._buf.itemsize

    @property
    def nbytes(self) -> int:
        return int(self._buf.size) * self._buf.itemsize

    def is_floating_point(self) -> bool:
        return _dtype_kind(self._buf.dtype) == "f"

    def is_complex(self) -> bool:
        return _dtype_kind(self._buf.dtype) == "c"

    def is_signed(self) -> bool:
        return _dtype_kind(self._buf.dtype) in "ifc"

    def __len__(self) -> int:
        if self._buf.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._buf.shape[0]

    # -- strides and storage ----------------------------------------------------------
    def stride(self, dim: int | None = None) -> tuple[int, ...] | int:
        buf = concrete_buf(self)
        item = buf.itemsize
        shp = buf.shape
        st = [s // item for s in buf.strides]
        for d in range(len(shp) - 1, -1, -1):
            if buf.size == 0 and not any(buf.strides):  # NumPy's empty arrays: PyTorch's contiguous ones
                st[d] = st[d + 1] * max(shp[d + 1], 1) if d + 1 < len(shp) else 1
            elif shp[d] == 1 and st[d] == 0:  # NumPy's newaxis/broadcast: PyTorch's convention instead
                st[d] = st[d + 1] * max(shp[d + 1], 1) if d + 1 < len(shp) else 1
        st = tuple(st)
        return st if dim is None else st[wrap_dim(dim, len(shp))]

    def _storage(self) -> TypedStorage:
        st = self._st
        if st is None:
            src = self._base if self._base is not None else self._stsrc
            if src is not None:
                st = src._storage()
            else:
                st = TypedStorage(flat_of(concrete_buf(self)))
            self._st = st
        return st

    def storage_offset(self) -> int:
        buf = concrete_buf(self)
        return (_data_ptr(buf) - self._storage().data_ptr()) // buf.itemsize

    def data_ptr(self) -> int:
        return _data_ptr(concrete_buf(self))

    def untyped_storage(self) -> UntypedStorage:
        return UntypedStorage(self._storage()._flat)

    def storage(self) -> TypedStorage:

        _warn_typed()
        return self._storage()

    def is_contiguous(self, memory_format: memory_format | None = None) -> bool:
        b = concrete_buf(self)
        if memory_format is not None and str(memory_format) == "torch.channels_last":
            return _channels_last_strides(b)
        return bool(b.flags.c_contiguous)

    def is_set_to(self, other: Tensor) -> bool:
        return (
            self.data_ptr() == other.data_ptr()
            and self.shape == other.shape
            and self.stride() == other.stride()
        )

    def _get_vc(self) -> _VC:
        vc = self._vc
        if vc is None:
            vc = self._vc = _VC()
        return vc

    @property
    def _version(self) -> int:
        vc = self._vc
        return 0 if vc is None else vc.v

    # -- conversion to Python / NumPy ---------------------------------------------------
    def item(self) -> int | float | bool | complex:
        buf = concrete_buf(self)
        if _dev.PENDING and type(buf) in _DEV:
            _dev.raise_deferred()
        if buf.size != 1:
            raise RuntimeError(f"a Tensor with {buf.size} elements cannot be converted to Scalar")
        return buf.reshape(()).item() if buf.ndim else buf.item()

    def tolist(self) -> Any:
        buf = concrete_buf(self)
        if _dev.PENDING and type(buf) in _DEV:
            _dev.raise_deferred()
        return buf.tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        buf = concrete_buf(self)
        if type(buf) is not _ndarray and type(buf) in _DEV:
            if not force:
                raise TypeError(
                    f"can't convert {self.device} device type tensor to numpy. Use Tensor.cpu() to copy the "
                    "tensor to host memory first."
                )
            return _dev.to_host(buf)
        if self.requires_grad and not force and _grad_enabled():
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
            )
        if self._conj_of is not None and not force:
            raise RuntimeError("Can't call numpy() on Tensor that has conjugate bit set. Use "
                               "tensor.resolve_conj().numpy() instead.")
        return buf.copy() if force and self.requires_grad else buf.view()

    def __array__(self, dtype=None, copy=None):
        buf = self.numpy()
        if dtype is not None and np.dtype(dtype) != buf.dtype:
            return buf.astype(dtype)
        return buf.copy() if copy else buf

    def __array_wrap__(self, arr, context=None, return_scalar=False):
        return _wrap(np.asarray(arr))

    def __bool__(self) -> bool:
        buf = concrete_buf(self)
        if _dev.PENDING and type(buf) in _DEV:
            _dev.raise_deferred()
        if buf.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(buf.reshape(()))

    def __float__(self) -> float:
        if self._buf.size != 1:  # PyTorch: ValueError here (item() raises RuntimeError)
            raise ValueError("only one element tensors can be converted to Python scalars")
        return float(self.item())

    def __int__(self) -> int:
        if self._buf.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(self.item())

    def __complex__(self) -> complex:
        return complex(self.item())

    def __index__(self) -> int:
        buf = concrete_buf(self)
        if _dtype_kind(buf.dtype) not in "iub" or buf.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(buf.reshape(()))

    def __hash__(self) -> int:
        return id(self)

    def __format__(self, spec: str) -> str:
        b = self._buf
        if b.ndim == 0 and (isinstance(b, _ndarray) or type(b) in _DEV):
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __repr__(self, *, tensor_contents=None) -> str:
        from .autograd.grad_mode import no_grad

        with no_grad():
            return _str_intern(self, tensor_contents)

    def __str__(self) -> str:
        return self.__repr__()

    def __dir__(self):
        return sorted(set(super().__dir__()))

    # -- autograd properties -------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._rg or self._gfn is not None

    @requires_grad.setter
    def requires_grad(self, value) -> None:
        self.requires_grad_(bool(value))

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        if self._gfn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use a "
                    "computed variable in a subgraph that doesn't require differentiation use "
                    "var_no_grad = var.detach()."
                )
            return self
        if requires_grad:
            _check_can_require_grad(self)
        self._rg = bool(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        return self._gfn is None

    @property
    def grad_fn(self) -> Any:
        if self._base is not None:
            from .autograd.graph import view_grad_fn

            return view_grad_fn(self)
        return self._gfn

    @property
    def output_nr(self) -> int:
        return self._oi

    @property
    def grad(self) -> Any:
        if self._gfn is not None and not self._retains:
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
                "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
                "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
                "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
                "instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered "
                "internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)",
                UserWarning,
                stacklevel=2,
            )
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__}"
                )
            if value._buf.dtype != self._buf.dtype:
                raise RuntimeError("assigned grad has data of a different type")
            if value._buf.shape != self._buf.shape:
                raise RuntimeError("assigned grad has data of a different size")
            if (type(value._buf) in _DEV) != (type(self._buf) in _DEV):
                raise RuntimeError("assigned grad has data located on a different device")
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def retains_grad(self) -> bool:
        return self._gfn is not None and self._retains

    @property
    def data(self) -> "Tensor":
        if _DUAL.trace is not None and isinstance(self._buf, Tracer):  # forward AD: no tangent
            return _wrap(_stop_gradient(self._buf))
        t = _wrap(self._buf)
        if self._st is not None:
            t._st = self._st
        else:
            t._stsrc = _storage_root(self)
        return t

    @data.setter
    def data(self, value) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"data must be a Tensor, not {type(value).__name__}")
        self._buf = value._buf
        vb = value._buf
        self._st = value._storage() if isinstance(vb, _ndarray) or type(vb) in _DEV else None
        if _meta.is_marked(self) or _meta.is_marked(value):
            _meta.mark(self, _meta.is_marked(value))  # the data's device

    def is_inference(self) -> bool:
        """Whether the tensor was made under ``torch.inference_mode``.

        Example::

            >>> import fgrad.torch as torch
            >>> with torch.inference_mode():
            ...     t = torch.ones(2) * 2
            >>> t.is_inference(), torch.ones(2).is_inference()
            (True, False)
        """
        return self._inf

    # -- copies / pickling ----------------------------------------------------------------
    def __deepcopy__(self, memo):
        if self._gfn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
                "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
                "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
            )
        if id(self) in memo:
            return memo[id(self)]
        buf = self._buf
        if isinstance(buf, _ndarray) or type(buf) in _DEV:
            st = self._storage()
            key = ("storage", id(st))
            new_st = memo.get(key)
            if new_st is None:
                new_st = memo[key] = TypedStorage(st._flat.copy(), st.dtype)
                memo.setdefault("_keep", []).append(st)
            off = self.storage_offset()
            new_buf = _dev.as_strided(new_st._flat[off:], buf.shape, buf.strides)
        else:
            new_buf, new_st = buf, None
        t = object.__new__(type(self))
        _init(t, new_buf)
        t._st = new_st
        t._rg = self._rg
        memo[id(self)] = t
        if self._grad is not None:
            t._grad = _copy.deepcopy(self._grad, memo)
        for k, v in self.__dict__.items():
            if k in ("_st", "_acc", "_hooks", "_vc"):
                continue
            if not k.startswith("_") or k in ("_is_param",):
                t.__dict__[k] = _copy.deepcopy(v, memo)
        return t

    def __reduce_ex__(self, proto):
        state = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        buf = concrete_buf(self)
        if type(buf) in _DEV:
            return (_rebuild_tensor, (type(self), _dev.to_host(buf), bool(self._rg), state, self._grad,
                                      _dev.index_of(buf)))
        return (_rebuild_tensor, (type(self), np.array(buf), bool(self._rg), state, self._grad))

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)




def _rebuild_tensor(cls, arr, requires_grad, state=None, grad=None, cuda_index=None):
    t = object.__new__(cls)
    _init(t, arr if cuda_index is None else _dev.to_dev(arr, cuda_index))
    if requires_grad:
        t._rg = True
    if state:
        t.__dict__.update(state)
    if grad is not None:
        t._grad = grad
    return t


def _check_can_require_grad(t) -> None:
    if _dtype_kind(t._buf.dtype) not in "fc":
        raise RuntimeError("only Tensors of floating point dtype can require gradients")


def _refuse_32_bit_mode() -> None:
    raise RuntimeError(
        "fgrad.torch keeps PyTorch's dtypes (int64 indices, float64 on request), but 64-bit "
        "types are switched off (jax_enable_x64=False, fgrad.enable_x64(False) or "
        "JAX_ENABLE_X64=0): switch them back on (fgrad.config.update('jax_enable_x64', True)) "
        "to use the PyTorch face")


def _init(t, buf) -> None:
    if not _x64_mode.enabled:
        _refuse_32_bit_mode()
    t._buf = buf
    t._gfn = None
    t._rg = False
    t._vc = None


def _wrap(buf) -> Tensor:
    """A new leaf tensor over ``buf`` (no copy)."""
    if not _x64_mode.enabled:
        _refuse_32_bit_mode()
    t = object.__new__(Tensor)
    t._buf = buf
    t._gfn = None
    t._rg = False
    t._vc = None
    if INFERENCE.on:
        t._inf = True
    return t


def _alias(src: Tensor, cls: Any = Tensor) -> Tensor:
    """A new tensor object sharing ``src``'s memory and version counter, without autograd
    history (what ``detach`` returns)."""
    t = object.__new__(cls)
    t._buf = src._buf
    t._gfn = None
    t._rg = False
    t._vc = src._get_vc()
    if src._inf:
        t._inf = True  # a view of an inference tensor is one (of a normal tensor, normal)
    if src._conj_of is not None:
        t._conj_of = src._conj_of
    if src._st is not None:
        t._st = src._st
    else:
        t._stsrc = _storage_root(src)
    return t


def _grad_enabled() -> bool:
    from .autograd.grad_mode import STATE

    return STATE.enabled


def _storage_root(t):
    if t._base is not None:
        return t._base
    if t._stsrc is not None:
        return t._stsrc
    return t


def refresh_functional_view(t: Tensor) -> None:
    """Functional mode: re-read view ``t`` from its base, which was written since (see
    `fgrad.torch._dispatch.functional_write`)."""
    base = t._fbase
    if base._fbase is not None and base._fver != base._fbase._fver:
        refresh_functional_view(base)
    b = base._buf
    v = _awrap(b) if type(b) is _ndarray or type(b) in _DEV else b
    for f, params in t._fvfn:
        v = f(v, *params)
    t._buf = v._buf if type(v) is ArrayImpl else v
    t._fver = base._fver


def concrete_buf(t) -> np.ndarray:
    """The tensor's buffer (host or device); a tracer's concrete value in functional mode."""
    if t._fbase is not None and t._fver != t._fbase._fver:
        refresh_functional_view(t)
    buf = t._buf
    if type(buf) is _ndarray:
        return buf
    if isinstance(buf, _ndarray) or type(buf) in _DEV:
        return buf

    if type(buf) is ArrayImpl:
        b = buf._buf
        return b if type(b) in _DEV else np.asarray(b)
    if isinstance(buf, Tracer):
        c = buf._concrete("a Tensor's data")
        c = c._buf if type(c) is ArrayImpl else c
        return c if type(c) in _DEV else np.asarray(c)
    return np.asarray(buf)


def _host_buf(t) -> np.ndarray:
    """The tensor's values as a host array (a copy for a device tensor)."""
    return _dev.to_host(concrete_buf(t))


def _device_norm(d) -> device:
    d = d if isinstance(d, device) else device(d)
    if d.type == "cuda" and d.index is None:
        return _cuda_device(0)
    return d


def wrap_dim(dim, nd: int) -> int:
    if not isinstance(dim, int):
        if isinstance(dim, (str, float, bytes)) or dim is None:
            raise TypeError(f"argument 'dim' must be int, not {type(dim).__name__}")
        dim = int(dim)
    n = max(nd, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n


def from_storage(st, dtype=None) -> Tensor:
    if isinstance(st, UntypedStorage):
        dt = D.get_default_dtype() if dtype is None else D.canonical(dtype)
        flat = st._bytes.view(dt.np)
        st = TypedStorage(flat, dt)
    t = _wrap(st._flat)
    t._st = st
    return t


def legacy_new(args, dt: D.dtype):
    """Arguments of ``torch.Tensor(...)`` / ``torch.FloatTensor(...)`` -> buffer (or tensor)."""
    if not args:
        return np.empty(0, dt.np)
    if len(args) == 1:
        a = args[0]
        if isinstance(a, Tensor):
            if a._buf.dtype != dt.np:
                raise TypeError(f"expected {dt._legacy} (got {D.from_np(a._buf.dtype)._legacy})")
            return a
        if isinstance(a, (TypedStorage, UntypedStorage)):
            return from_storage(a, dt if isinstance(a, UntypedStorage) else None)
        if isinstance(a, Size):
            return np.zeros(tuple(a), dt.np)
        if isinstance(a, (int, np.integer)) and not isinstance(a, bool):
            return np.zeros((int(a),), dt.np)
        if isinstance(a, (list, tuple, np.ndarray)):
            return np.array(to_nested(a), dtype=dt.np)
        raise TypeError(f"new(): data must be a sequence (got {type(a).__name__})")
    if all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        if any(a < 0 for a in args):
            raise RuntimeError(f"Trying to create tensor with negative dimension {min(args)}: {list(args)}")
        return np.zeros(tuple(int(a) for a in args), dt.np)
    raise TypeError(
        "new() received an invalid combination of arguments - got "
        f"({', '.join(type(a).__name__ for a in args)})"
    )


def to_nested(data):
    """Replace tensors inside nested sequences by their values (for np.array)."""
    if isinstance(data, Tensor):
        return _host_buf(data)
    if type(data) in _DEV:
        raise TypeError(
            f"can't convert a {type(data).__name__} on the CUDA device implicitly; use torch.as_tensor"
        )
    if isinstance(data, (list, tuple)):
        if not set(map(type, data)) <= _NUMBER_TYPES and any(
                isinstance(d, (Tensor, list, tuple)) for d in data):
            return [to_nested(d) for d in data]
    return data


_NUMBER_TYPES = frozenset((bool, int, float, complex))  # `to_nested`: a flat list of these is kept


# ---------------------------------------------------------------------------------------
# legacy tensor types (FloatTensor, ...)


class LegacyTypeMeta(_TensorMeta):
    def __instancecheck__(cls, inst) -> bool:
        return isinstance(inst, Tensor) and getattr(inst._buf, "dtype", None) == cls._dtype.np

    def __call__(cls, *args, device=None):
        idx = check_device(device)
        buf = legacy_new(args, cls._dtype)
        return buf if isinstance(buf, Tensor) else _wrap(to_device_buf(buf, idx))

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _legacy_type(dt: D.dtype):
    name = dt._legacy + "Tensor"
    doc = f"""PyTorch's legacy tensor type of ``{dt}``: calling it makes a tensor of that dtype (from
    data or sizes), and ``isinstance`` checks a tensor's dtype.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.{name}([1, 0]).dtype
        {dt}
        >>> isinstance(torch.zeros(2, dtype={dt}), torch.{name})
        True
    """
    return LegacyTypeMeta(name, (), {"_dtype": dt, "__doc__": doc})


FloatTensor = _legacy_type(D.float32)
DoubleTensor = _legacy_type(D.float64)
HalfTensor = _legacy_type(D.float16)
LongTensor = _legacy_type(D.int64)
IntTensor = _legacy_type(D.int32)
ShortTensor = _legacy_type(D.int16)
CharTensor = _legacy_type(D.int8)
ByteTensor = _legacy_type(D.uint8)
BoolTensor = _legacy_type(D.bool_)
LEGACY = {
    c._dtype: c
    for c in (
        FloatTensor,
        DoubleTensor,
        HalfTensor,
        LongTensor,
        IntTensor,
        ShortTensor,
        CharTensor,
        ByteTensor,
        BoolTensor,
    )
}
LEGACY_BY_NAME = {"torch." + c.__name__: c for c in LEGACY.values()}


def legacy_type_name(dt: D.dtype) -> str:
    return "torch." + dt._legacy + "Tensor"


# ---------------------------------------------------------------------------------------
# printing (PyTorch's format: 4 decimals, int mode, sci mode, summarization, suffixes)


class _PrintOptions:
    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(self) -> None:
        self.precision = 4
        self.threshold = 1000
        self.edgeitems = 3
        self.linewidth = 80
        self.sci_mode = None


PRINT_OPTS = _PrintOptions()


def set_printoptions(
    precision: int | None = None, threshold: float | None = None, edgeitems: int | None = None,
    linewidth: int | None = None, profile: str | None = None, sci_mode: bool | None = None
) -> None:
    """Set printing options (as ``torch.set_printoptions``)."""
    if profile is not None:
        p = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, math.inf, 3, 80)}[profile]
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = p
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict:
    return {k: getattr(PRINT_OPTS, k) for k in _PrintOptions.__slots__}


class _Fmt:
    """Chooses one width and style for all elements of a tensor."""

    def __init__(self, vals: np.ndarray) -> None:
        self.floating = _dtype_kind(vals.dtype) == "f"
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        p = PRINT_OPTS.precision
        if not self.floating:
            for v in vals.reshape(-1).tolist():
                self.width = max(self.width, len(str(v)))
            return
        flat = vals.reshape(-1)
        nz = flat[np.isfinite(flat) & (flat != 0)]
        if nz.size == 0:
            return
        a = np.abs(nz).astype(np.float64)
        lo, hi = float(a.min()), float(a.max())
        self.int_mode = bool(np.all(nz == np.ceil(nz)))
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode
        vals_list = nz.tolist()
        if self.sci_mode:
            self.width = max(self.width, max(len(f"{v:.{p}e}") for v in vals_list))
        elif self.int_mode:
            self.width = max(self.width, max(len(f"{v:.0f}") + 1 for v in vals_list))
        else:
            self.width = max(self.width, max(len(f"{v:.{p}f}") for v in vals_list))

    def fmt(self, v) -> str:
        if self.floating:
            p = PRINT_OPTS.precision
            if self.sci_mode:
                s = f"{v:{self.width}.{p}e}"
            elif self.int_mode:
                s = f"{v:.0f}"
                if not (math.isinf(v) or math.isnan(v)):
                    s += "."
            else:
                s = f"{v:.{p}f}"
        else:
            s = f"{v}"
        return " " * (self.width - len(s)) + s


def _summarized(a: np.ndarray) -> np.ndarray:
    e = PRINT_OPTS.edgeitems
    if a.ndim == 0:
        return a
    if a.ndim == 1:
        return np.concatenate([a[:e], a[-e:]]) if a.shape[0] > 2 * e else a
    if not e:
        return np.empty((0,) * a.ndim, a.dtype)
    rows = (
        list(range(e)) + list(range(a.shape[0] - e, a.shape[0])) if a.shape[0] > 2 * e else range(a.shape[0])
    )
    return np.stack([_summarized(a[i]) for i in rows])


def _fmt_val(v, f1, f2) -> str:
    if f2 is None:
        return f1.fmt(v)
    re_s = f1.fmt(v.real)
    im_s = (f2.fmt(v.imag) + "j").lstrip()
    return re_s + im_s if im_s[0] in "+-" else re_s + "+" + im_s


def _vector_str(a, indent, summarize, f1, f2) -> str:
    el_len = f1.width + 2 + (f2.width + 1 if f2 is not None else 0)
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / el_len))
    e = PRINT_OPTS.edgeitems
    if summarize and not e:
        data = ["..."]
    elif summarize and a.shape[0] > 2 * e:
        data = (
            [_fmt_val(v, f1, f2) for v in a[:e].tolist()]
            + [" ..."]
            + [_fmt_val(v, f1, f2) for v in a[-e:].tolist()]
        )
    else:
        data = [_fmt_val(v, f1, f2) for v in a.tolist()]
    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _nd_str(a, indent, summarize, f1, f2) -> str:
    if a.ndim == 0:
        return _fmt_val(a.item(), f1, f2)
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, f1, f2)
    e = PRINT_OPTS.edgeitems
    if summarize and a.shape[0] > 2 * e:
        parts = (
            [_nd_str(a[i], indent + 1, summarize, f1, f2) for i in range(e)]
            + ["..."]
            + [_nd_str(a[i], indent + 1, summarize, f1, f2) for i in range(a.shape[0] - e, a.shape[0])]
        )
    else:
        parts = [_nd_str(a[i], indent + 1, summarize, f1, f2) for i in range(a.shape[0])]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def _tensor_str(a: np.ndarray, indent: int) -> str:
    if a.size == 0:
        return "[]"
    summarize = a.size > PRINT_OPTS.threshold
    if a.dtype == np.float16:
        a = a.astype(np.float32)
    if _dtype_kind(a.dtype) == "c":
        re_, im_ = a.real, a.imag
        f1 = _Fmt(_summarized(re_) if summarize else re_)
        f2 = _Fmt(_summarized(im_) if summarize else im_)
        return _nd_str(a, indent, summarize, f1, f2)
    f1 = _Fmt(_summarized(a) if summarize else a)
    return _nd_str(a, indent, summarize, f1, None)


def _add_suffixes(s: str, suffixes, indent: int) -> str:
    out = [s]
    last = len(s) - s.rfind("\n") + 1
    for suf in suffixes:
        if last + len(suf) + 2 > PRINT_OPTS.linewidth:
            out.append(",\n" + " " * indent + suf)
            last = indent + len(suf)
        else:
            out.append(", " + suf)
            last += len(suf) + 2
    out.append(")")
    return "".join(out)


def _str_intern(t: Tensor, contents=None) -> str:
    plain = type(t) is Tensor or getattr(t, "_is_param", False)
    prefix = "tensor(" if plain else f"{type(t).__name__}("
    indent = len(prefix)
    suffixes = []
    buf = concrete_buf(t)
    dflt = _dev.default_index()
    if type(buf) is not _ndarray and type(buf) in _DEV:
        d = device_of_buf(buf)
        if d.index != dflt:  # PyTorch omits the default device
            suffixes.append(f"device='{d}'")
        buf = _dev.to_host(buf)
    elif dflt is not None:
        suffixes.append("device='cpu'")
    dt = D.from_np(buf.dtype)
    default_ok = dt in (D.get_default_dtype(), D.DEFAULT.complex, D.int64, D.bool_)
    if contents is not None:
        body = contents
    elif buf.size == 0:
        if buf.ndim != 1:
            suffixes.append("size=" + str(tuple(buf.shape)))
        if dt is not D.get_default_dtype():
            suffixes.append("dtype=" + str(dt))
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + str(tuple(buf.shape)))
        if not default_ok:
            suffixes.append("dtype=" + str(dt))
        body = _tensor_str(buf, indent)
    try:
        gfn = t.grad_fn
        gname = None if gfn is None else type(gfn).__name__
    except RuntimeError:
        gname = "Invalid"
    if gname is not None:
        suffixes.append(f"grad_fn=<{gname}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    if _DUAL.trace is not None and isinstance(t._buf, Tracer):  # a dual tensor: its tangent
        from .autograd.forward_ad import _tangent_of

        tangent = _tangent_of(t)
        if tangent is not None:
            suffixes.append(f"tangent={tangent}")
    return _add_suffixes(prefix + body, suffixes, indent)
