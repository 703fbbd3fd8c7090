#ifndef KOLLECTIVE_CORE_PORTABLEMATH_HPP
#define KOLLECTIVE_CORE_PORTABLEMATH_HPP

/// \file PortableMath.hpp
/// log, exp and sin/cos of pi x from IEEE +, -, *, / alone, evaluated in one fixed order, so that a
/// value is the same bit for bit on every backend: CUDA's and the C library's log, exp and cos
/// may differ in the last bit, which a seeded generator must not. Within 2 ulps of the exact
/// value over the domains below. The same bits hold only where the compiler does not fuse a*b+c
/// into one rounding: a source that calls these is compiled with -ffp-contract=off (and nvcc's
/// --fmad=false); algorithms/CMakeLists.txt sets both for the value generators.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kollective::portable {

/// fdlibm's split of ln 2: ln2_hi has 32 significant bits, so k * ln2_hi is exact for |k| < 2^20.
inline constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
inline constexpr double pi = 3.14159265358979311600e+00;

/// 2^k for -1022 <= k <= 1023, exactly.
KOKKOS_INLINE_FUNCTION double power_of_two(int k) {
  return Kokkos::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
}

/// Natural logarithm of a positive normal number.
KOKKOS_INLINE_FUNCTION double log(double x) {
  const std::uint64_t bits = Kokkos::bit_cast<std::uint64_t>(x);
  int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  double m = Kokkos::bit_cast<double>((bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull);  // [1, 2)
  if (m > 1.4142135623730951) {
    m = m * 0.5;
    exponent += 1;
  }
  // log m = 2 atanh(t), t = (m - 1) / (m + 1), |t| <= 0.1716: the series to t^21 leaves < 1e-18.
  const double t = (m - 1.0) / (m + 1.0), t2 = t * t;
  double series = 1.0 / 21.0;
  for (int k = 19; k >= 1; k -= 2) series = series * t2 + 1.0 / k;
  const double e = exponent;
  return e * ln2_hi + (2.0 * t * series + e * ln2_lo);
}

/// e^x for |x| <= 700.
KOKKOS_INLINE_FUNCTION double exp(double x) {
  const double k = Kokkos::floor(x * 1.4426950408889634 + 0.5);
  const double r = (x - k * ln2_hi) - k * ln2_lo;  // |r| <= ln 2 / 2: the Taylor series to r^13 leaves < 1e-17
  double series = 1.0;
  for (int j = 13; j >= 1; --j) series = series * r / j + 1.0;
  return series * power_of_two(static_cast<int>(k));
}

/// x^y for x > 0 (a positive normal number), as e^(y log x).
KOKKOS_INLINE_FUNCTION double pow(double x, double y) { return exp(y * log(x)); }

/// sin(pi x) and cos(pi x) together, for |x| < 2^50.
struct SinCos {
  double sin, cos;
};
KOKKOS_INLINE_FUNCTION SinCos sincospi(double x) {
  const double quarter_turns = Kokkos::floor(2.0 * x + 0.5);  // x = quarter_turns / 2 + r, |r| <= 1/4
  const double r = x - 0.5 * quarter_turns;                   // exact
  const double y = pi * r, y2 = y * y;
  double s = 1.0, c = 1.0;  // Taylor series of sin y / y and cos y to y^20: |y| <= pi/4 leaves < 1e-19
  for (int j = 20; j >= 2; j -= 2) {
    s = 1.0 - s * y2 / ((j + 1) * j);
    c = 1.0 - c * y2 / (j * (j - 1));
  }
  s = s * y;
  const auto quadrant = static_cast<std::int64_t>(quarter_turns) & 3;
  if (quadrant == 0) return {s, c};
  if (quadrant == 1) return {c, -s};
  if (quadrant == 2) return {-s, -c};
  return {-c, s};
}

}  // namespace kollective::portable

#endif
