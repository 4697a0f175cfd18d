// Small device functions the index analyses see through. A function whose body
// is one `return e;` that stores nothing (`g.degree(v)` returning
// `off[v + 1] - off[v]`, `row_end(g, v)`) is read as e, its parameters standing
// for the call's arguments and, in a member function, its object's pointer
// fields for the arrays of the object the call names (`g.off`). Index forms
// (IndexForm.h) and the index kernels' text (Transform/Indexed) both inline so.
#pragma once

#include "Analysis/ArrayRef.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <string>
#include <vector>

namespace irregfix {

class WriteSet;

// How deep calls are inlined in one another.
constexpr int kMaxInlineDepth = 4;

// The expression F returns when its definition is one `return e;` statement,
// e stores nothing (no assignment, increment or call that is not itself
// inlinable or a library function) and F is not virtual; null otherwise.
const clang::Expr *inlinableReturn(const clang::FunctionDecl *F);

// A call being inlined: the function whose body is read, and what each of its
// parameters and (member functions) its object stand for, as the kernel's
// launch names them: an array (`A`, `g.off`) for a pointer parameter, an object
// (a by-value struct parameter and the fields down to it, `g`, `g.csr`) for a
// struct parameter and for the object. Empty where the argument cannot be named
// so (a pointer loaded from memory, a local struct).
struct InlineScope {
  const clang::FunctionDecl *Callee = nullptr; // the definition
  std::vector<ArrayRef> Params;
  ArrayRef Object;
};

// The array or object E names, as the launch names it, inside Scope (null: in
// the kernel's own body). Empty when it cannot be named.
ArrayRef namedMemory(const clang::Expr *E, const WriteSet &W, const InlineScope *Scope);

// The scope of inlining call C (whose callee is inlinable) from inside Outer
// (null: from the kernel's body).
InlineScope enterCall(const clang::CallExpr *C, const WriteSet &W, const InlineScope *Outer);

// Why call C cannot be inlined in scope S from inside the calls Open (their
// functions, outermost first): nested too deeply or recursively, or a member
// function of an object the launch cannot name; "" when it can.
std::string inlineProblem(const clang::CallExpr *C, const InlineScope &S,
                          const std::vector<const clang::FunctionDecl *> &Open);

// Whether V is a parameter of Scope's function: its position, or -1.
int parameterIndex(const clang::VarDecl *V, const InlineScope *Scope);

} // namespace irregfix
