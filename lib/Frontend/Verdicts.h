// What irregfix decides about a kernel, with nothing rewritten: its sites, each
// transformable or refused with the reason, and what becomes of every indirect
// read. The tool's remarks and --report, and the clang-tidy check
// (tidy/IndirectReadCheck.h), all come from these functions.
#pragma once

#include "Analysis/ScatterSites.h"
#include "Analysis/Site.h"
#include "Frontend/Report.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// The kernel's sites and reads, with the indexed sites whose index kernels
// cannot be written refused (their reads not rewritten). Its updates through
// index arrays (scatter sites) go to *Scatters when given: the element each
// adds to gets the update's verdict, and a kernel whose update is rewritten
// keeps its reads as they are.
// What --hoist asks of a kernel. A hoisted kernel keeps its threads in order
// and stages nothing in shared memory (its live buffers and early exits use the
// thread index as written).
enum class HoistRequest {
  None,
  Named,      // its loop: --hoist names the kernel
  Everywhere, // the loop of every kernel with a transformed site: --hoist alone
};
KernelInfo kernelVerdicts(const clang::FunctionDecl *Kernel, clang::ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly,
                          std::vector<ScatterSite> *Scatters = nullptr, HoistRequest Hoist = HoistRequest::None);

// The report's row of one site of Info, and of one of its reads.
SiteReport siteReport(const Site &S, const KernelInfo &Info, clang::ASTContext &Ctx);
ReadReport readReport(const ReadVerdict &V, const KernelInfo &Info, clang::ASTContext &Ctx);
SiteReport scatterReport(const ScatterSite &S, const KernelInfo &Info, clang::ASTContext &Ctx);
// The row of a kernel without a site that runs in a locality order (KernelInfo::OrderOnly).
SiteReport orderReport(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix
