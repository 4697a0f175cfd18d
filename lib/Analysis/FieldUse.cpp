#include "Analysis/FieldUse.h"
#include "Analysis/AstUtil.h"
#include "Analysis/Parents.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace irregfix {

namespace {

// E's parent, above any parentheses around E.
const Stmt *parentOf(const Stmt *E, ASTContext &Ctx, const Decl **AsDecl = nullptr) {
  const Stmt *Cur = E;
  while (true) {
    DynTypedNodeList Parents = parentsOf(*Cur, Ctx);
    if (Parents.size() != 1)
      return nullptr;
    if (const auto *P = Parents[0].get<ParenExpr>()) {
      Cur = P;
      continue;
    }
    if (AsDecl)
      *AsDecl = Parents[0].get<Decl>();
    return Parents[0].get<Stmt>();
  }
}

bool readAsValue(const Expr *E, ASTContext &Ctx) {
  const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(parentOf(E, Ctx));
  return Cast && Cast->getCastKind() == CK_LValueToRValue;
}

// Why the field a member expression names cannot live in a piece, or "".
std::string unsplittableField(const MemberExpr *ME, ASTContext &Ctx) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD)
    return "its member '" + ME->getMemberDecl()->getNameAsString() + "' is not a field";
  const std::string Name = "field '" + FD->getNameAsString() + "'";
  QualType T = FD->getType().getCanonicalType();
  if (T->isRecordType())
    return Name + " is a nested structure";
  if (T->isArrayType())
    return Name + " is an array";
  const auto *BT = dyn_cast<BuiltinType>(T.getTypePtr());
  const uint64_t Bytes = Ctx.getTypeSize(T) / 8;
  if (!BT || !(BT->isInteger() || BT->isFloatingPoint()) || BT->isBooleanType() || (Bytes != 4 && Bytes != 8))
    return Name + " is not a 4- or 8-byte scalar";
  if (T.isVolatileQualified())
    return Name + " is volatile";
  if (!readAsValue(ME, Ctx))
    return Name + " is used other than read as a value";
  return "";
}

class FieldUseAnalysis {
public:
  FieldUseAnalysis(const KernelInfo &Info, ASTContext &Ctx) : Info(Info), Ctx(Ctx) {}

  void analyze(const Site &S, const SiteArray &A, FieldSplit &F) {
    QualType Element = A.Array.elementType().getCanonicalType();
    const auto *RT = Element->getAs<RecordType>();
    if (!RT)
      return;
    const RecordDecl *RD = RT->getDecl()->getDefinition();
    if (!RD || Ctx.getSourceManager().isInSystemHeader(RD->getLocation()))
      return; // CUDA's float4 and the like: vector loads already
    F.ElementSize = static_cast<unsigned>(Ctx.getTypeSizeInChars(Element).getQuantity());
    auto Whole = [&](const std::string &Why) {
      F.Pieces.clear();
      F.FieldReads.clear();
      F.LocalReads.clear();
      F.WholeBecause = Why;
    };
    const std::string Type = quoted(RD);
    if (S.Pattern != kPatternGather && S.Pattern != kPatternNeighbors)
      return Whole("field pieces are built for gather and neighbour-list sites only");
    if (Info.Template || Info.Kernel->isTemplateInstantiation())
      return Whole("kernel templates keep whole elements");
    if (RD->isUnion())
      return Whole(Type + " is a union");
    if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD)) {
      if (CRD->getNumBases() || CRD->getNumVBases())
        return Whole(Type + " has base classes");
      if (!CRD->isTriviallyCopyable())
        return Whole(Type + " is not trivially copyable");
      if (!CRD->isAggregate() && !CRD->hasTrivialDefaultConstructor())
        return Whole(Type + " has no trivial default constructor");
    }
    for (const FieldDecl *FD : RD->fields())
      if (FD->isBitField())
        return Whole(Type + " has bit-fields");

    std::vector<const FieldDecl *> Read;
    auto Note = [&](const FieldDecl *FD) {
      if (!llvm::is_contained(Read, FD))
        Read.push_back(FD);
    };
    for (const Expr *R : A.Reads) {
      if (!isa<ArraySubscriptExpr>(R->IgnoreParens()))
        return Whole("an element is read through a call (__ldg)");
      const Decl *InDecl = nullptr;
      const Stmt *Up = parentOf(R, Ctx, &InDecl);
      if (const auto *ME = dyn_cast_or_null<MemberExpr>(Up); ME && !ME->isArrow()) {
        if (std::string Why = unsplittableField(ME, Ctx); !Why.empty())
          return Whole(Why);
        F.FieldReads.push_back(ME);
        Note(cast<FieldDecl>(ME->getMemberDecl()));
        continue;
      }
      const VarDecl *Local = initialisedLocal(R, Up, InDecl);
      if (!Local)
        return Whole("an element is read whole");
      if (std::string Why = localFields(Local, RT, Note); !Why.empty())
        return Whole(Why);
      F.LocalReads.push_back({R, Local});
    }
    if (Read.empty())
      return Whole("no field is read");

    const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
    std::vector<PieceField> Fields;
    for (const FieldDecl *FD : Read)
      Fields.push_back({FD, static_cast<unsigned>(Layout.getFieldOffset(FD->getFieldIndex()) / 8),
                        static_cast<unsigned>(Ctx.getTypeSize(FD->getType()) / 8), 0});
    std::vector<FieldPiece> Pieces = groupIntoPieces(std::move(Fields));
    unsigned Bytes = 0;
    for (const FieldPiece &P : Pieces)
      Bytes += P.Size;
    if (Pieces.size() > kMaxPieces)
      return Whole("its fields would take more than " + std::to_string(kMaxPieces) + " pieces");
    if (Bytes >= F.ElementSize)
      return Whole("its pieces would take as many bytes as the element (" + std::to_string(F.ElementSize) + ")");
    F.Pieces = std::move(Pieces);
  }

