#ifndef KOLLECTIVE_CORE_OPTIONFIELDS_HPP
#define KOLLECTIVE_CORE_OPTIONFIELDS_HPP

/// \file OptionFields.hpp
/// An algorithm's options, declared once beside its Options struct: each field's name, kind,
/// allowed values, meaning and former names, and the member it sets. The library's `check`, the
/// driver's YAML reader, `kollective help config` and docs/config-reference.md, and Python's
/// keyword arguments all read that one declaration (each algorithm's `option_fields()`), so no
/// other place spells an option's name, choices, range or default.

#include <array>
#include <charconv>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "kollective/core/Error.hpp"

namespace kollective {

/// An enum value's name in configs, tables and Python. One array of these per enum is the only
/// place its names are written; name_of, from_name and parse_name read it both ways.
template <class Enum>
struct EnumName {
  Enum value;
  const char* name;
};

template <class Enum, std::size_t N>
using EnumNames = std::array<EnumName<Enum>, N>;

template <class Enum, std::size_t N>
const char* name_of(const EnumNames<Enum, N>& names, Enum value) {
  for (const auto& entry : names) {
    if (entry.value == value) return entry.name;
  }
  return "?";
}

template <class Enum, std::size_t N>
std::optional<Enum> from_name(const EnumNames<Enum, N>& names, const std::string& name) {
  for (const auto& entry : names) {
    if (name == entry.name) return entry.value;
  }
  return std::nullopt;
}

template <class Enum, std::size_t N>
std::vector<std::string> names_of(const EnumNames<Enum, N>& names) {
  std::vector<std::string> out;
  for (const auto& entry : names) out.emplace_back(entry.name);
  return out;
}

/// "a, b or c": the choices in a message.
std::string choice_list(const std::vector<std::string>& choices);

/// The enum value named `name`; fails with "unknown <what> 'x' (a, b or c)".
template <class Enum, std::size_t N>
Enum parse_name(const EnumNames<Enum, N>& names, const std::string& name, const char* what) {
  if (const auto value = from_name(names, name)) return *value;
  fail("unknown ", what, " '", name, "' (", choice_list(names_of(names)), ")");
}

/// The precision a solver computes or stores in: one enum for every algorithm that has a choice.
enum class Precision { float64, float32 };
inline constexpr EnumNames<Precision, 2> precision_names{
    {{Precision::float64, "double"}, {Precision::float32, "float"}}};
inline const char* to_string(Precision precision) { return name_of(precision_names, precision); }

enum class OptionKind { flag, integer, number, choice, integers };
/// The kinds as the reference names them.
inline constexpr EnumNames<OptionKind, 5> option_kind_names{{{OptionKind::flag, "true/false"},
                                                             {OptionKind::integer, "integer"},
                                                             {OptionKind::number, "number"},
                                                             {OptionKind::choice, "choice"},
                                                             {OptionKind::integers, "list of integers"}}};
inline const char* to_string(OptionKind kind) { return name_of(option_kind_names, kind); }

/// An option's value as read from a config or Python, before it is set into Options: the
/// alternative matches the field's kind (flag: bool, integer: int64, number: double, choice: the
/// name, integers: a list).
using OptionValue = std::variant<bool, std::int64_t, double, std::string, std::vector<std::int64_t>>;

/// The numbers a `number` field allows: from low to high, either end open.
struct NumberRange {
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  bool low_open = false;
  bool high_open = false;
};
/// Finite numbers above 0, and finite numbers from 0.
inline constexpr NumberRange positive{0, std::numeric_limits<double>::infinity(), true, true};
inline constexpr NumberRange not_negative{0, std::numeric_limits<double>::infinity(), false, true};

/// What a field allows and means, without the member it sets: the same for every Options type.
struct OptionRule {
  std::string name;
  OptionKind kind = OptionKind::flag;
  std::string meaning;
  std::vector<std::string> choices;                                     ///< choice: the names, in the order shown
  std::int64_t integer_low = std::numeric_limits<std::int64_t>::min();  ///< integer, integers (each)
  std::int64_t integer_high = std::numeric_limits<std::int64_t>::max();
  NumberRange numbers;                    ///< number
  std::string note;                       ///< what special values mean: "-1: auto", "0: no limit"
  std::vector<std::string> former_names;  ///< accepted with a warning naming `name` (CHANGELOG.md)

  /// What is wrong with `value` for this field ("must be in 1..1000, got 0"), or "".
  std::string problem(const OptionValue& value) const;
  /// The allowed values as the reference shows them: "1..1000000", "> 0", "(0, 1)", "auto | dp".
  std::string range_text() const;
};

/// A value as configs write it: true, 300, 0.001, auto, [1, 3, 5, 10]; doubles read back exactly.
std::string value_text(const OptionValue& value);

/// One declared option of `Options`: its rule, and how it is read from and set into the struct.
template <class Options>
struct OptionField : OptionRule {
  std::function<OptionValue(const Options&)> get;
  std::function<void(Options&, const OptionValue&)> put;  ///< the value already checked

