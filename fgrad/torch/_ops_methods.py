"""Tensor methods and operators: bind the op functions onto `Tensor` (PyTorch names)."""

from __future__ import annotations

import warnings
import weakref

import numpy as np

from ..ops.elementwise import pow_p
from ..ops.specs import SPEC_LIST
import fgrad.torch._dtypes as D
import fgrad.torch._errors as _errors
import fgrad.torch._ops as tensor_ops
from ._dispatch import (
    apply_inplace,
    buf_index,
    bump_version,
    cast_primitive,
    run_forward,
    resize_,
    result_tensor,
    tracks_grad,
)
from ._faces import BINOPS
from ._promotion import binary_result_dtype, can_cast, scalar_type_name, scalar_value
import fgrad.torch._ops_creation as creation_ops
import fgrad.torch._ops_linalg as linalg_ops
import fgrad.torch._ops_shape as view_ops
import fgrad.torch._random as random_ops
from ._tensor import (
    LEGACY as _LEGACY, LEGACY_BY_NAME as _LEGACY_BY_NAME, Tensor, _wrap, check_device, device,
    legacy_type_name,
)
from .autograd import graph as G
import fgrad.torch.cuda as _cuda
from .autograd import backward as bw
from .autograd.grad_mode import STATE as _GRAD_MODE
from collections.abc import Callable, Sequence
from fgrad.torch.types import Device, Dims, DType, IntOrInts, memory_format, TensorOrScalar, TensorOrTensors
from typing import Any

_nd = np.ndarray


# ---------------------------------------------------------------------------------------
# conversion methods


def _parse_to(args, kwargs):
    dt = kwargs.get("dtype")
    dev = kwargs.get("device")
    copy = kwargs.get("copy", False)
    for a in args:
        if isinstance(a, D.dtype):
            dt = a
        elif isinstance(a, (str, device, int)) and not isinstance(a, bool):
            dev = a
        elif isinstance(a, Tensor):
            dt = a.dtype
        elif isinstance(a, bool):
            copy = a
        elif a is None:
            continue
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got ({type(a).__name__})")
    return dt, dev, copy


def _parse_to_tensor(args, kwargs):
    for a in args:
        if isinstance(a, Tensor):
            return a
    return kwargs.get("other")


def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``to(dtype)``, ``to(device)``, ``to(device, dtype)``, ``to(other)``: a converted copy,
    or ``self`` when nothing changes (``copy=True``: always a copy); ``memory_format=`` lays the
    result out as `contiguous` does."""
    res = _to(self, args, kwargs)
    mf = kwargs.get("memory_format")
    if mf is not None and str(mf) != "torch.preserve_format":
        res = res.contiguous(memory_format=mf)
    return res


def _to(self: Tensor, args: tuple, kwargs: dict) -> Tensor:
    dt, dev, copy = _parse_to(args, kwargs)
    other = _parse_to_tensor(args, kwargs)
    if other is not None and dev is None:
        dev = other.device
    if dev is None:
        if dt is None:
            return tensor_ops.clone(self) if copy else self
        return tensor_ops.to_dtype(self, D.canonical(dt), copy)
    idx = check_device(dev)
    x = self
    moved = False
    if buf_index(self._buf) != idx:
        x = tensor_ops.to_device(self, idx)
        moved = True
    if dt is not None:
        return tensor_ops.to_dtype(x, D.canonical(dt), copy and not moved)
    return tensor_ops.clone(x) if copy and not moved else x


def _caster(dt):
    def f(self: Tensor, memory_format: memory_format | None = None) -> Tensor:
        return tensor_ops.to_dtype(self, dt)

    return f


def type_(self: Tensor, dtype: DType | str | None = None, non_blocking: bool = False,
          **kwargs: Any) -> str | Tensor:
    if dtype is None:
        name = legacy_type_name(self.dtype)
        return name.replace("torch.", "torch.cuda.", 1) if buf_index(self._buf) is not None else name
    if isinstance(dtype, str):
        on_cuda = dtype.startswith("torch.cuda.")
        cls = _LEGACY_BY_NAME.get(dtype.replace("torch.cuda.", "torch.", 1))
        if cls is None:
            raise ValueError(f"invalid type: '{dtype}'")
        r = tensor_ops.to_dtype(self, cls._dtype)
        return cuda(r) if on_cuda else tensor_ops.to_device(r, None)
    if isinstance(dtype, type) and hasattr(dtype, "_dtype"):
        return tensor_ops.to_dtype(self, dtype._dtype)
    return tensor_ops.to_dtype(self, D.canonical(dtype))


def type_as(self: Tensor, other: Tensor) -> Tensor:
    return tensor_ops.to_dtype(self, other.dtype)


def cpu(self: Tensor, memory_format: memory_format | None = None) -> Tensor:
    """A copy on the host (``self`` if already there)."""
    return tensor_ops.to_device(self, None)


def cuda(self: Tensor, device: Device = None, non_blocking: bool = False,
         memory_format: memory_format | None = None) -> Tensor:
    """A copy on CUDA device ``device`` (default: the current one); ``self`` if already
    there.  Without CUDA: PyTorch's "Torch not compiled with CUDA enabled"."""
    if device is None:

        idx = check_device("cuda")
        idx = _cuda.current_device() if idx is not None else idx
    else:
        idx = check_device(device if not isinstance(device, int) else f"cuda:{device}")
        if idx is None:
            raise RuntimeError(f"Invalid device, must be cuda device, got {device}")
    return tensor_ops.to_device(self, idx)


