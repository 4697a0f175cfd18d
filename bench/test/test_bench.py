"""Tests of the benchmark driver and report without a GPU: argument handling,
the commands a run would make (--dry-run), every part run against recorded
program output (fixtures/), the tables and the RESULTS.md blocks from the
checked-in results, and the plots (skipped without matplotlib)."""

import io
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)

import census  # noqa: E402
import realworld  # noqa: E402
import realworld_inputs  # noqa: E402
import driver  # noqa: E402
import parsers  # noqa: E402
import report  # noqa: E402
from results import Results  # noqa: E402

FIXTURES = os.path.join(HERE, "fixtures")
SEED = os.path.join(BENCH, "results", "current")


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return f.read()


class FakeRunner(driver.Runner):
    """Answers each command with recorded output, as a GPU machine would have."""

    def __init__(self, out):
        super().__init__(os.path.join(out, "logs"), dry=False, echo=lambda *_: None)
        self.out = out
        self.commands = []

    def which(self, name):
        return name  # the GPU machine has every tool

    def __call__(self, name, cmd, env=None, cwd=None, timeout=None):
        self.commands.append((name, cmd, dict(env or {})))
        prog = os.path.basename(cmd[0])
        if "--dump" in cmd:  # every variant writes the same y: bit-identical
            with open(cmd[cmd.index("--dump") + 1], "wb") as f:
                f.write(b"\x00" * 16)
        if prog in ("cg", "cg_original") and "--spmv" in cmd:
            text = fixture("cg_spmv_original.log" if prog == "cg_original" else "cg_spmv_auto.log")
        elif prog.startswith("cg"):
            text = fixture("cg_solve.log")
        elif prog == "cusparse_spmv":
            text = fixture("cusparse.log")
        elif prog.startswith("sp"):
            text = fixture("sp.log")
        elif prog.startswith("md"):
            text = fixture("md.log")
        elif prog == "irregfix_remap_bench":
            text = fixture("remap_bench.log")
        elif prog == "irregfix_layouts_bench":
            text = fixture("layouts_bench.log")
        elif prog == "irregfix_scatter_bench":
            text = fixture("scatter_bench.log")
        elif prog == "irregfix_launch_overhead_bench":
            text = fixture("launch_overhead.log")
        elif prog == "irregfix_module_load_bench":
            text = fixture("module_load.log")
        elif prog == "ctest":
            text = fixture("ctest.log")
        elif prog == "nsys" and "stats" in cmd:
            text = fixture("nsys_nvtx.csv")
        elif prog == "ncu":
            text = fixture("ncu.csv")
        elif len(cmd) > 2 and cmd[1].endswith("realworld.py") and cmd[2] == "run":
            out = cmd[cmd.index("--out") + 1]
            os.makedirs(out, exist_ok=True)
            shutil.copy(os.path.join(FIXTURES, "realworld_results.json"), os.path.join(out, "results.json"))
            text = ""
        else:
            text = ""
        return driver.Run(0, text)


