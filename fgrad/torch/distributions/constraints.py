"""``torch.distributions.constraints``: the sets a parameter or a sample must lie in.

A constraint's ``check(value)`` returns a bool tensor over the batch (event dimensions
reduced); ``is_discrete`` and ``event_dim`` describe the set.  Names and reprs are PyTorch's.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import constraints
    >>> constraints.positive.check(torch.tensor([1.0, -1.0]))
    tensor([ True, False])
"""

from __future__ import annotations

import fgrad.torch as torch
from collections.abc import Callable
from fgrad.torch.types import Tensor
from typing import Any

__all__ = [
    "Constraint",
    "boolean",
    "cat",
    "corr_cholesky",
    "dependent",
    "dependent_property",
    "greater_than",
    "greater_than_eq",
    "half_open_interval",
    "independent",
    "integer_interval",
    "interval",
    "is_dependent",
    "less_than",
    "lower_cholesky",
    "lower_triangular",
    "multinomial",
    "nonnegative",
    "nonnegative_integer",
    "one_hot",
    "positive",
    "positive_definite",
    "positive_integer",
    "positive_semidefinite",
    "real",
    "real_vector",
    "simplex",
    "square",
    "stack",
    "symmetric",
    "unit_interval",
]


class Constraint:
    """A region of the reals (see the module docstring).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.constraints import is_dependent, dependent, real, interval
        >>> interval(0.0, 1.0)
        Interval(lower_bound=0.0, upper_bound=1.0)
    """

    is_discrete = False
    event_dim = 0

    def check(self, value: Tensor | float) -> Tensor:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.__class__.__name__[1:] + "()"


class _Dependent(Constraint):
    """A placeholder for a support that depends on other parameters (not checked).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> c = constraints.dependent(is_discrete=True, event_dim=1); c.is_discrete, c.event_dim
        (True, 1)
    """

    def __init__(self, *, is_discrete: bool | None = NotImplemented,
                 event_dim: int | None = NotImplemented) -> None:
        self._is_discrete = is_discrete
        self._event_dim = event_dim
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        if self._is_discrete is NotImplemented:
            raise NotImplementedError(".is_discrete cannot be determined statically")
        return self._is_discrete

    @property
    def event_dim(self) -> int:
        if self._event_dim is NotImplemented:
            raise NotImplementedError(".event_dim cannot be determined statically")
        return self._event_dim

    def __call__(self, *, is_discrete: Any = NotImplemented, event_dim: int = NotImplemented) -> Any:
        return _Dependent(is_discrete=is_discrete, event_dim=event_dim)

    def check(self, x: Tensor) -> Tensor:
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint: Any) -> bool:
    """Whether ``constraint`` is a `dependent` placeholder.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.constraints import is_dependent, dependent, real, interval
        >>> is_dependent(dependent), is_dependent(real)
        (True, False)
    """
    return isinstance(constraint, _Dependent)


class _DependentProperty(property, _Dependent):
    """A property whose value is a constraint depending on the distribution's parameters.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> class Box(torch.distributions.Distribution):
        ...     def __init__(self, high):
        ...         self.high = high
        ...         super().__init__(validate_args=False)
        ...     @constraints.dependent_property(is_discrete=False, event_dim=0)
        ...     def support(self):
        ...         return constraints.interval(0.0, self.high)
        ...
        >>> Box(2.0).support.check(torch.tensor([1.0, 3.0]))
        tensor([ True, False])
    """

    def __init__(self, fn: Callable[..., Any] | None = None, *, is_discrete: bool | None = NotImplemented,
                 event_dim: int | None = NotImplemented) -> None:
        property.__init__(self, fn)
        self._is_discrete = is_discrete
        self._event_dim = event_dim

    def __call__(self, fn: Callable[..., Any]) -> Any:
        return _DependentProperty(fn, is_discrete=self._is_discrete, event_dim=self._event_dim)


class _IndependentConstraint(Constraint):
    """``base_constraint`` over ``reinterpreted_batch_ndims`` more event dimensions.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> c = constraints.independent(constraints.positive, 1)
        >>> c.event_dim, c.check(torch.tensor([[1.0, 2.0], [1.0, -2.0]]))
        (1, tensor([ True, False]))
    """

    def __init__(self, base_constraint: Constraint, reinterpreted_batch_ndims: int) -> None:
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value: Tensor | float) -> Tensor:
        result = self.base_constraint.check(value)
        if result.dim() < self.reinterpreted_batch_ndims:
            expected = self.base_constraint.event_dim + self.reinterpreted_batch_ndims
            raise ValueError(f"Expected value.dim() >= {expected} but got {value.dim()}")
        result = result.reshape(result.shape[: result.dim() - self.reinterpreted_batch_ndims] + (-1,))
        return result.all(-1)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__[1:]}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _OneHot(Constraint):
    is_discrete = True
    event_dim = 1

    def check(self, value):
        is_boolean = (value == 0) | (value == 1)
        is_normalized = value.sum(-1).eq(1)
        return is_boolean.all(-1) & is_normalized


