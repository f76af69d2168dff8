"""Knowledge distillation and calibration in the style of Hinton et al. and Guo et al. written in
JAX: teacher and student networks from jax.example_libraries.stax (Dense, Tanh, serial),
the distillation loss T^2 KL(softmax(t / T) || softmax(s / T)) whose gradient at T -> large
matches logit matching, label smoothing, mixup with random.beta mixing weights, the focal
loss, Adam in jitted lax.scan loops, the expected calibration error from confidence bins
(jnp.digitize, jax.ops.segment_sum), and temperature scaling fitted by Newton's method on the
validation negative log-likelihood (jax.grad and jax.hessian of a scalar in lax.while_loop)."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.example_libraries import optimizers, stax

jnp.set_printoptions(precision=4, suppress=True)

C = 4
key = random.PRNGKey(13)
k_data, k_val, k_t, k_s, k_mix = random.split(key, 5)


def make_data(key, n):
    k1, k2 = random.split(key)
    labels = random.randint(k1, (n,), 0, C)
    angles = 2 * jnp.pi * labels / C
    centers = 1.4 * jnp.stack([jnp.cos(angles), jnp.sin(angles)], axis=1)
    return centers + 0.7 * random.normal(k2, (n, 2)), labels


X, y = make_data(k_data, 256)
X_val, y_val = make_data(k_val, 512)

teacher_init, teacher_apply = stax.serial(stax.Dense(32), stax.Tanh, stax.Dense(32), stax.Tanh, stax.Dense(C))
student_init, student_apply = stax.serial(stax.Dense(8), stax.Tanh, stax.Dense(C))
_, teacher0 = teacher_init(k_t, (-1, 2))
_, student0 = student_init(k_s, (-1, 2))
count = lambda p: sum(a.size for a in jax.tree_util.tree_leaves(p))
print("teacher parameters", count(teacher0), "student parameters", count(student0))


def smoothed_xent(logits, labels, smoothing=0.0):
    target = smooth_labels(jax.nn.one_hot(labels, C), smoothing)
    return -jnp.mean(jnp.sum(target * jax.nn.log_softmax(logits), axis=-1))


def smooth_labels(one_hot, smoothing):
    return one_hot * (1.0 - smoothing) + smoothing / one_hot.shape[-1]


def distill_loss(student_logits, teacher_logits, T):
    p = jax.nn.softmax(teacher_logits / T)
    log_q = jax.nn.log_softmax(student_logits / T)
    return T ** 2 * jnp.mean(jnp.sum(p * (jnp.log(p) - log_q), axis=-1))


def focal_loss(logits, labels, gamma=2.0):
    log_p = jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1)[:, 0]
    return -jnp.mean((1.0 - jnp.exp(log_p)) ** gamma * log_p)


# ---- the distillation gradient approaches logit matching (zero-mean logits) -----------------------------
s = jnp.array([[0.3, -0.2, 0.5, -0.6]])
t = jnp.array([[0.1, 0.4, -0.3, -0.2]])
for T in (1.0, 10.0, 100.0):
    g = jax.grad(distill_loss)(s, t, T)
    print(f"T = {T:5.1f}: grad of T^2 KL", g[0])
print("logit matching's gradient (s - t) / C =", ((s - t) / C)[0])
print("focal loss with gamma 0 is the cross-entropy:",
      bool(jnp.allclose(focal_loss(s, jnp.array([2]), 0.0), smoothed_xent(s, jnp.array([2])))))


@partial(jax.jit, static_argnames=("apply_fn", "kind", "steps"))
def train(params, key, apply_fn, kind, steps=400):
    opt_init, opt_update, get_params = optimizers.adam(1e-2)
    teacher_logits = teacher_apply(teacher, X)

    def loss_fn(p, key):
        if kind == "mixup":
            k1, k2 = random.split(key)
            lam = random.beta(k1, 0.4, 0.4, (X.shape[0], 1))
            perm = random.permutation(k2, X.shape[0])
            x = lam * X + (1 - lam) * X[perm]
            target = lam * jax.nn.one_hot(y, C) + (1 - lam) * jax.nn.one_hot(y[perm], C)
            return -jnp.mean(jnp.sum(target * jax.nn.log_softmax(apply_fn(p, x)), axis=-1))
        logits = apply_fn(p, X)
        if kind == "distill":
            return 0.3 * smoothed_xent(logits, y) + 0.7 * distill_loss(logits, teacher_logits, 4.0)
        if kind == "smooth":
            return smoothed_xent(logits, y, 0.1)
        if kind == "focal":
            return focal_loss(logits, y)
        return smoothed_xent(logits, y)

    def step(state, xs):
        i, k = xs
        value, g = jax.value_and_grad(loss_fn)(get_params(state), k)
        return opt_update(i, g, state), value

    state, losses = lax.scan(step, opt_init(params), (jnp.arange(steps), random.split(key, steps)))
    return get_params(state), losses


def ece(logits, labels, n_bins=10):
    probs = jax.nn.softmax(logits)
    conf = probs.max(axis=1)
    correct = (probs.argmax(axis=1) == labels).astype(conf.dtype)
    bins = jnp.clip(jnp.digitize(conf, jnp.linspace(0.0, 1.0, n_bins + 1)) - 1, 0, n_bins - 1)
    counts = jax.ops.segment_sum(jnp.ones_like(conf), bins, n_bins)
    gap = jnp.abs(jax.ops.segment_sum(conf - correct, bins, n_bins))
    return jnp.sum(gap) / conf.shape[0], counts


def nll(logits, labels):
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1))


def fit_temperature(logits, labels):
    f = lambda log_t: nll(logits / jnp.exp(log_t), labels)

    def body(carry):
        log_t, _, i = carry
        step = jax.grad(f)(log_t) / jax.hessian(f)(log_t)
        return log_t - step, jnp.abs(step), i + 1

    log_t, _, iters = lax.while_loop(lambda c: (c[1] > 1e-6) & (c[2] < 50), body,
                                     (jnp.array(0.0, logits.dtype), jnp.array(1.0, logits.dtype), 0))
    return jnp.exp(log_t), iters


teacher = teacher0
teacher, losses = train(teacher0, k_mix, teacher_apply, "smooth", steps=100)
t_val = teacher_apply(teacher, X_val)
print(f"teacher: train loss {float(losses[-1]):.4f}, validation accuracy "
      f"{float(jnp.mean(t_val.argmax(1) == y_val)):.3f}")
for kind in ("plain", "smooth", "mixup", "focal", "distill"):
    student, losses = train(student0, random.fold_in(k_mix, 1), student_apply, kind)
    logits = student_apply(student, X_val)
    err, counts = ece(logits, y_val)
    temp, iters = fit_temperature(logits, y_val)
    err_t, _ = ece(logits / temp, y_val)
    print(f"student {kind:7s}: accuracy {float(jnp.mean(logits.argmax(1) == y_val)):.3f}, "
          f"NLL {float(nll(logits, y_val)):.4f}, ECE {float(err):.4f} -> {float(err_t):.4f} "
          f"at T = {float(temp):.4f} ({int(iters)} Newton steps)")
print("confidence histogram of the distilled student", counts.astype(jnp.int32))
