// Names shared by the kernel-side and host-side rewriters of the scatter
// strategy, so the variant and its launcher agree.
#pragma once

#include <string>

namespace irregfix::scatter {

// The variant's parameter: the buffer each thread writes its contribution to.
inline std::string contributionsName() { return "__irregfix_contrib"; }
// The launcher's local: what prepare_scatter returns.
inline std::string planName() { return "__irregfix_plan"; }

} // namespace irregfix::scatter
