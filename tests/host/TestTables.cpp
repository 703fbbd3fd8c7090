#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <filesystem>
#include <fstream>

#include "core/Csv.hpp"
#include "core/Error.hpp"
#include "core/ResultFiles.hpp"
#include "core/RuntimeInfo.hpp"
#include "core/Tables.hpp"

using namespace kollective;

TEST(tables, every_row_carries_runtime_columns_in_all_formats) {
  Table table("demo");
  Row row;
  row.set("n", 4096).set("rate", 1.5).set("label", "a,b|c").set("ok", true);
  table.add(row);
  const auto& info = runtime_info();
  for (const std::string& text : {table.markdown(), table.csv(), table.json()}) {
    EXPECT_NE(text.find(info.backend), std::string::npos) << text;
    EXPECT_NE(text.find(info.revision), std::string::npos) << text;
    EXPECT_NE(text.find(info.kokkos_version), std::string::npos) << text;
  }
  EXPECT_NE(table.csv().find("\"a,b|c\""), std::string::npos);
  EXPECT_NE(table.markdown().find("a,b\\|c"), std::string::npos);
  EXPECT_NE(table.json().find("\"n\": 4096"), std::string::npos);
  EXPECT_NE(table.json().find("\"ok\": true"), std::string::npos);
  EXPECT_EQ(table.columns().front(), "n");
}

TEST(csv, fields_follow_rfc_4180) {
  EXPECT_EQ(csv_record({"1", "Alpha, Inc.", "B \"quoted\"", "two\nlines", ""}),
            "1,\"Alpha, Inc.\",\"B \"\"quoted\"\"\",\"two\nlines\",\r\n");
  EXPECT_EQ(csv_record({"plain"}), "plain\r\n");
}

TEST(csv, doubles_read_back_exactly_and_stay_floats) {
  for (double value : {11.219611525535583, 0.1, 1.0 / 3.0, 1e-7, 123456789.123, -2.5e300, 5e-324}) {
    const std::string text = exact_text(value);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), value) << text;
  }
  EXPECT_EQ(exact_text(1.0), "1.0");
  EXPECT_EQ(exact_text(8.5), "8.5");
  EXPECT_THROW(exact_text(std::numeric_limits<double>::infinity()), Error);
  EXPECT_EQ(doubled_votes_text(17), "8.5");
}

TEST(tables, cells_are_typed_and_lists_are_arrays) {
  Table table("typed");
  Row row;
  row.set("distance", 8.0)
      .set("count", std::uint64_t{18446744073709551615ull})
      .set("winners", TextList{"Alpha, Inc.", "B \"q\""})
      .set("ranking", TextGroups{{"A"}, {"B", "C"}});
  table.add(row);
  const std::string json = table.json();
  EXPECT_NE(json.find("\"distance\": 8.0"), std::string::npos) << json;
  EXPECT_NE(json.find("\"count\": 18446744073709551615"), std::string::npos) << json;
  EXPECT_NE(json.find("\"winners\": [\"Alpha, Inc.\",\"B \\\"q\\\"\"]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"ranking\": [[\"A\"],[\"B\",\"C\"]]"), std::string::npos) << json;
  // In CSV a list is its JSON array, quoted as one field.
  EXPECT_NE(table.csv().find(",\"[\"\"Alpha, Inc.\"\",\"\"B \\\"\"q\\\"\"\"\"]\","), std::string::npos) << table.csv();
}

TEST(tables, non_finite_results_are_refused) {
  Row row;
  EXPECT_THROW(row.set("ndcg", std::nan("")), Error);
  EXPECT_THROW(row.set("rate", -std::numeric_limits<double>::infinity()), Error);
}

TEST(tables, json_strings_are_valid_utf8) {
  EXPECT_EQ(json_string("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(json_string("bad\xff"), "\"bad\\ufffd\"");
  EXPECT_EQ(json_string("tab\tcr\r"), "\"tab\\tcr\\r\"");
}

TEST(result_files, names_that_could_leave_the_folder_are_unsafe) {
  for (const char* name : {"", "../x", "a/b", ".hidden", "-flag", "x y", "caf\xc3\xa9"}) {
    EXPECT_FALSE(is_safe_file_name(name)) << name;
  }
  for (const char* name : {"run_1", "Schulze-2.5", "a"}) EXPECT_TRUE(is_safe_file_name(name)) << name;
  EXPECT_FALSE(is_safe_file_name(std::string(101, 'a')));
}

TEST(result_files, files_appear_only_when_committed) {
  const std::filesystem::path folder = std::filesystem::current_path() / "result_files_test";
  std::filesystem::remove_all(folder);
  prepare_output_folder(folder.string());
  {
    ResultFiles files(folder.string());
    files.write("failed.csv", "x\r\n");
  }  // never committed: removed
  EXPECT_TRUE(std::filesystem::is_empty(folder));
  {
    ResultFiles files(folder.string());
    files.write("done.csv", "y\r\n");
    EXPECT_FALSE(std::filesystem::exists(folder / "done.csv"));
    files.commit();
  }
  EXPECT_TRUE(std::filesystem::exists(folder / "done.csv"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder), std::filesystem::directory_iterator()), 1);
  std::filesystem::remove_all(folder);
  EXPECT_THROW(prepare_output_folder("/proc/no_such_folder/x"), Error);
}
