"""PyTorch (from Python) counterpart of fsil.backbones.djl.ConvThroughput: the same networks (mirroring
backbones-djl's Networks.java, convolutions with bias as there), the same training step (zero the gradients,
forward through the network and a linear head, loss -sum(log_softmax(z) * onehot) / n, backward, optimiser step,
reading the loss back) and the same extraction (inference mode, features copied out), on random images, after
warm-up. Arguments key=value as the Java main; prints the same line with "torch" instead of "fsil"."""
import math
import sys
import time

import torch
from torch import nn


def channels(base, width):
    """Channels of a layer as fsil builds it (Architecture.channels): base x width rounded to a multiple of 16, half
    up as Java's Math.round (Python's round() would take 2.5 to 2), so both sides time the same network."""
    return max(1, math.floor(base * width / 16 + 0.5)) * 16


def conv4(a, h, w):
    layers = []
    c_in, f = a["channels"], channels(64, a["width"])
    for _ in range(4):
        layers += [nn.Conv2d(c_in, f, 3, padding=1), nn.BatchNorm2d(f), nn.ReLU()]
        if h >= 2 and w >= 2:
            layers.append(nn.MaxPool2d(2, 2))
            h, w = h // 2, w // 2
        c_in = f
    return nn.Sequential(*layers, nn.Flatten()), f * h * w


class Residual12(nn.Module):
    def __init__(self, c_in, c):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(c_in, c, 3, padding=1), nn.BatchNorm2d(c), nn.LeakyReLU(0.1),
            nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c), nn.LeakyReLU(0.1),
            nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c))
        self.shortcut = nn.Sequential(nn.Conv2d(c_in, c, 1), nn.BatchNorm2d(c))
        self.act = nn.LeakyReLU(0.1)

    def forward(self, x):
        return self.act(self.main(x) + self.shortcut(x))


def resnet12(a, h, w):
    layers = []
    c_in = a["channels"]
    for base in (64, 160, 320, 640):
        c = channels(base, a["width"])
        layers.append(Residual12(c_in, c))
        if h >= 2 and w >= 2:
            layers.append(nn.MaxPool2d(2, 2))
            h, w = h // 2, w // 2
        c_in = c
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten()), c_in


def main():
    a = {"arch": "conv4", "width": "1", "batch": "64", "size": "28", "channels": "1", "classes": "64",
         "threads": "1", "steps": "20", "warmup": "5"}
    a.update(s.split("=", 1) for s in sys.argv[1:])
    arch = a["arch"]
    optimizer = a.get("optimizer", "adam" if arch == "conv4" else "sgd")
    for k in ("width",):
        a[k] = float(a[k])
    for k in ("batch", "size", "channels", "classes", "threads", "steps", "warmup"):
        a[k] = int(a[k])
    torch.set_num_threads(a["threads"])
    torch.manual_seed(1)
    n, size, k = a["batch"], a["size"], a["classes"]
    features, d = {"conv4": conv4, "resnet12": resnet12}[arch](a, size, size)
    net = nn.Sequential(features, nn.Linear(d, k))
    if optimizer == "sgd":
        opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    else:
        opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=5e-4)
    x = torch.randn(n, a["channels"], size, size)
    onehot = torch.zeros(n, k)
    onehot[torch.arange(n), torch.randint(k, (n,))] = 1
    net.train()
    for s in range(a["warmup"] + a["steps"]):
        if s == a["warmup"]:
            t0 = time.perf_counter()
        opt.zero_grad(set_to_none=False)
        z = net(x)
        loss = -(torch.log_softmax(z, 1) * onehot).sum() / n
        loss.backward()
        last = loss.item()
        opt.step()
    train = a["steps"] * n / (time.perf_counter() - t0)
    assert last == last, "non-finite loss"
    features.eval()
    check = 0.0
    with torch.no_grad():
        for s in range(a["warmup"] + a["steps"]):
            if s == a["warmup"]:
                t0 = time.perf_counter()
            f = features(x).reshape(n, -1).clone()
            check += float(f[0, 0])
    extract = a["steps"] * n / (time.perf_counter() - t0)
    print("torch %s width=%s batch=%d size=%d threads=%d train=%.1f img/s extract=%.1f img/s"
          % (arch, a["width"], n, size, a["threads"], train, extract))


if __name__ == "__main__":
    main()
