// A RecursiveASTVisitor that walks only the code that may run: it skips the
// operands the compiler never evaluates (sizeof, alignof, noexcept(...),
// decltype, typeof, typeid of a value that is not of a polymorphic class, a
// requires-expression) and the constant expressions it evaluates itself
// (template arguments, case labels, array bounds, static_assert, a
// noexcept-specifier's condition, if constexpr's). A call there never runs:
// the host's collectors must neither bracket it (a bracket inside
// noexcept(...) would change its answer, and a type whose move was noexcept
// would be copied by the containers holding it) nor count it in a summary.
#pragma once

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ExprConcepts.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace irregfix {

template <class Derived> class RunTimeCodeVisitor : public clang::RecursiveASTVisitor<Derived> {
  using Base = clang::RecursiveASTVisitor<Derived>;

public:
  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr *E) {
    // sizeof of a variable-length array's type evaluates its bound.
    const bool Runs = E->isArgumentType() && E->getArgumentType()->isVariablyModifiedType();
    return Runs ? Base::TraverseUnaryExprOrTypeTraitExpr(E) : true;
  }
  bool TraverseCXXNoexceptExpr(clang::CXXNoexceptExpr *) { return true; }
  bool TraverseCXXTypeidExpr(clang::CXXTypeidExpr *E) {
    return E->isPotentiallyEvaluated() ? Base::TraverseCXXTypeidExpr(E) : true;
  }
  bool TraverseRequiresExpr(clang::RequiresExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(clang::DecltypeTypeLoc) { return true; }
  bool TraverseTypeOfExprTypeLoc(clang::TypeOfExprTypeLoc) { return true; }
  bool TraverseConstantExpr(clang::ConstantExpr *) { return true; }
  bool TraverseTemplateArgumentLoc(const clang::TemplateArgumentLoc &) { return true; }
  bool TraverseStaticAssertDecl(clang::StaticAssertDecl *) { return true; }
};

} // namespace irregfix
