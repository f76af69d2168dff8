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
below 16 elements, heap select and sort_heap) on a Python list; fgrad runs it only for rows
whose answer the ties decide.

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


def _lg(n: int) -> int:
    return n.bit_length() - 1


class _Seq:
    """The pairs being arranged, and the comparator on their values."""

    def __init__(self, values: Sequence[float], less: Callable[[float, float], bool]) -> None:
        self.v = list(values)
        self.i = list(range(len(self.v)))
        self.less = less

    def comp(self, a: int, b: int) -> bool:
        return self.less(self.v[a], self.v[b])

    def swap(self, a: int, b: int) -> None:
        self.v[a], self.v[b] = self.v[b], self.v[a]
        self.i[a], self.i[b] = self.i[b], self.i[a]

    def get(self, a: int) -> tuple:
        return self.v[a], self.i[a]

    def put(self, a: int, item: tuple) -> None:
        self.v[a], self.i[a] = item

    # -- std::__insertion_sort and friends
    def linear_insert(self, last: int) -> None:
        val = self.get(last)
        nxt = last - 1
        while self.less(val[0], self.v[nxt]):
            self.put(last, self.get(nxt))
            last = nxt
            nxt -= 1
        self.put(last, val)

    def insertion_sort(self, first: int, last: int) -> None:
        if first == last:
            return
        for i in range(first + 1, last):
            if self.comp(i, first):
                val = self.get(i)
                for j in range(i, first, -1):
                    self.put(j, self.get(j - 1))
                self.put(first, val)
            else:
                self.linear_insert(i)

    # -- partitioning
    def move_median_to_first(self, result: int, a: int, b: int, c: int) -> None:
        if self.comp(a, b):
            if self.comp(b, c):
                self.swap(result, b)
            elif self.comp(a, c):
                self.swap(result, c)
            else:
                self.swap(result, a)
        elif self.comp(a, c):
            self.swap(result, a)
        elif self.comp(b, c):
            self.swap(result, c)
        else:
            self.swap(result, b)

    def unguarded_partition(self, first: int, last: int, pivot: int) -> int:
        while True:
            while self.comp(first, pivot):
                first += 1
            last -= 1
            while self.comp(pivot, last):
                last -= 1
            if not first < last:
                return first
            self.swap(first, last)
            first += 1

    def partition_pivot(self, first: int, last: int) -> int:
        mid = first + (last - first) // 2
        self.move_median_to_first(first, first + 1, mid, last - 1)
        return self.unguarded_partition(first + 1, last, first)

    # -- heaps (std::__adjust_heap, __push_heap, __make_heap, __pop_heap)
    def push_heap(self, first: int, hole: int, top: int, value: tuple) -> None:
        parent = (hole - 1) // 2
        while hole > top and self.less(self.v[first + parent], value[0]):
            self.put(first + hole, self.get(first + parent))
            hole = parent
            parent = (hole - 1) // 2
        self.put(first + hole, value)

    def adjust_heap(self, first: int, hole: int, length: int, value: tuple) -> None:
        top = hole
        child = hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if self.comp(first + child, first + child - 1):
                child -= 1
            self.put(first + hole, self.get(first + child))
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            self.put(first + hole, self.get(first + child - 1))
            hole = child - 1
        self.push_heap(first, hole, top, value)

    def make_heap(self, first: int, last: int) -> None:
        length = last - first
        if length < 2:
            return
        parent = (length - 2) // 2
        while True:
            self.adjust_heap(first, parent, length, self.get(first + parent))
            if parent == 0:
                return
            parent -= 1

    def pop_heap(self, first: int, last: int, result: int) -> None:
        value = self.get(result)
        self.put(result, self.get(first))
        self.adjust_heap(first, 0, last - first, value)

    def heap_select(self, first: int, middle: int, last: int) -> None:
        self.make_heap(first, middle)
        for i in range(middle, last):
            if self.comp(i, first):
                self.pop_heap(first, middle, i)

    def sort_heap(self, first: int, last: int) -> None:
        while last - first > 1:
            last -= 1
            self.pop_heap(first, last, last)

    # -- the algorithms
    def partial_sort(self, first: int, middle: int, last: int) -> None:
        self.heap_select(first, middle, last)
        self.sort_heap(first, middle)

    def nth_element(self, first: int, nth: int, last: int) -> None:
        if first == last or nth == last:
            return
        depth = _lg(last - first) * 2
        while last - first > 3:
            if depth == 0:
                self.heap_select(first, nth + 1, last)
                self.swap(first, nth)
                return
            depth -= 1
            cut = self.partition_pivot(first, last)
            if cut <= nth:
                first = cut
            else:
                last = cut
        self.insertion_sort(first, last)

    def introsort_loop(self, first: int, last: int, depth: int) -> None:
        while last - first > _THRESHOLD:
            if depth == 0:
                self.partial_sort(first, last, last)
                return
            depth -= 1
            cut = self.partition_pivot(first, last)
            self.introsort_loop(cut, last, depth)
            last = cut

    def sort(self, first: int, last: int) -> None:
        if first == last:
            return
        self.introsort_loop(first, last, _lg(last - first) * 2)
        if last - first > _THRESHOLD:
            self.insertion_sort(first, first + _THRESHOLD)
            for i in range(first + _THRESHOLD, last):
                self.linear_insert(i)
        else:
            self.insertion_sort(first, last)


def _greater(x: float, y: float) -> bool:
    return (x != x and y == y) or x > y  # NaN largest


def _smaller(x: float, y: float) -> bool:
    return (x == x and y != y) or x < y


def topk_order(values: Sequence[float], k: int, largest: bool, sorted: bool) -> list[int]:  # noqa: A002
    """The indices PyTorch's CPU ``topk`` returns for one row ``values`` (a list of Python
    numbers), in its order.

    >>> topk_order([0, 0, 5, 5, 3, 3], 2, largest=False, sorted=True)
    [1, 0]
    """
    s = _Seq(values, _greater if largest else _smaller)
    n = len(s.v)
    if k == 0:
        return []
    if k * 64 <= n:
        s.partial_sort(0, k, n)
    else:
        s.nth_element(0, k - 1, n)
        if sorted:
            s.sort(0, k - 1)
    return s.i[:k]


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
    if any(k != k for k in keys):
        s = _Seq(keys, _greater if descending else _smaller)
    else:
        s = _Seq(keys, operator.gt if descending else operator.lt)
    s.sort(0, len(keys))
    return s.i
