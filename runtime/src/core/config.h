// irregfix runtime: its configuration, from the environment. Every variable
// the runtime reads is read here (config_from_env), once at first use and again
// at testing::reset(); the rest of the runtime reads the Config. Host-only:
// test/unit/runtime checks the parsing without a GPU.
#pragma once

#include <string>
#include <vector>

namespace irregfix {
namespace detail {

// IRREGFIX_LAYOUT=none: every launch runs the original kernel. Under auto (0)
// the selector chooses, per launcher, between the original and the transformed
// kernel; a forced layout (a Layout value) always runs the transformed one.
constexpr int kLayoutChoiceNone = -1;

// Most chunks a pipelined launch is cut into (IRREGFIX_CHUNKS).
constexpr int kMaxChunks = 64;

constexpr int kProfileAfterMsDefault = 50;

// Steps of a hoisted launch when IRREGFIX_HOIST_GROUP is unset. Each step costs
// a launch, a recomputation of the code before the loop and a load and store of
// the live values per thread; one iteration a step (the paper's form) pays that
// width times, which made a hand-written hoisted SpMV 2-4x slower than the
// in-kernel loop. Four steps pay it four times while still giving the remap
// pipeline four slices of iterations to overlap with computation.
constexpr int kHoistDefaultSteps = 4;

constexpr int kOrderRegionDefault = 128;
constexpr int kDomainRegionDefault = 1024;

struct Config {
  bool disabled = false;              // IRREGFIX_DISABLE=1
  // IRREGFIX_DISABLE=<name>[,<name>...]: the launches of these kernels, or of
  // these sites ("file.cu:line:col", as the report names them), run the
  // original kernel; the others as usual (to find which site changes a result).
  std::vector<std::string> disabled_sites;
  unsigned long long max_bytes = 0;   // IRREGFIX_MAX_BYTES; 0 = unlimited
  bool stats = false;                 // IRREGFIX_STATS=1
  bool fail_alloc = false;            // IRREGFIX_FAIL_ALLOC=1 (testing knob)
  int layout = 0; // IRREGFIX_LAYOUT: 0 auto, a Layout (layouts.h), or kLayoutChoiceNone
  int sigma = 256; // IRREGFIX_SIGMA: window of SELL-32-sigma's sort, a power of two, 32..4096
  int chunks = 0;  // IRREGFIX_CHUNKS: chunks of a pipelined launch; 0: the model's choice
  // IRREGFIX_AUTO_SHARING=1: auto also times the sharing layout of shareable
  // neighbour-list launches. Off by default: on the H200 the sharing kernel lost
  // to the original wherever it applied (the L1 cache keeps a block's reuse),
  // and profiling it builds the sets (a segmented sort, ~1.8 ms at 262K atoms).
  bool auto_sharing = false;
  // IRREGFIX_SHARING_ORDER=0: the sharing layout groups the threads into blocks
  // as numbered. By default a permutable kernel's launch is shared over its
  // threads in the locality order (Wu's clustering: a block's threads then
  // read the same elements, so its set is small enough to stage).
  bool sharing_order = true;
  // IRREGFIX_VERIFY=1: checking mode. Every build fingerprints the bytes its
  // copy was built from, and every cache hit fingerprints them again and aborts
  // with a message naming the source when they changed (verify.h).
  bool verify = false;
  // IRREGFIX_HOIST_GROUP: iterations a step of a hoisted loop (0: the default,
  // the loop's width in kHoistDefaultSteps steps).
  int hoist_group = 0;
  // IRREGFIX_HOIST_ALWAYS=1: hoisted loops run in steps also when their copies
  // are cached (by default those run the in-kernel loop).
  bool hoist_always = false;
  // IRREGFIX_NVTX=1: NVTX ranges around the runtime's work (nvtx.h).
  bool nvtx = false;
  // IRREGFIX_ORDER_REGION: threads a region of the locality order grows around
  // one seed (a power of two, 32 to 4096; order.h), for a launch's own order
  // and for the program-wide domain's. The domain's regions are larger by
  // default: every kernel of the program runs in its order, and a region's
  // boundary is where its threads read another region's elements (on a
  // shuffled 2-D grid an iteration of CG took 0.366 ms at 128 and 0.340 at
  // 1024, the grid's own numbering 0.336; bench/RESULTS.md).
  int order_region = kOrderRegionDefault;
  int domain_region = kDomainRegionDefault;
  // IRREGFIX_RENUMBER: whether a site in the locality order reads its
  // renumbered gather through a copy in that order (a RenumberChoice: auto,
  // where its copies overflow the L2; 1 always; 0 never).
  int renumber = 0;
  // IRREGFIX_DOMAIN: program-wide renumbering (domain.h), a RenumberChoice:
  // auto (0) forms a domain where its graph's threads, as numbered, read far
  // apart; 1 wherever one can form; -1 never.
  int domain = 0;
  // Testing only (irregfix::testing::set_original_time_scale): the original
  // kernel's timed launches count this many times their measured time.
  double original_time_scale = 1.0;
  // IRREGFIX_PROFILE_AFTER_MS: under auto, a launcher runs the original kernel
  // until its launches have taken this much GPU time, and only then profiles
  // (copies and timed launches a short run would not earn back); 0: at once.
  int profile_after_ms = kProfileAfterMsDefault;
  // IRREGFIX_DETERMINISTIC=1: scatter sites always run the inspector-executor,
  // whose sums do not depend on the order threads run in (the selector may
  // otherwise keep the original kernel's atomics).
  bool deterministic = false;
  // IRREGFIX_LANES: the lanes a row of the lanes layout runs with (2, 4, 8, 16
  // or 32); 0: the layout policy's choice from the mean row length.
  int lanes = 0;
};

// A spelling of a registered layout (layouts.h: "ell", "sell32", "sell-32",
// "sigma", "locality"...) -> its Layout; "none" -> kLayoutChoiceNone; "auto"
// -> 0; any case.
// Returns false (and leaves *out alone) on anything else; null or "" -> auto.
bool parse_layout(const char *text, int *out);

// "123", "64K", "64M", "2G" (also "64KB", "64MiB", lower case). Powers of 1024.
// Returns false (and leaves *out alone) on anything else or on overflow.
bool parse_bytes(const char *text, unsigned long long *out);
// "1", "true", "yes", "on" (any case) -> true; null, "", "0", anything else -> false.
bool parse_flag(const char *text);
// Whether IRREGFIX_DISABLE names this launcher's kernel or site.
bool disables(const Config &c, const char *kernel, const char *site_id);
// Builds a Config from the four variables' values (null when unset).
Config parse_config(const char *disable, const char *max_bytes, const char *stats,
                    const char *fail_alloc);
// As above, plus IRREGFIX_LAYOUT (an unknown value warns and means auto) and
// IRREGFIX_SIGMA (32 to 4096, rounded up to a power of two; else a warning and 256).
Config parse_config(const char *disable, const char *max_bytes, const char *stats,
                    const char *fail_alloc, const char *layout, const char *sigma = nullptr);
// IRREGFIX_CHUNKS: a count from 1 to kMaxChunks, or "" / null / "auto" for the
// model (0). Anything else warns and means the model.
bool parse_chunks(const char *text, int *out);
// SELL-32-sigma's window: the power of two in [32, 4096] at or above sigma.
int round_sigma(int sigma);
// IRREGFIX_HOIST_GROUP: iterations a step, a positive integer (at most 2^30).
// Null or "" -> 0 (the default); anything else -> -1 (the caller warns).
int parse_hoist_group(const char *text);
// IRREGFIX_ORDER_REGION: a power of two from 32 to 4096 -> that; null or "" ->
// 0 (the defaults: kOrderRegionDefault, kDomainRegionDefault); anything else
// -> -1 (the caller warns).
int parse_order_region(const char *text);
// Whether the locality order takes `region` threads a region: a power of two from 32 to 4096.
bool valid_order_region(long long region);
// IRREGFIX_PROFILE_AFTER_MS: milliseconds, 0 to 10^6 (unset: the default); -1 when invalid.
int parse_profile_after_ms(const char *text);
// IRREGFIX_HOIST_ALWAYS: "1" -> true; null, "", "0" or anything else -> false
// (the caller warns about anything else).
bool parse_hoist_always(const char *text);
// IRREGFIX_RENUMBER: "auto" (or unset) 0, "1" 1, "0" -1 (a RenumberChoice); 2 on anything else.
int parse_renumber(const char *text);
// IRREGFIX_DOMAIN: as IRREGFIX_RENUMBER.
inline int parse_domain(const char *text) { return parse_renumber(text); }
// IRREGFIX_LANES: 2, 4, 8, 16 or 32 -> that; null, "" or "auto" -> 0 (the
// policy's choice); anything else -> -1 (the caller warns).
int parse_lanes(const char *text);
// Every variable: parse_config(getenv(...)...), IRREGFIX_CHUNKS, IRREGFIX_AUTO_SHARING,
// IRREGFIX_VERIFY, IRREGFIX_HOIST_GROUP, IRREGFIX_HOIST_ALWAYS, IRREGFIX_NVTX,
// IRREGFIX_ORDER_REGION, IRREGFIX_DETERMINISTIC, IRREGFIX_LANES and IRREGFIX_DOMAIN;
// a value that cannot be used is reported on stderr and the default taken.
Config config_from_env();

} // namespace detail
} // namespace irregfix
