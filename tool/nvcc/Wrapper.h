// irregfix-nvcc from its arguments to the real nvcc's exit status: each CUDA
// source the command compiles to host code is rewritten by irregfix (or taken
// from the cache), nvcc compiles the rewritten copy in its place with the
// runtime's headers on the include path, and a command that links gets the
// runtime library. Whatever goes wrong on irregfix's side compiles the source
// unchanged, with one warning: the build passes wherever nvcc's would.
#pragma once

#include "Installation.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace irregfix::nvcc {

// Args are the wrapper's arguments (without its own name): nvcc's, or in the
// launcher form (CMAKE_CUDA_COMPILER_LAUNCHER) the real compiler and its own.
int runWrapper(llvm::StringRef WrapperPath, llvm::ArrayRef<std::string> Args, const Environment &Env);

} // namespace irregfix::nvcc
