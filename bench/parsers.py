"""What bench/run.sh reads from the programs it runs: one function a format,
text in, numbers out (None where a line is missing). bench/test/ checks each
on recorded output."""

import csv
import io
import re

NUM = r"([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)"


def _find(pattern, text, group=1, cast=float):
    m = re.search(pattern, text, re.MULTILINE)
    if not m:
        return None
    v = m.group(group)
    return cast(v) if cast else v


def per_step(text):
    """ms per iteration / round / step of a sample's whole run (cg, sp, md)."""
    return _find(r"\(" + NUM + r" ms per (?:iteration|round|step)\)", text)


def whole_ms(text):
    """The sample's whole time: "solve time: X ms" (cg) or "whole time: X ms" (sp, md)."""
    return _find(r"^(?:solve|whole) time: " + NUM + " ms", text)


def kernel_median(text, kernel):
    """--time-kernels: "KERNEL: median X ms over N launches"."""
    return _find(r"^" + re.escape(kernel) + r": median " + NUM + " ms", text)


def selector(text):
    """The first site's selector line of an IRREGFIX_STATS report, without its medians."""
    line = _find(r"^irregfix:\s+selector: (.*)$", text, cast=None)
    if line is None:
        return None
    return line.split("; medians")[0].strip()


def stats_layout(text):
    """The layout of the first site in an IRREGFIX_STATS report."""
    return _find(r"^irregfix: site \S+ kernel \S+ pattern \S+ layout (\S+)", text, cast=None)


def hidden_percent(text):
    """The part of a pipelined remap hidden behind the kernel (IRREGFIX_STATS), percent."""
    return _find(r"pipelined launches .*\(([0-9]+)%\) hidden", text)


def cg_spmv(text):
    """cg --spmv: first launch, median, median after a write, bandwidth."""
    return {
        "first_ms": _find(r"^spmv first launch: " + NUM + " ms", text),
        "kernel_ms": _find(r"^spmv: median " + NUM + " ms", text),
        "refresh_ms": _find(r"^spmv after a write of the values: median " + NUM + " ms", text),
        "gbs": _find(r"^spmv bandwidth: " + NUM + " GB/s", text),
    }


def matrix_stats(text):
    """cg: "rows: N  nnz: M  per row: min a, avg b, max c"."""
    m = re.search(r"^rows: (\d+)\s+nnz: (\d+)\s+per row: min (\d+), avg " + NUM + r", max (\d+)", text,
                  re.MULTILINE)
    if not m:
        return {}
    return {"rows": float(m.group(1)), "nnz": float(m.group(2)), "min_row": float(m.group(3)),
            "avg_row": float(m.group(4)), "max_row": float(m.group(5))}


def cusparse(text):
    """bench/cusparse_spmv: ALG1, ALG2 medians and errors, the copy's bandwidth."""
    out = {}
    for alg in ("alg1", "alg2"):
        m = re.search(r"^cusparse " + alg + r": median " + NUM + r" ms .*relative error " + NUM, text,
                      re.MULTILINE)
        if m:
            out[alg + "_ms"] = float(m.group(1))
            out[alg + "_error"] = float(m.group(2))
    out["copy_ms"] = _find(r"^copy: median " + NUM + " ms", text)
    out["copy_gbs"] = _find(r"^copy: median [0-9.]+ ms, " + NUM + " GB/s", text)
    return out


# The kinds of line remap_bench prints: how each starts, and the case it names.
REMAP_LINES = [
    (r"^neighbors n=\s*(\d+) m=(\d+) float4 (\S+)\s+(\S+)\s",
     lambda n, m, order, layout: "neighbours %s x %s, %s, %s, 16 B" % (n, m, order, layout)),
    (r"^range2 n=(\d+) (\d+)/row esz=(\d+)",
     lambda n, per_row, esz: "two-level range %s rows, %s/row, %s B" % (n, per_row, esz)),
    (r"^(.*?)\s+n=\s*\d+.*?esz=\s*(\d+)", lambda name, esz: "%s, %s B" % (name.strip(), esz)),
]


def remap_bench(text):
    """bench/remap_bench: per case, the remap's and a device copy's GB/s.
    Returns [(case, {"remap_gbs", "copy_gbs", "remap_ms", "copy_ms"})]."""
    rows = []
    for line in text.splitlines():
        for pattern, name in REMAP_LINES:
            m = re.match(pattern + r".*\| (?:remap|copy kernel) " + NUM + " ms +" + NUM +
                         r" GB/s \| (?:copy|memcpy) " + NUM + " ms +" + NUM + " GB/s", line)
            if m:
                g = m.groups()
                rows.append((name(*g[:-4]), {"remap_ms": float(g[-4]), "remap_gbs": float(g[-3]),
                                              "copy_ms": float(g[-2]), "copy_gbs": float(g[-1])}))
                break
    return rows


SCATTER_LINE = (r"^scatter matrix=(\S+) rows=\d+ nnz=\d+ segments=(\d+) longest=(\d+) \| atomics " + NUM +
                r" ms \| executor " + NUM + r" ms .*?\| with inspector " + NUM + r" ms .*?\| max rel error executor " +
                NUM + " atomics " + NUM + r" \| bit-identical runs: executor (yes|no) atomics (yes|no) \| auto after 64: "
                r"executor (\d+), atomics (\d+)")


SCATTER_STREAM = r"\| in a stream: atomics " + NUM + " ms executor " + NUM + " ms"


