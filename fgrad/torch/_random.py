"""Random numbers: a stateful `Generator` (``manual_seed`` resets the default one) and the
random creation functions and in-place fills.

Draws reproduce PyTorch's CPU streams (`fgrad.torch._cpu_rng`): after ``torch.manual_seed(s)``
``rand``, ``randn``, ``randint``, ``randperm``, ``normal``, ``bernoulli``, dropout masks, the
``nn.init`` fills, ``exponential_``, ``cauchy_``, ``log_normal_`` and ``geometric_`` give
PyTorch's numbers, as do ``multinomial`` and the samplers over it, and ``poisson``,
``binomial``, ``_standard_gamma`` and ``_sample_dirichlet`` (PyTorch's scalar rejection
samplers, replayed element by element).  CUDA generators use the same engine
on the host (PyTorch's CUDA generator is a different algorithm, Philox, so seeded CUDA runs
differ from PyTorch's).
"""

from __future__ import annotations

import math

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind

import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from ._device import DEV as _DEV
from ._ops_creation import _finish, _like_layout, _sizes, like_index
from ._storage import memory_order as _memory_order, stride_order as _stride_order
from ._tensor import Tensor, _wrap, check_device
from ._dispatch import check_no_internal_overlap, bump_version, apply_inplace, apply_op
from .autograd.grad_mode import STATE
from ..ops import elementwise as ew
from ._cpu_rng import Engine
from ._device import _state as _DEV_STATE
from . import _meta
import fgrad.torch._cpu_rng as _samplers
from ..transforms.custom import custom_jvp
from ..ops.bits import stop_gradient as _stop_gradient
from ._reparam_grads import dirichlet_grad, standard_gamma_grad
import fgrad.numpy as _fnp
from collections.abc import Sequence
from fgrad.torch.types import Device, DType, Layout, memory_format, SizeLike
from fgrad.torch.types import TensorOrScalar

_DEFAULT_SEED = 67280421310721
_I64 = np.dtype(np.int64)  # randint's and randperm's default dtype


class Generator:
    """A random number generator with PyTorch's methods (``manual_seed``, ``seed``,
    ``initial_seed``, ``get_state``, ``set_state``) and PyTorch's CPU streams.

    Example::

        >>> g = Generator().manual_seed(1)
        >>> randn(3, generator=g)
        tensor([0.6614, 0.2669, 0.0617])
    """

    def __init__(self, device: Device = "cpu") -> None:
        self.device = device
        self._engine = Engine(_DEFAULT_SEED)

    def manual_seed(self, seed: int) -> "Generator":
        self._engine.seed(int(seed))
        return self

    def seed(self) -> int:
        s = int(np.random.SeedSequence().entropy) & 0xFFFF_FFFF_FFFF_FFFF
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._engine.initial_seed

    def get_state(self) -> Tensor:
        """The state as PyTorch's 5056-byte ``uint8`` tensor (loadable by PyTorch too)."""
        return _wrap(np.frombuffer(self._engine.get_state(), np.uint8).copy())

    def set_state(self, new_state: Tensor) -> "Generator":
        """Restore a state from `get_state` (or from PyTorch's ``get_rng_state``); plain
        bytes are parsed, never unpickled."""
        if not isinstance(new_state, Tensor) or new_state._buf.dtype != np.uint8:
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}"
                            + (f" of dtype {new_state.dtype}" if isinstance(new_state, Tensor) else ""))
        self._engine.set_state(np.ascontiguousarray(_dev.to_host(new_state._buf)).tobytes())
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


# set by `fgrad.torch._compile` while ``torch.compile`` traces: ``rand``/``randn`` (and their
# ``_like`` forms) draw from the traced program's key input; any other draw is a graph break
COMPILE_RNG: list = [None]


def _rng(generator, index=None) -> Engine:
    """The engine for a draw on CUDA device ``index`` (None: the host)."""
    if COMPILE_RNG[0] is not None:
        COMPILE_RNG[0].refuse()
    if _DEV_STATE.get("no_draws", False):
        return _meta.NO_DRAWS
    if generator is not None:
        return generator._engine
    if index is None:
        return default_generator._engine
    return cuda_generator(index)._engine


