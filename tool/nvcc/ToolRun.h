// One run of the irregfix tool on one source, as a separate process (a crash,
// a hang or an error in the tool is then the wrapper's to handle, not its
// end), into a directory that becomes a cache entry:
//
//   <name>          the rewritten source, `#line 1 "<source>"` first, so that
//                   __FILE__ and nvcc's messages name the original
//   <name>.report   the tool's --report: every indirect read, rewritten or why not
//   <name>.log      the tool's remarks and errors
//   <name>.d        the files the tool read
//   outcome         "rewritten" or "unchanged"
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace irregfix::nvcc {

struct ToolSetup {
  std::string Tool;
  std::vector<std::string> Options; // the tool's options before the source (--cuda-path, the user's)
  unsigned TimeoutSeconds = 300;
};

enum class Outcome {
  Rewritten, // the copy differs from the source
  Unchanged, // the tool changed nothing
  Refused,   // the tool said no (exit 1): a parse error, a file it will not rewrite
  Failed,    // the tool crashed, hung, or could not be started
};

struct ToolRunResult {
  Outcome Result = Outcome::Failed;
  std::string Why;                    // for Refused and Failed: one line
  std::vector<std::string> FilesRead; // for Rewritten and Unchanged
};

// The file names of an entry for a source.
std::string rewrittenName(llvm::StringRef Source);
inline std::string reportName(llvm::StringRef Source) { return rewrittenName(Source) + ".report"; }
inline std::string logName(llvm::StringRef Source) { return rewrittenName(Source) + ".log"; }
inline constexpr llvm::StringLiteral OutcomeFile = "outcome";

// Reads an entry's outcome file.
Outcome readOutcome(llvm::StringRef EntryDir);

// Runs the tool on Source (as written on nvcc's command line) with the Clang
// flags nvcc's options mapped to, writing into RunDir.
ToolRunResult runTool(const ToolSetup &Setup, llvm::StringRef Source, llvm::ArrayRef<std::string> ClangFlags,
                      llvm::StringRef RunDir);

// The files whose text the rewritten copy of Source holds (the tool inlines a
// changed header at its #include): named by its `#line` directives.
std::vector<std::string> inlinedFiles(llvm::StringRef Copy, llvm::StringRef Source);

// The directive that makes the rewritten copy's lines the original's.
std::string lineDirective(llvm::StringRef Source);

} // namespace irregfix::nvcc
