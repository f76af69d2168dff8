"""`fgrad.torch`: a PyTorch-style imperative API on fgrad's engine.

``import fgrad.torch as torch`` and write PyTorch: tensors over real NumPy buffers (views
share memory with each other and with NumPy), in-place ops with version counters, a tape of
recorded operations, ``backward``/``autograd.grad`` with hooks and ``create_graph``, and
``autograd.Function``.  Every derivative comes from the core's primitive rules -- the same
ones ``fgrad.grad`` uses (see `fgrad.torch.autograd.graph`).

Example::

    >>> import fgrad.torch as torch
    >>> x = torch.ones(2, 2, requires_grad=True)
    >>> y = (x * x).sum()
    >>> y
    tensor(4., grad_fn=<SumBackward0>)
    >>> y.backward()
    >>> x.grad
    tensor([[2., 2.],
            [2., 2.]])
"""

from __future__ import annotations

import builtins as _b
import importlib as _importlib
import math as _math
import sys as _sys
import types as _types
from typing import Any as _Any

import numpy as _np
from ..core.narrow_floats import finfo as _narrow_finfo

from ..ops.specs import point_faces as _point_faces

import fgrad.torch._dtypes as _dtypes
import fgrad.torch._errors as _errors
import fgrad.torch._deprecations as _deprecations
from ._dtypes import (  # noqa: F401
    bool_ as bool,
    complex64,
    complex128,
    dtype,
    bfloat16,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    set_default_dtype,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ._storage import (  # noqa: F401
    BoolStorage,
    ByteStorage,
    CharStorage,
    DoubleStorage,
    FloatStorage,
    HalfStorage,
    IntStorage,
    LongStorage,
    ShortStorage,
    TypedStorage,
    UntypedStorage,
)
from ._tensor import (  # noqa: F401
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    Size,
    Tensor,
    device,
    get_printoptions,
    set_printoptions,
    strided,
)
import fgrad.torch.autograd as autograd  # noqa: F401
from .autograd import (  # noqa: F401
    enable_grad,
    inference_mode,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ._ops import *  # noqa: F401,F403
from ._ops import (  # noqa: F401
    abs,
    all,
    any,
    channels_last,
    contiguous_format,
    max,
    min,
    pow,
    preserve_format,
    round,
    sum,
)
from ._promotion import result_dtype as _result_dtype
from ._ops_shape import *  # noqa: F401,F403
from ._ops_shape import (  # noqa: F401
    cat,
    chunk,
    flatten,
    gather,
    masked_select,
    narrow,
    permute,
    reshape,
    select,
    split,
    squeeze,
    stack,
    t,
    transpose,
    unbind,
    unsqueeze,
    index_select,
)
from ._ops_linalg import *  # noqa: F401,F403
from ._ops_creation import *  # noqa: F401,F403
from ._ops_creation import complex, range  # noqa: F401
from ._dlpack import from_dlpack  # noqa: F401
from ._random import (  # noqa: F401
    Generator,
    _sample_dirichlet,
    _standard_gamma,
    bernoulli,
    binomial,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    multinomial,
    normal,
    poisson,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
)
import fgrad.torch._ops_methods as _ops_methods  # noqa: F401  (binds methods and operators onto Tensor)
import fgrad.torch.linalg as linalg  # noqa: F401
import fgrad.torch.sparse as sparse  # (sparse COO tensors; binds Tensor.to_sparse and friends)
import fgrad.torch.overrides as overrides  # noqa: F401 (the __torch_function__ protocol)
import fgrad.torch._C as _C  # noqa: F401 (torch._C.DisableTorchFunctionSubclass, ...)
from .sparse import sparse_coo, sparse_coo_tensor, sparse_csr, sparse_csr_tensor  # noqa: F401
from ._promotion import can_cast as _can_cast
from ._device import default_device as _default_device
from ._device import set_default as _set_default
from ._tensor import check_device as _check_device
from .types import Device as _Device
from ._ops import return_type as _return_type
import fgrad.torch._dispatch as _dispatch
import fgrad.torch._faces as _faces
import fgrad.torch._promotion as _promotion

mm = sparse.mm_face(mm)  # noqa: F405  (a sparse operand goes to torch.sparse.mm)
matmul = sparse.matmul_face(matmul)  # noqa: F405
addmm = sparse.addmm_face(addmm)  # noqa: F405
mv = sparse.mv_face(mv)  # noqa: F405
spmm = sparse.mm
# star-imported from _ops_shape: Tensor.__getitem__/__setitem__'s helpers, not torch names
del getitem, setitem, check_device, alias_view  # noqa: F821

# the shim's internal API (the dispatcher's, promotion's and the face factories' names, which
# the star imports above bring along) is not part of the torch namespace
for _m in (_dispatch, _promotion, _faces):
    for _n, _v in vars(_m).items():
        if (not _n.startswith("_") and globals().get(_n) is _v
                and getattr(_v, "__module__", None) == _m.__name__):
            del globals()[_n]
del _m, _n, _v
# the factory of fgrad.torch.return_types and fgrad.numpy, which the op modules import
for _n in ("return_type", "fnp"):
    globals().pop(_n)
# the annotation types the op modules import (`fgrad.torch.types`, `typing`), not torch names
for _n in ("Any", "Callable", "Hashable", "Sequence", "Shaped", "DType", "Device", "Dims", "IntOrInts",
           "Layout", "Number", "Scalar", "SizeLike", "TensorOrScalar", "TensorOrTensors", "FileLike"):
    globals().pop(_n, None)
# other helpers the star imports bring along (not torch names; tests/test_public_names.py)
for _n in ("STATE", "quiet", "switch", "ArrayImpl", "Tracer", "stop_gradient", "check_fill_value",
           "check_view", "like_index", "new_view_node_rename", "ones_like_t", "to_device",
           "to_device_buf", "to_dtype", "result_dtype"):
    globals().pop(_n, None)

# dtype aliases
float = float32  # noqa: A001
double = float64
half = float16
cfloat = complex64
cdouble = complex128
long = int64
int = int32  # noqa: A001
short = int16
from ._layout import layout  # noqa: E402, F401
memory_format = type(contiguous_format)  # noqa: F405

inf = _math.inf
nan = _math.nan
pi = _math.pi
e = _math.e
newaxis = None

__version__ = "2.13.0+fgrad"


def is_tensor(obj: _Any) -> _b.bool:
    return isinstance(obj, Tensor)


def is_storage(obj: _Any) -> _b.bool:
    return isinstance(obj, (TypedStorage, UntypedStorage))


def numel(input: Tensor) -> _b.int:
    return input.numel()


def is_floating_point(input: Tensor) -> _b.bool:
    return input.is_floating_point()


def is_complex(input: Tensor) -> _b.bool:
    return input.is_complex()


def is_nonzero(input: Tensor) -> _b.bool:
    return input.is_nonzero()


def promote_types(type1: dtype, type2: dtype) -> dtype:
    return _dtypes.promote_types(type1, type2)


def result_type(tensor1: Tensor | _b.int | _b.float | _b.bool | _b.complex,
                tensor2: Tensor | _b.int | _b.float | _b.bool | _b.complex) -> dtype:
    return _dtypes.from_np(_result_dtype(tensor1, tensor2))


def can_cast(from_: dtype, to: dtype) -> _b.bool:

    return _can_cast(_dtypes.to_np(from_), _dtypes.to_np(to))


def typename(obj: _Any) -> str:
    """PyTorch's name of ``obj``'s type: a tensor's ``type()``, else ``module.qualname`` of a
    class or function (of ``obj``'s class otherwise), fgrad.torch's modules named as PyTorch's.

    >>> import fgrad.torch as torch
    >>> torch.typename(torch.nn.Parameter), torch.typename(torch.nn.Linear(1, 1)), torch.typename(1)
    ('torch.nn.parameter.Parameter', 'torch.nn.modules.linear.Linear', 'int')
    """
    if isinstance(obj, Tensor):
        return obj.type()
    if hasattr(obj, "__qualname__") or hasattr(obj, "__name__"):
        module = getattr(obj, "__module__", "") or ""
        qualname = getattr(obj, "__qualname__", None) or obj.__name__
    else:
        module, qualname = type(obj).__module__ or "", type(obj).__qualname__
    module = module.removeprefix("fgrad.")
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def set_default_tensor_type(tensor_type: type | str) -> None:
    _deprecations.warn_once("set_default_tensor_type")
    if isinstance(tensor_type, str):
        tensor_type = {"torch.FloatTensor": float32, "torch.DoubleTensor": float64}[tensor_type]
    elif hasattr(tensor_type, "_dtype"):
        tensor_type = tensor_type._dtype
    set_default_dtype(tensor_type)


def get_default_device() -> device:

    return device(_default_device())


def set_default_device(device: _Device) -> None:
    """Where factory functions (``zeros``, ``tensor``, ``randn``...) put new tensors."""

    _check_device(device)
    _set_default(None if device is None else str(device))


def is_grad_enabled_() -> _b.bool:  # pragma: no cover - alias kept for compatibility
    return is_grad_enabled()


class finfo:
    """Machine limits of a floating dtype (as ``torch.finfo``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.finfo(torch.float32).eps
        1.1920928955078125e-07
        >>> torch.finfo(torch.float16).max
        65504.0
    """

    def __init__(self, type: _Any = None) -> None:  # noqa: A002
        dt = get_default_dtype() if type is None else _dtypes.canonical(type)
        fi = _narrow_finfo(dt.np)
        self.dtype = dt.name
        self.bits = fi.bits
        self.eps = _b.float(fi.eps)
        self.max = _b.float(fi.max)
        self.min = _b.float(fi.min)
        self.tiny = _b.float(fi.tiny)
        self.smallest_normal = _b.float(fi.smallest_normal)
        self.resolution = 10.0 ** -fi.precision  # PyTorch: a power of ten (0.01 for bfloat16)

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={self.resolution}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
            f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})"
        )


