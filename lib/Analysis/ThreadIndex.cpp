#include "Analysis/ThreadIndex.h"
#include "Analysis/ActiveThreads.h"
#include "Analysis/LocalValues.h"
#include "Analysis/PerContext.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace irregfix {

// threadIdx.x is a MSProperty reference in Clang's CUDA headers; a plain member
// of a struct variable in simple stubs. Accept both.
BuiltinIndexRead builtinIndexRead(const Expr *E) {
  E = strip(E);
  const Expr *Base = nullptr;
  StringRef Member;
  if (const auto *PR = dyn_cast<PseudoObjectExpr>(E))
    E = strip(PR->getSyntacticForm());
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(E)) {
    Base = MP->getBaseExpr();
    Member = MP->getPropertyDecl()->getName();
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    Base = ME->getBase();
    Member = ME->getMemberDecl()->getName();
  } else {
    return {};
  }
  const auto *DR = dyn_cast<DeclRefExpr>(strip(Base));
  if (!DR)
    return {};
  return {DR->getDecl()->getName(), Member};
}

bool isBuiltinIndexRead(const Expr *E, const char *Var, char Field) {
  const BuiltinIndexRead R = builtinIndexRead(E);
  return !R.Var.empty() && (!Field || R.Field == StringRef(&Field, 1)) && R.Var == Var;
}

bool isAnyBuiltinIndexRead(const Expr *E) {
  const BuiltinIndexRead R = builtinIndexRead(E);
  return (R.Field == "x" || R.Field == "y" || R.Field == "z") &&
         (R.Var == "threadIdx" || R.Var == "blockIdx" || R.Var == "blockDim" || R.Var == "gridDim");
}

const Expr *throughUnchangedLocals(const Expr *E, const FunctionLocals &Locals) {
  for (int Depth = 0; E && Depth < 4; ++Depth) {
    const auto *DR = dyn_cast<DeclRefExpr>(strip(E));
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!V || !V->isLocalVarDecl() || !V->getType()->isIntegerType() || !V->hasInit())
      break;
    // Modified: assigned, ++/--, address taken, bound to or passed by a non-const reference.
    if (Locals.modified(V))
      break;
    E = V->getInit();
  }
  return E;
}

// As isBuiltinIndexRead, also through a local that holds the read: `int bx =
// blockIdx.x;` never written after.
static bool isBuiltinIndexValue(const Expr *E, const char *Var, char Field, const FunctionLocals &Locals) {
  return isBuiltinIndexRead(throughUnchangedLocals(E, Locals), Var, Field);
}

static bool isProduct(const Expr *E, const char *A, const char *B, const FunctionLocals &Locals,
                      char Field = 'x') {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Mul)
    return false;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  return (isBuiltinIndexValue(L, A, Field, Locals) && isBuiltinIndexValue(R, B, Field, Locals)) ||
         (isBuiltinIndexValue(L, B, Field, Locals) && isBuiltinIndexValue(R, A, Field, Locals));
}

// blockIdx.x * C (or C * blockIdx.x) with C an integer literal: the block size
// the kernel assumes (its launches are checked against it); 0 when E is not.
static unsigned constantBlockOffset(const Expr *E, const FunctionLocals &Locals) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Mul)
    return 0;
  for (auto [X, C] : {std::pair(BO->getLHS(), BO->getRHS()), std::pair(BO->getRHS(), BO->getLHS())})
    if (const auto *IL = dyn_cast<IntegerLiteral>(strip(C)); IL && IL->getValue().ule(1024) && IL->getValue() != 0)
      if (isBuiltinIndexValue(X, "blockIdx", 'x', Locals))
        return static_cast<unsigned>(IL->getValue().getZExtValue());
  return 0;
}

unsigned threadIndexBlockSize(const Expr *E, const FunctionLocals &Locals) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Add)
    return 0;
  // The offset first: a product with a literal is rare, following locals to
  // threadIdx.x is not cheap.
  if (unsigned C = constantBlockOffset(BO->getLHS(), Locals);
      C && isBuiltinIndexValue(BO->getRHS(), "threadIdx", 'x', Locals))
    return C;
  if (unsigned C = constantBlockOffset(BO->getRHS(), Locals);
      C && isBuiltinIndexValue(BO->getLHS(), "threadIdx", 'x', Locals))
    return C;
  return 0;
}

