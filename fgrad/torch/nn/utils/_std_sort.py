"""The order in which PyTorch's CPU ``torch.sort(..., stable=False)`` leaves equal keys.

PyTorch sorts small CPU tensors with ``std::sort`` (libstdc++'s introsort) on (value, index)
pairs, so equal values come out in an order of that algorithm's making, not in index order.
`pack_padded_sequence(enforce_sorted=False)` sorts the lengths that way; where lengths tie,
that order decides which row of the packed data each sequence gets, which shows in what a
`PackedSequence` holds and in the dropout an LSTM draws over the packed rows.
`std_sort_order` replays the algorithm (introsort, threshold 16, median-of-three pivot,
heapsort past the depth limit, final insertion sort) on a list of keys.

Example::

    >>> std_sort_order([3, 5, 3, 5], descending=True)
    [1, 3, 0, 2]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

__all__ = ["std_sort_order"]

_THRESHOLD = 16


def std_sort_order(keys: Sequence, descending: bool = False) -> list[int]:
    """The permutation ``torch.sort(torch.tensor(keys), descending=descending)[1]`` gives on
    the CPU for a 1-d tensor of integers or non-NaN floats (keys compared with ``<``/``>``).

    Example::

        >>> std_sort_order([2, 1, 2, 0])
        [3, 1, 0, 2]
    """
    a = list(range(len(keys)))
    k = list(keys)
    if descending:
        def less(i: int, j: int) -> bool:
            return k[i] > k[j]
    else:
        def less(i: int, j: int) -> bool:
            return k[i] < k[j]
    n = len(a)
    if n > 1:
        _introsort_loop(a, 0, n, 2 * int(math.floor(math.log2(n))), less)
        _final_insertion_sort(a, 0, n, less)
    return a


def _introsort_loop(a: list, first: int, last: int, depth: int, less: Callable) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_sort(a, first, last, less)
            return
        depth -= 1
        mid = first + (last - first) // 2
        _move_median_to_first(a, first, first + 1, mid, last - 1, less)
        cut = _unguarded_partition(a, first + 1, last, first, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def _move_median_to_first(a: list, result: int, x: int, y: int, z: int, less: Callable) -> None:
    if less(a[x], a[y]):
        pick = y if less(a[y], a[z]) else (z if less(a[x], a[z]) else x)
    elif less(a[x], a[z]):
        pick = x
    else:
        pick = z if less(a[y], a[z]) else y
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a: list, first: int, last: int, pivot: int, less: Callable) -> int:
    while True:
        while less(a[first], a[pivot]):
            first += 1
        last -= 1
        while less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _linear_insert(a: list, i: int, less: Callable) -> None:
    val = a[i]
    j = i - 1
    while less(val, a[j]):
        a[j + 1] = a[j]
        j -= 1
    a[j + 1] = val


def _insertion_sort(a: list, first: int, last: int, less: Callable) -> None:
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            val = a[i]
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
        else:
            _linear_insert(a, i, less)


def _final_insertion_sort(a: list, first: int, last: int, less: Callable) -> None:
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):
            _linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


def _adjust_heap(a: list, first: int, hole: int, length: int, value: int, less: Callable) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _heap_sort(a: list, first: int, last: int, less: Callable) -> None:
    """libstdc++'s ``__partial_sort(first, last, last)``: make_heap, then sort_heap."""
    length = last - first
    if length >= 2:
        parent = (length - 2) // 2
        while True:
            _adjust_heap(a, first, parent, length, a[first + parent], less)
            if parent == 0:
                break
            parent -= 1
    while last - first > 1:
        last -= 1
        value = a[last]
        a[last] = a[first]
        _adjust_heap(a, first, 0, last - first, value, less)
