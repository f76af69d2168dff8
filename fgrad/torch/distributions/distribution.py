"""`Distribution`, the base of ``torch.distributions``, and the helpers the distributions
share: broadcasting parameters (`broadcast_all`), probabilities and logits
(`probs_to_logits`, `logits_to_probs`, `clamp_probs`), `lazy_property`, summing rightmost
dimensions, and `scipy_op`, which applies an ``fgrad.scipy.stats`` density (or any fgrad
definition) to tensors as one recorded op -- so a log-density is written once, in
``fgrad.scipy.stats``, for both faces.

Sampling draws from ``fgrad.torch``'s global generator with PyTorch's CPU algorithms, so
after ``torch.manual_seed`` the samples are PyTorch's (gamma, Dirichlet, Poisson and binomial
through ``torch._standard_gamma``, ``_sample_dirichlet``, ``poisson`` and ``binomial``).
`fgrad_key` draws an ``fgrad.random`` key from that generator for samplers built on
``fgrad.random``.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import Normal
    >>> Normal(0.0, 1.0).log_prob(torch.tensor(0.0))
    tensor(-0.9189)
"""

from __future__ import annotations

import numbers
import warnings

import fgrad.random as frandom
import fgrad.torch as torch
from fgrad.torch._dispatch import apply_op
from fgrad.torch._tensor import Tensor
from fgrad.core.trace import ConcretizationError
from fgrad.transforms.batching import every_example_true

from . import constraints
from collections.abc import Callable
from fgrad.torch.types import SizeLike
from typing import Any

__all__ = [
    "Distribution",
    "broadcast_all",
    "clamp_probs",
    "lazy_property",
    "logits_to_probs",
    "probs_to_logits",
    "tril_matrix_to_vec",
    "vec_to_tril_matrix",
]


class lazy_property:  # noqa: N801 (PyTorch's name)
    """A property computed on first access and then stored on the instance.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.utils import lazy_property
        >>> class Box:
        ...     @lazy_property
        ...     def value(self):
        ...         print('computed')
        ...         return 3
        ...
        >>> b = Box(); b.value
        computed
        3
        >>> b.value
        3
    """

    def __init__(self, wrapped: Callable[[Any], Any]) -> None:
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def broadcast_all(*values: Tensor | float) -> tuple[Tensor, ...]:
    """Tensors and numbers broadcast to one shape (numbers become tensors of the tensors'
    dtype, or the default dtype).

    Example::

        >>> import fgrad.torch as torch
        >>> [t.shape for t in broadcast_all(torch.zeros(2, 1), 1.0)]
        [torch.Size([2, 1]), torch.Size([2, 1])]
    """
    if not all(isinstance(v, (Tensor, numbers.Number)) for v in values):
        raise ValueError(
            "Input arguments must all be instances of numbers.Number, torch.Tensor or objects "
            "implementing __torch_function__."
        )
    if not all(isinstance(v, Tensor) for v in values):
        like = next((v for v in values if isinstance(v, Tensor)), None)
        dtype = like.dtype if like is not None else torch.get_default_dtype()
        device = like.device if like is not None else None
        values = tuple(
            v if isinstance(v, Tensor) else torch.tensor(v, dtype=dtype, device=device) for v in values
        )
    return tuple(torch.broadcast_tensors(*values))


def clamp_probs(probs: Tensor) -> Tensor:
    """Probabilities clamped into ``[eps, 1 - eps]`` (eps of their dtype).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.distribution import clamp_probs
        >>> clamp_probs(torch.tensor([0.0, 0.5])).tolist()[1]
        0.5
    """
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """``log p`` (categorical) or ``log p - log(1 - p)`` (binary), of clamped probabilities.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.distribution import probs_to_logits
        >>> probs_to_logits(torch.tensor([0.5]), is_binary=True)
        tensor([0.])
    """
    ps = clamp_probs(probs)
    return torch.log(ps) - torch.log1p(-ps) if is_binary else torch.log(ps)


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """``sigmoid`` (binary) or ``softmax`` over the last dimension.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.distribution import logits_to_probs
        >>> logits_to_probs(torch.tensor([0.0]), is_binary=True)
        tensor([0.5000])
    """
    return torch.sigmoid(logits) if is_binary else torch.softmax(logits, dim=-1)


def sum_rightmost(value: Tensor | float, dim: int) -> Tensor:
    """Sum over the ``dim`` rightmost dimensions.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.distribution import sum_rightmost
        >>> sum_rightmost(torch.ones(2, 3), 1)
        tensor([3., 3.])
    """
    return value if dim == 0 else value.reshape(value.shape[: value.dim() - dim] + (-1,)).sum(-1)


