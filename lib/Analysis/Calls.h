// What the analyses that follow a kernel's calls (Permutability, Chunkability,
// Hoistability) share: how a call is treated, and which of CUDA's own
// functions let threads observe one another (barriers, warp intrinsics,
// atomics, fences, cooperative groups).
#pragma once

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace irregfix {

enum class CallKind {
  Library, // a builtin, or declared in a system header: not followed
  Defined, // its body is visible: follow it
  Indirect, // through a pointer: nothing is known
  Unseen,  // declared here without a visible body
};

// How to treat call C; *Callee is its direct callee (null for Indirect).
CallKind classifyCall(const clang::CallExpr *C, const clang::SourceManager &SM,
                      const clang::FunctionDecl **Callee);

// classifyCall with its answers kept by callee: a walk over a kernel meets the
// same few callees at thousands of calls, and each answer looks up the
// callee's attributes and the file of its declaration.
class CallClassifier {
public:
  explicit CallClassifier(const clang::SourceManager &SM) : SM(SM) {}
  CallKind classify(const clang::CallExpr *C, const clang::FunctionDecl **Callee);

private:
  const clang::SourceManager &SM;
  llvm::DenseMap<const clang::FunctionDecl *, CallKind> Known;
};

// Why a call of this kind cannot be followed ("it makes an indirect call", "it
// calls 'f', whose body the analysis cannot see"); "" for Library and Defined.
std::string unfollowable(CallKind Kind, const clang::FunctionDecl *Callee);

// Whether D is declared inside a namespace named NS (at any depth).
bool inNamespace(const clang::Decl *D, llvm::StringRef NS);

// Names of CUDA operations through which threads observe one another.
bool cooperates(llvm::StringRef Name);

// A call to F makes threads cooperate: a name above or cooperative_groups.
bool cooperativeCall(const clang::FunctionDecl *F);

} // namespace irregfix
