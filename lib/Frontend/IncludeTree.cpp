#include "Frontend/IncludeTree.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

namespace irregfix {

namespace {

std::string quoted(llvm::StringRef Path) {
  std::string Out = "\"";
  for (char C : Path) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

unsigned lineEnd(llvm::StringRef Text, unsigned Offset) {
  size_t NL = Text.find('\n', Offset);
  return NL == llvm::StringRef::npos ? Text.size() : NL + 1;
}

} // namespace

std::vector<std::string> IncludeTree::edited() const {
  std::vector<std::string> Out;
  auto Add = [&](const std::string &Path) {
    auto It = Files.find(Path);
    if (It != Files.end() && !It->second.Edits.empty() && llvm::find(Out, Path) == Out.end())
      Out.push_back(Path);
  };
  Add(Main);
  for (const FileEntered &E : Entries)
    Add(E.Path);
  return Out;
}

std::vector<std::string> IncludeTree::inlined() const {
  std::vector<std::string> Out = edited();
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const FileEntered &E : Entries) {
      if (llvm::is_contained(Out, E.Path))
        continue;
      if (llvm::any_of(E.Includes, [&](const Inclusion &I) { return llvm::is_contained(Out, I.Target); })) {
        Out.push_back(E.Path);
        Grew = true;
      }
    }
  }
  return Out;
}

llvm::Expected<std::string> IncludeTree::singleOutput() const {
  const std::vector<std::string> Inlined = inlined();
  std::map<std::string, std::string> Rewritten;
  for (const std::string &Path : Inlined) {
    const SourceFile &F = Files.at(Path);
    llvm::Expected<std::string> Text = clang::tooling::applyAllReplacements(F.Original, F.Edits);
    if (!Text)
      return Text.takeError();
    Rewritten[Path] = std::move(*Text);
  }
  if (Entries.empty() || Entries.front().Path != Main || !Rewritten.count(Main))
    return Files.count(Main) ? Files.at(Main).Original : std::string();
  const std::string MainDir = llvm::sys::path::parent_path(Main).str();

  // One entry's rewrite with its own inclusions resolved. Pieces of the
  // original text are found in the rewrite through the edits' shifts (an
  // insertion at a piece's start stays before it, one at its end after it).
  std::function<std::string(unsigned)> Entry = [&](unsigned Index) {
    const FileEntered &E = Entries[Index];
    const SourceFile &F = Files.at(E.Path);
    std::string Out = Rewritten.at(E.Path);
    std::vector<std::tuple<unsigned, unsigned, std::string>> Cuts; // [begin, end) of the rewrite, new text
    auto Cut = [&](unsigned Begin, unsigned End, std::string Text) {
      Cuts.emplace_back(F.Edits.getShiftedCodePosition(Begin), F.Edits.getShiftedCodePosition(End - 1) + 1,
                        std::move(Text));
    };
    for (const Inclusion &I : E.Includes) {
      if (llvm::is_contained(Inlined, I.Target)) {
        if (I.Entry < 0) { // skipped by the preprocessor: its text is already in the output
          llvm::StringRef Line = llvm::StringRef(F.Original).slice(I.Begin, I.End).trim();
          Cut(I.Begin, I.End, "// irregfix: " + Line.str() + " (inlined above)\n");
          continue;
        }
        std::string Text = Entry(I.Entry);
        if (!Text.empty() && Text.back() != '\n')
          Text += '\n';
        Cut(I.Begin, I.End,
            "#line 1 " + quoted(I.Target) + "\n" + Text + "#line " + std::to_string(I.NextLine) + " " +
                quoted(E.Path) + "\n");
      } else if (Index != 0 && !I.Beside.empty() && llvm::sys::path::parent_path(E.Path) != MainDir) {
        Cut(I.NameBegin, I.NameEnd, "\"" + I.Beside + "\""); // found beside a file in another directory
      }
    }
    if (Index != 0) // in the output, a #pragma once would be in the main file
      for (unsigned Begin : F.PragmaOnce)
        Cut(Begin, lineEnd(F.Original, Begin), "// #pragma once (irregfix: inlined)\n");
    std::sort(Cuts.begin(), Cuts.end(), [](auto &A, auto &B) { return std::get<0>(A) > std::get<0>(B); });
    for (auto &[Begin, End, Text] : Cuts)
      Out.replace(Begin, End - Begin, Text);
    return Out;
  };
  return Entry(0);
}

} // namespace irregfix
