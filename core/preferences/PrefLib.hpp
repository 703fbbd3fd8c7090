#ifndef KOLLECTIVE_CORE_PREFERENCES_PREFLIB_HPP
#define KOLLECTIVE_CORE_PREFERENCES_PREFLIB_HPP

/// \file PrefLib.hpp
/// PrefLib .soc/.soi/.toc/.toi files, current format (`# KEY: value` headers, `count: order`
/// lines) and pre-2022 format (n, `i,Name` lines, `voters,sum,unique`, `count,order` lines).
/// Malformed input fails with "file:line: problem". Ids and counts are whole decimal numbers
/// (digits only): 1..2^20 alternatives, counts 1..2^31 - 1 with a total below 2^31; NUMBER
/// VOTERS, NUMBER UNIQUE ORDERS and the legacy totals line must match the orders; a header key
/// that Kollective reads, or `ALTERNATIVE NAME k`, appears at most once; names are non-empty and
/// distinct (an unnamed alternative is called by its number); at least one order. Files may
/// start with a UTF-8 byte-order mark and end lines with CRLF.

#include <istream>
#include <ostream>
#include <string>

#include "kollective/core/preferences/Profile.hpp"

namespace kollective::preferences {

/// Reads a file; the extension, if it is one of soc/soi/toc/toi, must agree with the data.
Profile read_preflib(const std::string& path);
/// Parses text from a stream; `origin` names it in error messages, `declared_type` ("" = none)
/// is a type the data must fit (e.g. from the file extension).
Profile parse_preflib(std::istream& in, const std::string& origin, const std::string& declared_type = "");
/// Writes the current format, with the data type the ballots need.
void write_preflib(const Profile& profile, std::ostream& out, const std::string& file_name = "");
/// Writes the pre-2022 format (n, `i,Name` lines, `voters,sum,unique`, `count,order` lines).
void write_preflib_legacy(const Profile& profile, std::ostream& out);
void write_preflib_file(const Profile& profile, const std::string& path);

}  // namespace kollective::preferences

#endif
