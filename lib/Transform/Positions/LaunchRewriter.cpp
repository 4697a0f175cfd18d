#include "Transform/Positions/LaunchRewriter.h"
#include "Transform/Positions/Naming.h"
#include "Transform/SourceText.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace irregfix::positions {

llvm::Expected<std::vector<tooling::Replacement>> rewriteLaunch(const CUDAKernelCallExpr *Call, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  auto Fail = [](const char *Why) { return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Why); };
  const auto *Callee = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
  const CallExpr *Config = Call->getConfig();
  if (!Callee || !Config)
    return Fail("its launch calls no named kernel");
  auto Join = [&](auto Args, std::string *Out) {
    for (const Expr *A : Args) {
      if (isa<CXXDefaultArgExpr>(A))
        return true; // the configuration's defaulted shared memory and stream, left out as written
      const std::string T = sourceText(A->getSourceRange(), SM, LO);
      if (T.empty())
        return false;
      *Out += (Out->empty() ? "" : ", ") + T;
    }
    return true;
  };
  std::string Cfg, Args;
  const std::string Name = sourceText(Callee->getSourceRange(), SM, LO);
  const CharSourceRange Whole = fileRange(Call->getSourceRange(), SM, LO);
  for (const Expr *A : Call->arguments())
    if (isa<CXXDefaultArgExpr>(A))
      return Fail("its launch leaves an argument to its default");
  if (Name.empty() || Whole.isInvalid() || !Join(Config->arguments(), &Cfg) || !Join(Call->arguments(), &Args))
    return Fail("its launch is spelled through a macro");
  // The original where the arrays are as numbered: the variant only where the
  // order keeps them (its reads then gather, at no cost to the original's).
  const std::string Positions = "irregfix::numbered_positions()";
  const std::string Text = "(" + Positions + " ? " + Name + variantSuffix() + "<<<" + Cfg + ">>>(" + Args +
                           (Args.empty() ? "" : ", ") + Positions + ") : " + Name + "<<<" + Cfg + ">>>(" + Args + "))";
  return std::vector<tooling::Replacement>{tooling::Replacement(SM, Whole, Text, LO)};
}

} // namespace irregfix::positions
