// irregfix runtime: NVTX ranges and marks. See nvtx.h.
#include "nvtx.h"

#include <nvtx3/nvToolsExt.h>

namespace irregfix {
namespace detail {
namespace {

nvtxDomainHandle_t domain() {
  static nvtxDomainHandle_t d = nvtxDomainCreateA("irregfix");
  return d;
}

// ARGB colours by kind, so that the timeline tells them apart at a glance.
unsigned colour(Work w) {
  switch (w) {
  case Work::kRemap: return 0xffd62728;       // red: a copy built
  case Work::kRefresh: return 0xffff7f0e;     // orange: rebuilt
  case Work::kCopies: return 0xffbcbd22;      // olive: copies enqueued in parts
  case Work::kProbe: return 0xff9467bd;       // purple: timed by the selector
  case Work::kDecision: return 0xff2ca02c;    // green
  case Work::kChunk: return 0xff1f77b4;       // blue
  case Work::kHoistedStep: return 0xff17becf; // cyan
  }
  return 0xff7f7f7f;
}

nvtxEventAttributes_t attributes(Work w, const std::string &name) {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.colorType = NVTX_COLOR_ARGB;
  a.color = colour(w);
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = name.c_str();
  return a;
}

} // namespace

const char *work_name(Work w) {
  switch (w) {
  case Work::kRemap: return "remap";
  case Work::kRefresh: return "refresh";
  case Work::kCopies: return "copies";
  case Work::kProbe: return "probe";
  case Work::kDecision: return "decision";
  case Work::kChunk: return "chunk";
  case Work::kHoistedStep: return "step";
  }
  return "?";
}

std::string nvtx_name(Work w, const char *site, const char *kernel, const std::string &detail) {
  std::string name = work_name(w);
  name += ' ';
  name += kernel ? kernel : "?";
  name += " @ ";
  name += site ? site : "?";
  if (!detail.empty())
    name += " [" + detail + "]";
  return name;
}

NvtxRange &NvtxRange::operator=(NvtxRange &&o) noexcept {
  if (this != &o) {
    end();
    id_ = o.id_;
    open_ = o.open_;
    o.open_ = false;
  }
  return *this;
}

void NvtxRange::start(bool on, Work w, const char *site, const char *kernel, const std::string &detail) {
  end();
  if (!on)
    return;
  const std::string name = nvtx_name(w, site, kernel, detail);
  const nvtxEventAttributes_t a = attributes(w, name);
  id_ = nvtxDomainRangeStartEx(domain(), &a);
  open_ = true;
}

void NvtxRange::end() {
  if (!open_)
    return;
  nvtxDomainRangeEnd(domain(), id_);
  open_ = false;
}

void nvtx_mark(bool on, Work w, const char *site, const char *kernel, const std::string &detail) {
  if (!on)
    return;
  const std::string name = nvtx_name(w, site, kernel, detail);
  const nvtxEventAttributes_t a = attributes(w, name);
  nvtxDomainMarkEx(domain(), &a);
}

} // namespace detail
} // namespace irregfix
