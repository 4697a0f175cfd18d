#include "Transform/InKernel/KernelRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/Indexed/IndexKernels.h"
#include "Transform/SourceText.h"

#include "Analysis/CallChains.h"

#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>

using namespace clang;

namespace irregfix::inkernel {

void dropDefaultArgumentsOf(const FunctionDecl *K, SnippetEditor &Editor, const SourceManager &SM,
                            const LangOptions &LO) {
  for (const ParmVarDecl *P : K->parameters()) {
    if (!P->hasDefaultArg() || P->hasInheritedDefaultArg() || P->getDefaultArgRange().isInvalid())
      continue;
    SourceLocation B = SM.getFileLoc(P->getDefaultArgRange().getBegin());
    auto [File, At] = SM.getDecomposedLoc(B);
    llvm::StringRef Buf = SM.getBufferData(File);
    unsigned From = At; // back over `= ` to the end of the declarator
    while (From > 0 && isspace(static_cast<unsigned char>(Buf[From - 1])))
      --From;
    if (From > 0 && Buf[From - 1] == '=')
      --From;
    while (From > 0 && isspace(static_cast<unsigned char>(Buf[From - 1])))
      --From;
    SourceLocation End = Lexer::getLocForEndOfToken(SM.getFileLoc(P->getDefaultArgRange().getEnd()), 0, SM, LO);
    Editor.replaceChars(B.getLocWithOffset(static_cast<int>(From) - static_cast<int>(At)), End, "");
  }
}

namespace {

class KernelRewriter {
public:
  KernelRewriter(const KernelInfo &Info, ASTContext &Ctx, const KernelVariant &Variant)
      : Info(Info), Variant(Variant), Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        Editor(fileRange(declarationRange(Info), SM, LO), SM, LO) {}

  llvm::Expected<std::string> run() {
    const FunctionDecl *K = Info.Kernel;
    Editor.replace(K->getLocation(), Variant.Name.empty() ? transformedKernelName(K) : Variant.Name);
    std::string Extra;
    unsigned Index = 0;
    for (const Site &S : Info.Sites) {
      if (S.transformable()) {
        Extra += extraParams(S, Index);
        if (S.Callee)
          passThroughCalls(S, Index);
        rewriteSite(S, Index);
        if (Info.Perm.Permutable)
          rewriteThreadIndex(Index);
        if (Variant.EditSite && !S.Callee)
          Variant.EditSite(Editor, S, Index, Info.Perm.Permutable ? physicalThreadName() : threadIndexText(S));
      }
      ++Index;
    }
    if (Info.OrderOnly) { // no copy: the view carries the order alone
      Extra += ", irregfix::View " + viewName(0);
      rewriteThreadIndex(0);
    }
    if (shared())
      stageSharedCopy();
    if (chunked()) {
      rewriteBlockIndex();
      Extra += ", const unsigned " + blockOffsetName();
    }
    Extra += Variant.ExtraParams;
    dropDefaultArguments();
    markDeadLocals(Info.Kernel->getBody(), Editor);
    llvm::Expected<std::string> Callees = calleeCopies();
    if (!Callees)
      return Callees.takeError();
    FunctionTypeLoc FTL = sourceDecl(Info)->getFunctionTypeLoc();
    if (!FTL)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot locate the parameter list of the kernel");
    // Extra starts with ", "; drop it when the kernel has no parameters.
    Editor.insertBefore(FTL.getRParenLoc(), K->getNumParams() ? Extra : Extra.substr(2));
    llvm::Expected<std::string> Kernel = Editor.result();
    if (!Kernel)
      return Kernel.takeError();
    return *Callees + *Kernel;
  }

private:
  std::string text(const Expr *E) { return sourceText(E->getSourceRange(), SM, LO); }

  void dropDefaultArguments() { dropDefaultArgumentsOf(sourceDecl(Info), Editor, SM, LO); }

  // Remembers a replaced stretch of the kernel, to find locals it leaves unused.
  void replaced(SourceLocation B, SourceLocation E) {
    Replaced.push_back({offset(B), offset(E)});
  }

