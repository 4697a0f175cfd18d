// irregfix runtime: the per-site statistics and their report. See stats.h.
#include "stats.h"

#include "layouts.h"

#include <irregfix/pattern.h>

#include <cstdio>

namespace irregfix {
namespace detail {

long long SiteStats::fallback_count() const {
  long long c = 0;
  for (const auto &kv : fallbacks)
    c += kv.second;
  return c;
}

void record_fallback(SiteStats &s, const std::string &why) {
  ++s.fallbacks[why];
  s.last_fallback = why;
}

std::string describe_segments(long long elements, long long updates, long long region, long long chunks) {
  char line[256];
  int at = std::snprintf(line, sizeof line, "%lld elements updated by %lld updates", elements, updates);
  if (region == 0)
    std::snprintf(line + at, sizeof line - at, ", none by more than 32");
  else if (chunks == 0)
    std::snprintf(line + at, sizeof line - at, "; %lld of the updates to elements of more than 32 (a warp each)",
                  region);
  else
    std::snprintf(line + at, sizeof line - at,
                  "; %lld of the updates to elements of more than 32 (a warp each; %lld chunks of blocks for "
                  "those of more than 4096)",
                  region, chunks);
  return line;
}

std::string format_stats(const std::map<std::string, SiteStats> &stats) {
  std::string out;
  char line[512];
  for (const auto &kv : stats) {
    const SiteStats &s = kv.second;
    std::snprintf(line, sizeof line,
                  "irregfix: site %s kernel %s pattern %s layout %s\n"
                  "irregfix:   launches transformed %lld, original by choice %lld, fallbacks %lld\n",
                  s.id.c_str(), s.kernel.c_str(), s.pattern.c_str(),
                  s.pattern == pattern_name(kPatternScatter) ? "inspector-executor" : layout_name(s.layout),
                  s.launches, s.chosen_original, s.fallback_count());
    out += line;
    if (!s.selector.empty())
      out += "irregfix:   selector: " + s.selector + "\n";
    if (s.ell_padding > 0 || s.sell_padding > 0) {
      // What the layout candidates were proposed from.
      char sell[32] = "not computed", sigma[64] = "";
      if (s.sell_padding > 0)
        std::snprintf(sell, sizeof sell, "%.3f", s.sell_padding);
      if (s.sigma_padding > 0)
        std::snprintf(sigma, sizeof sigma, ", sell-32-sigma %.3f (sigma %d)", s.sigma_padding, s.sigma);
      std::snprintf(line, sizeof line,
                    "irregfix:   padding (cells / non-zeros): ell %.3f, sell-32 %s%s\n",
                    s.ell_padding, sell, sigma);
      out += line;
    }
    if (!s.order.empty())
      out += "irregfix:   locality order: " + s.order + "\n";
    if (!s.renumbered.empty())
      out += "irregfix:   renumbered: " + s.renumbered + "\n";
    if (!s.inspector.empty())
      out += "irregfix:   inspector: " + s.inspector + "\n";
    if (s.shared_max > 0) {
      std::snprintf(line, sizeof line,
                    "irregfix:   sharing: distinct elements a block %.1f on average, %lld at most "
                    "(%u bytes of shared memory a block; threads %s)\n",
                    s.shared_mean, s.shared_max, s.shared_bytes,
                    s.shared_in_order ? "in the locality order" : "as numbered");
      out += line;
    }
    if (s.lanes > 0) {
      std::snprintf(line, sizeof line, "irregfix:   lanes: %d a row (rows of %.1f elements on average)\n", s.lanes,
                    s.lanes_mean);
      out += line;
    }
    if (s.lanes_compared > 0) {
      if (s.lanes_reassociates)
        std::snprintf(line, sizeof line,
                      "irregfix:   IRREGFIX_VERIFY: the lanes variant against the original over %lld launches: "
                      "largest relative difference %.3g (floating-point sums reassociated)\n",
                      s.lanes_compared, s.lanes_max_relative);
      else if (s.lanes_differing == 0)
        std::snprintf(line, sizeof line,
                      "irregfix:   IRREGFIX_VERIFY: the lanes variant against the original over %lld launches: "
                      "bit for bit\n",
                      s.lanes_compared);
      else
        std::snprintf(line, sizeof line,
                      "irregfix:   IRREGFIX_VERIFY: the lanes variant against the original over %lld launches: "
                      "%llu elements differed\n",
                      s.lanes_compared, s.lanes_differing);
      out += line;
    }
    if (s.hoisted_launches > 0 || s.hoist_in_kernel > 0 || s.hoist_declined > 0) {
      std::snprintf(line, sizeof line,
                    "irregfix:   hoisted: launches %lld, steps %lld (%d iterations a step); "
                    "in-kernel loop with nothing to overlap %lld",
                    s.hoisted_launches, s.hoisted_steps, s.hoist_group, s.hoist_in_kernel);
      out += line;
      if (s.hoist_declined > 0)
        out += ", declined " + std::to_string(s.hoist_declined) + " (" + s.hoist_last_decline + ")";
      out += "\n";
    }
    if (s.host_writable_builds > 0) {
      std::snprintf(line, sizeof line,
                    "irregfix:   rebuilt at every launch: a source is in managed or host memory "
                    "(%lld launches)\n",
                    s.host_writable_builds);
      out += line;
    }
    for (const auto &f : s.fallbacks) {
      std::snprintf(line, sizeof line, "irregfix:     fallback %lld x %s\n", f.second,
                    f.first.c_str());
      out += line;
    }
    std::snprintf(line, sizeof line,
                  "irregfix:   cache hits %lld, misses %lld, refreshes %lld; remaps %lld, "
                  "bytes remapped %llu, remap time %.3f ms\n",
                  s.hits, s.misses, s.refreshes, s.remaps, s.bytes_remapped, s.remap_ms);
    out += line;
    if (s.superseded > 0) {
      std::snprintf(line, sizeof line,
                    "irregfix:   %lld stale copies dropped at misses: keys the site no longer asks for\n",
                    s.superseded);
      out += line;
    }
    if (s.verified > 0) {
      std::snprintf(line, sizeof line, "irregfix:   IRREGFIX_VERIFY: %lld cache hits checked, none stale\n",
                    s.verified);
      out += line;
    }
    if (s.pipelined > 0) {
      const double pct = s.pipelined_remap_ms > 0 ? 100.0 * s.hidden_ms / s.pipelined_remap_ms : 0;
      std::snprintf(line, sizeof line,
                    "irregfix:   pipelined launches %lld (latest in %d %s); remap %.3f ms over "
                    "%lld timed, %.3f ms of it (%.0f%%) hidden behind the kernel\n",
                    s.pipelined, s.last_chunks, s.last_sliced ? "slices of iterations" : "chunks",
                    s.pipelined_remap_ms, s.pipelined_timed,
                    s.hidden_ms, pct);
      out += line;
    }
  }
  return out;
}

} // namespace detail
} // namespace irregfix
