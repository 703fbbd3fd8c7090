#ifndef KOLLECTIVE_DRIVERS_KOKKOS_SETTINGS_HPP
#define KOLLECTIVE_DRIVERS_KOKKOS_SETTINGS_HPP

/// \file KokkosSettings.hpp
/// Kokkos' own command-line options and environment variables, checked before Kokkos starts:
/// Kokkos aborts the process (no message a user can act on, no clean exit) on a malformed value.

namespace kollective::driver {

/// Fails (kollective::Error) naming the option or variable that Kokkos would abort on, an option
/// Kokkos does not know (it would only warn), or a device number beyond the devices present.
void check_kokkos_settings(int argc, char* argv[]);

/// One GPU per rank when several ranks run: the rank's node-local index picks the device (all
/// ranks use device 0 where each sees one GPU, as under a scheduler that binds one per task).
/// Fails when a node has more ranks than GPUs. Leaves the choice alone when the command line or
/// the environment makes one (--kokkos-device-id, --kokkos-map-device-id-by, KOKKOS_DEVICE_ID,
/// KOKKOS_VISIBLE_DEVICES). Call before Kokkos starts.
void choose_device_for_rank(int argc, char* argv[]);

}  // namespace kollective::driver

#endif
