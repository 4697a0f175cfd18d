"""bench/run.sh: every benchmark of irregfix in one command.

Builds what the chosen parts need (CMake, Ninja; on a GPU machine without Clang
from the rewritten sources in .devgen/, made by scripts/pregenerate.sh), runs
them, and writes under --out: results.csv and meta.json (results.py), the
programs' output in logs/, and tables.md (the markdown tables, report.py).

Parts (--parts, comma- or space-separated; "all" is every one):
  spmv      CG's SpMV alone (cg --spmv): original, irregfix under auto and each forced
            layout (locality included), cuSPARSE ALG1/ALG2 (bench/cusparse_spmv), bit for bit;
            the classes include randomly renumbered grid and fem (grid-shuffled, fem-shuffled)
  cg        whole CG: original, auto, ell, sell32s, locality, none
  sp        survey propagation: original, auto (whole run, calc_pi_values)
  md        molecular dynamics, random and cell-numbered, 262K and 1M atoms (full: and smaller):
            original, auto, ell, sharing, locality (ms a step, lj_forces)
  hoist     hoisted loops (--hoist) and pipelined launches: CG and MD
  lanes     warp-cooperative rows: CG's SpMV on few long rows (long-rows: 10,240 rows of ~1,640)
            original, auto (no variant: a float sum), cg_reassociated under auto and lanes (its
            largest relative difference from the original); the graph sample (long and short
            adjacency lists, integer reductions) original, auto, lanes, none, bit for bit
  remap     remap kernels against a device copy of the same bytes
  layouts   an SpMV written against the View in each layout, with cuSPARSE
  scatter   irregular reductions: a transposed SpMV through atomics against the inspector-executor,
            uniform and power-law columns
  overhead  host cost of a cached launch and of a launcher settled on the original; the first
            remap's module loads
  tests     ctest (GPU tests run), every sample bit for bit under every layout, the e2e program,
            all with IRREGFIX_VERIFY=1
  nvtx      an Nsight Systems capture of CG with IRREGFIX_NVTX=1: the runtime's ranges
  sectors   global load sectors (Nsight Compute), original vs transformed
  tool      the tool's speed against clang++ -fsyntax-only (needs the tool: not on a GPU machine)
  census    the tool over every CUDA file of the public suites in corpus/ (bench/census.py; quick:
            HeCBench's graph and sparse programs, full: all of HeCBench): files read, rejected (with
            nvcc's verdict), crashes, hangs, reads by verdict and reason, time against the parse
  realworld real programs (bench/realworld.json), original against rewritten, whole runs: their
            builds, recorded where the tool is by `bench/realworld.py prepare` (into the rewritten
            folder, .devgen/realworld), replayed here; each once under IRREGFIX_VERIFY=1 against
            the original's output, then timed (median and spread of 5 runs each; quick: 3)
"""

import argparse
import concurrent.futures
import datetime
import json
import os
import shlex
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import parsers  # noqa: E402
from results import Results  # noqa: E402

ROOT = os.path.dirname(HERE)

PARTS = ["spmv", "cg", "sp", "md", "hoist", "lanes", "remap", "layouts", "scatter", "overhead", "tests", "nvtx", "sectors",
         "tool", "census", "realworld"]

# What each size runs. quick: all parts in a few minutes on an H100 or H200;
# full: every matrix class, size and order the results report.
SIZES = {
    "quick": {
        "classes": ["grid", "offshore", "grid-shuffled", "fem-shuffled"], "scales": [1, 8], "spmv_reps": 30,
        "cg_iters": 200,
        "sp_inputs": [(4000, 16800), (10000, 42000)], "sp_rounds": 200,
        "md_atoms": [262144, 1048576], "md_steps": 100, "md_rebuild": 5,
        "hoist_classes": ["offshore"], "hoist_atoms": [262144],
        "graph_inputs": [(16384, 1000, 2048), (65536, 24, 1024)], "graph_rounds": 200,
        "layouts_args": ["--small"], "remap_args": [],
        "sanitize": False, "sectors": [("grid", 1)],
        "realworld_reps": 3,
        "census_only": "^(spmv|bfs|sssp|pagerank|page-rank|cc|mis|color|triangle|tc|spgemm|sptrsv|gc)",
    },
    "full": {
        "classes": ["grid", "fem", "apache", "offshore", "grid-shuffled", "fem-shuffled"], "scales": [1, 8],
        "spmv_reps": 30,
        "cg_iters": 200,
        "sp_inputs": [(4000, 16800), (10000, 42000), (1000000, 4200000)], "sp_rounds": 200,
        "md_atoms": [12288, 73728, 262144, 1048576], "md_steps": 100, "md_rebuild": 5,
        "hoist_classes": ["grid", "offshore"], "hoist_atoms": [262144, 1048576],
        "graph_inputs": [(16384, 1000, 2048), (32768, 3000, 8192), (65536, 24, 1024), (262144, 200, 4096)],
        "graph_rounds": 200,
        "layouts_args": [], "remap_args": [],
        "sanitize": True, "sectors": [("grid", 1), ("offshore", 1)],
        "realworld_reps": 5,
        "census_only": None,
    },
}

SPMV_LAYOUTS = ["auto", "ell", "sell32", "sell32s", "locality"]
CG_MODES = ["auto", "ell", "sell32s", "locality", "none"]
MD_MODES = ["auto", "ell", "sharing", "locality"]
COMPARE_MODES = ["auto", "ell", "sell32s", "sharing", "locality", "lanes", "none"]
COMPARED_SAMPLES = ("cg", "sp", "md", "graph")
GRAPH_MODES = ["auto", "lanes", "none"]
GRAPH_KERNELS = ["rank_above", "bfs_pull", "cc_pull"]

