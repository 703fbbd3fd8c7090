/// \file Module.cpp
/// The extension module: Kokkos' lifetime, the error type, and what this build runs on.

#include <Kokkos_Core.hpp>
#include <nanobind/stl/string.h>
#include <pthread.h>

#include <chrono>
#include <functional>
#include <memory>

#include "kollective/core/Error.hpp"
#include "kollective/core/RuntimeInfo.hpp"
#include "kollective/python/bindings/Bindings.hpp"

namespace kollective::python {
namespace {

bool forked_child = false;

/// Kokkos starts once, when the module is imported; the package finalizes it at exit (atexit),
/// after every result, which holds only host memory, can be dropped.
void initialize_kokkos() {
  if (!Kokkos::is_initialized() && !Kokkos::is_finalized()) Kokkos::initialize();
}

void finalize_kokkos() {
  if (Kokkos::is_initialized()) Kokkos::finalize();
}

}  // namespace

void require_kokkos() {
  if (forked_child) {
    fail(
        "kollective cannot run in a process forked from one that had imported it (OpenMP's threads do not "
        "survive fork): use multiprocessing's 'spawn' or 'forkserver' start method");
  }
  if (!Kokkos::is_initialized()) fail("kollective: Kokkos was finalized (the interpreter is exiting)");
}

std::function<void()> signal_check() {
  const nb::module_ threading = nb::module_::import_("threading");
  if (!threading.attr("current_thread")().is(threading.attr("main_thread")())) return {};
  auto last = std::make_shared<std::chrono::steady_clock::time_point>();
  return [last] {
    const auto now = std::chrono::steady_clock::now();
    if (now - *last < std::chrono::milliseconds(50)) return;
    *last = now;
    nb::gil_scoped_acquire locked;
    if (PyErr_CheckSignals() != 0) throw nb::python_error();  // the handler raised (KeyboardInterrupt)
  };
}

}  // namespace kollective::python

NB_MODULE(_kollective, m) {
  namespace kp = kollective::python;
  m.doc() = "Kollective's solvers on Kokkos' default execution space (use the kollective package)";
  kp::nb::exception<kollective::Error>(m, "Error", PyExc_ValueError);
  kp::initialize_kokkos();
  pthread_atfork(nullptr, nullptr, [] { kp::forked_child = true; });
  m.attr("version") = KOLLECTIVE_VERSION;
  m.def("finalize", &kp::finalize_kokkos, "Ends Kokkos; the package calls it at exit.");
  m.def(
      "backend", [] { return std::string(Kokkos::DefaultExecutionSpace::name()); },
      "Kokkos' default execution space, e.g. OpenMP or Cuda.");
  m.def(
      "concurrency", [] { return Kokkos::DefaultExecutionSpace().concurrency(); },
      "Threads (host) or resident threads (GPU) of the default execution space.");
  kp::bind_elections(m);
  kp::bind_coalition(m);
  kp::bind_ranksvm(m);
}
