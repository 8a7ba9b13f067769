"""``kifu train stones``: train the learned stone classifier on synthetic photos.

Renders (or reads) synthetic photos, cuts a patch around every intersection on
the true grid (:mod:`datasets.stone_patches`), and fits the small numpy MLP of
:mod:`vision.learned` with Adam, every random draw from ``--seed``, so the
shipped ``vision/models/stones.npz`` is rebuilt bit for bit by the same command
on the same machine. Progress goes to stderr.

The default run is the one that made the shipped weights (about 20 minutes, most
of it rendering; one BLAS thread trains several times faster on a busy machine)::

    OPENBLAS_NUM_THREADS=1 kifu train stones --out vision/models/stones.npz --seed 1000

That is 800 hard photos of seed 1000 and 300 more of the same run in harsh light
(deep, long stone shadows and narrow dark margins, which real photos have and
the model must not take for stones).
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from datasets.stone_patches import SynthCase, folder_cases, patch_set, rendered_cases
from vision.learned import CHANNELS, INPUTS, LABELS, PATCH, StoneModel

__all__ = ["augment", "fit", "register"]

F32 = npt.NDArray[np.float32]
#: Seeds the model may be trained on; others (777, 4242, 9001) are held out.
TRAINING_SEEDS = range(1000, 2000)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("train", help="train a learned model (on synthetic photos)")
    kinds = parser.add_subparsers(dest="kind", metavar="MODEL", required=True)
    stones = kinds.add_parser("stones", help="the stone classifier of vision.learned")
    stones.add_argument("--out", type=Path, required=True, help="weights file to write (.npz)")
    stones.add_argument(
        "--photos", type=int, default=800, help="photos to render in ordinary light (default 800)"
    )
    stones.add_argument(
        "--harsh-photos",
        type=int,
        default=300,
        help="photos to render after those in harsh light: low, deep, long shadows (default 300)",
    )
    stones.add_argument(
        "--seed",
        type=int,
        default=1000,
        help="seed of the rendered photos and of training, 1000..1999 (default 1000)",
    )
    stones.add_argument(
        "--folder",
        type=Path,
        default=None,
        help="read photos written by 'kifu synth photos' instead of rendering them",
    )
    stones.add_argument("--epochs", type=int, default=24, help="passes over the data (default 24)")
    stones.add_argument(
        "--jitter", type=float, default=0.1, help="corner jitter, share of a cell (default 0.1)"
    )
    stones.add_argument(
        "--contrast",
        type=float,
        default=0.4,
        help="brightness inputs scaled by exp(U(-c, c)) per example (default 0.4)",
    )
    stones.set_defaults(func=_stones)
    corners = kinds.add_parser(
        "corners", help="the corner network of vision.corners (needs torch: pip install .[train])"
    )
    from server.corner_training import add_arguments

    add_arguments(corners)
    corners.set_defaults(func=_corners)
    refiner = kinds.add_parser(
        "refiner",
        help="the corner refiner of vision.corners (needs torch: pip install .[train])",
    )
    from server.refiner_training import add_arguments as refiner_arguments

    refiner_arguments(refiner)
    refiner.set_defaults(func=_refiner)
    net = kinds.add_parser(
        "stone-net",
        help="the stone net of vision.learned.second_look (needs torch: pip install .[train])",
    )
    from server.stone_net_training import add_arguments as stone_net_arguments

    stone_net_arguments(net)
    net.set_defaults(func=_stone_net)


def _corners(args: argparse.Namespace) -> int:
    """Train the corner network (:mod:`server.corner_training`)."""
    return _with_torch("corners", "server.corner_training", args)


def _refiner(args: argparse.Namespace) -> int:
    """Train the corner refiner (:mod:`server.refiner_training`)."""
    return _with_torch("refiner", "server.refiner_training", args)


def _stone_net(args: argparse.Namespace) -> int:
    """Train the stone net (:mod:`server.stone_net_training`)."""
    return _with_torch("stone-net", "server.stone_net_training", args)


def _with_torch(kind: str, module: str, args: argparse.Namespace) -> int:
    """``module.run(args)``; an error naming the missing extra without torch."""
    try:
        import torch  # noqa: F401
    except ImportError:
        print(f"kifu train {kind} needs PyTorch: pip install -e '.[train]'", file=sys.stderr)
        return 2
    status: int = importlib.import_module(module).run(args)
    return status


def augment(inputs: F32, turn: int) -> F32:
    """The inputs with every patch turned ``turn % 4`` quarter turns, mirrored if ``turn >= 4``.

    A stone looks the same from any side, only the light differs, so the eight
    symmetries of the square are free extra examples.
    """
    size = CHANNELS * PATCH * PATCH
    patches = inputs[:, :size].reshape(-1, CHANNELS, PATCH, PATCH)
    patches = np.rot90(patches, turn % 4, axes=(2, 3))
    if turn >= 4:
        patches = patches[..., ::-1]
    return np.concatenate([patches.reshape(len(inputs), size), inputs[:, size:]], axis=1)


def _contrast_scale(count: int, contrast: float, rng: np.random.Generator) -> F32:
    """Per-example factors for the relative brightness and the darkness inputs.

    Shadows and stones are deeper or shallower from one photo to the next; scaling
    every brightness-like input by ``exp(U(-contrast, contrast))`` keeps the
    model from trusting depth alone, so that shape must tell stone from shadow.
    """
    factor = np.exp(rng.uniform(-contrast, contrast, (count, 1))).astype(np.float32)
    scale = np.ones((count, INPUTS), dtype=np.float32)
    scale[:, : PATCH * PATCH] = factor
    scale[:, CHANNELS * PATCH * PATCH :] = factor
    return scale


def fit(
    inputs: F32,
    labels: npt.NDArray[np.int64],
    *,
    rng: np.random.Generator,
    hidden: tuple[int, ...] = (64, 32),
    epochs: int = 12,
    batch: int = 256,
    rate: float = 2e-3,
    decay: float = 1e-4,
    contrast: float = 0.0,
    progress: Callable[[int, float, float], None] | None = None,
) -> StoneModel:
    """Fit an MLP by minibatch Adam on cross-entropy, with random symmetries of the patches.

    Parameters
    ----------
    inputs : ndarray of shape (M, INPUTS), float32
    labels : ndarray of shape (M,), int64, indices into ``LABELS``
    rng : numpy.random.Generator
        Every random draw (initial weights, batches, symmetries) comes from it.
    contrast : float
        Scale the brightness inputs of each example by ``exp(U(-contrast, contrast))``.
    progress : callable, optional
        Called after each epoch with (epoch, mean loss, training accuracy).
    """
    if inputs.ndim != 2 or inputs.shape[1] != INPUTS or len(labels) != len(inputs):
        raise ValueError(f"expected (M, {INPUTS}) inputs and M labels, got {inputs.shape!r}")
    # Statistics shared by the eight symmetries, so that turning a standardised
    # patch is the same as standardising the turned one.
    mean = np.mean([augment(inputs.mean(axis=0, keepdims=True), t) for t in range(8)], axis=0)
    var = np.mean([augment(inputs.var(axis=0, keepdims=True), t) for t in range(8)], axis=0)
    mean = mean[0].astype(np.float32)
    std = np.maximum(np.sqrt(var[0]), 1e-3).astype(np.float32)
    widths = (INPUTS, *hidden, len(LABELS))
    weights = [
        (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
        for a, b in itertools.pairwise(widths)
    ]
    biases = [np.zeros(b, dtype=np.float32) for b in widths[1:]]
    params = [*weights, *biases]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    beta1, beta2, step = 0.9, 0.999, 0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(inputs))
        total_loss, right = 0.0, 0
        lr = rate * 0.5 * (1.0 + np.cos(np.pi * (epoch - 1) / epochs))
        for start in range(0, len(order), batch):
            take = order[start : start + batch]
            x = augment(inputs[take], int(rng.integers(8)))
            if contrast > 0.0:
                x = x * _contrast_scale(len(take), contrast, rng)
            x = (x - mean) / std
            y = labels[take]
            activations = [x]
            for k in range(len(weights)):
                z = activations[-1] @ weights[k] + biases[k]
                activations.append(np.maximum(z, 0.0) if k < len(weights) - 1 else z)
            logits = activations[-1]
            logits = logits - logits.max(axis=1, keepdims=True)
            prob = np.exp(logits)
            prob /= prob.sum(axis=1, keepdims=True)
            total_loss += float(-np.log(prob[np.arange(len(y)), y] + 1e-12).sum())
            right += int((prob.argmax(axis=1) == y).sum())
            grad = prob
            grad[np.arange(len(y)), y] -= 1.0
            grad /= len(y)
            grads_w: list[F32] = [np.empty(0, np.float32)] * len(weights)
            grads_b: list[F32] = [np.empty(0, np.float32)] * len(weights)
            for k in range(len(weights) - 1, -1, -1):
                grads_w[k] = activations[k].T @ grad + decay * weights[k]
                grads_b[k] = grad.sum(axis=0)
                if k > 0:
                    grad = (grad @ weights[k].T) * (activations[k] > 0)
            step += 1
            for p, g, m, v in zip(params, [*grads_w, *grads_b], first, second, strict=True):
                m *= beta1
                m += (1 - beta1) * g
                v *= beta2
                v += (1 - beta2) * g * g
                m_hat = m / (1 - beta1**step)
                v_hat = v / (1 - beta2**step)
                p -= (lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        if progress is not None:
            progress(epoch, total_loss / len(order), right / len(order))
    return StoneModel(mean=mean, std=std, weights=tuple(weights), biases=tuple(biases))


def _stones(args: argparse.Namespace) -> int:
    if args.seed not in TRAINING_SEEDS:
        raise ValueError(
            f"training seed {args.seed!r} is outside "
            f"{TRAINING_SEEDS.start}..{TRAINING_SEEDS.stop - 1}"
            " (other seeds are kept for development and held-out scores)"
        )
    if args.photos < 1 or args.epochs < 1 or args.harsh_photos < 0:
        raise ValueError(
            f"--photos and --epochs must be at least 1 and --harsh-photos at least 0, got "
            f"{args.photos!r}, {args.epochs!r}, {args.harsh_photos!r}"
        )
    rng = np.random.default_rng(args.seed)
    if args.folder is not None:
        cases: Any = folder_cases(args.folder)
        where = str(args.folder)
    else:
        cases = itertools.chain(
            rendered_cases(seed=args.seed, photos=args.photos),
            rendered_cases(
                seed=args.seed, photos=args.harsh_photos, first=args.photos, harsh_light=True
            ),
        )
        where = (
            f"{args.photos} hard photos of seed {args.seed} and {args.harsh_photos} more"
            " in harsh light"
        )
    start = time.perf_counter()

    def cut(count: int, case: SynthCase) -> None:
        seconds = time.perf_counter() - start
        print(f"\rpatches: {count} photos ({case.name}), {seconds:.0f} s", end="", file=sys.stderr)

    data = patch_set(cases, jitter=args.jitter, rng=rng, progress=cut)
    counts = np.bincount(data.labels, minlength=len(LABELS))
    print(
        f"\n{len(data.labels)} points from {where}: "
        + ", ".join(f"{c} {mark!r}" for mark, c in zip(LABELS, counts, strict=True)),
        file=sys.stderr,
    )

    def report(epoch: int, loss: float, accuracy: float) -> None:
        print(f"epoch {epoch}: loss {loss:.4f}, training accuracy {accuracy:.4%}", file=sys.stderr)

    model = fit(
        data.inputs,
        data.labels,
        rng=rng,
        epochs=args.epochs,
        contrast=args.contrast,
        progress=report,
    )
    model.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0
