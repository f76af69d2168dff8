"""``torch.quasirandom``: `SobolEngine`, PyTorch's generator of (scrambled) Sobol' sequences.

The points are PyTorch's, bit for bit: the same direction numbers (Joe and Kuo's D(6) set,
21,201 dimensions -- the table SciPy ships, read from ``scipy.stats``), the same 30-bit
integers visited in Gray-code order, and, with ``scramble=True``, the same random linear
matrix scrambling and digital shift drawn from PyTorch's generator stream (a seeded private
generator, or the global one when ``seed`` is None).

Example::

    >>> import fgrad.torch as torch
    >>> torch.quasirandom.SobolEngine(2).draw(4)
    tensor([[0.0000, 0.0000],
            [0.5000, 0.5000],
            [0.7500, 0.2500],
            [0.2500, 0.7500]])
"""

from __future__ import annotations

import functools
import os

import numpy as np

import fgrad.torch as torch

__all__ = ["SobolEngine"]

_BITS = 30


@functools.lru_cache(maxsize=1)
def _direction_table() -> tuple[np.ndarray, np.ndarray]:
    """Joe and Kuo's primitive polynomials (with their leading and trailing terms: 7 is
    x^2 + x + 1) and initial direction integers m_1..m_s, one row per dimension."""
    import scipy  # the table's file only: importing scipy.stats would take a second

    path = os.path.join(os.path.dirname(scipy.__file__), "stats", "_sobol_direction_numbers.npz")
    try:
        with np.load(path) as table:
            return table["poly"], table["vinit"]
    except OSError as err:  # pragma: no cover - depends on the installed SciPy
        raise RuntimeError(
            f"SobolEngine: SciPy's Sobol' direction numbers were not found at {path}; "
            "install a SciPy with scipy.stats.qmc.Sobol (>= 1.7)") from err


def _direction_numbers(dimension: int) -> np.ndarray:
    """The (dimension, 30) int64 direction numbers v_j = m_j * 2**(29 - j): dimension 0 is
    van der Corput's (every m_j = 1); the others follow the recurrence of their primitive
    polynomial x^s + a_1 x^(s-1) + ... + a_(s-1) x + 1,
    m_j = m_(j-s) ^ (m_(j-s) << s) ^ XOR_k a_k (m_(j-k) << k)."""
    poly, vinit = _direction_table()
    poly = poly[:dimension].astype(np.int64)
    degree = np.array([int(p).bit_length() - 1 for p in poly], np.int64)
    m = np.ones((dimension, _BITS), np.int64)
    rows = np.arange(dimension)
    for j in range(_BITS):
        recur = rows[(degree > 0) & (j >= degree)]
        init = rows[(degree > 0) & (j < degree)]
        if init.size:
            m[init, j] = vinit[init, j]
        if recur.size:
            s = degree[recur]
            back = m[recur, j - s]
            val = back ^ (back << s)
            for k in range(1, int(s.max())):
                use = (k < s) & (((poly[recur] >> (s - k)) & 1) == 1)
                val ^= np.where(use, m[recur, j - k] << k, 0)
            m[recur, j] = val
    return m << (_BITS - 1 - np.arange(_BITS, dtype=np.int64))


def _scrambled(state: np.ndarray, ltm: np.ndarray) -> np.ndarray:
    """Owen's linear matrix scrambling of the direction numbers.  Number the 30 bits of an
    integer from the most significant (digit 0 is the bit of 1/2): with L[d] the lower
    triangular 0/1 matrix (unit diagonal), digit p of the scrambled v[d, j] is the parity of
    row p of L[d] and-ed with the digits of v[d, j] -- the digits' matrix product over GF(2)."""
    lower = np.tril(ltm).astype(np.int64)
    idx = np.arange(_BITS)
    lower[:, idx, idx] = 1
    weights = np.int64(1) << (_BITS - 1 - np.arange(_BITS, dtype=np.int64))  # digit q: bit 29 - q
    rows = lower @ weights  # (d, p): row p of L[d] as an integer, digit q at bit 29 - q
    anded = state[:, :, None] & rows[:, None, :]  # (d, j, p)
    for step in (16, 8, 4, 2, 1):  # parity of the 30-bit and: fold the bits onto bit 0
        anded ^= anded >> step
    return (anded & 1) @ weights


