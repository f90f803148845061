"""Choosing the gpiozero pin factory, once, as gpiozero itself would.

* ``pin_factory`` in the config, or ``GPIOZERO_PIN_FACTORY`` in the environment: that one
  (``mock`` is gpiozero's MockFactory, for tests and for trying things without a Pi).
* On a Raspberry Pi: gpiozero's own choice (lgpio on Bookworm, whose edge timestamps come
  from the kernel).
* Anywhere else: the MockFactory, with a loud warning, because nothing will be wired: the
  slap buttons are then the phones' on-screen buttons and the terminal's keys.

Devices never know which factory they run on; they are all given the one chosen here.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from companion.config import Config, is_raspberry_pi

log = logging.getLogger(__name__)

OFF_PI_WARNING = (
    "No Raspberry Pi here: GPIO buttons, LEDs and the buzzer are simulated (gpiozero "
    "MockFactory). Slap with the phones' on-screen buttons or the number keys in this "
    "terminal. Set pin_factory (or GPIOZERO_PIN_FACTORY) to use real pins."
)


def factory_name(config: Config, env: dict[str, str] | None = None) -> str | None:
    """The factory asked for by name (config first, then the environment), or None."""
    env = os.environ if env is None else env
    name = (config.pin_factory or env.get("GPIOZERO_PIN_FACTORY") or "").strip()
    return name or None


def choose_factory(
    config: Config, env: dict[str, str] | None = None, on_pi: bool | None = None
) -> tuple[Any, bool]:
    """The pin factory to use and whether it is simulated (a MockFactory).

    Raises whatever gpiozero raises when a named factory cannot be loaded on this machine:
    asking for ``lgpio`` and not getting it is an error to see, not to paper over.
    """
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    name = factory_name(config, env)
    if name is not None and name.lower() == "mock":
        return MockFactory(), True
    if name is not None:
        factory = load_factory(name)
        return factory, isinstance(factory, MockFactory)
    if on_pi if on_pi is not None else is_raspberry_pi():
        return Device._default_pin_factory(), False
    log.warning(OFF_PI_WARNING)
    return MockFactory(), True


def load_factory(name: str) -> Any:
    """A factory by its gpiozero name (lgpio, rpigpio, pigpio, native, mock), found the way
    gpiozero finds ``GPIOZERO_PIN_FACTORY``: its entry points, exact name first."""
    from importlib.metadata import entry_points

    from gpiozero.exc import BadPinFactory

    group = list(entry_points(group="gpiozero_pin_factories"))
    for match in (name, name.lower()):
        for ep in group:
            if ep.name == match:
                return ep.load()()
    raise BadPinFactory(f"Unable to find pin factory {name!r}")
