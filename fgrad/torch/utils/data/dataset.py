"""Datasets: `Dataset`, `IterableDataset`, `TensorDataset`, `ConcatDataset`, `Subset`,
`random_split`.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.utils.data import TensorDataset
    >>> ds = TensorDataset(torch.arange(6.).view(3, 2), torch.tensor([0, 1, 0]))
    >>> ds[1]
    (tensor([2., 3.]), tensor(1))
"""

from __future__ import annotations

import bisect
import math
import warnings
from itertools import accumulate
from typing import Any, Generic, Iterable, Sequence, TypeVar

import fgrad.torch as torch
from fgrad.torch._tensor import Tensor
from fgrad.torch._random import Generator

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ConcatDataset", "Subset", "random_split",
           "StackDataset", "ChainDataset"]

T_co = TypeVar("T_co", covariant=True)


class Dataset(Generic[T_co]):
    """A map-style dataset: subclasses define ``__getitem__`` (and usually ``__len__``).

    Example::

        >>> import fgrad.torch as torch
        >>> class Squares(torch.utils.data.Dataset):
        ...     def __len__(self):
        ...         return 3
        ...     def __getitem__(self, i):
        ...         return i * i
        >>> list(torch.utils.data.DataLoader(Squares(), batch_size=2))
        [tensor([0, 1]), tensor([4])]
    """

    def __getitem__(self, index: Any) -> T_co:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: "Dataset[T_co]") -> "ConcatDataset[T_co]":
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co]):
    """A dataset that is an iterable of samples (``__iter__``).

    Example::

        >>> import fgrad.torch as torch
        >>> class Count(torch.utils.data.IterableDataset):
        ...     def __iter__(self):
        ...         return iter(range(3))
        >>> list(torch.utils.data.DataLoader(Count(), batch_size=2))
        [tensor([0, 1]), tensor([2])]
    """

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Samples are tuples ``(t[i] for t in tensors)``; all tensors share their first size.

    Example::

        >>> import fgrad.torch as torch
        >>> ds = torch.utils.data.TensorDataset(torch.tensor([1.0, 2.0]), torch.tensor([0, 1]))
        >>> len(ds), ds[1]
        (2, (tensor(2.), tensor(1)))
    """

    def __init__(self, *tensors: Tensor) -> None:
        if not all(tensors[0].size(0) == t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple[Tensor, ...]:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class StackDataset(Dataset):
    """Samples are tuples (or dicts) of the samples of several datasets of equal length.

    Example::

        >>> import fgrad.torch as torch
        >>> ds = torch.utils.data.StackDataset(x=torch.tensor([1.0, 2.0]), y=[10, 20])
        >>> len(ds), ds[0]
        (2, {'x': tensor(1.), 'y': 10})
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args:
            if kwargs:
                raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) "
                                 "like "
                                 "input/output, but both types are given.")
            self._length = len(args[0])
            if any(self._length != len(d) for d in args):
                raise ValueError("Size mismatch between datasets")
            self.datasets = args
        elif kwargs:
            tmp = list(kwargs.values())
            self._length = len(tmp[0])
            if any(self._length != len(d) for d in tmp):
                raise ValueError("Size mismatch between datasets")
            self.datasets = kwargs
        else:
            raise ValueError("At least one dataset should be passed")

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __len__(self) -> int:
        return self._length


class ConcatDataset(Dataset[T_co]):
    """The concatenation of several map-style datasets.

    Example::

        >>> import fgrad.torch as torch
        >>> ds = torch.utils.data.ConcatDataset([[1, 2], [3]])
        >>> len(ds), ds[2], ds.cumulative_sizes
        (3, 3, [2, 3])
    """

    @staticmethod
    def cumsum(sequence: Any) -> Any:
        r, s = [], 0
        for e in sequence:
            s += len(e)
            r.append(s)
        return r

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        dataset_idx = bisect.bisect_right(self.cumulative_sizes, idx)
        sample_idx = idx if dataset_idx == 0 else idx - self.cumulative_sizes[dataset_idx - 1]
        return self.datasets[dataset_idx][sample_idx]


class ChainDataset(IterableDataset):
    """The chaining of several iterable datasets.

    Example::

        >>> import fgrad.torch as torch
        >>> class Count(torch.utils.data.IterableDataset):
        ...     def __init__(self, n):
        ...         self.n = n
        ...     def __iter__(self):
        ...         return iter(range(self.n))
        >>> list(torch.utils.data.ChainDataset([Count(2), Count(3)]))
        [0, 1, 0, 1, 2]
    """

    def __init__(self, datasets: Iterable[Any]) -> None:
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            yield from d

    def __len__(self) -> int:
        return sum(len(d) for d in self.datasets)


class Subset(Dataset[T_co]):
    """The samples of ``dataset`` at ``indices``.

    Example::

        >>> import fgrad.torch as torch
        >>> s = torch.utils.data.Subset(['a', 'b', 'c', 'd'], [3, 0])
        >>> len(s), s[0], list(s)
        (2, 'd', ['d', 'a'])
    """

    def __init__(self, dataset: Dataset[T_co] | Sequence[Any], indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices):
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[idx] for idx in indices])
        return [self.dataset[self.indices[idx]] for idx in indices]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset: Any, lengths: Sequence[int | float],
                 generator: Generator | None = None) -> list[Subset]:
    """Split ``dataset`` into non-overlapping random subsets of the given lengths (or
    fractions summing to 1, rounded down with the remainder spread round-robin).

    Example::

        >>> import fgrad.torch as torch
        >>> g = torch.Generator().manual_seed(0)
        >>> a, b = torch.utils.data.random_split(range(10), [0.8, 0.2], generator=g)
        >>> len(a), len(b), sorted(a.indices + b.indices) == list(range(10))
        (8, 2, True)
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths: list[int] = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            subset_lengths.append(int(math.floor(len(dataset) * frac)))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                              stacklevel=2)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = torch.randperm(sum(lengths), generator=generator).tolist() if generator is not None else \
        torch.randperm(sum(lengths)).tolist()
    return [Subset(dataset, indices[offset - length: offset])
            for offset, length in zip(accumulate(lengths), lengths)]
