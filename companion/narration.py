"""The narrator's voice: the words of a game's ``narrate`` events, spoken at the table.

Backends are chosen the way gpiozero chooses pin factories: the config's ``speech`` names
one (``espeak``, ``browser``, ``silent``), or, left empty, the companion takes espeak-ng if
the binary and an audio player are there and otherwise falls back, loudly, to the host
phone's browser speech.

* :class:`EspeakBackend` renders each line with ``espeak-ng -v <voice> --stdout`` (voices
  ``en``, ``pt-br`` and ``cmn-latn-pinyin``: plain ``cmn`` reads Chinese as English letters
  on this espeak-ng build) and plays it with aplay/paplay/pw-play when one is installed; with
  no player (a machine without sound) a line is only rendered. Lines are spoken in order by
  one worker thread; the command runner is injectable for tests.
* :class:`BrowserBackend` publishes ``{"type": "speak", "text", "lang"}`` for the host's
  phone, which speaks it with the Web Speech API.
* :class:`SilentBackend` keeps the lines (tests, or a table that wants no voice).

:class:`Narrator` turns events into words (``companion.games.werewolf.script``) and hands
them to the backend; hook ``Narrator.handle`` to ``TableService.add_listener``. Only public
events are spoken: an event with a ``to`` (a secret for some phones) never is.
"""

from __future__ import annotations

import io
import logging
import math
import queue
import random
import shutil
import struct
import subprocess
import tempfile
import threading
import time
import wave
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from companion.games.werewolf import script

log = logging.getLogger(__name__)

VOICES = {"en": "en", "pt_BR": "pt-br", "zh_Hans": "cmn-latn-pinyin"}
BROWSER_LANGS = {"en": "en-US", "pt_BR": "pt-BR", "zh_Hans": "zh-CN"}
PLAYERS = ("aplay", "paplay", "pw-play")
Runner = Callable[..., Any]  # subprocess.run's signature
Publish = Callable[[dict[str, Any]], None]


@dataclass
class Spoken:
    """One line and its timings (``time.perf_counter`` seconds): asked for, taken from the
    queue, rendered, and playback started (equal to ``rendered`` when there is no player)."""

    text: str
    language: str
    asked: float
    started: float = 0.0
    rendered: float = 0.0
    playing: float = 0.0
    done: float = 0.0
    wav_bytes: int = 0
    error: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def latency(self) -> float:
        return self.playing - self.asked


class SpeechBackend(Protocol):
    name: str

    def say(self, text: str, language: str, **meta: Any) -> None: ...

    def ambience(self, sound: str | None) -> None: ...

    def close(self) -> None: ...


class SilentBackend:
    """Speaks nothing; keeps every line (for tests and quiet tables)."""

    name = "silent"

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []
        self.sound: str | None = None

    def say(self, text: str, language: str, **meta: Any) -> None:
        self.lines.append((text, language))

    def ambience(self, sound: str | None) -> None:
        self.sound = sound

    def close(self) -> None:
        pass


class BrowserBackend:
    """The host phone speaks: each line is published for it (speechSynthesis.speak)."""

    name = "browser"

    def __init__(self, publish: Publish | None = None) -> None:
        self.publish = publish or (lambda message: None)

    def say(self, text: str, language: str, **meta: Any) -> None:
        lang = script.language(language)
        self.publish({"type": "speak", "text": text, "lang": BROWSER_LANGS[lang], **meta})

    def ambience(self, sound: str | None) -> None:
        self.publish({"type": "ambience", "sound": sound})

    def close(self) -> None:
        pass


def fix_wav_sizes(data: bytes) -> bytes:
    """espeak-ng --stdout streams its WAV with placeholder sizes; write the real ones."""
    pos = data.find(b"data", 12)
    if pos < 0 or len(data) < pos + 8:
        return data
    out = bytearray(data)
    out[4:8] = struct.pack("<I", len(data) - 8)
    out[pos + 4 : pos + 8] = struct.pack("<I", len(data) - pos - 8)
    return bytes(out)


