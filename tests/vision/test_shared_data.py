"""A quick look at real photos (../shared/data, read in place, never copied).

The full measurement is ../shared/tools/eval-vision; this only guards against a broken
model or pipeline: on a slice of each labelled folder, few confident wrong names.
"""

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.identify import Identifier

FOLDERS = ["uno_jx0424", "uno_criscard_crops", "playing_rdpong", "uno_hemant"]


@pytest.mark.parametrize("folder", FOLDERS)
def test_real_photos_slice(shared_data: Path, folder: str) -> None:
    meta = json.loads((shared_data / folder / "labels.json").read_text())
    ident = Identifier(meta["deck"], data_path="/nonexistent-taught")
    names = sorted(meta["images"])[::max(1, len(meta["images"]) // 12)][:12]
    right = wrong = 0
    for name in names:
        image = cv2.imread(str(shared_data / folder / name))
        truth = Counter(e["label"] for e in meta["images"][name]
                        if e["label"] not in ("back", "unknown", "rules-card"))
        said = Counter(c.label for c in ident.identify(image) if c.label)
        right += sum((truth & said).values())
        wrong += sum((said - truth).values())
    assert wrong <= 1, f"{folder}: {wrong} confident wrong names in {len(names)} photos"
    assert right + wrong <= sum(len(meta["images"][n]) for n in names) + 1


# Webcam close-ups (train split) whose card only its top and two sides find: fingers over the
# lower half, a wall or a face of the card's hue beside it (vision/held.py). With the card
# tops left out of the second look, none of them is named.
HELD_UP = {"train_WIN_20241102_23_30_39_Pro.jpg": "yellow-4",
           "train_WIN_20241102_23_31_01_Pro.jpg": "yellow-3",
           "train_WIN_20241102_23_47_11_Pro.jpg": "red-0",
           "train_WIN_20241103_06_56_39_Pro.jpg": "yellow-1"}


def named_in_hemant(shared_data: Path, names: list[str]) -> dict[str, list[str]]:
    """The names the UNO reader says on each of these uno_hemant photos."""
    ident = Identifier("uno", data_path="/nonexistent-taught")
    return {name: [c.label for c in ident.identify(cv2.imread(str(
        shared_data / "uno_hemant" / name))) if c.label] for name in names}


def test_hand_held_close_ups_are_named_from_their_card_tops(shared_data: Path) -> None:
    said = named_in_hemant(shared_data, list(HELD_UP))
    assert said == {name: [label] for name, label in HELD_UP.items()}


def test_a_region_found_again_does_not_crowd_out_the_card(shared_data: Path) -> None:
    """A calib close-up beside a cabinet: its door's frame and panel filled the three card
    tops kept, and the red 9 held beside it (its side short behind the fingers, so ranked
    lower) was not among them. One region counts once now."""
    from vision.detect import iou_box
    from vision.held import card_tops

    name = "train_WIN_20241102_23_45_17_Pro.jpg"
    tops = card_tops(cv2.imread(str(shared_data / "uno_hemant" / name)))
    assert all(iou_box(p.corners, q.corners) < 0.5 for i, p in enumerate(tops)
               for q in tops[i + 1:])
    assert named_in_hemant(shared_data, [name]) == {name: ["red-9"]}


def test_a_card_read_unsure_whole_still_gets_the_second_look(shared_data: Path) -> None:
    """A calib close-up, a yellow 3 with fingers over its middle: its outline read whole at
    0.52, unsure (UNO names from 0.7), and with the second look asked for only under 0.5
    nothing else was tried; its top and sides read it at 0.97."""
    name = "train_WIN_20241103_06_56_56_Pro.jpg"
    assert named_in_hemant(shared_data, [name]) == {name: ["yellow-3"]}


# Webcam close-ups (train and calib splits) of a wild +4 held so close that it fills the
# frame: no outline, and the coloured figures printed on it are the only vivid regions. Read
# as the upper part of a card, the whole frame names it; without that box, nothing is named.
FILLING = ["train_WIN_20241102_23_21_25_Pro.jpg", "train_WIN_20241103_06_48_06_Pro.jpg"]


def test_a_card_filling_the_frame_is_read_from_the_whole_frame(shared_data: Path) -> None:
    assert named_in_hemant(shared_data, FILLING) == {name: ["wild-draw4"] for name in FILLING}


# Calib close-ups whose big symbol runs off the frame while the index is in view: the
# whole-card network reads the stretched part at 0.81-0.94, the index at 0.98-0.999. At an
# even mean they stay unsure (0.90); the index's share for parts (cnn.PART_INDEX_WEIGHT)
# names them.
INDEX_IN_VIEW = {"train_WIN_20241103_06_52_57_Pro.jpg": "green-5",
                 "train_WIN_20241103_06_57_49_Pro.jpg": "yellow-9"}


def test_a_close_up_cut_by_the_frame_is_named_from_its_index(shared_data: Path) -> None:
    said = named_in_hemant(shared_data, list(INDEX_IN_VIEW))
    assert said == {name: [label] for name, label in INDEX_IN_VIEW.items()}


# Webcam photos (train split) of a white card on grey paper under a lamp: the card is a few
# grey levels off the paper and the light falls away across both, so the brightness masks
# held only the box printed around its pips (or nothing). Without the closed edge outlines
# (detect.edge_closed) and the printed frame's share at a fifth, the largest quad found
# here is that box (4-5% of the frame) or none.
PALE = ["train11.jpg", "train13.jpg", "train17.jpg", "train18.jpg", "train19.jpg"]


@pytest.mark.parametrize("name", PALE)
def test_a_white_card_on_grey_paper_is_found_by_its_outline(shared_data: Path,
                                                            name: str) -> None:
    from vision.detect import find_cards

    image = cv2.imread(str(shared_data / "playing_wmcnicho" / name))
    quads = find_cards(image, whole_fallback=False)
    assert quads and quads[0].area_frac > 0.15


# Old-art UNO cards lying across a webcam's view (train split): the green wedge between the
# card's white edge and its oval (two long sides, a third of a few pixels) passed for a card
# seen at a slant, so the card's own outline was dropped as a region of table around it, and
# a network that had not seen this printing named the wedge "green skip" at 0.99. A card in
# perspective narrows by far less (detect.SLANT_TAPER); the card is found whole.
WEDGED = [("uno_jx0424", "g3.jpg"), ("uno_jx0424", "g8.jpg"),
          ("uno_nunoferreira", "set2_rT.jpg")]


@pytest.mark.parametrize(("folder", "name"), WEDGED)
def test_the_wedge_inside_an_old_uno_card_is_not_a_card(shared_data: Path, folder: str,
                                                        name: str) -> None:
    import numpy as np

    from vision.detect import find_cards

    quads = find_cards(cv2.imread(str(shared_data / folder / name)), whole_fallback=False,
                       colour_bodies=True)
    assert quads
    # the largest quad is the card, seen nearly square-on: opposite sides alike, the long
    # ones 1.4-1.7 times the short ones
    s = np.linalg.norm(np.roll(quads[0].corners, -1, axis=0) - quads[0].corners, axis=1)
    assert max(s[0], s[2]) < 1.2 * min(s[0], s[2]) and max(s[1], s[3]) < 1.2 * min(s[1], s[3])
    assert 1.4 < max(s[0] + s[2], s[1] + s[3]) / min(s[0] + s[2], s[1] + s[3]) < 1.7


def test_a_whole_deck_laid_out_in_rows_is_named(shared_data: Path) -> None:
    """~50 classic UNO cards in four rows, one of each (a photo the folder leaves
    unlabelled): small cards whose bodies the white oval cuts into pieces, and more cards
    than the detector used to report. It named 23; now nearly all, none twice."""
    photo = shared_data / "uno_soloskino1" / "scene_unocards.jpg"
    if not photo.exists():
        # (../shared/data no longer carries this unlabelled photo: nothing to read)
        pytest.skip(f"{photo} is no longer in ../shared/data")
    image = cv2.imread(str(photo))
    names = [c.label for c in Identifier("uno", data_path="/nonexistent-taught"
                                         ).identify(image) if c.label]
    assert len(names) >= 45
    assert len(set(names)) == len(names)  # every card of the layout is a different one


def test_a_deck_taught_from_one_photo_a_card_says_no_wrong_name(shared_data: Path,
                                                                  tmp_path: Path) -> None:
    """A table teaches a printing from one photo a card (here nunoferreira's UNO photos, as
    a deck of its own) and the reader sees that card again in other photos: where a taught
    match is not clearly closer than the next card it stays unsure. With the margin counting
    fully from 0.06 (before taught.SURE_MARGIN was measured), 8 of these 33 reads were named
    wrong. The keypoint check (taught.KP_SURE) names more of them, none wrong."""
    from vision.store import DeckStore

    folder = shared_data / "uno_nunoferreira"
    images = json.loads((folder / "labels.json").read_text())["images"]
    first: dict[str, str] = {}
    for name in sorted(images):
        first.setdefault(images[name][0]["label"], name)
    store = DeckStore(tmp_path)
    for label, name in first.items():
        store.teach("house", label, cv2.imread(str(folder / name)))
    ident = Identifier("house", data_path=tmp_path)

    def read() -> tuple[int, int]:
        right = wrong = 0
        for name in sorted(set(images) - set(first.values())):
            truth = images[name][0]["label"]
            for card in ident.identify(cv2.imread(str(folder / name))):
                if card.label:
                    right += card.label == truth
                    wrong += card.label != truth
        return right, wrong

    right, wrong = read()
    assert wrong == 0
    assert right >= 12  # 17 of 33; by the features alone (no keypoints stored) 8
    ident.recogniser.kps = [[] for _ in ident.recogniser.kps]
    alone = read()
    assert alone[1] == 0 and 6 <= alone[0] < right  # (6 until the detector's quads of 24 Nov)


@pytest.mark.parametrize(("folder", "count"), [("uno_hemant", 5), ("uno_nunoferreira", 5),
                                               ("uno_hemant", 12)])
def test_a_few_cards_taught_to_a_built_in_deck_do_not_rename_the_others(
        shared_data: Path, tmp_path: Path, folder: str, count: int) -> None:
    """A table teaches five cards of its UNO printing (one photo each) and plays on. Each
    taught card was the nearest match of untaught cards like it, and won over the model: on
    uno_hemant 16 of its 662 cards were then named wrong (a yellow 4 as the taught red 4, a
    blue 6 as the taught blue 0) and on nunoferreira 4 of 83, where the model alone named
    none wrong. The model's sure reading of a card the table never taught against stands,
    unless the taught card's keypoints confirm it in its colours (with twelve taught, a blue
    reverse passed for the taught green one by its keypoints alone)."""
    from vision.store import DeckStore

    meta = json.loads((shared_data / folder / "labels.json").read_text())
    images = meta["images"]
    alone: dict[str, str] = {}
    for name in sorted(images):
        if len(images[name]) == 1 and images[name][0]["label"] not in ("back", "unknown"):
            alone.setdefault(images[name][0]["label"], name)
    taught = sorted(alone)[::len(alone) // count][:count]
    store = DeckStore(tmp_path)
    for label in taught:
        store.teach("uno", label, cv2.imread(str(shared_data / folder / alone[label])))
    ident = Identifier("uno", data_path=tmp_path)
    # every photo of a card like a taught one (its number or its colour), the taught ones'
    # own other photos among them
    alike = [n for n in sorted(set(images) - {alone[t] for t in taught})
             if len(images[n]) == 1 and any(
                 images[n][0]["label"].split("-")[i] == t.split("-")[i]
                 for t in taught for i in (0, -1))]
    alike = alike[::3] if count == 5 else [n for n in alike if "193908" in n]  # (the reverse)
    wrong = [(n, c.label) for n in alike
             for c in ident.identify(cv2.imread(str(shared_data / folder / n)))
             if c.label and c.label != images[n][0]["label"]]
    assert len(alike) > (25 if count == 5 else 0) and wrong == []


def test_a_blurred_club_is_not_named_a_spade(shared_data: Path) -> None:
    """Out of focus (a Gaussian blur of 1% of the frame's width), a king of clubs was named
    the king of spades at 0.95: a blurred crop (identify.sharpness) is named only from
    identify.BLURRED_SURE. As taken, it is still named."""
    img = cv2.imread(str(shared_data / "playing_kentdoan" / "Kclubs.jpg"))
    ident = Identifier("french", data_path="/nonexistent-taught")
    blurred = cv2.GaussianBlur(img, (0, 0), 0.01 * img.shape[1])
    assert [c.label for c in ident.identify(img) if c.label] == ["KC"]
    assert "KS" not in [c.label for c in ident.identify(blurred)]


def test_a_card_on_a_table_seen_from_low_down_is_read_across(shared_data: Path) -> None:
    """Seen from low down, the ace of diamonds looks wider than long: read along its longer
    side it is "not a card" at 1.0; read across too (identify.TILTED_TURN) it is named."""
    img = cv2.imread(str(shared_data / "playing_rdpong" / "scene_8card_slight.jpg"))
    names = [c.label for c in Identifier("french", data_path="/nonexistent-taught"
                                         ).identify(img) if c.label]
    assert "AD" in names and len(names) == len(set(names))


# Tight crops of a card, turned a quarter (a card lying on its side): the outline runs off the
# photo, so the card's body is boxed as a close-up's, which is read as the image shows it. A
# box wider than tall that is not a card so is read turned too (identify.SIDEWAYS_PART).
SIDEWAYS = ["Special_040_card_TakeFour.jpg", "Special_060_card_TakeFour.jpg",
            "Special_065_card_TakeFour.jpg"]


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE],
                         ids=["clockwise", "anticlockwise"])
def test_a_tight_crop_of_a_card_on_its_side_is_read(shared_data: Path, turn: int) -> None:
    ident = Identifier("uno", data_path="/nonexistent-taught")
    for name in SIDEWAYS:
        image = cv2.rotate(cv2.imread(str(shared_data / "uno_criscard_crops" / name)), turn)
        assert [c.label for c in ident.identify(image) if c.label] == ["wild-draw4"], name


# A low-contrast webcam or a glare lifts the black point of the whole view: the photo's grey
# levels squeezed to 0.6 of their range over a floor of 90. The networks, which never saw such
# crops, named 5 of this scene's 8 cards and these single cards not at all, until the crops'
# haze was taken out before reading (cnn.dehazed).
HAZED = [("playing_rdpong", "scene_8card_slight.jpg"), ("playing_wmcnicho", "train10.jpg"),
         ("playing_piercebriney_crops", "pi_k_clubs.jpg"), ("uno_jx0424", "y8.jpg")]


@pytest.mark.parametrize("folder,name", HAZED)
def test_a_hazed_photo_is_read_as_the_photo(shared_data: Path, folder: str, name: str) -> None:
    image = cv2.imread(str(shared_data / folder / name))
    hazed = np.clip(image.astype(np.float32) * 0.6 + 90, 0, 255).astype(np.uint8)
    ident = Identifier("uno" if folder.startswith("uno") else "french",
                       data_path="/nonexistent-taught")
    named = sorted(c.label for c in ident.identify(image) if c.label)
    assert named and sorted(c.label for c in ident.identify(hazed) if c.label) == named


# Grey photos (a monochrome camera, a black-and-white photo): the networks, trained on
# colour, read a 4 of hearts as clubs and a red UNO card as green, surely. A card that only
# its colour tells from another is unsure there, but for a standard number card, whose pips'
# shapes give its suit among all four (tests/vision/test_grey_frames.py); UNO's wild cards,
# black in any printing, keep their name.
GREY = [("playing_piercebriney_crops", "iphone_4_hearts.jpg"),
        ("playing_rdpong", "scene_test4.jpg"),
        ("uno_criscard_crops", "Red_030_card_3.jpg"),
        ("uno_jx0424", "y8.jpg")]


@pytest.mark.parametrize("folder,name", GREY)
def test_a_grey_photo_names_no_card_by_a_colour_it_cannot_see(
        shared_data: Path, folder: str, name: str) -> None:
    from vision.identify import colourless

    image = cv2.imread(str(shared_data / folder / name))
    _, jpeg = cv2.imencode(".jpg", cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY),
                                                cv2.COLOR_GRAY2BGR))
    grey = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)  # (a grey photo saved as a colour JPEG)
    assert colourless(grey) and not colourless(image)
    ident = Identifier("uno" if folder.startswith("uno") else "french",
                       data_path="/nonexistent-taught")
    assert [c.label for c in ident.identify(image) if c.label]  # named in colour
    said = [c.label for c in ident.identify(grey) if c.label]
    if folder.startswith("uno"):
        assert said == []
    else:  # only number cards, by their pips, and only cards in the photo
        truth = {e["label"] for e in json.loads((shared_data / folder / "labels.json")
                                                 .read_text())["images"][name]}
        assert all(label in truth and label[:-1].isdigit() for label in said)


