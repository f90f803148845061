"""A whole Versus game (3 players) refereed through the camera path and the slap buttons.

Nothing is scripted at the level of CardSeen: the table is drawn frame by frame (three
discard piles of picture cards whose art the software was never told about, each new card
lying at its own angle, every frame with its own jitter and noise), written to a video, and
played back by a stepped ReplaySource whose frames are stamped by the test's FakeClock. The
camera runtime configures the watcher exactly as ``companion serve`` does for a Versus table
(camera deck "taught": cards found, named by nobody, told apart by image signature), and the
bridge submits what it sees. Slaps are edges on gpiozero mock pins with injected timestamps,
through the real debouncer and slap router. Verdicts are checked against
../shared/rules/versus.md (V1 to V4, V6, V7, E9), including a press stamped while the pair
was showing but judged only after the camera saw the next flip cover it: right, by its
timestamp. No sleeps: time is the FakeClock, moved frame by frame.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.camera import CameraRuntime
from companion.config import Config
from companion.games.base import Actor
from companion.games.versus import GAME
from companion.games.versus.rules import PENALTIES
from companion.table import replay
from hardware.runtime import start
from hardware.testing import ManualTicksFactory, bounce
from vision import synth
from vision.signature import SAME
from vision.sources.replay import ReplaySource
from vision.watcher import ZoneWatcher

MS = 1_000_000
FPS_MS = 100  # one frame every 100 ms
SIZE = (640, 480)
CARD_H = 170  # pixels: turned up to 20 degrees, a card stays inside its third of the view
PINS = [5, 6, 13]
PLAYERS = ["Ana", "Bruno", "Chen"]
ZONES = [{"name": f"discard-{s}", "rect": [s / 3, 0.05, (s + 1) / 3, 0.95]} for s in range(3)]
# six pictures of the made-up deck (distinct shapes and colours, as Versus art is distinct)
A, B, C, D, E, F, G = 0, 1, 2, 3, 4, 5, 6

# The game, as it happens at the table (ms after the start). Turns go 0, 1, 2 (the dealer is
# seat 2), and go on after a slap (E9). ("flip", seat, picture); ("collect",): the slap's
# winner takes every discard pile; ("press", seat, ms offset); ("judge",): the router judges
# the presses it holds (the slap thread, possibly late); ("gift", giver, to).
SCRIPT = [
    (1000, "flip", 0, A), (2000, "flip", 1, B), (3000, "flip", 2, A),  # V1: A and A
    (3450, "press", 1), (3700, "judge"), (3800, "gift", 1, 0),  # V2: Bruno's
    (4500, "collect"),
    (6000, "flip", 0, C), (7000, "flip", 1, D), (8000, "flip", 2, E),  # no pair
    (8400, "press", 2), (8600, "judge"),  # V3: Chen slaps wrong, draws a penalty
    (9000, "flip", 0, D),  # D and D (Bruno's D still shows)
    (9995, "press", 2),  # Chen, 5 ms before Bruno covers his D...
    (10000, "flip", 1, F),  # ...with F: the pair is gone
    (10050, "press", 0),  # Ana, 50 ms after the cover: nothing is showing twice
    (10700, "judge"),  # judged only now, after the camera reported the cover
    (10800, "gift", 2, 1),
    (11500, "collect"),
    (13000, "flip", 2, G), (14000, "flip", 0, B), (15000, "flip", 1, G),  # G and G
    (15300, "press", 0), (15330, "press", 2), (15600, "judge"),  # Ana first, Chen late
    (15700, "gift", 0, 1),
]
END_MS = 17000


def card_at(seat: int, picture: int, flip: int, frame: int) -> tuple[np.ndarray, tuple, float]:
    """One card on a pile: where it lies (its own angle per flip, a little jitter per frame,
    as hands and the camera's noise move it) and its picture."""
    rng = np.random.default_rng(1000 * flip + 7 * seat + 1)
    angle = rng.uniform(-20, 20) + (180 if rng.random() < 0.5 else 0)
    cx = (seat + 0.5) * SIZE[0] / 3 + rng.uniform(-6, 6)
    cy = SIZE[1] / 2 + rng.uniform(-20, 20)
    j = np.random.default_rng(frame * 31 + seat)
    return synth.draw_picture(picture), (cx + j.uniform(-1.5, 1.5), cy + j.uniform(-1.5, 1.5)), \
        angle + j.uniform(-1, 1)


def frames() -> list[tuple[int, list[tuple[int, int] | None]]]:
    """The piles' tops (picture, flip number) at each frame time."""
    tops: list[tuple[int, int] | None] = [None, None, None]
    out, events = [], sorted((e for e in SCRIPT if e[1] in ("flip", "collect")),
                             key=lambda e: e[0])
    flips = 0
    for t in range(0, END_MS, FPS_MS):
        while events and events[0][0] <= t:
            e = events.pop(0)
            if e[1] == "flip":
                flips += 1
                tops[e[2]] = (e[3], flips)
            else:
                tops = [None, None, None]
        out.append((t, list(tops)))
    return out


def render(t: int, tops: list[tuple[int, int] | None]) -> np.ndarray:
    frame = t // FPS_MS
    rng = np.random.default_rng(frame)
    scene = synth.table_texture("cloth", SIZE, np.random.default_rng(0))
    for seat, top in enumerate(tops):
        if top is not None:
            card, centre, angle = card_at(seat, top[0], top[1], frame)
            synth.place_card(scene, card, centre, CARD_H, angle)
    img = scene.astype(np.float32) * rng.uniform(0.92, 1.08)  # the light flickers a little
    img += rng.normal(0, 3, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def write_video(path) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 1000 // FPS_MS, SIZE)
    for t, tops in frames():
        writer.write(render(t, tops))
    writer.release()


def test_a_whole_versus_game_from_a_replay_camera_and_the_buttons(service, clock, tmp_path):
    video = tmp_path / "versus.avi"
    write_video(video)
    table = service.create_table("versus", PLAYERS, "2468", options={"gems": 6}, seed=7)
    tid = table.id
    t0 = clock.monotonic_ns()

    # The camera, configured as the server does for this table: the game's deck ("taught",
    # nothing taught yet), the table's zones.
    camera = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    camera.watcher = ZoneWatcher([], None, camera.bridge.handle)
    camera.set_zones(tid, ZONES)
    camera.bind(tid)
    watcher = camera.watcher
    assert watcher.identifier.deck == "taught:versus" and watcher.sign_named
    assert [z.name for z in watcher.zones] == ["discard-0", "discard-1", "discard-2"]
    source = ReplaySource(video, loop=False, stepped=True, clock_ns=clock.monotonic_ns)
    source.start()

    pins = ManualTicksFactory(start_ns=t0)
    hw = start(Config(button_pins=PINS), service, clock, keys=False, factory=pins,
               background=False)
    updates = []
    service.subscribe(tid, updates.append)

    def move_to(t_ns: int) -> None:
        if t_ns > clock.monotonic_ns():
            clock.advance(ns=t_ns - clock.monotonic_ns())
        pins.now_ns = t_ns

    def edges(seat: int, t_ns: int, level: int) -> None:  # the contact bounces
        for t, lv in bounce(t_ns, level):
            move_to(t)
            pins.drive(PINS[seat], [(t, lv)])

    script = [e for e in SCRIPT if e[1] in ("judge", "gift")]
    for at, kind, *args in SCRIPT:  # a press: the button down, and up 120 ms later
        if kind == "press":
            script += [(at, "edges", args[0], 0), (at + 120, "edges", args[0], 1)]
    script.sort(key=lambda e: e[0])
    seen_before_judging: dict[int, list] = {}
    try:
        for t_ms, _ in frames():
            while script and script[0][0] < t_ms:
                at, kind, *args = script.pop(0)
                if kind == "edges":
                    edges(args[0], t0 + at * MS, args[1])
                    continue
                move_to(t0 + at * MS)
                if kind == "judge":
                    hw.buttons.poll()
                    seen_before_judging[at] = [p["tops"][-1:] for p in
                                               service.get(tid).state["piles"]]
                    hw.router.poll()
                else:
                    service.submit(tid, {"type": "give_gem", "to": args[1]}, Actor(seat=args[0]))
            move_to(t0 + t_ms * MS)
            frame = source.read()
            assert frame is not None and frame.t_ns == t0 + t_ms * MS
            watcher.feed(frame)
        assert source.read() is None  # the whole video was watched
    finally:
        hw.stop()
        source.close()

    live = service.get(tid)
    state = live.state
    history = service.history(tid, host=True)
    tops = [e for e in history if e["body"]["type"] == "pile_top"]
    assert all(e["actor"]["source"] == "camera" for e in tops)
    # Every flip was seen once, as an unnamed card with its signature, stamped with the
    # first frame that showed it; every collected pile was seen cleared. Nothing else: the
    # jitter, the noise and the flickering light made no flips.
    seen = [e["body"] for e in tops if "signature" in e["body"]]
    expected = [(e[2], t0 + e[0] * MS) for e in SCRIPT if e[1] == "flip"]
    assert [(f["seat"], f["t_ns"]) for f in seen] == expected
    assert all(f["card"] is None and len(f["signature"]) > 100 for f in seen)
    cleared = [e["body"] for e in tops if "signature" not in e["body"]]
    assert all(f["card"] is None for f in cleared)
    assert sorted(f["seat"] for f in cleared) == [0, 0, 1, 1, 2, 2]
    # The pictures were told apart, and copies of one picture on two piles recognised: the
    # referee named them by cluster (#1, #2 ...), one name per picture.
    names = {}
    for seat_t, ident in [((s, t), i) for s, p in enumerate(state["piles"])
                          for t, i in p["tops"] if i is not None]:
        names[seat_t] = ident
    by_picture: dict[int, set] = {}
    for e in SCRIPT:
        if e[1] == "flip":
            by_picture.setdefault(e[3], set()).add(names.get((e[2], t0 + e[0] * MS)))
    assert all(len(v) == 1 for v in by_picture.values()), by_picture
    assert len({next(iter(v)) for v in by_picture.values()}) == len(by_picture)

    races = state["races"]
    verdicts = [(r["winner"], r["wrong"], r["resolution"]) for r in races]
    assert verdicts == [
        (1, [], "first"),  # V1/V2: Bruno slapped first on A and A
        (None, [2], "wrong"),  # V3: Chen slapped with no pair showing
        (2, [0], "first"),  # Chen's press (pair showing) right; Ana's, after the cover, wrong
        (0, [], "first"),  # Ana first on G and G; Chen 30 ms later is late, not wrong
    ], verdicts
    # The covered slap: when the router judged it, the camera had already reported the
    # cover (stamped 5 ms after the press), and the verdict followed the press's timestamp.
    covering = seen_before_judging[10700][1][0]
    assert covering[0] == t0 + 10000 * MS and covering[1] != names[(0, t0 + 9000 * MS)]
    third = {e["seat"]: e["status"] for e in races[2]["order"]}
    assert third == {2: "right", 0: "wrong"}
    fourth = {e["seat"]: e["status"] for e in races[3]["order"]}
    assert fourth == {0: "right", 2: "late"}
    assert [e["gap_ns"] for e in races[3]["order"]] == [0, 30 * MS]
    # V3/V4: each wrong slap drew a penalty, ended by the next slap on the Gems.
    assert list(races[1]["penalties"]) == ["2"] and list(races[2]["penalties"]) == ["0"]
    assert all(s["penalty"] is None for s in state["seats"])
    assert sorted(state["penalty_deck"]) == sorted(PENALTIES)
    # V2: 2 Gems a right slap (keep one, give one); V6: the Gems ran out, the game ended;
    # V7: the most Gems wins. Every Versus card is still accounted for.
    assert state["gem_deck"] == 0 and state["ended"]
    assert [s["gems"] for s in state["seats"]] == [2, 3, 1]
    assert GAME.outcome(state) == {"winners": [1], "scores": [2, 3, 1], "eliminated": []}
    assert sum(s["draw"] + s["discard"] for s in state["seats"]) == 48
    # The verdicts reached the table's listeners as they were committed: Ana's press, 55 ms
    # after Chen's, came as a second batch that joined race 3 and added her wrong slap.
    verdicts_heard = [(e["race"], e["kind"], e["wrong"]) for u in updates for e in u.events
                      if e["type"] == "verdict"]
    assert verdicts_heard == [(1, "right", []), (2, "wrong", [2]), (3, "right", []),
                              (3, "right", [0]), (4, "right", [])]
    # The log replays to the very same state.
    assert replay(live.record, live.game, live.log) == state


def test_the_drawn_pictures_are_told_apart_at_the_referees_threshold():
    """The test's pictures, as the camera crops them, sit well on either side of SAME, and
    the referee's default agrees with the signature's threshold."""
    from vision.detect import find_cards
    from vision.signature import of_card, similarity

    assert GAME.options[[o.name for o in GAME.options].index("same_art")].default == SAME
    sigs = {}
    for k in (A, B, C, D, E, F, G):
        for flip in range(3):
            scene = synth.table_texture("cloth", SIZE, np.random.default_rng(0))
            card, centre, angle = card_at(0, k, 10 * k + flip, flip)
            synth.place_card(scene, card, centre, CARD_H, angle)
            quad = max(find_cards(scene, whole_fallback=False, colour_bodies=True),
                       key=lambda q: q.area_frac)
            sigs[k, flip] = of_card(scene, quad.corners)
    same = [similarity(sigs[k, 0], sigs[k, f]) for k in (A, B, C, D, E, F, G) for f in (1, 2)]
    diff = [similarity(a, b) for (ka, _), a in sigs.items() for (kb, _), b in sigs.items()
            if ka < kb]
    assert min(same) > SAME + 0.05 and max(diff) < SAME - 0.1, (min(same), max(diff))
