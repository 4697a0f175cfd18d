#include "Transform/Lanes/KernelRewriter.h"
#include "Analysis/AstUtil.h"
#include "Analysis/RowShapes.h"
#include "Transform/InKernel/KernelRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/Lanes/Naming.h"
#include "Transform/SourceText.h"

#include "clang/AST/TypeLoc.h"

using namespace clang;

namespace irregfix::lanes {

namespace {

using Accumulator = RowAccumulator;

// The runtime's combining operator of an accumulator (irregfix::LanesOp).
const char *combineOperator(Accumulator::Combine Op) {
  switch (Op) {
  case Accumulator::Sum:
    return "irregfix::kLanesSum";
  case Accumulator::Product:
    return "irregfix::kLanesProduct";
  case Accumulator::Min:
    return "irregfix::kLanesMin";
  case Accumulator::Max:
    return "irregfix::kLanesMax";
  case Accumulator::BitAnd:
    return "irregfix::kLanesAnd";
  case Accumulator::BitOr:
    return "irregfix::kLanesOr";
  case Accumulator::BitXor:
    return "irregfix::kLanesXor";
  case Accumulator::LogicalAnd:
    return "irregfix::kLanesAll";
  case Accumulator::LogicalOr:
  case Accumulator::Flag:
    return "irregfix::kLanesAny";
  }
  return "";
}

class LanesRewriter {
public:
  LanesRewriter(const KernelInfo &Info, ASTContext &Ctx)
      : Info(Info), Rows(Info.Lanes), Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        Editor(fileRange(inkernel::declarationRange(Info), SM, LO), SM, LO) {}

  llvm::Expected<std::string> run() {
    const FunctionDecl *K = Info.Kernel;
    Editor.replace(K->getLocation(), lanesKernelName(K));
    if (std::string Why = threadIndex(); !Why.empty())
      return fail(Why);
    if (std::string Why = Rows.InOrder ? inOrderLoop() : loop(); !Why.empty())
      return fail(Why);
    leaveAfterHolders();
    inkernel::dropDefaultArgumentsOf(inkernel::sourceDecl(Info), Editor, SM, LO);
    FunctionTypeLoc FTL = inkernel::sourceDecl(Info)->getFunctionTypeLoc();
    if (!FTL)
      return fail("cannot locate the parameter list of the kernel");
    Editor.insertBefore(FTL.getRParenLoc(),
                        std::string(K->getNumParams() ? ", " : "") + "const irregfix::Lanes " + lanesParamName());
    return Editor.result();
  }

private:
  static llvm::Error fail(const std::string &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Why);
  }

  std::string text(const Expr *E) { return sourceText(E->getSourceRange(), SM, LO); }

  // int t = <index>;  →  the thread's global index, an early exit past the
  //                      original launch's threads, its lane, and
  //                      int t = <its row>;
  std::string threadIndex() {
    const VarDecl *V = Info.Perm.ThreadVar;
    const DeclStmt *D = Info.Perm.ThreadDecl;
    if (!V || !D)
      return "the thread index is not known";
    const std::string In = indentationAt(D->getBeginLoc(), SM), P = lanesParamName();
    const std::string Type = V->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
    Editor.insertBefore(D->getBeginLoc(), "const long long " + globalName() + " = irregfix::lanes_global_thread();\n" +
                                              In + "if (" + globalName() + " >= irregfix::lanes_threads(" + P +
                                              "))\n" + In + "  return;\n" + In + "const int " + laneName() +
                                              " = irregfix::lane_of(" + P + ", " + globalName() + ");\n" + In);
    Editor.replace(V->getInit()->getSourceRange(),
                   "static_cast<" + Type + ">(irregfix::row_of(" + P + ", " + globalName() + "))");
    return "";
  }

  std::string partialType(const Accumulator &A) {
    if (A.Op == Accumulator::Flag)
      return "bool";
    return A.Var->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  }

  // Where each lane's part starts: the operator's identity, or the value itself.
  std::string partialStart(const Accumulator &A) {
    if (A.Op == Accumulator::Flag)
      return "false";
    if (A.StartsFromValue)
      return A.Var->getNameAsString();
    return A.Op == Accumulator::Product ? "1" : "0";
  }

