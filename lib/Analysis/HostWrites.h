// What host code does to device memory, call by call, as far as the cache of
// remapped copies is concerned. Every host call gets an effect:
//  - the memory it writes, named the way its caller can name it (a pointer
//    argument, a pointer field of a struct argument, a __device__ variable):
//    those copies are invalidated by name before the call;
//  - or, where what it writes cannot be named (a kernel storing through a
//    pointer loaded from memory, a kernel in another file, cudaLaunchKernel, a
//    graph, a 3-D copy), every copy is dropped before it;
//  - and where code the tool cannot see runs during the call (a function in
//    another file, a library it does not know), the call is bracketed: copies
//    are dropped before and after it, and functions of this file it calls back
//    count as entered from outside.
// Calls of functions defined in the rewritten file need nothing: their own
// bodies are instrumented.
#pragma once

#include "Analysis/WriteSet.h"

#include "clang/AST/ASTContext.h"
#include "Analysis/AstUtil.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace irregfix {

// Why every copy is dropped: the runtime's irregfix_cause values.
enum class DropCause {
  None = 0,
  UntracedKernel = 1,
  LaunchApi = 2,
  UnseenCall = 3,
  Entry = 4,
  UnnamedCopy = 5,
  DeviceReset = 6,
};

// The runtime's name of a cause: "IRREGFIX_CAUSE_UNSEEN_CALL".
const char *causeMacro(DropCause C);

// Memory a host call writes, as its caller names it.
struct WriteTarget {
  const clang::Expr *Arg = nullptr; // a pointer argument, or a struct argument with Member
  std::string Member;               // ".data": a pointer field of the struct argument
  // A __device__ variable: known by its declaration (a kernel stores to it) ...
  const clang::VarDecl *Symbol = nullptr;
  // ... or passed as Arg to cudaMemcpyToSymbol: by reference (the C++ overload,
  // whose address the invalidation takes) or as a pointer (the C form).
  bool SymbolArg = false;
  bool SymbolByReference = false;
};

struct HostEffect {
  std::vector<WriteTarget> Targets; // invalidated (released when Frees) by name before the call
  bool Frees = false;
  DropCause Drop = DropCause::None; // every copy dropped
  std::string Why;                  // why, for the remark: "'k' stores through 'm->val', ..."
  bool RunsUnseenCode = false;      // code the tool cannot see runs during the call: bracket it
  bool empty() const { return Targets.empty() && Drop == DropCause::None && !RunsUnseenCode; }
};

class HostWriteAnalysis {
public:
  // Rewritten: whether a location is in a file the tool rewrites (whose
  // functions it instruments itself).
  // DeviceOnly: code only the device compilation sees, for the kernels' write sets.
  HostWriteAnalysis(clang::ASTContext &Ctx, std::function<bool(clang::SourceLocation)> Rewritten,
                    const DeviceOnlyCode *DeviceOnly)
      : Ctx(Ctx), Rewritten(std::move(Rewritten)), Kernels(DeviceOnly) {}

  // A host call: a <<<>>> launch, a library call, a call of a visible or unseen function.
  HostEffect ofCall(const clang::CallExpr *C);
  HostEffect ofConstruct(const clang::CXXConstructExpr *C);

  // Whether F's body is in a file being rewritten (then it is instrumented itself).
  bool rewritten(const clang::FunctionDecl *F) const;

  clang::ASTContext &context() const { return Ctx; }

private:
  // A visible function outside the rewritten file, summarised over its parameters.
  struct Summary {
    std::map<unsigned, bool> Params; // parameter written through -> freed
    std::set<const clang::VarDecl *> Symbols;
    std::set<unsigned> CalledParams; // function-pointer parameters it calls
    DropCause Drop = DropCause::None;
    std::string Why;
    bool RunsUnseenCode = false;
  };

  HostEffect ofLaunch(const clang::CUDAKernelCallExpr *L);
  HostEffect ofFunction(const clang::Expr *Call, const clang::FunctionDecl *F,
                        const std::vector<const clang::Expr *> &Args);
  HostEffect ofLibrary(const clang::Expr *Call, const clang::FunctionDecl *F,
                       const std::vector<const clang::Expr *> &Args);
  // Callables handed to a library function run during the call: fine when they
  // are defined in the rewritten file, code the tool cannot see otherwise.
  std::string unseenCallable(const std::vector<const clang::Expr *> &Args) const;
  const Summary &summary(const clang::FunctionDecl *Def);

  clang::ASTContext &Ctx;
  std::function<bool(clang::SourceLocation)> Rewritten;
  WriteSets Kernels;
  std::map<const clang::FunctionDecl *, Summary> Summaries;
  std::set<const clang::FunctionDecl *> InProgress;
};

} // namespace irregfix
