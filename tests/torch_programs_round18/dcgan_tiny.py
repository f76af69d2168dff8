"""A tiny DCGAN in the style of the PyTorch DCGAN tutorial: a generator of ConvTranspose2d +
BatchNorm2d + ReLU layers ending in Tanh, a discriminator of strided Conv2d + LeakyReLU +
BatchNorm2d, the tutorial's weights_init (normal_ on conv weights, BatchNorm weight 1 + noise),
BCEWithLogitsLoss with real/fake labels, Adam(betas=(0.5, 0.999)), alternating updates with
fake.detach(), and the running statistics BatchNorm keeps."""
# ruff: noqa: E501

import torch
import torch.nn as nn

torch.manual_seed(2)
NZ, NGF, NDF = 8, 8, 8


def weights_init(m):
    name = m.__class__.__name__
    if name.find("Conv") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif name.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


G = nn.Sequential(
    nn.ConvTranspose2d(NZ, NGF * 2, 4, 1, 0, bias=False), nn.BatchNorm2d(NGF * 2), nn.ReLU(True),   # 4x4
    nn.ConvTranspose2d(NGF * 2, NGF, 4, 2, 1, bias=False), nn.BatchNorm2d(NGF), nn.ReLU(True),      # 8x8
    nn.ConvTranspose2d(NGF, 1, 4, 2, 1, bias=False), nn.Tanh(),                                     # 16x16
)
D = nn.Sequential(
    nn.Conv2d(1, NDF, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),                        # 8x8
    nn.Conv2d(NDF, NDF * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(NDF * 2), nn.LeakyReLU(0.2, inplace=True),  # 4x4
    nn.Conv2d(NDF * 2, 1, 4, 1, 0, bias=False),
)
G.apply(weights_init)
D.apply(weights_init)
print("params", sum(p.numel() for p in G.parameters()), sum(p.numel() for p in D.parameters()))

# "real" images: blurred diagonal stripes in [-1, 1]
yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
real_all = torch.stack([torch.tanh(2 * torch.sin((xx + yy + s) / 2.5)) for s in range(16)])[:, None]
fixed = torch.randn(4, NZ, 1, 1)
crit = nn.BCEWithLogitsLoss()
optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
for it in range(12):
    real = real_all[torch.randperm(16)[:8]]
    b = real.shape[0]
    D.zero_grad()
    out = D(real).view(-1)
    errD_real = crit(out, torch.full((b,), 1.0))
    errD_real.backward()
    D_x = torch.sigmoid(out).mean().item()
    fake = G(torch.randn(b, NZ, 1, 1))
    out = D(fake.detach()).view(-1)
    errD_fake = crit(out, torch.full((b,), 0.0))
    errD_fake.backward()
    optD.step()
    G.zero_grad()
    out = D(fake).view(-1)
    errG = crit(out, torch.full((b,), 1.0))
    errG.backward()
    optG.step()
    if it % 4 == 0:
        print(f"it {it} Loss_D {(errD_real + errD_fake).item():.4f} Loss_G {errG.item():.4f} D(x) {D_x:.4f} D(G(z)) {torch.sigmoid(out).mean().item():.4f}")

print("running mean", [round(v, 4) for v in G[1].running_mean[:4].tolist()], "var", [round(v, 4) for v in D[3].running_var[:4].tolist()])
print("batches tracked", G[1].num_batches_tracked.item(), D[3].num_batches_tracked.item())
G.eval()
with torch.no_grad():
    img = G(fixed)
    print("eval fake", tuple(img.shape), [round(v, 4) for v in img[0, 0, 0, :6].tolist()], round(img.abs().mean().item(), 4))
    grid = torch.cat([torch.cat(list(img[:2, 0]), 1), torch.cat(list(img[2:, 0]), 1)], 0)
    print("grid", tuple(grid.shape), round(grid.std().item(), 4))
# ConvTranspose2d output_size and output_padding
ct = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1)
z = torch.randn(1, 2, 5, 5)
print("output_padding", tuple(ct(z).shape), tuple(ct(z, output_size=[9, 9]).shape))