  // After the combine: the accumulator from the parts.
  std::string fold(const Accumulator &A, const std::string &Part) {
    const std::string V = A.Var->getNameAsString();
    switch (A.Op) {
    case Accumulator::Sum:
      return V + " += " + Part + ";";
    case Accumulator::Product:
      return V + " *= " + Part + ";";
    case Accumulator::BitXor:
      return V + " ^= " + Part + ";";
    case Accumulator::Flag:
      return "if (" + Part + ")\n" + Indent + "  " + V + " = " + text(A.FlagValue) + ";";
    default: // idempotent: each part started from the value
      return V + " = " + Part + ";";
    }
  }

  // The loop: its parts declared in a block around it, its lanes' strides,
  // its updates into the parts; after it the combine, and lanes other than 0 leave.
  std::string loop() {
    const ForStmt *For = Rows.Loop;
    std::optional<rowshape::LoopHead> Head = rowshape::loopHead(For);
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(For->getCond());
    if (!Head || !Cond || !For->getInc())
      return "the loop's header is not 'k = start; k < end; ++k'";
    Indent = indentationAt(For->getBeginLoc(), SM);
    std::string Declare;
    for (unsigned I = 0; I < Rows.Accumulators.size(); ++I) {
      const Accumulator &A = Rows.Accumulators[I];
      Declare += Indent + partialType(A) + " " + partialName(I, A) + " = " + partialStart(A) + ";\n";
    }
    const std::string Why = "// " + std::string(Rows.Accumulators.empty() ? "several lanes a row" :
                                                "several lanes a row, each with its part of the row's result") +
                            "\n";
    openBlock(For, Why + Declare);

    // k = start + lane; k < end; k += lanes
    Editor.insertBefore(Head->Start->getBeginLoc(), "(");
    Editor.insertAfterToken(Head->Start->getEndLoc(), ") + " + laneName());
    if (Cond->getOpcode() == BO_NE) // every lane steps past the end, not onto it
      Editor.replaceChars(SM.getFileLoc(Cond->getOperatorLoc()), SM.getFileLoc(Cond->getOperatorLoc()).getLocWithOffset(2),
                          "<");
    Editor.replace(For->getInc()->getSourceRange(),
                   Head->Var->getNameAsString() + " += " + lanesParamName() + ".lanes");

    std::string Close = "\n";
    for (unsigned I = 0; I < Rows.Accumulators.size(); ++I) {
      const Accumulator &A = Rows.Accumulators[I];
      const std::string Part = partialName(I, A);
      if (A.Op == Accumulator::Flag)
        for (const Stmt *U : A.Updates)
          Editor.replace(U->getSourceRange(), Part + " = true");
      else
        for (const DeclRefExpr *R : A.Refs)
          Editor.replace(R->getSourceRange(), Part);
      Close += Indent + Part + " = irregfix::lanes_combine<" + combineOperator(A.Op) + ">(" + Part + ", " +
               lanesParamName() + ");\n" + Indent + fold(A, Part) + "\n";
    }
    Close += Indent + leave() + "\n" + Indent + "}";
    Editor.insertBefore(afterStatement(For, SM, LO), Close);
    return "";
  }

