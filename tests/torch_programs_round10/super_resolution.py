"""pytorch/examples super_resolution: an ESPCN-style network with PixelShuffle, orthogonal_
init with calculate_gain, trained on random low/high resolution pairs; PSNR per epoch, then
PixelUnshuffle inverts PixelShuffle and F.interpolate gives a bicubic baseline."""
# ruff: noqa: E501  (written as the published program is)


import math

import torch
import torch.nn as nn
import torch.nn.init as init
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 16, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(16, 16, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(16, 8, (3, 3), (1, 1), (1, 1))
        self.conv4 = nn.Conv2d(8, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
        self._initialize_weights()

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        return self.pixel_shuffle(self.conv4(x))

    def _initialize_weights(self):
        init.orthogonal_(self.conv1.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv2.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv3.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv4.weight)


torch.manual_seed(123)
print("gain relu", init.calculate_gain("relu"), "leaky", round(init.calculate_gain("leaky_relu", 0.2), 6))
high = torch.rand(16, 1, 12, 12)
low = F.avg_pool2d(high, 3)
print("shapes", tuple(low.shape), tuple(high.shape))
model = Net(upscale_factor=3)
criterion = nn.MSELoss()
optimizer = optim.Adam(model.parameters(), lr=0.001)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(low, high), batch_size=4, shuffle=False)
for epoch in range(1, 4):
    epoch_loss = 0
    for input, target in loader:
        optimizer.zero_grad()
        loss = criterion(model(input), target)
        epoch_loss += loss.item()
        loss.backward()
        optimizer.step()
    avg_psnr = 0
    with torch.no_grad():
        for input, target in loader:
            mse = criterion(model(input), target)
            avg_psnr += 10 * math.log10(1 / mse.item())
    print(f"Epoch {epoch}: Avg. Loss: {epoch_loss / len(loader):.5f} Avg. PSNR: {avg_psnr / len(loader):.4f} dB")
x = torch.arange(2 * 9 * 2 * 2, dtype=torch.float32).view(2, 9, 2, 2)
y = F.pixel_shuffle(x, 3)
print("shuffle", tuple(y.shape), y[0, 0, :3, :3])
print("unshuffle ok", torch.equal(nn.PixelUnshuffle(3)(y), x))
bicubic = F.interpolate(low, scale_factor=3, mode="bicubic", align_corners=False)
print("bicubic mse", round(F.mse_loss(bicubic, high).item(), 5))
bilinear = F.interpolate(low, size=(12, 12), mode="bilinear", align_corners=True)
print("bilinear mse", round(F.mse_loss(bilinear, high).item(), 5))
print("nearest", F.interpolate(torch.arange(4.).view(1, 1, 2, 2), scale_factor=2, mode="nearest")[0, 0])
