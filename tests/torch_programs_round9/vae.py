"""A small VAE (the pytorch/examples VAE shrunk): reparameterisation, BCE + KL loss, Adam."""

import torch
import torch.nn.functional as F
from torch import nn, optim

torch.manual_seed(0)


class VAE(nn.Module):
    def __init__(self, d_in=16, d_h=12, d_z=3):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_h)
        self.fc21 = nn.Linear(d_h, d_z)
        self.fc22 = nn.Linear(d_h, d_z)
        self.fc3 = nn.Linear(d_z, d_h)
        self.fc4 = nn.Linear(d_h, d_in)

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
        mu, logvar = self.encode(x.view(-1, 16))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x.view(-1, 16), reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld, bce, kld


data = (torch.rand(64, 4, 4) > 0.5).float()
model = VAE()
optimizer = optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(1, 6):
    model.train()
    train_loss = 0.0
    for i in range(0, 64, 16):
        x = data[i : i + 16]
        optimizer.zero_grad()
        recon, mu, logvar = model(x)
        loss, bce, kld = loss_function(recon, x, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
    print(
        f"====> Epoch: {epoch} Average loss: {train_loss / 64:.4f} "
        f"(last bce {bce.item():.4f} kld {kld.item():.4f})"
    )

model.eval()
with torch.no_grad():
    mu, logvar = model.encode(data[:4].view(-1, 16))
    print("mu", mu)
    print("logvar", logvar.round(decimals=4))
    sample = torch.randn(2, 3)
    print("decoded", model.decode(sample)[:, :5])
    recon, mu_all, logvar_all = model(data)
    test_loss = loss_function(recon, data, mu_all, logvar_all)[0].item() / 64
print(f"====> Test set loss: {test_loss:.4f}")
print(
    torch.distributions.kl_divergence(
        torch.distributions.Normal(mu, (0.5 * logvar).exp()), torch.distributions.Normal(0.0, 1.0)
    ).sum(1)
)
