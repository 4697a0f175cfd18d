// irregfix runtime: the host side of IRREGFIX_VERIFY (see verify.h): naming a
// source, finding the one whose fingerprint changed, and the message. Host-only:
// test/unit/runtime checks it without a GPU.
#pragma once

#include <string>
#include <vector>

namespace irregfix {
namespace detail {

// The name of source `index` in a SiteInfo::sources list ("val,col,row_ptr",
// spaces around names ignored); "#<index>" when the list is null or shorter.
std::string source_name(const char *sources, int index);

// The first source whose fingerprint differs from the one taken at the build;
// -1 when all agree. A source missing from either list counts as changed.
int first_changed(const std::vector<unsigned long long> &built,
                  const std::vector<unsigned long long> &now);

// The line printed before abort() (no newline):
// irregfix: IRREGFIX_VERIFY: stale copy at <site> (kernel '<kernel>'): source
// '<source>' changed since launch <built_by> built the copy; this is launch <launch>
std::string stale_copy_message(const char *site, const char *kernel, const std::string &source,
                               long long built_by, long long launch);

} // namespace detail
} // namespace irregfix
