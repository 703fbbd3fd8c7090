/// \file Options.cpp
/// Python values as declared options, and the declarations as Python reads them.

#include "kollective/python/bindings/Options.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "kollective/core/Error.hpp"

namespace kollective::python {

namespace {

bool is_bool(const nb::handle& value) { return PyBool_Check(value.ptr()); }

/// An int, or anything with __index__ (numpy's integers); none for floats, bools and text.
std::optional<std::int64_t> python_integer(const nb::handle& value) {
  if (is_bool(value) || !PyIndex_Check(value.ptr())) return std::nullopt;
  const long long integer = PyLong_AsLongLong(nb::steal(PyNumber_Index(value.ptr())).ptr());
  if (integer == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return std::nullopt;  // beyond 64 bits
  }
  return integer;
}

nb::object python_object(const OptionValue& value) {
  return std::visit([](const auto& held) { return nb::cast(held); }, value);
}

}  // namespace

OptionValue python_value(const nb::handle& value, const OptionRule& rule) {
  auto refuse = [&](const char* wanted) -> OptionValue {
    fail(rule.name, " must be ", wanted, ", got ", nb::cast<std::string>(nb::repr(value)));
  };
  switch (rule.kind) {
    case OptionKind::flag:
      return is_bool(value) ? OptionValue(value.ptr() == Py_True) : refuse("True or False");
    case OptionKind::integer:
      if (const auto integer = python_integer(value)) return *integer;
      return refuse("an integer (64 bits)");
    case OptionKind::number:
      if (is_bool(value) || !PyNumber_Check(value.ptr()) || PyUnicode_Check(value.ptr())) return refuse("a number");
      if (const double number = PyFloat_AsDouble(value.ptr()); !(number == -1.0 && PyErr_Occurred())) return number;
      PyErr_Clear();
      return refuse("a number");
    case OptionKind::choice:
      if (PyUnicode_Check(value.ptr())) return nb::cast<std::string>(value);
      if (const auto integer = python_integer(value)) return std::to_string(*integer);
      return refuse(("one of " + choice_list(rule.choices)).c_str());
    case OptionKind::integers: {
      std::vector<std::int64_t> list;
      if (const auto integer = python_integer(value)) return std::vector<std::int64_t>{*integer};
      if (PyUnicode_Check(value.ptr()) || !PySequence_Check(value.ptr())) return refuse("a list of integers");
      for (nb::handle element : value) {
        const auto integer = python_integer(element);
        if (!integer) return refuse("a list of integers");
        list.push_back(*integer);
      }
      return list;
    }
  }
  return refuse("a value of its kind");
}

void warn_former(const std::string& former, const OptionRule& rule) {
  const std::string text = "'" + former + "' is now '" + rule.name + "' (CHANGELOG.md); read as " + rule.name;
  if (PyErr_WarnEx(PyExc_FutureWarning, text.c_str(), 2) < 0) throw nb::python_error();
}

void warn_ignored(const std::string& algorithm, const std::vector<OptionProblem>& ignored) {
  for (const OptionProblem& setting : ignored) {
    const std::string text = algorithm + ": " + setting.option + " " + setting.problem;
    if (PyErr_WarnEx(PyExc_FutureWarning, text.c_str(), 2) < 0) throw nb::python_error();
  }
}

void fail_unknown(const std::string& algorithm, const std::string& key, const std::vector<std::string>& names) {
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
  fail(algorithm, " has no option '", key, "'", did_you_mean(key, names), " (its options: ", list, ")");
}

namespace {

/// What every declared field has: its name, kind, meaning and former names.
template <class Rule>
nb::dict described(const Rule& rule) {
  nb::dict row;
  row["name"] = rule.name;
  row["kind"] = to_string(rule.kind);
  row["meaning"] = rule.meaning;
  row["former_names"] = rule.former_names;
  return row;
}

}  // namespace

nb::list field_table(const std::vector<FieldRule>& fields) {
  nb::list table;
  for (const FieldRule& field : fields) {
    nb::dict row = described(field);
    row["unit"] = field.unit;
    table.append(row);
  }
  return table;
}

nb::dict result_dict(const Row& row, const std::vector<FieldRule>& fields) {
  nb::dict out;
  for (const FieldRule& field : fields) {
    const Cell* cell = row.find(field.name);
    out[field.name.c_str()] = cell ? std::visit([](const auto& value) { return nb::cast(value); }, *cell) : nb::none();
  }
  return out;
}

nb::list option_table(const std::vector<OptionDescription>& fields) {
  nb::list table;
  for (const OptionDescription& field : fields) {
    nb::dict row = described(field);
    row["default"] = python_object(field.fallback);
    row["choices"] = field.choices;
    row["range"] = field.range_text();
    row["note"] = field.note;
    table.append(row);
  }
  return table;
}

}  // namespace kollective::python
