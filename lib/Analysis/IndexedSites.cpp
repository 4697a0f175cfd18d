#include "Analysis/IndexedSites.h"
#include "Analysis/AnalysisBudget.h"
#include "Analysis/ActiveThreads.h"
#include "Analysis/AstUtil.h"
#include "Analysis/EnclosingRanges.h"
#include "Analysis/Parents.h"
#include "Analysis/PointerAliases.h"
#include "Analysis/SiteFinder.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace irregfix {

namespace {

std::string textOf(const Expr *E, ASTContext &Ctx) {
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  std::string T = Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
  if (T.empty()) {
    llvm::raw_string_ostream OS(T);
    E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  }
  if (T.size() > 48)
    T = T.substr(0, 45) + "...";
  return T;
}

// The element expression of a read: the part the copy replaces (A[i] of A[i].f).
const Expr *elementOf(const MemoryRead &M) {
  if (M.Field)
    if (const auto *ME = dyn_cast<MemberExpr>(M.Read->IgnoreParens()))
      return ME->getBase()->IgnoreParens();
  return M.Read;
}

// The subscript a pattern site records for a read (beneath __ldg and members).
const Expr *subscriptOf(const MemoryRead &M) {
  const Expr *E = elementOf(M);
  if (const auto *C = dyn_cast<CallExpr>(E->IgnoreParens()); C && C->getNumArgs() == 1)
    if (const auto *A = dyn_cast<UnaryOperator>(strip(C->getArg(0))); A && A->getOpcode() == UO_AddrOf)
      return A->getSubExpr()->IgnoreParens();
  return E;
}

// What a read looks like, for the report of one no site takes.
std::string shapeOf(const IndirectRead &R) {
  std::set<const VarDecl *> Vars;
  R.Index->loopVars(Vars);
  if (!Vars.empty())
    return R.Index->K == Form::LoopVar ? pattern_name(kPatternRange) : "gather in a loop";
  int Depth = R.Index->loadDepth();
  return Depth <= 1 ? pattern_name(kPatternGather) : "chain of " + std::to_string(Depth + 1) + " loads";
}

// Where a read is judged: in the kernel, or in a function the kernel calls,
// through the chain of calls that reaches it (its arrays and thread-index
// parameters bound to the kernel's, its writes with the kernel's: CallChains.h).
struct Place {
  const clang::FunctionDecl *In; // the function the read is in
  const WriteSet &W;             // the writes it sees
  const BoundChain *Chain;       // null: the kernel
};

// "'A' of 'f'" and "is not an array the kernel passes unchanged (the call
// passes 'x')", or "points into 'P' at an offset (the call passes 'P + e')",
// with what the call passes instead where the chain knows it.
std::pair<std::string, std::string> notPassed(const ArrayRef &A, const BoundChain &B, ASTContext &Ctx) {
  const Expr *Arg = B.argumentFor(A.param());
  const std::string Passes = Arg ? " (the call passes '" + textOf(Arg, Ctx) + "')" : std::string();
  const std::string Named = A.quoted() + " of " + quoted(B.Chain.callee());
  if (const OffsetBinding *O = B.offsetBinding(A))
    return {Named, "points into " + O->Array.quoted() + " at an offset" + Passes +
                       ": an index array is followed only where the kernel passes it unchanged"};
  std::string Instead;
  if (A.fields().empty())
    if (auto It = B.UnboundBecause.find(A.param()); It != B.UnboundBecause.end())
      Instead = ": " + It->second;
  return {Named, "is not an array the kernel passes unchanged" + Passes + Instead};
}

// Why Base, an array inside the struct a pointer parameter points to
// (`p->a`, a row `p->a[i]` of a member of several dimensions, `p->s.a` of a
// nested struct), is no array a copy is made of; "" when Base is none of
// those. An array of scalars directly in the struct, every dimension of
// constant size, is one (WriteSet::pointeeMember) unless the function assigns
// the pointer; one of several dimensions is read where each dimension is
// subscripted (`p->a[i][j]`, asMemoryRead), not through a row.
std::string pointeeMemberWhy(const Expr *Base, const Place &At, ASTContext &Ctx) {
  const Expr *E = Base ? Base->IgnoreParenImpCasts() : nullptr;
  bool Row = false;
  while (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(E)) { // a row of a member of several dimensions
    E = AS->getBase()->IgnoreParenImpCasts();
    Row = true;
  }
  const auto *M = dyn_cast_or_null<MemberExpr>(E);
  if (!M || !M->getType()->isConstantArrayType())
    return "";
  const auto *Top = M;
  bool Nested = false;
  while (!M->isArrow()) { // `p->s.a`: a member of a struct member
    M = dyn_cast<MemberExpr>(M->getBase()->IgnoreParenImpCasts());
    if (!M)
      return "";
    Nested = true;
  }
  const auto *DR = dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts());
  const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
  const auto *F = dyn_cast<FieldDecl>(Top->getMemberDecl());
  if (!P || !F || !P->getType()->isPointerType())
    return "";
  const std::string Head = "the array it reads ('" + textOf(Top, Ctx) + "') is ";
  const std::string Inside = " inside the struct " + quoted(P) + " points to";
  const std::string Copies = " (copies are made of arrays of scalars directly in it)";
  if (Nested)
    return Head + "an array of a struct nested" + Inside + Copies;
  if (const char *Why = WriteSet::whyNotPointeeMember(F, P->getType()->getPointeeType()))
    return Head + "an array" + Inside + ", " + Why + Copies;
  if (At.W.writesScalar(P))
    return Head + "an array" + Inside + ", and " + quoted(At.In) + " assigns " + quoted(P) +
           " (reads through it are not followed)";
  if (Row) {
    unsigned Dims = 0;
    for (QualType T = F->getType(); const auto *A = T->getAsArrayTypeUnsafe(); T = A->getElementType())
      ++Dims;
    return "it reads through '" + textOf(Base, Ctx) + "', a row of the " +
           (Dims == 2   ? std::string("two")
            : Dims == 3 ? std::string("three")
                        : std::to_string(Dims)) +
           "-dimensional array '" + textOf(Top, Ctx) + "'" + Inside +
           " (a copy of it is read where each of its dimensions is subscripted)";
  }
  return "";
}

// The parameter of a called function an invariant form stands for (`n`, `p.n`), or null.
const ParmVarDecl *calleeParam(const Form &F, const Place &At) {
  if (!At.Chain || F.K != Form::Invariant)
    return nullptr;
  const Expr *Root = F.Source;
  while (const auto *M = dyn_cast_or_null<MemberExpr>(Root ? strip(Root) : nullptr))
    Root = M->getBase();
  const auto *DR = Root ? dyn_cast<DeclRefExpr>(strip(Root)) : nullptr;
  const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
  return P && P->getDeclContext() == At.In ? P : nullptr;
}

// The first part of a form the analysis cannot follow, or null.
const Form *unknownPart(const Form &F) {
  if (F.K == Form::Unknown)
    return &F;
  for (const FormRef &O : F.Ops)
    if (!O->known())
      return unknownPart(*O);
  return nullptr;
}

