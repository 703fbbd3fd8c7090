#ifndef KOLLECTIVE_KOLLECTIVE_HPP
#define KOLLECTIVE_KOLLECTIVE_HPP

/// \file Kollective.hpp
/// Kollective's public API in one include (installed as `kollective/Kollective.hpp`): each
/// algorithm's solver, types (options, result, their declared fields), file formats, serial
/// reference and checks, and what they share (errors, workspaces, the ranks of a solve,
/// preference profiles). An MPI program adds `kollective/core/comm/Mpi.hpp` for from_mpi.
/// Everything else (impl/) is internal: it may change between minor versions.

#include "kollective/core/Error.hpp"
#include "kollective/core/Interrupt.hpp"
#include "kollective/core/OptionFields.hpp"
#include "kollective/core/ResultFields.hpp"
#include "kollective/core/Workspace.hpp"
#include "kollective/core/comm/Communicator.hpp"
#include "kollective/core/preferences/Generators.hpp"
#include "kollective/core/preferences/Pairwise.hpp"
#include "kollective/core/preferences/PrefLib.hpp"

#include "kollective/algorithms/schulze/Schulze.hpp"
#include "kollective/algorithms/schulze/SchulzeIO.hpp"
#include "kollective/algorithms/schulze/SchulzeReference.hpp"

#include "kollective/algorithms/kemeny/Kemeny.hpp"
#include "kollective/algorithms/kemeny/KemenyCertificate.hpp"
#include "kollective/algorithms/kemeny/KemenyIO.hpp"
#include "kollective/algorithms/kemeny/KemenyReference.hpp"

#include "kollective/algorithms/coalition/Coalition.hpp"
#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"
#include "kollective/algorithms/coalition/CoalitionIO.hpp"
#include "kollective/algorithms/coalition/CoalitionMetrics.hpp"
#include "kollective/algorithms/coalition/CoalitionReference.hpp"

#include "kollective/algorithms/ranksvm/RankSvm.hpp"
#include "kollective/algorithms/ranksvm/RankSvmGenerators.hpp"
#include "kollective/algorithms/ranksvm/RankSvmIO.hpp"
#include "kollective/algorithms/ranksvm/RankSvmMetrics.hpp"
#include "kollective/algorithms/ranksvm/RankSvmReference.hpp"

#endif
