#include "kollective/algorithms/coalition/CoalitionGenerators.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kollective/core/Error.hpp"
#include "kollective/core/PortableMath.hpp"
#include "kollective/core/Random.hpp"
#include "kollective/core/kokkos_ext/Compat.hpp"

// Compiled with -ffp-contract=off (and nvcc's --fmad=false): every value is the same bit for bit
// on every backend (core/PortableMath.hpp).

namespace kollective::coalition {

Game idpg_benchmark(int agents, std::uint32_t seed) {
  Game game = empty_game(agents);
  std::uint32_t z = seed, w = seed;
  for (std::size_t mask = 1; mask < game.values.size(); ++mask) {
    z = 36969u * (z & 65535u) + (z >> 16);
    w = 18000u * (w & 65535u) + (w >> 16);
    const std::uint32_t r = (z << 16) + w;
    game.values[mask] = static_cast<double>(static_cast<float>(static_cast<double>(r) / 4294967296.0));
  }
  return game;
}

namespace {

/// In value_models() order, after idpg.
enum class Model : int {
  uniform,
  normal,
  modified_uniform,
  modified_normal,
  exponential,
  beta,
  gamma,
  ndcs,
  agent_uniform,
  agent_normal,
  chi_square,
  weibull,
  f,
  cauchy,
  student_t,
  zipf,
  pascal
};

/// Both releases store round(10^8 x) of each drawn value x: integers, exact in double.
constexpr double release_scale = 1e8;
/// A stream has 2^12 draws: the most a value takes (NDCS redraws aside) is 70.
constexpr int draws_per_stream = 12;
/// Agent streams (the strengths of the agent-based models) lie above every coalition's.
constexpr std::uint64_t agent_streams = std::uint64_t{1} << 60;

/// The draws of one coalition (or agent): the k-th is hash_draw(seed, base + k).
struct Stream {
  std::uint64_t mixed_seed;  ///< mix64(seed): hash_draw's first step, once
  std::uint64_t base;
  std::uint32_t next = 0;
  double spare = 0;
  bool has_spare = false;

  KOKKOS_INLINE_FUNCTION Stream(std::uint64_t seed, std::uint64_t base_) : mixed_seed(mix64(seed)), base(base_) {}
  KOKKOS_INLINE_FUNCTION std::uint64_t bits() { return hash_draw_mixed(mixed_seed, base + next++); }
  /// U(0, 1), open at both ends (53 bits, centred), so that logarithms and tangents stay finite.
  KOKKOS_INLINE_FUNCTION double uniform() { return (static_cast<double>(bits() >> 11) + 0.5) * 0x1.0p-53; }
  /// True with probability 21/100, as both releases' `nextInt(100) <= 20`.
  KOKKOS_INLINE_FUNCTION bool one_in_five() { return bounded(bits(), 100) <= 20; }
  /// N(0, 1) by Box-Muller, both of a pair's draws used.
  KOKKOS_INLINE_FUNCTION double normal() {
    if (has_spare) {
      has_spare = false;
      return spare;
    }
    const double radius = Kokkos::sqrt(-2.0 * portable::log(uniform()));
    const portable::SinCos angle = portable::sincospi(2.0 * uniform());
    spare = radius * angle.sin;
    has_spare = true;
    return radius * angle.cos;
  }
  KOKKOS_INLINE_FUNCTION double exponential() { return -portable::log(uniform()); }
  /// Chi-square with k degrees of freedom: k squared normals.
  KOKKOS_INLINE_FUNCTION double chi_square(int k) {
    double sum = 0;
    for (int j = 0; j < k; ++j) {
      const double z = normal();
      sum += z * z;
    }
    return sum;
  }
};

KOKKOS_INLINE_FUNCTION double positive_part(double x) { return x > 0 ? x : 0.0; }

/// Writes v(mask) for every coalition: the release's formula for a coalition of s agents
/// (docs/configuration.md), on its own stream.
template <class Memory>
struct DrawValues {
  Kokkos::View<double*, Memory> values;
  Kokkos::View<const double*, Memory> strength;    ///< agent i's, for the agent-based models
  Kokkos::View<const double*, Memory> zipf_sums;   ///< sum of j^-0.1 over j = 1..k, at k
  Kokkos::View<const double*, Memory> pascal_cdf;  ///< P(K <= k) of Pascal(s, 0.1), at (s - 1) stride + k
  Kokkos::View<const int*, Memory> pascal_guide;   ///< the least k with P(K <= k) > j / stride, at (s - 1) stride + j
  int pascal_stride;
  Model model;
  std::uint64_t seed;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t index) const {
    const auto mask = static_cast<std::uint64_t>(index);
    values(index) = mask == 0 ? 0.0 : Kokkos::floor(release_scale * draw(mask) + 0.5);
  }

