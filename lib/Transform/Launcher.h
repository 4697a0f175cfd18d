// A generated launcher as a model of its steps, printed once (printLauncher).
// Every strategy's launcher has one shape:
//
//   <site records> <definitions it calls> // <comment>
//   <signature> {
//     <locals>
//     if (<condition> && <condition> && ...) {   // the runtime's steps, in order
//       <transformed branch>                     // launches of the generated kernels
//       [if (<completion>) {]                    // a last step after them (the scatter's executor)
//       irregfix::end_transformed_launch(<site>, stream);
//       <after the end>                          // work the launch's timing leaves out (a check)
//       return;
//     }
//     <original launch>                          // the fallback
//     irregfix::end_original_launch(<site>, stream);
//   }
//
// A strategy builds these records; one built on another (the hoisted loop on
// the in-kernel launcher) changes the records, and nothing concatenates text
// across strategies.
#pragma once

#include <irregfix/pattern.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace irregfix {

// The static irregfix::SiteInfo that names a site to the runtime.
struct SiteRecord {
  SiteRecord(std::string Name, std::string Id, std::string Kernel, Pattern Kind, std::vector<std::string> Flags)
      : Name(std::move(Name)), Id(std::move(Id)), Kernel(std::move(Kernel)), Kind(Kind), Flags(std::move(Flags)) {}
  std::string Name;                 // the variable
  std::string Id;                   // "file.cu:LINE:COL"
  std::string Kernel;
  Pattern Kind = kPatternRange;
  std::vector<std::string> Flags;   // irregfix::kSite... values, or'ed
  std::string Handle;               // the transformed kernel's address (sharing), else none
  std::optional<std::string> Sources; // "A,B": the sources as the runtime orders them, for its messages
  std::optional<unsigned> RenumberedThrough; // the copy a renumbered gather reads through
};

// `Kernel<<<Grid, Block, Shmem, __irregfix_stream>>>(Args..., BlockOffset);`
struct KernelLaunch {
  std::string Kernel; // as the launcher names it: qualifier, name, template arguments
  std::string Grid = "__irregfix_grid";
  std::string Block = "__irregfix_block";
  std::string Shmem = "__irregfix_shmem";
  std::vector<std::string> Args; // the kernel's own arguments, then what the strategy adds; empty ones skipped
  std::string BlockOffset;       // a chunkable kernel's first block, when it takes one
  std::string text() const;
};

// A statement of the transformed branch: a line, or a block under a head
// (`if (...)`, `for (...)`) with an optional `else` block.
struct LauncherStatement {
  LauncherStatement(std::string Text, std::vector<LauncherStatement> Body = {},
                    std::vector<LauncherStatement> Else = {})
      : Text(std::move(Text)), Body(std::move(Body)), Else(std::move(Else)) {}
  std::string Text;
  std::vector<LauncherStatement> Body, Else;
};

struct Launcher {
  std::vector<SiteRecord> Sites;
  std::string Definitions; // what the launcher calls: field piece tables, index kernels
  std::string Comment;     // one line: what it launches, and when the original runs
  std::string Signature;
  std::string Site;        // the record naming the launch (the runtime keeps its selector there)
  std::vector<std::string> Locals;     // declarations, before the conditions
  std::vector<std::string> Conditions; // runtime calls that must all succeed, in order
  KernelLaunch Transformed;            // the transformed kernel's launch ...
  std::vector<LauncherStatement> Branch; // ... and the branch that runs it
  std::string Completion;              // a last call after the branch that must succeed too, if any
  std::vector<LauncherStatement> AfterEnd; // after end_transformed_launch, before the return
  KernelLaunch Original;
};

// The launcher's text: the site records, the definitions, the comment and the
// function, without a newline after its last brace.
std::string printLauncher(const Launcher &L);

} // namespace irregfix
