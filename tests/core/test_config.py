"""companion.config checks every value as it loads it: a bad setting stops the program at
once, in one line naming where it came from, the key, the value and what it may be (it was a
traceback, or a crash after "ready", or silently ignored)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import LANGUAGES, Config, ConfigError, load_config

NO_FILE = {"COMPANION_CONFIG": "/nonexistent/companion.toml"}  # (the default path: may be absent)


def _toml(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(("key", "text", "said"), [
    ("COMPANION_SPEECH", "loud", "COMPANION_SPEECH: speech = 'loud' (expected one of "
                                 "espeak, browser, silent, or empty for auto)"),
    ("COMPANION_PORT", "abc", "COMPANION_PORT: port = 'abc' (expected an integer from 1 to"),
    ("COMPANION_PORT", "70000", "port = 70000 (expected an integer from 1 to 65535)"),
    ("COMPANION_CAMERA", "webcam", "camera = 'webcam' (expected one of picamera2, opencv:"),
    ("COMPANION_LANGUAGE", "fr", "language = 'fr' (expected one of en, pt_BR, zh_Hans)"),
    ("COMPANION_BUTTON_PINS", "4,x", "button_pins = '4,x' (expected a list of integers"),
    ("COMPANION_BUZZER_PIN", "twelve", "buzzer_pin = 'twelve' (expected a pin number"),
    ("COMPANION_THREADS", "0", "threads = 0 (expected an integer of 1 or more)"),
])
def test_a_bad_environment_value_names_the_variable_the_value_and_the_choices(key, text, said):
    with pytest.raises(ConfigError) as err:
        load_config(env={**NO_FILE, key: text})
    assert said in str(err.value)
    assert "\n" not in str(err.value)


def test_good_environment_values_load_as_their_types():
    cfg = load_config(env={**NO_FILE, "COMPANION_PORT": "9000", "COMPANION_SPEECH": "Espeak-NG",
                           "COMPANION_CAMERA": "opencv:/dev/video0", "COMPANION_LANGUAGE": "pt-BR",
                           "COMPANION_BUTTON_PINS": "4, 17", "COMPANION_BUZZER_PIN": ""})
    assert (cfg.port, cfg.speech, cfg.camera) == (9000, "Espeak-NG", "opencv:/dev/video0")
    assert (cfg.button_pins, cfg.buzzer_pin, cfg.language) == ([4, 17], None, "pt-BR")


@pytest.mark.parametrize(("text", "said"), [
    ('port = "80x"\n', "port = '80x' (expected an integer from 1 to 65535)"),
    ('[speech]\nspeech = "loud"\n', "speech = 'loud' (expected one of espeak"),
    ("[server]\nthreads = true\n", "threads = True (expected an integer of 1 or more)"),
    ('[gpio]\nbutton_pins = [4, "x"]\n', "expected a list of integers"),
    ('port = "80\n', "not valid TOML"),
])
def test_a_bad_file_is_refused_with_its_path(tmp_path, text, said):
    path = _toml(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_config(path=path, env={})
    assert str(err.value).startswith(f"{path}: ") and said in str(err.value)


def test_every_bad_value_is_said_at_once_and_the_command_line_is_checked_too(tmp_path):
    path = _toml(tmp_path, 'speech = "loud"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path=path, env={"COMPANION_CAMERA": "webcam"}, port=0)
    said = str(err.value)
    assert "speech = 'loud'" in said and "COMPANION_CAMERA: camera" in said
    assert "the command line: port = 0" in said


def test_a_config_file_given_explicitly_must_exist(tmp_path):
    """``--config /nonexistent.toml`` was silently ignored: the table ran on defaults."""
    with pytest.raises(ConfigError, match="no config file at"):
        load_config(path=tmp_path / "missing.toml", env={})


def test_the_default_config_file_may_be_missing(tmp_path):
    """A laptop has no /etc/companion (the systemd unit names the default path too)."""
    cfg = load_config(env={"COMPANION_CONFIG": str(tmp_path / "missing.toml")})
    assert cfg == Config()


def test_the_languages_are_the_narrators():
    from companion.games.werewolf import script

    assert LANGUAGES == script.LANGUAGES
