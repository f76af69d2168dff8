"""Random numbers: a stateful `Generator` (``manual_seed`` resets the default one) and the
random creation functions and in-place fills.

Draws come from NumPy's PCG64 bit generator, so sequences differ from PyTorch's Mersenne
Twister ones (seeding is reproducible within fgrad).
"""

from __future__ import annotations

import pickle

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind

import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from ._device import DEV as _DEV
from ._ops_creation import _finish, _sizes, like_index
from ._tensor import Tensor, _wrap, check_device
from ._dispatch import check_no_internal_overlap, bump_version, apply_inplace
from .autograd.grad_mode import STATE
from ..ops import elementwise as ew

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

# one generator per CUDA device (``torch.cuda.manual_seed``); draws are made on the host and
# copied to the device, so a seeded CUDA run is reproducible but differs from a CPU run
_CUDA_GENERATORS: dict = {}
_cuda_seed = [_DEFAULT_SEED]


def cuda_generator(index: int) -> Generator:
    g = _CUDA_GENERATORS.get(index)
    if g is None:
        g = _CUDA_GENERATORS[index] = Generator(f"cuda:{index}").manual_seed(_cuda_seed[0])
    return g


def _rng(generator, index=None):
    """The bit generator for a draw on CUDA device ``index`` (None: the host)."""
    if generator is not None:
        return generator._rng
    if index is None:
        return default_generator._rng
    return cuda_generator(index)._rng


def _buf_index(b):
    return _dev.index_of(b) if type(b) in _DEV else None


def _grng(generator, buf):
    """The bit generator for an in-place fill of ``buf`` (its device's generator)."""
    return _rng(generator, _buf_index(buf))


def manual_seed(seed) -> Generator:
    """Seed the default generator and those of the CUDA devices (reproducible draws)."""
    _cuda_seed[0] = int(seed) & 0xFFFF_FFFF_FFFF_FFFF
    for g in _CUDA_GENERATORS.values():
        g.manual_seed(seed)
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
    if _dtype_kind(npd) not in "fc":
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
    di = _out_index(out, check_device(device))
    npd = _float_dt(dtype)
    return _finish(_uniform(_rng(generator, di), _sizes(size), npd), requires_grad, out, di)


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
    di = _out_index(out, check_device(device))
    npd = _float_dt(dtype)
    return _finish(_normal(_rng(generator, di), _sizes(size), npd), requires_grad, out, di)


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
    di = _out_index(out, check_device(device))
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    if high is None:
        raise TypeError("randint() missing required argument 'high'")
    npd = np.dtype(np.int64) if dtype is None else D.to_np(dtype)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    shape = _sizes((size,) if isinstance(size, int) else tuple(size))
    r = _rng(generator, di).integers(low, high, size=shape)
    return _finish(r.astype(npd), requires_grad, out, di)


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
    di = _out_index(out, check_device(device))
    npd = np.dtype(np.int64) if dtype is None else D.to_np(dtype)
    return _finish(_rng(generator, di).permutation(int(n)).astype(npd), requires_grad, out, di)


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
    mt, st = isinstance(mean, Tensor), isinstance(std, Tensor)
    if mt or st:
        di = _buf_index(mean._buf if mt else std._buf)
        if mt and st and _buf_index(std._buf) != di:
            raise _dev.same_device_error(str(mean.device), str(std.device))
        rng = _rng(generator, di)
        mb = _dev.to_host(mean._buf) if mt else np.asarray(mean)
        sb = _dev.to_host(std._buf) if st else np.asarray(std)
        if st and (sb < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
        npd = mean._buf.dtype if mt else std._buf.dtype
        shape = np.broadcast_shapes(mb.shape, sb.shape)
        z = _normal(rng, shape, npd)
        return _finish((z * sb + mb).astype(npd), False, out, None if out is not None else di)
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    di = _out_index(out, check_device(device))
    npd = _float_dt(dtype)
    shape = _sizes((size,) if isinstance(size, int) else tuple(size or ()))
    return _finish(_normal(_rng(generator, di), shape, npd, mean, std), requires_grad, out, di)


def _out_index(out, di):
    """Draws for ``out=`` come from the generator of ``out``'s device."""
    if out is not None:
        return _buf_index(out._buf)
    return di


def bernoulli(input, p=None, *, generator=None, out=None) -> Tensor:
    di = _buf_index(input._buf)
    pb = _dev.to_host(input._buf) if p is None else np.full(input._buf.shape, p)
    if not np.all((pb >= 0) & (pb <= 1)):  # NaN fails too
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false. "
                           "(bernoulli: probabilities must lie in [0, 1])")
    r = (_uniform(_rng(generator, di), input._buf.shape, np.dtype(np.float64)) < pb).astype(input._buf.dtype)
    return _finish(r, False, out, None if out is not None else di)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None) -> Tensor:
    di = _buf_index(input._buf)
    rng = _rng(generator, di)
    p = np.asarray(_dev.to_host(input._buf), np.float64)
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
    return _finish(r, False, out, None if out is not None else di)