def soft_noise_wav(
    seconds: float = 8.0, rate: int = 16000, level: float = 0.04, seed: int = 7
) -> bytes:
    """A quiet, low 'night wind' (smoothed noise that fades in and out), as WAV bytes."""
    rng = random.Random(seed)
    n = int(seconds * rate)
    value = 0.0
    frames = bytearray()
    for i in range(n):
        value = 0.995 * value + 0.005 * rng.uniform(-1, 1) * 8
        fade = math.sin(math.pi * i / n)
        sample = max(-1.0, min(1.0, value * level * 8 * fade))
        frames += struct.pack("<h", int(sample * 32767))
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))
    return buf.getvalue()


class EspeakBackend:
    """espeak-ng at the table: render, then play (or only render, with no sound device)."""

    name = "espeak"

    def __init__(
        self,
        exe: str | None = None,
        player: str | bool | None = True,
        runner: Runner = subprocess.run,
        on_spoken: Callable[[Spoken], None] | None = None,
        clock: Callable[[], float] = time.perf_counter,
        workdir: str | Path | None = None,
        speed: int | None = None,
        popen: Callable[..., Any] = subprocess.Popen,
    ) -> None:
        self.exe = exe or shutil.which("espeak-ng") or "espeak-ng"
        if player is True:
            player = next((p for p in PLAYERS if shutil.which(p)), None)
        self.player: str | None = player or None
        self.runner = runner
        self.on_spoken = on_spoken
        self.clock = clock
        self.speed = speed
        self.popen = popen
        # Made on first use and removed by close(): a scratch folder per start, never
        # cleaned, piled up in /tmp (one per test, one per service restart).
        self._workdir = Path(workdir) if workdir else None
        self._scratch: Path | None = None
        self._queue: queue.Queue[Spoken | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._ambience: Any = None
        self._count = 0

    @property
    def _dir(self) -> Path:
        """Where the WAVs handed to the player go: the caller's folder, or our own."""
        if self._workdir is not None:
            return self._workdir
        with self._lock:
            if self._scratch is None:
                self._scratch = Path(tempfile.mkdtemp(prefix="narration-"))
            return self._scratch

    # -- rendering -------------------------------------------------------------------------
    def command(self, language: str) -> list[str]:
        voice = VOICES[script.language(language)]
        cmd = [self.exe, "-v", voice, "--stdout", "--stdin"]
        if self.speed:
            cmd[1:1] = ["-s", str(self.speed)]
        return cmd

    def render(self, text: str, language: str) -> bytes:
        """The line as WAV bytes (synchronous)."""
        done = self.runner(
            self.command(language), input=text.encode("utf-8"), capture_output=True, timeout=30
        )
        if getattr(done, "returncode", 0) != 0:
            raise RuntimeError(f"espeak-ng failed: {getattr(done, 'stderr', b'')[:200]!r}")
        data = done.stdout
        if not data.startswith(b"RIFF"):
            raise RuntimeError("espeak-ng gave no WAV")
        return fix_wav_sizes(data)

    # -- speaking in order -----------------------------------------------------------------
    def say(self, text: str, language: str, **meta: Any) -> None:
        self._start()
        self._queue.put(Spoken(text, script.language(language), self.clock(), meta=meta))

    def speak_now(self, line: Spoken) -> Spoken:
        """Render and play one line on this thread; fills in its timings."""
        line.started = self.clock()
        try:
            wav = self.render(line.text, line.language)
            line.rendered = self.clock()
            line.wav_bytes = len(wav)
            if self.player:
                folder = self._dir
                with self._lock:
                    self._count += 1
                    path = folder / f"line-{self._count % 4}.wav"
                path.write_bytes(wav)
                line.playing = self.clock()
                self.runner(
                    [self.player, *self._player_args(), str(path)], capture_output=True, timeout=120
                )
            else:
                line.playing = line.rendered
        except (OSError, RuntimeError, subprocess.SubprocessError) as exc:
            line.error = str(exc)[:200]
            line.playing = line.playing or self.clock()
            log.warning("narration failed: %s", line.error)
        line.done = self.clock()
        if self.on_spoken:
            self.on_spoken(line)
        return line

    def _player_args(self) -> list[str]:
        return ["-q"] if self.player == "aplay" else []

    def _start(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._work, name="narrator", daemon=True)
                self._thread.start()

    def _work(self) -> None:
        while True:
            line = self._queue.get()
            try:
                if line is None:
                    return
                self.speak_now(line)
            finally:
                self._queue.task_done()

    def flush(self) -> None:
        """Wait until every queued line has been spoken."""
        self._queue.join()

    def ambience(self, sound: str | None) -> None:
        """Soft night sounds on a loop while ``sound`` is set (only with a player)."""
        if self._ambience is not None:
            self._ambience.terminate()
            self._ambience = None
        if sound and self.player:
            path = self._dir / "night.wav"
            if not path.exists():
                path.write_bytes(soft_noise_wav())
            loop = f"while :; do {self.player} {' '.join(self._player_args())} '{path}'; done"
            self._ambience = self.popen(["sh", "-c", loop])

    def close(self) -> None:
        self.ambience(None)
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout=5)
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None


