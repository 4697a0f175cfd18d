// nvcc's options (CUDA 13's `nvcc --help`), as irregfix-nvcc needs to know
// them: which take a value, and which change what the wrapper does (the phase,
// the preprocessor's view of the source, the outputs). An option that is not in
// the table is unknown, and the wrapper then leaves the sources alone.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace irregfix::nvcc {

enum class OptionKind {
  Other,            // no bearing on the rewrite
  StopsBeforeLink,  // -c, -dc, -dw, -lib, -cuda: host code is compiled, nothing is linked
  NoHostCode,       // -E, -M, -MM, -ptx, -cubin, -fatbin, -dlink...: nothing to rewrite
  Links,            // -link, -run (also the default)
  Informational,    // --version, --help, -dryrun, lists: nothing is compiled
  IncludePath,      // -I
  SystemInclude,    // -isystem
  Define,           // -D
  Undefine,         // -U
  PreInclude,       // -include
  Standard,         // -std
  Language,         // -x
  HostCompiler,     // -Xcompiler
  OptionsFile,      // -optf
  Output,           // -o
  DependencyOutput, // -MF
  DependencyWithCompile, // -MD, -MMD
  ForwardUnknown,   // -forward-unknown-to-host-compiler, -forward-unknown-opts
};

struct OptionSpec {
  llvm::StringLiteral Long;  // without the leading "--"
  llvm::StringLiteral Short; // without the leading "-"
  bool TakesValue;
  OptionKind Kind;
};

// One option as written on a command line.
struct OptionMatch {
  const OptionSpec *Spec = nullptr;
  std::string Value;       // the value when it is written in the same argument
  bool ValueInNext = false; // the value is the next argument
};

// The option Arg spells: `--long`, `-short`, either with `=value` or followed
// by its value, or a one-letter option with its value attached (`-Idir`,
// `-DX=1`, `-O3`, `-lfoo`). Nothing when nvcc does not know it.
std::optional<OptionMatch> matchOption(llvm::StringRef Arg);

// nvcc splits the values of list options at commas; `\,` is a comma kept.
void splitListValue(llvm::StringRef Value, llvm::SmallVectorImpl<std::string> &Items);

} // namespace irregfix::nvcc