  // In order: the loop runs over the row in steps of L elements; at each, the
  // lanes load the step's elements of the loop's reads (one each), and every
  // lane runs the loop's body over the step's elements one by one, reading
  // each element from the lane that loaded it. The loop stores nothing, so its
  // end, read once, is the end every iteration of the original read:
  //   const T end = <end>;
  //   for (T base = start; base < end; base += L) {
  //     const T k_lane = base + lane; const bool in = k_lane < end;
  //     const V loaded0 = in ? val[k_lane] : V(); ...
  //     const T stop = end - base < L ? end : base + L;
  //     for (T k = base; k < stop; ++k) <body, val[k] read as lanes_get(loaded0, k - base)>
  //   }
  std::string inOrderLoop() {
    const ForStmt *For = Rows.Loop;
    std::optional<rowshape::LoopHead> Head = rowshape::loopHead(For);
    const Expr *End = Head ? rowshape::upperBound(For, Head->Var) : nullptr;
    if (!Head || !End || !For->getInc())
      return "the loop's header is not 'k = start; k < end; ++k'";
    Indent = indentationAt(For->getBeginLoc(), SM);
    const VarDecl *K = Head->Var;
    const std::string Type = K->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
    const std::string Start = text(Head->Start), EndText = text(End), L = lanesParamName() + ".lanes";
    if (Start.empty() || EndText.empty())
      return "the loop's bounds are not spelled in one piece of the file";
    const std::string Base = "__irregfix_base", Mine = "__irregfix_k", In = "__irregfix_in",
                      Stop = "__irregfix_stop", EndName = "__irregfix_end";
    const std::string Inner = Indent + "  ";
    std::string Head2 = "const " + Type + " " + EndName + " = " + EndText + ";\n" + Indent + "for (" + Type + " " +
                        Base + " = " + Start + "; " + Base + " < " + EndName + "; " + Base + " += " + L + ") {\n";
    Head2 += Inner + "const " + Type + " " + Mine + " = " + Base + " + " + laneName() + ";\n";
    Head2 += Inner + "const bool " + In + " = " + Mine + " < " + EndName + ";\n";
    for (unsigned I = 0; I < Rows.Staged.size(); ++I) {
      const ArraySubscriptExpr *Read = Rows.Staged[I];
      std::string Load = textWithVariable(Read, K, Mine);
      if (Load.empty())
        return "a read of the loop is not spelled in one piece of the file";
      const std::string V = Read->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
      Head2 += Inner + "const " + V + " " + stagedName(I) + " = " + In + " ? static_cast<" + V + ">(" + Load +
               ") : " + V + "();\n";
    }
    for (const auto &[Use, I] : Rows.StagedUses)
      if (!Editor.replace(Use->getSourceRange(), "irregfix::lanes_get(" + stagedName(I) + ", " +
                                                     K->getNameAsString() + " - " + Base + ", " + lanesParamName() +
                                                     ")"))
        return "a read of the loop overlaps another edit";
    const std::string KName = K->getNameAsString();
    Head2 += Inner + "const " + Type + " " + Stop + " = " + EndName + " - " + Base + " < " + L + " ? " + EndName +
             " : " + Base + " + " + L + ";\n";
    Head2 += Inner + "for (" + std::string(Head->Declared ? Type + " " : "") + KName + " = " + Base + "; " + KName +
             " < " + Stop + "; ++" + KName + ")";
    const std::string Why = "// several lanes a row load its elements together; each lane runs the loop over them in "
                            "the original's order\n";
    openBlock(For, Why);
    if (!Editor.replace(SourceRange(For->getBeginLoc(), For->getRParenLoc()), Head2))
      return "the loop's header overlaps another edit";
    Editor.insertBefore(afterStatement(For, SM, LO), "\n" + Indent + "}\n" + Indent + leave() + "\n" + Indent + "}");
    return "";
  }

  // E's text with every reference to V spelled Name instead; empty when E is
  // not one piece of the file.
  std::string textWithVariable(const Expr *E, const VarDecl *V, const std::string &Name) {
    const CharSourceRange R = fileRange(E->getSourceRange(), SM, LO);
    if (R.isInvalid())
      return "";
    SnippetEditor Piece(R, SM, LO);
    std::vector<const DeclRefExpr *> Refs;
    refsTo(V, E, Refs);
    for (const DeclRefExpr *Ref : Refs)
      if (!Piece.replace(Ref->getSourceRange(), Name))
        return "";
    llvm::Expected<std::string> Out = Piece.result();
    if (!Out) {
      llvm::consumeError(Out.takeError());
      return "";
    }
    return *Out;
  }

  // `{ ` and Text (whole lines) before the loop, above its `#pragma` lines.
  void openBlock(const ForStmt *For, const std::string &Text) {
    if (auto Above = pragmaLinesAbove(For->getBeginLoc(), SM))
      Editor.insertBefore(Above->first, Above->second + "{ " + Text);
    else
      Editor.insertBefore(For->getBeginLoc(), "{ " + Text + Indent);
  }

  static std::string leave() { return "if (" + laneName() + " != 0) return; // lane 0 goes on"; }

  // Rows that skip the loop reach the code after the statements holding it:
  // lanes other than 0 leave there too.
  void leaveAfterHolders() {
    for (auto [CS, Holder] : Rows.Enclosing)
      if (Holder != Rows.Loop && CS->body_back() != Holder)
        Editor.insertBefore(afterStatement(Holder, SM, LO),
                            "\n" + indentationAt(Holder->getBeginLoc(), SM) + "if (" + laneName() +
                                " != 0) return; // lanes other than 0 leave");
  }

  const KernelInfo &Info;
  const CooperativeRows &Rows;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  SnippetEditor Editor;
  std::string Indent; // the loop's
};

} // namespace

llvm::Expected<std::string> rewriteKernel(const KernelInfo &Info, ASTContext &Ctx) {
  return LanesRewriter(Info, Ctx).run();
}

} // namespace irregfix::lanes