# ---------------------------------------------------------------------------------------
# autograd methods


def register_hook(self: Tensor, hook: Callable[..., Any]) -> G.RemovableHandle:
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    gfn = self.grad_fn
    if gfn is None:
        if self._hooks is None:
            self._hooks = G._HookDict()
        h = G.RemovableHandle(self._hooks)
        self._hooks[h.id] = hook
        return h
    return gfn._register_tensor_hook(self._oi, hook)


def register_post_accumulate_grad_hook(self: Tensor, hook: Callable[..., Any]) -> G.RemovableHandle:
    if self._gfn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    if self._post_acc_hooks is None:
        self._post_acc_hooks = G._HookDict()
    h = G.RemovableHandle(self._post_acc_hooks)
    self._post_acc_hooks[h.id] = hook
    return h


def retain_grad(self: Tensor) -> None:
    if not self.requires_grad:
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    gfn = self.grad_fn
    if gfn is None:
        return
    if gfn._retain is None:
        gfn._retain = {}
    gfn._retain[self._oi] = weakref.ref(self)
    self._retains = True


def backward(self: Tensor, gradient: Tensor | None = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: TensorOrTensors | None = None) -> None:

    bw(self, gradient, retain_graph, create_graph, inputs=inputs)


def apply_(self: Tensor, callable: Callable[..., Any]) -> Tensor:  # noqa: A002
    if buf_index(self._buf) is not None:
        raise TypeError("apply_ is only implemented on CPU tensors")
    b = self._buf
    flat = b.reshape(-1) if b.flags.c_contiguous else None
    vals = [callable(v) for v in b.reshape(-1).tolist()]
    new = np.asarray(vals, b.dtype).reshape(b.shape)
    if flat is not None:
        flat[...] = new.reshape(-1)
    else:
        b[...] = new
    bump_version(self)
    return self


def map_(self: Tensor, tensor: Tensor, callable: Callable[..., Any]) -> Tensor:  # noqa: A002
    b = self._buf
    o = np.broadcast_to(tensor._buf, b.shape)
    new = np.asarray(
        [callable(x, y) for x, y in zip(b.reshape(-1).tolist(), o.reshape(-1).tolist(), strict=False)],
        b.dtype,
    )
    b[...] = new.reshape(b.shape)
    bump_version(self)
    return self


