// irregfix runtime: the host side of IRREGFIX_VERIFY. See verify_logic.h.
#include "verify_logic.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace irregfix {
namespace detail {

std::string source_name(const char *sources, int index) {
  const char *p = sources;
  for (int i = 0; p && i < index; ++i) {
    p = std::strchr(p, ',');
    if (p)
      ++p;
  }
  if (!p || index < 0)
    return "#" + std::to_string(index);
  const char *end = std::strchr(p, ',');
  std::string name(p, end ? end : p + std::strlen(p));
  const auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  name.erase(name.begin(), std::find_if_not(name.begin(), name.end(), space));
  name.erase(std::find_if_not(name.rbegin(), name.rend(), space).base(), name.end());
  return name.empty() ? "#" + std::to_string(index) : name;
}

int first_changed(const std::vector<unsigned long long> &built,
                  const std::vector<unsigned long long> &now) {
  const std::size_t both = std::min(built.size(), now.size());
  for (std::size_t i = 0; i < both; ++i)
    if (built[i] != now[i])
      return static_cast<int>(i);
  return built.size() == now.size() ? -1 : static_cast<int>(both);
}

std::string stale_copy_message(const char *site, const char *kernel, const std::string &source,
                               long long built_by, long long launch) {
  return std::string("irregfix: IRREGFIX_VERIFY: stale copy at ") + (site ? site : "?") + " (kernel '" +
         (kernel ? kernel : "?") + "'): source '" + source + "' changed since launch " +
         std::to_string(built_by) + " built the copy; this is launch " + std::to_string(launch);
}

} // namespace detail
} // namespace irregfix
