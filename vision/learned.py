"""A small learned stone classifier: a patch around each intersection, a numpy MLP.

The classical reader (:mod:`vision.classify`) looks at one number per point, how
much darker or brighter its middle is than the board. White stones on a pale
board are about as bright as the wood, and there only the *shape* tells: a round
disc with a shaded rim and a shadow on one side. This model sees that shape in a
patch of 1.5 cells around the point, cut from the straightened board image (so it
is already free of scale and perspective) and normalised by the local board's
brightness (so the board's colour and the lighting matter less), together with
the classical darkness as an extra input.

It was trained on synthetic photos only (``kifu train stones``, reproducible from
a seed), a share of them in harsh light (deep, long stone shadows, narrow dark
board margins) so that it does not take those for black stones as real photos
tempt it to; inference is plain numpy, about a millisecond a board. The weights
ship in ``vision/models/stones.npz`` and are loaded once, on first use.

Where it is unsure of a point, a small convolutional net on the same inputs,
the stone net, reads the point again (:func:`second_look`; ``kifu train
stone-net``, run by OpenCV's ``dnn`` from ``vision/models/stone_net.onnx``).
"""

from __future__ import annotations

import functools
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.features import CELL, MARGIN, StoneFeatures
from vision.nets import NET_LOCK, read_onnx
from vision.robust import medians

__all__ = [
    "DOWNSAMPLE",
    "LABELS",
    "MODEL_PATH",
    "NET_PATH",
    "PATCH",
    "SECOND_LOOK",
    "TURNS",
    "ModelError",
    "StoneModel",
    "board_inputs",
    "half_size_lab",
    "load_model",
    "load_stone_net",
    "patch_inputs",
    "second_look",
    "small_channels",
    "turned",
]

F32 = npt.NDArray[np.float32]

#: Class order of the model's outputs: empty, black, white (the board text marks).
LABELS = ".XO"
#: The patches are cut from the board image at half its resolution...
DOWNSAMPLE = 2
#: ... this many pixels square (1.5 cells of ``CELL // DOWNSAMPLE`` pixels).
PATCH = 12
#: Patch channels: brightness relative to the local board, and colourfulness.
CHANNELS = 2
#: Per-point numbers appended to the patch: the classical darkness.
SCALARS = 1
#: Inputs per intersection.
INPUTS = CHANNELS * PATCH * PATCH + SCALARS
#: How far (cells) past the outer lines a patch may see: an edge stone's radius.
EDGE_REACH = 0.55
#: Scale of the colourfulness channel (Lab chroma units per input unit).
CHROMA_UNIT = 32.0
#: The shipped weights.
MODEL_PATH = Path(__file__).resolve().parent / "models" / "stones.npz"
#: The stone net's (ONNX), for :func:`second_look`.
NET_PATH = Path(__file__).resolve().parent / "models" / "stone_net.onnx"
#: Points the MLP gives a label less surely than this get a second look from the
#: stone net. On the true grids of 2,152 dev boards that is 12.1 % of points, and
#: they hold nearly all the net's gain: the combined reader misreads 954 points
#: so, 953 with the net reading every point, 971 at 0.99 (4.3 % of points; the
#: MLP alone, 2,320). A fingertip or sleeve over the board, which the MLP never
#: saw in training and the net did, is where the MLP is wrong and still sure: on
#: 138 photos with a hand, the empty points under it read as stones fall from 45
#: at 0.99 to 13 (``imago-tests/t3/t3_003``'s fingertip at (7, 0), 0.997 white
#: to the MLP, reads empty). The net then reads 2.8 times as many points:
#: (b) on the real photos 5.0 ms against 4.5 ms.
SECOND_LOOK = 0.999
#: The stone net reads each point it looks at this many times, its patch turned a
#: quarter further each time, and its probabilities are averaged. It was trained
#: on every turn and mirror of its patches, and still reads a turned patch a
#: little differently; the average is surer where it is right. On the true grids
#: of 3,767 dev boards (fourteen hard seeds) the combined reader misreads 1,687
#: points instead of 1,853 with one look (588 instead of 701 given at even odds or
#: more), 1,672 (583) with all eight symmetries, at twice the cost again; real
#: photos, 2 points instead of 5. The net's share of a photo's reading grows
#: fourfold: a frame on a known grid, 7.4 ms against 5.5 ms (real photos).
TURNS = 4


