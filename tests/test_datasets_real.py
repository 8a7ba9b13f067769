"""The loader for the real photos: truth parsing and the list of cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from datasets.real import DatasetError, parse_truth, photo_cases


def test_parse_truth_gives_the_text_form() -> None:
    assert parse_truth(". B .\nW . .\n. . B\n") == (".X.", "O..", "..X")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty truth file"),
        (". .\n. . .\n", "line 2 of '<truth>' has 3 tokens, expected 2"),
        (". X\n. .\n", "unknown token 'X' on line 1"),
    ],
)
def test_parse_truth_refuses_malformed_files(text: str, message: str) -> None:
    with pytest.raises(DatasetError, match=message):
        parse_truth(text)


def test_photo_cases_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="photos folder not found"):
        photo_cases(tmp_path / "nowhere")


def test_every_real_photo_is_listed_with_its_truth(shared_datasets: Path) -> None:
    cases = photo_cases(shared_datasets / "photos")
    folders = {case.folder for case in cases}
    assert len(cases) == 71
    assert {"imago-tests/t2/skip", "imago-tests/9x9", "imago-tests/13x13"} <= folders
    assert {"gomrade/1", "gomrade/testing_sequence"} <= folders
    assert {case.size for case in cases} == {9, 13, 19}
    assert len({case.name for case in cases}) == len(cases)


def test_photos_load_as_stored_ignoring_exif(shared_datasets: Path) -> None:
    case = next(
        c for c in photo_cases(shared_datasets / "photos") if c.name == "imago-tests/t1/t1_001.jpg"
    )
    photo = case.load()
    # The file carries an EXIF rotation; the truth is for the stored 2048x1536 pixels.
    assert photo.image.shape == (1536, 2048, 3)
    assert photo.board == case.board and photo.size == 19
