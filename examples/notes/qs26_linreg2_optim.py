"""pytorch-quickstart.md: linear regression 2 — optim.SGD and nn.MSELoss (block 27).
`--plot` draws the fit every 10 epochs."""
import sys

import numpy as np

import fgrad.torch as t
from fgrad.torch import nn, optim

PLOT = '--plot' in sys.argv
if PLOT:
    from matplotlib import pyplot as plt
    from matplotlib import style
    style.use("ggplot")

# 不知道为啥使用cuda梯度为不存在了
device = t.device('cpu')

# 设置随机数种子，保证在不同电脑上运行时下面的输出一致
t.manual_seed(1000)


def get_fake_data(batch_size=8):
    ''' 产生随机数据：y=x*2+3，加上了一些噪声'''
    x = t.rand(batch_size, 1, device=device) * 5
    y = x * 2 + 3 + t.randn(batch_size, 1, device=device)
    return x, y


# 随机初始化参数
w = t.rand(1, 1, requires_grad=True).to(device)
b = t.zeros(1, 1, requires_grad=True).to(device)

lr = 0.0005  # 学习率不能太大
num_epochs = 500
losses = np.zeros(500)

# 导入优化器
opt = optim.SGD([w, b], lr=lr)
# 引入mse损失函数
loss_func = nn.MSELoss()

for ii in range(num_epochs):
    x, y = get_fake_data(batch_size=32)

    # forward：计算loss
    y_pred = x.mm(w) + b.expand_as(y)
    loss = loss_func(y_pred, y)
    losses[ii] = loss.item()
    # 优化器梯度清零
    opt.zero_grad()
    # backward：手动计算梯度
    loss.backward()
    # 逐步优化
    opt.step()

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
print('loss fell:', losses[-50:].mean() < losses[:10].mean())
print(opt)
print(loss_func)