def is_nonzero(self: Tensor) -> bool:
    if self._buf.size != 1:
        raise RuntimeError(
            f"Boolean value of Tensor with {'no values' if self._buf.size == 0 else 'more than one value'} "
            "is ambiguous"
        )
    return bool(self._buf.reshape(()))


def fill_diagonal_(self: Tensor, fill_value: TensorOrScalar, wrap: bool = False) -> Tensor:
    b = self._buf
    n = min(b.shape)
    idx = tuple(np.arange(n) for _ in b.shape)
    if wrap and b.ndim == 2 and b.shape[0] > b.shape[1] + 1:
        rows = np.arange(b.shape[0])
        keep = (rows % (b.shape[1] + 1)) < b.shape[1]
        idx = (rows[keep], (rows % (b.shape[1] + 1))[keep])
    view_ops.setitem(self, tuple(result_tensor(i.astype(np.int64)) for i in idx), fill_value)
    return self


def where_method(self: Tensor, condition: Tensor, y: TensorOrScalar) -> Tensor:
    return tensor_ops.where(condition, self, y)


def _cumsum_(self: Tensor, dim: int, *, dtype: DType | None = None) -> Tensor:
    if tracks_grad(self):
        return _no_inplace("cumsum_")
    # in place the sum is taken in self's dtype (a bool tensor: PyTorch's NotImplementedError)
    return tensor_ops.copy_(self, tensor_ops.cumsum(self, dim, dtype=self.dtype if dtype is None else dtype))


def _ravel(self: Tensor) -> Tensor:
    return view_ops.reshape(self, -1)


def _narrow_copy(self: Tensor, dim: int, start: int | Tensor, length: int) -> Tensor:
    return tensor_ops.clone(view_ops.narrow(self, dim, start, length))


def _pin_memory(self: Tensor, device: Device = None) -> Tensor:
    return self  # (host memory is what a CPU tensor has)


def _is_pinned(self: Tensor, device: Device = None) -> bool:
    return False


def _is_shared(self: Tensor) -> bool:
    return False


def _share_memory_(self: Tensor) -> Tensor:
    return self


def _H(self: Tensor) -> Tensor:
    """The conjugate transpose of a matrix (``x.H``; a real matrix's transpose).

    >>> import fgrad.torch as torch
    >>> torch.tensor([[1 + 2j, 3]]).H
    tensor([[1.-2.j],
            [3.-0.j]])
    """
    return view_ops._T(self).conj()


def _mH(self: Tensor) -> Tensor:
    """The conjugate transpose of the last two dimensions (``x.mH``).

    >>> import fgrad.torch as torch
    >>> torch.ones(3, 1, 2).mH.shape
    torch.Size([3, 2, 1])
    """
    return view_ops._mT(self).conj()


def _split(self: Tensor, split_size: IntOrInts, dim: int = 0) -> tuple[Tensor, ...]:
    """`torch.split` as a method (PyTorch names its size ``split_size`` here).

    >>> import fgrad.torch as torch
    >>> tuple(len(t) for t in torch.arange(5).split(split_size=2))
    (2, 2, 1)
    """
    return view_ops.split(self, split_size, dim)


def _norm(self: Tensor, p: float | str | None = "fro", dim: Dims = None, keepdim: bool = False,
          dtype: DType | None = None) -> Tensor:
    """`torch.norm` as a method (no ``out``: PyTorch's fourth positional argument is ``dtype`` here).

    >>> import fgrad.torch as torch
    >>> torch.tensor([[3.0, 4.0]]).norm(2, 1, False, torch.float64)
    tensor([5.], dtype=torch.float64)
    """
    return tensor_ops.norm(self, p, dim, keepdim, dtype=dtype)


