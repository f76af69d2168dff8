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

from .transforms.jit import Compiled, Lowered, Traced, Wrapped

__all__ = ["Compiled", "Lowered", "Traced", "Wrapped"]
