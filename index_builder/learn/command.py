"""`index-builder learn`: relearn the ranker from the usage database, guard it, install it.

    index-builder learn [--index var/index] [--propensity auto|swaps|assumed|none]
                        [--event-share 0.25] [--dry-run]

Writes the candidate under ``<learned>/versions/<version>/`` (model, ranker.json, guard.json);
when the guard passes, ``<learned>/current`` points at it. Serve it with
``PRECEDENT_RANKER=<learned>/current``: running servers pick each new one up at their next
index check, no restart (retrieve/live.py); /health and every audit line name its version.
Exit status 0 installed, 3 refused by the guard.
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from index_builder.errors import ConfigError, DataNotFoundError
from index_builder.retrieve.ltr_fit import RankerConfig
from index_builder.learn.guard import CrossFit, guard
from index_builder.learn.relearn import (EVENT_SHARE, ROWS_FILE, click_groups,
                                         estimate_propensities, fit, held_out, load_rows)
from index_builder.learn.store import UsageStore
from index_builder.retrieve.ltr import BUILTIN, META_FILE, MODEL_FILE, ranker_folder, save_ranker
from index_builder.settings import Settings

log = logging.getLogger(__name__)
REFUSED = 3


@dataclass
class GuardReport:
    """What `learn` prints and saves as guard.json: both figures, the paired differences and
    their bootstrap bounds (``comparisons``), the verdict and what it was learned from."""

    current: dict[str, float]
    candidate: dict[str, float]
    tolerance: float
    installed: bool
    reason: str
    events: dict[str, int]
    propensities: dict[str, Any]
    comparisons: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def learned_root(settings: Settings) -> Path:
    return settings.learning.learned_ranker or Path(settings.index_dir).resolve().parent / "learned-ranker"


def current_ranker(settings: Settings) -> tuple[Any, dict[str, Any], Path]:
    """The serving ranker's booster, metadata and folder (the shipped one when RRF is set)."""
    import lightgbm

    folder = ranker_folder(settings.retrieval.ranker) or BUILTIN
    if not (folder / MODEL_FILE).is_file():
        raise DataNotFoundError(f"No ranker at {folder} to compare against (PRECEDENT_RANKER).")
    meta = json.loads((folder / META_FILE).read_text())
    return lightgbm.Booster(model_file=str(folder / MODEL_FILE)), meta, folder


def config_of(meta: dict[str, Any]) -> RankerConfig:
    """The current ranker's training settings, so only the data changes."""
    fields = dict(meta.get("config", {}))
    for name in ("forms", "splits", "label_gain"):
        if name in fields:
            fields[name] = tuple(fields[name])
    fields["form_weights"] = tuple(tuple(x) for x in fields.get("form_weights", ()))
    return RankerConfig(**fields)


def run_learn(settings: Settings, propensity: str = "auto", event_share: float | None = EVENT_SHARE,
              dry_run: bool = False, rows_path: Path | None = None) -> tuple[GuardReport, Path | None]:
    # Read the module's ROWS_FILE at call time (a default argument would freeze it at import).
    rows_path = rows_path if rows_path is not None else ROWS_FILE
    store = UsageStore.open(settings)
    try:
        lists = list(store.training_lists())
    finally:
        store.close()
    if not lists:
        raise DataNotFoundError("No usage events yet: nothing to learn from. Lawyers' Insert, "
                                "Copy and 'not relevant' clicks are recorded as they search.")
    props = estimate_propensities(lists, propensity)
    train = click_groups([x for x in lists if not held_out(x["list_id"])], props)
    held = click_groups([x for x in lists if held_out(x["list_id"])], props)
    if not train:
        raise DataNotFoundError("The usage events name no result with a feature row to learn from.")
    if not rows_path.is_file():
        raise ConfigError(f"The shipped training rows {rows_path} are missing; regenerate them with "
                          f"`precedent-bench ltr rows --out {rows_path}`.")
    rows = load_rows(rows_path)
    current, meta, folder = current_ranker(settings)
    config = config_of(meta)
    started = time.perf_counter()
    candidate = fit(rows.groups, train, config, event_share)
    # The judged rows train both recipes, so they are compared cross-fitted (guard.py); the
    # held-out events compare the serving ranker with the candidate itself.
    verdict = guard(current, candidate, settings.learning.guard_tolerance,
                    crossfit=CrossFit(rows.groups, train, config, event_share), held=held)
    cur, new = verdict.figures()
    version = time.strftime("learn-%Y%m%dT%H%M%SZ", time.gmtime())
    report = GuardReport(cur, new, settings.learning.guard_tolerance,
                         verdict.installed and not dry_run,
                         verdict.reason if not dry_run else f"Dry run. {verdict.reason}",
                         {"lists": len(lists), "train_groups": len(train), "heldout_groups": len(held)},
                         {"source": props.source, "values": [round(v, 3) for v in props.values],
                          "swapped_lists": props.swaps},
                         {"acord_judged": asdict(verdict.judged), "heldout_events": asdict(verdict.events)})
    log.info("learn %s: %s (%.0f s)", version, report.reason, time.perf_counter() - started)
    if dry_run:
        return report, None
    out = learned_root(settings) / "versions" / version
    save_ranker(candidate, out, {**{k: v for k, v in meta.items() if k not in ("features", "format")},
                                 "version": version, "base": meta.get("version", str(folder)),
                                 "config": asdict(replace(config)), "event_share": event_share,
                                 "guard": report.to_dict(),
                                 "command": f"index-builder learn --propensity {propensity} "
                                            f"--event-share {event_share}"})
    (out / "guard.json").write_text(json.dumps(report.to_dict(), indent=2) + "\n")
    if report.installed:
        _point(learned_root(settings) / "current", out)
    return report, out


def _point(link: Path, target: Path) -> None:
    """Switch ``link`` to ``target`` atomically (a new symlink renamed over the old)."""
    tmp = link.with_name(f".current-{os.getpid()}")
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    tmp.symlink_to(target.resolve(), target_is_directory=True)
    os.replace(tmp, link)