def _dim_order(self: Tensor, *, ambiguity_check: bool | list = False) -> tuple[int, ...]:
    """The dimensions from the outermost to the innermost in memory.

    >>> import fgrad.torch as torch
    >>> torch.empty((2, 3, 5)).transpose(1, 2).dim_order()
    (0, 2, 1)
    """
    st = self.stride()
    if ambiguity_check is True:
        if 1 in self.shape or len(set(st)) < len(st):
            raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact one of "
                               "the given memory formats.")
    elif ambiguity_check is not False:
        if isinstance(ambiguity_check, list):
            raise NotImplementedError("fgrad.torch: Tensor.dim_order(ambiguity_check=[memory formats]) is "
                                      "not supported; pass ambiguity_check=True or False")
        raise TypeError("The ambiguity_check argument must be a bool or a list of memory formats.")
    return tuple(sorted(range(len(st)), key=lambda d: -st[d]))


def _no_inplace(name):
    raise NotImplementedError(f"fgrad.torch: {name} with autograd is not supported; use the out-of-place op")


def contains(self, element):
    if isinstance(element, (Tensor, int, float, bool, complex)):
        return bool(tensor_ops.eq(self, element)._buf.any())
    raise RuntimeError(
        f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type(element)}."
    )


def iter_(self):
    if self._buf.ndim == 0:
        raise TypeError("iteration over a 0-d tensor")
    return iter(view_ops.unbind(self, 0))


def reversed_(self):
    if self._buf.ndim == 0:
        return self
    return view_ops.flip(self, 0)


# ---------------------------------------------------------------------------------------
# operators


def _float_of(self: Tensor) -> float:
    """``float(t)``: PyTorch warns when ``t`` requires grad and grad mode is on (only for
    ``float()``, not ``item()``/``int()``)."""
    if _GRAD_MODE.enabled and (self._rg or self._gfn is not None):
        warnings.warn(
            "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
            "Consider using tensor.detach() first. (Triggered internally at "
            "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)",
            UserWarning, stacklevel=2)
    return _TENSOR_FLOAT(self)


def _eq_op(self, other):
    if other is None or not isinstance(
        other, (Tensor, int, float, bool, complex, np.generic, np.ndarray, list)
    ):
        return False
    return tensor_ops.eq(self, other)


def _ne_op(self, other):
    if other is None or not isinstance(
        other, (Tensor, int, float, bool, complex, np.generic, np.ndarray, list)
    ):
        return True
    return tensor_ops.ne(self, other)


def _rsub(self, other):
    return tensor_ops.rsub(self, other)


def _rtruediv(self, other):
    return tensor_ops.rtruediv(self, other)


def _rfloordiv(self, other):
    return tensor_ops.floor_divide(
        creation_ops.scalar_tensor(other, self) if not isinstance(other, Tensor) else other, self
    )


def _rmod(self, other):
    return tensor_ops.remainder(
        creation_ops.scalar_tensor(other, self) if not isinstance(other, Tensor) else other, self
    )


def _rpow(self, other):
    return tensor_ops.pow(other, self)


def _rmatmul(self, other):
    return linalg_ops.matmul(other, self)


def _iadd(self, other):
    return BINOPS["add"].inplace(self, other)


def _isub(self, other):
    return BINOPS["subtract"].inplace(self, other)


def _imul(self, other):
    return BINOPS["multiply"].inplace(self, other)


def _itruediv(self, other):
    return BINOPS["divide"].inplace(self, other)


def _ifloordiv(self, other):
    return tensor_ops._floor_divide_(self, other)


def _imod(self, other):
    return BINOPS["mod"].inplace(self, other)


def _ipow(self, other):
    return pow_(self, other)


def _ints_or_one_sequence(dims: tuple) -> Any:
    """A method's dims given as varargs ints (``t.flip(0, 1)``) or one sequence (``t.flip((0,
    1))``), as the one sequence the function form takes."""
    return dims[0] if len(dims) == 1 and not isinstance(dims[0], int) else dims


