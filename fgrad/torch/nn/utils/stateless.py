"""``torch.nn.utils.stateless.functional_call``: the deprecated alias of
``torch.func.functional_call`` (it warns ``FutureWarning`` as PyTorch's does).

Example::

    >>> import warnings
    >>> import fgrad.torch as torch
    >>> lin = torch.nn.Linear(1, 1)
    >>> params = {"weight": torch.ones(1, 1), "bias": torch.zeros(1)}
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     functional_call(lin, params, (torch.full((1, 1), 2.0),))
    tensor([[2.]])
"""

from __future__ import annotations

import warnings
from typing import Any

from fgrad.torch.func import functional_call as _call

from ..modules.module import Module

__all__ = ["functional_call"]


def functional_call(module: Module, parameters_and_buffers: dict[str, Any] | tuple[dict[str, Any], ...],
                    args: Any = None, kwargs: dict[str, Any] | None = None, *, tie_weights: bool = True,
                    strict: bool = False) -> Any:
    """Run ``module`` with its parameters and buffers replaced (``torch.func.functional_call``).

    Example::

        >>> import warnings
        >>> import fgrad.torch as torch
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", FutureWarning)
        ...     functional_call(torch.nn.Linear(1, 1), {"weight": torch.ones(1, 1), "bias": torch.ones(1)},
        ...                     torch.ones(1, 1))
        tensor([[2.]])
    """
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be "
                  "removed "
                  "in a future version of PyTorch. Please use `torch.func.functional_call` instead which is "
                  "a "
                  "drop-in replacement.", FutureWarning, stacklevel=2)
    if args is None:
        args = ()
    return _call(module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict)
