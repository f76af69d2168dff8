"""A CycleGAN as in junyanz/pytorch-CycleGAN-and-pix2pix, shrunk: the ResnetGenerator
(ReflectionPad2d, InstanceNorm2d without affine, strided convs down, ConvTranspose2d with
output_padding up, residual blocks, Tanh), a PatchGAN discriminator with LeakyReLU, the LSGAN
loss (MSE against full-like targets), cycle and identity L1 losses, an image pool of past fakes,
set_requires_grad on the discriminators, Adam with betas (0.5, 0.999) over itertools.chain of
two generators, and a LambdaLR with a linear decay."""
# ruff: noqa: E501

import itertools
import random

import torch
import torch.nn as nn


class ResnetBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.conv_block = nn.Sequential(
            nn.ReflectionPad2d(1), nn.Conv2d(dim, dim, 3), nn.InstanceNorm2d(dim), nn.ReLU(True),
            nn.ReflectionPad2d(1), nn.Conv2d(dim, dim, 3), nn.InstanceNorm2d(dim))

    def forward(self, x):
        return x + self.conv_block(x)


class ResnetGenerator(nn.Module):
    def __init__(self, nc=3, ngf=4, n_blocks=2):
        super().__init__()
        model = [nn.ReflectionPad2d(3), nn.Conv2d(nc, ngf, 7), nn.InstanceNorm2d(ngf), nn.ReLU(True)]
        for i in range(2):
            mult = 2 ** i
            model += [nn.Conv2d(ngf * mult, ngf * mult * 2, 3, stride=2, padding=1), nn.InstanceNorm2d(ngf * mult * 2), nn.ReLU(True)]
        model += [ResnetBlock(ngf * 4) for _ in range(n_blocks)]
        for i in range(2):
            mult = 2 ** (2 - i)
            model += [nn.ConvTranspose2d(ngf * mult, ngf * mult // 2, 3, stride=2, padding=1, output_padding=1),
                      nn.InstanceNorm2d(ngf * mult // 2), nn.ReLU(True)]
        model += [nn.ReflectionPad2d(3), nn.Conv2d(ngf, nc, 7), nn.Tanh()]
        self.model = nn.Sequential(*model)

    def forward(self, x):
        return self.model(x)


def patch_discriminator(nc=3, ndf=4):
    return nn.Sequential(
        nn.Conv2d(nc, ndf, 4, 2, 1), nn.LeakyReLU(0.2, True),
        nn.Conv2d(ndf, ndf * 2, 4, 2, 1), nn.InstanceNorm2d(ndf * 2), nn.LeakyReLU(0.2, True),
        nn.Conv2d(ndf * 2, 1, 4, 1, 1))


class ImagePool:
    def __init__(self, size):
        self.size, self.images = size, []

    def query(self, images):
        out = []
        for image in images:
            image = image.unsqueeze(0).detach()
            if len(self.images) < self.size:
                self.images.append(image)
                out.append(image)
            elif random.uniform(0, 1) > 0.5:
                i = random.randint(0, self.size - 1)
                old = self.images[i].clone()
                self.images[i] = image
                out.append(old)
            else:
                out.append(image)
        return torch.cat(out, 0)


def set_requires_grad(nets, flag):
    for net in nets:
        for p in net.parameters():
            p.requires_grad = flag


def init_weights(net):
    for m in net.modules():
        if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
            nn.init.normal_(m.weight, 0.0, 0.02)
            nn.init.constant_(m.bias, 0.0)


torch.manual_seed(0)
random.seed(0)
G_AB, G_BA = ResnetGenerator(), ResnetGenerator()
D_A, D_B = patch_discriminator(), patch_discriminator()
for net in (G_AB, G_BA, D_A, D_B):
    init_weights(net)
print("generator params", sum(p.numel() for p in G_AB.parameters()), "discriminator params", sum(p.numel() for p in D_A.parameters()))
print(G_AB.model[0], G_AB.model[2], G_AB.model[10])

opt_G = torch.optim.Adam(itertools.chain(G_AB.parameters(), G_BA.parameters()), lr=2e-3, betas=(0.5, 0.999))
opt_D = torch.optim.Adam(itertools.chain(D_A.parameters(), D_B.parameters()), lr=2e-3, betas=(0.5, 0.999))
n_epochs, n_decay = 3, 3
rule = lambda epoch: 1.0 - max(0, epoch + 1 - n_epochs) / float(n_decay + 1)  # noqa: E731
scheds = [torch.optim.lr_scheduler.LambdaLR(o, lr_lambda=rule) for o in (opt_G, opt_D)]
gan_loss, l1 = nn.MSELoss(), nn.L1Loss()
pool_A, pool_B = ImagePool(4), ImagePool(4)

real_A = torch.rand(4, 3, 16, 16) * 2 - 1
real_B = (torch.rand(4, 3, 16, 16) * 2 - 1).flip(-1) * 0.5
for epoch in range(n_epochs + n_decay):
    fake_B, fake_A = G_AB(real_A), G_BA(real_B)
    rec_A, rec_B = G_BA(fake_B), G_AB(fake_A)
    set_requires_grad([D_A, D_B], False)
    opt_G.zero_grad()
    pred = D_B(fake_B)
    loss_gan = gan_loss(pred, torch.ones_like(pred)) + gan_loss(D_A(fake_A), torch.ones_like(pred))
    loss_cycle = l1(rec_A, real_A) * 10 + l1(rec_B, real_B) * 10
    loss_idt = (l1(G_AB(real_B), real_B) + l1(G_BA(real_A), real_A)) * 5
    loss_G = loss_gan + loss_cycle + loss_idt
    loss_G.backward()
    opt_G.step()
    set_requires_grad([D_A, D_B], True)
    opt_D.zero_grad()
    loss_D = 0
    for D, real, fake in ((D_B, real_B, pool_B.query(fake_B)), (D_A, real_A, pool_A.query(fake_A))):
        pr, pf = D(real), D(fake.detach())
        loss_D = loss_D + 0.5 * (gan_loss(pr, torch.full_like(pr, 1.0)) + gan_loss(pf, torch.zeros_like(pf)))
    loss_D.backward()
    opt_D.step()
    for s in scheds:
        s.step()
    print(f"epoch {epoch} G {loss_G.item():.4f} gan {loss_gan.item():.4f} cycle {loss_cycle.item():.4f} idt {loss_idt.item():.4f} D {loss_D.item():.4f} lr {scheds[0].get_last_lr()[0]:.6f}")

with torch.no_grad():
    out = G_AB(real_A[:1])
    print("output", tuple(out.shape), f"{out.min().item():.4f} {out.max().item():.4f} {out.mean().item():.4f}")
    print("patch map", tuple(D_B(out).shape))
    pad = nn.ReflectionPad2d((1, 2, 0, 1))(torch.arange(6.0).reshape(1, 1, 2, 3))
    print(pad)
    inorm = nn.InstanceNorm2d(2, affine=True, track_running_stats=True)
    y = inorm(torch.arange(16.0).reshape(1, 2, 2, 4))
    print(y[0, :, 0], inorm.running_mean, inorm.running_var)
