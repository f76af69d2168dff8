"""Neural-network layers as ``(init_fun, apply_fun)`` pairs (``jax.example_libraries.stax``).

``init_fun(rng, input_shape) -> (output_shape, params)`` draws the parameters from an
`fgrad.random` key; ``apply_fun(params, inputs, **kwargs) -> outputs`` is a pure function
(``rng=`` reaches the layers that need randomness, such as `Dropout`).  Combinators
(`serial`, `parallel`, `FanOut`, `FanInSum`, `FanInConcat`, `shape_dependent`) build models
from layers.  As in JAX, `Dropout`'s ``rate`` is the probability of *keeping* a unit.

The convolution and pooling layers call ``fgrad.lax.conv_general_dilated``,
``fgrad.lax.conv_transpose`` and ``fgrad.lax.reduce_window``; applying them raises
NotImplementedError where this fgrad has no such lax function (their ``init_fun`` works).

Example::

    >>> import fgrad.numpy as fnp, fgrad.random as random
    >>> from fgrad.example_libraries import stax
    >>> init_fun, apply_fun = stax.serial(stax.Dense(16), stax.Relu, stax.Dense(3), stax.LogSoftmax)
    >>> out_shape, params = init_fun(random.key(0), (-1, 8))
    >>> out_shape, apply_fun(params, fnp.ones((5, 8))).shape
    ((-1, 3), (5, 3))
"""

from __future__ import annotations

import functools
import math
import operator

import numpy as np

from .. import lax
from .. import nn
from .. import numpy as fnp
from .. import random
from ..nn import elu, gelu, leaky_relu, log_softmax, relu, selu, sigmoid, softmax, softplus, standardize
from ..nn.initializers import glorot_normal, normal, ones, zeros

# JAX's stax re-exports these functions and keeps three old aliases
logsoftmax = log_softmax
glorot = glorot_normal
randn = normal

__all__ = [
    "Dense", "Tanh", "Relu", "Exp", "LogSoftmax", "Softmax", "Softplus", "Sigmoid", "Elu", "LeakyRelu",
    "Selu", "Gelu", "Flatten", "Identity", "Dropout", "BatchNorm", "serial", "parallel", "FanOut", "FanInSum",
    "FanInConcat", "shape_dependent", "elementwise", "GeneralConv", "Conv", "Conv1DTranspose",
    "ConvTranspose", "GeneralConvTranspose", "MaxPool", "SumPool", "AvgPool",
    "elu", "gelu", "leaky_relu", "log_softmax", "logsoftmax", "relu", "selu", "sigmoid", "softmax",
    "softplus", "standardize", "glorot", "glorot_normal", "normal", "ones", "randn", "zeros",
]


# ---------------------------------------------------------------------------------------
# layers with parameters


def Dense(out_dim: int, W_init=None, b_init=None):
    """A fully connected layer ``inputs @ W + b``: ``W`` of shape ``(in, out_dim)`` from
    ``W_init`` (default Glorot normal), ``b`` from ``b_init`` (default normal, stddev 1e-2).

    Example::

        >>> import fgrad.random as random
        >>> from fgrad.example_libraries import stax
        >>> init_fun, apply_fun = stax.Dense(4)
        >>> shape, (W, b) = init_fun(random.key(0), (2, 3))
        >>> shape, W.shape, b.shape
        ((2, 4), (3, 4), (4,))
    """
    W_init = glorot_normal() if W_init is None else W_init
    b_init = normal() if b_init is None else b_init

    def init_fun(rng, input_shape):
        output_shape = tuple(input_shape[:-1]) + (out_dim,)
        k1, k2 = random.split(rng)
        return output_shape, (W_init(k1, (input_shape[-1], out_dim)), b_init(k2, (out_dim,)))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return fnp.dot(inputs, W) + b
    return init_fun, apply_fun


