#include "Frontend/Verdicts.h"
#include "Analysis/IndexForm.h"
#include "Analysis/SiteFinder.h"
#include "Transform/Indexed/IndexKernels.h"
#include "Transform/SourceText.h"

using namespace clang;

namespace irregfix {

KernelInfo kernelVerdicts(const FunctionDecl *Kernel, ASTContext &Ctx) {
  KernelInfo Info = analyzeKernel(Kernel, Ctx);
  indexed::validateSites(Info, Ctx);
  return Info;
}

SiteReport siteReport(const Site &S, const KernelInfo &Info, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SiteReport R;
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(S.Loc));
  R.File = P.getFilename();
  R.Line = P.getLine();
  R.Column = P.getColumn();
  R.Kernel = Info.Kernel->getNameAsString();
  R.Pattern = patternName(S.Pattern);
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
  for (auto &[W, Rd] : S.AliasChecks)
    R.AliasChecks.push_back(W.spelling() + "/" + Rd.spelling());
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
  R.Pattern = V.Shape;
  R.Verdict = V.Verdict == ReadVerdict::Rewritten       ? "rewritten"
              : V.Verdict == ReadVerdict::IndexRemapped ? "index-remapped"
                                                        : "not-rewritten";
  R.Reason = V.Reason;
  return R;
}

} // namespace irregfix
