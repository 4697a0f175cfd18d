#include "Transform/LaunchSpelling.h"

using namespace clang;

namespace irregfix {

std::string launchSpelling(const ArrayRef &A, const ASTContext &Ctx) {
  if (!A.isPointeeMember())
    return A.spelling();
  const PrintingPolicy &Policy = Ctx.getPrintingPolicy();
  // The struct as the parameter's type spells it (a typedef kept), and the
  // element with the qualifiers of both the struct and the member.
  const QualType Struct = A.param()->getType()->getPointeeType();
  QualType Element = A.elementType();
  if (Struct.isConstQualified())
    Element.addConst();
  const std::string Char = Struct.isConstQualified() ? "const char *" : "char *";
  return "reinterpret_cast<" + Ctx.getPointerType(Element).getAsString(Policy) + ">(reinterpret_cast<" + Char +
         ">(" + A.param()->getNameAsString() + ") + __builtin_offsetof(" +
         Struct.getUnqualifiedType().getAsString(Policy) + ", " + A.fields().front()->getNameAsString() + "))";
}

std::string firstElementSpelling(const ArrayRef &A) {
  std::string S = A.spelling();
  if (!A.isMultiDimensional())
    return S;
  for (QualType T = A.type(); T->isArrayType(); T = T->castAsArrayTypeUnsafe()->getElementType())
    S += "[0]";
  return "&" + S;
}

} // namespace irregfix