def BatchNorm(axis=(0, 1, 2), epsilon: float = 1e-5, center: bool = True, scale: bool = True,
              beta_init=zeros, gamma_init=ones):
    """Normalize over ``axis`` with the batch statistics (`fgrad.nn.standardize`), then
    scale by ``gamma`` and shift by ``beta`` (parameters over the other axes).  No running
    averages: like JAX's, this layer always uses the statistics of its input.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.random as random
        >>> from fgrad.example_libraries import stax
        >>> init_fun, apply_fun = stax.BatchNorm(axis=0)
        >>> shape, params = init_fun(random.key(0), (10, 3))
        >>> y = apply_fun(params, fnp.arange(30.0).reshape(10, 3))
        >>> bool(abs(y.mean(axis=0)).max() < 1e-12)
        True
    """
    axes = (axis,) if isinstance(axis, int) else tuple(axis)

    def init_fun(rng, input_shape):
        nd = len(input_shape)
        reduced = {a % nd for a in axes}
        shape = tuple(d for i, d in enumerate(input_shape) if i not in reduced)
        k1, k2 = random.split(rng)
        beta = beta_init(k1, shape) if center else ()
        gamma = gamma_init(k2, shape) if scale else ()
        return input_shape, (beta, gamma)

    def apply_fun(params, x, **kwargs):
        beta, gamma = params
        nd = fnp.ndim(x)
        reduced = {a % nd for a in axes}
        expand = tuple(None if i in reduced else slice(None) for i in range(nd))
        z = nn.standardize(x, tuple(sorted(reduced)), epsilon=epsilon)
        if scale:
            z = z * gamma[expand]
        if center:
            z = z + beta[expand]
        return z
    return init_fun, apply_fun


# ---------------------------------------------------------------------------------------
# elementwise layers


def elementwise(fun, **fun_kwargs):
    """A parameterless layer applying ``fun(inputs, **fun_kwargs)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import stax
        >>> _, apply_fun = stax.elementwise(fnp.square)
        >>> apply_fun((), fnp.asarray(3.0))
        Array(9., dtype=float64, weak_type=True)
    """
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        return fun(inputs, **fun_kwargs)
    return init_fun, apply_fun


Tanh = elementwise(fnp.tanh)
Relu = elementwise(nn.relu)
Exp = elementwise(fnp.exp)
LogSoftmax = elementwise(nn.log_softmax, axis=-1)
Softmax = elementwise(nn.softmax, axis=-1)
Softplus = elementwise(nn.softplus)
Sigmoid = elementwise(nn.sigmoid)
Elu = elementwise(nn.elu)
LeakyRelu = elementwise(nn.leaky_relu)
Selu = elementwise(nn.selu)
Gelu = elementwise(nn.gelu)


def _flatten_init(rng, input_shape):
    return (input_shape[0], math.prod(input_shape[1:])), ()


def _flatten_apply(params, inputs, **kwargs):
    return fnp.reshape(inputs, (inputs.shape[0], -1))


Flatten = (_flatten_init, _flatten_apply)
"""Flatten all but the leading (batch) axis."""
Identity = elementwise(lambda x: x)
"""The identity layer."""


def Dropout(rate: float, mode: str = "train"):
    """Dropout with *keep* probability ``rate`` (JAX's convention): in ``mode="train"`` each
    unit is kept with probability ``rate`` and scaled by ``1 / rate``; other modes are the
    identity.  ``apply_fun`` needs ``rng=``.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.random as random
        >>> from fgrad.example_libraries import stax
        >>> _, apply_fun = stax.Dropout(0.5)
        >>> y = apply_fun((), fnp.ones(1000), rng=random.key(0))
        >>> sorted(set(y.tolist()))
        [0.0, 2.0]
    """
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get("rng", None)
        if rng is None:
            raise ValueError("Dropout layer requires apply_fun to be called with a PRNG key argument. "
                             "That is, instead of `apply_fun(params, inputs)`, call it like "
                             "`apply_fun(params, inputs, rng)` where `rng` is a PRNG key "
                             "(e.g. from `fgrad.random.key`).")
        if mode != "train":
            return inputs
        keep = random.bernoulli(rng, rate, fnp.shape(inputs))
        return fnp.where(keep, inputs / rate, 0)
    return init_fun, apply_fun


# ---------------------------------------------------------------------------------------
# combinators


def serial(*layers):
    """Layers in sequence; the parameters are a tuple with one entry per layer, and an
    ``rng`` given to ``apply_fun`` is split among the layers.

    Example::

        >>> import fgrad.random as random
        >>> from fgrad.example_libraries import stax
        >>> init_fun, _ = stax.serial(stax.Dense(3), stax.Tanh)
        >>> shape, params = init_fun(random.key(0), (1, 2))
        >>> shape, len(params)
        ((1, 3), 2)
    """
    n_layers = len(layers)
    init_funs, apply_funs = zip(*layers) if layers else ((), ())

    def init_fun(rng, input_shape):
        params = []
        for init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, param = init(layer_rng, input_shape)
            params.append(param)
        return input_shape, params

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, n_layers) if rng is not None else (None,) * n_layers
        for fun, param, layer_rng in zip(apply_funs, params, rngs):
            inputs = fun(param, inputs, rng=layer_rng, **kwargs)
        return inputs
    return init_fun, apply_fun


