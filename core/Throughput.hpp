#ifndef KOLLECTIVE_CORE_THROUGHPUT_HPP
#define KOLLECTIVE_CORE_THROUGHPUT_HPP

/// \file Throughput.hpp
/// A kind of work's amount a second, as an algorithm's time model assumes it: on a GPU, and on
/// one host thread. Each algorithm declares its own beside its types; the library's `auto`
/// choices and the driver's estimates (time checks, `max_seconds`) read the same numbers.

namespace kollective {

struct Throughput {
  double gpu;          ///< on one GPU
  double host_thread;  ///< on one thread of a host backend
  /// The rate on a GPU, or on `threads` host threads.
  constexpr double per_second(bool on_gpu, int threads) const { return on_gpu ? gpu : host_thread * threads; }
};

}  // namespace kollective

#endif