  bool insideReplaced(SourceLocation L) {
    if (ReplacedByBegin.size() != Replaced.size()) { // stretches were added since the last question
      ReplacedByBegin = Replaced;
      std::sort(ReplacedByBegin.begin(), ReplacedByBegin.end());
      FurthestEnd.clear();
      for (auto [B, E] : ReplacedByBegin)
        FurthestEnd.push_back(std::max(E, FurthestEnd.empty() ? 0u : FurthestEnd.back()));
    }
    // The stretches that begin at or before O: does the furthest of them reach it?
    const unsigned O = offset(L);
    const size_t Before = std::upper_bound(ReplacedByBegin.begin(), ReplacedByBegin.end(), O,
                                           [](unsigned X, const auto &R) { return X < R.first; }) -
                          ReplacedByBegin.begin();
    return Before > 0 && FurthestEnd[Before - 1] >= O;
  }

  // Locals read only by code the rewrite removed (`len`, `q = NB[...]`, a
  // `row` set in statements and read in a rewritten index) are
  // marked [[maybe_unused]] so that the output compiles without new warnings.
  void markDeadLocals(const Stmt *Body, SnippetEditor &Ed) {
    // Whether each local's references are all inside replaced code (asked
    // only until one is not: most locals are read outside it).
    llvm::DenseMap<const VarDecl *, bool> AllInside;
    std::vector<const DeclStmt *> Decls;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
      if (!St)
        return;
      if (const auto *DS = dyn_cast<DeclStmt>(St))
        Decls.push_back(DS);
      // `v = e` sets v without reading it (a local only set is still unused).
      if (const auto *BO = dyn_cast<BinaryOperator>(St);
          BO && BO->getOpcode() == BO_Assign && isa<DeclRefExpr>(BO->getLHS()->IgnoreParens())) {
        Walk(BO->getRHS());
        return;
      }
      if (const auto *DR = dyn_cast<DeclRefExpr>(St))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->isLocalVarDecl()) {
          auto It = AllInside.try_emplace(V, true).first;
          if (It->second)
            It->second = insideReplaced(DR->getLocation());
        }
      for (const Stmt *C : St->children())
        Walk(C);
    };
    Walk(Body);
    for (const DeclStmt *DS : Decls) {
      if (insideReplaced(DS->getBeginLoc()) || DS->getBeginLoc().isMacroID())
        continue;
      bool AllDead = true;
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        auto It = V ? AllInside.find(V) : AllInside.end();
        AllDead &= It != AllInside.end() && It->second;
      }
      if (AllDead)
        Ed.insertBefore(DS->getBeginLoc(), "[[maybe_unused]] ");
    }
  }

  // t as it may be repeated: a plain name as is, anything else parenthesised.
  std::string threadIndexText(const Site &S) {
    if (S.LaunchNumbered)
      return "irregfix::launch_thread()";
    // A called function's index is its parameter: no block index of the kernel's inside.
    std::string T = S.Callee ? text(S.ThreadIndex) : textWithBlockOffset(S.ThreadIndex);
    bool Plain = !T.empty() && llvm::all_of(T, [](char C) { return isalnum(C) || C == '_'; });
    return Plain ? T : "(" + T + ")";
  }

  std::string extraParams(const Site &S, unsigned I) {
    std::string Out = ", irregfix::View " + viewName(I);
    for (const SiteArray *A : S.remappedArrays()) {
      if (!A->Fields.split()) {
        Out += ", " + remappedPointerType(Info, A->Array, Ctx) + "__restrict__ " + remappedName(S, I, *A);
        continue;
      }
      for (unsigned P = 0; P < A->Fields.Pieces.size(); ++P)
        Out += ", const " + pieceTypeName(Info.Kernel, I, A->Array, P) + " *__restrict__ " +
               pieceName(I, A->Array, P);
    }
    if (S.Renumbered)
      for (const Site::RenumberedGather::Gathered &X : S.Renumbered->Arrays)
        Out += ", " + remappedPointerType(Info, X.Array, Ctx) + "__restrict__ " + renumberedName(I, X.Array);
    return Out;
  }

  // A[..].f → piece[slot].f; `T v = A[..]` → v built from the pieces (only its
  // fields are read, so the others may stay zero).
  void rewriteFieldReads(const SiteArray &A, unsigned I, const std::string &SlotText) {
    const FieldSplit &F = A.Fields;
    for (const MemberExpr *ME : F.FieldReads) {
      unsigned P = 0;
      const PieceField *PF = F.find(cast<FieldDecl>(ME->getMemberDecl()), &P);
      if (!PF)
        continue; // analyzeFieldUse put every field read in a piece
      Editor.replace(ME->getSourceRange(),
                     pieceName(I, A.Array, P) + SlotText + "." + PF->Field->getNameAsString());
      replaced(ME->getBeginLoc(), ME->getEndLoc());
    }
    const std::string Element = A.Array.elementType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
    for (auto &[Read, Local] : F.LocalReads) {
      std::string Build = "[&]() { " + Element + " __irregfix_e{}; ";
      for (unsigned P = 0; P < F.Pieces.size(); ++P)
        for (const PieceField &PF : F.Pieces[P].Fields) {
          const std::string Field = PF.Field->getNameAsString();
          Build += "__irregfix_e." + Field + " = " + pieceName(I, A.Array, P) + SlotText + "." + Field + "; ";
        }
      Editor.replace(Read->getSourceRange(), Build + "return __irregfix_e; }()");
      replaced(Read->getBeginLoc(), Read->getEndLoc());
    }
  }

  // A chunk's blocks are numbered from 0 in its launch: blockIdx.x reads as
  // (blockIdx.x + offset). Reads inside text the rewrite replaced (or copies
  // elsewhere: slots, the thread index initialiser) get it through
  // textWithBlockOffset instead.
  void rewriteBlockIndex() {
    const Expr *Init = Info.Perm.Permutable ? Info.Perm.ThreadVar->getInit() : nullptr;
    for (const Expr *Read : Info.Chunks.BlockReads)
      if (!insideReplaced(Read->getBeginLoc()) && !(Init && within(Read, Init)))
        Editor.replace(Read->getSourceRange(), offsetBlockIndex());
  }

  // The kernel takes the block offset of a chunked launch.
  bool chunked() const { return Info.Chunks.Chunkable && !Variant.WholeGrid; }

  // The shareable site's copy may be staged in shared memory (the launch's
  // layout decides at run time); another strategy's variant keeps slots.
  bool shared() const { return Info.Share.Shareable && Variant.Name.empty(); }
  bool sharedSite(unsigned I) const { return shared() && Info.Share.SiteIndex == I; }

  // First thing in the body, reached by every thread of the block: the block's
  // distinct elements go to shared memory (nothing happens under other layouts).
  void stageSharedCopy() {
    const unsigned I = Info.Share.SiteIndex;
    const auto *Body = cast<CompoundStmt>(Info.Kernel->getBody());
    SourceLocation First = Body->body_empty() ? Body->getRBracLoc() : Body->body_front()->getBeginLoc();
    unsigned Column = SM.getExpansionColumnNumber(SM.getExpansionLoc(First));
    std::string Indent(Body->body_empty() || Column < 2 ? 2 : Column - 1, ' ');
    const std::string Block = chunked() ? offsetBlockIndex() : "blockIdx.x";
    Editor.insertAfterToken(Body->getLBracLoc(),
                            "\n" + Indent + "extern __shared__ __align__(16) unsigned char " + stageName() + "[];\n" +
                                Indent + "irregfix::stage_shared(" + viewName(I) + ", " +
                                remappedName(I, Info.Sites[I].remappedArrays().front()->Array) + ", " + stageName() +
                                ", " + Block + ");");
  }

  static std::string offsetBlockIndex() { return "(blockIdx.x + " + blockOffsetName() + ")"; }

  bool within(const Expr *Inner, const Expr *Outer) const {
    unsigned B = offset(Outer->getBeginLoc()), E = offset(Outer->getEndLoc()), I = offset(Inner->getBeginLoc());
    return I >= B && I <= E;
  }
  unsigned offset(SourceLocation L) const { return SM.getFileOffset(SM.getFileLoc(L)); }

  // E's text, copied into new code: its blockIdx.x reads offset when chunkable.
  std::string textWithBlockOffset(const Expr *E) {
    std::string T = text(E);
    if (!chunked() || T.empty())
      return T;
    const unsigned Base = offset(E->getBeginLoc());
    std::vector<std::pair<unsigned, size_t>> At; // (offset, length) of the reads inside E
    for (const Expr *Read : Info.Chunks.BlockReads)
      if (within(Read, E))
        At.push_back({offset(Read->getBeginLoc()) - Base, text(Read).size()});
    std::sort(At.rbegin(), At.rend()); // last first: earlier offsets stay valid
    for (auto [A, Length] : At)
      T.replace(A, Length, offsetBlockIndex());
    return T;
  }

  // int t = <index>;  →  const long long __irregfix_p = <index>;
  //                      int t = static_cast<int>(irregfix::logical_thread(v, __irregfix_p));
  // The copy is read at physical slots; everything else sees the logical thread.
  void rewriteThreadIndex(unsigned I) {
    const VarDecl *V = Info.Perm.ThreadVar;
    const DeclStmt *D = Info.Perm.ThreadDecl;
    std::string Type = V->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
    unsigned Column = SM.getExpansionColumnNumber(D->getBeginLoc());
    Editor.insertBefore(D->getBeginLoc(), "const long long " + physicalThreadName() + " = " +
                                              textWithBlockOffset(V->getInit()) + ";\n" +
                                              std::string(Column ? Column - 1 : 0, ' '));
    Editor.replace(V->getInit()->getSourceRange(), "static_cast<" + Type + ">(irregfix::logical_thread(" +
                                                      viewName(I) + ", " + physicalThreadName() + "))");
  }

  void rewriteSite(const Site &S, unsigned I) {
    SnippetEditor &Editor = editorFor(S);
    std::string T = threadIndexText(S);
    // A permutable kernel reads its copy where the physical thread is.
    std::string Slot = Info.Perm.Permutable ? physicalThreadName() : T;
    // The iteration a read belongs to: the rewritten loop's counter (ranges),
    // the kernel's own loop variable (neighbour lists), none (gathers).
    std::string Iter = isRangePattern(S.Pattern)           ? iterName(I)
                       : S.Pattern == kPatternNeighbors ? S.LoopVar->getNameAsString()
                                                           : "0";
    // An indexed loop site keeps the kernel's loop: a read's iteration is how
    // far the loop variable is from where it started.
    const bool IndexedLoop = S.Pattern == kPatternIndexed && S.IndexedLoop.Loop;
    if (IndexedLoop) {
      // Loop L's own iteration: how far its variable is from its first
      // value, in steps.
      auto Own = [&](const LoopShape &L, unsigned K, const std::string &First) {
        const std::string Distance = "(" + L.Var->getNameAsString() + " - " + First + ")";
        return L.Step ? "(" + Distance + " / " + indexed::stepName(I, K) + ")" : Distance;
      };
      Iter = Own(S.IndexedLoop, 0, indexed::firstName(I));
      // A ragged nest's: the inner loop's iterations before (the count
      // advanced as the loop starts, less its own trip count), and its own.
      if (S.IndexedRagged)
        Iter = "(" + indexed::baseName(I) + " - " + indexed::innerLengthName(I, 1) + " + " +
               Own(S.IndexedInnerLoops.front(), 1, indexed::innerFirstName(I, 1)) + ")";
      // A nest's iteration: each inner loop's, the innermost fastest.
      for (unsigned L = 1; !S.IndexedRagged && L <= S.IndexedInnerLoops.size(); ++L)
        Iter = "(" + Iter + " * " + indexed::innerLengthName(I, L) + " + " +
               Own(S.IndexedInnerLoops[L - 1], L, indexed::innerFirstName(I, L)) + ")";
    }
    // Only a neighbour list may be read in place through its list in the
    // locality order; a gather's copy holds a thread's element at the thread.
    const std::string SlotCall =
        S.Pattern == kPatternGather || S.Pattern == kPatternGather2
            ? "irregfix::gather_slot(" + viewName(I) + ", " + Slot + ")"
            : std::string(S.Pattern == kPatternNeighbors ? "irregfix::neighbor_slot(" : "irregfix::slot(") +
                  viewName(I) + ", " + Slot + ", " + Iter + ")";
    for (const SiteArray *A : S.remappedArrays()) {
      if (A->Fields.split()) { // never in a called function (KernelAnalysis.cpp keeps its elements whole)
        rewriteFieldReads(*A, I, "[" + SlotCall + "]");
        continue;
      }
      for (const Expr *Read : A->Reads) {
        if (sharedSite(I))
          Editor.replace(Read->getSourceRange(), "irregfix::read_shared(" + viewName(I) + ", " +
                                                     remappedName(S, I, *A) + ", " + stageName() + ", " + Slot +
                                                     ", " + Iter + ")");
        else
          Editor.replace(Read->getSourceRange(), remappedName(S, I, *A) + "[" + SlotCall + "]");
        replaced(Read->getBeginLoc(), Read->getEndLoc());
      }
    }
    if (S.Renumbered)
      for (const Site::RenumberedGather::Gathered &X : S.Renumbered->Arrays)
        for (const Expr *Base : X.Bases) {
          Editor.replace(Base->getSourceRange(), renumberedName(I, X.Array));
          replaced(Base->getBeginLoc(), Base->getEndLoc());
        }
    if (IndexedLoop)
      declareFirst(S, I);
    if (!isRangePattern(S.Pattern))
      return;

    // for (<init>; <cond>; <inc>) → for (int iter = 0, len = length(v, t); iter < len; ++iter)
    const ForStmt *For = S.Loop;
    std::string Limit = Variant.IterationLimit.empty() ? "" : " && " + iterName(I) + " < " + Variant.IterationLimit;
    std::string Header = "int " + iterName(I) + " = " + Variant.FirstIteration + ", " + lengthName(I) +
                         " = irregfix::length(" + viewName(I) + ", " + Slot + "); " + iterName(I) + " < " +
                         lengthName(I) + Limit + "; ++" + iterName(I);
    SourceLocation HeaderBegin = Lexer::getLocForEndOfToken(SM.getFileLoc(For->getLParenLoc()), 0, SM, LO);
    Editor.replaceChars(HeaderBegin, For->getRParenLoc(), Header);
    replaced(HeaderBegin, For->getRParenLoc());

    if (S.LoopVarUsedElsewhere)
      rebindLoopVariable(S, I, T);
  }

  // `{ const long long first = <the loop's first value>; for (...) ... }`;
  // before each inner loop of a nest, its trip count too (its bounds are the
  // same at every iteration of the loops around it).
  void declareFirst(const Site &S, unsigned I) {
    // A strided loop's step, as the loop has it before its first iteration.
    auto Step = [&](const LoopShape &L, unsigned K) {
      return L.Step ? " const long long " + indexed::stepName(I, K) + " = (long long)(" + text(L.Step) + ");"
                    : std::string();
    };
    if (S.IndexedRagged) {
      // The inner loop's iterations are counted as the loop around it runs:
      // each time the inner loop starts, its trip count is added. (Added
      // there, not after the loop: blocks that other sites open before the
      // loop close after it in any order.)
      const LoopShape &L = S.IndexedInnerLoops.front();
      const std::string First = indexed::innerFirstName(I, 1), End = indexed::innerEndName(I, 1),
                        Trips = indexed::innerLengthName(I, 1);
      std::string Count = End + " - " + First;
      if (L.Step)
        Count = "(" + Count + " + " + indexed::stepName(I, 1) + " - 1) / " + indexed::stepName(I, 1);
      declareAround(S.IndexedLoop.Loop, "{ long long " + indexed::baseName(I) + " = 0;");
      declareAround(L.Loop,
                    "{ const long long " + First + " = (long long)(" + text(L.First) + ");" + Step(L, 1) +
                        " const long long " + End + " = (long long)(" + text(L.End) + ")" +
                        (L.EndInclusive ? " + 1" : "") + "; const long long " + Trips + " = " + End + " > " + First +
                        " ? " + Count + " : 0; " + indexed::baseName(I) + " += " + Trips + ";");
      return;
    }
    declareAround(S.IndexedLoop.Loop, "{ const long long " + indexed::firstName(I) + " = (long long)(" +
                                          text(S.IndexedLoop.First) + ");" + Step(S.IndexedLoop, 0));
    for (unsigned K = 1; K <= S.IndexedInnerLoops.size(); ++K) {
      const LoopShape &L = S.IndexedInnerLoops[K - 1];
      const std::string First = indexed::innerFirstName(I, K);
      // Read only inside the loop's body, where the loop runs: end > first.
      std::string Distance = "(long long)(" + text(L.End) + ")" + (L.EndInclusive ? " + 1" : "") + " - " + First;
      if (L.Step)
        Distance = "(" + Distance + " + " + indexed::stepName(I, K) + " - 1) / " + indexed::stepName(I, K);
      declareAround(L.Loop, "{ const long long " + First + " = (long long)(" + text(L.First) + ");" + Step(L, K) +
                                " const long long " + indexed::innerLengthName(I, K) + " = " + Distance + ";");
    }
  }

  // Declare, then the loop L, in a block of their own.
  void declareAround(const Stmt *L, const std::string &Declare) {
    // `#pragma unroll` must stay right before its loop: the block opens on a
    // line of its own above the pragmas.
    if (auto Above = pragmaLinesAbove(L->getBeginLoc(), SM))
      Editor.insertBefore(Above->first, Above->second + Declare + "\n");
    else
      Editor.insertBefore(L->getBeginLoc(), Declare + " ");
    const Stmt *Body = cast<ForStmt>(L)->getBody();
    SourceLocation End = SM.getFileLoc(Body->getEndLoc());
    if (!isa<CompoundStmt>(Body))
      if (SourceLocation Semi = Lexer::findLocationAfterToken(End, tok::semi, SM, LO, false); Semi.isValid()) {
        Editor.insertBefore(Semi, " }");
        return;
      }
    Editor.insertAfterToken(End, " }");
  }

  // The body still uses k other than in remapped reads: k = B[row] + iter, or
  // i = iter in the counted form.
  void rebindLoopVariable(const Site &S, unsigned I, const std::string &T) {
    SnippetEditor &Editor = editorFor(S);
    const VarDecl *K = S.LoopVar;
    std::string Type = K->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
    // B and C as the code around the loop names them.
    const ArrayRef &Offsets = S.Callee ? S.Callee->Offsets : S.Offsets;
    const ArrayRef &RowMap = S.Callee ? S.Callee->RowMap : S.RowMap;
    std::string Row = RowMap ? RowMap.spelling() + "[" + T + "]" : T;
    std::string Value = S.LoopVarIsIteration ? iterName(I) : Offsets.spelling() + "[" + Row + "] + " + iterName(I);
    std::string Bind = " const " + Type + " " + K->getNameAsString() + " = static_cast<" + Type + ">(" + Value + ");";
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

  // The editor of the code a site is in: the kernel's, or its function's copy.
  SnippetEditor &editorFor(const Site &S) {
    if (!S.Callee)
      return Editor;
    return copyOf(S.Callee->Chain.callee());
  }

  SnippetEditor &copyOf(const FunctionDecl *F) {
    auto It = Copies.find(F);
    if (It == Copies.end()) {
      It = Copies.emplace(F, Copy{std::make_unique<SnippetEditor>(fileRange(F->getSourceRange(), SM, LO), SM, LO),
                                  "", 0}).first;
      CopyOrder.push_back(F);
    }
    return *It->second.Editor;
  }

  // The site's views and copies reach the function it is in through a copy
  // of each function on its chain: each takes them as parameters (the same
  // names as the kernel's), each call passes them on.
  void passThroughCalls(const Site &S, unsigned I) {
    const std::string Params = extraParams(S, I);
    std::string Args = ", " + viewName(I);
    for (const SiteArray *A : S.remappedArrays())
      Args += ", " + remappedName(S, I, *A);
    const CallChain &Chain = S.Callee->Chain;
    for (size_t J = 0; J < Chain.Calls.size(); ++J) {
      const FunctionDecl *F = Chain.Functions[J];
      copyOf(F);
      Copy &C = Copies.find(F)->second;
      C.Params += Params;
      C.Depth = static_cast<unsigned>(J);
      CallArgs[Chain.Calls[J]].first = J == 0 ? nullptr : Chain.Functions[J - 1];
      CallArgs[Chain.Calls[J]].second += Args;
    }
  }

  // The copies of the functions sites are in, deepest first (each calls the
  // next one's copy), each renamed and given its sites' parameters.
  llvm::Expected<std::string> calleeCopies() {
    for (auto &[Call, In] : CallArgs) {
      SnippetEditor &Ed = In.first ? copyOf(In.first) : Editor;
      const FunctionDecl *F = Call->getDirectCallee()->getDefinition();
      const auto *Ref = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
      if (!Ref)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "cannot locate the name of the call of '" + F->getNameAsString() + "'");
      Ed.replace(SourceRange(Ref->getLocation(), Ref->getLocation()), calleeCopyName(F, Info.Kernel));
      Ed.insertBefore(Call->getRParenLoc(), Call->getNumArgs() ? In.second : In.second.substr(2));
    }
    std::vector<const FunctionDecl *> Order = CopyOrder;
    std::stable_sort(Order.begin(), Order.end(), [&](const FunctionDecl *A, const FunctionDecl *B) {
      return Copies.find(A)->second.Depth > Copies.find(B)->second.Depth;
    });
    std::string Out;
    for (const FunctionDecl *F : Order) {
      Copy &C = Copies.find(F)->second;
      FunctionTypeLoc FTL = F->getFunctionTypeLoc();
      if (!FTL)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "cannot locate the parameter list of '" + F->getNameAsString() + "'");
      C.Editor->replace(SourceRange(F->getLocation(), F->getLocation()), calleeCopyName(F, Info.Kernel));
      C.Editor->insertBefore(FTL.getRParenLoc(), F->getNumParams() ? C.Params : C.Params.substr(2));
      markDeadLocals(F->getBody(), *C.Editor);
      llvm::Expected<std::string> Text = C.Editor->result();
      if (!Text)
        return Text.takeError();
      Out += "// irregfix: '" + F->getNameAsString() + "' for " + transformedKernelName(Info.Kernel) +
             ", reading the copies of the sites it reaches; the original serves the original kernel.\n" + *Text +
             "\n\n";
    }
    return Out;
  }

  struct Copy {
    std::unique_ptr<SnippetEditor> Editor;
    std::string Params; // the sites' parameters, each starting with ", "
    unsigned Depth = 0; // its call's place in the chain: 0 called by the kernel
  };
  std::map<const FunctionDecl *, Copy> Copies;
  std::vector<const FunctionDecl *> CopyOrder; // as first met
  // Each call on a site's chain: the function it is written in (null: the
  // kernel) and the arguments it adds.
  std::map<const CallExpr *, std::pair<const FunctionDecl *, std::string>> CallArgs;

  std::vector<std::pair<unsigned, unsigned>> Replaced; // file offsets, inclusive
  std::vector<std::pair<unsigned, unsigned>> ReplacedByBegin; // the same, sorted
  std::vector<unsigned> FurthestEnd; // the furthest end of ReplacedByBegin up to each
  const KernelInfo &Info;
  const KernelVariant &Variant;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  SnippetEditor Editor;
};

} // namespace

