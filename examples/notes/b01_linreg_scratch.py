"""pytorch-basics.md: data generation (randn, numpy, LongTensor, index_select, mm vs mul,
manual_seed) and the `sgd` with `param.data` (block 0), as the linear regression from scratch the
note is summarising."""
import random

import numpy as np

import fgrad.torch as torch

torch.manual_seed(1)  # 设置随机种子，使实验结果可以复现
random.seed(1)

num_inputs, num_examples = 2, 1000
true_w, true_b = [2, -3.4], 4.2
features = torch.randn(num_examples, num_inputs, dtype=torch.float32)
labels = true_w[0] * features[:, 0] + true_w[1] * features[:, 1] + true_b
labels += torch.tensor(np.random.default_rng(1).normal(0, 0.01, size=labels.size()),
                       dtype=torch.float32)
print(features.size(), labels.size())
print(type(features.numpy()), features.numpy().dtype)
print(torch.tensor(np.arange(3)))
print(torch.LongTensor([0, 1, 2, 3]))

# index_select: 0 按行选, 1 按列选
m = torch.arange(12.).view(3, 4)
print(m.index_select(0, torch.LongTensor([0, 2])))
print(m.index_select(1, torch.LongTensor([1, 3])))
# torch.mm 是矩阵相乘，torch.mul 是按元素相乘
print(torch.mm(m, m.t()), torch.mul(m, m))


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        j = torch.LongTensor(indices[i: min(i + batch_size, num_examples)])
        yield features.index_select(0, j), labels.index_select(0, j)


def linreg(X, w, b):
    return torch.mm(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.view(y_hat.size())) ** 2 / 2


def sgd(params, lr, batch_size):
    for param in params:
        param.data -= lr * param.grad / batch_size  # ues .data to operate param without gradient track


w = torch.tensor(np.random.default_rng(0).normal(0, 0.01, (num_inputs, 1)), dtype=torch.float32)
b = torch.zeros(1, dtype=torch.float32)
w.requires_grad_(requires_grad=True)
b.requires_grad_(requires_grad=True)

lr, num_epochs, batch_size = 0.03, 3, 10
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        loss = squared_loss(linreg(X, w, b), y).sum()
        loss.backward()
        sgd([w, b], lr, batch_size)
        w.grad.data.zero_()  # optimizer.zero_grad() 的作用：梯度置零，防止不同batch得到的梯度累加
        b.grad.data.zero_()
    train_l = squared_loss(linreg(features, w, b), labels)
    print('epoch %d, loss %.4f' % (epoch + 1, train_l.mean().item()))
print(true_w, w.view(-1).tolist())
print(true_b, b.item())
print('fit ok:', abs(w[0, 0].item() - 2) < 0.01 and abs(w[1, 0].item() + 3.4) < 0.01
      and abs(b.item() - 4.2) < 0.01)
print(w.data.requires_grad, w.requires_grad)
x = torch.ones(2, 4, requires_grad=True)
x.requires_grad_(False)
print(x.requires_grad)