#: Largest product (rows × inputs × outputs) OpenBLAS keeps on one thread: 65536
#: times its ``GEMM_MULTITHREAD_THRESHOLD`` of 4 (see :meth:`StoneModel.probabilities`).
_ONE_THREAD = 65536 * 4


class ModelError(VisionError):
    """A weights file is missing or malformed; the message names the file."""


@dataclass(frozen=True, eq=False)
class StoneModel:
    """A multilayer perceptron: standardised inputs, ReLU hidden layers, softmax out.

    ``weights[k]`` has shape (inputs of layer k, outputs of layer k), float32.
    """

    #: ndarray of shape (INPUTS,): subtracted from the inputs...
    mean: F32
    #: ... which are then divided by this, ndarray of shape (INPUTS,).
    std: F32
    weights: tuple[F32, ...]
    biases: tuple[F32, ...]

    @functools.cached_property
    def _layers(self) -> tuple[tuple[F32, F32], ...]:
        """The layers with the standardisation folded into the first (one product less).

        Weights too small for a normal float32 (training decays those out of
        hidden units that never fire: the shipped second layer holds 192) are
        taken as 0. They change no output, but every product over them runs in
        the CPU's slow subnormal path: 29 ms instead of 1 for a board's 81
        offsets.
        """
        first = self.weights[0] / self.std[:, None]
        bias = self.biases[0] - self.mean @ first
        layers = ((first, bias), *zip(self.weights[1:], self.biases[1:], strict=True))
        tiny = np.finfo(np.float32).tiny
        return tuple(
            (np.where(np.abs(w) < tiny, 0.0, w).astype(np.float32), b.astype(np.float32))
            for w, b in layers
        )

    def probabilities(self, inputs: F32) -> F32:
        """Class probabilities (order ``LABELS``), ndarray of shape (M, 3), from (M, INPUTS)."""
        x = inputs
        last = len(self.weights) - 1
        for k, (w, b) in enumerate(self._layers):
            out = np.empty((len(x), w.shape[1]), dtype=np.float32)
            # In blocks of rows small enough that the BLAS keeps each product on
            # one thread: spread over threads that other work keeps busy (or that
            # still spin after an earlier product) it is ten times slower. The
            # narrow later layers take far more rows per block than the first.
            rows = max(1, _ONE_THREAD // w.size)
            for start in range(0, len(x), rows):
                np.matmul(x[start : start + rows], w, out=out[start : start + rows])
            x = out + b
            if k < last:
                x = np.maximum(x, 0.0)
        x = x - x.max(axis=1, keepdims=True)
        e = np.exp(x)
        return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float32)

    def save(self, path: Path) -> None:
        """Write the weights as a small ``.npz`` (compressed)."""
        arrays: dict[str, Any] = {"mean": self.mean, "std": self.std}
        for k, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{k}"] = w
            arrays[f"b{k}"] = b
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            np.savez_compressed(out, **arrays)

    @classmethod
    def load(cls, path: Path) -> StoneModel:
        """Read weights written by :meth:`save`.

        Raises
        ------
        ModelError
            If the file is missing, not an ``.npz``, or its arrays do not chain
            from ``INPUTS`` inputs to 3 outputs.
        """
        name = str(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {key: np.asarray(data[key], dtype=np.float32) for key in data.files}
        except FileNotFoundError:
            raise ModelError(f"stone model weights not found: {name!r}") from None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
            raise ModelError(f"not a stone model weights file {name!r}: {error}") from None
        layers = sum(key.startswith("w") for key in arrays)
        expected = {"mean", "std"} | {f"{p}{k}" for p in "wb" for k in range(layers)}
        if layers == 0 or set(arrays) != expected:
            raise ModelError(
                f"stone model {name!r} has arrays {sorted(arrays)!r}, expected {sorted(expected)!r}"
            )
        weights = tuple(arrays[f"w{k}"] for k in range(layers))
        biases = tuple(arrays[f"b{k}"] for k in range(layers))
        width = INPUTS
        for k, (w, b) in enumerate(zip(weights, biases, strict=True)):
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise ModelError(
                    f"stone model {name!r}: layer {k} has weights {w.shape} and biases "
                    f"{b.shape}, expected ({width}, M) and (M,)"
                )
            width = w.shape[1]
        if (
            width != len(LABELS)
            or arrays["mean"].shape != (INPUTS,)
            or (arrays["std"].shape != (INPUTS,) or not np.all(arrays["std"] > 0))
        ):
            raise ModelError(
                f"stone model {name!r}: expected {len(LABELS)} outputs and a positive "
                f"({INPUTS},) standardisation"
            )
        return cls(mean=arrays["mean"], std=arrays["std"], weights=weights, biases=biases)


@functools.cache
def load_model(path: Path = MODEL_PATH) -> StoneModel:
    """The model at ``path`` (the shipped one by default), read once per process."""
    return StoneModel.load(path)


@functools.cache
def load_stone_net(path: Path = NET_PATH) -> cv2.dnn.Net:
    """The stone net, read once from its ONNX file, or a ``ModelError`` naming the file."""
    try:
        return read_onnx(path, "stone net")
    except VisionError as error:
        raise ModelError(str(error)) from None


def second_look(inputs: F32, probabilities: F32, path: Path = NET_PATH) -> F32:
    """``probabilities`` with the points the MLP is unsure of read again by the stone net.

    The MLP is fast enough to read every point of every grid a detection tries,
    but it sees a patch as a row of numbers. The stone net, a small convolutional
    net on the very same inputs (``kifu train stone-net``), sees a white stone's
    round rim on a pale board where the MLP does not; it costs some eighty times
    as much a point. So it reads only the points the MLP gives less than
    ``SECOND_LOOK``, each in ``TURNS`` quarter turns of its patch, and their
    probabilities are averaged (a point's reading does not depend on which way
    the board lies in the photo).

    Parameters
    ----------
    inputs : ndarray of shape (M, INPUTS), float32
        From :func:`patch_inputs`.
    probabilities : ndarray of shape (M, 3), float32
        The MLP's (:meth:`StoneModel.probabilities`).
    path : Path
        The net's ONNX file (the shipped one by default).

    Returns
    -------
    ndarray of shape (M, 3), float32
        The net's probabilities (averaged over its turns) where it looked, the
        MLP's elsewhere (a new array wherever the net looked).

    Raises
    ------
    ModelError
        If the net's file cannot be read, the net cannot run on the inputs, or
        it answers other than three numbers a point.
    """
    probabilities = np.asarray(probabilities, dtype=np.float32)
    unsure = np.flatnonzero(probabilities.max(axis=1) < SECOND_LOOK)
    if len(unsure) == 0:
        return probabilities
    net = load_stone_net(path)
    looks = np.concatenate([turned(inputs[unsure], turn) for turn in range(TURNS)])
    with NET_LOCK:
        net.setInput(looks)
        try:
            logits = np.asarray(net.forward(), dtype=np.float64)
        except cv2.error as exc:
            raise ModelError(f"the stone net {path} cannot run on its inputs: {exc}") from None
    if logits.shape != (len(looks), len(LABELS)):
        raise ModelError(
            f"the stone net {path} answered {logits.shape}, expected ({len(looks)}, {len(LABELS)})"
        )
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    each = (odds / odds.sum(axis=1, keepdims=True)).reshape(TURNS, len(unsure), len(LABELS))
    seen = probabilities.copy()
    seen[unsure] = each.mean(axis=0)
    return seen


def turned(inputs: F32, turns: int) -> F32:
    """``inputs`` (M, INPUTS) with every point's patch turned ``turns`` quarter turns.

    Both channels turn together; the classical darkness, one number, stays.
    """
    size = CHANNELS * PATCH * PATCH
    patches = np.asarray(inputs[:, :size]).reshape(-1, CHANNELS, PATCH, PATCH)
    turned_patches = np.rot90(patches, turns, axes=(2, 3)).reshape(len(patches), size)
    return np.ascontiguousarray(
        np.concatenate([turned_patches, inputs[:, size:]], axis=1), dtype=np.float32
    )


def half_size_lab(warped: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``warped`` at ``1 / DOWNSAMPLE`` of its size (area averaged), in Lab.

    What the patches are cut from.
    """
    height, width = warped.shape[:2]
    small = cv2.resize(
        warped, (width // DOWNSAMPLE, height // DOWNSAMPLE), interpolation=cv2.INTER_AREA
    )
    return np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), dtype=np.uint8)


def patch_inputs(warped: npt.NDArray[np.uint8], features: StoneFeatures) -> F32:
    """The model's inputs for every intersection, row by row.

    Parameters
    ----------
    warped : ndarray of shape ((N+2)*CELL, (N+2)*CELL, 3), uint8
        The straightened board from :meth:`vision.BoardSampler.warp` (default cell).
    features : StoneFeatures
        Of the same image, from :func:`vision.features.stone_features`.

    Returns
    -------
    ndarray of shape (N*N, INPUTS), float32
        Per point: the relative brightness patch, the chroma patch (each
        ``PATCH`` × ``PATCH``, row-major), then the classical darkness
        (``features.dark``).
    """
    n = features.dark.shape[0]
    if features.board is None:
        raise VisionError("the learned reader needs features with the local board brightness")
    if warped.shape[:2] != ((n + 2 * MARGIN) * CELL,) * 2:
        raise VisionError(
            f"board image is {warped.shape[1]}x{warped.shape[0]}, expected "
            f"{(n + 2 * MARGIN) * CELL} pixels square for a {n}x{n} board"
        )
    light, chroma = small_channels(half_size_lab(warped))
    return board_inputs(light, chroma, features.board, features.dark)


def small_channels(small_lab: npt.NDArray[np.uint8]) -> tuple[F32, F32]:
    """Brightness (Lab L) and colourfulness (chroma) of every pixel of :func:`half_size_lab`."""
    lab = small_lab.astype(np.float32)
    a, b = lab[..., 1] - 128.0, lab[..., 2] - 128.0
    return np.ascontiguousarray(lab[..., 0]), np.asarray(np.sqrt(a * a + b * b), dtype=np.float32)


def board_inputs(light: F32, chroma: F32, board: npt.NDArray[Any], dark: npt.NDArray[Any]) -> F32:
    """The model's inputs for every point of one board, or of many at once.

    ``light`` and ``chroma`` (..., S, S) are :func:`small_channels` of the boards'
    half-size images; ``board`` and ``dark`` (..., N, N) their local board
    brightness and darkness (:func:`vision.features.board_numbers`). Returns
    (..., N*N, INPUTS), each board's as :func:`patch_inputs` gives it.
    """
    n = dark.shape[-1]
    lead = dark.shape[:-2]
    step = CELL // DOWNSAMPLE
    small_side = (n + 2 * MARGIN) * step
    pad = MARGIN * step
    boards = np.empty((*lead, small_side, small_side), dtype=np.float32)
    for index in np.ndindex(*lead):
        resized = cv2.resize(
            board[index].astype(np.float32), (n * step, n * step), interpolation=cv2.INTER_LINEAR
        )
        boards[index] = cv2.copyMakeBorder(resized, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    middle = chroma[..., pad:-pad:2, pad:-pad:2]
    typical = medians(middle.reshape(*lead, -1))[..., None, None]
    channels = (light / boards - 1.0, (chroma - typical) / CHROMA_UNIT)
    # Past the reach of an edge stone, the board's rim and the table are no
    # evidence: there every patch shows the plain board.
    lattice = (DOWNSAMPLE * np.arange(small_side) + 0.5 * (DOWNSAMPLE - CELL)) / CELL - MARGIN
    outside = (lattice < -EDGE_REACH) | (lattice > n - 1 + EDGE_REACH)
    first = MARGIN * step + (step - PATCH) // 2  # a patch centred on the point
    out = np.empty((*lead, n, n, INPUTS), dtype=np.float32)
    for k, channel in enumerate(channels):
        channel[..., outside, :] = 0.0
        channel[..., :, outside] = 0.0
        block = out[..., k * PATCH * PATCH : (k + 1) * PATCH * PATCH]
        block.reshape(*lead, n, n, PATCH, PATCH)[:] = _patches(channel, first, step, n)
    out[..., CHANNELS * PATCH * PATCH :] = dark[..., None]
    return out.reshape(*lead, n * n, INPUTS)


def _patches(channel: F32, first: int, step: int, n: int) -> F32:
    """The ``PATCH``-square patches of ``channel`` (..., S, S) at ``n``² points, as a view.

    Point ``(row, col)``'s patch starts at pixel ``first + step * row`` down and
    ``first + step * col`` across; shape (..., n, n, PATCH, PATCH). Copying the
    view once into the inputs is what costs, not gathering the patches first.
    """
    if first < 0 or first + step * (n - 1) + PATCH > min(channel.shape[-2:]):
        raise VisionError(f"patches of {n}x{n} points from pixel {first} overrun the board image")
    *lead_strides, rows, cols = channel.strides
    return np.lib.stride_tricks.as_strided(
        channel[..., first:, first:],
        shape=(*channel.shape[:-2], n, n, PATCH, PATCH),
        strides=(*lead_strides, step * rows, step * cols, rows, cols),
        writeable=False,
    )