std::string pieceTypeDefinitions(const KernelInfo &Info, ASTContext &Ctx) {
  std::string Out;
  const PrintingPolicy &Policy = Ctx.getPrintingPolicy();
  for (unsigned I = 0; I < Info.Sites.size(); ++I) {
    if (!Info.Sites[I].transformable())
      continue;
    for (const SiteArray *A : Info.Sites[I].remappedArrays()) {
      const FieldSplit &F = A->Fields;
      if (!F.split())
        continue;
      const std::string Element = A->Array.elementType().getUnqualifiedType().getAsString(Policy);
      const std::string Why = "\"irregfix: '" + Element + "' is laid out other than the tool computed\"";
      Out += "static_assert(sizeof(" + Element + ") == " + std::to_string(F.ElementSize) + ", " + Why + ");\n";
      for (unsigned P = 0; P < F.Pieces.size(); ++P) {
        const FieldPiece &Piece = F.Pieces[P];
        Out += "struct alignas(" + std::to_string(Piece.Size) + ") " + pieceTypeName(Info.Kernel, I, A->Array, P) +
               " {";
        for (const PieceField &PF : Piece.Fields)
          Out += " " + PF.Field->getType().getCanonicalType().getUnqualifiedType().getAsString(Policy) + " " +
                 PF.Field->getNameAsString() + ";";
        Out += " };\n";
        for (const PieceField &PF : Piece.Fields)
          Out += "static_assert(__builtin_offsetof(" + Element + ", " + PF.Field->getNameAsString() + ") == " +
                 std::to_string(PF.Offset) + ", " + Why + ");\n";
      }
    }
  }
  return Out;
}

llvm::Expected<std::string> rewriteKernel(const KernelInfo &Info, ASTContext &Ctx, const KernelVariant &Variant) {
  KernelRewriter R(Info, Ctx, Variant);
  return R.run();
}

} // namespace irregfix::inkernel
