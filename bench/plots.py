"""The plots of the benchmark results (PNG, matplotlib), for bench/RESULTS.md and the README.

  spmv_speedup.png      SpMV kernel: speedup of each variant over the original, per matrix class and size
  cg_speedup.png        whole CG: irregfix (auto and forced layouts) over the original
  md_step.png           MD: milliseconds a step by mode and size
  remap_bandwidth.png   remap kernels' bandwidth against a device copy of the same bytes
  layouts_speedup.png   SpMV in each layout (and cuSPARSE) over the CSR kernel, by row-length spread
  realworld_speedup.png real programs: irregfix over the original (when there are results)
"""

import os

from results import ratio

COLOURS = {"original": "#7f7f7f", "auto": "#d62728", "ell": "#1f77b4", "sell32": "#2ca02c", "sell32s": "#9467bd",
           "sharing": "#8c564b", "locality": "#17becf", "none": "#bcbd22", "cusparse-alg1": "#ff7f0e", "cusparse-alg2": "#ffbb78",
           "cusparse": "#ff7f0e", "csr": "#7f7f7f", "sell32s-256": "#9467bd", "sell32s-4096": "#c5b0d5",
           "copy": "#7f7f7f", "remap": "#1f77b4", "irregfix": "#d62728"}
LABELS = {"auto": "irregfix (auto)", "ell": "ELL", "sell32": "SELL-32", "sell32s": "SELL-32-σ",
          "sharing": "sharing", "locality": "locality order", "none": "none", "cusparse-alg1": "cuSPARSE ALG1", "cusparse-alg2": "cuSPARSE ALG2",
          "cusparse": "cuSPARSE", "csr": "CSR", "sell32s-256": "SELL-32-σ (256)", "sell32s-4096": "SELL-32-σ (4096)",
          "copy": "device copy", "remap": "remap", "original": "original", "irregfix": "irregfix"}


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _subtitle(results, part):
    m = dict(results.meta)
    m.update(results.meta.get("parts", {}).get(part, {}))
    return ", ".join(x for x in (m.get("device"), m.get("date")) if x)


def _grouped_bars(ax, cases, series, ylabel, baseline=None, log=False):
    """series: [(variant, [value or None per case])]."""
    width = 0.8 / max(1, len(series))
    for i, (variant, values) in enumerate(series):
        xs = [c + (i - (len(series) - 1) / 2) * width for c in range(len(cases))]
        pts = [(x, v) for x, v in zip(xs, values) if isinstance(v, float)]
        if pts:
            ax.bar([x for x, _ in pts], [v for _, v in pts], width, label=LABELS.get(variant, variant),
                   color=COLOURS.get(variant))
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(cases, rotation=20, ha="right")
    ax.set_ylabel(ylabel)
    if baseline is not None:
        ax.axhline(baseline, color="black", linewidth=0.8)
    bottom, top = ax.get_ylim()
    if log:
        from matplotlib import ticker
        ax.set_yscale("log")
        bottom, top = ax.get_ylim()
        ax.set_ylim(bottom, top * 3)  # room for the legend
        ax.yaxis.set_major_locator(ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
        ax.yaxis.set_minor_formatter(ticker.NullFormatter())
    else:
        ax.set_ylim(bottom, top * 1.2)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncol=min(5, len(series)), loc="upper left")


def _save(plt, fig, directory, name):
    path = os.path.join(directory, name)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _speedups(results, part, metric, cases, variants, base="original"):
    series = []
    for v in variants:
        vals = [ratio(results.value(part, c, base, metric), results.value(part, c, v, metric)) for c in cases]
        if any(x is not None for x in vals):
            series.append((v, vals))
    return series


def _speedup_plot(results, plt, directory, part, metric, variants, base, ylabel, title, name, size=(9, 4.2)):
    cases = results.cases(part, metric)
    series = _speedups(results, part, metric, cases, variants, base)
    if not series:
        return None
    fig, ax = plt.subplots(figsize=size)
    _grouped_bars(ax, cases, series, ylabel, baseline=1.0)
    ax.set_title("%s\n%s" % (title, _subtitle(results, part)), fontsize=10)
    return _save(plt, fig, directory, name)


def plot_spmv(results, plt, directory):
    return _speedup_plot(results, plt, directory, "spmv", "kernel_ms",
                         ["auto", "ell", "sell32", "sell32s", "cusparse-alg1"], "original",
                         "speedup over the original kernel", "SpMV kernel: speedup over the scalar CSR kernel",
                         "spmv_speedup.png")


def plot_cg(results, plt, directory):
    return _speedup_plot(results, plt, directory, "cg", "ms_per_iter", ["auto", "ell", "sell32s", "none"],
                         "original", "speedup over the original program",
                         "Whole CG, one-time costs included: speedup over the original", "cg_speedup.png")


def plot_md(results, plt, directory):
    cases = results.cases("md", "ms_per_step")
    variants = [v for v in ("original", "auto", "ell", "sharing") if v in results.variants("md", "ms_per_step")]
    if not cases or not variants:
        return None
    series = [(v, [results.value("md", c, v, "ms_per_step") for c in cases]) for v in variants]
    fig, ax = plt.subplots(figsize=(9, 4.2))
    _grouped_bars(ax, cases, series, "ms per step (log)", log=True)
    ax.set_title("MD: milliseconds a step by mode and size\n%s" % _subtitle(results, "md"), fontsize=10)
    return _save(plt, fig, directory, "md_step.png")


def plot_remap(results, plt, directory):
    cases = results.cases("remap", "gbs")
    if not cases:
        return None
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(cases) + 1.5))
    ys = range(len(cases))
    for i, v in enumerate(("copy", "remap")):
        vals = [results.value("remap", c, v, "gbs") for c in cases]
        pts = [(y, x) for y, x in zip(ys, vals) if isinstance(x, float)]
        ax.barh([y + (i - 0.5) * 0.4 for y, _ in pts], [x for _, x in pts], 0.4, label=LABELS[v], color=COLOURS[v])
    ax.set_yticks(list(ys))
    ax.set_yticklabels(cases, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("GB/s (read + write)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Remap bandwidth against a device copy of the same bytes\n%s" % _subtitle(results, "remap"),
                 fontsize=10)
    return _save(plt, fig, directory, "remap_bandwidth.png")


def plot_layouts(results, plt, directory):
    return _speedup_plot(results, plt, directory, "layouts", "kernel_ms",
                         ["ell", "sell32", "sell32s-256", "sell32s-4096", "cusparse"], "csr",
                         "speedup over the CSR kernel", "SpMV in each layout by row-length spread",
                         "layouts_speedup.png", size=(8, 4))


def plot_realworld(results, plt, directory):
    return _speedup_plot(results, plt, directory, "realworld", "ms", ["irregfix"], "original",
                         "speedup over the original program", "Real programs: irregfix over the original",
                         "realworld_speedup.png")


PLOTS = [plot_spmv, plot_cg, plot_md, plot_remap, plot_layouts, plot_realworld]


def write_all(results, directory):
    """Writes every plot the results have data for. Returns (paths written, why none were, or "")."""
    try:
        plt = _pyplot()
    except ImportError:
        return [], "matplotlib is not installed: no plots"
    os.makedirs(directory, exist_ok=True)
    written = [p for p in (f(results, plt, directory) for f in PLOTS) if p]
    return written, ""
