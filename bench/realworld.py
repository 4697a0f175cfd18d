#!/usr/bin/env python3
"""Real programs, original against rewritten: built here, run on the GPU machine.

Two steps, because the tool runs where Clang is and the programs where the GPU is:

  prepare (here): each program of bench/realworld.json, copied out of the git-ignored corpus, is built
    twice with its own Makefile — `make CC=nvcc` and `make CC=irregfix-nvcc`, the wrapper rewriting
    every .cu file it compiles — with every nvcc command recorded (bench/nvcc_record.py). The copies
    (sources, the wrapper's cache of rewritten files), the two command lists and what irregfix did
    (its report: indirect reads, rewritten, refused by reason; the wrapper's warnings) go into one
    folder (default .devgen/realworld) to carry to the GPU machine: far smaller than the binaries.
      bench/realworld.py prepare [--only NAMES] [--wrapper build/tool/irregfix-nvcc]

  run (there): the recorded nvcc commands replayed (the same paths: the copies go back where they
    were made, and the runtime library is built where the wrapper linked it, --runtime-build), then
    each program once under IRREGFIX_VERIFY=1 (a stale copy aborts it) against the original's output
    (identical, or both pass the program's own check), then --reps runs of each, alternating, timed as
    whole processes: the median and the spread (min-max) of each side.
      bench/realworld.py run [--dir .devgen/realworld] [--reps 5] [--out DIR]
    The replays can be done here instead (`bench/realworld.py build`: the binaries land in --dir, and
    `run` uses them as they are unless --rebuild), so that the GPU machine's time goes to running.

  reach (here): the tool's verdicts on the prepared copies, with the tool given: a program's reads split into
    rewritten, refused for a hazard (something may write what it reads) and refused for its shape, by reason.
      bench/realworld.py reach [--tool build/tool/irregfix]

Each program of bench/realworld.json: "dir" (its folder in the suite), "run" (its arguments), and optionally
"binary" (what its Makefile builds, default main), "siblings" (more suite folders its build needs),
"make_args", "check" ("output": the outputs compared, times and rates dropped; "pass": both print PASS and
no FAIL), and, for programs whose input is not in the suite without its DVC data or whose result is a file:
  "setup"    a shell command run once in the program's folder before its runs, that writes its input in
             the program's own format ({bench} stands for this folder, where bench/realworld_inputs.py
             generates the inputs the programs read);
  "outputs"  files the program writes (relative to its folder): removed before each compared run, their
             SHA-256 compared along with the printed output;
  "clock"    the program's own clock of its timed part: {"pattern": a regular expression whose first group
             is a number of its output (every match summed), "ms": the milliseconds of its unit, "what":
             what it times}. Recorded for every timed run beside the whole run's time.
The run-time fields (run, check, setup, outputs, clock) are read from the list at run time, so that new
arguments take effect without a new prepare; the rest from the manifest that prepare wrote.

Writes summary.md (a table a program, then one by the programs' own clocks) and results.json under --out.
"""

import argparse
import collections
import hashlib
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import census  # noqa: E402

LIST = os.path.join(HERE, "realworld.json")


def run_fields(prog):
    """The fields of a program that only its runs use: taken from the list at run time over the manifest's."""
    return {"run": prog["run"], "check": prog.get("check", "output"), "setup": prog.get("setup", ""),
            "outputs": prog.get("outputs", []), "clock": prog.get("clock")}


def own_clock(output, clock):
    """A run's time by the program's own clock, in ms: the sum of the first group of every match of
    clock["pattern"] in its output, times clock["ms"] (the milliseconds of its unit); None without a clock or a
    match. A whole run's time holds the program's host phases too, which move by 20-30% between runs of one
    binary in some programs; their own clock of the part the GPU runs tells the runtime's effect apart."""
    if not clock:
        return None
    found = [float(m.group(1)) for m in re.finditer(clock["pattern"], output)]
    return sum(found) * clock.get("ms", 1.0) if found else None


def load_list(path, only=None):
    with open(path) as f:
        programs = json.load(f)["programs"]
    if only:
        wanted = set(only.split(","))
        programs = [p for p in programs if p["name"] in wanted]
    return programs


# ---- prepare (where the tool is) -------------------------------------------------------

def copy_program(suite, prog, work):
    """The program's folder and the sibling folders its Makefile names (../x-sycl, ../include)."""
    src = os.path.join(suite, prog["dir"])
    dirs = {prog["dir"]} | set(prog.get("siblings", []))
    with open(os.path.join(src, "Makefile")) as f:
        for m in re.finditer(r"\.\./([A-Za-z0-9_+.-]+)/", f.read()):
            if os.path.isdir(os.path.join(suite, m.group(1))):
                dirs.add(m.group(1))
    if os.path.exists(work):
        shutil.rmtree(work)
    for d in sorted(dirs):
        shutil.copytree(os.path.join(suite, d), os.path.join(work, d), symlinks=True)
    return os.path.join(work, prog["dir"])


RECORDER = os.path.join(HERE, "nvcc_record.py")


def make(cwd, compiler, prog, env, log):
    args = ["make", "-B", "-j2", "CC=" + compiler, "NVCC=" + compiler, "ARCH=" + prog.get("arch", "sm_90")]
    args += prog.get("make_args", [])
    p = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    with open(log, "w") as f:
        f.write("$ " + " ".join(args) + "\n" + p.stdout + p.stderr)
    return p.returncode, p.stderr


