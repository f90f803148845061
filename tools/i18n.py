#!/usr/bin/env python3
"""Keep the translations in step with the code: extract, merge, compile, check.

    python tools/i18n.py update   # extract every message, merge into each .po (new ones empty)
    python tools/i18n.py compile  # .po -> .mo (Flask-Babel reads the .mo)
    python tools/i18n.py check    # exit 1 if a message lacks a translation or a .mo is stale

Messages come from ``N_``/``_``/``gettext`` in Python, ``_()`` in the Jinja templates and
``t()`` in the phone scripts, so a rejection reason written in a rules engine is translated
exactly like a button label.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "web" / "translations"
LANGS = ("pt_BR", "zh_Hans")
# ``t`` is the phone scripts' keyword only: as a Python keyword it also caught the Werewolf
# rules' ``t["chosen"]`` (the night's dict) once Babel 2.19 read subscripts as calls, joined to
# the next docstring ('chosenThe little girl peeks...').
PY_KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}
JS_KEYWORDS = {**DEFAULT_KEYWORDS, "t": None}
METHODS = [
    (PY_KEYWORDS, [("companion/**.py", "python"), ("hardware/**.py", "python"),
                   ("web/**.py", "python"), ("vision/**.py", "python"),
                   ("web/templates/**.html", "jinja2")]),
    (JS_KEYWORDS, [("web/static/**.js", "javascript")]),
]


def extract() -> Catalog:
    catalog = Catalog(project="table-companion", charset="utf-8")
    for keywords, methods in METHODS:
        for filename, lineno, message, comments, _ctx in extract_from_dir(
            str(ROOT), methods, keywords=keywords, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        ):
            if isinstance(message, tuple):
                message = message[0]
            if message:
                catalog.add(message, None, [(filename, lineno)], auto_comments=comments)
    return catalog


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def load(lang: str) -> Catalog:
    path = po_path(lang)
    if path.exists():
        with path.open("rb") as fh:
            return read_po(fh, locale=lang)
    return Catalog(locale=lang)


def update() -> None:
    template = extract()
    for lang in LANGS:
        old = load(lang)
        new = Catalog(locale=lang, project="table-companion", charset="utf-8")
        for msg in template:
            if not msg.id:
                continue
            prev = old.get(msg.id)
            new.add(msg.id, prev.string if prev else "", msg.locations)
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:
            write_po(fh, new, width=100, omit_header=False, sort_output=False)
        missing = [m.id for m in new if m.id and not m.string]
        print(f"{lang}: {len(new) - 1} messages, {len(missing)} untranslated")


def mo_bytes(lang: str) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, load(lang), use_fuzzy=False)
    return buf.getvalue()


def mo_messages(data: bytes) -> dict:
    """A compiled catalog's messages, id -> text: what Flask-Babel reads. Compared instead
    of the bytes, which differ between Babel releases for the same messages (2.19 wrote
    every .mo anew), so a .mo is stale only when what it says is."""
    return {m.id: m.string for m in read_mo(io.BytesIO(data)) if m.id}


def compile_all() -> None:
    for lang in LANGS:
        (po_path(lang).with_suffix(".mo")).write_bytes(mo_bytes(lang))


def problems() -> list[str]:
    found = []
    wanted = {m.id for m in extract() if m.id}
    for lang in LANGS:
        cat = load(lang)
        have = {m.id: m.string for m in cat if m.id}
        for msgid in sorted(wanted):
            if not have.get(msgid):
                found.append(f"{lang}: untranslated: {msgid!r}")
        mo = po_path(lang).with_suffix(".mo")
        if not mo.exists() or mo_messages(mo.read_bytes()) != mo_messages(mo_bytes(lang)):
            found.append(f"{lang}: {mo.relative_to(ROOT)} is stale: run tools/i18n.py compile")
    return found


def main(argv: list[str]) -> int:
    cmd = argv[1] if len(argv) > 1 else "check"
    if cmd == "update":
        update()
    elif cmd == "compile":
        compile_all()
    elif cmd == "check":
        found = problems()
        print("\n".join(found) or "translations complete")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
