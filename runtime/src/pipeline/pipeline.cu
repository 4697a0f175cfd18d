// irregfix runtime: pipelined launches (see pipeline.h).
#include "pipeline.h"

#include "overlap_plan.h"
#include "timing.h"

#include <algorithm>
#include <functional>

namespace irregfix {
namespace detail {
namespace {

// Positions in Pipeline::events for k chunks: in (on the launch's stream, before
// the copies), r0 (on the remap stream, once it may start), then per chunk the
// end of its copies, and the start and end of its kernel.
struct PipelineEvents {
  int k;
  int in() const { return 0; }
  int r0() const { return 1; }
  int done(int c) const { return 2 + c; }
  int kstart(int c) const { return 2 + k + c; }
  int kend(int c) const { return 2 + 2 * k + c; }
  int count() const { return 2 + 3 * k; }
};

void destroy_all(std::vector<cudaEvent_t> &events) {
  for (cudaEvent_t e : events)
    if (e)
      cudaEventDestroy(e);
  events.clear();
  cudaGetLastError();
}

// The remap stream to copy on next (created on first use).
cudaError_t remap_stream(Devices &devices, int dev, cudaStream_t *remap) {
  DeviceQueues &q = devices.queues[dev];
  cudaStream_t &s = q.remap[q.next++ % DeviceQueues::kRemapStreams];
  if (!s) {
    const cudaError_t e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
      s = nullptr;
      return e;
    }
  }
  *remap = s;
  return cudaSuccess;
}

// Threads of chunk c for a site of n threads: its blocks' threads, and for the
// last chunk every thread up to n, so that the entry is whole even when the
// grid covers fewer threads than the site names.
Rows chunk_rows(const Pipeline &p, int c, long long n) {
  const long long bx = p.block.x;
  const long long b0 = static_cast<long long>(c) * p.blocks_per_chunk;
  const long long b1 = std::min<long long>(p.grid.x, b0 + p.blocks_per_chunk);
  return Rows{std::min(n, b0 * bx), c == p.chunks - 1 ? n : std::min(n, b1 * bx)};
}

std::string all_enqueued(Pipeline &p, cudaStream_t stream) {
  for (DeferredCopy &dc : p.copies) {
    const std::string why = copies_enqueued(*dc.stats, *dc.site, *dc.entry, dc.bytes, stream);
    if (!why.empty())
      return why;
  }
  return "";
}

// One chunk: the copies as start_copy enqueues them, timed per site.
std::string run_unchunked(Pipeline &p, cudaStream_t stream) {
  for (DeferredCopy &dc : p.copies)
    if (std::string why = enqueue_timed(*dc.stats, *dc.site, dc.count, dc.n, dc.what, stream, dc.copy);
        !why.empty())
      return why;
  return all_enqueued(p, stream);
}

// The remap and kernel times the chunk model needs (negative: not measured),
// and an estimate from the bytes to copy when they are not.
void model_inputs(const Pipeline &p, SiteStats &stats, double kernel_ms, double *remap_ms, double *compute_ms,
                  double *estimate_ms) {
  // The remap's whole time (the selector's remap figure is what a launch paid
  // for it, after hiding), and the kernel's time when the selector has one.
  resolve_timings(stats, false);
  resolve_pipeline_timings(stats, false);
  *remap_ms = stats.remaps_timed ? stats.remap_ms / stats.remaps_timed : -1;
  *compute_ms = kernel_ms;
  unsigned long long bytes = 0;
  for (const DeferredCopy &dc : p.copies)
    bytes += dc.bytes;
  // Read and write at an irregular copy's ~1.5 TB/s (bytes per ms: 1.5e9).
  *estimate_ms = 2.0 * static_cast<double>(bytes) / 1.5e9;
}

// No pipeline: the copies on the launch's stream, as start_copy enqueues them.
int enqueue_whole(Pipeline &p, cudaStream_t stream, std::string *why) {
  p.chunks = 1;
  *why = run_unchunked(p, stream);
  p.copies.clear();
  return why->empty() ? 1 : 0;
}

// Enqueues the deferred copies in p.chunks parts on a remap stream, part c being
// rows_of(copy, c) of each copy (nothing where its count() is 0), after the work
// queued on `stream` so far, with an event at the end of each part (see
// PipelineEvents). Returns p.chunks; 0 and *why when a copy failed (the remap
// stream drained, nothing of this launch left to land later).
int enqueue_parts(Devices &devices, Pipeline &p, int dev, cudaStream_t stream, std::string *why,
                  const std::function<Rows(const DeferredCopy &, int)> &rows_of) {
  const SiteInfo &site = *p.copies.front().site;
  cudaStream_t remap = nullptr;
  if (const cudaError_t qe = remap_stream(devices, dev, &remap); qe != cudaSuccess) {
    cuda_failure("creating a remap stream", site, qe); // reported; the launch runs unchunked
    return enqueue_whole(p, stream, why);
  }
  const PipelineEvents ev{p.chunks};
  p.events.assign(ev.count(), nullptr);
  auto fail = [&](const std::string &reason) {
    *why = reason;
    cudaStreamSynchronize(remap); // no copy of this launch may land after its entries are rebuilt
    destroy_all(p.events);
    p.copies.clear();
    p.chunks = 0;
    return 0;
  };
  for (cudaEvent_t &e : p.events) {
    const cudaError_t ce = cudaEventCreate(&e);
    if (ce != cudaSuccess)
      return fail(cuda_failure("cudaEventCreate", site, ce));
  }
  // The copies start after everything queued on the launch's stream so far.
  cudaError_t ce = cudaEventRecord(p.events[ev.in()], stream);
  if (ce == cudaSuccess)
    ce = cudaStreamWaitEvent(remap, p.events[ev.in()], 0);
  if (ce == cudaSuccess)
    ce = cudaEventRecord(p.events[ev.r0()], remap);
  if (ce != cudaSuccess)
    return fail(cuda_failure("ordering the remap stream after the launch's", site, ce));
  for (int c = 0; c < p.chunks; ++c) {
    for (DeferredCopy &dc : p.copies) {
      const Rows rows = rows_of(dc, c);
      for (int i = 0; rows.count() > 0 && i < dc.count; ++i) {
        const cudaError_t e = dc.copy(i, rows, remap);
        if (e != cudaSuccess)
          return fail(cuda_failure(dc.what, *dc.site, e));
      }
    }
    ce = cudaEventRecord(p.events[ev.done(c)], remap);
    if (ce != cudaSuccess)
      return fail(cuda_failure("cudaEventRecord", site, ce));
  }
  const std::string enq = all_enqueued(p, remap);
  if (!enq.empty())
    return fail(enq);
  p.copies.clear();
  return p.chunks;
}

} // namespace

bool pipeline_accepts(const Pipeline &p) {
  return p.hoisted || (p.chunkable && p.grid.x > 1 && p.grid.y == 1 && p.grid.z == 1 && p.block.x > 0);
}

int start_pipeline(Devices &devices, int forced, Pipeline &p, SiteStats &stats, double kernel_ms, int dev,
                   cudaStream_t stream, std::string *why) {
  p.chunks = 1;
  p.blocks_per_chunk = p.grid.x;
  if (p.copies.empty())
    return 1;
  const SiteInfo &site = *p.copies.front().site;
  int sms = 0;
  cudaError_t qe = device_sms(devices, dev, &sms);
  double remap_ms, compute_ms, estimate_ms;
  model_inputs(p, stats, kernel_ms, &remap_ms, &compute_ms, &estimate_ms);
  const int k = qe == cudaSuccess ? plan_chunks(remap_ms, compute_ms, estimate_ms, p.grid.x,
                                                full_wave(sms, p.block.x * p.block.y * p.block.z),
                                                forced)
                                  : 1;
  if (qe != cudaSuccess) // reported; the launch runs unchunked
    cuda_failure("cudaDeviceGetAttribute", site, qe);
  if (k <= 1)
    return enqueue_whole(p, stream, why);
  p.blocks_per_chunk = (p.grid.x + k - 1) / k;
  p.chunks = static_cast<int>((p.grid.x + p.blocks_per_chunk - 1) / p.blocks_per_chunk);
  return enqueue_parts(devices, p, dev, stream, why,
                       [&p](const DeferredCopy &dc, int c) { return chunk_rows(p, c, dc.n); });
}

int start_slices(Devices &devices, Pipeline &p, const SiteInfo &sliced, int steps, int group, int dev,
                 cudaStream_t stream, std::string *why) {
  p.chunks = 1;
  if (p.copies.empty())
    return 1;
  if (steps < 2 || group < 1)
    return enqueue_whole(p, stream, why);
  p.chunks = steps;
  return enqueue_parts(devices, p, dev, stream, why, [&](const DeferredCopy &dc, int s) {
    if (dc.site != &sliced) // another site's copy: whole, before the first step
      return s == 0 ? Rows{0, dc.n} : Rows{};
    Rows rows{0, dc.n};
    rows.iter_first = static_cast<long long>(s) * group;
    if (s < steps - 1) // the last slice takes every iteration left
      rows.iter_last = rows.iter_first + group;
    return rows;
  });
}

Chunk pipeline_chunk(Pipeline &p, int c, cudaStream_t stream) {
  if (p.chunks <= 1 || c < 0 || c >= p.chunks)
    return Chunk{p.grid, 0};
  wait_chunk(p, c, stream);
  const unsigned b0 = static_cast<unsigned>(c) * p.blocks_per_chunk;
  const unsigned blocks = std::min(p.grid.x - b0, p.blocks_per_chunk);
  return Chunk{dim3(blocks, 1, 1), b0};
}

void wait_chunk(Pipeline &p, int c, cudaStream_t stream) {
  if (p.chunks <= 1 || c < 0 || c >= p.chunks || p.events.empty())
    return;
  const PipelineEvents ev{p.chunks};
  // A failed record or wait is not silent: the stream would read a copy not
  // yet written. cudaStreamWaitEvent fails only on invalid handles, which these
  // are not; the error is left for the kernel launch (and the program) to see.
  if (c > 0)
    cudaEventRecord(p.events[ev.kend(c - 1)], stream);
  cudaStreamWaitEvent(stream, p.events[ev.done(c)], 0);
  cudaEventRecord(p.events[ev.kstart(c)], stream);
}

void finish_pipeline(Pipeline &p, SiteStats &stats, cudaStream_t stream) {
  if (p.chunks > 1 && !p.events.empty()) {
    const PipelineEvents ev{p.chunks};
    ++stats.pipelined;
    stats.last_chunks = p.chunks;
    stats.last_sliced = p.hoisted;
    if (cudaEventRecord(p.events[ev.kend(p.chunks - 1)], stream) == cudaSuccess) {
      stats.pipeline_pending.push_back(std::move(p.events));
      p.events.clear();
    }
  }
  abandon_pipeline(p);
}

void abandon_pipeline(Pipeline &p) {
  destroy_all(p.events);
  p.copies.clear();
  p.chunks = 0;
  p.blocks_per_chunk = 0;
}

void resolve_pipeline_timings(SiteStats &s, bool wait) {
  auto it = s.pipeline_pending.begin();
  while (it != s.pipeline_pending.end()) {
    std::vector<cudaEvent_t> &e = *it;
    const PipelineEvents ev{static_cast<int>((e.size() - 2) / 3)};
    const cudaError_t q = event_done(e[ev.kend(ev.k - 1)], wait);
    if (q == cudaErrorNotReady) {
      ++it;
      continue;
    }
    bool ok = q == cudaSuccess && event_done(e[ev.done(ev.k - 1)], true) == cudaSuccess;
    // remap: the remap stream's busy time; compute: the kernels' own time;
    // wall: from the launch's first event to its last kernel's end. The kernel
    // waited (wall - compute); what of the remap did not make it wait was hidden.
    double remap = ok ? elapsed_ms(e[ev.r0()], e[ev.done(ev.k - 1)], &ok) : 0;
    double compute = 0;
    for (int c = 0; ok && c < ev.k; ++c)
      compute += elapsed_ms(e[ev.kstart(c)], e[ev.kend(c)], &ok);
    const double wall = ok ? elapsed_ms(e[ev.in()], e[ev.kend(ev.k - 1)], &ok) : 0;
    if (ok) {
      const double exposed = std::max(0.0, wall - compute);
      s.pipelined_remap_ms += remap;
      s.remap_ms += remap;
      ++s.remaps_timed;
      s.hidden_ms += std::clamp(remap - exposed, 0.0, remap);
      ++s.pipelined_timed;
    }
    destroy_all(e);
    it = s.pipeline_pending.erase(it);
  }
  cudaGetLastError();
}

} // namespace detail
} // namespace irregfix
