"""``torch.nn.functional`` on fgrad's engine.

Each function is an op with an fgrad definition (see `_defop`): its gradient, its
higher-order derivatives and its behaviour under ``fgrad.grad``/``vmap``/``jit`` (through
``fgrad.torch.func.functional_call``) all come from the core's primitive rules.  Hot ops
(``linear``, the losses, ``conv``) also carry a NumPy forward so eager mode runs one BLAS
call or one vectorised expression per op; ``grad_fn`` names are PyTorch's.

Convolution and pooling are im2col composites: the fgrad definition gathers the (padded)
input's windows with ``take`` along each spatial axis (whose transpose is a scatter-add) and
contracts them with the weight in one ``einsum``; the NumPy forward uses a strided window
view and ``tensordot``.  Max pooling picks the *first* maximum of each window (argmax, as
PyTorch does), so ties send the whole gradient to one element.

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.nn.functional as F
    >>> F.relu(torch.tensor([-1.0, 2.0]))
    tensor([0., 2.])
    >>> F.cross_entropy(torch.zeros(2, 4), torch.tensor([0, 3]))
    tensor(1.3863)
"""

from __future__ import annotations

import functools
import math
import numbers
import warnings

import numpy as np
from ...core import native_sums as _native_sums
from ...core.narrow_floats import bfloat16 as _bfloat16, dtype_kind as _dtype_kind

import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad import lax
from fgrad import nn as fnn
from fgrad.nn._activations import gelu_erf as _gelu_erf
from fgrad.nn._activations import gelu_erf_float32_arithmetic as _gelu_erf_float32
from fgrad.nn._activations import normalize_with_rstd as _normalize_with_rstd
from fgrad.nn._batch_norm import batch_normalize_affine as _batch_normalize_affine

import fgrad.torch._conventions as _conv
import fgrad.torch._deprecations as _deprecations
import fgrad.torch._device as _dev
import fgrad.torch._dispatch as _dispatch
from fgrad.torch._dual_state import LEVEL as _DUAL
import fgrad.torch._random as _random
from fgrad.torch import _profile_state
import fgrad.torch.autograd.graph as _graph
from .._tensor import Tensor, _channels_last_strides
import fgrad.torch.types as types
from ..sparse._embedding import embedding_with_sparse_grad as _sparse_embedding
from ..sparse._embedding import embedding_bag_with_sparse_grad as _sparse_embedding_bag
from fgrad.ops import windowed as W
from fgrad.ops.convolution import ConvDimensionNumbers, conv_general_dilated_p
from ._attention import multi_head_attention_forward, scaled_dot_product_attention  # noqa: F401
from ._defop import buf as _buf, defop as _defop, is_concrete as _is_concrete, wrap as _wrap
from .._autocast_state import fp32 as _autocast_fp32, lower_precision as _lower_precision

__all__ = [
    "linear", "bilinear", "relu", "relu_", "relu6", "elu", "elu_", "selu", "celu", "leaky_relu",
    "leaky_relu_", "prelu", "rrelu", "glu", "gelu", "silu", "mish", "hardtanh", "hardtanh_",
    "hardsigmoid", "hardswish", "hardshrink", "softshrink", "tanhshrink", "threshold", "threshold_",
    "logsigmoid", "softplus", "softsign", "sigmoid", "tanh", "softmax", "softmin", "log_softmax",
    "normalize", "cosine_similarity", "pairwise_distance", "pdist", "one_hot", "dropout", "dropout1d",
    "dropout2d", "dropout3d", "embedding", "conv1d", "conv2d", "conv3d", "max_pool1d", "max_pool2d",
    "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
    "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool3d",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "fold", "pad", "batch_norm", "instance_norm",
    "layer_norm",
    "group_norm", "l1_loss", "mse_loss", "smooth_l1_loss", "huber_loss", "nll_loss", "cross_entropy",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div", "poisson_nll_loss",
    "gaussian_nll_loss", "soft_margin_loss", "margin_ranking_loss", "hinge_embedding_loss",
    "cosine_embedding_loss", "triplet_margin_loss", "multilabel_soft_margin_loss", "unfold"
]


# ---------------------------------------------------------------------------------------
# helpers


def _pair(x, n: int, name: str = "") -> tuple:
    if isinstance(x, (tuple, list)):
        if len(x) == 1:
            return tuple(x) * n
        if len(x) != n:
            raise ValueError(f"expected {n} values for {name}, got {len(x)}")
        return tuple(int(v) for v in x)
    return (int(x),) * n


def _float(t: Tensor) -> Tensor:
    return t if t.is_floating_point() or t.is_complex() else t.to(torch.get_default_dtype())


def _same_dtype(a: Tensor, b: Tensor):
    if a.dtype != b.dtype:
        dt = torch.promote_types(a.dtype, b.dtype)
        return a.to(dt), b.to(dt)
    return a, b


def _reduction_from_legacy(size_average, reduce, emit_warning: bool = True) -> str:
    warnings.warn("size_average and reduce args will be deprecated, please use reduction='{}' instead."
                  .format("mean" if (size_average is None or size_average) and (reduce is None or reduce)
                          else ("sum" if reduce is None or reduce else "none")), UserWarning, stacklevel=3)
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        return "mean"
    if reduce:
        return "sum"
    return "none"


def _check_reduction(reduction: str) -> None:
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce_fn(reduction: str):
    if reduction == "mean":  # the sum divided by the count (fnp.mean multiplies by 1/n: an ulp off)
        return lambda v: _conv.mean(v, tuple(range(v.ndim)), False)
    if reduction == "sum":
        return lambda v: fnp.sum(v)
    return lambda v: v


def _reduce_t(v: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return v.mean()
    if reduction == "sum":
        return v.sum()
    return v


def _target_warning(input: Tensor, target: Tensor, stacklevel: int = 3) -> None:
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size "
                      f"({input.size()}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", UserWarning, stacklevel=stacklevel)


# ---------------------------------------------------------------------------------------
# linear layers


def _xwt(x, w):
    """``x @ w.T`` written as ``(w @ x.T).T`` for 2-D ``x``: the core's transpose rule then
    yields the weight gradient ``g.T @ x`` C-contiguous (the layout of ``weight``), so the
    optimizer's in-place update streams through memory.  A 1-D ``w`` is a single output
    feature (``x @ w``), as PyTorch allows without a bias."""
    if len(w.shape) == 1:
        return fnp.matmul(x, w)
    if len(x.shape) == 2:
        return fnp.swapaxes(fnp.matmul(w, fnp.swapaxes(x, -1, -2)), -1, -2)
    return fnp.matmul(x, fnp.swapaxes(w, -1, -2))


@_lower_precision
def linear(input: types.Shaped[Tensor, "*batch in_features"],
           weight: types.Shaped[Tensor, "out_features in_features"],
           bias: types.Shaped[Tensor, " #out_features"] | types.Shaped[Tensor, ""] | None = None
           ) -> types.Shaped[Tensor, "*batch out_features"]:
    """``input @ weight.T + bias``: one node (``AddmmBackward0`` for a batch of vectors)."""
    for pos, (arg_name, v) in enumerate((("input", input), ("weight", weight)), 1):
        if not isinstance(v, Tensor):
            raise TypeError(f"linear(): argument '{arg_name}' (position {pos}) must be Tensor, not "
                            f"{type(v).__name__}")
    xb, wb = _buf(input), _buf(weight)
    if _is_concrete(input) and _is_concrete(weight):
        if xb.shape[-1:] != wb.shape[-1:] and wb.ndim == 2:
            rows = math.prod(xb.shape[:-1]) if xb.ndim > 1 else 1
            raise RuntimeError("mat1 and mat2 shapes cannot be multiplied "
                               f"({rows}x{xb.shape[-1] if xb.ndim else 1}"
                               f" and {wb.shape[1]}x{wb.shape[0]})")
        if xb.dtype != wb.dtype:
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                               f"{torch._dtypes.from_np(xb.dtype)._legacy} and "
                               f"{torch._dtypes.from_np(wb.dtype)._legacy}")
    nd = xb.ndim
    if wb.ndim == 1 and bias is not None:
        raise RuntimeError("mat2 must be a matrix, got 1-D tensor")
    if bias is None:
        name = "MmBackward0" if nd == 2 else ("SqueezeBackward4" if nd == 1 else "UnsafeViewBackward0")

        def fn(x, w):
            return _xwt(x, w)

        out = _defop(name, ("linear", False), fn, (input, weight))
        _graph.show_as(out._gfn, functools.partial(_linear_shown, nd, False))
        return _row_major(out)
    name = "AddmmBackward0" if nd == 2 else "ViewBackward0"

    def fn_b(x, w, b):
        return _xwt(x, w) + b

    out = _defop(name, ("linear", True), fn_b, (input, weight, bias))
    _graph.show_as(out._gfn, functools.partial(_linear_shown, nd, True))
    return _row_major(out)


def _row_major(out: Tensor) -> Tensor:
    """``out`` with a C-contiguous buffer: `_xwt` computes a batch of vectors as the transpose of
    ``w @ x.T`` (so the weight gradient comes out in ``weight``'s layout), whose buffer is
    column-major; PyTorch's result is contiguous, and programs ``.view`` it."""
    b = out._buf
    if _is_concrete(out) and b.ndim == 2 and not b.flags.c_contiguous:
        out._buf = b.copy(order="C")
    return out


def _linear_shown(nd: int, has_bias: bool, edges) -> tuple:
    """``F.linear``'s one node as PyTorch's graph shows it: ``AddmmBackward0(bias, input,
    TBackward0(weight))`` (``MmBackward0`` without bias), under a view node (and the input
    behind a view node, an unsqueeze node for a vector without bias) when the input is not a
    matrix."""
    x_e, w_e = edges[0], edges[1]
    wt = _graph.shown_edge("TBackward0", w_e)
    if nd != 2:
        x_e = _graph.shown_edge("UnsqueezeBackward0" if nd == 1 and not has_bias else "ViewBackward0", x_e)
    inner = (edges[2], x_e, wt) if has_bias else (x_e, wt)
    if nd == 2:
        return inner
    return (_graph.shown_edge("AddmmBackward0" if has_bias else "MmBackward0", *inner),)


def bilinear(input1: types.Shaped[Tensor, "*batch in1"], input2: types.Shaped[Tensor, "*batch in2"],
             weight: types.Shaped[Tensor, "out in1 in2"],
             bias: types.Shaped[Tensor, " out"] | None = None) -> types.Shaped[Tensor, "*batch out"]:
    """``y_k = x1 @ W_k @ x2 + b_k``."""
    y = torch.einsum("...i,kij,...j->...k", input1, weight, input2)
    return y + bias if bias is not None else y


# ---------------------------------------------------------------------------------------
# activations


# the node PyTorch's in-place activations record (they differentiate through the result)
_INPLACE_NODE = {"HardtanhBackward0": "HardtanhBackward0"}


def _act(name: str, key, fn, input: Tensor, inplace: bool = False) -> Tensor:
    if inplace and _is_concrete(input) and input.is_floating_point() and type(_buf(input)) is np.ndarray:
        # PyTorch's in-place form: the input's buffer holds the result and its history records
        # the op (``EluBackward1``...); views and leaves as every in-place op (`apply_inplace`)
        new = _dispatch.run_forward(key, fn, [input._buf], False)
        node = _INPLACE_NODE.get(name, name.replace("Backward0", "Backward1"))
        return _dispatch.apply_inplace(input, node, key, fn, (input,), new)
    x = _float(input)
    out = _defop(name, key, fn, (x,))
    if inplace and not _is_concrete(input):  # traced: the rebound input keeps the derivative
        input._buf = out._buf
        return input
    if inplace:
        with torch.no_grad():
            input.copy_(out)
        return input
    return out