// Why a called function's index cannot be computed outside the kernel. A
// parameter given a loaded value (`bucket` of `weight(w, b)`) is as good as
// the argument the kernel passes: when the kernel cannot follow that one
// either (a local its search loop sets), the argument's reason is the read's.
std::string unknownIndex(const Form &F, const Place &At, const FunctionDecl *Kernel, const WriteSet &KernelW,
                         ASTContext &Ctx) {
  const Form *U = unknownPart(F);
  const auto *DR = U && U->Source ? dyn_cast<DeclRefExpr>(strip(U->Source)) : nullptr;
  const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
  if (At.Chain && At.Chain->Chain.Calls.size() == 1 && P && P->getDeclContext() == At.In)
    if (const Expr *Arg = At.Chain->argumentFor(P)) {
      FormBuilder InKernel(Kernel, KernelW, Ctx);
      std::vector<const VarDecl *> LoopVars; // of the loops around the call, outermost first
      for (const Stmt *S = parentStmt(At.Chain->Chain.Calls.front(), Ctx); S; S = parentStmt(S, Ctx))
        if (isa<ForStmt>(S) || isa<WhileStmt>(S))
          if (const VarDecl *V = loopShape(S).Var)
            LoopVars.insert(LoopVars.begin(), V);
      InKernel.setLoopVars(LoopVars);
      if (FormRef A = InKernel.of(Arg); !A->known())
        return "its index cannot be computed outside the kernel: " + quoted(P) + " of " + quoted(At.In) +
               " is given '" + textOf(Arg, Ctx) + "': " + A->unknownWhy();
    }
  return "its index cannot be computed outside the kernel: " + F.unknownWhy();
}

// Why the loads of a form cannot be made outside the kernel (KernelW: the
// kernel's writes), or "".
std::string loadsProblem(const Form &F, const Place &At, const WriteSet &KernelW, ASTContext &Ctx,
                         std::vector<ArrayRef> &Sources) {
  std::vector<const Form *> Loads;
  F.loads(Loads);
  for (const Form *L : Loads) {
    if (!L->Array) {
      const Expr *Base = L->Source;
      MemoryRead M;
      if (Base && asMemoryRead(Base, &M) && M.Base)
        Base = M.Base;
      // An index kept in the thread's own memory or on the chip is the kernel's to compute.
      const PointerInto Into = Base ? pointerInto(Base, At.W, At.Chain ? &At.Chain->Spaces : nullptr) : PointerInto();
      const MemorySpace Space = Into.Space;
      if (Space == MemorySpace::ThreadLocal || Space == MemorySpace::Shared)
        return "its index cannot be computed outside the kernel: " + readOfSpace(Space, textOf(Base, Ctx));
      // Somewhere inside an array (at an offset not followed): written where the array is.
      if (Into.Within) {
        const OffsetBinding *O =
            At.Chain && Into.Within.fields().empty() ? At.Chain->offsetBinding(Into.Within) : nullptr;
        const ArrayRef Named = At.Chain ? (O ? O->Array : At.Chain->kernelArray(Into.Within)) : Into.Within;
        if (At.W.writesThrough(Into.Within) || (Named && KernelW.writesThrough(Named)))
          return "its index reads '" + textOf(Base, Ctx) + "', which the kernel writes (it points into " +
                 (Named ? Named : Into.Within).quoted() + ")";
      }
      return "its index reads memory through '" + (Base ? textOf(Base, Ctx) : std::string("?")) + "', " +
             (L->Why.empty() ? "which the launch cannot name" : L->Why);
    }
    ArrayRef Named = L->Array;
    if (At.Chain && !(Named = At.Chain->kernelArray(L->Array))) {
      if (auto It = At.Chain->Spaces.find(L->Array.param()); L->Array.fields().empty() &&
                                                            It != At.Chain->Spaces.end() &&
                                                            It->second != MemorySpace::KernelParameter)
        return "its index cannot be computed outside the kernel: " + readOfSpace(It->second, L->Array.spelling());
      // An array inside the element a parameter points to, the parameter
      // bound into a kernel array: written where that array is.
      if (L->Array.isPointeeMember())
        if (const OffsetBinding *O = At.Chain->offsetBinding(ArrayRef(L->Array.param()));
            O && (KernelW.writesThrough(O->Array) || At.W.writesThrough(L->Array)))
          return "its index reads " + L->Array.quoted() + ", which the kernel writes (" + quoted(L->Array.param()) +
                 " of " + quoted(At.In) + " points into " + O->Array.quoted() + ")";
      // Memory the function writes, or that the chain's one call points the
      // parameter into an array the kernel writes: whatever the function's
      // other calls bind it to, the index may be read after the kernel wrote it.
      if (At.W.writesThrough(L->Array))
        return "its index reads " + L->Array.quoted() + ", which the kernel writes";
      if (const ParmVarDecl *P = L->Array.param(); P && P->getDeclContext() == At.In &&
                                                   At.Chain->Chain.Calls.size() == 1)
        if (const Expr *Arg = At.Chain->argumentFor(P))
          if (const ArrayRef Into = WriteSet::pointerBase(Arg, &KernelW); Into && KernelW.writesThrough(Into))
            return "its index reads " + L->Array.quoted() + ", which the kernel writes (" + quoted(P) + " of " +
                   quoted(At.In) + " is given '" + textOf(Arg, Ctx) + "', which points into " + Into.quoted() + ")";
      auto [Array, Why] = notPassed(L->Array, *At.Chain, Ctx);
      return "its index reads " + Array + ", which " + Why;
    }
    if (At.W.writesThrough(L->Array))
      return "its index reads " + L->Array.quoted() + ", which the kernel writes";
    if (L->Field) {
      const CXXRecordDecl *RD = L->Array.elementType()->getAsCXXRecordDecl();
      if (RD && (!RD->hasDefinition() || !RD->isTriviallyCopyable()))
        return "its index reads a field of " + L->Array.quoted() + ", whose elements are not trivially copyable";
    }
    if (std::find(Sources.begin(), Sources.end(), Named) == Sources.end())
      Sources.push_back(Named);
  }
  return "";
}

// Invariant integers of a form, by their expressions (for the cache key), or
// why one cannot be a key (a __device__ variable, a floating-point value, a
// called function's parameter that the call gives something else than a
// value of the launch). KernelW: the kernel's writes.
std::string keyScalars(const Form &F, const Place &At, const WriteSet &KernelW, std::vector<const Expr *> &Out,
                       ASTContext &Ctx) {
  if (const ParmVarDecl *P = calleeParam(F, At)) {
    if (At.Chain->ThreadParams.count(P))
      return ""; // the kernel's thread index
    const Expr *Arg = At.Chain->Chain.Calls.size() == 1 ? At.Chain->argumentFor(P) : nullptr;
    if (!Arg || !isLaunchEvaluable(Arg, KernelW))
      return "its index depends on " + quoted(P) + " of " + quoted(At.In) +
             ", which the kernel's call does not give the thread index nor a value of the launch" +
             (Arg ? " (it passes '" + textOf(Arg, Ctx) + "')" : std::string());
  }
  if (F.K == Form::Invariant) {
    if (F.Var && !isa<ParmVarDecl>(F.Var))
      return "its index reads __device__ variable " + quoted(F.Var);
    if (!F.Source->getType()->isIntegralOrEnumerationType())
      return "its index depends on '" + textOf(F.Source, Ctx) + "', which is not an integer";
    std::string T = textOf(F.Source, Ctx);
    if (llvm::none_of(Out, [&](const Expr *E) { return textOf(E, Ctx) == T; }))
      Out.push_back(F.Source);
  }
  for (const FormRef &O : F.Ops)
    if (std::string Why = keyScalars(*O, At, KernelW, Out, Ctx); !Why.empty())
      return Why;
  return "";
}

