#ifndef KOLLECTIVE_CORE_RESULTFIELDS_HPP
#define KOLLECTIVE_CORE_RESULTFIELDS_HPP

/// \file ResultFields.hpp
/// What a solve reports, declared once per field: its column name, its kind (an answer that
/// another backend or revision must reproduce, a timing, a counter of work, or context that
/// says what was solved and how), its unit, meaning and former names, and how it is read from
/// the solve's result. The driver's table rows and console summary and Python's result objects
/// are made from the declarations; comparing or resuming runs reads the kinds.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kollective/core/OptionFields.hpp"  // EnumNames
#include "kollective/core/Tables.hpp"

namespace kollective {

/// answer: must agree between runs of the same point (optimum, ranking, winners); timing:
/// seconds or a rate, differs run to run; counter: work done (nodes, iterations), may differ
/// between backends without a wrong answer; context: what was solved, as configured (the input,
/// sizes, options): what identifies a point; outcome: how the solve went about it (the method or
/// width that `auto` chose, why it stopped, the check that ran), which may differ between
/// backends without a wrong answer.
enum class FieldKind { answer, timing, counter, context, outcome };
inline constexpr EnumNames<FieldKind, 5> field_kind_names{{{FieldKind::answer, "answer"},
                                                           {FieldKind::timing, "timing"},
                                                           {FieldKind::counter, "counter"},
                                                           {FieldKind::context, "context"},
                                                           {FieldKind::outcome, "outcome"}}};
inline const char* to_string(FieldKind kind) { return name_of(field_kind_names, kind); }

/// A field's declaration without its getter: the same for every source type.
struct FieldRule {
  std::string name;
  FieldKind kind = FieldKind::answer;
  std::string unit;  ///< "s", "votes", "1/s" (a rate: larger is faster), "B/s"; "" when none
  std::string meaning;
  std::vector<std::string> former_names;  ///< columns this one was called before (CHANGELOG.md)
  bool summary = false;                   ///< shown in the driver's console summary
};

/// One declared field of a solve's report `Source`: `get` gives its cell, or none where the
/// field does not apply to this solve (a count that was not searched, a phase that did not run).
template <class Source>
struct ResultField : FieldRule {
  std::function<std::optional<Cell>(const Source&)> get;

  ResultField& formerly(std::string former) {
    former_names.push_back(std::move(former));
    return *this;
  }
  ResultField& shown() {
    summary = true;
    return *this;
  }
};

template <class Source>
using ResultFields = std::vector<ResultField<Source>>;

/// A field that always applies: `get` returns the value (anything Row::set takes).
template <class Source, class Get>
ResultField<Source> field(const char* name, FieldKind kind, const char* unit, const char* meaning, Get get) {
  ResultField<Source> out;
  out.name = name;
  out.kind = kind;
  out.unit = unit;
  out.meaning = meaning;
  out.get = [get](const Source& source) -> std::optional<Cell> { return make_cell(get(source)); };
  return out;
}

/// A field that applies only where `applies(source)`.
template <class Source, class Applies, class Get>
ResultField<Source> field_where(const char* name, FieldKind kind, const char* unit, const char* meaning,
                                Applies applies, Get get) {
  ResultField<Source> out = field<Source>(name, kind, unit, meaning, get);
  auto always = out.get;
  out.get = [applies, always](const Source& source) -> std::optional<Cell> {
    if (!applies(source)) return std::nullopt;
    return always(source);
  };
  return out;
}

/// Sets every field that applies to `source` in `row`, in declaration order.
template <class Source>
Row& set_fields(Row& row, const ResultFields<Source>& fields, const Source& source) {
  for (const auto& each : fields) {
    if (auto cell = each.get(source)) row.put(each.name, std::move(*cell));
  }
  return row;
}

/// The rules of `fields`, without their getters.
template <class Source>
std::vector<FieldRule> rules_of(const ResultFields<Source>& fields) {
  return std::vector<FieldRule>(fields.begin(), fields.end());
}

/// The names of `indices` (alternatives, agents), in their order.
TextList named(const std::vector<int>& indices, const std::vector<std::string>& names);

/// The fields marked `summary` that `row` holds, as "name value unit" joined by "; ".
std::string summary_line(const Row& row, const std::vector<FieldRule>& rules);

}  // namespace kollective

#endif
