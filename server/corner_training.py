"""Training of the corner network of :mod:`vision.corners` (PyTorch, an optional extra).

``kifu train corners`` renders hard synthetic photos on every core
(:mod:`datasets.corner_samples`), fits a small fully convolutional net with a
CenterNet-style loss (a focal loss on a heat map of the corner intersections,
an L1 loss on each corner's offset inside its cell), with random quarter turns
and mirror images, and writes it as ONNX for OpenCV's ``dnn`` to run. Every
random draw follows from ``--seed``. The shipped weights are what the
defaults gave on a machine with a GPU (taken where there is one; 16 cores
rendered, 6 minutes; 50 passes, 3 minutes): a CPU trains the same way, in
hours, but not bit for bit (the corner refiner's GPU control came within 3 %
of its CPU run's figures, :mod:`server.refiner_training`).

Needs ``pip install -e .[train]`` (torch and onnx).
"""

from __future__ import annotations

import math
import multiprocessing
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from vision.corners import INPUT, STRIDE

__all__ = [
    "add_arguments",
    "corner_net",
    "render_and_train",
    "render_in_pool",
    "render_set",
    "run",
    "train",
    "training_arguments",
]

T = TypeVar("T")


def _render_chunk(args: tuple[int, int, int]) -> tuple[Any, Any, Any]:
    from datasets.corner_samples import rendered_samples

    seed, start, stop = args
    pixels, corners, photo = [], [], []
    indices = range(start, stop)
    for index, samples in zip(indices, rendered_samples(seed, indices), strict=True):
        for sample in samples:
            pixels.append(sample.pixels)
            corners.append(sample.corners)
            photo.append(index)
    return np.stack(pixels), np.stack(corners), np.array(photo)


