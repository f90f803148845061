"""Wire the camera to the table: source -> FrameHub -> ZoneWatcher thread, plus the preview.

What the web layer mounts: ``VisionService(config, emit=table.submit_event)``; then
``service.hub`` feeds the MJPEG preview (``service.mjpeg()``), ``service.set_deck`` and
``service.set_zones`` follow the phone, and ``emit`` gets CardSeen / ZoneCleared /
CameraLost. Start and stop it with the app.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

from vision.frame_hub import FrameHub
from vision.identify import Identifier
from vision.preview import mjpeg_chunks
from vision.sources import make_source
from vision.watcher import Event, ZoneWatcher
from vision.zones import Zone


class VisionService:
    def __init__(self, config: object, emit: Callable[[Event], None], deck: str = "uno",
                 zones: list[Zone] | None = None,
                 clock_ns: Callable[[], int] = time.monotonic_ns) -> None:
        self.config = config
        self.clock_ns = clock_ns
        self.data_path = getattr(config, "data_path", None)
        self.hub = FrameHub(make_source(config), clock_ns=clock_ns)
        self.identifier = Identifier(deck, data_path=self.data_path)
        self.watcher = ZoneWatcher(zones or [], self.identifier, emit)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> VisionService:
        self.hub.start()
        self._thread = threading.Thread(target=self.watcher.run, name="zone-watcher",
                                        args=(self.hub, self.clock_ns, self._stop), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.hub.stop()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    def set_deck(self, deck: str) -> None:
        """Switch recognisers (a new game, or a deck just taught)."""
        self.identifier = Identifier(deck, data_path=self.data_path)
        self.watcher.identifier = self.identifier

    def set_zones(self, zones: list[Zone]) -> None:
        self.watcher.set_zones(zones)

    def mjpeg(self) -> Iterator[bytes]:
        """Annotated preview parts; reuse the watcher's latest cards rather than recognising
        every frame twice."""
        return mjpeg_chunks(self.hub, lambda _img: self.watcher.last_cards,
                            lambda: self.watcher.zones)
