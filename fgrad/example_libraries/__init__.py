"""`fgrad.example_libraries`: the small neural-network libraries of ``jax.example_libraries``,
written against their documented behaviour: `optimizers` (first-order optimizers over
pytrees, as ``(init, update, get_params)`` triples) and `stax` (layers as
``(init_fun, apply_fun)`` pairs and combinators).

Example::

    >>> from fgrad.example_libraries import optimizers, stax
    >>> init_fun, apply_fun = stax.serial(stax.Dense(4), stax.Relu)
"""

from . import optimizers, stax

__all__ = ["optimizers", "stax"]