class Parsers(unittest.TestCase):
    def test_samples(self):
        self.assertEqual(parsers.per_step(fixture("cg_solve.log")), 0.0705)
        self.assertEqual(parsers.whole_ms(fixture("sp.log")), 11.645)
        self.assertEqual(parsers.kernel_median(fixture("md.log"), "lj_forces"), 0.16)
        self.assertEqual(parsers.hidden_percent(fixture("md.log")), 70.0)
        self.assertTrue(parsers.selector(fixture("cg_solve.log")).startswith("sell-32-sigma: a remap"))
        self.assertNotIn("medians", parsers.selector(fixture("cg_solve.log")))
        self.assertEqual(parsers.stats_layout(fixture("cg_spmv_auto.log")), "ell-colmajor")
        self.assertIsNone(parsers.per_step("nothing here"))

    def test_spmv_and_cusparse(self):
        v = parsers.cg_spmv(fixture("cg_spmv_auto.log"))
        self.assertEqual((v["first_ms"], v["kernel_ms"], v["refresh_ms"], v["gbs"]), (1.3201, 0.0199, 0.0554, 2609))
        self.assertEqual(parsers.matrix_stats(fixture("cg_spmv_auto.log"))["nnz"], 4995995)
        c = parsers.cusparse(fixture("cusparse.log"))
        self.assertEqual((c["alg1_ms"], c["alg2_ms"], c["copy_gbs"]), (0.0316, 0.0352, 3065))
        self.assertEqual(c["alg1_error"], 6.6e-08)

    def test_benchmarks(self):
        newer = parsers.ctest("        1 - Nvtx.OffByDefault (Skipped)\n100% tests passed out of 241\n")
        self.assertEqual(newer, {"passed": 240, "failed": 0, "skipped": 1, "total": 241})
        self.assertEqual(parsers.ctest_failed("100% tests passed out of 241\n"), [])
        failing = ("99% tests passed, 2 tests failed out of 241\n\nThe following tests FAILED:\n"
                   "\t 12 - RuntimeGpu.Stale (Failed)\n\t 40 - scatter_gpu (Timeout)\nErrors while running CTest\n")
        self.assertEqual(parsers.ctest_failed(failing), ["RuntimeGpu.Stale", "scatter_gpu"])
        scatter = dict(parsers.scatter_bench(fixture("scatter_bench.log")))
        self.assertEqual(list(scatter), ["uniform", "power-law"])
        self.assertEqual(scatter["power-law"]["longest"], 82302.0)
        self.assertEqual(scatter["uniform"]["executor_same"], 1.0)
        self.assertEqual(scatter["uniform"]["atomics_same"], 0.0)
        self.assertEqual(scatter["uniform"]["executor_stream_ms"], 0.18)
        self.assertNotIn("executor_stream_ms", scatter["power-law"])  # a line without the stream's times
        rows = dict(parsers.remap_bench(fixture("remap_bench.log")))
        self.assertEqual(rows["1M rows, 5/row, 8 B"]["remap_gbs"], 2882.5)
        self.assertEqual(rows["neighbours 12288 x 128, random, nb[j*n+t], 16 B"]["copy_gbs"], 2516.6)
        self.assertEqual(rows["two-level range 1048576 rows, 5/row, 8 B"]["remap_ms"], 0.05)
        lay = dict(parsers.layouts_bench(fixture("layouts_bench.log")))
        self.assertEqual(list(lay), ["uniform 5/row", "irregular 7-31/row", "skewed 1-64/row"])
        self.assertEqual(lay["irregular 7-31/row"]["sell32s-256"], 0.147)
        self.assertNotIn("sell32", lay["skewed 1-64/row"])  # -1: the layout was declined
        self.assertEqual(lay["uniform 5/row"]["rows"], 8000000)
        o = parsers.launch_overhead(fixture("launch_overhead.log"))
        self.assertEqual(o["original kernel <<<>>>"], 2.78)
        self.assertEqual(o["cached launch overhead"], 0.33)
        self.assertEqual(o["first miss ms"], 2.39)
        self.assertEqual(parsers.module_load(fixture("module_load.log")), {"first_ms": 0.89, "later_ms": 0.2})

    def test_tools(self):
        self.assertEqual(parsers.ctest(fixture("ctest.log")),
                         {"passed": 199, "failed": 0, "skipped": 1, "total": 200})
        ranges = dict(parsers.nsys_nvtx(fixture("nsys_nvtx.csv")))
        self.assertEqual(ranges["irregfix:probe spmv_csr @ cg.cu:35:5 [original]"]["instances"], 6)
        self.assertAlmostEqual(ranges["irregfix:remap spmv_csr @ cg.cu:35:5 [auto]"]["total_ms"], 1.2)
        sectors = parsers.ncu_sectors(fixture("ncu.csv"))
        self.assertEqual(sectors, {"spmv_csr_irregfix": 2313161.0})
        table = parsers.markdown_table(fixture("tool_speed.log"))
        self.assertEqual(table[1]["file"], "generated, 200 kernels")
        self.assertEqual(parsers.number(table[1]["ratio"]), 1.23)
        self.assertEqual(parsers.number(table[1]["irregfix (CPU s)"]), 0.342)


class Arguments(unittest.TestCase):
    def test_parts(self):
        a = driver.parse_args(["--parts", "spmv,cg md"])
        self.assertEqual(a.parts, ["spmv", "cg", "md"])
        self.assertEqual(driver.parse_args([]).parts, driver.PARTS)
        self.assertEqual(driver.parse_args(["--parts", "all"]).size, "quick")
        for bad in (["--parts", "spmv,bogus"], ["--parts", ""], ["--size", "huge"]):
            with redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
                driver.parse_args(bad)

    def test_configure_on_a_machine_without_clang(self):
        a = driver.parse_args(["--parts", "spmv", "--rewritten", "/x/.devgen", "--arch", "100"])
        cmd = driver.configure_command(a)
        self.assertIn("-DIRREGFIX_BUILD_TOOL=OFF", cmd)
        self.assertIn("-DIRREGFIX_REWRITTEN_DIR=/x/.devgen", cmd)
        self.assertIn("-DCMAKE_CUDA_ARCHITECTURES=100", cmd)
        self.assertIn("-DIRREGFIX_BUILD_TESTS=OFF", cmd)  # the spmv part runs no tests


class Logs(unittest.TestCase):
    def test_each_run_keeps_its_command_and_output(self):
        out = tempfile.mkdtemp()
        try:
            run = driver.Runner(out, echo=lambda *_: None)("part/echo", ["sh", "-c", "echo hello; exit 3"],
                                                           env={"A": "1"})
            self.assertEqual((run.rc, run.output), (3, "hello\n"))
            with open(os.path.join(out, "part", "echo.log")) as f:
                self.assertEqual(f.read(), "$ A=1 sh -c 'echo hello; exit 3'\n(exit 3)\nhello\n")
        finally:
            shutil.rmtree(out)


