#include "Frontend/RewritableFiles.h"

#include "clang/Basic/FileManager.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace irregfix {

namespace {

std::string absolute(StringRef Name) {
  llvm::SmallString<256> P(Name);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

bool under(StringRef Path, StringRef Dir) {
  return Path.starts_with(Dir) && (Path.size() == Dir.size() || llvm::sys::path::is_separator(Path[Dir.size()]));
}

} // namespace

class FileRecorder : public PPCallbacks {
public:
  FileRecorder(RewritableFiles &Files, const Preprocessor &PP) : Files(Files), PP(PP) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason, SrcMgr::CharacteristicKind Kind,
                   FileID Prev) override {
    if (Reason == EnterFile)
      Files.entered(Files.SM.getFileID(Loc), Kind);
    else if (Reason == ExitFile && Prev.isValid())
      exited(Prev);
  }
  void InclusionDirective(SourceLocation Hash, const Token &, StringRef, bool Angled, CharSourceRange Name,
                          OptionalFileEntryRef File, StringRef SearchPath, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    Files.included(Hash, Name, Angled, File, SearchPath);
  }
  void FileSkipped(const FileEntryRef &File, const Token &, SrcMgr::CharacteristicKind) override {
    Files.skipped();
  }
  void PragmaDirective(SourceLocation Loc, PragmaIntroducerKind Introducer) override {
    if (Introducer == PIK_HashPragma)
      Files.pragmaOnce(Loc);
  }
  void Ifndef(SourceLocation Loc, const Token &Macro, const MacroDefinition &) override {
    if (const IdentifierInfo *II = Macro.getIdentifierInfo())
      Files.ifndef(Loc, II->getName());
  }
  void MacroDefined(const Token &Macro, const MacroDirective *) override {
    if (const IdentifierInfo *II = Macro.getIdentifierInfo())
      Files.defined(Macro.getLocation(), II->getName());
  }

private:
  // A file left: its #ifndef counts as a guard only if the preprocessor found
  // that it guards the whole file.
  void exited(FileID F) {
    auto It = Files.Guards.find(F);
    if (It == Files.Guards.end() || !It->second.End)
      return;
    OptionalFileEntryRef FE = Files.SM.getFileEntryRefForID(F);
    const HeaderFileInfo *Info = FE ? PP.getHeaderSearchInfo().getExistingFileInfo(*FE) : nullptr;
    if (!Info)
      return;
    HeaderFileInfo Copy = *Info;
    const IdentifierInfo *Macro = Copy.getControllingMacro(nullptr);
    if (Macro && Macro->getName() == It->second.Macro)
      Files.Ends[&FE->getFileEntry()].insert(It->second.End);
  }

  RewritableFiles &Files;
  const Preprocessor &PP;
};

RewritableFiles::RewritableFiles(const Preprocessor &PP, const std::vector<std::string> &Dirs)
    : PP(PP), SM(PP.getSourceManager()) {
  for (const std::string &D : Dirs) {
    llvm::SmallString<256> Real;
    if (!D.empty() && !llvm::sys::fs::real_path(D, Real))
      NotRewritten.push_back(std::string(Real));
  }
}

std::unique_ptr<PPCallbacks> RewritableFiles::recorder() { return std::make_unique<FileRecorder>(*this, PP); }

bool RewritableFiles::userFile(FileID F, SrcMgr::CharacteristicKind Kind) const {
  if (Kind != SrcMgr::C_User)
    return false;
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(F);
  if (!FE)
    return false;
  StringRef Real = SM.getFileManager().getCanonicalName(*FE);
  return llvm::none_of(NotRewritten, [&](const std::string &Dir) { return under(Real, Dir); });
}

void RewritableFiles::entered(FileID F, SrcMgr::CharacteristicKind Kind) {
  std::pair<int, int> Inclusion = Pending;
  Pending = {-1, -1};
  const bool Main = F == SM.getMainFileID();
  if (!Main && !(Rewritable.count(SM.getFileID(SM.getIncludeLoc(F))) && userFile(F, Kind)))
    return;
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(F);
  if (!FE)
    return;
  Rewritable.insert(F);
  auto [It, New] = Paths.try_emplace(&FE->getFileEntry(), absolute(FE->getName()));
  if (New)
    Order.push_back(&FE->getFileEntry());
  EntryOf[F] = Entries.size();
  if (Inclusion.first >= 0)
    Entries[Inclusion.first].Includes[Inclusion.second].Entry = Entries.size();
  Entries.push_back({It->second, {}});
  EntryFiles.push_back(F);
  Targets.emplace_back();
}

