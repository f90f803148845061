"""Speech backends, the narrator, and the three languages of the werewolf script."""

from __future__ import annotations

import io
import logging
import shutil
import subprocess
import tempfile
import wave
from types import SimpleNamespace

import pytest

from companion.games.werewolf import script
from companion.narration import (
    BrowserBackend,
    EspeakBackend,
    Narrator,
    SilentBackend,
    make_backend,
    soft_noise_wav,
)

HAVE_ESPEAK = shutil.which("espeak-ng") is not None


def _wav_seconds(data: bytes) -> float:
    with wave.open(io.BytesIO(data)) as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2
        return w.getnframes() / w.getframerate()


@pytest.mark.skipif(not HAVE_ESPEAK, reason="espeak-ng is not installed")
@pytest.mark.parametrize("lang", ["en", "pt_BR", "zh_Hans"])
def test_espeak_renders_a_real_wav_in_each_language(lang, tmp_path):
    backend = EspeakBackend(player=None, workdir=tmp_path)
    text = script.render("witch_wake", {}, lang)
    data = backend.render(text, lang)
    seconds = _wav_seconds(data)
    assert 1.0 < seconds < 15.0  # a real sentence, not silence or a stub
    assert len(data) == 44 + int(seconds * 22050) * 2 or len(data) > 10_000


@pytest.mark.skipif(not HAVE_ESPEAK, reason="espeak-ng is not installed")
def test_mandarin_uses_the_pinyin_voice_which_reads_hanzi():
    backend = EspeakBackend(player=None)
    assert backend.command("zh_Hans")[2] == "cmn-latn-pinyin"
    phonemes = subprocess.run(
        ["espeak-ng", "-q", "-x", "-v", "cmn-latn-pinyin", "天黑请闭眼"],
        capture_output=True,
        text=True,
        timeout=10,
    ).stdout
    assert "(en)" not in phonemes  # not spelled out as English letters, as "cmn" does


