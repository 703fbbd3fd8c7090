#ifndef KOLLECTIVE_ALGORITHMS_SCHULZE_IO_HPP
#define KOLLECTIVE_ALGORITHMS_SCHULZE_IO_HPP

/// \file SchulzeIO.hpp
/// Schulze's result files, as CSV with named alternatives. Its inputs (profiles, pairwise
/// matrices) are the election formats of core/preferences.

#include <string>
#include <vector>

#include "kollective/algorithms/schulze/SchulzeTypes.hpp"

namespace kollective::schulze {

/// `rank,alternative,beaten,winner`: one row per alternative, in ranking order.
std::string ranking_csv(const Result& result, const std::vector<std::string>& names);
/// The beat relation, `winner,loser,path_winner_to_loser,path_loser_to_winner` (votes); needs paths.
std::string beats_csv(const Result& result, const std::vector<std::string>& names);
/// The strongest-path matrix (votes) in the pairwise CSV format of core/preferences; needs paths.
void write_paths_csv(const Result& result, const std::vector<std::string>& names, const std::string& path);

}  // namespace kollective::schulze

#endif
