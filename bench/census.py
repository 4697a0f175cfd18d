#!/usr/bin/env python3
"""The tool over every CUDA file of whole public suites, as a user putting irregfix in front of
their builds would meet it.

For each program folder of a suite (e.g. HeCBench's src/*-cuda), the compile commands its
Makefile would run (`make -n -B`) give each .cu file its flags (-I, -D, -U, -isystem, -std,
-include); a .cu file no command compiles (one another file includes) gets the program's flags.
Each file is then read by the tool (a rewrite to a scratch file, with --report=json) and by
`clang++ -fsyntax-only` with the flags the tool's parse adds: exit codes, crashes, hangs, the
indirect reads by verdict and reason, and the tool's time against the parse's. A file the tool
rejects is compiled by nvcc with the same flags, so that each failure has nvcc's verdict beside it.

  bench/census.py --suite corpus/HeCBench/src --glob '*-cuda' --tool build/tool/irregfix --out census-out

Writes files.csv (one row a file), reasons.csv, summary.json and summary.md under --out.
"""

import argparse
import collections
import concurrent.futures
import csv
import fnmatch
import glob
import json
import os
import random
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# nvcc flags that carry over to Clang, with their argument (one word, or joined).
CARRIED_WITH_ARG = {"-I", "-D", "-U", "-isystem", "-include", "--include-path", "--define-macro",
                    "--undefine-macro", "--pre-include", "--system-include"}
CARRIED_SPELLING = {"--include-path": "-I", "--define-macro": "-D", "--undefine-macro": "-U",
                    "--pre-include": "-include", "--system-include": "-isystem"}
CUDA_SOURCE = re.compile(r".*\.cu$")


def nvcc_to_clang(words):
    """The flags of an nvcc command line that mean the same to Clang (paths stay as written)."""
    out = []
    i = 0
    while i < len(words):
        w = words[i]
        name, eq, val = w.partition("=")
        if w in CARRIED_WITH_ARG and i + 1 < len(words):
            out += [CARRIED_SPELLING.get(w, w), words[i + 1]]
            i += 2
            continue
        if eq and name in CARRIED_WITH_ARG:
            out += [CARRIED_SPELLING.get(name, name), val]
        elif w[:2] in ("-I", "-D", "-U") and len(w) > 2:
            out.append(w)
        elif w.startswith("-std="):
            out.append(w)
        elif w == "-std" and i + 1 < len(words):
            out.append("-std=" + words[i + 1])
            i += 1
        i += 1
    return out


def make_commands(prog, timeout):
    """(file, nvcc words) for each command of `make -n -B` in prog that names a .cu file."""
    try:
        p = subprocess.run(["make", "-n", "-B"], cwd=prog, capture_output=True, text=True, timeout=timeout)
    except (subprocess.TimeoutExpired, OSError):
        return []
    found = []
    for line in p.stdout.splitlines():
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        if not words or not os.path.basename(words[0]).startswith("nvcc"):
            continue
        for w in words[1:]:
            if CUDA_SOURCE.match(w) and os.path.exists(os.path.join(prog, w)):
                found.append((os.path.normpath(w), words))
    return found


def program_files(prog, timeout):
    """Every .cu file below prog with the nvcc command that compiles it (or the program's first)."""
    commands = make_commands(prog, timeout)
    by_file = {}
    for f, words in commands:
        by_file.setdefault(f, words)
    default = commands[0][1] if commands else ["nvcc", "-std=c++17"]
    files = []
    for base, _dirs, names in os.walk(prog):
        for n in sorted(names):
            if n.endswith(".cu"):
                rel = os.path.normpath(os.path.relpath(os.path.join(base, n), prog))
                words = by_file.get(rel)
                files.append((rel, words or default, words is not None))
    return sorted(files)


