#include "Transform/ThreadCount.h"
#include "Transform/SourceText.h"

namespace irregfix {

std::string activeThreadsText(const Site &S, clang::ASTContext &Ctx) {
  auto Count = [&](const clang::Expr *E) {
    return "(long long)(" + sourceText(E->getSourceRange(), Ctx.getSourceManager(), Ctx.getLangOpts()) + ")";
  };
  if (S.ActiveThreads)
    return Count(S.ActiveThreads);
  if (!S.ActiveExtents.empty()) {
    std::string Out;
    for (const clang::Expr *E : S.ActiveExtents)
      Out += (Out.empty() ? "" : " * ") + Count(E);
    return Out;
  }
  if (S.LaunchThreads)
    return "(long long)__irregfix_grid.x * __irregfix_block.x";
  return "";
}

} // namespace irregfix
