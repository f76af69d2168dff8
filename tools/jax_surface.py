"""Which public names of JAX's public namespaces fgrad's matching module lacks (issue 12: "a
real JAX program runs by changing its imports").  ``jax.X`` is ``fgrad.X`` under the alias
(`fgrad.jax_alias`), so each JAX module is compared with the fgrad module of the same path.
Needs jax (0.10.2, the release fgrad follows).  Not a test: a report.

    python tools/jax_surface.py            # counts per namespace, then the missing names
    python tools/jax_surface.py --counts   # counts only
    python tools/jax_surface.py --json     # {namespace: [missing names]} (for diffs)

Left out of the comparison: names starting with ``_``, and JAX's incidental re-exports of
other libraries' objects (``functools.partial``, ``typing.Any``, ``numpy`` as ``np``, ...): a
name counts when its object belongs to JAX (its module is under ``jax``/``jaxlib``), is a
NumPy scalar type or ufunc-like object that ``jax.numpy`` exports on purpose, or is a plain
constant.  A namespace JAX has and fgrad lacks entirely counts every one of its names.
"""

from __future__ import annotations

import importlib
import json
import os
import pathlib
import sys
import types
import warnings

# the JAX namespaces a program imports (JAX 0.10.2's public modules)
NAMESPACES = (
    "jax",
    "jax.numpy", "jax.numpy.linalg", "jax.numpy.fft",
    "jax.lax", "jax.lax.linalg",
    "jax.random",
    "jax.nn", "jax.nn.initializers",
    "jax.scipy.special", "jax.scipy.stats",
    "jax.scipy.stats.bernoulli", "jax.scipy.stats.beta", "jax.scipy.stats.betabinom",
    "jax.scipy.stats.binom", "jax.scipy.stats.cauchy", "jax.scipy.stats.chi2",
    "jax.scipy.stats.dirichlet", "jax.scipy.stats.expon", "jax.scipy.stats.gamma",
    "jax.scipy.stats.gennorm", "jax.scipy.stats.geom", "jax.scipy.stats.gumbel_l",
    "jax.scipy.stats.gumbel_r", "jax.scipy.stats.laplace", "jax.scipy.stats.logistic",
    "jax.scipy.stats.multinomial", "jax.scipy.stats.multivariate_normal",
    "jax.scipy.stats.nbinom", "jax.scipy.stats.norm", "jax.scipy.stats.pareto",
    "jax.scipy.stats.poisson", "jax.scipy.stats.t", "jax.scipy.stats.truncnorm",
    "jax.scipy.stats.uniform", "jax.scipy.stats.vonmises", "jax.scipy.stats.wrapcauchy",
    "jax.scipy.linalg", "jax.scipy.signal", "jax.scipy.optimize", "jax.scipy.interpolate",
    "jax.scipy.integrate", "jax.scipy.ndimage", "jax.scipy.spatial.transform",
    "jax.scipy.cluster.vq", "jax.scipy.fft", "jax.scipy.sparse.linalg",
    "jax.tree_util", "jax.tree", "jax.flatten_util",
    "jax.experimental.sparse", "jax.experimental.ode", "jax.experimental.checkify",
    "jax.experimental.jet", "jax.experimental.multihost_utils", "jax.experimental.mesh_utils",
    "jax.experimental.shard_map", "jax.experimental.compilation_cache.compilation_cache",
    "jax.dtypes", "jax.errors", "jax.debug", "jax.custom_derivatives", "jax.custom_batching",
    "jax.sharding", "jax.stages", "jax.export", "jax.typing", "jax.image", "jax.ad_checkpoint",
    "jax.profiler", "jax.distributed", "jax.dlpack", "jax.ref", "jax.monitoring",
    "jax.core", "jax.extend", "jax.extend.core", "jax.extend.linear_util",
    "jax.extend.backend", "jax.extend.random", "jax.extend.source_info_util",
    "jax.interpreters.ad", "jax.interpreters.batching",
    "jax.experimental.pjit", "jax.experimental.custom_partitioning",
)

# objects from these libraries that JAX modules hold only because they imported them
_FOREIGN = ("functools", "typing", "collections", "warnings", "builtins", "operator",
            "itertools", "abc", "dataclasses", "contextlib", "enum", "types", "weakref",
            "inspect", "math", "threading", "logging", "os", "sys", "re", "textwrap", "jaxlib",
            "__future__", "numpy", "zlib", "opt_einsum", "ml_dtypes")

# JAX modules without ``__all__`` whose other top-level names are their implementation's
# helpers (JAX's API documentation lists only these)
DOCUMENTED = {
    "jax.experimental.ode": ("odeint",),
    "jax.experimental.jet": ("jet",),
    "jax.experimental.multihost_utils": (
        "broadcast_one_to_all", "sync_global_devices", "process_allgather", "assert_equal",
        "host_local_array_to_global_array", "global_array_to_host_local_array",
        "reached_preemption_sync_point", "live_devices"),
    "jax.experimental.mesh_utils": ("create_device_mesh", "create_hybrid_device_mesh"),
    "jax.experimental.shard_map": ("shard_map",),
}


def _own(peer_mod: types.ModuleType, name: str) -> bool:
    """Is ``peer_mod.name`` part of JAX's API (not an incidental import)?"""
    if peer_mod.__name__ in DOCUMENTED:
        return name in DOCUMENTED[peer_mod.__name__]
    obj = getattr(peer_mod, name, None)
    if isinstance(obj, types.ModuleType):
        # a public submodule (jax.numpy.linalg) counts; an imported library or one of JAX's
        # private modules (np, jax._src.core as ``core``) does not
        return obj.__name__ == f"{peer_mod.__name__}.{name}"
    mod = getattr(obj, "__module__", None)
    if not isinstance(mod, str) or peer_mod.__name__ == "jax.numpy":
        return True  # constants (jnp.pi), NumPy's scalar types jax.numpy exports on purpose
    return mod.split(".")[0] not in _FOREIGN


def public(module: types.ModuleType) -> set[str]:
    names = getattr(module, "__all__", None)
    base = set(names) if names is not None else set(dir(module))
    return {n for n in base if not n.startswith("_")} | {
        n for n in dir(module) if not n.startswith("_")}


def missing(namespaces=NAMESPACES) -> dict[str, list[str]]:
    """``{jax namespace: sorted names that fgrad's matching module lacks}``."""
    import jax

    jax.config.update("jax_enable_x64", True)
    import fgrad

    out: dict[str, list[str]] = {}
    for peer in dict.fromkeys(namespaces):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                peer_mod = importlib.import_module(peer)
        except ImportError:
            continue
        ours_name = "fgrad" + peer[len("jax"):]
        try:
            ours_mod = importlib.import_module(ours_name)
        except ImportError:
            ours_mod = None
        names = sorted(n for n in public(peer_mod) if _own(peer_mod, n))
        if ours_mod is None:
            out[peer] = names
            continue
        # hasattr: names that load on first use count
        out[peer] = [n for n in names if not hasattr(ours_mod, n)]
    del fgrad
    return out


def main(argv: list[str]) -> int:
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    root = pathlib.Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))  # the checkout's fgrad
    gaps = missing()
    if "--json" in argv:
        print(json.dumps(gaps, indent=1, sort_keys=True))
        return 0
    total = 0
    for peer, names in gaps.items():
        total += len(names)
        print(f"{peer:52s} {len(names):4d} missing")
    print(f"{'total':52s} {total:4d} missing")
    if "--counts" not in argv:
        for peer, names in gaps.items():
            if names:
                print(f"\n{peer}:\n  " + " ".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