  /// The inverse of Pascal(s, 0.1)'s distribution function at u: the least k with u < P(K <= k),
  /// found from the guide table's k at j = floor(u stride), at or below it (Chen and Asau).
  KOKKOS_INLINE_FUNCTION int pascal_failures(int s, double u) const {
    const std::size_t row = std::size_t(s - 1) * pascal_stride;
    int k = pascal_guide(row + static_cast<std::size_t>(u * pascal_stride));
    while (u >= pascal_cdf(row + k)) ++k;  // the row ends in 2 > u
    return k;
  }

  KOKKOS_INLINE_FUNCTION double draw(std::uint64_t mask) const {
    Stream r(seed, mask << draws_per_stream);
    const int s = Kokkos::popcount(mask);
    switch (model) {
      case Model::uniform:
        return s * r.uniform();
      case Model::normal:
        return positive_part(s * (10.0 + 0.1 * r.normal()));
      case Model::modified_uniform: {
        const double x = 10.0 * s * r.uniform();
        return r.one_in_five() ? x + 50.0 * r.uniform() : x;
      }
      case Model::modified_normal: {
        const double x = positive_part(s * (10.0 + 0.1 * r.normal()));
        return r.one_in_five() ? x + 25.0 + 0.1 * r.normal() : x;
      }
      case Model::exponential:
        return s * r.exponential();
      case Model::beta: {  // Beta(0.5, 0.5), the arcsine law: sin^2(pi U / 2)
        const double sine = portable::sincospi(0.5 * r.uniform()).sin;
        return s * sine * sine;
      }
      case Model::gamma:
        return s * 2.0 * (r.exponential() + r.exponential());  // shape 2, scale 2
      case Model::ndcs: {                                      // N(s, sqrt s), drawn again while <= 0
        double x = 0;
        for (int attempt = 0; attempt < 1000 && x <= 0; ++attempt) x = s + Kokkos::sqrt(double(s)) * r.normal();
        return x;
      }
      case Model::agent_uniform:
      case Model::agent_normal: {
        double sum = 0;
        for (std::uint64_t rest = mask; rest != 0; rest &= rest - 1) {
          const double p = strength(Kokkos::countr_zero(rest));
          sum += model == Model::agent_uniform ? 2.0 * p * r.uniform() : positive_part(p + 0.1 * r.normal());
        }
        return sum;
      }
      case Model::chi_square:
        return r.chi_square(s);
      case Model::weibull: {  // s Weibull(shape s, scale 0.9) = 0.9 s E^(1/s)
        return s * 0.9 * portable::exp(portable::log(r.exponential()) / s);
      }
      case Model::f: {  // F(1, s + 1)
        const double z = r.normal();
        return z * z / (r.chi_square(s + 1) / (s + 1));
      }
      case Model::cauchy: {  // Cauchy(median 10 s, scale 0.1)
        const portable::SinCos angle = portable::sincospi(r.uniform() - 0.5);
        return positive_part(10.0 * s + 0.1 * (angle.sin / angle.cos));
      }
      case Model::student_t: {
        const double z = r.normal();
        return positive_part(s * (z / Kokkos::sqrt(r.chi_square(s) / s)));
      }
      case Model::zipf: {  // s Zipf(s elements, exponent 0.1) + U(0, 50)
        const double target = r.uniform() * zipf_sums(s);
        int k = 1;
        while (k < s && zipf_sums(k) <= target) ++k;
        return s * k + 50.0 * r.uniform();
      }
      case Model::pascal: {  // s Pascal(s successes, p = 0.1): failures before the s-th success, + U(0, 50)
        return s * pascal_failures(s, r.uniform()) + 50.0 * r.uniform();
      }
    }
    return 0;
  }
};

/// One step of IDP^G's multiply-with-carry, as idpg_benchmark takes it.
KOKKOS_INLINE_FUNCTION std::uint32_t mwc_step(std::uint32_t z, std::uint32_t a) { return a * (z & 65535u) + (z >> 16); }

/// Its state after `steps` steps. Once below a 2^16 (two steps from any state do it) a step is
/// z' = z a mod (a 2^16 - 1), 2^16 being a's inverse there, so the state k steps on is z a^k
/// modulo that: each block of masks jumps to where the sequence is. 0 and the modulus are fixed.
KOKKOS_INLINE_FUNCTION std::uint32_t mwc_after(std::uint32_t z, std::uint32_t a, std::uint64_t steps) {
  for (int taken = 0; taken < 2 && steps > 0; ++taken, --steps) z = mwc_step(z, a);
  const std::uint64_t modulus = std::uint64_t{a} * 65536 - 1;  // under 2^32: two residues' product fits 64 bits
  if (z == 0 || z == modulus) return z;
  std::uint64_t state = z, power = a;
  for (; steps != 0; steps >>= 1) {
    if (steps & 1) state = state * power % modulus;
    power = power * power % modulus;
  }
  return static_cast<std::uint32_t>(state);
}

/// IDP^G's values, idpg_benchmark's sequence, a block of masks per work item.
template <class Memory>
struct DrawIdpg {
  static constexpr std::int64_t block = 4096;
  Kokkos::View<double*, Memory> values;
  std::uint32_t seed;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t b) const {
    const auto first = static_cast<std::uint64_t>(b * block);
    const auto end = Kokkos::min(first + block, static_cast<std::uint64_t>(values.extent(0)));
    const std::uint64_t before = first == 0 ? 0 : first - 1;  // mask k's value takes the k-th step
    std::uint32_t z = mwc_after(seed, 36969, before), w = mwc_after(seed, 18000, before);
    for (std::uint64_t mask = first; mask < end; ++mask) {
      if (mask == 0) {
        values(0) = 0.0;
        continue;
      }
      z = mwc_step(z, 36969u);
      w = mwc_step(w, 18000u);
      const std::uint32_t r = (z << 16) + w;
      values(mask) = static_cast<double>(static_cast<float>(static_cast<double>(r) / 4294967296.0));
    }
  }
};