class iinfo:
    """Machine limits of an integer dtype: ``bits``, ``min``, ``max``, ``dtype``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.iinfo(torch.int8).min, torch.iinfo(torch.int8).max
        (-128, 127)
        >>> torch.iinfo(torch.uint8).bits
        8
    """

    def __init__(self, type: _Any) -> None:  # noqa: A002
        dt = _dtypes.canonical(type)
        ii = _np.iinfo(dt.np)
        self.dtype = dt.name
        self.bits = ii.bits
        self.max = _b.int(ii.max)
        self.min = _b.int(ii.min)

    def __repr__(self) -> str:
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"


# -- torch.cuda / torch.backends / torch.return_types (namespaces) -----------------------


def _namespace(name: str, doc: str, **attrs):
    mod = _types.ModuleType(f"{__name__}.{name}", doc)
    mod.__dict__.update(attrs)
    _sys.modules[mod.__name__] = mod
    return mod


import fgrad.torch.cuda as cuda  # noqa: E402,F401
import fgrad.torch.amp as amp  # noqa: E402,F401
from .amp.autocast_mode import (  # noqa: E402,F401
    autocast, clear_autocast_cache, get_autocast_cpu_dtype, get_autocast_dtype, get_autocast_gpu_dtype,
    is_autocast_cache_enabled, is_autocast_cpu_enabled, is_autocast_enabled, set_autocast_cache_enabled,
    set_autocast_cpu_dtype, set_autocast_cpu_enabled, set_autocast_dtype, set_autocast_enabled,
    set_autocast_gpu_dtype,
)
from .amp.autocast_mode import cpu_autocast as _cpu_autocast, cuda_autocast as _cuda_autocast  # noqa: E402
from .amp.grad_scaler import CudaGradScaler as _CudaGradScaler  # noqa: E402

