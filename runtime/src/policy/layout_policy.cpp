// irregfix runtime: the layout policy. See layout_policy.h.
#include "layout_policy.h"

#include <irregfix/pattern.h>

#include <algorithm>
#include <climits>
#include <cstdio>

namespace irregfix {
namespace detail {

bool may_permute(const SiteInfo &site, const LaunchShape &launch, long long n) {
  if (!(site.flags & kSitePermutable))
    return false;
  // grid.x * block.x; 0: unknown
  const unsigned long long threads_x = static_cast<unsigned long long>(launch.grid.x) * launch.block.x;
  return !launch.open || threads_x == 0 || threads_x >= static_cast<unsigned long long>(n);
}

bool may_run_lanes(const SiteInfo &site, const LaunchShape &launch) {
  if (!(site.flags & kSiteLanes) || (site.flags & kSiteHoisted) || !launch.open)
    return false;
  // The variant's grid (threads times up to 32 lanes, in blocks of 32 or more) must fit grid.x.
  const unsigned long long threads = static_cast<unsigned long long>(launch.grid.x) * launch.block.x;
  return launch.grid.x > 0 && launch.grid.y == 1 && launch.grid.z == 1 && launch.block.x > 0 &&
         launch.block.y == 1 && launch.block.z == 1 && threads <= static_cast<unsigned long long>(INT_MAX);
}

unsigned shareable_block(const SiteInfo &site, const LaunchShape &launch) {
  if (!(site.flags & kSiteShareable) || (site.flags & kSiteHoisted))
    return 0;
  // Thread t is in block t / block.x only for one-dimensional blocks and grid.
  const bool one_dimensional = launch.block.y == 1 && launch.block.z == 1 && launch.grid.x > 0 &&
                               launch.grid.y == 1 && launch.grid.z == 1;
  return launch.open && one_dimensional && launch.shmem == 0 ? launch.block.x : 0;
}

LayoutRequest layout_request(const Config &cfg, int pattern, const SiteInfo &site,
                             const LaunchShape &launch, long long n, bool pieces) {
  LayoutRequest r;
  r.may_permute = may_permute(site, launch, n);
  r.share_block = shareable_block(site, launch);
  r.sigma = cfg.sigma;
  r.wish = launch.wish;
  r.profiling = launch.profiling;
  r.launched_ms = launch.launched_ms;
  r.may_lanes = pattern == kPatternRange && may_run_lanes(site, launch);
  r.lanes = cfg.lanes;
  r.lanes_in_order = (site.flags & kSiteLanesInOrder) != 0;
  if (pattern == kPatternNeighbors) {
    const int asked = cfg.layout > 0 ? cfg.layout : launch.wish;
    r.key = r.share_block > 0 && asked == kLayoutSharing   ? kLayoutSharing
            : r.may_permute && asked == kLayoutLocality && n <= INT_MAX ? kLayoutLocality
                                                                  : kLayoutEllColMajor;
  } else if (pattern == kPatternOrder) { // prepare_order runs only where the locality order may be used
    r.key = kLayoutLocality;
  } else if (pattern == kPatternIndexed) {
    // ELL or SELL-32 (loop sites; indexed_layout), asked or the site's own
    // choice; a forced layout it does not support means ELL.
    const int asked = cfg.layout > 0 ? cfg.layout : launch.wish;
    r.key = asked == kLayoutEllColMajor || asked == kLayoutSell32 ? asked
            : cfg.layout > 0                                    ? kLayoutEllColMajor
                                                                : kLayoutKeyAuto;
  } else if (pattern != kPatternRange) {
    r.key = kLayoutEllColMajor;
  } else {
    const int asked = cfg.layout > 0 && cfg.layout != kLayoutSharing ? cfg.layout : launch.wish;
    if (asked == kLayoutSell32Sigma)
      r.key = r.may_permute ? kLayoutSell32Sigma : kLayoutSell32;
    else if (asked == kLayoutLocality) // threads it may not permute: auto's own choice
      r.key = r.may_permute && n <= INT_MAX ? kLayoutLocality : kLayoutKeyAuto;
    else if (asked == kLayoutLanes) // a kernel without the variant, or a launch that may not run it: auto's
      r.key = r.may_lanes ? kLayoutLanes : kLayoutKeyAuto;
    else
      r.key = asked == kLayoutEllColMajor || asked == kLayoutSell32 ? asked : kLayoutKeyAuto;
  }
  r.share_in_order = r.key == kLayoutSharing && r.may_permute && n <= INT_MAX && cfg.sharing_order;
  r.report_padding = r.key == kLayoutKeyAuto || cfg.layout != 0;
  if (pieces) {
    r.key = kLayoutEllColMajor;
    r.may_permute = false;
    r.share_block = 0;
    r.may_lanes = false;
  }
  return r;
}

int initial_layout(int pattern, int key_layout) {
  return pattern == kPatternRange ? kLayoutEllColMajor : key_layout;
}

bool pads_much(unsigned long long cells, unsigned long long nnz) {
  if (nnz == 0)
    return false;
  // cells / nnz > kSellPaddingThreshold, in integers (115 / 100) so that the
  // threshold itself does not round either way; long double keeps huge counts exact enough.
  static_assert(kSellPaddingThreshold == 1.15, "threshold below is in percent");
  return static_cast<long double>(cells) * 100 > static_cast<long double>(nnz) * 115;
}

bool prefer_sell(unsigned long long ell_cells, unsigned long long sell_cells,
                 unsigned long long nnz) {
  return pads_much(ell_cells, nnz) && sell_cells < ell_cells;
}

bool worth_sorting(const LayoutCells &c, bool may_permute) {
  return may_permute && prefer_sell(c.ell, c.sell, c.nnz) && pads_much(c.sell, c.nnz);
}

unsigned long long layout_cells(const LayoutCells &c, int layout) {
  return layout == kLayoutEllColMajor ? c.ell : layout == kLayoutSell32 ? c.sell : c.sigma;
}

int layout_candidates(const LayoutCells &c, int out[kMaxLayoutCandidates]) {
  const int favourite = c.sigma                               ? kLayoutSell32Sigma
                        : prefer_sell(c.ell, c.sell, c.nnz) ? kLayoutSell32
                                                              : kLayoutEllColMajor;
  const long double most = static_cast<long double>(layout_cells(c, favourite)) * kMaxTimedPadding;
  int count = 0;
  out[count++] = favourite;
  // The others worth timing, fewer cells first (ELL before SELL-32 on a tie).
  int others[2], n = 0;
  if (favourite != kLayoutEllColMajor && c.ell <= most)
    others[n++] = kLayoutEllColMajor;
  if (favourite != kLayoutSell32 && c.sell > 0 && c.sell <= most &&
      static_cast<long double>(c.sell) <= static_cast<long double>(c.ell) * (1 - kMinCellSaving))
    others[n++] = kLayoutSell32;
  if (n == 2 && layout_cells(c, others[1]) < layout_cells(c, others[0]))
    std::swap(others[0], others[1]);
  for (int i = 0; i < n && count < kMaxPaddingCandidates; ++i)
    out[count++] = others[i];
  return count;
}

bool counts_slices(int key) { return key != kLayoutEllColMajor; }

bool range_counts_slices(const LayoutRequest &r) { return counts_slices(r.key); }

bool range_sorts(const LayoutRequest &r, const LayoutCells &c, long long n) {
  return r.key == kLayoutSell32Sigma ||
         (r.key == kLayoutKeyAuto && n <= INT_MAX && worth_sorting(c, r.may_permute));
}

const char *unserved_because(const Entry &e) {
  const LayoutRow *row = layout_row(e.layout);
  if (row && (row->view & kViewLanes))
    return "the site's rows run with several lanes each, and this launch may not run the lanes variant";
  return "the copy's threads are permuted, and this launch has fewer threads than rows";
}

int range_layout(const LayoutRequest &r, const LayoutCells &c, int proposed[kMaxLayoutCandidates],
                 int *count) {
  *count = 0;
  if (r.key != kLayoutKeyAuto)
    return r.key;
  const int padded = layout_candidates(c, proposed);
  const RangeShape shape = range_shape(r, c.rows, c.nnz, c.rows > 0 ? static_cast<long long>(c.ell / c.rows) : -1);
  *count = 1;
  for (int i = 1; i < padded; ++i) // the others the model expects to lose are not copied
    if (!expected_to_lose(shape, padded_ns(shape, layout_cells(c, proposed[i]))))
      proposed[(*count)++] = proposed[i];
  if (*count < kMaxLayoutCandidates && proposes_lanes(r, shape))
    proposed[(*count)++] = kLayoutLanes;
  return proposed[0];
}

int choose_lanes(double mean, int forced) {
  if (forced >= 2)
    return forced;
  int lanes = 2;
  while (lanes < kLanesMost && kLanesElementsEach * 2.0 * lanes <= mean)
    lanes *= 2;
  return lanes;
}

RangeShape range_shape(const LayoutRequest &r, long long n, unsigned long long nnz, long long max_len) {
  RangeShape s;
  s.rows = n;
  s.nnz = nnz;
  s.max_len = max_len;
  s.element_bytes = r.element_bytes > 0 ? r.element_bytes : 4;
  s.resident_threads = r.resident_threads;
  return s;
}

int request_lanes(const LayoutRequest &r, const RangeShape &s) {
  return r.lanes_in_order && r.lanes < 2 ? in_order_lanes(s) : choose_lanes(s.mean(), r.lanes);
}

bool proposes_lanes(const LayoutRequest &r, const RangeShape &s) {
  if (!r.may_lanes || s.mean() < kLanesMinMeanRow)
    return false;
  const int lanes = request_lanes(r, s);
  // In order, every lane runs the row's loop: only where the model applies
  // (long rows) and expects the variant not to lose.
  if (r.lanes_in_order)
    return model_applies(s) && !expected_to_lose(s, lanes_in_order_ns(s, lanes));
  return !expected_to_lose(s, lanes_ns(s, lanes));
}

RangePrecheck range_precheck(const LayoutRequest &r, long long n, unsigned long long nnz) {
  RangePrecheck p;
  const RangeShape s = range_shape(r, n, nnz, -1);
  p.lanes = proposes_lanes(r, s);
  p.padded = !padding_expected_to_lose(s);
  if (!p.padded && !p.lanes) {
    char why[256];
    std::snprintf(why, sizeof why,
                  "the cost model expects a copy to lose to the original by %.1fx or more (%.0f elements a row "
                  "over %lld rows, a thread a row: %.0f vs %.0f us)%s",
                  kExpectedLoss, s.mean(), n, padded_ns(s, nnz) * 1e-3, original_ns(s) * 1e-3,
                  r.may_lanes ? "" : "; the kernel has no lanes variant here");
    p.why = why;
    return p;
  }
  const unsigned long long bytes = nnz * s.element_bytes;
  if (p.padded && r.launched_ms >= 0 && r.launched_ms < probe_paid_after_ms(bytes)) {
    p.put_off_ms = probe_paid_after_ms(bytes);
    char why[256];
    std::snprintf(why, sizeof why,
                  "probing put off: a copy of %.0f MB is expected to cost %.1f ms, more than %.0f%% of the "
                  "%.0f ms the launches have taken; the original until they have taken %.0f ms",
                  static_cast<double>(bytes) / 1e6, expected_probe_ms(bytes), kProbeShare * 100, r.launched_ms,
                  p.put_off_ms);
    p.why = why;
  }
  return p;
}

int indexed_layout(int key, bool loop, const LayoutCells &c) {
  if (!loop) // one element a thread: nothing to pad
    return kLayoutEllColMajor;
  if (key == kLayoutSell32 || (key == kLayoutKeyAuto && c.sell > 0 && prefer_sell(c.ell, c.sell, c.nnz)))
    return kLayoutSell32;
  return kLayoutEllColMajor;
}

int neighbor_candidates(const Config &cfg, const LayoutRequest &r, bool order_pays,
                        int out[kMaxLayoutCandidates]) {
  if (r.wish != kLayoutKeyAuto)
    return 0;
  int count = 0;
  out[count++] = kLayoutEllColMajor;
  if (cfg.auto_sharing && r.share_block > 0)
    out[count++] = kLayoutSharing;
  if (order_pays && r.may_permute)
    out[count++] = kLayoutLocality;
  return count > 1 ? count : 0;
}

bool locality_pays(double sectors_per_read) { return sectors_per_read >= kOrderWorthSectors; }

bool neighbor_copy_pays(double sectors_per_read) { return sectors_per_read >= kNeighborCopyWorthSectors; }

bool positions_fit_cache(unsigned long long gathered_bytes, long long l2_bytes) {
  return l2_bytes > 0 && static_cast<double>(gathered_bytes) <= kPositionsCacheShare * static_cast<double>(l2_bytes);
}

bool order_fits_cache(long long n, std::size_t elem_size, long long l2_bytes) {
  return l2_bytes <= 0 ||
         static_cast<double>(n) * static_cast<double>(elem_size) <= kOrderCacheShare * static_cast<double>(l2_bytes);
}

bool order_allowed(const Config &cfg) { return !(cfg.layout > 0 && cfg.layout != kLayoutLocality); }

bool renumber_pays(int choice, unsigned long long copy_bytes, long long l2_bytes) {
  if (choice != kRenumberAuto)
    return choice == kRenumberAlways;
  return l2_bytes <= 0 || copy_bytes > static_cast<unsigned long long>(l2_bytes);
}

bool range_measures_order(const LayoutRequest &r, int proposals, long long n) {
  return proposals > 0 && proposals < kMaxLayoutCandidates && r.may_permute && n <= INT_MAX && r.profiling;
}

bool neighbor_measures_order(const LayoutRequest &r, long long n) {
  return r.may_permute && r.wish == kLayoutKeyAuto && n <= INT_MAX && r.profiling;
}

bool range_proposes_locality(const LayoutRequest &r, long long n, double sectors_per_read) {
  return r.key == kLayoutKeyAuto && r.may_permute && n <= INT_MAX && locality_pays(sectors_per_read);
}

void propose_locality(const LayoutRequest &r, long long n, double sectors_per_read,
                      int proposed[kMaxLayoutCandidates], int *count) {
  if (*count < kMaxLayoutCandidates && range_proposes_locality(r, n, sectors_per_read))
    proposed[(*count)++] = kLayoutLocality;
}

double order_decay_bar(double fresh_sectors) { return fresh_sectors * (1 + kOrderDecay) + kOrderDecaySlack; }

bool order_decayed(double fresh_sectors, double now_sectors) { return now_sectors > order_decay_bar(fresh_sectors); }

bool OrderChecks::due() {
  ++changes;
  if (++pending < interval)
    return false;
  pending = 0;
  ++checks;
  return true;
}

void OrderChecks::checked(double fresh_sectors, double now_sectors) {
  const double before = last_sectors < 0 ? fresh_sectors : last_sectors;
  const int since = interval; // the changes this check covers
  last_sectors = now_sectors;
  if (now_sectors <= fresh_sectors * (1 + kOrderSteady) || now_sectors <= before) {
    interval = std::min(2 * interval, kOrderCheckMaxInterval);
    return;
  }
  const double headroom = order_decay_bar(fresh_sectors) - now_sectors;
  const double per_change = (now_sectors - before) / since;
  const double to_bar = headroom / per_change; // changes at this pace until it decays
  interval = to_bar >= 2.0 * kOrderCheckMaxInterval ? kOrderCheckMaxInterval
                                                    : std::max(1, static_cast<int>(to_bar / 2));
}

void OrderChecks::restart() { interval = 1, pending = 0, last_sectors = -1; }

int order_region(long long n, int region) {
  long long r = region < 32 ? 32 : region;
  while ((n + r - 1) / r >= (1LL << kOrderSeedBits) - 1)
    r *= 2;
  return static_cast<int>(r);
}

unsigned long long stage_bytes(long long max_set, std::size_t elem_size) {
  const unsigned long long bytes = static_cast<unsigned long long>(max_set > 0 ? max_set : 0) * elem_size;
  return (bytes + 15) / 16 * 16;
}

std::string plan_shared_memory(unsigned long long need, unsigned long long static_bytes,
                               unsigned long long dynamic_limit, unsigned long long optin,
                               unsigned long long *raise_to) {
  *raise_to = 0;
  const unsigned long long may = optin > static_bytes ? optin - static_bytes : 0;
  if (need > may)
    return "sharing: a block's neighbours need " + std::to_string(need) +
           " bytes of shared memory; the kernel may have " + std::to_string(may);
  if (need > dynamic_limit)
    *raise_to = need;
  return "";
}

void fill_view(const Entry &e, View *view, const void **remapped) {
  // What the layout's row says its entries fill, from what its payload holds.
  const PayloadView v = e.payload ? e.payload->view() : PayloadView{};
  const LayoutRow *row = layout_row(e.layout);
  const unsigned fields = row ? row->view : 0;
  // A neighbour site in locality order reads its data array in place, through
  // the neighbour list copied in that order.
  const bool in_place = v.in_place && (fields & kViewInPlace);
  const bool sharing = fields & kViewSharing;
  view->len = v.len;
  view->n = e.key.n;
  view->layout = e.layout;
  view->perm = fields & kViewPerm ? v.perm : nullptr; // sharing: null unless its blocks are in the locality order
  view->width = v.width >= 0 ? v.width : e.max_len;
  // slot()'s block start: the slice offsets, or the device's zero and the width (ELL).
  const bool sliced = (fields & kViewSlices) && v.slice_start;
  view->slice_start = sliced ? v.slice_start : e.zero_cell;
  view->slice_mask = sliced ? -1 : 0;
  view->block_width = sliced ? 0 : view->width;
  view->local = sharing ? v.local : nullptr;
  view->block_first = sharing ? v.block_first : nullptr;
  view->shared_bytes = sharing ? v.shared_bytes : 0;
  view->index = in_place ? v.index : nullptr;
  view->lanes = fields & kViewLanes ? v.lanes : 0;
  if (in_place || (fields & kViewLanes)) { // the arrays are read where they are
    for (std::size_t i = 0; i < e.key.sources.size(); ++i)
      remapped[i] = e.key.sources[i];
    return;
  }
  for (std::size_t i = 0; i < e.bufs.size(); ++i)
    remapped[i] = e.bufs[i];
}

} // namespace detail
} // namespace irregfix
