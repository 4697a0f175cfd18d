// irregfix runtime: the cost model of a range site's layouts. The selector
// times candidates, but a timed candidate costs its copy (built, held, rebuilt
// at every write of its sources) and probes of a kernel that may be far
// slower; so before a build copies anything, the policy predicts each
// layout's kernel time from what it knows cheaply: the rows, their non-zeros
// (B[0] and B[n], one small round trip), the longest row once the lengths are
// counted, the bytes a row element reads, and the threads the device holds at
// once. A layout expected to lose to the original by kExpectedLoss or more is
// neither copied nor timed.
//
// One launch takes the longer of its dependent steps and its traffic:
//  - steps: a thread's loop is a chain of loads, each waiting for the last.
//    The longest row's chain bounds the launch, and so does the bulk's when
//    the launch needs several waves of the device's resident threads. A step
//    of the original, whose thread reads its own row in place, mostly hits
//    the L1 (its lines stay while an SM's threads are few): kStepInPlaceNs. A
//    step through a copy laid out by iterations (ELL, SELL) reads a new line
//    each time: kStepCopyNs. L lanes a row cut the chain by L, each step
//    reading a new line of L elements.
//  - traffic: the bytes read over the device's bandwidth: the non-zeros (the
//    original, the lanes), the cells of the padded copy.
// Anchors (H100, 10,240 rows of ~1,640 floats, scalar CSR SpMV): the original
// 325 us, its ELL copy 914 us (198 and 557 ns a step), a warp a row 76 us.
// The steps were measured on long rows; below kModelMinMeanRow elements a row,
// launch overheads and a warp's tail weigh as much as the steps, and the model
// prunes nothing (the selector times what the padding rules propose).
//
// Host-only: test/unit/runtime checks the model without a GPU.
#pragma once

#include <cstddef>

namespace irregfix {
namespace detail {

constexpr double kStepInPlaceNs = 200;
constexpr double kStepCopyNs = 560;
constexpr double kShuffleStepNs = 20;      // one level of a lanes' combining tree
// An element taken in order from its lane, a warp's work over the whole
// device: on 10,240 rows of ~1,640 floats (H100) the in-order variant took
// 285 us with 32 lanes (nnz element steps), 188 with 16, 183 with 8.
constexpr double kInOrderElementNs = 0.017;
constexpr double kBytesPerNs = 3000;       // device memory bandwidth (3 TB/s)
constexpr double kExpectedLoss = 1.5;      // predicted this much slower: not copied nor timed
constexpr double kModelMinMeanRow = 128;   // the model prunes only rows this long on average

// Probing's budget. A candidate's first copy costs more than its remap: on a
// whole CG run (8M rows, a 320 MB copy, H200) about 4 ms, of which the remap
// kernel 0.38 ms, allocating and freeing 0.2 ms (H100), loading the remap
// kernels' modules about 1.8 ms the first time (H100), the rest the survey's
// counts and the candidate's timed launches. Modelled as 2 ms plus 1 ms per
// 160 MB. A launcher builds no candidate copy before its own launches have
// taken 1 / kProbeShare times that, so that a run ending soon after spends at
// most that share of its GPU time probing.
constexpr double kProbeShare = 0.02;
constexpr double kProbeFixedMs = 2.0;
constexpr double kProbeBytesPerMs = 1.6e8;

// What the model knows of one range site's launch.
struct RangeShape {
  long long rows = 0;               // threads with a row (the launch's n)
  unsigned long long nnz = 0;       // elements of all rows
  long long max_len = -1;           // the longest row; -1: not counted yet (the mean stands for it)
  std::size_t element_bytes = 4;    // bytes a row element reads, over the site's arrays
  long long resident_threads = 0;   // threads the device holds at once; 0: unknown (one wave)
  double mean() const { return rows > 0 ? static_cast<double>(nnz) / static_cast<double>(rows) : 0.0; }
};

// Predicted kernel time (ns) of one launch: the original (a thread a row, its
// row read in place), a padded copy of `cells` cells (a thread a row), and
// `lanes` lanes a row reading in place.
double original_ns(const RangeShape &s);
double padded_ns(const RangeShape &s, unsigned long long cells);
double lanes_ns(const RangeShape &s, int lanes);
// The in-order variant (kSiteLanesInOrder): the lanes load L elements at a
// step (the chain of steps), and every lane then takes the row's elements one
// by one from the lanes that loaded them: a warp instruction serves 32 / L
// rows, so the device issues nnz x L / 32 element steps in all
// (kInOrderElementNs each, shuffles the bound).
double lanes_in_order_ns(const RangeShape &s, int lanes);
// The lanes a row the in-order variant runs fastest with, by the model (2 to 32).
int in_order_lanes(const RangeShape &s);

// Whether the model applies: rows long enough on average (kModelMinMeanRow).
bool model_applies(const RangeShape &s);
// Whether a layout predicted at `candidate_ns` is expected to lose to the
// original by kExpectedLoss or more (only where the model applies).
bool expected_to_lose(const RangeShape &s, double candidate_ns);
// Whether every padded layout is (its cells at least the non-zeros): checked
// before the lengths are counted, so that no copy is surveyed nor built.
bool padding_expected_to_lose(const RangeShape &s);

// Expected cost (ms) of building, and freeing, a candidate copy of `bytes`;
// the launcher's GPU time that pays for it (expected cost / kProbeShare).
double expected_probe_ms(unsigned long long bytes);
double probe_paid_after_ms(unsigned long long bytes);

} // namespace detail
} // namespace irregfix