# CMake targets of each part (the build takes their union).
TARGETS = {
    "spmv": ["cg", "cg_original", "cusparse_spmv"],
    "cg": ["cg", "cg_original"],
    "sp": ["sp", "sp_original"],
    "md": ["md", "md_original"],
    "hoist": ["cg", "cg_original", "cg_hoisted", "md", "md_original", "md_hoisted"],
    "lanes": ["cg", "cg_original", "cg_reassociated", "graph", "graph_original"],
    "remap": ["irregfix_remap_bench"],
    "layouts": ["irregfix_layouts_bench"],
    "scatter": ["irregfix_scatter_bench"],
    "overhead": ["irregfix_launch_overhead_bench", "irregfix_module_load_bench"],
    "tests": ["all"],
    "nvtx": ["cg"],
    "sectors": ["cg", "cg_original", "md", "md_original"],
    "tool": ["irregfix"],
    "census": ["irregfix"],
    "realworld": [],
}


class Run:
    """What one program run gave: its exit code and output (stdout and stderr)."""

    def __init__(self, rc, output):
        self.rc = rc
        self.output = output

    @property
    def ok(self):
        return self.rc == 0


class Runner:
    """Runs commands and keeps their output under logs/. dry: print them, run nothing."""

    def __init__(self, log_dir, dry=False, echo=print):
        self.log_dir = log_dir
        self.dry = dry
        self.echo = echo

    def which(self, name):
        """A tool's path (PATH, then the CUDA toolkit's bin), or None; a dry run has every tool."""
        if self.dry:
            return name
        found = shutil.which(name)
        cuda_bin = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", name)
        return found or (cuda_bin if os.path.exists(cuda_bin) else None)

    def __call__(self, name, cmd, env=None, cwd=None, timeout=None):
        shown = " ".join(shlex.quote(c) for c in cmd)
        if env:
            shown = " ".join("%s=%s" % kv for kv in sorted(env.items())) + " " + shown
        self.echo("  $ " + shown)
        if self.dry:
            return Run(0, "")
        full_env = dict(os.environ)
        full_env.update(env or {})
        try:
            p = subprocess.run(cmd, env=full_env, cwd=cwd or ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=timeout, errors="replace")
            run = Run(p.returncode, p.stdout)
        except subprocess.TimeoutExpired as e:
            run = Run(124, (e.stdout or "") + "\n(timed out after %s s)\n" % timeout)
        except OSError as e:
            run = Run(127, str(e))
        log = os.path.join(self.log_dir, name + ".log")
        os.makedirs(os.path.dirname(log), exist_ok=True)
        with open(log, "w") as f:
            f.write("$ %s\n(exit %d)\n%s" % (shown, run.rc, run.output))
        return run


class Context:
    """What a part needs: the build, the size's settings, a runner, the results."""

    def __init__(self, args, runner, results):
        self.args = args
        self.size = SIZES[args.size]
        self.run = runner
        self.results = results
        self.build = args.build
        self.failures = []

    def program(self, name):
        """A built program: a sample's (cg, cg_original, cg_hoisted, ...) or a benchmark's."""
        sample = name.split("_")[0]
        sub = os.path.join("samples", sample) if sample in COMPARED_SAMPLES else "bench"
        return os.path.join(self.build, sub, name)

    def fail(self, what):
        self.failures.append(what)

    def measure(self, part, case, variant, log, program, args, env=None, metrics=()):
        """Runs a program and records what it printed: metrics are (name, parse(text), unit).
        A non-zero exit fails the part (and is recorded with the rest)."""
        run = self.run(log, [self.program(program)] + args, env=env)
        for metric, parse, unit in metrics:
            self.results.add(part, case, variant, metric, parse(run.output), unit)
        if not run.ok and not self.run.dry:
            self.fail("%s %s %s: exit %d" % (part, case, variant, run.rc))
        return run


# ---- parts -----------------------------------------------------------------------

def part_spmv(ctx):
    r = ctx.results
    reps = str(ctx.size["spmv_reps"])
    for cls in ctx.size["classes"]:
        for scale in ctx.size["scales"]:
            case = "%s %dx" % (cls, scale)
            common = ["--matrix", cls, "--scale", str(scale), "--spmv", reps, "--refresh"]
            if scale >= 8:  # beyond the L2: flushed before each launch
                common.append("--flush-l2")
            dump = os.path.join(ctx.args.out, "tmp", "spmv.%s.%d" % (cls, scale))
            os.makedirs(os.path.dirname(dump), exist_ok=True)
            orig = ctx.run("spmv/%s-%d-original" % (cls, scale),
                           [ctx.program("cg_original")] + common + ["--dump", dump + ".original"])
            record_spmv(ctx, case, "original", orig)
            for k, v in parsers.matrix_stats(orig.output).items():
                r.add("spmv", case, "matrix", k, v)
            for layout in SPMV_LAYOUTS:
                run = ctx.run("spmv/%s-%d-%s" % (cls, scale, layout), [ctx.program("cg")] + common +
                              ["--dump", dump + "." + layout],
                              # The kernel in its steady state: auto profiles from the first launch (a
                              # whole program, the cg part, keeps the default warm-up).
                              env={"IRREGFIX_LAYOUT": layout, "IRREGFIX_STATS": "1", "IRREGFIX_PROFILE_AFTER_MS": "0"})
                record_spmv(ctx, case, layout, run)
                same = run.ok and orig.ok and same_files(dump + ".original", dump + "." + layout, ctx)
                r.add("spmv", case, layout, "bitwise", 1.0 if same else 0.0)
                if not same and not ctx.run.dry:
                    ctx.fail("spmv %s %s differs from the original" % (case, layout))
                choice = parsers.stats_layout(run.output)
                if choice:
                    r.add("spmv", case, layout, "layout", choice)
            cus = ctx.run("spmv/%s-%d-cusparse" % (cls, scale), [ctx.program("cusparse_spmv"), "--matrix", cls,
                          "--scale", str(scale), "--reps", reps] + (["--flush-l2"] if scale >= 8 else []))
            c = parsers.cusparse(cus.output)
            r.add("spmv", case, "cusparse-alg1", "kernel_ms", c.get("alg1_ms"), "ms")
            r.add("spmv", case, "cusparse-alg2", "kernel_ms", c.get("alg2_ms"), "ms")
            r.add("spmv", case, "copy", "gbs", c.get("copy_gbs"), "GB/s")
            if not cus.ok and not ctx.run.dry:
                ctx.fail("cusparse_spmv %s: exit %d" % (case, cus.rc))


