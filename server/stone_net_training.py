"""Training of the stone net of :func:`vision.learned.second_look` (PyTorch, optional).

``kifu train stone-net`` renders hard synthetic photos on every core, a share
of them (``HANDS``) with a hand over the board, cuts the stone model's inputs at
every intersection of each photo's true grid (:mod:`datasets.stone_patches`, the
corners jittered as the MLP's are), fits a small convolutional net on them with
the eight symmetries of the square and random contrast (as ``kifu train stones``
fits the MLP), and writes it as ONNX for OpenCV's ``dnn`` to run. It trains on
the CPU (about 40 minutes on two cores, 23 of them rendering), and every random
draw follows from ``--seed``: the shipped weights are what the defaults gave,
once, on two cores.

Needs ``pip install -e .[train]`` (torch and onnx).
"""

from __future__ import annotations

import functools
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from server.args import unit
from server.corner_training import render_and_train, render_in_pool, training_arguments
from vision.learned import CHANNELS, INPUTS, LABELS, PATCH

__all__ = ["add_arguments", "render_stone_set", "run", "stone_net", "train_stone_net"]

#: Corner jitter of the training patches, share of a cell (as the MLP's).
JITTER = 0.1
#: Share of the training photos with a hand over the board (:mod:`datasets.synth.hands`):
#: a sleeve or a fingertip over an empty point is no white stone; a stone the hand
#: hides is left out (:func:`datasets.stone_patches.photo_patches`).
HANDS = 0.3
#: Brightness inputs scaled by ``exp(U(-CONTRAST, CONTRAST))`` per example (as the MLP's).
CONTRAST = 0.4


def _render_chunk(args: tuple[int, int, int], hands: float = HANDS) -> tuple[Any, Any, Any]:
    """The stone inputs, labels and photo numbers of photos ``start..stop-1`` of ``seed``,
    a share ``hands`` of them with a hand over the board."""
    from datasets.real import DatasetError
    from datasets.stone_patches import patch_set, rendered_cases

    seed, start, stop = args
    numbers: list[int] = []  # photos without a board yield no case

    def numbered(case: Any) -> Any:
        numbers.append(int(case.name.rsplit("/", 1)[1]))
        return case

    cases = map(numbered, rendered_cases(seed=seed, photos=stop - start, first=start, hands=hands))
    try:
        data = patch_set(cases, jitter=JITTER, rng=np.random.default_rng([seed, start]))
    except DatasetError:
        return np.zeros((0, INPUTS), np.float32), np.zeros(0, np.int64), np.zeros(0, np.int64)
    return data.inputs, data.labels, np.array(numbers)[data.photo]


def render_stone_set(
    seed: int, photos: int, workers: int, hands: float = HANDS
) -> tuple[Any, Any, Any]:
    """The stone inputs of ``photos`` photos of the run ``seed``: float32 (M, INPUTS),
    labels (M,) indexing ``LABELS``, and the photo each point was cut from (M,).
    A share ``hands`` of the photos shows a hand over the board."""
    chunk = functools.partial(_render_chunk, hands=hands)
    inputs, labels, photo = zip(*render_in_pool(chunk, seed, photos, workers), strict=True)
    return np.concatenate(inputs), np.concatenate(labels), np.concatenate(photo)


