"""`fgrad.custom_derivatives`: the names of ``jax.custom_derivatives`` -- `custom_jvp`,
`custom_vjp`, `custom_gradient`, `closure_convert` (the same objects as ``fgrad.custom_jvp`` ...),
and the symbolic-zero types of their rules: `SymbolicZero`, `CustomVJPPrimal`,
`zero_from_primal`.

Example::

    >>> from fgrad.custom_derivatives import custom_jvp
    >>> import fgrad
    >>> custom_jvp is fgrad.custom_jvp
    True
"""

from __future__ import annotations

from .transforms.closure_convert import closure_convert
from .transforms.custom import (CustomVJPPrimal, SymbolicZero, custom_jvp, custom_vjp,
                                custom_vjp_primal_tree_values, zero_from_primal)
from .transforms.custom_call import custom_jvp_call_p, custom_vjp_call_p
from .transforms.custom_gradient import custom_gradient
from .transforms.linear_call import linear_call

__all__ = ["CustomVJPPrimal", "SymbolicZero", "closure_convert", "custom_gradient", "custom_jvp",
           "custom_jvp_call_p", "custom_vjp", "custom_vjp_call_p", "custom_vjp_primal_tree_values",
           "linear_call", "zero_from_primal"]
