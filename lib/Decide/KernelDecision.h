// What the decision step (DecideFile.h) makes of one kernel, as plain data:
// the verdicts the tool rewrites by, reports and remarks on, and that the
// clang-tidy check shows. Nothing after the decision step changes them.
#pragma once

#include "Analysis/DeviceOnlyCode.h"
#include "Analysis/ScatterSites.h"
#include "Analysis/Site.h"

#include <string>
#include <vector>

namespace irregfix {

// What --hoist asks of a kernel. A hoisted kernel keeps its threads in order
// and stages nothing in shared memory (its live buffers and early exits use
// the thread index as written).
enum class HoistRequest {
  None,
  Named,      // its loop: --hoist names the kernel
  Everywhere, // the loop of every kernel with a transformed site: --hoist alone
};

// The kernels --hoist names, or all of them.
struct HoistSelection {
  bool All = false;
  std::vector<std::string> Kernels;
  HoistRequest of(const std::string &Kernel) const;
};

// How long one kernel's analysis may take before the kernel is left as it is,
// and how that limit came about (for the remark).
struct KernelBudget {
  double Seconds = -1; // negative: no limit
  std::string Described;
};

// A device function the kernel calls with code only the device compilation
// sees, and the first such region: the analyses do not read it.
struct DeviceOnlyCallee {
  const clang::FunctionDecl *Function = nullptr;
  const DeviceOnlyCode::Region *Region = nullptr;
  bool MayStore = false; // its stores drop every copy at the launch (WriteSet.h)
};

struct KernelDecision {
  // Its sites, reads, thread order, chunks, sharing, hoisting and ordered
  // launch, each final.
  KernelInfo Info;
  // Its updates through index arrays, each rewritten (scatter) or refused.
  std::vector<ScatterSite> Scatters;
  std::vector<DeviceOnlyCallee> DeviceOnlyCallees;
  // Why the kernel is left as it is without verdicts (its analysis ran past
  // its budget); empty when it was analysed. Info then holds the kernel alone.
  std::string LeftAsIs;

  // The updates the scatter strategy rewrites (all of the kernel's, or none).
  std::vector<const ScatterSite *> rewrittenScatters() const { return transformableScatters(Scatters); }
  // Whether the tool rewrites the kernel at all: a transformed site, an
  // ordered launch or rewritten updates.
  bool rewritten() const { return Info.hasTransformableSite() || Info.OrderOnly || !rewrittenScatters().empty(); }
};

} // namespace irregfix
