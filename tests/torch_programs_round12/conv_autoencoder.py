"""A convolutional denoising autoencoder as in course notebooks: MaxPool2d(return_indices=True)
and MaxUnpool2d, nn.Upsample (nearest, bilinear with align_corners), ConvTranspose2d with
output_padding, F.unfold/F.fold to cut an image into patches and stitch it back (overlap
counts), a noisy input, BCEWithLogitsLoss with pos_weight, and a training loop with Adam and
StepLR."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.arange(16.0).reshape(1, 1, 4, 4)
pool = nn.MaxPool2d(2, stride=2, return_indices=True)
unpool = nn.MaxUnpool2d(2, stride=2)
y, ind = pool(x.flip(-1))
print(y, ind)
print(unpool(y, ind))
print(unpool(y, ind, output_size=torch.Size([1, 1, 5, 5])).shape)
print(F.max_pool1d(torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0]]]), 2, return_indices=True))
print(nn.Upsample(scale_factor=2, mode="nearest")(y))
print(nn.Upsample(size=(3, 3), mode="bilinear", align_corners=True)(y))
print(F.interpolate(y, scale_factor=1.5, mode="bilinear", align_corners=False))
ct = nn.ConvTranspose2d(1, 1, 3, stride=2, padding=1, output_padding=1)
print(ct(y).shape, nn.ConvTranspose2d(1, 2, 3, stride=2, padding=1)(y).shape)

img = torch.arange(36.0).reshape(1, 1, 6, 6)
patches = F.unfold(img, kernel_size=3, stride=1)
print(patches.shape, patches[0, :, 0])
back = F.fold(patches, output_size=(6, 6), kernel_size=3)
counts = F.fold(F.unfold(torch.ones_like(img), 3), (6, 6), 3)
print(counts[0, 0], torch.allclose(back / counts, img))
print(F.fold(F.unfold(img, 2, stride=2), (6, 6), 2, stride=2).equal(img))


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.dec = nn.Sequential(nn.ConvTranspose2d(8, 4, 2, stride=2), nn.ReLU(), nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False), nn.Conv2d(4, 1, 3, padding=1))

    def forward(self, x):
        return self.dec(self.enc(x))


clean = (torch.rand(16, 1, 8, 8) > 0.7).float()
noisy = (clean + 0.3 * torch.randn_like(clean)).clamp(0, 1)
model = AE()
print(sum(p.numel() for p in model.parameters()), model(noisy).shape)
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, 10, 0.5)
for epoch in range(30):
    opt.zero_grad()
    loss = crit(model(noisy), clean)
    loss.backward()
    opt.step()
    sched.step()
    if epoch % 10 == 9:
        print(epoch, f"{loss.item():.5f}", sched.get_last_lr())
with torch.no_grad():
    pred = (model(noisy).sigmoid() > 0.5).float()
print("pixel acc", (pred == clean).float().mean().item())
print(F.binary_cross_entropy_with_logits(torch.tensor([0.5, -1.0]), torch.tensor([1.0, 0.0]), pos_weight=torch.tensor([3.0]), reduction="none"))
