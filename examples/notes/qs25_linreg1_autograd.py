"""pytorch-quickstart.md: linear regression 1 — gradients by autograd, updates through .data
(block 26).  The note forgot `requires_grad=True` on w, b and the `losses` array; the port adds
them.  `--plot` draws the fit every 10 epochs."""
import sys

import numpy as np

import fgrad.torch as t

PLOT = '--plot' in sys.argv
if PLOT:
    from matplotlib import pyplot as plt
    from matplotlib import style
    style.use("ggplot")

# 注意，此处如果使用cuda，那么计算梯度的时候，会出错
device = t.device('cpu')

# 设置随机数种子，保证在不同电脑上运行时下面的输出一致
t.manual_seed(1000)


def get_fake_data(batch_size=8):
    ''' 产生随机数据：y=x*2+3，加上了一些噪声'''
    x = t.rand(batch_size, 1, device=device) * 5
    y = x * 2 + 3 + t.randn(batch_size, 1, device=device)
    return x, y


# 随机初始化参数
w = t.rand(1, 1, requires_grad=True)
b = t.zeros(1, 1, requires_grad=True)
losses = np.zeros(500)

lr = 0.02  # 学习率
num_epochs = 500
# 训练500次
lr = lr / 32  # the note sums the loss over a batch of 32: scale the step to stay stable

for ii in range(num_epochs):
    x, y = get_fake_data(batch_size=32)

    # forward：计算loss
    y_pred = x.mm(w) + b.expand_as(y)
    loss = 0.5 * (y_pred - y) ** 2
    loss = loss.sum()
    losses[ii] = loss.item()

    # backward：手动计算梯度
    loss.backward()

    # 更新参数
    w.data.sub_(lr * w.grad.data)
    b.data.sub_(lr * b.grad.data)

    # 梯度清零
    w.grad.data.zero_()
    b.grad.data.zero_()

    if ii % 10 == 0 and PLOT:
        # 画图
        x = t.arange(0, 6).view(-1, 1).float()
        y = x.mm(w.data) + b.data.expand_as(x)
        plt.plot(x.numpy(), y.numpy(), c='blue')  # predicted
        print(w.item(), b.item())

        x2, y2 = get_fake_data(batch_size=20)
        plt.scatter(x2.numpy(), y2.numpy())  # true data

        plt.xlim(0, 5)
        plt.ylim(0, 13)
        plt.show()
        plt.pause(0.5)

print(w.item(), b.item())
# 1.9642277956008911 3.0166714191436768
print('fit ok:', abs(w.item() - 2) < 0.3 and abs(b.item() - 3) < 0.6)
print('loss fell:', losses[-50:].mean() < losses[:10].mean())
