"""Which public names of NumPy (main namespace, ``linalg``, ``fft``) and of JAX (the top
level ``jax``, ``jax.numpy``, its ``linalg``/``fft``, ``jax.scipy.special``/``stats``/
``linalg``/``optimize``) fgrad lacks, with the reason for each deliberate gap.  Needs numpy
and (for the JAX columns) jax.

    python tools/api_coverage.py            # the missing names, by namespace
    python tools/api_coverage.py --markdown # the table in docs/numpy-breadth.md
"""

from __future__ import annotations

import importlib
import sys

# names deliberately not provided, with the reason (a prefix matches a family)
SKIPPED = {
    "dtype names of ml_dtypes": (
        "bfloat16",
        "float4_*",
        "float6_*",
        "float8_*",
    ),
    "strings, characters, records, masked arrays, datetimes": (
        "char",
        "strings",
        "rec",
        "recarray",
        "record",
        "ma",
        "datetime*",
        "timedelta*",
        "busday*",
        "is_busday",
        "isnat",
        "str_",
        "bytes_",
        "void",
        "flexible",
        "character",
        "format_float*",
        "array2string",
        "base_repr",
        "binary_repr",
        "typename",
        "mintypecode",
        "sctypeDict",
        "typecodes",
        "common_type",
    ),
    "NumPy's matrix class and polynomial classes": ("matrix", "asmatrix", "bmat", "poly1d", "polynomial"),
    "NumPy internals, build info, testing and memory layout": (
        "core",
        "lib",
        "ctypeslib",
        "f2py",
        "testing",
        "test",
        "show_config",
        "show_runtime",
        "get_include",
        "info",
        "little_endian",
        "dtypes",
        "exceptions",
        "typing",
        "random",
        "emath",
        "errstate",
        "geterr",
        "seterr",
        "geterrcall",
        "seterrcall",
        "getbufsize",
        "setbufsize",
        "nditer",
        "nested_iters",
        "flatiter",
        "ndenumerate",
        "ndindex",
        "broadcast",
        "memmap",
        "may_share_memory",
        "shares_memory",
        "copyto",
        "asanyarray",
        "ascontiguousarray",
        "asfortranarray",
        "asarray_chkfinite",
        "require",
        "isfortran",
        "min_scalar_type",
        "putmask",
        "ScalarType",
        "False_",
        "True_",
    ),
    "scalar type aliases NumPy 2 keeps for C types (use the sized dtypes)": (
        "byte",
        "ubyte",
        "short",
        "ushort",
        "intc",
        "uintc",
        "intp",
        "uintp",
        "long",
        "ulong",
        "longlong",
        "ulonglong",
        "longdouble",
        "clongdouble",
        "half",
        "float128",
        "complex256",
    ),
    "a data-dependent dtype (JAX lacks it too)": ("real_if_close",),
    "another helper's task in this session (optax: vectorize, iscomplexobj)": ("vectorize", "iscomplexobj"),
    # the top level (``jax`` vs ``fgrad``)
    "JAX internals and compiler plumbing (no XLA in fgrad)": (
        "ad", "api_util", "interpreters", "lib", "ffi", "monitoring", "memory", "export",
        "make_user_context",
    ),
    "multi-device sharding (fgrad keeps each array whole on one device; docs/jax-api-more.md; "
    "shard_map is emulated, docs/shard-map-and-refs.md)": (
        "smap", "reshard", "Shard", "auto_pcast", "remove_size_one_mesh_axis_from_type",
    ),
    "JAX options fgrad does not implement (accepting them silently would hide a check or change numbers)": (
        "no_tracing", "no_execution", "thread_guard", "array_garbage_collection_guard",
        "threefry_partitionable", "legacy_prng_key", "enable_custom_prng", "allow_f16_reductions",
        "jax2tf_associative_scan_reductions",
    ),
    "deprecated aliases (use process_indices)": ("host_ids",),
}

PAIRS = [
    ("jax", "fgrad"),
    ("numpy", "fgrad.numpy"),
    ("numpy.linalg", "fgrad.numpy.linalg"),
    ("numpy.fft", "fgrad.numpy.fft"),
    ("jax.numpy", "fgrad.numpy"),
    ("jax.numpy.linalg", "fgrad.numpy.linalg"),
    ("jax.numpy.fft", "fgrad.numpy.fft"),
    ("jax.scipy.special", "fgrad.scipy.special"),
    ("jax.scipy.stats", "fgrad.scipy.stats"),
    ("jax.scipy.linalg", "fgrad.scipy.linalg"),
    ("jax.scipy.sparse.linalg", "fgrad.scipy.sparse.linalg"),
    ("jax.scipy.optimize", "fgrad.scipy.optimize"),
    ("jax.scipy.signal", "fgrad.scipy.signal"),
    ("jax.scipy.fft", "fgrad.scipy.fft"),
    ("jax.scipy.integrate", "fgrad.scipy.integrate"),
    ("jax.scipy.interpolate", "fgrad.scipy.interpolate"),
    ("jax.scipy.ndimage", "fgrad.scipy.ndimage"),
    ("jax.scipy.spatial.transform", "fgrad.scipy.spatial.transform"),
    ("jax.scipy.cluster.vq", "fgrad.scipy.cluster.vq"),
]


def public(module) -> set[str]:
    return {n for n in dir(module) if not n.startswith("_")}


def reason(name: str) -> str | None:
    for why, names in SKIPPED.items():
        if any(name == n or (n.endswith("*") and name.startswith(n[:-1])) for n in names):
            return why
    return None


def missing() -> dict[str, list[tuple[str, str | None]]]:
    out = {}
    for peer, ours in PAIRS:
        try:
            peer_mod = importlib.import_module(peer)
        except ImportError:
            continue
        if peer.startswith("jax"):
            import jax

            jax.config.update("jax_enable_x64", True)
        ours_mod = importlib.import_module(ours)
        # hasattr: submodules that load on first use (fgrad.nn, fgrad.scipy ...) count
        gap = sorted(n for n in public(peer_mod) - public(ours_mod) if not hasattr(ours_mod, n))
        out[peer] = [(n, reason(n)) for n in gap]
    return out


def main(argv: list[str]) -> int:
    gaps = missing()
    if "--markdown" in argv:
        print("| peer namespace | missing in fgrad | why |")
        print("|---|---|---|")
        for peer, names in gaps.items():
            by_reason: dict[str | None, list[str]] = {}
            for n, why in names:
                by_reason.setdefault(why, []).append(n)
            for why, ns in by_reason.items():
                print(f"| `{peer}` | {', '.join(f'`{n}`' for n in ns)} | {why or '**not classified**'} |")
        return 0
    unclassified = 0
    for peer, names in gaps.items():
        print(f"{peer}: {len(names)} missing")
        for n, why in names:
            print(f"  {n:28s} {why or 'NOT CLASSIFIED'}")
            unclassified += why is None
    return 1 if unclassified else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
