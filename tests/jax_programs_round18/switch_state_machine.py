"""A vending-machine / thermostat state machine written with lax.switch over a list of
branch functions (one per state), lax.cond guards inside branches, lax.scan over an event
stream, vmap over many machines (switch becomes a select of all branches), clamped
out-of-range indices, a differentiable thermostat whose gradient flows through the branch
taken, and jax.jit with static_argnames choosing the branch table."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax, random

IDLE, PAID, VEND, REFUND = 0, 1, 2, 3


def idle(s, ev):
    credit, stock = s
    new = jnp.where(ev > 0, PAID, IDLE)
    return new, (credit + jnp.maximum(ev, 0), stock)


def paid(s, ev):
    credit, stock = s
    ready = credit >= 3
    nxt = lax.cond(ready, lambda: jnp.where(stock > 0, VEND, REFUND), lambda: jnp.where(ev < 0, REFUND, PAID))
    return nxt, (credit + jnp.maximum(ev, 0), stock)


def vend(s, ev):
    credit, stock = s
    return jnp.array(IDLE), (credit - 3, stock - 1)


def refund(s, ev):
    credit, stock = s
    return jnp.array(IDLE), (jnp.zeros_like(credit), stock)


BRANCHES = [idle, paid, vend, refund]


def run(events, stock):
    def step(carry, ev):
        state, data = carry
        new, data = lax.switch(state, BRANCHES, data, ev)
        return (new.astype(jnp.int32), data), (new, data[0])

    init = (jnp.array(IDLE, jnp.int32), (jnp.array(0), jnp.array(stock)))
    (final, (credit, left)), (states, credits) = lax.scan(step, init, events)
    return final, credit, left, states, credits


events = jnp.array([1, 1, 0, 1, 0, 0, 2, 2, 0, 0, -1, 0, 5, 0, 0])
final, credit, left, states, credits = run(events, 1)
print("states: ", states)
print("credits:", credits)
print("final:", int(final), "credit", int(credit), "stock left", int(left))

streams = random.randint(random.PRNGKey(0), (6, 20), -1, 3)
fin, cr, lf, st, _ = jax.vmap(run)(streams, jnp.array([0, 1, 2, 1, 0, 3]))
print("vmap finals:", fin, "credits", cr, "stock", lf)
print("vends per machine:", jnp.sum(st == VEND, axis=1))
print("clamped switch:", [int(lax.switch(i, [lambda: 10, lambda: 20, lambda: 30])) for i in (-5, 1, 7)])


def thermostat(temp0, gains, heater_on, T=30):
    # modes: 0 off, 1 heating, 2 cooling; the dynamics of each mode are differentiable
    modes = [lambda t, g: t - 0.1 * (t - 10.0),
             lambda t, g: t + g[0] * (25.0 - t),
             lambda t, g: t - g[1] * (t - 15.0)]

    def step(carry, _):
        t, m = carry
        m = jnp.where(t < 18.0, 1, jnp.where(t > 22.0, 2, jnp.where(heater_on, m, 0)))
        t = lax.switch(m, modes, t, gains)
        return (t, m), t

    return lax.scan(step, (temp0, 0), None, length=T)[1]


gains = jnp.array([0.3, 0.2])
traj = thermostat(12.0, gains, True)
print("thermostat:", jnp.round(traj[::5], 4))
g = jax.grad(lambda gg: jnp.mean((thermostat(12.0, gg, True) - 20.0) ** 2))(gains)
print("grad wrt gains:", g)
eps = 1e-3
fd = [(jnp.mean((thermostat(12.0, gains + eps * e, True) - 20.0) ** 2)
       - jnp.mean((thermostat(12.0, gains - eps * e, True) - 20.0) ** 2)) / (2 * eps) for e in jnp.eye(2)]
print("finite differences close:", bool(jnp.allclose(g, jnp.array(fd), rtol=2e-2)))


@partial(jax.jit, static_argnames=("table",))
def dispatch(i, x, table="trig"):
    fns = {"trig": [jnp.sin, jnp.cos, jnp.tanh],
           "poly": [lambda v: v**2, lambda v: v**3, lambda v: -v]}[table]
    return lax.switch(i, fns, x)


print("dispatch:", dispatch(1, 0.5), dispatch(2, 2.0, table="poly"))
print("grad through cond:", jax.grad(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x))(0.3))
print("vmap of cond:",
      jax.vmap(lambda x: lax.cond(x > 0, lambda v: v * 2, lambda v: -v, x))(jnp.array([-1.0, 2.0])))
