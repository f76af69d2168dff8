"""fgrad: composable function transformations (grad, vmap, jit, ...) over NumPy/CuPy
arrays, and a PyTorch-style imperative face on the same engine.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> f = lambda x: fnp.sum(fnp.tanh(x) ** 2)
    >>> fgrad.grad(f)(fnp.asarray([0.5, -1.0]))
    Array([ 0.72686198, -0.63970001], dtype=float64)
"""

from __future__ import annotations

import importlib

from .core.array import Array, ArrayImpl, ShapeDtypeStruct, ShapedArray, Tracer
from .core.trace import ConcretizationError, UnexpectedTracerError
from .core.primitive import Primitive
from . import numpy  # noqa: F401  (installs the Array operator API)
from .transforms.ad import grad, value_and_grad, jvp, vjp, linearize, jacfwd, jacrev, hessian
from .transforms.fwd_and_bwd import fwd_and_bwd
from ._dslice import ds
from .transforms.batching import vmap
from .transforms.custom import custom_jvp, custom_vjp
from .transforms.custom_gradient import custom_gradient
from .transforms.closure_convert import closure_convert
from .core.array import FLOAT0 as float0  # JAX's tangent dtype of integers
from .transforms.jit import jit, make_jaxpr, disable_jit, eval_shape
from .transforms.linear_transpose import linear_transpose
from .transforms.staging import ensure_compile_time_eval
from . import tree_util  # noqa: F401
from . import tree  # noqa: F401
from . import custom_batching, custom_derivatives, dlpack, version  # noqa: F401
from . import errors, dtypes, typing, flatten_util, test_util  # noqa: F401
from . import sharding  # noqa: F401
from .sharding import NamedSharding, make_mesh, reshard, set_mesh, typeof  # noqa: F401
from .sharding import PartitionSpec as P  # noqa: F401
from .tree_util import tree_map, tree_leaves, tree_structure, tree_flatten, tree_unflatten  # noqa: F401
from .backends import Device, DeviceMismatchError  # noqa: F401
from .backends import default_device_scope as default_device  # noqa: F401
from .core.placement import device_put  # noqa: F401
from ._device_api import (  # noqa: F401
    block_until_ready, default_backend, device_count, device_get, device_put_replicated, devices,
    copy_to_host_async, device_put_sharded, local_device_count, local_devices,
)
from .sharding import (  # noqa: F401
    make_array_from_callback, make_array_from_process_local_data, make_array_from_single_device_arrays,
)
from ._naming import named_call, named_scope  # noqa: F401
from ._pmap import pmap  # noqa: F401
from ._shard_map import shard_map  # noqa: F401
from ._refs import Ref, empty_ref, free_ref, freeze, new_ref  # noqa: F401
from . import ref  # noqa: F401
from ._runtime_api import clear_caches, live_arrays, print_environment_info  # noqa: F401
from . import debug, monitoring  # noqa: F401
from ._callbacks_api import effects_barrier, pure_callback  # noqa: F401
from . import ad_checkpoint  # noqa: F401
from . import io  # noqa: F401,E402  (checkpoints: fgrad.io.save / fgrad.io.load)
from .ad_checkpoint import checkpoint, checkpoint_policies, remat  # noqa: F401
from ._config import config, debug_infs, debug_nans  # noqa: F401
from ._config import (  # noqa: F401
    check_tracer_leaks, checking_leaks, debug_key_reuse, default_matmul_precision, default_prng_impl,
    enable_checks, enable_x64, explain_cache_misses, softmax_custom_jvp, log_compiles, threefry_partitionable,
    numpy_dtype_promotion, numpy_rank_promotion, transfer_guard, transfer_guard_device_to_device,
    transfer_guard_device_to_host, transfer_guard_host_to_device,
)
from ._config import apply_environment as _apply_config_environment
from . import backends as _backends
from .backends import world as _world
from .distributed import process_count, process_index  # noqa: F401  (as jax.process_index)
from .distributed import host_count, host_id, process_indices  # noqa: F401
from .core.host_malloc import tune_host_malloc as _tune_host_malloc

_tune_host_malloc()  # keep freed host memory for the next temporary (core/host_malloc.py)

_backends._init_from_env()
_apply_config_environment()
if _world.launched_size() > 1:  # under mpiexec: an uncaught exception aborts the whole job
    _world.install_abort_on_exception()

jacobian = jacrev  # JAX's alias

_LAZY_SUBMODULES = ("nn", "lax", "random", "torch", "testing", "distributed", "image", "scipy", "profiler",
                    "example_libraries", "experimental", "stages", "export")


def __getattr__(name):
    # submodules load on first use, so `import fgrad` stays light
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'fgrad' has no attribute {name!r}")


def stop_gradient(x):
    """Identity whose derivative is zero (applied to every leaf of a pytree)."""
    from .lax import stop_gradient as _sg

    return _sg(x)

from ._version import __version__, __version_info__  # noqa: E402,F401

__all__ = [
    "Array", "ArrayImpl", "ShapedArray", "Tracer", "Primitive", "ConcretizationError",
    "UnexpectedTracerError", "grad", "value_and_grad", "jvp", "vjp", "fwd_and_bwd", "ds", "linearize",
    "linear_transpose", "jacfwd",
    "jacrev", "hessian", "vmap", "custom_jvp", "custom_vjp", "custom_gradient", "closure_convert", "float0",
    "numpy",
    "tree_util", "jit",
    "make_jaxpr", "disable_jit", "stop_gradient", "tree_map", "tree_leaves", "tree_structure",
    "tree_flatten", "tree_unflatten", "device_put", "devices", "default_device", "Device",
    "DeviceMismatchError", "config", "jacobian", "eval_shape", "ShapeDtypeStruct", "named_call",
    "named_scope", "block_until_ready", "device_get", "device_put_replicated", "device_put_sharded",
    "default_backend", "local_devices", "local_device_count", "device_count", "process_index",
    "process_count", "ensure_compile_time_eval", "tree", "errors", "dtypes", "typing",
    "flatten_util", "test_util", "debug", "pure_callback", "ad_checkpoint", "checkpoint", "remat",
    "checkpoint_policies", "debug_nans", "debug_infs", "sharding", "make_mesh", "set_mesh", "reshard",
    "typeof", "P",
    "pmap", "shard_map", "Ref", "ref", "new_ref", "empty_ref", "freeze", "free_ref",
    "clear_caches", "live_arrays", "print_environment_info", "custom_gradient",
    "custom_batching", "custom_derivatives", "check_tracer_leaks", "checking_leaks", "debug_key_reuse",
    "default_matmul_precision", "enable_x64", "explain_cache_misses", "log_compiles",
    "threefry_partitionable",
    "numpy_dtype_promotion", "numpy_rank_promotion", "transfer_guard", "transfer_guard_device_to_device",
    "transfer_guard_device_to_host", "transfer_guard_host_to_device", "host_id", "host_count",
    "process_indices", "make_array_from_callback", "make_array_from_single_device_arrays",
    "make_array_from_process_local_data", "copy_to_host_async", "effects_barrier", "dlpack", "version",
    "NamedSharding", "default_prng_impl", "enable_checks", "softmax_custom_jvp",
]

from . import _docs as _docs_examples  # noqa: E402

_docs_examples.attach("fgrad")  # runnable examples for the functions without one (fgrad/_docs)
