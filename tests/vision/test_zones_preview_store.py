from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.preview import BOUNDARY, draw, encode_jpeg, mjpeg_chunks
from vision.store import DeckStore
from vision.synth import draw_card, render_scene
from vision.zones import Zone, load_zones, marker_sheet, save_zones, zones_from_markers


def test_zones_from_printed_markers() -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    table = np.full((480, 640, 3), 200, np.uint8)
    for mid, (x, y) in {0: (70, 70), 1: (260, 300), 2: (360, 70), 3: (560, 400)}.items():
        m = cv2.aruco.generateImageMarker(dictionary, mid, 50)
        pad = cv2.copyMakeBorder(m, 10, 10, 10, 10, cv2.BORDER_CONSTANT, value=255)
        table[y - 35:y + 35, x - 35:x + 35] = pad[..., None]
    zones = zones_from_markers(table, ["discard", "wall-1"])
    assert [z.name for z in zones] == ["discard", "wall-1"]
    assert zones[0].rect == pytest.approx((70 / 640, 70 / 480, 260 / 640, 300 / 480), abs=0.01)


def test_marker_sheet_is_a_printable_page() -> None:
    sheet = marker_sheet(3)
    assert sheet.shape == (3508, 2480)
    found = zones_from_markers(cv2.cvtColor(cv2.resize(sheet, (1240, 1754)),
                                            cv2.COLOR_GRAY2BGR))
    assert len(found) == 3


def test_zone_json_roundtrip(tmp_path: Path) -> None:
    zones = [Zone("discard", (0.1, 0.2, 0.5, 0.6))]
    save_zones(zones, tmp_path / "z.json")
    assert load_zones(tmp_path / "z.json") == zones
    with pytest.raises(ValueError):
        Zone.from_dict({"name": "x", "rect": [0, 0, 2, 1]})


def test_preview_draws_and_streams() -> None:
    from vision.frame_hub import FrameHub
    from vision.identify import Identifier
    from vision.sources.replay import ReplaySource

    img, _ = render_scene([("uno", "red-2")], seed=1)
    src = ReplaySource(images=[img, img], stepped=True, loop=False)
    src.start()
    hub = FrameHub(src)
    hub.step()
    ident = Identifier("uno", data_path="/nonexistent")
    parts = mjpeg_chunks(hub, ident.identify, [Zone("discard", (0, 0, 0.5, 0.5))],
                         max_frames=1, timeout=0)
    part = next(parts)
    assert part.startswith(f"--{BOUNDARY}\r\nContent-Type: image/jpeg".encode())
    assert encode_jpeg(draw(img, []))[:2] == b"\xff\xd8"


def test_store_teach_forget_list(tmp_path: Path) -> None:
    store = DeckStore(tmp_path)
    assert store.list_decks() == {}
    crop = draw_card("huangdi", "4")
    assert store.teach("My Deck", "Four!", crop, crop=True) == 1
    assert store.teach("my-deck", "four", crop, crop=True) == 2
    assert store.list_decks() == {"my-deck": ["four"]}
    assert store.forget("my-deck", "four") and not store.forget("my-deck", "four")
    assert store.forget("my-deck")
    assert store.list_decks() == {}


def test_taught_correction_of_a_builtin_deck(tmp_path: Path) -> None:
    """A table whose printing differs teaches under the built-in deck's own name."""
    from vision.identify import Identifier

    store = DeckStore(tmp_path)
    scene, _ = render_scene([("huangdi", "4")], table="wood", seed=8)
    store.teach("huangdi", "7", scene)  # deliberately relabel: the taught example wins
    again, _ = render_scene([("huangdi", "4")], table="wood", seed=9)
    labels = [c.label for c in Identifier("huangdi", data_path=tmp_path).identify(again)]
    assert labels == ["7"]


