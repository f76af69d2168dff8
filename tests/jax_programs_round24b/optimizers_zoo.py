"""``jax.example_libraries.optimizers`` beyond Adam: every optimizer of the module (sgd,
momentum, nesterov, adagrad, rmsprop, rmsprop_momentum, adam, adamax, sm3) on a Rosenbrock
valley (softened to a factor 5) from one start, the schedules (constant, exponential,
inverse-time, polynomial, piecewise) evaluated at a few steps, ``make_schedule``,
gradient clipping by ``l2_norm``, and checkpointing an optimizer
state by ``unpack_optimizer_state``/``pack_optimizer_state``."""

import jax
import jax.numpy as jnp
from jax.example_libraries import optimizers


def rosenbrock(p):
    x, y = p["xy"][0], p["xy"][1]
    return (1.0 - x) ** 2 + 5.0 * (y - x ** 2) ** 2 + 0.1 * jnp.sum(p["w"] ** 2)


params0 = {"xy": jnp.array([-1.2, 1.0]), "w": jnp.array([[0.5, -0.3], [0.2, 0.8]])}
print("start loss:", rosenbrock(params0))


def run(opt, steps=100, jit_update=True):
    init_fun, update_fun, get_params = opt
    state = init_fun(params0)
    loss_and_grad = jax.jit(jax.value_and_grad(rosenbrock))

    def step(i, state):
        value, g = loss_and_grad(get_params(state))
        return update_fun(i, g, state), value

    if jit_update:
        step = jax.jit(step)
    for i in range(steps):
        state, value = step(i, state)
    p = get_params(state)
    return value, p["xy"], jnp.linalg.norm(p["w"])


zoo = {
    "sgd": optimizers.sgd(1e-3),
    "momentum": optimizers.momentum(5e-4, mass=0.9),
    "nesterov": optimizers.nesterov(5e-4, mass=0.9),
    "adagrad": optimizers.adagrad(0.3, momentum=0.9),
    "rmsprop": optimizers.rmsprop(1e-2, gamma=0.9, eps=1e-8),
    "rmsprop_momentum": optimizers.rmsprop_momentum(5e-3, gamma=0.9, momentum=0.8),
    "adam": optimizers.adam(5e-2, b1=0.9, b2=0.99),
    "adamax": optimizers.adamax(5e-2),
    "sm3": optimizers.sm3(0.5, momentum=0.9),
}
for name, opt in zoo.items():
    # sm3's state keeps each parameter's shape as Python ints, which jit would trace
    value, xy, wn = run(opt, jit_update=name != "sm3")
    print(f"{name:>17}: loss {value:.5f}  xy {jnp.round(xy, 4)}  |w| {wn:.5f}")

# schedules are plain functions of the step number
schedules = {
    "constant": optimizers.constant(0.1),
    "exponential_decay": optimizers.exponential_decay(0.1, decay_steps=10, decay_rate=0.5),
    "inverse_time_decay": optimizers.inverse_time_decay(0.1, decay_steps=10, decay_rate=0.5),
    "inverse_time_stair": optimizers.inverse_time_decay(0.1, 10, 0.5, staircase=True),
    "polynomial_decay": optimizers.polynomial_decay(0.1, decay_steps=20, final_step_size=0.01, power=2.0),
    "piecewise_constant": optimizers.piecewise_constant([5, 15], [0.1, 0.05, 0.01]),
}
steps = jnp.array([0, 4, 5, 12, 15, 25])
for name, sched in schedules.items():
    print(f"{name:>20}:", jnp.round(jnp.stack([sched(s) for s in steps]), 6))
print("make_schedule(float)(7):", optimizers.make_schedule(0.25)(7))
print("make_schedule(fn) is fn:", optimizers.make_schedule(schedules["constant"]) is schedules["constant"])
try:
    optimizers.piecewise_constant([5, 15], [0.1, 0.05])
except ValueError as e:
    print("ValueError:", "boundaries" in str(e) or "values" in str(e))

# an optimizer with a schedule, and clipped gradients
init_fun, update_fun, get_params = optimizers.momentum(schedules["exponential_decay"], 0.9)
state = init_fun(params0)
for i in range(30):
    g = jax.grad(rosenbrock)(get_params(state))
    print_it = i in (0, 29)
    if print_it:
        print(f"step {i}: |g| {optimizers.l2_norm(g):.4f}", end="  ")
    g = optimizers.clip_grads(g, 5.0)
    if print_it:
        print(f"clipped |g| {optimizers.l2_norm(g):.4f}")
    state = update_fun(i, g, state)
print("scheduled momentum xy:", get_params(state)["xy"])

# checkpoint an Adam state and resume
init_fun, update_fun, get_params = optimizers.adam(1e-2)
state = init_fun(params0)
for i in range(10):
    state = update_fun(i, jax.grad(rosenbrock)(get_params(state)), state)
saved = optimizers.unpack_optimizer_state(state)
print("saved leaves:", [type(leaf).__name__ for leaf in jax.tree.leaves(saved)][:3],
      len(jax.tree.leaves(saved)))
print("saved structure:", jax.tree.structure(saved).num_leaves, type(saved).__name__)
restored = optimizers.pack_optimizer_state(saved)
a = update_fun(10, jax.grad(rosenbrock)(get_params(state)), state)
b = update_fun(10, jax.grad(rosenbrock)(get_params(restored)), restored)
print("resumed equal:", all(bool(jnp.array_equal(u, v)) for u, v in zip(jax.tree.leaves(get_params(a)),
                                                                        jax.tree.leaves(get_params(b)))))
print("resumed xy:", get_params(b)["xy"], get_params(b)["xy"].dtype)
