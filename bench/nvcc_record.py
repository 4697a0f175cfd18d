#!/usr/bin/env python3
"""Runs nvcc ($NVCC_RECORD_REAL) and appends its command line and folder, one JSON line, to
$NVCC_RECORD_FILE: bench/realworld.py records a program's build here to replay it on the GPU machine."""
import json
import os
import sys

real = os.environ.get("NVCC_RECORD_REAL", "nvcc")
record = os.environ.get("NVCC_RECORD_FILE")
if record:
    with open(record, "a") as f:
        f.write(json.dumps({"cwd": os.getcwd(), "argv": [real] + sys.argv[1:]}) + "\n")
os.execvp(real, [real] + sys.argv[1:])
