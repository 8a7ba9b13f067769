"""Shared fixtures: where the team's shared data lives, and outside programs.

Tests that need ``../shared/datasets`` or an outside program (GNU Go, Chromium)
skip with a clear reason on a user's machine that lacks them, but fail under CI
(``CI=true``), so that a green CI always means they ran.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from datasets.stone_patches import SynthCase

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATASETS = ROOT.parent / "shared" / "datasets"
IN_CI = os.environ.get("CI", "").lower() == "true"


def require(condition: bool, reason: str) -> None:
    """Skip (on a user's machine) or fail (in CI) when a needed resource is missing."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared_datasets() -> Path:
    """The read-only ``../shared/datasets`` folder (real photos and game records)."""
    require(SHARED_DATASETS.is_dir(), f"shared datasets not found at {SHARED_DATASETS}")
    return SHARED_DATASETS


def find_gnugo() -> str | None:
    """Path of the GNU Go binary (Debian installs it in /usr/games), or None."""
    return shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")


@pytest.fixture(scope="session")
def gnugo() -> str:
    path = find_gnugo()
    require(path is not None, "GNU Go not installed (Debian package 'gnugo')")
    assert path is not None
    return path


#: Synthetic photos of this seed were never trained on (the stone readers train
#: on seed 1000) nor used for the lead's and the final scores.
UNSEEN_SEED = 1002


@pytest.fixture(scope="session")
def unseen_cases() -> list[SynthCase]:
    """Ten hard synthetic photos of ``UNSEEN_SEED`` with a board (about ten seconds to render)."""
    from datasets.stone_patches import rendered_cases

    return list(rendered_cases(seed=UNSEEN_SEED, photos=12))[:10]
