#ifndef KOLLECTIVE_ALGORITHMS_KEMENY_IO_HPP
#define KOLLECTIVE_ALGORITHMS_KEMENY_IO_HPP

/// \file KemenyIO.hpp
/// Kemeny's result files and text. Its inputs (profiles, pairwise matrices) are the election
/// formats of core/preferences.

#include <string>
#include <vector>

#include "kollective/algorithms/kemeny/KemenyTypes.hpp"

namespace kollective::kemeny {

/// "B > D > A > C" with names.
std::string format_ranking(const Ranking& ranking, const std::vector<std::string>& names);
/// The optimal rankings listed, one row `ranking,distance,position,alternative` per (ranking,
/// position), the distance in the input's weights (input_distance): any CSV reader can group them.
std::string rankings_csv(const Result& result, const Counts& o);

}  // namespace kollective::kemeny

#endif
