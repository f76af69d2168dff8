"""In-place twins (``op_``) of existing out-of-place ops, derived by one generic rule
instead of one body each: ``self.op_(*args)`` computes ``op(self, *args)`` and copies the
result into ``self`` with `Tensor.copy_`, which does the in-place bookkeeping (version
counter, leaf check, views and their base's history).

PyTorch's casting rule holds: the result must be castable to ``self``'s dtype (an integer
tensor's ``lgamma_`` is a RuntimeError).  When ``self`` tracks gradients the op reads a
clone of ``self`` (so the op's saved input is never the overwritten buffer); the gradients
are the out-of-place op's.  The copy's node takes the op's node's name (``SgnBackward0``,
``DigammaBackward0``...), as PyTorch names it; a view's base records ``CopySlices``.

Example::

    >>> import fgrad.torch as torch
    >>> torch.tensor([0.5, 3.0]).lgamma_()
    tensor([0.5724, 0.6931])
"""

from __future__ import annotations

from typing import Any

import fgrad.torch as torch

from ._dispatch import tracks_grad
from ._promotion import can_cast
from ._tensor import Tensor
from .autograd.graph import relabel

# name -> (example, PyTorch 2.13's printed result)
_EXAMPLES = {
    "lgamma_": ("torch.tensor([0.5, 3.0]).lgamma_()", "tensor([0.5724, 0.6931])"),
    "digamma_": ("torch.tensor([0.5, 3.0]).digamma_()", "tensor([-1.9635,  0.9228])"),
    "polygamma_": ("torch.tensor([0.5, 3.0]).polygamma_(1)", "tensor([4.9348, 0.3949])"),
    "mvlgamma_": ("torch.tensor([2.5, 3.0]).mvlgamma_(2)", "tensor([0.8570, 1.5502])"),
    "i0_": ("torch.tensor([0.5, 1.0]).i0_()", "tensor([1.0635, 1.2661])"),
    "igamma_": ("torch.tensor([0.5, 1.0]).igamma_(torch.tensor([1.0, 2.0]))", "tensor([0.8427, 0.8647])"),
    "igammac_": ("torch.tensor([0.5, 1.0]).igammac_(torch.tensor([1.0, 2.0]))", "tensor([0.1573, 0.1353])"),
    "sinc_": ("torch.tensor([0.5, 0.0]).sinc_()", "tensor([0.6366, 1.0000])"),
    "deg2rad_": ("torch.tensor([90.0, 180.0]).deg2rad_()", "tensor([1.5708, 3.1416])"),
    "rad2deg_": ("torch.tensor([1.0, 3.0]).rad2deg_()", "tensor([ 57.2958, 171.8873])"),
    "nan_to_num_": ("torch.tensor([float('nan'), 1.0]).nan_to_num_(nan=2.0)", "tensor([2., 1.])"),
    "xlogy_": ("torch.tensor([0.0, 2.0]).xlogy_(torch.tensor([0.0, 3.0]))", "tensor([0.0000, 2.1972])"),
    "gcd_": ("torch.tensor([4, 6]).gcd_(torch.tensor([6, 9]))", "tensor([2, 3])"),
    "lcm_": ("torch.tensor([4, 6]).lcm_(torch.tensor([6, 9]))", "tensor([12, 18])"),
    "ldexp_": ("torch.tensor([1.0, 2.0]).ldexp_(torch.tensor([2, 3]))", "tensor([ 4., 16.])"),
    "copysign_": ("torch.tensor([1.0, 2.0]).copysign_(torch.tensor([-1.0, 1.0]))", "tensor([-1.,  2.])"),
    "heaviside_": (
        "torch.tensor([-1.0, 0.0, 2.0]).heaviside_(torch.tensor([0.5]))",
        "tensor([0.0000, 0.5000, 1.0000])",
    ),
    "float_power_": (
        "torch.tensor([2.0, 3.0], dtype=torch.float64).float_power_(2)",
        "tensor([4., 9.], dtype=torch.float64)",
    ),
    "logical_not_": ("torch.tensor([0.0, 2.0]).logical_not_()", "tensor([1., 0.])"),
    "bitwise_not_": ("torch.tensor([0, 5]).bitwise_not_()", "tensor([-1, -6])"),
    "cumprod_": ("torch.tensor([1.0, 2.0, 3.0]).cumprod_(0)", "tensor([1., 2., 6.])"),
    "renorm_": (
        "torch.tensor([[3.0, 4.0], [1.0, 0.0]]).renorm_(2, 0, 1.0)",
        "tensor([[0.6000, 0.8000],\n        [1.0000, 0.0000]])",
    ),
    "sgn_": ("torch.tensor([-2.0, 0.0, 3.0]).sgn_()", "tensor([-1.,  0.,  1.])"),
    "nextafter_": (
        "torch.tensor([1.0], dtype=torch.float64).nextafter_(torch.tensor([2.0], "
        "dtype=torch.float64)).item()",
        "1.0000000000000002",
    ),
    "addmm_": (
        "torch.ones(2, 2).addmm_(torch.eye(2), torch.full((2, 2), 2.0))",
        "tensor([[3., 3.],\n        [3., 3.]])",
    ),
    "addbmm_": (
        "torch.ones(2, 2).addbmm_(torch.ones(3, 2, 1), torch.ones(3, 1, 2))",
        "tensor([[4., 4.],\n        [4., 4.]])",
    ),
    "baddbmm_": (
        "torch.ones(1, 2, 2).baddbmm_(torch.ones(1, 2, 1), torch.ones(1, 1, 2))",
        "tensor([[[2., 2.],\n         [2., 2.]]])",
    ),
    "addmv_": ("torch.ones(2).addmv_(torch.eye(2), torch.tensor([2.0, 3.0]))", "tensor([3., 4.])"),
    "addr_": (
        "torch.zeros(2, 2).addr_(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))",
        "tensor([[3., 4.],\n        [6., 8.]])",
    ),
    "masked_scatter_": (
        "torch.zeros(3).masked_scatter_(torch.tensor([True, False, True]), torch.tensor([1.0, 2.0]))",
        "tensor([1., 0., 2.])",
    ),
    "scatter_reduce_": (
        "torch.ones(2).scatter_reduce_(0, torch.tensor([0, 0, 1]), torch.tensor([2.0, 3.0, 4.0]), 'sum')",
        "tensor([6., 5.])",
    ),
    "index_reduce_": (
        "torch.ones(3).index_reduce_(0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]), 'prod')",
        "tensor([6., 1., 4.])",
    ),
    "bitwise_left_shift_": ("torch.tensor([1, 2]).bitwise_left_shift_(2)", "tensor([4, 8])"),
    "bitwise_right_shift_": ("torch.tensor([8, 16]).bitwise_right_shift_(2)", "tensor([2, 4])"),
}
# PyTorch also has these at the top level (``torch.sinc_(x)``)
_TOP_LEVEL = (
    "i0_",
    "sinc_",
    "deg2rad_",
    "rad2deg_",
    "nan_to_num_",
    "xlogy_",
    "gcd_",
    "lcm_",
    "ldexp_",
    "addmv_",
)


