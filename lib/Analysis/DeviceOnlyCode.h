// Code only the device compilation sees. irregfix reads the host pass of a CUDA
// file, where __CUDA_ARCH__ is undefined: in a function with
// `#ifdef __CUDA_ARCH__ ... #else ... #endif` the device runs what the analysis
// never read (and the analysis reads what never runs on the device); a macro
// defined differently under __CUDA_ARCH__ expands on the device to what the
// analysis never saw. The preprocessor records each conditional that tests
// __CUDA_ARCH__, the blocks it skipped, and the expansions of macros defined
// under one; the write analysis and the site finder ask whether a function has
// such code, and whether its device-only part may store to memory. Whoever
// parses the file owns the record and hands it to the analyses (null: none
// recorded).
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
}

namespace irregfix {

class DeviceOnlyCode {
public:
  // What the device-only text of some code does, as its tokens tell.
  struct Effects {
    bool Stores = false;              // a store through memory, an atomic, assembly, a user call
    std::string What;                 // the first such token, for the reason
    std::set<std::string> Assigned;   // plain names assigned (locals, or __device__ variables)
    std::set<std::string> Declared;   // names it declares
    std::set<std::string> Calls;      // functions it calls (looked up by mayStore)
  };
  // A conditional on __CUDA_ARCH__, or the expansion of a macro defined under one.
  struct Region {
    clang::SourceRange Range;
    Effects Device;  // of its blocks the host pass skipped (the macro's device definition)
  };

  explicit DeviceOnlyCode(clang::Preprocessor &PP) : PP(PP) {}

  // The callbacks that record into this; the Preprocessor owns them.
  std::unique_ptr<clang::PPCallbacks> recorder();

  // The regions inside a function's body (and its callees' are asked separately).
  std::vector<const Region *> within(const clang::FunctionDecl *F) const;
  // The device functions Kernel calls, at any depth (its body is not among
  // them), that have device-only code: each with its first region.
  std::vector<std::pair<const clang::FunctionDecl *, const Region *>>
  inCallees(const clang::FunctionDecl *Kernel) const;
  // Why the device-only code of F may store to memory the analysis cannot
  // name, or "": a store through memory, an atomic, assembly, a call of a
  // function of the program, or an assignment of a name that is not one of F's
  // parameters or locals (a __device__ variable).
  std::string mayStore(const clang::FunctionDecl *F) const;

  // The effects of source text (exposed for tests).
  static Effects effectsOf(llvm::StringRef Text, const clang::LangOptions &LO);

private:
  friend class DeviceOnlyRecorder;
  clang::Preprocessor &PP;
  std::vector<Region> Regions;
};

} // namespace irregfix
