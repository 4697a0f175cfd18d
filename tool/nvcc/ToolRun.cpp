#include "ToolRun.h"
#include "MakeDepFile.h"

#include "Frontend/AtomicWrite.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <optional>

namespace irregfix::nvcc {

namespace {

std::optional<std::string> readFile(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

// The tool's first error, as one line.
std::string firstError(llvm::StringRef Log) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Log.split(Lines, '\n');
  for (llvm::StringRef Line : Lines)
    if (Line.contains("error:")) {
      Line = Line.trim();
      constexpr size_t Max = 240;
      return Line.size() > Max ? Line.take_front(Max).str() + "..." : Line.str();
    }
  return "";
}

// A file name as a C string literal.
std::string quotedName(llvm::StringRef Name) {
  std::string Quoted = "\"";
  for (char C : Name) {
    if (C == '\\' || C == '"')
      Quoted += '\\';
    Quoted += C;
  }
  return Quoted + "\"";
}

ToolRunResult failed(Outcome O, std::string Why) { return {O, std::move(Why), {}}; }

} // namespace

std::string rewrittenName(llvm::StringRef Source) { return llvm::sys::path::filename(Source).str(); }

Outcome readOutcome(llvm::StringRef EntryDir) {
  std::optional<std::string> Text = readFile((EntryDir + "/" + OutcomeFile).str());
  return Text && llvm::StringRef(*Text).trim() == "rewritten" ? Outcome::Rewritten : Outcome::Unchanged;
}

std::string lineDirective(llvm::StringRef Source) { return "#line 1 " + quotedName(Source) + "\n"; }

namespace {

// Calls F(line directive's file name, its begin and end in Copy) for each `#line N "file"`.
template <typename Fn> void forEachLineDirective(llvm::StringRef Copy, Fn F) {
  for (size_t At = 0; At < Copy.size();) {
    size_t End = Copy.find('\n', At);
    if (End == llvm::StringRef::npos)
      End = Copy.size();
    llvm::StringRef Line = Copy.slice(At, End);
    size_t Open = Line.find('"');
    if (Line.starts_with("#line ") && Open != llvm::StringRef::npos) {
      std::string Name;
      size_t I = Open + 1;
      for (; I < Line.size() && Line[I] != '"'; ++I)
        Name += Line[I] == '\\' && I + 1 < Line.size() ? Line[++I] : Line[I];
      F(Name, At + Open, At + std::min(I + 1, Line.size()));
    }
    At = End + 1;
  }
}

// The copy with the source named as nvcc's command line names it in every
// `#line` (the tool names it by its absolute path after an inlined header),
// so that __FILE__ is the same all through the file.
std::string nameSourceAsWritten(llvm::StringRef Copy, llvm::StringRef Source) {
  std::string Out;
  size_t Kept = 0;
  forEachLineDirective(Copy, [&](const std::string &Name, size_t Begin, size_t End) {
    bool Same = false;
    if (Name == Source || llvm::sys::fs::equivalent(Name, Source, Same) || !Same)
      return;
    Out += Copy.slice(Kept, Begin);
    Out += quotedName(Source);
    Kept = End;
  });
  return Out + Copy.drop_front(Kept).str();
}

} // namespace

std::vector<std::string> inlinedFiles(llvm::StringRef Copy, llvm::StringRef Source) {
  std::vector<std::string> Files;
  forEachLineDirective(Copy, [&](const std::string &Name, size_t, size_t) {
    if (Name != Source && !llvm::is_contained(Files, Name))
      Files.push_back(Name);
  });
  return Files;
}

ToolRunResult runTool(const ToolSetup &Setup, llvm::StringRef Source, llvm::ArrayRef<std::string> ClangFlags,
                      llvm::StringRef RunDir) {
  const std::string Name = rewrittenName(Source);
  const std::string Output = (RunDir + "/" + Name).str();
  const std::string DepFile = Output + ".d";
  const std::string Report = (RunDir + "/" + reportName(Source)).str();
  const std::string Log = (RunDir + "/" + logName(Source)).str();

  std::vector<std::string> Args{Setup.Tool};
  Args.insert(Args.end(), Setup.Options.begin(), Setup.Options.end());
  Args.insert(Args.end(), {Source.str(), "-o", Output, "--depfile=" + DepFile, "--depfile-target=" + Name, "--report",
                           "--"});
  Args.insert(Args.end(), ClangFlags.begin(), ClangFlags.end());
  std::vector<llvm::StringRef> Argv(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(Report), llvm::StringRef(Log)};

  std::string ErrMsg;
  bool ExecutionFailed = false;
  int Status = llvm::sys::ExecuteAndWait(Setup.Tool, Argv, /*Env=*/std::nullopt, Redirects, Setup.TimeoutSeconds,
                                         /*MemoryLimit=*/0, &ErrMsg, &ExecutionFailed);
  if (ExecutionFailed)
    return failed(Outcome::Failed, "cannot run irregfix ('" + Setup.Tool + "'): " + ErrMsg);
  if (Status == -2 && llvm::StringRef(ErrMsg).contains("timed out"))
    return failed(Outcome::Failed, "irregfix took longer than " + std::to_string(Setup.TimeoutSeconds) + " s");
  if (Status < 0)
    return failed(Outcome::Failed, "irregfix crashed (" + ErrMsg + ")");
  if (Status != 0) {
    std::string Error = firstError(readFile(Log).value_or(""));
    if (Status == 1)
      return failed(Outcome::Refused, Error.empty() ? "irregfix refused it" : "irregfix refused it: " + Error);
    return failed(Outcome::Failed, "irregfix exited with status " + std::to_string(Status) +
                                       (Error.empty() ? "" : ": " + Error));
  }

  std::optional<std::string> Rewritten = readFile(Output);
  std::optional<std::string> Original = readFile(Source);
  std::optional<std::string> Deps = readFile(DepFile);
  if (!Rewritten || !Original || !Deps)
    return failed(Outcome::Failed, "irregfix wrote no output");
  ToolRunResult R{Outcome::Unchanged, "", readPrerequisites(*Deps)};
  std::string Error;
  if (*Rewritten != *Original) {
    R.Result = Outcome::Rewritten;
    if (!writeAtomically(Output, lineDirective(Source) + nameSourceAsWritten(*Rewritten, Source), Error))
      return failed(Outcome::Failed, Error);
  }
  if (!writeAtomically((RunDir + "/" + OutcomeFile).str(),
                       R.Result == Outcome::Rewritten ? "rewritten\n" : "unchanged\n", Error))
    return failed(Outcome::Failed, Error);
  return R;
}

} // namespace irregfix::nvcc
