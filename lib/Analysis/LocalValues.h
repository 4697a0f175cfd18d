// The value a local variable of a kernel holds where it is used, when the
// kernel gives it one: its initialiser; the one assignment it gets (`int nb;
// ... nb = list[j * n + i];`); or one assignment in each branch of an if
// (`if (c) end = row[t + 1]; else end = m;`, the value `c ? row[t + 1] : m`).
// Index forms follow locals through it, and the indexed strategy's generated
// kernels compute the same value from it.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <string>
#include <vector>

namespace irregfix {

struct LocalValue {
  enum Kind {
    None,   // no value the analysis can name: Why says why
    Single, // Value (the initialiser, or the one assignment's right-hand side)
    Select, // Cond ? Then : Else (one assignment in each branch of an if)
  } K = None;
  const clang::Expr *Value = nullptr;
  const clang::Expr *Cond = nullptr, *Then = nullptr, *Else = nullptr;
  std::string Why;
};

class LocalValues {
public:
  explicit LocalValues(const clang::FunctionDecl *F);

  // V's value where `Use` (an expression of F) reads it.
  LocalValue at(const clang::VarDecl *V, const clang::Expr *Use, clang::ASTContext &Ctx) const;

  // Every value V is given: its initialiser and the right-hand sides of its assignments.
  std::vector<const clang::Expr *> definitions(const clang::VarDecl *V) const;

private:
  struct Writes {
    std::vector<const clang::BinaryOperator *> Assignments; // V = e
    bool Other = false; // ++V, V += e, &V, a reference bound to V
  };
  std::map<const clang::VarDecl *, Writes> Of;
};

} // namespace irregfix
