"""GAN and averaging tricks from student code: a discriminator with the hook-based
nn.utils.spectral_norm, a generator with nn.utils.weight_norm, Gumbel-softmax discrete
samples, and SWA / EMA weight averaging (AveragedModel, SWALR, update_bn)."""

import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn, update_bn

warnings.simplefilter("ignore", FutureWarning)  # torch.nn.utils.weight_norm is deprecated
torch.manual_seed(0)

D = nn.Sequential(
    nn.utils.spectral_norm(nn.Linear(4, 8)), nn.LeakyReLU(0.2), nn.utils.spectral_norm(nn.Linear(8, 1))
)
G = nn.Sequential(nn.utils.weight_norm(nn.Linear(2, 8)), nn.ReLU(), nn.Linear(8, 4))
print(sorted(D[0].state_dict()), sorted(G[0].state_dict()))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
real = torch.randn(16, 4) * 0.5 + 1.0
for step in range(5):
    z = torch.randn(16, 2)
    fake = G(z)
    d_loss = F.softplus(-D(real)).mean() + F.softplus(D(fake.detach())).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = F.softplus(-D(fake)).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(f"step {step} d {d_loss.item():.5f} g {g_loss.item():.5f} sigma0 {D[0].weight_u.norm().item():.4f}")
print(torch.linalg.svdvals(D[0].weight.detach())[0])

# discrete latents: straight-through Gumbel-softmax
logits = nn.Parameter(torch.zeros(3, 4))
opt = torch.optim.SGD([logits], lr=0.5)
target = torch.tensor([0.0, 1.0, 2.0, 3.0])
for step in range(4):
    y = F.gumbel_softmax(logits, tau=0.5, hard=True)
    loss = (y @ target - torch.tensor([3.0, 0.0, 1.0])).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"gumbel step {step} loss {loss.item():.4f}", y.argmax(1).tolist())
print(logits.data)

# SWA and EMA
model = nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 1))
swa_model = AveragedModel(model)
ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=10)
swa_scheduler = SWALR(optimizer, swa_lr=0.05, anneal_epochs=3)
X, Y = torch.randn(32, 3), torch.randn(32, 1)
loader = [(X[i : i + 8], Y[i : i + 8]) for i in range(0, 32, 8)]
for epoch in range(8):
    for xb, yb in loader:
        optimizer.zero_grad()
        F.mse_loss(model(xb), yb).backward()
        optimizer.step()
    ema_model.update_parameters(model)
    if epoch >= 4:
        swa_model.update_parameters(model)
        swa_scheduler.step()
    else:
        scheduler.step()
    print(f"epoch {epoch} lr {optimizer.param_groups[0]['lr']:.6f}")
update_bn(loader, swa_model)
print(swa_model.n_averaged, ema_model.n_averaged)
print(swa_model.module[1].running_mean, swa_model.module[1].momentum)
print(ema_model.module[0].weight[0], swa_model.module[3].weight)
swa_model.eval()
with torch.no_grad():
    print(f"swa loss {F.mse_loss(swa_model(X), Y).item():.5f}")
print(sorted(swa_model.state_dict())[:3])
