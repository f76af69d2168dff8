"""``biject_to`` and ``transform_to``: from a constraint to a transform whose codomain it is
(PyTorch's registries, with their registrations): ``biject_to(c)`` is a bijection (for HMC-
style reparameterisation: ``biject_to(c).inv(x)`` is unconstrained); ``transform_to(c)`` need
not be one (``simplex`` -> `SoftmaxTransform`).  Register more with ``.register``.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import biject_to, constraints
    >>> biject_to(constraints.unit_interval)(torch.tensor([0.0]))
    tensor([0.5000])
"""

from __future__ import annotations

import numbers

from . import constraints, transforms
from typing import Any

__all__ = ["ConstraintRegistry", "biject_to", "transform_to"]


class ConstraintRegistry:
    """Maps constraint types to factories ``factory(constraint) -> Transform``.

    Example::

        >>> from fgrad.torch.distributions import constraints
        >>> from fgrad.torch.distributions.constraint_registry import ConstraintRegistry
        >>> from fgrad.torch.distributions.transforms import ExpTransform
        >>> reg = ConstraintRegistry()
        >>> _ = reg.register(constraints.positive, lambda c: ExpTransform())
        >>> reg(constraints.positive)
        ExpTransform()
    """

    def __init__(self) -> None:
        self._registry: dict = {}
        super().__init__()

    def register(self, constraint: Any, factory: Any = None) -> Any:
        """Register ``factory`` for ``constraint``'s type (usable as a decorator)."""
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not isinstance(constraint, type) or not issubclass(constraint, constraints.Constraint):
            raise TypeError(f"Expected constraint to be either a Constraint subclass or instance, but got "
                            f"{constraint}")
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint: Any) -> Any:
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(
                f"Cannot transform {type(constraint).__name__} constraints") from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


def _real(constraint):
    return transforms.identity_transform


def _independent(constraint, registry):
    return transforms.IndependentTransform(registry(constraint.base_constraint),
                                           constraint.reinterpreted_batch_ndims)


def _greater_than(constraint):
    return transforms.ComposeTransform([transforms.ExpTransform(),
                                        transforms.AffineTransform(constraint.lower_bound, 1)])


def _less_than(constraint):
    return transforms.ComposeTransform([transforms.ExpTransform(),
                                        transforms.AffineTransform(constraint.upper_bound, -1)])


def _interval(constraint):
    lower_is_0 = isinstance(constraint.lower_bound, numbers.Number) and constraint.lower_bound == 0
    upper_is_1 = isinstance(constraint.upper_bound, numbers.Number) and constraint.upper_bound == 1
    if lower_is_0 and upper_is_1:
        return transforms.SigmoidTransform()
    loc = constraint.lower_bound
    scale = constraint.upper_bound - constraint.lower_bound
    return transforms.ComposeTransform([transforms.SigmoidTransform(),
                                        transforms.AffineTransform(loc, scale)])


for _registry in (biject_to, transform_to):
    _registry.register(constraints.real, _real)
    _registry.register(constraints.independent, lambda c, r=_registry: _independent(c, r))
    for _c in (constraints.positive, constraints.nonnegative, constraints.greater_than,
               constraints.greater_than_eq):
        _registry.register(_c, _greater_than)
    _registry.register(constraints.less_than, _less_than)
    for _c in (constraints.unit_interval, constraints.interval, constraints.half_open_interval):
        _registry.register(_c, _interval)
    _registry.register(constraints.corr_cholesky, lambda c: transforms.CorrCholeskyTransform())
    _registry.register(constraints.cat, lambda c, r=_registry: transforms.CatTransform(
        [r(part) for part in c.cseq], c.dim, c.lengths))
    _registry.register(constraints.stack, lambda c, r=_registry: transforms.StackTransform(
        [r(part) for part in c.cseq], c.dim))

biject_to.register(constraints.simplex, lambda c: transforms.StickBreakingTransform())
transform_to.register(constraints.simplex, lambda c: transforms.SoftmaxTransform())
transform_to.register(constraints.lower_cholesky, lambda c: transforms.LowerCholeskyTransform())
transform_to.register(constraints.positive_definite, lambda c: transforms.PositiveDefiniteTransform())
transform_to.register(constraints.positive_semidefinite, lambda c: transforms.PositiveDefiniteTransform())