_relu_fn = _conv.relu


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(x, 0)``."""
    if inplace:
        return torch.relu_(input)
    if not input.is_floating_point():
        return torch.relu(input)
    return _defop("ReluBackward0", ("relu",), _relu_fn, (input,))


def relu_(input: Tensor) -> Tensor:
    return torch.relu_(input)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``value if x <= threshold else x`` (NaN stays NaN, as PyTorch's kernel)."""
    th, v = float(threshold), float(value)

    def fn(x):
        return fnp.where(x <= th, fnp.asarray(v, dtype=x.dtype), x)

    return _act("ThresholdBackward0", ("threshold", th, v), fn, input, inplace)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    return globals()["threshold"](input, threshold, value, inplace=True)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    """``clamp(x, min_val, max_val)``; the gradient is 1 strictly inside the interval and 0
    on its boundary and outside (PyTorch: ``hardtanh'(±1) = 0``, ``relu6'(0) = relu6'(6) = 0``)."""
    lo, hi = float(min_val), float(max_val)
    if lo > hi:
        raise ValueError("min_val cannot be greater than max_val")

    def fn(x):
        return _conv.clamp_interior(x, lo, hi)

    return _act("HardtanhBackward0", ("hardtanh", lo, hi), fn, input, inplace)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return hardtanh(input, 0.0, 6.0, inplace)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``x if x > 0 else alpha * (exp(x) - 1)``."""
    a = float(alpha)
    return _act("EluBackward0", ("elu", a), lambda x: _conv.nan_on_linear_branch(lambda v: fnn.elu(v, a), x),
                input, inplace)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return elu(input, alpha, inplace=True)




def selu(input: Tensor, inplace: bool = False) -> Tensor:
    return _act("EluBackward0", ("selu",), lambda x: _conv.nan_on_linear_branch(fnn.selu, x), input, inplace)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    a = float(alpha)
    return _act("CeluBackward0", ("celu", a),
                lambda x: _conv.nan_on_linear_branch(lambda v: fnn.celu(v, a), x), input, inplace)


def selu_(input: Tensor) -> Tensor:
    """In-place ``selu``.

    Example::

        >>> import fgrad.torch as torch
        >>> selu_(torch.tensor([0.0, 1.0]))
        tensor([0.0000, 1.0507])
    """
    return selu(input, inplace=True)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place ``celu``.

    Example::

        >>> import fgrad.torch as torch
        >>> celu_(torch.tensor([0.0, 1.0]))
        tensor([0., 1.])
    """
    return celu(input, alpha, inplace=True)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``x if x > 0 else negative_slope * x``."""
    s = float(negative_slope)

    def fn(x):
        return fnp.where(x > 0, x, x * s)

    return _act("LeakyReluBackward0", ("leaky_relu", s), fn, input, inplace)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, inplace=True)


@_lower_precision
def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """Leaky ReLU with a learned slope per channel (dim 1) or one shared slope."""
    nd = _buf(input).ndim
    nw = _buf(weight).size
    shape = (1, nw) + (1,) * (nd - 2) if nd >= 2 and nw > 1 else (nw,) if nd == 1 else ()

    def fn(x, w):
        ww = fnp.reshape(w, shape) if shape else fnp.reshape(w, ())
        return fnp.where(x > 0, x, x * ww)

    return _defop("PreluKernelBackward0", ("prelu", shape), fn, (input, weight))


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """``a * sigmoid(b)`` for the two halves of ``input`` along ``dim``."""
    if _buf(input).ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = dim % _buf(input).ndim
    if _buf(input).shape[d] % 2:
        n = _buf(input).shape[d]
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {n}")
    return _act("GluBackward0", ("glu", d), lambda x: fnn.glu(x, axis=d), input)


_F32_ERF_DTYPES = (np.dtype(np.float32), _bfloat16)


def _derivative_may_be_asked(x: Tensor) -> bool:
    """Whether a derivative of an op on ``x`` may be asked: autograd records it (grad mode on
    and ``x`` requires grad), a forward-AD level is open, or ``x`` is traced (`torch.func`)."""
    return (not _is_concrete(x) or _DUAL.trace is not None
            or (_graph.STATE.enabled and (x._rg or x._gfn is not None)))


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """``x * Phi(x)`` (``approximate='tanh'``: the tanh approximation)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError(f"approximate argument must be either none or tanh., got {approximate}")
    if approximate == "tanh":
        c = math.sqrt(2.0 / math.pi)

        def fn(x):
            return 0.5 * x * (1.0 + fnp.tanh(c * (x + 0.044715 * x * x * x)))

        return _act("GeluBackward0", ("gelu", "tanh"), fn, input)

    x = _float(input)
    # float32: in float32 arithmetic, as PyTorch's kernel (`gelu_erf_float32_arithmetic`: within
    # a few ulp of the exact GELU, closer than PyTorch's own); bfloat16 too (computed in float32
    # and rounded once to 8 bits); float16 (11 bits) keeps the correctly rounded erf, which
    # gives PyTorch's bits
    dt = _buf(x).dtype
    f32 = dt in _F32_ERF_DTYPES
    gelu_and_saved = _gelu_erf_float32 if f32 else _gelu_erf
    narrow = dt.itemsize == 2  # bfloat16, float16: computed in float32 (see `apply_op`)

    if not _derivative_may_be_asked(x):  # (no_grad, eval: the value alone, 4 passes of 35 less)
        def fn_y(x):
            xc = lax.convert_element_type(x, np.float32) if narrow else x
            y = gelu_and_saved(xc)[0]
            return lax.convert_element_type(y, x.dtype) if narrow else y

        return _defop("GeluBackward0", ("gelu", "none", f32, narrow, "value"), fn_y, (x,))

    def fn_e(x):
        # the second output is only there for the backward program to read: the derivative
        # itself for float32 (reverse mode is one product), the normal cdf otherwise (the
        # backward adds the density); for 16-bit x it stays float32 (not rounded to x's dtype,
        # which the backward could not use)
        xc = lax.convert_element_type(x, np.float32) if narrow else x
        y, saved = gelu_and_saved(xc)
        return (lax.convert_element_type(y, x.dtype) if narrow else y), saved

    return _defop("GeluBackward0", ("gelu", "none", f32, narrow), fn_e, (x,), multi=True)[0]


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * sigmoid(x)``, with PyTorch's sigmoid (0 below the float range, not denormals)."""
    return _act("SiluBackward0", ("silu",), lambda x: x * _conv.sigmoid(x), input, inplace)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * tanh(softplus(x))``."""
    return _act("MishBackward0", ("mish",), lambda x: fnn.mish(x), input, inplace)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """``clamp(x / 6 + 1/2, 0, 1)``; gradient 1/6 strictly inside (-3, 3), 0 at ±3 (PyTorch)."""
    def fn(x):
        return _conv.clamp_interior(x / 6.0 + 0.5, 0.0, 1.0)

    return _act("HardsigmoidBackward0", ("hardsigmoid",), fn, input, inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * hardsigmoid(x)``; PyTorch's gradient: 0 for ``x <= -3``, ``x / 3 + 1/2`` for
    ``-3 < x < 3``, 1 for ``x >= 3``."""
    def fn(x):
        # PyTorch's kernel x * clamp(x + 3, 0, 6) / 6 below -3 too (-0 at -3, NaN at -inf); NaN
        # takes the last branch (gradient 1, as PyTorch's backward). The middle branch sees only
        # middle values: at ±inf its derivative times the zero cotangent would make NaN.
        middle = (x > -3.0) & (x < 3.0)
        mid = fnp.where(middle, x, fnp.zeros_like(x))
        return fnp.where(x <= -3.0, x * 0.0, fnp.where(x < 3.0, mid * (mid + 3.0) / 6.0, x))

    return _act("HardswishBackward0", ("hardswish",), fn, input, inplace)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x`` where ``|x| > lambd``, else +0 (as PyTorch's kernel: never -0; NaN stays NaN)."""
    lam = float(lambd)
    return _act("HardshrinkBackward0", ("hardshrink", lam),
                lambda x: fnp.where((x >= -lam) & (x <= lam), fnp.zeros_like(x), x), input)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    lam = float(lambd)
    return _act("SoftshrinkBackward0", ("softshrink", lam),
                lambda x: fnp.where(x > lam, x - lam, fnp.where(x < -lam, x + lam, x * 0)), input)


def tanhshrink(input: Tensor) -> Tensor:
    return input - torch.tanh(input)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(x))``, computed stably."""
    return _act("LogSigmoidBackward0", ("logsigmoid",), lambda x: fnn.log_sigmoid(x), input)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold``."""
    b, th = float(beta), float(threshold)

    def fn(x):
        bx = x * b
        lin = bx > th  # a where, not minimum(bx, th): minimum splits the gradient at bx == th
        return fnp.where(lin, x, fnp.log1p(fnp.exp(fnp.where(lin, th, bx))) / b)

    return _act("SoftplusBackward0", ("softplus", b, th), fn, input)


def softsign(input: Tensor) -> Tensor:
    """``x / (1 + |x|)``."""
    return input / (input.abs() + 1)