def parallel(*layers):
    """Layers side by side: the input is a sequence with one entry per layer, and so is the
    output (use with `FanOut` and `FanInSum` / `FanInConcat`).

    Example::

        >>> import fgrad.numpy as fnp, fgrad.random as random
        >>> from fgrad.example_libraries import stax
        >>> init_fun, apply_fun = stax.parallel(stax.Tanh, stax.Exp)
        >>> shapes, params = init_fun(random.key(0), [(2,), (2,)])
        >>> [y.shape for y in apply_fun(params, [fnp.zeros(2), fnp.zeros(2)])]
        [(2,), (2,)]
    """
    n_layers = len(layers)
    init_funs, apply_funs = zip(*layers) if layers else ((), ())

    def init_fun(rng, input_shape):
        rngs = random.split(rng, n_layers)
        results = [init(r, shape) for init, r, shape in zip(init_funs, rngs, input_shape)]
        # tuples, as JAX's (its init returns ``zip(*results)``)
        return tuple(s for s, _ in results), tuple(p for _, p in results)

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, n_layers) if rng is not None else (None,) * n_layers
        return [f(p, x, rng=r, **kwargs) for f, p, x, r in zip(apply_funs, params, inputs, rngs)]
    return init_fun, apply_fun


def FanOut(num: int):
    """Copy the input ``num`` times (a list).

    Example::

        >>> from fgrad.example_libraries import stax
        >>> stax.FanOut(2)[0](None, (3,))
        ([(3,), (3,)], ())
    """
    def init_fun(rng, input_shape):
        return [input_shape] * num, ()

    def apply_fun(params, inputs, **kwargs):
        return [inputs] * num
    return init_fun, apply_fun


def _fan_in_sum_init(rng, input_shape):
    return input_shape[0], ()


def _fan_in_sum_apply(params, inputs, **kwargs):
    return functools.reduce(operator.add, inputs)


FanInSum = (_fan_in_sum_init, _fan_in_sum_apply)
"""Sum a list of inputs."""


def FanInConcat(axis: int = -1):
    """Concatenate a list of inputs along ``axis``.

    Example::

        >>> from fgrad.example_libraries import stax
        >>> stax.FanInConcat()[0](None, [(2, 3), (2, 5)])
        ((2, 8), ())
    """
    def init_fun(rng, input_shape):
        ax = axis % len(input_shape[0])
        size = sum(shape[ax] for shape in input_shape)
        first = tuple(input_shape[0])
        return first[:ax] + (size,) + first[ax + 1:], ()

    def apply_fun(params, inputs, **kwargs):
        return fnp.concatenate(inputs, axis)
    return init_fun, apply_fun


def shape_dependent(make_layer):
    """A layer built from the input's shape: ``make_layer(shape) -> (init_fun, apply_fun)``
    is called at init time and at every application.

    Example::

        >>> import fgrad.random as random
        >>> from fgrad.example_libraries import stax
        >>> init_fun, _ = stax.shape_dependent(lambda shape: stax.Dense(shape[-1] * 2))
        >>> init_fun(random.key(0), (1, 3))[0]
        (1, 6)
    """
    def init_fun(rng, input_shape):
        return make_layer(input_shape)[0](rng, input_shape)

    def apply_fun(params, inputs, **kwargs):
        return make_layer(fnp.shape(inputs))[1](params, inputs, **kwargs)
    return init_fun, apply_fun


# ---------------------------------------------------------------------------------------
# convolution and pooling (apply needs fgrad.lax.conv_general_dilated / reduce_window)


def _lax_function(name: str, layer: str):
    fun = getattr(lax, name, None)
    if fun is None:
        raise NotImplementedError(f"stax.{layer} needs fgrad.lax.{name}, which this fgrad does not have")
    return fun


