#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_IO_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_IO_HPP

/// \file RankSvmIO.hpp
/// RankSVM's files: SVMlight/LETOR data, LIBLINEAR-ranksvm's model file, and scores.
#include <string>
#include <vector>

#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"

namespace kollective::ranksvm {

/// Reads `label qid:Q index:value ... # comment` lines (SVMlight/LETOR). Numbers are decimal
/// (no hex, inf or nan): labels integers 0..max_label, qids 0..2^63-1, indices 1..
/// max_feature_index and strictly increasing, values finite. Either every line has a qid or
/// none (then all documents form one query). Documents are grouped by qid in increasing order,
/// keeping file order inside a query; a query whose lines are split across the file is grouped
/// too (as SVMrank and LIBLINEAR do), with a warning in `warnings` naming the first place it
/// resumes (the library prints nothing; the driver shows them). `features` > 0 fixes the number of features (larger
/// indices are an error); 0 takes the largest index. Errors name the file and line.
RankData read_letor(const std::string& path, int features = 0);
/// This rank's queries of a LETOR file when every rank shares the training (a collective): each
/// rank scans its 1/P of the bytes, split where the qid changes, for its queries' places and
/// sizes; the queries are then dealt out in file order, in contiguous runs balanced by preference
/// pairs plus documents, and each rank reads only its run. The feature count is the largest
/// index over every rank (or `features`). file_index numbers documents in the whole file.
/// Files without qids, with a query split across the file, or with fewer queries than ranks are
/// read whole by every rank and shared like an in-memory set (Impl::rank_share), with
/// read_letor's warnings and errors. An error on one rank stops every rank with its message.
RankData read_letor_share(const std::string& path, const comm::Communicator& communicator, int features = 0);
void write_letor(const RankData& data, const std::string& path);

/// LIBLINEAR-ranksvm's model file: "solver_type L2R_L2LOSS_RANKSVM", "nr_feature N", "bias -1",
/// "w", then one weight per line.
void write_model(const std::vector<double>& w, const std::string& path);
std::vector<double> read_model(const std::string& path);

/// Writes one score per line in the input file's line order (evaluation tools such as LETOR's
/// Eval-Score-4.0.pl pair the n-th score with the n-th document line).
void write_scores(const RankData& data, const std::vector<double>& scores, const std::string& path);

}  // namespace kollective::ranksvm

#endif