def make_backend(
    speech: str = "",
    publish: Publish | None = None,
    which: Callable[[str], str | None] = shutil.which,
    **espeak_args: Any,
) -> SpeechBackend:
    """The backend the config asks for; empty: espeak-ng if installed with an audio player to
    play it, else the browser."""
    choice = (speech or "").strip().lower()
    if choice in ("espeak", "espeak-ng"):
        exe = which("espeak-ng")
        if exe:
            return _espeak(exe, espeak_args)
        _warn_fallback("speech = espeak, but espeak-ng is not installed")
        return BrowserBackend(publish)
    if choice == "browser":
        return BrowserBackend(publish)
    if choice == "silent":
        return SilentBackend()
    if choice:
        raise ValueError(f"unknown speech backend {speech!r}: espeak, browser or silent")
    exe = which("espeak-ng")
    if not exe:
        _warn_fallback("espeak-ng is not installed")
        return BrowserBackend(publish)
    backend = EspeakBackend(exe=exe, **espeak_args)
    if backend.player is None:
        # (left to choose, a narration nobody hears is no choice: a laptop or a Pi with no
        # sound device keeps the game master's voice on the host phone)
        _warn_fallback(f"espeak-ng is installed but no audio player ({'/'.join(PLAYERS)}) "
                       "was found", fix=f"an audio player for the speaker ({', '.join(PLAYERS)}"
                       "): sudo apt install alsa-utils (it brings aplay)")
        return BrowserBackend(publish)
    return backend


def _espeak(exe: str, espeak_args: dict[str, Any]) -> EspeakBackend:
    backend = EspeakBackend(exe=exe, **espeak_args)
    if backend.player is None:
        log.warning(
            "espeak-ng is installed but no audio player (%s) was found: narration is rendered "
            "but nobody will hear it. Install alsa-utils, or set speech = browser.",
            "/".join(PLAYERS),
        )
    return backend


def _warn_fallback(why: str,
                   fix: str = "espeak-ng for the speaker: sudo apt install espeak-ng") -> None:
    """The loud start-up line for a narration the speaker will not play. ``fix`` is what
    to install: the piece that is actually missing (espeak-ng, or a player for its sound),
    so the advice never asks for what is already there."""
    log.warning(
        "\n%s\n!!! NARRATION FALLBACK: %s.\n!!! The table's speaker stays silent; the HOST "
        "PHONE will speak the narration\n!!! (keep it at the table, volume up). Install "
        "%s\n%s",
        "!" * 72,
        why,
        fix,
        "!" * 72,
    )