def sigmoid(input: Tensor) -> Tensor:
    return torch.sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    return torch.tanh(input)


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                  "dim=X as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: types.DType | None = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim``."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return torch.softmax(input, dim, dtype=dtype)


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: types.DType | None = None) -> Tensor:
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return torch.softmax(-input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: types.DType | None = None) -> Tensor:
    """``x - logsumexp(x)`` along ``dim``."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return torch.log_softmax(input, dim, dtype=dtype)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out: Tensor | None = None) -> Tensor:
    """``x / max(||x||_p, eps)`` along ``dim``."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    r = input / denom
    if out is not None:
        out.copy_(r)
        return out
    return r


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """``sum(x1 * x2) / max(||x1|| * ||x2||, eps)`` along ``dim``."""
    n1 = x1.norm(dim=dim, keepdim=True).clamp_min(eps)
    n2 = x2.norm(dim=dim, keepdim=True).clamp_min(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def rms_norm(input: Tensor, normalized_shape: types.SizeLike, weight: Tensor | None = None,
             eps: float | None = None) -> Tensor:
    """Root-mean-square normalisation over the last ``len(normalized_shape)`` dims:
    ``x / sqrt(mean(x^2) + eps) * weight`` (``eps`` defaults to the dtype's machine epsilon).

    Example::

        >>> import fgrad.torch as torch
        >>> rms_norm(torch.tensor([[3.0, 4.0]]), [2], eps=0.0)
        tensor([[0.8485, 1.1314]])
    """
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (int(normalized_shape),)
    ns = tuple(int(s) for s in normalized_shape)
    xb = _buf(input)
    if not ns:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                           "least one element, but got normalized_shape = []")
    if tuple(xb.shape[xb.ndim - len(ns):]) != ns or len(ns) > xb.ndim:
        raise RuntimeError(f"Given normalized_shape={list(ns)}, expected input with shape [*"
                           f"{', '.join(str(s) for s in ns)}], but got input of size{list(xb.shape)}")
    if weight is not None and tuple(weight.shape) != ns:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of "
                           f"shape "
                           f"{list(weight.shape)} and normalized_shape = {list(ns)}")
    if eps is None:
        dt = xb.dtype if _dtype_kind(xb.dtype) == "f" and xb.dtype.itemsize >= 4 else np.float32
        eps = float(np.finfo(dt).eps)
    axes = tuple(range(xb.ndim - len(ns), xb.ndim))
    e = float(eps)

    def fn(x, *w):
        y = x * lax.rsqrt(fnp.mean(x * x, axis=axes, keepdims=True) + e)
        return y * w[0] if w else y

    return _defop("MulBackward0", ("rms_norm", axes, e, weight is not None), fn,
                  (_float(input),) + ((weight,) if weight is not None else ()))


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Split the channels (dim 1) into ``groups`` groups and interleave them.

    Example::

        >>> import fgrad.torch as torch
        >>> channel_shuffle(torch.arange(4.0).view(1, 4, 1), 2).flatten()
        tensor([0., 2., 1., 3.])
    """
    if input.dim() < 3:
        raise RuntimeError(f"channel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    c = input.shape[1]
    if c % groups != 0:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} "
                           f"groups.")
    n, rest = input.shape[0], tuple(input.shape[2:])
    return (input.reshape(n, groups, c // groups, *rest).transpose(1, 2).reshape(n, c, *rest))


native_channel_shuffle = channel_shuffle


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    return (x1 - x2 + eps).norm(p, dim=-1, keepdim=keepdim)


def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    """The p-norm distances between the rows of an (N, M) input: the upper triangle of
    ``cdist(input, input)`` in row order, N(N-1)/2 values; gradient 0 for equal rows
    (PyTorch's convention)."""
    if _buf(input).ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {_buf(input).ndim}D")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    n = _buf(input).shape[0]
    rows = torch.triu_indices(n, n, 1, device=input.device)
    return torch.linalg.vector_norm(input[rows[0]] - input[rows[1]], p, dim=-1)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Integer labels -> int64 one-hot vectors along a new last dim."""
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    b = _buf(tensor)
    if num_classes == -1:
        num_classes = int(b.max()) + 1 if b.size else 0
    if b.size and (b.min() < 0 or b.max() >= num_classes):
        raise RuntimeError("Class values must be smaller than num_classes." if b.max() >= num_classes
                           else "Class values must be non-negative.")
    xp = _dev.xp_of(b)
    out = (b[..., None] == xp.arange(num_classes)).astype(np.int64)
    return _wrap(out)


# ---------------------------------------------------------------------------------------
# dropout


def _keep_mask(shape, p: float, like: Tensor) -> Tensor:
    """A random mask of 1/(1-p) (kept) and 0 (dropped) in ``like``'s dtype, drawn as PyTorch
    draws it (``bernoulli_(1 - p)`` then ``div_(1 - p)``), so seeded runs match."""
    dt = like.dtype if like.is_floating_point() else None
    if _random.COMPILE_RNG[0] is not None:  # inside torch.compile's trace: the program's key
        return (torch.rand(shape, dtype=dt, device=like.device) < (1.0 - p)).to(like.dtype) / (1.0 - p)
    order = _random.draw_order(like) if tuple(like.shape) == tuple(shape) else None
    if order is not None:  # PyTorch's noise is empty_like(input): drawn in the input's memory order
        noise = torch.empty([shape[a] for a in order], dtype=dt, device=like.device)
        return noise.bernoulli_(1.0 - p).div_(1.0 - p).permute(*np.argsort(order).tolist())
    return torch.empty(shape, dtype=dt, device=like.device).bernoulli_(1.0 - p).div_(1.0 - p)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)`` when
    ``training``; the identity otherwise."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input.mul_(0) if inplace else input * 0
    mask = _keep_mask(tuple(input.shape), p, input)
    return input.mul_(mask) if inplace else input * mask


def _feature_dropout(input: Tensor, p: float, training: bool, inplace: bool, nd: int, name: str) -> Tensor:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    batched = input.dim() == nd + 2
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}: Expected {nd + 1}D or {nd + 2}D input, but received a {input.dim()}D "
                           "input.")
    shape = tuple(input.shape[:2] if batched else input.shape[:1]) + (1,) * nd
    if p == 1.0:
        return input.mul_(0) if inplace else input * 0
    mask = _keep_mask(shape, p, input)
    return input.mul_(mask) if inplace else input * mask


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    return _feature_dropout(input, p, training, inplace, 1, "dropout1d")


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    nd = input.dim()
    if nd not in (3, 4):
        _deprecations.warn(
            f"dropout2d: Received a {nd}-D input to dropout2d, which is deprecated and will result in an "
            "error in a future release. To retain the behavior and silence this warning, please use dropout "
            "instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial "
            "dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).")
    if nd == 3:  # PyTorch keeps its historical reading: (N, C, L), channel-wise 1-D dropout
        _deprecations.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
            "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
            "will change in a future release to interpret the input as one without a batch dimension, i.e. "
            "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
            "dropout1d instead.")
    if nd < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input.mul_(0) if inplace else input * 0
    mask = _keep_mask(tuple(input.shape[:2]) + (1,) * (nd - 2), p, input)  # ATen's feature_dropout
    return input.mul_(mask) if inplace else input * mask


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    return _feature_dropout(input, p, training, inplace, 3, "dropout3d")


# ---------------------------------------------------------------------------------------
# embedding


def _scale_gradient(x, s):
    """``x`` itself (the same bits, signed zeros included), with its derivative multiplied by
    ``s``: ``x - (sg(x s) - x s)`` (where ``x`` is finite; elsewhere ``x`` unscaled).  Written
    with ops rather than as a ``custom_jvp`` so that torch.compile's trace keeps the rule."""
    scaled = x * s
    exact = lax.stop_gradient(x) - (lax.stop_gradient(scaled) - scaled)
    return fnp.where(fnp.isfinite(lax.stop_gradient(x)), exact, x)


def embedding(input: types.Shaped[Tensor, "*indices"],
              weight: types.Shaped[Tensor, "num_embeddings embedding_dim"], padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> types.Shaped[Tensor, "*indices embedding_dim"]:
    """Rows of ``weight`` at the integer indices ``input``; the row ``padding_idx`` gets no
    gradient; ``max_norm`` renormalises the looked-up rows of ``weight`` in place."""
    if input.dtype not in (torch.int64, torch.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar "
                           f"types: Long, Int; but got {input.type()} instead (while checking arguments for "
                           "embedding)")
    n = _buf(weight).shape[0]
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= n:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            if padding_idx < -n:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = n + padding_idx
    if _is_concrete(input):
        ib = _buf(input)
        if type(ib) in _dev.DEV:  # checked on the device, reported at the next synchronisation
            _dev.defer_check(((ib < 0) | (ib >= n)).any(), lambda: IndexError("index out of range in self"))
        elif ib.size and (ib.min() < 0 or ib.max() >= n):  # PyTorch refuses negative indices too
            raise IndexError("index out of range in self")
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    if sparse and weight.requires_grad and torch.is_grad_enabled() and _is_concrete(input):
        with torch.no_grad():  # the rows; the weight's gradient is sparse (fgrad.torch.sparse._embedding)
            rows = embedding(input, weight, padding_idx, None, norm_type, False, False)
        return _sparse_embedding(weight, input, rows, padding_idx, scale_grad_by_freq)
    pad = padding_idx
    sg = scale_grad_by_freq

    def fn(w, idx):
        idx = fnp.asarray(idx)
        rows = fnp.take(w, fnp.where(idx < 0, idx + n, idx), axis=0, mode="clip")
        if sg:  # each row's gradient divided by its index's count in the batch
            flat = fnp.reshape(fnp.where(idx < 0, idx + n, idx), (-1,))
            per_row = fnp.zeros((n,), rows.dtype).at[flat].add(1.0, mode="drop")
            s = fnp.reshape(1.0 / fnp.take(per_row, flat, mode="clip"), idx.shape + (1,))
            rows = _scale_gradient(rows, lax.stop_gradient(s))
        if pad is not None:
            rows = fnp.where((idx == pad)[..., None], lax.stop_gradient(rows), rows)
        return rows

    return _defop("EmbeddingBackward0", ("embedding", pad, sg, n), fn, (weight, input), edges=(0,))


def _embedding_renorm_(weight: Tensor, input: Tensor, max_norm: float, norm_type: float) -> None:
    with torch.no_grad():
        rows = np.unique(_buf(input).reshape(-1))
        wb = _buf(weight)
        sub = wb[rows]
        norms = np.linalg.norm(sub.astype(np.float64), ord=norm_type, axis=1)
        scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0).astype(wb.dtype)
        idx = torch.as_tensor(rows)
        weight[idx] = torch.as_tensor(sub * scale[:, None])


# ---------------------------------------------------------------------------------------
# padding


def _pad_pairs(pad_, nd: int) -> list:
    if len(pad_) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad_) // 2 > nd:
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension "
                           "but "
                           f"got padding length {len(pad_)} and input of dimension {nd}")
    pairs = [(0, 0)] * nd
    for i in range(len(pad_) // 2):
        pairs[nd - 1 - i] = (int(pad_[2 * i]), int(pad_[2 * i + 1]))
    return pairs


def _crop_and_pad_fn(pairs, mode: str, value):
    np_mode = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}[mode]

    def fn(x):
        sl = tuple(slice(-lo if lo < 0 else 0, (x.shape[d] + hi) if hi < 0 else None)
                   for d, (lo, hi) in enumerate(pairs))
        if any(lo < 0 or hi < 0 for lo, hi in pairs):
            x = x[sl]
        widths = [(max(lo, 0), max(hi, 0)) for lo, hi in pairs]
        if not any(lo or hi for lo, hi in widths):
            return x + 0
        if np_mode == "constant":
            return fnp.pad(x, widths, mode="constant", constant_values=value)
        return fnp.pad(x, widths, mode=np_mode)

    return fn


