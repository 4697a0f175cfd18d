// irregfix runtime: pipelined launches. When a chunkable kernel's launch must
// remap, the copies its builders return (build.h, DeferredCopy) are not
// enqueued by its prepares: the API hands them to the launch's pipeline
// (launch.h, take_copies). start_chunks then cuts the copies into chunks of
// thread blocks on a remap stream, and each launch_chunk makes the launch's
// stream wait for its own chunk only, so chunk c computes while chunk c+1 is
// copied. A hoisted launch's copies go in slices of iterations instead.
#pragma once

#include "build.h"
#include "device.h"
#include "stats.h"

#include <string>
#include <vector>

namespace irregfix {
namespace detail {

// The pipelined part of a launch (Launch::pipeline).
struct Pipeline {
  bool chunkable = false; // the launcher runs the kernel chunk by chunk
  bool hoisted = false;   // the launcher runs a hoisted kernel: copies in slices of iterations
  dim3 grid{0, 0, 0}, block{0, 0, 0}; // the launch configuration; 0: unknown
  std::size_t shmem = 0;              // the launch's own dynamic shared memory
  std::vector<DeferredCopy> copies;
  int chunks = 0;               // set by start_pipeline: 1 (no pipeline) or more
  unsigned blocks_per_chunk = 0;
  // chunks > 1: events in, r0, then done[chunks], kstart[chunks], kend[chunks]
  // (see PipelineEvents); handed to the launcher's stats at the end.
  std::vector<cudaEvent_t> events;
};

// Whether copies may be deferred: the launch is hoisted, or chunkable and one-dimensional.
bool pipeline_accepts(const Pipeline &p);

// Enqueues the deferred copies, in chunks when that pays (the launcher's
// timings feed the model: its remaps' in `stats`, its kernel's, kernel_ms,
// from its selector; `forced`: IRREGFIX_CHUNKS), and returns the chunk count;
// 0 (and the reason in *why) when a copy could not be enqueued: run the
// original kernel.
int start_pipeline(Devices &devices, int forced, Pipeline &p, SiteStats &stats, double kernel_ms, int dev,
                   cudaStream_t stream, std::string *why);

// A hoisted launch (see begin_hoisted): the deferred copies in `steps` slices
// of `group` iterations each, slice s holding iterations [s*group, (s+1)*group)
// of the copies of `sliced` (the hoisted loop's site) and, in slice 0, every
// other copy whole. steps < 2: no slices, the copies enqueued on `stream`.
// Returns the slice count (1: none); 0 and *why when a copy failed.
int start_slices(Devices &devices, Pipeline &p, const SiteInfo &sliced, int steps, int group, int dev,
                 cudaStream_t stream, std::string *why);

// Chunk c's grid and offset; the stream waits for chunk c's copies.
Chunk pipeline_chunk(Pipeline &p, int c, cudaStream_t stream);
// The stream waits for chunk (or slice) c's copies; its kernel's timing starts.
void wait_chunk(Pipeline &p, int c, cudaStream_t stream);

// After the last chunk's kernel: its end event, and the events to the stats.
void finish_pipeline(Pipeline &p, SiteStats &stats, cudaStream_t stream);

// Forgets a pipeline (its copies never ran: their entries stay invalid).
void abandon_pipeline(Pipeline &p);

// Reads the completed pipelined launches' events into the stats (remap time,
// the part hidden behind the kernel), waiting for them when wait.
void resolve_pipeline_timings(SiteStats &s, bool wait);

} // namespace detail
} // namespace irregfix
