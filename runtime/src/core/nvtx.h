// irregfix runtime: NVTX ranges and marks, so that a timeline (Nsight Systems)
// shows what the runtime did and what it cost: remap builds and refreshes,
// the selector's timed launches (probes) and its decision, the chunks of a
// pipelined launch, the steps of a hoisted one, the enqueueing of their copies.
// They go to the NVTX domain "irregfix", named by the site ("remap spmv_csr @
// cg.cu:35:5 [ell-colmajor]"). Off unless IRREGFIX_NVTX=1 (Config::nvtx): off,
// nothing is formatted and no NVTX call is made. NVTX 3 (header-only, shipped
// with CUDA) costs nothing when no tool is attached. Host-only: the unit tests
// record the calls through an NVTX injection, without a GPU.
#pragma once

#include <string>

namespace irregfix {
namespace detail {

enum class Work {
  kRemap,       // a miss: a copy's shape and data built
  kRefresh,     // a stale copy rebuilt (its data; its shape when an index array changed)
  kCopies,      // a pipelined or hoisted launch enqueues its copies in chunks or slices
  kProbe,       // a launch the selector times (original, or a candidate layout)
  kDecision,    // the selector settled (a mark)
  kChunk,       // one chunk of a pipelined launch
  kHoistedStep, // one step of a hoisted launch
};

// "remap", "refresh", "copies", "probe", "decision", "chunk", "step".
const char *work_name(Work w);
// The range's name: "<work> <kernel> @ <site>", then " [<detail>]" when detail is not empty.
std::string nvtx_name(Work w, const char *site, const char *kernel, const std::string &detail);

// A range of the irregfix domain, open from start() to end() (or its
// destruction, or the start of another range in its place). start() with
// on == false opens nothing.
class NvtxRange {
public:
  NvtxRange() = default;
  NvtxRange(const NvtxRange &) = delete;
  NvtxRange &operator=(const NvtxRange &) = delete;
  NvtxRange(NvtxRange &&o) noexcept : id_(o.id_), open_(o.open_) { o.open_ = false; }
  NvtxRange &operator=(NvtxRange &&o) noexcept;
  ~NvtxRange() { end(); }

  void start(bool on, Work w, const char *site, const char *kernel, const std::string &detail = "");
  void end();
  bool open() const { return open_; }

private:
  unsigned long long id_ = 0;
  bool open_ = false;
};

// A mark (an instant) in the irregfix domain, when on.
void nvtx_mark(bool on, Work w, const char *site, const char *kernel, const std::string &detail = "");

} // namespace detail
} // namespace irregfix