// The first thread index's expression in a form (a called function's
// parameter that holds it, too), or null.
const Expr *threadExpr(const Form &F, const Place &At) {
  if (F.K == Form::Thread)
    return F.Source;
  if (const ParmVarDecl *P = calleeParam(F, At); P && At.Chain->ThreadParams.count(P))
    return F.Source;
  for (const FormRef &O : F.Ops)
    if (const Expr *E = threadExpr(*O, At))
      return E;
  return nullptr;
}

// Every thread index in a form, outermost first.
void threadForms(const Form &F, std::vector<const Form *> &Out) {
  if (F.K == Form::Thread)
    Out.push_back(&F);
  for (const FormRef &O : F.Ops)
    threadForms(*O, Out);
}

// Whether a loop's step is positive whatever the launch: a positive
// constant, a dimension of the grid or of the blocks, sums and products of
// those.
bool positiveStep(const Form &F) {
  if (F.K == Form::Const)
    return F.Value > 0;
  if (F.K == Form::Position)
    return F.Shape;
  if (F.K == Form::Op && (F.Name == "+" || F.Name == "*"))
    return llvm::all_of(F.Ops, [](const FormRef &O) { return positiveStep(*O); });
  return false;
}

// A grid-stride loop's variable behind a thread index (through the locals
// that hold it), or null: one index per iteration, not per thread of the launch.
const VarDecl *gridStrideVariable(const Expr *E, const WriteSet &W) {
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    const auto *DR = dyn_cast<DeclRefExpr>(strip(E));
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!V || !V->isLocalVarDecl())
      return nullptr;
    if (W.gridStrideLoop(V))
      return V;
    E = V->getInit();
  }
  return nullptr;
}

// Why the thread's position in the launch that a read's index (and its
// loops' bounds) uses cannot number its copies, or "". Such a site numbers
// the launch's threads, all of them, as the launch does (its index kernels
// are launched with the kernel's grid and blocks, where every builtin index
// means what it means in the kernel); the index must tell the blocks apart
// (the thread's index in its block alone is the same in every block: no copy
// for each thread of the launch is made of what every block reads alike).
std::string launchNumberingWhy(const std::vector<const Form *> &Places, const std::vector<const Form *> &Threads,
                               const Place &At, const WriteSet &W, ASTContext &Ctx) {
  const Form *First = nullptr; // the first place in the launch (not its shape)
  bool Blocks = !Threads.empty();
  for (const Form *P : Places)
    if (!P->Shape) {
      First = First ? First : P;
      Blocks |= !llvm::StringRef(P->Name).starts_with("threadIdx");
    }
  const Form *Named = First ? First : Places.empty() ? nullptr : Places.front();
  const std::string What = !Named ? std::string("two numberings of the threads")
                           : llvm::StringRef(Named->Name).starts_with("global ")
                               ? "'" + textOf(Named->Source, Ctx) + "', its " + Named->Name.substr(0, 6) +
                                     " index in " + Named->Name.substr(7)
                               : "'" + textOf(Named->Source, Ctx) + "'";
  if (At.Chain)
    return "its index uses the thread's position other than its global index (" + What +
           ") in a function the kernel calls (such indices are numbered in the kernel only)";
  for (const Form *T : Threads)
    if (const VarDecl *V = gridStrideVariable(T->Source, W))
      return "its index uses the thread's position other than its global index (" + What +
             ") beside the variable of a grid-stride loop, " + quoted(V) +
             " (a copy for each thread of the launch holds one iteration's element)";
  if (!Blocks)
    return "its index uses the thread's index in its block (" + What +
           ") and nothing that tells the blocks apart: every block reads the same elements";
  return "";
}

// Why the thread indices of a read's index and its loop's bounds do not all
// number the threads alike, or "": a site's copies are laid out in one
// numbering, which the generated kernels compute as their own thread.
std::string mixedNumbering(const std::vector<const Form *> &Threads, const WriteSet &W, ASTContext &Ctx) {
  const Form *Linear = nullptr;
  for (const Form *T : Threads)
    if (T->Linear && !Linear)
      Linear = T;
  if (!Linear)
    return "";
  for (const Form *T : Threads) {
    if (!T->Linear)
      return "it uses '" + textOf(T->Source, Ctx) + "', the x index alone, beside the linear thread index '" +
             textOf(Linear->Source, Ctx) + "' (a site's copies are laid out in one numbering of the threads)";
    if (!sameThreadIndex(T->Source, Linear->Source, W, Ctx))
      return "it uses two linear thread indices, '" + textOf(Linear->Source, Ctx) + "' and '" +
             textOf(T->Source, Ctx) + "' (a site's copies are laid out in one numbering of the threads)";
  }
  return "";
}

// The statement a read runs in, for the search of the guards around it: a
// read in a local's initialiser (`for (int k = B[c]; ...)`, `int m = B[c];`)
// runs where the local's declaration is.
const Stmt *runsAt(const Expr *Read, ASTContext &Ctx) {
  const Stmt *S = Read;
  for (int Depth = 0; Depth < 256; ++Depth) {
    auto Parents = parentsOf(*S, Ctx);
    if (Parents.empty())
      break;
    if (const Stmt *P = Parents[0].get<Stmt>()) {
      S = P;
      continue;
    }
    if (const auto *V = Parents[0].get<VarDecl>())
      if (auto Up = parentsOf(*V, Ctx); !Up.empty())
        if (const Stmt *Declaration = Up[0].get<Stmt>())
          return Declaration;
    break;
  }
  return Read;
}

// The transformed two-level range site whose row bounds R reads, or null.
const Site *ownIndexRead(const std::vector<const Site *> &Range2Sites, const IndirectRead &R, const WriteSet &W,
                         ASTContext &Ctx) {
  for (const Site *Each : Range2Sites) {
    const Site &S = *Each;
    if (S.kernelArray(R.Array) != S.Offsets)
      continue;
    const Form *F = R.Index.get();
    if (F->K == Form::Op && F->Name == "+" && F->Ops.size() == 2 && F->Ops[1]->K == Form::Const)
      F = F->Ops[0].get();
    if (F->K != Form::Load || S.kernelArray(F->Array) != S.RowMap)
      continue;
    // In a called function, t is the parameter the kernel's thread index is
    // passed in. A linear index is the site's own only where it numbers the
    // threads as the site does.
    const Form &T = *F->Ops[0];
    const bool LinearSite = !S.ActiveExtents.empty();
    if ((T.K == Form::Thread && T.Linear == LinearSite &&
         (!LinearSite || sameThreadIndex(T.Source, S.ThreadIndex, W, Ctx))) ||
        (S.Callee && T.K == Form::Invariant && T.Var &&
         llvm::any_of(S.Callee->ThreadParams, [&](const ParmVarDecl *P) { return P == T.Var; })))
      return &S;
  }
  return nullptr;
}