def _pads(sizes, windows, strides, padding):
    """Explicit ``(low, high)`` padding per spatial axis for 'VALID', 'SAME' or pairs."""
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "VALID":
            return [(0, 0)] * len(sizes)
        if mode == "SAME":
            out = []
            for n, w, s in zip(sizes, windows, strides):
                total = max((-(-n // s) - 1) * s + w - n, 0)
                out.append((total // 2, total - total // 2))
            return out
        raise ValueError(f"Unknown padding type: {padding}.")
    return [tuple(p) for p in padding]


def _window_out(n, w, s, pad):
    """A pooled axis's length, never negative (JAX's ``core.stride_dim``: a batch axis of -1, the
    "any size" of ``input_shape``, pools to 0)."""
    return max(0, (n + pad[0] + pad[1] - w) // s + 1)


def GeneralConv(dimension_numbers, out_chan: int, filter_shape, strides=None, padding="VALID",
                W_init=None, b_init=None):
    """A convolution with layouts ``dimension_numbers = (lhs_spec, rhs_spec, out_spec)``
    (e.g. ``("NHWC", "HWIO", "NHWC")``), applied with ``lax.conv_general_dilated``.

    Example::

        >>> import fgrad.random as random
        >>> from fgrad.example_libraries import stax
        >>> init_fun, _ = stax.Conv(8, (3, 3), padding="SAME")
        >>> init_fun(random.key(0), (2, 10, 10, 3))[0]
        (np.int64(2), np.int64(10), np.int64(10), np.int64(8))
    """
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    one = (1,) * len(filter_shape)
    strides = tuple(strides) if strides else one
    if W_init is None:
        W_init = glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))
    b_init = normal(1e-6) if b_init is None else b_init
    spatial = [c for c in rhs_spec if c not in "IO"]

    def init_fun(rng, input_shape):
        sizes = [input_shape[lhs_spec.index(c)] for c in spatial]
        filters = iter(filter_shape)
        kernel_shape = tuple(out_chan if c == "O" else input_shape[lhs_spec.index("C")] if c == "I"
                             else next(filters) for c in rhs_spec)
        # NumPy integers, as JAX's (lax.conv_general_shape_tuple)
        output_shape = lax.conv_general_shape_tuple(input_shape, kernel_shape, strides,
                                                    _pads(sizes, filter_shape, strides, padding),
                                                    dimension_numbers)
        bias_shape = tuple(out_chan if c == "C" else 1 for c in out_spec)
        k1, k2 = random.split(rng)
        return output_shape, (W_init(k1, kernel_shape), b_init(k2, bias_shape))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        conv = _lax_function("conv_general_dilated", "GeneralConv")
        return conv(inputs, W, strides, padding, one, one, dimension_numbers=dimension_numbers) + b
    return init_fun, apply_fun


Conv = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))
Conv.__doc__ = "A 2D convolution, NHWC inputs and HWIO kernels (see `GeneralConv`)."


def GeneralConvTranspose(dimension_numbers, out_chan: int, filter_shape, strides=None, padding="VALID",
                         W_init=None, b_init=None):
    """A transposed convolution (``lax.conv_transpose``) with layouts ``dimension_numbers``;
    output sizes ``in * stride`` ('SAME') or ``in * stride + max(window - stride, 0)``
    ('VALID').

    Example::

        >>> import fgrad.random as random
        >>> from fgrad.example_libraries import stax
        >>> init_fun, _ = stax.ConvTranspose(4, (3, 3), strides=(2, 2), padding="SAME")
        >>> init_fun(random.key(0), (1, 5, 5, 2))[0]
        (np.int64(1), np.int64(10), np.int64(10), np.int64(4))
    """
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    one = (1,) * len(filter_shape)
    strides = tuple(strides) if strides else one
    if W_init is None:
        W_init = glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))
    b_init = normal(1e-6) if b_init is None else b_init

    def init_fun(rng, input_shape):
        filters = iter(filter_shape)
        kernel_shape = tuple(out_chan if c == "O" else input_shape[lhs_spec.index("C")] if c == "I"
                             else next(filters) for c in rhs_spec)
        if not (isinstance(padding, str) and padding.upper() in ("SAME", "VALID")):
            raise ValueError("stax.GeneralConvTranspose: padding must be 'SAME' or 'VALID'")
        # NumPy integers, as JAX's (lax.conv_transpose_shape_tuple)
        output_shape = lax.conv_transpose_shape_tuple(input_shape, kernel_shape, strides, padding,
                                                      dimension_numbers)
        bias_shape = tuple(out_chan if c == "C" else 1 for c in out_spec)
        k1, k2 = random.split(rng)
        return output_shape, (W_init(k1, kernel_shape), b_init(k2, bias_shape))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        conv_transpose = _lax_function("conv_transpose", "GeneralConvTranspose")
        return conv_transpose(inputs, W, strides, padding, dimension_numbers=dimension_numbers) + b
    return init_fun, apply_fun


