"""Attribution methods for a small CNN, as interpretability code writes them: Grad-CAM from a
forward hook that keeps the last convolution's activations and a full backward hook that keeps
their gradients, vanilla saliency by retain_grad on the input, SmoothGrad, integrated
gradients (checked against the completeness axiom), guided backpropagation by a
register_full_backward_hook on every ReLU, and input-times-gradient; the hooks are removed and
the network checked to run unchanged."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


def make_images(n):
    imgs = torch.zeros(n, 1, 12, 12)
    labels = torch.randint(0, 2, (n,))
    for i in range(n):
        r, c = torch.randint(1, 8, (2,)).tolist()
        if labels[i] == 0:
            imgs[i, 0, r:r + 4, c + 1] = 1.0  # vertical bar
        else:
            imgs[i, 0, r + 1, c:c + 4] = 1.0  # horizontal bar
    return imgs + 0.1 * torch.randn_like(imgs), labels


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3, padding=1)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(6, 8, 3, padding=1)
        self.relu2 = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        h = self.relu2(self.conv2(F.max_pool2d(self.relu1(self.conv1(x)), 2)))
        return self.fc(self.pool(h).flatten(1))


X, Y = make_images(256)
model = CNN()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(1, 31):
    loss = F.cross_entropy(model(X), Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch} loss {loss.item():.8f} accuracy {(model(X).argmax(1) == Y).double().mean().item():.4f}")
model.eval()

store = {}
h_f = model.conv2.register_forward_hook(lambda m, i, o: store.__setitem__("act", o.detach()))
h_b = model.conv2.register_full_backward_hook(lambda m, gi, go: store.__setitem__("grad", go[0].detach()))
x = X[:4].clone()
logits = model(x)
logits[torch.arange(4), Y[:4]].sum().backward()
weights = store["grad"].mean((2, 3), keepdim=True)
cam = F.relu((weights * store["act"]).sum(1))
cam = F.interpolate(cam.unsqueeze(1), size=(12, 12), mode="bilinear", align_corners=False).squeeze(1)
cam = cam / cam.flatten(1).max(1).values.clamp_min(1e-12)[:, None, None]
bar = (X[:4, 0] > 0.5).double()
print("grad-cam shape", tuple(cam.shape), "| mean cam on the bar vs off:", [f"{((cam[i] * bar[i]).sum() / bar[i].sum()).item():.4f}/{((cam[i] * (1 - bar[i])).sum() / (1 - bar[i]).sum()).item():.4f}" for i in range(4)])
h_f.remove()
h_b.remove()

# vanilla saliency with retain_grad on a non-leaf input
raw = X[:2].clone().requires_grad_()
xin = raw * 1.0
xin.retain_grad()
out = model(xin)
out[torch.arange(2), Y[:2]].sum().backward()
sal = xin.grad.abs().squeeze(1)
print("saliency equals the leaf's gradient:", torch.equal(xin.grad, raw.grad), f"| max {sal.max().item():.8f}", "argmax", [divmod(int(i), 12) for i in sal.flatten(1).argmax(1)])


def input_grad(x, cls):
    x = x.clone().requires_grad_()
    model(x)[torch.arange(len(x)), cls].sum().backward()
    return x.grad


torch.manual_seed(5)
smooth = torch.stack([input_grad(X[:2] + 0.1 * torch.randn_like(X[:2]), Y[:2]) for _ in range(20)]).mean(0)
print(f"smoothgrad norm {smooth.norm().item():.8f}")

# integrated gradients from a black baseline
x0 = X[:2]
base = torch.zeros_like(x0)
alphas = torch.linspace(0, 1, 51)
path = base.unsqueeze(0) + alphas.view(-1, 1, 1, 1, 1) * (x0 - base).unsqueeze(0)
grads = torch.stack([input_grad(path[k], Y[:2]) for k in range(51)])
avg = (grads[:-1] + grads[1:]).mean(0) / 2
ig = (x0 - base) * avg
with torch.no_grad():
    gap = model(x0)[torch.arange(2), Y[:2]] - model(base)[torch.arange(2), Y[:2]]
print("integrated gradients sum:", [round(v, 6) for v in ig.flatten(1).sum(1).tolist()], "output gap:", [round(v, 6) for v in gap.tolist()])
print("completeness within 1%:", bool(((ig.flatten(1).sum(1) - gap).abs() < 0.01 * gap.abs() + 1e-3).all()))
print(f"input x gradient sum {(x0 * input_grad(x0, Y[:2])).sum().item():.8f}")

# guided backpropagation: ReLUs pass only positive gradients


def guided(m, grad_in, grad_out):
    return (grad_in[0].clamp(min=0),)


handles = [m.register_full_backward_hook(guided) for m in model.modules() if isinstance(m, nn.ReLU)]
g_guided = input_grad(X[:2], Y[:2])
for h in handles:
    h.remove()
g_plain = input_grad(X[:2], Y[:2])
print(f"guided backprop norm {g_guided.norm().item():.8f} plain {g_plain.norm().item():.8f} | guided is non-negative where the image is: {bool((g_guided[X[:2] > 0.5] >= -1e-12).all())}")
print("hooks removed:", all(len(m._backward_hooks) == 0 and len(m._forward_hooks) == 0 for m in model.modules()))
