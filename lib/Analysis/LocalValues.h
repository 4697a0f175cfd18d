// The value a local variable of a kernel holds where it is used, when the
// kernel gives it one: its initialiser; the one assignment it gets (`int nb;
// ... nb = list[j * n + i];`); or one assignment in each branch of an if
// (`if (c) end = row[t + 1]; else end = m;`, the value `c ? row[t + 1] : m`);
// or, for a local assigned in the block that declares it, a sequence of
// assignments there and of one-armed ifs that assign it once (`row = e;
// if (c) row = f;`: after the if, `c ? f : e`).
// Index forms follow locals through it, and the indexed strategy's generated
// kernels compute the same value from it.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <climits>
#include <map>
#include <memory>
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
  // Set instead of Else: the value is the variable's just before this statement
  // (a one-armed if that assigns it).
  const clang::Stmt *ElseBefore = nullptr;
  std::string Why;
};

class LocalValues {
public:
  explicit LocalValues(const clang::FunctionDecl *F);

  // V's value where `Use` (an expression of F, or a statement: just before it) reads it.
  LocalValue at(const clang::VarDecl *V, const clang::Stmt *Use, clang::ASTContext &Ctx) const;

  // Whether F changes V after its declaration (assigns it, increments it, takes its address...).
  bool modified(const clang::VarDecl *V) const { return Of.count(V) != 0; }
  // How F changes V, as the end of "a local that ...": "is assigned again",
  // "is stepped, or its address or a reference to it is taken"; "" when it does not.
  std::string howChanged(const clang::VarDecl *V) const;

  // Every value V is given: its initialiser and the right-hand sides of its assignments.
  std::vector<const clang::Expr *> definitions(const clang::VarDecl *V) const;

private:
  LocalValue inSequence(const clang::VarDecl *V, const clang::Stmt *Use, clang::ASTContext &Ctx) const;

  struct Writes {
    std::vector<const clang::BinaryOperator *> Assignments; // V = e
    bool Other = false; // ++V, V += e, &V, a reference bound to V
  };
  std::map<const clang::VarDecl *, Writes> Of;

  // A local's assignments as statements of the block that declares it, found
  // once per local (inSequence is asked at every use).
  struct Sequence {
    const clang::CompoundStmt *Block = nullptr; // null: not a sequence there
    struct Def {
      int At; // the position of Top in Block
      const clang::BinaryOperator *A;
      const clang::Stmt *Top; // A itself, or the one-armed if around it
    };
    std::vector<Def> Defs; // by position
    int FirstRepeatedAt = INT_MAX; // the first position that holds two assignments
  };
  const Sequence &sequenceOf(const clang::VarDecl *V, clang::ASTContext &Ctx) const;
  int positionIn(const clang::Stmt *S, const clang::CompoundStmt *Block) const;
  mutable std::map<const clang::VarDecl *, Sequence> Sequences;
  mutable std::map<const clang::CompoundStmt *, std::map<const clang::Stmt *, int>> Positions;
};

// The LocalValues of each function asked about, each built once: the analyses
// of a kernel ask about the same locals at every use, and building them walks
// the whole function.
class FunctionLocals {
public:
  const LocalValues &of(const clang::FunctionDecl *F) const;
  // Whether V's function changes V after its declaration (true when the
  // function, or its body, is not known).
  bool modified(const clang::VarDecl *V) const;
  // LocalValues::howChanged for V's function ("is in no function body" when
  // that is not known).
  std::string howChanged(const clang::VarDecl *V) const;

private:
  mutable std::map<const clang::FunctionDecl *, std::unique_ptr<LocalValues>> Known;
};

} // namespace irregfix
