#include "Transform/SourceText.h"

using namespace clang;

namespace irregfix {

CharSourceRange fileRange(SourceRange R, const SourceManager &SM, const LangOptions &LO) {
  return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, LO);
}

std::string sourceText(SourceRange R, const SourceManager &SM, const LangOptions &LO) {
  CharSourceRange FR = fileRange(R, SM, LO);
  if (FR.isInvalid())
    return "";
  return Lexer::getSourceText(FR, SM, LO).str();
}

SnippetEditor::SnippetEditor(CharSourceRange Whole, const SourceManager &SM, const LangOptions &LO)
    : SM(SM), LO(LO) {
  if (Whole.isInvalid()) {
    Failed = true;
    return;
  }
  auto [FID, B] = SM.getDecomposedLoc(Whole.getBegin());
  File = FID;
  Begin = B;
  End = SM.getFileOffset(Whole.getEnd());
  Original = Lexer::getSourceText(Whole, SM, LO).str();
}

bool SnippetEditor::add(unsigned Offset, unsigned Length, llvm::StringRef Text) {
  if (Failed || Offset < Begin || Offset + Length > End) {
    Failed = true;
    return false;
  }
  // Two insertions at one place (a loop's rebound body closing where the hoisted
  // loop's epilogue starts) go in the order they were made.
  if (Length == 0 && !Insertions.insert(Offset).second) {
    tooling::Replacements Rest;
    std::string Earlier;
    bool Found = false;
    for (const tooling::Replacement &R : Edits) {
      if (R.getOffset() == Offset - Begin && R.getLength() == 0) {
        Earlier = R.getReplacementText().str();
        Found = true;
      } else {
        llvm::cantFail(Rest.add(R));
      }
    }
    if (Found) {
      Edits = std::move(Rest);
      return add(Offset, 0, Earlier + Text.str());
    }
  }
  if (llvm::Error E = Edits.add(tooling::Replacement("snippet", Offset - Begin, Length, Text))) {
    llvm::consumeError(std::move(E));
    Failed = true;
    return false;
  }
  return true;
}

bool SnippetEditor::replace(SourceRange R, llvm::StringRef Text) {
  CharSourceRange FR = fileRange(R, SM, LO);
  if (FR.isInvalid() || SM.getFileID(FR.getBegin()) != File)
    return Failed = true, false;
  unsigned B = SM.getFileOffset(FR.getBegin()), E = SM.getFileOffset(FR.getEnd());
  return add(B, E - B, Text);
}

bool SnippetEditor::replaceChars(SourceLocation B, SourceLocation E, llvm::StringRef Text) {
  B = SM.getFileLoc(B);
  E = SM.getFileLoc(E);
  if (SM.getFileID(B) != File || SM.getFileID(E) != File)
    return Failed = true, false;
  unsigned BO = SM.getFileOffset(B), EO = SM.getFileOffset(E);
  if (EO < BO)
    return Failed = true, false;
  return add(BO, EO - BO, Text);
}

bool SnippetEditor::insertBefore(SourceLocation Loc, llvm::StringRef Text) {
  Loc = SM.getFileLoc(Loc);
  if (SM.getFileID(Loc) != File)
    return Failed = true, false;
  return add(SM.getFileOffset(Loc), 0, Text);
}

bool SnippetEditor::insertAfterToken(SourceLocation Loc, llvm::StringRef Text) {
  SourceLocation After = Lexer::getLocForEndOfToken(SM.getFileLoc(Loc), 0, SM, LO);
  if (After.isInvalid() || SM.getFileID(After) != File)
    return Failed = true, false;
  return add(SM.getFileOffset(After), 0, Text);
}

llvm::Expected<std::string> SnippetEditor::result() const {
  if (Failed)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "an edit fell outside the kernel or overlapped another");
  return tooling::applyAllReplacements(Original, Edits);
}

std::string indentationAt(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getExpansionLoc(Loc);
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  llvm::StringRef Buf = SM.getBufferData(FID);
  size_t LineStart = Buf.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  size_t I = LineStart;
  while (I < Buf.size() && (Buf[I] == ' ' || Buf[I] == '\t'))
    ++I;
  return Buf.substr(LineStart, I - LineStart).str();
}

std::optional<std::pair<SourceLocation, std::string>> pragmaLinesAbove(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getFileLoc(Loc);
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || Offset > Buffer.size())
    return std::nullopt;
  auto LineStart = [&](size_t At) {
    size_t Nl = At == 0 ? StringRef::npos : Buffer.rfind('\n', At - 1);
    return Nl == StringRef::npos ? size_t(0) : Nl + 1;
  };
  size_t Line = LineStart(Offset);
  if (!Buffer.slice(Line, Offset).trim().empty())
    return std::nullopt;
  std::optional<size_t> First;
  while (Line > 0) {
    size_t Prev = LineStart(Line - 1);
    if (!Buffer.slice(Prev, Line).trim().starts_with("#pragma"))
      break;
    First = Line = Prev;
  }
  if (!First)
    return std::nullopt;
  StringRef Text = Buffer.slice(*First, Buffer.find('\n', *First));
  std::string Indent = Text.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
  return std::make_pair(SM.getComposedLoc(File, *First), Indent);
}

SourceLocation afterStatement(const Stmt *S, const SourceManager &SM, const LangOptions &LO) {
  SourceLocation End = SM.getFileLoc(S->getEndLoc());
  SourceLocation Semi = Lexer::findLocationAfterToken(End, tok::semi, SM, LO, false);
  return Semi.isValid() ? Semi : Lexer::getLocForEndOfToken(End, 0, SM, LO);
}

} // namespace irregfix
