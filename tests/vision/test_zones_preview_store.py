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


def _board_with_markers(card: np.ndarray | None = None) -> np.ndarray:
    """A board (brown, a little noisy) with four zone markers on paper at its corners and
    maybe a card in the middle, seen in perspective, a dark floor around it."""
    rng = np.random.default_rng(1)
    plane = np.zeros((600, 800, 3), np.uint8)
    plane[:] = (60, 90, 130)
    plane = cv2.add(plane, rng.integers(0, 30, plane.shape, dtype=np.uint8))
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for mid, (x, y) in enumerate([(40, 40), (640, 440), (640, 40), (40, 440)]):
        m = cv2.aruco.generateImageMarker(dictionary, mid, 80)
        pad = cv2.copyMakeBorder(m, 14, 14, 14, 14, cv2.BORDER_CONSTANT, value=255)
        plane[y:y + 108, x:x + 108] = pad[..., None]
    if card is not None:
        card = cv2.resize(card, (160, 240), interpolation=cv2.INTER_AREA)
        plane[180:420, 320:480] = card
    src = np.float32([[0, 0], [800, 0], [800, 600], [0, 600]])
    dst = np.float32([[80, 50], [570, 40], [620, 450], [20, 465]])
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.GaussianBlur(cv2.warpPerspective(plane, m, (640, 480),
                                                borderValue=(40, 40, 40)), (3, 3), 0)


def test_a_zone_marker_is_never_taught_for_a_card(tmp_path: Path) -> None:
    """The host lays the markers, then teaches: with no card in view there is none to teach
    (the board holding the markers, or one marker, was taught, and then named on the table
    at 1.0); with a card among the markers, the card is taught."""
    from vision.store import NoCardInView
    from vision.zones import marker_quads

    empty = _board_with_markers()
    assert len(marker_quads(empty)) == 4
    store = DeckStore(tmp_path)
    with pytest.raises(NoCardInView):
        store.teach("versus", "attack-3", empty, whole=False)
    with pytest.raises(NoCardInView):
        DeckStore.card_crop(empty, deck="versus")  # (a photo: not even as a tight crop)
    assert store.list_decks() == {}
    card = draw_card("french", "7C")
    crop = DeckStore.card_crop(_board_with_markers(card), whole=False, deck="versus")
    expected = cv2.resize(card, (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_AREA)
    assert float(np.abs(crop.astype(int) - expected.astype(int)).mean()) < 20


def test_a_taught_deck_learns_a_white_card_whole_not_its_pips(shared_data: Path) -> None:
    """A taught deck's art is unknown. Looked for by coloured bodies (UNO's way), a white
    card's dark pips were bodies and the card was dropped for holding them: a 7 of clubs
    was taught as two of its clubs, a king of hearts as its picture frame. Its outline is
    looked for first."""
    from vision.detect import find_cards

    for name in ("7clubs.jpg", "Khearts.jpg"):
        photo = cv2.imread(str(shared_data / "playing_kentdoan" / name))
        card = max(find_cards(photo), key=lambda q: q.area_frac)  # (the white card itself)
        assert card.area_frac > 0.3
        taught = DeckStore.card_crop(photo, deck="versus")
        assert np.array_equal(taught, DeckStore.card_crop(photo, deck="french")), name


def test_a_taught_white_card_is_named_though_its_pips_look_like_bodies(
        tmp_path: Path, shared_data: Path) -> None:
    """A taught deck is looked for by coloured bodies too (its art is unknown), where a white
    card's dark pips are bodies and the card is dropped for holding them: the 7 of clubs and
    the king of hearts taught whole were not found at all. The card around them is read
    where nothing inside it is named, as for UNO's printed figures."""
    from vision.identify import Identifier

    store = DeckStore(tmp_path)
    photos = {"seven-clubs": "7clubs.jpg", "king-hearts": "Khearts.jpg"}
    for label, name in photos.items():
        store.teach("house", label, cv2.imread(str(shared_data / "playing_kentdoan" / name)))
    ident = Identifier("house", data_path=tmp_path)
    for label, name in photos.items():
        cards = ident.identify(cv2.imread(str(shared_data / "playing_kentdoan" / name)))
        assert [c.label for c in cards] == [label], name


def test_name_plates_of_cards_side_by_side_are_not_drawn_over_each_other() -> None:
    from vision.preview import free_row

    plates = [(100, 40, 260, 64)]
    assert free_row(300, 64, 160, 24, plates, 480) == 64  # (clear: where asked)
    assert free_row(200, 60, 160, 24, plates, 480) == 64 + 24 + 1  # (below the other)
    plates.append((200, 65, 360, 89))
    assert free_row(150, 64, 160, 24, plates, 480) == 89 + 24 + 1
    assert free_row(150, 64, 160, 24, plates, 100) == 64  # (no room below: as asked)


def test_the_store_keeps_what_the_model_read_each_taught_photo_as(tmp_path: Path) -> None:
    """A photo taught against the built-in model's sure reading is the table's correction of
    exactly that reading (recognise.TaughtFirst): the store keeps each photo's reading, and
    a file taught before it kept them has its photos' readings marked unknown."""
    from vision.recognise import UNKNOWN_READING as UNKNOWN

    store = DeckStore(tmp_path)
    skip = draw_card("uno", "blue-skip")
    store.teach("uno", "red-7", skip, crop=True)  # (the host confirmed it against the model)
    store.teach("uno", "red-7", draw_card("uno", "red-7"), crop=True)
    store.teach("house", "owl", skip, crop=True)  # (no model: nothing read)
    assert store.read_as("uno") == {"red-7": {"blue-skip", "red-7"}}
    assert store.read_as("house") == {"owl": set()}
    # a file of before: its photos read as nothing; a photo taught now is added after them
    path = tmp_path / "decks" / "uno" / "red-7.npz"
    with np.load(path) as f:
        old = {k: f[k] for k in f.files if k != "read_as"}
    np.savez_compressed(path, **old)
    assert store.read_as("uno") == {"red-7": {UNKNOWN}}
    store.teach("uno", "red-7", skip, crop=True)
    with np.load(path) as f:
        assert list(f["read_as"]) == [UNKNOWN, UNKNOWN, "blue-skip"]
        assert len(f["features"]) == 6
    assert store.read_as("uno") == {"red-7": {UNKNOWN, "blue-skip"}}


def test_keypoints_confirm_a_taught_card_only_in_its_colours(tmp_path: Path) -> None:
    """Keypoints see no colour: a blue reverse shares every keypoint with a taught green
    one. Confirming a taught card against the model's reading (recognise.TaughtFirst) asks
    for its colours too."""
    from vision.recognise.taught import TaughtRecogniser

    store = DeckStore(tmp_path)
    store.teach("uno", "green-reverse", draw_card("uno", "green-reverse"), crop=True)
    store.teach("uno", "blue-5", draw_card("uno", "blue-5"), crop=True)
    taught = TaughtRecogniser.from_store(store, "uno")
    again = draw_card("uno", "green-reverse")
    assert taught.confirms(again, "green-reverse", 0.97)
    blue = draw_card("uno", "blue-reverse")
    assert not taught.confirms(blue, "green-reverse", 0.97)
    assert not taught.confirms(again, "red-reverse", 0.5)  # (never taught)
