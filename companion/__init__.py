"""Table Companion: the tables, their event logs and the rules of every game.

Nothing in this package (outside ``cli`` and ``doctor``) knows about Flask, OpenCV or GPIO:
adapters in ``web/``, ``vision/`` and ``hardware/`` turn the outside world into actions
submitted through :class:`companion.table.TableService`.
"""

__version__ = "0.1.0"
