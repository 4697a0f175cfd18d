// irregfix runtime: the configuration from the environment. See config.h.
#include "config.h"

#include "layouts.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace irregfix {
namespace detail {

bool parse_bytes(const char *text, unsigned long long *out) {
  if (!text)
    return false;
  const char *p = text;
  while (std::isspace(static_cast<unsigned char>(*p)))
    ++p;
  if (!std::isdigit(static_cast<unsigned char>(*p)))
    return false;
  unsigned long long v = 0;
  const unsigned long long max = std::numeric_limits<unsigned long long>::max();
  for (; std::isdigit(static_cast<unsigned char>(*p)); ++p) {
    unsigned d = static_cast<unsigned>(*p - '0');
    if (v > (max - d) / 10)
      return false;
    v = v * 10 + d;
  }
  unsigned shift = 0;
  switch (std::toupper(static_cast<unsigned char>(*p))) {
  case 'K': shift = 10; ++p; break;
  case 'M': shift = 20; ++p; break;
  case 'G': shift = 30; ++p; break;
  case 'T': shift = 40; ++p; break;
  default: break;
  }
  if (shift) {
    if (*p == 'i' || *p == 'I')
      ++p;
    if (*p == 'b' || *p == 'B')
      ++p;
  } else if (*p == 'b' || *p == 'B') {
    ++p;
  }
  while (std::isspace(static_cast<unsigned char>(*p)))
    ++p;
  if (*p)
    return false;
  if (shift && v > (max >> shift))
    return false;
  *out = v << shift;
  return true;
}

bool parse_flag(const char *text) {
  if (!text || !*text)
    return false;
  std::string s(text);
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s == "1" || s == "true" || s == "yes" || s == "on";
}

namespace {

// IRREGFIX_DISABLE: a flag, or a comma-separated list of kernels and sites.
void parse_disable(const char *text, Config *c) {
  c->disabled = parse_flag(text);
  if (c->disabled || !text || !*text)
    return;
  std::string s(text);
  for (char &ch : s)
    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (s == "0" || s == "false" || s == "no" || s == "off")
    return;
  std::string name;
  for (const char *p = text;; ++p) {
    if (*p == ',' || *p == '\0') {
      if (!name.empty())
        c->disabled_sites.push_back(name);
      name.clear();
      if (!*p)
        break;
    } else if (!std::isspace(static_cast<unsigned char>(*p))) {
      name += *p;
    }
  }
}

} // namespace

bool disables(const Config &c, const char *kernel, const char *site_id) {
  for (const std::string &n : c.disabled_sites)
    if ((kernel && n == kernel) || (site_id && n == site_id))
      return true;
  return false;
}

Config parse_config(const char *disable, const char *max_bytes, const char *stats,
                    const char *fail_alloc) {
  Config c;
  parse_disable(disable, &c);
  c.stats = parse_flag(stats);
  c.fail_alloc = parse_flag(fail_alloc);
  if (max_bytes && *max_bytes) {
    unsigned long long v = 0;
    if (parse_bytes(max_bytes, &v))
      c.max_bytes = v;
    else
      std::fprintf(stderr, "irregfix: ignoring IRREGFIX_MAX_BYTES='%s' (expected N, NK, NM or NG)\n",
                   max_bytes);
  }
  return c;
}

bool parse_layout(const char *text, int *out) {
  if (!text || !*text) {
    *out = 0;
    return true;
  }
  std::string s(text);
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "auto")
    *out = 0;
  else if (s == "none")
    *out = kLayoutChoiceNone;
  else if (const int layout = layout_named(s.c_str()))
    *out = layout;
  else
    return false;
  return true;
}

Config parse_config(const char *disable, const char *max_bytes, const char *stats,
                    const char *fail_alloc, const char *layout, const char *sigma) {
  Config c = parse_config(disable, max_bytes, stats, fail_alloc);
  if (sigma && *sigma) {
    char *end = nullptr;
    const long v = std::strtol(sigma, &end, 10);
    if (end == sigma || *end || v < 32 || v > 4096)
      std::fprintf(stderr, "irregfix: ignoring IRREGFIX_SIGMA='%s' (expected 32 to 4096)\n", sigma);
    else
      c.sigma = round_sigma(static_cast<int>(v));
  }
  if (!parse_layout(layout, &c.layout)) {
    c.layout = 0;
    std::string expected;
    for (const LayoutRow &row : kLayoutRows)
      expected += std::string(row.spellings[0]) + ", ";
    std::fprintf(stderr, "irregfix: ignoring IRREGFIX_LAYOUT='%s' (expected %snone or auto)\n", layout,
                 expected.c_str());
  }
  return c;
}

int round_sigma(int sigma) {
  int p = 32;
  while (p < sigma && p < 4096)
    p *= 2;
  return p;
}

bool parse_chunks(const char *text, int *out) {
  if (!text || !*text || std::strcmp(text, "auto") == 0) {
    *out = 0;
    return true;
  }
  char *end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end || v < 1 || v > kMaxChunks)
    return false;
  *out = static_cast<int>(v);
  return true;
}

namespace {
// The whole of `text` as a decimal number in [lo, hi]; false on anything else.
bool parse_in(const char *text, long long lo, long long hi, long long *out) {
  char *end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}
} // namespace

int parse_hoist_group(const char *text) {
  if (!text || !*text)
    return 0;
  long long v = 0;
  return parse_in(text, 1, 1LL << 30, &v) ? static_cast<int>(v) : -1;
}