def record_spmv(ctx, case, variant, run):
    v = parsers.cg_spmv(run.output)
    r = ctx.results
    r.add("spmv", case, variant, "kernel_ms", v["kernel_ms"], "ms")
    r.add("spmv", case, variant, "first_ms", v["first_ms"], "ms")
    r.add("spmv", case, variant, "refresh_ms", v["refresh_ms"], "ms")
    r.add("spmv", case, variant, "gbs", v["gbs"], "GB/s")
    if not run.ok and not ctx.run.dry:
        ctx.fail("spmv %s %s: exit %d" % (case, variant, run.rc))


def same_files(a, b, ctx):
    if ctx.run.dry:
        return True
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except OSError:
        return False


def part_cg(ctx):
    per_iter = [("ms_per_iter", parsers.per_step, "ms")]
    for cls in ctx.size["classes"]:
        for scale in ctx.size["scales"]:
            case = "%s %dx" % (cls, scale)
            args = ["--matrix", cls, "--scale", str(scale), "--iters", str(ctx.size["cg_iters"])]
            ctx.measure("cg", case, "original", "cg/%s-%d-original" % (cls, scale), "cg_original", args,
                        metrics=per_iter)
            for mode in CG_MODES:
                ctx.measure("cg", case, mode, "cg/%s-%d-%s" % (cls, scale, mode), "cg", args,
                            {"IRREGFIX_LAYOUT": mode, "IRREGFIX_STATS": "1"},
                            per_iter + ([("selector", parsers.selector, "")] if mode == "auto" else []))


def part_sp(ctx):
    metrics = [("whole_ms", parsers.whole_ms, "ms"),
               ("kernel_ms", lambda text: parsers.kernel_median(text, "calc_pi_values"), "ms")]
    for variables, clauses in ctx.size["sp_inputs"]:
        case = "%d / %d" % (variables, clauses)
        args = ["--vars", str(variables), "--clauses", str(clauses), "--rounds", str(ctx.size["sp_rounds"]),
                "--seed", "1", "--time-kernels"]
        ctx.measure("sp", case, "original", "sp/%d-original" % variables, "sp_original", args, metrics=metrics)
        ctx.measure("sp", case, "auto", "sp/%d-auto" % variables, "sp", args, {"IRREGFIX_STATS": "1"}, metrics)


def part_md(ctx):
    metrics = [("ms_per_step", parsers.per_step, "ms"),
               ("kernel_ms", lambda text: parsers.kernel_median(text, "lj_forces"), "ms")]
    for atoms in ctx.size["md_atoms"]:
        for order in ("random", "sorted"):
            case = "%d %s" % (atoms, order)
            args = ["--atoms", str(atoms), "--steps", str(ctx.size["md_steps"]), "--rebuild",
                    str(ctx.size["md_rebuild"]), "--time-kernels"] + (["--sorted"] if order == "sorted" else [])
            ctx.measure("md", case, "original", "md/%d-%s-original" % (atoms, order), "md_original", args,
                        metrics=metrics)
            for mode in MD_MODES:
                ctx.measure("md", case, mode, "md/%d-%s-%s" % (atoms, order, mode), "md", args,
                            {"IRREGFIX_LAYOUT": mode, "IRREGFIX_STATS": "1"},
                            metrics + ([("selector", parsers.selector, "")] if mode == "auto" else []))


def part_lanes(ctx):
    r = ctx.results
    tmp = os.path.join(ctx.args.out, "tmp")
    os.makedirs(tmp, exist_ok=True)
    # The kernel in its steady state, as the spmv part measures it: auto profiles from the first launch.
    steady = {"IRREGFIX_STATS": "1", "IRREGFIX_PROFILE_AFTER_MS": "0"}

    # CG's SpMV on few long rows. Without --reassociate its float sum has no lanes variant: auto
    # must not lose (the model rules the copies out, none is probed). cg_reassociated runs it
    # with several lanes a row, its sums in another order.
    case = "long-rows spmv"
    common = ["--matrix", "long-rows", "--spmv", str(ctx.size["spmv_reps"])]
    dump = os.path.join(tmp, "lanes.long-rows")
    orig = ctx.run("lanes/long-rows-original", [ctx.program("cg_original")] + common + ["--dump", dump + ".original"])
    record_lanes_spmv(ctx, case, "original", orig, None)
    for k, v in parsers.matrix_stats(orig.output).items():
        r.add("lanes", case, "matrix", k, v)
    for variant, program, layout in (("auto", "cg", "auto"), ("reassociated, auto", "cg_reassociated", "auto"),
                                     ("reassociated, lanes", "cg_reassociated", "lanes")):
        out = "%s.%s" % (dump, variant.replace(", ", "-"))
        run = ctx.run("lanes/long-rows-%s" % variant.replace(", ", "-"), [ctx.program(program)] + common +
                      ["--dump", out], env=dict(steady, IRREGFIX_LAYOUT=layout))
        record_lanes_spmv(ctx, case, variant, run, orig)
        if program == "cg":
            same = run.ok and orig.ok and same_files(dump + ".original", out, ctx)
            r.add("lanes", case, variant, "bitwise", 1.0 if same else 0.0)
            if not same and not ctx.run.dry:
                ctx.fail("lanes: %s %s differs from the original" % (case, variant))
        elif not ctx.run.dry:
            worst = max_relative_difference(dump + ".original", out)
            r.add("lanes", case, variant, "max_rel_diff", worst)
            if worst is None or worst > 1e-3:
                ctx.fail("lanes: %s %s: largest relative difference %s" % (case, variant, worst))

    # The graph sample: integer reductions over adjacency lists, bit for bit in every mode.
    for vertices, degree, cluster in ctx.size["graph_inputs"]:
        case = "graph %d vertices, degree %d" % (vertices, degree)
        tag = "%d-%d" % (vertices, degree)
        args = ["--vertices", str(vertices), "--degree", str(degree), "--cluster", str(cluster), "--rounds",
                str(ctx.size["graph_rounds"]), "--time-kernels"]
        dump = os.path.join(tmp, "lanes.graph." + tag)
        orig = ctx.run("lanes/graph-%s-original" % tag, [ctx.program("graph_original")] + args +
                       ["--dump", dump + ".original"])
        record_graph(ctx, case, "original", orig)
        for mode in GRAPH_MODES:
            run = ctx.run("lanes/graph-%s-%s" % (tag, mode), [ctx.program("graph")] + args +
                          ["--dump", dump + "." + mode], env=dict(steady, IRREGFIX_LAYOUT=mode))
            record_graph(ctx, case, mode, run)
            same = run.ok and orig.ok and same_files(dump + ".original", dump + "." + mode, ctx)
            r.add("lanes", case, mode, "bitwise", 1.0 if same else 0.0)
            if not same and not ctx.run.dry:
                ctx.fail("lanes: %s under %s differs from the original" % (case, mode))


def record_lanes_spmv(ctx, case, variant, run, orig):
    r = ctx.results
    v = parsers.cg_spmv(run.output)
    r.add("lanes", case, variant, "kernel_ms", v["kernel_ms"], "ms")
    r.add("lanes", case, variant, "first_ms", v["first_ms"], "ms")
    if orig is not None:
        o = parsers.cg_spmv(orig.output)["kernel_ms"]
        if o and v["kernel_ms"]:
            r.add("lanes", case, variant, "speedup", o / v["kernel_ms"], "x")
        r.add("lanes", case, variant, "layout", parsers.stats_layout(run.output))
        r.add("lanes", case, variant, "selector", parsers.selector(run.output))
    if not run.ok and not ctx.run.dry:
        ctx.fail("lanes %s %s: exit %d" % (case, variant, run.rc))


def record_graph(ctx, case, variant, run):
    r = ctx.results
    r.add("lanes", case, variant, "whole_ms", parsers.whole_ms(run.output), "ms")
    for kernel in GRAPH_KERNELS:
        r.add("lanes", case, variant, kernel + "_ms", parsers.kernel_median(run.output, kernel), "ms")
    if not run.ok and not ctx.run.dry:
        ctx.fail("lanes %s %s: exit %d" % (case, variant, run.rc))