def _tile(self: Tensor, *dims: int | Sequence[int]) -> Tensor:
    """``Tensor.tile(2, 3)`` or ``Tensor.tile((2, 3))`` (the method takes ints as varargs;
    ``torch.tile`` takes one sequence)."""
    return view_ops.tile(self, _ints_or_one_sequence(dims))


def _flip(self: Tensor, *dims: int | Sequence[int], **kw: Any) -> Tensor:
    """``Tensor.flip(0, 1)``, ``Tensor.flip((0, 1))`` or ``Tensor.flip(dims=...)`` (the method
    takes ints as varargs; ``torch.flip`` takes one sequence)."""
    if "dims" in kw:
        if dims or len(kw) > 1:
            raise TypeError(f"flip() received an invalid combination of arguments: {dims} and {sorted(kw)}")
        return view_ops.flip(self, kw["dims"])
    if kw:
        raise TypeError(f"flip() got an unexpected keyword argument '{next(iter(kw))}'")
    if not dims:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    return view_ops.flip(self, _ints_or_one_sequence(dims))


def add_(self: Tensor, other: TensorOrScalar, *, alpha: float = 1) -> Tensor:
    if alpha != 1 or type(alpha) is not int:
        return tensor_ops._with_alpha("add", self, other, alpha, True)
    return BINOPS["add"].inplace(self, other)


def sub_(self: Tensor, other: TensorOrScalar, *, alpha: float = 1) -> Tensor:
    if alpha != 1 or type(alpha) is not int:
        return tensor_ops._with_alpha("sub", self, other, alpha, True)
    return BINOPS["subtract"].inplace(self, other)


def mul_(self: Tensor, other: TensorOrScalar) -> Tensor:
    return BINOPS["multiply"].inplace(self, other)


