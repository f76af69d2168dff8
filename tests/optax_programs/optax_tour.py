"""A program written for JAX + optax (it imports `jax`, never fgrad): optimizers on a
quadratic, schedules, losses and combinators.  Prints one JSON object of results.

``python optax_tour.py adam lion`` runs only those optimizers.
tests/test_optax.py runs it under fgrad (`python -m fgrad.jax_alias optax_tour.py`) and, when
JAX is installed, under JAX with JAX_ENABLE_X64=1 (fgrad computes in float64, as NumPy)."""

import json
import sys

import jax
import jax.numpy as jnp
import numpy as np
import optax

A = jnp.array([[3.0, 0.5, 0.0], [0.5, 2.0, 0.25], [0.0, 0.25, 1.0]])
B = jnp.array([1.0, -2.0, 0.5])


def loss(params):
    x = params["x"]
    return 0.5 * x @ A @ x - B @ x + 0.1 * jnp.sum(params["w"] ** 2)


def run(opt, steps=25):
    params = {"x": jnp.array([1.0, 1.0, -1.0]), "w": jnp.array([[0.5, -0.5], [1.5, 2.0]])}
    state = opt.init(params)

    @jax.jit
    def step(params, state):
        value, grads = jax.value_and_grad(loss)(params)
        updates, state = opt.update(grads, state, params, value=value, grad=grads,
                                    value_fn=loss) if USES_VALUE.get(id(opt)) else \
            opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    for _ in range(steps):
        params, state, value = step(params, state)
    return {"x": np.asarray(params["x"]).tolist(), "w": np.asarray(params["w"]).ravel().tolist(),
            "loss": float(loss(params))}


USES_VALUE = {}
OPTIMIZERS = {
    "sgd": optax.sgd(0.1),
    "sgd_momentum_nesterov": optax.sgd(0.05, momentum=0.9, nesterov=True),
    "adam": optax.adam(0.1),
    "adamw": optax.adamw(0.1, weight_decay=0.01),
    "nadam": optax.nadam(0.1),
    "amsgrad": optax.amsgrad(0.1),
    "adamax": optax.adamax(0.1),
    "adagrad": optax.adagrad(0.3),
    "adadelta": optax.adadelta(1.0),
    "adafactor": optax.adafactor(0.1),
    "rmsprop": optax.rmsprop(0.05, momentum=0.5),
    "lion": optax.lion(0.02),
    "lamb": optax.lamb(0.05),
    "lars": optax.lars(0.1),
    "novograd": optax.novograd(0.1),
    "radam": optax.radam(0.1),
    "yogi": optax.yogi(0.1),
    "fromage": optax.fromage(0.05),
    "sm3": optax.sm3(0.3),
    "adabelief": optax.adabelief(0.1),
    "lbfgs": optax.lbfgs(),
    "chain_clip_adam_schedule": optax.chain(
        optax.clip_by_global_norm(1.0), optax.scale_by_adam(),
        optax.scale_by_schedule(optax.warmup_cosine_decay_schedule(0.0, 0.2, 5, 25, 0.01)),
        optax.scale(-1.0)),
    "multi_transform": optax.multi_transform(
        {"fast": optax.adam(0.2), "slow": optax.sgd(0.01)}, {"x": "fast", "w": "slow"}),
    "masked_weight_decay": optax.chain(
        optax.add_decayed_weights(0.1, mask={"x": False, "w": True}), optax.sgd(0.1)),
    "clip": optax.chain(optax.clip(0.2), optax.sgd(0.5)),
}
USES_VALUE[id(OPTIMIZERS["lbfgs"])] = True

ONLY = sys.argv[1:]  # optimizer names to run (default: all)
results = {"optimizers": {name: run(opt) for name, opt in OPTIMIZERS.items() if not ONLY or name in ONLY}}

steps = jnp.array([0, 3, 10, 50, 99])
SCHEDULES = {
    "cosine_decay": optax.cosine_decay_schedule(1.0, 100, alpha=0.1),
    "exponential_decay": optax.exponential_decay(1.0, 10, 0.5, transition_begin=5, staircase=True),
    "warmup_cosine": optax.warmup_cosine_decay_schedule(0.0, 1.0, 10, 100, 0.05),
    "linear": optax.linear_schedule(1.0, 0.1, 60, transition_begin=5),
    "piecewise": optax.piecewise_constant_schedule(1.0, {10: 0.5, 50: 0.1}),
    "polynomial": optax.polynomial_schedule(1.0, 0.0, 2.0, 80),
    "onecycle": optax.cosine_onecycle_schedule(100, 1.0),
    "join": optax.join_schedules([optax.constant_schedule(0.5), optax.linear_schedule(0.5, 0.0, 40)], [20]),
}
results["schedules"] = {name: np.asarray(jax.vmap(s)(steps)).tolist() for name, s in SCHEDULES.items()}

logits = jnp.array([[1.0, -0.5, 2.0], [0.1, 0.2, -1.5]])
labels = jnp.array([2, 0])
onehot = jax.nn.one_hot(labels, 3)
pred = jnp.array([0.3, -1.2, 2.5, 0.0])
target = jnp.array([0.0, -1.0, 3.0, 0.5])
LOSSES = {
    "softmax_cross_entropy": optax.losses.softmax_cross_entropy(logits, onehot),
    "softmax_cross_entropy_with_integer_labels":
        optax.losses.softmax_cross_entropy_with_integer_labels(logits, labels),
    "sigmoid_binary_cross_entropy": optax.losses.sigmoid_binary_cross_entropy(pred, (target > 0) * 1.0),
    "l2_loss": optax.losses.l2_loss(pred, target),
    "squared_error": optax.losses.squared_error(pred, target),
    "huber_loss": optax.losses.huber_loss(pred, target, delta=0.5),
    "log_cosh": optax.losses.log_cosh(pred, target),
    "cosine_similarity": optax.losses.cosine_similarity(logits, onehot),
    "hinge_loss": optax.losses.hinge_loss(pred, jnp.sign(target - 0.1)),
    "poly_loss_cross_entropy": optax.losses.poly_loss_cross_entropy(logits, onehot, epsilon=2.0),
    "kl_divergence": optax.losses.kl_divergence(jax.nn.log_softmax(logits), jax.nn.softmax(onehot)),
    "sigmoid_focal_loss": optax.losses.sigmoid_focal_loss(pred, (target > 0) * 1.0),
    "smooth_labels": optax.smooth_labels(onehot, 0.1),
    "ctc_loss": optax.losses.ctc_loss(
        jnp.array([[[0.5, -0.2, 1.0], [0.1, 0.7, -0.3], [1.2, 0.0, 0.4], [0.3, 0.3, 0.3]]]),
        jnp.zeros((1, 4)), jnp.array([[1, 2]]), jnp.zeros((1, 2))),
}
results["losses"] = {name: np.asarray(v).ravel().tolist() for name, v in LOSSES.items()}
print(json.dumps(results))