// A read an indexed site may take, with what the site needs of it.
struct Candidate {
  const IndirectRead *R = nullptr;
  const LoopShape *Loop = nullptr; // the loop whose iterations it reads (null: a gather)
  std::vector<const LoopShape *> Inner; // loops in Loop whose variables it uses too, outermost first
  bool Ragged = false;             // Inner's one loop has bounds that follow Loop's variable
  std::vector<FormRef> Bounds;     // the loops' bounds
  std::vector<ArrayRef> Sources;   // arrays the index and the bounds read
  std::vector<const Expr *> Scalars;
  const Expr *Thread = nullptr;
  const Expr *Active = nullptr;    // a 1-D index: n, or null: the launch's threads
  bool Launch = false;             // numbers the launch's threads in every dimension (its position in it)
  std::vector<const Expr *> Extents; // a linear index: the guards' nx, ny (, nz); n is their product

  // The threads it numbers, as a key: candidates of one site share it.
  std::string threads(ASTContext &Ctx) const {
    if (Launch)
      return "launch";
    if (Extents.empty())
      return Active ? textOf(Active, Ctx) : "";
    std::string Key = "linear";
    for (const Expr *E : Extents)
      Key += " " + textOf(E, Ctx);
    return Key;
  }
};

class Analysis {
public:
  Analysis(KernelInfo &Info, const WriteSet &W, const std::vector<BoundChain> &Chains, ASTContext &Ctx)
      : Info(Info), W(W), Chains(Chains), Ctx(Ctx) {}

