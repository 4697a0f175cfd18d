// An array a kernel reads or writes, named the way its launch can name it too:
// a pointer parameter (`A`), a pointer field of a by-value struct parameter
// (`g.offsets`, `g.csr.col`), or a one-dimensional array member of the struct
// a pointer parameter points to (`tab->perm`: its address is the pointer plus
// the member's offset, no load), or a member of several dimensions
// (`tab->rows`, `int rows[16][8]`), seen as the flat array of its 128 scalars
// that `tab->rows[a][b]` reads at a * 8 + b. Compared by identity, not by
// spelling.
#pragma once

#include "clang/AST/Decl.h"

#include "llvm/ADT/SmallVector.h"

#include <string>
#include <tuple>

namespace irregfix {

class ArrayRef {
public:
  ArrayRef() = default;
  explicit ArrayRef(const clang::ParmVarDecl *P) : Param(P) {}
  ArrayRef(const clang::ParmVarDecl *P, llvm::SmallVector<const clang::FieldDecl *, 2> Fields)
      : Param(P), Fields(std::move(Fields)) {}
  // `P->F`: the array member F of the struct pointer parameter P points to.
  static ArrayRef memberOfPointee(const clang::ParmVarDecl *P, const clang::FieldDecl *F) {
    ArrayRef A(P, {F});
    A.Pointee = true;
    return A;
  }

  explicit operator bool() const { return Param != nullptr; }
  const clang::ParmVarDecl *param() const { return Param; }
  bool isField() const { return !Fields.empty(); }
  // An array inside the struct the parameter points to (`tab->perm`), not
  // pointer memory of its own: written whenever that struct is.
  bool isPointeeMember() const { return Pointee; }
  // The struct a pointee member lies in, as the array the parameter is (`tab`).
  ArrayRef holder() const { return ArrayRef(Param); }
  const llvm::SmallVector<const clang::FieldDecl *, 2> &fields() const { return Fields; }

  // The pointer (or array) type of the parameter or the innermost field.
  clang::QualType type() const { return Fields.empty() ? Param->getType() : Fields.back()->getType(); }
  // The element a copy holds: a pointee member's scalar, through all its dimensions.
  clang::QualType elementType() const {
    clang::QualType T = type();
    if (T->isPointerType())
      return T->getPointeeType();
    T = T->castAsArrayTypeUnsafe()->getElementType();
    while (Pointee && T->isArrayType())
      T = T->castAsArrayTypeUnsafe()->getElementType();
    return T;
  }
  // A pointee member of several dimensions: only a subscript of each of them
  // reads one of its elements (`tab->rows[a]` is a row, no element).
  bool isMultiDimensional() const {
    return Pointee && type()->isArrayType() && type()->castAsArrayTypeUnsafe()->getElementType()->isArrayType();
  }
  bool isRestrict() const { return type().isRestrictQualified(); }

  // As the kernel spells it: `A`, `g.offsets`, `tab->perm`. The launcher
  // spells a pointee member without naming *tab (Transform/ArraySpelling.h).
  std::string spelling() const {
    std::string S = Param->getNameAsString();
    for (const clang::FieldDecl *F : Fields)
      S += (Pointee && F == Fields.front() ? "->" : ".") + F->getNameAsString();
    return S;
  }
  // For generated names: `A`, `g_offsets`.
  std::string identifier() const {
    std::string S = Param->getNameAsString();
    for (const clang::FieldDecl *F : Fields)
      S += "_" + F->getNameAsString();
    return S;
  }
  std::string quoted() const { return "'" + spelling() + "'"; }

  // The same array seen from another declaration of the function (the template
  // an instantiation comes from): the parameter at the same position.
  ArrayRef in(const clang::FunctionDecl *F) const {
    ArrayRef A(F->getParamDecl(Param->getFunctionScopeIndex()), Fields);
    A.Pointee = Pointee;
    return A;
  }

  friend bool operator==(const ArrayRef &A, const ArrayRef &B) {
    return A.Param == B.Param && A.Pointee == B.Pointee && A.Fields == B.Fields;
  }
  friend bool operator!=(const ArrayRef &A, const ArrayRef &B) { return !(A == B); }
  friend bool operator<(const ArrayRef &A, const ArrayRef &B) {
    return std::tie(A.Param, A.Pointee, A.Fields) < std::tie(B.Param, B.Pointee, B.Fields);
  }

private:
  const clang::ParmVarDecl *Param = nullptr;
  bool Pointee = false; // the first field is reached through the parameter (`->`)
  llvm::SmallVector<const clang::FieldDecl *, 2> Fields;
};

} // namespace irregfix
