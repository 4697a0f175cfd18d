#include "hoist_plan.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace irregfix {
namespace detail {

int parse_hoist_group(const char *text) {
  if (!text || !*text)
    return 0;
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0' || v < 1 || v > (1LL << 30))
    return -1;
  return static_cast<int>(v);
}

bool parse_hoist_always(const char *text) { return text && std::strcmp(text, "1") == 0; }

HoistPlan plan_hoist(long long width, int group) {
  HoistPlan p;
  p.width = width > 0 ? width : 0;
  long long g = group > 0 ? group : (p.width + kHoistDefaultSteps - 1) / kHoistDefaultSteps;
  p.group = static_cast<int>(g > 0 ? g : 1);
  p.steps = static_cast<int>((p.width + p.group - 1) / p.group);
  return p;
}

} // namespace detail
} // namespace irregfix