  OptionField& formerly(std::string former) {
    former_names.push_back(std::move(former));
    return *this;
  }
  OptionField& noting(std::string text) {
    note = std::move(text);
    return *this;
  }
};

template <class Options>
using OptionFields = std::vector<OptionField<Options>>;

/// A field of `kind` read and set by `get` and `put`; the builders below add its range.
template <class Options, class Get, class Put>
OptionField<Options> option_field(const char* name, OptionKind kind, const char* meaning, Get get, Put put) {
  OptionField<Options> field;
  field.name = name;
  field.kind = kind;
  field.meaning = meaning;
  field.get = get;
  field.put = put;
  return field;
}

template <class Options>
OptionField<Options> flag_option(const char* name, bool Options::*member, const char* meaning) {
  return option_field<Options>(
      name, OptionKind::flag, meaning, [member](const Options& o) { return OptionValue(o.*member); },
      [member](Options& o, const OptionValue& v) { o.*member = std::get<bool>(v); });
}

template <class Options, class Integer>
OptionField<Options> integer_option(const char* name, Integer Options::*member, std::int64_t low, std::int64_t high,
                                    const char* meaning) {
  auto field = option_field<Options>(
      name, OptionKind::integer, meaning,
      [member](const Options& o) {  // an unsigned member past int64's range reads as its largest
        if constexpr (std::is_unsigned_v<Integer>) {
          if (o.*member > static_cast<Integer>(std::numeric_limits<std::int64_t>::max()))
            return OptionValue(std::numeric_limits<std::int64_t>::max());
        }
        return OptionValue(static_cast<std::int64_t>(o.*member));
      },
      [member](Options& o, const OptionValue& v) { o.*member = static_cast<Integer>(std::get<std::int64_t>(v)); });
  field.integer_low = low;
  field.integer_high = high;
  return field;
}

template <class Options>
OptionField<Options> number_option(const char* name, double Options::*member, NumberRange range, const char* meaning) {
  auto field = option_field<Options>(
      name, OptionKind::number, meaning, [member](const Options& o) { return OptionValue(o.*member); },
      [member](Options& o, const OptionValue& v) { o.*member = std::get<double>(v); });
  field.numbers = range;
  return field;
}

template <class Options, class Enum, std::size_t N>
OptionField<Options> choice_option(const char* name, Enum Options::*member, const EnumNames<Enum, N>& names,
                                   const char* meaning) {
  auto field = option_field<Options>(
      name, OptionKind::choice, meaning,
      [member, names](const Options& o) { return OptionValue(std::string(name_of(names, o.*member))); },
      [member, names](Options& o, const OptionValue& v) { o.*member = *from_name(names, std::get<std::string>(v)); });
  field.choices = names_of(names);
  return field;
}

template <class Options, class Integer>
OptionField<Options> integers_option(const char* name, std::vector<Integer> Options::*member, std::int64_t low,
                                     std::int64_t high, const char* meaning) {
  auto field = option_field<Options>(
      name, OptionKind::integers, meaning,
      [member](const Options& o) {
        return OptionValue(std::vector<std::int64_t>((o.*member).begin(), (o.*member).end()));
      },
      [member](Options& o, const OptionValue& v) {
        const auto& list = std::get<std::vector<std::int64_t>>(v);
        o.*member = std::vector<Integer>(list.begin(), list.end());
      });
  field.integer_low = low;
  field.integer_high = high;
  return field;
}

/// The field called `name`, or one of whose former names it is (then *former is set); null if none.
template <class Options>
const OptionField<Options>* find_option(const OptionFields<Options>& fields, const std::string& name,
                                        bool* former = nullptr) {
  for (const auto& field : fields) {
    if (field.name == name) return &field;
  }
  for (const auto& field : fields) {
    for (const auto& old : field.former_names) {
      if (old != name) continue;
      if (former) *former = true;
      return &field;
    }
  }
  return nullptr;
}

/// Sets `field` of `options` to `value`, or returns what is wrong with it (options untouched).
template <class Options>
std::optional<OptionProblem> set_option(Options& options, const OptionField<Options>& field, const OptionValue& value) {
  const std::string problem = field.problem(value);
  if (!problem.empty()) return OptionProblem{field.name, problem};
  field.put(options, value);
  return std::nullopt;
}

/// The first declared field whose value in `options` its rule refuses: the declared part of an
/// algorithm's `check` (which adds the rules that join several fields).
template <class Options>
std::optional<OptionProblem> check_fields(const Options& options, const OptionFields<Options>& fields) {
  for (const auto& field : fields) {
    const std::string problem = field.problem(field.get(options));
    if (!problem.empty()) return OptionProblem{field.name, problem};
  }
  return std::nullopt;
}

/// A field as the reference and Python show it: its rule and its default, from `Options{}`.
struct OptionDescription : OptionRule {
  OptionValue fallback;
};

template <class Options>
std::vector<OptionDescription> describe(const OptionFields<Options>& fields) {
  const Options defaults{};
  std::vector<OptionDescription> out;
  for (const auto& field : fields) out.push_back({field, field.get(defaults)});
  return out;
}

}  // namespace kollective

#endif