def cuda_version_flags(cuda):
    """nvcc's version macros for the toolkit at cuda, as the tool predefines them (Frontend/CudaVersion.cpp)."""
    try:
        with open(os.path.join(cuda, "include", "cuda.h")) as f:
            m = re.search(r"#define CUDA_VERSION\s+(\d+)", f.read())
    except OSError:
        m = None
    if not m:
        return []
    v = int(m.group(1))
    build = 0
    try:
        with open(os.path.join(cuda, "version.json")) as f:
            build = int(json.load(f)["cuda_nvcc"]["version"].split(".")[2])
    except (OSError, KeyError, ValueError, IndexError):
        for n in os.listdir(os.path.join(cuda, "dist-info")) if os.path.isdir(os.path.join(cuda, "dist-info")) else []:
            m = re.match(r"nvidia_cuda_nvcc-\d+\.\d+\.(\d+)\.dist-info$", n)
            if m:
                build = int(m.group(1))
    return ["-D__CUDACC_VER_MAJOR__=%d" % (v // 1000), "-D__CUDACC_VER_MINOR__=%d" % (v % 1000 // 10),
            "-D__CUDACC_VER_BUILD__=%d" % build]


def host_openmp_dir():
    """The newest GCC's internal include directory with omp.h (Frontend/CudaArguments.cpp)."""
    best = None
    for root in ("/usr/lib/gcc", "/usr/lib64/gcc", "/usr/local/lib/gcc"):
        for d in glob.glob(os.path.join(root, "*", "*", "include", "omp.h")):
            ver = os.path.basename(os.path.dirname(os.path.dirname(d)))
            major = int(re.match(r"\d*", ver).group(0) or 0)
            if best is None or major > best[0]:
                best = (major, os.path.dirname(d))
    return best[1] if best else None


def parse_flags(cuda, gpu_arch):
    """What the tool's argument adjuster adds to a file's own flags (lib/Frontend/CudaArguments.cpp)."""
    headers = os.path.join(ROOT, "lib", "Headers")
    flags = ["-x", "cuda", "--cuda-host-only", "--cuda-path=" + cuda, "--cuda-gpu-arch=" + gpu_arch,
             "-Wno-unknown-cuda-version", "-isystem", headers, "-include",
             os.path.join(headers, "irregfix_host_minmax.h"), "-isystem", os.path.join(cuda, "include", "cccl"),
             "-fsyntax-only"]
    # nvcc's dialect (nvccDialectFlags).
    flags += cuda_version_flags(cuda) + ["-Wno-register"]
    omp = host_openmp_dir()
    if omp:
        flags += ["-idirafter", omp]
    return flags + ["-include", os.path.join(headers, "irregfix_nvcc_dialect.h")]


TIME = "/usr/bin/time"


def timed(cmd, cwd, timeout):
    """(exit code or "timeout", wall seconds, stdout, stderr)."""
    rc, secs, _cpu, out, err = timed_cpu(cmd, cwd, timeout)
    return rc, secs, out, err


def timed_cpu(cmd, cwd, timeout):
    """As timed, with the command's CPU seconds (user + system, by /usr/bin/time; None without it): on a
    loaded machine the wall time says more about the load than about the command."""
    t0 = time.perf_counter()
    cpu_file = None
    if os.access(TIME, os.X_OK):
        fd, cpu_file = tempfile.mkstemp(suffix=".cpu")
        os.close(fd)
        cmd = [TIME, "-f", "%U %S", "-o", cpu_file] + cmd
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, errors="replace")
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = "timeout", "", ""
    secs = time.perf_counter() - t0
    cpu = None
    if cpu_file:
        try:
            with open(cpu_file) as f:
                words = f.read().split()
            cpu = float(words[-2]) + float(words[-1])
        except (OSError, ValueError, IndexError):
            pass
        os.remove(cpu_file)
    return rc, secs, cpu, out, err


# A quoted name: a quote that does not end a word ("the thread's" is no quote) to the next quote.
QUOTED = re.compile(r"(?<!\w)'[^']*'")


def reason_class(reason):
    """A refusal reason with the names in it taken out, so that reasons count by kind."""
    return QUOTED.sub("'X'", reason).strip()


LEFT_AS_IS = re.compile(r"remark: kernel '[^']*' left as it is")
DIAGNOSTIC = re.compile(r":\d+:\d+: (?:fatal )?error: (.*)")


def first_error(stderr):
    """The first compiler error (located), else the first error line, else the first line."""
    lines = stderr.splitlines()
    for line in lines:
        m = DIAGNOSTIC.search(line)
        if m:
            return m.group(1).strip()[:200]
    for line in lines:
        if "error" in line:
            return line.strip()[:200]
    return lines[0].strip()[:200] if lines else ""


