// irregfix-nvcc: a drop-in for nvcc that compiles each CUDA source through
// irregfix (`make NVCC=irregfix-nvcc`, or CMAKE_CUDA_COMPILER_LAUNCHER). This
// file only hands the command line and the environment to the wrapper
// (nvcc/Wrapper.h).
#include "nvcc/Wrapper.h"

#include "llvm/Support/InitLLVM.h"

#include <string>
#include <vector>

int main(int argc, const char **argv) {
  llvm::InitLLVM Init(argc, argv);
  std::vector<std::string> Args(argv + 1, argv + argc);
  return irregfix::nvcc::runWrapper(irregfix::nvcc::wrapperPath(argv[0]), Args,
                                    irregfix::nvcc::Environment::fromProcess());
}