  // "" and C filled, or why R cannot be in an indexed site. A read in a
  // function the kernel calls is judged as the kernel's own are, through its
  // chain of calls, so that its reason names what stands in the way; one that
  // passes every check is still not taken (indexed sites are the kernel's).
  std::string candidate(const IndirectRead &R, Candidate &C) {
    C.R = &R;
    if (R.InLambda)
      return "it is in a lambda (reads there are reported, not rewritten)";
    if (!Info.RefusedBecause.empty())
      return Info.RefusedBecause;
    const std::string InCallee = "it is in " + quoted(R.In) +
                                 ", a function the kernel calls, where only range and gather sites are rewritten";
    if (R.In == Info.Kernel)
      return check(R, C, Place{R.In, W, nullptr});
    const BoundChain *B = chainTo(R.In);
    if (!B)
      return InCallee;
    if (std::string Why = check(R, C, Place{R.In, B->Writes, B}); !Why.empty())
      return Why;
    return B->RefusedBecause.empty() ? InCallee : B->RefusedBecause;
  }

private:
  // Why a called function's array reached through its object or a struct it
  // is given by reference is none the call binds to the kernel's, or "".
  std::string unboundMember(const Expr *Base, const Place &At) {
    const Expr *Root = strip(Base);
    while (const auto *M = dyn_cast<MemberExpr>(Root)) {
      if (isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
        return At.Chain->RefusedBecause; // a method: the function itself is in the way
      if (M->isArrow())
        return "";
      Root = strip(M->getBase());
    }
    const auto *DR = dyn_cast<DeclRefExpr>(Root);
    const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
    if (Root == strip(Base) || !P || P->getDeclContext() != At.In || !P->getType()->isReferenceType())
      return "";
    return "the array it reads ('" + textOf(Base, Ctx) + "') is in " + quoted(P) + ", a struct " + quoted(At.In) +
           " is given by reference (a called function's arrays are bound through pointers and structs passed "
           "by value)";
  }

  std::string untracedWhy(const Place &At) const {
    return "the kernel may write memory the analysis cannot name: " + At.W.untracedWhy();
  }

  // Why a read of memory the analysis cannot name (a parameter bound to no
  // kernel array, a pointer it does not follow) is not rewritten, given why
  // its shape is not followed (ShapeWhy): where the kernel may also store to
  // memory the analysis cannot name, that store may land in what the read
  // reads, and the read is not known to be safe whatever its shape.
  std::string unnamedWhy(std::string ShapeWhy, const Place &At) const {
    return At.W.hasUntracedWrite() ? untracedWhy(At) : ShapeWhy;
  }

  // Why a called function's read of A, which the chain binds to no kernel
  // array, is not rewritten: memory that is not device memory or that the
  // function writes, else a store the analysis cannot name, else the binding.
  std::string unboundReadWhy(const ArrayRef &A, const Place &At) {
    std::string Why = At.Chain->unboundWhy(A, W, Ctx);
    if (A.fields().empty() && At.Chain->Spaces.count(A.param()))
      return Why;
    if (At.W.writesThrough(A) || At.Chain->Writes.writesThrough(A))
      return Why;
    return unnamedWhy(Why, At);
  }

  // Why R, a read through a pointer into the function's array Into.Within at
  // an offset not followed, is not rewritten: what the array is bound to when
  // it is no kernel array, a hazard to it where there is one, else the offset.
  std::string withinWhy(const PointerInto &Into, const IndirectRead &R, const Place &At) {
    const ArrayRef &A = Into.Within;
    const OffsetBinding *O = At.Chain && A.fields().empty() ? At.Chain->offsetBinding(A) : nullptr;
    const ArrayRef Named = At.Chain ? At.Chain->kernelArray(A) : A;
    if (!Named && !O)
      return unboundReadWhy(A, At);
    if (!R.Plain)
      return "the element is written or its address is taken";
    if (At.W.hasUntracedWrite())
      return untracedWhy(At);
    if (O && (At.W.writesThrough(A) || W.writesThrough(O->Array)))
      return At.Chain->unboundWhy(A, W, Ctx);
    if (At.W.writesThrough(A))
      return WriteSet::writtenWhy(Named);
    return "it reads " + (O ? O->Array : Named).quoted() + " through '" + textOf(R.Mem.Base, Ctx) + "', " +
           Into.Why + ": a copy is read at offsets the launch can name";
  }

  const BoundChain *chainTo(const FunctionDecl *F) const {
    for (const BoundChain &B : Chains)
      if (B.Chain.callee() == F)
        return &B;
    return nullptr;
  }

  // Why the values the variable of L, a loop of no canonical shape, takes are
  // known only as the kernel runs, or "": its first value or one the loop
  // sets it to is read from shared memory or memory local to the thread
  // (which only the kernel's own stores fill, as the next item of a work
  // queue is), or from an array the kernel writes. Then no copy could be
  // laid out before the launch whatever the loop's shape.
  std::string loopValuesInKernel(const LoopShape &L, const std::vector<LoopShape> &Around, const Place &At) {
    const VarDecl *V = L.Var;
    if (!V || !V->isLocalVarDecl())
      return "";
    std::vector<std::pair<const Expr *, bool>> Values; // and whether the loop sets it (or it starts there)
    if (V->getInit())
      Values.push_back({V->getInit(), false});
    std::function<void(const Stmt *)> Sets = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && refToVar(BO->getLHS()) == V)
        Values.push_back({BO->getRHS(), true});
      for (const Stmt *Child : S->children())
        Sets(Child);
    };
    Sets(L.Loop);
    FormBuilder B(At.In, At.W, Ctx);
    std::vector<const VarDecl *> AroundVars;
    for (const LoopShape &O : Around)
      if (O.Var)
        AroundVars.push_back(O.Var);
    B.setLoopVars(AroundVars);
    // Where a part of a value is read from, when the launch cannot know it.
    auto knownInKernelOnly = [&](const Form &Part) -> std::string {
      if (Part.K == Form::Load && Part.Array)
        return At.W.writesThrough(Part.Array) ? Part.Array.quoted() + ", which the kernel writes" : "";
      if ((Part.K != Form::Load && Part.K != Form::Unknown) || !Part.Source)
        return "";
      const Expr *Base = Part.Source;
      MemoryRead M;
      if (asMemoryRead(Base, &M) && M.Base)
        Base = M.Base;
      else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(strip(Base)))
        Base = AS->getBase();
      else if (!isa<DeclRefExpr>(strip(Base)))
        return "";
      // A variable of the kernel's own (a __shared__ one, an array of the
      // thread's) is memory no launch can fill before the kernel runs.
      MemorySpace Space = MemorySpace::Device;
      if (const VarDecl *Own = refToVar(strip(Base)); Own && Own->hasAttr<CUDASharedAttr>())
        Space = MemorySpace::Shared;
      else if (Own && Own->isLocalVarDecl() && !Own->isStaticLocal() && Own->getType()->isArrayType())
        Space = MemorySpace::ThreadLocal;
      else if (Base->getType()->isPointerType())
        Space = pointerInto(Base, At.W, At.Chain ? &At.Chain->Spaces : nullptr).Space;
      if (Space == MemorySpace::Shared)
        return "shared memory ('" + textOf(Base, Ctx) + "'), which only the kernel's own stores fill";
      if (Space == MemorySpace::ThreadLocal)
        return "memory local to the thread ('" + textOf(Base, Ctx) + "'), which only the kernel's own stores fill";
      return "";
    };
    std::function<std::string(const Form &)> Find = [&](const Form &F) -> std::string {
      if (std::string From = knownInKernelOnly(F); !From.empty())
        return From;
      for (const FormRef &O : F.Ops)
        if (std::string From = Find(*O); !From.empty())
          return From;
      return "";
    };
    for (auto [E, InLoop] : Values)
      if (std::string From = Find(*B.of(E)); !From.empty())
        return "its index cannot be computed outside the kernel: it uses " + quoted(V) + ", the variable of a loop, " +
               (InLoop ? "which the loop sets to '" : "which starts at '") + textOf(E, Ctx) + "', read from " + From;
    return "";
  }

  // The variables of the loops in Around outside L, outermost first.
  static std::vector<const VarDecl *> varsAround(const LoopShape &L, const std::vector<LoopShape> &Around) {
    std::vector<const VarDecl *> Vars;
    for (const LoopShape &O : Around) {
      if (O.Loop == L.Loop)
        break;
      if (O.Var)
        Vars.push_back(O.Var);
    }
    return Vars;
  }

  // Why the iterations of L, a loop whose variable R's index uses, cannot be
  // numbered outside the kernel, or "": a canonical `for` of its own text,
  // its bounds known, of the thread alone (the same at every iteration of
  // the loops around it), their arrays unwritten.
  // Outer: the variable of the loop around L its bounds may use (a ragged nest).
  std::string loopProblem(const LoopShape &L, const std::vector<LoopShape> &Around, Candidate &C, const Place &At,
                          const VarDecl *Outer = nullptr) {
    if (!L.NotCanonical.empty() && !L.Step) {
      if (std::string Why = loopValuesInKernel(L, Around, At); !Why.empty())
        return Why;
      return "its index depends on the variable of a loop it cannot copy: " + L.NotCanonical;
    }
    if (!isa<ForStmt>(L.Loop) || isAnyMacro(L.Loop))
      return "its loop is written through a macro";
    FormBuilder B(At.In, At.W, Ctx);
    // The variables of the loops around L are theirs (a bound that uses one
    // is no bound of the thread alone), not locals the kernel changes.
    const std::vector<const VarDecl *> AroundVars = varsAround(L, Around);
    B.setLoopVars(AroundVars);
    if (L.Step) {
      // `k += s`: s positive for every thread of every launch, or the
      // iterations could not be counted (and the kernel's loop would not end).
      FormRef F = B.of(L.Step);
      if (!F->known() || !positiveStep(*F))
        return "its index depends on the variable of a loop it cannot copy: its loop steps " + quoted(L.Var) +
               " by '" + textOf(L.Step, Ctx) +
               "', which is not known to be positive (strided loops are copied when they step by a positive "
               "constant or by the launch's dimensions)";
      C.Bounds.push_back(F);
    }
    for (const Expr *Bound : {L.First, L.End}) {
      FormRef F = B.of(Bound);
      if (!F->known())
        return "the bounds of its loop cannot be computed outside the kernel: " + F->unknownWhy();
      std::set<const VarDecl *> BoundVars;
      F->loopVars(BoundVars);
      BoundVars.erase(Outer);
      if (!BoundVars.empty()) {
        // The outermost of them, by name.
        const VarDecl *Named = *BoundVars.begin();
        for (const VarDecl *V : llvm::reverse(AroundVars))
          if (BoundVars.count(V))
            Named = V;
        return "the bounds of its loop depend on " + quoted(Named) +
               ", the variable of a loop around it (a loop is copied where its bounds are the same at every "
               "iteration of the loops around it, or follow the variable of the one loop right around it, which "
               "runs it at its every iteration)";
      }
      if (std::string Why = loadsProblem(*F, At, W, Ctx, C.Sources); !Why.empty())
        return Why;
      if (std::string Why = keyScalars(*F, At, W, C.Scalars, Ctx); !Why.empty())
        return Why;
      if (!C.Thread)
        C.Thread = threadExpr(*F, At);
      C.Bounds.push_back(F);
    }
    return "";
  }

  // The loop around L whose variable alone L's bounds use, when the nest of
  // the two can be numbered one iteration after the other: the index uses
  // no other loop's variable, and L runs at every iteration of the loop
  // around it (a statement of its body with no jump before it), so that
  // the kernel counts the iterations as the index kernels lay them out.
  // Null otherwise.
  const LoopShape *raggedParent(const LoopShape &L, const std::vector<const LoopShape *> &Used,
                                const std::vector<LoopShape> &Around, const Place &At) {
    if (Used.size() > 2 || !L.Var || !isa<ForStmt>(L.Loop))
      return nullptr;
    const LoopShape *Parent = nullptr;
    for (const LoopShape &O : Around) {
      if (O.Loop == L.Loop)
        break;
      Parent = &O;
    }
    if (!Parent || !Parent->Var || !isa<ForStmt>(Parent->Loop) || (Used.size() == 2 && Used.front() != Parent))
      return nullptr;
    FormBuilder B(At.In, At.W, Ctx);
    B.setLoopVars(varsAround(L, Around));
    std::set<const VarDecl *> BoundVars;
    for (const Expr *Bound : {L.First, L.End})
      if (Bound)
        B.of(Bound)->loopVars(BoundVars);
    if (BoundVars.size() != 1 || *BoundVars.begin() != Parent->Var)
      return nullptr;
    // No jump into or out of the parent's body before L, L a statement of it.
    std::function<bool(const Stmt *)> Jumps = [&](const Stmt *S) {
      if (!S)
        return false;
      if (isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
          isa<LabelStmt>(S))
        return true;
      return llvm::any_of(S->children(), Jumps);
    };
    const Stmt *Body = cast<ForStmt>(Parent->Loop)->getBody();
    if (Body == L.Loop)
      return Parent;
    const auto *CS = dyn_cast<CompoundStmt>(Body);
    if (!CS)
      return nullptr;
    for (const Stmt *S : CS->body()) {
      if (S == L.Loop)
        return llvm::none_of(CS->body(), [&](const Stmt *X) { return isa<LabelStmt>(X) || isa<GotoStmt>(X); })
                   ? Parent
                   : nullptr;
      if (Jumps(S))
        return nullptr;
    }
    return nullptr;
  }

  std::string check(const IndirectRead &R, Candidate &C, const Place &At) {
    const WriteSet &RW = At.W;
    // Which memory it reads first: memory that is not device memory, or that
    // the launch cannot name, is in the way whatever the read does with it.
    if (MemorySpace Space = pointerInto(R.Mem.Base, RW, At.Chain ? &At.Chain->Spaces : nullptr).Space;
        Space != MemorySpace::Device)
      return readOfSpace(Space, textOf(R.Mem.Base, Ctx));
    if (!R.Array && At.Chain)
      if (std::string Why = unboundMember(R.Mem.Base, At); !Why.empty())
        return unnamedWhy(Why, At);
    if (!R.Array) {
      if (std::string Why = pointeeMemberWhy(R.Mem.Base, At, Ctx); !Why.empty())
        return unnamedWhy(Why, At);
      // A pointer that holds several values (a parameter the function steps,
      // a local assigned later, either of two pointers), all into one array:
      // a read of that array at an offset the function computes.
      const PointerInto Into = pointerInto(R.Mem.Base, RW, At.Chain ? &At.Chain->Spaces : nullptr);
      if (Into.Within)
        return withinWhy(Into, R, At);
      // Memory the analysis cannot name that the function stores to through
      // the same pointer: a copy made before the launch would be stale.
      if (const VarDecl *V = refToVar(strip(R.Mem.Base)); V && V->getType()->isPointerType())
        if (const Stmt *Store = storeThrough(V))
          return "the memory it reads through " + quoted(V) + " is written in the kernel: " + quoted(At.In) +
                 " stores through it ('" + spelledText(Store, Ctx, 48) + "')";
      // A pointer parameter the function sets: which memory it reads is the
      // function's own computation.
      if (const auto *DR = dyn_cast<DeclRefExpr>(strip(R.Mem.Base)))
        if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()); P && RW.writesScalar(P))
          return unnamedWhy("the array it reads (" + quoted(P) + ") is a parameter " + quoted(At.In) +
                                " assigns (reads through it are not followed)",
                            At);
      return unnamedWhy("the array it reads ('" + textOf(R.Mem.Base, Ctx) +
                            "') is not a parameter or a pointer field of a struct parameter",
                        At);
    }
    // A called function's parameter given a kernel array at an offset: its
    // reads are that array's, judged as such; the offset is checked last.
    const OffsetBinding *Offset = At.Chain ? At.Chain->offsetBinding(R.Array) : nullptr;
    if (At.Chain && !At.Chain->kernelArray(R.Array) && !Offset)
      return unboundReadWhy(R.Array, At);
    if (!R.Plain)
      return "the element is written or its address is taken";
    if (RW.hasUntracedWrite())
      return untracedWhy(At);
    if (Offset && (RW.writesThrough(R.Array) || W.writesThrough(Offset->Array)))
      return At.Chain->unboundWhy(R.Array, W, Ctx);
    if (RW.writesThrough(R.Array))
      return WriteSet::writtenWhy(R.Array);
    QualType Elem = R.Array.elementType();
    if (Elem.isVolatileQualified() || Elem->isIncompleteType())
      return R.Array.quoted() + " has a volatile or incomplete element type";
    if (!R.Index->known())
      return unknownIndex(*R.Index, At, Info.Kernel, W, Ctx);
    if (std::string Why = loadsProblem(*R.Index, At, W, Ctx, C.Sources); !Why.empty())
      return Why;
    if (std::string Why = keyScalars(*R.Index, At, W, C.Scalars, Ctx); !Why.empty())
      return Why;
    if (Offset)
      if (std::string Why = offsetProblem(R.Array, *Offset, *At.Chain); !Why.empty())
        return Why;

    std::set<const VarDecl *> Vars;
    R.Index->loopVars(Vars);
    C.Thread = threadExpr(*R.Index, At);
    if (!Vars.empty()) {
      // The loops whose variables it uses, outermost first: the site copies
      // over the iterations of their nest.
      std::vector<const LoopShape *> Used;
      for (const LoopShape &L : R.Loops)
        if (L.Var && Vars.count(L.Var))
          Used.push_back(&L);
      for (const VarDecl *V : Vars)
        if (llvm::none_of(Used, [&](const LoopShape *L) { return L->Var == V; }))
          return "its index depends on " + quoted(V) + ", the variable of no loop around it";
      if (Used.size() != Vars.size())
        return "its index depends on a variable that two loops around it step";
      // A ragged nest: the innermost loop's bounds follow the variable of
      // the loop around it, which the site then copies over too.
      const LoopShape *Parent = raggedParent(*Used.back(), Used, R.Loops, At);
      if (Parent) {
        Candidate Try = C;
        if (loopProblem(*Parent, R.Loops, Try, At).empty() &&
            loopProblem(*Used.back(), R.Loops, Try, At, Parent->Var).empty()) {
          C = Try;
          C.Loop = Parent;
          C.Inner = {Used.back()};
          C.Ragged = true;
        } else {
          Parent = nullptr;
        }
      }
      if (!Parent) {
        for (const LoopShape *L : Used)
          if (std::string Why = loopProblem(*L, R.Loops, C, At); !Why.empty())
            return Why;
        C.Loop = Used.front();
        C.Inner.assign(Used.begin() + 1, Used.end());
      }
    }
    std::vector<const Form *> Threads, Places;
    threadForms(*R.Index, Threads);
    R.Index->positions(Places);
    for (const FormRef &F : C.Bounds) {
      threadForms(*F, Threads);
      F->positions(Places);
    }
    const bool Placed = llvm::any_of(Places, [](const Form *P) { return !P->Shape; });
    if (!C.Thread && !Placed && !Offset) // an offset the kernel computes may be the thread's
      return "its index does not depend on the thread (every thread reads the same element)";
    if (C.Sources.size() > 16)
      return "its index reads more than 16 arrays";
    if (!Places.empty()) {
      if (std::string Why = launchNumberingWhy(Places, Threads, At, W, Ctx); !Why.empty())
        return Why;
      C.Launch = true;
      return "";
    }
    if (std::string Why = mixedNumbering(Threads, RW, Ctx); !Why.empty()) {
      // Numbered as the launch is, a site's copies take any mix of them.
      if (!launchNumberingWhy(Places, Threads, At, W, Ctx).empty())
        return Why;
      C.Launch = true;
      return "";
    }
    if (!Threads.empty() && Threads.front()->Linear) {
      // Its copies are laid out in t = i + nx * j: each index guarded, j
      // stepping by exactly nx, so that t numbers the guarded threads one to
      // one and n = nx * ny of them; or j stepping by a row pitch at least
      // the x bound, n = pitch * ny, the positions past the bound computed
      // (with checked loads) but read by no thread.
      if (At.Chain)
        return "its index is a linear thread index of 2-D or 3-D ones in a function the kernel calls";
      const Stmt *Anchor = C.Loop ? C.Loop->Loop : runsAt(R.Mem.Read, Ctx);
      ActiveThreadCount N = countActiveThreads(C.Thread, Anchor, Ctx, W, /*AcceptPitch=*/true);
      if (!N.RefusedBecause.empty())
        return N.RefusedBecause;
      C.Extents = N.Extents;
      return "";
    }
    if (At.Chain) { // the guard holds where the kernel makes the call
      const CallExpr *Call = At.Chain->Chain.Calls.front();
      C.Active = findActiveThreads(Call, Ctx, W);
      if (!C.Active)
        return "no guard 'if (t < n)' or 'if (t >= n) return' bounds the thread index where the kernel calls " +
               quoted(At.Chain->Chain.Functions.front());
    } else {
      const Stmt *Anchor = C.Loop ? C.Loop->Loop : static_cast<const Stmt *>(R.Mem.Read);
      C.Active = findActiveThreads(Anchor, Ctx, W);
    }
    if (C.Active && !isGuardBoundEvaluable(C.Active, W))
      return "the guard bound is not computable from the kernel's arguments";
    return "";
  }

  // Why the offset at which a called function's parameter points into a
  // kernel array cannot be computed before the launch, or "".
  std::string offsetProblem(const ArrayRef &Param, const OffsetBinding &O, const BoundChain &B) {
    if (!O.NotFollowed.empty()) // somewhere in the array: no offset to compute
      return B.unboundWhy(Param, W, Ctx);
    const std::string Given = Param.quoted() + " of " + quoted(B.Chain.callee()) + " is given '" +
                              textOf(B.argumentFor(Param.param()), Ctx) + "'";
    if (!O.InKernel)
      return "its index cannot be computed outside the kernel: " + Given +
             ", an offset a function between the kernel and it adds";
    FormBuilder InKernel(Info.Kernel, W, Ctx);
    std::vector<const VarDecl *> LoopVars; // of the loops around the call, outermost first
    for (const Stmt *S = parentStmt(B.Chain.Calls.front(), Ctx); S; S = parentStmt(S, Ctx))
      if (isa<ForStmt>(S) || isa<WhileStmt>(S))
        if (const VarDecl *V = loopShape(S).Var)
          LoopVars.insert(LoopVars.begin(), V);
    InKernel.setLoopVars(LoopVars);
    for (const Expr *E : O.Offsets)
      if (FormRef F = InKernel.of(E); !F->known())
        return "its index cannot be computed outside the kernel: " + Given + ": " + F->unknownWhy();
    return "";
  }

