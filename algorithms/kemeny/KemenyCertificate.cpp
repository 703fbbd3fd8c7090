#include "kollective/algorithms/kemeny/KemenyCertificate.hpp"

#include <sstream>

#include "kollective/algorithms/kemeny/impl/KemenyHeuristics.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyLP.hpp"
#include "kollective/algorithms/kemeny/impl/KemenyMetrics.hpp"
#include "kollective/core/Error.hpp"
#include "kollective/core/Tables.hpp"

namespace kollective::kemeny {

namespace {

/// A 128-bit integer in decimal (JSON readers with big integers, such as Python's, read it exactly).
std::string decimal(Scaled value) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  unsigned __int128 size = negative ? -static_cast<unsigned __int128>(value) : static_cast<unsigned __int128>(value);
  std::string digits;
  for (; size > 0; size /= 10) digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(size % 10)));
  return negative ? "-" + digits : digits;
}

template <class List, class Item>
void write_list(std::ostream& out, const List& list, Item&& item) {
  out << '[';
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (k) out << ',';
    item(list[k]);
  }
  out << ']';
}

/// Columns as their pairs of local indices: [i, j] with i < j.
void write_column(std::ostream& out, int column, int n) {
  for (int i = 0; i < n; ++i) {
    if (column < n - 1 - i) {
      out << '[' << i << ',' << i + 1 + column << ']';
      return;
    }
    column -= n - 1 - i;
  }
  fail("Kemeny certificate: pair column out of range (internal error)");
}

const char* kind_name(ProofNode::Kind kind) {
  switch (kind) {
    case ProofNode::Kind::bound:
      return "bound";
    case ProofNode::Kind::cycle:
      return "cycle";
    case ProofNode::Kind::single:
      return "single";
    case ProofNode::Kind::branch:
      break;
  }
  return "branch";
}

void write_proof(std::ostream& out, const Proof& proof, int n) {
  out << "{\"rows\":";
  write_list(out, proof.rows, [&](const auto& rows) {
    write_list(out, rows, [&](const auto& row) {
      const Cut& cut = row.first;
      if (cut.is_triangle()) {
        const Triangle& t = cut.triangle;
        out << '[' << t.i << ',' << t.j << ',' << t.k << ',' << (t.upper ? 1 : 0) << ',' << decimal(row.second) << ']';
        return;
      }
      if (cut.fence) {
        out << "[\"fence\",";
        write_list(out, cut.fence->pales,
                   [&](const auto& pale) { out << '[' << pale.first << ',' << pale.second << ']'; });
      } else {
        out << "[\"ladder\",";
        write_list(out, cut.ladder->cycles,
                   [&](const std::vector<int>& cycle) { write_list(out, cycle, [&](int a) { out << a; }); });
      }
      out << ',' << decimal(row.second) << ']';
    });
  });
  out << ",\"nodes\":";
  write_list(out, proof.nodes, [&](const ProofNode& node) {
    out << "{\"kind\":\"" << kind_name(node.kind) << "\",\"rows\":" << node.rows;
    if (!node.fixed_at_lean.empty()) {
      out << ",\"fixed_at_lean\":";
      write_list(out, node.fixed_at_lean, [&](const auto& fixed) {
        out << '[';
        write_column(out, fixed.first, n);
        out << ',' << static_cast<int>(fixed.second) << ']';
      });
    }
    if (node.kind == ProofNode::Kind::branch) {
      out << ",\"pair\":";
      write_column(out, node.column, n);
      out << ",\"children\":[" << node.children[0] << ',' << node.children[1] << ']';
    }
    out << '}';
  });
  out << '}';
}

void write_component(std::ostream& out, const ComponentCertificate& component) {
  const int n = static_cast<int>(component.alternatives.size());
  out << "{\"alternatives\":";
  write_list(out, component.alternatives, [&](int a) { out << a; });
  out << ",\"method\":" << json_string(component.method) << ",\"distance_doubled\":" << component.distance;
  if (component.method != "lp" && component.method != "branch-and-cut") {
    out << '}';
    return;
  }
  std::vector<std::pair<int, int>> pairs;  // a before b, local
  for (int a = 0; a < n && component.reduction.alternatives == n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a != b && component.reduction.fixed(a, b)) pairs.emplace_back(a, b);
    }
  }
  out << ",\"fixed_pairs\":";
  write_list(out, pairs, [&](const auto& pair) {
    const Rule rule = component.reduction.rule(pair.first, pair.second);
    out << '[' << pair.first << ',' << pair.second << ',' << json_string(to_string(rule));
    if (rule == Rule::grouping) {  // the set S moved ahead (KemenyReductions.hpp)
      out << ',';
      write_list(out, component.reduction.side(pair.first, pair.second), [&](int a) { out << a; });
    }
    out << ']';
  });
  out << ",\"proof\":";
  write_proof(out, component.proof, n);
  out << '}';
}

}  // namespace

std::string certificate_json(const Result& result, const Counts& o, const std::string& input_format) {
  if (!result.exact || !result.certificate) fail("Kemeny certificate: the result is not exact (internal error)");
  // Version 2 adds ladder rows, version 3 grouping pairs, version 4 fence rows, version 5 bounds
  // rounded up to the distances' step (where a proof's component has a step above 1).
  bool ladders = false, grouping = false, fences = false, steps = false;
  for (const ComponentCertificate& component : result.certificate->components) {
    grouping = grouping || component.reduction.by_grouping > 0;
    steps = steps || (component.method == "lp" || component.method == "branch-and-cut") &&
                         distance_step(restrict_to(o, component.alternatives)) > 1;
    for (const auto& rows : component.proof.rows) {
      for (const auto& row : rows) ladders = ladders || row.first.ladder, fences = fences || row.first.fence;
    }
  }
  const int version = steps ? 5 : fences ? 4 : grouping ? 3 : ladders ? 2 : 1;
  std::ostringstream out;
  out << "{\"format\":\"kollective-kemeny-certificate\",\"version\":" << version << ",\"price_bits\":" << price_bits
      << ",\"input_format\":" << json_string(input_format) << ",\"alternatives\":" << o.alternatives << ",\"names\":";
  write_list(out, o.names, [&](const std::string& name) { out << json_string(name); });
  out << ",\"distance_doubled\":" << input_distance(o, result.distance) << ",\"ranking\":";
  write_list(out, result.optima.front(), [&](int a) { out << a; });
  out << ",\"components\":";
  write_list(out, result.certificate->components, [&](const ComponentCertificate& c) { write_component(out, c); });
  out << "}\n";
  return out.str();
}

}  // namespace kollective::kemeny
