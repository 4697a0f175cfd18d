// The edits of one file's rewrite, each kept with the file it changes
// (IncludeTree.h) under the one name the tool gives that file
// (RewritableFiles.h); the driver applies them once, at the end. A rewrite
// that fails drops them all: every file is left as it was.
#pragma once

#include "Frontend/Diagnostics.h"
#include "Frontend/IncludeTree.h"
#include "Frontend/RewritableFiles.h"

#include "clang/Tooling/Core/Replacement.h"

namespace irregfix {

class FileEdits {
public:
  FileEdits(const RewritableFiles &Files, IncludeTree &Tree, Messages &Msg) : Files(Files), Tree(Tree), Msg(Msg) {}

  // Adds R to its file's edits (the same edit twice, from a file entered
  // twice, is one); false, with an internal error, when R is not in a file
  // the tool rewrites or overlaps another edit.
  bool add(const clang::tooling::Replacement &R);
  void dropAll();

  const RewritableFiles &files() const { return Files; }
  const IncludeTree &tree() const { return Tree; }

private:
  const RewritableFiles &Files;
  IncludeTree &Tree;
  Messages &Msg;
};

} // namespace irregfix
