// What a device function (a kernel, or a function a kernel calls) writes in
// memory, named the way its caller or its launch can name it:
//  - arrays: pointer parameters, or pointer fields of by-value struct
//    parameters (`g.data`), written through — directly, through local copies,
//    by atomics and library functions, or by the device functions it calls;
//  - __device__ variables stored to in place (`flag = 1`, `table[i] = x`);
//  - for a callee, its reference parameters and its own object (`this`);
//  - scalar locals assigned (for the thread-index and loop analyses).
// Any store the analysis cannot name — through a pointer loaded from memory
// (`m->val[i]`, `vals[0][i]`, a __device__ pointer), through a callee whose body
// it cannot see, a call through a pointer, inline assembly that stores — makes
// the write set untraced, with the reason: whoever relies on it must then assume
// that anything may have been written.
#pragma once

#include "Analysis/ArrayRef.h"
#include "Analysis/LocalValues.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <memory>
#include <set>
#include <string>

namespace irregfix {

class DeviceOnlyCode;

class WriteSet {
public:
  // Analyses the body of Fn and, through their bodies, the functions it calls;
  // code of theirs that only the device compilation sees (DeviceOnly, when
  // recorded) counts as an untraced write where it may store.
  static WriteSet of(const clang::FunctionDecl *Fn, const DeviceOnlyCode *DeviceOnly);

  // A pointee member is written with the struct it lies in: a store anywhere
  // into *p is recorded as one through p.
  bool writesThrough(const ArrayRef &A) const {
    return WrittenArrays.count(A) || (A.isPointeeMember() && WrittenArrays.count(A.holder()));
  }
  // The reason for a read of A that writesThrough refuses: "'A' is written in
  // the kernel", or for a pointee member, that the struct it lies in is.
  static std::string writtenWhy(const ArrayRef &A);
  // True when V is assigned after its initialisation (a grid-stride loop's own
  // step `e += blockDim.x * gridDim.x` does not count).
  bool writesScalar(const clang::VarDecl *V) const;
  // The grid-stride loop that V is the variable of, or null.
  const clang::ForStmt *gridStrideLoop(const clang::VarDecl *V) const {
    auto It = GridStride.find(V);
    return It == GridStride.end() ? nullptr : It->second;
  }
  bool hasUntracedWrite() const { return UntracedWrite != nullptr; }
  const clang::Stmt *untracedWrite() const { return UntracedWrite; }
  // Why the first untraced write cannot be named ("stores through 'm->val', a
  // pointer loaded from memory"); "" when there is none.
  const std::string &untracedWhy() const { return UntracedWhy; }
  // Arrays written through. For a kernel, parameters of the kernel; for a
  // callee, its own parameters, or a parameter of the function that defines a
  // lambda it is (captured pointers).
  const std::set<ArrayRef> &writtenArrays() const { return WrittenArrays; }
  // __device__ (or __managed__) variables whose own memory is stored to.
  const std::set<const clang::VarDecl *> &writtenSymbols() const { return WrittenSymbols; }
  // A method or constructor that stores into its own object.
  bool writesThis() const { return WritesThis; }
  // Reference parameters stored through.
  const std::set<const clang::ParmVarDecl *> &writtenReferences() const { return WrittenReferences; }

  // The array a pointer expression is derived from (P, P + i, &P[i], g.f, a
  // local initialised from one of those and never reassigned), or none.
  // Conservative for writes: any pointer into P's array counts.
  static ArrayRef pointerBase(const clang::Expr *E, const WriteSet *Writes);

  // The array E is exactly (P or g.f itself, or an unwritten local copy `T *a = P;`),
  // or none. For reads that will be redirected: an offset would change the element.
  // A field of array type (`g.a` with `float a[8]`) is none: it is no device memory.
  static ArrayRef exactPointer(const clang::Expr *E, const WriteSet &Writes);
  // `p->a` with p a pointer parameter the function does not assign and `a` an
  // array of scalars of the struct it points to, every dimension of constant
  // size (ArrayRef::isMultiDimensional), or none.
  static ArrayRef pointeeMember(const clang::MemberExpr *ME, const WriteSet &Writes);
  // Why member F of Struct (the type a pointer parameter points to) is no
  // array a copy is made of, or null: "of no constant size", "which is volatile".
  static const char *whyNotPointeeMember(const clang::FieldDecl *F, clang::QualType Struct);

  // A callee's write set as a kernel that calls it sees it (CallChains.h): its
  // own, plus Arrays (its parameters bound to arrays the kernel writes),
  // untraced where the kernel's is, and ThreadParams (its parameters that hold
  // the kernel's thread index at the call) taken as the thread index.
  WriteSet throughCall(const WriteSet &Kernel, const std::set<ArrayRef> &Arrays,
                       std::set<const clang::ParmVarDecl *> ThreadParams) const;
  // P holds the calling kernel's 1-D thread index (only in a throughCall set).
  bool holdsThreadIndex(const clang::ParmVarDecl *P) const { return ThreadParams.count(P) != 0; }
  // The values of the locals of the function and of those it calls, each
  // function's built once and shared by everything that asks.
  const FunctionLocals &locals() const { return *Locals; }

private:
  friend class WriteCollector;
  std::set<ArrayRef> WrittenArrays;
  std::set<const clang::VarDecl *> WrittenSymbols;
  std::set<const clang::ParmVarDecl *> WrittenReferences;
  bool WritesThis = false;
  llvm::DenseMap<const clang::VarDecl *, unsigned> WrittenScalars; // how many stores
  llvm::DenseMap<const clang::VarDecl *, const clang::ForStmt *> GridStride;
  const clang::Stmt *UntracedWrite = nullptr;
  std::string UntracedWhy;
  std::set<const clang::ParmVarDecl *> ThreadParams;
  std::shared_ptr<const FunctionLocals> Locals = std::make_shared<FunctionLocals>();
};

// Write sets of the kernels of one translation unit, each computed once.
class WriteSets {
public:
  explicit WriteSets(const DeviceOnlyCode *DeviceOnly) : DeviceOnly(DeviceOnly) {}
  const WriteSet &of(const clang::FunctionDecl *Fn) {
    auto It = Known.find(Fn);
    if (It == Known.end())
      It = Known.emplace(Fn, WriteSet::of(Fn, DeviceOnly)).first;
    return It->second;
  }

private:
  const DeviceOnlyCode *DeviceOnly;
  std::map<const clang::FunctionDecl *, WriteSet> Known;
};

// Whether V is a variable in device memory that host code can name as a
// symbol: __device__, __constant__ or __managed__, at namespace or class scope.
bool isDeviceSymbol(const clang::VarDecl *V);

// How host code names a __device__ variable from anywhere in the file
// ("::ns::table"), or "" when it cannot (an anonymous namespace, a class member).
std::string symbolSpelling(const clang::VarDecl *V);

} // namespace irregfix