def test_the_store_keeps_each_photos_keypoints_and_reads_files_kept_without(
        tmp_path: Path) -> None:
    """Teaching appends a photo's SIFT keypoints beside its features; a file taught before
    the store kept keypoints still loads (its card is then read by features alone)."""
    store = DeckStore(tmp_path)
    store.teach("house", "four", draw_card("huangdi", "4"), crop=True)
    store.teach("house", "four", draw_card("huangdi", "4"), crop=True)
    kps = store.keypoints("house")["four"]
    assert len(kps) == 2 and all(len(k.points) >= 10 for k in kps)
    assert kps[0].descriptors.shape[1] == 128
    old = tmp_path / "decks" / "house" / "seven.npz"
    np.savez_compressed(old, features=store.examples("house")["four"])
    assert set(store.examples("house")) == {"four", "seven"}
    assert set(store.keypoints("house")) == {"four"}


def test_placed_matches_count_what_sits_at_the_same_place_either_way_up() -> None:
    """A card matches itself turned round (which end is up is unknown) with many keypoints
    in place; another card of the same layout shares far fewer."""
    from vision.recognise.features import DETAIL_H, DETAIL_W
    from vision.recognise.keypoints import keypoints, placed_matches

    def crop(label: str) -> np.ndarray:
        return cv2.resize(draw_card("french", label), (DETAIL_W, DETAIL_H),
                          interpolation=cv2.INTER_AREA)

    eight = keypoints(crop("8H"))
    turned = keypoints(cv2.rotate(crop("8H"), cv2.ROTATE_180))
    same = placed_matches(turned, eight)
    assert same >= 0.5 * len(eight.points)
    assert placed_matches(keypoints(crop("KS")), eight) < same / 3


def test_a_zone_is_checked_as_the_phone_sends_it() -> None:
    """A zone's name is a string of 1 to 40 characters (trimmed), its rectangle four finite
    numbers within 0..1 spanning at least 0.02 each way; ZoneError says which is wrong."""
    from vision.zones import ZoneError

    ok = Zone.from_dict({"name": " discard ", "rect": [np.float32(0.5), 0.6, 0.1, 0.2]})
    assert ok == Zone("discard", (0.1, 0.2, 0.5, 0.6))
    for bad, field in (({"name": "", "rect": [0, 0, 1, 1]}, "name"),
                       ({"name": None, "rect": [0, 0, 1, 1]}, "name"),
                       ({"name": {"x": 1}, "rect": [0, 0, 1, 1]}, "name"),
                       ({"name": "x" * 41, "rect": [0, 0, 1, 1]}, "name"),
                       ({"name": "d", "rect": [0.5, 0.5, 0.5, 0.5]}, "rect"),
                       ({"name": "d", "rect": [True, False, True, True]}, "rect"),
                       ({"name": "d", "rect": [0, 0, float("nan"), 1]}, "rect"),
                       ({"name": "d", "rect": [0, 0, 0.019, 1]}, "rect"),
                       ({"name": "d"}, "rect"), ("d", "rect")):
        with pytest.raises(ZoneError) as err:
            Zone.from_dict(bad)
        assert err.value.field == field, bad


def test_a_sheet_of_sixteen_zones_fits_the_page_and_reads_back() -> None:
    """Up to 16 zones a table: two to a row, smaller markers, every pair found in order;
    a name cv2 cannot print is captioned by its number."""
    names = [f"discard-{i}" for i in range(15)] + ["弃牌"]
    sheet = marker_sheet(len(names), names)
    assert sheet.shape == (3508, 2480)
    found = zones_from_markers(cv2.cvtColor(cv2.resize(sheet, (1240, 1754)),
                                            cv2.COLOR_GRAY2BGR), names)
    assert [z.name for z in found] == names


def test_the_store_teaches_no_blank_card(tmp_path: Path) -> None:
    """A rectified card with nothing printed on it (a blank, or grey with a camera's noise)
    is refused: it would name every blank patch the camera sees."""
    from vision.store import LEAST_PRINT, BlankCard, printed

    store = DeckStore(tmp_path)
    noisy = np.clip(np.random.default_rng(1).normal(140, 6, (350, 250, 3)), 0, 255)
    for blank in (np.full((350, 250, 3), 235, np.uint8), noisy.astype(np.uint8)):
        with pytest.raises(BlankCard):
            store.teach("house", "blank", blank, crop=True)
        with pytest.raises(BlankCard):
            store.teach("house", "blank", blank)  # (taken as a tight crop: nothing found)
    assert store.list_decks() == {}
    assert printed(draw_card("french", "AS")) > 2 * LEAST_PRINT  # (an ace: a pip, two corners)