def census_file(args, prog, rel, words):
    name = os.path.basename(prog)
    flags = nvcc_to_clang(words[1:])
    row = {"program": name, "file": rel, "flags": " ".join(flags)}
    scratch = os.path.join(args.out, "scratch", name + "__" + rel.replace("/", "_") + ".irregfix.cu")
    # Not --quiet: a kernel left as it is (its analysis past its budget) says so in a remark.
    tool_cmd = [args.tool, "--report=json", rel, "-o", scratch, "--"] + flags
    rc, secs, cpu, out, err = timed_cpu(tool_cmd, prog, args.timeout)
    row["tool_rc"] = rc
    row["tool_s"] = round(secs, 3)
    row["tool_cpu_s"] = cpu
    row["crash"] = isinstance(rc, int) and (rc < 0 or rc >= 128)
    row["hang"] = rc == "timeout"
    row["error"] = first_error(err) if rc != 0 else ""
    reads = []
    if rc == 0:
        try:
            reads = json.loads(out) if out.strip() else []
        except json.JSONDecodeError:
            row["error"] = "report is not JSON"
    row["reads"] = reads
    row["left_as_is"] = len(LEFT_AS_IS.findall(err))
    prc, psecs, pcpu, _pout, perr = timed_cpu([args.clang] + parse_flags(args.cuda, args.gpu_arch) + flags + [rel],
                                              prog, args.timeout)
    row["parse_rc"] = prc
    row["parse_s"] = round(psecs, 3)
    row["parse_cpu_s"] = pcpu
    row["parse_error"] = first_error(perr) if prc != 0 else ""
    row["nvcc_rc"] = ""
    if rc != 0 and args.nvcc:
        nrc, _s, _o, nerr = timed([args.nvcc, "-c", "-arch=" + args.gpu_arch] + flags + [rel, "-o", os.devnull],
                                  prog, args.timeout)
        row["nvcc_rc"] = nrc
        row["nvcc_error"] = first_error(nerr) if nrc != 0 else ""
    try:
        os.remove(scratch)
    except OSError:
        pass
    return row


def percentile(values, q):
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


RATIO_BINS = [0.9, 1.1, 1.3, 1.5, 2.0, 3.0]


def histogram(ratios):
    """[(label, count)] of the tool/parse ratios over RATIO_BINS."""
    edges = [0.0] + RATIO_BINS + [float("inf")]
    out = []
    for lo, hi in zip(edges, edges[1:]):
        label = ("< %.1fx" % hi if lo == 0 else ">= %.1fx" % lo if hi == float("inf") else
                 "%.1f-%.1fx" % (lo, hi))
        out.append((label, sum(1 for r in ratios if lo <= r < hi)))
    return out


def ratio(r):
    """The tool's time over the parse's: CPU seconds where both were measured, else wall seconds."""
    if r.get("tool_cpu_s") and r.get("parse_cpu_s"):
        return r["tool_cpu_s"] / r["parse_cpu_s"]
    return r["tool_s"] / max(r["parse_s"], 1e-3)


