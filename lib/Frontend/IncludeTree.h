// The files of one translation unit that the tool rewrites, as plain data: each
// file's text and edits, and how the files include each other as the
// preprocessor saw it. -o and stdout write the translation unit as one file:
// the main file's rewrite with every changed included file inlined at its
// #include, between #line markers.
#pragma once

#include "clang/Tooling/Core/Replacement.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace irregfix {

// A file the tool may rewrite (the main file or a user file it includes).
struct SourceFile {
  std::string Original;                // its text when parsed
  clang::tooling::Replacements Edits;  // every edit to it
  std::vector<unsigned> PragmaOnce;    // where its `#pragma once` lines begin
};

// An #include the preprocessor processed in a rewritable file.
struct Inclusion {
  unsigned Begin = 0, End = 0; // the directive's line in the includer, newline included
  unsigned NextLine = 0;       // the number of the line after it
  std::string Target;          // the rewritable file it names; empty for any other file
  int Entry = -1;              // the entry it made (IncludeTree::Entries), -1 when the file was skipped
                               // (an include guard, #pragma once)
  std::string Beside;          // `#include "x.h"` found in its includer's directory: x.h's absolute path
  unsigned NameBegin = 0, NameEnd = 0; // the quoted name, quotes included
};

// Each time the preprocessor entered a rewritable file; Entries[0] is the main file.
struct FileEntered {
  std::string Path;
  std::vector<Inclusion> Includes; // in the order of the text
};

struct IncludeTree {
  std::string Main;                        // the main file's path, as the edits name it
  std::map<std::string, SourceFile> Files; // every rewritable file, by path
  std::vector<FileEntered> Entries;

  // The files with edits, the main file first, then in the order first entered.
  std::vector<std::string> edited() const;
  // Files whose text must be written into a single output: those with edits and
  // those that include one of them.
  std::vector<std::string> inlined() const;
  // The main file's rewrite with each file of inlined() written in place of the
  // #include that entered it (`#line 1 "file"`, its rewrite, `#line N "includer"`),
  // an #include of one the preprocessor skipped (guard, #pragma once) left out,
  // and each other #include kept.
  llvm::Expected<std::string> singleOutput() const;
};

} // namespace irregfix