void RewritableFiles::included(SourceLocation Hash, CharSourceRange Name, bool Angled, OptionalFileEntryRef File,
                               StringRef SearchPath) {
  Pending = {-1, -1};
  FileID F = SM.getFileID(Hash);
  auto It = EntryOf.find(F);
  if (It == EntryOf.end())
    return;
  Inclusion I;
  I.Begin = SM.getFileOffset(Hash) - SM.getColumnNumber(F, SM.getFileOffset(Hash)) + 1;
  // The name as written on the directive's line (not a macro's: `#include KERNELS`).
  const bool Written = Name.getBegin().isFileID() && Name.getEnd().isFileID() &&
                       SM.getFileID(Name.getBegin()) == F && SM.getFileID(Name.getEnd()) == F;
  I.End = lineEnd(Written ? Name.getEnd() : Hash);
  I.NextLine = SM.getLineNumber(F, I.End - 1) + 1;
  if (Written) {
    I.NameBegin = SM.getFileOffset(Name.getBegin());
    I.NameEnd = SM.getFileOffset(Name.getEnd());
  }
  // Found beside its includer: inlined elsewhere, it must be named by its path.
  OptionalFileEntryRef Includer = SM.getFileEntryRefForID(F);
  if (Written && File && !Angled && Includer && SearchPath == llvm::sys::path::parent_path(Includer->getName()))
    I.Beside = absolute(File->getName());
  Pending = {static_cast<int>(It->second), static_cast<int>(Entries[It->second].Includes.size())};
  Entries[It->second].Includes.push_back(I);
  Targets[It->second].push_back(File ? &File->getFileEntry() : nullptr);
  if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(F))
    Ends[&FE->getFileEntry()].insert(I.End);
}

void RewritableFiles::skipped() { Pending = {-1, -1}; }

void RewritableFiles::pragmaOnce(SourceLocation Loc) {
  FileID F = SM.getFileID(Loc);
  if (!Rewritable.count(F))
    return;
  // `#pragma once`, alone on its line
  unsigned Begin = SM.getFileOffset(Loc) - SM.getColumnNumber(F, SM.getFileOffset(Loc)) + 1;
  unsigned End = lineEnd(Loc);
  StringRef Line = SM.getBufferData(F).slice(Begin, End).trim();
  if (!Line.consume_front("#"))
    return;
  Line = Line.ltrim();
  if (!Line.consume_front("pragma") || Line.ltrim().rtrim() != "once")
    return;
  const FileEntry *FE = &SM.getFileEntryRefForID(F)->getFileEntry();
  PragmaOnce[FE].push_back(Begin);
  Ends[FE].insert(End);
}

void RewritableFiles::ifndef(SourceLocation Loc, StringRef Macro) {
  FileID F = SM.getFileID(Loc);
  if (Rewritable.count(F) && !Guards.count(F))
    Guards[F].Macro = Macro.str();
}

void RewritableFiles::defined(SourceLocation Loc, StringRef Macro) {
  FileID F = SM.getFileID(Loc);
  auto It = Guards.find(F);
  if (It == Guards.end() || It->second.Closed)
    return;
  It->second.Closed = true; // only the first #define after the #ifndef
  if (It->second.Macro == Macro)
    It->second.End = lineEnd(Loc);
}

unsigned RewritableFiles::lineEnd(SourceLocation L) const {
  auto [F, Offset] = SM.getDecomposedLoc(L);
  StringRef Buf = SM.getBufferData(F);
  size_t NL = Buf.find('\n', Offset);
  return NL == StringRef::npos ? Buf.size() : NL + 1;
}

bool RewritableFiles::contains(SourceLocation L) const {
  return L.isValid() && Rewritable.count(SM.getFileID(SM.getExpansionLoc(L)));
}

std::string RewritableFiles::pathOf(StringRef Name) const {
  auto FE = SM.getFileManager().getOptionalFileRef(Name);
  if (!FE)
    return "";
  auto It = Paths.find(&FE->getFileEntry());
  return It == Paths.end() ? "" : It->second;
}

std::string RewritableFiles::pathOf(FileID F) const {
  if (!Rewritable.count(F))
    return "";
  return Paths.at(&SM.getFileEntryRefForID(F)->getFileEntry());
}

std::vector<unsigned> RewritableFiles::directiveEnds(const std::string &Path) const {
  for (auto &[FE, P] : Paths)
    if (P == Path) {
      auto It = Ends.find(FE);
      return It == Ends.end() ? std::vector<unsigned>() : std::vector<unsigned>(It->second.begin(), It->second.end());
    }
  return {};
}

IncludeTree RewritableFiles::tree() const {
  IncludeTree T;
  for (const FileEntry *FE : Order) {
    SourceFile &F = T.Files[Paths.at(FE)];
    for (size_t E = 0; E < EntryFiles.size(); ++E)
      if (&SM.getFileEntryRefForID(EntryFiles[E])->getFileEntry() == FE) {
        F.Original = SM.getBufferData(EntryFiles[E]).str();
        break;
      }
    if (auto It = PragmaOnce.find(FE); It != PragmaOnce.end()) {
      F.PragmaOnce = It->second;
      llvm::sort(F.PragmaOnce);
      F.PragmaOnce.erase(std::unique(F.PragmaOnce.begin(), F.PragmaOnce.end()), F.PragmaOnce.end());
    }
  }
  T.Entries = Entries;
  for (size_t E = 0; E < Entries.size(); ++E)
    for (size_t I = 0; I < Entries[E].Includes.size(); ++I)
      if (const FileEntry *Target = Targets[E][I]; Target && Paths.count(Target))
        T.Entries[E].Includes[I].Target = Paths.at(Target);
  T.Main = pathOf(SM.getMainFileID());
  return T;
}

} // namespace irregfix
