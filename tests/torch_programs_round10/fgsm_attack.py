"""The adversarial example generation (FGSM) tutorial on a small MNIST-shaped network:
gradients with respect to the input, data.grad.sign(), clamping, accuracy against epsilon,
and a few-step PGD with projection; plus torch.autograd.grad for the input gradient."""
# ruff: noqa: B006, B007  (written as the published program is)


import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.fc1 = nn.Linear(8 * 5 * 5, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


data = torch.rand(40, 1, 14, 14)
target = (data[:, 0, :7].mean((1, 2)) * 20).long() % 10
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(30):
    opt.zero_grad()
    loss = F.nll_loss(model(data), target)
    loss.backward()
    opt.step()
print("train loss", round(loss.item(), 4))
model.eval()


def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon * sign_data_grad
    return torch.clamp(perturbed_image, 0, 1)


def denorm(batch, mean=[0.1307], std=[0.3081]):
    mean = torch.tensor(mean).view(1, -1, 1, 1)
    std = torch.tensor(std).view(1, -1, 1, 1)
    return batch * std + mean


def test(epsilon):
    correct = 0
    adv_examples = []
    for i in range(data.size(0)):
        d, t = data[i:i + 1].clone(), target[i:i + 1]
        d.requires_grad = True
        output = model(d)
        init_pred = output.max(1, keepdim=True)[1]
        if init_pred.item() != t.item():
            continue
        loss = F.nll_loss(output, t)
        model.zero_grad()
        loss.backward()
        perturbed = fgsm_attack(d, epsilon, d.grad.data)
        output = model(perturbed)
        final_pred = output.max(1, keepdim=True)[1]
        if final_pred.item() == t.item():
            correct += 1
        elif len(adv_examples) < 2:
            adv_examples.append((init_pred.item(), final_pred.item()))
    acc = correct / float(data.size(0))
    print(f"Epsilon: {epsilon}\tTest Accuracy = {correct} / {data.size(0)} = {acc:.4f} adv {adv_examples}")
    return acc


accs = [test(eps) for eps in [0, 0.05, 0.1, 0.2]]
x = data[:8].clone().requires_grad_(True)
loss = F.nll_loss(model(x), target[:8])
(g,) = torch.autograd.grad(loss, x)
print("input grad", round(g.abs().sum().item(), 6), g.sign()[0, 0, 0, :5].tolist())
print("denorm", denorm(torch.ones(1, 1, 1, 1)).item())
eps, alpha = 0.1, 0.02
x_adv = data[:8].clone().detach()
for _ in range(5):
    x_adv.requires_grad_(True)
    loss = F.nll_loss(model(x_adv), target[:8])
    grad = torch.autograd.grad(loss, x_adv)[0]
    x_adv = x_adv.detach() + alpha * grad.sign()
    x_adv = torch.min(torch.max(x_adv, data[:8] - eps), data[:8] + eps).clamp(0, 1)
print("pgd loss", round(F.nll_loss(model(x_adv), target[:8]).item(), 5),
      "linf", round((x_adv - data[:8]).abs().max().item(), 5))
