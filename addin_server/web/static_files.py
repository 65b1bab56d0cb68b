"""Serves the add-in's task pane files from addin_server/static/ at the site root.

File names carry no content hash, so pages and scripts are revalidated on every load
(``no-cache`` with an ETag: an unchanged file costs a 304) and a deployed fix reaches
every lawyer at once; images change rarely and are cached for a day.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, redirect, send_from_directory

PACKAGE_DIR = Path(__file__).resolve().parent.parent

STATIC_DIR = PACKAGE_DIR / "static"
TASKPANE_PAGE = "taskpane/taskpane.html"
_REVALIDATE = {".html", ".js", ".mjs", ".css", ".json", ".map", ".xml"}
IMAGE_MAX_AGE_S = 86_400

bp = Blueprint("static_files", __name__)


def static_dir() -> Path:
    return Path(current_app.config.get("PRECEDENT_STATIC_DIR", STATIC_DIR))


@bp.get("/")
def index() -> Any:
    return redirect(f"/{TASKPANE_PAGE}", code=302)


@bp.get("/<path:filename>")
def static_file(filename: str) -> Any:
    # send_from_directory refuses paths outside the folder (404), so no traversal.
    response = send_from_directory(static_dir(), filename, conditional=True)
    if Path(filename).suffix.lower() in _REVALIDATE:
        response.cache_control.no_cache = True
        response.cache_control.max_age = None
        response.cache_control.public = False
    else:
        response.cache_control.public = True
        response.cache_control.max_age = IMAGE_MAX_AGE_S
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
