#include "Frontend/StrategyEdits.h"
#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/SourceText.h"
#include "Transform/Strategy.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace irregfix {

namespace {

// The kernel a launch calls (the template, for a launch of an instantiation).
const FunctionDecl *launchedKernel(const CUDAKernelCallExpr *Launch) {
  const FunctionDecl *Callee = Launch->getDirectCallee();
  if (Callee && Callee->getPrimaryTemplate())
    Callee = Callee->getPrimaryTemplate()->getTemplatedDecl();
  return Callee;
}

// The kernel a launch in a host template's text (`k<step><<<g, b>>>(...)`)
// calls: the one all its instantiations launch, or null.
const FunctionDecl *kernelOfEveryInstance(const MainFile &File, const CUDAKernelCallExpr *Launch) {
  const FunctionDecl *Callee = nullptr;
  for (const Expr *I : instantiationsOf(File, Launch)) {
    const auto *L = dyn_cast<CUDAKernelCallExpr>(I);
    const FunctionDecl *K = L ? launchedKernel(L) : nullptr;
    if (!K || (Callee && K->getCanonicalDecl() != Callee->getCanonicalDecl()))
      return nullptr;
    Callee = K;
  }
  return Callee;
}

} // namespace

bool StrategyEdits::kernels(const RewrittenKernels &Kernels, RuntimeUses &Uses) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (auto &[Canon, D] : Kernels) {
    if (!kernel(*D))
      return false;
    auto [File, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(inkernel::declarationRange(D->Info).getBegin()));
    Uses.use(Edits.files().pathOf(File), Offset);
  }
  return true;
}

bool StrategyEdits::launches(const MainFile &File, const RewrittenKernels &Kernels, RewrittenLaunches &Out) {
  for (auto [Launch, Fn] : File.Launches) {
    const FunctionDecl *Callee = launchedKernel(Launch);
    if (!Callee && Launch->isInstantiationDependent())
      Callee = kernelOfEveryInstance(File, Launch);
    auto It = Callee ? Kernels.find(Callee->getCanonicalDecl()) : Kernels.end();
    if (It == Kernels.end())
      continue;
    bool Done = false;
    if (!launch(Launch, It->second->Info, &Done))
      return false;
    if (Done) {
      Out.Ranges.push_back(Launch->getSourceRange());
      Out.In.insert(Fn);
    }
  }
  return true;
}

bool StrategyEdits::kernel(const KernelDecision &D) {
  const KernelInfo &Info = D.Info;
  llvm::Expected<RewrittenKernel> Rewritten = rewriteKernel(Info, D.rewrittenScatters(), Ctx);
  if (!Rewritten) {
    Msg.error(Info.Kernel->getLocation(), llvm::toString(Rewritten.takeError()));
    return false;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = fileRange(inkernel::declarationRange(Info), SM, Ctx.getLangOpts());
  Result.LoopsHoisted += Rewritten->Hoisted;
  ++Result.KernelsRewritten;
  return Edits.add(tooling::Replacement(SM, R.getEnd(), 0, Rewritten->Text));
}

bool StrategyEdits::launch(const CUDAKernelCallExpr *Launch, const KernelInfo &Info, bool *Done) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::Expected<tooling::Replacement> R = inkernel::rewriteLaunch(Launch, Info, Ctx);
  if (!R) {
    Msg.warning(Launch->getBeginLoc(), "launch of '" + Info.Kernel->getNameAsString() +
                                           "' left unchanged, it runs the original kernel: " +
                                           llvm::toString(R.takeError()));
    return true;
  }
  // A launch before the kernel's definition (in the translation unit) needs
  // the launcher declared first.
  const FunctionDecl *First = Info.source()->getFirstDecl();
  const bool BeforeDefinition =
      SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Launch->getBeginLoc()),
                                   SM.getExpansionLoc(inkernel::declarationRange(Info).getBegin()));
  if (BeforeDefinition && Info.Template) {
    Msg.warning(Launch->getBeginLoc(), "launch of kernel template '" + Info.Kernel->getNameAsString() +
                                           "' before its definition left unchanged; it runs the original kernel");
    return true;
  }
  if (BeforeDefinition && First != Info.Kernel && Declared.insert(Info.Kernel).second) {
    CharSourceRange D = fileRange(First->getSourceRange(), SM, Ctx.getLangOpts());
    SourceLocation Semi = Lexer::findLocationAfterToken(SM.getExpansionRange(First->getEndLoc()).getEnd(),
                                                        tok::semi, SM, Ctx.getLangOpts(), false);
    SourceLocation At = Semi.isValid() ? Semi : D.getEnd();
    if (!Edits.add(tooling::Replacement(SM, At, 0, "\n" + inkernel::launcherDeclaration(Info, Ctx))))
      return false;
  }
  ++Result.LaunchesRewritten;
  *Done = true;
  return Edits.add(*R);
}

} // namespace irregfix
