// An array a kernel reads or writes, named the way its launch can name it too:
// a pointer parameter (`A`), or a pointer field of a by-value struct parameter
// (`g.offsets`, `g.csr.col`). Compared by identity, not by spelling.
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

  explicit operator bool() const { return Param != nullptr; }
  const clang::ParmVarDecl *param() const { return Param; }
  bool isField() const { return !Fields.empty(); }
  const llvm::SmallVector<const clang::FieldDecl *, 2> &fields() const { return Fields; }

  // The pointer (or array) type of the parameter or the innermost field.
  clang::QualType type() const { return Fields.empty() ? Param->getType() : Fields.back()->getType(); }
  clang::QualType elementType() const {
    clang::QualType T = type();
    return T->isPointerType() ? T->getPointeeType() : T->castAsArrayTypeUnsafe()->getElementType();
  }
  bool isRestrict() const { return type().isRestrictQualified(); }

  // As the kernel and the launcher spell it: `A`, `g.offsets`.
  std::string spelling() const {
    std::string S = Param->getNameAsString();
    for (const clang::FieldDecl *F : Fields)
      S += "." + F->getNameAsString();
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
    return ArrayRef(F->getParamDecl(Param->getFunctionScopeIndex()), Fields);
  }

  friend bool operator==(const ArrayRef &A, const ArrayRef &B) {
    return A.Param == B.Param && A.Fields == B.Fields;
  }
  friend bool operator!=(const ArrayRef &A, const ArrayRef &B) { return !(A == B); }
  friend bool operator<(const ArrayRef &A, const ArrayRef &B) {
    return std::tie(A.Param, A.Fields) < std::tie(B.Param, B.Fields);
  }

private:
  const clang::ParmVarDecl *Param = nullptr;
  llvm::SmallVector<const clang::FieldDecl *, 2> Fields;
};

} // namespace irregfix
