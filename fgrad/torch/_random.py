"""Random numbers: a stateful `Generator` (``manual_seed`` resets the default one) and the
random creation functions and in-place fills.

Draws come from NumPy's PCG64 bit generator, so sequences differ from PyTorch's Mersenne
Twister ones (seeding is reproducible within fgrad).
"""

from __future__ import annotations

import pickle

import numpy as np

from . import _dtypes as D
from ._ops_creation import _finish, _sizes
from ._tensor import Tensor, _wrap, check_device

_DEFAULT_SEED = 67280421310721


class Generator:
    """A random number generator with PyTorch's methods (``manual_seed``, ``seed``,
    ``initial_seed``, ``get_state``, ``set_state``)."""

    def __init__(self, device="cpu") -> None:
        self.device = device
        self._seed = _DEFAULT_SEED
        self._rng = np.random.Generator(np.random.PCG64(self._seed))

    def manual_seed(self, seed) -> "Generator":
        seed = int(seed)
        if seed < 0:
            seed &= 0xFFFF_FFFF_FFFF_FFFF
        self._seed = seed
        self._rng = np.random.Generator(np.random.PCG64(seed))
        return self

    def seed(self) -> int:
        s = int(np.random.SeedSequence().entropy) & 0xFFFF_FFFF_FFFF_FFFF
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self) -> Tensor:
        data = pickle.dumps((self._seed, self._rng.bit_generator.state))
        return _wrap(np.frombuffer(data, np.uint8).copy())

    def set_state(self, new_state) -> "Generator":
        seed, state = pickle.loads(np.asarray(new_state._buf, np.uint8).tobytes())
        self._seed = seed
        self._rng = np.random.Generator(np.random.PCG64())
        self._rng.bit_generator.state = state
        return self

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {hex(id(self))}>"


default_generator = Generator()


def _rng(generator):
    return (generator or default_generator)._rng


