"""Table vision: camera sources, card detection and naming, zones and the zone watcher.

Everything here runs on CPU with OpenCV and numpy only (no torch at run time), so it fits a
Raspberry Pi; learned weights live in ``vision/models`` and are rebuilt by
``tools/train_vision.py``.
"""
