"""Programs that use mutable array references, written once for JAX and fgrad (``ns``:
``ns.jax`` is ``jax`` or ``fgrad``, ``ns.np`` its numpy).  ``python tests/ref_cases.py``
stores JAX's results in tests/stored/jax_refs.json (compared by tests/test_refs.py)."""

from __future__ import annotations

import json
import os
import sys

import numpy as np


def eager_sequence(ns):
    jax, jnp = ns.jax, ns.np
    r = jax.new_ref(jnp.arange(6.0))
    r[1:3] += 10.0
    r[0] = 7.0
    r[...] = r[...] * 2.0
    r.addupdate(jnp.ones(6))
    jax.ref.addupdate(r, slice(4, 6), jnp.full((2,), 0.5))
    old = jax.ref.swap(r, 2, 100.0)
    jax.ref.set(r, (5,), -1.0)
    return [jax.ref.get(r, None), old, jax.freeze(r), r[::2], r[-1]]


def jit_closed_counter(ns):
    jax, jnp = ns.jax, ns.np
    c = jax.new_ref(jnp.zeros(3))

    @jax.jit
    def step(x):
        c[...] += x
        return c[...] * 2.0

    outs = [step(jnp.ones(3)), step(jnp.arange(3.0))]
    return outs + [c[...]]


def jit_sees_eager_writes(ns):
    jax, jnp = ns.jax, ns.np
    c = jax.new_ref(jnp.asarray(1.0))
    f = jax.jit(lambda x: x * c[...])
    a = f(2.0)
    c[...] = 3.0
    return [a, f(2.0)]


def jit_ref_argument(ns):
    jax, jnp = ns.jax, ns.np

    @jax.jit
    def h(ref, x):
        ref[0] = x
        ref[1:] += ref[0]
        return x + 1.0

    d = jax.new_ref(jnp.zeros(3))
    e = jax.new_ref(jnp.ones(3))
    return [h(d, 5.0), d[...], h(e, 2.0), e[...], h(d, 1.0), d[...]]


def jit_local_ref(ns):
    jax, jnp = ns.jax, ns.np

    @jax.jit
    def k(x):
        r = jax.new_ref(x)
        r[...] += 1.0
        r[0] = r[1] * 3.0
        return r[...]

    return [k(jnp.arange(3.0))]


def grad_local_ref(ns):
    jax, jnp = ns.jax, ns.np

    def loss(x):
        r = jax.new_ref(jnp.zeros(()))
        r[...] += x ** 2
        r[...] += jnp.sin(x) * r[...]
        return r[...]

    return [jax.grad(loss)(1.3), jax.jit(jax.grad(loss))(0.4)]


def grad_reads_closed_ref(ns):
    jax, jnp = ns.jax, ns.np
    c = jax.new_ref(jnp.asarray(2.5))
    return [jax.grad(lambda x: jnp.sin(x * c[...]))(0.3), jax.jit(jax.grad(lambda x: x ** 2 * c[...]))(1.5)]


def vmap_local_ref(ns):
    jax, jnp = ns.jax, ns.np

    def f(x):
        r = jax.new_ref(x)
        r[...] = r[...] * 2.0 + jnp.sum(x)
        return r[...]

    return [jax.vmap(f)(jnp.arange(6.0).reshape(3, 2))]


def vmap_reads(ns):
    jax, jnp = ns.jax, ns.np
    c = jax.new_ref(jnp.arange(3.0))
    a = jax.vmap(lambda x: x + c[...])(jnp.arange(6.0).reshape(2, 3))
    b = jax.vmap(lambda r: r[...] * 2.0)(jax.new_ref(jnp.arange(6.0).reshape(2, 3)))
    return [a, b]


def fori_loop_ref(ns):
    jax, jnp = ns.jax, ns.np
    acc = jax.new_ref(jnp.zeros(2))

    def body(i, carry):
        acc[...] += jnp.stack([i * 1.0, carry])
        return carry * 2.0

    out = jax.lax.fori_loop(0, 4, body, 1.0)
    return [out, acc[...]]


def scan_ref(ns):
    jax, jnp = ns.jax, ns.np
    acc = jax.new_ref(jnp.zeros(()))

    def body(carry, x):
        acc[...] += x * carry
        return carry + 1.0, acc[...]

    carry, ys = jax.lax.scan(body, 1.0, jnp.arange(4.0))
    return [carry, ys, acc[...]]


CASES = {f.__name__: f for f in (eager_sequence, jit_closed_counter, jit_sees_eager_writes, jit_ref_argument,
                                  jit_local_ref, grad_local_ref, grad_reads_closed_ref, vmap_local_ref,
                                  vmap_reads, fori_loop_ref, scan_ref)}


def _err_grad_closed_write(ns):
    c = ns.jax.new_ref(ns.np.zeros(()))
    ns.jax.grad(lambda x: (c.__setitem__(..., x), c[...] * 1.0)[1])(1.0)


def _err_jit_grad_closed_write(ns):
    c = ns.jax.new_ref(ns.np.zeros(()))
    ns.jax.grad(ns.jax.jit(lambda x: (c.__setitem__(..., x * 2.0), c[...] * x)[1]))(3.0)


def _err_vmap_closed_write(ns):
    c = ns.jax.new_ref(ns.np.zeros(()))
    ns.jax.vmap(lambda x: c.__setitem__(..., x))(ns.np.arange(3.0))


def _err_dtype(ns):
    ns.jax.new_ref(ns.np.zeros(3))[0] = 7


def _err_shape(ns):
    ns.jax.new_ref(ns.np.zeros(3))[...] = ns.np.ones(2)


def _err_addupdate_broadcast(ns):
    ns.jax.new_ref(ns.np.zeros(3)).addupdate(1.0)


def _err_arithmetic(ns):
    return ns.jax.new_ref(ns.np.zeros(3)) + 1


ERRORS = {f.__name__[5:]: f for f in (_err_grad_closed_write, _err_jit_grad_closed_write,
                                      _err_vmap_closed_write, _err_dtype, _err_shape,
                                      _err_addupdate_broadcast, _err_arithmetic)}


class Namespace:
    def __init__(self, jax, np_) -> None:
        self.jax, self.np = jax, np_


def _leaves(x):
    if isinstance(x, (tuple, list)):
        return [v for item in x for v in _leaves(item)]
    return [x]


def run_all(ns) -> dict:
    values = {k: [np.asarray(v).tolist() for v in _leaves(f(ns))] for k, f in CASES.items()}
    errors = {}
    for k, f in ERRORS.items():
        try:
            f(ns)
            errors[k] = None
        except Exception as e:  # noqa: BLE001 - the error type is what is compared
            errors[k] = [c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins"][0]
    return {"values": values, "errors": errors}


if __name__ == "__main__":
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    out = {"jax": jax.__version__, **run_all(Namespace(jax, jnp))}
    if "--print" in sys.argv:
        print(json.dumps(out))
    else:
        path = os.path.join(os.path.dirname(__file__), "stored", "jax_refs.json")
        with open(path, "w") as fh:
            json.dump(out, fh, indent=1)
        print("wrote", path)
