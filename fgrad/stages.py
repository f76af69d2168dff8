"""`fgrad.stages` (JAX's ``jax.stages``): the types of the stages a `jit`-wrapped function goes
through — `Wrapped` (the function ``jit`` returns), `Traced` (``.trace(*args)``), `Lowered`
(``.lower(*args)``) and `Compiled` (``.lower(*args).compile()``).

Example::

    >>> import fgrad, fgrad.stages as stages
    >>> f = fgrad.jit(lambda x: x * 2)
    >>> isinstance(f, stages.Wrapped), isinstance(f.trace(1.0), stages.Traced)
    (True, True)
    >>> compiled = f.lower(1.0).compile()
    >>> isinstance(compiled, stages.Compiled), compiled(3.0)
    (True, Array(6., dtype=float64, weak_type=True))
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .transforms.jit import Compiled, Lowered, Traced, Wrapped

__all__ = ["ArgInfo", "Compiled", "Lowered", "Traced", "Wrapped"]


@dataclasses.dataclass(frozen=True)
class ArgInfo:
    """An argument's abstract value and whether it is donated (JAX's ``jax.stages.ArgInfo``,
    what ``Lowered.args_info`` holds per argument).

    Example::

        >>> import fgrad, numpy as np
        >>> info = ArgInfo(fgrad.ShapedArray((2,), np.float32), False)
        >>> info.shape, info.dtype, info.donated
        ((2,), dtype('float32'), False)
    """

    _aval: Any
    donated: bool

    @property
    def shape(self) -> tuple:
        return self._aval.shape

    @property
    def dtype(self) -> Any:
        return self._aval.dtype