def stone_net(inputs: Any) -> Any:
    """The network (made on call, so that importing this module needs no torch).

    Its standardisation comes from ``inputs`` (M, INPUTS): one mean and spread per
    channel, shared by every pixel, so that it is the same for every symmetry.
    """
    import torch
    from torch import nn

    pixels = PATCH * PATCH
    channels = inputs[:, : CHANNELS * pixels].reshape(len(inputs), CHANNELS, pixels)
    centre = channels.mean(axis=(0, 2)).astype(np.float32)
    scale = np.maximum(channels.std(axis=(0, 2)), 1e-3).astype(np.float32)
    dark = inputs[:, CHANNELS * pixels :]
    dark_centre, dark_scale = float(dark.mean()), max(float(dark.std()), 1e-3)

    class StoneNet(nn.Module):  # type: ignore[misc]
        """Three convolutions (24, 32, 48 channels; two halve the patch), then two dense
        layers on what they see and the classical darkness. Out: the logits of ``LABELS``."""

        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("centre", torch.from_numpy(centre).view(1, CHANNELS, 1, 1))
            self.register_buffer("scale", torch.from_numpy(scale).view(1, CHANNELS, 1, 1))
            self.features = nn.Sequential(
                nn.Conv2d(CHANNELS, 24, 3, padding=1),
                nn.ReLU(),
                nn.Conv2d(24, 32, 3, padding=1),
                nn.ReLU(),
                nn.MaxPool2d(2),
                nn.Conv2d(32, 48, 3, padding=1),
                nn.ReLU(),
                nn.MaxPool2d(2),
                nn.Flatten(),
            )
            seen = 48 * (PATCH // 4) ** 2
            self.head = nn.Sequential(
                nn.Linear(seen + 1, 64), nn.ReLU(), nn.Linear(64, len(LABELS))
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            patch = x[:, : CHANNELS * pixels].reshape(-1, CHANNELS, PATCH, PATCH)
            patch = (patch - self.centre) / self.scale
            darkness = (x[:, CHANNELS * pixels :] - dark_centre) / dark_scale
            return self.head(torch.cat([self.features(patch), darkness], dim=1))

    return StoneNet()


def train_stone_net(
    inputs: Any,
    labels: Any,
    *,
    out: Path,
    seed: int,
    epochs: int,
    batch: int = 256,
    lr: float = 2e-3,
    held: int = 0,
) -> dict[str, float]:
    """Fit the net on the points (the last ``held`` kept out to measure) and write ONNX."""
    import torch

    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    n = len(inputs) - held
    net = stone_net(inputs[:n])
    x_all = torch.from_numpy(np.ascontiguousarray(inputs, dtype=np.float32))
    y_all = torch.from_numpy(np.asarray(labels, dtype=np.int64))
    optimiser = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-5)
    pixels = PATCH * PATCH
    started = time.monotonic()
    for epoch in range(epochs):
        for group in optimiser.param_groups:
            group["lr"] = lr * 0.5 * (1.0 + np.cos(np.pi * epoch / epochs))
        net.train()
        order = torch.randperm(n, generator=generator)
        total, right = 0.0, 0
        for start in range(0, n, batch):
            idx = order[start : start + batch]
            x = _symmetry(x_all[idx], int(torch.randint(8, (1,), generator=generator)))
            # Stones and shadows are deeper or shallower from photo to photo.
            factor = torch.empty(len(idx), 1).uniform_(-CONTRAST, CONTRAST, generator=generator)
            scale = torch.ones(len(idx), INPUTS)
            scale[:, :pixels] = factor.exp()
            scale[:, CHANNELS * pixels :] = factor.exp()
            logits = net(x * scale)
            loss = torch.nn.functional.cross_entropy(logits, y_all[idx])
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            optimiser.step()
            total += float(loss.detach()) * len(idx)
            right += int((logits.argmax(1) == y_all[idx]).sum())
        print(
            f"epoch {epoch + 1}/{epochs}: loss {total / n:.4f}, training accuracy "
            f"{right / n:.4%} ({time.monotonic() - started:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    net.eval()
    figures = _measure(torch, net, x_all[n:], y_all[n:]) if held else {}
    torch.onnx.export(
        net,
        torch.zeros(1, INPUTS),
        str(out),
        input_names=["inputs"],
        output_names=["logits"],
        dynamic_axes={"inputs": {0: "points"}, "logits": {0: "points"}},
        opset_version=13,
        dynamo=False,
    )
    return figures


def _symmetry(x: Any, turn: int) -> Any:
    """Every patch of ``x`` turned ``turn % 4`` quarter turns, mirrored if ``turn >= 4``."""
    import torch

    size = CHANNELS * PATCH * PATCH
    patches = torch.rot90(x[:, :size].reshape(-1, CHANNELS, PATCH, PATCH), turn % 4, dims=(2, 3))
    if turn >= 4:
        patches = patches.flip(3)
    return torch.cat([patches.reshape(len(x), size), x[:, size:]], dim=1)


def _measure(torch: Any, net: Any, inputs: Any, labels: Any) -> dict[str, float]:
    """Held-out points: the share read right, overall and per true label."""
    with torch.no_grad():
        found = torch.cat(
            [net(inputs[start : start + 4096]).argmax(1) for start in range(0, len(inputs), 4096)]
        )
    right = (found == labels).numpy()
    truth = labels.numpy()
    figures: dict[str, float] = {"points": len(truth), "accuracy": float(right.mean())}
    for k, mark in enumerate(LABELS):
        if np.any(truth == k):
            figures[f"accuracy {mark!r}"] = float(right[truth == k].mean())
    return figures


def add_arguments(parser: Any) -> None:
    """The options of ``kifu train stone-net``."""
    training_arguments(parser, photos=4000, epochs=15, passes_over="the points")
    parser.add_argument(
        "--hands",
        type=unit,
        default=HANDS,
        help=f"share of the photos with a hand over the board (default {HANDS})",
    )


def run(args: Any) -> int:
    """Render, fit, write the ONNX file, print the held-out photos' figures as JSON."""
    render = functools.partial(render_stone_set, hands=args.hands)
    return render_and_train(args, render, train_stone_net)
