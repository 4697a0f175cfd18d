// irregfix runtime: the layout policy, in one place. Which layouts a launch
// may use (its configuration and the kernel's SiteInfo flags), which layout a
// prepare asks for (IRREGFIX_LAYOUT, or under auto the selector's candidate),
// which layout a range build makes from the cells it counted and which
// candidates it proposes for timing, the sharing layout's shared-memory plan,
// and how an entry of each layout is described to the kernel (the View).
// The online timing of the candidates is the selector's (selector.h); the
// copies themselves are the builders' (build.h) and the remap kernels'.
//
// A layout's name, key slot and View fields are its row in layouts.h.
//
// Host-only: test/unit/runtime checks the policy without a GPU.
#pragma once

#include "cache.h"
#include "config.h"
#include "layouts.h"
#include "range_model.h"

#include <irregfix/irregfix.cuh>

#include <cstddef>
#include <string>

namespace irregfix {
namespace detail {

// ---- what a launch allows ---------------------------------------------------

// What the policy knows of the launch a prepare belongs to (launch.h fills it
// from the open launch; `open` false: no launcher, as for a prepare called directly).
struct LaunchShape {
  bool open = false;
  dim3 grid{0, 0, 0}, block{0, 0, 0}; // the launch's configuration; 0: unknown
  std::size_t shmem = 0;              // the launch's own dynamic shared memory
  // Under auto, the layout the selector runs this launch in (a Layout), or
  // kLayoutKeyAuto: each site's favourite (profiling has not proposed
  // candidates yet, or this launch runs the first candidate).
  int wish = kLayoutKeyAuto;
  // The selector profiles this launch: what a build proposes for timing is taken.
  bool profiling = false;
  // The GPU time the launcher's launches have taken so far, when its warm-up
  // budgets probing (range_model.h, kProbeShare); -1: it profiles at once.
  double launched_ms = -1;
};

// Whether the runtime may permute the threads of a launch (SELL-32-sigma): the
// site's kernel says it is permutable, and the launch runs at least n threads
// in x (assumed when unknown: no launcher, or no configuration given), so that
// permuting does not change which rows it computes.
bool may_permute(const SiteInfo &site, const LaunchShape &launch, long long n);
// Whether a launch may run the site's lanes variant (kLayoutLanes): the kernel
// has one (kSiteLanes, not hoisted), and the launch is open with a known,
// one-dimensional grid and block of at most INT_MAX threads (the variant runs
// the launch's threads times L, each row's lanes within a warp).
bool may_run_lanes(const SiteInfo &site, const LaunchShape &launch);
// The block size a sharing copy of `site` would be built for in this launch;
// 0 when the launch may not stage copies in shared memory: the site is not
// kSiteShareable (or is hoisted), no launch is open, or its configuration is
// not one-dimensional and known, or it has dynamic shared memory of its own.
unsigned shareable_block(const SiteInfo &site, const LaunchShape &launch);

// ---- what a prepare asks for ------------------------------------------------

// The layout one prepare asks of the cache and, on a miss or a refresh, of its builder.
struct LayoutRequest {
  // The cache key's layout: a Layout, or kLayoutKeyAuto (a range site's
  // favourite, chosen by its build from the cells it counts).
  int key = kLayoutEllColMajor;
  bool may_permute = false;   // SELL-32-sigma may be built (see may_permute)
  unsigned share_block = 0;   // kLayoutSharing: the launch's block size
  // kLayoutSharing: its blocks group the threads in the locality order (the
  // launch may permute, n fits an int, IRREGFIX_SHARING_ORDER is not 0).
  bool share_in_order = false;
  // The build reports every layout's padding in the site's statistics: auto's
  // own survey, or a forced layout (a candidate's build leaves the survey's).
  bool report_padding = false;
  int sigma = 256;            // SELL-32-sigma's window (IRREGFIX_SIGMA)
  int wish = kLayoutKeyAuto;  // the launch's wish under auto (LaunchShape::wish)
  bool profiling = false;     // the launch is profiled (LaunchShape::profiling)
  double launched_ms = -1;    // LaunchShape::launched_ms
  bool may_lanes = false;     // the launch may run the lanes variant (may_run_lanes)
  int lanes = 0;              // IRREGFIX_LANES: the lanes a row (0: chosen from the rows)
  bool lanes_in_order = false; // the variant keeps the original's order (kSiteLanesInOrder)
  // What the range model (range_model.h) needs besides the rows, filled by
  // the API: bytes a row element reads over the site's arrays, and the
  // threads the device holds at once (0: unknown).
  std::size_t element_bytes = 0;
  long long resident_threads = 0;
  // Sectors a read of the launch's graph as numbered, where the program-wide
  // renumbering measured that same graph and declined it (-1: not measured):
  // a neighbour site that would measure it again takes this instead.
  double numbered_sectors = -1;
};

// The request of a prepare of `pattern` at `site` in `launch`: the configured
// layout (ELL, SELL-32, SELL-32-sigma, sharing), or under auto the launch's
// wish. SELL-32-sigma only for kernels that are permutable and launched with a
// thread for every row; on another launch it means SELL-32. A neighbour site is
// shared (forced, or the selector's candidate) when the launch may share, else
// ELL; gathers and two-level ranges are always ELL. Forced sharing leaves range
// sites to auto. Indexed sites: ELL or SELL-32 when asked (forced, or the
// launch's wish), else kLayoutKeyAuto under auto and ELL under any other
// forced layout.
// A copy split into field pieces (`pieces`): always ELL, in thread order (the
// pieces' kernel reads them at ELL slots), never shared.
LayoutRequest layout_request(const Config &cfg, int pattern, const SiteInfo &site,
                             const LaunchShape &launch, long long n, bool pieces = false);

// The cache key's parameters a request adds (written to out, their count
// returned): a sharing copy is for blocks of one size only, grouped in the
// locality order or not. (Inline: every prepare asks, hits included.)
inline int layout_key_params(const LayoutRequest &r, long long out[2]) {
  if (r.key != kLayoutSharing)
    return 0;
  out[0] = r.share_block;
  out[1] = r.share_in_order ? 1 : 0;
  return 2;
}

// The layout an entry of key (pattern, key layout) has before its first
// build: a range entry's is its build's choice (ELL until then); any other is
// built in its key's layout.
int initial_layout(int pattern, int key_layout);

// Whether entry e may serve a launch of request r: an entry whose threads run
// permuted (SELL-32-sigma, the locality order, sharing in the locality order)
// serves only launches that may permute; an entry in the lanes layout only
// launches that may run the lanes variant. (Inline: the hit path asks.)
inline bool serves_request(const Entry &e, const LayoutRequest &r) {
  const LayoutRow *row = layout_row(e.layout);
  if (row && (row->view & kViewLanes) && !r.may_lanes)
    return false;
  if (r.may_permute)
    return true;
  return !row || !(row->permuted || ((row->view & kViewPerm) && e.payload && e.payload->view().perm));
}
// Why an entry found for request r does not serve it (serves_request false).
const char *unserved_because(const Entry &e);

// ---- range sites: the layout a build makes ----------------------------------

// Layout choice of range sites: ELL padded more than this over the non-zeros
// (cells / nnz) and SELL-32 smaller makes auto pick SELL-32; SELL-32 padded more
// than this makes it pick SELL-32-sigma for a permutable kernel.
constexpr double kSellPaddingThreshold = 1.15;

// Cells (elements, padding included) of each layout a range build counted.
struct LayoutCells {
  long long rows = 0;           // the threads with a row (n)
  unsigned long long nnz = 0;   // the non-zeros: what no padding would take
  unsigned long long ell = 0;
  unsigned long long sell = 0;  // 0: not counted
  unsigned long long sigma = 0; // 0: the threads were not sorted
};

// At most this many layouts are timed: each costs probes and a copy in memory.
// The padding layouts (ELL, SELL-32, SELL-32-sigma) take at most
// kMaxPaddingCandidates of them; the locality order comes after them.
constexpr int kMaxLayoutCandidates = 4;
constexpr int kMaxPaddingCandidates = 3;
// A layout other than the favourite is timed only when it saves this fraction
// of ELL's cells (SELL-32: else it is ELL with dearer addressing) and takes at
// most kMaxTimedPadding times the favourite's cells (more bytes than that are
// not won back by better coalescing: ELL 0.825 vs SELL-32 0.605 ms at 1.5x).
constexpr double kMinCellSaving = 0.10;
constexpr double kMaxTimedPadding = 1.5;

// Whether a layout of `cells` cells pads more than kSellPaddingThreshold over nnz.
bool pads_much(unsigned long long cells, unsigned long long nnz);
// Whether auto picks SELL-32 over ELL from the cell counts of both and the non-zeros
// (and, for a permutable kernel, SELL-32-sigma when SELL-32 still pads much).
bool prefer_sell(unsigned long long ell_cells, unsigned long long sell_cells,
                 unsigned long long nnz);
// Whether a range build sorts the threads to count SELL-32-sigma's cells: the
// launch may permute, auto prefers SELL-32 and SELL-32 still pads much.
bool worth_sorting(const LayoutCells &c, bool may_permute);
// The layouts worth timing (Layout values), the cost model's favourite first
// (SELL-32-sigma when sorted, else SELL-32 when prefer_sell, else ELL: what a
// launch that is not profiled uses), then the others by fewer cells. Returns
// how many were written to out.
int layout_candidates(const LayoutCells &c, int out[kMaxLayoutCandidates]);

// Whether a build for a request of this key counts SELL-32's slices (all but
// ELL asked for): range_counts_slices for a range site's request.
bool counts_slices(int key);
bool range_counts_slices(const LayoutRequest &r);
// Whether it sorts the threads (SELL-32-sigma) once ELL's and SELL-32's cells
// are counted: asked for, or auto's survey of a launch that may permute when
// SELL-32 still pads much (n threads: at most INT_MAX).
bool range_sorts(const LayoutRequest &r, const LayoutCells &c, long long n);
// The layout a range build makes: the one asked for; under auto's key the
// favourite of layout_candidates (then *proposed holds the candidates worth
// timing, *count of them; else *count is 0). Where the range model applies,
// a candidate other than the favourite that it expects to lose by
// kExpectedLoss is left out; the lanes layout is proposed last where
// proposes_lanes says so.
int range_layout(const LayoutRequest &r, const LayoutCells &c, int proposed[kMaxLayoutCandidates],
                 int *count);

// ---- range sites: warp-cooperative rows (kLayoutLanes) ------------------------

// Auto proposes the lanes layout only for rows at least this long on average:
// shorter rows would have 2 lanes each reading a few elements of a row that
// one thread reads in one or two sectors, for twice the threads and a
// combining tree.
constexpr double kLanesMinMeanRow = 8;

// The lanes a row of mean length `mean` runs with: IRREGFIX_LANES when set
// (`forced`), else the largest power of two from 2 to 32 that leaves each
// lane kLanesElementsEach elements of an average row. More lanes cost threads
// (each loads the row's bounds and joins the combining tree) more than they
// shorten the row's chain of loads. Measured on an H200 (reassociated float
// sums, integer reductions): rows of 16 ran at L = 2, 4, 8 in 0.116, 0.135,
// 0.182 ms (the original 0.138); lists of 1,000 at L = 8, 16, 32 in 38, 30,
// 32 us; rows of 1,640 at L = 8, 16, 32 in 0.057, 0.043, 0.044 ms.
constexpr double kLanesElementsEach = 8;
constexpr int kLanesMost = 32;
int choose_lanes(double mean, int forced);
// The lanes a request's variant runs with over rows of shape s: IRREGFIX_LANES
// when set; an in-order variant as many as the model finds fastest
// (in_order_lanes); else choose_lanes.
int request_lanes(const LayoutRequest &r, const RangeShape &s);

// The range model's view of a request over n rows of nnz elements (max_len:
// the longest row, -1 when not counted yet).
RangeShape range_shape(const LayoutRequest &r, long long n, unsigned long long nnz, long long max_len);

// Whether auto proposes the lanes layout for a range site: the launch may run
// the variant, the rows are long enough (kLanesMinMeanRow), and the model
// does not expect it to lose.
bool proposes_lanes(const LayoutRequest &r, const RangeShape &s);

// Under auto, before a range build counts the lengths or copies anything,
// from n and the non-zeros alone: whether the padded layouts may be worth a
// copy (the model does not expect even one without padding to lose), and
// whether the lanes layout is proposed. Neither: the original runs, `why`.
// A padded copy the launcher's launches so far do not pay for (at least
// n x the non-zeros' bytes: probe_paid_after_ms) is put off: put_off_ms,
// the launcher's GPU time after which it is built, and `why`.
struct RangePrecheck {
  bool padded = true;
  bool lanes = false;
  double put_off_ms = 0;
  std::string why;
};
RangePrecheck range_precheck(const LayoutRequest &r, long long n, unsigned long long nnz);
// Cells of `layout` among those counted.
unsigned long long layout_cells(const LayoutCells &c, int layout);

// ---- indexed sites ----------------------------------------------------------

// The layout an indexed site's build makes, from its request's key and, for a
// loop site, the cells it counted (c.sell 0: SELL-32's were not counted):
// gathers ELL; loop sites SELL-32 when asked, or under auto's key when the
// range sites' model would prefer it (prefer_sell); else ELL. (SELL-32-sigma
// would permute threads the launcher's index kernels do not know of.)
int indexed_layout(int key, bool loop, const LayoutCells &c);

// ---- neighbour sites --------------------------------------------------------

// Under auto, the candidates of a neighbour site: ELL first, then sharing when
// the launch may share and the sharing layout is timed (IRREGFIX_AUTO_SHARING),
// then the locality order when the launch may permute and the site's threads,
// as numbered, read far-apart elements (order_pays: locality_pays' answer).
// Returns how many were written (0: none to propose: ELL alone).
int neighbor_candidates(const Config &cfg, const LayoutRequest &r, bool order_pays,
                        int out[kMaxLayoutCandidates]);
inline int neighbor_candidates(const Config &cfg, const LayoutRequest &r, int out[kMaxLayoutCandidates]) {
  return neighbor_candidates(cfg, r, false, out);
}

// ---- the locality order -----------------------------------------------------

// Under auto, the locality order is timed only for sites whose threads, in
// their own numbering, read elements spread over many memory sectors: the
// sampled blocks' distinct sectors per read (order_stats.h) at or above this.
// (A grid numbered row by row: 0.08; molecular dynamics numbered by cell:
// 0.05; either renumbered at random: 0.8 to 0.9.)
constexpr double kOrderWorthSectors = 0.3;
bool locality_pays(double sectors_per_read);

// Under auto, a neighbour list whose threads, as numbered, already read this
// few distinct sectors a read gets no copy timed at all: a copy's gather can
// do no better than the kernel's own, and is one more pass. (MD numbered by
// cell: 0.045, where ELL ran 4.8x slower than the original kernel on the H100,
// and its probe cost the whole run 1%.) Measured only where the order is.
constexpr double kNeighborCopyWorthSectors = 0.1;

// A reduction read through the order gathers every element it sums from where
// the order keeps it: from the L2 where its arrays fit there, else a sector
// of DRAM traffic for each element. Taken only while they fit this share of
// the L2 (CG's dot products, H200, 60 MB L2: two vectors of 16.8 MB, the
// whole solve 1.04x with the domain; of 32 MB, 0.88x).
constexpr double kPositionsCacheShare = 0.75;
bool positions_fit_cache(unsigned long long gathered_bytes, long long l2_bytes);
bool neighbor_copy_pays(double sectors_per_read);

// Running the threads in an order scatters each thread's direct accesses (the
// kernel's out[t], its row's bounds): cheap while the arrays they fall in stay
// in the L2, dear beyond. n threads of elem_size bytes of them each must fill
// at most half the L2. Measured on an H100 (50 MiB of L2): the order gains on
// the renumbered fem at 525,825 rows (4 + 4 bytes a row: 4 MB; SpMV 1.13x)
// and MD's lj_forces at 1M atoms (a float4 each: 16 MB; 1.22x), and loses on
// the renumbered grid and fem at 8x (8M and 4.2M rows: 64 and 34 MB; SpMV
// 0.63-0.79x), where its computation (9-17 ms) also weighs most. Not proposed
// there. l2_bytes <= 0 (unknown): no bound.
constexpr double kOrderCacheShare = 0.5;
bool order_fits_cache(long long n, std::size_t elem_size, long long l2_bytes);

// Whether a kernel without a site (pattern "order") may run in the locality
// order under this configuration: under auto or IRREGFIX_LAYOUT=locality, not
// under a layout of copies.
bool order_allowed(const Config &cfg);

// Whether a range site in the locality order reads its renumbered gather
// through a copy in that order (SiteInfo::renumbered): only where the copies
// a launch streams (copy_bytes) overflow the L2, which then no longer keeps
// the gathered array between its scattered reads. Measured on an H100 (50 MiB
// of L2), SpMV in the locality order: the renumbered grid and fem at 8x (copies
// of 320 and 236 MB) 0.86 -> 0.71 and 0.39 -> 0.31 ms with the copy; at 1x
// (40 and 29 MB) 0.050 -> 0.059 and 0.033 -> 0.040 ms, the copy's gather
// costing more than the L2 hits it replaces. always / never
// (IRREGFIX_RENUMBER=1 / 0) override; l2_bytes <= 0 (unknown): renumbered.
enum RenumberChoice { kRenumberAuto = 0, kRenumberAlways = 1, kRenumberNever = -1 };
bool renumber_pays(int choice, unsigned long long copy_bytes, long long l2_bytes);

// Whether a range build that proposed `proposals` padding layouts measures
// how far apart its threads' reads lie (to propose the locality order too):
// room for one more candidate, a profiled launch that may permute, n fits an int.
bool range_measures_order(const LayoutRequest &r, int proposals, long long n);
// Whether a range site's launch proposes the locality order beside the
// padding layouts: auto's own survey of a launch that may permute (n fits an
// int), its threads spread as locality_pays says.
bool range_proposes_locality(const LayoutRequest &r, long long n, double sectors_per_read);
// The same, the locality order added to a range build's proposals when it is proposed.
void propose_locality(const LayoutRequest &r, long long n, double sectors_per_read,
                      int proposed[kMaxLayoutCandidates], int *count);
// Whether a neighbour-list build measures how far apart its threads' reads
// lie (to propose the locality order): auto's own survey of a profiled launch
// that may permute, n fits an int.
bool neighbor_measures_order(const LayoutRequest &r, long long n);

// When the index arrays an order was computed from change (a neighbour list
// rebuilt), the order is kept while it still gathers: recomputed only when the
// sampled sectors per read of the new lists in the old order exceed those of
// the order when fresh by kOrderDecay (relative) plus kOrderDecaySlack.
constexpr double kOrderDecay = 0.25;
constexpr double kOrderDecaySlack = 0.02;
// The sectors per read past which an order measured fresh_sectors has decayed.
double order_decay_bar(double fresh_sectors);
bool order_decayed(double fresh_sectors, double now_sectors);

// When an order's lists change, a check measures them in the order: a sampled
// pass over them (MD at 262,144 atoms on an H200, when its reads were counted
// by a sort: 0.19 ms, where a whole step takes 0.34 ms; at every rebuild of its
// neighbour list, 11% of the run). An order a check finds steady (within kOrderSteady, relative, of
// its measure when fresh) is checked again after twice as many changes as
// before, up to kOrderCheckMaxInterval. One that drifts is checked again after
// half the changes its drift since the previous measure would take to reach
// the decay bar (order_decayed), at least the next change: MD's order drifts
// by 22% over 200 rebuilds, far under its bar, and was checked at every one.
// A late check costs speed only: every order gives the original's results.
constexpr double kOrderSteady = 0.1;
constexpr int kOrderCheckMaxInterval = 16;
struct OrderChecks {
  int interval = 1;          // changes from one check to the next
  int pending = 0;           // changes since the latest check
  long long changes = 0, checks = 0;
  double last_sectors = -1;  // the latest check's measure; -1: none since the order was computed
  // The lists changed: whether to check the order now.
  bool due();
  // What the check measured, against the order's measure when fresh.
  void checked(double fresh_sectors, double now_sectors);
  // A new order: checked at the next change.
  void restart();
};

// The order's sort key holds a thread's region in kOrderSeedBits bits: the
// region (threads a seed) the order uses for n threads when asked for
// `region` (IRREGFIX_ORDER_REGION), raised so that the regions number fewer
// than 2^kOrderSeedBits - 1.
constexpr int kOrderSeedBits = 24;
int order_region(long long n, int region);
// The order's sweeps read the size of the frontier they leave back (a
// synchronisation) every kSweepBatch sweeps; at most kMaxSweeps run (threads
// no seed reached by then sort last, by the least element they read). Hops
// take the key's 8 bits above the region, 255 meaning none: room for a
// domain's larger regions on graphs that grow slowly (a shuffled 2-D grid
// needs 88 sweeps at 1024 threads a region).
constexpr int kSweepBatch = 8;
constexpr int kMaxSweeps = 248;
static_assert(kMaxSweeps % kSweepBatch == 0 && kMaxSweeps < 255, "whole batches, hops below 255");

// ---- sharing layout ---------------------------------------------------------

// Dynamic shared memory a block of a sharing launch stages: its largest set of
// distinct elements, rounded up to 16 bytes (stage_shared copies 16-byte words).
unsigned long long stage_bytes(long long max_set, std::size_t elem_size);

// Whether a sharing launch may have `need` bytes of dynamic shared memory: with
// the kernel's static_bytes, within optin (the device's opt-in maximum a
// block). "" and *raise_to (0: the kernel's current dynamic limit suffices;
// else the limit to set) or why not.
std::string plan_shared_memory(unsigned long long need, unsigned long long static_bytes,
                               unsigned long long dynamic_limit, unsigned long long optin,
                               unsigned long long *raise_to);

// ---- the kernel's view of an entry ------------------------------------------

// The View a transformed kernel reads e's copy through, and the copies' addresses.
void fill_view(const Entry &e, View *view, const void **remapped);

} // namespace detail
} // namespace irregfix
