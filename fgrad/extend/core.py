"""``jax.extend.core``: define your own primitives as JAX programs do.

``Primitive(name)`` with ``def_impl`` (how to compute on concrete arrays),
``def_abstract_eval`` (the result's `ShapedArray` from the inputs'), and derivative and
batching rules registered through `fgrad.interpreters` (``ad.primitive_jvps``,
``ad.primitive_transposes``, ``batching.primitive_batchers``, ``ad.defjvp`` ...).  Such a
primitive works eagerly and under ``jit``, ``grad``, ``jvp``, ``vmap`` and their compositions,
like fgrad's own primitives: it *is* an fgrad primitive (`fgrad.core.primitive.Primitive`)
whose rules are adapted from JAX's conventions (`ad.Zero` for symbolic-zero tangents and
cotangents; `batching.not_mapped`, None, for unbatched operands).  MLIR lowerings
(`fgrad.interpreters.mlir.register_lowering`) are accepted and not needed: under ``jit`` the
implementation runs as given.

Example::

    >>> import numpy as np
    >>> import fgrad
    >>> from fgrad.extend import core
    >>> double_p = core.Primitive("doc_double")
    >>> _ = double_p.def_impl(lambda x: np.multiply(x, 2.0))
    >>> _ = double_p.def_abstract_eval(lambda x: core.ShapedArray(x.shape, x.dtype))
    >>> fgrad.jit(double_p.bind)(3.0)
    Array(6., dtype=float64)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.array import ArrayImpl, ShapedArray, Tracer, wrap
from ..core.ir import ClosedJaxpr, Jaxpr, Literal, Var, eval_jaxpr
from ..core.primitive import PRIMITIVES
from ..core.trace import EVAL_TRACE, state
from ..core.primitive import Primitive as _CorePrimitive


def _as_buffer(x: Any, xp: Any) -> Any:
    if type(x) is ArrayImpl:
        return x._buf
    if isinstance(x, Tracer):
        raise TypeError("a primitive's def_impl returned a traced value: the implementation must compute "
                        "on concrete arrays (call other primitives with .bind only under its rules)")
    return xp.asarray(x)


class Primitive(_CorePrimitive):
    """A user-defined primitive (``jax.extend.core.Primitive``).

    Example::

        >>> from fgrad.extend import core
        >>> p = core.Primitive("doc_user_prim")
        >>> p.name, p.multiple_results
        ('doc_user_prim', False)
    """

    def __init__(self, name: str) -> None:
        super().__init__(name, self._missing_impl, self._missing_abstract_eval, family="user")
        self._user_impl: Callable[..., Any] | None = None
        self._user_abstract: Callable[..., Any] | None = None
        PRIMITIVES.pop(name, None)  # user names may repeat (JAX does not register them)

    @property
    def multiple_results(self) -> bool:
        return self.__dict__.get("_multiple_results", False)

    @multiple_results.setter
    def multiple_results(self, value: bool) -> None:
        self.__dict__["_multiple_results"] = bool(value)

    def _missing_impl(self, xp: Any, *bufs: Any, **params: Any) -> Any:
        raise NotImplementedError(f"Evaluation rule for '{self.name}' not implemented")

    def _missing_abstract_eval(self, *avals: Any, **params: Any) -> Any:
        raise NotImplementedError(f"Abstract evaluation for '{self.name}' not implemented")

    def bind(self, *args: Any, **params: Any) -> Any:
        """Apply the primitive: outside any transform, the implementation itself runs on the
        arguments as given and its result is returned as is (JAX's eager semantics)."""
        if state.trace is EVAL_TRACE and self._user_impl is not None and not any(
                isinstance(a, Tracer) for a in args):
            return self._user_impl(*args, **params)
        return super().bind(*args, **params)

    def def_impl(self, impl: Callable[..., Any]) -> Callable[..., Any]:
        """Set the implementation ``impl(*arrays, **params)`` (concrete inputs); returns ``impl``."""
        self._user_impl = impl

        def run(xp: Any, *bufs: Any, **params: Any) -> Any:
            out = impl(*[wrap(b) for b in bufs], **params)
            if self.multiple_results:
                return [_as_buffer(o, xp) for o in out]
            return _as_buffer(out, xp)

        self.impl = run
        return impl

    def def_abstract_eval(self, abstract_eval: Callable[..., Any]) -> Callable[..., Any]:
        """Set ``abstract_eval(*avals, **params)`` returning the output's `ShapedArray`(s)."""
        self._user_abstract = abstract_eval

        def shaped(*avals: Any, **params: Any) -> Any:
            out = abstract_eval(*avals, **params)
            if self.multiple_results:
                return [ShapedArray(o.shape, np.dtype(o.dtype)) for o in out]
            return ShapedArray(out.shape, np.dtype(out.dtype))

        self.abstract_eval = shaped
        return abstract_eval

    def def_effectful_abstract_eval(self, effectful_abstract_eval: Callable[..., Any]) -> Callable[..., Any]:
        """As `def_abstract_eval` for a rule returning ``(avals, effects)`` (effects ignored)."""
        self.def_abstract_eval(lambda *a, **p: effectful_abstract_eval(*a, **p)[0])
        return effectful_abstract_eval


def jaxpr_as_fun(closed_jaxpr: ClosedJaxpr, *args: Any) -> Any:
    """Evaluate a closed jaxpr as a function (``jax.extend.core.jaxpr_as_fun``); with only the
    jaxpr, a function of its inputs.

    Example::

        >>> import fgrad
        >>> from fgrad.extend.core import jaxpr_as_fun
        >>> cj = fgrad.make_jaxpr(lambda x: x * 2.0)(1.0)
        >>> jaxpr_as_fun(cj)(3.0)
        [Array(6., dtype=float64, weak_type=True)]
    """
    def fun(*a: Any) -> list:
        return eval_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.consts, a)

    return fun(*args) if args else fun


__all__ = ["ClosedJaxpr", "Jaxpr", "Literal", "Primitive", "ShapedArray", "Var", "jaxpr_as_fun"]
