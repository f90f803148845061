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


def _one_blas_thread() -> None:
    """numpy came first (a script that imports cv2 / numpy, then vision): the variables
    above came too late for its OpenBLAS, so ask the loaded library directly (numpy's
    bundled scipy-openblas; a system BLAS elsewhere is left alone)."""
    import ctypes
    import sys
    from pathlib import Path

    numpy = sys.modules["numpy"]
    libs = Path(numpy.__file__).resolve().parent.parent / "numpy.libs"
    for path in sorted(libs.glob("*openblas*.so*")) if libs.is_dir() else []:
        try:
            lib = ctypes.CDLL(str(path))
        except OSError:
            continue
        for name in ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_",
                     "openblas_set_num_threads"):
            setter = getattr(lib, name, None)
            if setter is not None:
                setter(int(os.environ["OPENBLAS_NUM_THREADS"]))
                return


if "numpy" in __import__("sys").modules:
    import contextlib

    with contextlib.suppress(Exception):  # a speed-up only: never stop vision from loading
        _one_blas_thread()
