"""The Sharp Bits' "Debugging NaNs" section: `jax_debug_nans` and `jax_debug_infs` raise
FloatingPointError on the operation that makes a NaN or an infinity, eagerly and under jit
(re-running op by op), through `jax.debug_nans` as a context manager, and leave clean code
and NaN-free gradients alone; with the flag off NaNs propagate silently."""

import jax
import jax.numpy as jnp

x = jnp.array([1.0, 0.0, -1.0])
print(jnp.log(x), jnp.divide(1.0, x))  # flags off: nan and inf propagate


def report(fn, *args):
    try:
        out = fn(*args)
        print("ok", out)
    except FloatingPointError as e:
        msg = str(e)
        print("FloatingPointError", "nan" in msg or "inf" in msg)


jax.config.update("jax_debug_nans", True)
report(jnp.log, x)
report(jnp.log, jnp.array([1.0, 2.0]))
report(jax.jit(lambda v: jnp.sqrt(v) * 2.0), x)
report(jax.jit(lambda v: jnp.sqrt(jnp.abs(v)) * 2.0), x)
report(lambda v: jnp.sum(v / v), x)
report(jax.grad(lambda v: jnp.sum(jnp.sqrt(v**2 + 1.0))), x)
report(jax.grad(lambda v: jnp.sqrt(v)), 0.0)  # inf gradient is not a NaN
report(jax.grad(lambda v: jnp.sum(jnp.where(v > 0, jnp.sqrt(v), 0.0))), x)  # NaN in the where's dead branch
report(jax.vmap(lambda v: jnp.arcsin(v * 2.0)), x)
report(lambda v: jnp.log(v).at[1].set(0.0), jnp.array([1.0, 2.0]))
jax.config.update("jax_debug_nans", False)
report(jnp.log, x)

jax.config.update("jax_debug_infs", True)
report(jnp.exp, jnp.array([1.0, 1000.0]))
report(jnp.exp, jnp.array([1.0, 10.0]))
jax.config.update("jax_debug_infs", False)
report(jnp.exp, jnp.array([1.0, 1000.0]))

with jax.debug_nans(True):
    report(lambda v: jnp.float32(0.0) * v, jnp.inf)
    report(lambda v: v - v, jnp.array([1.0, jnp.inf]))
report(lambda v: v - v, jnp.array([1.0, jnp.inf]))
print(jax.config.jax_debug_nans, jax.config.jax_debug_infs)
