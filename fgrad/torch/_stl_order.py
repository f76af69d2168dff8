"""Which of tied entries PyTorch's CPU ``topk`` and ``sort`` return, and in what order.

PyTorch's CPU ``sort(stable=False)`` (and ``argsort``, ``msort``) sorts each row's
``(value, index)`` pairs with libstdc++'s ``std::sort`` (introsort) and a comparator on the
value only (NaN largest), so equal values come out in that algorithm's order, not in index
order; the exception is a 1-D integer tensor of at least 32768 elements sorted ascending,
which FBGEMM's radix sort sorts stably.  `sort_order` replays ``std::sort``.

PyTorch's CPU ``topk`` puts ``(value, index)`` pairs in a vector and calls libstdc++'s
``std::partial_sort`` (when ``k * 64 <= n``) or ``std::nth_element`` followed, for
``sorted=True``, by ``std::sort`` of the first ``k - 1`` pairs, with a comparator on the value
only (NaN largest).  Neither algorithm is stable, so among equal values the indices returned
(and for ``sorted=False`` the order of all of them) are those algorithms' arrangement.  This
module replays GCC's ``stl_algo.h``/``stl_heap.h`` (introselect, introsort with insertion sort
below 16 elements, heap select and sort_heap) on a Python list of indices compared by their
keys; fgrad runs it only for rows whose answer the ties decide.

Example::

    >>> from fgrad.torch._stl_order import topk_order
    >>> topk_order([4.0, 1.0, 4.0, 2.0, 1.0, 4.0], 3, largest=True, sorted=True)
    [2, 0, 5]
    >>> from fgrad.torch._stl_order import sort_order
    >>> sort_order([0, 1] * 9)
    [2, 16, 4, 6, 14, 8, 0, 10, 12, 9, 17, 15, 13, 11, 7, 5, 3, 1]
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence

_THRESHOLD = 16  # libstdc++'s _S_threshold

Less = Callable[[int, int], bool]  # compares the keys of two indices


def _lg(n: int) -> int:
    return n.bit_length() - 1


# -- std::__insertion_sort and friends (``a``: the indices being arranged)
def _linear_insert(a: list, i: int, less: Less) -> None:
    val = a[i]
    j = i - 1
    while less(val, a[j]):
        a[j + 1] = a[j]
        j -= 1
    a[j + 1] = val


def _insertion_sort(a: list, first: int, last: int, less: Less) -> None:
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            val = a[i]
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
        else:
            _linear_insert(a, i, less)


def _final_insertion_sort(a: list, first: int, last: int, less: Less) -> None:
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):
            _linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


# -- partitioning
def _move_median_to_first(a: list, result: int, x: int, y: int, z: int, less: Less) -> None:
    if less(a[x], a[y]):
        pick = y if less(a[y], a[z]) else (z if less(a[x], a[z]) else x)
    elif less(a[x], a[z]):
        pick = x
    else:
        pick = z if less(a[y], a[z]) else y
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a: list, first: int, last: int, pivot: int, less: Less) -> int:
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


def _partition_pivot(a: list, first: int, last: int, less: Less) -> int:
    _move_median_to_first(a, first, first + 1, first + (last - first) // 2, last - 1, less)
    return _unguarded_partition(a, first + 1, last, first, less)


# -- heaps (std::__adjust_heap with __push_heap, __make_heap, __pop_heap)
def _adjust_heap(a: list, first: int, hole: int, length: int, value: int, less: Less) -> None:
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


def _make_heap(a: list, first: int, last: int, less: Less) -> None:
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(a, first, parent, length, a[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a: list, first: int, last: int, result: int, less: Less) -> None:
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _heap_select(a: list, first: int, middle: int, last: int, less: Less) -> None:
    _make_heap(a, first, middle, less)
    for i in range(middle, last):
        if less(a[i], a[first]):
            _pop_heap(a, first, middle, i, less)


def _partial_sort(a: list, first: int, middle: int, last: int, less: Less) -> None:
    _heap_select(a, first, middle, last, less)
    while middle - first > 1:  # std::__sort_heap
        middle -= 1
        _pop_heap(a, first, middle, middle, less)


# -- the algorithms
def _nth_element(a: list, first: int, nth: int, last: int, less: Less) -> None:
    if first == last or nth == last:
        return
    depth = _lg(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, less)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, less)


def _introsort_loop(a: list, first: int, last: int, depth: int, less: Less) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _partial_sort(a, first, last, last, less)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def _sort(a: list, first: int, last: int, less: Less) -> None:
    """std::sort of ``a[first:last]``."""
    if last - first > 1:
        _introsort_loop(a, first, last, _lg(last - first) * 2, less)
        _final_insertion_sort(a, first, last, less)


def _greater(x: float, y: float) -> bool:
    return (x != x and y == y) or x > y  # NaN largest


def _smaller(x: float, y: float) -> bool:
    return (x == x and y != y) or x < y


def _less_of(keys: list, descending: bool) -> Less:
    """The comparator on indices PyTorch's CPU kernels give ``keys`` (NaN largest)."""
    if any(k != k for k in keys):
        cmp = _greater if descending else _smaller
        return lambda i, j: cmp(keys[i], keys[j])
    op = operator.gt if descending else operator.lt
    return lambda i, j: op(keys[i], keys[j])


def topk_order(values: Sequence[float], k: int, largest: bool, sorted: bool) -> list[int]:  # noqa: A002
    """The indices PyTorch's CPU ``topk`` returns for one row ``values`` (a list of Python
    numbers), in its order.

    >>> topk_order([0, 0, 5, 5, 3, 3], 2, largest=False, sorted=True)
    [1, 0]
    """
    keys = list(values)
    n = len(keys)
    if k == 0:
        return []
    less = _less_of(keys, largest)
    a = list(range(n))
    if k * 64 <= n:
        _partial_sort(a, 0, k, n, less)
    else:
        _nth_element(a, 0, k - 1, n, less)
        if sorted:
            _sort(a, 0, k - 1, less)
    return a[:k]


def sort_order(keys: Sequence, descending: bool = False) -> list[int]:
    """The indices PyTorch's CPU ``torch.sort(torch.tensor(keys), descending=descending)``
    returns (``stable=False``): libstdc++'s ``std::sort`` of (value, index) pairs compared by
    value, NaN largest.  ``keys`` are Python numbers; NaNs and keys equal under ``<`` (``0.0``
    and ``-0.0``) are ties.

    >>> sort_order([3, 5, 3, 5], descending=True)
    [1, 3, 0, 2]
    >>> sort_order([2.0, float("nan"), 1.0, float("nan")])
    [2, 0, 1, 3]
    """
    keys = list(keys)
    a = list(range(len(keys)))
    _sort(a, 0, len(a), _less_of(keys, descending))
    return a
