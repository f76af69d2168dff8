"""Image augmentation and patch tricks written with tensors, as data-pipeline and ViT code
does it without torchvision: per-channel normalisation, flips, rot90, roll, random crops under
a generator, a rotation and shear via affine_grid/grid_sample (bilinear/nearest/bicubic with
zeros/border/reflection padding, align_corners both ways), patch extraction with unfold and
reassembly with fold (overlap counts), pixel_unshuffle/pixel_shuffle, interpolate with area,
bicubic and antialias, a Sobel filter with conv2d, and the gradient of a grid_sample loss with
respect to the affine parameters."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F

torch.manual_seed(17)
img = torch.rand(2, 3, 8, 8)
mean = img.mean(dim=(0, 2, 3), keepdim=True)
std = img.std(dim=(0, 2, 3), keepdim=True)
norm = (img - mean) / std
print(mean.flatten().round(decimals=4), std.flatten().round(decimals=4), norm.mean().abs().item() < 1e-6)
print(img[0, 0, :2, :3].flip(-1).round(decimals=4), torch.rot90(img[0, 0, :3, :3], 1, (0, 1)).round(decimals=4), img[0, 0, 0, :4].roll(1).round(decimals=4))
g = torch.Generator().manual_seed(3)
i, j = torch.randint(0, 4, (2,), generator=g).tolist()
crop = img[:, :, i:i + 4, j:j + 4]
print(i, j, crop.shape, crop.sum().item().__round__(3))

theta_angle = torch.tensor(math.pi / 7)
shear = 0.2
theta = torch.stack([torch.stack([torch.cos(theta_angle), -torch.sin(theta_angle) + shear, torch.tensor(0.1)]),
                     torch.stack([torch.sin(theta_angle), torch.cos(theta_angle), torch.tensor(-0.05)])]).unsqueeze(0).repeat(2, 1, 1)
for align in (False, True):
    grid = F.affine_grid(theta, (2, 3, 8, 8), align_corners=align)
    for mode in ("bilinear", "nearest", "bicubic"):
        for pad in ("zeros", "border", "reflection"):
            out = F.grid_sample(img, grid, mode=mode, padding_mode=pad, align_corners=align)
            print(align, mode, pad, out.sum().item().__round__(3), out[0, 0, 0, :3].round(decimals=4).tolist())

patches = F.unfold(img, kernel_size=4, stride=4)
print(patches.shape, patches[0, :5, 0].round(decimals=4))
tokens = patches.transpose(1, 2)
back = F.fold(tokens.transpose(1, 2), output_size=(8, 8), kernel_size=4, stride=4)
print(torch.equal(back, img))
ov = F.unfold(img, kernel_size=3, stride=2, padding=1)
counts = F.fold(torch.ones_like(ov), output_size=(8, 8), kernel_size=3, stride=2, padding=1)
print(ov.shape, counts[0, 0].int())
recon = F.fold(ov, output_size=(8, 8), kernel_size=3, stride=2, padding=1) / counts
print(torch.allclose(recon, img, atol=1e-6))
vit = img.unfold(2, 4, 4).unfold(3, 4, 4).permute(0, 2, 3, 1, 4, 5).reshape(2, 4, 48)
print(vit.shape, torch.allclose(vit, tokens.reshape(2, 4, 3, 16).reshape(2, 4, 48)) or torch.allclose(vit.sum(-1), tokens.sum(-1)))
us = F.pixel_unshuffle(img, 2)
print(us.shape, torch.equal(F.pixel_shuffle(us, 2), img), us[0, :4, 0, 0].round(decimals=4))

print(F.interpolate(img, size=(3, 5), mode="area")[0, 0].round(decimals=4))
print(F.interpolate(img, scale_factor=0.5, mode="bicubic", align_corners=False, antialias=True)[0, 0].round(decimals=4))
print(F.interpolate(img, size=(5, 5), mode="bilinear", antialias=True)[1, 2, 0].round(decimals=4))
print(F.adaptive_avg_pool2d(img, (3, 3))[0, 0].round(decimals=4), F.adaptive_max_pool2d(img, 3, return_indices=True)[1][0, 0])

sobel = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
kernel = torch.stack([sobel, sobel.t()]).unsqueeze(1)
gray = img.mean(1, keepdim=True)
edges = F.conv2d(F.pad(gray, (1, 1, 1, 1), mode="replicate"), kernel)
mag = edges.pow(2).sum(1).sqrt()
print(mag.shape, mag[0, :2, :4].round(decimals=4), torch.atan2(edges[:, 1], edges[:, 0])[0, 0, :3].round(decimals=4))

th = theta.clone().requires_grad_()
target = torch.roll(img, 1, dims=3)
for step in range(5):
    out = F.grid_sample(img, F.affine_grid(th, img.shape, align_corners=False), align_corners=False, padding_mode="border")
    loss = F.mse_loss(out, target)
    gth, = torch.autograd.grad(loss, th)
    with torch.no_grad():
        th -= 0.5 * gth
    print(step, round(loss.item(), 5), gth[0].round(decimals=4).tolist())
