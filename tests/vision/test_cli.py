import argparse
import json
from pathlib import Path

import cv2

from vision.cli import add_parser
from vision.synth import render_scene


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


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


def test_unknown_deck_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "x.jpg"
    cv2.imwrite(str(path), render_scene([("uno", "red-1")])[0])
    assert run(["vision", "identify", "--deck", "nope", "--data-dir", str(tmp_path),
                str(path)]) == 2


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
