#include "Frontend/LaunchBrackets.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

#include <vector>

using namespace clang;

namespace irregfix {

namespace {

struct Tok {
  tok::TokenKind Kind;
  unsigned Offset, Length;
};

// `<<` or `>>`, blanks, then `<` or `>`: what a split bracket looks like.
// One pass over the text (every file the parse reads, the toolkit's headers
// included), from one `<` or `>` to the next (memchr's pace between them); a
// pair is looked for again two characters after the last one.
bool maySplit(llvm::StringRef Text) {
  const size_t N = Text.size();
  size_t Next[2] = {Text.find('<'), Text.find('>')};
  while (true) {
    const int Which = Next[0] < Next[1] ? 0 : 1;
    const size_t I = Next[Which];
    if (I == llvm::StringRef::npos || I + 1 >= N)
      return false;
    const char C = Text[I];
    size_t After = I + 1;
    if (Text[I + 1] == C) {
      size_t J = I + 2;
      while (J < N && (Text[J] == ' ' || Text[J] == '\t' || Text[J] == '\r' || Text[J] == '\n'))
        ++J;
      if (J < N && J > I + 2 && Text[J] == C)
        return true;
      After = I + 2;
    }
    Next[Which] = Text.find(C, After);
  }
}

std::vector<Tok> tokens(llvm::StringRef Text, std::vector<bool> &Operator) {
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  LO.CUDA = true;
  Lexer L(SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
  std::vector<Tok> Out;
  Token T;
  while (!L.LexFromRawLexer(T)) {
    Out.push_back({T.getKind(), T.getLocation().getRawEncoding(), T.getLength()});
    Operator.push_back(T.is(tok::raw_identifier) && T.getRawIdentifier() == "operator");
  }
  return Out;
}

} // namespace

std::optional<std::string> joinLaunchBrackets(llvm::StringRef Text) {
  if (!maySplit(Text))
    return std::nullopt;
  std::vector<bool> Operator;
  const std::vector<Tok> T = tokens(Text, Operator);
  // Two tokens with only blanks between them.
  auto Adjacent = [&](size_t I, tok::TokenKind A, tok::TokenKind B) {
    if (I + 1 >= T.size() || T[I].Kind != A || T[I + 1].Kind != B)
      return false;
    return Text.slice(T[I].Offset + T[I].Length, T[I + 1].Offset).find_first_not_of(" \t\r\n") ==
           llvm::StringRef::npos;
  };
  std::string Out = Text.str();
  auto Join = [&](size_t I, char C) { // T[I] and T[I + 1] as one token of three C, then the blanks
    unsigned Begin = T[I].Offset, End = T[I + 1].Offset + 1;
    Out.replace(Begin, End - Begin, std::string(3, C) + Text.slice(T[I].Offset + 2, T[I + 1].Offset).str());
  };
  bool Changed = false;
  for (size_t I = 0; I < T.size(); ++I) {
    const bool SplitOpen = Adjacent(I, tok::lessless, tok::less) && !(I > 0 && Operator[I - 1]);
    if (!SplitOpen && T[I].Kind != tok::lesslessless)
      continue;
    // The close: at the same depth, before the arguments' parenthesis.
    int Depth = 0;
    size_t J = I + (SplitOpen ? 2 : 1);
    bool SplitClose = false;
    for (; J < T.size(); ++J) {
      tok::TokenKind K = T[J].Kind;
      if (K == tok::l_paren || K == tok::l_square || K == tok::l_brace)
        ++Depth;
      else if (K == tok::r_paren || K == tok::r_square || K == tok::r_brace)
        --Depth;
      if (Depth < 0 || (Depth == 0 && K == tok::semi))
        break;
      if (Depth == 0 && (K == tok::greatergreatergreater || Adjacent(J, tok::greatergreater, tok::greater))) {
        SplitClose = K != tok::greatergreatergreater;
        break;
      }
    }
    const size_t Args = J + (SplitClose ? 2 : 1);
    if (J >= T.size() || Args >= T.size() || T[Args].Kind != tok::l_paren ||
        (T[J].Kind != tok::greatergreatergreater && !SplitClose))
      continue;
    if (SplitOpen)
      Join(I, '<');
    if (SplitClose)
      Join(J, '>');
    Changed |= SplitOpen || SplitClose;
    I = Args;
  }
  if (!Changed)
    return std::nullopt;
  return Out;
}

namespace {

// A file read whole, shown with other text of the same length.
class ShownFile : public llvm::vfs::File {
public:
  ShownFile(llvm::vfs::Status S, std::unique_ptr<llvm::MemoryBuffer> Buffer)
      : S(std::move(S)), Buffer(std::move(Buffer)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return S; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &Name, int64_t, bool,
                                                               bool) override {
    if (Buffer)
      return std::move(Buffer);
    return std::make_error_code(std::errc::io_error); // read once, as clang does
  }
  std::error_code close() override { return {}; }

private:
  llvm::vfs::Status S;
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
};

} // namespace

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> LaunchBracketFileSystem::openFileForRead(const llvm::Twine &Path) {
  auto F = ProxyFileSystem::openFileForRead(Path);
  if (!F)
    return F;
  auto S = (*F)->status();
  auto Buffer = (*F)->getBuffer(Path);
  if (!S || !Buffer)
    return ProxyFileSystem::openFileForRead(Path);
  std::optional<std::string> Joined = joinLaunchBrackets((*Buffer)->getBuffer());
  if (!Joined)
    return std::make_unique<ShownFile>(*S, std::move(*Buffer));
  Originals[S->getUniqueID()] = (*Buffer)->getBuffer().str();
  return std::make_unique<ShownFile>(*S, llvm::MemoryBuffer::getMemBufferCopy(*Joined, (*Buffer)->getBufferIdentifier()));
}

std::optional<std::string> LaunchBracketFileSystem::original(const llvm::Twine &Path) {
  auto S = status(Path);
  if (!S)
    return std::nullopt;
  auto It = Originals.find(S->getUniqueID());
  return It == Originals.end() ? std::nullopt : std::optional<std::string>(It->second);
}

} // namespace irregfix
