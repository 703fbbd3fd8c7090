#ifndef KOLLECTIVE_DRIVERS_KOKKOS_SETTINGS_HPP
#define KOLLECTIVE_DRIVERS_KOKKOS_SETTINGS_HPP

/// \file KokkosSettings.hpp
/// Kokkos' own command-line options and environment variables, checked before Kokkos starts:
/// Kokkos aborts the process (no message a user can act on, no clean exit) on a malformed value.

namespace kollective::driver {

/// Fails (kollective::Error) naming the option or variable that Kokkos would abort on, an option
/// Kokkos does not know (it would only warn), or a device number beyond the devices present.
void check_kokkos_settings(int argc, char* argv[]);

}  // namespace kollective::driver

#endif
