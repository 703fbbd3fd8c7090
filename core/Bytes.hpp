#ifndef KOLLECTIVE_CORE_BYTES_HPP
#define KOLLECTIVE_CORE_BYTES_HPP

/// \file Bytes.hpp
/// Values packed into a byte string and read back, for what ranks of one run send each other
/// (rows, run outcomes). Native byte order and sizes: the bytes never leave one build's run.

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "kollective/core/Error.hpp"

namespace kollective {

class ByteWriter {
 public:
  template <class T>
  void raw(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  void count(std::size_t value) { raw(static_cast<std::uint64_t>(value)); }
  void text(const std::string& value) {
    count(value.size());
    bytes_ += value;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

/// Reads what a ByteWriter wrote, in the same order; fails on bytes it did not write.
class ByteReader {
 public:
  explicit ByteReader(const std::string& bytes) : bytes_(bytes) {}
  bool done() const { return at_ == bytes_.size(); }
  template <class T>
  T raw() {
    static_assert(std::is_trivially_copyable_v<T>);
    need(sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  /// A count of elements that take at least one byte each (so it cannot exceed what is left).
  std::size_t count() {
    const auto value = raw<std::uint64_t>();
    need(value);
    return static_cast<std::size_t>(value);
  }
  std::string text() {
    const std::size_t length = count();
    std::string value = bytes_.substr(at_, length);
    at_ += length;
    return value;
  }

 private:
  void need(std::uint64_t length) const {
    if (length > bytes_.size() - at_) fail("internal: truncated data from another rank");
  }
  const std::string& bytes_;
  std::size_t at_ = 0;
};

}  // namespace kollective

#endif
