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
  if (const auto* flag = std::get_if<bool>(&value)) return nb::bool_(*flag);
  if (const auto* integer = std::get_if<std::int64_t>(&value)) return nb::int_(*integer);
  if (const auto* number = std::get_if<double>(&value)) return nb::float_(*number);
  if (const auto* name = std::get_if<std::string>(&value)) return nb::str(name->c_str());
  return nb::cast(std::get<std::vector<std::int64_t>>(value));
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
      return PyFloat_AsDouble(value.ptr());
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

void fail_unknown(const std::string& algorithm, const std::string& key, const std::vector<std::string>& names) {
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
  fail(algorithm, " has no option '", key, "'", did_you_mean(key, names), " (its options: ", list, ")");
}

nb::list field_table(const std::vector<FieldRule>& fields) {
  nb::list table;
  for (const FieldRule& field : fields) {
    nb::dict row;
    row["name"] = field.name;
    row["kind"] = to_string(field.kind);
    row["unit"] = field.unit;
    row["meaning"] = field.meaning;
    row["former_names"] = field.former_names;
    table.append(row);
  }
  return table;
}

nb::dict result_dict(const Row& row, const std::vector<FieldRule>& fields) {
  nb::dict out;
  for (const FieldRule& field : fields) {
    const Cell* cell = row.find(field.name);
    if (!cell) {
      out[field.name.c_str()] = nb::none();
    } else if (const auto* text = std::get_if<std::string>(cell)) {
      out[field.name.c_str()] = nb::str(text->c_str());
    } else if (const auto* integer = std::get_if<std::int64_t>(cell)) {
      out[field.name.c_str()] = nb::int_(*integer);
    } else if (const auto* count = std::get_if<std::uint64_t>(cell)) {
      out[field.name.c_str()] = nb::cast(*count);
    } else if (const auto* real = std::get_if<double>(cell)) {
      out[field.name.c_str()] = nb::float_(*real);
    } else if (const auto* flag = std::get_if<bool>(cell)) {
      out[field.name.c_str()] = nb::bool_(*flag);
    } else if (const auto* list = std::get_if<TextList>(cell)) {
      out[field.name.c_str()] = nb::cast(*list);
    } else {
      out[field.name.c_str()] = nb::cast(std::get<TextGroups>(*cell));
    }
  }
  return out;
}

nb::list option_table(const std::vector<OptionDescription>& fields) {
  nb::list table;
  for (const OptionDescription& field : fields) {
    nb::dict row;
    row["name"] = field.name;
    row["kind"] = to_string(field.kind);
    row["default"] = python_object(field.fallback);
    row["choices"] = field.choices;
    row["range"] = field.range_text();
    row["note"] = field.note;
    row["meaning"] = field.meaning;
    row["former_names"] = field.former_names;
    table.append(row);
  }
  return table;
}

}  // namespace kollective::python
