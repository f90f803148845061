"""``companion vision ...``: identify photos, teach decks, print marker sheets, preview.

companion/cli.py calls ``add_parser(subparsers)``; each subcommand sets ``func(args) -> int``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any


def _data_path(args: argparse.Namespace) -> Path:
    if getattr(args, "data_dir", None):
        return Path(args.data_dir)
    from companion.config import load_config

    return load_config().data_path


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("vision", help="camera and card recognition tools")
    vs = p.add_subparsers(dest="vision_command", required=True)

    q = vs.add_parser("identify", help="find and name the cards in photos")
    q.add_argument("images", nargs="+", type=Path)
    q.add_argument("--deck", required=True, help="uno, french, huangdi or a taught deck")
    q.add_argument("--json", action="store_true", help="one JSON object per image and line")
    q.add_argument("--threshold", type=float, help="override the deck's unsure threshold")
    q.add_argument("--packs", type=_packs, default=1,
                   help="standard packs a photo may show (default 1): a card named more often"
                        " in one photo is left unsure but for its surest")
    q.add_argument("--data-dir", help="where taught decks live (default: config data_dir)")
    q.set_defaults(func=cmd_identify)

    t = vs.add_parser("teach", help="teach a card of a deck from photos (the largest card)")
    t.add_argument("deck")
    t.add_argument("label", help="the card's name (folded to a-z, 0-9 and -)")
    t.add_argument("images", nargs="+", type=Path)
    t.add_argument("--data-dir")
    t.add_argument("--force", action="store_true",
                   help="a built-in deck: teach it even where the model reads another card")
    t.set_defaults(func=cmd_teach)

    f = vs.add_parser("forget", help="forget a taught card, or a whole taught deck")
    f.add_argument("deck")
    f.add_argument("label", nargs="?")
    f.add_argument("--data-dir")
    f.set_defaults(func=cmd_forget)

    d = vs.add_parser("decks", help="list the taught decks and their cards")
    d.add_argument("--data-dir")
    d.set_defaults(func=cmd_decks)

    m = vs.add_parser("markers", help="write a printable ArUco sheet that marks zones")
    m.add_argument("--out", type=Path, default=Path("markers.png"))
    m.add_argument("--zones", type=int, default=4, help="how many zones (2 markers each)")
    m.add_argument("--names", help="comma-separated zone names, in order")
    m.set_defaults(func=cmd_markers)

    z = vs.add_parser("zones", help="read zones from the markers in a photo of the table")
    z.add_argument("image", type=Path)
    z.add_argument("--names", help="comma-separated zone names, in order")
    z.set_defaults(func=cmd_zones)

    v = vs.add_parser("preview", help="save annotated frames from the camera (debugging)")
    v.add_argument("--camera", default=None, help="camera spec (default: config / auto)")
    v.add_argument("--deck", default="uno")
    v.add_argument("--frames", type=int, default=5)
    v.add_argument("--out", type=Path, default=Path("preview"))
    v.set_defaults(func=cmd_preview)


def cmd_identify(args: argparse.Namespace) -> int:
    import cv2

    from vision.identify import Identifier
    from vision.photo_read import read_photo
    from vision.recognise import get_recogniser

    cv2.setNumThreads(1)  # one image at a time: threads cost more than they give on a Pi
    try:
        rec = get_recogniser(args.deck, _data_path(args))
    except (KeyError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.threshold is not None and hasattr(rec, "threshold"):
        rec.threshold = args.threshold
    ident = Identifier(args.deck, rec, packs=args.packs)
    ident.warm_up()
    try:
        for path in args.images:
            photo = read_photo(path)
            image, why = photo.image, photo.why
            if image is None:
                row = {"image": str(path), "ms": 0.0, "cards": [], "error": why}
            else:
                cards, ms = ident.timed(image)
                row = {"image": str(path), "ms": round(ms, 2),
                       "cards": [_in_photo(c.to_json(), photo.to_photo(c.corners))
                                 for c in cards]}
            if args.json:
                print(json.dumps(row), flush=True)
            elif image is None:
                print(f"{path}: error: {why}", flush=True)
            else:
                names = ", ".join(f"{c['label'] or '?'} ({c['confidence']:.2f})"
                                  for c in row["cards"])
                print(f"{path}: {names or 'no cards'}  [{row['ms']} ms]", flush=True)
    except BrokenPipeError:  # (| head: the reader has what it wanted)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (no second error at exit)
    # (0 with an image unreadable, even with none readable: each image has its own line,
    # and a tool reading them, as eval-vision does in batches of 64, stops at a failed
    # run: it must not lose every other image's cards to one batch)
    return 0


def _packs(text: str) -> int:
    """``--packs``: a whole number from 1 to 8 (argparse prints the error)."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 8:
        raise argparse.ArgumentTypeError(f"not a number of packs from 1 to 8: {text!r}")
    return n