class FakeRunner:
    """Stands in for subprocess.run: espeak returns a tiny WAV, the player records."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, cmd, input=None, capture_output=False, timeout=None):
        self.calls.append(list(cmd))
        if "--stdout" in cmd:
            return SimpleNamespace(
                returncode=0, stdout=soft_noise_wav(0.05), stderr=b"", text=input.decode()
            )
        with open(cmd[-1], "rb") as fh:  # the player gets a real WAV file
            assert fh.read(4) == b"RIFF"
        return SimpleNamespace(returncode=0, stdout=b"", stderr=b"")


def test_lines_are_spoken_in_order_then_played(tmp_path):
    runner = FakeRunner()
    spoken = []
    backend = EspeakBackend(
        exe="espeak-ng", player="aplay", runner=runner, on_spoken=spoken.append, workdir=tmp_path
    )
    for i, lang in enumerate(["en", "pt_BR", "zh_Hans", "en"]):
        backend.say(f"line {i}", lang)
    backend.flush()
    backend.close()
    assert [s.text for s in spoken] == ["line 0", "line 1", "line 2", "line 3"]
    voices = [c[2] for c in runner.calls if "--stdout" in c]
    assert voices == ["en", "pt-br", "cmn-latn-pinyin", "en"]
    plays = [c for c in runner.calls if c[0] == "aplay"]
    assert len(plays) == 4 and plays[0][1] == "-q"
    for s in spoken:
        assert s.error is None and s.asked <= s.started <= s.rendered <= s.playing <= s.done


def test_own_scratch_folder_is_made_when_needed_and_removed_on_close(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    idle = EspeakBackend(exe="espeak-ng", player="aplay", runner=FakeRunner())
    idle.close()
    assert list(tmp_path.iterdir()) == []  # never spoke: no folder left behind
    backend = EspeakBackend(exe="espeak-ng", player="aplay", runner=FakeRunner())
    backend.say("hello", "en")
    backend.flush()
    (scratch,) = tmp_path.iterdir()
    assert scratch.name.startswith("narration-") and any(scratch.glob("line-*.wav"))
    backend.close()
    assert not scratch.exists()


def test_without_a_player_a_line_is_only_rendered(tmp_path):
    runner = FakeRunner()
    backend = EspeakBackend(exe="espeak-ng", player=None, runner=runner, workdir=tmp_path)
    line = backend.speak_now(
        __import__("companion.narration", fromlist=["Spoken"]).Spoken("hello", "en", 0.0)
    )
    assert line.playing == line.rendered and line.wav_bytes > 44
    assert all("--stdout" in c for c in runner.calls)


def test_a_failing_espeak_is_logged_not_raised(tmp_path, caplog):
    def broken(cmd, **kw):
        raise OSError("no such file")

    spoken = []
    backend = EspeakBackend(
        exe="espeak-ng", player=None, runner=broken, on_spoken=spoken.append, workdir=tmp_path
    )
    with caplog.at_level(logging.WARNING):
        backend.say("hello", "en")
        backend.flush()
    backend.close()
    assert spoken[0].error and "narration failed" in caplog.text


def test_backend_choice_like_pin_factories(caplog):
    assert isinstance(make_backend("silent"), SilentBackend)
    assert isinstance(make_backend("browser"), BrowserBackend)
    assert isinstance(make_backend("", which=lambda _: "/usr/bin/espeak-ng", player="aplay"),
                      EspeakBackend)
    assert isinstance(make_backend("espeak", which=lambda _: "/usr/bin/espeak-ng"), EspeakBackend)
    with caplog.at_level(logging.WARNING):
        fallback = make_backend("", which=lambda _: None)
    assert isinstance(fallback, BrowserBackend)
    assert "NARRATION FALLBACK" in caplog.text and "HOST PHONE" in caplog.text
    assert "sudo apt install espeak-ng" in caplog.text  # (here espeak-ng is what is missing)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert isinstance(make_backend("espeak", which=lambda _: None), BrowserBackend)
    assert "NARRATION FALLBACK" in caplog.text
    with pytest.raises(ValueError):
        make_backend("festival")


def test_browser_backend_publishes_for_the_host_phone():
    sent = []
    BrowserBackend(sent.append).say("Olá", "pt_BR", key="day_breaks")
    assert sent == [{"type": "speak", "text": "Olá", "lang": "pt-BR", "key": "day_breaks"}]


def test_narrator_speaks_public_lines_only_in_the_tables_language():
    backend = SilentBackend()
    shown = []
    narrator = Narrator(
        backend,
        "en",
        language_for={"t1": "zh_Hans"}.get,
        on_line=lambda tid, line: shown.append((tid, line["text"])) or lines.append(line),
    )
    lines: list = []
    update = SimpleNamespace(
        table_id="t1",
        events=[
            {"type": "narrate", "key": "seer_wake", "params": {}},
            {"type": "seer_result", "to": [3], "seat": 4, "role": "werewolf"},
            {"type": "narrate", "key": "seer_sleep", "params": {}, "to": [2]},  # never aloud
            {"type": "ambience", "sound": "night"},
        ],
    )
    narrator.handle(update)
    assert backend.lines == [(script.LINES["zh_Hans"]["seer_wake"], "zh_Hans")]
    assert shown == [("t1", script.LINES["zh_Hans"]["seer_wake"])]
    # the host's screen gets the line in every language too (a phone in another language
    # than the speaker's showed the speaker's)
    assert lines[0]["texts"] == {lang: script.LINES[lang]["seer_wake"]
                                 for lang in ("en", "pt_BR", "zh_Hans")}
    assert backend.sound == "night"
    narrator.handle(
        SimpleNamespace(
            table_id="t2",
            events=[
                {
                    "type": "narrate",
                    "key": "died_vote",
                    "params": {"name": "Ana", "seat": 0, "role": "werewolf"},
                }
            ],
        )
    )
    assert backend.lines[-1] == (
        "The village has spoken: Ana is eliminated. Ana was a werewolf.",
        "en",
    )


def test_narrator_hooks_to_the_table_service(service):
    from companion.games.base import HOST

    backend = SilentBackend()
    service.add_listener(Narrator(backend, "pt_BR").handle)
    live = service.create_table("werewolf", [f"p{i}" for i in range(8)], "1234", {}, seed=1)
    service.submit(live.id, {"type": "start"}, HOST)
    service.submit(live.id, {"type": "skip"}, HOST)
    texts = [t for t, _ in backend.lines]
    assert texts[0] == script.LINES["pt_BR"]["look_at_cards"]
    assert script.render("night_falls", {"night": 1}, "pt_BR") in texts
    assert script.LINES["pt_BR"]["seer_wake"] in texts


def test_soft_noise_is_a_quiet_wav():
    data = soft_noise_wav(1.0)
    assert abs(_wav_seconds(data) - 1.0) < 0.01


def test_background_sound_loops_a_soft_wav_and_stops(tmp_path):
    started = []

    class FakeProcess:
        def __init__(self, cmd):
            self.cmd, self.stopped = cmd, False
            started.append(self)

        def terminate(self):
            self.stopped = True

    backend = EspeakBackend(
        exe="espeak-ng", player="aplay", runner=FakeRunner(), workdir=tmp_path, popen=FakeProcess
    )
    backend.ambience("night")
    assert "aplay" in started[0].cmd[-1] and (tmp_path / "night.wav").exists()
    assert _wav_seconds((tmp_path / "night.wav").read_bytes()) > 1
    backend.ambience(None)
    assert started[0].stopped
    EspeakBackend(exe="espeak-ng", player=None, popen=FakeProcess).ambience("night")
    assert len(started) == 1  # no player, no sound


def test_espeak_without_a_player_warns_that_nobody_will_hear(caplog):
    with caplog.at_level(logging.WARNING):
        backend = make_backend("espeak", which=lambda _: "/usr/bin/espeak-ng", player=None)
    assert isinstance(backend, EspeakBackend) and "nobody will hear" in caplog.text


def test_left_to_choose_with_no_audio_player_the_host_phone_speaks(caplog):
    """espeak-ng installed but nothing to play its sound (a laptop or a Pi with no sound
    device): the table would sit through a silent night, so the host phone speaks."""
    with caplog.at_level(logging.WARNING):
        backend = make_backend("", which=lambda _: "/usr/bin/espeak-ng", player=None)
    assert isinstance(backend, BrowserBackend)
    assert "NARRATION FALLBACK" in caplog.text and "no audio player" in caplog.text
    # the advice names the missing piece (a player), not espeak-ng, which is installed
    assert "apt install alsa-utils" in caplog.text
    assert "apt install espeak-ng" not in caplog.text


@pytest.mark.parametrize("espeak,player", [(True, True), (True, False), (False, True)])
def test_doctor_says_the_backend_the_companion_takes(monkeypatch, espeak, player):
    """`companion doctor` names the voice the table will hear, as make_backend picks it."""
    from types import SimpleNamespace

    from companion import doctor

    found = {"espeak-ng": "/usr/bin/espeak-ng" if espeak else None,
             "aplay": "/usr/bin/aplay" if player else None}
    monkeypatch.setattr(doctor.shutil, "which", lambda name: found.get(name))
    report = doctor._check_speech(SimpleNamespace(speech=""))
    backend = make_backend("", which=found.get, player="aplay" if player else None)
    assert report["will_use"].startswith("espeak") == isinstance(backend, EspeakBackend)
    assert report["fallback"] == isinstance(backend, BrowserBackend)