class DryRun(unittest.TestCase):
    def test_every_part_says_what_it_would_run(self):
        out = tempfile.mkdtemp()
        try:
            lines = []
            status = driver.main(["--parts", "all", "--dry-run", "--out", out, "--rewritten", ".devgen"],
                                 echo=lines.append)
            self.assertEqual(status, 0)
            text = "\n".join(lines)
            self.assertIn("cmake --build", text)
            self.assertIn("IRREGFIX_LAYOUT=sell32s IRREGFIX_STATS=1", text)
            self.assertIn("cg --matrix offshore --scale 8 --spmv 30 --refresh --flush-l2", text)
            self.assertIn("cusparse_spmv --matrix grid --scale 1", text)
            self.assertIn("IRREGFIX_NVTX=1", text)
            for part in driver.PARTS:
                self.assertIn("== " + part, text)
            meta = Results.load(out).meta
            self.assertEqual(sorted(meta["parts"]), sorted(driver.PARTS))
        finally:
            shutil.rmtree(out)


class Parts(unittest.TestCase):
    """Every part run against recorded output: results, statuses and tables."""

    def test_a_run_writes_results_and_tables(self):
        out = tempfile.mkdtemp()
        try:
            fake = FakeRunner(out)
            rewritten = os.path.join(out, "rewritten")
            shutil.copytree(FIXTURES, rewritten)
            os.makedirs(os.path.join(rewritten, "realworld"))
            open(os.path.join(rewritten, "realworld", "manifest.json"), "w").close()
            parts = "spmv,cg,sp,md,hoist,remap,layouts,scatter,overhead,tests,nvtx,sectors,realworld"
            with redirect_stdout(io.StringIO()):
                status = driver.main(["--parts", parts, "--no-build", "--out", out, "--rewritten", rewritten],
                                     runner=fake, echo=lambda *_: None)
            r = Results.load(out)
            statuses = {p: m["status"] for p, m in r.meta["parts"].items()}
            self.assertEqual(status, 0, statuses)
            self.assertTrue(all(s == "ok" for s in statuses.values()), statuses)
            self.assertEqual(r.value("spmv", "grid 1x", "original", "kernel_ms"), 0.0195)
            self.assertEqual(r.value("spmv", "offshore 8x", "sell32s", "kernel_ms"), 0.0199)
            self.assertEqual(r.value("spmv", "grid 8x", "cusparse-alg2", "kernel_ms"), 0.0352)
            self.assertEqual(r.value("spmv", "grid 1x", "auto", "bitwise"), 1.0)
            self.assertEqual(r.value("cg", "offshore 8x", "none", "ms_per_iter"), 0.0705)
            self.assertEqual(r.value("md", "262144 sorted", "sharing", "kernel_ms"), 0.16)
            self.assertEqual(r.value("overhead", "first remap", "eager", "ms"), 0.89)
            self.assertEqual(r.value("scatter", "power-law", "executor", "ms"), 6.806)
            self.assertEqual(r.value("scatter", "uniform", "auto", "atomics_launches"), 61.0)
            self.assertEqual(r.value("tests", "ctest", "all", "failed"), 0.0)
            self.assertEqual(r.value("tests", "md bit for bit", "sharing", "identical"), 1.0)
            self.assertEqual(r.value("realworld", "simpleSpmv", "irregfix", "ms"), 5210.4)
            self.assertEqual(r.value("realworld", "simpleSpmv", "irregfix", "identical"), 1.0)
            self.assertEqual(r.value("realworld", "simpleSpmv", "tool", "rewritten"), 2.0)
            self.assertEqual(r.value("realworld", "md", "irregfix", "identical"), 0.0)
            self.assertIsNone(r.value("realworld", "md", "irregfix", "ms"))
            realworld = [c for n, c, e in fake.commands if n == "realworld/run"][0]
            self.assertEqual(realworld[realworld.index("--reps") + 1], "3")
            self.assertEqual(r.value("nvtx", "irregfix:chunk spmv_csr @ cg.cu:35:5 [1 of 4]", "cg offshore",
                                     "instances"), 4.0)
            self.assertEqual(r.value("sectors", "spmv grid 1x", "irregfix", "sectors"), 2313161.0)
            # The flushed sizes flush; the forced layouts reach the programs.
            flushed = [c for n, c, e in fake.commands if n.startswith("spmv/grid-8")]
            self.assertTrue(all("--flush-l2" in c for c in flushed))
            layouts = {e.get("IRREGFIX_LAYOUT") for n, c, e in fake.commands if n.startswith("cg/")}
            self.assertEqual(layouts, {None, "auto", "ell", "sell32s", "locality", "none"})
            with open(os.path.join(out, "tables.md")) as f:
                tables = f.read()
            self.assertIn("| grid 8x |", tables)
            self.assertIn("## realworld", tables)
            self.assertIn("| power-law | 1025735 | 82302 |", tables)
        finally:
            shutil.rmtree(out)

    def test_a_second_call_adds_its_parts_and_replaces_theirs(self):
        out = tempfile.mkdtemp()
        try:
            with redirect_stdout(io.StringIO()):
                driver.main(["--parts", "sp,md", "--no-build", "--out", out], runner=FakeRunner(out),
                            echo=lambda *_: None)
                driver.main(["--parts", "md,remap", "--no-build", "--out", out], runner=FakeRunner(out),
                            echo=lambda *_: None)
            r = Results.load(out)
            self.assertEqual(sorted(r.meta["parts"]), ["md", "remap", "sp"])
            self.assertEqual(len([x for x in r.part("md") if x["case"] == "262144 random"
                                  and x["variant"] == "original" and x["metric"] == "ms_per_step"]), 1)
            self.assertIn("--parts md,remap", r.meta["parts"]["md"]["command"])
            self.assertIn("--parts sp,md", r.meta["parts"]["sp"]["command"])
        finally:
            shutil.rmtree(out)

    def test_a_failing_program_fails_its_part_only(self):
        out = tempfile.mkdtemp()
        try:
            class Failing(FakeRunner):
                def __call__(self, name, cmd, env=None, cwd=None, timeout=None):
                    run = super().__call__(name, cmd, env, cwd, timeout)
                    return driver.Run(3, run.output) if os.path.basename(cmd[0]) == "sp" else run
            with redirect_stdout(io.StringIO()):
                status = driver.main(["--parts", "sp,md", "--no-build", "--out", out], runner=Failing(out),
                                     echo=lambda *_: None)
            meta = Results.load(out).meta["parts"]
            self.assertEqual(status, 1)
            self.assertTrue(meta["sp"]["status"].startswith("failed: sp 4000 / 16800 auto: exit 3"))
            self.assertEqual(meta["md"]["status"], "ok")
        finally:
            shutil.rmtree(out)


