#include "Frontend/StrategyEdits.h"
#include "Transform/Hoisted/KernelRewriter.h"
#include "Transform/Hoisted/LaunchRewriter.h"
#include "Transform/InKernel/KernelRewriter.h"
#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/Scatter/KernelRewriter.h"
#include "Transform/Scatter/LaunchRewriter.h"
#include "Transform/SourceText.h"

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

bool StrategyEdits::scatterKernel(const KernelInfo &Info, const std::vector<const ScatterSite *> &Updates) {
  const SourceManager &SM = Ctx.getSourceManager();
  const ScatterSite &S = *Updates.front();
  llvm::Expected<std::string> Variant = scatter::rewriteKernel(Info, Updates, Ctx);
  if (!Variant) {
    Msg.error(Info.Kernel->getLocation(), "cannot rewrite kernel '" + Info.Kernel->getNameAsString() +
                                              "': " + llvm::toString(Variant.takeError()));
    return false;
  }
  CharSourceRange R = fileRange(inkernel::declarationRange(Info), SM, Ctx.getLangOpts());
  const std::string Executor = S.Assign ? "keeps the highest thread's value of each element"
                                        : "adds them per element, in thread order";
  std::string Text = "\n\n// irregfix: '" + Info.Kernel->getNameAsString() +
                     "' writing each thread's contribution to a buffer instead of updating " + S.Target.quoted() +
                     "; the runtime " + Executor + ". The original above is the fallback.\n" +
                     *Variant + "\n\n" + scatter::launcherDefinition(Info, Updates, Ctx) + "\n";
  ++Result.KernelsRewritten;
  return Edits.add(tooling::Replacement(SM, R.getEnd(), 0, Text));
}

bool StrategyEdits::kernel(const KernelDecision &D) {
  const KernelInfo &Info = D.Info;
  if (const auto Updates = D.rewrittenScatters(); !Updates.empty())
    return scatterKernel(Info, Updates);
  if (!Info.hasTransformableSite() && !Info.OrderOnly) {
    Msg.error(Info.Kernel->getLocation(), "internal error: nothing to rewrite in kernel '" +
                                              Info.Kernel->getNameAsString() + "'");
    return false;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  llvm::Expected<std::string> Kernel = inkernel::rewriteKernel(Info, Ctx);
  if (!Kernel) {
    Msg.error(Info.Kernel->getLocation(), "cannot rewrite kernel '" + Info.Kernel->getNameAsString() +
                                              "': " + llvm::toString(Kernel.takeError()));
    return false;
  }
  CharSourceRange R = fileRange(inkernel::declarationRange(Info), SM, LO);
  std::string Text = "\n\n// irregfix: '" + Info.Kernel->getNameAsString() +
                     (Info.OrderOnly ? "' running its threads in a locality order; the original "
                                     : "' reading its indirect arrays through coalesced copies; the original ") +
                     "above is the fallback.\n" +
                     inkernel::pieceTypeDefinitions(Info, Ctx) + *Kernel + "\n\n";
  if (Info.Hoist.Hoistable) {
    llvm::Expected<std::string> Hoisted = hoisted::rewriteKernel(Info, Ctx);
    if (!Hoisted) {
      Msg.error(Info.Kernel->getLocation(), "cannot hoist the loop of kernel '" + Info.Kernel->getNameAsString() +
                                                "': " + llvm::toString(Hoisted.takeError()));
      return false;
    }
    Text += "// irregfix: '" + Info.Kernel->getNameAsString() +
            "' with its loop run from the host, a slice of iterations a launch (--hoist); the kernel "
            "above is its fallback.\n" +
            *Hoisted + "\n\n" + hoisted::launcherDefinition(Info, Ctx) + "\n";
    ++Result.LoopsHoisted;
  } else {
    Text += inkernel::launcherDefinition(Info, Ctx) + "\n";
  }
  ++Result.KernelsRewritten;
  return Edits.add(tooling::Replacement(SM, R.getEnd(), 0, Text));
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
