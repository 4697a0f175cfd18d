// What the decision step made of each kernel, said once: a remark per site,
// scatter update and ordered launch (with notes on what each copy holds and
// what the launch checks), a remark per indirect read no site's remark
// explains, and for each the row of --report it is made from (ReportRows.h).
#pragma once

#include "Decide/KernelDecision.h"
#include "Frontend/Diagnostics.h"
#include "Frontend/Report.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace irregfix {

class VerdictRemarks {
public:
  // Renumbered: the indirect reads program-wide renumbering serves as they
  // are written (CacheEdits.h, renumberedReads), with what the report says.
  VerdictRemarks(Messages &Msg, clang::ASTContext &Ctx,
                 const std::map<const clang::Expr *, std::string> *Renumbered = nullptr)
      : Msg(Msg), Ctx(Ctx), Renumbered(Renumbered) {}

  // Says what became of D's kernel; its rows go to Sites and Reads.
  void say(const KernelDecision &D, std::vector<SiteReport> &Sites, std::vector<ReadReport> &Reads);

private:
  void site(const Site &S, const KernelInfo &Info, std::vector<SiteReport> &Rows);
  void transformed(const Site &S, const SiteReport &Row, const std::string &What);
  void fields(const Site &S, const SiteArray &A);
  void deviceOnlyCode(const KernelDecision &D);
  void kernelWide(const KernelInfo &Info);
  void lanes(const KernelInfo &Info);
  void hoisting(const KernelInfo &Info);
  void scatter(const ScatterSite &S, const KernelInfo &Info, std::vector<SiteReport> &Rows);
  void reads(const KernelInfo &Info, std::vector<ReadReport> &Rows);

  Messages &Msg;
  clang::ASTContext &Ctx;
  const std::map<const clang::Expr *, std::string> *Renumbered;
  std::set<const DeviceOnlyCode::Region *> DeviceOnlyRemarked; // one remark a region
};

} // namespace irregfix