public:
  void addSite(std::vector<Candidate> Group) {
    Site S;
    const Candidate &First = Group.front();
    S.Pattern = kPatternIndexed;
    S.Kernel = Info.Kernel;
    S.Loc = First.Loop ? First.Loop->Loop->getBeginLoc() : First.R->Mem.Read->getBeginLoc();
    S.ThreadIndex = First.Thread;
    S.ActiveThreads = First.Active;
    S.ActiveExtents = First.Extents;
    S.LaunchNumbered = First.Launch;
    S.LaunchThreads = !First.Active && First.Extents.empty() && !First.Launch;
    if (First.Loop) {
      S.IndexedLoop = *First.Loop;
      S.Loop = dyn_cast<ForStmt>(First.Loop->Loop);
      S.LoopVar = First.Loop->Var;
      for (const LoopShape *L : First.Inner)
        S.IndexedInnerLoops.push_back(*L);
      S.IndexedRagged = First.Ragged;
    }
    std::map<std::pair<ArrayRef, std::string>, size_t> Copy; // (array, index form) -> position
    for (const Candidate &C : Group) {
      auto Key = std::make_pair(C.R->Array, C.R->Index->str());
      auto [It, New] = Copy.try_emplace(Key, S.Arrays.size());
      if (New) {
        S.Arrays.push_back(SiteArray{C.R->Array, {}, false, "", {}});
        S.Indices.push_back({C.R->Mem.Index, C.R->Index, C.R->Offsets, C.R->Mem.Rows});
      }
      S.Arrays[It->second].Reads.push_back(elementOf(C.R->Mem));
      for (const ArrayRef &A : C.Sources)
        if (std::find(S.IndexSources.begin(), S.IndexSources.end(), A) == S.IndexSources.end())
          S.IndexSources.push_back(A);
      for (const Expr *E : C.Scalars)
        if (llvm::none_of(S.KeyScalars, [&](const Expr *X) { return textOf(X, Ctx) == textOf(E, Ctx); }))
          S.KeyScalars.push_back(E);
    }
    // Every array the launch's copies depend on, against every pointer the kernel writes.
    std::vector<ArrayRef> Sources = S.IndexSources;
    for (const SiteArray &A : S.Arrays)
      if (std::find(Sources.begin(), Sources.end(), A.Array) == Sources.end())
        Sources.push_back(A.Array);
    addAliasChecks(S, Sources, W);
    Info.Sites.push_back(std::move(S));
  }