def div_(self: Tensor, other: TensorOrScalar, *, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode is None:
        return BINOPS["divide"].inplace(self, other)
    res = tensor_ops.div(self if not tracks_grad(self) else self.detach(), other, rounding_mode=rounding_mode)
    if not can_cast(res._buf.dtype, self._buf.dtype):  # as every in-place op: no silent narrowing
        raise RuntimeError(
            f"result type {scalar_type_name(res._buf.dtype)} can't be cast to the desired output type "
            f"{scalar_type_name(self._buf.dtype)}"
        )
    return tensor_ops.copy_(self, res)


def pow_(self: Tensor, exponent: TensorOrScalar) -> Tensor:
    if not isinstance(exponent, Tensor):
        e = scalar_value(exponent)
        Rd = binary_result_dtype(self, e)
        if not can_cast(Rd, self._buf.dtype):
            raise RuntimeError(
                f"result type {scalar_type_name(Rd)} can't be cast to the desired output type "
                f"{scalar_type_name(self._buf.dtype)}"
            )
        fn = cast_primitive(pow_p, Rd)
        b = self._buf
        ea = np.asarray(e, Rd)
        # the definition's numbers, through its program
        new = run_forward(("pow", Rd), fn, [b, ea], False) if type(b) is _nd else None
        return apply_inplace(self, "PowBackward0", ("pow", Rd), fn, (self, ea), new, (0,))
    return BINOPS["power"].inplace(self, exponent)


def _binary_inplace(binop):
    def f(self: Tensor, other: TensorOrScalar) -> Tensor:
        return binop.inplace(self, other)

    return f


# ---------------------------------------------------------------------------------------
# binding


def _bind() -> None:
    T = Tensor
    m = {}
    # the ops declared in fgrad.ops.specs: the method is the torch function; the in-place
    # twin is the generated one (unary) or the binary op's in-place form
    for spec in SPEC_LIST:
        if spec.family not in ("unary", "binary") or not spec.torch:
            continue
        for n in spec.torch:
            if spec.method and spec.generates("method"):
                m[n] = getattr(tensor_ops, n)
            if spec.inplace and spec.generates("inplace"):
                binop = BINOPS.get(spec.name)
                m[n + "_"] = getattr(tensor_ops, n + "_") if binop is None else _binary_inplace(binop)
    m["floor_divide_"] = tensor_ops._floor_divide_  # not differentiable (PyTorch)
    # hand-written ops (composites, PyTorch-only ops, extra keyword arguments)
    for n in ("rsqrt", "reciprocal", "frac", "relu", "logit", "abs", "sign", "square", "round"):
        m[n] = getattr(tensor_ops, n)
        m[n + "_"] = getattr(tensor_ops, n + "_")
    m.update(
        absolute=tensor_ops.abs,
        absolute_=tensor_ops.abs_,
        sgn=tensor_ops.sgn,
        positive=tensor_ops.positive,
        isposinf=tensor_ops.isposinf,
        isneginf=tensor_ops.isneginf,
        isreal=tensor_ops.isreal,
        nan_to_num=tensor_ops.nan_to_num,
    )
    for n in ("add", "sub", "mul", "div", "pow", "lerp", "addcmul", "addcdiv", "copysign", "xlogy",
              "float_power"):
        m[n] = getattr(tensor_ops, n)
    m.update(
        subtract=tensor_ops.sub,
        multiply=tensor_ops.mul,
        divide=tensor_ops.div,
        true_divide=tensor_ops.div,
        add_=add_,
        sub_=sub_,
        subtract_=sub_,
        mul_=mul_,
        multiply_=mul_,
        div_=div_,
        divide_=div_,
        true_divide_=div_,
        pow_=pow_,
        clamp=tensor_ops.clamp,
        clip=tensor_ops.clamp,
        clamp_=tensor_ops.clamp_,
        clip_=tensor_ops.clamp_,
        clamp_min=tensor_ops.clamp_min,
        clamp_max=tensor_ops.clamp_max,
        clamp_min_=tensor_ops.clamp_min_,
        clamp_max_=tensor_ops.clamp_max_,
        where=where_method,
        isclose=tensor_ops.isclose,
        allclose=tensor_ops.allclose,
        equal=tensor_ops.equal,
        rsub=tensor_ops.rsub,
    )
    m.update(
        lerp_=tensor_ops.lerp_,
        addcmul_=tensor_ops.addcmul_,
        addcdiv_=tensor_ops.addcdiv_,
    )
    reductions = [
        "sum",
        "nansum",
        "mean",
        "nanmean",
        "prod",
        "max",
        "min",
        "amax",
        "amin",
        "aminmax",
        "argmax",
        "argmin",
        "std",
        "var",
        "dist",
        "logsumexp",
        "softmax",
        "log_softmax",
        "all",
        "any",
        "count_nonzero",
        "median",
        "nanmedian",
        "mode",
        "sort",
        "argsort",
        "msort",
        "topk",
        "kthvalue",
        "cumsum",
        "cumprod",
        "cummax",
        "cummin",
        "logcumsumexp",
    ]
    for n in reductions:  # x.sum(axis=1, keepdims=True) as PyTorch's parser reads it
        m[n] = _errors.accepts_numpy_keywords(getattr(tensor_ops, n))
    m["cumsum_"] = _cumsum_
    shape_ops = [
        "view",
        "view_as",
        "reshape",
        "reshape_as",
        "flatten",
        "unflatten",
        "unsqueeze",
        "unsqueeze_",
        "squeeze",
        "squeeze_",
        "expand",
        "expand_as",
        "permute",
        "transpose",
        "transpose_",
        "swapaxes",
        "swapaxes_",
        "swapdims",
        "swapdims_",
        "t",
        "t_",
        "narrow",
        "select",
        "unbind",
        "chunk",
        "tensor_split",
        "diagonal",
        "unfold",
        "as_strided",
        "as_strided_",
        "movedim",
        "moveaxis",
        "flip",
        "fliplr",
        "flipud",
        "roll",
        "rot90",
        "repeat",
        "tile",
        "repeat_interleave",
        "tril",
        "triu",
        "tril_",
        "triu_",
        "diag",
        "diag_embed",
        "trace",
        "gather",
        "scatter",
        "scatter_",
        "scatter_add",
        "scatter_add_",
        "scatter_reduce",
        "index_select",
        "masked_select",
        "masked_fill",
        "masked_fill_",
        "masked_scatter",
        "take",
        "take_along_dim",
        "index_add",
        "index_add_",
        "index_copy",
        "index_copy_",
        "index_fill",
        "index_fill_",
        "index_put",
        "index_put_",
        "put_",
        "nonzero",
        "argwhere",
        "unique",
        "unique_consecutive",
        "bincount",
        "histc",
        "broadcast_to",
        "diagflat",
    ]
    for n in shape_ops:
        m[n] = getattr(view_ops, n)
    m["tile"] = _tile
    m["flip"] = _flip
    m.update(
        real=property(view_ops.real),
        imag=property(view_ops.imag),
        T=property(view_ops._T),
        mT=property(view_ops._mT),
        H=property(_H),
        mH=property(_mH),
        __getitem__=view_ops.getitem,
        __setitem__=view_ops.setitem,
    )
    for n in ("__getitem__", "__setitem__"):  # PyTorch's names (what __torch_function__ overrides see)
        m[n].__name__ = m[n].__qualname__ = n
    linalg = [
        "mm",
        "bmm",
        "matmul",
        "mv",
        "dot",
        "vdot",
        "inner",
        "outer",
        "ger",
        "addmm",
        "addmv",
        "addbmm",
        "baddbmm",
        "addr",
        "cross",
        "inverse",
        "det",
        "logdet",
        "slogdet",
        "svd",
        "pinverse",
        "matrix_power",
        "cholesky",
        "qr",
        "kron",
    ]
    for n in linalg:
        m[n] = getattr(linalg_ops, n)
    m.update(
        deg2rad=tensor_ops.deg2rad,
        rad2deg=tensor_ops.rad2deg,
        angle=tensor_ops.angle,
        sinc=tensor_ops.sinc,
        heaviside=tensor_ops.heaviside,
        gcd=tensor_ops.gcd,
        lcm=tensor_ops.lcm,
        ldexp=tensor_ops.ldexp,
        quantile=tensor_ops.quantile,
        nanquantile=tensor_ops.nanquantile,
        diff=tensor_ops.diff,
        renorm=tensor_ops.renorm,
        sum_to_size=tensor_ops.sum_to_size,
        ravel=_ravel,
        narrow_copy=_narrow_copy,
        pin_memory=_pin_memory,
        is_pinned=_is_pinned,
        is_shared=_is_shared,
        share_memory_=_share_memory_,
        dim_order=_dim_order,
        split=_split,
        norm=_norm,
        bfloat16=_caster(D.bfloat16),
    )
    m.update(
        copy_=tensor_ops.copy_,
        fill_=tensor_ops.fill_,
        zero_=tensor_ops.zero_,
        resize_=resize_,
        resize_as_=tensor_ops.resize_as_,
        clone=tensor_ops.clone,
        contiguous=tensor_ops.contiguous,
        detach=tensor_ops.detach,
        detach_=tensor_ops.detach_,
        to=to,
        type=type_,
        type_as=type_as,
        cpu=cpu,
        cuda=cuda,
        float=_caster(D.float32),
        double=_caster(D.float64),
        half=_caster(D.float16),
        long=_caster(D.int64),
        int=_caster(D.int32),
        short=_caster(D.int16),
        char=_caster(D.int8),
        byte=_caster(D.uint8),
        bool=_caster(D.bool_),
        cfloat=_caster(D.complex64),
        cdouble=_caster(D.complex128),
        new_tensor=creation_ops.new_tensor,
        new_zeros=creation_ops.new_zeros,
        new_ones=creation_ops.new_ones,
        new_empty=creation_ops.new_empty,
        new_full=creation_ops.new_full,
        uniform_=random_ops.uniform_,
        normal_=random_ops.normal_,
        random_=random_ops.random_,
        bernoulli_=random_ops.bernoulli_,
        exponential_=random_ops.exponential_,
        geometric_=random_ops.geometric_,
        log_normal_=random_ops.log_normal_,
        cauchy_=random_ops.cauchy_,
        bernoulli=random_ops.bernoulli,
        multinomial=random_ops.multinomial,
        register_hook=register_hook,
        register_post_accumulate_grad_hook=register_post_accumulate_grad_hook,
        retain_grad=retain_grad,
        backward=backward,
        apply_=apply_,
        map_=map_,
        is_nonzero=is_nonzero,
        fill_diagonal_=fill_diagonal_,
        __contains__=contains,
        __iter__=iter_,
        __reversed__=reversed_,
    )
    ops = {
        "__add__": tensor_ops.add,
        "__radd__": lambda s, o: tensor_ops.add(s, o),
        "__iadd__": _iadd,
        "__sub__": tensor_ops.sub,
        "__rsub__": _rsub,
        "__isub__": _isub,
        "__mul__": tensor_ops.mul,
        "__rmul__": lambda s, o: tensor_ops.mul(s, o),
        "__imul__": _imul,
        "__truediv__": tensor_ops.div,
        "__rtruediv__": _rtruediv,
        "__itruediv__": _itruediv,
        "__floordiv__": tensor_ops.floor_divide,
        "__rfloordiv__": _rfloordiv,
        "__ifloordiv__": _ifloordiv,
        "__mod__": tensor_ops.remainder,
        "__rmod__": _rmod,
        "__imod__": _imod,
        "__pow__": tensor_ops.pow,
        "__rpow__": _rpow,
        "__ipow__": _ipow,
        "__matmul__": linalg_ops.matmul,
        "__rmatmul__": _rmatmul,
        "__neg__": tensor_ops.neg,
        "__pos__": tensor_ops.positive,
        "__abs__": tensor_ops.abs,
        "__invert__": tensor_ops.bitwise_not,
        "__and__": tensor_ops.bitwise_and,
        "__rand__": lambda s, o: tensor_ops.bitwise_and(s, o),
        "__iand__": _binary_inplace(BINOPS["bitwise_and"]),
        "__or__": tensor_ops.bitwise_or,
        "__ror__": lambda s, o: tensor_ops.bitwise_or(s, o),
        "__ior__": _binary_inplace(BINOPS["bitwise_or"]),
        "__xor__": tensor_ops.bitwise_xor,
        "__rxor__": lambda s, o: tensor_ops.bitwise_xor(s, o),
        "__ixor__": _binary_inplace(BINOPS["bitwise_xor"]),
        "__eq__": _eq_op,
        "__ne__": _ne_op,
        "__float__": _float_of,
        "__lt__": tensor_ops.lt,
        "__le__": tensor_ops.le,
        "__gt__": tensor_ops.gt,
        "__ge__": tensor_ops.ge,
    }
    m.update(ops)
    # methods whose other operand must be a Tensor: a non-Tensor raises PyTorch's TypeError
    # naming it (not an AttributeError from inside)
    for k in ("matmul", "__matmul__", "__rmatmul__", "mm", "bmm", "mv", "dot", "inner", "expand_as",
              "reshape_as", "view_as", "type_as", "take_along_dim", "bincount", "equal", "resize_as_",
              "is_set_to"):
        if k in m:
            m[k] = _errors.public(m[k], k.strip("_"))
    for k, v in m.items():
        setattr(T, k, v)
    T.__hash__ = lambda self: id(self)
    for dt, cls in _LEGACY.items():
        del dt, cls


_TENSOR_FLOAT = Tensor.__float__  # the conversion itself (_tensor.py), wrapped by _float_of
_bind()
_ = _wrap