def _in_photo(card: dict, corners: Any) -> dict:
    """A card's JSON with its corners in the photo's own pixels (a big photo is read
    reduced: vision.photo_read)."""
    return {**card, "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in corners]}


def read_image(path: Path) -> tuple[Any, str]:
    """The image at ``path`` (BGR, a big photo reduced to ``photo_read.MAX_PIXELS``), or
    None and why not, in words a person can act on: no such file, a folder, not an image
    OpenCV reads, or one too large to decode (a PNG whose header claims 100000x100000
    pixels made OpenCV raise and ended the run)."""
    from vision.photo_read import read_photo

    photo = read_photo(path)
    return photo.image, photo.why


def cmd_teach(args: argparse.Namespace) -> int:
    from companion.cards import DECKS, fold_taught_name, spelled
    from vision.store import MAX_NAME, BlankCard, DeckStore, NoCardInView

    store = DeckStore(_data_path(args))
    label = fold_taught_name(args.label)
    if not label:
        print("error: give the card a name (letters and digits)", file=sys.stderr)
        return 2
    if len(label) > MAX_NAME:
        print(f"error: a card's name is at most {MAX_NAME} letters and digits", file=sys.stderr)
        return 2
    if args.deck in DECKS:  # (a built-in deck: one of its own cards, as the camera page asks)
        own = spelled(args.deck, args.label)
        if own is None:
            print(not_a_card(args.deck, args.label), file=sys.stderr)
            return 2
        args.label, label = own, fold_taught_name(own)
    crops = []  # (every photo checked before any is taught)
    for path in args.images:
        image, why = read_image(path)
        if image is None:
            print(f"error: cannot read {path}: {why}", file=sys.stderr)
            return 2
        try:
            crops.append(store.card_crop(image, deck=args.deck))
        except BlankCard:
            print(f"error: {path}: no card with anything printed on it (a blank photo?): "
                  "photograph the card's face, alone, in good light", file=sys.stderr)
            return 2
        except NoCardInView:  # (never with a photo given here: it may be a tight crop)
            print(f"error: {path}: no card found", file=sys.stderr)
            return 2
    if not args.force:
        from vision.recognise import model_reads_other

        for path, crop in zip(args.images, crops, strict=True):
            other = model_reads_other(args.deck, crop, args.label)
            if other is not None:
                print(f"error: {path}: the {args.deck} model reads this card as "
                      f"{other.label} ({other.confidence:.2f}); nothing taught. "
                      f"Give --force to teach it as {args.label} anyway.", file=sys.stderr)
                return 2
    n = 0
    try:
        for crop in crops:
            n = store.teach(args.deck, args.label, crop, crop=True)
    except OSError as exc:  # (a --data-dir under /proc, or under a file)
        print(f"error: cannot save the card in {store.root}: {exc.strerror or exc}"
              + (f" ({exc.filename})" if exc.filename else ""), file=sys.stderr)
        return 2
    # (the name as stored: "Red Seven!" is kept as red-seven)
    print(f"{args.deck}/{label}: {n} photo(s) known")
    return 0


def not_a_card(deck: str, typed: str) -> str:
    """The error for a name that is no card of built-in ``deck``: the nearest names, then
    all of them (``companion vision decks`` lists only what was taught)."""
    import difflib

    from companion.cards import DECKS, fold_taught_name

    names = DECKS[deck]
    folded = {fold_taught_name(n): n for n in names}
    near = [folded[n] for n in difflib.get_close_matches(fold_taught_name(typed), folded, n=3)]
    guess = ""
    if near:
        said = near[0] if len(near) == 1 else f"{', '.join(near[:-1])} or {near[-1]}"
        guess = f" Did you mean {said}?"
    return (f"error: {typed!r} is not a card of the {deck} deck.{guess}\n"
            f"The {deck} deck's {len(names)} cards: {' '.join(names)}")


def cmd_forget(args: argparse.Namespace) -> int:
    from vision.store import DeckStore

    ok = DeckStore(_data_path(args)).forget(args.deck, args.label)
    print("forgotten" if ok else "nothing to forget")
    return 0 if ok else 1


def cmd_decks(args: argparse.Namespace) -> int:
    from vision.store import DeckStore

    print(json.dumps(DeckStore(_data_path(args)).list_decks(), indent=1))
    return 0


def _names(text: str | None) -> list[str] | None:
    return [n.strip() for n in text.split(",") if n.strip()] if text else None


def cmd_markers(args: argparse.Namespace) -> int:
    import cv2

    from vision.zones import MAX_ZONES, marker_sheet

    names = _names(args.names)
    if not 1 <= args.zones <= MAX_ZONES:
        print(f"error: --zones must be 1 to {MAX_ZONES} (two markers a zone)", file=sys.stderr)
        return 2
    if names and len(names) > args.zones:
        print(f"error: {len(names)} names for {args.zones} zones: give --zones {len(names)}",
              file=sys.stderr)
        return 2
    try:
        sheet = marker_sheet(args.zones, names)
    except ValueError as exc:  # (more zones than fit one page)
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not cv2.imwrite(str(args.out), sheet):
        print(f"error: cannot write {args.out}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: print at 100% on A4; cut out each marker and lay marker #2k at"
          " the top-left and #2k+1 at the bottom-right of zone k")
    return 0


def cmd_zones(args: argparse.Namespace) -> int:
    from vision.zones import zones_from_markers

    image, why = read_image(args.image)  # (zones are fractions of the picture: any size)
    if image is None:
        print(f"error: cannot read {args.image}: {why}", file=sys.stderr)
        return 2
    zones = zones_from_markers(image, _names(args.names))
    print(json.dumps([{"name": z.name, "rect": [round(v, 4) for v in z.rect]} for z in zones]))
    if not zones:
        print("no complete pair of markers in view (each zone needs both of its markers, "
              "#2k and #2k+1: `companion vision markers` prints them)", file=sys.stderr)
    return 0


def cmd_preview(args: argparse.Namespace) -> int:
    import cv2

    from vision.frame_hub import FrameHub
    from vision.identify import Identifier
    from vision.preview import draw
    from vision.sources import CameraUnavailable, choose_source

    spec = args.camera
    if spec is None:
        from companion.config import load_config

        spec = load_config()
    try:
        ident = Identifier(args.deck)
    except (KeyError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:  # (a camera named here or in the config: the sample photos are no preview of it)
        source, _ = choose_source(spec, fallback=False)
    except CameraUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    why = "it is a file, not a folder" if args.out.is_file() else None
    if why is None:
        try:
            args.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # (under a file, under /proc, no permission)
            why = exc.strerror or str(exc)
    if why is not None:
        source.close()
        print(f"error: cannot write the frames in {args.out}: {why}", file=sys.stderr)
        return 2
    with FrameHub(source) as hub:
        seq = 0
        for i in range(args.frames):
            frame = hub.wait_next(seq, timeout=3.0)
            if frame is None:
                print("error: no frames from the camera", file=sys.stderr)
                return 1
            seq = frame.seq
            cards, ms = ident.timed(frame.image)
            path = args.out / f"frame_{i:03d}.jpg"
            if not cv2.imwrite(str(path), draw(frame.image, cards)):
                print(f"error: cannot write {path}", file=sys.stderr)
                return 2
            print(f"frame {frame.seq} t={frame.t_ns} {ms:.1f} ms: "
                  + ", ".join(f"{c.label or '?'}" for c in cards))
    return 0