bool isGlobalThreadIndexArithmetic(const Expr *E, const FunctionLocals &Locals) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Add)
    return false;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  auto IsBlockOffset = [&](const Expr *X) { return isProduct(X, "blockIdx", "blockDim", Locals); };
  return (IsBlockOffset(L) && isBuiltinIndexValue(R, "threadIdx", 'x', Locals)) ||
         (IsBlockOffset(R) && isBuiltinIndexValue(L, "threadIdx", 'x', Locals)) ||
         threadIndexBlockSize(E, Locals) != 0;
}

bool isGlobalThreadIndex(const Expr *E, const WriteSet &Writes) {
  if (narrowsBelowInt(E)) // (unsigned char)t, short i = t: not every thread's own index
    return false;
  E = strip(E);
  if (isGlobalThreadIndexArithmetic(E, Writes.locals()))
    return true;
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  if (!DR)
    return false;
  // A callee's parameter bound to the caller's thread index (WriteSet::throughCall).
  if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
    return Writes.holdsThreadIndex(P) && !Writes.writesScalar(P);
  const auto *V = dyn_cast<VarDecl>(DR->getDecl());
  if (!V || !V->isLocalVarDecl() || !V->getType()->isIntegerType() || !V->hasInit() ||
      Writes.writesScalar(V))
    return false;
  // A grid-stride loop variable stands for one index in [0, n) per iteration.
  return Writes.gridStrideLoop(V) || isGlobalThreadIndex(V->getInit(), Writes);
}

// blockIdx.D * blockDim.D + threadIdx.D, in any operand order.
static bool isDimensionArithmetic(const Expr *E, char D, const FunctionLocals &Locals) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Add)
    return false;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  auto IsBlockOffset = [&](const Expr *X) { return isProduct(X, "blockIdx", "blockDim", Locals, D); };
  return (IsBlockOffset(L) && isBuiltinIndexValue(R, "threadIdx", D, Locals)) ||
         (IsBlockOffset(R) && isBuiltinIndexValue(L, "threadIdx", D, Locals));
}

// The integer local E names, when it is initialised and the kernel never writes it.
static const VarDecl *unwrittenLocal(const Expr *E, const WriteSet &Writes) {
  const auto *DR = dyn_cast<DeclRefExpr>(strip(E));
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDecl() || !V->getType()->isIntegerType() || !V->hasInit() || Writes.writesScalar(V))
    return nullptr;
  return V;
}

bool isDimensionThreadIndex(const Expr *E, char D, const WriteSet &Writes) {
  if (D == 'x')
    return isGlobalThreadIndex(E, Writes);
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    if (isDimensionArithmetic(E, D, Writes.locals()))
      return true;
    const VarDecl *V = unwrittenLocal(E, Writes);
    E = V ? V->getInit() : nullptr;
  }
  return false;
}

std::vector<const Expr *> productFactors(const Expr *E, const WriteSet &Writes) {
  for (int Depth = 0; Depth < 8; ++Depth) {
    const VarDecl *V = unwrittenLocal(E, Writes);
    if (!V)
      break;
    E = V->getInit();
  }
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Mul)
    return {strip(E)};
  std::vector<const Expr *> Out = productFactors(BO->getLHS(), Writes);
  for (const Expr *F : productFactors(BO->getRHS(), Writes))
    Out.push_back(F);
  return Out;
}

bool sameFactors(const std::vector<const Expr *> &A, const std::vector<const Expr *> &B, const ASTContext &Ctx) {
  if (A.size() != B.size())
    return false;
  std::vector<bool> Used(B.size(), false);
  for (const Expr *X : A) {
    bool Found = false;
    for (size_t I = 0; I < B.size() && !Found; ++I)
      if (!Used[I] && sameExpression(X, B[I], Ctx))
        Used[I] = Found = true;
    if (!Found)
      return false;
  }
  return true;
}

namespace {

// Splits a linear index into its dimensions' terms: sums split, a product
// with a stride passes the stride down to the terms beneath it.
bool collectTerms(const Expr *E, const std::vector<const Expr *> &Stride, LinearThreadIndex &Out,
                  const WriteSet &Writes, int Depth) {
  if (!E || Depth > 16)
    return false;
  E = strip(E);
  for (unsigned D = 0; D < 3; ++D)
    if (isDimensionThreadIndex(E, "xyz"[D], Writes)) {
      if (Out.Dims[D].Index) // a dimension twice: not a numbering of the threads
        return false;
      Out.Dims[D] = {E, Stride};
      return true;
    }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Add)
      return collectTerms(BO->getLHS(), Stride, Out, Writes, Depth + 1) &&
             collectTerms(BO->getRHS(), Stride, Out, Writes, Depth + 1);
    if (BO->getOpcode() == BO_Mul)
      for (auto [Inner, Factor] : {std::pair(BO->getLHS(), BO->getRHS()), std::pair(BO->getRHS(), BO->getLHS())}) {
        std::vector<const Expr *> Factors = productFactors(Factor, Writes);
        if (!llvm::all_of(Factors, [&](const Expr *F) { return isLaunchEvaluable(F, Writes); }))
          continue;
        std::vector<const Expr *> Inside = Stride;
        Inside.insert(Inside.end(), Factors.begin(), Factors.end());
        return collectTerms(Inner, Inside, Out, Writes, Depth + 1);
      }
    return false;
  }
  if (const VarDecl *V = unwrittenLocal(E, Writes))
    return collectTerms(V->getInit(), Stride, Out, Writes, Depth + 1);
  return false;
}

} // namespace