def _buf_index(b):
    return _dev.index_of(b) if type(b) in _DEV else None


def _grng(generator, buf) -> Engine:
    """The engine for an in-place fill of ``buf`` (its device's generator)."""
    return _rng(generator, _buf_index(buf))


def manual_seed(seed: int) -> Generator:
    """Seed the default generator and those of the CUDA devices (reproducible draws).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.random.manual_seed(0); a = torch.rand(2)
        >>> _ = torch.random.manual_seed(0); torch.equal(torch.rand(2), a)
        True
    """
    _cuda_seed[0] = int(seed) & 0xFFFF_FFFF_FFFF_FFFF
    for g in _CUDA_GENERATORS.values():
        g.manual_seed(seed)
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the default generator from a random number and return that seed.

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.random.seed(), int)
        True
    """
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the default generator started from (`manual_seed`'s or `seed`'s).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.random.manual_seed(7)
        >>> torch.random.initial_seed()
        7
    """
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The default generator's state as a uint8 tensor (for `set_rng_state`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.random.get_rng_state().dtype
        torch.uint8
    """
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    """Restore the default generator's state saved by `get_rng_state`.

    Example::

        >>> import fgrad.torch as torch
        >>> state = torch.random.get_rng_state()
        >>> a = torch.rand(2)
        >>> torch.random.set_rng_state(state)
        >>> torch.equal(torch.rand(2), a)
        True
    """
    default_generator.set_state(new_state)


def _float_dt(dtype) -> np.dtype:
    if dtype is None:
        return D.DEFAULT.float.np  # (a floating dtype: `set_default_dtype` takes no other)
    npd = D.to_np(dtype)
    if _dtype_kind(npd) not in "fc":
        raise NotImplementedError(f"\"check_uniform_bounds\" not implemented for '{D.from_np(npd)._legacy}'")
    return npd


def _count(shape) -> int:
    return int(math.prod(shape))  # exact Python ints (np.prod's wrapper cost 8 us a draw)


def _uniform(rng: Engine, shape, npd, lo=0.0, hi=1.0):
    """Uniforms as ``Tensor.uniform_`` (complex: real and imaginary parts interleaved)."""
    npd = np.dtype(npd)
    if npd.kind == "c":
        real = np.dtype(np.float32 if npd == np.complex64 else np.float64)
        return rng.uniform(2 * _count(shape), real, lo, hi).view(npd).reshape(shape)
    x = rng.uniform(_count(shape), npd, lo, hi)
    return x if len(shape) == 1 else x.reshape(shape)  # (a 1-d draw is the shape already)


def _normal(rng: Engine, shape, npd, mean=0.0, std=1.0):
    """Normal samples as ``Tensor.normal_`` (complex: each part with variance 1/2)."""
    npd = np.dtype(npd)
    if npd.kind == "c":
        real = np.dtype(np.float32 if npd == np.complex64 else np.float64)
        return rng.normal(2 * _count(shape), real, 0.0, std / math.sqrt(2.0)).view(npd).reshape(shape) + mean
    return rng.normal(_count(shape), npd, mean, std).reshape(shape)


@_meta.factory
def rand(*size: int | Sequence[int], generator: Generator | None = None, out: Tensor | None = None,
         dtype: DType | None = None, layout: Layout | None = None, device: Device = None,
         requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """Uniform samples in [0, 1)."""
    di = _DEV_STATE["default"] if out is None and device is None else _out_index(out, check_device(device))
    npd = _float_dt(dtype)
    if COMPILE_RNG[0] is not None and generator is None and out is None:
        return COMPILE_RNG[0].draw("uniform", _sizes(size), npd, requires_grad)
    return _finish(_uniform(_rng(generator, di), _sizes(size), npd), requires_grad, out, di)


@_meta.factory
def randn(*size: int | Sequence[int], generator: Generator | None = None, out: Tensor | None = None,
          dtype: DType | None = None, layout: Layout | None = None, device: Device = None,
          requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """Standard normal samples."""
    di = _out_index(out, check_device(device))
    npd = _float_dt(dtype)
    if COMPILE_RNG[0] is not None and generator is None and out is None:
        return COMPILE_RNG[0].draw("normal", _sizes(size), npd, requires_grad)
    return _finish(_normal(_rng(generator, di), _sizes(size), npd), requires_grad, out, di)


@_meta.factory
def randint(low: int = 0, high: int | None = None, size: SizeLike | None = None, *,
            generator: Generator | None = None, out: Tensor | None = None, dtype: DType | None = None,
            layout: Layout | None = None, device: Device = None, requires_grad: bool = False) -> Tensor:
    """Integers uniform in [low, high)."""
    di = _DEV_STATE["default"] if out is None and device is None else _out_index(out, check_device(device))
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    if high is None:
        raise TypeError("randint() missing required argument 'high'")
    npd = _I64 if dtype is None else D.to_np(dtype)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    shape = _sizes((size,) if isinstance(size, int) else size if type(size) is tuple else tuple(size))
    r = _rng(generator, di).integers(_count(shape), low, high)
    if len(shape) != 1:  # (the draws are 1-d: the common shape already)
        r = r.reshape(shape)
    return _finish(r if npd is _I64 else r.astype(npd, copy=False), requires_grad, out, di)


@_meta.factory
def randperm(n: int, *, generator: Generator | None = None, out: Tensor | None = None,
             dtype: DType | None = None, layout: Layout | None = None, device: Device = None,
             requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    di = _out_index(out, check_device(device))
    npd = _I64 if dtype is None else D.to_np(dtype)
    return _finish(_rng(generator, di).permutation(int(n)).astype(npd, copy=False), requires_grad, out, di)


@_meta.factory
def normal(mean: TensorOrScalar = 0.0, std: TensorOrScalar = 1.0, size: SizeLike | None = None, *,
           generator: Generator | None = None, out: Tensor | None = None, dtype: DType | None = None,
           layout: Layout | None = None, device: Device = None, requires_grad: bool = False) -> Tensor:
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
        z = _normal(rng, shape, npd)  # PyTorch: normal_(0, 1), then mul_(std), add_(mean)
        return _finish((z * sb.astype(npd) + mb.astype(npd)).astype(npd), False, out,
                       None if out is not None else di)
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


def bernoulli(input: Tensor, p: float | None = None, *, generator: Generator | None = None,
              out: Tensor | None = None) -> Tensor:
    di = _buf_index(input._buf)
    pb = _dev.to_host(input._buf) if p is None else np.full(input._buf.shape, p)
    if not np.all((pb >= 0) & (pb <= 1)):  # NaN fails too
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false. "
                           "(bernoulli: probabilities must lie in [0, 1])")
    eng = _rng(generator, di)
    r = eng.bernoulli_tensor(pb) if p is None else eng.bernoulli_scalar(pb.size, float(p)).reshape(pb.shape)
    return _finish(r.astype(input._buf.dtype), False, out, None if out is not None else di)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator: Generator | None = None, out: Tensor | None = None) -> Tensor:
    di = _buf_index(input._buf)
    p = np.asarray(_dev.to_host(input._buf))
    if p.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{D.from_np(p.dtype)}")
    if p.ndim not in (1, 2):
        raise RuntimeError(f"prob_dist must be 1 or 2 dim, but got {p.ndim}-dim")
    rows = p.reshape(-1, p.shape[-1])
    for row in rows:
        if (row < 0).any() or not np.isfinite(row).all() or row.sum() <= 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        if not replacement and num_samples > np.count_nonzero(row):
            raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if num_samples <= 0:
        raise RuntimeError(f"cannot sample n_sample <= 0 samples (got {num_samples})")
    r = _rng(generator, di).multinomial(rows, int(num_samples), bool(replacement))
    if p.ndim == 1:
        r = r[0]
    return _finish(r, False, out, None if out is not None else di)


def poisson(input: Tensor, generator: Generator | None = None) -> Tensor:
    """Poisson samples with the rates in ``input`` (PyTorch's CPU stream: Hörmann's PTRS
    for rates >= 10, a product of uniforms below).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.poisson(torch.tensor([0.5, 3.0, 12.0, 100.0]))
        tensor([ 2.,  4., 13., 99.])
    """
    _check_float("poisson", input, narrow=True)
    di = _buf_index(input._buf)
    rate = np.asarray(_dev.to_host(input._buf))
    return _finish(_samplers.poisson(_rng(generator, di), rate), False, None, di)


def binomial(count: Tensor, prob: Tensor, generator: Generator | None = None) -> Tensor:
    """Binomial samples: ``count`` trials of success probability ``prob`` (tensors of one
    float dtype, broadcast; PyTorch's CPU stream: BTRS or inversion per element).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.binomial(torch.tensor([5., 100., 1000.]), torch.tensor([0.3, 0.6, 0.2]))
        tensor([  3.,  58., 187.])
    """
    if not isinstance(count, Tensor) or not isinstance(prob, Tensor):
        raise TypeError("binomial(): argument 'count' and 'prob' must be Tensors")
    _check_float("binomial", count)
    if count._buf.dtype != prob._buf.dtype:
        raise RuntimeError(f"binomial: expected count and prob to have the same dtype, but got "
                           f"{count.dtype} and {prob.dtype}")
    di = _buf_index(count._buf)
    n = np.asarray(_dev.to_host(count._buf))
    p = np.asarray(_dev.to_host(prob._buf))
    n, p = np.broadcast_arrays(n, p)
    return _finish(_samplers.binomial(_rng(generator, di), n, p), False, None, di)


def _check_float(name: str, t: Tensor, narrow: bool = False) -> None:
    dt = t._buf.dtype
    ok = dt in (np.float32, np.float64) or (narrow and _dtype_kind(dt) == "f")
    if not ok:
        kernel = name if name == "dirichlet" else f"{name}_cpu"  # PyTorch's kernel names
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{D.from_np(dt)._legacy}'")


@custom_jvp
def _gamma_at_sample(sample, concentration):
    """``sample`` (drawn for ``concentration``) with the implicit-reparameterisation
    derivative ``dx/da = -(dF/da)(a, x) / p(x; a)`` in the concentration."""
    return sample


def _gamma_at_sample_jvp(primals, tangents):
    sample, concentration = primals
    dconc = tangents[1]
    slope = _stop_gradient(standard_gamma_grad(concentration, sample))
    return sample, slope * dconc


_gamma_at_sample.defjvp(_gamma_at_sample_jvp)


@custom_jvp
def _dirichlet_at_sample(sample, concentration):
    """``sample`` (drawn for ``concentration``, categories on the last axis) with PyTorch's
    approximate implicit derivative in the concentration (``_Dirichlet.backward``)."""
    return sample


def _dirichlet_at_sample_jvp(primals, tangents):
    sample, concentration = primals
    total = _fnp.broadcast_to(concentration.sum(-1, keepdims=True), concentration.shape)
    slope = _stop_gradient(dirichlet_grad(sample, concentration, total))
    moved = slope * tangents[1]
    # the transpose of v -> slope * (v - sum(sample * v)), PyTorch's cotangent rule
    return sample, moved - sample * moved.sum(-1, keepdims=True)


_dirichlet_at_sample.defjvp(_dirichlet_at_sample_jvp)


def _standard_gamma(input, generator=None) -> Tensor:
    """Gamma(``input``, 1) samples, differentiable in ``input`` (PyTorch's CPU stream:
    Marsaglia-Tsang per element; the gradient is PyTorch's approximation of the implicit one,
    ``_reparam_grads.standard_gamma_grad``).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch._standard_gamma(torch.tensor([0.5, 1.0, 2.0, 5.0]))
        tensor([7.8936e-04, 1.1898e-01, 1.8824e+00, 3.4754e+00])
    """
    _check_float("gamma", input)
    di = _buf_index(input._buf)
    alpha = np.asarray(_dev.to_host(input._buf))
    return gamma_with_gradient(_samplers.standard_gamma(_rng(generator, di), alpha), input)


def gamma_with_gradient(sample: np.ndarray, concentration: Tensor) -> Tensor:
    """The host gamma draws ``sample`` (of ``concentration``'s shape and dtype) as a tensor on
    ``concentration``'s device, differentiable in ``concentration`` when it requires grad."""
    return _sample_with_gradient(sample, concentration, "StandardGammaBackward0", "_gamma_at_sample")


def _sample_with_gradient(sample: np.ndarray, concentration: Tensor, node: str, rule: str) -> Tensor:
    """Host draws ``sample`` as a tensor on ``concentration``'s device, recorded as the node
    ``node`` running this module's custom-JVP function ``rule`` when ``concentration``
    requires grad."""
    di = _buf_index(concentration._buf)
    if di is not None:
        sample = _dev.to_dev(sample, di)
    if not (STATE.enabled and (concentration._rg or concentration._gfn is not None)):
        return _finish(sample, False, None, None)
    return apply_op(node, ("fgrad.torch._random", rule), globals()[rule], (sample, concentration))


def _sample_dirichlet(input, generator=None) -> Tensor:
    """Dirichlet samples with concentrations on the last axis (PyTorch's CPU stream: float64
    gamma draws normalised, then rounded to ``input``'s dtype and kept inside (0, 1)); not
    differentiable here (``torch.distributions.Dirichlet.rsample`` is).  The float64 total is
    summed left to right: PyTorch's value for up to 4 categories; beyond, PyTorch's
    vectorised sum may differ in the last bit of the float64 result.

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch._sample_dirichlet(torch.tensor([1.0, 2.0, 3.0]))
        tensor([0.5282, 0.2411, 0.2307])
    """
    return _finish(_dirichlet_sample_host(input, generator), False, None, _buf_index(input._buf))


def _dirichlet_sample_host(input, generator=None) -> np.ndarray:
    """The host values of ``_sample_dirichlet(input)``."""
    _check_float("dirichlet", input)
    di = _buf_index(input._buf)
    gam = _samplers.dirichlet_gammas(_rng(generator, di), np.asarray(_dev.to_host(input._buf)))
    total = gam[..., 0].copy()
    for i in range(1, gam.shape[-1]):  # left to right, as PyTorch's sum of up to 4 values
        total += gam[..., i]
    x = (gam / total[..., None]).astype(input._buf.dtype)
    dt = input._buf.dtype
    return np.clip(x, np.finfo(dt).tiny, np.nextafter(dt.type(1), dt.type(0)))


def dirichlet_rsample(concentration: Tensor, generator=None) -> Tensor:
    """``torch.distributions.Dirichlet(concentration).rsample()``: ``_sample_dirichlet``'s
    values, differentiable in ``concentration`` with PyTorch's approximate implicit gradient
    (``_reparam_grads.dirichlet_grad``), when it requires grad."""
    sample = _dirichlet_sample_host(concentration, generator)
    return _sample_with_gradient(sample, concentration, "_DirichletBackward", "_dirichlet_at_sample")


def rand_like(input: Tensor, *, dtype: DType | None = None, layout: Layout | None = None,
              device: Device = None, requires_grad: bool = False,
              memory_format: memory_format | None = None) -> Tensor:
    npd = input._buf.dtype if dtype is None else D.to_np(dtype)
    di = like_index(input, device)
    if COMPILE_RNG[0] is not None:
        return COMPILE_RNG[0].draw("uniform", tuple(input._buf.shape), npd, requires_grad)
    # PyTorch keeps the layout and fills memory in order
    laid = (_like_layout(input, memory_format, lambda n: _uniform(_rng(None, di), (n,), npd))
            if di is None else None)
    if laid is not None:
        return _finish(laid, requires_grad)
    return _finish(_uniform(_rng(None, di), input._buf.shape, npd), requires_grad, None, di)


def randn_like(input: Tensor, *, dtype: DType | None = None, layout: Layout | None = None,
               device: Device = None, requires_grad: bool = False,
               memory_format: memory_format | None = None) -> Tensor:
    npd = input._buf.dtype if dtype is None else D.to_np(dtype)
    di = like_index(input, device)
    if COMPILE_RNG[0] is not None:
        return COMPILE_RNG[0].draw("normal", tuple(input._buf.shape), npd, requires_grad)
    # a non-contiguous result: PyTorch's element-by-element normals, in memory order
    laid = (_like_layout(input, memory_format, lambda n: _rng(None, di).serial_normal(n, npd))
            if di is None and npd.kind == "f" else None)
    if laid is not None:
        return _finish(laid, requires_grad)
    return _finish(_normal(_rng(None, di), input._buf.shape, npd), requires_grad, None, di)


def randint_like(input: Tensor, low: int = 0, high: int | None = None, *, dtype: DType | None = None,
                 layout: Layout | None = None, device: Device = None, requires_grad: bool = False,
                 memory_format: memory_format | None = None) -> Tensor:
    if high is None:
        low, high = 0, low
    npd = input._buf.dtype if dtype is None else D.to_np(dtype)
    di = like_index(input, device)
    shape = input._buf.shape
    # memory order, the input's layout
    laid = (_like_layout(input, memory_format, lambda n: _rng(None, di).integers(n, low, high).astype(npd))
            if di is None else None)
    if laid is not None:
        return _finish(laid, requires_grad)
    r = _rng(None, di).integers(_count(shape), low, high).reshape(shape)
    return _finish(r.astype(npd), requires_grad, None, di)


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



_C_TYPE = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
           "uint8": "unsigned char", "bool": "bool"}


def _check_continuous_fill(name: str, buf) -> None:
    """PyTorch's errors for a continuous random fill of an integer or bool tensor (its values
    would be truncated): ``uniform_``, ``normal_``, ``log_normal_`` raise NotImplementedError
    naming their kernel, ``cauchy_`` and ``exponential_`` a RuntimeError."""
    if _dtype_kind(buf.dtype) not in "biu":
        return
    legacy = D.from_np(buf.dtype)._legacy
    if name in ("cauchy", "exponential"):
        kind = _C_TYPE.get(np.dtype(buf.dtype).name, legacy) if name == "cauchy" else legacy
        raise RuntimeError(f"{name.capitalize()} distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified {kind}")
    kernel = {"uniform": "check_uniform_bounds", "normal": "normal_kernel_cpu",
              "log_normal": "log_normal_cpu"}[name]
    raise NotImplementedError(f"\"{kernel}\" not implemented for '{legacy}'")

@_meta.skips_meta
def uniform_(self: Tensor, a: float = 0.0, b: float = 1.0, *, generator: Generator | None = None) -> Tensor:
    buf = self._buf
    _check_continuous_fill("uniform", buf)
    return _fill(self, _uniform(_grng(generator, buf), buf.shape, buf.dtype, a, b), "UniformBackward0")


@_meta.skips_meta
def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    buf = self._buf
    _check_continuous_fill("normal", buf)
    eng = _grng(generator, buf)
    if type(buf) is np.ndarray and buf.dtype.kind == "f" and not buf.flags.c_contiguous and buf.size:
        # not contiguous: PyTorch's element-by-element kernel, in memory order
        vals = _in_order(eng.serial_normal(buf.size, buf.dtype, mean, std), buf.shape, _stride_order(buf))
    else:
        vals = _normal(eng, buf.shape, buf.dtype, mean, std)
    return _fill(self, vals, "NormalBackward0")


@_meta.skips_meta
def random_(self: Tensor, from_: int = 0, to: int | None = None, *,
            generator: Generator | None = None) -> Tensor:
    buf = self._buf
    eng = _grng(generator, buf)
    if to is None and from_ == 0:
        vals = eng.full_range(buf.size, buf.dtype).reshape(buf.shape)
    else:
        if to is None:  # random_(to)
            from_, to = 0, from_
        vals = eng.integers(buf.size, from_, to).reshape(buf.shape).astype(buf.dtype)
    return _fill(self, vals, "RandomBackward0")


def draw_order(t: Tensor) -> tuple | None:
    """`_storage.memory_order` of ``t`` when ``t`` is a view (a transpose or permute) of a
    C-contiguous tensor, whose layout is then PyTorch's too; None otherwise: a result fgrad
    computed may be laid out differently from PyTorch's (LAPACK results are row-major here,
    column-major there), and drawing in its memory order would then differ from PyTorch's
    logical-order draws.

    Example::

        >>> import fgrad.torch as torch
        >>> draw_order(torch.zeros(2, 3).t()), draw_order(torch.zeros(2, 3))
        ((1, 0), None)
    """
    base = t._base
    if base is None or not base._buf.flags.c_contiguous:
        return None
    return _memory_order(t._buf)


def _in_order(flat: np.ndarray, shape: tuple, order: tuple) -> np.ndarray:
    """``flat`` (values in the order of the axes ``order``, slowest first) as an array of
    ``shape``."""
    return flat.reshape([shape[a] for a in order]).transpose(np.argsort(order))


def _draw_in_memory_order(draw, t: Tensor) -> np.ndarray:
    """``draw(n)``'s values placed in ``t``'s memory order (see `draw_order`)."""
    buf = t._buf
    order = draw_order(t)
    if order is None:
        return draw(buf.size).reshape(buf.shape)
    return _in_order(draw(buf.size), buf.shape, order)


@_meta.skips_meta
def bernoulli_(self: Tensor, p: float = 0.5, *, generator: Generator | None = None) -> Tensor:
    buf = self._buf
    pb = _dev.to_host(p._buf) if isinstance(p, Tensor) else p
    if not np.all((np.asarray(pb) >= 0) & (np.asarray(pb) <= 1)):
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={pb}")
    eng = _grng(generator, buf)
    if isinstance(p, Tensor):
        draws = eng.bernoulli_tensor(np.broadcast_to(np.asarray(pb), buf.shape))
    else:
        draws = _draw_in_memory_order(lambda n: eng.bernoulli_scalar(n, float(p)), self)
    return _fill(self, draws.astype(buf.dtype), "BernoulliBackward0")


def _double_uniform(self, generator):
    return _grng(generator, self._buf).uniform(self._buf.size, np.float64).reshape(self._buf.shape)


@_meta.skips_meta
def exponential_(self: Tensor, lambd: float = 1.0, *, generator: Generator | None = None) -> Tensor:
    buf = self._buf
    _check_continuous_fill("exponential", buf)
    vals = _grng(generator, buf).exponential(buf.size, lambd).reshape(buf.shape)
    return _fill(self, vals.astype(buf.dtype), "ExponentialBackward0")


@_meta.skips_meta
def geometric_(self: Tensor, p: float, *, generator: Generator | None = None) -> Tensor:
    u = _double_uniform(self, generator)
    return _fill(self, np.ceil(np.log(u) / np.log1p(-p)).astype(self._buf.dtype), "GeometricBackward0")


@_meta.skips_meta
def log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *,
                generator: Generator | None = None) -> Tensor:
    _check_continuous_fill("log_normal", self._buf)
    eng = _grng(generator, self._buf)
    z = np.array([eng.double_normal() for _ in range(self._buf.size)], np.float64).reshape(self._buf.shape)
    return _fill(self, np.exp(z * std + mean).astype(self._buf.dtype), "LogNormalBackward0")


@_meta.skips_meta
def cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    _check_continuous_fill("cauchy", self._buf)
    u = _double_uniform(self, generator)
    vals = median + sigma * np.tan(math.pi * (u - 0.5))
    return _fill(self, vals.astype(self._buf.dtype), "CauchyBackward0")
