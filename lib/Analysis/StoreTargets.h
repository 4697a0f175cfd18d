// Where a store goes, as the write analysis (WriteSet) can name it: the
// memory a pointer value points into, and the memory an lvalue lives in. Each
// answer is an array parameter or a pointer field of a by-value struct
// parameter, a __device__ variable, a local, the method's object, a reference
// parameter's object, or unknown with the reason.
#pragma once

#include "Analysis/ArrayRef.h"

#include "clang/AST/Expr.h"

#include <string>

namespace irregfix {

class WriteSet;

// The memory a store goes to, as the analysis can name it.
struct StoreTarget {
  enum Kind {
    Array,     // an array parameter, or a pointer field of a by-value struct parameter
    Symbol,    // a __device__ variable's own memory
    Local,     // a local variable, local array, shared memory, a by-value parameter's copy
    This,      // the object of the method being analysed
    Reference, // what a reference parameter refers to
    Unknown,   // anything else; Why says what
  } K = Unknown;
  ArrayRef A;
  const clang::VarDecl *Var = nullptr;
  std::string Why;

  static StoreTarget unknown(std::string Why) {
    StoreTarget T;
    T.Why = std::move(Why);
    return T;
  }
  static StoreTarget of(Kind K, const clang::VarDecl *V = nullptr) {
    StoreTarget T;
    T.K = K;
    T.Var = V;
    return T;
  }
  // Whether both name the same memory (the two arms of a ?: agree).
  bool sameMemory(const StoreTarget &O) const { return K == O.K && A == O.A && Var == O.Var; }

  static StoreTarget array(ArrayRef A) {
    StoreTarget T;
    T.K = Array;
    T.A = std::move(A);
    return T;
  }
};

// The memory the pointer value E points into. W (may be null): the function's
// writes so far, for the parameters and locals it assigns.
StoreTarget pointerTarget(const clang::Expr *E, const WriteSet *W, int Depth = 0);

// The memory the lvalue E lives in.
StoreTarget lvalueTarget(const clang::Expr *E, const WriteSet *W, int Depth = 0);

// `g.f` or `g.a.f` with g a by-value struct parameter and f a pointer or array
// field: the parameter and the field path, or none.
ArrayRef fieldOfParam(const clang::MemberExpr *ME);

bool isArrayParam(const clang::ParmVarDecl *P);

// E as written (shortened past 40 characters), quoted: for reasons.
std::string spelled(const clang::Expr *E);

} // namespace irregfix