def scatter_bench(text):
    """bench/scatter_bench: per matrix, atomics against the inspector-executor.
    Returns [(matrix, {"segments", "longest", "atomics_ms", "executor_ms", "inspector_ms", "executor_error",
    "atomics_error", "executor_same", "atomics_same", "auto_executor", "auto_atomics"[, "atomics_stream_ms",
    "executor_stream_ms"]})] (the stream's times where the line has them)."""
    rows = []
    for m in re.finditer(SCATTER_LINE, text, re.MULTILINE):
        g = m.groups()
        stream = re.search(SCATTER_STREAM, text[m.start():].split("\n", 1)[0])
        rows.append((g[0], {"segments": float(g[1]), "longest": float(g[2]), "atomics_ms": float(g[3]),
                            "executor_ms": float(g[4]), "inspector_ms": float(g[5]), "executor_error": float(g[6]),
                            "atomics_error": float(g[7]), "executor_same": 1.0 if g[8] == "yes" else 0.0,
                            "atomics_same": 1.0 if g[9] == "yes" else 0.0, "auto_executor": float(g[10]),
                            "auto_atomics": float(g[11])}))
        if stream:
            rows[-1][1].update({"atomics_stream_ms": float(stream.group(1)),
                                "executor_stream_ms": float(stream.group(2))})
    return rows


def launch_overhead(text):
    """bench/launch_overhead_bench: host microseconds a launch, by kind, and the first miss."""
    out = {}
    for m in re.finditer(r"^\| ([^|]+?) \| " + NUM + r" \|$", text, re.MULTILINE):
        out[m.group(1).strip()] = float(m.group(2))
    out["cached launch overhead"] = _find(r"^overhead of a cached launch .*: " + NUM + " us", text)
    out["settled launch overhead"] = _find(r"^overhead of a settled launch .*?: " + NUM + " us", text)
    out["first miss ms"] = _find(r"^first transformed launch .*?: " + NUM + " ms", text)
    out["later miss ms"] = _find(r"a miss after it: " + NUM + " ms", text)
    return {k: v for k, v in out.items() if v is not None}


def module_load(text):
    """bench/module_load_bench: host ms until the first and a later remap's copy is made."""
    return {
        "first_ms": _find(r"^first remap .*until done " + NUM + " ms", text),
        "later_ms": _find(r"^second remap .*until done " + NUM + " ms", text),
    }


LAYOUT_COLUMNS = ["csr", "cusparse", "ell", "sell32", "sell32s-256", "sell32s-4096",
                  "pad-ell", "pad-sell32", "pad-sell32s-256", "pad-sell32s-4096"]


def layouts_bench(text):
    """bench/layouts_bench: per matrix, kernel ms (csr, cusparse, each layout) and padding."""
    rows = []
    for line in text.splitlines():
        fields = line.split()
        # name, rows, nnz, the ten columns, the best layout's speedups, the largest difference
        if len(fields) < 16:
            continue
        try:
            nums = [float(x) for x in fields[-15:]]
        except ValueError:
            continue
        values = {k: v for k, v in zip(LAYOUT_COLUMNS, nums[2:12]) if v >= 0}  # -1: declined
        values["rows"] = nums[0]
        rows.append((" ".join(fields[:-15]), values))
    return rows


def ctest(text):
    """ctest's summary line: passed, failed, total."""
    # "100% tests passed, 0 tests failed out of 200"; newer CMake: "100% tests passed out of 241".
    m = re.search(r"(\d+)% tests passed(?:, (\d+) tests failed)? out of (\d+)", text)
    if not m:
        return None
    failed, total = int(m.group(2) or 0), int(m.group(3))
    skipped = len(re.findall(r"\*\*\*Skipped", text)) or len(re.findall(r"\(Skipped\)", text))
    return {"passed": total - failed - skipped, "failed": failed, "skipped": skipped, "total": total}


def ctest_failed(text):
    """The tests ctest lists after "The following tests FAILED:" (names only)."""
    tail = text.split("The following tests FAILED:", 1)
    if len(tail) < 2:
        return []
    return re.findall(r"^\s*\d+ - (\S+)", tail[1], re.M)


def markdown_table(text):
    """The first markdown table in text: a list of dicts by header."""
    lines = [l.strip() for l in text.splitlines() if l.strip().startswith("|")]
    if len(lines) < 2:
        return []
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = []
    for l in lines[2:]:
        cells = [c.strip() for c in l.strip("|").split("|")]
        if len(cells) == len(header):
            rows.append(dict(zip(header, cells)))
    return rows


def number(text):
    """A leading number in text ("0.435", "1.16x", "12.3 ms"), or None."""
    m = re.match(r"\s*" + NUM, text or "")
    return float(m.group(1)) if m else None


def nsys_nvtx(text):
    """`nsys stats --report nvtx_sum --format csv`: per range, instances and total ms."""
    start = text.find('"Time (%)"')
    if start < 0:
        start = text.find("Time (%)")
    if start < 0:
        return []
    rows = []
    for r in csv.DictReader(io.StringIO(text[start:])):
        name = r.get("Range") or r.get("Name")
        total = number(r.get("Total Time (ns)"))
        count = number(r.get("Instances"))
        if name and total is not None:
            rows.append((name, {"instances": count, "total_ms": total / 1e6}))
    return rows


def ncu_sectors(text):
    """ncu --csv with one metric: the mean value per kernel name."""
    sums, counts = {}, {}
    for line in text.splitlines():
        if not re.match(r'^"\d', line):
            continue
        cells = next(csv.reader([line]))
        if len(cells) < 6:
            continue
        kernel = re.sub(r"\(.*", "", cells[4]).strip()
        value = number(cells[-1].replace(",", ""))
        if value is None:
            continue
        sums[kernel] = sums.get(kernel, 0.0) + value
        counts[kernel] = counts.get(kernel, 0) + 1
    return {k: sums[k] / counts[k] for k in sums}
