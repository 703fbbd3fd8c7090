#ifndef KOLLECTIVE_CORE_CSV_HPP
#define KOLLECTIVE_CORE_CSV_HPP

/// \file Csv.hpp
/// The one CSV writer (RFC 4180) and the one number format of every output file. A field is
/// quoted when it holds a comma, a double quote, CR or LF, starts with '#' or has surrounding
/// blanks (quotes doubled); records end with CRLF. Doubles are written in their shortest form that reads back to the
/// same double.

#include <string>
#include <vector>

namespace kollective {

/// One field, quoted if needed.
std::string csv_field(const std::string& text);
/// One record: the fields, separated by commas and quoted if needed, then CRLF.
std::string csv_record(const std::vector<std::string>& fields);

/// Shortest round-trip text of a finite double, always with a '.' or an exponent so that JSON
/// and CSV readers type it as a float ("1.0", "0.1", "1e-07"). Fails on inf and NaN.
std::string exact_text(double value);

/// A count of votes held doubled (halves from ties), as text: 7 -> "3.5", 8 -> "4".
std::string doubled_votes_text(long long doubled);

}  // namespace kollective

#endif
