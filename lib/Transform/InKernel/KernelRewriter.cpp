#include "Transform/InKernel/KernelRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/SourceText.h"

#include "clang/AST/TypeLoc.h"

using namespace clang;

namespace irregfix::inkernel {

namespace {

class KernelRewriter {
public:
  KernelRewriter(const KernelInfo &Info, ASTContext &Ctx)
      : Info(Info), Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        Editor(fileRange(Info.Kernel->getSourceRange(), SM, LO), SM, LO) {}

  llvm::Expected<std::string> run() {
    const FunctionDecl *K = Info.Kernel;
    Editor.replace(K->getLocation(), transformedKernelName(K));
    std::string Extra;
    unsigned Index = 0;
    for (const Site &S : Info.Sites) {
      if (S.Transformable) {
        Extra += extraParams(S, Index);
        rewriteSite(S, Index);
      }
      ++Index;
    }
    FunctionTypeLoc FTL = K->getFunctionTypeLoc();
    if (!FTL)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot locate the parameter list of the kernel");
    // Extra starts with ", "; drop it when the kernel has no parameters.
    Editor.insertBefore(FTL.getRParenLoc(), K->getNumParams() ? Extra : Extra.substr(2));
    return Editor.result();
  }

private:
  std::string text(const Expr *E) { return sourceText(E->getSourceRange(), SM, LO); }

  // t as it may be repeated: a plain name as is, anything else parenthesised.
  std::string threadIndexText(const Site &S) {
    std::string T = text(S.ThreadIndex);
    bool Plain = !T.empty() && llvm::all_of(T, [](char C) { return isalnum(C) || C == '_'; });
    return Plain ? T : "(" + T + ")";
  }

  std::string extraParams(const Site &S, unsigned I) {
    std::string Out = ", irregfix::View " + viewName(I);
    for (const SiteArray *A : S.remappedArrays())
      Out += ", " + remappedPointerType(A->Param, Ctx) + "__restrict__ " + remappedName(I, A->Param);
    return Out;
  }

  void rewriteSite(const Site &S, unsigned I) {
    std::string T = threadIndexText(S);
    std::string Iter = S.Pattern == SitePattern::Range ? iterName(I) : "0";
    for (const SiteArray *A : S.remappedArrays())
      for (const ArraySubscriptExpr *Read : A->Reads)
        Editor.replace(Read->getSourceRange(), remappedName(I, A->Param) + "[irregfix::slot(" +
                                                   viewName(I) + ", " + T + ", " + Iter + ")]");
    if (S.Pattern != SitePattern::Range)
      return;

    // for (<init>; <cond>; <inc>) → for (int iter = 0, len = length(v, t); iter < len; ++iter)
    const ForStmt *For = S.Loop;
    std::string Header = "int " + iterName(I) + " = 0, " + lengthName(I) + " = irregfix::length(" +
                         viewName(I) + ", " + T + "); " + iterName(I) + " < " + lengthName(I) +
                         "; ++" + iterName(I);
    SourceLocation HeaderBegin = Lexer::getLocForEndOfToken(SM.getFileLoc(For->getLParenLoc()), 0, SM, LO);
    Editor.replaceChars(HeaderBegin, For->getRParenLoc(), Header);

    if (S.LoopVarUsedElsewhere)
      rebindLoopVariable(S, I, T);
  }

  // The body still uses k other than in remapped reads: k = B[t] + iter.
  void rebindLoopVariable(const Site &S, unsigned I, const std::string &T) {
    const VarDecl *K = S.LoopVar;
    std::string Type = K->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
    std::string Bind = " const " + Type + " " + K->getNameAsString() + " = static_cast<" + Type +
                       ">(" + S.Offsets->getNameAsString() + "[" + T + "] + " + iterName(I) + ");";
    const Stmt *Body = S.Loop->getBody();
    if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
      Editor.insertAfterToken(CS->getLBracLoc(), Bind);
      return;
    }
    // A single statement body: wrap it in braces.
    Editor.insertBefore(Body->getBeginLoc(), "{" + Bind + " ");
    SourceLocation Semi = Lexer::findLocationAfterToken(SM.getFileLoc(Body->getEndLoc()), tok::semi, SM, LO, false);
    if (Semi.isValid())
      Editor.insertBefore(Semi, " }");
    else
      Editor.insertAfterToken(Body->getEndLoc(), " }");
  }

  const KernelInfo &Info;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  SnippetEditor Editor;
};

} // namespace

llvm::Expected<std::string> rewriteKernel(const KernelInfo &Info, ASTContext &Ctx) {
  KernelRewriter R(Info, Ctx);
  return R.run();
}

} // namespace irregfix::inkernel
