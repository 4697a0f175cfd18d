#include "Analysis/AstUtil.h"
#include "Analysis/Parents.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace irregfix {

const Expr *strip(const Expr *E) {
  // IgnoreParenCasts strips to its own fixed point: look again only past a
  // temporary or an opaque value.
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MT->getSubExpr();
    else if (const auto *OV = dyn_cast<OpaqueValueExpr>(E); OV && OV->getSourceExpr())
      E = OV->getSourceExpr();
    else
      break;
  }
  return E;
}

static bool narrowerThanInt(QualType T) {
  const auto *BT = T->getAs<BuiltinType>();
  if (!BT)
    return false;
  switch (BT->getKind()) {
  case BuiltinType::Bool:
  case BuiltinType::Char_U:
  case BuiltinType::UChar:
  case BuiltinType::Char_S:
  case BuiltinType::SChar:
  case BuiltinType::Char8:
  case BuiltinType::Short:
  case BuiltinType::UShort:
  case BuiltinType::Char16:
    return true;
  default:
    return false;
  }
}

bool narrowsBelowInt(const Expr *E) {
  for (const Expr *Stripped = strip(E); E && E != Stripped;) {
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      const CastKind K = C->getCastKind();
      if ((K == CK_IntegralCast || K == CK_IntegralToBoolean) && narrowerThanInt(C->getType()) &&
          !narrowerThanInt(C->getSubExpr()->getType()))
        return true;
      E = C->getSubExpr();
    } else if (const auto *P = dyn_cast<ParenExpr>(E)) {
      E = P->getSubExpr();
    } else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MT->getSubExpr();
    } else if (const auto *OV = dyn_cast<OpaqueValueExpr>(E); OV && OV->getSourceExpr()) {
      E = OV->getSourceExpr();
    } else if (const auto *F = dyn_cast<FullExpr>(E)) {
      E = F->getSubExpr();
    } else {
      break;
    }
  }
  return false;
}

std::string quoted(const NamedDecl *D) { return "'" + D->getNameAsString() + "'"; }

const VarDecl *refToVar(const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(strip(E));
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

bool isIntLiteral(const Expr *E, uint64_t V) {
  const auto *IL = dyn_cast<IntegerLiteral>(strip(E));
  return IL && IL->getValue() == V;
}

bool sameExpression(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  if (!A || !B)
    return A == B;
  llvm::FoldingSetNodeID IdA, IdB;
  strip(A)->Profile(IdA, Ctx, /*Canonical=*/true);
  strip(B)->Profile(IdB, Ctx, /*Canonical=*/true);
  return IdA == IdB;
}

// __ldg(&P[e]) reads P[e].
const Expr *throughLdg(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(strip(E));
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  if (!F || !F->getIdentifier() || F->getName() != "__ldg" || Call->getNumArgs() != 1)
    return E;
  const auto *Addr = dyn_cast<UnaryOperator>(strip(Call->getArg(0)));
  return Addr && Addr->getOpcode() == UO_AddrOf ? Addr->getSubExpr() : E;
}

const Stmt *parentStmt(const Stmt *S, ASTContext &Ctx) {
  auto Parents = parentsOf(*S, Ctx);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

const Stmt *enclosingStmt(const Stmt *S, ASTContext &Ctx) {
  const Stmt *P = parentStmt(S, Ctx);
  while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P)))
    P = parentStmt(P, Ctx);
  return P;
}

