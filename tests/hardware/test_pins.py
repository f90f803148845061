"""The pin factory: gpiozero's own choice on a Pi, MockFactory (loudly) elsewhere."""

from __future__ import annotations

import logging

import pytest
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory

from companion.config import Config
from hardware.pins import OFF_PI_WARNING, choose_factory, factory_name, load_factory


def test_off_a_pi_the_mock_factory_with_a_loud_warning(caplog):
    with caplog.at_level(logging.WARNING):
        factory, simulated = choose_factory(Config(), env={}, on_pi=False)
    assert isinstance(factory, MockFactory) and simulated
    assert OFF_PI_WARNING in caplog.text


def test_a_named_factory_wins_config_first():
    assert factory_name(Config(pin_factory="lgpio"), env={"GPIOZERO_PIN_FACTORY": "mock"}) == (
        "lgpio")
    assert factory_name(Config(), env={"GPIOZERO_PIN_FACTORY": "mock"}) == "mock"
    assert factory_name(Config(), env={}) is None
    factory, simulated = choose_factory(Config(), env={"GPIOZERO_PIN_FACTORY": "MOCK"})
    assert isinstance(factory, MockFactory) and simulated


def test_on_a_pi_gpiozero_chooses(monkeypatch):
    from gpiozero import Device

    chosen = MockFactory()
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(lambda: chosen))
    assert choose_factory(Config(), env={}, on_pi=True) == (chosen, False)


def test_an_unknown_factory_is_an_error():
    with pytest.raises(BadPinFactory):
        load_factory("no-such-factory")
    assert isinstance(load_factory("mock"), MockFactory)