private:
  KernelInfo &Info;
  const WriteSet &W;
  const std::vector<BoundChain> &Chains;
  ASTContext &Ctx;
};

} // namespace

void addIndexedSites(KernelInfo &Info, const std::vector<IndirectRead> &Reads, const WriteSet &W,
                     const std::vector<BoundChain> &Chains, ASTContext &Ctx) {
  // Which pattern site holds each subscript, and which loops a transformed
  // pattern site rewrites.
  std::map<const Expr *, size_t> Holder;
  std::map<const Stmt *, size_t> RewrittenLoop;
  for (size_t I = 0; I < Info.Sites.size(); ++I) {
    const Site &S = Info.Sites[I];
    for (const SiteArray &A : S.Arrays)
      for (const Expr *R : A.Reads)
        Holder[R->IgnoreParens()] = I;
    if (S.transformable() && S.Loop)
      RewrittenLoop[S.Loop] = I;
  }

  const SourceManager &SM = Ctx.getSourceManager();
  // Reads of transformed pattern sites: a read inside one (B[C[t]] of
  // A[B[C[t]]]) is gone from the transformed kernel with it.
  std::vector<const Expr *> PatternReads;
  std::vector<const Site *> PatternReadSites;
  std::vector<const Site *> Range2Sites; // transformed two-level ranges: their row bounds are theirs
  for (const Site &S : Info.Sites)
    if (S.transformable()) {
      for (const SiteArray *A : S.remappedArrays())
        for (const Expr *R : A->Reads) {
          PatternReads.push_back(R);
          PatternReadSites.push_back(&S);
        }
      if (S.Pattern == kPatternRange2)
        Range2Sites.push_back(&S);
    }
  const EnclosingRanges InPatternRead(PatternReads, SM);

  Analysis A(Info, W, Chains, Ctx);
  std::vector<ReadVerdict> Verdicts(Reads.size());
  std::vector<Candidate> Gathers;
  // Loop sites by the loops whose iterations they copy over, outermost first.
  using LoopNest = std::vector<const Stmt *>;
  std::map<LoopNest, std::vector<Candidate>> ByLoop;
  std::vector<LoopNest> LoopOrder;
  std::set<size_t> Superseded; // refused pattern sites whose reads an indexed site may take
  for (size_t I = 0; I < Reads.size(); ++I) {
    checkAnalysisBudget();
    const IndirectRead &R = Reads[I];
    ReadVerdict &V = Verdicts[I];
    V.Read = R.Mem.Read;
    V.Array = R.Array ? R.Array.spelling() : textOf(R.Mem.Base, Ctx);
    V.Offsets = R.Offsets;
    V.Shape = shapeOf(R);
    if (R.In != Info.Kernel)
      V.In = R.In->getNameAsString();
    // The row bounds a transformed two-level range reads (B[C[t]], B[C[t] + 1]):
    // its remap reads them; they are that site's own index.
    if (const Site *Own = ownIndexRead(Range2Sites, R, W, Ctx)) {
      V.Verdict = ReadVerdict::Rewritten;
      V.Pattern = Own->Pattern;
      V.Reason = "the " + std::string(pattern_name(Own->Pattern)) + " site's own row bounds, read by its remap";
      continue;
    }
    if (const int P = InPatternRead.firstEnclosing(R.Mem.Read); P >= 0) {
      V.Verdict = ReadVerdict::Rewritten;
      V.Pattern = PatternReadSites[P]->Pattern;
      V.Reason = "it is inside a read the " + V.shape() + " site copies";
      continue;
    }
    auto H = Holder.find(subscriptOf(R.Mem));
    if (H != Holder.end()) {
      const Site &S = Info.Sites[H->second];
      V.Pattern = S.Pattern;
      if (S.transformable()) {
        const ArrayRef Read = S.kernelArray(R.Array);
        bool Remapped = llvm::any_of(S.remappedArrays(), [&](const SiteArray *SA) { return SA->Array == Read; });
        V.Verdict = Remapped ? ReadVerdict::Rewritten : ReadVerdict::NotRewritten;
        if (!Remapped)
          for (const SiteArray &SA : S.Arrays)
            if (SA.Array == Read)
              V.Reason = SA.RefusedBecause;
        continue;
      }
      V.Reason = S.RefusedBecause;
      // A called function's site refused for this array alone: its reason.
      if (S.Callee && V.Reason.empty())
        for (const SiteArray &SA : S.Arrays)
          if (SA.Array == S.kernelArray(R.Array) || SA.Array == R.Array) // an array left unbound: the function's
            V.Reason = SA.RefusedBecause;
    }
    // Inside a loop a transformed pattern site rewrites: read in place (its
    // index may come from that site's copy).
    const Site *InLoop = nullptr;
    for (const LoopShape &L : R.Loops)
      if (auto It = RewrittenLoop.find(L.Loop); It != RewrittenLoop.end())
        InLoop = &Info.Sites[It->second];
    if (InLoop) {
      std::vector<const Form *> Loads;
      R.Index->loads(Loads);
      bool FromCopy = llvm::any_of(Loads, [&](const Form *L) {
        const ArrayRef Loaded = InLoop->kernelArray(L->Array);
        return llvm::any_of(InLoop->remappedArrays(), [&](const SiteArray *SA) { return SA->Array == Loaded; });
      });
      V.Verdict = FromCopy ? ReadVerdict::IndexRemapped : ReadVerdict::NotRewritten;
      V.Reason = FromCopy ? "its index comes from a coalesced copy; " + V.Array + " itself is read in place"
                          : "it is in a loop a " + std::string(pattern_name(InLoop->Pattern)) + " site rewrites";
      continue;
    }
    Candidate C;
    std::string Why = A.candidate(R, C);
    if (!Why.empty()) {
      if (V.Reason.empty())
        V.Reason = Why;
      continue;
    }
    if (C.Loop) {
      LoopNest Nest{C.Loop->Loop};
      for (const LoopShape *L : C.Inner)
        Nest.push_back(L->Loop);
      auto [It, New] = ByLoop.try_emplace(Nest);
      // One site a loop, its copies in one numbering of the threads.
      if (!New && It->second.front().threads(Ctx) != C.threads(Ctx)) {
        if (V.Reason.empty())
          V.Reason = "its loop's other reads number the threads differently (a site's copies are laid out in "
                     "one numbering of the threads)";
        continue;
      }
      if (New)
        LoopOrder.push_back(Nest);
      It->second.push_back(C);
    } else {
      Gathers.push_back(C);
    }
    if (H != Holder.end())
      Superseded.insert(H->second);
    V.Verdict = ReadVerdict::Rewritten;
    V.Pattern = kPatternIndexed;
    V.Reason.clear();
  }
  // A read inside another taken read (eta[adj[off[e]]]: adj's read) is gone
  // once the outer one reads its copy: it needs none, and no pattern site
  // keeps a read there either.
  std::vector<const Expr *> Taken;
  for (const Candidate &C : Gathers)
    Taken.push_back(C.R->Mem.Read);
  for (auto &[L, Cs] : ByLoop)
    for (const Candidate &C : Cs)
      Taken.push_back(C.R->Mem.Read);
  const EnclosingRanges InTaken(Taken, SM);
  auto Covered = [&](const Expr *E) { return InTaken.anyEncloses(E); };
  auto Prune = [&](std::vector<Candidate> &Cs) {
    Cs.erase(std::remove_if(Cs.begin(), Cs.end(), [&](const Candidate &C) { return Covered(C.R->Mem.Read); }),
             Cs.end());
  };
  Prune(Gathers);
  for (auto &[L, Cs] : ByLoop)
    Prune(Cs);
  for (ReadVerdict &V : Verdicts)
    if (Covered(V.Read)) {
      V.Verdict = ReadVerdict::Rewritten;
      V.Pattern = kPatternIndexed;
      V.Reason = "it is inside a read an indexed site copies";
    }
  std::set<SourceLocation::UIntTy> TakenBegins;
  for (const Expr *T : Taken)
    TakenBegins.insert(T->getBeginLoc().getRawEncoding());
  for (size_t I = 0; I < Info.Sites.size(); ++I) {
    Site &S = Info.Sites[I];
    bool Had = false, Left = false;
    for (SiteArray &A : S.Arrays) {
      Had |= !A.Reads.empty();
      A.Reads.erase(std::remove_if(A.Reads.begin(), A.Reads.end(), Covered), A.Reads.end());
      Left |= !A.Reads.empty();
    }
    if (Had && !Left)
      Superseded.insert(I);
    // A refused pattern site over the loop or the read an indexed site takes.
    auto LoopTaken = [&](const Stmt *L) {
      return llvm::any_of(ByLoop, [&](const auto &Site) { return llvm::is_contained(Site.first, L); });
    };
    if (!S.transformable() && !Taken.empty() &&
        ((S.Loop && LoopTaken(S.Loop)) || TakenBegins.count(S.Loc.getRawEncoding())))
      Superseded.insert(I);
  }
  // A refused pattern site some of whose reads an indexed site takes goes:
  // the indexed site reads them now. (Its other reads keep its reason.)
  if (!Superseded.empty()) {
    std::vector<Site> Kept;
    for (size_t I = 0; I < Info.Sites.size(); ++I)
      if (!Superseded.count(I))
        Kept.push_back(std::move(Info.Sites[I]));
    Info.Sites = std::move(Kept);
  }
  // One gather site for the reads of the same active threads; one site a loop.
  std::map<std::string, std::vector<Candidate>> ByThreads;
  std::vector<std::string> ThreadsOrder;
  for (Candidate &C : Gathers) {
    std::string Key = C.threads(Ctx);
    auto [It, New] = ByThreads.try_emplace(Key);
    if (New)
      ThreadsOrder.push_back(Key);
    It->second.push_back(C);
  }
  for (const std::string &K : ThreadsOrder)
    if (!ByThreads[K].empty())
      A.addSite(std::move(ByThreads[K]));
  for (const LoopNest &L : LoopOrder)
    if (!ByLoop[L].empty())
      A.addSite(std::move(ByLoop[L]));
  Info.Reads = std::move(Verdicts);
}

} // namespace irregfix
