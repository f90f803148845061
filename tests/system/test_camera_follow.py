"""Which table the camera watches by itself (``CameraRuntime.on_update``): it followed the
newest camera game as soon as a table was created and joined, silently leaving the UNO
table it was watching (issue 37)."""

from __future__ import annotations

from companion.camera import CameraRuntime
from companion.config import Config
from companion.games.base import HOST


def test_the_camera_stays_with_a_game_in_progress_and_follows_once_it_is_over(
        service, tmp_path):
    runtime = CameraRuntime(Config(camera="replay", data_dir=str(tmp_path)), service)
    service.add_listener(runtime.on_update)  # (as ``companion serve`` wires it)
    uno = service.create_table("uno", ["Ana", "Bruno"], "2468")
    service.submit(uno.id, {"type": "set_dealer", "dealer": 0}, HOST)
    assert runtime.table_id == uno.id  # (nothing watched: the first camera game's move)
    # a new camera table, joined and played: the UNO game goes on, the camera stays
    other = service.create_table("uno", ["Chen", "Dara"], "2468")
    service.join(other.id, 0)
    service.submit(other.id, {"type": "set_dealer", "dealer": 1}, HOST)
    assert runtime.table_id == uno.id
    # the UNO match over: the next move elsewhere takes the camera
    service.submit(uno.id, {"type": "end_match"}, HOST)
    service.submit(other.id, {"type": "set_dealer", "dealer": 0}, HOST)
    assert runtime.table_id == other.id
    # the host's choice stands whatever moves come
    runtime.bind(uno.id)
    service.submit(other.id, {"type": "set_dealer", "dealer": 1}, HOST)
    assert runtime.table_id == uno.id