GradScaler = amp.GradScaler  # torch.GradScaler (PyTorch's top-level alias)
OutOfMemoryError = cuda.OutOfMemoryError
cuda.amp = _namespace("cuda.amp", "torch.cuda.amp (deprecated aliases of torch.amp).",
                      autocast=_cuda_autocast, GradScaler=_CudaGradScaler)
cpu = _namespace("cpu", "torch.cpu: the CPU device's namespace.", is_available=lambda: True,
                 device_count=lambda: 1, synchronize=lambda device=None: None,
                 amp=_namespace("cpu.amp", "torch.cpu.amp (deprecated aliases of torch.amp).",
                                autocast=_cpu_autocast))

import fgrad.torch.accelerator as accelerator  # noqa: E402,F401
import fgrad.torch.backends as backends  # noqa: E402,F401
import fgrad.torch.onnx as onnx  # noqa: E402,F401


def _return_types_module():

    names = {
        n: _return_type(n)
        for n in ("max", "min", "sort", "topk", "kthvalue", "median", "mode", "cummax", "cummin", "nanmedian")
    }
    names["aminmax"] = _return_type("aminmax", ("min", "max"))
    names["slogdet"] = _return_type("slogdet", ("sign", "logabsdet"))
    names["svd"] = _return_type("svd", ("U", "S", "V"))
    return _namespace("return_types", "Named-tuple result types (values, indices).", **names)


return_types = _return_types_module()


# -- the other engineer's subpackages (loaded defensively until they exist) --------------


def _optional(name):
    import importlib

    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.startswith(f"{__name__}.{name}"):
            return None
        raise
    except Exception as exc:  # a subpackage being written must not break `import fgrad.torch`
        import warnings

        warnings.warn(
            f"fgrad.torch.{name} failed to import: {type(exc).__name__}: {exc}", ImportWarning, stacklevel=2
        )
        return None


nn = _optional("nn")
optim = _optional("optim")
utils = _optional("utils")
fft = _optional("fft")  # torch.fft: the fgrad.numpy.fft definitions with PyTorch's conventions
special = _optional("special")  # written with fgrad.torch's own functions: loaded after them
if special is not None:  # torch.lgamma, torch.i0, Tensor.digamma, ...: the definitions in special.py
    special.export_top_level(globals())
