"""The persistent compilation cache page: `jax_compilation_cache_dir` and its thresholds set
through `jax.config.update`, `jax.experimental.compilation_cache.compilation_cache`, and jitted
functions that give the same results whether their compiled form comes from the cache or not
(each run in a fresh directory)."""

import os
import tempfile

import jax
import jax.numpy as jnp
from jax.experimental.compilation_cache import compilation_cache as cc

cache_dir = tempfile.mkdtemp(prefix="jaxcache")
jax.config.update("jax_compilation_cache_dir", cache_dir)
jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
print(
    jax.config.jax_compilation_cache_dir == cache_dir,
    jax.config.jax_persistent_cache_min_entry_size_bytes,
    jax.config.jax_persistent_cache_min_compile_time_secs,
)
print(callable(cc.set_cache_dir), callable(cc.reset_cache))


@jax.jit
def step(w, x):
    return jnp.tanh(x @ w).sum() + jnp.sum(w**2)


w = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
x = jnp.arange(8.0).reshape(2, 4) / 8
first = step(w, x)
print(first, jax.grad(step)(w, x))
# a new function with the same computation: compiled again, or read back from the cache
again = jax.jit(lambda w, x: jnp.tanh(x @ w).sum() + jnp.sum(w**2))(w, x)
print(again, bool(first == again))
print(os.path.isdir(cache_dir))
cc.reset_cache()
cache2 = tempfile.mkdtemp(prefix="jaxcache2")
cc.set_cache_dir(cache2)
print(jax.config.jax_compilation_cache_dir == cache2)
print(jax.jit(lambda v: jnp.cumsum(v) * 2)(jnp.arange(5.0)))
jax.config.update("jax_compilation_cache_dir", None)
print(jax.config.jax_compilation_cache_dir)
