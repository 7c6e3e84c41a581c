// Included only by the two files that include libtorch headers
// (oracle_torch.cpp, libtorch_nn_aten.cpp): libtorch made quiet and fast for
// an oracle that provokes thousands of errors and needs only their messages.
#pragma once

#include <c10/util/Exception.h>
#include <c10/util/Logging.h>

#include <string>

namespace gshape::oracle {

// Once per process: TORCH_WARN's messages (an out= tensor resized, `x.T` on
// a tensor not 2-d, padding='same' with an even kernel ...) are not
// outcomes, nor are logged warnings about deprecated forms; and no C++
// backtrace in each c10::Error (symbolising them took most of the run).
inline void quiet_libtorch() {
  struct SilentWarnings : c10::WarningHandler {
    void process(const c10::SourceLocation&, const std::string&, const bool) override {}
  };
  static const bool quiet = [] {
    static SilentWarnings silent;
    c10::Warning::set_warning_handler(&silent);
    FLAGS_caffe2_log_level = 3;
    c10::SetStackTraceFetcher([] { return std::string(); });
    return true;
  }();
  (void)quiet;
}

}  // namespace gshape::oracle