def _points(state: np.ndarray, start: np.ndarray, first: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` integer points after ``start`` (the point of index ``first``), in Gray-code
    order: point i+1 is point i xor the direction number of the lowest zero bit of i.
    Returns the points (n, d) and the last one."""
    if n <= 0:
        return np.zeros((0, state.shape[0]), np.int64), start.copy()
    idx = np.arange(first, first + n, dtype=np.int64)
    low_zero = np.zeros(n, np.int64)
    rest = idx.copy()
    while True:
        odd = (rest & 1) == 1
        if not odd.any():
            break
        low_zero += odd
        rest = np.where(odd, rest >> 1, rest)
    steps = state.T[low_zero]  # (n, d): what each step xors in
    pts = np.bitwise_xor.accumulate(steps, axis=0) ^ start
    return pts, pts[-1].copy()


class SobolEngine:
    """An engine drawing (scrambled) Sobol' points in ``[0, 1)^dimension``, PyTorch's.

    Args: ``dimension`` (1 to 21201), ``scramble`` (Owen's linear matrix scrambling and a
    random digital shift), ``seed`` (the scrambling's generator seed; None draws from the
    global generator, as PyTorch does).

    Example::

        >>> import fgrad.torch as torch
        >>> eng = torch.quasirandom.SobolEngine(3, scramble=True, seed=0)
        >>> eng.draw(2).shape, eng.num_generated
        (torch.Size([2, 3]), 2)
    """

    MAXBIT = _BITS
    MAXDIM = 21201

    def __init__(self, dimension: int, scramble: bool = False, seed: int | None = None) -> None:
        if dimension > self.MAXDIM or dimension < 1:
            raise ValueError(f"Supported range of dimensionality for SobolEngine is [1, {self.MAXDIM}]")
        self.seed = seed
        self.scramble = scramble
        self.dimension = dimension
        state = _direction_numbers(dimension)
        if scramble:
            gen = None
            if seed is not None:
                gen = torch.Generator()
                gen.manual_seed(seed)
            shift_bits = torch.randint(2, (dimension, self.MAXBIT), generator=gen)
            self.shift = torch.mv(shift_bits, torch.pow(2, torch.arange(0, self.MAXBIT)))
            ltm = torch.randint(2, (dimension, self.MAXBIT, self.MAXBIT), generator=gen)
            state = _scrambled(state, ltm.numpy())
        else:
            self.shift = torch.zeros(dimension, dtype=torch.long)
        self.sobolstate = torch.from_numpy(state)
        self.quasi = self.shift.clone()
        # PyTorch divides the first point in the default dtype and converts it afterwards
        self._first_point = (self.quasi / 2**self.MAXBIT).reshape(1, -1)
        self.num_generated = 0

    def _advance(self, n: int) -> np.ndarray:
        """The next ``n`` integer points after the current one; the state moves to the last."""
        pts, last = _points(self.sobolstate.numpy(), self.quasi.numpy(), max(self.num_generated - 1, 0), n)
        self.quasi = torch.from_numpy(last)
        return pts

    def draw(self, n: int = 1, out: torch.Tensor | None = None,
             dtype: torch.dtype | None = None) -> torch.Tensor:
        """The next ``n`` points, shape ``(n, dimension)``, in ``dtype`` (default: the
        default dtype); the first point of an unscrambled sequence is the origin.

        Example::

            >>> import fgrad.torch as torch
            >>> torch.quasirandom.SobolEngine(1).draw(3, dtype=torch.float64)
            tensor([[0.0000],
                    [0.5000],
                    [0.7500]], dtype=torch.float64)
        """
        if dtype is None:
            dtype = torch.get_default_dtype()
        first = self.num_generated == 0
        ints = self._advance(n - 1 if first else n)
        values = torch.from_numpy(ints).to(dtype) * (1.0 / 2**self.MAXBIT)
        result = torch.cat((self._first_point.to(dtype), values), dim=-2) if first else values
        self.num_generated += n
        if out is not None:
            out.resize_as_(result).copy_(result)
            return out
        return result

    def draw_base2(self, m: int, out: torch.Tensor | None = None,
                   dtype: torch.dtype | None = None) -> torch.Tensor:
        """The next ``2**m`` points; the total drawn must stay a power of two (the balance
        properties of Sobol' points), else ValueError.

        Example::

            >>> import fgrad.torch as torch
            >>> torch.quasirandom.SobolEngine(2).draw_base2(2).shape
            torch.Size([4, 2])
        """
        n = 2**m
        total = self.num_generated + n
        if total & (total - 1) != 0:
            raise ValueError(
                "The balance properties of Sobol' points require n to be a power of 2. "
                f"{self.num_generated} points have been previously generated, then: "
                f"n={self.num_generated}+2**{m}={total}. If you still want to do this, please use "
                "'SobolEngine.draw()' instead.")
        return self.draw(n=n, out=out, dtype=dtype)

    def reset(self) -> SobolEngine:
        """Back to the first point.

        Example::

            >>> import fgrad.torch as torch
            >>> eng = torch.quasirandom.SobolEngine(2)
            >>> _ = eng.draw(5)
            >>> eng.reset().num_generated
            0
        """
        self.quasi = self.shift.clone()
        self.num_generated = 0
        return self

    def fast_forward(self, n: int) -> SobolEngine:
        """Skip ``n`` points (as drawing them and dropping the result).

        Example::

            >>> import fgrad.torch as torch
            >>> torch.quasirandom.SobolEngine(1).fast_forward(2).draw(1)
            tensor([[0.7500]])
        """
        self._advance(n - 1 if self.num_generated == 0 else n)
        self.num_generated += n
        return self

    def __repr__(self) -> str:
        parts = [f"dimension={self.dimension}"]
        if self.scramble:
            parts.append("scramble=True")
        if self.seed is not None:
            parts.append(f"seed={self.seed}")
        return f"{type(self).__name__}({', '.join(parts)})"