def manual_seed(seed) -> Generator:
    """Seed the default generator (reproducible draws)."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    default_generator.set_state(new_state)


def _float_dt(dtype) -> np.dtype:
    npd = D.DEFAULT.float.np if dtype is None else D.to_np(dtype)
    if npd.kind not in "fc":
        raise RuntimeError(f"\"check_uniform_bounds\" not implemented for '{D.from_np(npd)._legacy}'")
    return npd


def _uniform(rng, shape, npd, lo=0.0, hi=1.0):
    if npd in (np.float32, np.float64):
        r = rng.random(shape, dtype=npd)
    else:
        r = rng.random(shape).astype(npd)
    if lo != 0.0 or hi != 1.0:
        r = (r * (hi - lo) + lo).astype(npd)
    return r


def _normal(rng, shape, npd, mean=0.0, std=1.0):
    if npd in (np.float32, np.float64):
        r = rng.standard_normal(shape, dtype=npd)
    else:
        r = rng.standard_normal(shape).astype(npd)
    if mean != 0.0 or std != 1.0:
        r = (r * std + mean).astype(npd)
    return r


def rand(
    *size,
    generator=None,
    out=None,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    pin_memory=False,
) -> Tensor:
    """Uniform samples in [0, 1)."""
    check_device(device)
    npd = _float_dt(dtype)
    return _finish(_uniform(_rng(generator), _sizes(size), npd), requires_grad, out)


def randn(
    *size,
    generator=None,
    out=None,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    pin_memory=False,
) -> Tensor:
    """Standard normal samples."""
    check_device(device)
    npd = _float_dt(dtype)
    return _finish(_normal(_rng(generator), _sizes(size), npd), requires_grad, out)


def randint(
    low=0,
    high=None,
    size=None,
    *,
    generator=None,
    out=None,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
) -> Tensor:
    """Integers uniform in [low, high)."""
    check_device(device)
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    if high is None:
        raise TypeError("randint() missing required argument 'high'")
    npd = np.dtype(np.int64) if dtype is None else D.to_np(dtype)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    r = _rng(generator).integers(low, high, size=_sizes((size,) if isinstance(size, int) else tuple(size)))
    return _finish(r.astype(npd), requires_grad, out)


def randperm(
    n,
    *,
    generator=None,
    out=None,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    pin_memory=False,
) -> Tensor:
    check_device(device)
    npd = np.dtype(np.int64) if dtype is None else D.to_np(dtype)
    return _finish(_rng(generator).permutation(int(n)).astype(npd), requires_grad, out)


def normal(
    mean=0.0,
    std=1.0,
    size=None,
    *,
    generator=None,
    out=None,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
) -> Tensor:
    """Normal samples: ``normal(mean, std, size)`` with floats, or elementwise with tensors."""
    rng = _rng(generator)
    mt, st = isinstance(mean, Tensor), isinstance(std, Tensor)
    if mt or st:
        mb = mean._buf if mt else np.asarray(mean)
        sb = std._buf if st else np.asarray(std)
        if st and (sb < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
        npd = mean._buf.dtype if mt else std._buf.dtype
        shape = np.broadcast_shapes(mb.shape, sb.shape)
        z = _normal(rng, shape, npd)
        return _finish((z * sb + mb).astype(npd), False, out)
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    npd = _float_dt(dtype)
    shape = _sizes((size,) if isinstance(size, int) else tuple(size or ()))
    return _finish(_normal(rng, shape, npd, mean, std), requires_grad, out)


def bernoulli(input, p=None, *, generator=None, out=None) -> Tensor:
    pb = input._buf if p is None else np.full(input._buf.shape, p)
    r = (_uniform(_rng(generator), input._buf.shape, np.dtype(np.float64)) < pb).astype(input._buf.dtype)
    return _finish(r, False, out)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None) -> Tensor:
    rng = _rng(generator)
    p = np.asarray(input._buf, np.float64)
    rows = p.reshape(-1, p.shape[-1])
    res = []
    for row in rows:
        if (row < 0).any() or not np.isfinite(row).all() or row.sum() <= 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        pr = row / row.sum()
        if not replacement and num_samples > np.count_nonzero(pr):
            raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
        res.append(rng.choice(len(pr), size=num_samples, replace=replacement, p=pr))
    r = np.asarray(res, np.int64)
    if p.ndim == 1:
        r = r[0]
    return _finish(r, False, out)


def poisson(input, generator=None) -> Tensor:
    return _finish(_rng(generator).poisson(input._buf).astype(input._buf.dtype))


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    npd = input._buf.dtype if dtype is None else D.to_np(dtype)
    return _finish(_uniform(default_generator._rng, input._buf.shape, npd), requires_grad)


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    npd = input._buf.dtype if dtype is None else D.to_np(dtype)
    return _finish(_normal(default_generator._rng, input._buf.shape, npd), requires_grad)


def randint_like(
    input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None
):
    if high is None:
        low, high = 0, low
    npd = input._buf.dtype if dtype is None else D.to_np(dtype)
    return _finish(default_generator._rng.integers(low, high, input._buf.shape).astype(npd), requires_grad)


# -- in-place fills (no autograd history: PyTorch records them as leaves of no gradient) --


def _fill(self, values, name):
    from ._ops import _check_overlap, _bump, _inplace

    b = self._buf
    from .autograd.grad_mode import STATE

    if STATE.enabled and (self._rg and self._gfn is None):
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    if STATE.enabled and (
        self._gfn is not None or (self._base is not None and (self._base._rg or self._base._gfn is not None))
    ):
        from ..ops import elementwise as ew

        def fn(x, v):
            return ew.add(ew.mul(x, 0), ew.convert_element_type(v, x.dtype))

        return _inplace(
            self, name, ("fill_random", name), fn, (self, np.asarray(values, b.dtype)), values, (0,)
        )
    _check_overlap(b)
    np.copyto(b, values, casting="unsafe")
    _bump(self)
    return self


def uniform_(self, a=0.0, b=1.0, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(self, _uniform(_rng(generator), buf.shape, buf.dtype, a, b), "UniformBackward0")


def normal_(self, mean=0.0, std=1.0, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(self, _normal(_rng(generator), buf.shape, buf.dtype, mean, std), "NormalBackward0")


def random_(self, from_=0, to=None, *, generator=None) -> Tensor:
    buf = self._buf
    if to is None:
        to = (
            2**24
            if buf.dtype == np.float32
            else (
                2**53
                if buf.dtype == np.float64
                else int(np.iinfo(buf.dtype).max) + 1
                if buf.dtype.kind in "iu"
                else 2
            )
        )
        if from_ != 0 and to is not None:
            from_, to = 0, from_
    return _fill(self, _rng(generator).integers(from_, to, buf.shape).astype(buf.dtype), "RandomBackward0")


def bernoulli_(self, p=0.5, *, generator=None) -> Tensor:
    buf = self._buf
    pb = p._buf if isinstance(p, Tensor) else p
    return _fill(
        self,
        (_uniform(_rng(generator), buf.shape, np.dtype(np.float64)) < pb).astype(buf.dtype),
        "BernoulliBackward0",
    )


def exponential_(self, lambd=1.0, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(
        self, _rng(generator).exponential(1.0 / lambd, buf.shape).astype(buf.dtype), "ExponentialBackward0"
    )


def geometric_(self, p, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(self, _rng(generator).geometric(p, buf.shape).astype(buf.dtype), "GeometricBackward0")


def log_normal_(self, mean=1.0, std=2.0, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(
        self, _rng(generator).lognormal(mean, std, buf.shape).astype(buf.dtype), "LogNormalBackward0"
    )


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(
        self,
        (median + sigma * _rng(generator).standard_cauchy(buf.shape)).astype(buf.dtype),
        "CauchyBackward0",
    )
