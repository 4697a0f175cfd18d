// The rows of --report (Report.h) made from the decided verdicts
// (Decide/KernelDecision.h): one per site, scatter update and ordered launch,
// one per indirect read. The remarks and the clang-tidy check say the same
// from the same rows.
#pragma once

#include "Analysis/ScatterSites.h"
#include "Analysis/Site.h"
#include "Frontend/Report.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// The report's row of one site of Info, and of one of its reads.
SiteReport siteReport(const Site &S, const KernelInfo &Info, clang::ASTContext &Ctx);
ReadReport readReport(const ReadVerdict &V, const KernelInfo &Info, clang::ASTContext &Ctx);
SiteReport scatterReport(const ScatterSite &S, const KernelInfo &Info, clang::ASTContext &Ctx);
// The row of a kernel without a site that runs in a locality order (KernelInfo::OrderOnly).
SiteReport orderReport(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix
