#include "Decide/DecideFile.h"
#include "Analysis/AnalysisBudget.h"
#include "Analysis/Chunkability.h"
#include "Analysis/CooperativeRows.h"
#include "Analysis/ElementNumbering.h"
#include "Analysis/Hoistability.h"
#include "Analysis/KernelAnalysis.h"
#include "Analysis/OrderedLaunches.h"
#include "Analysis/Permutability.h"
#include "Analysis/RenumberedGathers.h"
#include "Analysis/Shareability.h"
#include "Transform/Indexed/IndexKernels.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;

namespace irregfix {

HoistRequest HoistSelection::of(const std::string &Kernel) const {
  if (!All && !llvm::is_contained(Kernels, Kernel))
    return HoistRequest::None;
  return All ? HoistRequest::Everywhere : HoistRequest::Named;
}

namespace {

// An indexed site's copies are built whole, in the kernel's thread order.
void applyIndexedSites(KernelInfo &Info) {
  if (llvm::none_of(Info.Sites, [](const Site &S) { return S.transformable() && S.Pattern == kPatternIndexed; }))
    return;
  const char *Why = "it has an indexed site (its copies are built whole, in thread order)";
  Info.Perm = Permutability{false, Why, nullptr, nullptr};
  Info.Chunks = Chunkability{false, Why, {}};
  Info.Share = Shareability{false, Why, 0};
}

// A site in a called function reads its copy at the thread index the kernel
// passes; the function's copy knows no physical thread and no shared stage.
void applyCalleeSites(KernelInfo &Info) {
  if (llvm::none_of(Info.Sites, [](const Site &S) { return S.transformable() && S.Callee; }))
    return;
  const char *Why = "it has a site in a function it calls";
  Info.Perm = Permutability{false, Why, nullptr, nullptr};
  if (Info.Share.Shareable)
    Info.Share = Shareability{false, Why, 0};
}

// Refuses indexed site S after all: its reads, and the reads inside them
// (which its copies made unnecessary), are not rewritten, for Why.
void refuseIndexedSite(KernelInfo &Info, Site &S, const std::string &Why, ASTContext &Ctx) {
  S.RefusedBecause = Why;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Inside = [&](const Expr *Inner, const Expr *Outer) {
    return !SM.isBeforeInTranslationUnit(Inner->getBeginLoc(), Outer->getBeginLoc()) &&
           !SM.isBeforeInTranslationUnit(Outer->getEndLoc(), Inner->getEndLoc());
  };
  for (ReadVerdict &V : Info.Reads)
    for (const SiteArray &A : S.Arrays)
      if (llvm::any_of(A.Reads, [&](const Expr *R) {
            return R == V.Read || V.Read->getSourceRange() == R->getSourceRange() ||
                   R->getBeginLoc() == V.Read->getBeginLoc() ||
                   (V.Verdict == ReadVerdict::Rewritten && V.Pattern == kPatternIndexed && Inside(V.Read, R));
          })) {
        V.Verdict = ReadVerdict::NotRewritten;
        V.Reason = S.RefusedBecause;
      }
}

// An indexed site is transformed only where its index kernels can be written;
// otherwise its reads are not rewritten after all.
void refuseUnwritableIndexedSites(KernelInfo &Info, ASTContext &Ctx) {
  for (unsigned I = 0; I < Info.Sites.size(); ++I) {
    Site &S = Info.Sites[I];
    if (!S.transformable() || S.Pattern != kPatternIndexed)
      continue;
    const std::string Why = indexed::unwritableBecause(Info, I, Ctx);
    if (!Why.empty())
      refuseIndexedSite(Info, S, "its index kernels cannot be written: " + Why, Ctx);
  }
}

// A kernel whose groups of lanes each walk a row in strides of the group
// (`for (k = P[row] + lane; k < P[row + 1]; k += G)`) reads its rows
// coalesced across the lanes already, and program-wide renumbering takes it
// as it is written: its strided loops are left to that.
void leaveLaneWalksToNumbering(KernelInfo &Info, bool Reassociate, ASTContext &Ctx) {
  auto Strided = [](const Site &S) {
    return S.transformable() && S.Pattern == kPatternIndexed && S.IndexedLoop.Loop &&
           (S.IndexedLoop.Step ||
            llvm::any_of(S.IndexedInnerLoops, [](const LoopShape &L) { return L.Step != nullptr; }));
  };
  if (llvm::none_of(Info.Sites, Strided))
    return;
  const KernelNumbering K = analyzeNumbering(Info, Ctx, Reassociate);
  if (!K.indifferent() || K.Lanes < 2)
    return;
  // The sites go, their reads reported as the reads of no site.
  const std::string Why = "its groups of " + std::to_string(K.Lanes) +
                          " lanes walk their rows in strides of the group, reading them coalesced already: "
                          "program-wide renumbering takes the kernel as it is written";
  for (Site &S : Info.Sites)
    if (Strided(S)) {
      refuseIndexedSite(Info, S, Why, Ctx);
      for (ReadVerdict &V : Info.Reads)
        if (V.Reason == Why)
          V.Pattern.reset();
    }
  Info.Sites.erase(std::remove_if(Info.Sites.begin(), Info.Sites.end(),
                                  [&](const Site &S) { return S.RefusedBecause == Why; }),
                   Info.Sites.end());
}

// The scatter sites' say over the kernel's other verdicts.
void applyScatters(KernelInfo &Info, std::vector<ScatterSite> &Updates) {
  // An assignment gains only an order of the writes (a permuted store has none
  // to gain): the kernel's reads come first.
  const bool ReadsRewritten = Info.hasTransformableSite();
  for (ScatterSite &S : Updates) {
    if (!Info.RefusedBecause.empty())
      S.RefusedBecause = Info.RefusedBecause;
    else if (S.transformable() && S.Assign && ReadsRewritten)
      S.RefusedBecause = "the kernel's indirect reads are rewritten instead (an assignment through an index array "
                         "is rewritten only in a kernel with nothing else to rewrite)";
  }
  // The element each update adds to is read too: its verdict is the update's.
  std::multimap<SourceLocation::UIntTy, ReadVerdict *> ReadsAt;
  for (ReadVerdict &V : Info.Reads)
    ReadsAt.emplace(V.Read->getBeginLoc().getRawEncoding(), &V);
  for (const ScatterSite &S : Updates)
    for (auto [At, End] = ReadsAt.equal_range(S.Element->getBeginLoc().getRawEncoding()); At != End; ++At) {
      ReadVerdict &V = *At->second;
      V.Pattern = kPatternScatter;
      V.Verdict = S.transformable() ? ReadVerdict::Rewritten : ReadVerdict::NotRewritten;
      V.Reason = S.RefusedBecause;
    }
  const std::vector<const ScatterSite *> Rewritten = transformableScatters(Updates);
  if (Rewritten.empty())
    return;
  const std::string Target = Rewritten.front()->Target.quoted();
  const std::string Why = "the kernel's update of " + Target +
                          " is rewritten instead (scatter: an inspector-executor), which reads its arrays in place";
  std::set<SourceLocation::UIntTy> Updated;
  for (const ScatterSite *U : Rewritten)
    Updated.insert(U->Element->getBeginLoc().getRawEncoding());
  for (Site &S : Info.Sites) {
    if (Updated.count(S.Loc.getRawEncoding()))
      S.RefusedBecause = "it is the update of " + Target + ", which the scatter strategy rewrites";
    else if (S.transformable())
      S.RefusedBecause = Why;
  }
  for (ReadVerdict &V : Info.Reads)
    if (V.Pattern != kPatternScatter && V.Verdict != ReadVerdict::NotRewritten) {
      V.Verdict = ReadVerdict::NotRewritten;
      V.Reason = Why;
    }
}

// The hoisting's say: a hoisted kernel's threads run in order, unstaged.
void applyHoisting(KernelInfo &Info, Hoisting Hoist) {
  Info.Hoist = std::move(Hoist);
  if (!Info.Hoist.Hoistable)
    return;
  if (Info.Perm.Permutable) {
    Info.Perm.Permutable = false;
    Info.Perm.NotBecause = "its loop is hoisted";
  }
  if (Info.Share.Shareable) {
    Info.Share.Shareable = false;
    Info.Share.NotBecause = "its loop is hoisted";
  }
}

// A renumbered gather's site reads it through a copy in the locality order;
// the gather's reads say so.
void applyRenumberedGathers(KernelInfo &Info, std::vector<RenumberedGatherFinding> Found) {
  for (RenumberedGatherFinding &F : Found) {
    Site &S = Info.Sites[F.Site];
    if (S.Callee) // its gathers' bases are the function's
      continue;
    const std::string Through = S.remappedArrays()[F.Gather.Through]->Array.spelling();
    S.AliasChecks = std::move(F.AliasChecks);
    S.Renumbered = std::move(F.Gather);
    for (ReadVerdict &V : Info.Reads)
      if (llvm::is_contained(F.Reads, V.Read->IgnoreParenImpCasts()) && V.Verdict == ReadVerdict::IndexRemapped)
        V.Reason = "its index comes from a coalesced copy; " + V.Array +
                   " itself is read in place, or in the locality order through a copy renumbered like " + Through;
  }
}

void applyOrderedLaunch(KernelInfo &Info, OrderedLaunch Launch) {
  Info.Perm = std::move(Launch.Perm);
  Info.OrderOnly = true;
  Info.OrderAliasChecks = std::move(Launch.AliasChecks);
}

KernelDecision decideKernel(const FunctionDecl *Kernel, ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly,
                            HoistRequest Hoist, bool Reassociate) {
  KernelDecision D;
  KernelInfo &Info = D.Info;
  Info = analyzeKernel(Kernel, Ctx, DeviceOnly);
  leaveLaneWalksToNumbering(Info, Reassociate, Ctx);
  // What the kernel as a whole allows.
  Info.Perm = analyzePermutability(Info, Ctx);
  Info.Chunks = analyzeChunkability(Info, Ctx);
  Info.Share = analyzeShareability(Info, Ctx);
  applyIndexedSites(Info);
  applyCalleeSites(Info);
  refuseUnwritableIndexedSites(Info, Ctx);
  D.Scatters = findScatterSites(Info.Kernel, Ctx, DeviceOnly);
  applyScatters(Info, D.Scatters);
  if (Hoist == HoistRequest::Named || (Hoist == HoistRequest::Everywhere && Info.hasTransformableSite()))
    applyHoisting(Info, analyzeHoistability(Info, Ctx));
  if (Info.hasTransformableSite())
    Info.Lanes = analyzeCooperativeRows(Info, Ctx, Reassociate);
  applyRenumberedGathers(Info, findRenumberedGathers(Info, Ctx)); // once the threads' order is known to be free
  if (DeviceOnly)
    for (auto [F, Region] : DeviceOnly->inCallees(Info.Kernel))
      D.DeviceOnlyCallees.push_back({F, Region, !DeviceOnly->mayStore(F).empty()});
  return D;
}

// A kernel whose analysis ran past its budget: no verdicts, the reason why.
KernelDecision leftAsIs(const FunctionDecl *Kernel, const KernelBudget &Budget) {
  KernelDecision D;
  D.Info.Kernel = Kernel;
  D.LeftAsIs = "its analysis ran past its budget (" + Budget.Described + ")";
  return D;
}

} // namespace

std::vector<KernelDecision> decideFile(const std::vector<const FunctionDecl *> &Kernels, ASTContext &Ctx,
                                       const DeviceOnlyCode *DeviceOnly, const DecideOptions &Options) {
  std::vector<KernelDecision> Decisions;
  for (const FunctionDecl *K : Kernels) {
    AnalysisBudgetScope Scope(Options.Budget.Seconds);
    try {
      Decisions.push_back(
          decideKernel(K, Ctx, DeviceOnly, Options.Hoist.of(K->getNameAsString()), Options.Reassociate));
    } catch (const AnalysisBudgetExceeded &) {
      Decisions.push_back(leftAsIs(K, Options.Budget));
    }
  }
  // A kernel without a site runs in a locality order only where a site may
  // compute one: a permutable kernel's site in this file.
  const bool OrderComputed = llvm::any_of(Decisions, [](const KernelDecision &D) {
    return D.Info.hasTransformableSite() && D.Info.Perm.Permutable;
  });
  if (OrderComputed)
    for (KernelDecision &D : Decisions) {
      if (!D.LeftAsIs.empty())
        continue;
      AnalysisBudgetScope Scope(Options.Budget.Seconds);
      try {
        if (std::optional<OrderedLaunch> Launch = findOrderedLaunch(D.Info, D.Scatters, Ctx))
          applyOrderedLaunch(D.Info, std::move(*Launch));
      } catch (const AnalysisBudgetExceeded &) {
        // No ordered launch: the kernel runs as it is written.
      }
    }
  return Decisions;
}

} // namespace irregfix
