#include "kollective/core/OptionFields.hpp"

#include <cmath>

namespace kollective {

namespace {

/// The shortest text that reads back as exactly `value`.
std::string number_text(double value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  return std::string(text, end);
}

std::string integer_text(std::int64_t value) {
  if (value == std::numeric_limits<std::int64_t>::max()) return "2^63-1";
  return std::to_string(value);
}

bool in_range(const NumberRange& range, double value) {
  const bool above = range.low_open ? value > range.low : value >= range.low;
  const bool below = range.high_open ? value < range.high : value <= range.high;
  return above && below && !std::isnan(value);
}

}  // namespace

std::string choice_list(const std::vector<std::string>& choices) {
  std::string list;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) list += i + 1 == choices.size() ? " or " : ", ";
    list += choices[i];
  }
  return list;
}

std::string OptionRule::range_text() const {
  switch (kind) {
    case OptionKind::flag:
      return "";
    case OptionKind::choice: {
      std::string text;
      for (const auto& choice : choices) text += (text.empty() ? "" : " | ") + choice;
      return text;
    }
    case OptionKind::integer:
    case OptionKind::integers:
      if (integer_high == std::numeric_limits<std::int64_t>::max() && integer_low == 0) return ">= 0";
      return integer_text(integer_low) + ".." + integer_text(integer_high);
    case OptionKind::number: {
      const bool no_high = std::isinf(numbers.high), no_low = std::isinf(numbers.low);
      if (no_high && no_low) return "any";
      if (no_high) return (numbers.low_open ? "> " : ">= ") + number_text(numbers.low);
      if (no_low) return (numbers.high_open ? "< " : "<= ") + number_text(numbers.high);
      return (numbers.low_open ? "(" : "[") + number_text(numbers.low) + ", " + number_text(numbers.high) +
             (numbers.high_open ? ")" : "]");
    }
  }
  return "";
}

std::string OptionRule::problem(const OptionValue& value) const {
  const std::string allowed = range_text();
  switch (kind) {
    case OptionKind::flag:
      return std::holds_alternative<bool>(value) ? "" : "must be true or false";
    case OptionKind::choice: {
      const auto* name = std::get_if<std::string>(&value);
      if (!name) return "must be one of: " + choice_list(choices);
      for (const auto& choice : choices) {
        if (*name == choice) return "";
      }
      return "must be one of " + choice_list(choices) + ", got '" + *name + "'";
    }
    case OptionKind::integer: {
      const auto* integer = std::get_if<std::int64_t>(&value);
      const std::string wanted = allowed.rfind(">=", 0) == 0 ? allowed : "in " + allowed;
      if (!integer) return "must be an integer " + wanted;
      if (*integer < integer_low || *integer > integer_high)
        return "must be " + wanted + ", got " + integer_text(*integer);
      return "";
    }
    case OptionKind::integers: {
      const auto* list = std::get_if<std::vector<std::int64_t>>(&value);
      if (!list) return "must be a list of integers in " + allowed;
      for (std::int64_t element : *list) {
        if (element < integer_low || element > integer_high)
          return "must hold integers in " + allowed + ", got " + integer_text(element);
      }
      return "";
    }
    case OptionKind::number: {
      const bool positive_only = numbers.low == 0 && numbers.low_open && std::isinf(numbers.high);
      const bool interval = !std::isinf(numbers.low) && !std::isinf(numbers.high);
      const std::string wanted = positive_only ? "a positive number" : (interval ? "in " : "a number ") + allowed;
      const auto* number = std::get_if<double>(&value);
      if (!number) return "must be " + wanted;
      if (!in_range(numbers, *number)) return "must be " + wanted + ", got " + number_text(*number);
      return "";
    }
  }
  return "";
}

std::string value_text(const OptionValue& value) {
  if (const auto* flag = std::get_if<bool>(&value)) return *flag ? "true" : "false";
  if (const auto* integer = std::get_if<std::int64_t>(&value)) return std::to_string(*integer);
  if (const auto* number = std::get_if<double>(&value)) return number_text(*number);
  if (const auto* name = std::get_if<std::string>(&value)) return *name;
  std::string text = "[";
  for (std::int64_t element : std::get<std::vector<std::int64_t>>(value))
    text += (text.size() > 1 ? ", " : "") + std::to_string(element);
  return text + "]";
}

}  // namespace kollective
