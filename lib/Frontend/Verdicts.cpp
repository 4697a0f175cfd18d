#include "Frontend/Verdicts.h"
#include "Analysis/Hoistability.h"
#include "Analysis/IndexForm.h"
#include "Analysis/RenumberedGathers.h"
#include "Analysis/SiteFinder.h"
#include "Transform/Indexed/IndexKernels.h"
#include "Transform/SourceText.h"

using namespace clang;

namespace irregfix {

namespace {

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
  for (const ScatterSite &S : Updates)
    for (ReadVerdict &V : Info.Reads)
      if (V.Read->getBeginLoc() == S.Element->getBeginLoc()) {
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
  for (Site &S : Info.Sites) {
    const bool Update = llvm::any_of(
        Rewritten, [&](const ScatterSite *U) { return S.Loc == U->Element->getBeginLoc(); });
    if (Update)
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
void applyHoisting(KernelInfo &Info, ASTContext &Ctx) {
  Info.Hoist = analyzeHoistability(Info, Ctx);
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

} // namespace

KernelInfo kernelVerdicts(const FunctionDecl *Kernel, ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly,
                          std::vector<ScatterSite> *Scatters, HoistRequest Hoist) {
  KernelInfo Info = analyzeKernel(Kernel, Ctx, DeviceOnly);
  indexed::validateSites(Info, Ctx);
  std::vector<ScatterSite> Updates = findScatterSites(Info.Kernel, Ctx, DeviceOnly);
  applyScatters(Info, Updates);
  if (Scatters)
    *Scatters = std::move(Updates);
  if (Hoist == HoistRequest::Named || (Hoist == HoistRequest::Everywhere && Info.hasTransformableSite()))
    applyHoisting(Info, Ctx);
  findRenumberedGathers(Info, Ctx); // once the threads' order is known to be free
  return Info;
}

namespace {
// A site's place in the source and its kernel.
SiteReport locatedReport(SourceLocation Loc, const KernelInfo &Info, const SourceManager &SM) {
  SiteReport R;
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  R.File = P.getFilename();
  R.Line = P.getLine();
  R.Column = P.getColumn();
  R.Kernel = Info.Kernel->getNameAsString();
  return R;
}
} // namespace

namespace {
// "w/r" for each (written, read) pair checked at the launch.
std::vector<std::string> aliasCheckNames(const std::vector<std::pair<ArrayRef, ArrayRef>> &Checks) {
  std::vector<std::string> Out;
  for (auto &[W, Rd] : Checks)
    Out.push_back(W.spelling() + "/" + Rd.spelling());
  return Out;
}
} // namespace

SiteReport siteReport(const Site &S, const KernelInfo &Info, ASTContext &Ctx) {
  SiteReport R = locatedReport(S.Loc, Info, Ctx.getSourceManager());
  R.Pattern = pattern_name(S.Pattern);
  R.Offsets = S.Offsets ? S.Offsets.spelling() : "-";
  for (const SiteArray &A : S.Arrays)
    if (A.RefusedBecause.empty())
      R.Arrays.push_back(A.Array.spelling());
  R.Transformed = S.transformable();
  if (R.Transformed) {
    R.Threads = Info.Perm.Permutable ? "permutable" : "in-order";
    R.Launch = Info.Chunks.Chunkable ? "chunked" : "whole";
  }
  R.Reason = S.RefusedBecause;
  // A site refused through its arrays says why through the first.
  if (!R.Transformed && R.Reason.empty() && !S.Arrays.empty())
    R.Reason = S.Arrays.front().RefusedBecause;
  R.AliasChecks = aliasCheckNames(S.AliasChecks);
  if (S.Renumbered)
    for (const Site::RenumberedGather::Gathered &X : S.Renumbered->Arrays)
      R.Renumbered += (R.Renumbered.empty() ? "" : ",") + X.Array.spelling() + "/" +
                      S.remappedArrays()[S.Renumbered->Through]->Array.spelling();
  return R;
}

SiteReport orderReport(const KernelInfo &Info, ASTContext &Ctx) {
  SiteReport R = locatedReport(Info.Kernel->getLocation(), Info, Ctx.getSourceManager());
  R.Pattern = pattern_name(kPatternOrder);
  R.Offsets = "-";
  R.Transformed = true;
  R.Threads = "permutable";
  R.Launch = "whole";
  R.AliasChecks = aliasCheckNames(Info.OrderAliasChecks);
  return R;
}

ReadReport readReport(const ReadVerdict &V, const KernelInfo &Info, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  ReadReport R;
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(V.Read->getBeginLoc()));
  R.File = P.isValid() ? P.getFilename() : "?";
  R.Line = P.isValid() ? P.getLine() : 0;
  R.Column = P.isValid() ? P.getColumn() : 0;
  R.Kernel = Info.Kernel->getNameAsString();
  R.Function = V.In;
  R.Array = V.Array;
  MemoryRead M;
  R.Index = asMemoryRead(V.Read, &M) && M.Index ? sourceText(M.Index->getSourceRange(), SM, Ctx.getLangOpts()) : "";
  R.Pattern = V.shape();
  R.Verdict = V.Verdict == ReadVerdict::Rewritten       ? "rewritten"
              : V.Verdict == ReadVerdict::IndexRemapped ? "index-remapped"
                                                        : "not-rewritten";
  R.Reason = V.Reason;
  return R;
}

SiteReport scatterReport(const ScatterSite &S, const KernelInfo &Info, ASTContext &Ctx) {
  SiteReport R = locatedReport(S.Loc, Info, Ctx.getSourceManager());
  R.Pattern = pattern_name(kPatternScatter);
  R.Offsets = S.Index ? S.Index.spelling() : "-";
  if (S.Target)
    R.Arrays.push_back(S.Target.spelling());
  R.Transformed = S.transformable();
  R.Reason = S.RefusedBecause;
  if (R.Transformed) {
    R.Threads = "in-order";
    R.Launch = "whole";
    for (const ArrayRef &Other : S.AliasChecks)
      R.AliasChecks.push_back(S.Target.spelling() + "/" + Other.spelling());
  }
  return R;
}

} // namespace irregfix
