#include "Transform/ThreadCount.h"
#include "Transform/SourceText.h"
#include "Analysis/ActiveThreads.h"

#include "llvm/Support/Error.h"

namespace irregfix {

std::string guardBoundText(const clang::Expr *N, clang::ASTContext &Ctx) {
  const auto &SM = Ctx.getSourceManager();
  const auto &LO = Ctx.getLangOpts();
  const std::vector<const clang::DeclRefExpr *> Locals = guardBoundLocals(N);
  if (Locals.empty())
    return sourceText(N->getSourceRange(), SM, LO);
  SnippetEditor Editor(fileRange(N->getSourceRange(), SM, LO), SM, LO);
  for (const clang::DeclRefExpr *DR : Locals) {
    const std::string Value = guardBoundText(llvm::cast<clang::VarDecl>(DR->getDecl())->getInit(), Ctx);
    if (Value.empty() || !Editor.replace(DR->getSourceRange(), "(" + Value + ")"))
      return "";
  }
  llvm::Expected<std::string> Text = Editor.result();
  if (!Text) {
    llvm::consumeError(Text.takeError());
    return "";
  }
  return *Text;
}

std::string activeThreadsText(const Site &S, clang::ASTContext &Ctx) {
  auto Count = [&](const clang::Expr *E) {
    return "(long long)(" + sourceText(E->getSourceRange(), Ctx.getSourceManager(), Ctx.getLangOpts()) + ")";
  };
  if (S.LaunchNumbered)
    return "(long long)__irregfix_grid.x * __irregfix_grid.y * __irregfix_grid.z * __irregfix_block.x * "
           "__irregfix_block.y * __irregfix_block.z";
  if (S.ActiveThreads)
    return "(long long)(" + guardBoundText(S.ActiveThreads, Ctx) + ")";
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
