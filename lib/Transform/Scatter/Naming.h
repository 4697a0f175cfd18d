// Names shared by the kernel-side and host-side rewriters of the scatter
// strategy, so the variant and its launcher agree.
#pragma once

#include <string>

namespace irregfix::scatter {

// The variant's parameter: the buffer each thread writes its contribution to.
inline std::string contributionsName() { return "__irregfix_contrib"; }
// The variant's parameter: each update's slot in the contributions buffer (its
// own item's, or, for an element of many updates, one of consecutive slots).
inline std::string slotsName() { return "__irregfix_slots"; }
// Assignments: the variant's flags, 1 where a thread wrote its value.
inline std::string writtenName() { return "__irregfix_written"; }
// The launcher's local: what prepare_scatter returns.
inline std::string planName() { return "__irregfix_plan"; }

} // namespace irregfix::scatter