distributions = _optional("distributions")  # above nn and special
_serialization = _optional("serialization")
if _serialization is not None:
    save = getattr(_serialization, "save", None)
    load = getattr(_serialization, "load", None)
import fgrad.torch.func as func  # noqa: E402,F401
from . import _foreach  # noqa: E402  (torch._foreach_mul_ ...: loops over the Tensor methods)

_foreach.export(globals())
# torch.compile sits above nn (it compiles modules): loaded like nn, by name
_compile_mod = _optional("_compile")
if _compile_mod is not None:
    compile = _compile_mod.compile  # noqa: A001
    compiler = _optional("compiler")
    _dynamo = _optional("_dynamo")

ravel = Tensor.ravel


def __getattr__(name):
    """``torch.conv2d``, ``torch.softplus``...: PyTorch exports many functional ops at the top
    level; fall back to ``nn.functional``.  ``torch.distributed``, ``torch.multiprocessing``,
    ``torch.quasirandom`` and ``torch.fx`` load on first use."""
    if name in ("distributed", "multiprocessing", "quasirandom", "fx"):
        return _importlib.import_module(f"fgrad.torch.{name}")
    nnmod = globals().get("nn")
    fn = getattr(getattr(nnmod, "functional", None), name, None) if nnmod is not None else None
    if fn is not None and not name.startswith("_"):
        return fn
    raise AttributeError(f"module 'fgrad.torch' has no attribute {name!r}")


for _n in ("nn", "optim", "utils"):
    if globals().get(_n) is None:
        del globals()[_n]
del _n

# public entry points: a non-Tensor argument where a Tensor is needed raises PyTorch's
# TypeError naming the argument (see _errors.public); errors inside ops are translated in _dispatch.apply_op
_point_faces(globals(), "torch")
_errors.wrap_public_functions(globals())
_errors.wrap_public_functions(vars(linalg))
if fft is not None:
    _errors.wrap_public_functions(vars(fft))
if globals().get("nn") is not None:
    _errors.wrap_public_functions(vars(nn.functional))

from .. import _docs as _docs_examples  # noqa: E402

_docs_examples.attach_loaded("fgrad.torch")  # runnable examples for the functions without one (fgrad/_docs)

# -- round 8: PyTorch functions the shim lacked (new modules; see docs/torch-gaps-round8.md) --
# (loaded by name, as fft and special: they are written with fgrad.torch's own functions)
_importlib.import_module(f"{__name__}._round8").install(globals())

# -- process-wide switches (set_float32_matmul_precision, deterministic flags, threads,
# torch.version) and the torch.testing / torch.random / torch.jit modules ------------------
_importlib.import_module(f"{__name__}._runtime_flags").install(globals())
# loaded by name, as fft and special: they are written with fgrad.torch's own functions
jit = _importlib.import_module(f"{__name__}.jit")
globals()["__future__"] = _importlib.import_module(f"{__name__}.__future__")  # torch.__future__
signal = _importlib.import_module(f"{__name__}.signal")
_importlib.import_module(f"{__name__}._copy_variants").install(globals())  # t_copy, view_copy, ...
random = _importlib.import_module(f"{__name__}.random")
testing = _importlib.import_module(f"{__name__}.testing")
profiler = _importlib.import_module(f"{__name__}.profiler")
_importlib.import_module(f"{__name__}.autograd.profiler")  # torch.autograd.profiler

# -- round 9: linear algebra the shim lacked (see docs/torch-linalg-sparse.md) --
_importlib.import_module(f"{__name__}._linalg_round9").install(globals(), vars(linalg))
for _m in ("_lowrank", "_lobpcg"):  # svd_lowrank, pca_lowrank, lobpcg
    for _n, _f in _importlib.import_module(f"{__name__}.{_m}").FUNCTIONS.items():
        globals()[_n] = _errors.public(_f, _n)
del _m, _n, _f

# -- round 10: torch.library/torch.ops, torch.utils.benchmark, torch.nn.attention, torch.masked,
# torch.hub (see docs/torch-modules-round10.md); loaded by name, as fft and special
ops = _importlib.import_module(f"{__name__}._op_registry").ops
library = _importlib.import_module(f"{__name__}.library")
masked = _importlib.import_module(f"{__name__}.masked")
hub = _importlib.import_module(f"{__name__}.hub")

# -- the operand dtypes PyTorch's hand-written functions refuse (see fgrad/torch/_refusals.py):
# last, so every function of those names, wherever it was defined above, checks first
_importlib.import_module(f"{__name__}._refusals").install(
    globals(), Tensor, *([vars(nn.functional)] if globals().get("nn") is not None else []))
