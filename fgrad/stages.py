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

import typing as _typing

from .transforms.jit import ArgInfo, Compiled, Lowered, Traced, Wrapped

__all__ = ["ArgInfo", "Compiled", "CompilerOptions", "Lowered", "Traced", "Wrapped"]

# the options ``Lowered.compile(compiler_options=...)`` takes (JAX's ``jax.stages.CompilerOptions``:
# XLA flag names to values; fgrad's compiler has no XLA flags and ignores them)
CompilerOptions = dict[str, _typing.Any]
