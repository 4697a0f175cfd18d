// An nvcc command line read for irregfix-nvcc: its inputs (which are CUDA
// sources to rewrite), how far it compiles them (does it link?), the outputs it
// names, and the preprocessor flags the tool needs to parse a source as nvcc
// does (-I, -D, -U, -isystem, -include, -std, and those inside -Xcompiler).
#pragma once

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace irregfix::nvcc {

// How far nvcc takes its inputs.
enum class Phase {
  Link,            // the default, -link, -run: objects are linked into a program
  Compile,         // -c, -dc, -dw, -lib, -cuda: host code is compiled, nothing linked
  NoHostCode,      // -E, -M, -MM, -ptx, -cubin, -fatbin, -dlink...: nothing the rewrite changes
  NothingCompiled, // --version, --help, -dryrun, -clean, the lists
};

struct Input {
  size_t ArgIndex = 0; // where it is in NvccCommand::Args
  std::string Path;    // as written
  bool IsCuda = false; // a .cu file, or a C/C++ source under -x cu
};

struct NvccCommand {
  std::vector<std::string> Args; // nvcc's arguments, options files expanded
  std::vector<Input> Inputs;     // every file argument, in order
  Phase CompilePhase = Phase::Link;
  // Clang flags that make the tool's parse see what nvcc's preprocessor sees.
  std::vector<std::string> ToolFlags;
  std::string UnknownOption; // the first option nvcc's table does not have (not forwarded)
  std::string OutputFile;    // -o
  std::string DependencyFile; // -MF
  bool DependenciesWithCompile = false; // -MD, -MMD

  // Whether the CUDA inputs are compiled to host code, and so are rewritten.
  bool compilesHostCode() const { return CompilePhase == Phase::Link || CompilePhase == Phase::Compile; }
  bool links() const { return CompilePhase == Phase::Link && !Inputs.empty(); }
};

// Reads Args (without nvcc's own name). Options files must already be expanded.
NvccCommand readNvccCommand(std::vector<std::string> Args);

// Args with every options file spliced in: `-optf f`, `--options-file=f,g`
// (nvcc's) and `@f` (GCC's and Clang's, which nvcc itself does not read).
// Relative names are read from the working directory. Nothing, after saying
// why in Error, when a file cannot be read or they nest too deeply.
std::optional<std::vector<std::string>> expandOptionsFiles(llvm::ArrayRef<std::string> Args, std::string &Error);

} // namespace irregfix::nvcc
