"""A U-Net-ish segmentation network as in milesial/Pytorch-UNet, shrunk: DoubleConv blocks,
MaxPool2d down, ConvTranspose2d up with skip connections by torch.cat (F.pad to fit odd sizes),
a 1x1 head, per-pixel cross entropy plus a Dice loss on softmax probabilities, and IoU/dice
metrics per class on synthetic shapes."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DoubleConv(nn.Module):
    def __init__(self, in_channels, out_channels, mid_channels=None):
        super().__init__()
        mid_channels = mid_channels or out_channels
        self.double_conv = nn.Sequential(
            nn.Conv2d(in_channels, mid_channels, kernel_size=3, padding=1, bias=False), nn.BatchNorm2d(mid_channels), nn.ReLU(inplace=True),
            nn.Conv2d(mid_channels, out_channels, kernel_size=3, padding=1, bias=False), nn.BatchNorm2d(out_channels), nn.ReLU(inplace=True))

    def forward(self, x):
        return self.double_conv(x)


class Up(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.up = nn.ConvTranspose2d(in_channels, in_channels // 2, kernel_size=2, stride=2)
        self.conv = DoubleConv(in_channels, out_channels)

    def forward(self, x1, x2):
        x1 = self.up(x1)
        diffY = x2.size()[2] - x1.size()[2]
        diffX = x2.size()[3] - x1.size()[3]
        x1 = F.pad(x1, [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY // 2])
        return self.conv(torch.cat([x2, x1], dim=1))


class UNet(nn.Module):
    def __init__(self, n_channels=1, n_classes=3):
        super().__init__()
        self.inc = DoubleConv(n_channels, 8)
        self.down1 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(8, 16))
        self.down2 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(16, 32))
        self.up1 = Up(32, 16)
        self.up2 = Up(16, 8)
        self.outc = nn.Conv2d(8, n_classes, kernel_size=1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        x = self.up1(x3, x2)
        x = self.up2(x, x1)
        return self.outc(x)


def make_batch(n, size=13):
    imgs = torch.zeros(n, 1, size, size)
    masks = torch.zeros(n, size, size, dtype=torch.long)
    for i in range(n):
        r, c = torch.randint(1, size - 5, (2,)).tolist()
        imgs[i, 0, r:r + 4, c:c + 4] = 1.0
        masks[i, r:r + 4, c:c + 4] = 1
        r2, c2 = torch.randint(0, size - 3, (2,)).tolist()
        imgs[i, 0, r2:r2 + 3, c2] = -1.0
        masks[i, r2:r2 + 3, c2] = 2
    return imgs + 0.1 * torch.randn_like(imgs), masks


def dice_loss(logits, target, n_classes, eps=1e-6):
    probs = logits.softmax(1)
    onehot = F.one_hot(target, n_classes).permute(0, 3, 1, 2).float()
    inter = (probs * onehot).sum((0, 2, 3))
    union = probs.sum((0, 2, 3)) + onehot.sum((0, 2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


imgs, masks = make_batch(8)
print(imgs.shape, masks.unique(return_counts=True))
net = UNet()
print(net.up1.up, sum(p.numel() for p in net.parameters()))
out = net(imgs)
print(out.shape)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(12):
    out = net(imgs)
    ce = F.cross_entropy(out, masks)
    dl = dice_loss(out, masks, 3)
    loss = ce + dl
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 3:
        print(step, f"ce {ce.item():.4f} dice {dl.item():.4f}")
net.eval()
with torch.no_grad():
    pred = net(imgs).argmax(1)
for k in range(3):
    inter = ((pred == k) & (masks == k)).sum().item()
    union = ((pred == k) | (masks == k)).sum().item()
    print(k, inter, union, f"{inter / max(union, 1):.3f}")
print(net.inc.double_conv[1].running_mean[:3], net.inc.double_conv[1].num_batches_tracked)
