// irregfix runtime: the frames of rewritten code on each host thread, and the
// points where code the tool cannot see runs (irregfix::EntryGuard, irregfix::UnseenCall).
#include <irregfix/irregfix.cuh>

#include "state.h"

namespace irregfix {

namespace {
// Frames of functions of rewritten files that reach a transformed launch,
// entered since code the tool cannot see last ran on this thread.
thread_local int seen_frames = 0;
} // namespace

void enter_seen_code(const char *where) {
  if (seen_frames == 0) // called from code the tool cannot see
    detail::invalidate_all(IRREGFIX_CAUSE_ENTRY, where);
  ++seen_frames;
}

void leave_seen_code() {
  if (seen_frames > 0)
    --seen_frames;
}

int begin_unseen_code(int cause, const char *where) {
  if (cause == IRREGFIX_CAUSE_DEVICE_RESET)
    irregfix_forget_device(where);
  else
    detail::invalidate_all(cause, where);
  const int saved = seen_frames;
  seen_frames = 0;
  return saved;
}

void end_unseen_code(int saved, int cause, const char *where) {
  seen_frames = saved;
  // What ran may have written sources after copies were rebuilt in a callback
  // (a device reset runs none: the runtime holds nothing after it).
  if (cause != IRREGFIX_CAUSE_DEVICE_RESET)
    detail::invalidate_all(cause, where);
}

} // namespace irregfix