def _dtype_name(dt) -> str:
    return {
        "float32": "Float",
        "float64": "Double",
        "float16": "Half",
        "bfloat16": "BFloat16",
        "int64": "Long",
        "int32": "Int",
        "int16": "Short",
        "int8": "Char",
        "uint8": "Byte",
        "bool": "Bool",
        "complex64": "ComplexFloat",
        "complex128": "ComplexDouble",
    }.get(str(dt).replace("torch.", ""), str(dt))


# in-place twins whose op takes ``dtype=`` and runs in self's dtype (PyTorch's kernel for the
# dtype, so ``cumprod_`` of a bool tensor raises its NotImplementedError, not a cast error)
_IN_SELF_DTYPE = frozenset({"cumprod_"})


def derive_inplace(name: str, op):
    """The in-place twin ``name`` of the out-of-place method ``op`` (``self`` first).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch._inplace_round8 import derive_inplace
        >>> derive_inplace("sinc_", torch.Tensor.sinc)(torch.zeros(2))
        tensor([1., 1.])
    """

    def op_(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if not isinstance(self, Tensor):
            raise TypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not {type(self).__name__}"
            )
        if name in _IN_SELF_DTYPE and kwargs.get("dtype") is None:  # computed in self's dtype
            kwargs = {**kwargs, "dtype": self.dtype}
        src = self
        if torch.is_grad_enabled() and any(
            isinstance(a, Tensor) and tracks_grad(a) for a in (self, *args, *kwargs.values())
        ):
            # the op must not save the buffer this write overwrites: it reads a clone
            src = self.clone()
            args = tuple(src if a is self else a for a in args)
            kwargs = {k: (src if v is self else v) for k, v in kwargs.items()}
        res = op(src, *args, **kwargs)
        if name == "float_power_" and res.dtype != self.dtype:
            raise RuntimeError(
                f"the base given to float_power_ has dtype {_dtype_name(self.dtype)} but the "
                f"operation's result requires dtype {_dtype_name(res.dtype)}"
            )
        if res.dtype != self.dtype and not can_cast(
            torch._dtypes.to_np(res.dtype), torch._dtypes.to_np(self.dtype)
        ):
            raise RuntimeError(
                f"result type {_dtype_name(res.dtype)} can't be cast to the desired output type "
                f"{_dtype_name(self.dtype)}"
            )
        if tuple(res.shape) != tuple(self.shape):
            raise RuntimeError(
                f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(res.shape)}"
            )
        out = self.copy_(res)
        g, r = self.grad_fn, res.grad_fn
        if self._base is None and g is not None and r is not None and type(g).__name__ == "CopyBackwards":
            relabel(g, type(r).__name__)
        return out

    op_.__name__ = op_.__qualname__ = name
    example, printed = _EXAMPLES[name]
    op_.__doc__ = (
        f"In-place ``{name[:-1]}``: writes the result into ``self`` and returns it.\n\n"
        f"Example::\n\n    >>> import fgrad.torch as torch\n    >>> {example}\n"
        + "".join(f"    {line}\n" for line in printed.split("\n"))
    )
    return op_


def install(namespace: dict) -> None:
    """Bind each missing ``Tensor.op_`` (and PyTorch's top-level ``torch.op_``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sinc_(torch.tensor([0.0]))
        tensor([1.])
    """
    for name in _EXAMPLES:
        base = getattr(Tensor, name[:-1], None)
        if base is None or name in vars(Tensor):
            continue
        fn = derive_inplace(name, base)
        setattr(Tensor, name, fn)
        if name in _TOP_LEVEL and name not in namespace:
            namespace[name] = fn
