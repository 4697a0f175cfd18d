#include "Transform/Hoisted/KernelRewriter.h"
#include "Transform/Hoisted/Naming.h"
#include "Transform/InKernel/KernelRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/SourceText.h"

#include "clang/Lex/Lexer.h"

using namespace clang;

namespace irregfix::hoisted {

namespace {

class LoopEdits {
public:
  LoopEdits(const KernelInfo &Info, ASTContext &Ctx) : Info(Info), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()) {}

  void operator()(SnippetEditor &Editor, const Site &S, unsigned I, const std::string &T) {
    const ForStmt *For = Info.Hoist.Loop;
    std::string Step = stepName();
    std::string In = indentationAt(For->getBeginLoc(), SM);
    if (S.Pattern == kPatternNeighbors)
      boundNeighborLoop(Editor, S);

    // Before the loop: a later slice resumes from the buffers, unless this
    // thread's loop already ended.
    std::string Before = "if (!" + Step + ".epilogue) {\n" + In + "  if (" + Step + ".begin > 0) {\n" + In +
                         "    if (" + Step + ".begin >= " + tripCount(S, I, T) + ")\n" + In + "      return;\n";
    for (const VarDecl *V : Info.Hoist.Live)
      Before += In + "    " + V->getNameAsString() + " = " + liveBufferName(V) + "[" + T + "];\n";
    Before += In + "  }\n" + In + "  ";
    Editor.insertBefore(For->getBeginLoc(), Before);

    // After it: save, and end this launch; the epilogue resumes with the saved values.
    std::string After = "\n";
    for (const VarDecl *V : Info.Hoist.Live)
      After += In + "  " + liveBufferName(V) + "[" + T + "] = " + V->getNameAsString() + ";\n";
    After += In + "  return;\n" + In + "}\n" + In + "if (" + Step + ".carried) {\n";
    for (const VarDecl *V : Info.Hoist.Live)
      After += In + "  " + V->getNameAsString() + " = " + liveBufferName(V) + "[" + T + "];\n";
    After += In + "}";
    Editor.insertBefore(afterStatement(For, SM, LO), After);

    // Threads that skip the loop reach the code after the statements holding
    // it: they run it once, in the epilogue.
    for (size_t J = 1; J < Info.Hoist.Enclosing.size(); ++J) {
      auto [CS, Holder] = Info.Hoist.Enclosing[J];
      if (CS->body_back() != Holder)
        Editor.insertBefore(afterStatement(Holder, SM, LO), " if (!" + Step + ".epilogue) return;");
    }
  }

private:
  // The iterations thread T's loop runs.
  std::string tripCount(const Site &S, unsigned I, const std::string &T) {
    if (S.Pattern != kPatternNeighbors)
      return "irregfix::length(" + inkernel::viewName(I) + ", " + T + ")";
    if (S.NeighborCounts)
      return S.NeighborCounts.spelling() + "[" + T + "]";
    return "(" + sourceText(S.NeighborBound->getSourceRange(), SM, LO) + ")";
  }

  // for (int j = 0; j < cnt; j++) → for (int j = step.begin; (j < cnt) && j < step.end; j++)
  void boundNeighborLoop(SnippetEditor &Editor, const Site &S) {
    const ForStmt *For = Info.Hoist.Loop;
    Editor.replace(S.LoopVar->getInit()->getSourceRange(), stepName() + ".begin");
    const Expr *Cond = For->getCond();
    Editor.insertBefore(Cond->getBeginLoc(), "(");
    Editor.insertAfterToken(Cond->getEndLoc(), ") && " + S.LoopVar->getNameAsString() + " < " + stepName() + ".end");
  }

  const KernelInfo &Info;
  const SourceManager &SM;
  const LangOptions &LO;
};

} // namespace

llvm::Expected<std::string> rewriteKernel(const KernelInfo &Info, ASTContext &Ctx) {
  inkernel::KernelVariant Variant;
  Variant.Name = hoistedKernelName(Info.Kernel);
  Variant.ExtraParams = ", irregfix::HoistStep " + stepName();
  for (const VarDecl *V : Info.Hoist.Live)
    Variant.ExtraParams += ", " + liveType(V, Ctx) + " *__restrict__ " + liveBufferName(V);
  Variant.WholeGrid = true; // steps overlap remaps by iterations, not by blocks
  Variant.FirstIteration = stepName() + ".begin";
  Variant.IterationLimit = stepName() + ".end";
  Variant.EditSite = LoopEdits(Info, Ctx);
  return inkernel::rewriteKernel(Info, Ctx, Variant);
}

} // namespace irregfix::hoisted
