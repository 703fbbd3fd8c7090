#include "kollective/drivers/KokkosSettings.hpp"

#include <Kokkos_Core.hpp>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"
#include "kollective/core/Parse.hpp"
#include "kollective/drivers/Session.hpp"

namespace kollective::driver {

namespace {

constexpr std::int64_t max_threads = 4096;

void check_number(const std::string& where, const std::string& value, std::int64_t low, std::int64_t high,
                  const char* meaning) {
  const std::optional<std::uint64_t> number = parse_uint64(value);  // digits only, as Kokkos reads them
  if (!number || *number < static_cast<std::uint64_t>(low) || *number > static_cast<std::uint64_t>(high)) {
    fail(where, ": '", value, "' is not ", meaning, " (a whole number from ", low, " to ", high, ")");
  }
}

/// Kokkos' booleans: yes/true/1 and no/false/0, any case.
void check_bool(const std::string& where, const std::string& value) {
  std::string lower;
  for (const char c : value) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lower != "yes" && lower != "true" && lower != "1" && lower != "no" && lower != "false" && lower != "0") {
    fail(where, ": '", value, "' is not a boolean (true or false)");
  }
}

void check_map_device_id_by(const std::string& where, const std::string& value) {
  if (value != "random" && value != "mpi_rank") fail(where, ": '", value, "' is not 'random' or 'mpi_rank'");
}

int device_count() {
#ifdef KOKKOS_ENABLE_CUDA
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) fail("no CUDA device can be used");
  return devices;
#else
  return 1 << 10;  // host backends ignore the device number
#endif
}

const char* known_options =
    "--kokkos-num-threads=N, --kokkos-device-id=N, --kokkos-map-device-id-by=random|mpi_rank, "
    "--kokkos-disable-warnings, --kokkos-print-configuration, --kokkos-tune-internals, --kokkos-help, "
    "--kokkos-tools-libs=..., --kokkos-tools-args=..., --kokkos-tools-help";

/// One command-line argument that Kokkos would take as its own (it matches -?-kokkos.*).
void check_option(const std::string& arg, int devices) {
  const auto equals = arg.find('=');
  const std::string option = arg.substr(0, equals);
  const bool has_value = equals != std::string::npos;
  const std::string value = has_value ? arg.substr(equals + 1) : "";
  auto needs_value = [&] {
    if (!has_value) fail(option, " needs a value: ", option, "=...");
  };
  if (option == "--kokkos-num-threads") {
    needs_value();
    check_number(option, value, 1, max_threads, "a thread count");
  } else if (option == "--kokkos-device-id") {
    needs_value();
    check_number(option, value, 0, devices - 1, "a device number");
  } else if (option == "--kokkos-map-device-id-by") {
    needs_value();
    check_map_device_id_by(option, value);
  } else if (option == "--kokkos-disable-warnings" || option == "--kokkos-print-configuration" ||
             option == "--kokkos-tune-internals") {
    if (has_value) check_bool(option, value);
  } else if (option == "--kokkos-tools-libs" || option == "--kokkos-tools-library" || option == "--kokkos-tools-args") {
    needs_value();
  } else if (option == "--kokkos-threads" || option == "--kokkos-numa" || option == "--kokkos-ndevices" ||
             option == "--kokkos-num-devices" || option == "--kokkos-device") {
    fail("Kokkos option ", option,
         " was removed in Kokkos 4 (threads: --kokkos-num-threads=N, a device: "
         "--kokkos-device-id=N)");
  } else if (option != "--kokkos-help" && option != "--kokkos-tools-help") {
    fail("unknown Kokkos option '", arg, "' (Kokkos ", kokkos_version_string(), " takes ", known_options, ")");
  }
}

/// An environment variable that Kokkos reads, if set.
void check_environment(int devices) {
  auto variable = [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
  if (auto value = variable("KOKKOS_NUM_THREADS"))
    check_number("KOKKOS_NUM_THREADS", *value, 1, max_threads, "a thread count");
  if (auto value = variable("KOKKOS_DEVICE_ID"))
    check_number("KOKKOS_DEVICE_ID", *value, 0, devices - 1, "a device number");
  if (auto value = variable("KOKKOS_MAP_DEVICE_ID_BY")) check_map_device_id_by("KOKKOS_MAP_DEVICE_ID_BY", *value);
  for (const char* name : {"KOKKOS_DISABLE_WARNINGS", "KOKKOS_PRINT_CONFIGURATION", "KOKKOS_TUNE_INTERNALS"}) {
    if (auto value = variable(name)) check_bool(name, *value);
  }
  if (auto value = variable("KOKKOS_VISIBLE_DEVICES")) {
    std::string::size_type start = 0;
    while (true) {
      const auto comma = value->find(',', start);
      check_number("KOKKOS_VISIBLE_DEVICES", value->substr(start, comma - start), 0, devices - 1,
                   "a list of device numbers");
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
}

/// Kokkos aborts when an option and its environment variable disagree for its tools.
void check_tools_agree(int argc, char* argv[]) {
  for (const auto& [option, name] : {std::pair<std::string, const char*>{"--kokkos-tools-libs=", "KOKKOS_TOOLS_LIBS"},
                                     {"--kokkos-tools-args=", "KOKKOS_TOOLS_ARGS"}}) {
    const char* from_environment = std::getenv(name);
    if (!from_environment) continue;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg.rfind(option, 0) == 0 && arg.substr(option.size()) != from_environment) {
        fail(option.substr(0, option.size() - 1), " and ", name, " disagree ('", arg.substr(option.size()), "' and '",
             from_environment, "'): give one");
      }
    }
  }
}

}  // namespace

void check_kokkos_settings(int argc, char* argv[]) {
  const int devices = device_count();
  check_environment(devices);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--kokkos", 0) == 0 || arg.rfind("-kokkos", 0) == 0) check_option(arg, devices);
  }
  check_tools_agree(argc, argv);
}

void choose_device_for_rank(int argc, char* argv[]) {
#ifdef KOKKOS_ENABLE_CUDA
  if (world().size() == 1) return;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--kokkos-device-id", 0) == 0 || arg.rfind("--kokkos-map-device-id-by", 0) == 0) return;
  }
  if (std::getenv("KOKKOS_DEVICE_ID") || std::getenv("KOKKOS_VISIBLE_DEVICES")) return;
  const int devices = device_count();
  const int local = world().local_rank();
  if (devices > 1 && local >= devices) {
    fail("this node runs more ranks than its ", devices, " GPUs (this is its rank ", local,
         " counting from 0): run one rank per GPU");
  }
  setenv("KOKKOS_DEVICE_ID", std::to_string(devices == 1 ? 0 : local).c_str(), 1);
#else
  (void)argc;
  (void)argv;
#endif
}

}  // namespace kollective::driver
