"""Activation modules (``ReLU``, ``Sigmoid``, ``Tanh``, ``GELU``, ``Softmax``, ...).

Almost all of them are a functional of `..functional` with fixed hyper-parameters, so they
derive from `_Activation`: a subclass names its functional in the class line and writes only
its constructor, whose parameters are stored as attributes of the same name and passed to the
functional by keyword; ``forward`` and ``extra_repr`` come from the base class::

    class LeakyReLU(_Activation, function=F.leaky_relu):
        def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
            super().__init__(negative_slope=negative_slope, inplace=inplace)

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.Softmax(dim=1)(torch.zeros(1, 4))
    tensor([[0.2500, 0.2500, 0.2500, 0.2500]])
    >>> torch.nn.LeakyReLU(0.2, inplace=True)
    LeakyReLU(negative_slope=0.2, inplace=True)
"""

from __future__ import annotations

import inspect
import warnings
from functools import partial
from typing import Any, Callable

import fgrad.torch as torch

import fgrad.torch.nn.functional as F
from ..parameter import Parameter
from .linear import NonDynamicallyQuantizableLinear
from .module import Module
from fgrad.torch.types import Device, DType, Tensor

__all__ = [
    "ReLU", "ReLU6", "LeakyReLU", "PReLU", "RReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Mish",
    "Sigmoid", "Tanh", "Hardtanh", "Hardsigmoid", "Hardswish", "Hardshrink", "Softshrink", "Tanhshrink",
    "Threshold", "LogSigmoid", "Softplus", "Softsign", "Softmax", "Softmin", "LogSoftmax", "Softmax2d",
    "GLU", "MultiheadAttention"
]


class _Activation(Module):
    """A module that applies ``function(input, **hyper-parameters)``.

    The hyper-parameters are the parameters of the subclass's ``__init__`` (in order); the
    class keyword ``function`` names the functional.  The repr lists ``name=value`` for each
    hyper-parameter (``inplace`` only when true), as PyTorch's modules print themselves.
    """

    _function: Callable[..., Any]
    _hyper_parameters: tuple[str, ...] = ()
    _defaults: dict[str, Any] = {}
    _deprecated_arguments: tuple[str, ...] = ()  # __init__ parameters that are not hyper-parameters

    def __init_subclass__(cls, function: Callable[..., Any] | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if function is not None:
            cls._function = staticmethod(function)
        if "__init__" in cls.__dict__:
            params = [p for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
                      if p.name not in cls._deprecated_arguments]
            cls._hyper_parameters = tuple(p.name for p in params)
            cls._defaults = {p.name: p.default for p in params if p.default is not p.empty}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Store the hyper-parameters ``kwargs`` as attributes; a class without any takes no
        arguments (`Module` raises PyTorch's TypeError for them)."""
        if not self._hyper_parameters:
            super().__init__(*args, **kwargs)
            return
        super().__init__(*args)
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        for name, default in self._defaults.items():  # pickles from before an argument existed
            self.__dict__.setdefault(name, default)

    def forward(self, input: Tensor) -> Tensor:
        return self._function(input, **{name: getattr(self, name) for name in self._hyper_parameters})

    def extra_repr(self) -> str:
        parts = [f"{name}={_format(getattr(self, name))}"
                 for name in self._hyper_parameters if name != "inplace"]
        if "inplace" in self._hyper_parameters and self.inplace:
            parts.append("inplace=True")
        return ", ".join(parts)


def _format(value: Any) -> str:
    """How PyTorch's ``extra_repr`` prints a hyper-parameter: strings quoted, the rest by ``str``."""
    return repr(value) if isinstance(value, str) else str(value)


class ReLU(_Activation, function=F.relu):
    """``max(0, x)`` elementwise (`functional.relu`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.ReLU()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([0., 0., 0., 1.])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(inplace=inplace)


class Threshold(_Activation, function=F.threshold):
    """``x`` where ``x > threshold``, else ``value`` (`functional.threshold`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Threshold(0.5, -1.0)(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-1., -1., -1.,  1.])
    """

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__(threshold=threshold, value=value, inplace=inplace)


class Hardtanh(_Activation, function=F.hardtanh):
    """``x`` clamped to ``[min_val, max_val]`` (`functional.hardtanh`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Hardtanh(-1.0, 0.5)(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-1.0000, -0.5000,  0.0000,  0.5000])
    """

    _deprecated_arguments = ("min_value", "max_value")

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False,
                 min_value: float | None = None, max_value: float | None = None) -> None:
        if min_value is not None:  # PyTorch's deprecated spellings
            warnings.warn("keyword argument `min_value` is deprecated and rename to `min_val`",
                          FutureWarning, stacklevel=2)
            min_val = min_value
        if max_value is not None:
            warnings.warn("keyword argument `max_value` is deprecated and rename to `max_val`",
                          FutureWarning, stacklevel=2)
            max_val = max_value
        super().__init__(min_val=min_val, max_val=max_val, inplace=inplace)
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")


class ReLU6(Hardtanh, function=F.relu6):
    """``Hardtanh(0, 6)``, as in PyTorch (``min_val``/``max_val`` attributes included).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.ReLU6()(torch.tensor([-1.0, 3.0, 8.0]))
        tensor([0., 3., 6.])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)


class LeakyReLU(_Activation, function=F.leaky_relu):
    """``x`` where positive, ``negative_slope * x`` elsewhere (`functional.leaky_relu`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.LeakyReLU(0.1)(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-0.2000, -0.0500,  0.0000,  1.0000])
    """

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__(negative_slope=negative_slope, inplace=inplace)


class RReLU(_Activation, function=F.rrelu):
    """Leaky ReLU whose negative slope is drawn from ``[lower, upper]`` in training, their mean in eval.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.RReLU(0.1, 0.3).eval()
        >>> m(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-0.4000, -0.1000,  0.0000,  1.0000])
    """

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False) -> None:
        super().__init__(lower=lower, upper=upper, inplace=inplace)

    def forward(self, input: Tensor) -> Tensor:
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)


