"""Training of the corner refiner of :func:`vision.corners.refine_corners` (PyTorch, optional).

``kifu train refiner`` renders hard synthetic photos on every core, cuts the
refiner's patches around rough corners (:mod:`datasets.corner_samples`: the
true corners moved as the corner network misplaces them), fits a small
convolutional net that says where the true corner lies in each patch (an L1
loss on its cells from the patch's centre), with mirror images across the
patch's diagonal, and how far off that answer may be (a small head of its own
on what the net sees, fitted to the errors by a Laplace likelihood, so the
corners it learns are the same as without it), and writes it as ONNX for
OpenCV's ``dnn`` to run. Every random draw follows from ``--seed``. The
shipped weights are what the defaults gave on a machine with a GPU (taken
where there is one; 16 cores rendered): a CPU trains the same way but not bit
for bit (run with ``--photos 2800 --epochs 20``, a GPU's held-out figures came
within 3 % of the CPU's: a median 0.0261 of a cell against 0.0255).

Needs ``pip install -e .[train]`` (torch and onnx).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from server.corner_training import render_and_train, render_in_pool, training_arguments
from vision.corners import LOG_SPREAD_BOUNDS, PATCH

#: The spread (cells) under which ``_measure`` counts the held-out answers sure.
SURE_SPREAD = 0.1

__all__ = ["add_arguments", "refiner_net", "render_refiner_set", "run", "train_refiner"]


def _render_chunk(args: tuple[int, int, int]) -> tuple[Any, Any, Any]:
    from datasets.corner_samples import rendered_refiner_samples

    seed, start, stop = args
    patches, targets, photo = [], [], []
    indices = range(start, stop)
    for index, (cut, cells) in zip(indices, rendered_refiner_samples(seed, indices), strict=True):
        if len(cells):
            patches.append(cut)
            targets.append(cells)
            photo.extend([index] * len(cells))
    if not patches:
        none = np.zeros((0, PATCH, PATCH, 3), np.uint8)
        return none, np.zeros((0, 2), np.float32), np.zeros(0, int)
    return np.concatenate(patches), np.concatenate(targets), np.array(photo)


def render_refiner_set(seed: int, photos: int, workers: int) -> tuple[Any, Any, Any]:
    """The refiner's samples of ``photos`` photos of the run ``seed``: uint8 patches
    (N, PATCH, PATCH, 3), true cells (N, 2) and the photo each was cut from (N,)."""
    chunks = render_in_pool(_render_chunk, seed, photos, workers)
    patches, cells, photo = zip(*chunks, strict=True)
    return np.concatenate(patches), np.concatenate(cells), np.concatenate(photo)


def refiner_net() -> Any:
    """The network's class (made on call, so that importing this module needs no torch)."""
    import torch
    from torch import nn

    def block(cin: int, cout: int) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    class RefinerNet(nn.Module):  # type: ignore[misc]
        """Three stages of two convolutions, each halving the patch, then two dense layers.

        Four outputs: the corner's cells ``(a, b)`` from the patch's centre,
        then the log of how far off each is expected to be (a Laplace scale, in
        cells), learned by a small head of its own.
        """

        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                block(3, 24),
                block(24, 24),
                nn.MaxPool2d(2),
                block(24, 48),
                block(48, 48),
                nn.MaxPool2d(2),
                block(48, 64),
                block(64, 64),
                nn.MaxPool2d(2),
            )
            side = PATCH // 8
            self.head = nn.Sequential(
                nn.Flatten(), nn.Linear(64 * side * side, 128), nn.ReLU(inplace=True)
            )
            self.out = nn.Linear(128, 2)
            # Made last, so that the layers above start as they did without it.
            self.spread = nn.Sequential(nn.Linear(128, 32), nn.ReLU(inplace=True), nn.Linear(32, 2))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = x / 127.5 - 1.0
            seen = self.head(self.features(x))
            # The spread learns from what the net sees, without changing it.
            return torch.cat([self.out(seen), self.spread(seen.detach())], dim=1)

    return RefinerNet


