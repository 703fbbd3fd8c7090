#ifndef KOLLECTIVE_ALGORITHMS_RANKSVM_GENERATORS_HPP
#define KOLLECTIVE_ALGORITHMS_RANKSVM_GENERATORS_HPP

/// \file RankSvmGenerators.hpp
/// Seeded synthetic learning-to-rank data shaped like LETOR 4.0 (MQ2007) and MSLR-WEB30K.
#include <cstdint>
#include <string>

#include "kollective/algorithms/ranksvm/RankSvmTypes.hpp"

namespace kollective::ranksvm {

/// Synthetic LETOR-like data, seeded: `shape` "mq2007" (labels 0-2) or "mslr" (labels 0-4).
/// Query sizes are heavy-tailed (log-normal) and sum to `docs` exactly; about 1% of queries have
/// one document and a few exceed 2,000; features are correlated through 8 latent factors and
/// quantized to 1/16 of their scale (ties in w'x), mslr features with scales from 0.1 to 100;
/// labels grade a hidden linear score plus noise within each query; about 3% of queries have
/// all labels equal. The hidden score depends only on shape and feature count: different seeds give
/// training and test sets of the same task.
RankData synthetic_letor(const std::string& shape, std::int64_t queries, std::int64_t docs, int features,
                         std::uint64_t seed);

}  // namespace kollective::ranksvm

#endif
