"""A VQ-VAE as in the Neural Discrete Representation Learning reimplementations (zalandoresearch
/ rosinality style): a conv encoder, a VectorQuantizer that finds the nearest code with
torch.cdist and argmin, the straight-through estimator (z + (q - z).detach()), codebook and
commitment losses, the EMA codebook update with register_buffer and in-place no-grad
arithmetic (Laplace-smoothed cluster sizes), perplexity from one_hot usage, and a decoder with
ConvTranspose2d."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F


class VectorQuantizerEMA(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, commitment_cost=0.25, decay=0.9, epsilon=1e-5):
        super().__init__()
        self.K, self.D = num_embeddings, embedding_dim
        self.commitment_cost, self.decay, self.epsilon = commitment_cost, decay, epsilon
        embed = torch.randn(num_embeddings, embedding_dim)
        self.register_buffer("embedding", embed)
        self.register_buffer("cluster_size", torch.zeros(num_embeddings))
        self.register_buffer("embed_avg", embed.clone())

    def forward(self, z):
        z = z.permute(0, 2, 3, 1).contiguous()
        flat = z.view(-1, self.D)
        distances = torch.cdist(flat, self.embedding) ** 2
        indices = distances.argmin(dim=1)
        encodings = F.one_hot(indices, self.K).type(flat.dtype)
        quantized = F.embedding(indices, self.embedding).view_as(z)
        if self.training:
            with torch.no_grad():
                self.cluster_size.mul_(self.decay).add_(encodings.sum(0), alpha=1 - self.decay)
                self.embed_avg.mul_(self.decay).add_(encodings.t() @ flat, alpha=1 - self.decay)
                n = self.cluster_size.sum()
                size = (self.cluster_size + self.epsilon) / (n + self.K * self.epsilon) * n
                self.embedding.copy_(self.embed_avg / size.unsqueeze(1))
        e_latent_loss = F.mse_loss(quantized.detach(), z)
        loss = self.commitment_cost * e_latent_loss
        quantized = z + (quantized - z).detach()
        avg_probs = encodings.mean(0)
        perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
        return loss, quantized.permute(0, 3, 1, 2).contiguous(), perplexity, indices.view(z.shape[:-1])


class VQVAE(nn.Module):
    def __init__(self, hidden=8, K=16, D=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, hidden, 4, 2, 1), nn.ReLU(), nn.Conv2d(hidden, D, 3, 1, 1))
        self.vq = VectorQuantizerEMA(K, D)
        self.decoder = nn.Sequential(nn.Conv2d(D, hidden, 3, 1, 1), nn.ReLU(), nn.ConvTranspose2d(hidden, 1, 4, 2, 1))

    def forward(self, x):
        z = self.encoder(x)
        vq_loss, q, perplexity, codes = self.vq(z)
        return vq_loss, self.decoder(q), perplexity, codes


torch.manual_seed(3)
yy, xx = torch.meshgrid(torch.linspace(-1, 1, 8), torch.linspace(-1, 1, 8), indexing="ij")
centers = torch.rand(32, 2) * 1.2 - 0.6
data = torch.exp(-((xx - centers[:, :1, None]) ** 2 + (yy - centers[:, 1:, None]) ** 2) / 0.2).unsqueeze(1)
data_variance = data.var()
print("data", tuple(data.shape), f"variance {data_variance.item():.5f}")

model = VQVAE()
with torch.no_grad():  # data-dependent codebook init: K random encoder outputs
    flat = model.encoder(data[:8]).permute(0, 2, 3, 1).reshape(-1, 4)
    picked = flat[torch.randperm(flat.shape[0])[:16]]
    model.vq.embedding.copy_(picked)
    model.vq.embed_avg.copy_(picked)
opt = torch.optim.Adam(model.parameters(), lr=3e-3, amsgrad=False)
for step in range(30):
    batch = data[(step * 8) % 32:(step * 8) % 32 + 8]
    opt.zero_grad()
    vq_loss, recon, perplexity, codes = model(batch)
    recon_error = F.mse_loss(recon, batch) / data_variance
    loss = recon_error + vq_loss
    loss.backward()
    opt.step()
    if step % 6 == 5:
        print(f"step {step} recon {recon_error.item():.4f} vq {vq_loss.item():.5f} perplexity {perplexity.item():.3f} used {codes.unique().numel()}")

print("cluster sizes", [round(v, 3) for v in model.vq.cluster_size.tolist()])
print("encoder grad is not None", model.encoder[0].weight.grad is not None, "buffers", [n for n, _ in model.named_buffers()])
model.eval()
with torch.no_grad():
    _, recon, perplexity, codes = model(data[:2])
    print("codes", codes.shape, codes[0].tolist())
    print("eval perplexity", round(perplexity.item(), 4), "recon mse", round(F.mse_loss(recon, data[:2]).item(), 5))

# the straight-through estimator passes the gradient unchanged
z = torch.tensor([[0.2, 1.7, -0.4]], requires_grad=True)
codebook = torch.tensor([[0.0], [1.0], [2.0]])
q = codebook[torch.cdist(z.t(), codebook).argmin(1)].t()
st = z + (q - z).detach()
print("quantized", st.tolist())
(st * torch.tensor([[1.0, 2.0, 3.0]])).sum().backward()
print("st grad", z.grad.tolist())
print("cdist p=1", torch.cdist(torch.tensor([[0.0, 0.0], [1.0, 1.0]]), torch.tensor([[1.0, 2.0]]), p=1).tolist())
