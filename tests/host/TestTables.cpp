#include <gtest/gtest.h>

#include "core/RuntimeInfo.hpp"
#include "core/Tables.hpp"

TEST(tables, every_row_carries_runtime_columns_in_all_formats) {
  kollective::Table table("demo");
  kollective::Row row;
  row.set("n", 4096).set("rate", 1.5).set("label", "a,b|c").set("ok", true);
  table.add(row);
  const auto& info = kollective::runtime_info();
  for (const std::string& text : {table.markdown(), table.csv(), table.json()}) {
    EXPECT_NE(text.find(info.backend), std::string::npos) << text;
    EXPECT_NE(text.find(info.revision), std::string::npos) << text;
    EXPECT_NE(text.find(info.kokkos_version), std::string::npos) << text;
  }
  EXPECT_NE(table.csv().find("\"a,b|c\""), std::string::npos);
  EXPECT_NE(table.markdown().find("a,b/c"), std::string::npos);
  EXPECT_NE(table.json().find("\"n\": 4096"), std::string::npos);
  EXPECT_NE(table.json().find("\"ok\": true"), std::string::npos);
  EXPECT_EQ(table.columns().front(), "n");
}