class Narrator:
    """Speaks the public ``narrate`` events of every table it hears.

    ``language_for(table_id)`` may give a table's own language (e.g. the werewolf option
    ``language``); ``on_line(table_id, line)`` receives ``{"type": "narration", "key",
    "text", "lang", "texts"}`` for the host's screen (``texts``: the line in each of our
    languages, for a phone in another language than the speaker's).
    """

    def __init__(
        self,
        backend: SpeechBackend,
        language: str = "en",
        language_for: Callable[[str], str | None] | None = None,
        on_line: Callable[[str | None, dict[str, Any]], None] | None = None,
    ) -> None:
        self.backend = backend
        self.language = script.language(language)
        self.language_for = language_for
        self.on_line = on_line

    def _lang(self, table_id: str | None) -> str:
        if table_id is not None and self.language_for is not None:
            try:
                chosen = self.language_for(table_id)
            except Exception:  # an unknown table: the default language
                chosen = None
            if chosen:
                return script.language(chosen)
        return self.language

    def say(
        self, key: str, params: dict[str, Any] | None = None, table_id: str | None = None
    ) -> str:
        lang = self._lang(table_id)
        text = script.render(key, params, lang)
        if not text:
            return ""
        self.backend.say(text, lang, key=key, table_id=table_id)
        if self.on_line:
            # (and in every language: the host's phone shows the line in its own, where the
            # speaker says it in the table's)
            texts = {other: script.render(key, params, other) for other in script.LANGUAGES}
            self.on_line(table_id, {"type": "narration", "key": key, "text": text, "lang": lang,
                                    "texts": texts})
        return text

    def handle(self, update: Any) -> None:
        """A TableService listener: speak the update's public narration, in order."""
        table_id = getattr(update, "table_id", None)
        for event in getattr(update, "events", []) or []:
            if not isinstance(event, dict) or "to" in event:
                continue  # a secret for some phones is never spoken aloud
            if event.get("type") == "narrate" and isinstance(event.get("key"), str):
                params = event.get("params")
                said = self.say(event["key"], params if isinstance(params, dict) else {},
                                table_id)
                if not said and isinstance(event.get("texts"), dict):
                    # (a game that words its own lines in each language: Huang Di)
                    self.say_texts(event["texts"], table_id, key=event["key"])
            elif event.get("type") == "ambience":
                self.backend.ambience(event.get("sound"))
            elif event.get("type") == "refused" and isinstance(event.get("speak"), dict):
                self.say_texts(event["speak"], table_id, key="refused")

    def say_texts(self, texts: dict[str, Any], table_id: str | None = None,
                  key: str = "line") -> str:
        """Say a line a game wrote in each language itself (``{language: sentence}``: Huang
        Di's wrong play, see :func:`refusal_speech`), as :meth:`say` says a script's."""
        lang = self._lang(table_id)
        text = texts.get(lang) or texts.get("en")
        if not isinstance(text, str) or not text:
            return ""
        self.backend.say(text, lang, key=key, table_id=table_id)
        if self.on_line:
            self.on_line(table_id, {"type": "narration", "key": key, "text": text, "lang": lang,
                                    "texts": {k: v for k, v in texts.items()
                                              if k in script.LANGUAGES and isinstance(v, str)}})
        return text


def refusal_speech(game: Any, state: Any, rejection: Any, seat: int | None) -> dict[str, Any]:
    """``{"speak": {language: sentence}}`` for a refused move the game wants said aloud at
    the table (its ``speak_refusal(state, code, params, seat)``: a wrong card on a Huang Di
    wall), to go into the ``refused`` event the table hears; ``{}`` for any other."""
    hook = getattr(game, "speak_refusal", None)
    if hook is None:
        return {}
    try:
        texts = hook(state, rejection.code, dict(rejection.params), seat)
    except Exception:  # (a game's words must never stop the refusal being announced)
        log.exception("speak_refusal failed")
        return {}
    return {"speak": texts} if isinstance(texts, dict) and texts else {}
