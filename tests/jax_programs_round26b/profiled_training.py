"""Profiling a training loop as JAX's profiling guide writes it: jax.profiler.trace around the
steps, StepTraceAnnotation per step, TraceAnnotation and annotate_function around the parts,
start_trace/stop_trace around one evaluation, a device memory profile saved to a file, and
the RuntimeErrors of stopping when nothing runs and starting twice -- the numbers the same
as without the profiler."""

import functools
import os
import tempfile

import jax
import jax.numpy as jnp
import jax.profiler
import numpy as np

log_dir = tempfile.mkdtemp()


@jax.profiler.annotate_function
def predict(params, x):
    with jax.profiler.TraceAnnotation("hidden"):
        h = jnp.tanh(x @ params["w"] + params["b"])
    return h @ params["v"]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


@jax.jit
def update(params, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    return jax.tree.map(lambda p, g: p - 0.2 * g, params, grads), value


rng = np.random.default_rng(0)
x = jnp.asarray(rng.normal(size=(32, 3)))
y = jnp.sin(x[:, :1]) + 0.5 * x[:, 1:2]
params = {"w": jnp.asarray(rng.normal(size=(3, 8))) * 0.5,
          "b": jnp.zeros(8), "v": jnp.full((8, 1), 0.1)}
unprofiled = params

with jax.profiler.trace(log_dir):
    for step in range(6):
        with jax.profiler.StepTraceAnnotation("train", step_num=step):
            params, value = update(params, x, y)
        if step % 2 == 0:
            print("step", step, "loss", value)
    jax.block_until_ready(params)
print("trace written:", os.path.isdir(log_dir) and len(os.listdir(log_dir)) > 0)

for _ in range(6):
    unprofiled, _ = update(unprofiled, x, y)
print("same as unprofiled:", all(bool(jnp.array_equal(a, b)) for a, b in
                                 zip(jax.tree.leaves(params), jax.tree.leaves(unprofiled))))

jax.profiler.start_trace(log_dir)
with jax.profiler.TraceAnnotation("evaluate", batch=32):
    final = loss(params, x, y)
jax.profiler.stop_trace()
print("final loss:", final)

profile_path = os.path.join(log_dir, "memory.prof")
jax.profiler.save_device_memory_profile(profile_path)
print("memory profile saved:", os.path.getsize(profile_path) > 0)
print("profile bytes:", type(jax.profiler.device_memory_profile()).__name__)


@functools.partial(jax.profiler.annotate_function, name="double")
def double(a):
    return a * 2


print("annotated:", double(jnp.arange(3.0)))
try:
    jax.profiler.stop_trace()
except RuntimeError as e:
    print("RuntimeError:", e)
jax.profiler.start_trace(log_dir)
try:
    jax.profiler.start_trace(log_dir)
except RuntimeError as e:
    print("RuntimeError:", e)
jax.profiler.stop_trace()