def pad(input: Tensor, pad: types.SizeLike, mode: str = "constant", value: float | None = None) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims: ``pad = (left, right, top, bottom, ...)``, last dim
    first.  Modes: 'constant' (negative widths crop), 'reflect', 'replicate', 'circular'."""
    nd = _buf(input).ndim
    pairs = _pad_pairs(tuple(pad), nd)
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant" and value not in (None, 0, 0.0):
        raise AssertionError('Padding mode "{}"" doesn\'t take in value argument'.format(mode))
    v = 0 if value is None else value
    if mode != "constant" and not (len(pad) in (2, 4, 6) and nd in (len(pad) // 2 + 1, len(pad) // 2 + 2)):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {nd}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "reflect":
        for d, (lo, hi) in enumerate(pairs):
            if lo >= _buf(input).shape[d] or hi >= _buf(input).shape[d]:
                raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input "
                                   f"dimension, but got: padding ({lo}, {hi}) at dimension {d} of input "
                                   f"{list(_buf(input).shape)}")
    fn = _crop_and_pad_fn(pairs, mode, v)
    k = len(pad) // 2
    name = {"constant": "ConstantPadNdBackward0", "reflect": f"ReflectionPad{k}DBackward0",
            "replicate": f"ReplicationPad{k}DBackward0", "circular": "CopySlices"}[mode]
    return _defop(name, ("pad", tuple(pairs), mode, v), fn, (input,))


# ---------------------------------------------------------------------------------------
# convolution, unfold/fold and pooling: lax.conv_general_dilated and lax.reduce_window
# (the fgrad definitions bind those primitives; the NumPy forwards call their impls)


def _out_size(size: int, k: int, s: int, p_lo: int, p_hi: int, d: int, ceil_mode: bool = False) -> int:
    eff = d * (k - 1) + 1
    num = size + p_lo + p_hi - eff
    if ceil_mode:
        o = -(-num // s) + 1
        if (o - 1) * s >= size + p_lo:
            o -= 1
        return o
    return num // s + 1


def _conv_params(nd: int, stride, pads, dilation, groups: int, lhs_dilation=None) -> dict:
    """Normalized ``conv_general_dilated`` parameters for NC... / OI... layouts."""
    iota = tuple(range(nd + 2))
    return dict(window_strides=tuple(stride), padding=tuple(tuple(p) for p in pads),
                lhs_dilation=tuple(lhs_dilation or (1,) * nd), rhs_dilation=tuple(dilation),
                dimension_numbers=ConvDimensionNumbers(iota, iota, iota), feature_group_count=groups,
                batch_group_count=1)


def _conv_op(name: str, key, args, params: dict, nd: int, cout: int, prep=None, prep_np=None):
    """The convolution op ``conv(x, prep(w)) + b`` recorded under ``name``; ``prep`` turns the
    weight argument into an OI... kernel (fgrad ops), ``prep_np`` the same on NumPy."""
    bshape = (cout,) + (1,) * nd

    def fn(x, w, *b):
        y = conv_general_dilated_p.bind(x, w if prep is None else prep(w), **params)
        return y + fnp.reshape(b[0], bshape) if b else y

    return _defop(name, key, fn, args)


def _batched(input: Tensor, nd: int, fname: str):
    xb = _buf(input)
    if xb.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {fname}, but got "
                           f"input of size: {list(xb.shape)}")
    unbatched = xb.ndim == nd + 1
    return (input.unsqueeze(0) if unbatched else input), unbatched


def _suggests_channels_last(*bufs) -> bool:
    """Whether one of the 4-D buffers is laid out channels-last and not also contiguous
    (PyTorch's ``suggest_memory_format`` for its CPU convolutions)."""
    return any(b.ndim == 4 and not b.flags.c_contiguous and _channels_last_strides(b)
               for b in bufs if type(b) is np.ndarray)


def _convnd(input: Tensor, weight: Tensor, bias, stride, padding, dilation, groups: int, nd: int, fname: str):
    input, unbatched = _batched(input, nd, fname)
    xb, wb = _buf(input), _buf(weight)
    stride = _pair(stride, nd, "stride")
    dilation = _pair(dilation, nd, "dilation")
    kernel = tuple(wb.shape[2:])
    c_in = xb.shape[1]
    if wb.ndim != nd + 2:
        raise RuntimeError(f"Expected {nd + 2}D weight for {fname}, but got weight of size {list(wb.shape)}")
    if c_in != wb.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(wb.shape)}, expected input"
                           f"{list(xb.shape)} to have {wb.shape[1] * groups} channels, but got {c_in} "
                           "channels "
                           "instead")
    if wb.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at "
                           "dimension 0, "
                           f"but got weight of size {list(wb.shape)} instead")
    if isinstance(padding, str):
        if padding == "valid":
            pads = [(0, 0)] * nd
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            pads = []
            for k, d in zip(kernel, dilation):
                total = d * (k - 1)
                pads.append((total // 2, total - total // 2))
        else:
            raise RuntimeError(f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}")
    else:
        pads = [(p, p) for p in _pair(padding, nd, "padding")]
        if any(p < 0 for p, _ in pads):
            raise RuntimeError("negative padding is not supported")
    spatial = xb.shape[2:]
    padded = [spatial[i] + pads[i][0] + pads[i][1] for i in range(nd)]
    dilated = [dilation[i] * (kernel[i] - 1) + 1 for i in range(nd)]
    if any(p < k for p, k in zip(padded, dilated)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
                           f"Kernel size: ({' x '.join(map(str, dilated))}). Kernel size can't be greater "
                           "than actual input size")
    if xb.dtype != wb.dtype:
        raise RuntimeError(f"Input type ({input.type()}) and weight type ({weight.type()}) should be the "
                           "same")
    params = _conv_params(nd, stride, pads, dilation, groups)
    args = (input, weight) if bias is None else (input, weight, bias)
    key = ("conv", nd, stride, tuple(pads), dilation, groups, bias is not None)
    y = _conv_op("ConvolutionBackward0", key, args, params, nd, wb.shape[0])
    if nd == 2 and not unbatched and _suggests_channels_last(xb, wb) and type(y._buf) is np.ndarray:
        # PyTorch's CPU convolution returns NHWC when the input or the weight is NHWC
        y._buf = np.ascontiguousarray(y._buf.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    if bias is None:  # PyTorch lists the missing bias as None
        _graph.show_as(y._gfn, _no_bias_shown)
    return y.squeeze(0) if unbatched else y


def _no_bias_shown(edges) -> tuple:
    return (*edges, (None, 0))


@_lower_precision
def conv1d(input: types.Shaped[Tensor, "*batch c_in l"],
           weight: types.Shaped[Tensor, "c_out c_in_per_group kl"],
           bias: types.Shaped[Tensor, " c_out"] | None = None, stride: types.IntOrInts = 1,
           padding: types.IntOrInts | str = 0, dilation: types.IntOrInts = 1,
           groups: int = 1) -> types.Shaped[Tensor, "*batch c_out l_out"]:
    """1-D convolution (cross-correlation) over (N, C_in, L) with weight (C_out, C_in/groups, k)."""
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


@_lower_precision
def conv2d(input: types.Shaped[Tensor, "*batch c_in h w"],
           weight: types.Shaped[Tensor, "c_out c_in_per_group kh kw"],
           bias: types.Shaped[Tensor, " c_out"] | None = None, stride: types.IntOrInts = 1,
           padding: types.IntOrInts | str = 0, dilation: types.IntOrInts = 1,
           groups: int = 1) -> types.Shaped[Tensor, "*batch c_out h_out w_out"]:
    """2-D convolution (cross-correlation) over (N, C_in, H, W) with weight (C_out, C_in/groups, kh, kw).

    Example::

        >>> import fgrad.torch as torch
        >>> conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2))
        tensor([[[[4., 4.],
                  [4., 4.]]]])
    """
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


@_lower_precision
def conv3d(input: types.Shaped[Tensor, "*batch c_in d h w"],
           weight: types.Shaped[Tensor, "c_out c_in_per_group kd kh kw"],
           bias: types.Shaped[Tensor, " c_out"] | None = None, stride: types.IntOrInts = 1,
           padding: types.IntOrInts | str = 0, dilation: types.IntOrInts = 1,
           groups: int = 1) -> types.Shaped[Tensor, "*batch c_out d_out h_out w_out"]:
    """3-D convolution (cross-correlation) over (N, C_in, D, H, W)."""
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _transposed_kernel_fn(groups: int, nd: int):
    """(C_in, C_out/G, *k) -> the OI... kernel of the equivalent convolution: per group, in and
    out swapped, spatially flipped; as fgrad ops and on NumPy."""
    flip_axes = tuple(range(2, 2 + nd))

    def prep(w):
        s = tuple(w.shape)
        cig, og = s[0] // groups, s[1]
        w = fnp.reshape(w, (groups, cig, og) + s[2:])
        w = fnp.swapaxes(w, 1, 2)
        return fnp.flip(fnp.reshape(w, (groups * og, cig) + s[2:]), flip_axes)

    def prep_np(w):
        s = w.shape
        cig, og = s[0] // groups, s[1]
        w = w.reshape((groups, cig, og) + s[2:]).swapaxes(1, 2)
        return np.flip(w.reshape((groups * og, cig) + s[2:]), flip_axes)

    return prep, prep_np


def _conv_transposend(input: Tensor, weight: Tensor, bias, stride, padding, output_padding, groups: int,
                      dilation, nd: int, fname: str):
    input, unbatched = _batched(input, nd, fname)
    xb, wb = _buf(input), _buf(weight)
    stride = _pair(stride, nd, "stride")
    padding = _pair(padding, nd, "padding")
    output_padding = _pair(output_padding, nd, "output_padding")
    dilation = _pair(dilation, nd, "dilation")
    if wb.ndim != nd + 2:
        raise RuntimeError(f"Expected {nd + 2}D weight for {fname}, but got weight of size {list(wb.shape)}")
    if xb.shape[1] != wb.shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {list(wb.shape)}, expected input "
                           f"{list(xb.shape)} "
                           f"to have {wb.shape[0]} channels, but got {xb.shape[1]} channels instead")
    if wb.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at "
                           "dimension 0, "
                           f"but got weight of size {list(wb.shape)} instead")
    for op, s, d in zip(output_padding, stride, dilation):
        if op >= s and op >= d:
            raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got "
                               f"output_padding: {op}, stride: {s}, dilation: {d}")
    if xb.dtype != wb.dtype:
        raise RuntimeError(f"Input type ({input.type()}) and weight type ({weight.type()}) should be the "
                           "same")
    kernel = wb.shape[2:]
    pads = [(d * (k - 1) - p, d * (k - 1) - p + op)
            for k, p, op, d in zip(kernel, padding, output_padding, dilation)]
    out = tuple((n - 1) * s - 2 * p + d * (k - 1) + op + 1 for n, s, p, d, k, op in
                zip(xb.shape[2:], stride, padding, dilation, kernel, output_padding))
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input size per channel: ({' x '.join(str(n) for n in xb.shape[2:])}). "
                           f"Calculated output size per channel: ({' x '.join(str(o) for o in out)}). "
                           "Output size is too small")
    params = _conv_params(nd, (1,) * nd, pads, dilation, groups, lhs_dilation=stride)
    prep, prep_np = _transposed_kernel_fn(groups, nd)
    args = (input, weight) if bias is None else (input, weight, bias)
    key = ("conv_transpose", nd, stride, tuple(pads), dilation, groups, bias is not None)
    y = _conv_op("ConvolutionBackward0", key, args, params, nd, wb.shape[1] * groups, prep, prep_np)
    return y.squeeze(0) if unbatched else y


@_lower_precision
def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: types.IntOrInts = 1,
                     padding: types.IntOrInts | str = 0, output_padding: types.IntOrInts = 0, groups: int = 1,
                     dilation: types.IntOrInts = 1) -> Tensor:
    """1-D transposed convolution over (N, C_in, L) with weight (C_in, C_out/groups, k)."""
    return _conv_transposend(input, weight, bias, stride, padding, output_padding, groups, dilation, 1,
                             "conv_transpose1d")


@_lower_precision
def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: types.IntOrInts = 1,
                     padding: types.IntOrInts | str = 0, output_padding: types.IntOrInts = 0, groups: int = 1,
                     dilation: types.IntOrInts = 1) -> Tensor:
    """2-D transposed convolution (the gradient of ``conv2d`` with respect to its input) over
    (N, C_in, H, W) with weight (C_in, C_out/groups, kh, kw).

    Example::

        >>> import fgrad.torch as torch
        >>> conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2), stride=2).shape
        torch.Size([1, 1, 4, 4])
    """
    return _conv_transposend(input, weight, bias, stride, padding, output_padding, groups, dilation, 2,
                             "conv_transpose2d")


@_lower_precision
def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: types.IntOrInts = 1,
                     padding: types.IntOrInts | str = 0, output_padding: types.IntOrInts = 0, groups: int = 1,
                     dilation: types.IntOrInts = 1) -> Tensor:
    """3-D transposed convolution over (N, C_in, D, H, W) with weight (C_in, C_out/groups, *k)."""
    return _conv_transposend(input, weight, bias, stride, padding, output_padding, groups, dilation, 3,
                             "conv_transpose3d")


def unfold(input: Tensor, kernel_size: types.IntOrInts, dilation: types.IntOrInts = 1,
           padding: types.IntOrInts = 0, stride: types.IntOrInts = 1) -> Tensor:
    """im2col: (N, C, H, W) -> (N, C * kh * kw, L) blocks (strided slices of the padded input,
    one per kernel offset, so its gradient is exact too).

    Example::

        >>> import fgrad.torch as torch
        >>> unfold(torch.arange(9.0).reshape(1, 1, 3, 3), 2).shape
        torch.Size([1, 4, 4])
    """
    k = _pair(kernel_size, 2, "kernel_size")
    d, p, s = _pair(dilation, 2, "dilation"), _pair(padding, 2, "padding"), _pair(stride, 2, "stride")
    xb = _buf(input)
    if xb.ndim not in (3, 4):
        raise RuntimeError(f"Input Error: Only 3D or 4D input Tensors are supported (got {xb.ndim}D)")
    unb = xb.ndim == 3
    if unb:
        input = input.unsqueeze(0)
        xb = _buf(input)
    if _dtype_kind(xb.dtype) in "iu":  # PyTorch's CPU kernel has no integer variant (bool it has)
        raise NotImplementedError(f"\"im2col_out_cpu\" not implemented for '{input.dtype._legacy}'")
    c = xb.shape[1]
    out = tuple(_out_size(xb.shape[2 + i], k[i], s[i], p[i], p[i], d[i]) for i in range(2))
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input with spatial size ({xb.shape[2]}, {xb.shape[3]}), kernel_size={k}, "
                           f"dilation={d}, padding={p}, calculated shape of the array of sliding blocks as "
                           f"({out[0]}, {out[1]}), but its components must be at least one.")
    L = out[0] * out[1]

    def fn(x):
        # strided slices of the zero-padded input, one per kernel offset: exact for every value
        # (a one-hot convolution turned an inf in one block into NaN in its neighbours)
        xp = fnp.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
        blocks = [xp[:, :, i * d[0]: i * d[0] + s[0] * (out[0] - 1) + 1: s[0],
                     j * d[1]: j * d[1] + s[1] * (out[1] - 1) + 1: s[1]]
                  for i in range(k[0]) for j in range(k[1])]
        return fnp.reshape(fnp.stack(blocks, axis=2), (x.shape[0], c * k[0] * k[1], L))

    y = _defop("Im2ColBackward0", ("unfold", k, d, p, s), fn, (input,))
    return y.squeeze(0) if unb else y


def fold(input: Tensor, output_size: types.IntOrInts, kernel_size: types.IntOrInts,
         dilation: types.IntOrInts = 1, padding: types.IntOrInts = 0, stride: types.IntOrInts = 1) -> Tensor:
    """col2im, the adjoint of `unfold`: (N, C * kh * kw, L) blocks summed into (N, C, H, W)
    (each kernel offset's blocks padded into place: no scatter-add).

    Example::

        >>> import fgrad.torch as torch
        >>> fold(torch.ones(1, 4, 4), (3, 3), 2)
        tensor([[[[1., 2., 1.],
                  [2., 4., 2.],
                  [1., 2., 1.]]]])
    """
    osz = _pair(output_size, 2, "output_size")
    k = _pair(kernel_size, 2, "kernel_size")
    d, p, s = _pair(dilation, 2, "dilation"), _pair(padding, 2, "padding"), _pair(stride, 2, "stride")
    xb = _buf(input)
    if xb.ndim not in (2, 3):
        raise RuntimeError("Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported "
                           "(got "
                           f"{xb.ndim}D)")
    unb = xb.ndim == 2
    if unb:
        input = input.unsqueeze(0)
        xb = _buf(input)
    kn = k[0] * k[1]
    if xb.shape[1] % kn:
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of "
                           "kernel_size, "
                           f"but got input.size(1)={xb.shape[1]} and kernel_size={k}")
    out = tuple(_out_size(osz[i], k[i], s[i], p[i], p[i], d[i]) for i in range(2))
    if out[0] * out[1] != xb.shape[2]:
        raise RuntimeError(f"Given output_size={osz}, kernel_size={k}, dilation={d}, padding={p}, "
                           f"stride={s}, "
                           f"expected size of input's dimension 2 to match the calculated number of sliding "
                           f"blocks {out[0]} * {out[1]} = {out[0] * out[1]}, but got "
                           f"input.size(2)={xb.shape[2]}.")
    if _dtype_kind(xb.dtype) in "iu":  # PyTorch's CPU kernel has no integer variant (bool it has)
        raise NotImplementedError(f"\"col2im_out_cpu\" not implemented for '{input.dtype._legacy}'")
    c = xb.shape[1] // kn

    def fn(x):
        # the adjoint of unfold's slices: each kernel offset's blocks spread by the stride
        # (interior padding) into place, cropped by the padding, and summed; an inf stays where
        # it is (a one-hot transposed convolution made NaN of its neighbours)
        y = fnp.reshape(x, (x.shape[0], c, k[0], k[1]) + out)
        zero = fnp.zeros((), y.dtype)
        total = None
        for i in range(k[0]):
            for j in range(k[1]):
                cfg = [(0, 0, 0), (0, 0, 0)]
                for ax, off in ((0, i), (1, j)):
                    lo = off * d[ax] - p[ax]
                    cfg.append((lo, osz[ax] - (lo + s[ax] * (out[ax] - 1) + 1), s[ax] - 1))
                part = lax.pad(y[:, :, i, j], zero, cfg)
                total = part if total is None else total + part
        return total

    y = _defop("Col2ImBackward0", ("fold", osz, k, d, p, s), fn, (input,))
    return y.squeeze(0) if unb else y