private:
  // `T v = A[..]` (through the trivial copy constructor in C++): v, a local
  // of the element's own type; or null.
  const VarDecl *initialisedLocal(const Expr *Read, const Stmt *Up, const Decl *InDecl) {
    const Stmt *Init = Read;
    while (Up && (isa<ImplicitCastExpr>(Up) || isa<CXXConstructExpr>(Up) || isa<ExprWithCleanups>(Up))) {
      if (const auto *CE = dyn_cast<CXXConstructExpr>(Up); CE && (CE->getNumArgs() != 1 ||
                                                                   !CE->getConstructor()->isCopyOrMoveConstructor()))
        return nullptr;
      if (const auto *IC = dyn_cast<ImplicitCastExpr>(Up);
          IC && IC->getCastKind() != CK_NoOp && IC->getCastKind() != CK_LValueToRValue)
        return nullptr;
      Init = Up;
      Up = parentOf(Up, Ctx, &InDecl);
    }
    const auto *V = dyn_cast_or_null<VarDecl>(Up ? nullptr : InDecl);
    if (!V || !V->isLocalVarDecl() || V->isStaticLocal() || V->getInit() != Init)
      return nullptr;
    QualType T = V->getType();
    if (T->isReferenceType() || T.isVolatileQualified() ||
        !Ctx.hasSameUnqualifiedType(T, QualType(Read->getType()->getCanonicalTypeUnqualified())))
      return nullptr;
    return V;
  }

  // Every use of the local is `v.f` read as a value: notes those fields; else why not.
  template <class NoteField>
  std::string localFields(const VarDecl *V, const RecordType *RT, NoteField Note) {
    const std::string Name = "the local '" + V->getNameAsString() + "'";
    std::string Why;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
      if (!St || !Why.empty())
        return;
      if (const auto *DR = dyn_cast<DeclRefExpr>(St); DR && DR->getDecl() == V) {
        const auto *ME = dyn_cast_or_null<MemberExpr>(parentOf(DR, Ctx));
        if (!ME || ME->isArrow() || ME->getBase()->IgnoreParens() != DR)
          Why = Name + " is used whole";
        else if (std::string Field = unsplittableField(ME, Ctx); !Field.empty())
          Why = Name + ": " + Field;
        else if (cast<FieldDecl>(ME->getMemberDecl())->getParent() != RT->getDecl()->getDefinition())
          Why = Name + " is used whole";
        else
          Note(cast<FieldDecl>(ME->getMemberDecl()));
        return;
      }
      for (const Stmt *C : St->children())
        Walk(C);
    };
    Walk(Info.Kernel->getBody());
    return Why;
  }

  const KernelInfo &Info;
  ASTContext &Ctx;
};

} // namespace

std::vector<FieldPiece> groupIntoPieces(std::vector<PieceField> Fields) {
  std::stable_sort(Fields.begin(), Fields.end(),
                   [](const PieceField &A, const PieceField &B) { return A.Offset < B.Offset; });
  std::vector<FieldPiece> Pieces;
  unsigned Used = 0;
  auto Close = [&] {
    if (!Pieces.empty())
      Pieces.back().Size = Used <= 4 ? 4 : Used <= 8 ? 8 : 16;
  };
  for (PieceField F : Fields) {
    unsigned At = (Used + F.Size - 1) / F.Size * F.Size;
    if (Pieces.empty() || At + F.Size > 16) {
      Close();
      Pieces.emplace_back();
      At = 0;
    }
    F.PieceOffset = At;
    Pieces.back().Fields.push_back(F);
    Used = At + F.Size;
  }
  Close();
  return Pieces;
}

std::vector<std::vector<FieldSplit>> analyzeFieldUse(const KernelInfo &Info, ASTContext &Ctx) {
  FieldUseAnalysis Analysis(Info, Ctx);
  std::vector<std::vector<FieldSplit>> Splits;
  for (const Site &S : Info.Sites) {
    Splits.emplace_back(S.Arrays.size());
    if (!S.RefusedBecause.empty())
      continue;
    for (size_t J = 0; J < S.Arrays.size(); ++J)
      if (S.Arrays[J].RefusedBecause.empty() && !S.Arrays[J].OtherUse)
        Analysis.analyze(S, S.Arrays[J], Splits.back()[J]);
  }
  return Splits;
}

} // namespace irregfix
