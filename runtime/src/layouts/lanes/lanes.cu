// irregfix runtime: the lanes layout's builder. See lanes.h.
#include "lanes.h"
#include "lanes_payload.h"

namespace irregfix {
namespace detail {

std::string read_row_extent(const SiteInfo &site, const void *B, int b_kind, long long n, cudaStream_t stream,
                            RowExtent *out) {
  SourceRange b;
  if (const std::string why = whole_index_source(B, b_kind, n + 1, "B", &b); !why.empty())
    return why;
  const std::size_t isz = index_size(b_kind);
  unsigned char ends[16] = {};
  IRREGFIX_TRY(cudaMemcpyAsync(ends, B, isz, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaMemcpyAsync(ends + 8, static_cast<const unsigned char *>(B) + static_cast<std::size_t>(n) * isz,
                               isz, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  if (!index_value(ends, b_kind, &out->first) || !index_value(ends + 8, b_kind, &out->last))
    return "bad index data: B[0] or B[n] beyond a long long";
  if (out->last < out->first)
    return "bad index data: B[n] < B[0]";
  return "";
}

std::string build_lanes_range(SiteStats &ss, const SiteInfo &site, Entry &e,
                              const LayoutRequest &r, const void *B, int b_kind, long long n, int count,
                              const void *const *arrays, const std::size_t *elem_sizes, const RowExtent *known,
                              cudaStream_t stream, Built *built) {
  RowExtent x;
  if (known)
    x = *known;
  else if (std::string why = read_row_extent(site, B, b_kind, n, stream, &x); !why.empty())
    return why;
  // The data arrays, by where they lie: the variant reads [first, last) of each in place.
  std::vector<SourceRange> sources(static_cast<std::size_t>(count) + 1);
  for (int i = 0; i < count; ++i) {
    if (std::string why = check_extent(arrays[i], elem_sizes[i], x.first, x.last, &sources[i]); !why.empty())
      return why;
    sources[i].extent = Range{sources[i].ptr, 0};
    sources[i].values_read = false;
  }
  if (std::string why = whole_index_source(B, b_kind, n + 1, "B", &sources[count]); !why.empty())
    return why;
  // An entry that held a copy in another layout (auto's, before B changed) lets it go.
  for (void *b : e.bufs)
    if (b)
      cudaFree(b);
  e.bufs.clear();
  e.buf_bytes.clear();
  LanesPayload &p = payload<LanesPayload>(e);
  p.mean = n > 0 ? static_cast<double>(x.nnz()) / static_cast<double>(n) : 0.0;
  p.lanes = request_lanes(r, range_shape(r, n, x.nnz(), -1));
  e.sources = std::move(sources);
  e.index_sources = 1;
  e.layout = kLayoutLanes;
  e.nnz = x.last - x.first;
  e.max_len = 0;
  e.shape_valid = true;
  ss.lanes = p.lanes;
  ss.lanes_mean = p.mean;
  if (r.key == kLayoutKeyAuto) { // the model proposed it alone
    built->proposed[0] = kLayoutLanes;
    built->proposals = 1;
  }
  // Nothing to copy: the entry is ready once its extent is read.
  built->copy = DeferredCopy{&e, &ss, &site, 0, n, "lanes", 0, CopyFn()};
  return "";
}

} // namespace detail
} // namespace irregfix
