#ifndef KOLLECTIVE_PYTHON_OPTIONS_HPP
#define KOLLECTIVE_PYTHON_OPTIONS_HPP

/// \file Options.hpp
/// Python keyword arguments read through an algorithm's declared fields (core/OptionFields.hpp),
/// as the driver reads a config's `options:`: the same names, kinds, ranges and defaults, a
/// former name with a FutureWarning naming the new one. The package's functions pass their
/// keyword arguments here whole; `option_table` tells Python the fields (signatures, help).

#include <nanobind/nanobind.h>

#include <string>
#include <vector>

#include "kollective/core/OptionFields.hpp"
#include "kollective/core/Parse.hpp"
#include "kollective/core/ResultFields.hpp"

namespace kollective::python {

namespace nb = nanobind;

/// `value` as `rule`'s kind (a bool is no number; an integer choice such as strength_bits=16
/// reads as its name); fails naming the option when it has another type.
OptionValue python_value(const nb::handle& value, const OptionRule& rule);

/// A FutureWarning that `former` is now `rule.name`.
void warn_former(const std::string& former, const OptionRule& rule);
/// A FutureWarning for each setting `ignored` names ("coalition: ip_share has no effect ...").
void warn_ignored(const std::string& algorithm, const std::vector<OptionProblem>& ignored);

/// Fails for a keyword that no field of `names` answers to, with a suggestion.
[[noreturn]] void fail_unknown(const std::string& algorithm, const std::string& key,
                               const std::vector<std::string>& names);

/// The fields as Python reads them: a list of dicts (name, kind, default, choices, range, note,
/// meaning, former_names).
nb::list option_table(const std::vector<OptionDescription>& fields);

/// The declared result fields as Python reads them: a list of dicts (name, kind, unit, meaning,
/// former_names).
nb::list field_table(const std::vector<FieldRule>& fields);

/// Every declared field of a solve's report as a dict entry (None where a field does not apply):
/// the result objects' attributes. Python returns alternatives and agents as indices: the
/// binding replaces those lists of names by their indices, under the same names.
template <class Source>
nb::dict result_dict(const ResultFields<Source>& fields, const Source& source);
nb::dict result_dict(const Row& row, const std::vector<FieldRule>& fields);

template <class Source>
nb::dict result_dict(const ResultFields<Source>& fields, const Source& source) {
  Row row;
  set_fields(row, fields, source);
  return result_dict(row, rules_of(fields));
}

/// Options{} with every keyword of `given` set through `fields`, then `check`ed.
template <class Options, class Check>
Options options_from(const std::string& algorithm, const OptionFields<Options>& fields, const nb::dict& given,
                     Check&& check) {
  Options options;
  std::vector<std::string> names;
  for (const auto& field : fields) names.push_back(field.name);
  for (const auto& [key_handle, value] : given) {
    const std::string key = nb::cast<std::string>(key_handle);
    bool former = false;
    const OptionField<Options>* field = find_option(fields, key, &former);
    if (!field) fail_unknown(algorithm, key, names);
    if (former) {
      if (given.contains(field->name.c_str()))
        fail(algorithm, ": ", key, " is the former name of ", field->name, ": give only ", field->name);
      warn_former(key, *field);
    }
    if (const auto problem = set_option(options, *field, python_value(value, *field)))
      fail(algorithm, ": ", problem->option, " ", problem->problem);
  }
  if (const auto problem = check(options)) fail(algorithm, ": ", problem->option, " ", problem->problem);
  return options;
}

}  // namespace kollective::python

#endif
