"""The variational autoencoder of PyTorch's ``examples/vae``, on fgrad.torch, with synthetic images.

The program of ``pytorch/examples/vae/main.py``: an encoder ``Linear(784, 400)`` + ReLU to the
mean and log-variance of a 20-dimensional latent (``fc21``, ``fc22``), the reparameterization
``mu + eps * std`` with ``torch.randn_like``, a decoder ``Linear(20, 400)`` + ReLU +
``Linear(400, 784)`` + sigmoid, the loss ``F.binary_cross_entropy(..., reduction='sum')`` plus
the KL divergence, ``Adam(lr=1e-3)``, a shuffling ``DataLoader``, a test pass under
``torch.no_grad()`` and samples decoded from ``torch.randn``. Sizes are the example's; the data
are 28x28 "strokes" (soft line segments of random position and angle, in [0, 1]) drawn with
tensor ops, so no download is needed. The only change from the PyTorch program is the import
line (pass ``--torch``, or set ``FGRAD_EXAMPLE_BACKEND=torch``, to run the same code on PyTorch).

Run: ``python examples/torch_vae.py [--torch] [--epochs N] [--batches N]``.
"""

import os
import sys

if "--torch" in sys.argv or os.environ.get("FGRAD_EXAMPLE_BACKEND") == "torch":
    import torch
else:
    import fgrad.torch as torch

nn = torch.nn
F = torch.nn.functional
optim = torch.optim
DataLoader = torch.utils.data.DataLoader
TensorDataset = torch.utils.data.TensorDataset

batch_size = 64
epochs = 2
max_batches = None
log_interval = 4
for i, arg in enumerate(sys.argv):
    if arg == "--epochs":
        epochs = int(sys.argv[i + 1])
    if arg == "--batches":
        max_batches = int(sys.argv[i + 1])

torch.manual_seed(1)


def make_strokes(n):
    """Soft line segments through a random point at a random angle, values in [0, 1]."""
    coords = torch.arange(28, dtype=torch.float32)
    yy, xx = torch.meshgrid(coords, coords, indexing="ij")
    centre = torch.rand(n, 2) * 14 + 7
    angle = torch.rand(n) * 3.14159
    dx, dy = torch.cos(angle)[:, None, None], torch.sin(angle)[:, None, None]
    rx, ry = xx - centre[:, 0, None, None], yy - centre[:, 1, None, None]
    across = (rx * dy - ry * dx).abs()
    along = (rx * dx + ry * dy).abs()
    img = torch.sigmoid((1.5 - across) * 3) * torch.sigmoid((8 - along) * 2)
    return img.unsqueeze(1)  # (n, 1, 28, 28)


train_loader = DataLoader(TensorDataset(make_strokes(512)), batch_size=batch_size, shuffle=True)
test_loader = DataLoader(TensorDataset(make_strokes(128)), batch_size=batch_size, shuffle=False)


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()

        self.fc1 = nn.Linear(784, 400)
        self.fc21 = nn.Linear(400, 20)
        self.fc22 = nn.Linear(400, 20)
        self.fc3 = nn.Linear(20, 400)
        self.fc4 = nn.Linear(400, 784)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


model = VAE()
optimizer = optim.Adam(model.parameters(), lr=1e-3)


# Reconstruction + KL divergence losses summed over all elements and batch
def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction='sum')

    # see Appendix B from VAE paper:
    # Kingma and Welling. Auto-Encoding Variational Bayes. ICLR, 2014
    # 0.5 * sum(1 + log(sigma^2) - mu^2 - sigma^2)
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())

    return BCE + KLD


def train(epoch):
    model.train()
    train_loss = 0
    seen = 0
    for batch_idx, (data,) in enumerate(train_loader):
        if max_batches is not None and batch_idx >= max_batches:
            break
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        seen += len(data)
        optimizer.step()
        if batch_idx % log_interval == 0:
            print('Train Epoch: {} [{}/{}]\tLoss: {:.4f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset), loss.item() / len(data)))

    print('====> Epoch: {} Average loss: {:.4f}'.format(epoch, train_loss / seen))


def test(epoch):
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for i, (data,) in enumerate(test_loader):
            recon_batch, mu, logvar = model(data)
            test_loss += loss_function(recon_batch, data, mu, logvar).item()
            if i == 0:
                n = min(data.size(0), 8)
                comparison = torch.cat([data[:n], recon_batch.view(batch_size, 1, 28, 28)[:n]])
                print('reconstructions: mean {:.4f}, max {:.4f}'.format(
                    comparison[n:].mean().item(), comparison[n:].max().item()))

    test_loss /= len(test_loader.dataset)
    print('====> Test set loss: {:.4f}'.format(test_loss))


for epoch in range(1, epochs + 1):
    train(epoch)
    test(epoch)
    with torch.no_grad():
        sample = torch.randn(64, 20)
        sample = model.decode(sample).cpu()
        print('samples: mean {:.4f}, std {:.4f}'.format(sample.mean().item(), sample.std().item()))
