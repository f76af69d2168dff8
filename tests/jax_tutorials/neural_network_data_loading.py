"""JAX's "Training a simple neural network, with PyTorch data loading" notebook, cell by cell
(rewritten, same operations): the 784-512-512-10 MLP's initialisation, a per-example predict
function, the TypeError of a batch passed to it, vmap batching, one-hot targets, accuracy,
the loss and a jitted SGD update.  MNIST and PyTorch's DataLoader are replaced by synthetic
images (labels from a random linear teacher) cut into batches of 128 with NumPy; two epochs
over 1024 images, printing losses and accuracies instead of timings."""

import numpy as np
import jax.numpy as jnp
from jax import grad, jit, random, vmap
from jax.scipy.special import logsumexp
from jax.tree_util import tree_map


def random_layer_params(m, n, key, scale=1e-2):
    w_key, b_key = random.split(key)
    return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n,))


def init_network_params(sizes, key):
    keys = random.split(key, len(sizes))
    return [random_layer_params(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]


layer_sizes = [784, 512, 512, 10]
step_size = 0.01
num_epochs = 2
batch_size = 128
n_targets = 10
params = init_network_params(layer_sizes, random.key(0))
print([(w.shape, b.shape) for w, b in params])


def relu(x):
    return jnp.maximum(0, x)


def predict(params, image):
    activations = image
    for w, b in params[:-1]:
        outputs = jnp.dot(w, activations) + b
        activations = relu(outputs)
    final_w, final_b = params[-1]
    logits = jnp.dot(final_w, activations) + final_b
    return logits - logsumexp(logits)


random_flattened_image = random.normal(random.key(1), (28 * 28,))
preds = predict(params, random_flattened_image)
print(preds.shape)

random_flattened_images = random.normal(random.key(1), (10, 28 * 28))
try:
    preds = predict(params, random_flattened_images)
except TypeError:
    print('Invalid shapes!')

batched_predict = vmap(predict, in_axes=(None, 0))
batched_preds = batched_predict(params, random_flattened_images)
print(batched_preds.shape)


def one_hot(x, k, dtype=jnp.float32):
    return jnp.array(x[:, None] == jnp.arange(k), dtype)


def accuracy(params, images, targets):
    target_class = jnp.argmax(targets, axis=1)
    predicted_class = jnp.argmax(batched_predict(params, images), axis=1)
    return jnp.mean(predicted_class == target_class)


def loss(params, images, targets):
    preds = batched_predict(params, images)
    return -jnp.mean(preds * targets)


@jit
def update(params, x, y):
    grads = grad(loss)(params, x, y)
    return [(w - step_size * dw, b - step_size * db) for (w, b), (dw, db) in zip(params, grads)]


# the synthetic data set (for MNIST and the PyTorch loader)
rng = np.random.default_rng(0)
teacher = rng.standard_normal((784, n_targets)).astype(np.float32)
train_images = rng.random((1024, 784), dtype=np.float32)
train_labels_int = np.argmax((train_images - 0.5) @ teacher, axis=1)
test_images = jnp.array(rng.random((256, 784), dtype=np.float32), dtype=jnp.float32)
test_labels_int = np.argmax((np.asarray(test_images) - 0.5) @ teacher, axis=1)
train_labels = one_hot(train_labels_int, n_targets)
test_labels = one_hot(test_labels_int, n_targets)
print(train_labels.shape, train_labels.dtype, test_labels[:2])


def training_generator():
    for s in range(0, len(train_images), batch_size):
        batch = (train_images[s:s + batch_size], train_labels_int[s:s + batch_size])
        yield tree_map(np.asarray, batch)


for epoch in range(num_epochs):
    for x, y in training_generator():
        y = one_hot(y, n_targets)
        params = update(params, x, y)
    train_acc = accuracy(params, train_images, train_labels)
    test_acc = accuracy(params, test_images, test_labels)
    print("Epoch {}".format(epoch))
    print("Training set loss {}".format(loss(params, train_images, train_labels)))
    print("Training set accuracy {}".format(train_acc))
    print("Test set accuracy {}".format(test_acc))
print(params[-1][1])