def render_in_pool(
    chunk: Callable[[tuple[int, int, int]], T], seed: int, photos: int, workers: int
) -> list[T]:
    """``chunk`` of every 25 photos of ``photos`` of the run ``seed``, on ``workers``
    processes, in order, counting the photos rendered on stderr."""
    size = 25
    jobs = [(seed, start, min(start + size, photos)) for start in range(0, photos, size)]
    done: list[T] = []
    started = time.monotonic()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for count, result in enumerate(pool.imap(chunk, jobs), start=1):
            done.append(result)
            if count % 10 == 0 or count == len(jobs):
                print(
                    f"rendered {min(count * size, photos)}/{photos} photos "
                    f"({time.monotonic() - started:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    return done


def render_set(seed: int, photos: int, workers: int) -> tuple[Any, Any, Any]:
    """Every view of ``photos`` photos of the run ``seed``: uint8 (N, S, S, 3), corners
    (N, 4, 2) and the photo each view was cut from (N,)."""
    pixels, corners, photo = zip(*render_in_pool(_render_chunk, seed, photos, workers), strict=True)
    return np.concatenate(pixels), np.concatenate(corners), np.concatenate(photo)


def corner_net() -> Any:
    """The network's class (made on call, so that importing this module needs no torch)."""
    import torch
    from torch import nn

    def block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    class CornerNet(nn.Module):  # type: ignore[misc]
        """Encoder to 1/32, context by dilated convolutions, decoder back to 1/4."""

        def __init__(self) -> None:
            super().__init__()
            self.s2 = nn.Sequential(block(3, 12, 2))
            self.s4 = nn.Sequential(block(12, 24, 2), block(24, 24))
            self.s8 = nn.Sequential(block(24, 48, 2), block(48, 48))
            self.s16 = nn.Sequential(block(48, 64, 2), block(64, 64))
            self.s32 = nn.Sequential(
                block(64, 96, 2), block(96, 96, dilation=2), block(96, 96, dilation=4)
            )
            self.up16 = block(96 + 64, 64)
            self.up8 = block(64 + 48, 48)
            self.up4 = block(48 + 24, 32)
            self.head = nn.Sequential(block(32, 32), nn.Conv2d(32, 3, 1))
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            # Corners are rare: start the heat near CenterNet's prior of 0.1.
            nn.init.constant_(self.head[1].bias, 0.0)
            with torch.no_grad():
                self.head[1].bias[0] = -2.19

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = x / 127.5 - 1.0
            f4 = self.s4(self.s2(x))
            f8 = self.s8(f4)
            f16 = self.s16(f8)
            f32 = self.s32(f16)
            y = self.up16(torch.cat([self.up(f32), f16], 1))
            y = self.up8(torch.cat([self.up(y), f8], 1))
            y = self.up4(torch.cat([self.up(y), f4], 1))
            return self.head(y)

    return CornerNet


def _augment(torch: Any, images: Any, corners: Any, generator: Any) -> tuple[Any, Any]:
    """A random quarter turn and mirror image per batch (the corners move with the pixels)."""
    k = int(torch.randint(4, (1,), generator=generator))
    flip = bool(torch.randint(2, (1,), generator=generator))
    size = INPUT
    x, y = corners[..., 0], corners[..., 1]
    if flip:
        images = images.flip(-1)
        x = size - x
    for _ in range(k):  # rot90 of (H, W) dims: (x, y) -> (y, size - x)
        images = images.rot90(1, (-2, -1))
        x, y = y, size - x
    return images, torch.stack([x, y], -1)


def _targets(torch: Any, corners: Any, sigma: float = 1.0) -> tuple[Any, Any, Any]:
    """Gaussian heat targets, offset targets and their mask at the heat map's cells."""
    cells = INPUT // STRIDE
    batch = corners.shape[0]
    pos = corners / STRIDE  # cell units
    valid = torch.isfinite(pos).all(-1) & (pos >= 0).all(-1) & (pos < cells).all(-1)
    grid = torch.arange(cells, device=corners.device, dtype=torch.float32) + 0.5
    heat = torch.zeros(batch, cells, cells, device=corners.device)
    offsets = torch.zeros(batch, 2, cells, cells, device=corners.device)
    mask = torch.zeros(batch, cells, cells, device=corners.device)
    safe = torch.where(valid[..., None], pos, torch.zeros_like(pos))
    for c in range(4):
        px, py = safe[:, c, 0], safe[:, c, 1]
        gx = torch.exp(-((grid[None] - px[:, None]) ** 2) / (2 * sigma**2))
        gy = torch.exp(-((grid[None] - py[:, None]) ** 2) / (2 * sigma**2))
        g = gy[:, :, None] * gx[:, None, :] * valid[:, c, None, None]
        heat = torch.maximum(heat, g)
        ix = px.floor().long().clamp(0, cells - 1)
        iy = py.floor().long().clamp(0, cells - 1)
        b = torch.arange(batch, device=corners.device)[valid[:, c]]
        heat[b, iy[valid[:, c]], ix[valid[:, c]]] = 1.0
        offsets[b, 0, iy[valid[:, c]], ix[valid[:, c]]] = (px - ix)[valid[:, c]]
        offsets[b, 1, iy[valid[:, c]], ix[valid[:, c]]] = (py - iy)[valid[:, c]]
        mask[b, iy[valid[:, c]], ix[valid[:, c]]] = 1.0
    return heat, offsets, mask


def _loss(torch: Any, out: Any, heat: Any, offsets: Any, mask: Any) -> Any:
    """CenterNet's focal loss on the heat map plus L1 on the offsets at the corners."""
    logits = out[:, 0].float()
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = heat.eq(1.0).float()
    pos_loss = -torch.log(p) * (1 - p) ** 2 * positive
    neg_loss = -torch.log(1 - p) * p**2 * (1 - heat) ** 4 * (1 - positive)
    count = positive.sum().clamp(min=1.0)
    focal = (pos_loss.sum() + neg_loss.sum()) / count
    l1 = (torch.abs(out[:, 1:3].float() - offsets) * mask[:, None]).sum() / count
    return focal + l1


def train(
    pixels: Any,
    corners: Any,
    *,
    out: Path,
    seed: int,
    epochs: int,
    batch: int = 128,
    lr: float = 2e-3,
    held: int = 0,
) -> dict[str, float]:
    """Fit the net on the views (the last ``held`` kept out to measure) and write ONNX."""
    import torch

    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    net = corner_net()().to(device).to(memory_format=torch.channels_last)
    n = len(pixels) - held
    images = torch.from_numpy(pixels).to(device)  # uint8 (N, S, S, 3), BGR
    points = torch.from_numpy(corners).to(device)
    steps = epochs * math.ceil(n / batch)
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=lr, total_steps=steps)
    started = time.monotonic()
    step = 0
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(n, generator=generator).to(device)
        total = 0.0
        for start in range(0, n - batch + 1, batch):
            idx = order[start : start + batch]
            x = images[idx].permute(0, 3, 1, 2).float()
            x, c = _augment(torch, x, points[idx], generator)
            heat, offsets, mask = _targets(torch, c)
            with torch.autocast(device_type=device, dtype=torch.bfloat16, enabled=device == "cuda"):
                y = net(x.contiguous(memory_format=torch.channels_last))
            loss = _loss(torch, y, heat, offsets, mask)
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            optimiser.step()
            schedule.step()
            step += 1
            total += float(loss.detach())
        print(
            f"epoch {epoch + 1}/{epochs}: loss {total / max(1, n // batch):.4f} "
            f"({time.monotonic() - started:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    net.eval()
    figures = _measure(torch, net, images[n:], points[n:], device) if held else {}
    net = net.float().cpu()
    example = torch.zeros(1, 3, INPUT, INPUT)
    torch.onnx.export(
        net,
        example,
        str(out),
        input_names=["view"],
        output_names=["heat"],
        opset_version=13,
        dynamo=False,
    )
    return figures


def _measure(torch: Any, net: Any, images: Any, points: Any, device: str) -> dict[str, float]:
    """Held-out views: median corner error in view pixels, share within 2 px, false peaks."""
    from vision.corners import heat_peaks

    errors, found, missing, false_boards = [], 0, 0, 0
    with torch.no_grad():
        for start in range(0, len(images), 256):
            x = images[start : start + 256].permute(0, 3, 1, 2).float()
            y = net(x).float().cpu().numpy()
            for out, truth in zip(y, points[start : start + 256].cpu().numpy(), strict=True):
                heat = 0.5 + 0.5 * np.tanh(0.5 * out[0])
                peaks, _ = heat_peaks(heat.astype(np.float32), out[1:3])
                if not np.isfinite(truth).all():
                    false_boards += int(len(peaks) >= 4)
                    continue
                if len(peaks) < 4:
                    missing += 1
                    continue
                found += 1
                d = np.linalg.norm(peaks[:4, None] - truth[None], axis=-1)
                errors.extend(d.min(axis=0).tolist())
    e = np.array(errors) if errors else np.array([np.nan])
    return {
        "boards_found": found,
        "boards_missing": missing,
        "false_boards": false_boards,
        "median_px": float(np.median(e)),
        "within_2px": float(np.mean(e < 2.0)),
        "p95_px": float(np.percentile(e, 95)),
    }


def main(argv: list[str] | None = None) -> int:
    """Standalone ``kifu train corners``, for a machine with torch but not every server need."""
    import argparse

    parser = argparse.ArgumentParser(prog="kifu train corners")
    add_arguments(parser)
    return run(parser.parse_args(argv))


def add_arguments(parser: Any) -> None:
    """The options of ``kifu train corners``."""
    training_arguments(parser, photos=7000, epochs=50, passes_over="the views")


def training_arguments(parser: Any, *, photos: int, epochs: int, passes_over: str) -> None:
    """The options every network's training takes, with its own defaults."""
    parser.add_argument("--out", type=Path, required=True, help="ONNX file to write")
    parser.add_argument(
        "--photos", type=int, default=photos, help=f"photos to train on (default {photos})"
    )
    parser.add_argument(
        "--held", type=int, default=200, help="photos after those, to measure on (default 200)"
    )
    parser.add_argument(
        "--epochs", type=int, default=epochs, help=f"passes over {passes_over} ({epochs})"
    )
    parser.add_argument(
        "--seed", type=int, default=1000, help="seed of photos and training (default 1000)"
    )
    parser.add_argument(
        "--workers", type=int, default=multiprocessing.cpu_count(), help="rendering processes"
    )


def render_and_train(
    args: Any,
    render: Callable[[int, int, int], tuple[Any, ...]],
    train: Callable[..., dict[str, float]],
) -> int:
    """What every network's ``kifu train`` does with the options of :func:`training_arguments`.

    ``render(seed, photos, workers)`` gives the samples, the photo each was cut
    from last; ``train(*samples, out=, seed=, epochs=, held=)`` fits on all but
    the held-out photos' samples, which come last, and writes the ONNX file.
    The held-out photos' figures are printed as JSON.
    """
    import json

    if args.photos < 1 or args.epochs < 1 or args.held < 0:
        raise ValueError(
            f"--photos and --epochs must be at least 1 and --held at least 0, got "
            f"{args.photos!r}, {args.epochs!r}, {args.held!r}"
        )
    *samples, photo = render(args.seed, args.photos + args.held, args.workers)
    held = int(np.count_nonzero(photo >= args.photos))
    figures = train(*samples, out=args.out, seed=args.seed, epochs=args.epochs, held=held)
    print(json.dumps(figures))
    return 0


def run(args: Any) -> int:
    """Render, fit, write the ONNX file, print the held-out photos' figures as JSON."""
    return render_and_train(args, render_set, train)


if __name__ == "__main__":
    sys.exit(main())
