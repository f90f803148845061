import json
from pathlib import Path

import cv2

from tests.vision.helpers import run
from vision.synth import render_scene


def test_identify_json_contract(tmp_path: Path, capsys) -> None:
    image, _ = render_scene([("french", "RJ"), ("french", "2C")], seed=3)
    path = tmp_path / "scene.jpg"
    cv2.imwrite(str(path), image)
    assert run(["vision", "identify", "--deck", "french", "--json", "--data-dir",
                str(tmp_path), str(path), str(path)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 2
    row = lines[0]
    assert row["image"] == str(path) and isinstance(row["ms"], float)
    for card in row["cards"]:
        assert set(card) == {"label", "confidence", "corners"}
        assert len(card["corners"]) == 4 and 0 <= card["confidence"] <= 1


def test_unknown_deck_is_an_error(tmp_path: Path, capsys) -> None:
    """Said without a KeyError's quotes around it, with the decks there are."""
    path = tmp_path / "x.jpg"
    cv2.imwrite(str(path), render_scene([("uno", "red-1")])[0])
    assert run(["vision", "identify", "--deck", "nope", "--data-dir", str(tmp_path),
                str(path)]) == 2
    assert capsys.readouterr().err == ("error: unknown deck 'nope': not built in and never "
                                       "taught (the decks: uno, french, huangdi)\n")


def test_markers_sheet(tmp_path: Path) -> None:
    out = tmp_path / "sheet.png"
    assert run(["vision", "markers", "--out", str(out)]) == 0
    assert cv2.imread(str(out)) is not None


def test_teach_then_identify_a_house_deck(tmp_path: Path, capsys) -> None:
    from vision.synth import draw_card

    for label, deck_card in [("sun", ("huangdi", "1")), ("moon", ("uno", "blue-2")),
                             ("star", ("french", "KD"))]:
        image, _ = render_scene([deck_card], table="cloth", seed=len(label))
        p = tmp_path / f"{label}.jpg"
        cv2.imwrite(str(p), image)
        assert run(["vision", "teach", "house", label, str(p), "--data-dir",
                    str(tmp_path)]) == 0
    assert draw_card("uno", "blue-2") is not None
    scene, _ = render_scene([("uno", "blue-2")], table="wood", seed=99)
    p = tmp_path / "scene.jpg"
    cv2.imwrite(str(p), scene)
    capsys.readouterr()
    assert run(["vision", "identify", "--deck", "house", "--json", "--data-dir",
                str(tmp_path), str(p)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert [c["label"] for c in row["cards"]] == ["moon"]


def test_an_unreadable_image_has_its_own_line_and_the_others_are_read(tmp_path: Path,
                                                                       capsys) -> None:
    """One line per image whatever it is: a missing file, a folder, a file that is no image,
    and a PNG whose header claims 100000x100000 pixels (OpenCV raises on it: the run ended
    there, and the images after it were never read)."""
    import struct
    import zlib

    good = tmp_path / "good.jpg"
    cv2.imwrite(str(good), render_scene([("uno", "red-7")], seed=2)[0])
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture")

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))

    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(
        ">IIBBBBB", 100_000, 100_000, 8, 0, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(
            b"\x00" * 1000)) + chunk(b"IEND", b""))
    paths = [good, tmp_path / "missing.jpg", tmp_path, text, bomb, good]
    assert run(["vision", "identify", "--deck", "uno", "--json", "--data-dir", str(tmp_path),
                *map(str, paths)]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["image"] for r in rows] == list(map(str, paths))
    assert [r.get("error") for r in rows] == [None, "no such file", "a folder, not an image",
                                               "not an image", "too large to read", None]
    assert rows[0]["cards"] and rows[-1]["cards"] == rows[0]["cards"]
    # without --json, an image that could not be read does not pass for an empty table
    assert run(["vision", "identify", "--deck", "uno", "--data-dir", str(tmp_path),
                str(tmp_path / "missing.jpg")]) == 0
    assert capsys.readouterr().out.strip().endswith("error: no such file")


def test_teach_says_the_name_it_keeps_and_refuses_an_empty_one(tmp_path: Path, capsys) -> None:
    p = tmp_path / "card.jpg"
    cv2.imwrite(str(p), render_scene([("uno", "red-7")], table="cloth", seed=5)[0])
    assert run(["vision", "teach", "house", "Red Seven!", str(p), "--data-dir",
                str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "house/red-seven: 1 photo(s) known"
    assert run(["vision", "teach", "house", "  ", str(p), "--data-dir", str(tmp_path)]) == 2
    assert "give the card a name" in capsys.readouterr().err
    assert run(["vision", "teach", "house", "x", str(tmp_path / "nope.jpg"), "--data-dir",
                str(tmp_path)]) == 2
    assert "no such file" in capsys.readouterr().err


def test_teach_refuses_a_blank_photo_and_teaches_nothing(tmp_path: Path, capsys) -> None:
    """A photo given on the command line with no card found is taken as a tight crop of
    one: a blank grey photo (or one with only a camera's noise and a vignette) was stored
    as a card, and named every blank patch after. It is refused, and so is a run holding
    one, before any of its photos is taught; a card's own photo is taught."""
    import numpy as np

    from vision.store import DeckStore
    from vision.synth import draw_card

    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((800, 600, 3), 128, np.uint8))
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[:800, :600]
    light = 170 - 60 * ((yy - 400) ** 2 + (xx - 300) ** 2) / 500 ** 2
    dim = tmp_path / "dim.jpg"
    cv2.imwrite(str(dim), np.clip(light[..., None] + rng.normal(0, 6, (800, 600, 3)), 0, 255
                                  ).astype(np.uint8))
    card = tmp_path / "card.png"
    cv2.imwrite(str(card), draw_card("uno", "red-7"))
    for photos in ([grey], [dim], [card, grey]):
        assert run(["vision", "teach", "house", "blank", *map(str, photos), "--data-dir",
                    str(tmp_path)]) == 2, photos
        err = capsys.readouterr().err
        assert f"error: {photos[-1]}: no card with anything printed on it" in err
        assert DeckStore(tmp_path).list_decks() == {}
    assert run(["vision", "teach", "house", "seven", str(card), "--data-dir",
                str(tmp_path)]) == 0
    assert DeckStore(tmp_path).list_decks() == {"house": ["seven"]}


def test_teach_a_built_in_deck_only_its_own_cards_and_names_of_40(tmp_path: Path,
                                                                   capsys) -> None:
    """As the camera page does: "purple-12" is no UNO card (it was kept, and listed under
    uno); "Red 7" is spelled as the deck spells it; a name over 40 letters is refused, not a
    traceback (the file name it made was too long)."""
    path = tmp_path / "card.png"
    cv2.imwrite(str(path), render_scene([("uno", "red-7")], seed=2)[0])
    data = ["--data-dir", str(tmp_path)]
    assert run(["vision", "teach", "uno", "purple-12", str(path), *data]) == 2
    assert "not a card of the uno deck" in capsys.readouterr().err
    assert run(["vision", "teach", "house", "x" * 300, str(path), *data]) == 2
    assert "at most 40" in capsys.readouterr().err
    assert not (tmp_path / "decks").exists()
    assert run(["vision", "teach", "uno", "Red 7", str(path), *data]) == 0
    assert capsys.readouterr().out.startswith("uno/red-7: 1 photo(s) known")


def test_markers_and_preview_refuse_what_they_cannot_do(tmp_path: Path, capsys) -> None:
    out = str(tmp_path / "m.png")
    for bad in (["--zones", "0"], ["--zones", "30"], ["--zones", "2", "--names", "a,b,c"]):
        assert run(["vision", "markers", "--out", out, *bad]) == 2, bad
        assert capsys.readouterr().err.startswith("error: "), bad
    assert not Path(out).exists()
    assert run(["vision", "preview", "--deck", "nosuch", "--camera", "replay",
                "--out", str(tmp_path / "p")]) == 2
    assert "unknown deck" in capsys.readouterr().err


def test_teach_a_built_in_deck_a_card_its_model_reads_otherwise_only_with_force(
        tmp_path: Path, capsys) -> None:
    path = tmp_path / "card.png"
    cv2.imwrite(str(path), render_scene([("uno", "blue-skip")], seed=2)[0])
    data = ["--data-dir", str(tmp_path)]
    assert run(["vision", "teach", "uno", "red-7", str(path), *data]) == 2
    assert "reads this card as blue-skip" in capsys.readouterr().err
    assert not (tmp_path / "decks").exists()
    assert run(["vision", "teach", "uno", "red-7", str(path), "--force", *data]) == 0
    assert run(["vision", "teach", "uno", "blue-skip", str(path), *data]) == 0


def test_zones_from_a_photo_without_markers_says_why(tmp_path: Path, capsys) -> None:
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), render_scene([("uno", "red-7")], seed=2)[0])
    assert run(["vision", "zones", str(path)]) == 0
    out = capsys.readouterr()
    assert out.out.strip() == "[]" and "no complete pair of markers" in out.err