class Report(unittest.TestCase):
    def test_tables_of_the_checked_in_results(self):
        r = Results.load(SEED)
        text = report.tables_markdown(r)
        for part in ("spmv", "cg", "sp", "md", "hoist", "remap", "layouts", "overhead", "sectors", "tool"):
            self.assertIn("## " + part, text)
        self.assertIn("| offshore 8x | 2078312 | 16.2 |", text)
        self.assertRegex(text, r"\| \d+\.\d\dx \|")  # speedups computed from the values

    def test_results_md_is_up_to_date(self):
        """bench/RESULTS.md's generated blocks are what report.py makes of bench/results/current."""
        with open(os.path.join(BENCH, "RESULTS.md")) as f:
            text = f.read()
        self.assertTrue("<!-- results: spmv -->" in text, "bench/RESULTS.md has no generated blocks")
        self.assertTrue(report.update_markdown(text, Results.load(SEED)) == text,
                        "bench/RESULTS.md is behind bench/results/current: run "
                        "bench/report.py --update bench/RESULTS.md --plots bench/plots")

    def test_runs_merge_a_later_ones_parts_replacing(self):
        seed = Results.load(SEED)
        later = Results(meta={"device": "NVIDIA H100", "date": "2027-01-01"})
        later.add("md", "262144 random", "original", "ms_per_step", 0.5, "ms")
        later.part_status("md", "ok", run={"device": "NVIDIA H100"})
        out = tempfile.mkdtemp()
        try:
            later.save(out)
            merged = tempfile.mkdtemp()
            with redirect_stdout(io.StringIO()):
                self.assertEqual(report.main([SEED, out, "--save", merged]), 0)
            r = Results.load(merged)
            shutil.rmtree(merged)
        finally:
            shutil.rmtree(out)
        self.assertEqual(r.value("md", "262144 random", "original", "ms_per_step"), 0.5)
        self.assertIsNone(r.value("md", "262144 sorted", "original", "ms_per_step"))  # the old md is gone
        self.assertEqual(r.value("spmv", "grid 8x", "original", "kernel_ms"),
                         seed.value("spmv", "grid 8x", "original", "kernel_ms"))
        self.assertEqual(r.meta["parts"]["md"]["device"], "NVIDIA H100")
        # spmv keeps the device of the run that measured it
        spmv_run = seed.meta["parts"]["spmv"]
        self.assertIn(spmv_run.get("device", seed.meta.get("device")), report.part_meta(r, "spmv"))
        self.assertNotIn("NVIDIA H100**, 2027", report.part_meta(r, "spmv"))

    def test_blocks_are_replaced_and_the_rest_kept(self):
        r = Results()
        r.add("sp", "1 / 2", "original", "whole_ms", 2.0, "ms")
        r.add("sp", "1 / 2", "auto", "whole_ms", 1.0, "ms")
        text = "intro\n<!-- results: sp -->\nold\n<!-- end results -->\noutro\n"
        new = report.update_markdown(text, r)
        self.assertTrue(new.startswith("intro\n<!-- results: sp -->\nSP, milliseconds"))
        self.assertIn("| 1 / 2 | 2.000 | 1.000 | 2.00x |", new)
        self.assertTrue(new.endswith("<!-- end results -->\noutro\n"))
        self.assertEqual(report.update_markdown(new, r), new)

    def test_plots(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("matplotlib is not installed")
        import plots
        out = tempfile.mkdtemp()
        try:
            written, why = plots.write_all(Results.load(SEED), out)
            self.assertEqual(why, "")
            names = sorted(os.path.basename(w) for w in written)
            self.assertEqual(names, ["cg_speedup.png", "layouts_speedup.png", "md_step.png", "realworld_speedup.png",
                                     "remap_bandwidth.png", "spmv_speedup.png"])
            for w in written:
                with open(w, "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        finally:
            shutil.rmtree(out)


class CensusTest(unittest.TestCase):
    """The census's reading of nvcc command lines and its tally, without the tool."""

    def test_nvcc_flags_that_mean_the_same_to_clang_are_kept(self):
        words = ["-std=c++17", "-Xcompiler", "-Wall", "-arch=sm_60", "-I../bfs-sycl", "-I", "inc", "-DN=4",
                 "--define-macro", "M", "-O3", "--expt-relaxed-constexpr", "-isystem", "/x", "-std", "c++14",
                 "--include-path=dir", "-c", "main.cu", "-o", "main.o"]
        self.assertEqual(census.nvcc_to_clang(words),
                         ["-std=c++17", "-I../bfs-sycl", "-I", "inc", "-DN=4", "-D", "M", "-isystem", "/x",
                          "-std=c++14", "-I", "dir"])

    def test_reasons_count_by_kind_not_by_name(self):
        self.assertEqual(census.reason_class("'val' is written in the kernel"), "'X' is written in the kernel")
        self.assertEqual(census.reason_class("'col' is written in the kernel"), "'X' is written in the kernel")

    def test_first_error_prefers_a_located_diagnostic(self):
        err = "irregfix: note: CUDA 13.0\nmain.cu:8:10: fatal error: 'mpi.h' file not found\n" \
              "irregfix: error: 'main.cu' has errors; nothing was written\n"
        self.assertEqual(census.first_error(err), "'mpi.h' file not found")

    def test_summary_counts_failures_against_what_nvcc_compiles(self):
        def row(name, rc, nvcc_rc="", reads=(), tool_s=1.0, parse_s=1.0):
            return {"program": name, "file": "main.cu", "tool_rc": rc, "tool_s": tool_s, "parse_rc": 0,
                    "parse_s": parse_s, "crash": isinstance(rc, int) and (rc < 0 or rc >= 128), "hang": rc == "timeout",
                    "error": "" if rc == 0 else "e", "nvcc_rc": nvcc_rc, "reads": list(reads)}
        rows = [row("a", 0, reads=[{"verdict": "rewritten"}, {"verdict": "not-rewritten", "reason": "'A' is written"}],
                    tool_s=1.2),
                row("b", 0, tool_s=3.0), row("c", 1, nvcc_rc=0), row("d", 1, nvcc_rc=1), row("e", -11), row("f", "timeout")]
        s = census.summarise(rows)
        self.assertEqual((s["files"], s["read"], s["rejected"], s["crashes"], s["hangs"]), (6, 2, 4, 1, 1))
        self.assertEqual(s["nvcc_compiles"], 5)  # only d fails under nvcc too
        self.assertEqual(s["rejected_but_nvcc_compiles"], 1)
        self.assertEqual(s["verdicts"], {"rewritten": 1, "not-rewritten": 1})
        self.assertEqual(s["refusals"], {"'X' is written": 1})
        self.assertAlmostEqual(s["ratio_median"], 2.1)
        self.assertAlmostEqual(s["ratio_max"], 3.0)
        self.assertEqual(dict(s["ratio_histogram"])["1.1-1.3x"], 1)
        self.assertEqual(dict(s["ratio_histogram"])[">= 3.0x"], 1)

    def test_ratios_prefer_cpu_time(self):
        self.assertAlmostEqual(census.ratio({"tool_s": 9.0, "parse_s": 3.0, "tool_cpu_s": 1.1, "parse_cpu_s": 1.0}), 1.1)
        self.assertAlmostEqual(census.ratio({"tool_s": 9.0, "parse_s": 3.0, "tool_cpu_s": None}), 3.0)
        rc, secs, cpu, out, _err = census.timed_cpu([sys.executable, "-c", "print(7)"], None, 60)
        self.assertEqual((rc, out.strip()), (0, "7"))
        if os.access(census.TIME, os.X_OK):
            self.assertIsNotNone(cpu)
            self.assertLessEqual(cpu, secs + 0.05)

    def test_the_journal_keeps_whole_rows_only(self):
        out = tempfile.mkdtemp()
        try:
            path = os.path.join(out, "rows.jsonl")
            with open(path, "w") as f:
                f.write('{"program": "a", "file": "main.cu"}\n{"program": "b", "file": "ma')
            self.assertEqual(census.read_journal(path), [{"program": "a", "file": "main.cu"}])
            self.assertEqual(census.read_journal(os.path.join(out, "none.jsonl")), [])
        finally:
            shutil.rmtree(out)

    def test_kernels_left_as_they_are_are_counted_from_the_remarks(self):
        err = ("main.cu:3:17: remark: kernel 'sort_a' left as it is: its analysis ran past its budget (2.0 s)\n"
               "main.cu:9:17: remark: gather site in 'b' transformed: ...\n"
               "main.cu:20:17: remark: kernel 'sort_c' left as it is: its analysis ran past its budget (2.0 s)\n")
        self.assertEqual(len(census.LEFT_AS_IS.findall(err)), 2)

    def test_the_parse_reads_nvccs_dialect_as_the_tool_does(self):
        cuda = tempfile.mkdtemp()
        try:
            os.makedirs(os.path.join(cuda, "include"))
            with open(os.path.join(cuda, "include", "cuda.h"), "w") as f:
                f.write("#define CUDA_VERSION 12040\n")
            with open(os.path.join(cuda, "version.json"), "w") as f:
                f.write('{"cuda_nvcc": {"name": "CUDA NVCC", "version": "12.4.131"}}')
            flags = census.parse_flags(cuda, "sm_90")
            self.assertIn("-D__CUDACC_VER_MAJOR__=12", flags)
            self.assertIn("-D__CUDACC_VER_MINOR__=4", flags)
            self.assertIn("-D__CUDACC_VER_BUILD__=131", flags)
            self.assertIn("-Wno-register", flags)
            self.assertEqual(flags[-2:], ["-include", os.path.join(census.ROOT, "lib", "Headers",
                                                                   "irregfix_nvcc_dialect.h")])
        finally:
            shutil.rmtree(cuda)


class RealworldTest(unittest.TestCase):
    """How the real programs' runs are compared and tabled."""

    def test_a_run_not_identical_says_why(self):
        report = {"reads": 1, "verdicts": {}, "refused": {}}
        row = {"name": "p", "report": report, "identical": False, "stale": False,
               "original_rc": "timeout", "verify_rc": -11}
        table = realworld.summary_table([row])
        self.assertIn("NO (the original timed out; the rewritten run died of signal 11)", table)
        row.update(identical=True, original_rc=0, verify_rc=0)
        self.assertIn("| yes |", realworld.summary_table([row]))
        self.assertEqual(realworld.failed_runs({"original_rc": 0, "verify_rc": 2}), " (the rewritten run exited 2)")

    def test_outputs_compare_without_their_timings(self):
        a = "n = 4096\nAverage kernel execution time: 1.25 (us)\nchecksum 7\nPASS\n"
        b = "n = 4096\nAverage kernel execution time: 0.98 (us)\nchecksum 7\nPASS\n"
        self.assertEqual(realworld.normalised(a), realworld.normalised(b))
        self.assertNotEqual(realworld.normalised(a), realworld.normalised(b.replace("checksum 7", "checksum 8")))
        self.assertTrue(realworld.passes(a))
        self.assertFalse(realworld.passes("PASS\nFAIL\n"))

    def test_outputs_compare_without_their_rates(self):
        a = ("Run completed:\n   Final Origin Energy = 2.720531e+07\n"
             "Grind time (us/z/c)  = 0.0156 (per dom)\nFOM                  =  64102.5 (z/s)\n"
             "updates: 1.5e9 cells/s\nlookups: 812.4 M/sec\nError rate: 0.000000\n")
        b = a.replace("64102.5", "66001.9").replace("1.5e9", "1.6e9").replace("812.4", "799.0").replace(
            "0.0156", "0.0151")
        self.assertEqual(realworld.normalised(a), realworld.normalised(b))
        self.assertIn("Final Origin Energy = 2.720531e+07", realworld.normalised(a))
        self.assertIn("Error rate: 0.000000", realworld.normalised(a))  # a result, not a rate of work
        self.assertNotEqual(realworld.normalised(a), realworld.normalised(a.replace("2.720531", "2.720532")))

    def test_a_log_stamped_with_seconds_compares_without_its_stamps(self):
        a = "[ 7.126] Rewrite Iteration\n[ 8.733] Finished GPU enumeration\n#nodes = 212982\n"
        b = a.replace("7.126", "7.276").replace("8.733", "8.883")
        self.assertEqual(realworld.normalised(a), realworld.normalised(b))
        self.assertIn("#nodes = 212982", realworld.normalised(a))
        self.assertIn("[3] entries", realworld.normalised("[3] entries\n"))  # an index, not a stamp

    def test_a_number_of_seconds_is_a_timing(self):
        a = " 0.013828000054 s,  5.781733989716 % : READ IMAGE FROM FILE\nrows 502\n"
        b = a.replace("0.0138", "0.0171").replace("5.78", "6.02")
        self.assertEqual(realworld.normalised(a), realworld.normalised(b))
        self.assertIn("rows 502", realworld.normalised(a))
        # Seconds as a unit in parentheses (a profile of parts: "pgain = 0.0123 (s)").
        c = "pgain = 0.012300 (s)\nk = 10\n"
        self.assertEqual(realworld.normalised(c), realworld.normalised(c.replace("0.0123", "0.0456")))
        self.assertIn("k = 10", realworld.normalised(c))

    @staticmethod
    def read(path):
        with open(path) as f:
            return f.read()

    def program(self, folder, script):
        """A stand-in for a built program: a shell script."""
        path = os.path.join(folder, "prog")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + script)
        os.chmod(path, 0o755)
        return path

    def test_output_files_are_compared_and_removed_before_each_run(self):
        with tempfile.TemporaryDirectory() as d:
            entry = {"name": "p", "run": "7", "check": "output", "setup": "", "outputs": ["out.pgm"]}
            with open(os.path.join(d, "out.pgm"), "w") as f:
                f.write("stale")
            prog = self.program(d, 'test -e out.pgm && echo stale; echo "$1" > out.pgm; echo done\n')
            rc, _, out, _ = realworld.run_compared(d, prog, entry, dict(os.environ), 10)
            self.assertEqual(rc, 0)
            self.assertNotIn("stale", out)
            _, _, again, _ = realworld.run_compared(d, prog, dict(entry, run="8"), dict(os.environ), 10)
            self.assertRegex(out, r"done\n+out.pgm: sha256 [0-9a-f]{64}$")
            self.assertNotEqual(out, again)
            os.remove(os.path.join(d, "out.pgm"))
            _, _, missing, _ = realworld.run_compared(d, self.program(d, "echo done\n"), entry, dict(os.environ), 10)
            self.assertIn("out.pgm: sha256 missing", missing)

    def test_the_setup_runs_in_the_programs_folder_and_its_failure_is_reported(self):
        with tempfile.TemporaryDirectory() as d:
            entry = {"name": "p", "cwd": d, "run": "", "check": "pass", "setup": "",
                     "outputs": [], "report": {"reads": 0, "verdicts": {}, "refused": {}}}
            self.assertIsNone(realworld.set_up(dict(entry, setup="touch made")))
            self.assertTrue(os.path.exists(os.path.join(d, "made")))
            row = realworld.run_program(dict(entry, setup="exit 3"), d, 1, 10)
            self.assertFalse(row["identical"])
            self.assertIn("NO (setup exited 3)", realworld.summary_table([row]))

    def test_a_programs_own_clock_is_summed_over_its_matches_in_its_unit(self):
        clock = {"pattern": r"Device time: ([0-9.]+)", "ms": 1000}
        self.assertEqual(realworld.own_clock("Device time: 1.5\nHost time: 9\nDevice time: 0.25\n", clock), 1750.0)
        self.assertIsNone(realworld.own_clock("Host time: 9\n", clock))
        self.assertIsNone(realworld.own_clock("Device time: 1.5\n", None))

    def test_a_program_that_times_itself_is_also_compared_by_its_clock(self):
        with tempfile.TemporaryDirectory() as d:
            for side, device in (("original", "30"), ("irregfix", "20")):
                with open(os.path.join(d, side), "w") as f:
                    f.write("#!/bin/sh\necho result 7; echo 'Device time: %s'\n" % device)
                os.chmod(os.path.join(d, side), 0o755)
            entry = {"name": "p", "cwd": d, "run": "", "check": "output", "setup": "", "outputs": [],
                     "report": {"reads": 1, "verdicts": {"rewritten": 1}, "refused": {}},
                     "clock": {"pattern": r"Device time: ([0-9.]+)", "ms": 1, "what": "its device time"}}
            row = realworld.run_program(entry, d, 3, 10)
            self.assertTrue(row["identical"])
            self.assertEqual((row["original_clock_ms"], row["irregfix_clock_ms"]), (30.0, 20.0))
            self.assertAlmostEqual(row["clock_speedup"], 1.5)
            self.assertIn("| p | its device time | 30.0 (30.0–30.0) | 20.0 (20.0–20.0) | 1.50x |",
                          realworld.clock_table([row]))
            entry.pop("clock")
            self.assertEqual(realworld.clock_table([realworld.run_program(entry, d, 1, 10)]), "")

    def test_the_lists_run_fields_replace_the_manifests(self):
        import json
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "manifest.json"), "w") as f:
                json.dump([{"name": "a", "cwd": d, "run": "old", "check": "output", "built": True},
                           {"name": "b", "cwd": d, "run": "kept", "check": "pass", "built": True}], f)
            with open(os.path.join(d, "list.json"), "w") as f:
                json.dump({"programs": [{"name": "a", "dir": "a-cuda", "run": "new", "setup": "gen",
                                         "outputs": ["o"]}]}, f)
            a, b = realworld.built_programs(d, listed=os.path.join(d, "list.json"))
            self.assertEqual((a["run"], a["check"], a["setup"], a["outputs"]), ("new", "output", "gen", ["o"]))
            self.assertEqual((b["run"], b["check"], b["setup"], b["outputs"]), ("kept", "pass", "", []))

    def test_the_generated_graphs_distances_are_its_shortest_paths(self):
        side = 6
        adjacency = realworld_inputs.sssp_graph(side)
        self.assertLessEqual(max(len(out) for out in adjacency), 3)  # the program's block queue holds that
        distance = realworld_inputs.shortest_distances(adjacency, 0)
        self.assertNotIn(None, distance)
        for u, out in enumerate(adjacency):
            for v, cost in out:
                self.assertLessEqual(distance[v], distance[u] + cost)
        with tempfile.TemporaryDirectory() as d:
            realworld_inputs.write_sssp(side, os.path.join(d, "in", "g.dat"), os.path.join(d, "out", "g.out"))
            words = self.read(os.path.join(d, "in", "g.dat")).split()
            nodes, edges = int(words[0]), int(words[1])
            self.assertEqual((nodes, edges, len(words)), (36, sum(map(len, adjacency)), 3 + 2 * nodes + 2 * edges))
            lines = self.read(os.path.join(d, "out", "g.out")).split("\n")
            self.assertEqual(lines[0], "36")
            self.assertEqual(lines[36], "35 %d" % distance[35])

    def test_the_generated_image_has_the_three_header_lines_srad_skips(self):
        with tempfile.TemporaryDirectory() as d:
            realworld_inputs.write_pgm(5, 4, os.path.join(d, "data", "i.pgm"))
            lines = self.read(os.path.join(d, "data", "i.pgm")).splitlines()
            self.assertEqual(lines[:3], ["P2", "4 5", "255"])
            values = [int(v) for line in lines[3:] for v in line.split()]
            self.assertEqual(len(values), 20)
            self.assertTrue(all(0 <= v <= 255 for v in values))

    def test_the_table_names_the_top_refusal_and_the_spread(self):
        import json
        with open(os.path.join(FIXTURES, "realworld_results.json")) as f:
            table = realworld.summary_table(json.load(f))
        self.assertIn("| simpleSpmv | 6 | 3 | 3: its index depends", table)
        self.assertIn("| 5330 (5301–5400) | 5210 (5190–5251) | 1.02x | yes |", table)
        self.assertIn("| md | 1 | 1 |  | – | – | – | NO |", table)


    def test_refusals_split_into_hazards_indices_known_in_the_kernel_and_shapes(self):
        report = {"reads": 10, "verdicts": {"rewritten": 3, "index-remapped": 1, "not-rewritten": 6},
                  "refused": {"'X' is written in the kernel": 1,
                              "the kernel may write memory the analysis cannot name: it makes an indirect call": 1,
                              "its index cannot be computed outside the kernel: local 'X' is modified in the kernel": 2,
                              "its index cannot be computed outside the kernel: the thread's position other than "
                              "its global index": 1,
                              "its index depends on the variables of nested loops ('X', 'X')": 1}}
        report["reads"] += 2
        report["verdicts"]["not-rewritten"] += 2
        report["refused"]["it reads memory local to the thread ('X'), an array of its own: no copy can be laid "
                          "out for it before the launch"] = 1
        report["refused"]["its index cannot be computed outside the kernel: it reads memory local to the thread "
                          "('X'), an array of its own: no copy can be laid out for it before the launch"] = 1
        r = realworld.reach_of(report)
        self.assertEqual((r["reads"], r["rewritten"], r["hazard"], r["in_kernel"], r["not_device"]),
                         (12, 4, 2, 3, 1))
        self.assertEqual(sorted(r["shape"].values()), [1, 1])
        self.assertEqual(realworld.refusal_kind("the element is written or its address is taken"), "hazard")
        self.assertEqual(realworld.refusal_kind("it reads shared memory ('r0'), which is on the chip: there is "
                                                "nothing to coalesce"), "not-device")
        self.assertEqual(realworld.refusal_kind("it reads kernel arguments ('p.w', an array inside a struct the "
                                                "kernel takes by value), which the launch passes with the call: "
                                                "there is no device memory to copy"), "not-device")
        self.assertEqual(realworld.refusal_kind("the array it reads ('lib->pMap') is not a parameter or a pointer "
                                                "field of a struct parameter"), "shape")

if __name__ == "__main__":
    unittest.main()