class _IntegerInterval(Constraint):
    """Integers in ``[lower_bound, upper_bound]`` (a discrete constraint).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> c = constraints.integer_interval(0, 3)
        >>> c.is_discrete, c.check(torch.tensor([0.0, 2.0, 2.5, 4.0]))
        (True, tensor([ True,  True, False, False]))
    """
    is_discrete = True

    def __init__(self, lower_bound: float | Tensor, upper_bound: float | Tensor) -> None:
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        super().__init__()

    def check(self, value: Tensor | float) -> Tensor:
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__name__[1:]}(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"
        )


class _IntegerGreaterThan(Constraint):
    is_discrete = True

    def __init__(self, lower_bound) -> None:
        self.lower_bound = lower_bound
        super().__init__()

    def check(self, value):
        return (value % 1 == 0) & (value >= self.lower_bound)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__[1:]}(lower_bound={self.lower_bound})"


class _Real(Constraint):
    def check(self, value):
        return value == value  # False for NaN


class _GreaterThan(Constraint):
    """Real numbers above ``lower_bound`` (``constraints.greater_than(lower_bound)``).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> constraints.greater_than(1.0).check(torch.tensor([0.5, 1.0, 2.0]))
        tensor([False, False,  True])
    """
    def __init__(self, lower_bound: float | Tensor) -> None:
        self.lower_bound = lower_bound
        super().__init__()

    def check(self, value: Tensor | float) -> Tensor:
        return self.lower_bound < value

    def __repr__(self) -> str:
        return f"{self.__class__.__name__[1:]}(lower_bound={self.lower_bound})"


class _GreaterThanEq(_GreaterThan):
    """Real numbers at or above ``lower_bound``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> constraints.greater_than_eq(1.0).check(torch.tensor([0.5, 1.0, 2.0]))
        tensor([False,  True,  True])
    """
    def check(self, value: Tensor | float) -> Tensor:
        return self.lower_bound <= value


class _LessThan(Constraint):
    """Real numbers below ``upper_bound``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> constraints.less_than(1.0).check(torch.tensor([0.5, 1.0, 2.0]))
        tensor([ True, False, False])
    """
    def __init__(self, upper_bound: float | Tensor) -> None:
        self.upper_bound = upper_bound
        super().__init__()

    def check(self, value: Tensor | float) -> Tensor:
        return value < self.upper_bound

    def __repr__(self) -> str:
        return f"{self.__class__.__name__[1:]}(upper_bound={self.upper_bound})"


class _Interval(Constraint):
    """Real numbers in the closed interval ``[lower_bound, upper_bound]``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> constraints.interval(0.0, 1.0).check(torch.tensor([-0.5, 0.0, 1.0, 1.5]))
        tensor([False,  True,  True, False])
    """
    def __init__(self, lower_bound: float | Tensor, upper_bound: float | Tensor) -> None:
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        super().__init__()

    def check(self, value: Tensor | float) -> Tensor:
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__name__[1:]}(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"
        )


class _HalfOpenInterval(_Interval):
    """Real numbers in ``[lower_bound, upper_bound)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> constraints.half_open_interval(0.0, 1.0).check(torch.tensor([0.0, 0.5, 1.0]))
        tensor([ True,  True, False])
    """
    def check(self, value: Tensor | float) -> Tensor:
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return torch.all(value >= 0, dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _LowerCholesky(Constraint):
    event_dim = 2

    def check(self, value):
        value_tril = value.tril()
        lower_triangular = (value_tril == value).reshape(value.shape[:-2] + (-1,)).min(-1)[0]
        positive_diagonal = (value.diagonal(dim1=-2, dim2=-1) > 0).min(-1)[0]
        return lower_triangular & positive_diagonal


class _PositiveDefinite(Constraint):
    event_dim = 2

    def check(self, value):
        symmetric = torch.isclose(value, value.mT, atol=1e-6).all(-1).all(-1)
        if not bool(symmetric.all()):
            return symmetric
        return torch.linalg.eigvalsh(value).gt(0).all(-1)


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value):
        value_tril = value.tril()
        return (value_tril == value).reshape(value.shape[:-2] + (-1,)).min(-1)[0]


