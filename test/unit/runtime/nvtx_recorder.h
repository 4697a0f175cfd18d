// An NVTX tool for tests: a static NVTX injection that records every domain,
// range and mark the program makes (NVTX 3 calls InitializeInjectionNvtx2_fnptr
// on the first NVTX call). Include it in one file of a test program, before
// anything else includes NVTX; take_events() returns what was recorded since
// the last call. Host-only: it needs no GPU.
#pragma once

#include <cstdint>

// The injection's entry point, declared before NVTX's headers so that their
// loader (in this file too) uses it instead of its own weak, null definition.
#define NVTX_STATIC_INJECTION_IMPL
extern "C" int (*InitializeInjectionNvtx2_fnptr)(const void *(*)(std::uint32_t));
#include <nvtx3/nvToolsExt.h>

#include <map>
#include <string>
#include <vector>

namespace nvtx_recorder {

struct Recorded {
  std::vector<std::string> events; // "start D: NAME", "end D: NAME", "mark D: NAME"
  std::map<nvtxRangeId_t, std::string> open;
  std::map<nvtxDomainHandle_t, std::string> domains;
  nvtxRangeId_t next = 1;
  unsigned last_colour = 0;
};
inline Recorded recorded;

inline std::string domain_name(nvtxDomainHandle_t d) {
  auto it = recorded.domains.find(d);
  return it == recorded.domains.end() ? "(default)" : it->second;
}

inline nvtxDomainHandle_t create_domain(const char *name) {
  auto *handle = reinterpret_cast<nvtxDomainHandle_t>(recorded.domains.size() + 1);
  recorded.domains[handle] = name;
  return handle;
}

inline nvtxRangeId_t range_start(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) {
  const std::string name = a->messageType == NVTX_MESSAGE_TYPE_ASCII ? a->message.ascii : "?";
  recorded.events.push_back("start " + domain_name(d) + ": " + name);
  recorded.last_colour = a->color;
  recorded.open[recorded.next] = name;
  return recorded.next++;
}

inline void range_end(nvtxDomainHandle_t d, nvtxRangeId_t id) {
  recorded.events.push_back("end " + domain_name(d) + ": " + recorded.open[id]);
  recorded.open.erase(id);
}

inline void mark(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) {
  recorded.events.push_back("mark " + domain_name(d) + ": " + a->message.ascii);
}

inline int initialize(NvtxGetExportTableFunc_t get_table) {
  const auto *callbacks = static_cast<const NvtxExportTableCallbacks *>(get_table(NVTX_ETID_CALLBACKS));
  NvtxFunctionTable table = nullptr;
  unsigned size = 0;
  if (!callbacks || !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) ||
      size <= NVTX_CBID_CORE2_DomainCreateA)
    return 0;
  *table[NVTX_CBID_CORE2_DomainCreateA] = reinterpret_cast<NvtxFunctionPointer>(&create_domain);
  *table[NVTX_CBID_CORE2_DomainRangeStartEx] = reinterpret_cast<NvtxFunctionPointer>(&range_start);
  *table[NVTX_CBID_CORE2_DomainRangeEnd] = reinterpret_cast<NvtxFunctionPointer>(&range_end);
  *table[NVTX_CBID_CORE2_DomainMarkEx] = reinterpret_cast<NvtxFunctionPointer>(&mark);
  return 1;
}

inline std::vector<std::string> take_events() {
  std::vector<std::string> e;
  e.swap(recorded.events);
  return e;
}

} // namespace nvtx_recorder

extern "C" {
NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr = &nvtx_recorder::initialize;
}

