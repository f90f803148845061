"""The rules engines stay pure: no I/O layer may be imported anywhere under companion/games."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.games

FORBIDDEN = {"flask", "cv2", "gpiozero", "picamera2", "web", "vision", "hardware", "sqlite3",
             "socket", "subprocess", "requests", "urllib", "http", "threading", "time",
             "numpy", "waitress", "segno"}
FORBIDDEN_CALLS = {"open", "print", "input"}


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module.split(".")[0]))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
            node.func.id in FORBIDDEN_CALLS
        ):
            found.append((node.lineno, node.func.id + "()"))
    return found


def test_games_import_no_io_layers():
    root = Path(companion.games.__file__).parent
    files = sorted(root.rglob("*.py"))
    assert len(files) >= 4
    bad = [f"{p.relative_to(root)}:{line} {name}" for p in files for line, name in _imports(p)
           if name.rstrip("()") in FORBIDDEN or name in {f + "()" for f in FORBIDDEN_CALLS}]
    assert bad == [], "rules must be pure functions: " + ", ".join(bad)


def test_checker_catches_a_forbidden_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import cv2\nfrom flask import Flask\nopen('x')\n")
    names = [n for _, n in _imports(bad)]
    assert names == ["cv2", "flask", "open()"]