def poisson(input, generator=None) -> Tensor:
    di = _buf_index(input._buf)
    return _finish(_rng(generator, di).poisson(_dev.to_host(input._buf)).astype(input._buf.dtype), False,
                   None, di)


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    npd = input._buf.dtype if dtype is None else D.to_np(dtype)
    di = like_index(input, device)
    return _finish(_uniform(_rng(None, di), input._buf.shape, npd), requires_grad, None, di)


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    npd = input._buf.dtype if dtype is None else D.to_np(dtype)
    di = like_index(input, device)
    return _finish(_normal(_rng(None, di), input._buf.shape, npd), requires_grad, None, di)


def randint_like(
    input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None
):
    if high is None:
        low, high = 0, low
    npd = input._buf.dtype if dtype is None else D.to_np(dtype)
    di = like_index(input, device)
    return _finish(_rng(None, di).integers(low, high, input._buf.shape).astype(npd), requires_grad, None, di)


# -- in-place fills (no autograd history: PyTorch records them as leaves of no gradient) --


def _fill(self, values, name):

    b = self._buf

    if STATE.enabled and (self._rg and self._gfn is None):
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    if STATE.enabled and (
        self._gfn is not None or (self._base is not None and (self._base._rg or self._base._gfn is not None))
    ):

        def fn(x, v):
            return ew.add(ew.mul(x, 0), ew.convert_element_type(v, x.dtype))

        v = np.asarray(values, b.dtype)
        if type(b) in _DEV:
            values = v = _dev.to_dev(v, _dev.index_of(b))
        return apply_inplace(self, name, ("fill_random", name), fn, (self, v), values, (0,))
    check_no_internal_overlap(b)
    if type(b) in _DEV:
        _dev.xp_of(b).copyto(b, _dev.to_dev(np.asarray(values), _dev.index_of(b)), casting="unsafe")
    else:
        np.copyto(b, values, casting="unsafe")
    bump_version(self)
    return self


def uniform_(self, a=0.0, b=1.0, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(self, _uniform(_grng(generator, buf), buf.shape, buf.dtype, a, b), "UniformBackward0")


def normal_(self, mean=0.0, std=1.0, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(self, _normal(_grng(generator, buf), buf.shape, buf.dtype, mean, std), "NormalBackward0")


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
                if _dtype_kind(buf.dtype) in "iu"
                else 2
            )
        )
        if from_ != 0 and to is not None:
            from_, to = 0, from_
    vals = _grng(generator, buf).integers(from_, to, buf.shape).astype(buf.dtype)
    return _fill(self, vals, "RandomBackward0")


def bernoulli_(self, p=0.5, *, generator=None) -> Tensor:
    buf = self._buf
    pb = _dev.to_host(p._buf) if isinstance(p, Tensor) else p
    if not np.all((np.asarray(pb) >= 0) & (np.asarray(pb) <= 1)):
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={pb}")
    return _fill(
        self,
        (_uniform(_grng(generator, buf), buf.shape, np.dtype(np.float64)) < pb).astype(buf.dtype),
        "BernoulliBackward0",
    )


def exponential_(self, lambd=1.0, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(
        self, _grng(generator, buf).exponential(1.0 / lambd, buf.shape).astype(buf.dtype),
        "ExponentialBackward0",
    )


def geometric_(self, p, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(self, _grng(generator, buf).geometric(p, buf.shape).astype(buf.dtype), "GeometricBackward0")


def log_normal_(self, mean=1.0, std=2.0, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(
        self, _grng(generator, buf).lognormal(mean, std, buf.shape).astype(buf.dtype), "LogNormalBackward0"
    )


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None) -> Tensor:
    buf = self._buf
    return _fill(
        self,
        (median + sigma * _grng(generator, buf).standard_cauchy(buf.shape)).astype(buf.dtype),
        "CauchyBackward0",
    )
