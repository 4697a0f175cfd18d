#include "Frontend/ReportRows.h"
#include "Analysis/IndexForm.h"
#include "Transform/SourceText.h"

using namespace clang;

namespace irregfix {

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
  if (R.Transformed && &S == &Info.Sites[Info.Lanes.SiteIndex] && Info.Lanes.Qualifies)
    R.Lanes = Info.Lanes.Reassociates ? "reassociated" : Info.Lanes.InOrder ? "in order" : "exact";
  else if (R.Transformed && S.Pattern == kPatternRange && !Info.Lanes.NotBecause.empty())
    R.Lanes = "no: " + Info.Lanes.NotBecause;
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
  auto Text = [&](const clang::Expr *E) { return sourceText(E->getSourceRange(), SM, Ctx.getLangOpts()); };
  R.Index = asMemoryRead(V.Read, &M) && M.Index ? flatIndexText(M.Rows, Text(M.Index), Text, "") : "";
  for (const clang::Expr *Offset : V.Offsets) // through a local pointer into the array
    R.Index = sourceText(Offset->getSourceRange(), SM, Ctx.getLangOpts()) + " + " + R.Index;
  R.Pattern = V.shape();
  R.Verdict = V.Verdict == ReadVerdict::Rewritten       ? "rewritten"
              : V.Verdict == ReadVerdict::IndexRemapped ? "index-remapped"
              : V.Verdict == ReadVerdict::Renumbered    ? "renumbered"
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
