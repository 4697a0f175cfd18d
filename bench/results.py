"""Benchmark results: what bench/run.sh writes and bench/report.py reads.

A results directory holds
  results.csv  one row a measurement: part, case, variant, metric, value, unit
               (value empty: not measured; a missing row: the same)
  meta.json    the device, date, commit, size and command of the run, and per part
               its status ("ok", "failed: ...", "skipped: ..."), seconds and notes
  logs/        the programs' output, one file a run (bench/run.sh only)
"""

import csv
import json
import math
import os

FIELDS = ["part", "case", "variant", "metric", "value", "unit"]
# What meta.json says of a run, at the top and, where parts of several runs are kept, per part.
RUN_KEYS = ["device", "date", "commit", "size", "command"]


class Results:
    """Rows and metadata of one run, read from or written to a directory."""

    def __init__(self, rows=None, meta=None):
        self.rows = list(rows or [])
        self.meta = dict(meta or {})
        self.meta.setdefault("parts", {})

    # ---- writing -----------------------------------------------------------
    def add(self, part, case, variant, metric, value, unit=""):
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return
        self.rows.append({"part": part, "case": str(case), "variant": str(variant),
                          "metric": metric, "value": value, "unit": unit})

    def drop_parts(self, parts):
        """Forgets the rows and the status of these parts (a new run of them replaces them)."""
        self.rows = [r for r in self.rows if r["part"] not in parts]
        for p in parts:
            self.meta["parts"].pop(p, None)

    def part_status(self, part, status, seconds=None, notes=None, run=None):
        """A part's status; `run`: what to record of the run that made it (device, date, command...)."""
        entry = self.meta["parts"].setdefault(part, {})
        entry.update({k: v for k, v in (run or {}).items() if v is not None})
        entry["status"] = status
        if seconds is not None:
            entry["seconds"] = round(seconds, 1)
        if notes:
            entry["notes"] = notes

    def save(self, directory):
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "results.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            w.writeheader()
            for r in self.rows:
                w.writerow({k: fmt_value(r[k]) if k == "value" else r[k] for k in FIELDS})
        with open(os.path.join(directory, "meta.json"), "w") as f:
            json.dump(self.meta, f, indent=2, sort_keys=True)
            f.write("\n")

    # ---- reading -----------------------------------------------------------
    @staticmethod
    def load(directory):
        rows = []
        path = os.path.join(directory, "results.csv")
        if os.path.exists(path):
            with open(path, newline="") as f:
                for r in csv.DictReader(f):
                    r["value"] = parse_value(r["value"])
                    if r["value"] is not None:
                        rows.append(r)
        meta = {}
        mpath = os.path.join(directory, "meta.json")
        if os.path.exists(mpath):
            with open(mpath) as f:
                meta = json.load(f)
        return Results(rows, meta)

    def merge(self, other):
        """Takes other's parts, replacing this one's of the same name (a later run of them)."""
        parts = set(other.meta.get("parts", {})) | {r["part"] for r in other.rows}
        self.drop_parts(parts)
        for entry in self.meta["parts"].values():  # the parts kept keep the run they came from
            for k in RUN_KEYS:
                if k not in entry and self.meta.get(k) is not None:
                    entry[k] = self.meta[k]
        self.rows.extend(other.rows)
        for k, v in other.meta.items():
            if k != "parts":
                self.meta[k] = v
        self.meta["parts"].update(other.meta.get("parts", {}))

    def part(self, name):
        return [r for r in self.rows if r["part"] == name]

    def value(self, part, case, variant, metric):
        for r in self.rows:
            if (r["part"], r["case"], r["variant"], r["metric"]) == (part, case, variant, metric):
                return r["value"]
        return None

    def cases(self, part, metric=None):
        """The cases of a part in the order they were first recorded."""
        seen = []
        for r in self.rows:
            if r["part"] == part and (metric is None or r["metric"] == metric) and r["case"] not in seen:
                seen.append(r["case"])
        return seen

    def variants(self, part, metric):
        seen = []
        for r in self.rows:
            if r["part"] == part and r["metric"] == metric and r["variant"] not in seen:
                seen.append(r["variant"])
        return seen


def parse_value(text):
    if text is None or text == "":
        return None
    try:
        return float(text)
    except ValueError:
        return text


def fmt_value(v):
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return repr(v) if isinstance(v, float) else str(v)


def ratio(a, b):
    """a / b, or None when either is missing or b is not positive."""
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or b <= 0:
        return None
    return a / b