def test_teach_a_wrong_name_of_a_built_in_deck_lists_its_names(tmp_path: Path, capsys) -> None:
    """It pointed to `companion vision decks`, which lists only taught decks (``{}``)."""
    path = tmp_path / "card.png"
    cv2.imwrite(str(path), render_scene([("uno", "red-7")], seed=2)[0])
    assert run(["vision", "teach", "uno", "red-77", str(path), "--data-dir",
                str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "'red-77' is not a card of the uno deck. Did you mean red-7" in err
    assert "The uno deck's 56 cards: red-0 red-1" in err and "wild-draw4" in err
    assert "vision decks" not in err


def test_teach_into_a_data_dir_that_cannot_be_made_is_an_error(tmp_path: Path,
                                                               capsys) -> None:
    path = tmp_path / "card.png"
    cv2.imwrite(str(path), render_scene([("uno", "red-7")], seed=2)[0])
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder")
    assert run(["vision", "teach", "house", "sun", str(path), "--data-dir",
                str(blocker / "data")]) == 2
    assert capsys.readouterr().err.startswith(f"error: cannot save the card in {blocker}")


def test_preview_of_a_named_camera_that_cannot_open_is_an_error(tmp_path: Path,
                                                                capsys) -> None:
    """It previewed the sample photos instead, wrote their frames and exited 0."""
    out = tmp_path / "p"
    assert run(["vision", "preview", "--camera", f"opencv:{tmp_path / 'video7'}",
                "--frames", "1", "--out", str(out)]) == 1
    assert "cannot be opened" in capsys.readouterr().err
    assert not out.exists()


def test_preview_to_an_out_that_is_no_folder_is_an_error(tmp_path: Path, capsys) -> None:
    """It was a FileExistsError traceback."""
    file = tmp_path / "file.txt"
    file.write_text("x")
    for out, why in ((file, "it is a file, not a folder"),
                     (file / "p", "Not a directory")):
        assert run(["vision", "preview", "--camera", "replay", "--frames", "1",
                    "--out", str(out)]) == 2
        assert capsys.readouterr().err == f"error: cannot write the frames in {out}: {why}\n"