/// The agent-based models' strengths, one stream per agent: U(0, 10), or max(0, N(10, 0.1)).
std::vector<double> agent_strengths(Model model, int agents, std::uint64_t seed) {
  std::vector<double> strength(agents, 0.0);
  for (int i = 0; i < agents; ++i) {
    Stream r(seed, agent_streams | (static_cast<std::uint64_t>(i) << draws_per_stream));
    if (model == Model::agent_uniform) strength[i] = 10.0 * r.uniform();
    if (model == Model::agent_normal) strength[i] = positive_part(10.0 + 0.1 * r.normal());
  }
  return strength;
}

std::vector<double> zipf_sums(int agents) {
  std::vector<double> sums(agents + 1, 0.0);
  for (int k = 1; k <= agents; ++k) sums[k] = sums[k - 1] + 1.0 / portable::pow(k, 0.1);
  return sums;
}

/// Pascal(s, 0.1)'s distribution function for s = 1..agents, a row of `stride` entries each:
/// P(K <= k) by the recurrence P(K = k) = P(K = k - 1) (k + s - 1) / k 0.9 from 0.1^s, up to the
/// k past the mean where P(K = k) < 1e-18; then 2, so that every uniform draw finds its k. One
/// uniform draw and a short search per value, in place of s logarithms (one per geometric draw).
std::vector<double> pascal_cdf(int agents, int& stride) {
  std::vector<std::vector<double>> rows(agents);
  for (int s = 1; s <= agents; ++s) {
    double probability = 1.0, sum = 0.0;
    for (int j = 0; j < s; ++j) probability *= 0.1;
    for (int k = 0;; ++k) {
      if (k > 0) probability *= (k + s - 1) / double(k) * 0.9;
      sum += probability;
      rows[s - 1].push_back(sum);
      if (probability < 1e-18 && k > 9 * s) break;
    }
  }
  stride = 1;
  for (const auto& row : rows) stride = std::max(stride, static_cast<int>(row.size()) + 1);
  std::vector<double> table(std::size_t(agents) * stride, 2.0);
  for (int s = 1; s <= agents; ++s)
    std::copy(rows[s - 1].begin(), rows[s - 1].end(), table.begin() + std::size_t(s - 1) * stride);
  return table;
}

/// For each row of the table, the least k with table[k] > j / stride, j = 0..stride - 1.
std::vector<int> guide_table(const std::vector<double>& table, int stride) {
  std::vector<int> guide(table.size(), 0);
  for (std::size_t row = 0; row < table.size(); row += stride) {
    int k = 0;
    for (int j = 0; j < stride; ++j) {
      while (table[row + k] <= double(j) / stride) ++k;
      guide[row + j] = k;
    }
  }
  return guide;
}

