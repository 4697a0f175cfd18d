// The indexed strategy's analysis: the indirect reads no pattern site took,
// grouped into indexed sites (the reads outside loops whose index is a
// function of the thread: one gather site; the reads of one loop: one loop
// site), each read kept only where a generated kernel can compute its index
// outside the kernel with the same result — its form is known, every array it
// loads is one the launch can name and the kernel never writes — and the
// verdict of every indirect read of the kernel: the second step of the
// kernel's analysis (KernelAnalysis.h).
#pragma once

#include "Analysis/IndirectReads.h"
#include "Analysis/Site.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// Adds Info's indexed sites (after its pattern sites) and fills Info.Reads.
// Pattern sites refused whose reads an indexed site takes are dropped.
// Chains: the device functions the kernel calls (CallChains.h), through which
// the reads in them are judged.
void addIndexedSites(KernelInfo &Info, const std::vector<IndirectRead> &Reads, const WriteSet &Writes,
                     const std::vector<BoundChain> &Chains, clang::ASTContext &Ctx);

} // namespace irregfix