def max_relative_difference(a, b):
    """The largest |x - y| / max(|x|, |y|) over two files of floats (None when unreadable or unequal in size)."""
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            da, db = fa.read(), fb.read()
    except OSError:
        return None
    if len(da) != len(db) or len(da) % 4:
        return None
    worst = 0.0
    for x, y in zip(struct.unpack("<%df" % (len(da) // 4), da), struct.unpack("<%df" % (len(db) // 4), db)):
        if x != y:
            m = max(abs(x), abs(y))
            worst = max(worst, abs(x - y) / m if m > 0 else float("inf"))
    return worst


def part_hoist(ctx):
    ell = {"IRREGFIX_LAYOUT": "ell"}
    cg_runs = [("original", "cg_original", {}), ("in-kernel", "cg", ell), ("hoisted", "cg_hoisted", ell),
               ("always, G=1", "cg_hoisted", dict(ell, IRREGFIX_HOIST_ALWAYS="1", IRREGFIX_HOIST_GROUP="1")),
               ("always, default group", "cg_hoisted", dict(ell, IRREGFIX_HOIST_ALWAYS="1"))]
    md_runs = [("original", "md_original", {}), ("in-kernel, 1 chunk", "md", dict(ell, IRREGFIX_CHUNKS="1")),
               ("in-kernel, chunks auto", "md", dict(ell, IRREGFIX_STATS="1")),
               ("hoisted", "md_hoisted", dict(ell, IRREGFIX_STATS="1")),
               ("hoisted, auto", "md_hoisted", {"IRREGFIX_LAYOUT": "auto"})]
    per_step = [("ms_per_step", parsers.per_step, "ms"), ("hidden_percent", parsers.hidden_percent, "%")]
    cases = [("cg %s" % cls, ["--matrix", cls, "--iters", str(ctx.size["cg_iters"])], cg_runs)
             for cls in ctx.size["hoist_classes"]]
    cases += [("md %d" % atoms, ["--atoms", str(atoms), "--steps", str(ctx.size["md_steps"])], md_runs)
              for atoms in ctx.size["hoist_atoms"]]
    for case, args, runs in cases:
        for variant, program, env in runs:
            log = "hoist/%s-%s" % (case.replace(" ", "-"), variant.replace(" ", "").replace(",", "-"))
            ctx.measure("hoist", case, variant, log, program, args, env, per_step)


def part_remap(ctx):
    run = ctx.run("remap/remap_bench", [ctx.program("irregfix_remap_bench")] + ctx.size["remap_args"])
    for case, values in parsers.remap_bench(run.output):
        for metric, v in values.items():
            ctx.results.add("remap", case, "remap" if metric.startswith("remap") else "copy",
                            metric.split("_")[1], v, "GB/s" if metric.endswith("gbs") else "ms")
    if not run.ok and not ctx.run.dry:
        ctx.fail("remap_bench: exit %d" % run.rc)


def part_layouts(ctx):
    run = ctx.run("layouts/layouts_bench", [ctx.program("irregfix_layouts_bench")] + ctx.size["layouts_args"])
    for case, values in parsers.layouts_bench(run.output):
        for column, v in values.items():
            if column == "rows":
                ctx.results.add("layouts", case, "matrix", "rows", v)
            elif column.startswith("pad-"):
                ctx.results.add("layouts", case, column[4:], "padding", v)
            else:
                ctx.results.add("layouts", case, column, "kernel_ms", v, "ms")
    if not run.ok and not ctx.run.dry:
        ctx.fail("layouts_bench: exit %d" % run.rc)


def part_scatter(ctx):
    # The selector profiles from the first launch: the 64 launches of its
    # measure are shorter than its warm-up.
    run = ctx.run("scatter/scatter_bench", [ctx.program("irregfix_scatter_bench"), "--reps", "20"],
                  env={"IRREGFIX_PROFILE_AFTER_MS": "0"})
    for matrix, v in parsers.scatter_bench(run.output):
        r = ctx.results
        for metric in ("segments", "longest"):
            r.add("scatter", matrix, "matrix", metric, v[metric])
        for variant in ("atomics", "executor"):
            r.add("scatter", matrix, variant, "ms", v[variant + "_ms"], "ms")
            r.add("scatter", matrix, variant, "max_rel_error", v[variant + "_error"])
            r.add("scatter", matrix, variant, "same_bits", v[variant + "_same"])
            r.add("scatter", matrix, "auto", variant + "_launches", v["auto_" + variant])
            if variant + "_stream_ms" in v:
                r.add("scatter", matrix, variant, "stream_ms", v[variant + "_stream_ms"], "ms")
        r.add("scatter", matrix, "with inspector", "ms", v["inspector_ms"], "ms")
    if not run.ok and not ctx.run.dry:
        ctx.fail("scatter_bench: exit %d" % run.rc)


def part_overhead(ctx):
    r = ctx.results
    run = ctx.run("overhead/launch_overhead", [ctx.program("irregfix_launch_overhead_bench")])
    for kind, v in parsers.launch_overhead(run.output).items():
        r.add("overhead", kind, "host", "ms" if kind.endswith(" ms") else "us", v,
              "ms" if kind.endswith(" ms") else "us")
    for loading in ("LAZY", "EAGER"):
        m = ctx.run("overhead/module_load-%s" % loading.lower(), [ctx.program("irregfix_module_load_bench")],
                    env={"CUDA_MODULE_LOADING": loading})
        v = parsers.module_load(m.output)
        r.add("overhead", "first remap", loading.lower(), "ms", v["first_ms"], "ms")
        r.add("overhead", "a later remap", loading.lower(), "ms", v["later_ms"], "ms")
        if not m.ok and not ctx.run.dry:
            ctx.fail("module_load_bench: exit %d" % m.rc)
    if not run.ok and not ctx.run.dry:
        ctx.fail("launch_overhead_bench: exit %d" % run.rc)


def part_tests(ctx):
    r = ctx.results
    # In the checking mode (every cache hit checked against its sources), four at a time:
    # most of a GPU test's time is its process's CUDA start, and the tests hold for any
    # timing (the selector's are given their margins).
    verify = {"IRREGFIX_VERIFY": "1"}
    run = ctx.run("tests/ctest", ["ctest", "--test-dir", ctx.build, "-j", "4", "--output-on-failure"], env=verify,
                  timeout=1500)
    c = parsers.ctest(run.output)
    if c:
        for k, v in c.items():
            r.add("tests", "ctest", "all", k, float(v))
    if not run.ok and not ctx.run.dry:
        failed = parsers.ctest_failed(run.output)
        ctx.fail("ctest: exit %d%s" % (run.rc, " (failed: %s)" % ", ".join(failed) if failed else ""))
    # The comparisons time nothing: four at a time, each in its own directory.
    def compare(sample, mode):
        work = os.path.join(ctx.args.out, "tmp", "compare-%s-%s" % (sample, mode))
        return ctx.run("tests/compare-%s-%s" % (sample, mode),
                       ["sh", os.path.join(ROOT, "samples", "compare.sh"), sample,
                        ctx.program(sample + "_original"), ctx.program(sample), work],
                       env={"IRREGFIX_LAYOUT": mode, **verify})
    cases = [(sample, mode) for sample in COMPARED_SAMPLES for mode in COMPARE_MODES]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        runs = list(pool.map(lambda c: compare(*c), cases))
    for (sample, mode), cmp_run in zip(cases, runs):
        r.add("tests", "%s bit for bit" % sample, mode, "identical", 1.0 if cmp_run.ok else 0.0)
        if not cmp_run.ok and not ctx.run.dry:
            ctx.fail("compare %s under %s: exit %d" % (sample, mode, cmp_run.rc))
    # The rewritten e2e programs (scripts/pregenerate.sh) against their originals (IRREGFIX_DISABLE=1);
    # scatter-main under IRREGFIX_DETERMINISTIC=1, so that every launch takes the executor; spmv-main
    # also in the locality order, where x is read through a renumbered copy.
    built = {}
    e2e_runs = (("spmv-main", "auto", {}),
                ("spmv-main", "locality", {"IRREGFIX_LAYOUT": "locality", "IRREGFIX_RENUMBER": "1"}),
                ("scatter-main", "deterministic", {"IRREGFIX_DETERMINISTIC": "1"}))
    for program, mode, env in e2e_runs:
        src = os.path.join(ctx.args.rewritten or os.path.join(ROOT, ".devgen"), program + ".irregfix.cu")
        if not (os.path.exists(src) or ctx.run.dry):
            continue
        exe = os.path.join(ctx.args.out, "tmp", program)
        if program not in built:
            lib = os.path.join(ctx.build, "runtime", "libirregfix_runtime.a")
            nvcc = ctx.run.which("nvcc") or "nvcc"
            build = ctx.run("tests/%s-build" % program, [nvcc, "-std=c++17", "-arch=sm_%s" % ctx.args.arch, "-I",
                                                         os.path.join(ROOT, "runtime", "include"), src, lib, "-ldl",
                                                         "-o", exe])
            original = ctx.run("tests/%s-original" % program, [exe, exe + ".original.bin"],
                               env={"IRREGFIX_DISABLE": "1"})
            built[program] = build.ok and original.ok
        b = ctx.run("tests/%s-%s" % (program, mode), [exe, exe + "." + mode + ".bin"],
                    env={"IRREGFIX_STATS": "1", **verify, **env})
        same = built[program] and b.ok and same_files(exe + ".original.bin", exe + "." + mode + ".bin", ctx)
        case = "e2e bit for bit" if program == "spmv-main" else program + " bit for bit"
        r.add("tests", case, mode, "identical", 1.0 if same else 0.0)
        if not same and not ctx.run.dry:
            ctx.fail("%s: not bit-identical (or failed)" % program)
    if ctx.size["sanitize"] and ctx.run.which("compute-sanitizer"):
        for binary in ("irregfix_runtime_gpu_tests", "irregfix_sharing_gpu_tests"):
            san = ctx.run("tests/memcheck-" + binary, ["compute-sanitizer", "--tool", "memcheck", "--error-exitcode",
                          "9", os.path.join(ctx.build, "test", "gpu", binary), "--gtest_brief=1"], timeout=1200)
            r.add("tests", "memcheck " + binary, "memcheck", "clean", 1.0 if san.ok else 0.0)
            if not san.ok and not ctx.run.dry:
                ctx.fail("memcheck %s: exit %d" % (binary, san.rc))


def part_nvtx(ctx):
    nsys = ctx.run.which("nsys")
    if not nsys:
        return "skipped: no nsys (Nsight Systems) on this machine"
    report = os.path.join(ctx.args.out, "cg-nvtx")
    prof = ctx.run("nvtx/nsys-profile", [nsys, "profile", "--trace=cuda,nvtx", "--force-overwrite=true", "-o", report,
                   ctx.program("cg"), "--matrix", "offshore", "--iters", "50"],
                   env={"IRREGFIX_NVTX": "1", "IRREGFIX_CHUNKS": "4"}, timeout=600)
    stats = ctx.run("nvtx/nsys-stats", [nsys, "stats", "--report", "nvtx_sum", "--format", "csv",
                                        report + ".nsys-rep"], timeout=600)
    for name, v in parsers.nsys_nvtx(stats.output):
        ctx.results.add("nvtx", name, "cg offshore", "instances", v["instances"])
        ctx.results.add("nvtx", name, "cg offshore", "total_ms", v["total_ms"], "ms")
    if not (prof.ok and stats.ok) and not ctx.run.dry:
        ctx.fail("nsys: exit %d / %d" % (prof.rc, stats.rc))


def part_sectors(ctx):
    ncu = ctx.run.which("ncu")
    if not ncu:
        return "skipped: no ncu (Nsight Compute) on this machine"
    metric = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
    for cls, scale in ctx.size["sectors"]:
        case = "spmv %s %dx" % (cls, scale)
        for variant, prog in (("original", "cg_original"), ("irregfix", "cg")):
            run = ctx.run("sectors/%s-%d-%s" % (cls, scale, variant),
                          [ncu, "--clock-control", "none", "--metrics", metric, "--kernel-name", "regex:spmv",
                           "--launch-skip", "6", "--launch-count", "3", "--csv", ctx.program(prog), "--matrix", cls,
                           "--scale", str(scale), "--spmv", "3"],
                          env={"IRREGFIX_LAYOUT": "ell"}, timeout=600)
            for kernel, v in parsers.ncu_sectors(run.output).items():
                ctx.results.add("sectors", case, variant, "sectors", v)
                ctx.results.add("sectors", case, variant, "kernel", kernel)
            if not run.ok and not ctx.run.dry:
                ctx.fail("ncu %s %s: exit %d" % (case, variant, run.rc))


def part_tool(ctx):
    tool = os.path.join(ctx.build, "tool", "irregfix")
    if not os.path.exists(tool) and not ctx.run.dry:
        return "skipped: the tool is not built here (no Clang 19)"
    run = ctx.run("tool/tool_speed", [os.path.join(HERE, "tool_speed.sh"), tool, "7"], timeout=900)
    for row in parsers.markdown_table(run.output):
        case = row.get("file")
        ctx.results.add("tool", case, "clang++ -fsyntax-only", "seconds",
                        parsers.number(row.get("clang++-19 -fsyntax-only (CPU s)")), "s")
        ctx.results.add("tool", case, "irregfix", "seconds", parsers.number(row.get("irregfix (CPU s)")), "s")
        ctx.results.add("tool", case, "file", "lines", parsers.number(row.get("lines")))
    if not run.ok and not ctx.run.dry:
        ctx.fail("tool_speed: exit %d" % run.rc)


def part_census(ctx):
    tool = os.path.join(ctx.build, "tool", "irregfix")
    suite = os.path.join(ctx.args.corpus, "HeCBench", "src")
    if not os.path.exists(tool) and not ctx.run.dry:
        return "skipped: the tool is not built here (no Clang 19)"
    if not os.path.isdir(suite) and not ctx.run.dry:
        return "skipped: no suite at %s (HeCBench, fetched into the corpus)" % suite
    out = os.path.join(ctx.args.out, "census")
    cmd = [sys.executable, os.path.join(HERE, "census.py"), "--suite", suite, "--glob", "*-cuda", "--tool", tool,
           "--out", out]
    only = SIZES[ctx.args.size]["census_only"]
    if only:
        cmd += ["--only", only]
    run = ctx.run("census/census", cmd, timeout=14400)
    try:
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError):
        summary = None
    if summary:
        for key in ("files", "read", "rejected", "rejected_but_nvcc_compiles", "crashes", "hangs"):
            ctx.results.add("census", "HeCBench", "irregfix", key, summary[key])
        for key in ("ratio_median", "ratio_p95", "ratio_max"):
            ctx.results.add("census", "HeCBench", "irregfix", "tool/parse " + key.split("_")[1],
                            summary[key], "x")
        for verdict, n in summary["verdicts"].items():
            ctx.results.add("census", "HeCBench", "reads", verdict, n)
    if not run.ok and not ctx.run.dry:
        ctx.fail("census: exit %d" % run.rc)


def realworld_folder(args):
    return os.path.join(os.path.abspath(args.rewritten or os.path.join(ROOT, ".devgen")), "realworld")


def part_realworld(ctx):
    folder = realworld_folder(ctx.args)
    if not os.path.exists(os.path.join(folder, "manifest.json")) and not ctx.run.dry:
        return "skipped: no prepared programs at %s (bench/realworld.py prepare, where the tool is)" % folder
    out = os.path.join(ctx.args.out, "realworld")
    cmd = [sys.executable, os.path.join(HERE, "realworld.py"), "run", "--dir", folder, "--out", out,
           "--reps", str(SIZES[ctx.args.size]["realworld_reps"]), "--runtime-build", os.path.join(ROOT, "build")]
    run = ctx.run("realworld/run", cmd, timeout=3000)
    try:
        with open(os.path.join(out, "results.json")) as f:
            rows = json.load(f)
    except (OSError, ValueError):
        rows = []
    for row in rows:
        case = row["name"]
        ctx.results.add("realworld", case, "original", "ms", row.get("original_ms"), "ms")
        ctx.results.add("realworld", case, "irregfix", "ms", row.get("irregfix_ms"), "ms")
        ctx.results.add("realworld", case, "irregfix", "identical", 1.0 if row["identical"] else 0.0)
        report = row["report"]
        ctx.results.add("realworld", case, "tool", "reads", report["reads"])
        ctx.results.add("realworld", case, "tool", "rewritten", report["verdicts"].get("rewritten", 0))
    if not run.ok and not ctx.run.dry:
        ctx.fail("bench/realworld.py run: exit %d" % run.rc)


PART_FUNCTIONS = {name: globals()["part_" + name] for name in PARTS}


# ---- the run ---------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(prog="bench/run.sh", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__[__doc__.index("Parts"):])
    p.add_argument("--parts", default="all", help="parts to run, comma- or space-separated, or 'all' (default)")
    p.add_argument("--size", choices=sorted(SIZES), default="quick",
                   help="quick (default: all parts in a few minutes) or full (every class, size and order)")
    p.add_argument("--out", default=os.path.join(ROOT, "bench-out"), help="results directory (default: bench-out/)")
    p.add_argument("--build", default=os.path.join(ROOT, "build-bench"),
                   help="CMake build directory (default: build-bench/)")
    p.add_argument("--rewritten", default=None,
                   help="rewritten sources for a machine without Clang (default: .devgen/ when the tool "
                        "cannot be built here)")
    p.add_argument("--arch", default="90", help="CUDA architecture (default 90)")
    p.add_argument("--corpus", default=os.path.join(ROOT, "corpus"),
                   help="the public suites the census reads (default: corpus/, git-ignored)")
    p.add_argument("--no-build", action="store_true", help="use the build directory as it is")
    p.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    args = p.parse_args(argv)
    wanted = [w for w in args.parts.replace(",", " ").split() if w]
    if "all" in wanted:
        wanted = list(PARTS)
    unknown = [w for w in wanted if w not in PARTS]
    if unknown or not wanted:
        p.error("unknown part(s): %s (parts: %s, all)" % (", ".join(unknown) or "none given", ", ".join(PARTS)))
    args.parts = wanted
    args.out = os.path.abspath(args.out)
    args.corpus = os.path.abspath(args.corpus)
    args.build = os.path.abspath(args.build)
    return args


def have_clang():
    return shutil.which("clang++-19") is not None and os.path.exists("/usr/lib/llvm-19")


def configure_command(args):
    cmd = ["cmake", "-S", ROOT, "-B", args.build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
           "-DCMAKE_CUDA_ARCHITECTURES=" + args.arch, "-DIRREGFIX_BUILD_BENCH=ON"]
    if args.rewritten:
        cmd += ["-DIRREGFIX_BUILD_TOOL=OFF", "-DIRREGFIX_REWRITTEN_DIR=" + os.path.abspath(args.rewritten)]
    gtest = os.path.join(os.path.abspath(args.rewritten or os.path.join(ROOT, ".devgen")), "googletest")
    if "tests" not in args.parts:
        cmd.append("-DIRREGFIX_BUILD_TESTS=OFF")
    elif args.rewritten and os.path.isdir(gtest) and not os.path.exists("/usr/lib/x86_64-linux-gnu/libgtest.a"):
        cmd.append("-DCMAKE_PREFIX_PATH=" + os.path.join(args.build, "googletest-install"))
    return cmd


def build(args, runner):
    """Configures and builds the targets the parts need; False (and why) on failure."""
    targets = sorted({t for p in args.parts for t in TARGETS[p]})
    if args.rewritten:  # no Clang here: no tool to build
        targets = [t for t in targets if t != "irregfix"]
    if not targets or args.no_build:
        return True, ""
    gtest_src = os.path.join(os.path.abspath(args.rewritten or os.path.join(ROOT, ".devgen")), "googletest")
    if ("tests" in args.parts and args.rewritten and os.path.isdir(gtest_src)
            and not os.path.exists("/usr/lib/x86_64-linux-gnu/libgtest.a")):
        gbuild = os.path.join(args.build, "googletest-build")
        for name, cmd in (("googletest-configure", ["cmake", "-S", gtest_src, "-B", gbuild, "-G", "Ninja",
                                                    "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_GMOCK=OFF",
                                                    "-DCMAKE_INSTALL_PREFIX=" + os.path.join(args.build,
                                                                                             "googletest-install")]),
                          ("googletest-build", ["cmake", "--build", gbuild, "--target", "install"])):
            if not runner("build/" + name, cmd).ok:
                return False, name + " failed"
    if not runner("build/configure", configure_command(args)).ok:
        return False, "cmake configure failed (see logs/build/configure.log)"
    if "all" in targets:
        targets = ["all"]
    built = runner("build/build", ["cmake", "--build", args.build, "--target"] + targets, timeout=3000).ok
    if not built:
        return False, "build failed (see logs/build/build.log)"
    return True, ""


def device_name(runner):
    if runner.dry or not shutil.which("nvidia-smi"):
        return None
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=60).stdout
        return out.strip().splitlines()[0] if out.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


def git_commit():
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True).stdout.strip() or None
    except OSError:
        return None