def summarise(rows):
    files = len(rows)
    programs = len({r["program"] for r in rows})
    tool_ok = [r for r in rows if r["tool_rc"] == 0]
    failures = [r for r in rows if r["tool_rc"] != 0]
    nvcc_ok_failures = [r for r in failures if r.get("nvcc_rc") == 0]
    nvcc_compiles = files - len([r for r in failures if r.get("nvcc_rc") not in (0, "")])
    verdicts = collections.Counter()
    reasons = collections.Counter()
    for r in tool_ok:
        for read in r["reads"]:
            verdicts[read.get("verdict", "?")] += 1
            if read.get("verdict", "").startswith("not"):
                reasons[reason_class(read.get("reason", ""))] += 1
    # Time against the parse, for files both read, whose parse took long enough to time; CPU time where
    # both have it (the wall time of a loaded machine varies with the load), else wall time.
    ratios = [ratio(r) for r in tool_ok if r["parse_rc"] == 0 and r["parse_s"] > 0.05]
    on_cpu = sum(1 for r in tool_ok if r["parse_rc"] == 0 and r["parse_s"] > 0.05 and r.get("tool_cpu_s")
                 and r.get("parse_cpu_s"))
    slowest = sorted(tool_ok, key=ratio, reverse=True)[:5]
    return {
        "programs": programs, "files": files, "read": len(tool_ok), "rejected": len(failures),
        "crashes": sum(1 for r in rows if r["crash"]), "hangs": sum(1 for r in rows if r["hang"]),
        "kernels_left_as_is": sum(r.get("left_as_is", 0) for r in rows),
        "ratio_histogram": histogram(ratios),
        "nvcc_compiles": nvcc_compiles, "rejected_but_nvcc_compiles": len(nvcc_ok_failures),
        "read_share_of_nvcc_compiled": (len(tool_ok) / nvcc_compiles) if nvcc_compiles else float("nan"),
        "verdicts": dict(verdicts), "refusals": dict(reasons.most_common()),
        "ratios_on_cpu_time": on_cpu, "ratios": len(ratios),
        "ratio_median": statistics.median(ratios) if ratios else float("nan"),
        "ratio_p95": percentile(ratios, 0.95), "ratio_max": max(ratios) if ratios else float("nan"),
        "slowest": [{"file": r["program"] + "/" + r["file"], "tool_s": r["tool_s"], "parse_s": r["parse_s"],
                     "tool_cpu_s": r.get("tool_cpu_s"), "parse_cpu_s": r.get("parse_cpu_s"),
                     "ratio": round(ratio(r), 2)} for r in slowest],
        "errors": collections.Counter(
            (r["error"] or "?") + ("  [nvcc: ok]" if r.get("nvcc_rc") == 0 else
                                   "  [nvcc: fails too]" if r.get("nvcc_rc") not in ("", None) else "")
            for r in failures).most_common(),
    }


def markdown(s):
    lines = ["| files | programs | read by the tool | rejected (nvcc compiles) | crashes | hangs | "
             "tool / parse: median | p95 | max |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
             "| %d | %d | %d (%.1f%% of %d nvcc compiles) | %d (%d) | %d | %d | %.2fx | %.2fx | %.2fx |" % (
                 s["files"], s["programs"], s["read"], 100 * s["read_share_of_nvcc_compiled"], s["nvcc_compiles"],
                 s["rejected"], s["rejected_but_nvcc_compiles"], s["crashes"], s["hangs"], s["ratio_median"],
                 s["ratio_p95"], s["ratio_max"]),
             "", "| indirect reads | count |", "|---|---:|"]
    for v, n in sorted(s["verdicts"].items(), key=lambda kv: -kv[1]):
        lines.append("| %s | %d |" % (v, n))
    lines += ["", "Time ratios on CPU time for %d of %d files (wall time for the rest)." % (
        s.get("ratios_on_cpu_time", 0), s.get("ratios", 0)), "", "| slowest against the parse | tool | parse | ratio |",
              "|---|---:|---:|---:|"]
    for x in s.get("slowest", []):
        lines.append("| %s | %.2f s | %.2f s | %.2fx |" % (
            x["file"], x.get("tool_cpu_s") or x["tool_s"], x.get("parse_cpu_s") or x["parse_s"], x["ratio"]))
    lines += ["", "Kernels left as they are (analysis past its budget): %d" % s.get("kernels_left_as_is", 0), "",
              "tool / parse, files by ratio:", "", "```"]
    width = max([n for _l, n in s.get("ratio_histogram", [])] + [1])
    for label, n in s.get("ratio_histogram", []):
        lines.append("%-10s %5d %s" % (label, n, "#" * int(round(50.0 * n / width))))
    lines += ["```"]
    lines += ["", "| not rewritten, by reason | reads |", "|---|---:|"]
    for reason, n in list(s["refusals"].items())[:15]:
        lines.append("| %s | %d |" % (reason.replace("|", "\\|"), n))
    if s["errors"]:
        lines += ["", "| files the tool rejects, by first error | files |", "|---|---:|"]
        for e, n in s["errors"]:
            lines.append("| %s | %d |" % (e.replace("|", "\\|"), n))
    return "\n".join(lines) + "\n"


