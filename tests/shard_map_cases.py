"""Programs that use ``shard_map``, written once for JAX and fgrad (``ns`` gives the
namespace: ``ns.shard_map``, ``ns.lax``, ``ns.np``, ``ns.P``, ``ns.grad``, ``ns.jit``,
``ns.vmap`` and the meshes ``ns.mesh4`` (axis "i" of 4) and ``ns.mesh22`` (axes "a", "b"
of 2)).  ``python tests/shard_map_cases.py`` runs them on JAX with 4 host devices and stores
the numbers in tests/stored/jax_shard_map.json (what tests/test_shard_map.py compares with).
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np

X8 = np.linspace(-1.0, 2.0, 8)
M44 = np.arange(16.0).reshape(4, 4) / 7.0 - 1.0
W = 1.5


def _loss(ns, w, x):
    return ns.np.sum(ns.np.sin(w * x) * x)


CASES = {
    # forward: blocks, collectives, specs
    "normalize": lambda ns: ns.shard_map(lambda x: x / ns.lax.psum(ns.np.sum(x), "i"), mesh=ns.mesh4,
                                         in_specs=ns.P("i"), out_specs=ns.P("i"))(X8),
    "pmean_pmax_pmin": lambda ns: ns.shard_map(
        lambda x: ns.np.stack([ns.lax.pmean(x, "i"), ns.lax.pmax(x, "i"), ns.lax.pmin(x, "i")]),
        mesh=ns.mesh4, in_specs=ns.P("i"), out_specs=ns.P())(X8),
    "axis_index_size": lambda ns: ns.shard_map(
        lambda x: x * ns.lax.axis_index("i") + ns.lax.axis_size("i"), mesh=ns.mesh4,
        in_specs=ns.P("i"), out_specs=ns.P("i"))(X8),
    "all_gather": lambda ns: ns.shard_map(lambda x: ns.lax.all_gather(x, "i", tiled=True) * 2.0,
                                          mesh=ns.mesh4, in_specs=ns.P("i"), out_specs=ns.P(),
                                          check_vma=False)(X8),
    "psum_scatter": lambda ns: ns.shard_map(lambda x: ns.lax.psum_scatter(x, "i", tiled=True),
                                            mesh=ns.mesh4, in_specs=ns.P("i"), out_specs=ns.P("i"))(
        np.tile(X8, 4)),
    "ppermute": lambda ns: ns.shard_map(lambda x: ns.lax.ppermute(x, "i", [(0, 1), (1, 2), (2, 3), (3, 0)]),
                                        mesh=ns.mesh4, in_specs=ns.P("i"), out_specs=ns.P("i"))(X8),
    "psum_invariant": lambda ns: ns.shard_map(lambda w: ns.lax.psum(w, "i"), mesh=ns.mesh4,
                                              in_specs=ns.P(), out_specs=ns.P())(np.float64(W)),
    "unchecked_block0": lambda ns: ns.shard_map(lambda x: ns.np.sum(x), mesh=ns.mesh4, in_specs=ns.P("i"),
                                                out_specs=ns.P(), check_vma=False)(X8),
    "mesh2d_rows_cols": lambda ns: ns.shard_map(
        lambda x: ns.lax.psum(x, "a") + ns.lax.axis_index("b") * 10.0, mesh=ns.mesh22,
        in_specs=ns.P("a", "b"), out_specs=ns.P(None, "b"))(M44),
    "mesh2d_tuple_spec": lambda ns: ns.shard_map(lambda x: x * (1.0 + ns.lax.axis_index("a")), mesh=ns.mesh22,
                                                 in_specs=ns.P(("a", "b")), out_specs=ns.P(("b", "a")))(X8),
    "mesh2d_replicate_out": lambda ns: ns.shard_map(lambda x: x * 3.0, mesh=ns.mesh22, in_specs=ns.P("a"),
                                                    out_specs=ns.P("a", "b"))(M44[:, :2]),
    "matmul_psum": lambda ns: ns.shard_map(lambda a, b: ns.lax.psum(a @ b, "i"), mesh=ns.mesh4,
                                           in_specs=(ns.P(None, "i"), ns.P("i", None)), out_specs=ns.P())(
        M44, M44.T),
    "pytree_args": lambda ns: ns.shard_map(
        lambda d: {"s": ns.lax.psum(d["x"] * d["y"][0], "i"), "x": d["x"] * 2.0}, mesh=ns.mesh4,
        in_specs=({"x": ns.P("i"), "y": ns.P()},), out_specs={"s": ns.P(), "x": ns.P("i")})(
        {"x": X8, "y": (np.float64(W),)}),
    # transforms of a shard_map'ed function
    "grad_outside": lambda ns: ns.grad(ns.shard_map(lambda w, x: ns.lax.psum(_loss(ns, w, x), "i"),
                                                    mesh=ns.mesh4, in_specs=(ns.P(), ns.P("i")),
                                                    out_specs=ns.P()), argnums=(0, 1))(np.float64(W), X8),
    "jit_outside": lambda ns: ns.jit(ns.shard_map(lambda x: x / ns.lax.psum(ns.np.sum(x), "i"), mesh=ns.mesh4,
                                                  in_specs=ns.P("i"), out_specs=ns.P("i")))(X8),
    "vmap_outside": lambda ns: ns.vmap(ns.shard_map(lambda x: x / ns.lax.psum(ns.np.sum(x), "i"),
                                                    mesh=ns.mesh4, in_specs=ns.P("i"), out_specs=ns.P("i")))(
        np.stack([X8, X8 ** 2])),
    # reverse mode inside the body: JAX's typed rules (check_vma=True) and untyped ones
    "grad_inside_psum": lambda ns: ns.shard_map(
        lambda w, x: ns.grad(lambda w: ns.lax.psum(_loss(ns, w, x), "i"))(w), mesh=ns.mesh4,
        in_specs=(ns.P(), ns.P("i")), out_specs=ns.P())(np.float64(W), X8),
    "grad_inside_pmean": lambda ns: ns.shard_map(
        lambda w, x: ns.lax.pmean(ns.grad(lambda w: _loss(ns, w, x))(w), "i"), mesh=ns.mesh4,
        in_specs=(ns.P(), ns.P("i")), out_specs=ns.P())(np.float64(W), X8),
    "grad_inside_pmean_unchecked": lambda ns: ns.shard_map(
        lambda w, x: ns.lax.pmean(ns.grad(lambda w: _loss(ns, w, x))(w), "i"), mesh=ns.mesh4,
        in_specs=(ns.P(), ns.P("i")), out_specs=ns.P(), check_vma=False)(np.float64(W), X8),
    "grad_inside_psum_unchecked": lambda ns: ns.shard_map(
        lambda w, x: ns.grad(lambda w: ns.lax.psum(_loss(ns, w, x), "i"))(w), mesh=ns.mesh4,
        in_specs=(ns.P(), ns.P("i")), out_specs=ns.P(), check_vma=False)(np.float64(W), X8),
    "grad_inside_psum_of_invariant": lambda ns: ns.shard_map(
        lambda w, z: ns.grad(lambda w: ns.np.sum(ns.lax.psum(w, "i") * z))(w), mesh=ns.mesh4,
        in_specs=(ns.P(), ns.P("i")), out_specs=ns.P())(np.float64(W), X8),
    "grad_inside_varying": lambda ns: ns.shard_map(
        lambda x: ns.grad(lambda x: ns.lax.psum(ns.np.sum(ns.np.sin(x) * ns.lax.pmean(x, "i")), "i"))(x),
        mesh=ns.mesh4, in_specs=ns.P("i"), out_specs=ns.P("i"))(X8),
    "grad_inside_all_gather": lambda ns: ns.shard_map(
        lambda x: ns.grad(lambda x: ns.np.sum(ns.lax.all_gather(x, "i") ** 2
                                              * (1.0 + ns.lax.axis_index("i"))))(x),
        mesh=ns.mesh4, in_specs=ns.P("i"), out_specs=ns.P("i"))(X8),
    "grad_inside_ppermute": lambda ns: ns.shard_map(
        lambda x: ns.grad(lambda x: ns.np.sum(ns.lax.ppermute(x, "i", [(0, 1), (1, 2), (2, 3), (3, 0)]) ** 3
                                              * ns.lax.axis_index("i")))(x),
        mesh=ns.mesh4, in_specs=ns.P("i"), out_specs=ns.P("i"))(X8),
    "grad_inside_jit": lambda ns: ns.shard_map(
        ns.jit(lambda w, x: ns.grad(lambda w: ns.lax.psum(_loss(ns, w, x), "i"))(w)), mesh=ns.mesh4,
        in_specs=(ns.P(), ns.P("i")), out_specs=ns.P())(np.float64(W), X8),
    "grad_inside_mesh2d": lambda ns: ns.shard_map(
        lambda w, x: ns.grad(lambda w: ns.lax.psum(_loss(ns, w, x), "b"))(w)[None], mesh=ns.mesh22,
        in_specs=(ns.P(), ns.P(("a", "b"))), out_specs=ns.P("a"))(np.float64(W), X8),
    "grad_inside_pcast": lambda ns: ns.shard_map(
        lambda w, x: ns.grad(lambda w: ns.lax.psum(
            ns.np.sum(ns.lax.pcast(w, "i", to="varying") * x), "i"))(w),
        mesh=ns.mesh4, in_specs=(ns.P(), ns.P("i")), out_specs=ns.P())(np.float64(W), X8),
    "pcast_then_mixed": lambda ns: ns.shard_map(
        lambda w, x: ns.grad(lambda w: ns.lax.psum(
            ns.np.sum(ns.np.sin(ns.lax.pcast(w, "i", to="varying")) * x), "i"))(w),
        mesh=ns.mesh4, in_specs=(ns.P(), ns.P("i")), out_specs=ns.P())(np.float64(W), X8),
    "hessian_inside": lambda ns: ns.shard_map(
        lambda w, x: ns.grad(ns.grad(lambda w: ns.lax.psum(_loss(ns, w, x), "i")))(w), mesh=ns.mesh4,
        in_specs=(ns.P(), ns.P("i")), out_specs=ns.P())(np.float64(W), X8),
}

ERRORS = {
    # JAX raises ValueError for each
    "unreplicated_out": lambda ns: ns.shard_map(lambda x: ns.np.sum(x), mesh=ns.mesh4, in_specs=ns.P("i"),
                                                out_specs=ns.P())(X8),
    "indivisible": lambda ns: ns.shard_map(lambda x: x, mesh=ns.mesh4, in_specs=ns.P("i"),
                                           out_specs=ns.P("i"))(X8[:6]),
    "out_spec_too_long": lambda ns: ns.shard_map(lambda x: ns.np.sum(x), mesh=ns.mesh4, in_specs=ns.P("i"),
                                                 out_specs=ns.P("i"))(X8),
    "pcast_output_not_replicated": lambda ns: ns.shard_map(lambda w: ns.lax.pcast(w, "i", to="varying"),
                                                           mesh=ns.mesh4, in_specs=ns.P(), out_specs=ns.P())(
        np.float64(W)),
    "pcast_bad_to": lambda ns: ns.shard_map(lambda x: ns.lax.pcast(x, "i", to="foo"), mesh=ns.mesh4,
                                            in_specs=ns.P("i"), out_specs=ns.P("i"))(X8),
    "unknown_axis": lambda ns: ns.shard_map(lambda x: x, mesh=ns.mesh4, in_specs=ns.P("k"),
                                            out_specs=ns.P("k"))(X8),
}


class JaxNamespace:
    def __init__(self) -> None:
        import jax
        import jax.numpy as jnp

        jax.config.update("jax_enable_x64", True)
        devs = np.array(jax.devices()[:4])
        self.shard_map, self.lax, self.np, self.P = jax.shard_map, jax.lax, jnp, jax.sharding.PartitionSpec
        self.grad, self.jit, self.vmap = jax.grad, jax.jit, jax.vmap
        self.mesh4 = jax.sharding.Mesh(devs, ("i",))
        self.mesh22 = jax.sharding.Mesh(devs.reshape(2, 2), ("a", "b"))


def run_all(ns) -> tuple[dict, dict]:
    values = {k: [np.asarray(v).tolist() for v in _leaves(f(ns))] for k, f in CASES.items()}
    errors = {}
    for k, f in ERRORS.items():
        try:
            f(ns)
            errors[k] = None
        except Exception as e:  # noqa: BLE001 - the error type is what is compared
            errors[k] = type(e).__name__
    return values, errors


def _leaves(x):
    if isinstance(x, dict):
        return [v for k in sorted(x) for v in _leaves(x[k])]
    if isinstance(x, (tuple, list)):
        return [v for item in x for v in _leaves(item)]
    return [x]


def jax_numbers() -> dict:
    """Run the cases on JAX with 4 host CPU devices, in this process (call it in a fresh one)."""
    values, errors = run_all(JaxNamespace())
    import jax

    return {"jax": jax.__version__, "values": values, "errors": errors}


if __name__ == "__main__":
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    out = jax_numbers()
    if "--print" in sys.argv:
        print(json.dumps(out))
    else:
        path = os.path.join(os.path.dirname(__file__), "stored", "jax_shard_map.json")
        with open(path, "w") as fh:
            json.dump(out, fh, indent=1)
        print("wrote", path)