def main(argv=None, runner=None, echo=print):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.rewritten is None and not have_clang():
        args.rewritten = os.path.join(ROOT, ".devgen")
    if args.rewritten:
        args.rewritten = os.path.abspath(args.rewritten)
    runner = runner or Runner(os.path.join(args.out, "logs"), dry=args.dry_run, echo=echo)
    run_meta = {
        "device": device_name(runner),
        "date": datetime.date.today().isoformat(),
        "commit": git_commit(),
        "size": args.size,
        "command": "bench/run.sh " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv)),
    }
    # Parts run into a directory that holds results already replace theirs and keep the others':
    # a run may be split over several calls (each under a time limit) into one --out.
    results = Results.load(args.out)
    results.drop_parts(args.parts)
    results.meta.update(run_meta)
    echo("irregfix benchmarks: %s (%s) -> %s" % (" ".join(args.parts), args.size, args.out))
    ok, why = build(args, runner)
    status = 0
    if not ok:
        echo("BUILD FAILED: " + why)
        for p in args.parts:
            results.part_status(p, "failed: " + why, run=run_meta)
        status = 1
    else:
        for name in args.parts:
            echo("== " + name)
            ctx = Context(args, runner, results)
            start = time.time()
            try:
                skipped = PART_FUNCTIONS[name](ctx)
            except Exception as e:  # a part's bug must not lose the others' results
                ctx.fail("%s: %s" % (type(e).__name__, e))
                skipped = None
            seconds = time.time() - start
            if skipped:
                results.part_status(name, skipped, seconds, run=run_meta)
                echo("   " + skipped)
            elif ctx.failures:
                results.part_status(name, "failed: " + "; ".join(ctx.failures[:5]), seconds, run=run_meta)
                echo("   FAILED: " + "; ".join(ctx.failures[:5]))
                status = 1
            else:
                results.part_status(name, "ok", seconds, run=run_meta)
            results.save(args.out)  # after every part: a later failure keeps what was measured
    results.save(args.out)
    if not args.dry_run:
        import report
        with open(os.path.join(args.out, "tables.md"), "w") as f:
            f.write(report.tables_markdown(results))
    echo("results: %s (results.csv, meta.json, tables.md, logs/)" % args.out)
    return status


if __name__ == "__main__":
    sys.exit(main())
