#include "kollective/algorithms/coalition/CoalitionTypes.hpp"

#include <cmath>
#include <limits>

#include "kollective/core/Error.hpp"
#include "kollective/core/Memory.hpp"

namespace kollective::coalition {

void require_game_memory(int agents, const std::string& source) {
  if (agents < 1 || agents > max_agents) fail("coalition games need 1..", max_agents, " agents, got ", agents);
  // The host keeps v in double, 8 bytes per coalition; the solve copies it to the device as it is
  // (or in chunks converted there), with no second host copy.
  require_host_memory(std::int64_t{8} << agents, "the coalition values of " + std::to_string(agents) + " agents" +
                                                     (source.empty() ? "" : " in '" + source + "'"));
}

/// A game of `agents` with every value 0; `source` (a file, or empty) is named when it cannot fit.
Game empty_game(int agents, const std::string& source) {
  require_game_memory(agents, source);
  Game game;
  game.agents = agents;
  game.values.assign(std::size_t{1} << agents, 0.0);
  for (int i = 1; i <= agents; ++i) game.names.push_back(std::to_string(i));
  return game;
}

void validate_values(const Game& game, const std::string& source, bool single_precision) {
  if (game.values.size() != (std::size_t{1} << game.agents))
    fail(source, ": ", game.values.size(), " values for ", game.agents, " agents");
  validate_values(Values(game), source, single_precision);
}

void validate_values(Values values, const std::string& source, bool single_precision) {
  if (values.agents < 1 || values.agents > max_agents)
    fail(source, ": ", values.agents, " agents outside 1..", max_agents);
  if (values.count != values.size()) fail(source, ": ", values.count, " values for ", values.agents, " agents");
  if (values.v == nullptr) fail(source, ": the values are a null pointer");
  const double* v = values.v;
  const std::size_t size = values.size();
  if (v[0] != 0.0) fail_value(source, 0, v[0], single_precision);
  const double limit = value_limit(single_precision);
  bool all_fit = true;  // one pass without branches (it vectorizes; NaN compares false), then the culprit
  for (std::size_t mask = 0; mask < size; ++mask) all_fit &= std::fabs(v[mask]) <= limit;
  if (all_fit) return;
  for (std::size_t mask = 1; mask < size; ++mask) {
    if (!(std::fabs(v[mask]) <= limit)) fail_value(source, mask, v[mask], single_precision);
  }
}

double value_limit(bool single_precision) {
  // A structure's value, and every DP entry, adds up to max_agents values: bounded so that the
  // sums stay finite (and in float, when the values are solved in float).
  return (single_precision ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max()) / 64;
}

void fail_value(const std::string& source, std::uint64_t mask, double value, bool single_precision) {
  if (mask == 0) fail(source, ": v(empty) must be 0, got ", value);
  if (!std::isfinite(value)) fail(source, ": v(", mask, ") = ", value, " is not finite");
  fail(source, ": v(", mask, ") = ", value, " is too large", single_precision ? " for precision: float" : "",
       " (sums of up to ", max_agents, " values must stay finite: |v| <= ", value_limit(single_precision), ")");
}

double split_count(int n, Method method) {
  if (method == Method::ip) return 0;                     // IP searches structures, no splits
  if (method == Method::automatic) method = Method::idp;  // at most
  // Coalitions of size c number C(n, c); each has C(c, a) ordered splits with a part of size a.
  double total = 0, binomial_nc = 1;
  for (int c = 1; c <= n; ++c) {
    binomial_nc = binomial_nc * (n - c + 1) / c;
    double binomial_ca = 1, splits = 0;
    for (int a = 1; a < c; ++a) {
      binomial_ca = binomial_ca * (c - a + 1) / a;
      if (method == Method::dp || idp_allows(n, c, a)) splits += binomial_ca;
    }
    total += binomial_nc * splits / 2;  // unordered
  }
  return total;
}

const OptionFields<Options>& option_fields() {
  static const OptionFields<Options> fields = {
      choice_option("method", &Options::method, method_names,
                    "the subset DP, IDP (fewer splits), IP (branch and bound over integer-partition subspaces, "
                    "double), or auto (ODP-IP's hybrid: IP for a share of IDP's time, then IDP with IP going on "
                    "between its layers; IDP alone over several ranks)"),
      choice_option("precision", &Options::precision, precision_names, "the values' precision in dp and idp")
          .formerly("values"),
      number_option("time_limit", &Options::time_limit, not_negative,
                    "ip and auto (one rank): seconds, then the best structure found with a proven bound and its "
                    "gap (exact: false); auto gives IP the whole limit where IDP's estimated time does not fit")
          .noting("0: no limit"),
      number_option("ip_share", &Options::ip_share, {0, 1, false, false},
                    "auto: IP's time before IDP starts, a share of IDP's estimated time"),
      number_option("ip_min_s", &Options::ip_min_s, not_negative,
                    "auto: IP's time before IDP starts is at least this, or IDP's estimated time where shorter"),
      number_option("ip_round_share", &Options::ip_round_share, {0, 1, false, false},
                    "auto: IP's time between IDP's layers, all rounds together, a share of IDP's time so far"),
  };
  return fields;
}

namespace {

/// The structure's coalitions as lists of agent names (agent numbers past the names given).
TextGroups structure_names(const Structure& structure, const std::vector<std::string>& names) {
  TextGroups groups;
  for (const std::uint64_t coalition : structure) {
    TextList members;
    for (int agent = 0; agent < 64; ++agent) {
      if (coalition >> agent & 1)
        members.push_back(agent < static_cast<int>(names.size()) ? names[agent] : std::to_string(agent + 1));
    }
    groups.push_back(std::move(members));
  }
  return groups;
}

}  // namespace

const ResultFields<Report>& result_fields() {
  using F = FieldKind;
  auto ip_ran = [](const Report& r) { return r.result.ip_s > 0; };  // dp, idp and auto over ranks run none
  static const ResultFields<Report> fields = {
      field<Report>("method", F::outcome, "", "the method that proved the optimum (auto: ip or idp)",
                    [](const Report& r) { return r.result.method; })
          .shown(),
      field<Report>("precision", F::context, "", "the values' precision in dp and idp",
                    [](const Report& r) { return to_string(r.result.precision); }),
      field<Report>("optimum", F::answer, "", "the structure's value (the best found when not exact)",
                    [](const Report& r) { return r.result.value; })
          .formerly("value")
          .shown(),
      field<Report>("exact", F::answer, "", "the value is the optimum (false: stopped at the time limit)",
                    [](const Report& r) { return r.result.exact; })
          .shown(),
      field<Report>("upper_bound", F::answer, "", "the optimum is at most this",
                    [](const Report& r) { return r.result.upper_bound; }),
      field<Report>("gap", F::answer, "", "upper_bound - optimum",
                    [](const Report& r) { return r.result.upper_bound - r.result.value; }),
      field<Report>("coalitions", F::answer, "count", "coalitions of the structure",
                    [](const Report& r) { return r.result.structure.size(); }),
      field<Report>("structure", F::answer, "", "the structure's coalitions, by agent name",
                    [](const Report& r) { return structure_names(r.result.structure, r.names); })
          .shown(),
      field<Report>("splits", F::counter, "count", "splits the DP evaluated",
                    [](const Report& r) { return r.result.splits; }),
      field_where<Report>("nodes", F::counter, "count", "ip, auto: coalitions IP's branch and bound tried", ip_ran,
                          [](const Report& r) { return r.result.nodes; }),
      field_where<Report>("ip_s", F::timing, "s", "ip, auto: IP's time", ip_ran,
                          [](const Report& r) { return r.result.ip_s; })
          .formerly("ip_seconds"),
      field_where<Report>("ip_start_s", F::timing, "s", "of ip_s, the start: statistics, plan and DP start", ip_ran,
                          [](const Report& r) { return r.result.ip_start_s; })
          .formerly("ip_start_seconds"),
  };
  return fields;
}

std::optional<OptionProblem> check(const Options& options) {
  if (auto problem = check_fields(options, option_fields())) return problem;
  if (options.time_limit > 0 && options.method != Method::ip && options.method != Method::automatic)
    return OptionProblem{"time_limit",
                         "applies to methods ip and auto only (dp and idp cannot stop early with a bound)"};
  if (options.method == Method::ip && options.communicator.size() > 1)
    return OptionProblem{"method", "ip runs on one rank (a solve shared by several is dp, idp or auto)"};
  if (options.time_limit > 0 && options.method == Method::automatic && options.communicator.size() > 1)
    return OptionProblem{"time_limit", "applies to auto on one rank only (on several, auto is IDP alone)"};
  return std::nullopt;
}

void validate(const Options& options) {
  if (const auto problem = check(options)) fail("coalition: ", problem->option, " ", problem->problem);
}

std::vector<OptionProblem> ignored_settings(const Options& options) {
  const Options defaults;
  const std::string method = name_of(method_names, options.method);
  const std::string refused_later = "; a later release refuses it";
  std::vector<OptionProblem> ignored;
  const std::string in_double = "has no effect with method ip (it sets dp's and idp's tables; IP computes in double)";
  if (options.method == Method::ip && options.precision != defaults.precision)
    ignored.push_back({"precision", in_double + refused_later});
  const bool automatic = options.method == Method::automatic;
  const std::string why = (automatic ? "has no effect with auto on several ranks (there auto is IDP alone)"
                                     : "has no effect with method " + method + " (it applies to method auto only)") +
                          refused_later;
  const std::pair<const char*, bool> auto_settings[] = {
      {"ip_share", options.ip_share != defaults.ip_share},
      {"ip_min_s", options.ip_min_s != defaults.ip_min_s},
      {"ip_round_share", options.ip_round_share != defaults.ip_round_share}};
  for (const auto& [name, differs] : auto_settings) {
    if (differs && (!automatic || options.communicator.size() > 1)) ignored.push_back({name, why});
  }
  return ignored;
}

}  // namespace kollective::coalition
