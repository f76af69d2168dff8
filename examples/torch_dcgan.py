"""DCGAN, as PyTorch's DCGAN tutorial writes it, on fgrad.torch, with small synthetic images.

The tutorial's program, shrunk to 16x16 one-channel images: a generator of
``ConvTranspose2d`` + ``BatchNorm2d`` + ``ReLU`` layers ending in ``Tanh``, a discriminator of
``Conv2d`` + ``BatchNorm2d`` + ``LeakyReLU(0.2)`` ending in ``Sigmoid``, the tutorial's
``weights_init`` (by ``m.__class__.__name__``, with ``nn.init.normal_``), ``BCELoss``, two
``Adam`` optimizers with ``betas=(0.5, 0.999)``, a ``DataLoader`` over a ``TensorDataset`` and a
fixed noise batch. The data: soft bright discs of random centre and radius on a dark
background, drawn with tensor ops, so no download is needed. The only change from the PyTorch
program is the import line (pass ``--torch``, or set ``FGRAD_EXAMPLE_BACKEND=torch``, to run
the very same code on PyTorch).

Run: ``python examples/torch_dcgan.py [--torch] [--epochs N] [--batches N]``.
"""

import os
import sys

if "--torch" in sys.argv or os.environ.get("FGRAD_EXAMPLE_BACKEND") == "torch":
    import torch
else:
    import fgrad.torch as torch

nn = torch.nn
optim = torch.optim
DataLoader = torch.utils.data.DataLoader
TensorDataset = torch.utils.data.TensorDataset

manualSeed = 999
torch.manual_seed(manualSeed)

num_images = 512  # size of the synthetic dataset
batch_size = 32
image_size = 16
nc = 1  # channels of the images
nz = 16  # size of the latent vector z
ngf = 16  # feature maps of the generator
ndf = 16  # feature maps of the discriminator
num_epochs = 2
max_batches = None  # batches per epoch (None: all)
lr = 0.0002
beta1 = 0.5
for i, arg in enumerate(sys.argv):
    if arg == "--epochs":
        num_epochs = int(sys.argv[i + 1])
    if arg == "--batches":
        max_batches = int(sys.argv[i + 1])


def make_discs(n):
    """Soft discs of random centre and radius, scaled to [-1, 1] like the tutorial's Normalize."""
    coords = torch.arange(image_size, dtype=torch.float32)
    yy, xx = torch.meshgrid(coords, coords, indexing="ij")
    centre = torch.rand(n, 2) * (image_size - 6) + 3
    radius = torch.rand(n, 1, 1) * 3 + 2
    dist = ((xx - centre[:, 0, None, None]) ** 2 + (yy - centre[:, 1, None, None]) ** 2).sqrt()
    img = torch.sigmoid((radius - dist) * 2.0)
    return (img * 2 - 1).unsqueeze(1)


dataset = TensorDataset(make_discs(num_images))
dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=True)


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            # input is Z, going into a convolution
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            # state size. (ngf*2) x 4 x 4
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf),
            nn.ReLU(True),
            # state size. (ngf) x 8 x 8
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),
            nn.Tanh(),
            # state size. (nc) x 16 x 16
        )

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            # input is (nc) x 16 x 16
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            # state size. (ndf) x 8 x 8
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            # state size. (ndf*2) x 4 x 4
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),
            nn.Sigmoid(),
        )

    def forward(self, input):
        return self.main(input)


netG = Generator()
netG.apply(weights_init)
print(netG)
netD = Discriminator()
netD.apply(weights_init)
print(netD)

criterion = nn.BCELoss()
fixed_noise = torch.randn(64, nz, 1, 1)
real_label = 1.0
fake_label = 0.0
optimizerD = optim.Adam(netD.parameters(), lr=lr, betas=(beta1, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=lr, betas=(beta1, 0.999))

G_losses = []
D_losses = []
iters = 0
print("Starting Training Loop...")
for epoch in range(num_epochs):
    for i, data in enumerate(dataloader, 0):
        if max_batches is not None and i >= max_batches:
            break
        ############################
        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        ###########################
        netD.zero_grad()
        real_cpu = data[0]
        b_size = real_cpu.size(0)
        label = torch.full((b_size,), real_label, dtype=torch.float)
        output = netD(real_cpu).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()

        noise = torch.randn(b_size, nz, 1, 1)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()

        ############################
        # (2) Update G network: maximize log(D(G(z)))
        ###########################
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()

        if i % 4 == 0:
            print("[%d/%d][%d/%d]\tLoss_D: %.4f\tLoss_G: %.4f\tD(x): %.4f\tD(G(z)): %.4f / %.4f"
                  % (epoch, num_epochs, i, len(dataloader), errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))
        G_losses.append(errG.item())
        D_losses.append(errD.item())
        iters += 1

with torch.no_grad():
    fake = netG(fixed_noise).detach().cpu()
print("fixed-noise images: shape %s, mean %.4f, std %.4f, min %.4f, max %.4f"
      % (tuple(fake.shape), fake.mean().item(), fake.std().item(), fake.min().item(), fake.max().item()))
print("running_mean of the generator's first BatchNorm: %s"
      % [round(v, 4) for v in netG.main[1].running_mean[:4].tolist()])
