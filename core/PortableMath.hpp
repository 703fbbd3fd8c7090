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

/// c0 + x (c1 + x (c2 + ...)), innermost first. The coefficients are constants such as 1.0 / 6,
/// each a division rounded once at compile time, the same wherever it is compiled (a division
/// at run time costs about ten multiplications).
KOKKOS_INLINE_FUNCTION double horner(double, double c0) { return c0; }
template <class... Rest>
KOKKOS_INLINE_FUNCTION double horner(double x, double c0, Rest... rest) {
  return horner(x, rest...) * x + c0;
}

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
  // log m = 2 atanh(t), t = (m - 1) / (m + 1), |t| <= 0.1716: the series to t^23 leaves < 1e-19.
  const double t = (m - 1.0) / (m + 1.0), t2 = t * t;
  const double series = horner(t2, 1.0, 1.0 / 3, 1.0 / 5, 1.0 / 7, 1.0 / 9, 1.0 / 11, 1.0 / 13, 1.0 / 15, 1.0 / 17,
                               1.0 / 19, 1.0 / 21, 1.0 / 23);
  const double e = exponent;
  return e * ln2_hi + (2.0 * t * series + e * ln2_lo);
}

/// e^x for |x| <= 700.
KOKKOS_INLINE_FUNCTION double exp(double x) {
  const double k = Kokkos::floor(x * 1.4426950408889634 + 0.5);
  const double r = (x - k * ln2_hi) - k * ln2_lo;  // |r| <= ln 2 / 2: the Taylor series to r^13 leaves < 1e-17
  const double series = horner(r, 1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320,
                               1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800.0);
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
  // Taylor series of sin y / y to y^16 and cos y to y^18: |y| <= pi / 4 leaves < 1e-19.
  const double s = y * horner(y2, 1.0, -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880, -1.0 / 39916800,
                              1.0 / 6227020800.0, -1.0 / 1307674368000.0, 1.0 / 355687428096000.0);
  const double c = horner(y2, 1.0, -1.0 / 2, 1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800, 1.0 / 479001600,
                          -1.0 / 87178291200.0, 1.0 / 20922789888000.0, -1.0 / 6402373705728000.0);
  const auto quadrant = static_cast<std::int64_t>(quarter_turns) & 3;
  if (quadrant == 0) return {s, c};
  if (quadrant == 1) return {c, -s};
  if (quadrant == 2) return {-s, -c};
  return {-c, s};
}

}  // namespace kollective::portable

#endif