def scipy_op(name: str, fn, *tensors: Tensor) -> Tensor:
    """``fn`` (an fgrad definition, e.g. an ``fgrad.scipy.stats`` log-density; module level,
    so it keys the backward-program cache) applied to ``tensors`` as one recorded op.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.distribution import scipy_op
        >>> scipy_op('NormLogPdf', __import__('fgrad').scipy.stats.norm.logpdf, torch.tensor([0.0]))
        tensor([-0.9189])
    """
    return apply_op(name, (fn.__module__, fn.__qualname__), fn, tensors)


def fgrad_key():
    """An ``fgrad.random`` key drawn from ``fgrad.torch``'s global generator.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.distribution import fgrad_key
        >>> type(fgrad_key()).__name__
        'PRNGKeyArray'
    """
    return frandom.key(int(torch.randint(0, 2**31 - 1, ()).item()))


_VMAP_ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling "
              ".item() on a Tensor, please try to rewrite what you're doing with other operations. If error "
              "is occurring somewhere inside PyTorch internals, please file a bug report.")


def _all_valid(valid: Tensor) -> bool:
    """Whether a constraint holds everywhere: under ``torch.func.vmap`` in every example (PyTorch's
    ``torch._is_all_true``), a violation then refused with PyTorch's vmap message."""
    try:
        return bool(valid.all())
    except ConcretizationError:
        if every_example_true(valid._buf):  # (a staged value refuses here as bool() did)
            return True
        raise RuntimeError(_VMAP_ITEM) from None