class ELU(_Activation, function=F.elu):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere (`functional.elu`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.ELU()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-0.8647, -0.3935,  0.0000,  1.0000])
    """

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__(alpha=alpha, inplace=inplace)


class CELU(_Activation, function=F.celu):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`` (`functional.celu`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.CELU(alpha=2.0)(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-1.2642, -0.4424,  0.0000,  1.0000])
    """

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__(alpha=alpha, inplace=inplace)


class SELU(_Activation, function=F.selu):
    """Scaled ELU with the self-normalizing constants (`functional.selu`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.SELU()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-1.5202, -0.6918,  0.0000,  1.0507])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(inplace=inplace)


class GELU(_Activation, function=F.gelu):
    """``x * Phi(x)`` (``approximate='tanh'``: the tanh formula) (`functional.gelu`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.GELU()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-0.0455, -0.1543,  0.0000,  0.8413])
    """

    def __init__(self, approximate: str = "none") -> None:
        super().__init__(approximate=approximate)


class SiLU(_Activation, function=F.silu):
    """``x * sigmoid(x)`` (`functional.silu`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.SiLU()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-0.2384, -0.1888,  0.0000,  0.7311])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(inplace=inplace)


class Mish(_Activation, function=F.mish):
    """``x * tanh(softplus(x))`` (`functional.mish`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Mish()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-0.2525, -0.2207,  0.0000,  0.8651])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(inplace=inplace)


class Hardsigmoid(_Activation, function=F.hardsigmoid):
    """Piecewise-linear sigmoid ``relu6(x + 3) / 6`` (`functional.hardsigmoid`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Hardsigmoid()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([0.1667, 0.4167, 0.5000, 0.6667])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(inplace=inplace)

    def extra_repr(self) -> str:  # PyTorch prints no arguments, even with inplace=True
        return ""


class Hardswish(_Activation, function=F.hardswish):
    """``x * relu6(x + 3) / 6`` (`functional.hardswish`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Hardswish()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-0.3333, -0.2083,  0.0000,  0.6667])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(inplace=inplace)

    def extra_repr(self) -> str:  # PyTorch prints no arguments, even with inplace=True
        return ""


class Hardshrink(_Activation, function=F.hardshrink):
    """``x`` where ``|x| > lambd``, else 0 (`functional.hardshrink`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Hardshrink(0.5)(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-2.,  0.,  0.,  1.])
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__(lambd=lambd)

    def extra_repr(self) -> str:  # PyTorch prints the bare value
        return str(self.lambd)


class Softshrink(_Activation, function=F.softshrink):
    """``x`` moved ``lambd`` towards 0, 0 where ``|x| <= lambd`` (`functional.softshrink`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Softshrink(0.5)(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-1.5000, -0.0000,  0.0000,  0.5000])
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__(lambd=lambd)

    def extra_repr(self) -> str:  # PyTorch prints the bare value
        return str(self.lambd)


class Softplus(_Activation, function=F.softplus):
    """``log(1 + exp(beta * x)) / beta`` (linear above ``threshold``) (`functional.softplus`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Softplus(beta=2.0)(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([0.0091, 0.1566, 0.3466, 1.0635])
    """

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__(beta=beta, threshold=threshold)


class GLU(_Activation, function=F.glu):
    """Gated linear unit: the first half of ``dim`` times the sigmoid of the second (`functional.glu`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.GLU()(torch.tensor([[1.0, 2.0, 0.0, 1.0]]))
        tensor([[0.5000, 1.4621]])
    """

    def __init__(self, dim: int = -1) -> None:
        super().__init__(dim=dim)


# the softmax family warns about an implicit dim at the caller of the module
class Softmax(_Activation, function=partial(F.softmax, _stacklevel=5)):
    """Softmax over ``dim`` (`functional.softmax`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Softmax(dim=1)(torch.tensor([[1.0, 2.0, 3.0]]))
        tensor([[0.0900, 0.2447, 0.6652]])
    """

    def __init__(self, dim: int | None = None) -> None:
        super().__init__(dim=dim)


class Softmin(_Activation, function=partial(F.softmin, _stacklevel=5)):
    """Softmax of ``-x`` over ``dim`` (`functional.softmin`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Softmin(dim=1)(torch.tensor([[1.0, 2.0, 3.0]]))
        tensor([[0.6652, 0.2447, 0.0900]])
    """

    def __init__(self, dim: int | None = None) -> None:
        super().__init__(dim=dim)


class LogSoftmax(_Activation, function=partial(F.log_softmax, _stacklevel=5)):
    """Log of the softmax over ``dim``, computed stably (`functional.log_softmax`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.LogSoftmax(dim=1)(torch.tensor([[1.0, 2.0, 3.0]]))
        tensor([[-2.4076, -1.4076, -0.4076]])
    """

    def __init__(self, dim: int | None = None) -> None:
        super().__init__(dim=dim)


class Sigmoid(_Activation, function=F.sigmoid):
    """``1 / (1 + exp(-x))`` elementwise.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Sigmoid()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([0.1192, 0.3775, 0.5000, 0.7311])
    """
    pass


class Tanh(_Activation, function=F.tanh):
    """Hyperbolic tangent, elementwise.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Tanh()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-0.9640, -0.4621,  0.0000,  0.7616])
    """
    pass


class Tanhshrink(_Activation, function=F.tanhshrink):
    """``x - tanh(x)`` (`functional.tanhshrink`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Tanhshrink()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-1.0360, -0.0379,  0.0000,  0.2384])
    """
    pass


class LogSigmoid(_Activation, function=F.logsigmoid):
    """``log(sigmoid(x))``, computed stably (`functional.logsigmoid`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.LogSigmoid()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-2.1269, -0.9741, -0.6931, -0.3133])
    """
    pass


class Softsign(_Activation, function=F.softsign):
    """``x / (1 + |x|)`` (`functional.softsign`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Softsign()(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-0.6667, -0.3333,  0.0000,  0.5000])
    """
    pass


class Softmax2d(Module):
    """Softmax over the channels of each spatial position (``(N, C, H, W)`` or ``(C, H, W)`` input).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Softmax2d()(torch.tensor([[[[1.0]], [[3.0]]]]))
        tensor([[[[0.1192]],
        <BLANKLINE>
                 [[0.8808]]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class PReLU(Module):
    """``x`` where positive, a learned slope (initially ``init``) times ``x`` elsewhere.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.PReLU(init=0.1)
        >>> m(torch.tensor([-2.0, -0.5, 0.0, 1.0]))
        tensor([-0.2000, -0.0500,  0.0000,  1.0000], grad_fn=<PreluKernelBackward0>)
        >>> m.weight
        Parameter containing:
        tensor([0.1000], requires_grad=True)
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Device = None,
                 dtype: DType | None = None) -> None:
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(torch.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        with torch.no_grad():
            self.weight.fill_(self.init)

    def forward(self, input: Tensor) -> Tensor:
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class MultiheadAttention(Module):
    """``MultiheadAttention(embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
    add_zero_attn=False, kdim=None, vdim=None, batch_first=False)``: PyTorch's layer, with its
    parameter names (``in_proj_weight``, ``in_proj_bias``, ``out_proj.weight``...; separate
    ``q_proj_weight``/``k_proj_weight``/``v_proj_weight`` when kdim or vdim differ from
    embed_dim), so PyTorch state dicts load.

    ``forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True, is_causal=False)`` -> ``(output, weights or None)``; bool masks
    mark the positions *not* attended (True = masked), float masks are added.

    Example::

        >>> import fgrad.torch as torch
        >>> mha = torch.nn.MultiheadAttention(8, 2, batch_first=True)
        >>> x = torch.randn(3, 5, 8)
        >>> out, w = mha(x, x, x)
        >>> out.shape, w.shape
        (torch.Size([3, 5, 8]), torch.Size([3, 5, 5]))
    """

    __constants__ = ["batch_first"]

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, device: Device = None,
                 dtype: DType | None = None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(torch.empty((embed_dim, embed_dim), **factory_kwargs))
            self.k_proj_weight = Parameter(torch.empty((embed_dim, self.kdim), **factory_kwargs))
            self.v_proj_weight = Parameter(torch.empty((embed_dim, self.vdim), **factory_kwargs))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(torch.empty((3 * embed_dim, embed_dim), **factory_kwargs))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim, **factory_kwargs))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **factory_kwargs)
        if add_bias_kv:
            self.bias_k = Parameter(torch.empty((1, 1, embed_dim), **factory_kwargs))
            self.bias_v = Parameter(torch.empty((1, 1, embed_dim), **factory_kwargs))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        init = torch.nn.init
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def __setstate__(self, state) -> None:
        state.setdefault("_qkv_same_embed_dim", True)
        super().__setstate__(state)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None = None,
                need_weights: bool = True, attn_mask: Tensor | None = None,
                average_attn_weights: bool = True, is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
        if self.batch_first and query.dim() == 3:
            query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        common = dict(training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
                      attn_mask=attn_mask, average_attn_weights=average_attn_weights, is_causal=is_causal)
        if not self._qkv_same_embed_dim:
            common.update(use_separate_proj_weight=True, q_proj_weight=self.q_proj_weight,
                          k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight)
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight,
            self.out_proj.bias, **common)
        if self.batch_first and query.dim() == 3:
            out = out.transpose(1, 0)
        return out, weights