std::optional<LinearThreadIndex> asLinearThreadIndex(const Expr *E, const WriteSet &Writes) {
  LinearThreadIndex L;
  if (isGlobalThreadIndex(E, Writes) || !collectTerms(E, {}, L, Writes, 0) || L.dimensions() < 2)
    return std::nullopt;
  return L;
}

bool isThreadIndex(const Expr *E, const WriteSet &Writes) {
  return isGlobalThreadIndex(E, Writes) || asLinearThreadIndex(E, Writes).has_value();
}

bool sameThreadIndex(const Expr *A, const Expr *B, const WriteSet &Writes, const ASTContext &Ctx) {
  if (isGlobalThreadIndex(A, Writes) && isGlobalThreadIndex(B, Writes))
    return true;
  auto LA = asLinearThreadIndex(A, Writes), LB = asLinearThreadIndex(B, Writes);
  if (!LA || !LB)
    return false;
  for (unsigned D = 0; D < 3; ++D)
    if ((LA->Dims[D].Index == nullptr) != (LB->Dims[D].Index == nullptr) ||
        !sameFactors(LA->Dims[D].Stride, LB->Dims[D].Stride, Ctx))
      return false;
  return true;
}

bool isGlobalThreadIndexPlusOne(const Expr *E, const WriteSet &Writes) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Add)
    return false;
  auto IsOne = [](const Expr *X) {
    const auto *IL = dyn_cast<IntegerLiteral>(strip(X));
    return IL && IL->getValue() == 1;
  };
  return (isGlobalThreadIndex(BO->getLHS(), Writes) && IsOne(BO->getRHS())) ||
         (IsOne(BO->getLHS()) && isGlobalThreadIndex(BO->getRHS(), Writes));
}

} // namespace irregfix

namespace irregfix {

namespace {

// Whether each function read so far reads the y or z field of threadIdx or
// blockIdx, by function.
struct OtherDimensionReaders {
  llvm::DenseMap<const FunctionDecl *, bool> Of;
};

// Whether S reads the y or z field of threadIdx or blockIdx. A read is a
// member or property expression, or an opaque value standing for one (whose
// source is no child of it): only those are asked, not every expression.
bool readsYOrZ(const Stmt *S) {
  if (!isa<MemberExpr, MSPropertyRefExpr, OpaqueValueExpr>(S))
    return false;
  const BuiltinIndexRead R = builtinIndexRead(cast<Expr>(S));
  return (R.Var == "threadIdx" || R.Var == "blockIdx") && (R.Field == "y" || R.Field == "z");
}

} // namespace

unsigned kernelBlockSize(const FunctionDecl *Kernel, const FunctionLocals &Locals) {
  unsigned Size = 0;
  bool OtherDimensions = false; // found on the way, for readsOtherDimensions
  // Only the sums themselves: a cast or parentheses around one gives the same size.
  llvm::SmallVector<const Stmt *, 64> Work{Kernel->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Add) {
      if (unsigned C = threadIndexBlockSize(BO, Locals))
        Size = Size == 0 || Size == C ? C : ~0u;
    } else if (!OtherDimensions) {
      OtherDimensions = readsYOrZ(S);
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  if (Kernel->getBody())
    PerContext<OtherDimensionReaders>::of(Kernel->getASTContext()).Of.try_emplace(Kernel, OtherDimensions);
  return Size;
}

bool readsOtherDimensions(const FunctionDecl *F) {
  auto &Known = PerContext<OtherDimensionReaders>::of(F->getASTContext()).Of;
  if (auto It = Known.find(F); It != Known.end())
    return It->second;
  bool Reads = false;
  llvm::SmallVector<const Stmt *, 64> Work{F->getBody()};
  while (!Work.empty() && !Reads) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    Reads = readsYOrZ(S);
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  Known.try_emplace(F, Reads);
  return Reads;
}

} // namespace irregfix
