#include "Frontend/Report.h"

#include <cstdio>

namespace irregfix {

static std::string join(const std::vector<std::string> &V, const char *Sep) {
  std::string Out;
  for (size_t I = 0; I < V.size(); ++I)
    Out += (I ? Sep : "") + V[I];
  return Out;
}

namespace {

std::string quotedValue(const std::string &V) {
  std::string Out = "\"";
  for (char C : V)
    Out += C == '"' ? std::string("\\\"") : std::string(1, C);
  return Out + "\"";
}

std::string jsonString(const std::string &V) {
  std::string Out = "\"";
  for (unsigned char C : V) {
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\t':
      Out += "\\t";
      break;
    default:
      if (C < 0x20) {
        char Buf[8];
        snprintf(Buf, sizeof Buf, "\\u%04x", C);
        Out += Buf;
      } else {
        Out += static_cast<char>(C);
      }
    }
  }
  return Out + "\"";
}

} // namespace

std::string formatReadsJson(const std::vector<ReadReport> &Reads) {
  std::string Out = "[";
  for (size_t I = 0; I < Reads.size(); ++I) {
    const ReadReport &R = Reads[I];
    Out += std::string(I ? ",\n " : "\n ") + "{\"file\": " + jsonString(R.File) +
           ", \"line\": " + std::to_string(R.Line) + ", \"column\": " + std::to_string(R.Column) +
           ", \"kernel\": " + jsonString(R.Kernel) + ", \"function\": " + jsonString(R.Function) +
           ", \"array\": " + jsonString(R.Array) + ", \"index\": " + jsonString(R.Index) +
           ", \"pattern\": " + jsonString(R.Pattern) + ", \"verdict\": " + jsonString(R.Verdict) +
           ", \"reason\": " + jsonString(R.Reason) + "}";
  }
  return Out + (Reads.empty() ? "]\n" : "\n]\n");
}

std::string formatReport(const std::vector<SiteReport> &Sites, const std::vector<ReadReport> &Reads) {
  std::string Out;
  for (const SiteReport &S : Sites) {
    Out += S.File + ":" + std::to_string(S.Line) + ":" + std::to_string(S.Column) + ": kernel=" +
           S.Kernel + " pattern=" + S.Pattern + " offsets=" + S.Offsets +
           " arrays=" + (S.Arrays.empty() ? "-" : join(S.Arrays, ",")) +
           " verdict=" + (S.Transformed ? "transformed" : "refused");
    if (!S.Threads.empty())
      Out += " threads=" + S.Threads;
    if (!S.Launch.empty())
      Out += " launch=" + S.Launch;
    if (!S.AliasChecks.empty())
      Out += " alias-checks=" + join(S.AliasChecks, ",");
    if (!S.Renumbered.empty())
      Out += " renumbered=" + S.Renumbered;
    if (!S.Lanes.empty())
      Out += " lanes=" + (S.Lanes.find(' ') == std::string::npos ? S.Lanes : quotedValue(S.Lanes));
    if (!S.Domain.empty())
      Out += " domain=" + (S.Domain.find(' ') == std::string::npos ? S.Domain : quotedValue(S.Domain));
    if (!S.Reason.empty())
      Out += " reason=\"" + S.Reason + "\"";
    Out += "\n";
  }
  for (const ReadReport &R : Reads) {
    Out += R.File + ":" + std::to_string(R.Line) + ":" + std::to_string(R.Column) + ": read kernel=" + R.Kernel;
    if (!R.Function.empty())
      Out += " function=" + R.Function;
    Out += " array=" + R.Array + " index=" + quotedValue(R.Index) + " pattern=" + R.Pattern + " verdict=" + R.Verdict;
    if (!R.Reason.empty())
      Out += " reason=" + quotedValue(R.Reason);
    Out += "\n";
  }
  return Out;
}

} // namespace irregfix