def test_a_wild_card_keeps_its_name_in_a_grey_photo(shared_data: Path) -> None:
    """(A blank wild, "wild-custom", read at 1.0 in colour and grey.)"""
    image = cv2.imread(str(shared_data / "uno_nunoferreira" / "set2_kB.jpg"))
    grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    said = [c.label for c in Identifier("uno", data_path="/nonexistent-taught").identify(grey)
            if c.label]
    assert said == ["wild-custom"]


def test_a_spade_on_white_paper_is_a_colour_photo(shared_data: Path) -> None:
    """The least colourful of the shared photos: a black card on white paper, whose names
    must stand (its camera's colour noise and cast are what tell it from a grey photo)."""
    from vision.identify import colourless

    image = cv2.imread(str(shared_data / "playing_wmcnicho" / "train17.jpg"))
    assert not colourless(image)


def test_every_photo_of_one_card_is_taught_and_none_is_blank(shared_data: Path) -> None:
    """Teaching refuses a card with nothing printed on it (store.BlankCard): every tight
    crop of a real card is still taught, by what is printed on it. Two of the aces and
    fives were taught from a blank patch inside the card that the detector took for the
    card (and UNO's +2 from one of its two plain figures): that patch is passed over and
    the card itself, the photo being shaped like one, is taught."""
    from vision.store import LEAST_PRINT, DeckStore, printed

    for folder in ("playing_piercebriney_crops", "uno_criscard_crops"):
        names = sorted(json.loads((shared_data / folder / "labels.json").read_text())["images"])
        assert len(names) >= 70
        for name in names:
            crop = DeckStore.card_crop(cv2.imread(str(shared_data / folder / name)))
            assert printed(crop) >= 2 * LEAST_PRINT, name


@pytest.mark.parametrize("folder,name,label", [("playing_rdpong", "Jhearts.jpg", "JH"),
                                               ("playing_kentdoan", "8clubs.jpg", "8C")])
def test_a_squeezed_single_card_is_no_group_for_its_misread_index(shared_data: Path,
                                                                  folder: str, name: str,
                                                                  label: str) -> None:
    """Squeezed square, a single card is less long than a card and is searched for the
    indices of overlapping cards (identify.GROUP_SHAPED); its own index, misread inside it
    (the jack of hearts as spades at 0.94, the 8 of clubs as the 6 at 0.82), is no second
    card: only a name read at GROUP_READ makes it a group."""
    image = cv2.imread(str(shared_data / folder / name))
    if image is None:
        pytest.skip(f"{folder}/{name} is no longer in ../shared/data")
    square = cv2.resize(image, (640, 640), interpolation=cv2.INTER_AREA)
    said = [c.label for c in Identifier("french", data_path="/nonexistent-taught"
                                        ).identify(square) if c.label]
    assert said == [label]
