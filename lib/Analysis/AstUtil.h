// Small questions about the AST that every analysis asks: what an expression
// is beneath its casts, which variable it names, whether a subscript is only
// read, where a variable is used or written.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace irregfix {

// Strips parentheses and all casts (and temporaries' wrappers).
const clang::Expr *strip(const clang::Expr *E);
// Whether an integer conversion on the way from E to strip(E) goes to a type
// narrower than int (char, short, bool): one that changes a thread's or an
// element's index once there are more threads or elements than it holds, so
// what strip() returns is not E's value.
bool narrowsBelowInt(const clang::Expr *E);

// 'name', for messages.
std::string quoted(const clang::NamedDecl *D);

// S as the file spells it (macros as written at their use), for messages;
// cut to Max characters with "..." when Max is not 0.
std::string spelledText(const clang::Stmt *S, const clang::ASTContext &Ctx, size_t Max = 0);

// The variable E names (beneath casts), or null.
const clang::VarDecl *refToVar(const clang::Expr *E);

// Whether E is the integer literal V (beneath casts).
bool isIntLiteral(const clang::Expr *E, uint64_t V);

// Whether two expressions are the same computation (the same tree over the
// same declarations, casts and parentheses around them aside).
bool sameExpression(const clang::Expr *A, const clang::Expr *B, const clang::ASTContext &Ctx);

// __ldg(&P[e]) → P[e]; anything else as it is.
const clang::Expr *throughLdg(const clang::Expr *E);

// True when the subscript's value is only read: not stored to, its address not
// taken — except by __ldg(&A[k]), which reads the element too.
bool isPlainRead(const clang::ArraySubscriptExpr *AS, clang::ASTContext &Ctx);

// The statement or expression S is a child of (its first parent), or null.
const clang::Stmt *parentStmt(const clang::Stmt *S, clang::ASTContext &Ctx);
// The same above any parentheses and implicit casts around S.
const clang::Stmt *enclosingStmt(const clang::Stmt *S, clang::ASTContext &Ctx);

// Whether S begins or ends inside a macro expansion.
bool isAnyMacro(const clang::Stmt *S);

// How many times St refers to V.
size_t countRefs(const clang::VarDecl *V, const clang::Stmt *St);
// The references to V inside St, in the order of a walk of its children.
void refsTo(const clang::VarDecl *V, const clang::Stmt *St, std::vector<const clang::DeclRefExpr *> &Out);
// How many times St refers to each declaration it names (countRefs for all at once).
llvm::DenseMap<const clang::ValueDecl *, size_t> countAllRefs(const clang::Stmt *St);

// The arguments of a call in the order of F's parameters (a member operator's
// object is not one of them).
std::vector<const clang::Expr *> callArguments(const clang::CallExpr *C, const clang::FunctionDecl *F);

// Whether St assigns V, increments it or takes its address.
bool writtenInside(const clang::VarDecl *V, const clang::Stmt *St);

// The variable an lvalue is part of: v, v.x, v.a.b, v[i] of a local array; null
// for memory reached through a pointer.
const clang::VarDecl *lvalueVariable(const clang::Expr *E);

// The lvalue an assignment, compound assignment or ++/-- (a class type's
// operator= and operator+= included) writes, or null.
const clang::Expr *writtenLvalue(const clang::Stmt *S);

} // namespace irregfix