def read_journal(path):
    """The rows of a census's rows.jsonl (a torn last line, from a census killed mid-write, is left out)."""
    rows = []
    try:
        with open(path) as f:
            for line in f:
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    pass
    except OSError:
        pass
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--suite", action="append", required=True, help="a suite's folder of programs (repeatable)")
    p.add_argument("--glob", default="*", help="program folders to take (default: all)")
    p.add_argument("--tool", default=os.path.join(ROOT, "build", "tool", "irregfix"))
    p.add_argument("--clang", default="clang++-19")
    p.add_argument("--nvcc", default=os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc"))
    p.add_argument("--cuda", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    p.add_argument("--gpu-arch", default="sm_90")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=600, help="seconds a file, tool or parse (a hang past it)")
    p.add_argument("--only", help="a regular expression over program names")
    p.add_argument("--out", default="census-out")
    p.add_argument("--shuffle", action="store_true",
                   help="take the files in a fixed random order, so that a census stopped early is a sample "
                        "of the whole suite rather than its first programs")
    p.add_argument("--resume", action="store_true",
                   help="keep the files rows.jsonl under --out already holds and run the rest")
    p.add_argument("--summarise", action="store_true",
                   help="only tabulate the files rows.jsonl holds (a census stopped early, or resumed)")
    args = p.parse_args(argv)
    args.out = os.path.abspath(args.out)
    args.tool = os.path.abspath(args.tool)
    if not os.path.exists(args.tool):
        p.error("no irregfix at %s" % args.tool)
    if not os.path.exists(args.nvcc):
        args.nvcc = None
    os.makedirs(os.path.join(args.out, "scratch"), exist_ok=True)

    work = []
    for suite in args.suite:
        for name in sorted(os.listdir(suite)):
            prog = os.path.abspath(os.path.join(suite, name))
            if os.path.isdir(prog) and fnmatch.fnmatch(name, args.glob) and (
                    not args.only or re.search(args.only, name)):
                for rel, words, _compiled in program_files(prog, 60):
                    work.append((prog, rel, words))
    print("census: %d files in %d programs" % (len(work), len({w[0] for w in work})), file=sys.stderr)
    if args.shuffle:
        random.Random(0).shuffle(work)

    # Each file's row is appended as it is done: a long census can stop and resume.
    journal = os.path.join(args.out, "rows.jsonl")
    rows = []
    if args.resume or args.summarise:
        rows = read_journal(journal)
    done = {(r["program"], r["file"]) for r in rows}
    todo = [] if args.summarise else [w for w in work if (os.path.basename(w[0]), w[1]) not in done]
    if rows:
        print("census: %d files already done, %d to run" % (len(rows), len(todo)), file=sys.stderr)
    with open(journal, "a" if args.resume or args.summarise else "w") as out, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(census_file, args, *w) for w in todo]
        for i, f in enumerate(concurrent.futures.as_completed(futures), 1):
            row = f.result()
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
            if i % 50 == 0:
                print("census: %d/%d" % (i, len(todo)), file=sys.stderr)
    rows.sort(key=lambda r: (r["program"], r["file"]))
    if len(rows) < len(work):
        print("census: %d of %d files tabulated (a partial census)" % (len(rows), len(work)), file=sys.stderr)

    with open(os.path.join(args.out, "files.csv"), "w", newline="") as f:
        cols = ["program", "file", "tool_rc", "tool_s", "tool_cpu_s", "parse_rc", "parse_s", "parse_cpu_s", "crash", "hang", "left_as_is", "nvcc_rc",
                "error",
                "parse_error", "flags", "reads", "rewritten"]
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(dict(r, reads=len(r["reads"]),
                            rewritten=sum(1 for x in r["reads"] if x.get("verdict") == "rewritten")))
    with open(os.path.join(args.out, "reasons.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["program", "file", "line", "kernel", "array", "pattern", "verdict", "reason"])
        for r in rows:
            for x in r["reads"]:
                w.writerow([r["program"], r["file"], x.get("line"), x.get("kernel"), x.get("array"),
                            x.get("pattern"), x.get("verdict"), x.get("reason")])
    s = summarise(rows)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(s, f, indent=1)
    table = markdown(s)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(table)
    print(table)
    return 1 if s["crashes"] or s["hangs"] else 0


if __name__ == "__main__":
    sys.exit(main())