def train_refiner(
    patches: Any,
    cells: Any,
    *,
    out: Path,
    seed: int,
    epochs: int,
    batch: int = 256,
    lr: float = 2e-3,
    held: int = 0,
) -> dict[str, float]:
    """Fit the net on the patches (the last ``held`` kept out to measure) and write ONNX."""
    import torch

    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    net = refiner_net()().to(device)
    n = len(patches) - held
    images = torch.from_numpy(patches).to(device)  # uint8 (N, P, P, 3), BGR
    truth = torch.from_numpy(cells).to(device)
    steps = epochs * (n // batch)
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=lr, total_steps=steps)
    started = time.monotonic()
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(n, generator=generator).to(device)
        total = 0.0
        for start in range(0, n - batch + 1, batch):
            idx = order[start : start + batch]
            x = images[idx].permute(0, 3, 1, 2).float()
            y = truth[idx]
            # A board's corner mirrored across the patch's diagonal is a corner too.
            if bool(torch.randint(2, (1,), generator=generator)):
                x = x.transpose(-1, -2)
                y = y.flip(-1)
            found = net(x)
            error = torch.abs(found[:, :2] - y)
            loss = error.mean() + _spread_loss(error.detach(), found[:, 2:])
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(error.mean().detach())
        print(
            f"epoch {epoch + 1}/{epochs}: L1 {total / max(1, n // batch):.4f} cells "
            f"({time.monotonic() - started:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    net.eval()
    figures = _measure(torch, net, images[n:], truth[n:]) if held else {}
    net = net.float().cpu()
    torch.onnx.export(
        net,
        torch.zeros(1, 3, PATCH, PATCH),
        str(out),
        input_names=["patch"],
        output_names=["cells"],
        dynamic_axes={"patch": {0: "batch"}, "cells": {0: "batch"}},
        opset_version=13,
        dynamo=False,
    )
    return figures


def _spread_loss(error: Any, log_spread: Any) -> Any:
    """The Laplace negative log-likelihood of ``error`` (cells) at scale ``exp(log_spread)``.

    Its minimum lies where the scale is the expected error: the refiner's own
    say of how far off its answer may be. ``error`` comes detached, so the
    corners are fitted by the L1 loss alone.
    """
    log_spread = log_spread.clamp(*LOG_SPREAD_BOUNDS)
    return (error * (-log_spread).exp() + log_spread).mean()


def _measure(torch: Any, net: Any, images: Any, truth: Any) -> dict[str, float]:
    """Held-out patches: the rough corners' and the refined corners' errors, in cells."""
    with torch.no_grad():
        found = torch.cat(
            [
                net(images[start : start + 512].permute(0, 3, 1, 2).float())
                for start in range(0, len(images), 512)
            ]
        )
    rough = torch.linalg.norm(truth, dim=-1).cpu().numpy()
    refined = torch.linalg.norm(found[:, :2] - truth, dim=-1).cpu().numpy()
    spread = found[:, 2:].exp().amax(dim=-1).cpu().numpy()
    sure = spread <= SURE_SPREAD
    return {
        "patches": len(truth),
        "rough_median_cells": float(np.median(rough)),
        "refined_median_cells": float(np.median(refined)),
        "refined_p95_cells": float(np.percentile(refined, 95)),
        "refined_within_quarter": float(np.mean(refined < 0.25)),
        "sure_share": float(np.mean(sure)),
        "sure_within_quarter": float(np.mean(refined[sure] < 0.25)) if sure.any() else 0.0,
        "unsure_within_quarter": float(np.mean(refined[~sure] < 0.25)) if (~sure).any() else 0.0,
    }


def add_arguments(parser: Any) -> None:
    """The options of ``kifu train refiner``."""
    training_arguments(parser, photos=7000, epochs=30, passes_over="the patches")


def run(args: Any) -> int:
    """Render, fit, write the ONNX file, print the held-out photos' figures as JSON."""
    return render_and_train(args, render_refiner_set, train_refiner)