class Distribution:
    """The base class: batch and event shapes, argument validation, and the interface
    (``sample``/``rsample``, ``log_prob``, ``cdf``/``icdf``, ``entropy``, ``mean``, ``mode``,
    ``variance``, ``stddev``, ``expand``...).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.distribution import Distribution
        >>> Distribution(torch.Size([2]), validate_args=False).batch_shape
        torch.Size([2])
    """

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Turn argument (and sample) validation on or off for new instances."""
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape: SizeLike = (), event_shape: SizeLike = (),
                 validate_args: bool | None = None) -> None:
        self._batch_shape = torch.Size(batch_shape)
        self._event_shape = torch.Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            try:
                arg_constraints = self.arg_constraints
            except NotImplementedError:
                arg_constraints = {}
                warnings.warn(
                    f"{self.__class__} does not define `arg_constraints`. Please set "
                    f"`arg_constraints = {{}}` "
                    "or initialize the distribution with `validate_args=False` to turn off "
                    "validation.",
                    stacklevel=2,
                )
            for param, constraint in arg_constraints.items():
                if constraints.is_dependent(constraint):
                    continue
                if param not in self.__dict__ and isinstance(getattr(type(self), param, None), lazy_property):
                    continue  # skip checking lazily-constructed args
                value = getattr(self, param)
                valid = constraint.check(value)
                if not _all_valid(valid):
                    raise ValueError(
                        f"Expected parameter {param} ({type(value).__name__} of shape {tuple(value.shape)}) "
                        "of "
                        f"distribution {self!r} to satisfy the constraint {constraint!r}, but found invalid "
                        f"values:\n{value}"
                    )
        super().__init__()

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        """A view of the distribution with a larger batch shape."""
        raise NotImplementedError

    @property
    def batch_shape(self) -> SizeLike:
        return self._batch_shape

    @property
    def event_shape(self) -> SizeLike:
        return self._event_shape

    @property
    def arg_constraints(self) -> dict:
        raise NotImplementedError

    @property
    def support(self) -> Any:
        raise NotImplementedError

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError(f"{self.__class__} does not implement mean")

    @property
    def mode(self) -> Tensor:
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError(f"{self.__class__} does not implement variance")

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def sample(self, sample_shape: SizeLike = ()) -> Tensor:
        """A sample (no gradient), shaped ``sample_shape + batch_shape + event_shape``."""
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        """A reparameterised sample (differentiable in the parameters)."""
        raise NotImplementedError

    def sample_n(self, n: int) -> Tensor:
        """Deprecated: ``sample((n,))``."""
        warnings.warn("sample_n will be deprecated. Use .sample((n,)) instead", UserWarning, stacklevel=2)
        return self.sample(torch.Size((n,)))

    def log_prob(self, value: Tensor | float) -> Tensor:
        raise NotImplementedError

    def cdf(self, value: Tensor | float) -> Tensor:
        raise NotImplementedError

    def icdf(self, value: Tensor | float) -> Tensor:
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Tensor:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        return torch.exp(self.entropy())

    def _extended_shape(self, sample_shape=()):
        if not isinstance(sample_shape, torch.Size):
            sample_shape = torch.Size(sample_shape)
        return torch.Size(sample_shape + self._batch_shape + self._event_shape)

    def _validate_sample(self, value) -> None:
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim_start = value.dim() - len(self._event_shape)
        if value.shape[event_dim_start:] != self._event_shape:
            raise ValueError(
                f"The right-most size of value must match event_shape: {value.size()} vs {self._event_shape}."
            )
        actual_shape = value.size()
        expected_shape = self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual_shape), reversed(expected_shape)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(
                    f"Value is not broadcastable with batch_shape+event_shape: {actual_shape} "
                    "vs "
                    f"{expected_shape}."
                )
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(
                f"{self.__class__} does not define `support` to enable sample validation. Please "
                "initialize the distribution with `validate_args=False` to turn off validation.",
                stacklevel=2,
            )
            return
        valid = support.check(value)
        if not _all_valid(valid):
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to be "
                "within the "
                f"support ({support!r}) of the distribution {self!r}, but found invalid values:\n{value}"
            )

    def _get_checked_instance(self, cls, _instance=None):
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom __init__ "
                "method must "
                "also define a custom .expand() method."
            )
        return self.__new__(type(self)) if _instance is None else _instance

    def __repr__(self) -> str:
        param_names = [k for k, _ in self.arg_constraints.items() if k in self.__dict__]
        args_string = ", ".join(
            f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
            for p in param_names
        )
        return self.__class__.__name__ + "(" + args_string + ")"


class ExponentialFamily(Distribution):
    """Marker base of the exponential-family distributions (PyTorch's class).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.distributions.Normal(0.0, 1.0), torch.distributions.ExponentialFamily)
        True

    A subclass that gives its natural parameters ``theta``, log normalizer ``F(theta)`` and
    mean carrier measure ``E[k(x)]`` gets PyTorch's entropy by the Bregman identity
    ``H = F(theta) - <theta, grad F(theta)> - E[k(x)]`` (``grad F`` by autograd), and the KL
    divergence between two members of the family (``kl_divergence``).
    """

    @property
    def _natural_params(self) -> tuple:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params: Tensor) -> Tensor:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> Tensor | float:
        raise NotImplementedError

    def _log_normalizer_and_gradient(self) -> tuple[list, Tensor, tuple]:
        """``(theta, F(theta), grad F(theta))``: the natural parameters (detached, requiring
        grad), the log normalizer at them and its gradient (differentiable: ``create_graph``),
        what the entropy and the family's KL divergence are built from."""
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        log_normalizer = self._log_normalizer(*nparams)
        return nparams, log_normalizer, torch.autograd.grad(log_normalizer.sum(), nparams, create_graph=True)

    def entropy(self) -> Tensor:
        nparams, log_normalizer, grads = self._log_normalizer_and_gradient()
        result = log_normalizer - self._mean_carrier_measure
        for theta, g in zip(nparams, grads):
            result = result - (theta * g).reshape(self._batch_shape + (-1,)).sum(-1)
        return result


def _tril_mask(n: int, diag: int):
    arange = torch.arange(n)
    return arange < arange.view(-1, 1) + (diag + 1)


def vec_to_tril_matrix(vec: Tensor, diag: int = 0) -> Tensor:
    """The lower triangle (from diagonal ``diag``) of square matrices filled row by row from
    the last dimension of ``vec``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.utils import vec_to_tril_matrix
        >>> vec_to_tril_matrix(torch.tensor([1.0, 2.0, 3.0]))
        tensor([[1., 0.],
                [2., 3.]])
    """
    m = vec.shape[-1]
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * m + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if abs(round(n) - n) >= torch.finfo(vec.dtype).eps:  # PyTorch's one-sided test passes 4
        raise ValueError(f"The size of last dimension is {m} which cannot be expressed as the "
                         "lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(vec.shape[:-1] + torch.Size((n, n)))
    mat[..., _tril_mask(n, diag)] = vec
    return mat


def tril_matrix_to_vec(mat: Tensor, diag: int = 0) -> Tensor:
    """The lower triangle (from diagonal ``diag``) of square matrices, row by row.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.utils import tril_matrix_to_vec
        >>> tril_matrix_to_vec(torch.tensor([[1.0, 0.0], [2.0, 3.0]]))
        tensor([1., 2., 3.])
    """
    n = mat.shape[-1]
    if not (-n <= diag < n):
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag)]


class BinaryProbsLogits:
    """Mixin for distributions given by a success probability ``probs`` or its ``logits``
    (one of the two): parses them (`_set_probs_or_logits`), derives the other lazily, and
    expands whichever is set (`_expand_probs_or_logits`).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Bernoulli
        >>> Bernoulli(logits=torch.tensor([0.0])).probs
        tensor([0.5000])
    """

    def _set_probs_or_logits(self, probs, logits) -> torch.Size:
        """Store ``probs`` or ``logits`` (exactly one given) as a tensor; the batch shape."""
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        (value,) = broadcast_all(given)
        setattr(self, "probs" if probs is not None else "logits", value)
        self._param = value
        return torch.Size() if isinstance(given, numbers.Number) else value.size()

    def _expand_probs_or_logits(self, new, batch_shape) -> None:
        for name in ("probs", "logits"):
            if name in self.__dict__:
                setattr(new, name, getattr(self, name).expand(batch_shape))
                new._param = getattr(new, name)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self) -> SizeLike:
        return self._param.size()