bool parse_hoist_always(const char *text) { return text && std::strcmp(text, "1") == 0; }

int parse_renumber(const char *text) {
  if (!text || !*text || std::strcmp(text, "auto") == 0)
    return 0;
  return std::strcmp(text, "1") == 0 ? 1 : std::strcmp(text, "0") == 0 ? -1 : 2;
}

int parse_lanes(const char *text) {
  if (!text || !*text || std::strcmp(text, "auto") == 0)
    return 0;
  long long v = 0;
  return parse_in(text, 2, 32, &v) && (v & (v - 1)) == 0 ? static_cast<int>(v) : -1;
}

bool valid_order_region(long long region) { return region >= 32 && region <= 4096 && (region & (region - 1)) == 0; }

int parse_order_region(const char *text) {
  if (!text || !*text)
    return 0;
  long long v = 0;
  return parse_in(text, 32, 4096, &v) && valid_order_region(v) ? static_cast<int>(v) : -1;
}

int parse_profile_after_ms(const char *text) {
  if (!text || !*text)
    return kProfileAfterMsDefault;
  long long v = 0;
  return parse_in(text, 0, 1000000, &v) ? static_cast<int>(v) : -1;
}

Config config_from_env() {
  Config c = parse_config(std::getenv("IRREGFIX_DISABLE"), std::getenv("IRREGFIX_MAX_BYTES"),
                          std::getenv("IRREGFIX_STATS"), std::getenv("IRREGFIX_FAIL_ALLOC"),
                          std::getenv("IRREGFIX_LAYOUT"), std::getenv("IRREGFIX_SIGMA"));
  const char *chunks = std::getenv("IRREGFIX_CHUNKS");
  if (!parse_chunks(chunks, &c.chunks))
    std::fprintf(stderr, "irregfix: ignoring IRREGFIX_CHUNKS='%s' (expected 1 to %d, or auto)\n",
                 chunks, kMaxChunks);
  const char *auto_sharing = std::getenv("IRREGFIX_AUTO_SHARING");
  c.auto_sharing = auto_sharing && std::strcmp(auto_sharing, "1") == 0;
  c.verify = parse_flag(std::getenv("IRREGFIX_VERIFY"));
  const char *sharing_order = std::getenv("IRREGFIX_SHARING_ORDER");
  c.sharing_order = !sharing_order || std::strcmp(sharing_order, "0") != 0;
  if (sharing_order && *sharing_order && std::strcmp(sharing_order, "0") != 0 && std::strcmp(sharing_order, "1") != 0)
    std::fprintf(stderr, "irregfix: IRREGFIX_SHARING_ORDER=%s is not 0 or 1; using 1\n", sharing_order);
  const char *group = std::getenv("IRREGFIX_HOIST_GROUP");
  c.hoist_group = parse_hoist_group(group);
  if (c.hoist_group < 0) {
    std::fprintf(stderr, "irregfix: IRREGFIX_HOIST_GROUP=%s is not a positive number of iterations; "
                         "using the default (%d steps)\n", group, kHoistDefaultSteps);
    c.hoist_group = 0;
  }
  const char *always = std::getenv("IRREGFIX_HOIST_ALWAYS");
  c.hoist_always = parse_hoist_always(always);
  if (always && *always && std::strcmp(always, "0") != 0 && !c.hoist_always)
    std::fprintf(stderr, "irregfix: IRREGFIX_HOIST_ALWAYS=%s is not 0 or 1; using 0\n", always);
  c.nvtx = parse_flag(std::getenv("IRREGFIX_NVTX"));
  const char *region = std::getenv("IRREGFIX_ORDER_REGION");
  const int order_region = parse_order_region(region);
  if (order_region < 0)
    std::fprintf(stderr, "irregfix: ignoring IRREGFIX_ORDER_REGION='%s' (expected a power of two from 32 to 4096)\n",
                 region);
  if (order_region > 0)
    c.order_region = c.domain_region = order_region;
  const char *renumber = std::getenv("IRREGFIX_RENUMBER");
  c.renumber = parse_renumber(renumber);
  if (c.renumber == 2) {
    std::fprintf(stderr, "irregfix: ignoring IRREGFIX_RENUMBER='%s' (expected auto, 1 or 0)\n", renumber);
    c.renumber = 0;
  }
  const char *domain = std::getenv("IRREGFIX_DOMAIN");
  c.domain = parse_domain(domain);
  if (c.domain == 2) {
    std::fprintf(stderr, "irregfix: ignoring IRREGFIX_DOMAIN='%s' (expected auto, 1 or 0)\n", domain);
    c.domain = 0;
  }
  c.deterministic = parse_flag(std::getenv("IRREGFIX_DETERMINISTIC"));
  const char *lanes = std::getenv("IRREGFIX_LANES");
  c.lanes = parse_lanes(lanes);
  if (c.lanes < 0) {
    std::fprintf(stderr, "irregfix: ignoring IRREGFIX_LANES='%s' (expected 2, 4, 8, 16, 32 or auto)\n", lanes);
    c.lanes = 0;
  }
  const char *after = std::getenv("IRREGFIX_PROFILE_AFTER_MS");
  c.profile_after_ms = parse_profile_after_ms(after);
  if (c.profile_after_ms < 0) {
    std::fprintf(stderr, "irregfix: ignoring IRREGFIX_PROFILE_AFTER_MS='%s' (expected milliseconds, 0 to 1000000)\n",
                 after);
    c.profile_after_ms = kProfileAfterMsDefault;
  }
  return c;
}

} // namespace detail
} // namespace irregfix
