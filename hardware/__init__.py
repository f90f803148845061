"""The table's hardware: slap buttons on GPIO (or keys in the terminal), LEDs and a buzzer.

:func:`start` wires all of it to a :class:`~companion.table.TableService` and returns a
handle whose ``stop()`` (or call) undoes it; see :mod:`hardware.runtime`.
"""

from hardware.runtime import Hardware, start

__all__ = ["Hardware", "start"]
