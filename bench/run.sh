#!/bin/sh
# Every benchmark of irregfix in one command: builds what the parts need, runs
# them, and writes results.csv, meta.json, tables.md and logs/ under --out.
#   bench/run.sh --parts all [--size quick|full] [--out DIR]     (bench/run.sh --help: the parts)
# Plots and the tables of bench/RESULTS.md come from the results: bench/report.py.
exec python3 "$(dirname "$0")/driver.py" "$@"
