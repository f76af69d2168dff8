"""The spatial transformer networks tutorial: a localization network regresses an affine theta
(initialised to the identity), F.affine_grid + F.grid_sample warp the input, then a small
classifier; plus grid_sample's modes and padding modes on a known image."""
# ruff: noqa: E501  (written as the published program is)


import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(11)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=5)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3)
        self.conv2_drop = nn.Dropout2d(p=0.0)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 3)
        self.localization = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=5), nn.MaxPool2d(2, stride=2), nn.ReLU(True),
            nn.Conv2d(4, 6, kernel_size=3), nn.MaxPool2d(2, stride=2), nn.ReLU(True))
        self.fc_loc = nn.Sequential(nn.Linear(6 * 2 * 2, 16), nn.ReLU(True), nn.Linear(16, 3 * 2))
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))

    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 6 * 2 * 2)
        theta = self.fc_loc(xs).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False), theta

    def forward(self, x):
        x, theta = self.stn(x)
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 8 * 2 * 2)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training, p=0.0)
        return F.log_softmax(self.fc2(x), dim=1), theta


data = torch.rand(24, 1, 18, 18)
target = torch.randint(0, 3, (24,))
model = Net()
optimizer = optim.SGD(model.parameters(), lr=0.05)
for epoch in range(1, 4):
    model.train()
    for b in range(3):
        optimizer.zero_grad()
        output, theta = model(data[b * 8:(b + 1) * 8])
        loss = F.nll_loss(output, target[b * 8:(b + 1) * 8])
        loss.backward()
        optimizer.step()
    print(f"Train Epoch: {epoch} Loss: {loss.item():.6f}")
    print("theta", [round(v, 5) for v in theta[0].flatten().tolist()])
model.eval()
with torch.no_grad():
    output, _ = model(data)
    test_loss = F.nll_loss(output, target, reduction="sum").item() / 24
    pred = output.max(1, keepdim=True)[1]
    correct = pred.eq(target.view_as(pred)).sum().item()
print(f"Test set: Average loss: {test_loss:.4f}, Accuracy: {correct}/24")

img = torch.arange(16, dtype=torch.float32).view(1, 1, 4, 4)
rot = torch.tensor([[[0.0, -1.0, 0.0], [1.0, 0.0, 0.0]]])
for ac in (False, True):
    grid = F.affine_grid(rot, (1, 1, 4, 4), align_corners=ac)
    print("rotated ac", ac, F.grid_sample(img, grid, align_corners=ac)[0, 0])
zoom = torch.tensor([[[1.3, 0.2, 0.1], [-0.1, 1.2, 0.05]]])
grid = F.affine_grid(zoom, (1, 1, 4, 4), align_corners=False)
for mode in ("bilinear", "nearest", "bicubic"):
    for pad in ("zeros", "border", "reflection"):
        out = F.grid_sample(img, grid, mode=mode, padding_mode=pad, align_corners=False)
        print(mode, pad, round(out.sum().item(), 4), round(out[0, 0, 0, 0].item(), 4))
theta = zoom.clone().requires_grad_()
F.grid_sample(img, F.affine_grid(theta, (1, 1, 4, 4), align_corners=False), align_corners=False).sum().backward()
print("dtheta", theta.grad)
