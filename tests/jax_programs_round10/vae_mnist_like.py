"""A variational autoencoder in the style of JAX's examples/mnist_vae.py: stax encoder and
decoder (Dense, Softplus, FanOut, parallel), the reparameterization trick with random.split
per step, a Bernoulli log-likelihood via logsumexp-free logits, optimizers.momentum and
optimizers.adam, jit with static_argnums, and a lax.fori_loop over minibatches."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import jit, lax, random
from jax.example_libraries import optimizers, stax
from jax.example_libraries.stax import Dense, FanOut, Relu, Softplus


def gaussian_kl(mu, sigmasq):
    return -0.5 * jnp.sum(1. + jnp.log(sigmasq) - mu ** 2. - sigmasq)


def gaussian_sample(rng, mu, sigmasq):
    return mu + jnp.sqrt(sigmasq) * random.normal(rng, mu.shape)


def bernoulli_logpdf(logits, x):
    return -jnp.sum(jnp.logaddexp(0., jnp.where(x, -1., 1.) * logits))


def elbo(rng, params, images):
    enc_params, dec_params = params
    mu_z, sigmasq_z = encode(enc_params, images)
    logits_x = decode(dec_params, gaussian_sample(rng, mu_z, sigmasq_z))
    return bernoulli_logpdf(logits_x, images) - gaussian_kl(mu_z, sigmasq_z)


def image_sample(rng, params, nsamples):
    latent_rng, image_rng = random.split(rng)
    _, dec_params = params
    logits = decode(dec_params, random.normal(latent_rng, (nsamples, 4)))
    return random.bernoulli(image_rng, jnp.logaddexp(0., logits) * 0 + jax.nn.sigmoid(logits))


encoder_init, encode = stax.serial(
    Dense(32), Relu, Dense(32), Relu,
    FanOut(2), stax.parallel(Dense(4), stax.serial(Dense(4), Softplus)))
decoder_init, decode = stax.serial(Dense(32), Relu, Dense(32), Relu, Dense(64))

# a synthetic binary "image" data set: 8x8 bars
key = random.PRNGKey(0)
k_data, k_enc, k_dec = random.split(key, 3)
bars = jnp.zeros((16, 8, 8)).at[jnp.arange(8), jnp.arange(8), :].set(1.0)
bars = bars.at[jnp.arange(8, 16), :, jnp.arange(8)].set(1.0)
noise = random.bernoulli(k_data, 0.05, (128, 64))
images = jnp.logical_xor(jnp.tile(bars.reshape(16, 64), (8, 1)) > 0.5, noise).astype(jnp.float32)
print("images", images.shape, images.dtype, images.sum())

_, init_encoder_params = encoder_init(k_enc, (32, 64))
_, init_decoder_params = decoder_init(k_dec, (32, 4))
init_params = init_encoder_params, init_decoder_params

num_batches, batch_size = 4, 32
opt_init, opt_update, get_params = optimizers.adam(step_size=1e-3)


def binarize_batch(rng, i, images):
    i = i % num_batches
    batch = lax.dynamic_slice_in_dim(images, i * batch_size, batch_size)
    return random.bernoulli(rng, jnp.clip(batch, 0.02, 0.98)).astype(jnp.float32)


@jit
def run_epoch(rng, opt_state, images):
    def body_fun(i, opt_state):
        elbo_rng, data_rng = random.split(random.fold_in(rng, i))
        batch = binarize_batch(data_rng, i, images)
        loss = lambda params: -elbo(elbo_rng, params, batch) / batch_size
        g = jax.grad(loss)(get_params(opt_state))
        return opt_update(i, g, opt_state)
    return lax.fori_loop(0, num_batches, body_fun, opt_state)


@partial(jit, static_argnums=(2,))
def evaluate(opt_state, images, nsamples):
    params = get_params(opt_state)
    elbo_rng, image_rng = random.split(random.PRNGKey(3))
    binarized = (images > 0.5).astype(jnp.float32)
    test_elbo = elbo(elbo_rng, params, binarized) / images.shape[0]
    return test_elbo, image_sample(image_rng, params, nsamples)


opt_state = opt_init(init_params)
for epoch in range(3):
    opt_state = run_epoch(random.PRNGKey(epoch), opt_state, images)
    test_elbo, sampled = evaluate(opt_state, images, 5)
    print(f"{epoch: 3d} {test_elbo:.4f}", sampled.shape, sampled.dtype, int(sampled.sum()))

mom_init, mom_update, mom_get = optimizers.momentum(optimizers.exponential_decay(0.01, 10, 0.5), 0.9)
state = mom_init(init_params)
for i in range(3):
    g = jax.grad(lambda p: -elbo(random.PRNGKey(i), p, images[:32]) / 32)(mom_get(state))
    state = mom_update(i, g, state)
print("momentum elbo", elbo(random.PRNGKey(9), mom_get(state), images[:32]) / 32)
print("l2 norm", optimizers.l2_norm(mom_get(state)))
clipped = optimizers.clip_grads(g, 1.0)
print("clipped norm", optimizers.l2_norm(clipped))