class _CorrCholesky(Constraint):
    """Lower Cholesky factors of correlation matrices: unit-norm rows, positive diagonal."""

    event_dim = 2

    def check(self, value):
        tol = torch.finfo(value.dtype).eps * value.size(-1) * 10
        row_norm = torch.linalg.norm(value.detach(), dim=-1)
        unit_row_norm = (row_norm - 1.0).abs().le(tol).all(dim=-1)
        return lower_cholesky.check(value) & unit_row_norm


class _Square(Constraint):
    event_dim = 2

    def check(self, value):
        return torch.full(size=value.shape[:-2], fill_value=(value.shape[-2] == value.shape[-1]),
                          dtype=torch.bool, device=value.device)


class _Symmetric(_Square):
    def check(self, value):
        square_check = super().check(value)
        if not bool(square_check.all()):
            return square_check
        return torch.isclose(value, value.mT, atol=1e-6).all(-2).all(-1)


class _PositiveSemidefinite(_Symmetric):
    def check(self, value):
        sym_check = super().check(value)
        if not bool(sym_check.all()):
            return sym_check
        return torch.linalg.eigvalsh(value).ge(0).all(-1)


class _Multinomial(Constraint):
    """Nonnegative integer vectors summing to at most ``upper_bound`` (PyTorch's check).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> constraints.multinomial(3).check(torch.tensor([[1.0, 2.0], [2.0, 2.0]]))
        tensor([ True, False])
    """

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound: float | Tensor) -> None:
        self.upper_bound = upper_bound

    def check(self, x: Tensor) -> Tensor:
        return (x >= 0).all(dim=-1) & (x.sum(dim=-1) <= self.upper_bound)


class _Cat(Constraint):
    """``cseq[i]`` on the ``lengths[i]`` slices of dimension ``dim`` (for `CatTransform`).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> c = constraints.cat([constraints.positive, constraints.real], dim=0, lengths=[1, 1])
        >>> c.check(torch.tensor([1.0, -1.0])), c.check(torch.tensor([-1.0, 1.0]))
        (tensor([True, True]), tensor([False,  True]))
    """

    def __init__(self, cseq: Any, dim: int = 0, lengths: list[int] | None = None) -> None:
        self.cseq = list(cseq)
        self.lengths = [1] * len(self.cseq) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.cseq):
            raise ValueError("cat: one length per constraint")
        self.dim = dim
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self) -> int:
        return max(c.event_dim for c in self.cseq)

    def check(self, value: Tensor | float) -> Tensor:
        checks = []
        start = 0
        for constr, length in zip(self.cseq, self.lengths):
            checks.append(constr.check(value.narrow(self.dim, start, length)))
            start += length
        return torch.cat(checks, self.dim)


class _Stack(Constraint):
    """``cseq[i]`` on index ``i`` of dimension ``dim`` (for `StackTransform`).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import constraints
        >>> c = constraints.stack([constraints.positive, constraints.real], dim=0)
        >>> c.check(torch.tensor([1.0, -1.0])), c.check(torch.tensor([-1.0, 1.0]))
        (tensor([True, True]), tensor([False,  True]))
    """

    def __init__(self, cseq: Any, dim: int = 0) -> None:
        self.cseq = list(cseq)
        self.dim = dim
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self) -> int:
        dim = max(c.event_dim for c in self.cseq)
        if self.dim + dim < 0:
            dim += 1
        return dim

    def check(self, value: Tensor | float) -> Tensor:
        vs = [value.select(self.dim, i) for i in range(value.size(self.dim))]
        return torch.stack([constr.check(v) for v, constr in zip(vs, self.cseq)], self.dim)


dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
boolean = _Boolean()
one_hot = _OneHot()
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
integer_interval = _IntegerInterval
real = _Real()
real_vector = independent(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
unit_interval = _Interval(0.0, 1.0)
interval = _Interval
half_open_interval = _HalfOpenInterval
simplex = _Simplex()
lower_cholesky = _LowerCholesky()
lower_triangular = _LowerTriangular()
corr_cholesky = _CorrCholesky()
square = _Square()
symmetric = _Symmetric()
positive_semidefinite = _PositiveSemidefinite()
positive_definite = _PositiveDefinite()
multinomial = _Multinomial
cat = _Cat
stack = _Stack