Conv1DTranspose = functools.partial(GeneralConvTranspose, ("NHC", "HIO", "NHC"))
Conv1DTranspose.__doc__ = "A 1D transposed convolution, NHC inputs (see `GeneralConvTranspose`)."
ConvTranspose = functools.partial(GeneralConvTranspose, ("NHWC", "HWIO", "NHWC"))
ConvTranspose.__doc__ = "A 2D transposed convolution, NHWC inputs (see `GeneralConvTranspose`)."


def _pooling_layer(name: str, reducer_name: str, init_val: float, average: bool = False):
    def PoolingLayer(window_shape, strides=None, padding="VALID", spec=None):
        window_shape = tuple(window_shape)
        spatial_strides = tuple(strides) if strides else (1,) * len(window_shape)
        spatial_windows = window_shape
        if spec is None:
            non_spatial = (0, len(window_shape) + 1)
        else:
            non_spatial = (spec.index("N"), spec.index("C"))
        dims, steps = spatial_windows, spatial_strides
        for i in sorted(non_spatial):
            dims = dims[:i] + (1,) + dims[i:]
            steps = steps[:i] + (1,) + steps[i:]

        def init_fun(rng, input_shape):
            pads = _pads(input_shape, dims, steps, padding)
            return tuple(_window_out(n, w, s, p) for n, w, s, p in zip(input_shape, dims, steps, pads)), ()

        def apply_fun(params, inputs, **kwargs):
            reduce_window = _lax_function("reduce_window", name)
            reducer = getattr(lax, reducer_name)
            out = reduce_window(inputs, init_val, reducer, dims, steps, padding)
            if not average:
                return out
            nd = fnp.ndim(inputs)
            spatial_shape = tuple(inputs.shape[i] for i in range(nd) if i not in non_spatial)
            counts = reduce_window(fnp.ones(spatial_shape, dtype=fnp.result_type(inputs)), 0.0, lax.add,
                                   spatial_windows, spatial_strides, padding)
            for i in sorted(non_spatial):
                counts = fnp.expand_dims(counts, i)
            return out / counts
        return init_fun, apply_fun
    PoolingLayer.__name__ = PoolingLayer.__qualname__ = name
    PoolingLayer.__doc__ = (f"{name}(window_shape, strides=None, padding='VALID', spec=None): "
                            f"{'max' if reducer_name == 'max' else 'sum'}-pooling over spatial windows"
                            f"{' divided by the number of (unpadded) entries' if average else ''} "
                            "(``lax.reduce_window``); ``spec`` names the layout, default batch first "
                            "and channels last.")
    return PoolingLayer


MaxPool = _pooling_layer("MaxPool", "max", -np.inf)
SumPool = _pooling_layer("SumPool", "add", 0.0)
AvgPool = _pooling_layer("AvgPool", "add", 0.0, average=True)
MaxPool.__doc__ += """

Example::

    >>> import fgrad.numpy as jnp
    >>> from fgrad import random
    >>> from fgrad.example_libraries import stax
    >>> init_fun, apply_fun = stax.MaxPool((2, 2))
    >>> init_fun(random.key(0), (1, 4, 4, 1))[0]
    (1, 3, 3, 1)
    >>> apply_fun((), jnp.arange(16.0).reshape(1, 4, 4, 1))[0, :, :, 0]
    Array([[ 5.,  6.,  7.],
           [ 9., 10., 11.],
           [13., 14., 15.]], dtype=float64)
"""
SumPool.__doc__ += """

Example::

    >>> import fgrad.numpy as jnp
    >>> from fgrad.example_libraries import stax
    >>> init_fun, apply_fun = stax.SumPool((2, 2), strides=(2, 2))
    >>> apply_fun((), jnp.arange(16.0).reshape(1, 4, 4, 1))[0, :, :, 0]
    Array([[10., 18.],
           [42., 50.]], dtype=float64)
"""
AvgPool.__doc__ += """

Example::

    >>> import fgrad.numpy as jnp
    >>> from fgrad.example_libraries import stax
    >>> init_fun, apply_fun = stax.AvgPool((2, 2), strides=(2, 2))
    >>> apply_fun((), jnp.arange(16.0).reshape(1, 4, 4, 1))[0, :, :, 0]
    Array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float64)
"""
