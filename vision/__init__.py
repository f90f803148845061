"""Table vision: camera sources, card detection and naming, zones and the zone watcher.

Everything here runs on CPU with OpenCV and numpy only (no torch at run time), so it fits a
Raspberry Pi; learned weights live in ``vision/models`` and are rebuilt by
``tools/train_vision.py``.
"""

import os

# The matrices here are tiny: BLAS worker threads only spin-wait against the web app and
# the capture thread for a core (latency went from ~12 ms to over a second on a busy
# 2-core box). Takes effect when vision is imported before numpy; set it to override.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