template <class Memory, class ExecSpace, class T>
Kokkos::View<const T*, Memory> on(const ExecSpace& space, const std::vector<T>& host, const char* label) {
  Kokkos::View<T*, Memory> view(Kokkos::view_alloc(space, std::string("Kollective::") + label), host.size());
  Kokkos::deep_copy(space, view,
                    Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()));
  space.fence("Kollective::coalition generator: the host vector is about to go");
  return view;
}

}  // namespace

const std::vector<std::string>& value_models() {
  static const std::vector<std::string> models = {"idpg",
                                                  "uniform",
                                                  "normal",
                                                  "modified_uniform",
                                                  "modified_normal",
                                                  "exponential",
                                                  "beta",
                                                  "gamma",
                                                  "ndcs",
                                                  "agent_uniform",
                                                  "agent_normal",
                                                  "chi_square",
                                                  "weibull",
                                                  "f",
                                                  "cauchy",
                                                  "student_t",
                                                  "zipf",
                                                  "pascal"};
  return models;
}

template <class ExecSpace>
void generate_values(const ExecSpace& space, const std::string& model, int agents, std::uint64_t seed,
                     const Kokkos::View<double*, typename ExecSpace::memory_space>& values) {
  using Memory = typename ExecSpace::memory_space;
  if (agents < 1 || agents > max_agents) fail("a generated game has 1 to ", max_agents, " agents, not ", agents);
  if (values.extent(0) != (std::size_t{1} << agents)) {
    fail("generate_values: ", values.extent(0), " entries for the 2^", agents, " coalitions of ", agents, " agents");
  }
  const auto& models = value_models();
  const auto found = std::find(models.begin(), models.end(), model);
  if (found == models.end()) {
    std::string known;
    for (const auto& name : models) known += (known.empty() ? "" : ", ") + name;
    fail("unknown coalition value model '", model, "' (", known, ")");
  }
  // 64-bit indices: 2^32 coalitions and more (an int range would wrap to none).
  if (model == "idpg") {  // IDP^G's sequence, jumped to each block's start
    if (seed > 0xffffffffu) fail("the idpg generator takes a 32-bit seed (got ", seed, ")");
    const auto blocks =
        (static_cast<std::int64_t>(values.extent(0)) + DrawIdpg<Memory>::block - 1) / DrawIdpg<Memory>::block;
    Kokkos::parallel_for("Kollective::coalition::generate_values(idpg)", Range64<ExecSpace>(space, 0, blocks),
                         DrawIdpg<Memory>{values, static_cast<std::uint32_t>(seed)});
    return;
  }
  const auto kind = static_cast<Model>(found - models.begin() - 1);
  int stride = 1;
  const std::vector<double> pascal = kind == Model::pascal ? pascal_cdf(agents, stride) : std::vector<double>{};
  DrawValues<Memory> draw{values,
                          on<Memory>(space, agent_strengths(kind, agents, seed), "agent strengths"),
                          on<Memory>(space, zipf_sums(agents), "Zipf sums"),
                          on<Memory>(space, pascal, "Pascal distribution functions"),
                          on<Memory>(space, guide_table(pascal, stride), "Pascal guide tables"),
                          stride,
                          kind,
                          seed};
  Kokkos::parallel_for("Kollective::coalition::generate_values",
                       Range64<ExecSpace>(space, 0, static_cast<std::int64_t>(values.extent(0))), draw);
}

Game generate_game(const std::string& model, int agents, std::uint64_t seed) {
  Game game = empty_game(agents);
  const Kokkos::DefaultHostExecutionSpace host;
  generate_values(host, model, agents, seed,
                  Kokkos::View<double*, Kokkos::HostSpace>(game.values.data(), game.values.size()));
  host.fence("Kollective::coalition::generate_game");
  validate_values(game, model + " generator");
  return game;
}

Game uniform_game(int agents, std::uint64_t seed) { return generate_game("uniform", agents, seed); }
Game normal_game(int agents, std::uint64_t seed) { return generate_game("normal", agents, seed); }

#define KOLLECTIVE_GENERATE_VALUES(Space)                                                    \
  template void generate_values<Space>(const Space&, const std::string&, int, std::uint64_t, \
                                       const Kokkos::View<double*, Space::memory_space>&);
#ifdef KOKKOS_ENABLE_SERIAL
KOLLECTIVE_GENERATE_VALUES(Kokkos::Serial)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
KOLLECTIVE_GENERATE_VALUES(Kokkos::OpenMP)
#endif
#ifdef KOKKOS_ENABLE_CUDA
KOLLECTIVE_GENERATE_VALUES(Kokkos::Cuda)
#endif
#undef KOLLECTIVE_GENERATE_VALUES

}  // namespace kollective::coalition