# ---------------------------------------------------------------------------------------
# pooling


def _pool_setup(input: Tensor, nd: int, kernel_size, stride, padding, dilation, ceil_mode, fname):
    xb = _buf(input)
    if xb.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"{fname}: Expected {nd + 1}D or {nd + 2}D input, got {xb.ndim}D")
    unbatched = xb.ndim == nd + 1
    if unbatched:
        input = input.unsqueeze(0)
        xb = _buf(input)
    kernel = _pair(kernel_size, nd, "kernel_size")
    stride = kernel if (stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0)) \
        else _pair(stride, nd, "stride")
    padding = _pair(padding, nd, "padding")
    dilation = _pair(dilation, nd, "dilation")
    for k, p in zip(kernel, padding):
        if p > k // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation=1")
    spatial = xb.shape[2:]
    out = tuple(_out_size(spatial[i], kernel[i], stride[i], padding[i], padding[i], dilation[i], ceil_mode)
                for i in range(nd))
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input size: ({'x'.join(str(s) for s in xb.shape[1:])}). Calculated output "
                           f"size: ({'x'.join(str(s) for s in (xb.shape[1],) + out)}). Output size is too "
                           "small")
    # right padding so that every window fits (ceil_mode windows may run past the padding)
    pads = []
    for i in range(nd):
        need = (out[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1
        hi = need - spatial[i] - padding[i]
        pads.append((padding[i], hi))
    return input, unbatched, kernel, stride, padding, dilation, out, tuple(pads)


def _window_params(k, s, pads, d) -> dict:
    """``reduce_window`` parameters for windows over the spatial axes of (N, C, *spatial)."""
    nd = len(k)
    return dict(window_dimensions=(1, 1) + tuple(k), window_strides=(1, 1) + tuple(s),
                padding=((0, 0), (0, 0)) + tuple(tuple(p) for p in pads), base_dilation=(1,) * (nd + 2),
                window_dilation=(1, 1) + tuple(d))


def _max_pool_op(input: Tensor, nd: int, k, s, pads, d, name: str, return_indices: bool, key):
    """Max over windows (``reduce_window_max``; the gradient goes to each window's first
    maximum, or to PyTorch's pick where it differs: `_conventions.max_pool`) and, with
    ``return_indices``, the flat spatial index of that element."""
    params = _window_params(k, s, pads, d)
    window = tuple(params.items())

    def fn(x):
        return W.reduce_window_max_p.bind(x, **params)

    def fn_torch_pick(x):
        return _conv.max_pool(x, window)

    # where some window holds a NaN or only -inf (or the values are traced), PyTorch's pick, at
    # the cost of a second gather in the gradient
    # (on a device, checking the result would synchronise every step: PyTorch's pick always)
    xb = _buf(input)
    xp = _dev.xp_of(xb)
    floating = xb.dtype.kind == "f"
    traced = not _is_concrete(input)
    on_host = xp is np
    pick_now = floating and (traced or (not on_host and input.requires_grad))
    y = _defop(name, key + ("torch_pick",), fn_torch_pick, (input,)) if pick_now else \
        _defop(name, key, fn, (input,))
    # (one mask of those windows serves both the choice and the indices: both routes' values agree)
    marked = _conv.max_pool_differs(xp, _buf(y)) if floating and not traced else None
    differs = marked is not None and (not on_host or bool(marked.any()))
    if differs and input.requires_grad and not pick_now:
        y = _defop(name, key + ("torch_pick",), fn_torch_pick, (input,))
    if not return_indices:
        return y
    am, out = W.argselect(xp, "max", xb, params)
    if differs:
        am = xp.where(marked, W.argselect(xp, "max", _conv.max_pool_key(xp, xb), params)[0], am)
    kidx = xp.unravel_index(am, (1, 1) + tuple(k))[2:]
    spatial = xb.shape[2:]
    lin = xp.zeros(am.shape, np.int64)
    for i in range(nd):
        o = xp.arange(out[2 + i]).reshape((1, 1) + tuple(out[2 + i] if j == i else 1 for j in range(nd)))
        pos = o * s[i] - pads[i][0] + kidx[i] * d[i]
        lin = lin * spatial[i] + pos
    return y, _wrap(lin)


def _max_poolnd(input, nd, kernel_size, stride, padding, dilation, ceil_mode, return_indices, fname):
    input, unb, k, s, p, d, out, pads = _pool_setup(input, nd, kernel_size, stride, padding, dilation,
                                                    ceil_mode, fname)
    name = f"MaxPool{nd}DWithIndicesBackward0"
    res = _max_pool_op(input, nd, k, s, pads, d, name, return_indices, ("max_pool", nd, k, s, pads, d))
    if return_indices:
        y, ind = res
        return (y.squeeze(0), ind.squeeze(0)) if unb else (y, ind)
    return res.squeeze(0) if unb else res


def max_pool1d(input: Tensor, kernel_size: types.IntOrInts, stride: types.IntOrInts | None = None,
               padding: types.IntOrInts = 0, dilation: types.IntOrInts = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Max over each window of (N, C, L) (padding counts as -inf)."""
    return _max_poolnd(input, 1, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                       "max_pool1d")


def max_pool2d(input: Tensor, kernel_size: types.IntOrInts, stride: types.IntOrInts | None = None,
               padding: types.IntOrInts = 0, dilation: types.IntOrInts = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Max over each window (padding counts as -inf); ``return_indices`` also gives the
    flat index (over H*W) of each maximum.

    Example::

        >>> import fgrad.torch as torch
        >>> max_pool2d(torch.arange(16.0).reshape(1, 1, 4, 4), 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    return _max_poolnd(input, 2, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                       "max_pool2d")


@_autocast_fp32
def max_pool3d(input: Tensor, kernel_size: types.IntOrInts, stride: types.IntOrInts | None = None,
               padding: types.IntOrInts = 0, dilation: types.IntOrInts = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Max over each window of (N, C, D, H, W) (padding counts as -inf)."""
    return _max_poolnd(input, 3, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                       "max_pool3d")


def _avg_poolnd(input, nd, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override,
                fname):
    input, unb, k, s, p, d, out, pads = _pool_setup(input, nd, kernel_size, stride, padding, 1, ceil_mode,
                                                    fname)
    xb = _buf(input)
    spatial = xb.shape[2:]
    # divisor per output position, as PyTorch: windows clipped to the padded input
    # (count_include_pad) or to the input itself
    div = np.ones((1, 1) + out, np.float64)
    for i in range(nd):
        o = np.arange(out[i])
        start = o * s[i] - p[i]
        end = np.minimum(start + k[i], spatial[i] + p[i])
        if count_include_pad:
            cnt = end - start
        else:
            cnt = np.minimum(end, spatial[i]) - np.maximum(start, 0)
        div = div * cnt.reshape((1, 1) + tuple(out[i] if j == i else 1 for j in range(nd)))
    if divisor_override:
        div = np.full_like(div, float(divisor_override))
    div = div.astype(xb.dtype if _dtype_kind(xb.dtype) == "f" else np.float32)
    params = _window_params(k, s, pads, d)

    def fn(x, dv):
        return W.reduce_window_sum(x, **params) / dv

    y = _defop(f"AvgPool{nd}DBackward0", ("avg_pool", nd, k, s, pads), fn, (input, div))
    return y.squeeze(0) if unb else y


def avg_pool1d(input: Tensor, kernel_size: types.IntOrInts, stride: types.IntOrInts | None = None,
               padding: types.IntOrInts = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """Mean over each window of (N, C, L)."""
    return _avg_poolnd(input, 1, kernel_size, stride, padding, ceil_mode, count_include_pad, None,
                       "avg_pool1d")


def avg_pool2d(input: Tensor, kernel_size: types.IntOrInts, stride: types.IntOrInts | None = None,
               padding: types.IntOrInts = 0, ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """Mean over each window (zero padding counted unless ``count_include_pad=False``).

    Example::

        >>> import fgrad.torch as torch
        >>> avg_pool2d(torch.arange(16.0).reshape(1, 1, 4, 4), 2)
        tensor([[[[ 2.5000,  4.5000],
                  [10.5000, 12.5000]]]])
    """
    return _avg_poolnd(input, 2, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override,
                       "avg_pool2d")


@_autocast_fp32
def avg_pool3d(input: Tensor, kernel_size: types.IntOrInts, stride: types.IntOrInts | None = None,
               padding: types.IntOrInts = 0, ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """Mean over each window of (N, C, D, H, W).  As PyTorch's, refuses an input smaller than the
    kernel in any spatial dim, padding or not."""
    xs, k = tuple(_buf(input).shape[-3:]), _pair(kernel_size, 3, "kernel_size")
    if _buf(input).ndim in (4, 5) and any(n < kk for n, kk in zip(xs, k)):
        raise RuntimeError(f"input image (T: {xs[0]} H: {xs[1]} W: {xs[2]}) smaller than kernel size "
                           f"(kT: {k[0]} kH: {k[1]} kW: {k[2]})")
    return _avg_poolnd(input, 3, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override,
                       "avg_pool3d")


def _adaptive_ranges(size: int, out: int):
    return [((i * size) // out, -(-((i + 1) * size) // out)) for i in range(out)]


def _adaptive_avg(input: Tensor, output_size, nd: int) -> Tensor:
    xb = _buf(input)
    spatial = xb.shape[-nd:]
    if isinstance(output_size, (list, tuple)) and len(output_size) != nd:
        raise RuntimeError(f"adaptive_avg_pool{nd}d: output_size must be {nd}")
    osz = _pair(output_size, nd) if not isinstance(output_size, (list, tuple)) else \
        tuple(spatial[i] if output_size[i] is None else int(output_size[i]) for i in range(nd))
    return _area_pool(input, osz)


def adaptive_avg_pool1d(input: Tensor, output_size: types.IntOrInts) -> Tensor:
    return _adaptive_avg(input, output_size, 1)


def adaptive_avg_pool2d(input: Tensor, output_size: types.IntOrInts) -> Tensor:
    """Average over the adaptive windows ``[floor(i*H/oh), ceil((i+1)*H/oh))``."""
    return _adaptive_avg(input, output_size, 2)


def _adaptive_max(input: Tensor, output_size, nd: int, return_indices: bool):
    xb = _buf(input)
    spatial = xb.shape[-nd:]
    osz = _pair(output_size, nd) if not isinstance(output_size, (list, tuple)) else \
        tuple(spatial[i] if output_size[i] is None else int(output_size[i]) for i in range(nd))
    lead = xb.ndim - nd
    if lead in (1, 2) and all(osz[i] and spatial[i] % osz[i] == 0 for i in range(nd)):
        # equal windows: a max pool with kernel = stride = size / output size
        k = tuple(spatial[i] // osz[i] for i in range(nd))
        x = input.unsqueeze(0) if lead == 1 else input
        res = _max_pool_op(x, nd, k, k, ((0, 0),) * nd, (1,) * nd, f"AdaptiveMaxPool{nd}DBackward0",
                           return_indices, ("adaptive_max", nd, osz))
        if lead == 1:
            return (res[0].squeeze(0), res[1].squeeze(0)) if return_indices else res.squeeze(0)
        return res
    ranges = [_adaptive_ranges(spatial[i], osz[i]) for i in range(nd)]

    def window(x, pos):
        sl = (slice(None),) * lead + tuple(slice(a, b) for (a, b) in (ranges[i][pos[i]] for i in range(nd)))
        return x[sl]

    positions = list(np.ndindex(*osz))

    def fn(x):
        vals = []
        for pos in positions:
            w = window(x, pos)
            flat = fnp.reshape(w, tuple(w.shape[:lead]) + (-1,))
            idx = lax.stop_gradient(_conv.argmax_nan_last(fnp, flat))  # (PyTorch's pick at NaNs)
            vals.append(fnp.take_along_axis(flat, idx[..., None], axis=-1)[..., 0])
        return fnp.reshape(fnp.stack(vals, axis=-1), tuple(x.shape[:lead]) + osz)

    y = _defop(f"AdaptiveMaxPool{nd}DBackward0", ("adaptive_max", nd, osz), fn, (input,))
    if not return_indices:
        return y
    ind = []
    for pos in positions:
        w = window(xb, pos)
        am = _conv.argmax_nan_last(_dev.xp_of(xb), w.reshape(xb.shape[:lead] + (-1,)))
        local = np.unravel_index(am, w.shape[lead:])
        lin = np.zeros(am.shape, np.int64)
        for i in range(nd):
            lin = lin * spatial[i] + (local[i] + ranges[i][pos[i]][0])
        ind.append(lin)
    return y, _wrap(np.stack(ind, axis=-1).reshape(xb.shape[:lead] + osz))


def adaptive_max_pool1d(input: Tensor, output_size: types.IntOrInts,
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    return _adaptive_max(input, output_size, 1, return_indices)


def adaptive_max_pool2d(input: Tensor, output_size: types.IntOrInts,
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    return _adaptive_max(input, output_size, 2, return_indices)


def adaptive_max_pool3d(input: Tensor, output_size: types.IntOrInts,
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Max over the adaptive windows of (N, C, D, H, W)."""
    return _adaptive_max(input, output_size, 3, return_indices)


@_autocast_fp32
def adaptive_avg_pool3d(input: Tensor, output_size: types.IntOrInts) -> Tensor:
    """Average over the adaptive windows of (N, C, D, H, W)."""
    return _adaptive_avg(input, output_size, 3)


# ---------------------------------------------------------------------------------------
# normalization


def _scale_shift(y, wb, has_w: bool, has_b: bool, shape_wb: tuple):
    """``y * weight + bias`` for the normalisations: ``wb`` holds the weight (when ``has_w``) then
    the bias (when ``has_b``), each reshaped to ``shape_wb`` to broadcast over ``y``."""
    if has_w:
        y = y * fnp.reshape(wb[0], shape_wb)
    if has_b:
        y = y + fnp.reshape(wb[1 if has_w else 0], shape_wb)
    return y


def _norm_fn(axes, eps, shape_wb, has_w, has_b):
    def fn(x, *wb):
        mean = fnp.mean(x, axis=axes, keepdims=True)
        xc = x - mean
        var = fnp.mean(xc * xc, axis=axes, keepdims=True)
        y = xc * lax.rsqrt(var + eps)
        return _scale_shift(y, wb, has_w, has_b, shape_wb)

    return fn


def _affine_norm_fn(axes, eps, shape_wb, has_w, has_b):
    """`_norm_fn` with an affine part, returning ``(y * weight + bias, y, rstd)``: reverse mode
    reads the saved normalised input and rstd (`fgrad.nn._activations.normalize_with_rstd`) instead of
    recomputing the statistics."""
    def fn(x, *wb):
        y, rstd = _normalize_with_rstd(x, axes, eps)
        return _scale_shift(y, wb, has_w, has_b, shape_wb), y, rstd

    return fn


def _c_contiguous_or_traced(buf) -> bool:
    """True for a C-contiguous buffer or a traced value: `batch_normalize_affine` computes in a
    row-major view of it, whose results are C-contiguous; another layout (channels last) keeps
    the per-channel broadcasting form, whose results keep the input's layout."""
    flags = getattr(buf, "flags", None)
    return flags is None or flags.c_contiguous


@functools.lru_cache(maxsize=256)
def _batch_norm_affine_fn(axes: tuple, eps: float):
    """Training batch norm with weight and bias as an op's fgrad definition (one per ``axes``,
    ``eps``): `fgrad.nn._batch_norm.batch_normalize_affine`, whose reverse mode is PyTorch's
    backward (two full sums)."""
    return functools.partial(_batch_normalize_affine, axes=axes, eps=eps)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise over the batch (and spatial) dims per channel (dim 1).  In training the
    batch statistics normalise (biased variance) and update the running statistics
    (unbiased variance) in place; otherwise the running statistics normalise."""
    xb = _buf(input)
    if xb.ndim < 2:
        raise ValueError(f"Expected 2D or more input (got {xb.ndim}D input)")
    c = xb.shape[1]
    axes = (0,) + tuple(range(2, xb.ndim))
    shape_wb = (1, c) + (1,) * (xb.ndim - 2)
    wbs = [t for t in (weight, bias) if t is not None]
    if training:
        size = math.prod([xb.shape[a] for a in axes])
        if size == 1:
            raise ValueError("Expected more than 1 value per channel when training, got input size "
                             f"{input.size()}")
        key = ("batch_norm", True, axes, eps, weight is not None, bias is not None)
        if weight is not None and bias is not None and _c_contiguous_or_traced(xb):
            key = key + ("rows",)  # PyTorch's backward: two full sums
            y = _defop("NativeBatchNormBackward0", key, _batch_norm_affine_fn(axes, eps),
                       (input, weight, bias), multi=True)[0]
        elif wbs:  # the normalised input and rstd are outputs: the backward reads them (as layer_norm)
            y = _defop("NativeBatchNormBackward0", key,
                       _affine_norm_fn(axes, eps, shape_wb, weight is not None, bias is not None),
                       (input, *wbs), multi=True)[0]
        else:  # (its result would be the saved one: recomputed instead, as PyTorch may modify it in place)
            y = _defop("NativeBatchNormBackward0", key, _norm_fn(axes, eps, shape_wb, False, False), (input,))
        _graph.show_as(y._gfn, functools.partial(_affine_shown, weight is not None, bias is not None, 0))
        if running_mean is not None or running_var is not None:
            if _is_concrete(input):
                with torch.no_grad():
                    if xb.dtype in (np.float32, np.float64):  # float64 sums, no float64 copy
                        mean, var_u = _batch_stats64(xb, axes, size)
                    else:
                        x64 = xb.astype(np.float64)
                        mean, var_u = x64.mean(axis=axes), x64.var(axis=axes)
                    var_u = var_u * size / max(size - 1, 1)
                    m = momentum
                    _update_running(running_mean, mean, m)
                    _update_running(running_var, var_u, m)
            else:  # traced (torch.compile, torch.func): the same update with tensor ops
                _traced_running_stats(input, running_mean, running_var, axes, size, momentum)
        return y
    if running_mean is None or running_var is None:
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
    has_w, has_b = weight is not None, bias is not None

    def fn_e(x, rm, rv, *wb):
        y = (x - fnp.reshape(rm, shape_wb)) * lax.rsqrt(fnp.reshape(rv, shape_wb) + eps)
        return _scale_shift(y, wb, has_w, has_b, shape_wb)

    y = _defop("NativeBatchNormBackward0", ("batch_norm", False, xb.ndim, eps, has_w, has_b), fn_e,
              (input, running_mean, running_var, *wbs))
    _graph.show_as(y._gfn, functools.partial(_affine_shown, has_w, has_b, 2))
    return y


def _batch_stats64(xb: np.ndarray, axes: tuple, size: int) -> tuple:
    """``(xb.mean(axes, dtype=float64), xb.var(axes, dtype=float64))`` bit for bit: NumPy's
    own two passes (float64 sum / count, then the sum of squared float64 deviations / count),
    with the mean summed once instead of twice (``var`` recomputes it)."""
    small = _native_sums.STATS_MIN_SIZE
    s = _native_sums.wide_sums(xb, axes, small)  # (the same sums in native code, where it can)
    if s is not None:
        mean = s / size
        sq = _native_sums.sq_dev_sums(xb, axes, mean, small)
        if sq is not None:
            return mean, sq / size
    s = np.add.reduce(xb, axis=axes, dtype=np.float64, keepdims=True)
    mean = s / size
    d = np.subtract(xb, mean, dtype=np.float64)
    np.multiply(d, d, out=d)
    return mean.reshape(-1), np.add.reduce(d, axis=axes, dtype=np.float64) / size


def _affine_shown(has_w: bool, has_b: bool, n_stats: int, edges) -> tuple:
    """A normalisation node as PyTorch shows it: ``(input, weight, bias)``, None for a missing
    weight or bias, no edge for the running statistics (``n_stats`` edges after the input)."""
    rest = iter(edges[1 + n_stats:])
    return (edges[0], next(rest) if has_w else (None, 0), next(rest) if has_b else (None, 0))


def _plain_host_state(stat: Tensor) -> np.ndarray | None:
    """The buffer of a layer-state tensor (running statistics, ``num_batches_tracked``) that
    an in-place update may write directly -- a plain writeable C-contiguous host array, with
    no profiler recording and nothing for autograd to track (not requiring grad, no history,
    not a view) -- else None (the update goes through the tensor ops)."""
    b = stat._buf
    if (type(b) is np.ndarray and b.flags.c_contiguous and b.flags.writeable
            and _profile_state.recorder is None
            and not (_graph.STATE.enabled and (stat._rg or stat._gfn is not None or stat._base is not None))):
        return b
    return None


def _count_batch(num_batches_tracked: Tensor) -> None:
    """``num_batches_tracked.add_(1)`` (BatchNorm's count in training): on a plain host
    buffer (`_plain_host_state`) the same NumPy addition and version bump without the
    in-place op's dispatch; otherwise ``add_``."""
    b = _plain_host_state(num_batches_tracked)
    if b is not None and b.dtype == np.int64 and b.ndim == 0:
        np.add(b, 1, out=b)
        _dispatch.bump_version(num_batches_tracked)
        return
    num_batches_tracked.add_(1)


def _update_running(stat: Tensor | None, new: np.ndarray, m: float) -> None:
    """``stat = stat * (1 - m) + new * m`` in place, each product rounded to ``stat``'s dtype:
    PyTorch updates running statistics in its generic (not fused-multiply-add) code, so not
    ``add_(alpha=m)``, which is PyTorch's fused kernel."""
    if stat is None:
        return
    b = _plain_host_state(stat)
    if type(m) is float and b is not None and b.dtype in _RUNNING_FAST and new.shape == b.shape:
        # what the three in-place ops below run on a plain host buffer, without their dispatch
        # (BatchNorm in training calls this twice a step): the same NumPy calls on the same
        # operands (a Python float times a float32/float64 array: the float rounded to the
        # array's dtype, as PyTorch's CPU kernel does), and ``stat``'s version bumped by its
        # two in-place ops
        t = new.astype(b.dtype)
        np.multiply(t, m, out=t)
        np.multiply(b, 1 - m, out=b)
        _dispatch.bump_version(stat)
        np.add(b, t, out=b)
        _dispatch.bump_version(stat)
        return
    stat.mul_(1 - m).add_(torch.as_tensor(new.astype(_buf(stat).dtype)).mul_(m))


_RUNNING_FAST = (np.dtype(np.float32), np.dtype(np.float64))


def _traced_running_stats(input: Tensor, running_mean, running_var, axes, size: int, m: float) -> None:
    """Batch norm's running-statistics update on a traced input (functional mode rebinds the
    buffers; ``torch.compile`` writes them back after the call)."""
    with torch.no_grad():
        x = input.detach().double()
        mean = x.mean(dim=axes)
        var_u = ((x - mean.reshape((1, -1) + (1,) * (x.dim() - 2))) ** 2).sum(dim=axes) / max(size - 1, 1)
        for stat, new in ((running_mean, mean), (running_var, var_u)):
            if stat is not None:
                stat.mul_(1 - m).add_(new.to(stat.dtype) * m)


def instance_norm(input: Tensor, running_mean: Tensor | None = None, running_var: Tensor | None = None,
                  weight: Tensor | None = None, bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each (sample, channel) over its spatial dims."""
    xb = _buf(input)
    if use_input_stats:
        axes = tuple(range(2, xb.ndim))
        c = xb.shape[1]
        shape_wb = (1, c) + (1,) * (xb.ndim - 2)
        fn = _norm_fn(axes, eps, shape_wb, weight is not None, bias is not None)
        wbs = [t for t in (weight, bias) if t is not None]
        y = _defop("NativeBatchNormBackward0", ("instance_norm", axes, eps, weight is not None,
                                               bias is not None),
                  fn, (input, *wbs))
        if running_mean is not None and _is_concrete(input):
            with torch.no_grad():
                x64 = xb.astype(np.float64)
                n = math.prod(xb.shape[2:])
                mean = x64.mean(axis=axes).mean(axis=0)
                var_u = (x64.var(axis=axes) * n / max(n - 1, 1)).mean(axis=0)
                _update_running(running_mean, mean, momentum)
                _update_running(running_var, var_u, momentum)
        return y
    return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)


def layer_norm(input: Tensor, normalized_shape: types.SizeLike, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise over the last ``len(normalized_shape)`` dims (biased variance)."""
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (int(normalized_shape),)
    ns = tuple(int(s) for s in normalized_shape)
    xb = _buf(input)
    if tuple(xb.shape[xb.ndim - len(ns):]) != ns:
        raise RuntimeError(f"Given normalized_shape={list(ns)}, expected input with shape [*, "
                           f"{', '.join(str(s) for s in ns)}], but got input of size{list(xb.shape)}")
    axes = tuple(range(xb.ndim - len(ns), xb.ndim))
    has_w, has_b = weight is not None, bias is not None
    wbs = [t for t in (weight, bias) if t is not None]
    key = ("layer_norm", axes, eps, has_w, has_b)
    if has_w or has_b:  # the normalised input and rstd are outputs: the backward reads them
        y = _defop("NativeLayerNormBackward0", key, _affine_norm_fn(axes, eps, ns, has_w, has_b),
                   (input, *wbs), multi=True)[0]
    else:  # (its result would be the saved one: recomputed instead, as PyTorch may modify it in place)
        y = _defop("NativeLayerNormBackward0", key, _norm_fn(axes, eps, ns, False, False), (input,))
    _graph.show_as(y._gfn, functools.partial(_affine_shown, weight is not None, bias is not None, 0))
    return y


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Normalise over groups of channels (and the spatial dims)."""
    xb = _buf(input)
    n, c = xb.shape[0], xb.shape[1]
    if c % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, but got "
                           "input of "
                           f"shape {list(xb.shape)} and num_groups={num_groups}")
    G = num_groups
    rest = tuple(xb.shape[2:])
    shape_wb = (1, c) + (1,) * len(rest)
    has_w, has_b = weight is not None, bias is not None

    def fn(x, *wb):
        g = fnp.reshape(x, (n, G, -1))
        mean = fnp.mean(g, axis=2, keepdims=True)
        gc = g - mean
        var = fnp.mean(gc * gc, axis=2, keepdims=True)
        y = fnp.reshape(gc * lax.rsqrt(var + eps), (n, c) + rest)
        return _scale_shift(y, wb, has_w, has_b, shape_wb)

    wbs = [t for t in (weight, bias) if t is not None]
    y = _defop("NativeGroupNormBackward0", ("group_norm", n, G, eps, has_w, has_b), fn, (input, *wbs))
    _graph.show_as(y._gfn, functools.partial(_affine_shown, has_w, has_b, 0))
    return y


# ---------------------------------------------------------------------------------------
# losses


@_autocast_fp32
def l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None, reduce: bool | None = None,
            reduction: str = "mean", weight: Tensor | None = None) -> Tensor:
    """``|input - target|``, reduced."""
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    _check_reduction(reduction)
    _target_warning(input, target)
    d = (input - target).abs()
    if weight is not None:
        d = d * weight
    return _reduce_t(d, reduction)


@_autocast_fp32
def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None, reduce: bool | None = None,
             reduction: str = "mean", weight: Tensor | None = None) -> Tensor:
    """``(input - target)**2``, reduced (one ``MseLossBackward0`` node)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    _check_reduction(reduction)
    _target_warning(input, target)
    if weight is not None:
        return _reduce_t((input - target) ** 2 * weight, reduction)
    if not isinstance(target, Tensor):
        target = torch.as_tensor(target, dtype=input.dtype)
    input, target = _same_dtype(_float(input), target)
    red = _reduce_fn(reduction)

    def fn(x, t):
        d = x - t
        return red(d * d)

    return _defop("MseLossBackward0", ("mse_loss", reduction), fn, (input, target))


@_autocast_fp32
def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """``0.5 d**2`` for ``|d| < delta``, ``delta (|d| - delta/2)`` beyond."""
    _check_reduction(reduction)
    _target_warning(input, target)
    input, target = _same_dtype(_float(input), target)
    de = float(delta)
    red = _reduce_fn(reduction)

    def fn(x, t):
        z = fnp.abs(x - t)
        near = ~(z >= de)  # NaN differences take the square: NaN gradient, as PyTorch's
        zq = fnp.where(near, z, fnp.zeros_like(z))  # the square sees no inf (inf * 0 cotangent: NaN)
        return red(fnp.where(near, 0.5 * zq * zq, de * (z - 0.5 * de)))

    y = _defop("HuberLossBackward0", ("huber", reduction, de), fn, (input, target))
    return y if weight is None else _reduce_t(y * weight, reduction)


@_autocast_fp32
def smooth_l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                   reduce: bool | None = None, reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """``0.5 d**2 / beta`` for ``|d| < beta``, ``|d| - beta/2`` beyond (``beta=0``: L1)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    _check_reduction(reduction)
    _target_warning(input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    input, target = _same_dtype(_float(input), target)
    be = float(beta)
    red = _reduce_fn(reduction)

    def fn(x, t):
        z = fnp.abs(x - t)
        if be == 0.0:
            return red(z)
        near = ~(z >= be)  # NaN differences take the square: NaN gradient, as PyTorch's
        zq = fnp.where(near, z, fnp.zeros_like(z))  # the square sees no inf (inf * 0 cotangent: NaN)
        return red(fnp.where(near, 0.5 * zq * zq / be, z - 0.5 * be))

    return _defop("SmoothL1LossBackward0", ("smooth_l1", reduction, be), fn, (input, target))


def _check_targets(tb, C: int, ignore_index: int) -> None:
    """PyTorch's IndexError for a class index outside ``[0, C)``.  CPU targets are checked
    at once; CUDA targets on the device, reported at the next synchronisation (as PyTorch
    CUDA's device-side assert): reading the verdict at once would stall every step."""
    bad = (tb != ignore_index) & ((tb < 0) | (tb >= C))

    def error() -> IndexError:
        host = _dev.to_host(tb) if type(tb) in _dev.DEV else tb
        flags = (host != ignore_index) & ((host < 0) | (host >= C))
        return IndexError(f"Target {int(host[flags][0])} is out of bounds.")

    if type(tb) in _dev.DEV:
        _dev.defer_check(bad.any(), error)
    elif bad.any():
        raise error()


def _nll_unmasked(reduction: str, x, t):
    """`nll_loss`'s definition for a batch of rows ``x`` (N, C), N > 0, when no target is
    ignored and there are no class weights: ``-x[n, t[n]]``, summed or averaged.  Bit for bit
    the general definition's values and gradients there (its weights are all 1 and its
    divisor is N), in 5 primitives instead of 12.  The mean's ``0 - x`` keeps the general
    definition's ``+0.0`` for a zero loss (its ``divide_or_nan`` adds a zero)."""
    picked = fnp.squeeze(fnp.take_along_axis(x, fnp.expand_dims(t, 1), axis=1), axis=1)
    if reduction == "none":
        return -picked
    if reduction == "sum":
        return fnp.sum(-picked)
    return fnp.sum(0 - picked) / picked.shape[0]


@_autocast_fp32
def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: bool | None = None,
             ignore_index: int = -100, reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """``-input[n, target[n]] * weight[target[n]]`` (log-probabilities in, class indices as
    target), averaged over the weights of non-ignored targets for 'mean'."""
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    _check_reduction(reduction)
    xb, tb = _buf(input), _buf(target)
    nd = xb.ndim
    if nd < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {nd})")
    batch_shape = xb.shape[:1] + xb.shape[2:] if nd >= 2 else ()
    if tuple(tb.shape) != tuple(batch_shape):  # PyTorch checks the shapes before the dtype
        if nd == 2 and tb.ndim == 1:
            raise ValueError(f"Expected input batch_size ({xb.shape[0]}) to match target batch_size "
                             f"({tb.shape[0]}).")
        if nd <= 2 and tb.ndim > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        raise RuntimeError(f"Expected target size {list(batch_shape)}, got {list(tb.shape)}")
    if target.dtype not in (torch.int64, torch.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype._legacy}")
    C = xb.shape[1] if nd >= 2 else xb.shape[0]
    ii = int(ignore_index)
    # host int64 targets all inside [0, C) (one reduction: a negative one is huge unsigned):
    # nothing out of bounds and, for an ignore_index outside [0, C), nothing ignored
    inside = (type(tb) is np.ndarray and tb.dtype == np.int64 and tb.size
              and int(tb.view(np.uint64).max()) < C)
    if not inside and _is_concrete(target):
        _check_targets(tb, C, ignore_index)
    has_w = weight is not None
    cax = 1 if nd >= 2 else 0
    name = "NllLoss2DBackward0" if nd == 4 else "NllLossBackward0"
    if nd == 2 and not has_w and type(tb) is np.ndarray and tb.shape[0] and (
            (inside and not 0 <= ii < C) or not (tb == ii).any()):
        # every target counts with weight 1 (the common case): the same numbers without the mask
        return _defop(name, ("nll_loss_unmasked", reduction), functools.partial(_nll_unmasked, reduction),
                      (input, target), edges=(0,))

    def fn(x, t, *w):
        valid = t != ii
        ts = fnp.where(valid, t, 0)
        picked = fnp.squeeze(fnp.take_along_axis(x, fnp.expand_dims(ts, cax), axis=cax), axis=cax)
        # an ignored target's loss and weight are 0 whatever its input or class weight (an
        # inf or NaN there stays out of the sum: PyTorch skips it, ``0 * inf`` would be NaN)
        wi = valid.astype(x.dtype)
        if has_w:
            wi = fnp.where(valid, fnp.take(w[0], ts, axis=0), 0)
        losses = fnp.where(valid, -picked * wi, 0)
        if reduction == "none":
            return losses
        if reduction == "sum":
            return fnp.sum(losses)
        # all targets ignored: 0/0 = NaN as in PyTorch, but a zero gradient, not NaN
        return _conv.divide_or_nan(fnp.sum(losses), fnp.sum(wi))

    args = (input, target) if weight is None else (input, target, weight.detach())
    # next_functions: the input only (PyTorch lists no edge for the integer target)
    return _defop(name, ("nll_loss", reduction, ii, has_w, cax), fn, args, edges=(0,))


@_autocast_fp32
def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average: bool | None = None, ignore_index: int = -100, reduce: bool | None = None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """``nll_loss(log_softmax(input, 1), target)`` for class indices; for class
    probabilities as target ``-sum(target * log_softmax(input))``; ``label_smoothing`` mixes
    the target with the uniform distribution."""
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    _check_reduction(reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    nd = _buf(input).ndim
    cax = 1 if nd >= 2 else 0
    logp = torch.log_softmax(input, cax)
    C = _buf(input).shape[cax]
    if target.is_floating_point() and target.shape == input.shape:  # class probabilities
        t = target
        if label_smoothing > 0:
            t = t * (1 - label_smoothing) + label_smoothing / C
        prod = logp * t
        if weight is not None:
            prod = prod * weight.view((C,) + (1,) * (nd - 2) if nd >= 2 else (C,))
        if reduction not in ("mean", "sum"):
            return -prod.sum(cax)
        total = -prod.sum()  # PyTorch sums everything, then negates (NegBackward0)
        if reduction == "mean":
            n = math.prod(_buf(input).shape) // C if nd >= 1 else 1
            return _defop("DivBackward1", ("div_scalar", n), lambda x: x / n, (total,))  # div by a Scalar
        return total
    nll = nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    if label_smoothing <= 0:
        return nll
    valid = (target != ignore_index)
    if weight is not None:
        wshape = (C,) + (1,) * (nd - 2) if nd >= 2 else (C,)
        smooth = -(logp * weight.view(wshape)).sum(cax)
    else:
        smooth = -logp.sum(cax)
    smooth = torch.where(valid, smooth, 0.0)  # (PyTorch's masked_fill: an inf or NaN input stays out)
    if reduction == "mean":
        if weight is not None:
            tsafe = torch.where(valid, target, torch.zeros_like(target))
            denom = (weight[tsafe] * valid.to(weight.dtype)).sum()
            smooth = smooth.sum() / denom
        else:
            smooth = smooth.sum() / valid.sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return nll * (1 - label_smoothing) + smooth * (label_smoothing / C)


@_autocast_fp32
def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """``-(t log x + (1 - t) log(1 - x))`` with each log clamped at -100 (PyTorch's rule)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    _check_reduction(reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size "
                         f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if _is_concrete(input):
        b = _buf(input)
        if b.size and (np.nanmin(b) < 0 or np.nanmax(b) > 1):
            raise RuntimeError("all elements of input should be between 0 and 1")
    input = _float(input)
    if target.dtype != input.dtype:  # PyTorch's kernel takes one dtype (no promotion, unlike the logits form)
        raise RuntimeError(f"Found dtype {target.dtype._legacy} but expected {input.dtype._legacy}")
    red = _reduce_fn(reduction)
    has_w = weight is not None

    def fn(x, t, *w):
        loss = _conv.binary_cross_entropy(x, t)  # PyTorch's clamp and finite gradient at 0 and 1
        if has_w:
            loss = loss * w[0]
        return red(loss)

    args = (input, target) if weight is None else (input, target, weight.detach())
    return _defop("BinaryCrossEntropyBackward0", ("bce", reduction, has_w), fn, args)


def _bce_logits_in_target_dtype(narrow, red, has_w, has_pw, x, t, *extra):
    """PyTorch's ``binary_cross_entropy_with_logits`` for a target of a narrower float dtype
    than the input (a float32 label with float64 logits): ``(1 - t) * x`` rounded to the
    target's dtype, minus ``log_sigmoid(x) * log_weight`` (``log_weight = 1 + (p - 1) t`` in
    the dtype of ``p`` and the target), rounded again, times the weight, rounded again, and
    reduced in the target's dtype.  The derivative is the unrounded loss's, in the input's
    dtype (PyTorch's backward formula ``sigmoid(x) - t`` runs in it)."""
    wide = x.dtype
    sp = _conv.softplus(-x)
    if has_pw:
        sp = sp * (1 + (extra[-1] - 1) * t.astype(narrow)).astype(wide)
    loss = (1 - t) * x + sp
    if has_w:
        loss = loss * extra[0]
    value = lax.stop_gradient(((1 - t) * x).astype(narrow).astype(wide) + sp).astype(narrow)
    if has_w:
        value = (value * extra[0]).astype(narrow)
    value, total = lax.stop_gradient(red(value)).astype(wide), red(loss)
    rounded = value - (lax.stop_gradient(total) - total)  # the rounded value, the total's derivative
    return fnp.where(fnp.isfinite(lax.stop_gradient(total)), rounded, total).astype(narrow)


@_autocast_fp32
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     size_average: bool | None = None, reduce: bool | None = None,
                                     reduction: str = "mean", pos_weight: Tensor | None = None) -> Tensor:
    """``-(p t log s(x) + (1 - t) log(1 - s(x)))`` computed stably from logits ``x``
    (``p`` = ``pos_weight``)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    _check_reduction(reduction)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    input = _float(input)
    # PyTorch computes ``(1 - target).mul_(input).sub_(...)`` in place: the loss has the target's
    # dtype, rounded to it at each in-place step, when the target is the narrower float
    narrower = target.is_floating_point() and target.dtype != input.dtype
    narrow = _buf(target).dtype if (narrower and torch.promote_types(input.dtype, target.dtype)
                                    == input.dtype) else None
    input, target = _same_dtype(input, target)
    red = _reduce_fn(reduction)
    has_w, has_pw = weight is not None, pos_weight is not None
    if narrow is not None:
        return _defop("BinaryCrossEntropyWithLogitsBackward0", ("bcel_narrow", reduction, has_w, has_pw,
                                                                str(narrow)),
                      functools.partial(_bce_logits_in_target_dtype, narrow, red, has_w, has_pw),
                      (input, target, *[t.detach() if t.requires_grad else t for t in (weight, pos_weight)
                                        if t is not None]))

    def fn(x, t, *extra):
        sp = _conv.softplus(-x)  # = -log sigmoid(x), derivative -sigmoid(-x) also at x = 0
        i = 0
        w = None
        if has_w:
            w = extra[i]
            i += 1
        if has_pw:
            lw = 1 + (extra[i] - 1) * t
            loss = (1 - t) * x + lw * sp
        else:
            loss = (1 - t) * x + sp
        if w is not None:
            loss = loss * w
        return red(loss)

    extra = [t.detach() if t.requires_grad else t for t in (weight, pos_weight) if t is not None]
    return _defop("BinaryCrossEntropyWithLogitsBackward0", ("bcel", reduction, has_w, has_pw), fn,
                 (input, target, *extra))


@_autocast_fp32
def kl_div(input: Tensor, target: Tensor, size_average: bool | None = None, reduce: bool | None = None,
           reduction: str = "mean", log_target: bool = False) -> Tensor:
    """``target * (log target - input)`` (input: log-probabilities)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    if log_target:
        loss = torch.exp(target) * (target - input)
    else:
        loss = torch.xlogy(target, target) - target * input
    if reduction == "batchmean":
        return loss.sum() / input.size(0) if input.dim() else loss.sum()
    return _reduce_t(loss, reduction)


@_autocast_fp32
def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: bool | None = None, eps: float = 1e-8, reduce: bool | None = None,
                     reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(input + eps)
    if full:
        st = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
        loss = loss + torch.where(target > 1, st, torch.zeros_like(st))
    return _reduce_t(loss, reduction)


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    if not isinstance(var, Tensor):
        var = torch.full_like(input, float(var))
    if var.dim() == input.dim() - 1 or (var.size() != input.size() and var.size(-1) != 1
                                         and var.dim() < input.dim()):
        var = var.unsqueeze(-1)
    var = var.clone()  # PyTorch clamps in place without recording it: the gradient of a
    with torch.no_grad():  # variance below eps is taken at eps and flows on (not 0)
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce_t(loss, reduction)


@_autocast_fp32
def soft_margin_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                     reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    _check_reduction(reduction)
    if isinstance(target, Tensor) and target.requires_grad and torch.is_grad_enabled():
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect to argument "
                           "'target'. This input cannot have requires_grad True.")
    red = _reduce_fn(reduction)

    def fn(x, t):
        z = -t * x
        return red(fnp.log1p(fnp.exp(-fnp.abs(z))) + fnp.maximum(z, 0.0))  # log(1 + exp(z)), stably

    return _defop("SoftMarginLossBackward0", ("soft_margin", reduction), fn, (input, target.detach()))


@_autocast_fp32
def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    return _reduce_t((-target * (input1 - input2) + margin).clamp_min(0), reduction)


@_autocast_fp32
def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average: bool | None = None,
                         reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    zeros = torch.zeros_like(input)
    pos = torch.where(target == 1, input, zeros)
    neg = torch.where(target == -1, (margin - input).clamp_min(0), zeros)
    return _reduce_t(pos + neg, reduction)


@_autocast_fp32
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          size_average: bool | None = None, reduce: bool | None = None,
                          reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    # PyTorch's formula: eps added to each squared magnitude (finite value and gradient when a
    # vector is zero)
    eps = 1e-12
    mag = ((input1 * input1).sum(-1) + eps) * ((input2 * input2).sum(-1) + eps)
    cos = (input1 * input2).sum(-1) / mag.sqrt()
    zeros = torch.zeros_like(cos)
    loss = torch.where(target == 1, 1 - cos, torch.where(target == -1, (cos - margin).clamp_min(0), zeros))
    return _reduce_t(loss, reduction)


@_autocast_fp32
def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average: bool | None = None,
                        reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    d_ap = pairwise_distance(anchor, positive, p, eps)
    d_an = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_an = torch.minimum(d_an, pairwise_distance(positive, negative, p, eps))
    return _reduce_t((d_ap - d_an + margin).clamp_min(0), reduction)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                size_average: bool | None = None, reduce: bool | None = None,
                                reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _reduction_from_legacy(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    loss = loss.sum(dim=-1) / input.size(-1)
    return _reduce_t(loss, reduction)


from ._interpolate import (  # noqa: E402  (defined in their own module; re-exported here)
    area_pool as _area_pool,
    interpolate,
    pixel_shuffle,
    pixel_unshuffle,
    upsample,
    upsample_bilinear,
    upsample_nearest,
)


def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None, max_norm: float | None = None,
                  norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean",
                  sparse: bool = False, per_sample_weights: Tensor | None = None,
                  include_last_offset: bool = False, padding_idx: int | None = None) -> Tensor:
    """Sums, means or maxima of bags of rows of ``weight`` (PyTorch's ``F.embedding_bag``; see
    ``fgrad/torch/nn/_embedding_bag.py``); ``max_norm`` renormalises the rows used, in place.

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.nn.functional as F
        >>> F.embedding_bag(torch.tensor([[0, 1]]), torch.eye(2), mode="sum")
        tensor([[1., 1.]])
    """
    if weight.dtype == torch.long and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, "
                      "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.",
                      stacklevel=2)
        weight, input = input, weight
    if scale_grad_by_freq:
        raise NotImplementedError("embedding_bag(scale_grad_by_freq=True) is not implemented in fgrad.torch "
                                  "yet")
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    if (sparse and mode in ("sum", "mean") and per_sample_weights is None and weight.requires_grad
            and torch.is_grad_enabled() and _is_concrete(input) and _is_concrete(weight)):
        return _sparse_grad_embedding_bag(input, weight, offsets, mode, include_last_offset, padding_idx)
    return _embedding_bag.embedding_bag(input, weight, offsets, mode, per_sample_weights, include_last_offset,
                                        padding_idx)


def _sparse_grad_embedding_bag(input: Tensor, weight: Tensor, offsets, mode: str, include_last_offset: bool,
                               padding_idx: int | None) -> Tensor:
    """``embedding_bag(sparse=True)``: the dense path's values, and a sparse gradient for
    ``weight`` (`fgrad.torch.sparse._embedding.embedding_bag_with_sparse_grad`)."""
    with torch.no_grad():
        out = _embedding_bag.embedding_bag(input, weight, offsets, mode, None, include_last_offset,
                                           padding_idx)
    flat, starts, ends = _embedding_bag._bags(input, offsets, include_last_offset)
    flat = np.asarray(flat, np.int64)
    position = np.arange(flat.size)
    bag = np.searchsorted(starts, position, side="right") - 1
    inside = (bag >= 0) & (position < np.asarray(ends)[np.maximum(bag, 0)])
    flat, bag = flat[inside], bag[inside]
    counts = None
    pad = padding_idx + weight.shape[0] if padding_idx is not None and padding_idx < 0 else padding_idx
    if mode == "mean":
        member = flat != pad if pad is not None else np.ones(flat.shape, bool)
        counts = np.maximum(np.bincount(bag[member], minlength=len(starts)), 1)
    return _sparse_embedding_bag(weight, flat, bag, out, counts, pad)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0) -> Tensor:
    """Normalise each channel by the mean square of its ``size`` neighbouring channels:
    ``x / (k + alpha * mean(x^2)) ** beta`` (PyTorch's composite, op for op).

    Example::

        >>> import fgrad.torch as torch
        >>> import fgrad.torch.nn.functional as F
        >>> F.local_response_norm(torch.ones(1, 3, 1), 2, alpha=1.0, k=0.0)
        tensor([[[1.6818],
                 [1.0000],
                 [1.0000]]])
    """
    dim = input.dim()
    if dim < 3:
        raise ValueError("Expected 3D (unbatched) or 4D (batched) input to local_response_norm, but got "
                         "input of "
                         f"size: {list(input.shape)}")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


from . import _embedding_bag  # noqa: E402
from ._sampling import affine_grid, grid_sample  # noqa: E402,F401
from ._ctc import ctc_loss  # noqa: E402,F401
from ._pool_more import *  # noqa: E402,F401,F403
from ._pool_more import __all__ as _pool_more_all  # noqa: E402
from ._losses_more import (multi_margin_loss, multilabel_margin_loss,  # noqa: E402,F401
                           triplet_margin_with_distance_loss)
from ._random_layers import (alpha_dropout, feature_alpha_dropout, gumbel_softmax, rrelu,  # noqa: E402,F401
                             rrelu_)

GRID_SAMPLE_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
GRID_SAMPLE_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}

__all__ += ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear", "pixel_shuffle",
            "pixel_unshuffle",
            "embedding_bag", "local_response_norm"]
__all__ += ["rms_norm", "channel_shuffle", "native_channel_shuffle", "celu_", "selu_", "affine_grid",
            "grid_sample",
            "ctc_loss", "multi_margin_loss", "multilabel_margin_loss", "triplet_margin_with_distance_loss",
            "alpha_dropout", "feature_alpha_dropout", "gumbel_softmax", "rrelu_"] + _pool_more_all


def __getattr__(name: str) -> object:
    if name == "grad":  # F.grad is torch.nn.grad (which is built on this module: loaded on first use)
        import importlib

        return importlib.import_module("fgrad.torch.nn.grad")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