// True when the subscript's value is only read: not stored to, its address not
// taken — except by __ldg(&A[k]), which reads the element too.
bool isPlainRead(const ArraySubscriptExpr *AS, ASTContext &Ctx) {
  const Stmt *Cur = AS;
  for (int Depth = 0; Depth < 8; ++Depth) {
    auto Parents = parentsOf(*Cur, Ctx);
    if (Parents.empty())
      return false;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() == CK_LValueToRValue)
        return true;
      if (IC->getCastKind() != CK_NoOp) // NoOp: adds const on the way to a const T&
        return false;
      Cur = P;
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(P); Call && !isa<CUDAKernelCallExpr>(Call)) {
      // Bound to a `const T &` parameter (a class type's operator= or a device function).
      const FunctionDecl *F = Call->getDirectCallee();
      if (!F)
        return false;
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        if (Call->getArg(I) != Cur)
          continue;
        unsigned Param = I;
        if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(F)) {
          if (I == 0)
            return false; // the object an operator is called on
          Param = I - 1;
        }
        if (Param >= F->getNumParams())
          return false;
        QualType T = F->getParamDecl(Param)->getType();
        return T->isReferenceType() && T->getPointeeType().isConstQualified();
      }
      return false;
    }
    if (isa<ParenExpr>(P)) {
      Cur = P;
      continue;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(P); CO && Cur != CO->getCond()) {
      Cur = P; // c ? x : A[k], an lvalue that is read (or not) further up
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P); ME && !ME->isArrow()) {
      Cur = P; // A[k].field
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) // struct copied whole
      return CE->getConstructor()->isCopyOrMoveConstructor() &&
             CE->getConstructor()->getParamDecl(0)->getType()->getPointeeType().isConstQualified();
    if (const auto *UO = dyn_cast<UnaryOperator>(P); UO && UO->getOpcode() == UO_AddrOf) {
      auto GP = parentsOf(*UO, Ctx);
      const Stmt *G = GP.empty() ? nullptr : GP[0].get<Stmt>();
      while (isa_and_nonnull<ImplicitCastExpr>(G) || isa_and_nonnull<ParenExpr>(G)) {
        GP = parentsOf(*G, Ctx);
        G = GP.empty() ? nullptr : GP[0].get<Stmt>();
      }
      const auto *Call = dyn_cast_or_null<CallExpr>(G);
      const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
      return F && F->getIdentifier() && F->getName() == "__ldg";
    }
    return false;
  }
  return false;
}

bool isAnyMacro(const Stmt *S) { return S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID(); }


size_t countRefs(const VarDecl *V, const Stmt *St) {
  if (!St)
    return 0;
  size_t N = 0;
  if (const auto *DR = dyn_cast<DeclRefExpr>(St); DR && DR->getDecl() == V)
    ++N;
  for (const Stmt *C : St->children())
    N += countRefs(V, C);
  return N;
}

void refsTo(const VarDecl *V, const Stmt *St, std::vector<const DeclRefExpr *> &Out) {
  if (!St)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(St); DR && DR->getDecl() == V)
    Out.push_back(DR);
  for (const Stmt *C : St->children())
    refsTo(V, C, Out);
}

static void countAllRefs(const Stmt *St, llvm::DenseMap<const ValueDecl *, size_t> &Out) {
  if (!St)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(St))
    ++Out[DR->getDecl()];
  for (const Stmt *C : St->children())
    countAllRefs(C, Out);
}

llvm::DenseMap<const ValueDecl *, size_t> countAllRefs(const Stmt *St) {
  llvm::DenseMap<const ValueDecl *, size_t> Out;
  countAllRefs(St, Out);
  return Out;
}

bool writtenInside(const VarDecl *V, const Stmt *St) {
  if (!St)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(St); BO && BO->isAssignmentOp() && refToVar(BO->getLHS()) == V)
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(St))
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) && refToVar(UO->getSubExpr()) == V)
      return true;
  for (const Stmt *C : St->children())
    if (writtenInside(V, C))
      return true;
  return false;
}

const VarDecl *lvalueVariable(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow()) {
      E = M->getBase();
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E); A && A->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
      E = A->getBase();
      continue;
    }
    break;
  }
  const auto *R = dyn_cast<DeclRefExpr>(E);
  return R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
}

const Expr *writtenLvalue(const Stmt *S) {
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    return B->getLHS();
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
    return U->getSubExpr();
  // Class types (float4 among them) assign through operator=, += through operator+=.
  if (const auto *O = dyn_cast<CXXOperatorCallExpr>(S); O && O->isAssignmentOp() && O->getNumArgs() > 0)
    return O->getArg(0);
  return nullptr;
}

std::vector<const Expr *> callArguments(const CallExpr *C, const FunctionDecl *F) {
  std::vector<const Expr *> Args(C->arg_begin(), C->arg_end());
  if (isa<CXXOperatorCallExpr>(C) && isa_and_nonnull<CXXMethodDecl>(F) && !Args.empty())
    Args.erase(Args.begin());
  return Args;
}

std::string spelledText(const Stmt *S, const ASTContext &Ctx, size_t Max) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(SM.getExpansionRange(S->getSourceRange()).getAsRange());
  std::string T = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  return Max && T.size() > Max ? T.substr(0, Max - 3) + "..." : T;
}

} // namespace irregfix
