#ifndef KOLLECTIVE_DRIVERS_HELP_HPP
#define KOLLECTIVE_DRIVERS_HELP_HPP

/// \file Help.hpp
/// The texts of `kollective help [TOPIC]`, `--help` and `--version`.

#include <string>
#include <vector>

namespace kollective::driver {

/// The help of `topic` ("" for the overview); fails for an unknown topic, naming the known ones.
std::string help_text(const std::string& topic);

/// The topics help_text knows, besides the overview.
std::vector<std::string> help_topics();

/// One line: the version, the revision it was built from, the backend.
std::string version_line();

}  // namespace kollective::driver

#endif
