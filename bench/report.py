#!/usr/bin/env python3
"""Turns benchmark results (bench/run.sh's results.csv and meta.json) into
markdown tables, PNG plots, and the tables of bench/RESULTS.md.

  bench/report.py [RESULTS_DIR...]                 tables on stdout (default: bench/results/current;
                                                   several: merged, a later one's parts replacing)
  bench/report.py RESULTS_DIR... --save DIR        also writes the merged results to DIR
  bench/report.py RESULTS_DIR --plots DIR          also the plots, PNG (needs matplotlib)
  bench/report.py RESULTS_DIR --update FILE.md     rewrites the generated blocks of FILE.md:
        <!-- results: PART --> ... <!-- end results -->   the tables of PART
        <!-- results: PART meta --> ... <!-- end results -->  the device, date and command of PART
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from results import Results, ratio  # noqa: E402

DEFAULT_RESULTS = os.path.join(HERE, "results", "current")


# ---- formatting ---------------------------------------------------------------------

def num(v, unit=""):
    if v is None:
        return "–"
    if isinstance(v, str):
        return v
    if unit == "x":
        return "%.2fx" % v
    if unit in ("GB/s", "%", "int"):
        return "%.0f" % v
    a = abs(v)
    if a >= 100:
        return "%.1f" % v
    if a >= 10:
        return "%.2f" % v
    if a >= 1:
        return "%.3f" % v
    return "%.4f" % v


def bold_if(text, cond):
    return "**%s**" % text if cond and text != "–" else text


def table(header, rows, align=None):
    align = align or ["---"] + ["---:"] * (len(header) - 1)
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out) + "\n"


class Part:
    """The rows of one part, looked up by case, variant and metric."""

    def __init__(self, results, name):
        self.r = results
        self.name = name

    def v(self, case, variant, metric):
        return self.r.value(self.name, case, variant, metric)

    def cases(self, metric=None):
        return self.r.cases(self.name, metric)

    def variants(self, metric):
        return self.r.variants(self.name, metric)

    def __bool__(self):
        return bool(self.r.part(self.name))


# ---- the tables, one function a part ----------------------------------------------------

LAYOUT_LABELS = {"auto": "irregfix auto", "ell": "ELL", "sell32": "SELL-32", "sell32s": "SELL-32-σ",
                 "sharing": "sharing", "locality": "locality order", "none": "none (original via launcher)",
                 "cusparse-alg1": "cuSPARSE ALG1", "cusparse-alg2": "cuSPARSE ALG2"}


def label(v):
    return LAYOUT_LABELS.get(v, v)


def best_layout(p, case, layouts=("ell", "sell32", "sell32s", "locality")):
    times = [(p.v(case, l, "kernel_ms"), l) for l in layouts]
    times = [(t, l) for t, l in times if isinstance(t, float)]
    return min(times) if times else (None, None)


def table_spmv(p):
    variants = [v for v in ("original", "auto", "ell", "sell32", "sell32s", "locality", "cusparse-alg1",
                            "cusparse-alg2") if v in p.variants("kernel_ms")]
    header = ["matrix", "rows", "nnz/row"] + [label(v) for v in variants] + \
             ["auto vs original", "best layout vs original", "auto vs cuSPARSE ALG1", "bit-identical"]
    rows = []
    for case in p.cases("kernel_ms"):
        o = p.v(case, "original", "kernel_ms")
        a = p.v(case, "auto", "kernel_ms")
        best, _ = best_layout(p, case)
        bits = [p.v(case, l, "bitwise") for l in ("auto", "ell", "sell32", "sell32s", "locality")]
        bits = [b for b in bits if b is not None]
        avg = p.v(case, "matrix", "avg_row")
        cells = [case, num(p.v(case, "matrix", "rows"), "int"), "%.1f" % avg if avg is not None else "–"]
        fastest = min([t for t in (p.v(case, v, "kernel_ms") for v in variants) if isinstance(t, float)] or [None])
        for v in variants:
            t = p.v(case, v, "kernel_ms")
            cells.append(bold_if(num(t), t is not None and t == fastest))
        cells += [num(ratio(o, a), "x"), num(ratio(o, best), "x"),
                  num(ratio(p.v(case, "cusparse-alg1", "kernel_ms"), a), "x"),
                  ("yes" if all(b == 1 for b in bits) else "**NO**") if bits else "–"]
        rows.append(cells)
    out = "SpMV kernel, milliseconds (median of the timed launches; fastest in bold):\n\n" + table(header, rows)
    extra = [c for c in p.cases("kernel_ms")
             if any(p.v(c, v, m) is not None for v in ("auto", "ell") for m in ("first_ms", "refresh_ms"))
             or p.v(c, "copy", "gbs") is not None]
    if extra:
        rows = []
        for case in extra:
            after, kernel = p.v(case, "ell", "refresh_ms"), p.v(case, "ell", "kernel_ms")
            remap, gbs = p.v(case, "ell", "remap_ms"), p.v(case, "ell", "remap_gbs")
            nnz = p.v(case, "matrix", "nnz")
            if remap is None and after is not None and kernel is not None and after > kernel:
                remap = after - kernel  # the refresh alone: the launch after a write less a cached one
            if gbs is None and remap and nnz:
                gbs = 2.0 * nnz * 8 / (remap * 1e6)  # val and col, read and written
            rows.append([case, num(p.v(case, "auto", "first_ms")), num(p.v(case, "ell", "first_ms")), num(after),
                         num(remap), num(gbs, "GB/s"), num(p.v(case, "copy", "gbs"), "GB/s")])
        out += "\nWhat a copy costs, milliseconds: the first launch (copies built), a launch after a write of the " \
               "values (a refresh, kernel included), the refresh alone; GB/s of the refresh and of a device copy " \
               "of the same bytes:\n\n" + table(
                   ["matrix", "first launch, auto", "first launch, ELL", "launch after a write, ELL",
                    "refresh alone, ELL", "refresh GB/s", "copy GB/s"], rows)
    return out


def table_cg(p):
    variants = [v for v in ("original", "auto", "ell", "sell32s", "locality", "none") if v in p.variants("ms_per_iter")]
    header = ["matrix"] + [label(v) for v in variants] + ["auto vs original", "the selector (auto)"]
    rows = []
    for case in p.cases("ms_per_iter"):
        o, a = p.v(case, "original", "ms_per_iter"), p.v(case, "auto", "ms_per_iter")
        rows.append([case] + [num(p.v(case, v, "ms_per_iter")) for v in variants] +
                    [bold_if(num(ratio(o, a), "x"), (ratio(o, a) or 0) >= 1.0), num(p.v(case, "auto", "selector"))])
    return "Whole CG, milliseconds per iteration (whole solve / iterations; the one-time module load, " \
           "remap and profiling included):\n\n" + table(header, rows, ["---"] + ["---:"] * (len(header) - 2) + ["---"])


def table_sp(p):
    rows = []
    for case in p.cases("whole_ms"):
        o, a = p.v(case, "original", "whole_ms"), p.v(case, "auto", "whole_ms")
        ko, ka = p.v(case, "original", "kernel_ms"), p.v(case, "auto", "kernel_ms")
        rows.append([case, num(o), num(a), num(ratio(o, a), "x"), num(ko), num(ka), num(ratio(ko, ka), "x")])
    return "SP, milliseconds: whole run (all rounds, remaps included) and the median `calc_pi_values` launch " \
           "(the launcher's host work included):\n\n" + table(
               ["input (variables / clauses)", "original", "irregfix", "speedup", "calc_pi_values original",
                "calc_pi_values irregfix", "kernel speedup"], rows)


def table_md(p):
    variants = [v for v in ("original", "auto", "ell", "sharing", "locality") if v in p.variants("ms_per_step")]
    header = ["atoms, order"] + [label(v) for v in variants] + ["auto vs original"] + \
             ["lj_forces " + label(v) for v in variants if p.variants("kernel_ms") and v in p.variants("kernel_ms")]
    rows = []
    for case in p.cases("ms_per_step"):
        o, a = p.v(case, "original", "ms_per_step"), p.v(case, "auto", "ms_per_step")
        cells = [case] + [num(p.v(case, v, "ms_per_step")) for v in variants] + [num(ratio(o, a), "x")]
        cells += [num(p.v(case, v, "kernel_ms")) for v in variants if v in p.variants("kernel_ms")]
        rows.append(cells)
    return "MD, milliseconds per step (positions change every step: a transformed launch remaps every step), " \
           "and the median `lj_forces` launch (launcher and remap included):\n\n" + table(header, rows)


def table_generic(p, metric, title, unit="", case_header="case", cases=None):
    cases = p.cases(metric) if cases is None else cases
    variants = [v for v in p.variants(metric) if any(p.v(c, v, metric) is not None for c in cases)]
    rows = [[c] + [num(p.v(c, v, metric), unit) for v in variants] for c in cases]
    return title + "\n\n" + table([case_header] + [label(v) for v in variants], rows)


def table_hoist(p):
    out = []
    cg = [c for c in p.cases("ms_per_step") if c.startswith("cg")]
    md = [c for c in p.cases("ms_per_step") if not c.startswith("cg")]
    if cg:
        out.append(table_generic(p, "ms_per_step", "CG, hoisted (`--hoist`) against the in-kernel loop, milliseconds "
                                 "per iteration, `IRREGFIX_LAYOUT=ell` (always: `IRREGFIX_HOIST_ALWAYS=1`, G: "
                                 "`IRREGFIX_HOIST_GROUP`):", cases=cg))
    if md:
        out.append(table_generic(p, "ms_per_step", "MD with a remap every step (`IRREGFIX_LAYOUT=ell`), milliseconds "
                                 "per step: the remap before the kernel, pipelined in chunks, hoisted in slices:",
                                 cases=md))
    hidden = [c for c in p.cases("hidden_percent")]
    if hidden:
        out.append(table_generic(p, "hidden_percent", "The part of the remap hidden behind the kernel, percent "
                                 "(`IRREGFIX_STATS`):", "%", cases=hidden))
    return "\n".join(out)


def table_remap(p):
    rows = []
    for case in p.cases("gbs"):
        r, c = p.v(case, "remap", "gbs"), p.v(case, "copy", "gbs")
        rows.append([case, num(p.v(case, "remap", "ms")), num(r, "GB/s"), num(c, "GB/s"),
                     num(100.0 * r / c if r and c else None, "%") + ("%" if r and c else "")])
    return "Remap kernels against a device copy of the same bytes (read and write counted), median of 25:\n\n" + \
        table(["case", "remap ms", "remap GB/s", "copy GB/s", "remap / copy"], rows)


def table_layouts(p):
    cols = [v for v in ("csr", "cusparse", "ell", "sell32", "sell32s-256", "sell32s-4096")
            if v in p.variants("kernel_ms")]
    names = {"csr": "CSR (original)", "cusparse": "cuSPARSE", "sell32s-256": "SELL-32-σ, σ 256",
             "sell32s-4096": "SELL-32-σ, σ 4096", "ell": "ELL", "sell32": "SELL-32"}
    rows = []
    for case in p.cases("kernel_ms"):
        best = min([t for t in (p.v(case, v, "kernel_ms") for v in cols[2:]) if isinstance(t, float)] or [None])
        pads = " / ".join(num(p.v(case, v, "padding")) for v in ("ell", "sell32", "sell32s-256", "sell32s-4096"))
        rows.append([case, num(p.v(case, "matrix", "rows"), "int")] + [num(p.v(case, v, "kernel_ms")) for v in cols] +
                    [pads, num(ratio(p.v(case, "csr", "kernel_ms"), best), "x"),
                     num(ratio(p.v(case, "cusparse", "kernel_ms"), best), "x")])
    return "SpMV written against the View (double values), milliseconds, L2 flushed, median of 20; padding " \
           "= cells / non-zeros (ELL / SELL-32 / σ 256 / σ 4096):\n\n" + table(
               ["matrix", "rows"] + [names[c] for c in cols] + ["padding", "best layout vs CSR",
                                                                  "best layout vs cuSPARSE"], rows)


def table_scatter(p):
    rows = []
    for case in p.cases("ms"):
        a, x = p.v(case, "atomics", "ms"), p.v(case, "executor", "ms")
        same = " / ".join("–" if p.v(case, v, "same_bits") is None else ("yes" if p.v(case, v, "same_bits") == 1
                                                                           else "no") for v in ("executor", "atomics"))
        err = " / ".join("%.1e" % e if isinstance(e, float) else "–"
                         for e in (p.v(case, "executor", "max_rel_error"), p.v(case, "atomics", "max_rel_error")))
        ea, aa = p.v(case, "auto", "executor_launches"), p.v(case, "auto", "atomics_launches")
        keeps = "–" if ea is None or aa is None else ("executor" if ea > aa else "atomics") + \
            " (%d of %d launches)" % (max(ea, aa), ea + aa)
        sa, sx = p.v(case, "atomics", "stream_ms"), p.v(case, "executor", "stream_ms")
        rows.append([case, num(p.v(case, "matrix", "segments"), "int"), num(p.v(case, "matrix", "longest"), "int"),
                     num(a), num(x), num(ratio(a, x), "x"), num(sa), num(sx), num(ratio(sa, sx), "x"),
                     num(p.v(case, "with inspector", "ms")), err, same, keeps])
    return ("The transposed SpMV scatter `y[col[k]] += val[k] * x[row[k]]` (uniform and power-law columns) and, on "
            "mesh-edges, an edge flux adding to both ends of each edge (two updates a thread), milliseconds, "
            "median of 20: a launch alone (the launcher's host work included), and per launch in a stream of 10 "
            "back to back (host work overlapping the GPU's):\n\n") + table(
        ["matrix", "segments", "longest", "atomics", "executor", "executor vs atomics", "stream: atomics",
         "stream: executor", "stream: executor vs atomics", "with inspector", "max rel. error executor / atomics",
         "same bits run to run: executor / atomics", "auto keeps"], rows)


def table_overhead(p):
    rows = [[c, num(p.v(c, "host", "us")) if p.v(c, "host", "us") is not None else num(p.v(c, "host", "ms")) + " ms"]
            for c in p.cases() if p.v(c, "host", "us") is not None or p.v(c, "host", "ms") is not None]
    out = ""
    if rows:
        out += "Host time of a launch, microseconds (median of batches of launches of a 4,096-row kernel):\n\n" + \
            table(["launch", "µs"], rows)
    loads = [c for c in ("first remap", "a later remap") if p.v(c, "lazy", "ms") is not None]
    if loads:
        out += "\nThe first remap of a program, host milliseconds until its copy is made " \
               "(`CUDA_MODULE_LOADING`):\n\n" + table(["remap", "lazy (default)", "eager"],
                                                      [[c, num(p.v(c, "lazy", "ms")), num(p.v(c, "eager", "ms"))]
                                                       for c in loads])
    return out


def table_tests(p):
    rows = []
    for r in p.r.part(p.name):
        value = r["value"]
        shown = ("yes" if value == 1 else "**NO**") if r["metric"] in ("identical", "clean") else num(value, "int")
        rows.append([r["case"], r["variant"], r["metric"], shown])
    return "Correctness on the device:\n\n" + table(["check", "mode", "what", "result"], rows,
                                                     ["---", "---", "---", "---:"])


def table_nvtx(p):
    rows = [[c, num(p.v(c, "cg offshore", "instances"), "int"), num(p.v(c, "cg offshore", "total_ms"))]
            for c in p.cases("instances")]
    return "NVTX ranges of the runtime in an Nsight Systems capture of CG (offshore, 50 iterations, " \
           "`IRREGFIX_NVTX=1`):\n\n" + table(["range", "instances", "total ms"], rows)


def table_sectors(p):
    rows = []
    for case in p.cases("sectors"):
        o, x = p.v(case, "original", "sectors"), p.v(case, "irregfix", "sectors")
        rows.append([case, num(o, "int"), num(x, "int"), "%.3f" % (x / o) if o and x else "–"])
    return "Global load sectors (Nsight Compute, `l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum`), mean over " \
           "the profiled launches:\n\n" + table(["kernel, matrix", "original", "irregfix (ELL)", "ratio"], rows)


def table_tool(p):
    rows = []
    for case in p.cases("seconds"):
        c, t = p.v(case, "clang++ -fsyntax-only", "seconds"), p.v(case, "irregfix", "seconds")
        rows.append([case, num(p.v(case, "file", "lines"), "int"), "%.3f" % c if c else "–",
                     "%.3f" % t if t else "–", num(ratio(t, c), "x")])
    return "Seconds, median of 7 runs:\n\n" + table(["file", "lines", "clang++-19 -fsyntax-only", "irregfix",
                                                     "ratio"], rows)


def table_realworld(p):
    rows = []
    for case in p.cases("ms"):
        o, x = p.v(case, "original", "ms"), p.v(case, "irregfix", "ms")
        ident = p.v(case, "irregfix", "identical")
        rows.append([case, num(p.v(case, "tool", "reads"), "int"), num(p.v(case, "tool", "rewritten"), "int"),
                     num(o), num(x), num(ratio(o, x), "x"),
                     "–" if ident is None else ("yes" if ident == 1 else "**NO**")])
    return "Real programs (bench/realworld.json), whole run, milliseconds (median of the runs):\n\n" + table(
        ["program", "indirect reads", "rewritten", "original", "irregfix", "speedup", "identical"], rows)


TABLES = {"spmv": table_spmv, "cg": table_cg, "sp": table_sp, "md": table_md, "hoist": table_hoist,
          "remap": table_remap, "layouts": table_layouts, "scatter": table_scatter, "overhead": table_overhead,
          "tests": table_tests,
          "nvtx": table_nvtx, "sectors": table_sectors, "tool": table_tool, "realworld": table_realworld}


def part_meta(results, part):
    # A part recorded with its own run (device, date, command) is described by
    # it alone: the latest run's command and commit are not those of a part
    # it did not run.
    own = results.meta.get("parts", {}).get(part, {})
    m = dict(own) if any(k in own for k in ("device", "date", "command", "commit")) else dict(results.meta, **own)
    if not Part(results, part) and m.get("status"):
        return m["status"][0].upper() + m["status"][1:] + ".\n"
    bits = []
    if m.get("device"):
        bits.append("**%s**" % m["device"])
    if m.get("date"):
        bits.append(m["date"])
    if m.get("command"):
        bits.append("`%s`" % m["command"])
    if m.get("commit"):
        bits.append("commit %s" % m["commit"])
    line = ", ".join(bits)
    if m.get("status") and m["status"] != "ok":
        line += " (%s)" % m["status"]
    if m.get("notes"):
        line += ". " + m["notes"]
    return line + "\n"


def part_tables(results, part):
    p = Part(results, part)
    if not p:
        status = results.meta.get("parts", {}).get(part, {}).get("status")
        return "No results%s.\n" % (" (%s)" % status if status else "")
    return TABLES[part](p)


def tables_markdown(results):
    out = []
    for part in TABLES:
        if Part(results, part) or part in results.meta.get("parts", {}):
            out.append("## %s\n\n%s\n%s" % (part, part_meta(results, part), part_tables(results, part)))
    return "\n".join(out)


BLOCK = re.compile(r"(<!-- results: (\w+)( meta)? -->\n)(.*?)(<!-- end results -->)", re.S)


def update_markdown(text, results):
    """Rewrites every generated block of text from results; the rest stays as it is."""
    def replace(m):
        part, meta = m.group(2), m.group(3)
        if part not in TABLES:
            return m.group(0)
        body = part_meta(results, part) if meta else part_tables(results, part)
        return m.group(1) + body + m.group(5)
    return BLOCK.sub(replace, text)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="*", default=[DEFAULT_RESULTS])
    ap.add_argument("--save", help="write the (merged) results to this directory")
    ap.add_argument("--plots", help="write the plots (PNG) into this directory")
    ap.add_argument("--update", action="append", default=[], help="rewrite the generated blocks of this markdown file")
    ap.add_argument("--quiet", action="store_true", help="do not print the tables")
    args = ap.parse_args(argv)
    results = Results()
    for directory in args.results:
        loaded = Results.load(directory)
        if not loaded.rows and not loaded.meta:
            print("report.py: no results in %s" % directory, file=sys.stderr)
            return 1
        results.merge(loaded)
    if args.save:
        results.save(args.save)
    if not args.quiet:
        sys.stdout.write(tables_markdown(results))
    for path in args.update:
        with open(path) as f:
            text = f.read()
        new = update_markdown(text, results)
        if new != text:
            with open(path, "w") as f:
                f.write(new)
    if args.plots:
        import plots
        written, skipped = plots.write_all(results, args.plots)
        for w in written:
            print("report.py: wrote %s" % w, file=sys.stderr)
        if skipped:
            print("report.py: %s" % skipped, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
