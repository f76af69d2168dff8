"""Samplers: the order in which a DataLoader visits a map-style dataset.

Example::

    >>> from fgrad.torch.utils.data import BatchSampler, SequentialSampler
    >>> list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False))
    [[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

from typing import Iterator, Sequence

import fgrad.torch as torch
from fgrad.torch._random import Generator
from typing import Any

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "BatchSampler"]


def _rand_int64(generator=None) -> int:
    """A random 64-bit integer drawn from ``generator`` (or the default generator)."""
    if generator is not None:
        return int(torch.empty((), dtype=torch.int64).random_(generator=generator).item())
    return int(torch.empty((), dtype=torch.int64).random_().item())


def _generator_from_seed(seed: int):
    g = torch.Generator()
    g.manual_seed(seed)
    return g


class Sampler:
    """Base class: an iterable of dataset indices.

    Example::

        >>> import fgrad.torch as torch
        >>> class EvenFirst(torch.utils.data.Sampler):
        ...     def __init__(self, n):
        ...         self.n = n
        ...     def __iter__(self):
        ...         return iter(list(range(0, self.n, 2)) + list(range(1, self.n, 2)))
        ...     def __len__(self):
        ...         return self.n
        >>> list(torch.utils.data.DataLoader(range(10, 15), sampler=EvenFirst(5)))
        [tensor([10]), tensor([12]), tensor([14]), tensor([11]), tensor([13])]
    """

    def __init__(self, data_source: Any = None) -> None:
        pass

    def __iter__(self) -> Iterator[int]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """Indices ``0, 1, ..., len(data_source) - 1``.

    Example::

        >>> import fgrad.torch as torch
        >>> list(torch.utils.data.SequentialSampler(range(3)))
        [0, 1, 2]
    """

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation of the indices, or ``num_samples`` draws with ``replacement``.

    Example::

        >>> import fgrad.torch as torch
        >>> sorted(torch.utils.data.RandomSampler(range(4)))
        [0, 1, 2, 3]
        >>> len(list(torch.utils.data.RandomSampler(range(4), replacement=True, num_samples=6)))
        6
    """

    def __init__(self, data_source: Any, replacement: bool = False, num_samples: int | None = None,
                 generator: Generator | None = None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = _generator_from_seed(_rand_int64())
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from torch.randint(high=n, size=(32,), dtype=torch.int64, generator=generator).tolist()
            yield from torch.randint(high=n, size=(self.num_samples % 32,), dtype=torch.int64,
                                     generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from torch.randperm(n, generator=generator).tolist()
            yield from torch.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """A random permutation of the given ``indices``.

    Example::

        >>> import fgrad.torch as torch
        >>> sorted(torch.utils.data.SubsetRandomSampler([5, 1, 3]))
        [1, 3, 5]
    """

    def __init__(self, indices: Sequence[int], generator: Generator | None = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        perm = torch.randperm(len(self.indices), generator=self.generator) if self.generator is not None \
            else torch.randperm(len(self.indices))
        for i in perm.tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``.

    Example::

        >>> import fgrad.torch as torch
        >>> list(torch.utils.data.WeightedRandomSampler([0.0, 1.0, 0.0], 3))
        [1, 1, 1]
    """

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator: Generator | None = None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        w = torch.as_tensor(weights, dtype=torch.double)
        if len(w.shape) != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(w.shape)}")
        self.weights = w
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        kw = {} if self.generator is None else {"generator": self.generator}
        rand_tensor = torch.multinomial(self.weights, self.num_samples, self.replacement, **kw)
        yield from iter(rand_tensor.tolist())

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Groups the indices of ``sampler`` into lists of ``batch_size``.

    Example::

        >>> import fgrad.torch as torch
        >>> sampler = torch.utils.data.SequentialSampler(range(5))
        >>> list(torch.utils.data.BatchSampler(sampler, batch_size=2, drop_last=False))
        [[0, 1], [2, 3], [4]]
    """

    def __init__(self, sampler: Any, batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        batch: list[int] = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
