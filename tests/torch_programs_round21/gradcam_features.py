"""Feature extraction and Grad-CAM with module hooks, as in the pytorch-grad-cam and
"forward hooks" tutorials: a small ResNet-like CNN, register_forward_hook storing activations
by name from named_modules, register_full_backward_hook storing gradients, a forward pre-hook
that rescales the input, the Grad-CAM map (channel weights from pooled gradients, ReLU,
F.interpolate bilinear with align_corners=False, min-max normalised), hook handles removed,
torch.save / torch.load(weights_only=True) of a state_dict through io.BytesIO, and
load_state_dict(strict=False) into a model with a different head (missing/unexpected keys)."""
# ruff: noqa: E501

import io

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential() if stride == 1 and cin == cout else nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(out)) + self.shortcut(x))


class Net(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU())
        self.layer1 = Block(4, 4, 1)
        self.layer2 = Block(4, 8, 2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(torch.flatten(self.pool(x), 1))


torch.manual_seed(6)
images = torch.zeros(12, 1, 12, 12)
labels = torch.arange(12) % 3
for i, c in enumerate(labels.tolist()):  # a bright square in a class-dependent corner
    r, s = [(1, 1), (1, 7), (7, 4)][c]
    images[i, 0, r:r + 4, s:s + 4] = 1.0
images += 0.1 * torch.randn_like(images)

model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for _epoch in range(12):
    loss = F.cross_entropy(model(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"train loss {loss.item():.4f}")
model.eval()

activations, gradients, calls = {}, {}, []
handles = []
for name, module in model.named_modules():
    if name in ("stem", "layer1", "layer2", "layer2.conv2"):
        handles.append(module.register_forward_hook(lambda m, inp, out, name=name: activations.__setitem__(name, out.detach())))
handles.append(model.layer2.register_full_backward_hook(lambda m, gin, gout: gradients.__setitem__("layer2", gout[0].detach())))
handles.append(model.register_forward_pre_hook(lambda m, args: calls.append(tuple(args[0].shape))))
handles.append(model.stem.register_forward_pre_hook(lambda m, args: (args[0] * 2.0,)))  # replaces the input

x = images[:3].clone().requires_grad_(True)
logits = model(x)
print("activations", {k: tuple(v.shape) for k, v in activations.items()}, "pre-hook saw", calls)
target = logits.argmax(1)
print("pred", target.tolist(), "labels", labels[:3].tolist())
model.zero_grad()
logits.gather(1, target[:, None]).sum().backward()
acts, grads = activations["layer2"], gradients["layer2"]
weights = grads.mean(dim=(2, 3), keepdim=True)
cam = F.relu((weights * acts).sum(1, keepdim=True))
cam = F.interpolate(cam, size=(12, 12), mode="bilinear", align_corners=False)
flat = cam.flatten(1)
cam = ((flat - flat.min(1, keepdim=True).values) / (flat.max(1, keepdim=True).values - flat.min(1, keepdim=True).values + 1e-8)).view_as(cam)
print("cam", tuple(cam.shape), "peak (row, col)", [divmod(i, 12) for i in cam.flatten(1).argmax(1).tolist()])
print("cam mean per image", [round(v, 4) for v in cam.mean(dim=(1, 2, 3)).tolist()])
print("input grad norm", round(x.grad.norm().item(), 5))
for h in handles:
    h.remove()
activations.clear()
model(images[:1])
print("after remove", activations, len(calls))

# checkpoint round trip and a new head
buffer = io.BytesIO()
torch.save({"model": model.state_dict(), "epoch": 12, "classes": ["tl", "tr", "bottom"]}, buffer)
buffer.seek(0)
ckpt = torch.load(buffer, weights_only=True)
print("checkpoint", sorted(ckpt), ckpt["epoch"], ckpt["classes"], len(ckpt["model"]))
print("num_batches_tracked", ckpt["model"]["stem.1.num_batches_tracked"])
new = Net(classes=5)
new.fc = nn.Linear(8, 5)
state = {k: v for k, v in ckpt["model"].items() if not k.startswith("fc.")}
state["extra.weight"] = torch.zeros(1)
result = new.load_state_dict(state, strict=False)
print("missing", result.missing_keys, "unexpected", result.unexpected_keys)
print("stem copied", torch.equal(new.stem[0].weight, model.stem[0].weight), "fc out", new.fc.out_features)
try:
    new.load_state_dict(ckpt["model"])
except RuntimeError as e:
    print("strict load:", str(e).splitlines()[0])
