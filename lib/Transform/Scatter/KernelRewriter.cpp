#include "Transform/Scatter/KernelRewriter.h"
#include "Transform/InKernel/KernelRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/Scatter/Naming.h"
#include "Transform/SourceText.h"

#include "clang/AST/TypeLoc.h"

using namespace clang;

namespace irregfix::scatter {

std::string contributionType(const KernelInfo &Info, const ScatterSite &S, ASTContext &Ctx) {
  QualType T = S.Target.elementType();
  if (Info.Template && S.Target.param()) {
    const unsigned Index = S.Target.param()->getFunctionScopeIndex();
    if (Index < Info.Template->getNumParams())
      T = Info.Template->getParamDecl(Index)->getType()->getPointeeType();
  }
  return T.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
}

llvm::Expected<std::string> rewriteKernel(const KernelInfo &Info, const std::vector<const ScatterSite *> &Updates,
                                          ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  auto Fail = [](const std::string &Why) { return llvm::createStringError(llvm::inconvertibleErrorCode(), Why); };
  const FunctionDecl *K = Info.Kernel;
  SnippetEditor Editor(fileRange(inkernel::declarationRange(Info), SM, LO), SM, LO);
  Editor.replace(K->getLocation(), inkernel::transformedKernelName(K));
  for (const ScatterSite *S : Updates) {
    const std::string Thread = sourceText(S->ThreadIndex->getSourceRange(), SM, LO);
    const std::string Contribution = sourceText(S->Contribution->getSourceRange(), SM, LO);
    if (Thread.empty() || Contribution.empty())
      return Fail("the update is written through a macro");
    const std::string Item = S->Updates == 1 ? Thread
                                             : "(" + Thread + ") * " + std::to_string(S->Updates) + " + " +
                                                   std::to_string(S->Slot);
    // The value the original adds or assigns, converted to A's type as the update converts it.
    const std::string Slot = slotsName() + "[" + Item + "]";
    std::string Store = contributionsName() + "[" + Slot + "] = " + (S->Negated ? "-" : "") + "(" + Contribution + ")";
    if (S->Assign)
      Store += ", " + writtenName() + "[" + Slot + "] = 1";
    if (!Editor.replace(S->Update->getSourceRange(), Store))
      return Fail("cannot replace the update");
  }
  FunctionTypeLoc FTL = K->getFunctionTypeLoc();
  if (!FTL)
    return Fail("cannot locate the parameter list of the kernel");
  inkernel::dropDefaultArgumentsOf(K, Editor, SM, LO);
  const std::string Element = contributionType(Info, *Updates.front(), Ctx);
  std::string Params =
      ", " + Element + " *__restrict__ " + contributionsName() + ", const int *__restrict__ " + slotsName();
  if (Updates.front()->Assign)
    Params += ", unsigned char *__restrict__ " + writtenName();
  Editor.insertBefore(FTL.getRParenLoc(), Params);
  return Editor.result();
}

} // namespace irregfix::scatter
