#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstddef>

#include "kollective/core/kokkos_ext/Compat.hpp"

// Checks of the Kokkos that Kollective is built against, for defects its bootstrap patches.

// GCC 12.2 to 12.5 could skip SharedAllocationTracker's constexpr default constructor, so a
// default-constructed mdspan-based view read a null allocation record: its label segfaulted
// (Kokkos issue 8187, seen here with Debian 12's GCC 12.2 and unpatched Kokkos 4.6.01).
// scripts/kokkos-4.6.01-cuda13.patch makes that constructor non-constexpr for those compilers.
// Kokkos' View switches to this view type in later releases; its test mirrors Kokkos' own.
#if KOLLECTIVE_KOKKOS_HAS_ISSUE_8187
TEST(kokkos_build, default_constructed_basic_view_has_no_allocation_record) {
  using Accessor = Kokkos::Impl::CheckedReferenceCountedAccessor<double, Kokkos::HostSpace>;
  using BasicView = Kokkos::Impl::BV::BasicView<double, Kokkos::extents<std::size_t, 1>,
                                                Kokkos::Experimental::layout_right_padded<>, Accessor>;
  const BasicView view;
  EXPECT_FALSE(view.data_handle().has_record());
  EXPECT_EQ(view.data_handle().use_count(), 0);
  EXPECT_EQ(view.data_handle().get_label(), "");
}
#endif

TEST(kokkos_build, default_constructed_view_has_an_empty_label) {
  const Kokkos::View<double*, Kokkos::HostSpace> view;
  EXPECT_EQ(view.use_count(), 0);
  EXPECT_EQ(view.label(), "");
}