def read_commands(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def tool_report(tool, cwd, files):
    """The tool's verdict on each .cu file the build compiled, as the census counts them."""
    reads = []
    for rel, words, _ in files:
        flags = census.nvcc_to_clang(words[1:])
        p = subprocess.run([tool, "--quiet", "--report=json", rel, "--"] + flags, cwd=cwd, capture_output=True,
                           text=True)
        if p.returncode == 0 and p.stdout.strip():
            reads += json.loads(p.stdout)
    verdicts = collections.Counter(r.get("verdict") for r in reads)
    reasons = collections.Counter(census.reason_class(r.get("reason", "")) for r in reads
                                  if r.get("verdict", "").startswith("not"))
    return {"reads": len(reads), "verdicts": dict(verdicts), "refused": dict(reasons.most_common())}


# Refusals that name a hazard to a copy (something may write what the site reads, or the analysis cannot
# name what the kernel writes): the read is not known to be safe. Refusals whose index (or loop bounds) only
# the kernel's own computation gives (a search, a value loaded under a condition, a local the kernel
# changes): no copy can be laid out before the launch. Every other refusal is of the read's shape (where it
# is, how its loop steps, how its array is named): a read with no hazard that the tool does not yet rewrite.
HAZARD = re.compile(r"is written in the kernel|the element is written|which the kernel writes|"
                    r"may write memory the analysis cannot name|explicit specializations|volatile")
IN_KERNEL_ONLY = re.compile(r"cannot be computed outside the kernel: (?!the thread's position)")


# Refusals of reads of memory that is not device memory: shared memory (on the chip), memory local to the
# thread (its own arrays and structs), kernel arguments (arrays inside a struct passed by value). There is no
# copy of them to build; they are counted apart from the reads of device memory.
NOT_DEVICE = re.compile(r"^it reads (?:shared memory|memory local to the thread|kernel arguments)")


def refusal_kind(reason):
    """'hazard', 'not-device' (it reads shared memory, memory local to the thread or kernel arguments),
    'in-kernel' (its index is known only inside the kernel) or 'shape'."""
    if HAZARD.search(reason):
        return "hazard"
    if NOT_DEVICE.search(reason):
        return "not-device"
    return "in-kernel" if IN_KERNEL_ONLY.search(reason) else "shape"


def reach_of(report):
    """A program's reads: rewritten (or index-remapped, or renumbered), refused for a hazard, refused because
    their index is known only in the kernel, refused because they read no device memory, refused for their
    shape (by reason)."""
    verdicts = report.get("verdicts", {})
    done = sum(v for k, v in verdicts.items() if not k.startswith("not"))
    kinds = collections.Counter()
    shape = {}
    for k, v in report.get("refused", {}).items():
        kind = refusal_kind(k)
        kinds[kind] += v
        if kind == "shape":
            shape[k] = v
    return {"reads": report.get("reads", 0), "rewritten": done, "hazard": kinds["hazard"],
            "in_kernel": kinds["in-kernel"], "not_device": kinds["not-device"], "shape": shape}


def reach(args):
    """The tool's reach on the prepared programs, with the tool given (not the one prepare ran): a table a
    program and the shape refusals by reason over all of them."""
    folder = os.path.abspath(args.dir)
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    if args.only:
        manifest = [m for m in manifest if m["name"] in set(args.only.split(","))]
    rows, shapes = [], collections.Counter()
    for m in manifest:
        r = reach_of(tool_report(os.path.abspath(args.tool), m["cwd"], census.program_files(m["cwd"], 60)))
        rows.append((m["name"], r))
        shapes.update(r["shape"])
    out = ["| program | indirect reads | rewritten | refused: hazard | refused: index known in the kernel only | "
           "refused: not device memory (shared, local to the thread, kernel arguments) | refused: shape | "
           "top shape reason |",
           "|---|---:|---:|---:|---:|---:|---:|---|"]
    total = collections.Counter()
    for name, r in rows:
        top = max(r["shape"].items(), key=lambda kv: kv[1]) if r["shape"] else None
        out.append("| %s | %d | %d | %d | %d | %d | %d | %s |" % (
            name, r["reads"], r["rewritten"], r["hazard"], r["in_kernel"], r["not_device"],
            sum(r["shape"].values()), ("%s (%d)" % (top[0], top[1])).replace("|", "\\|") if top else "–"))
        total.update({"reads": r["reads"], "rewritten": r["rewritten"], "hazard": r["hazard"],
                      "in_kernel": r["in_kernel"], "not_device": r["not_device"], "shape": sum(r["shape"].values())})
    safe = total["rewritten"] + total["shape"]
    out.append("| all | %d | %d | %d | %d | %d | %d | |" % (total["reads"], total["rewritten"], total["hazard"],
                                                            total["in_kernel"], total["not_device"], total["shape"]))
    out.append("")
    out.append("Reads of device memory with neither a hazard nor an index known only in the kernel: %d, of them rewritten %d "
               "(%.0f%%)." % (safe, total["rewritten"], 100.0 * total["rewritten"] / safe if safe else 0.0))
    out.append("")
    out.append("| refused for its shape, by reason | reads |")
    out.append("|---|---:|")
    out += ["| %s | %d |" % (k.replace("|", "\\|"), v) for k, v in shapes.most_common()]
    print("\n".join(out))
    return 0


def prepare(args):
    programs = load_list(args.list, args.only)
    out = os.path.abspath(args.dir)
    os.makedirs(out, exist_ok=True)
    work_root = os.path.abspath(args.work)
    wrapper = os.path.abspath(args.wrapper)
    tool = os.path.join(os.path.dirname(wrapper), "irregfix")
    manifest_path = os.path.join(out, "manifest.json")
    manifest = {m["name"]: m for m in (json.load(open(manifest_path)) if os.path.exists(manifest_path) else [])}
    cache = os.path.join(work_root, "cache")
    for prog in programs:
        name = prog["name"]
        cwd = copy_program(args.suite, prog, os.path.join(work_root, name))
        dest = os.path.join(out, name)
        if os.path.exists(dest):
            shutil.rmtree(dest)
        os.makedirs(dest)
        entry = {"name": name, "cwd": cwd, "binary": prog.get("binary", "main"), "built": False}
        entry.update(run_fields(prog))
        record = dict(os.environ, IRREGFIX_NVCC_CACHE_DIR=cache, IRREGFIX_NVCC_VERBOSE="1",
                      NVCC_RECORD_REAL=args.nvcc)
        rc, _ = make(cwd, RECORDER, prog, dict(record, NVCC_RECORD_FILE=os.path.join(dest, "original.cmds")),
                     os.path.join(dest, "build-original.log"))
        if rc == 0:
            rc, err = make(cwd, wrapper, prog, dict(record, IRREGFIX_NVCC_REAL=RECORDER,
                                                    NVCC_RECORD_FILE=os.path.join(dest, "irregfix.cmds")),
                           os.path.join(dest, "build-irregfix.log"))
            entry["built"] = rc == 0
            entry["wrapper_warnings"] = [line for line in err.splitlines() if "irregfix-nvcc: warning" in line]
            entry["rewritten_files"] = len(re.findall(r"irregfix-nvcc: .*: rewritten", err))
        entry["report"] = tool_report(tool, cwd, census.program_files(cwd, 60))
        subprocess.run(["make", "clean"], cwd=cwd, capture_output=True)
        manifest[name] = entry
        print("realworld: %-24s built %-5s reads %3d rewritten %3d" % (
            name, entry["built"], entry["report"]["reads"], entry["report"]["verdicts"].get("rewritten", 0)),
            file=sys.stderr)
        # After each program, so an interrupted prepare keeps the programs it finished.
        with open(manifest_path, "w") as f:
            json.dump(sorted(manifest.values(), key=lambda m: m["name"]), f, indent=1)
    # The copies and the wrapper's cache, to be put back at the same paths there.
    subprocess.run(["tar", "czf", os.path.join(out, "work.tgz"), "-C", "/", os.path.relpath(work_root, "/")],
                   check=True)
    return 0


def replay(commands, log):
    """Runs recorded compiler commands where they ran; False at the first failure."""
    for c in commands:
        p = subprocess.run(c["argv"], cwd=c["cwd"], capture_output=True, text=True)
        log.write("$ (cd %s; %s)\n%s%s" % (c["cwd"], " ".join(shlex.quote(a) for a in c["argv"]), p.stdout,
                                           p.stderr))
        if p.returncode != 0:
            return False
    return True


def binaries_present(folder, entry):
    return all(os.path.exists(os.path.join(folder, entry["name"], side)) for side in ("original", "irregfix"))


def build_there(folder, manifest, runtime_build, rebuild=True):
    """Puts the copies back, builds the runtime where the wrapper linked it, replays both builds (only those
    whose binaries are missing, unless `rebuild`)."""
    subprocess.run(["tar", "xzf", os.path.join(folder, "work.tgz"), "-C", "/"], check=True)
    if not rebuild:
        manifest = [e for e in manifest if not binaries_present(folder, e)]
        if not manifest:
            return collections.defaultdict(lambda: True)
    if not os.path.exists(os.path.join(runtime_build, "runtime", "libirregfix_runtime.a")):
        subprocess.run(["cmake", "-S", ROOT, "-B", runtime_build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                        "-DIRREGFIX_BUILD_TOOL=OFF", "-DIRREGFIX_BUILD_SAMPLES=OFF", "-DIRREGFIX_BUILD_BENCH=OFF",
                        "-DIRREGFIX_BUILD_TESTS=OFF"], check=True, capture_output=True)
        subprocess.run(["cmake", "--build", runtime_build, "--target", "irregfix_runtime"], check=True,
                       capture_output=True)

    def build(entry):
        with open(os.path.join(folder, entry["name"], "replay.log"), "w") as log:
            for side in ("original", "irregfix"):
                cmds = os.path.join(folder, entry["name"], side + ".cmds")
                if not os.path.exists(cmds) or not replay(read_commands(cmds), log):
                    return False
                shutil.copy2(os.path.join(entry["cwd"], entry["binary"]), os.path.join(folder, entry["name"], side))
        return True

    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        built = dict(zip([e["name"] for e in manifest], pool.map(build, manifest)))
    return built


# ---- run (where the GPU is) --------------------------------------------------------------

# Lines that report a time or a rate of work (a figure of merit such as LULESH's "FOM = ... (z/s)",
# anything per second, a number of seconds such as srad's "0.012 s, 4.1 % : COMPUTE", a log line
# stamped with the seconds since the start, "[ 7.126] Rewrite Iteration"). Not "rate" alone: "Error
# rate" is a result.
TIMING = re.compile(r"time|elapsed|\bms\b|\bus\b|msec|usec|second|\d\s+s\b|throughput|bandwidth|gb/s|gflop|speed|"
                    r"perf|\bfom\b|[a-z]/s\b|/sec\b|\(s\)|^\s*\[\s*\d+\.\d+\]", re.IGNORECASE)


def normalised(output):
    """A program's output without the lines that report times or rates (which differ from run to run)."""
    return "\n".join(line for line in output.splitlines() if not TIMING.search(line) and
                     not line.startswith("irregfix"))


def passes(output):
    return bool(re.search(r"\bPASS", output)) and not re.search(r"\bFAIL", output)


def run_once(cwd, binary, run, env, timeout):
    t0 = time.perf_counter()
    try:
        p = subprocess.run([binary] + shlex.split(run), cwd=cwd, env=env, capture_output=True, text=True,
                           timeout=timeout, errors="replace")
        return p.returncode, time.perf_counter() - t0, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - t0, "", ""


def run_compared(cwd, binary, entry, env, timeout):
    """One run whose result is compared: its output files removed first, their digests appended to its output."""
    for name in entry["outputs"]:
        if os.path.exists(os.path.join(cwd, name)):
            os.remove(os.path.join(cwd, name))
    rc, secs, out, err = run_once(cwd, binary, entry["run"], env, timeout)
    for name in entry["outputs"]:
        path = os.path.join(cwd, name)
        digest = "missing"
        if os.path.exists(path):
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
        out += "\n%s: sha256 %s" % (name, digest)
    return rc, secs, out, err


def set_up(entry):
    """Runs the program's setup command in its folder; None, or why it failed."""
    if not entry["setup"]:
        return None
    command = entry["setup"].replace("{bench}", HERE)
    p = subprocess.run(command, shell=True, cwd=entry["cwd"], capture_output=True, text=True)
    sys.stderr.write(p.stdout + p.stderr)
    return None if p.returncode == 0 else "setup exited %d" % p.returncode


def run_program(entry, binaries, reps, timeout):
    """Runs the two builds of a program (in `binaries`) in its own folder, where its relative paths resolve."""
    cwd = entry["cwd"]
    env = dict(os.environ)
    env.pop("IRREGFIX_VERIFY", None)
    orig, rewr = os.path.join(binaries, "original"), os.path.join(binaries, "irregfix")
    row = {"name": entry["name"], "report": entry["report"], "wrapper_warnings": entry.get("wrapper_warnings", [])}
    row["setup_failed"] = set_up(entry)
    if row["setup_failed"]:
        row.update(identical=False, stale=False, original_ms=None, irregfix_ms=None)
        return row
    rc_o, _, out_o, _ = run_compared(cwd, orig, entry, env, timeout)
    rc_v, _, out_v, err_v = run_compared(cwd, rewr, entry, dict(env, IRREGFIX_VERIFY="1", IRREGFIX_STATS="1"),
                                         timeout)
    row["original_rc"], row["verify_rc"] = rc_o, rc_v
    row["stale"] = "IRREGFIX_VERIFY: stale" in err_v
    if entry["check"] == "pass":
        row["identical"] = rc_o == 0 and rc_v == 0 and passes(out_o) and passes(out_v)
    else:
        row["identical"] = rc_o == 0 and rc_v == 0 and normalised(out_o) == normalised(out_v)
    row["stats"] = [line for line in err_v.splitlines() if line.startswith("irregfix:")][:40]
    times = {"original": [], "irregfix": []}
    clocks = {"original": [], "irregfix": []}
    for _ in range(reps):
        for side, binary in (("original", orig), ("irregfix", rewr)):
            rc, secs, out, err = run_once(cwd, binary, entry["run"], env, timeout)
            if rc == 0:
                times[side].append(secs * 1000)
                clocked = own_clock(out + err, entry.get("clock"))
                if clocked is not None:
                    clocks[side].append(clocked)
    for side in times:
        for key, ts in ((side + "_ms", times[side]), (side + "_clock_ms", clocks[side])):
            row[key] = statistics.median(ts) if ts else None
            row[key.replace("_ms", "_spread")] = [min(ts), max(ts)] if ts else None
    if row["original_ms"] and row["irregfix_ms"]:
        row["speedup"] = row["original_ms"] / row["irregfix_ms"]
    if row["original_clock_ms"] and row["irregfix_clock_ms"]:
        row["clock"] = entry["clock"].get("what", "its own clock")
        row["clock_speedup"] = row["original_clock_ms"] / row["irregfix_clock_ms"]
    return row


def failed_runs(row):
    """' (the original timed out; the rewritten run died of signal 11)', or '' where both runs exited 0."""
    said = []
    for side, key in (("the original", "original_rc"), ("the rewritten run", "verify_rc")):
        rc = row.get(key, 0)
        if rc == "timeout":
            said.append(side + " timed out")
        elif isinstance(rc, int) and rc < 0:
            said.append("%s died of signal %d" % (side, -rc))
        elif isinstance(rc, int) and rc > 0:
            said.append("%s exited %d" % (side, rc))
    return " (%s)" % "; ".join(said) if said else ""


def summary_table(rows):
    lines = ["| program | indirect reads | rewritten | refused (top reason) | original ms | irregfix ms | speedup | "
             "identical |", "|---|---:|---:|---|---:|---:|---:|---|"]
    for r in rows:
        rep = r["report"]
        top = next(iter(rep["refused"].items()), None)
        spread = lambda s: "" if not s else " (%.0f–%.0f)" % tuple(s)  # noqa: E731
        lines.append("| %s | %d | %d | %s | %s | %s | %s | %s |" % (
            r["name"], rep["reads"], rep["verdicts"].get("rewritten", 0) + rep["verdicts"].get("index-remapped", 0),
            ("%d: %s" % (top[1], top[0])).replace("|", "\\|") if top else "",
            "%.0f%s" % (r["original_ms"], spread(r["original_spread"])) if r.get("original_ms") else "–",
            "%.0f%s" % (r["irregfix_ms"], spread(r["irregfix_spread"])) if r.get("irregfix_ms") else "–",
            "%.2fx" % r["speedup"] if r.get("speedup") else "–",
            ("yes" if r["identical"] else "NO" + failed_runs(r)) + (" (stale copy)" if r["stale"] else "") +
            (" (%s)" % r["setup_failed"] if r.get("setup_failed") else "")))
    return "\n".join(lines) + "\n"


def clock_table(rows):
    """The programs that time themselves, by their own clock (run_program), or '' where none does."""
    timed = [r for r in rows if r.get("clock_speedup")]
    if not timed:
        return ""
    lines = ["| program | its own clock | original ms | irregfix ms | speedup |", "|---|---|---:|---:|---:|"]
    for r in timed:
        lines.append("| %s | %s | %.1f (%.1f–%.1f) | %.1f (%.1f–%.1f) | %.2fx |" % (
            r["name"], r["clock"], r["original_clock_ms"], *r["original_clock_spread"], r["irregfix_clock_ms"],
            *r["irregfix_clock_spread"], r["clock_speedup"]))
    return "\n".join(lines) + "\n"


def built_programs(folder, only=None, listed=None):
    """The manifest's programs that built here, or those of them named in `only` (comma-separated), with the
    run-time fields of the list `listed` (a path) where it names them."""
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = [m for m in json.load(f) if m["built"]]
    if only:
        manifest = [m for m in manifest if m["name"] in set(only.split(","))]
    programs = {p["name"]: p for p in load_list(listed)} if listed else {}
    for m in manifest:
        m.update(run_fields(programs[m["name"]]) if m["name"] in programs else run_fields(m))
    return manifest


def run(args):
    folder = os.path.abspath(args.dir)
    manifest = built_programs(folder, args.only, args.list)
    os.makedirs(args.out, exist_ok=True)
    t0 = time.perf_counter()
    built = build_there(folder, manifest, os.path.abspath(args.runtime_build), rebuild=args.rebuild)
    print("realworld: built in %.0f s" % (time.perf_counter() - t0), file=sys.stderr)
    rows = []
    for entry in manifest:
        if not built[entry["name"]]:
            print("realworld: %s: the replayed build failed (%s)" % (
                entry["name"], os.path.join(folder, entry["name"], "replay.log")), file=sys.stderr)
            continue
        rows.append(run_program(entry, os.path.join(folder, entry["name"]), args.reps, args.timeout))
        r = rows[-1]
        print("realworld: %-24s %s ms vs %s ms, identical %s" % (r["name"], r.get("original_ms"), r.get("irregfix_ms"),
                                                                 r["identical"]), file=sys.stderr)
        # Written after each program, so a run cut short by the machine's time limit keeps what it measured.
        with open(os.path.join(args.out, "results.json"), "w") as f:
            json.dump(rows, f, indent=1)
    table = summary_table(rows)
    clocked = clock_table(rows)
    if clocked:
        table += "\nBy the programs' own clocks (the same runs):\n\n" + clocked
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(table)
    print(table)
    return 0 if rows and all(r["identical"] for r in rows) and len(rows) == len(manifest) else 1


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="step", required=True)
    a = sub.add_parser("prepare")
    a.add_argument("--suite", default=os.path.join(ROOT, "corpus", "HeCBench", "src"))
    a.add_argument("--list", default=LIST)
    a.add_argument("--only", help="comma-separated program names")
    a.add_argument("--wrapper", default=os.path.join(ROOT, "build", "tool", "irregfix-nvcc"))
    a.add_argument("--nvcc", default=os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc"))
    a.add_argument("--work", default="/tmp/irregfix-realworld")
    a.add_argument("--dir", default=os.path.join(ROOT, ".devgen", "realworld"))
    b = sub.add_parser("run")
    b.add_argument("--dir", default=os.path.join(ROOT, ".devgen", "realworld"))
    b.add_argument("--only", help="comma-separated program names")
    b.add_argument("--list", default=LIST, help="the programs' run-time fields (run, check, setup, outputs)")
    b.add_argument("--reps", type=int, default=5)
    b.add_argument("--timeout", type=float, default=300)
    b.add_argument("--out", default="realworld-out")
    b.add_argument("--runtime-build", default=os.path.join(ROOT, "build"),
                   help="where the wrapper linked the runtime from (built there when missing)")
    b.add_argument("--rebuild", action="store_true",
                   help="replay the builds even where the binaries are already in --dir (from `build`)")
    c = sub.add_parser("build", help="replay the recorded builds here, leaving the binaries in --dir for `run`")
    c.add_argument("--dir", default=os.path.join(ROOT, ".devgen", "realworld"))
    c.add_argument("--only", help="comma-separated program names")
    c.add_argument("--runtime-build", default=os.path.join(ROOT, "build"))
    d = sub.add_parser("reach", help="the tool's reads, rewritten and refused by reason, on the prepared programs")
    d.add_argument("--dir", default=os.path.join(ROOT, ".devgen", "realworld"))
    d.add_argument("--only", help="comma-separated program names")
    d.add_argument("--tool", default=os.path.join(ROOT, "build", "tool", "irregfix"))
    args = p.parse_args(argv)
    if args.step == "reach":
        return reach(args)
    if args.step == "build":
        return build_here(args)
    return prepare(args) if args.step == "prepare" else run(args)


def build_here(args):
    """The run step's builds done where nvcc is but the GPU is not, so the GPU machine's time goes to running."""
    folder = os.path.abspath(args.dir)
    manifest = built_programs(folder, args.only)
    built = build_there(folder, manifest, os.path.abspath(args.runtime_build))
    for name, ok in sorted(built.items()):
        print("realworld: %-24s %s" % (name, "built" if ok else "FAILED (see %s)" % os.path.join(folder, name,
                                                                                           "replay.log")))
    return 0 if all(built.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
