#include "Transform/Launcher.h"

namespace irregfix {

namespace {

std::string join(const std::vector<std::string> &Items, const std::string &Sep) {
  std::string Out;
  for (const std::string &I : Items)
    if (!I.empty())
      Out += (Out.empty() ? "" : Sep) + I;
  return Out;
}

std::string siteRecordText(const SiteRecord &S) {
  std::string Out = "static const irregfix::SiteInfo " + S.Name + " = {\"" + S.Id + "\", \"" + S.Kernel + "\", \"" +
                    pattern_name(S.Kind) + "\", " + (S.Flags.empty() ? "0" : join(S.Flags, " | ")) + ", " +
                    (S.Handle.empty() ? "nullptr" : S.Handle);
  if (S.Sources)
    Out += ", \"" + *S.Sources + "\"";
  if (S.RenumberedThrough)
    Out += ", " + std::to_string(*S.RenumberedThrough);
  return Out + "};\n";
}

void print(const std::vector<LauncherStatement> &Statements, const std::string &Indent, std::string &Out) {
  for (const LauncherStatement &S : Statements) {
    if (S.Body.empty()) {
      Out += Indent + S.Text + "\n";
      continue;
    }
    Out += Indent + S.Text + " {\n";
    print(S.Body, Indent + "  ", Out);
    Out += Indent + "}";
    if (!S.Else.empty()) {
      Out += " else {\n";
      print(S.Else, Indent + "  ", Out);
      Out += Indent + "}";
    }
    Out += "\n";
  }
}

} // namespace

std::string KernelLaunch::text() const {
  std::vector<std::string> All = Args;
  All.push_back(BlockOffset);
  return Kernel + "<<<" + Grid + ", " + Block + ", " + Shmem + ", __irregfix_stream>>>(" + join(All, ", ") + ");";
}

std::string printLauncher(const Launcher &L) {
  std::string Out;
  for (const SiteRecord &S : L.Sites)
    Out += siteRecordText(S);
  Out += L.Definitions + L.Comment + "\n" + L.Signature + " {\n";
  for (const std::string &Local : L.Locals)
    Out += "  " + Local + "\n";
  Out += "  if (" + join(L.Conditions, " &&\n      ") + ") {\n";
  std::vector<LauncherStatement> Branch = L.Branch;
  std::vector<LauncherStatement> Ended{{"irregfix::end_transformed_launch(" + L.Site + ", __irregfix_stream);"}};
  Ended.insert(Ended.end(), L.AfterEnd.begin(), L.AfterEnd.end());
  Ended.push_back({"return;"});
  if (L.Completion.empty())
    Branch.insert(Branch.end(), Ended.begin(), Ended.end());
  else
    Branch.push_back({"if (" + L.Completion + ")", Ended, {}});
  print(Branch, "    ", Out);
  Out += "  }\n  " + L.Original.text() + "\n  irregfix::end_original_launch(" + L.Site + ", __irregfix_stream);\n}";
  return Out;
}

} // namespace irregfix
